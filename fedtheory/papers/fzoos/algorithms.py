"""Algorithm 1 of Shu et al. (FZooS paper) and its instances, on the core round loop (guide §2).

Every method is the local direction (2), ĝ = g + γ·c, on one round loop (:mod:`.steps`):

=======================  ========================================================================
runner                   local estimate g, correction c, γ (guide §2.1 table, App. D)
=======================  ========================================================================
:func:`fedzo`            Δ^{(i)}(x) of (3); none (eq. (87))
:func:`fedprox_zo`       Δ^{(i)}(x); x − x_{r−1}; γ = μ_prox (eq. (89))
:func:`scaffold_zo`      Δ^{(i)}(x); c − c_i; γ = 1 — type I: c_i = Δ^{(i)}(x_{r−1}) at the round
                         start (+Q+1 queries, one extra exchange; eq. (91)); type II: c_i = the
                         mean of the previous round's T estimates, zero in round 1 (eq. (93), B4)
:func:`fzoos`            ∇μ (GP posterior mean, eq. (5)); ∇μ̂_{r−1}(x) − ∇μ̂^{(i)}_{r−1,T}(x) (RFF,
                         eq. (8)); γ by rule (1/t default) — or, with ``estimator="exact"``,
                         the oracle ∇f_i and ∇F(x) − ∇f_i(x) (check 3)
=======================  ========================================================================

Every FD runner also takes ``estimator="exact"`` (g = ∇f_i(x), no queries; SCAFFOLD I's c_i =
∇f_i(x_{r−1})): the framework reductions of check 3. The optimizer is GD (the theory) or Adam
with its state reset per client per round (decision A3); ``clip`` projects onto [0, 1]^d (A5).
Queries y = f_i(x) + σζ use the client's counter-based stream (:mod:`._inputs`).

References
----------
.. [1] Y. Shu, X. Lin, Z. Dai & B. K. H. Low, Federated zeroth-order optimization using
   trajectory-informed surrogate gradients (arXiv:2308.04077); Algorithms 1–2, eqs. (2), (3),
   (8), App. D.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from fedtheory._checks import check_real
from fedtheory._seeds import Seed
from fedtheory.algorithms.trace import Trace
from fedtheory.errors import ParameterError
from fedtheory.papers.fzoos._inputs import (
    _choice,
    _Common,
    _common,
    _controls,
    _fd_settings,
    _gamma_number,
    _loop,
    _problem,
    _run_log,
    _shaped,
)
from fedtheory.papers.fzoos.runs import ZerothOrderLog, ZerothOrderRun
from fedtheory.papers.fzoos.steps import (
    METHODS,
    RunLog,
    ZerothOrderServer,
    ZerothOrderStep,
)

__all__ = [
    "Corollary1Gamma",
    "corollary1_gamma",
    "fedprox_zo",
    "fedzo",
    "fzoos",
    "scaffold_zo",
]

Optimizer = Literal["gd", "adam"]
Estimator = Literal["fd", "exact"]
ADAM_DEFAULTS = (0.9, 0.999, 1e-8)


# ============================================================================== γ rules


@dataclass(frozen=True)
class Corollary1Gamma:
    """Corollary 1's γ_{r,t−1} = G/(G + 2ωκρ^{(r−1)T} + 2Nε), constant within a round (guide
    §2.5; eq. (37)). Build it with :func:`corollary1_gamma`."""

    G: float
    omega: float
    kappa: float
    rho: float
    epsilon: float

    def table(self, rounds: int, local_steps: int, clients: int) -> np.ndarray:
        """γ for rounds r = 1..R (rows) and steps t = 1..T (columns)."""
        r = np.arange(1, rounds + 1, dtype=np.float64)
        decay = self.rho ** ((r - 1.0) * local_steps)
        gamma = self.G / (
            self.G + 2.0 * self.omega * self.kappa * decay + 2.0 * clients * self.epsilon
        )
        return np.ascontiguousarray(np.repeat(gamma[:, None], local_steps, axis=1))


def corollary1_gamma(
    *, G: float, omega: float, kappa: float, rho: float, epsilon: float
) -> Corollary1Gamma:
    """Corollary 1's γ rule from given constants (heterogeneity G > 0, χ² quantile ω > 0,
    κ > 0, ρ ∈ (0, 1], RFF error ε ≥ 0).

    Examples
    --------
    >>> rule = corollary1_gamma(G=1.0, omega=1.0, kappa=1.0, rho=1.0, epsilon=0.0)
    >>> rule.table(2, 3, 5)[0].tolist()
    [0.3333333333333333, 0.3333333333333333, 0.3333333333333333]
    """
    rho = check_real("rho", rho, positive=True)
    if rho > 1.0:
        raise ParameterError(parameter="rho", value=rho, rule="must lie in (0, 1]")
    return Corollary1Gamma(
        G=check_real("G", G, positive=True),
        omega=check_real("omega", omega, positive=True),
        kappa=check_real("kappa", kappa, positive=True),
        rho=rho,
        epsilon=check_real("epsilon", epsilon, nonnegative=True),
    )


def _gamma_table(gamma: Any, common: _Common) -> tuple[np.ndarray, Any]:
    """FZooS's γ table (R, T) and its record: "1/t", a fixed number in [0, 1], or a rule."""
    R, T, m = common.rounds, common.local_steps, common.info.clients
    fixed = _gamma_number("gamma", gamma)
    if fixed is not None:
        return np.full((R, T), fixed), fixed
    if isinstance(gamma, str) and gamma == "1/t":
        return np.ascontiguousarray(np.tile(1.0 / np.arange(1, T + 1), (R, 1))), "1/t"
    if isinstance(gamma, Corollary1Gamma):
        return gamma.table(R, T, m), gamma
    raise ParameterError(
        parameter="gamma",
        value=gamma,
        rule="must be '1/t', a number in [0, 1] or corollary1_gamma(...)",
    )


