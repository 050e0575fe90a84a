"""``fedtheory init KEY``: the files of a paper of your own, ready to run.

:func:`scaffold` writes, in a folder (the working directory by default)::

    README.md                  what to do next
    claims/<key>_bounds.py     the paper and its theorems: register_paper + Bound + register
    claims/<key>_thm1.py       two claims that check Theorem 1 on a numpy experiment
    figures/<key>_thm1.py      a figure drawn from the claims' data (fedtheory figures make)

The example theorem holds and is tight: gradient descent with step 1/L on a quadratic whose
Hessian has eigenvalues in [μ, L] satisfies f(x_T) − f* ≤ (1 − μ/L)^{2T} (f(x_0) − f*), with
equality when x_0 − x* is an eigenvector of the eigenvalue μ. One claim checks the inequality
on random starts, the other the equality on the worst start — so ``fedtheory mutate`` kills
every mutant of the formula that changes its value where the claims measure.

The claims folder follows the convention of :mod:`fedtheory.verify.discovery`: a claim file may
import the helper modules of its own folder by name, and a file that another file of the folder
imports is a helper, not a claim file. The templates are strings in this module (no package
data).
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from fedtheory.bounds._citation import check_paper_key
from fedtheory.errors import ParameterError

__all__ = ["scaffold", "scaffold_files"]

_README = """\
# {key}: a paper of your own in fedtheory

Written by `fedtheory init {key}`. The example is a real theorem that holds (and is tight):
gradient descent with step 1/L on a quadratic with Hessian eigenvalues in [μ, L] satisfies
f(x_T) − f* ≤ (1 − μ/L)^(2T) (f(x_0) − f*). Replace it with yours.

| file | what it holds |
|---|---|
| `claims/{key}_bounds.py` | the paper (`register_paper`) and its theorems (`Bound`, `register`) |
| `claims/{key}_thm1.py` | claims: an experiment, a sweep per profile, a criterion that can fail |
| `figures/{key}_thm1.py` | a figure drawn from the claims' data |

Run from this folder:

```
fedtheory verify claims --profile smoke              # seconds: the plumbing works
fedtheory verify claims                              # quick profile: the verdicts
fedtheory bounds --load claims show {key}.thm1       # the theorem as fedtheory reads it
fedtheory mutate claims --paper {key}                # plant bugs in the bounds: are they caught?
fedtheory figures make {key}_thm1                    # docs/figures/{key}_thm1.png
```

Next steps:

1. Edit `claims/{key}_bounds.py`: your authors and title in `register_paper`, then your
   theorems. Bound ids are `{key}.<item>`, citations `Citation("{key}", "Theorem 2")`.
   `fedtheory bounds --load claims check --paper {key}` evaluates each at its example point.
2. Add claims in `claims/` (any `*.py` file; it imports `{key}_bounds` like the example).
   Claim ids are `{key}/<theorem>/<slug>`; every claim needs `smoke` and `quick` sweeps.
3. Run `fedtheory mutate claims --paper {key}`: a mutant that survives is an encoding error
   your claims could not see — add a claim that would (e.g. one where the bound is attained).

Results are cached in `.fedtheory/results.sqlite` under a fingerprint of the code that ran —
the claim files and `{key}_bounds.py` included — so editing a theorem recomputes what depends
on it. Documentation: "Your own paper" in fedtheory's docs/verification.md.
"""

_BOUNDS = '''\
"""The theorems of {key}, as fedtheory bounds.

A helper module of the claims folder: the claim files import it (``import {key}_bounds``), so
``fedtheory verify claims`` loads it in the runner and in every worker, and the results are
cached under a fingerprint that covers this file — editing a theorem recomputes its claims.
It is not a claim file itself (a file another file of the folder imports never is).
"""

from __future__ import annotations

import sympy as sp

from fedtheory.bounds import (
    COMMON,
    Bound,
    Citation,
    Hypothesis,
    Vocabulary,
    register,
    register_paper,
)

#: The paper. Registering it again with the same data is harmless (claims load in workers too).
PAPER = register_paper(
    "{key}",
    authors="A. Author, B. Author",
    title="The title of the paper",
    reference="unpublished ({year})",
)

# Symbols: the quantities papers share come from COMMON (same name, same meaning, same domain):
# L smoothness, mu strong convexity, T iterations, Delta0 initial gap. Declare your own in V:
#     eta = V.declare("eta", "step size", latex=r"\\eta", positive=True)
V = Vocabulary("{key}", parent=COMMON)
L, mu, T, Delta0 = (COMMON.symbol(name) for name in ("L", "mu", "T", "Delta0"))

#: Theorem 1: gradient descent with step 1/L on a quadratic. With x_0 − x* = Σ c_i v_i in the
#: eigenvectors of the Hessian (eigenvalues λ_i in [μ, L]), x_T − x* = Σ (1 − λ_i/L)^T c_i v_i,
#: so f(x_T) − f* = ½ Σ λ_i (1 − λ_i/L)^{{2T}} c_i² ≤ (1 − μ/L)^{{2T}} (f(x_0) − f*), with
#: equality when x_0 − x* is an eigenvector of μ.
THM1 = register(
    Bound(
        "{key}.thm1",
        (1 - mu / L) ** (2 * T) * Delta0,
        kind="upper",
        status="printed",
        source=Citation("{key}", "Theorem 1"),
        quantity="f(x_T) − f*",
        quantity_latex=r"f(x_T) - f^\\star",
        statement=(
            "Gradient descent x_{{t+1}} = x_t − ∇f(x_t)/L on a quadratic f whose Hessian has "
            "eigenvalues in [μ, L] satisfies f(x_T) − f* ≤ (1 − μ/L)^{{2T}} (f(x_0) − f*), with "
            "equality when x_0 − x* is an eigenvector of the eigenvalue μ."
        ),
        hypotheses=[Hypothesis(sp.Le(mu, L), "the eigenvalues lie in [μ, L]")],
        example={{"L": 10, "mu": 1, "T": 20, "Delta0": 1}},
        vocabulary=V,
    )
)
'''

_CLAIMS = '''\
"""Claims on Theorem 1 of {key} (``{key}_bounds.THM1``).

