"""FedProx on the personalised (Moreau-envelope) objective over a bounded set, as a PEP.

Private: the method ``"fedprox-moreau"`` of :data:`fedtheory.worstcase.METHODS`. The objective is

    min over x and w_1, …, w_m ∈ 𝒲 of Σ_i q_i [f_i(w_i) + (λ/2)‖x − w_i‖²] = min_x Σ_i q_i M_i(x),

M_i the Moreau envelope of f_i + ι_𝒲 with parameter λ. Round t = 0, …, T − 1: every client keeps
its local model from the previous round (warm start) and takes K_t projected gradient steps on
its proximal objective f_i + (λ/2)‖· − x_t‖²,

    w ← P_𝒲[w − η_k (∇f_i(w) + λ(w − x_t))],   k = 0, …, K_t − 1 (the schedule restarts every
    round);

the server takes a gradient step on Σ q_i M_i with ∇M_i(x_t) estimated by λ(x_t − w_i),

    x_{t+1} = x_t − λ η^g_t Σ_i q_i (x_t − w_i)    (then x_{t+1} ← P_𝒲(x_{t+1}) if projected);

an optional final local phase takes K_final more steps towards x_T (the personalised models).
This is personalised FedProx with exact gradients and full participation (local models that
persist, a server step on the Moreau envelopes); pFedMe- and L2GD-type methods share the
objective.

Function class: every f_i L-smooth and μ-strongly convex on ℝ^d (μ > 0), 𝒲 any closed convex set
inside a Euclidean ball of radius ``radius`` (so of diameter ≤ 2·radius), the starts x_0 and
w_{i,0} in 𝒲, and optionally (``interior_optima``) the minimiser of every f_i in 𝒲. The
interpolation conditions of smooth strongly convex functions and of convex indicator functions
are necessary and sufficient (Taylor, Hendrickx & Glineur 2017, Thms 4 and 3.6), so the SDP is
the exact worst case over the class. PEPit's smooth strongly convex class needs L > μ; for
L = μ the class is {(μ/2)‖x − c_i‖² + const}, written out exactly (the gradients μ(x − c_i) are
linear in a free centre c_i).

Measures: ``"distance"`` ‖x_T − x̃‖² (x̃ the minimiser of the objective); ``"local"``
‖w_1 − Prox_1(x)‖², client 1's model after the last local phase against the exact proximal
point arg min_{w∈𝒲} f_1(w) + (λ/2)‖x − w‖² of the server model x that phase targeted;
``"objective"`` the objective at (x_T, w_1, …, w_m) after the last local phase minus its minimum.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fedtheory._checks import check_int, check_real
from fedtheory.errors import ParameterError
from fedtheory.worstcase._pep import PepModel
from fedtheory.worstcase._setting import _weights, check_schedule

__all__ = ["MOREAU_MEASURES", "MoreauSetting", "build_moreau_pep", "make_moreau_setting"]

#: Measures of ``"fedprox-moreau"`` (see the module docstring).
MOREAU_MEASURES = ("distance", "local", "objective")


@dataclass(frozen=True)
class MoreauSetting:
    """A checked ``"fedprox-moreau"`` problem (see the module docstring for each field)."""

    m: int
    T: int
    K: tuple[int, ...]  # local steps of each round
    K_final: int
    L: float
    mu: float
    lam: float
    radius: float
    eta: tuple[float, ...]  # local step k = 0, 1, … (restarting every round)
    eta_g: tuple[float, ...]  # server step of each round
    project_global: bool
    interior_optima: bool
    weights: tuple[float, ...]
    measure: str

    @property
    def q(self) -> tuple[float, ...]:
        """Aggregation weights (uniform when none were given)."""
        return self.weights or (1.0 / self.m,) * self.m

    @property
    def isotropic(self) -> bool:
        """L = μ: every client is (μ/2)‖x − c_i‖² + const."""
        return self.mu == self.L

    def parameters(self) -> dict[str, Any]:
        """The parameters as a flat dict (recorded in the :class:`WorstCase`)."""
        out: dict[str, Any] = {
            "m": self.m,
            "T": self.T,
            "K": list(self.K),
            "K_final": self.K_final,
            "L": self.L,
            "mu": self.mu,
            "lam": self.lam,
            "radius": self.radius,
            "eta": list(self.eta),
            "eta_g": list(self.eta_g),
            "project_global": self.project_global,
            "interior_optima": self.interior_optima,
        }
        if self.weights:
            out["weights"] = list(self.weights)
        return out


def _steps(value: Any, T: int) -> tuple[int, ...]:
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        if len(value) != T:
            raise ParameterError(
                parameter="K",
                value=value,
                rule=f"must be a count or T = {T} counts (one per round)",
            )
        return tuple(check_int("K", k, minimum=1) for k in value)
    return (check_int("K", value, minimum=1),) * T


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ParameterError(parameter=name, value=value, rule="must be True or False")
    return value


def make_moreau_setting(
    *,
    m: Any = 1,
    T: Any,
    K: Any,
    K_final: Any = 0,
    L: Any,
    mu: Any,
    lam: Any,
    radius: Any,
    eta: Any,
    eta_g: Any = 1.0,
    project_global: Any = True,
    interior_optima: Any = False,
    weights: Any = None,
    measure: Any = "distance",
) -> MoreauSetting:
    """Check every parameter of a ``"fedprox-moreau"`` problem.

    ``K`` is a count or one count per round; ``eta`` a step or one step per local step index
    k = 0, …, max(K_t, K_final) − 1 (the schedule restarts every round); ``eta_g`` the server
    step η^g (the server moves by λη^g) or one per round.

    Raises
    ------
    ParameterError
        A count below 1 (``K_final`` below 0), ``L ≤ 0``, ``mu`` not in (0, L], ``lam`` or
        ``radius`` not positive and finite, a schedule of the wrong length or with a step that is
        not positive, an unknown measure, ``"local"`` or ``"objective"`` without a local phase
        to measure, non-boolean flags, weights that are not a probability vector.
    """
    m = check_int("m", m, minimum=1)
    T = check_int("T", T, minimum=1)
    K_values = _steps(K, T)
    K_final = check_int("K_final", K_final, minimum=0)
    L = check_real("L", L, positive=True)
    mu = check_real("mu", mu, positive=True)
    if mu > L:
        raise ParameterError(parameter="mu", value=mu, rule=f"must not exceed L={L:.6g}")
    lam = check_real("lam", lam, positive=True)
    radius = check_real("radius", radius, positive=True)
    longest = max(*K_values, K_final)
    eta_values = check_schedule("eta", eta, longest, what="one per local step index k")
    eta_g_values = check_schedule("eta_g", eta_g, T, what="one per round")
    if measure not in MOREAU_MEASURES:
        raise ParameterError(
            parameter="measure", value=measure, rule=f"must be one of {MOREAU_MEASURES}"
        )
    return MoreauSetting(
        m=m,
        T=T,
        K=K_values,
        K_final=K_final,
        L=L,
        mu=mu,
        lam=lam,
        radius=radius,
        eta=eta_values,
        eta_g=eta_g_values,
        project_global=_flag("project_global", project_global),
        interior_optima=_flag("interior_optima", interior_optima),
        weights=_weights(weights, m),
        measure=str(measure),
    )


def _weighted_sum(terms: list[Any], weights: tuple[float, ...]) -> Any:
    total = weights[0] * terms[0]
    for weight, term in zip(weights[1:], terms[1:], strict=True):
        total = total + weight * term
    return total


def build_moreau_pep(setting: MoreauSetting) -> PepModel:
    """The PEP of ``"fedprox-moreau"`` over its class (see the module docstring).

    For L > μ every client is written through h_i = f_i + (λ/2)‖· − x_0‖², which is
    (μ + λ)-strongly convex and (L + λ)-smooth exactly when f_i is μ-strongly convex and
    L-smooth (a bijection of the classes): ∇f_i(w) = ∇h_i(w) − λ(w − x_0). The SDP is the same
    problem, but better conditioned — with f_i itself both free solvers stop at
    "optimal_inaccurate" from about eight projected steps on.
    """
    from PEPit import PEP, Expression, Point
    from PEPit.functions import ConvexIndicatorFunction, SmoothStronglyConvexFunction
    from PEPit.primitive_steps import proximal_step

    s = setting
    q = s.q
    problem = PEP()
    domain = problem.declare_function(ConvexIndicatorFunction, R=s.radius)
    zero = Point(is_leaf=False, decomposition_dict={})

    def in_domain(point: Any, normal: Any = None) -> None:
        """``point`` ∈ 𝒲 with ``normal`` in the normal cone there (0: any point of 𝒲)."""
        domain.add_point((point, zero if normal is None else normal, Expression()))

    def project(point: Any) -> Any:
        return proximal_step(point, domain, 1.0)[0]

    x = problem.set_initial_point()
    in_domain(x)
    start = x
    inside = {id(x)}  # points known to lie in 𝒲 (the targets of the implied bounds below)
    gradient: Callable[[int, Any], Any]
    value: Callable[[int, Any], Any]
    if s.isotropic:
        centres = [Point() for _ in range(s.m)]

        def gradient(i: int, w: Any) -> Any:
            return s.mu * (w - centres[i])

        def value(i: int, w: Any) -> Any:
            return 0.5 * s.mu * (w - centres[i]) ** 2

        minimisers = centres
        leaves: list[Any] = [domain]
    else:
        shifted = [
            problem.declare_function(SmoothStronglyConvexFunction, mu=s.mu + s.lam, L=s.L + s.lam)
            for _ in range(s.m)
        ]

        def gradient(i: int, w: Any) -> Any:
            return shifted[i].gradient(w) - s.lam * (w - start)

        def value(i: int, w: Any) -> Any:
            return shifted[i].value(w) - 0.5 * s.lam * (w - start) ** 2

        minimisers = []
        if s.interior_optima:  # c_i with ∇f_i(c_i) = 0, i.e. ∇h_i(c_i) = λ(c_i − x_0)
            for h in shifted:
                c = Point()
                h.add_point((c, s.lam * (c - start), Expression()))
                minimisers.append(c)
        leaves = [*shifted, domain]
    for point in minimisers:
        in_domain(point)

    def prox(i: int, target: Any, p: Any = None) -> Any:
        """The exact proximal point p = arg min_{w∈𝒲} f_i(w) + (λ/2)‖target − w‖² (optimality:
        −∇f_i(p) − λ(p − target) is normal to 𝒲 at p). With f_i's minimiser and the target in
        𝒲 that normal is at most 2(L + λ)·radius long: implied by the interpolation conditions,
        stated again because it bounds the SDP's feasible set."""
        p = Point() if p is None else p
        normal = -(gradient(i, p) + s.lam * (p - target))
        if s.interior_optima and not s.isotropic and id(target) in inside:
            problem.add_constraint(normal**2 <= (2.0 * (s.L + s.lam) * s.radius) ** 2)
        in_domain(p, normal)
        return p

    # the minimiser: x̃ = Σ q_i ũ_i with ũ_i = Prox_i(x̃) (stationarity in x and in each w_i)
    u = [Point() for _ in range(s.m)]
    x_opt = _weighted_sum(u, q)
    inside.add(id(x_opt))
    for i in range(s.m):
        prox(i, x_opt, u[i])

    local = [Point() for _ in range(s.m)]
    for w in local:
        in_domain(w)

    def local_phase(target: Any, steps: int) -> None:
        for i in range(s.m):
            w = local[i]
            for k in range(steps):
                w = project(w - s.eta[k] * (gradient(i, w) + s.lam * (w - target)))
            local[i] = w

    iterates = [x]
    target = x
    for t in range(s.T):
        local_phase(x, s.K[t])
        target = x
        x = x - s.lam * s.eta_g[t] * _weighted_sum([x - w for w in local], q)
        if s.project_global:
            x = project(x)
            inside.add(id(x))
        iterates.append(x)
    if s.K_final:
        local_phase(x, s.K_final)
        target = x

    if s.measure == "distance":
        metric = (x - x_opt) ** 2
    elif s.measure == "local":
        metric = (local[0] - prox(0, target)) ** 2
    else:
        achieved = [value(i, local[i]) + 0.5 * s.lam * (x - local[i]) ** 2 for i in range(s.m)]
        optimal = [value(i, u[i]) + 0.5 * s.lam * (x_opt - u[i]) ** 2 for i in range(s.m)]
        metric = _weighted_sum(achieved, q) - _weighted_sum(optimal, q)
    problem.set_performance_metric(metric)
    return PepModel(problem, leaves, {}, x_opt, iterates)