# ============================================================================== the runner


def _fd_run(
    algorithm: str,
    method: str,
    problem: Any,
    *,
    gammas: Any,
    gamma_record: Any,
    anchored: bool,
    estimator: Any,
    queries: Any,
    smoothing: Any,
    noise: Any,
    shared_directions: Any,
    extra: dict[str, Any],
    **settings: Any,
) -> ZerothOrderRun:
    """Check, build the two steps around shared arrays, run, wrap."""
    info = _problem(problem)
    common = settings.pop("common", None) or _common(info, **settings)
    if callable(gammas):
        gammas, gamma_record = gammas(common)
    estimator = _choice("estimator", estimator, ("fd", "exact"))
    fd = _fd_settings(
        common, exact=estimator == "exact", queries=queries, smoothing=smoothing, noise=noise,
        shared=shared_directions,
    )  # fmt: skip
    code = METHODS.index(method)
    controls = _controls(common, method in ("scaffold1", "scaffold2"))
    log = _run_log(common)
    client = ZerothOrderStep(
        method=code,
        local_steps=common.local_steps,
        eta=common.eta,
        adam=common.adam,
        beta1=common.betas[0],
        beta2=common.betas[1],
        epsilon=common.betas[2],
        clip=common.clip,
        gammas=np.ascontiguousarray(gammas, dtype=np.float64),
        anchored=bool(anchored),
        fd=fd,
        controls=controls,
        log=log,
    )
    server = ZerothOrderServer(
        method=code,
        local_steps=common.local_steps,
        init=np.ascontiguousarray(np.broadcast_to(common.init, (common.reps, info.dimension))),
        fd=fd,
        controls=controls,
        weights_local=np.zeros((common.reps, 0, 0)),
        weights_mean=np.zeros((common.reps, 0)),
        log=log,
    )
    out = _loop(algorithm, common, client, server, log)
    hyper = {
        **common.hyperparameters,
        "estimator": estimator,
        "queries": fd.queries if estimator == "fd" else None,
        "smoothing": fd.smoothing if estimator == "fd" else None,
        "noise": fd.noise,
        "shared_directions": fd.shared_directions,
        "gamma": gamma_record,
        **extra,
    }
    return _wrap(algorithm, common, out, log, hyper)


