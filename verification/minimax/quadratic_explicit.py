"""Explicit constants, federated stability and changes of units on GM-Q (Chen et al.; guide V7, V8).

Theorems 4 and 6 are order statements; guide §3.1 derives their explicit constants from the
proofs (``minimax.thm4.explicit``, ``minimax.thm6.aer.explicit``, ``minimax.thm6.ier.explicit``,
``minimax.thm6.stability``, ``minimax.thm6.federated-stability``). On GM-Q (ℓ(w; z) = ½‖w − z‖²
in a ball, so that ‖ℓ‖∞ is finite) every quantity they bound is computed exactly per dataset.
These bounds are loose by design — a stability argument pays ‖ℓ‖∞ where the risk pays s² — so
"the bound holds" (the claims of V7, V8) sees only gross errors. What the data can also say:

* **rates where they are attained.** Local training's excess risk is exactly ds²/(2n_i), so
  the data decay in n_i like 32β‖ℓ‖∞/(μn_i); replacing one sample of client i moves the FedAvg
  ERM by p_i‖z − z'‖/n_i, so along the clients (sample weights p_i = n_i/N) the movement is as
  flat in n_i as the stability bounds ∝ p_i/n_i are.
* **changes of units.** A bound must have the units of what it bounds. Rescaling the data by u
  (centre, R, noise and radius × u; ‖ℓ‖∞ × u², β = μ = 1 unchanged) multiplies every excess
  risk and loss change by u² and every distance by u; rescaling the loss by u (ℓ_u = u·ℓ: the
  same ERMs, every excess risk, loss change and ‖ℓ‖∞ × u, β = μ = u, σ² × u²) multiplies risks
  by u and leaves distances alone. Over twelve decades of u the measured quantity and the
  registered bound must change by the same power of u — a wrong degree in ‖ℓ‖∞, R, σ², β or μ
  fails at one end of the scale.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.papers.minimax import quadratic_clients
from fedtheory.verify import Claim, Identity, Measurement, RateExponent, Sweep, UpperBoundHolds

_GMQ = {"d": 8, "noise": 1.0}
STABILITY = bounds.get("minimax.thm6.stability")
FEDERATED_STABILITY = bounds.get("minimax.thm6.federated-stability")
THM4 = bounds.get("minimax.thm4")
THM4_EXPLICIT = bounds.get("minimax.thm4.explicit")
THM6_AER = bounds.get("minimax.thm6.aer")
THM6_AER_EXPLICIT = bounds.get("minimax.thm6.aer.explicit")
THM6_IER_EXPLICIT = bounds.get("minimax.thm6.ier.explicit")

# ----------------------------------------------------------------- federated stability (V8)


def _loss_change_sup(instance: Any, before: np.ndarray, after: np.ndarray) -> float:
    """sup_z |ℓ(before, z) − ℓ(after, z)| over the data domain of GM-Q (Def. 5's γ_i).

    ℓ(b, z) − ℓ(a, z) = ⟨a − b, z⟩ + ½(‖b‖² − ‖a‖²) is affine in z, and z ranges over the
    boxes w⋆^(j) + [−√3s, √3s]^d of all clients, so the supremum is exact:
    max_j |⟨a − b, w⋆^(j)⟩ + ½(‖b‖² − ‖a‖²)| + √3 s‖a − b‖₁.
    """
    delta = after - before
    offset = 0.5 * float(before @ before - after @ after)
    reach = np.sqrt(3.0) * instance.noise * float(np.abs(delta).sum())
    return float(np.max(np.abs(instance.optima @ delta + offset)) + reach)


def _replaced(instance: Any, client: int, rng: np.random.Generator) -> tuple[Any, float]:
    """The instance with the first sample of ``client`` replaced by a fresh draw z', and ‖z − z'‖.

    The draw is w⋆ + ξ', ξ' uniform on the client's noise box.
    """
    s, d = instance.noise, instance.d
    fresh = instance.optima[client] + rng.uniform(-np.sqrt(3) * s, np.sqrt(3) * s, d)
    moved = float(np.linalg.norm(instance.data.features[client, 0] - fresh))
    return instance.with_sample_replaced(client, 0, fresh), moved


def replace_one(params: dict[str, Any], seed: int) -> dict[str, float]:
    """How far the FedAvg and local ERMs move when one sample of one client is replaced (Def. 5).

    Imbalanced clients n_i = n·2^i with sample weights p_i = n_i/N; the replaced sample is the
    first one of the client of size ``n_i``, replaced by an independent draw z'. On GM-Q the
    FedAvg ERM is Σ p_i x̄_i, so it moves by exactly p_i‖z − z'‖/n_i = ‖z − z'‖/N, whatever n_i
    is (the proof of Theorem 6), and the local ERM by ‖z − z'‖/n_i.
    """
    m, n, d = int(params["m"]), int(params["n"]), int(params["d"])
    R, s = float(params["R"]), float(params["noise"])
    data_seed, replace_seed = np.random.SeedSequence(seed).spawn(2)
    counts = [n * 2**i for i in range(m)]
    client = counts.index(int(params["n_i"]))
    instance = quadratic_clients(m, counts, d, R, s, data_seed, radius=float(params["radius"]))
    replaced, moved = _replaced(instance, client, np.random.default_rng(replace_seed))
    n_i, p_i = counts[client], instance.weights[client]
    before, after = instance.global_erm(), replaced.global_erm()
    return {
        "delta_fedavg": float(np.linalg.norm(after - before)),
        "gamma_fedavg": _loss_change_sup(instance, before, after),
        "delta_local": float(
            np.linalg.norm(replaced.local_erm()[client] - instance.local_erm()[client])
        ),
        "predicted_fedavg": p_i * moved / n_i,
        "predicted_local": moved / n_i,
        "p_i": float(p_i),
        "ell_inf": instance.ell_inf,
    }


_STABILITY_N = 20
_STABILITY = {
    profile: Sweep(
        grid={"n_i": [_STABILITY_N * 2**i for i in range(4)]},
        fixed={**_GMQ, "m": 4, "n": _STABILITY_N, "R": 0.5, "radius": 10.0},
        replicates=reps,
    )
    for profile, reps in (("smoke", 20), ("quick", 100))
}
gmq_replace_one = Measurement(
    id="minimax/gmq/replace-one",
    experiment=replace_one,
    sweeps=_STABILITY,
    notes="m = 4 clients of n_i = 20, 40, 80, 160 samples, weights p_i = n_i/N; ball of radius 10.",
)
stability_exact = gmq_replace_one.claim(
    id="minimax/thm6/fedavg-stability-is-p-over-n",
    source=Citation("minimax", "proof of Theorem 6 (App. C.1), federated stability (Def. 5)"),
    statement=(
        "Replacing one sample of client i moves the FedAvg ERM by exactly p_i‖z − z'‖/n_i on "
        "GM-Q — with p_i = n_i/N the same 1/N for every client, however unequal the n_i."
    ),
    criterion=Identity("delta_fedavg", "predicted_fedavg", rtol=1e-9, over="every", x="n_i"),
)
_STABILITY_ARGS = {"beta": 1.0, "mu": 1.0, "ell_inf": "ell_inf", "p_i": "p_i", "n_i": "n_i"}
stability_bound = gmq_replace_one.claim(
    id="minimax/thm6/fedavg-stability-bound",
    statement=(
        "The replace-one movement of the FedAvg ERM is at most 8√(2β‖ℓ‖∞)·p_i/(μn_i) "
        "(our explicit constant from the proof of Theorem 6)."
    ),
    criterion=UpperBoundHolds(
        "delta_fedavg", STABILITY, x="n_i", over="every", bound_args=_STABILITY_ARGS
    ),
    bound=STABILITY,
    notes="β = μ = 1 on GM-Q; ‖ℓ‖∞ is the largest loss on the ball of radius 10.",
)
federated_stability_bound = gmq_replace_one.claim(
    id="minimax/thm6/fedavg-federated-stability-bound",
    statement=(
        "The FedAvg ERM is federated-stable (Definition 5) with γ_i ≤ 32β‖ℓ‖∞p_i/(μn_i): "
        "replacing one sample of client i changes the loss at any point of the data domain by "
        "at most that (the constant from the proof of Theorem 6)."
    ),
    criterion=UpperBoundHolds(
        "gamma_fedavg", FEDERATED_STABILITY, x="n_i", over="every", bound_args=_STABILITY_ARGS
    ),
    bound=FEDERATED_STABILITY,
    notes=(
        "γ_i is measured exactly: the loss change is affine in z, so its supremum over the "
        "clients' noise boxes is a maximum over the box corners. Loose by design (‖ℓ‖∞ on the "
        "ball of radius 10 is ≈ 10² while the loss changes by ≈ 1/N): gross errors only."
    ),
)
_FLAT_IN_N_I = (
    "Along the clients of one dataset (n_i = 20 … 160, p_i = n_i/N) {what} does not change in "
    "expectation — p_i/n_i = 1/N for every client — and {bound} ∝ p_i/n_i must be as flat: "
    "the slope in n_i of the mean {output} is the slope of the registered bound."
)
stability_rate = gmq_replace_one.claim(
    id="minimax/thm6/fedavg-stability-flat-in-client-size",
    statement=_FLAT_IN_N_I.format(
        what="the replace-one movement of the FedAvg ERM, ‖z − z'‖/N,",
        bound="8√(2β‖ℓ‖∞)p_i/(μn_i)",
        output="movement",
    ),
    criterion=RateExponent(
        "n_i", "delta_fedavg", expected=STABILITY, bound_args=_STABILITY_ARGS, band=0.1
    ),
    bound=STABILITY,
    notes="Where the stability bound is attained in its client factor: a wrong power of p_i or "
    "n_i (or p_i swapped with another symbol) tilts the bound along the clients.",
)
federated_stability_rate = gmq_replace_one.claim(
    id="minimax/thm6/fedavg-federated-stability-flat-in-client-size",
    statement=_FLAT_IN_N_I.format(
        what="the largest loss change γ_i of the FedAvg ERM",
        bound="32β‖ℓ‖∞p_i/(μn_i)",
        output="γ_i",
    ),
    criterion=RateExponent(
        "n_i", "gamma_fedavg", expected=FEDERATED_STABILITY, bound_args=_STABILITY_ARGS, band=0.1
    ),
    bound=FEDERATED_STABILITY,
)


# --------------------------------------------------- explicit constants of Theorems 4 and 6 (V7)


def explicit_constants(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Client-averaged PLT risk, FedAvg AER and worst-client IER on GM-Q in a ball of radius 10.

    The ball makes ‖ℓ‖∞ finite (β = μ = 1, σ² = ds²); it is inactive for these sizes.
    """
    m, n, d = int(params["m"]), int(params["n"]), int(params["d"])
    R, s = float(params["R"]), float(params["noise"])
    instance = quadratic_clients(m, n, d, R, s, seed, radius=float(params["radius"]))
    fedavg = instance.excess_risk(instance.global_erm())
    return {
        "plt": float(instance.excess_risk(instance.local_erm()).mean()),
        "fedavg_aer": float(instance.weights @ fedavg),
        "fedavg_ier_max": float(fedavg.max()),
        "ell_inf": instance.ell_inf,
        "sigma2": instance.sigma2,
        "B_q": float(np.sum(instance.weights**2 / instance.data.counts)),
    }


_EXPLICIT = {
    "smoke": Sweep(
        grid={"n": [5, 20, 80], "R": [0.0, 1.0]},
        fixed={**_GMQ, "m": 4, "radius": 10.0},
        replicates=32,
    ),
    "quick": Sweep(
        grid={"n": [5, 20, 80, 320], "R": [0.0, 0.3, 1.0, 3.0]},
        fixed={**_GMQ, "m": 4, "radius": 10.0},
        replicates=200,
        block=100,
    ),
}
_UNIT = {"beta": 1.0, "mu": 1.0}
gmq_explicit = Measurement(
    id="minimax/gmq/explicit",
    experiment=explicit_constants,
    sweeps=_EXPLICIT,
    notes=(
        "Our explicit constants (guide §3.1, derived from the paper's proofs). They are loose "
        "by design; the check catches gross errors (signs, weights), the slack is reported."
    ),
)


def _explicit_claim(
    slug: str, output: str, bound_id: str, args: dict[str, Any], text: str
) -> Claim:
    bound = bounds.get(bound_id)
    return gmq_explicit.claim(
        id=f"minimax/{slug}",
        statement=text,
        criterion=UpperBoundHolds(output, bound, x="n", over="mean", bound_args={**_UNIT, **args}),
        bound=bound,
    )


_THM4_ARGS = {"ell_inf": "ell_inf", "n_i": "n"}
thm4_explicit = _explicit_claim(
    "thm4/explicit-bound",
    "plt",
    "minimax.thm4.explicit",
    _THM4_ARGS,
    "Local training: E[IER_i] ≤ 32β‖ℓ‖∞/(μn_i) when n_i ≥ 4β/μ.",
)
thm6_aer_explicit = _explicit_claim(
    "thm6/explicit-aer-bound",
    "fedavg_aer",
    "minimax.thm6.aer.explicit",
    {"ell_inf": "ell_inf", "B_q": "B_q"},
    "FedAvg ERM: E[AER] ≤ 32(β‖ℓ‖∞/μ)Σp_i²/n_i + 4βR².",
)
thm6_ier_explicit = _explicit_claim(
    "thm6/explicit-ier-bound",
    "fedavg_ier_max",
    "minimax.thm6.ier.explicit",
    {"sigma2": "sigma2", "B_q": "B_q"},
    "FedAvg ERM: E[IER_i] ≤ (8βσ²/μ²)Σp_i²/n_i + (8β³/μ² + β)R² for every client.",
)
thm4_explicit_rate = gmq_explicit.claim(
    id="minimax/thm4/explicit-bound-rate-in-n",
    statement=(
        "Theorem 4's explicit bound has the rate of local training: on GM-Q its excess risk is "
        "exactly ds²/(2n_i) while ‖ℓ‖∞ does not depend on n_i, so the mean risk decays in n_i "
        "with the slope of 32β‖ℓ‖∞/(μn_i) (n_i = 5 … 320, at every R)."
    ),
    criterion=RateExponent(
        "n", "plt", expected=THM4_EXPLICIT, bound_args={**_UNIT, **_THM4_ARGS}, band=0.1
    ),
    bound=THM4_EXPLICIT,
)


# --------------------------------------------------------------- changes of units (V7, V8)


def gmq_in_units(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Every quantity the explicit bounds of Theorems 4 and 6 bound, on GM-Q in other units.

    ``axis = "data"``: centre (0), R, the noise and the radius are multiplied by ``unit`` = u —
    every sample is u times a sample of the u = 1 model; ``axis = "loss"``: the loss is
    ℓ_u(w; z) = u·½‖w − z‖², whose minimizers (the ERMs) are those of ℓ and whose excess risks,
    loss changes and sup ‖ℓ_u‖∞ are u times those of ℓ; its curvatures are β = μ = u and its
    gradient noise σ² = u²ds². Balanced clients (p_i = 1/m = n_i/N); the replaced sample
    (Definition 5) is the first one of client 0.
    """
    m, n, d = int(params["m"]), int(params["n"]), int(params["d"])
    unit, axis = float(params["unit"]), str(params["axis"])
    length = unit if axis == "data" else 1.0
    loss = unit if axis == "loss" else 1.0
    data_seed, replace_seed = np.random.SeedSequence(seed).spawn(2)
    instance = quadratic_clients(
        m,
        n,
        d,
        length * float(params["R"]),
        length * float(params["noise"]),
        data_seed,
        radius=length * float(params["radius"]),
    )
    pooled = instance.global_erm()
    fedavg = instance.excess_risk(pooled)
    replaced, _ = _replaced(instance, 0, np.random.default_rng(replace_seed))
    moved = replaced.global_erm()
    return {
        "plt": loss * float(instance.excess_risk(instance.local_erm()).mean()),
        "fedavg_aer": loss * float(instance.weights @ fedavg),
        "fedavg_ier_max": loss * float(fedavg.max()),
        "delta_fedavg": float(np.linalg.norm(moved - pooled)),
        "gamma_fedavg": loss * _loss_change_sup(instance, pooled, moved),
        "ell_inf": loss * instance.ell_inf,
        "sigma2": loss**2 * instance.sigma2,
        "beta": loss * instance.beta,
        "mu": loss * instance.mu,
        "B_q": float(np.sum(instance.weights**2 / instance.data.counts)),
        "n_i": float(instance.data.counts[0]),
        "p_i": float(instance.weights[0]),
        "N": float(instance.data.counts.sum()),
        "R_scaled": length * float(params["R"]),
    }


_UNITS = {"smoke": [1e-6, 1.0, 1e6], "quick": [1e-6, 1e-3, 1.0, 1e3, 1e6]}
#: m = 4 clients of n = 16 samples in d = 2, radius 4: at R = 2 the two terms of
#: minimax.thm6.aer.explicit are about equal (32‖ℓ‖∞/N ≈ 18 against 4R² = 16) and the R² term
#: of minimax.thm6.ier.explicit dominates its σ² term; at R = 0 only the 1/N terms remain.
gmq_units = Measurement(
    id="minimax/gmq/change-of-units",
    experiment=gmq_in_units,
    sweeps={
        profile: Sweep(
            grid={"axis": ["data", "loss"], "R": [0.0, 2.0], "unit": units},
            fixed={"m": 4, "n": 16, "d": 2, "noise": 1.0, "radius": 4.0},
            replicates=16,
        )
        for profile, units in _UNITS.items()
    },
    notes=(
        "GM-Q with m = 4, n = 16, d = 2, s = 1, ball of radius 4, R = 0 and 2, in units "
        "u = 10⁻⁶ … 10⁶ of length (data × u) or of loss (ℓ × u); 16 datasets per point."
    ),
)
_UNITS_ARGS: dict[str, str | float] = {
    "beta": "beta",
    "mu": "mu",
    "ell_inf": "ell_inf",
    "sigma2": "sigma2",
    "B_q": "B_q",
    "n_i": "n_i",
    "p_i": "p_i",
    "N": "N",
    "R": "R_scaled",
}
_UNITS_STATEMENT = (
    "{what} has the units of {quantity}: rescaling the data by u (‖ℓ‖∞ × u², β = μ = 1) "
    "multiplies the measured {quantity} by u^{data}, rescaling the loss by u (‖ℓ‖∞ × u, "
    "β = μ = u, σ² × u²) by u^{loss}, and over u = 10⁻⁶ … 10⁶ the registered bound must move by "
    "the same power of u along both."
)
_UNITS_NOTE = (
    "Slope of log(mean {output}) against log u, held per curve (axis × R) to the slope of the "
    "registered bound evaluated on each rescaled instance (RateExponent with a bound): a bound "
    "of another degree in ‖ℓ‖∞, R, σ², β or μ misses it at one end of the scale."
)


def _units_claim(
    slug: str, output: str, bound: bounds.Bound, what: str, quantity: str, powers: tuple[str, str]
) -> Claim:
    args = {name: _UNITS_ARGS[name] for name in bound.symbols if name in _UNITS_ARGS}
    if "C" in bound.symbols:
        args["C"] = 1.0  # an order statement's constant does not move with the units
    return gmq_units.claim(
        id=f"minimax/{slug}",
        statement=_UNITS_STATEMENT.format(
            what=what, quantity=quantity, data=powers[0], loss=powers[1]
        ),
        criterion=RateExponent("unit", output, expected=bound, bound_args=args, band=0.1),
        bound=bound,
        notes=_UNITS_NOTE.format(output=output),
    )


_RISK = ("2", "1")
thm4_units = _units_claim(
    "thm4/change-of-units",
    "plt",
    THM4,
    "Theorem 4's rate β‖ℓ‖∞/(μn_i)",
    "local training's excess risk",
    _RISK,
)
thm4_explicit_units = _units_claim(
    "thm4/explicit-bound-change-of-units",
    "plt",
    THM4_EXPLICIT,
    "Theorem 4's explicit bound 32β‖ℓ‖∞/(μn_i)",
    "local training's excess risk",
    _RISK,
)
thm6_aer_units = _units_claim(
    "thm6/aer-change-of-units",
    "fedavg_aer",
    THM6_AER,
    "Theorem 6's rate β‖ℓ‖∞/(μN) + βR²",
    "the FedAvg ERM's AER",
    _RISK,
)
thm6_aer_explicit_units = _units_claim(
    "thm6/explicit-aer-bound-change-of-units",
    "fedavg_aer",
    THM6_AER_EXPLICIT,
    "Theorem 6's explicit AER bound 32(β‖ℓ‖∞/μ)Σp_i²/n_i + 4βR²",
    "the FedAvg ERM's AER",
    _RISK,
)
thm6_ier_explicit_units = _units_claim(
    "thm6/explicit-ier-bound-change-of-units",
    "fedavg_ier_max",
    THM6_IER_EXPLICIT,
    "Theorem 6's explicit IER bound (8βσ²/μ²)Σp_i²/n_i + (8β³/μ² + β)R²",
    "the FedAvg ERM's worst-client IER",
    _RISK,
)
stability_units = _units_claim(
    "thm6/stability-change-of-units",
    "delta_fedavg",
    STABILITY,
    "The stability bound 8√(2β‖ℓ‖∞)p_i/(μn_i)",
    "the replace-one movement of the FedAvg ERM",
    ("1", "0"),
)
federated_stability_units = _units_claim(
    "thm6/federated-stability-change-of-units",
    "gamma_fedavg",
    FEDERATED_STABILITY,
    "The federated-stability bound 32β‖ℓ‖∞p_i/(μn_i)",
    "the largest loss change γ_i of the FedAvg ERM",
    _RISK,
)


# ------------------------------------------------- an ill-conditioned quadratic: β ≠ μ (V7, V8)


def ill_conditioned(params: dict[str, Any], seed: int) -> dict[str, float]:
    """The quantities of V7 and V8 for the anisotropic loss ℓ(w; z) = ½(w − z)ᵀH(w − z).

    H = diag(μ, β, …, β) with μ = 1, β = ``kappa``: every L_i is μ-strongly convex and
    β-smooth. The samples are GM-Q's (z = w⋆^(i) + ξ, ξ uniform with variance s² per
    coordinate, in a ball of radius ρ); the ERMs of any positive definite H are still the client
    means and the pooled mean (asserted unprojected), so only the risks change:
    excess risk ½(w − w⋆)ᵀH(w − w⋆), σ² = E‖Hξ‖² = s²Σh_k², and ‖ℓ‖∞ = (β/2)(ρ + max‖z‖)² ≥
    sup ℓ on the ball and the data boxes (GM-Q's ‖ℓ‖∞ times β). The replaced sample (Def. 5)
    is the first of client 0; the loss change is affine in z, so its sup is exact.
    """
    m, n, d, kappa = int(params["m"]), int(params["n"]), int(params["d"]), float(params["kappa"])
    data_seed, replace_seed = np.random.SeedSequence(seed).spawn(2)
    instance = quadratic_clients(
        m,
        n,
        d,
        float(params["R"]),
        float(params["noise"]),
        data_seed,
        radius=float(params["radius"]),
    )
    if instance.projection_active()[0].any():
        raise ValueError("a client mean left the ball: the ERMs are no longer the means")
    h = np.full(d, kappa)
    h[0] = 1.0

    def risks(models: np.ndarray) -> np.ndarray:
        gap = np.broadcast_to(models, instance.optima.shape) - instance.optima
        return np.asarray(0.5 * (gap**2) @ h)

    means = instance.client_means()
    pooled = instance.weights @ means
    fedavg = risks(pooled)
    replaced, _ = _replaced(instance, 0, np.random.default_rng(replace_seed))
    moved = replaced.weights @ replaced.client_means()
    step = moved - pooled
    offset = 0.5 * float(moved @ (h * moved) - pooled @ (h * pooled))
    reach = np.sqrt(3.0) * instance.noise * float(np.abs(h * step).sum())
    gamma = float(np.max(np.abs(offset - instance.optima @ (h * step)))) + reach
    s2 = instance.noise**2
    return {
        "plt": float(risks(means).mean()),
        "fedavg_aer": float(instance.weights @ fedavg),
        "fedavg_ier_max": float(fedavg.max()),
        "delta_fedavg": float(np.linalg.norm(step)),
        "gamma_fedavg": gamma,
        "beta": kappa,
        "mu": 1.0,
        "ell_inf": kappa * instance.ell_inf,
        "sigma2": s2 * float(np.sum(h**2)),
        "B_q": float(np.sum(instance.weights**2 / instance.data.counts)),
        "n_i": float(instance.data.counts[0]),
        "p_i": float(instance.weights[0]),
    }


#: κ = β/μ = 1000 needs n_i ≥ 4κ for Theorems 4 and 6 (n = 4000).
gmq_ill_conditioned = Measurement(
    id="minimax/gmq/ill-conditioned",
    experiment=ill_conditioned,
    sweeps={
        profile: Sweep(
            grid={"R": [0.0, 0.5]},
            fixed={"m": 4, "n": 4000, "d": 8, "noise": 1.0, "radius": 2.0, "kappa": 1000.0},
            replicates=reps,
        )
        for profile, reps in (("smoke", 8), ("quick", 32))
    },
    notes=(
        "H = diag(1, 1000, …, 1000) in d = 8, m = 4 clients of n = 4000 ≥ 4β/μ samples, noise "
        "s = 1, ball of radius 2, R = 0 and 0.5. Every problem of the other claims has β = μ, "
        "where exchanging β and μ in a bound changes nothing; here it changes the bound ~κ²-fold."
    ),
)
_ILL_ARGS: dict[str, str | float] = {
    "beta": "beta",
    "mu": "mu",
    "ell_inf": "ell_inf",
    "sigma2": "sigma2",
    "B_q": "B_q",
    "n_i": "n_i",
    "p_i": "p_i",
    "R": "R",
}


def _ill_conditioned_claim(
    slug: str,
    output: str,
    bound: bounds.Bound,
    statement: str,
    over: Literal["mean", "every"] = "mean",
) -> Claim:
    args = {name: _ILL_ARGS[name] for name in bound.symbols if name in _ILL_ARGS}
    return gmq_ill_conditioned.claim(
        id=f"minimax/{slug}",
        statement=statement + " On an ill-conditioned quadratic (β/μ = 1000).",
        criterion=UpperBoundHolds(output, bound, x="R", over=over, bound_args=args),
        bound=bound,
    )


thm4_explicit_ill = _ill_conditioned_claim(
    "thm4/explicit-bound-ill-conditioned",
    "plt",
    THM4_EXPLICIT,
    "Local training: E[IER_i] ≤ 32β‖ℓ‖∞/(μn_i).",
)
thm6_aer_explicit_ill = _ill_conditioned_claim(
    "thm6/explicit-aer-bound-ill-conditioned",
    "fedavg_aer",
    THM6_AER_EXPLICIT,
    "FedAvg ERM: E[AER] ≤ 32(β‖ℓ‖∞/μ)Σp_i²/n_i + 4βR².",
)
thm6_ier_explicit_ill = _ill_conditioned_claim(
    "thm6/explicit-ier-bound-ill-conditioned",
    "fedavg_ier_max",
    THM6_IER_EXPLICIT,
    "FedAvg ERM: E[IER_i] ≤ (8βσ²/μ²)Σp_i²/n_i + (8β³/μ² + β)R² for every client.",
)
stability_ill = _ill_conditioned_claim(
    "thm6/stability-bound-ill-conditioned",
    "delta_fedavg",
    STABILITY,
    "The replace-one movement of the FedAvg ERM is at most 8√(2β‖ℓ‖∞)·p_i/(μn_i).",
    over="every",
)
federated_stability_ill = _ill_conditioned_claim(
    "thm6/federated-stability-bound-ill-conditioned",
    "gamma_fedavg",
    FEDERATED_STABILITY,
    "The FedAvg ERM's loss changes by at most γ_i ≤ 32β‖ℓ‖∞p_i/(μn_i) when one sample of "
    "client i is replaced.",
    over="every",
)
