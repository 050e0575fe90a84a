"""Tests of the worst-case methods behind the minimax and FFGB worst-case claims (issue 16).

``"fedprox-moreau"`` (FedProx on the Moreau-envelope objective over a bounded set, Algorithm 2 of
Chen et al.) and ``"fedavg-ef"`` (FedAvg with a relative-error oracle and error feedback, FFGB):
closed forms the SDPs must reproduce, the β = μ reduction the minimax claims rest on, the
Lemma 15 counterexample run by the toolkit's own Algorithm 2, and bad input.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from fedtheory.algorithms import fedprox
from fedtheory.errors import ParameterError
from fedtheory.problems import FederatedDataset
from fedtheory.worstcase import METHODS, worst_case

REL = 1e-5


def close(a: float, b: float, rel: float = REL, atol: float = 1e-7) -> bool:
    return abs(a - b) <= rel * abs(b) + atol


def harmonic(mu: float, lam: float, count: int) -> list[float]:
    return [1.0 / ((mu + lam) * (k + 1)) for k in range(count)]


def theory_server(mu: float, lam: float, rounds: int) -> list[float]:
    return [2.0 * (mu + lam) / (lam * mu * (t + 1)) for t in range(rounds)]


def moreau(**parameters: Any) -> float:
    return worst_case("fedprox-moreau", solver="CLARABEL", **parameters).value


# ---------------------------------------------------------------------------- fedprox-moreau


@pytest.mark.parametrize(("beta", "lam", "k"), [(2.0, 1.0, 1), (1.5, 0.1, 2), (2.0, 1.0, 4)])
def test_inner_loop_worst_case(beta: float, lam: float, k: int) -> None:
    """Lemma 14's inner loop: the measured worst case is ((β − μ)/(β + λ))² D²/k² (μ = D = 1),
    far below the bound 8β²D²/(μ²(k + 1))."""
    value = moreau(
        m=1,
        T=1,
        K=k,
        L=beta,
        mu=1.0,
        lam=lam,
        radius=0.5,
        eta=harmonic(1.0, lam, k),
        interior_optima=True,
        measure="local",
    )
    assert close(value, ((beta - 1.0) / (beta + lam)) ** 2 / k**2, rel=1e-4)
    assert value < 8 * beta**2 / (k + 1)


def _isotropic(K: int, K_final: int, measure: str, project: bool) -> float:
    lam = 1.0
    return moreau(
        m=2,
        T=2,
        K=K,
        K_final=K_final,
        L=1.0,
        mu=1.0,
        lam=lam,
        radius=0.5,
        eta=harmonic(1.0, lam, max(K, K_final)),
        eta_g=theory_server(1.0, lam, 2),
        project_global=project,
        interior_optima=True,
        measure=measure,
    )


def test_beta_equal_mu_one_local_step_is_exact() -> None:
    """At β = μ the first local step 1/(μ + λ) lands on the proximal point and the others stay:
    the iterates do not depend on K ≥ 1 (what lets the Lemma 15 / Prop. 16 claims meet (38))."""
    one = moreau(
        m=1, T=1, K=1, L=1.0, mu=1.0, lam=2.0, radius=0.5, eta=harmonic(1.0, 2.0, 1),
        measure="local",
    )  # fmt: skip
    assert abs(one) < 1e-6
    assert close(_isotropic(3, 0, "distance", False), _isotropic(1, 0, "distance", False))
    assert close(_isotropic(1, 2, "objective", False), _isotropic(1, 1, "objective", False))


def test_unprojected_server_step_breaks_lemma_15_and_the_toolkit_reproduces_it() -> None:
    """Algorithm 2 as printed: worst case λ²D² = 100 at T = 2, λ = 10 (bound 4.84); the toolkit's
    own FedProx (numba round loop) on the one-client instance of the PEP reaches it."""
    lam, T = 10.0, 2
    value = moreau(
        m=1,
        T=T,
        K=1,
        L=1.0,
        mu=1.0,
        lam=lam,
        radius=0.5,
        eta=harmonic(1.0, lam, 1),
        eta_g=theory_server(1.0, lam, T),
        project_global=False,
        interior_optima=True,
    )
    assert close(value, lam**2, rel=1e-6, atol=0.0)
    bound = 12 * (lam + 1) ** 2 * min(1.0, lam**2) / (lam**2 * (T + 1))  # m‖p‖² = 1, D = β = μ = 1
    assert value > 20 * bound
    # 𝒲 = [−½, ½], one sample z = ½ (L(w) = ½(w − ½)², w̃^g = ½), w_0^g = −½
    data = FederatedDataset(np.array([[[0.5]]]), np.zeros((1, 1)), np.array([1]), "mean", 0.5)
    for steps in (1, 4):
        run = fedprox(
            data,
            lam=lam,
            rounds=T,
            local_steps=steps,
            local_step="theory",
            server_step="theory",
            mu=1.0,
            batch=1,
            project_global=False,
            init_global=np.array([-0.5]),
            init_local=np.array([[-0.5]]),
            seed=0,
        )
        assert close(float((run.global_model[0] - 0.5) ** 2), value, rel=1e-6, atol=0.0)


def test_projected_server_step_converges_in_two_rounds_at_beta_equal_mu() -> None:
    """With w^g projected, Σp_iF_i is the quadratic (μ_F/2)‖w − w̃^g‖² on 𝒲 and the step 1/μ_F
    of round 1 lands on w̃^g: ℰ_OPT is 0 from T = 2 on; unprojected (w^g reflected out of 𝒲
    in round 0) the distance is D² = 1 and ℰ_OPT 1/4 at λ = μ = 1."""
    assert abs(_isotropic(1, 1, "objective", True)) < 1e-6
    assert close(_isotropic(1, 0, "distance", False), 1.0)
    assert close(_isotropic(1, 1, "objective", False), 0.25)


# --------------------------------------------------------------------------------- fedavg-ef


def ef(
    measure: str = "distance",
    *,
    m: int = 1,
    K: int = 1,
    T: int = 1,
    gamma: float,
    feedback: bool = True,
    mu: float = 0.5,
) -> float:
    """Worst case of ``"fedavg-ef"`` with G = 1, steps 2/(μ(s + 1)) and ‖x_0 − x*‖² ≤ 100."""
    return worst_case(
        "fedavg-ef",
        solver="CLARABEL",
        measure=measure,
        m=m,
        K=K,
        T=T,
        G=1.0,
        mu=mu,
        gamma=gamma,
        eta=[2.0 / (mu * (s + 1)) for s in range(1, K * T + 1)],
        feedback=feedback,
        R2=100.0,
    ).value


@pytest.mark.parametrize(("K", "gamma"), [(1, 0.5), (3, 0.5), (4, 0.3)])
def test_worst_residual_is_c_K_times_G(K: int, gamma: float) -> None:
    c_K = (1 - gamma) * (1 - (1 - gamma) ** K) / gamma
    assert close(math.sqrt(ef("residual", K=K, gamma=gamma)), c_K, rel=1e-6)
    # the oracle's output: (2 − γ)(1 − (1 − γ)^K)G/γ
    h = (2 - gamma) * (1 - (1 - gamma) ** K) / gamma
    assert close(math.sqrt(ef("oracle", K=K, gamma=gamma)), h, rel=1e-6)


def test_exact_oracle_one_step_is_the_gradient_gap() -> None:
    """γ = 1, K = T = 1, μη = 1: x_1 = −∇f(x_0)/μ, x* = −∇f(x*)/μ, so the worst distance is
    (2G/μ)² (subgradients of norm G in opposite directions)."""
    assert close(ef(gamma=1.0), (2 * 1.0 / 0.5) ** 2, rel=1e-6)


def test_feedback_changes_the_worst_case() -> None:
    with_feedback = ef(K=3, T=2, gamma=0.5, m=2)
    without = ef(K=3, T=2, gamma=0.5, m=2, feedback=False)
    assert with_feedback > 0 and without > 0 and not close(with_feedback, without, rel=1e-3)


# ------------------------------------------------------------------------------- bad input


_GOOD = {"T": 1, "K": 1, "L": 2.0, "mu": 1.0, "lam": 1.0, "radius": 0.5, "eta": 0.5}


@pytest.mark.parametrize(
    ("change", "parameter"),
    [
        ({"mu": 3.0}, "mu"),
        ({"mu": 0.0}, "mu"),
        ({"radius": 0.0}, "radius"),
        ({"lam": -1.0}, "lam"),
        ({"K": [1, 2]}, "K"),
        ({"K": 0}, "K"),
        ({"K_final": -1}, "K_final"),
        ({"eta": [0.5, 0.5]}, "eta"),
        ({"eta_g": [1.0, 1.0]}, "eta_g"),
        ({"project_global": 1}, "project_global"),
        ({"measure": "gradient"}, "measure"),
        ({"zeta2": 1.0}, "zeta2"),
        ({"weights": [0.5, 0.5]}, "weights"),
    ],
)
def test_fedprox_moreau_refuses_bad_input(change: dict[str, object], parameter: str) -> None:
    with pytest.raises(ParameterError) as info:
        worst_case("fedprox-moreau", **{**_GOOD, **change})  # type: ignore[arg-type]
    assert info.value.parameter == parameter


@pytest.mark.parametrize(
    ("change", "parameter"),
    [
        ({"gamma": 1.5}, "gamma"),
        ({"gamma": 0.0}, "gamma"),
        ({"G": -1.0}, "G"),
        ({"eta": [1.0, 1.0]}, "eta"),
        ({"B2": 0.0}, "B2"),
        ({"feedback": "yes"}, "feedback"),
        ({"measure": "function"}, "measure"),
        ({"L": 1.0}, "L"),
    ],
)
def test_fedavg_ef_refuses_bad_input(change: dict[str, object], parameter: str) -> None:
    good = {"T": 1, "G": 1.0, "mu": 0.5, "gamma": 0.5, "eta": 1.0}
    with pytest.raises(ParameterError) as info:
        worst_case("fedavg-ef", **{**good, **change})  # type: ignore[arg-type]
    assert info.value.parameter == parameter


def test_required_parameters_come_from_the_settings() -> None:
    assert METHODS["fedprox-moreau"].required() == ("T", "K", "L", "mu", "lam", "radius", "eta")
    assert METHODS["fedavg-ef"].required() == ("T", "G", "mu", "gamma", "eta")
    with pytest.raises(ParameterError) as info:
        worst_case("fedavg-ef", T=1, G=1.0, mu=0.5, eta=1.0)
    assert info.value.parameter == "gamma"