def _wrap(
    algorithm: str, common: _Common, out: tuple[np.ndarray, ...], log: RunLog, hyper: dict[str, Any]
) -> ZerothOrderRun:
    """The result object of a finished loop."""
    global_model, local_models, counts, _, global_its, local_its = out
    batched = common.batched

    def shaped(array: np.ndarray) -> np.ndarray:
        return _shaped(array, batched)

    losses = log.values[:, 1:]
    return ZerothOrderRun(
        algorithm=algorithm,
        global_model=shaped(global_model),
        local_models=shaped(local_models),
        trace=Trace.from_counts(counts if batched else counts[0], losses if batched else losses[0]),
        log=ZerothOrderLog(
            disparity=shaped(log.disparity),
            cosine=shaped(log.cosine),
            drift=shaped(log.drift),
            local_error=shaped(log.local_error),
            correction_error=shaped(log.correction_error),
            gamma=shaped(log.gamma),
            gamma_oracle=shaped(log.gamma_oracle),
            values=shaped(log.values),
            grad_norm2=shaped(log.grad_norm2),
        ),
        global_iterates=shaped(global_its) if common.record else None,
        local_iterates=shaped(local_its) if common.record else None,
        hyperparameters=hyper,
        replicates=common.replicates,
    )


_DOC_SHARED = """
    problem
        A fzoos problem (``kernel_view()``, ``num_clients``, ``dimension``; optional
        ``exact_gradients`` and ``box``).
    rounds, local_steps
        R ≥ 1 and T ≥ 1.
    step_size
        η > 0 (GD or Adam's step).
    estimator
        ``"fd"`` (eq. (3)) or ``"exact"`` (g = ∇f_i; check 3's reductions).
    queries, smoothing, noise
        Q ≥ 1, λ > 0 and the query noise σ ≥ 0.
    shared_directions
        One stream of FD directions for every client, step and round (Prop. D.4).
    optimizer, adam
        ``"gd"`` or ``"adam"`` with (β₁, β₂, ε) (state reset per client per round, A3).
    clip
        Project onto [0, 1]^d after every local step (A5).
    init
        x_0, shape (d,); default 0.5·1 (the centre of the box).
    seed, replicates, record
        The seed; None or a batch size; keep x_r and the local models of every round.
"""


def fedzo(
    problem: Any,
    *,
    rounds: int,
    local_steps: int,
    step_size: float,
    estimator: Estimator = "fd",
    queries: int = 20,
    smoothing: float = 1e-3,
    noise: float = 0.0,
    shared_directions: bool = False,
    optimizer: Optimizer = "gd",
    adam: tuple[float, float, float] = ADAM_DEFAULTS,
    clip: bool = False,
    init: np.ndarray | None = None,
    seed: Seed,
    replicates: int | None = None,
    record: bool = False,
) -> ZerothOrderRun:
    """FedZO (eq. (87), App. D.1): T local steps along Δ^{(i)}(x), the server averages x.

    Parameters
    ----------
    """
    return _fd_run(
        "fedzo", "fedzo", problem, gammas=lambda c: (np.zeros((c.rounds, c.local_steps)), 0.0),
        gamma_record=0.0, anchored=False, estimator=estimator, queries=queries,
        smoothing=smoothing, noise=noise, shared_directions=shared_directions, extra={},
        rounds=rounds, local_steps=local_steps, step_size=step_size, optimizer=optimizer,
        adam=adam, clip=clip, init=init, seed=seed, replicates=replicates, record=record,
    )  # fmt: skip


