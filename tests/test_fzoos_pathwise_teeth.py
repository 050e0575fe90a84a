"""Teeth of the pathwise Lemma C.11 claim (guide §5 check 10, verification/fzoos/pathwise.py).

Theory asserted:
- the claim's experiment evaluates the registered ``fzoos.lemmac11`` at every (r, i, t), and it
  agrees with the vectorised ``lemma_c11_rhs`` of the bounds module on a logged run;
- the lemma holds on a logged run of the claim's catalog (no violated (r, i, t));
- mutating the bound makes logged runs violate it: Ξ taken from the previous round (an indexing
  bug) fails on the synthetic quadratic at C = 50, and the constant 22 → 1 fails on the non-convex
  F (the FZooS oracle, T = 2), so the claim can fail on its own data. On the convex quadratics
  the 22 → 1 mutant is *not* caught (the drift of GD on a convex quadratic stays below
  η²t²‖∇F(x_r)‖²): that mutation is weak there, which is why check 10's catalog includes the
  non-convex problem.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from fedtheory.bounds._fzoos_convergence import lemma_c11_rhs

ROOT = Path(__file__).resolve().parents[1]


def _load() -> ModuleType:
    name = "_fzoos_pathwise_claims"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "verification/fzoos/pathwise.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def pathwise() -> ModuleType:
    return _load()


def _params(pathwise: ModuleType, **kw: Any) -> dict[str, Any]:
    return {**pathwise._DRIFT_FIXED, "rounds": 5, "eta_frac": 1.0, **kw}


def test_registered_bound_at_every_point_equals_the_vectorised_form(pathwise: ModuleType) -> None:
    params = _params(pathwise, problem="synthetic", C=5.0, algorithm="scaffold2", T=5)
    problem, x0 = pathwise._setup(params, 3)
    beta = pathwise._beta(problem)
    eta = 1.0 / (beta * 5)
    run = pathwise._run(problem, params, 3, x0, T=5, eta=eta, rounds=5)
    log = run.log.for_theorem()
    registered = pathwise.lemma_c11_rhs_registered(log, eta, 5, beta)
    np.testing.assert_allclose(
        registered, lemma_c11_rhs(log.disparity, log.grad_norm2, eta, 5), rtol=1e-12
    )
    assert np.all(log.drift <= registered * (1 + 1e-12))


@pytest.mark.parametrize("algorithm", ["fedzo", "scaffold1", "fzoos_oracle"])
def test_the_lemma_holds_and_the_previous_round_mutant_fails(
    pathwise: ModuleType, algorithm: str
) -> None:
    params = _params(pathwise, problem="synthetic", C=50.0, algorithm=algorithm, T=10)
    assert pathwise.drift_run(params, 0)["violations"] == 0
    mutant = pathwise.drift_run({**params, "mutant": "prev-round"}, 0)
    assert mutant["violations"] > 0
    assert mutant["drift"] > mutant["bound"]


def test_the_constant_22_is_needed_on_the_nonconvex_runs(pathwise: ModuleType) -> None:
    params = _params(pathwise, problem="nonconvex", C=0.5, algorithm="fzoos_oracle", T=2)
    honest = [pathwise.drift_run(params, seed) for seed in range(4)]
    mutant = [pathwise.drift_run({**params, "mutant": "22to1"}, seed) for seed in range(4)]
    assert all(out["violations"] == 0 for out in honest)
    assert any(out["violations"] > 0 for out in mutant)


def test_the_22_mutant_is_weak_on_the_convex_quadratic(pathwise: ModuleType) -> None:
    """Documented weakness: on the synthetic quadratic the 22 → 1 mutant survives."""
    params = _params(pathwise, problem="synthetic", C=5.0, algorithm="fzoos_oracle", T=5)
    assert pathwise.drift_run({**params, "mutant": "22to1"}, 0)["violations"] == 0
