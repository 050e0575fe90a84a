"""The heterogeneity radii of FFGB.C (Theorem 3.2 / D.1, ω_TV) and FFGB.L (Theorem 3.3 / E.1,
ω_W1), judged on exact constructions (reading guide §3.5, §3.6, checks C7–C9).

- C7: FFGB.C (Algorithm 5, k0 = 3, B = 2G/(μγ), γ = 1, K = 4) on three marginal families whose
  ω_TV → 0 with ε — Dirichlet mixtures α_i = (1 − ε)α_0 + εν_i, one private atom per client
  with zero extension, and with adversarial extension. The asymptotic error stays below the
  proof's explicit radius 128·GBω_TV/(μγ) in every family, and in the private-atom families it
  is linear in ω_TV exactly like the radius of Theorem 3.2 (the linear order is attained).
- C8: pure covariate shift (one conditional, common full support) gives no error at all,
  however large ω_TV: the TV radius is a worst case.
- C9: FFGB.L on translated supports x_{i,j} = z_j + iδ: TV stays 1 − 1/N for every δ > 0 (the
  TV radius is vacuous) while the error vanishes with ω_W1 at least as fast as Theorem 3.3's
  radius (DL² + BL)ω_W1/(γ²μ).

At γ = 1 the oracle floor is zero, so the whole asymptotic error is the heterogeneity bias.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory import bounds
from fedtheory.papers.ffgb import distances, ffgb_c, ffgb_l, oracles, populations
from fedtheory.papers.ffgb.lipschitz import translated_supports
from fedtheory.verify import LowerBoundHolds, Measurement, RateExponent, Sweep, UpperBoundHolds

OMEGA_EXPLICIT = bounds.get("ffgb.thm32.omega-explicit")
THM32_RADIUS = bounds.get("ffgb.thm32.radius")
THM33_RADIUS = bounds.get("ffgb.thm33.radius")

_FAMILIES = {
    "dirichlet": lambda eps, seed: populations.dirichlet_mixture(
        eps, num_atoms=30, num_clients=6, seed=seed
    ),
    "private-zero": lambda eps, seed: populations.private_atoms(
        eps, num_shared=30, num_clients=6, extension="zero", seed=seed
    ),
    "private-adversarial": lambda eps, seed: populations.private_atoms(
        eps, num_shared=30, num_clients=6, extension="adversarial", seed=seed
    ),
    "covariate-shift": lambda eps, seed: populations.covariate_shift(
        eps, num_atoms=30, num_clients=6, seed=seed
    ),
}


def ffgb_c_radius(params: dict[str, Any], seed: int) -> dict[str, float]:
    """FFGB.C's error ‖Π_B(f^T) − f*‖²_α after T rounds, with ω_TV and the constants of the
    radius (G, the minimal admissible B = 2G/(μγ), μ, γ, k0, ‖f⁰‖_∞ = 0).

    The population is drawn from the ``population`` parameter (one problem per curve, the same
    ν_i and labels at every ε); FFGB.C with the scale oracle is deterministic.
    """
    population = _FAMILIES[str(params["family"])](float(params["eps"]), int(params["population"]))
    gamma = float(params["gamma"])
    run = ffgb_c(
        population,
        oracles.scale(gamma, norm="sup"),
        rounds=int(params["T"]),
        local_steps=int(params["K"]),
    )
    return {
        "err": float(population.error(run.function)),
        "omega_TV": float(distances.omega_tv(population.alpha)),
        "G": float(population.G),
        "B": float(run.hyperparameters["B"]),
        "mu": float(population.mu),
        "k0": float(run.hyperparameters.get("k0", 3.0)),
        "f0_sup": 0.0,
        "tolerance": 1e-10,
    }


_C7_FIXED = {"gamma": 1.0, "K": 4, "T": 1500, "population": 7}
_EPS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 0.8]
radius_tv = Measurement(
    id="ffgb/thm32/radius-tv",
    experiment=ffgb_c_radius,
    notes=(
        "FFGB.C (Algorithm 5, η = 4/(μ(tK + k + 3)), B = 2G/(μγ) = 20), scale oracle in the "
        "sup norm (13) with γ = 1, K = 4, T = 1500; logistic populations of 30 shared atoms, "
        "N = 6 clients, μ = 0.1."
    ),
)


def _c7_sweeps(families: list[str], eps: list[float]) -> dict[str, Sweep]:
    return {
        "smoke": Sweep(
            grid={"family": families, "eps": [0.05, 0.2, 0.8]},
            fixed={**_C7_FIXED, "T": 300},
            replicates=1,
        ),
        "quick": Sweep(grid={"family": families, "eps": eps}, fixed=_C7_FIXED, replicates=1),
    }


radius_explicit = radius_tv.claim(
    id="ffgb/thm32/omega-explicit",
    statement=(
        "FFGB.C converges to a neighbourhood of f* whose ω_TV part is at most 128·GBω_TV/(μγ) "
        "(the constants of the proof of Theorem D.1); at γ = 1 this is the whole asymptotic error."
    ),
    criterion=UpperBoundHolds("err", OMEGA_EXPLICIT, x="eps", over="every"),
    bound=OMEGA_EXPLICIT,
    sweeps=_c7_sweeps(["dirichlet", "private-zero", "private-adversarial"], _EPS),
    notes=(
        "Check C7. The adversarial extension (h = ±G²_γ off supp α_i) is the tightest family: "
        "there err/(GBω/(μγ)) ≈ 0.3 (guide: 0.31), so the resolving power is ≈ 128/0.3 — the "
        "linear order is reached with a constant ≥ 0.3."
    ),
)
radius_linear = radius_tv.claim(
    id="ffgb/thm32/radius-linear-in-omega",
    statement=(
        "The radius of Theorem 3.2 is linear in ω_TV and this order is attained: with one "
        "private atom per client the asymptotic error scales exactly like 2G²ω_TV/(μ²γ²) "
        "(the radius at B = 2G/(μγ))."
    ),
    criterion=RateExponent("eps", "err", expected=THM32_RADIUS, bound_args={"C": 1.0}, band=0.1),
    bound=THM32_RADIUS,
    sweeps=_c7_sweeps(["private-zero", "private-adversarial"], _EPS),
    notes=(
        "Check C7/(P5). Read along ε: for private atoms ω_TV = ε(1 − 1/N) exactly, and the "
        "radius is evaluated at the measured ω_TV of every point. "
        "At γ = 1 the radius's oracle-floor term vanishes and its slope in ω_TV "
        "is 1; the private-atom constructions reach it (guide: slope 1.00). Spread-out "
        "Dirichlet mixtures give err ∝ ω² (below the radius, judged by "
        "ffgb/thm32/omega-explicit)."
    ),
)
covariate_shift = radius_tv.claim(
    id="ffgb/thm32/covariate-shift-harmless",
    statement=(
        "Under pure covariate shift (identical conditionals, one full support) FFGB.C reaches f* "
        "for every ω_TV: the TV radius of Theorem 3.2 is a worst case, not the typical bias."
    ),
    criterion=UpperBoundHolds("err", "tolerance", x="eps", over="every"),
    sweeps={
        "smoke": Sweep(
            grid={"family": ["covariate-shift"], "eps": [0.2, 0.8]},
            fixed={**_C7_FIXED, "T": 300},
            replicates=1,
        ),
        "quick": Sweep(
            grid={"family": ["covariate-shift"], "eps": [0.1, 0.2, 0.4, 0.8]},
            fixed=_C7_FIXED,
            replicates=1,
        ),
    },
    source=THM32_RADIUS.source,
    notes=(
        "Check C8 (characterisation): err < 1e-10 (guide ≈ 5e-32) where the radius "
        "2G²ω_TV/(μ²γ²) is ≥ 20 (ω_TV up to ≈ 0.5)."
    ),
)


# ======================================================================== C9: FFGB.L, W1
_DELTAS = [0.01, 0.03, 0.1, 0.3]


def _slope(x: np.ndarray, y: np.ndarray) -> float:
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def ffgb_l_radius(params: dict[str, Any], seed: int) -> dict[str, float]:
    """FFGB.L (corrected: query WO(u_i − Δ), η = 4/(tK + k + 3)) on translated supports with
    shifts δ ∈ {0.01, 0.03, 0.1, 0.3}: the log-log slope of the error in ω_W1 and that of
    Theorem 3.3's radius (DL² + BL)ω_W1/(γ²μ) over the same runs, the error at δ = 0 and the
    largest and smallest ω_TV over δ > 0; ``err_j``, ``omega_W1_j`` and ``radius_j`` are
    the curve at the j-th shift."""
    common = {
        "num_clients": int(params["N"]),
        "points_per_client": int(params["M"]),
        "lipschitz": float(params["L"]),
        "label_bound": float(params["B"]),
        "seed": int(params["population"]),
    }
    gamma, K, T = float(params["gamma"]), int(params["K"]), int(params["T"])

    def run(delta: float) -> tuple[float, Any]:
        data = translated_supports(delta=delta, **common)
        f = ffgb_l(
            data,
            oracles.scale(gamma, norm="lip"),
            rounds=T,
            local_steps=K,
            lipschitz_diagnostics=False,
        ).function
        return float(data.error(f)), data

    errors, omegas, radii, tvs = [], [], [], []
    for delta in _DELTAS:
        err, data = run(delta)
        errors.append(err)
        omegas.append(data.omega_w1)
        tvs.append(data.omega_tv)
        radii.append(
            THM33_RADIUS.evaluate(
                C=1.0,
                K=K,
                L=float(params["L"]),
                B=data.label_bound,
                mu=1.0,
                gamma=gamma,
                D=data.covering_distance,
                omega_W1=data.omega_w1,
            )
        )
    err0, _ = run(0.0)
    w = np.array(omegas)
    curve = {}  # the curve itself, per shift (drawn by figures/ffgb_radius.py)
    for j in range(len(_DELTAS)):
        curve.update(
            {f"err_{j}": errors[j], f"omega_W1_{j}": omegas[j], f"radius_{j}": float(radii[j])}
        )
    return {
        **curve,
        "slope": _slope(w, np.array(errors)),
        "bound_slope": _slope(w, np.array(radii)),
        "err_delta0": err0,
        "err_smallest": errors[0],
        "tv_min": float(min(tvs)),
        "tv_disjoint": 1.0 - 1.0 / int(params["N"]),
        "tolerance": 1e-12,
    }


radius_w1 = Measurement(
    id="ffgb/thm33/radius-w1",
    experiment=ffgb_l_radius,
    sweeps={
        "smoke": Sweep(
            grid={"population": [3]},
            fixed={"N": 5, "M": 30, "L": 2.0, "B": 1.0, "gamma": 1.0, "K": 4, "T": 100},
            replicates=1,
        ),
        "quick": Sweep(
            grid={"population": [3, 4]},
            fixed={"N": 5, "M": 30, "L": 2.0, "B": 1.0, "gamma": 1.0, "K": 4, "T": 400},
            replicates=1,
        ),
    },
    uses=[THM33_RADIUS],
    notes=(
        "FFGB.L, 1-D translated supports x_{i,j} = z_j + iδ, N = 5 clients of M = 30 points, "
        "labels u(x) = B sin(Lx/B) with L = 2, B = 1, scale oracle γ = 1, K = 4; ω_W1 exact "
        "(CDF formula), D the covering distance."
    ),
)
w1_rate = radius_w1.claim(
    id="ffgb/thm33/error-vanishes-with-w1",
    statement=(
        "FFGB.L's error vanishes with the W1 heterogeneity at least as fast as Theorem 3.3's "
        "radius (DL² + BL)ω_W1/(γ²μ): the log-log slope of the error in ω_W1 is at least the "
        "radius's."
    ),
    criterion=LowerBoundHolds(
        "slope", "bound_slope", x="population", over="every", scale="exponent"
    ),
    bound=THM33_RADIUS,
    notes=(
        "Check C9/(P7). The radius's slope exceeds 1 because D grows with δ too; the error's "
        "(guide: 1.3 at small ω, 1.8 over the range) is at least as steep."
    ),
)
w1_exact_at_zero = radius_w1.claim(
    id="ffgb/thm33/no-shift-no-error",
    statement=(
        "With identical supports (δ = 0, ω_W1 = 0) FFGB.L reaches f* (γ = 1): the radius "
        "vanishes with ω_W1."
    ),
    criterion=UpperBoundHolds("err_delta0", "tolerance", x="population", over="every"),
    source=THM33_RADIUS.source,
    notes="Check C9: err(δ = 0) < 1e-12 (guide: 8e-24).",
)
tv_vacuous = radius_w1.claim(
    id="ffgb/thm33/tv-stays-maximal",
    statement=(
        "Translated supports are disjoint for every δ > 0, so ω_TV = 1 − 1/N however small the "
        "shift: the TV radius of Theorem 3.2 cannot see what the W1 radius does."
    ),
    criterion=LowerBoundHolds("tv_min", "tv_disjoint", x="population", over="every", rtol=1e-9),
    source=THM33_RADIUS.source,
    notes="Check C9/(P6), the demonstration: TV is at its maximum while the error → 0.",
)
