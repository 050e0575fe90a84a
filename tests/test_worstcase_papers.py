"""The worst-case claims of fzoos and gifair (verification/{fzoos,gifair}/worstcase.py).

Theory asserted:
- the disparity map of Theorem C.1: Ξ has shape (R + 1, N, T), rounds 1..R carry the step
  budgets ε²_{rT+t−1} for every client and round R + 1 none, so Xi[rT + t − 1] = N·ε²;
- with Ξ ≡ 0 the claims' PEPs reproduce closed forms: Algorithm 1 with exact directions is GD
  with RT steps, whose worst gap is L·D_0/(4RTh + 2) for h = ηβ ≤ 1 (Drori & Teboulle 2014);
  the gradient step of a β-smooth f is exactly (1 + ηβ)-Lipschitz; ‖∇f‖² ≤ 2β(f − f*) is
  attained; GIFAIR with E = 1 is GD, max((1 − ημ)², (1 − ηL)²)^T·Δ0;
- the verdicts have teeth: below the round condition the printed Theorem C.1(i) is under the
  exact worst case (and the corrected bound refuses that R), the worst case of GIFAIR's
  Lemma 8.5 with E = 2 local steps exceeds Δ0 even with a shared minimiser, and planted bugs —
  a missing square in Lemma C.9, a lost factor 2 in Lemma C.10, one round too few in the
  theorem's index map — put the bounds below the exact worst case;
- GIFAIR's Theorem 3.7 PEP (σ = 0, λ = 0): the schedule sits on the boundary of the registered
  hypotheses (β = γ/(4L) with γ = 8L/μ), both bounds lie above their worst cases, and the two
  PEPs agree with L-smoothness: worst H-gap ≤ (L/2)·worst distance.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from fedtheory.bounds.fzoos import theorem_c1_sequences
from fedtheory.errors import FedTheoryError

ROOT = Path(__file__).resolve().parents[1]


def _load(paper: str) -> ModuleType:
    name = f"_{paper}_worstcase_claims"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / f"verification/{paper}/worstcase.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def fz() -> ModuleType:
    return _load("fzoos")


@pytest.fixture(scope="module")
def gf() -> ModuleType:
    return _load("gifair")


def _theorem(**kw: Any) -> dict[str, Any]:
    return {"beta": 1.0, "T": 2, "N": 1, "D0": 1.0, "eta_frac": 1.0, "solver": "CLARABEL", **kw}


def test_disparity_map_puts_the_budgets_in_rounds_1_to_R(fz: ModuleType) -> None:
    params = {"R": 3, "N": 2, "T": 2, "eps2": 0.5, "decay": 0.5}
    log = fz.disparity_log(params)
    assert log.shape == (4, 2, 2)
    assert np.all(log[-1] == 0.0)
    for r in range(3):
        for t in range(1, 3):
            assert np.all(log[r, :, t - 1] == 0.5 * 0.5 ** (r * 2 + t - 1))
    xi = theorem_c1_sequences(log)["Xi"]
    np.testing.assert_allclose(xi[:6], 2 * fz.step_budgets(params))
    assert np.all(xi[6:] == 0.0)


def test_exact_directions_give_gradient_descent_worst_case(fz: ModuleType) -> None:
    for R in (1, 3):
        out = fz.convex_point(_theorem(R=R, eps2=0.0), 0)
        h = 1.0 / (10 * 2)  # ηβ at eta_frac = 1, T = 2
        assert out["worst"] == pytest.approx(1.0 / (4 * R * 2 * h + 2), rel=1e-6)
        assert out["bound"] == pytest.approx(20.0 / R)  # 2D_0/(ηRT), Ξ ≡ 0
        assert out["radius"] == 1.0


def test_lemmas_c9_c10_are_attained(fz: ModuleType) -> None:
    out = fz.gradient_step_point({"beta": 2.0, "eta": 0.5, "alpha": 0.0, "dxy2": 1.5}, 0)
    assert out["worst"] == pytest.approx(1.5 * (1 + 0.5 * 2.0) ** 2, rel=1e-6)
    assert out["worst"] > 1.5 * (1 + 0.5 * 2.0)  # planted bug: the square dropped
    out = fz.gradient_gap_point({"beta": 4.0, "gap": 0.5}, 0)
    assert out["worst"] == pytest.approx(2 * 4.0 * 0.5, rel=1e-6)
    assert out["worst"] > 4.0 * 0.5  # planted bug: the factor 2 dropped


def test_printed_strongly_convex_is_below_the_worst_case_without_the_round_condition(
    fz: ModuleType,
) -> None:
    params = _theorem(R=1, alpha=0.1, eps2=0.0)
    out = fz.strongly_convex_few_rounds_point(params, 0)
    assert out["bound_printed"] < out["worst"] - 1e-3
    assert out["rounds_needed"] > 100
    with pytest.raises(FedTheoryError):  # the corrected bound's hypotheses refuse R = 1
        fz.strongly_convex_point(params, 0)


def test_theorem_index_map_has_teeth(fz: ModuleType) -> None:
    """One round too few in the PEP (x_0..x_{R−1} judged against the bound of R) would make
    the non-convex corrected bound look violated: the min over fewer iterates is larger."""
    params = {"beta": 1.0, "T": 2, "N": 1, "D1": 1.0, "x_ratio": 0.035, "eps2": 0.0}
    right = fz.nonconvex_point({**params, "R": 3}, 0)
    assert right["worst"] < right["bound"]
    short = fz.nonconvex_point({**params, "R": 1}, 0)
    assert short["worst"] > right["bound"]


def test_lemma85_local_steps_break_it_and_one_step_keeps_it(gf: ModuleType) -> None:
    base = {"L": 1.0, "Delta0": 1.0, "rounds": 1, "zeta2": 0.0, "mu": 0.0}
    assert gf.lemma85_point({**base, "E": 2, "eta_L": 1.0}, 0)["worst"] > 1.05
    for eta_L, mu in ((0.5, 0.3), (1.9, 0.3)):
        out = gf.lemma85_point({**base, "E": 1, "eta_L": eta_L, "mu": mu, "rounds": 2}, 0)
        rate = max((1 - eta_L * mu) ** 2, (1 - eta_L) ** 2) ** 2
        assert out["worst"] == pytest.approx(rate, rel=1e-5)


def test_thm37_pep_is_consistent_and_below_both_bounds(gf: ModuleType) -> None:
    params = {"L": 1.0, "mu": 0.5, "D0": 1.0, "Gamma": 0.01, "E": 2, "rounds": 2, "G2": 1.0}
    assert gf.schedule(params) == (4.0, 16.0)
    out = gf.thm37_point(params, 0)
    assert out["worst_gap"] <= 0.5 * out["worst_distance"] + 1e-6
    assert out["worst_distance"] < out["bound_distance"]
    assert out["worst_gap"] < out["bound_printed"]
