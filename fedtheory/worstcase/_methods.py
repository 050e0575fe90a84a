"""The federated methods a worst case can be computed for, and the one entry point.

Every method is the same round loop (:mod:`fedtheory.worstcase._pep`) with its own local step,
server step and oracle; :data:`METHODS` describes each with its parameters (what
``fedtheory worstcase list`` prints) and :func:`worst_case` checks the parameters, builds the
PEP and solves it. :func:`fedavg_worst_case` and :func:`gd_worst_case` are the two most used
methods with their parameters spelled out.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fedtheory.errors import ParameterError, SolverError
from fedtheory.worstcase._feedback import build_feedback_pep, make_feedback_setting
from fedtheory.worstcase._pep import PepModel, build_pep
from fedtheory.worstcase._personalized import build_moreau_pep, make_moreau_setting
from fedtheory.worstcase._result import WorstCase
from fedtheory.worstcase._setting import Setting, make_setting
from fedtheory.worstcase._solve import check_solver, solve_pep
from fedtheory.worstcase._symmetry import lift_result, symmetric_reduction

__all__ = [
    "AUTO_ORDER",
    "METHODS",
    "PARAMETERS",
    "Method",
    "fedavg_worst_case",
    "gd_worst_case",
    "setting_of",
    "with_solver_fallback",
    "worst_case",
]

#: The solvers ``solver="auto"`` tries, in order.
AUTO_ORDER = ("CLARABEL", "SCS")

#: Every parameter a method may take, with its meaning (``fedtheory worstcase list``).
PARAMETERS: dict[str, str] = {
    "m": "number of clients (≥ 1)",
    "K": "local steps per round (≥ 1)",
    "T": "rounds (≥ 1); for GD, iterations",
    "L": "smoothness of every client (> 0)",
    "mu": "strong convexity of every client (0 ≤ mu ≤ L; 0 for non-convex)",
    "eta": "local step size (> 0)",
    "eta_g": "server step size (> 0; 1 = averaging)",
    "lam": "FedProx proximal coefficient λ (> 0)",
    "zeta2": "heterogeneity budget ζ² (≥ 0)",
    "heterogeneity": "optimum: Σq_i‖∇f_i(x*)‖² ≤ ζ²; dissimilarity: Σq_i‖∇f_i − ∇F‖² ≤ ζ² "
    "at every queried point; identical: one shared F",
    "weights": "aggregation weights q (m positive numbers summing to 1; default uniform)",
    "eps2": "absolute gradient-error budget ‖e‖² ≤ ε² (a number, or one per local step)",
    "delta2": "relative gradient-error budget ‖e‖² ≤ δ²‖∇f_i(y)‖²",
    "R2": "initial condition ‖x_0 − x*‖² ≤ R² (default 1)",
    "Delta0": "initial condition F(x_0) − F* ≤ Δ0 (instead of R2)",
    "functions": "client class: convex (μ-strongly convex if mu > 0), quadratic, nonconvex",
    "radius": "the constraint set 𝒲 lies in a ball of this radius (diameter ≤ 2·radius)",
    "K_final": "local steps of a final local phase after the T rounds (≥ 0)",
    "project_global": "project the server model onto 𝒲 after each server step (True/False)",
    "interior_optima": "every client's minimiser lies in 𝒲 (True/False)",
    "G": "bound on the subgradients of every client (> 0)",
    "gamma": "oracle edge γ ∈ (0, 1]: ‖h − φ‖ ≤ (1 − γ)‖φ‖ for a query φ",
    "feedback": "feed the oracle's error into the next query (residual reset every round)",
    "B2": "bound on the start's norm ‖x_0‖² (default none)",
}


@dataclass(frozen=True)
class Method:
    """A federated method: its local step, the parameters it takes and its description."""

    name: str
    description: str
    local: str
    parameters: tuple[str, ...]
    fixed: Mapping[str, Any]
    #: For a method outside the one round loop: its own checked setting and PEP builder
    #: (``make(measure=..., **parameters)`` and ``build(setting) -> PepModel``).
    make: Callable[..., Any] | None = None
    build: Callable[[Any], PepModel] | None = None

    def required(self) -> tuple[str, ...]:
        """Parameters without a default."""
        if self.make is not None:  # the checked setting's own signature says
            signature = inspect.signature(self.make).parameters
            return tuple(
                p for p in self.parameters if signature[p].default is inspect.Parameter.empty
            )
        optional = {
            "eta_g",
            "weights",
            "heterogeneity",
            "zeta2",
            "eps2",
            "delta2",
            "R2",
            "Delta0",
            "functions",
            "mu",
        }
        return tuple(p for p in self.parameters if p not in optional)


_CLASS = ("L", "mu", "functions", "R2", "Delta0")
_ERRORS = ("eps2", "delta2")
_FED = ("m", "K", "T")
_HET = ("zeta2", "heterogeneity", "weights")

#: The federated methods a worst case can be computed for, by name.
METHODS: dict[str, Method] = {
    m.name: m
    for m in (
        Method(
            "gd",
            "gradient descent x ← x − η(∇F(x) + e): T steps, optionally with gradient errors",
            "gd",
            ("T", *_CLASS, "eta", *_ERRORS),
            {"m": 1, "K": 1},
        ),
        Method(
            "fedavg",
            "FedAvg: K local (inexact) gradient steps per client from the server model, "
            "server step x ← x + η_g Σq_i(y_i − x) (η_g = 1: local GD with averaging)",
            "gd",
            (*_FED, *_CLASS, "eta", "eta_g", *_HET, *_ERRORS),
            {},
        ),
        Method(
            "fedprox",
            "FedProx: K gradient steps on f_i + (λ/2)‖· − x‖² per client, then averaging",
            "prox-gd",
            (*_FED, *_CLASS, "eta", "lam", "eta_g", *_HET, *_ERRORS),
            {},
        ),
        Method(
            "fedprox-exact",
            "FedProx with exact local solves: y_i = prox_{f_i/λ}(x), then averaging",
            "prox",
            ("m", "T", *_CLASS, "lam", "eta_g", *_HET),
            {"K": 1, "eta": 1.0},
        ),
        Method(
            "scaffold",
            "SCAFFOLD (control variates c_i = ∇f_i(x) at the round's server model): K steps "
            "y ← y − η(∇f_i(y) − c_i + c), server step η_g",
            "scaffold",
            (*_FED, *_CLASS, "eta", "eta_g", *_HET, *_ERRORS),
            {},
        ),
        Method(
            "fedprox-moreau",
            "FedProx on the personalised objective Σq_i[f_i(w_i) + (λ/2)‖x − w_i‖²], w_i ∈ 𝒲: "
            "clients keep their models across rounds and take K_t projected steps "
            "w ← P_𝒲[w − η_k(∇f_i(w) + λ(w − x))] (K and η_k may vary with the round and the "
            "step), the server steps x ← x − λη_g Σq_i(x − w_i) (then P_𝒲 if project_global); "
            "measures distance, local (to the exact proximal point), objective",
            "prox-gd",
            (
                "m",
                "T",
                "K",
                "K_final",
                "L",
                "mu",
                "lam",
                "radius",
                "eta",
                "eta_g",
                "project_global",
                "interior_optima",
                "weights",
            ),
            {},
            make_moreau_setting,
            build_moreau_pep,
        ),
        Method(
            "fedavg-ef",
            "FedAvg on f_i + (μ/2)‖·‖² with a relative-error oracle ‖h − φ‖ ≤ (1 − γ)‖φ‖ on "
            "the query φ = Δ + ∇f_i(y) and error feedback Δ ← φ − h (reset every round); "
            "steps y ← y − η_s(h + μy), η one per local step; clients convex with "
            "‖∂f_i‖ ≤ G; measures distance, residual, oracle, iterate",
            "gd",
            ("m", "K", "T", "G", "mu", "gamma", "eta", "feedback", "R2", "B2", "weights"),
            {},
            make_feedback_setting,
            build_feedback_pep,
        ),
    )
}


def setting_of(method: str, *, measure: str = "distance", **parameters: Any) -> Setting:
    """The checked :class:`~fedtheory.worstcase._setting.Setting` of ``method`` with
    ``parameters`` (``ParameterError`` for an unknown method or parameter)."""
    if method not in METHODS:
        raise ParameterError(
            parameter="method", value=method, rule=f"must be one of {sorted(METHODS)}"
        )
    spec = METHODS[method]
    if spec.make is not None:
        raise ParameterError(
            parameter="method", value=method, rule="has its own setting (use worst_case)"
        )
    _check_names(spec, parameters)
    return make_setting(method, local=spec.local, measure=measure, **spec.fixed, **parameters)


def _check_names(spec: Method, parameters: Mapping[str, Any]) -> None:
    """Refuse a parameter ``spec`` does not take, or a missing required one."""
    unknown = sorted(set(parameters) - set(spec.parameters))
    if unknown:
        raise ParameterError(
            parameter=unknown[0],
            value=parameters[unknown[0]],
            rule=f"is not a parameter of {spec.name!r} (it takes {', '.join(spec.parameters)})",
        )
    missing = [p for p in spec.required() if p not in parameters]
    if missing:
        raise ParameterError(parameter=missing[0], value=None, rule=f"is required by {spec.name!r}")


def worst_case(
    method: str,
    *,
    measure: str = "distance",
    solver: str = "auto",
    exploit_symmetry: bool = True,
    **parameters: Any,
) -> WorstCase:
    """Exact worst case of a federated ``method`` over its function class, by an SDP.

    Parameters
    ----------
    method
        One of :data:`METHODS` (``"gd"``, ``"fedavg"``, ``"fedprox"``, ``"fedprox-exact"``,
        ``"scaffold"``; ``"fedprox-moreau"`` and ``"fedavg-ef"``, each with its own setting:
        :mod:`fedtheory.worstcase._personalized`, :mod:`fedtheory.worstcase._feedback`).
    measure
        ``"distance"`` ‖x_T − x*‖², ``"function"`` F(x_T) − F*, ``"function-min"``
        min_t F(x_t) − F*, or ``"gradient"`` min_t ‖∇F(x_t)‖² (t = 0..T, server models);
        ``"fedprox-moreau"`` also ``"local"`` and ``"objective"``, ``"fedavg-ef"``
        ``"residual"``, ``"oracle"`` and ``"iterate"`` (see their modules).
    solver
        ``"auto"`` (default: Clarabel, then SCS if Clarabel does not reach optimal),
        ``"CLARABEL"`` or ``"SCS"``.
    exploit_symmetry
        Solve m > 2 equally weighted distinct clients as two (default True). The worst case is
        the same, exactly, and the SDP has 2·K·T client steps instead of m·K·T
        (:mod:`fedtheory.worstcase._symmetry`). False solves all m; use it to check the
        reduction.
    **parameters
        The method's parameters (:data:`PARAMETERS`; ``METHODS[method].parameters``).

    Returns
    -------
    WorstCase
        The value, the solver and its status, the dual certificate and the primal Gram data.

    Raises
    ------
    ParameterError
        An unknown method or parameter, a missing or invalid one (see
        :func:`~fedtheory.worstcase._setting.make_setting`).
    SolverError
        When the solver does not report ``"optimal"``.
    """
    if not isinstance(exploit_symmetry, bool):
        raise ParameterError(
            parameter="exploit_symmetry", value=exploit_symmetry, rule="must be True or False"
        )
    spec = METHODS.get(method)
    if spec is not None and spec.make is not None and spec.build is not None:
        _check_names(spec, parameters)
        own = spec.make(measure=measure, **parameters)
        build = spec.build
        return _solve(
            lambda: build(own),
            method=method,
            measure=own.measure,
            parameters=own.parameters(),
            solver=solver,
        )
    setting = setting_of(method, measure=measure, **parameters)
    return solve_setting(setting, solver=solver, exploit_symmetry=exploit_symmetry)


def solve_setting(
    setting: Setting, *, solver: str = "auto", exploit_symmetry: bool = True
) -> WorstCase:
    """Build and solve the PEP of a checked setting of the round loop (:func:`build_pep`).

    With ``exploit_symmetry`` (default), more than two equally weighted distinct clients are
    solved as two and the instance lifted back to m: the same worst case, exactly
    (:mod:`fedtheory.worstcase._symmetry`; ``WorstCase.solved_clients`` says so).
    """
    reduced = symmetric_reduction(setting) if exploit_symmetry else None
    solved = setting if reduced is None else reduced
    result = _solve(
        lambda: build_pep(solved),
        method=solved.method,
        measure=solved.measure,
        parameters=solved.parameters(),
        solver=solver,
    )
    return result if reduced is None else lift_result(result, setting)


def _solve(
    build: Callable[[], PepModel],
    *,
    method: str,
    measure: str,
    parameters: dict[str, Any],
    solver: str,
) -> WorstCase:
    """Solve the PEP ``build()`` makes with ``solver``.

    ``solver="auto"`` tries Clarabel (interior point: fast, accurate when it converges) and,
    when it ends with a status other than optimal, SCS; the error names both when both fail.
    """

    def attempt(name: str) -> WorstCase:
        model = build()  # a fresh problem per attempt: PEPit problems are single-use
        return solve_pep(
            model.problem,
            leaf_functions=model.clients,
            named=model.named,
            solver=name,
            method=method,
            measure=measure,
            parameters=parameters,
            x_star=model.x_star,
            iterates=model.iterates,
        )

    return with_solver_fallback(attempt, solver)


def with_solver_fallback(attempt: Callable[[str], WorstCase], solver: str = "auto") -> WorstCase:
    """``attempt(solver)``; with ``solver="auto"``, Clarabel and then SCS (:data:`AUTO_ORDER`).

    For PEPs written directly with PEPit (``attempt`` builds the problem and calls
    :func:`~fedtheory.worstcase._solve.solve_pep` with the solver it is given).

    Raises
    ------
    SolverError
        The one solver's error, or one naming both when both fail.
    """
    order = AUTO_ORDER if solver == "auto" else (check_solver(solver),)
    failures: list[SolverError] = []
    for name in order:
        try:
            return attempt(name)
        except SolverError as exc:
            failures.append(exc)
    if len(failures) == 1:
        raise failures[0]
    raise SolverError(
        " and ".join(order),
        "/".join(f.status for f in failures),
        hint=f"both free solvers failed ({'; '.join(str(f) for f in failures)})",
    )


def fedavg_worst_case(
    m: int,
    K: int,
    T: int,
    L: float,
    mu: float,
    eta: float,
    zeta2: float,
    R2: float = 1.0,
    *,
    measure: str = "distance",
    solver: str = "auto",
) -> WorstCase:
    r"""Exact worst case of FedAvg with ``K`` local GD steps over heterogeneous smooth clients.

    Every client starts from the server model, :math:`y_{i,0} = x_t`, takes ``K`` gradient steps
    :math:`y_{i,k+1} = y_{i,k} - \eta \nabla f_i(y_{i,k})`, and the server averages,
    :math:`x_{t+1} = \frac1m \sum_i y_{i,K}`. The worst case is over every ``m``-tuple of
    L-smooth μ-strongly convex clients (μ = 0: smooth convex) with
    :math:`\frac1m \sum_i \|\nabla f_i(x^\star)\|^2 \le \zeta^2` at the minimiser x* of
    :math:`F = \frac1m\sum_i f_i` and :math:`\|x_0 - x^\star\|^2 \le R^2`, in any dimension
    (Taylor, Hendrickx & Glineur 2017). ``K = 1`` is GD on F; ``ζ = 0`` with ``m = 1`` is GD with
    ``K·T`` steps, :math:`\max(|1-\eta L|, |1-\eta\mu|)^{2KT} R^2`. Shorthand for
    ``worst_case("fedavg", ...)``; see :func:`worst_case` for the measures, solvers and errors.
    """
    return worst_case(
        "fedavg",
        m=m,
        K=K,
        T=T,
        L=L,
        mu=mu,
        eta=eta,
        zeta2=zeta2,
        R2=R2,
        measure=measure,
        solver=solver,
    )


def gd_worst_case(
    T: int,
    L: float,
    mu: float,
    eta: float,
    R2: float = 1.0,
    *,
    measure: str = "distance",
    solver: str = "auto",
) -> WorstCase:
    r"""Exact worst case of ``T`` steps of gradient descent on one L-smooth μ-strongly convex f.

    :math:`x_{t+1} = x_t - \eta \nabla f(x_t)`, :math:`\|x_0 - x^\star\|^2 \le R^2`: the distance
    worst case is :math:`\max(|1-\eta L|, |1-\eta\mu|)^{2T} R^2` and, for μ = 0 and η = 1/L, the
    function-value worst case is :math:`L R^2 / (4T + 2)` (Drori & Teboulle 2014; Taylor,
    Hendrickx & Glineur 2017, Theorem 3). Shorthand for ``worst_case("gd", ...)``.
    """
    return worst_case("gd", T=T, L=L, mu=mu, eta=eta, R2=R2, measure=measure, solver=solver)