def fedprox_zo(
    problem: Any,
    mu_prox: float,
    *,
    rounds: int,
    local_steps: int,
    step_size: float,
    estimator: Estimator = "fd",
    queries: int = 20,
    smoothing: float = 1e-3,
    noise: float = 0.0,
    shared_directions: bool = False,
    optimizer: Optimizer = "gd",
    adam: tuple[float, float, float] = ADAM_DEFAULTS,
    clip: bool = False,
    init: np.ndarray | None = None,
    seed: Seed,
    replicates: int | None = None,
    record: bool = False,
) -> ZerothOrderRun:
    """FedProx-ZO (eq. (89), App. D.2): ĝ = Δ^{(i)}(x) + μ_prox(x − x_{r−1}).

    ``mu_prox`` ≥ 0 is the proximal coefficient (the paper gives no value, B3); it is logged as
    the run's γ. The anchor is x_{r−1} as in (89) (Sec. 3.1 misprints x_r).

    Parameters
    ----------
    """
    mu = check_real("mu_prox", mu_prox, nonnegative=True)
    return _fd_run(
        "fedprox_zo", "fedprox", problem,
        gammas=lambda c: (np.full((c.rounds, c.local_steps), mu), mu), gamma_record=mu,
        anchored=False, estimator=estimator, queries=queries, smoothing=smoothing, noise=noise,
        shared_directions=shared_directions, extra={"mu_prox": mu}, rounds=rounds,
        local_steps=local_steps, step_size=step_size, optimizer=optimizer, adam=adam, clip=clip,
        init=init, seed=seed, replicates=replicates, record=record,
    )  # fmt: skip


def scaffold_zo(
    problem: Any,
    *,
    variant: Literal[1, 2],
    rounds: int,
    local_steps: int,
    step_size: float,
    estimator: Estimator = "fd",
    queries: int = 20,
    smoothing: float = 1e-3,
    noise: float = 0.0,
    shared_directions: bool = False,
    optimizer: Optimizer = "gd",
    adam: tuple[float, float, float] = ADAM_DEFAULTS,
    clip: bool = False,
    init: np.ndarray | None = None,
    seed: Seed,
    replicates: int | None = None,
    record: bool = False,
) -> ZerothOrderRun:
    """SCAFFOLD with FD gradients, type I (eq. (91)) or II (eq. (93)) (App. D.3–D.4; guide §2.7).

    ĝ = Δ^{(i)}(x) + c − c_i. Type I: c_i = Δ^{(i)}(x_{r−1}) from Q + 1 extra queries at the start
    of every round and c = mean_j c_j (one extra exchange; d floats up and down per client).
    Type II: c_i = (1/T) Σ_τ Δ^{(i)}(x_{r−1,τ−1}^{(i)}) of the previous round, c = mean_i c_i,
    sent with the models; c = c_i = 0 in round 1 (B4).

    Parameters
    ----------
    variant
        1 or 2.
    """
    if variant not in (1, 2) or isinstance(variant, bool):
        raise ParameterError(parameter="variant", value=variant, rule="must be 1 or 2")
    method = f"scaffold{variant}"
    return _fd_run(
        f"{method}_zo", method, problem,
        gammas=lambda c: (np.ones((c.rounds, c.local_steps)), 1.0), gamma_record=1.0,
        anchored=False, estimator=estimator, queries=queries, smoothing=smoothing, noise=noise,
        shared_directions=shared_directions, extra={"variant": variant}, rounds=rounds,
        local_steps=local_steps, step_size=step_size, optimizer=optimizer, adam=adam, clip=clip,
        init=init, seed=seed, replicates=replicates, record=record,
    )  # fmt: skip