The experiment draws a quadratic f(x) = ½ xᵀAx (x* = 0, f* = 0) whose Hessian A = Q diag(λ) Qᵀ
has a random orthogonal Q and eigenvalues λ evenly spaced in [μ, L], runs gradient descent with
step 1/L for T iterations and returns f(x_T) − f* and the initial gap Delta0. Numpy only: the
smoke and quick profiles take seconds.

- ``{key}/thm1/holds``: the bound holds for every random start (checked replicate by replicate);
- ``{key}/thm1/tight``: from the worst start (an eigenvector of μ) the bound is attained —
  an identity, so a formula off by any factor where the claims measure fails it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from fedtheory.verify import Claim, Identity, Sweep, UpperBoundHolds

import {key}_bounds  # the paper's bounds: a helper module of this folder (import it by name)

THM1 = {key}_bounds.THM1


def _gd_gap(params: dict[str, Any], seed: int, worst_start: bool) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    d, L, mu, T = int(params["d"]), float(params["L"]), float(params["mu"]), int(params["T"])
    eigenvalues = np.linspace(mu, L, d)
    q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    hessian = (q * eigenvalues) @ q.T
    # the worst start lies along the eigenvector of μ (at a random distance)
    x = q[:, 0] * rng.uniform(0.5, 2.0) if worst_start else rng.standard_normal(d)
    delta0 = 0.5 * x @ hessian @ x
    for _ in range(T):
        x = x - (hessian @ x) / L
    return {{"gap": float(0.5 * x @ hessian @ x), "Delta0": float(delta0)}}


def gd_gap_random_start(params: dict[str, Any], seed: int) -> dict[str, float]:
    """f(x_T) − f* of GD with step 1/L from a standard normal start."""
    return _gd_gap(params, seed, worst_start=False)


def gd_gap_worst_start(params: dict[str, Any], seed: int) -> dict[str, float]:
    """f(x_T) − f* of GD with step 1/L from a start on the eigenvector of μ."""
    return _gd_gap(params, seed, worst_start=True)


thm1_holds = Claim(
    id="{key}/thm1/holds",
    statement="GD with step 1/L: f(x_T) − f* ≤ (1 − μ/L)^{{2T}} (f(x_0) − f*) from every start.",
    bound=THM1,  # the source is the bound's citation
    experiment=gd_gap_random_start,
    sweeps={{
        "smoke": Sweep(
            grid={{"L": [1.0, 4.0], "T": [1, 5, 20]}}, fixed={{"mu": 0.5, "d": 5}}, replicates=4
        ),
        "quick": Sweep(
            grid={{"L": [1.0, 4.0, 16.0], "T": [1, 3, 10, 30, 100]}},
            fixed={{"mu": 0.5, "d": 10}},
            replicates=20,
        ),
    }},
    criterion=UpperBoundHolds("gap", THM1, x="T", over="every"),
)

