"""The validated description of one worst-case problem: method, function class, conditions.

Private: :class:`Setting` is what the PEP builder (:mod:`fedtheory.worstcase._pep`) reads, and
:func:`make_setting` is the one place that checks user input (``ParameterError`` naming the
parameter, value and rule; DESIGN §7).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fedtheory._checks import check_int, check_real
from fedtheory.errors import ParameterError

__all__ = [
    "ERRORS",
    "FUNCTION_CLASSES",
    "HETEROGENEITY",
    "LOCAL_STEPS",
    "MEASURES",
    "Setting",
    "make_setting",
]

#: Function classes of the clients: ``"convex"`` (L-smooth, μ-strongly convex; μ = 0 is smooth
#: convex), ``"quadratic"`` (quadratics with μ ⪯ ∇² ⪯ L, the restriction that tells whether a worst
#: case is attained by quadratics) and ``"nonconvex"`` (L-smooth: −L ⪯ ∇² ⪯ L; μ must be 0).
FUNCTION_CLASSES = ("convex", "quadratic", "nonconvex")

#: Client heterogeneity: ``"optimum"`` — Σ_i q_i ‖∇f_i(x*)‖² ≤ ζ²; ``"dissimilarity"`` —
#: Σ_i q_i ‖∇f_i(x) − ∇F(x)‖² ≤ ζ² at every point where the method queries a gradient;
#: ``"identical"`` — every client holds the same function F (ζ is ignored).
HETEROGENEITY = ("optimum", "dissimilarity", "identical")

#: Local steps: ``"gd"`` y ← y − η d; ``"prox-gd"`` y ← y − η(d + λ(y − x)) (FedProx's local
#: objective f_i + (λ/2)‖· − x‖² by gradient steps); ``"prox"`` y ← prox_{f_i/λ}(x) exactly (one
#: step per round); ``"scaffold"`` y ← y − η(d − c_i + c) with c_i = ∇f_i(x), c = Σ q_i c_i taken
#: at the server model at the start of the round (SCAFFOLD with fresh control variates).
#: d is the client's gradient ∇f_i(y), plus the error e of the inexact oracle when there is one.
LOCAL_STEPS = ("gd", "prox-gd", "prox", "scaffold")

#: Gradient errors: none; ``"absolute"`` ‖e‖² ≤ ε²_k (a scalar or one budget per local step
#: k = 0..K·T−1, the same for every client); ``"relative"`` ‖e‖² ≤ δ² ‖∇f_i(y)‖².
ERRORS = ("none", "absolute", "relative")

#: Performance measures: ``"distance"`` ‖x_T − x*‖²; ``"function"`` F(x_T) − F*;
#: ``"function-min"`` min_{0≤t≤T} F(x_t) − F*; ``"gradient"`` min_{0≤t≤T} ‖∇F(x_t)‖².
MEASURES = ("distance", "function", "function-min", "gradient")


@dataclass(frozen=True)
class Setting:
    """A checked worst-case problem (see the module constants for the meaning of each field)."""

    method: str
    m: int
    K: int
    T: int
    L: float
    mu: float
    eta: float
    functions: str = "convex"
    local: str = "gd"
    eta_g: float = 1.0
    lam: float = 0.0
    weights: tuple[float, ...] = ()
    heterogeneity: str = "optimum"
    zeta2: float = 0.0
    error: str = "none"
    eps2: tuple[float, ...] = ()
    delta2: float = 0.0
    initial: str = "distance"
    initial_value: float = 1.0
    measure: str = "distance"

    @property
    def q(self) -> tuple[float, ...]:
        """Aggregation weights (uniform when none were given)."""
        return self.weights or (1.0 / self.m,) * self.m

    @property
    def homogeneous(self) -> bool:
        """Whether every client is stationary at x* (one client, identical clients, or ζ = 0)."""
        return (
            self.m == 1
            or self.heterogeneity == "identical"
            or (self.heterogeneity == "optimum" and self.zeta2 == 0.0)
        )

    def error_budget(self, step: int) -> float:
        """ε² of local step ``step`` (0-based over the K·T steps of a client)."""
        return self.eps2[0] if len(self.eps2) == 1 else self.eps2[step]

    def parameters(self) -> dict[str, Any]:
        """The parameters as a flat dict (recorded in :class:`WorstCase`)."""
        out: dict[str, Any] = {
            "m": self.m,
            "K": self.K,
            "T": self.T,
            "L": self.L,
            "mu": self.mu,
            "eta": self.eta,
            "functions": self.functions,
            "local": self.local,
        }
        if self.eta_g != 1.0:
            out["eta_g"] = self.eta_g
        if self.local in ("prox-gd", "prox"):
            out["lam"] = self.lam
        if self.weights:
            out["weights"] = list(self.weights)
        if self.m > 1:
            out["heterogeneity"] = self.heterogeneity
            if self.heterogeneity != "identical":
                out["zeta2"] = self.zeta2
        if self.error == "absolute":
            out["eps2"] = self.eps2[0] if len(self.eps2) == 1 else list(self.eps2)
        elif self.error == "relative":
            out["delta2"] = self.delta2
        out["R2" if self.initial == "distance" else "Delta0"] = self.initial_value
        return out


def _choice(name: str, value: Any, allowed: Sequence[str]) -> str:
    if value not in allowed:
        raise ParameterError(parameter=name, value=value, rule=f"must be one of {tuple(allowed)}")
    return str(value)


def _weights(weights: Any, m: int) -> tuple[float, ...]:
    if weights is None:
        return ()
    try:
        values = tuple(float(w) for w in weights)
    except (TypeError, ValueError):
        raise ParameterError(
            parameter="weights", value=weights, rule="must be a sequence of m numbers"
        ) from None
    if len(values) != m or not all(math.isfinite(w) and w > 0 for w in values):
        raise ParameterError(
            parameter="weights",
            value=weights,
            rule=f"must be {m} positive numbers (one per client)",
        )
    if abs(sum(values) - 1.0) > 1e-12:
        raise ParameterError(parameter="weights", value=weights, rule="must sum to 1")
    return values


def _eps2(eps2: Any, steps: int) -> tuple[float, ...]:
    if isinstance(eps2, (int, float)) and not isinstance(eps2, bool):
        return (check_real("eps2", eps2, nonnegative=True),)
    try:
        values = tuple(float(e) for e in eps2)
    except (TypeError, ValueError):
        raise ParameterError(
            parameter="eps2", value=eps2, rule="must be a number or a sequence of numbers"
        ) from None
    if len(values) != steps or not all(math.isfinite(e) and e >= 0 for e in values):
        raise ParameterError(
            parameter="eps2",
            value=eps2,
            rule=f"must hold K·T = {steps} non-negative budgets (one per local step)",
        )
    return values


def make_setting(
    method: str,
    *,
    m: Any = 1,
    K: Any = 1,
    T: Any,
    L: Any,
    mu: Any = 0.0,
    eta: Any,
    functions: Any = "convex",
    local: Any = "gd",
    eta_g: Any = 1.0,
    lam: Any = None,
    weights: Any = None,
    heterogeneity: Any = "optimum",
    zeta2: Any = 0.0,
    eps2: Any = None,
    delta2: Any = None,
    R2: Any = None,
    Delta0: Any = None,
    measure: Any = "distance",
) -> Setting:
    """Check every parameter of a worst-case problem and return its :class:`Setting`.

    Raises
    ------
    ParameterError
        For a count below 1, ``L ≤ 0``, a negative ``mu`` or one above ``L`` (or a positive one
        for non-convex functions), a step ``eta`` (or ``eta_g``, ``lam``) that is not positive, a
        negative ``zeta2`` or error budget, both or neither of ``eps2``/``delta2`` where one is
        needed, both ``R2`` and ``Delta0``, weights that are not a probability vector, an
        unknown function class, local step, heterogeneity or measure.
    """
    m = check_int("m", m, minimum=1)
    K = check_int("K", K, minimum=1)
    T = check_int("T", T, minimum=1)
    functions = _choice("functions", functions, FUNCTION_CLASSES)
    L = check_real("L", L, positive=True)
    mu = check_real("mu", mu, nonnegative=True)
    if mu > L:
        raise ParameterError(parameter="mu", value=mu, rule=f"must not exceed L={L:.6g}")
    if mu == L and functions != "nonconvex":
        raise ParameterError(
            parameter="mu",
            value=mu,
            rule=f"must be below L={L:.6g} (PEPit's interpolation conditions divide by L − μ; "
            "μ = L is the single quadratic (L/2)‖x − x*‖²)",
        )
    if functions == "nonconvex" and mu != 0.0:
        raise ParameterError(
            parameter="mu", value=mu, rule="must be 0 for non-convex (L-smooth) functions"
        )
    eta = check_real("eta", eta, positive=True)
    eta_g = check_real("eta_g", eta_g, positive=True)
    local = _choice("local", local, LOCAL_STEPS)
    if local in ("prox-gd", "prox"):
        if lam is None:
            raise ParameterError(
                parameter="lam", value=lam, rule=f"is required by the {local!r} local step"
            )
        lam_value = check_real("lam", lam, positive=True)
    else:
        if lam is not None:
            raise ParameterError(
                parameter="lam", value=lam, rule=f"is not a parameter of the {local!r} local step"
            )
        lam_value = 0.0
    if local == "prox" and K != 1:
        raise ParameterError(
            parameter="K", value=K, rule="must be 1 with the exact proximal step (local='prox')"
        )
    heterogeneity = _choice("heterogeneity", heterogeneity, HETEROGENEITY)
    zeta2 = check_real("zeta2", zeta2, nonnegative=True)
    if eps2 is not None and delta2 is not None:
        raise ParameterError(
            parameter="delta2", value=delta2, rule="give an absolute (eps2) or a relative budget"
        )
    if eps2 is not None:
        error, eps2_values, delta2_value = "absolute", _eps2(eps2, K * T), 0.0
    elif delta2 is not None:
        error, eps2_values = "relative", ()
        delta2_value = check_real("delta2", delta2, nonnegative=True)
    else:
        error, eps2_values, delta2_value = "none", (), 0.0
    if error != "none" and local == "prox":
        raise ParameterError(
            parameter="eps2" if error == "absolute" else "delta2",
            value=eps2 if error == "absolute" else delta2,
            rule="gradient errors need a gradient step (local='gd', 'prox-gd' or 'scaffold')",
        )
    if R2 is not None and Delta0 is not None:
        raise ParameterError(
            parameter="Delta0", value=Delta0, rule="give one initial condition: R2 or Delta0"
        )
    measure = _choice("measure", measure, MEASURES)
    if functions == "nonconvex":
        if R2 is not None:
            raise ParameterError(
                parameter="R2",
                value=R2,
                rule="non-convex functions take the initial gap Delta0 (there is no x*)",
            )
        if measure != "gradient":
            raise ParameterError(
                parameter="measure",
                value=measure,
                rule="non-convex functions are measured by 'gradient' (min ‖∇F(x_t)‖²)",
            )
    if Delta0 is not None or functions == "nonconvex":
        initial = "function"
        value = check_real("Delta0", 1.0 if Delta0 is None else Delta0, positive=True)
    else:
        initial, value = "distance", check_real("R2", 1.0 if R2 is None else R2, positive=True)
    if functions == "nonconvex" and heterogeneity == "optimum" and m > 1 and zeta2 > 0:
        raise ParameterError(
            parameter="heterogeneity",
            value=heterogeneity,
            rule="non-convex clients have no optimum: use 'dissimilarity' or 'identical'",
        )
    return Setting(
        method=method,
        m=m,
        K=K,
        T=T,
        L=L,
        mu=mu,
        eta=eta,
        functions=functions,
        local=local,
        eta_g=eta_g,
        lam=lam_value,
        weights=_weights(weights, m),
        heterogeneity=heterogeneity,
        zeta2=zeta2,
        error=error,
        eps2=eps2_values,
        delta2=delta2_value,
        initial=initial,
        initial_value=value,
        measure=measure,
    )


def check_schedule(name: str, value: Any, length: int, *, what: str) -> tuple[float, ...]:
    """A positive number, or a sequence of ``length`` positive numbers, as a tuple of ``length``.

    ``what`` says what one entry is for (in the error message), e.g. ``"one per round"``.
    Used by the methods whose steps vary with the round or the local step
    (:mod:`fedtheory.worstcase._personalized`, :mod:`fedtheory.worstcase._feedback`).
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (check_real(name, value, positive=True),) * length
    try:
        values = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        raise ParameterError(
            parameter=name, value=value, rule="must be a number or a sequence of numbers"
        ) from None
    if len(values) != length or not all(math.isfinite(v) and v > 0 for v in values):
        raise ParameterError(
            parameter=name,
            value=value,
            rule=f"must hold {length} positive numbers ({what})",
        )
    return values