def fzoos(
    problem: Any,
    *,
    rounds: int,
    local_steps: int,
    step_size: float,
    gamma: float | str | Corollary1Gamma = "1/t",
    correction: Literal["adaptive", "fixed_vector"] = "adaptive",
    estimator: Literal["gp", "exact"] = "gp",
    noise: float = 0.0,
    optimizer: Optimizer = "gd",
    adam: tuple[float, float, float] = ADAM_DEFAULTS,
    clip: bool = False,
    init: np.ndarray | None = None,
    seed: Seed,
    replicates: int | None = None,
    record: bool = False,
    **surrogate: Any,
) -> ZerothOrderRun:
    """FZooS (Algorithm 2, eq. (8)): ĝ = ∇μ^{(i)}(x) + γ_{r,t−1}·(∇μ̂_{r−1}(x) − ∇μ̂^{(i)}(x)),
    with ∇μ̂^{(i)} = ∇μ̂_{r−1,T}^{(i)} the client's RFF surrogate of the previous round.

    Parameters
    ----------
    gamma
        ``"1/t"`` (the experiments, App. E), a fixed γ ∈ [0, 1] (Fig. 6b: 1) or
        :func:`corollary1_gamma` (Cor. 1).
    correction
        ``"adaptive"`` (the correction at the current iterate, eq. (8)) or ``"fixed_vector"``
        (Fig. 6b's ablation x′ = x″ = x_{r−1}).
    estimator
        ``"gp"`` (the trajectory-informed GP surrogate) or ``"exact"``: the oracle with exact
        surrogates, g = ∇f_i(x) and c = ∇F(·) − ∇f_i(·), available from round 1 (check 3).
    noise
        σ ≥ 0, the query noise.
    **surrogate
        The GP/RFF settings (``estimator="gp"``).
    """
    vector = _choice("correction", correction, ("adaptive", "fixed_vector"))
    kind = _choice("estimator", estimator, ("gp", "exact"))
    info = _problem(problem)
    common = _common(
        info, rounds=rounds, local_steps=local_steps, step_size=step_size, optimizer=optimizer,
        adam=adam, clip=clip, init=init, seed=seed, replicates=replicates, record=record,
    )  # fmt: skip
    gammas, record_gamma = _gamma_table(gamma, common)
    if kind == "gp":
        raise ParameterError(
            parameter="estimator",
            value="gp",
            rule="the GP surrogate step waits for the fzoos GP/RFF kernels (use 'exact')",
        )
    if surrogate:
        name = next(iter(surrogate))
        raise ParameterError(
            parameter=name, value=surrogate[name], rule="GP/RFF settings need estimator='gp'"
        )
    return _fd_run(
        "fzoos", "fzoos", problem, gammas=gammas, gamma_record=record_gamma,
        anchored=vector == "fixed_vector", estimator="exact", queries=1, smoothing=1.0,
        noise=noise, shared_directions=False, extra={"correction": vector}, common=common,
    )  # fmt: skip


_DOC_END = """
    Returns
    -------
    ZerothOrderRun
        x_R, the trace (queries counted per round) and the logs (:mod:`.runs`).

    Raises
    ------
    ParameterError
        On any invalid input (naming the parameter, the value and the rule).
    DivergenceError
        At the first non-finite iterate, naming the round, the client and the local step.
"""

# The shared parameters are documented once (the runners' docstrings list their own first).
for _runner in (fedzo, fedprox_zo, scaffold_zo):
    _runner.__doc__ = (
        (_runner.__doc__ or "")
        .replace(
            "    Parameters\n    ----------\n", "    Parameters\n    ----------" + _DOC_SHARED, 1
        )
        .rstrip()
        + "\n"
        + _DOC_END
    )
fzoos.__doc__ = (
    (fzoos.__doc__ or "")
    .replace(
        "    Parameters\n    ----------\n",
        "    Parameters\n    ----------" + _DOC_SHARED.split("    estimator")[0],
        1,
    )
    .rstrip()
    + "\n"
    + _DOC_END
)
del _runner