thm1_tight = Claim(
    id="{key}/thm1/tight",
    statement="From a start on the eigenvector of μ the bound is attained: equality.",
    bound=THM1,
    experiment=gd_gap_worst_start,
    sweeps={{
        "smoke": Sweep(
            grid={{"L": [1.0, 4.0], "T": [1, 5, 20]}}, fixed={{"mu": 0.5, "d": 5}}, replicates=2
        ),
        "quick": Sweep(
            grid={{"L": [1.0, 4.0, 16.0], "T": [1, 3, 10, 30]}},
            fixed={{"mu": 0.5, "d": 10}},
            replicates=3,
        ),
    }},
    criterion=Identity("gap", THM1, rtol=1e-6, x="T"),
    notes="Equality up to rounding (relative 1e-6): the bound is the exact worst case.",
)
'''

_FIGURE = '''\
"""Theorem 1 of {key}: the measured gap against the bound (1 − μ/L)^{{2T}} Δ0.

Data: the claims ``{key}/thm1/*`` of ``claims/{key}_thm1.py``, run through the runner and cached
in the store. Make it from the folder above with ``fedtheory figures make {key}_thm1`` or
``python figures/{key}_thm1.py`` (writes docs/figures/{key}_thm1.png).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from fedtheory import bounds
from fedtheory.figures import FigureScript, main
from fedtheory.plotting import MEASURED_STYLE, PALETTE
from fedtheory.verify import ClaimResult

CLAIMS = Path(__file__).resolve().parents[1] / "claims"


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """(f(x_T) − f*)/Δ0 against T, one colour per L: random starts, worst starts, the bound."""
    thm1 = bounds.get("{key}.thm1")  # registered by the claims, loaded before draw is called
    figure = Figure(figsize=(7, 4.5))
    ax = figure.subplots()
    holds = results["{key}/thm1/holds"].measurements
    tight = results["{key}/thm1/tight"].measurements
    assert holds is not None and tight is not None
    values_of_L = sorted({{float(p.params["L"]) for p in holds.points}})
    for colour, L in zip(PALETTE, values_of_L, strict=False):
        mine = sorted(
            (p for p in holds.points if float(p.params["L"]) == L), key=lambda p: p.params["T"]
        )
        T = np.array([float(p.params["T"]) for p in mine])
        for p in mine:
            ratio = p["gap"] / p["Delta0"]
            ax.scatter(np.full(len(ratio), p.params["T"]), ratio, color=colour, s=6, alpha=0.4)
        worst = sorted(
            (p for p in tight.points if float(p.params["L"]) == L), key=lambda p: p.params["T"]
        )
        ax.plot(
            [float(p.params["T"]) for p in worst],
            [float(np.mean(p["gap"] / p["Delta0"])) for p in worst],
            color=colour,
            label=f"worst start, L = {{L:g}}",
            **MEASURED_STYLE,
        )
        mu = float(mine[0].params["mu"])
        bound = thm1.evaluate(L=L, mu=mu, T=T.astype(int), Delta0=1.0)
        ax.plot(T, bound, color=colour, linestyle="--")
    ax.set_yscale("log")  # a linear rate: straight lines in T
    ax.set_xlabel("iterations T")
    ax.set_ylabel("(f(x_T) − f*) / Δ0")
    ax.set_title("{key}, Theorem 1: dots random starts, solid worst start, dashed the bound")
    ax.legend(fontsize=8)
    return figure


FIGURE = FigureScript(
    name="{key}_thm1",
    title="{key} Theorem 1: GD on quadratics, measured gap vs (1 − μ/L)^{{2T}} Δ0",
    claims="{key}/thm1/*",
    draw=draw,
    profile="quick",
    catalog=(str(CLAIMS),),
    source="{key}, Theorem 1",
)

if __name__ == "__main__":
    main(FIGURE)
'''


def scaffold_files(key: str) -> dict[str, str]:
    """The files :func:`scaffold` writes for paper ``key``: relative path → text.

    Raises
    ------
    ParameterError
        ``key`` is not a paper key (a lowercase letter, then lowercase letters or digits) or is
        the key of a paper fedtheory ships.
    """
    check_paper_key(key, parameter="KEY")
    values = {"key": key, "year": datetime.date.today().year}
    return {
        "README.md": _README.format(**values),
        f"claims/{key}_bounds.py": _BOUNDS.format(**values),
        f"claims/{key}_thm1.py": _CLAIMS.format(**values),
        f"figures/{key}_thm1.py": _FIGURE.format(**values),
    }


def scaffold(key: str, directory: str | os.PathLike[str] = ".") -> list[Path]:
    """Write the files of a paper of your own (see the module docstring) into ``directory``.

    Nothing is written when any of the files exists.

    Returns
    -------
    list[Path]
        The files written.

    Raises
    ------
    ParameterError
        A bad key (see :func:`scaffold_files`), a ``directory`` that is a file, or a file that
        already exists (nothing is overwritten).
    """
    files = scaffold_files(key)
    root = Path(directory)
    if root.exists() and not root.is_dir():
        raise ParameterError(parameter="--dir", value=str(root), rule="is not a folder")
    existing = [name for name in files if (root / name).exists()]
    if existing:
        raise ParameterError(
            parameter="--dir",
            value=str(root),
            rule=f"already holds {', '.join(existing)}; nothing was written (fedtheory init "
            "never overwrites: choose another folder with --dir)",
        )
    written = []
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as handle:
            handle.write(text)
        written.append(path)
    return written
