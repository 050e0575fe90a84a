"""Algorithm 1 of Shu et al. (FZooS paper) and its instances, on the core round loop (guide §2).

Every method is the local direction (2) of [1]_, ĝ = g + γ·c, on one round loop
(:mod:`~fedtheory.papers.fzoos.steps`):

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

from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_int, check_real
from fedtheory._seeds import Seed
from fedtheory.algorithms.trace import Trace
from fedtheory.errors import DivergenceError, ParameterError, SolverError
from fedtheory.papers.fzoos._fzoos_step import (
    SOLVER_GP,
    DistanceRule,
    FZooSStep,
    Surrogate,
)
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
from fedtheory.papers.fzoos.gp import gp_state
from fedtheory.papers.fzoos.rff import rff_scale
from fedtheory.papers.fzoos.runs import QueryHistory, ZerothOrderLog, ZerothOrderRun
from fedtheory.papers.fzoos.steps import (
    FZOOS,
    METHODS,
    FDSettings,
    RunLog,
    ZerothOrderServer,
    ZerothOrderStep,
)

__all__ = [
    "Corollary1Gamma",
    "CorollaryC1Gamma",
    "corollary1_gamma",
    "corollary_c1_gamma",
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


@dataclass(frozen=True)
class CorollaryC1Gamma:
    """Corollary C.1's distance-based γ (guide §2.5, §3; Prop. C.1),

    γ = G/(G + 2(ωκ − 4ωι k′(ι)²/(k(0)d + σ²d/n̄) + Nε)),

    with ι the mean squared distance from the current iterate to every client's history (shared
    through per-client sums; :mod:`._fzoos_step`), κ = 1/l², σ² the GP noise and n̄ the mean
    history size (the paper's rT). Evaluated in the kernel at every local step; needs
    ``estimator="gp"``. Build it with :func:`corollary_c1_gamma`.
    """

    G: float
    omega: float
    epsilon: float


def corollary_c1_gamma(*, G: float, omega: float, epsilon: float) -> CorollaryC1Gamma:
    """Corollary C.1's γ rule from heterogeneity G > 0, the χ² quantile ω > 0 and the RFF error
    ε ≥ 0 (guide §3, Corollary C.1; the guide notes it is ≈ G/(G + 2ωκ + 2Nε) in practice).

    Examples
    --------
    >>> corollary_c1_gamma(G=1.0, omega=2.0, epsilon=0.0).omega
    2.0
    """
    return CorollaryC1Gamma(
        G=check_real("G", G, positive=True),
        omega=check_real("omega", omega, positive=True),
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
    if isinstance(gamma, CorollaryC1Gamma):
        return np.full((R, T), np.nan), gamma
    raise ParameterError(
        parameter="gamma",
        value=gamma,
        rule="must be '1/t', a number in [0, 1], corollary1_gamma(...) or corollary_c1_gamma(...)",
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
        # writable, as the models the server step logs at: one kernel type (a read-only x_0
        # compiled the server step's callees a second time, and the loop once more per batch)
        init=kernel_array(np.broadcast_to(common.init, (common.reps, info.dimension))),
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


#: The GP noise variance floor (decision A8; guide §4.8's prototype value, see :func:`fzoos`).
GP_NOISE_FLOOR = 1e-4


def fzoos(
    problem: Any,
    *,
    rounds: int,
    local_steps: int,
    step_size: float,
    gamma: float | str | Corollary1Gamma | CorollaryC1Gamma = "1/t",
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
    lengthscale: float = 1.0,
    gp_noise: float | None = None,
    num_features: int = 1000,
    n_active: int = 5,
    n_cand: int = 100,
    box: float = 0.01,
    history: Literal["all", "trajectory"] = "all",
    neighbours: int | None = None,
) -> ZerothOrderRun:
    """FZooS (Algorithm 2, eq. (8)): ĝ = ∇μ^{(i)}(x) + γ_{r,t−1}·(∇μ̂_{r−1}(x) − ∇μ̂^{(i)}(x)),
    with ∇μ̂^{(i)} = ∇μ̂_{r−1,T}^{(i)} the client's RFF surrogate of the previous round.

    With ``estimator="gp"`` (guide §2.6; :mod:`._fzoos_step`) every local step queries the
    iterate and the ``n_active`` most uncertain (trace of the gradient covariance, A4) of
    ``n_cand`` candidates in the box x ± ``box``, appends all of them to the client's GP history
    before ∇μ(x) is computed (A2), and the correction ∇φ(x)ᵀ(w_{r−1} − w_{r−1,T}^{(i)}) is
    zero in round 1 (A1). Queries: 1 + n_active per local step. The RFF frequencies are one
    draw per replicate shared by all parties, independent of the problem's own randomness.

    Parameters
    ----------
    gamma
        ``"1/t"`` (the experiments, App. E), a fixed γ ∈ [0, 1] (Fig. 6b: 1),
        :func:`corollary1_gamma` (Cor. 1) or :func:`corollary_c1_gamma` (Cor. C.1's distance
        rule; ``estimator="gp"`` only).
    correction
        ``"adaptive"`` (the correction at the current iterate, eq. (8)) or ``"fixed_vector"``
        (Fig. 6b's ablation x′ = x″ = x_{r−1}).
    estimator
        ``"gp"`` (the trajectory-informed GP surrogate) or ``"exact"``: the oracle with exact
        surrogates, g = ∇f_i(x) and c = ∇F(·) − ∇f_i(·), available from round 1 (check 3).
    noise
        σ ≥ 0, the standard deviation of the query noise.
    lengthscale
        l > 0 of the SE kernel of the GP and the RFF (the paper's 1, A11).
    gp_noise
        σ² ≥ 0 of the GP and of the RFF ridge; default max(10⁻⁴, noise²) (A8: the paper gives
        none; the GP should know the query noise when there is one, and the floor 10⁻⁴ — the
        guide's prototype value — keeps K_σ positive definite although the six queries of a
        step lie within 0.01 of each other: every Cholesky pivot is at least σ²).
    num_features
        M ≥ 1 random features (Fig. 6's 1000; the paper's 10 000 costs M³/3 per client-round).
    n_active, n_cand, box
        0 ≤ n_active ≤ n_cand active queries chosen among n_cand ≥ 1 candidates drawn
        uniformly in x ± box, box > 0 (App. E: 5, 100, 0.01).
    history
        ``"all"`` (w from every query, A7) or ``"trajectory"`` (the iterates only, the paper's
        rT columns); the distance rule's ι uses the same points.
    neighbours
        ``None`` (default): rank the candidates by the exact tr Σ (4·n_cand·n² flops per step,
        the dominant cost of long runs); an integer m ≥ 1: by tr Σ conditioned on the m history
        points nearest to x only — an APPROXIMATION (an upper bound, exact while n ≤ m) whose
        cost does not grow with n; ∇μ stays exact.
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
        return _gp_run(
            problem, common, gammas, record_gamma, anchored=vector == "fixed_vector",
            noise=noise, lengthscale=lengthscale, gp_noise=gp_noise, num_features=num_features,
            n_active=n_active, n_cand=n_cand, box=box, history=history, neighbours=neighbours,
        )  # fmt: skip
    if isinstance(record_gamma, CorollaryC1Gamma):
        raise ParameterError(
            parameter="gamma", value=record_gamma, rule="corollary_c1_gamma needs estimator='gp'"
        )
    return _fd_run(
        "fzoos", "fzoos", problem, gammas=gammas, gamma_record=record_gamma,
        anchored=vector == "fixed_vector", estimator="exact", queries=1, smoothing=1.0,
        noise=noise, shared_directions=False, extra={"correction": vector}, common=common,
    )  # fmt: skip


def _gp_run(
    problem: Any,
    common: _Common,
    gammas: np.ndarray,
    record_gamma: Any,
    *,
    anchored: bool,
    noise: Any,
    lengthscale: Any,
    gp_noise: Any,
    num_features: Any,
    n_active: Any,
    n_cand: Any,
    box: Any,
    history: Any,
    neighbours: Any,
) -> ZerothOrderRun:
    """Check the surrogate settings, build FZooS's client step and the server step, run."""
    info = common.info
    sigma = check_real("noise", noise, nonnegative=True)
    scale_l = check_real("lengthscale", lengthscale, positive=True)
    variance = (
        max(GP_NOISE_FLOOR, sigma * sigma)
        if gp_noise is None
        else check_real("gp_noise", gp_noise, nonnegative=True)
    )
    M = check_int("num_features", num_features, minimum=1)
    candidates = check_int("n_cand", n_cand, minimum=1)
    active = check_int("n_active", n_active, minimum=0)
    if active > candidates:
        raise ParameterError(
            parameter="n_active", value=active, rule=f"must be at most n_cand = {candidates}"
        )
    half_width = check_real("box", box, positive=True)
    kept = _choice("history", history, ("all", "trajectory"))
    nearest = 0 if neighbours is None else check_int("neighbours", neighbours, minimum=1)
    distance = isinstance(record_gamma, CorollaryC1Gamma)
    reps, m, d = common.reps, info.clients, info.dimension
    R, T = common.rounds, common.local_steps
    capacity = R * T * (1 + active)
    # One RFF draw per replicate, from its generator after the stream seed (see ._inputs).
    frequencies = np.empty((reps, M, d))
    phases = np.empty((reps, M))
    for rep, rng in enumerate(common.generators):
        frequencies[rep] = rng.standard_normal((M, d)) / scale_l
        phases[rep] = rng.uniform(0.0, 2.0 * np.pi, M)
    surrogate = Surrogate(
        n_active=active,
        n_cand=candidates,
        box=half_width,
        neighbours=nearest,
        history_all=kept == "all",
        lengthscale=scale_l,
        noise=variance,
        gp=gp_state(capacity, d, lengthscale=scale_l, noise=variance, clients=m),
        frequencies=frequencies,
        phases=phases,
        scale=rff_scale(M),
        gram=np.zeros((m, M, M)),
        moment=np.zeros((m, M)),
        accumulated=np.zeros(m, dtype=np.int64),
        points=np.zeros((m, R * T * (1 + active if kept == "all" else 1), d)),
        values=np.zeros((m, R * T * (1 + active if kept == "all" else 1))),
        status=np.full((reps, 4), -1, dtype=np.int64),
    )
    rule = (
        DistanceRule(True, record_gamma.G, record_gamma.omega, record_gamma.epsilon)
        if distance
        else DistanceRule(False, 0.0, 0.0, 0.0)
    )
    fd = FDSettings(
        exact=False, gradients=info.gradients, queries=1, smoothing=1.0, noise=sigma,
        shared_directions=False, seeds=np.ascontiguousarray(common.streams, dtype=np.uint64),
    )  # fmt: skip
    columns = M + (d + 2 if distance else 0)
    weights_local = np.zeros((reps, m, columns))
    weights_mean = np.zeros((reps, columns))
    log = _run_log(common)
    client = FZooSStep(
        local_steps=T,
        eta=common.eta,
        adam=common.adam,
        beta1=common.betas[0],
        beta2=common.betas[1],
        epsilon=common.betas[2],
        clip=common.clip,
        gammas=np.ascontiguousarray(gammas, dtype=np.float64),
        distance=rule,
        anchored=bool(anchored),
        fd=fd,
        surrogate=surrogate,
        weights_local=weights_local,
        weights_mean=weights_mean,
        log=log,
    )
    server = ZerothOrderServer(
        method=FZOOS,
        local_steps=T,
        init=kernel_array(np.broadcast_to(common.init, (reps, d))),  # writable: see _fd_run
        fd=fd,
        controls=_controls(common, False),
        weights_local=weights_local,
        weights_mean=weights_mean,
        log=log,
    )
    try:
        out = _loop("fzoos", common, client, server, log)
    except DivergenceError:
        _raise_for_solver(surrogate, variance)
        raise
    hyper = {
        **common.hyperparameters,
        "estimator": "gp",
        "noise": sigma,
        "gamma": record_gamma,
        "correction": "fixed_vector" if anchored else "adaptive",
        "lengthscale": scale_l,
        "gp_noise": variance,
        "num_features": M,
        "n_active": active,
        "n_cand": candidates,
        "box": half_width,
        "history": kept,
        "neighbours": neighbours,
    }
    run = _wrap("fzoos", common, out, log, hyper)
    if not (common.record and common.replicates is None):
        return run
    history = QueryHistory(
        points=readonly(surrogate.points, None),
        values=readonly(surrogate.values, None),
        per_step=1 + active if kept == "all" else 1,
        frequencies=readonly(frequencies[0], None),
        phases=readonly(phases[0], None),
        lengthscale=scale_l,
        noise=variance,
    )
    return replace(run, history=history)


def _raise_for_solver(surrogate: Surrogate, variance: float) -> None:
    """Raise SolverError for the first replicate whose GP update or RFF solve failed."""
    failed = surrogate.status[:, 0] >= 0
    if not np.any(failed):
        return
    rep = int(np.argmax(failed))
    code, rt, i, s = (int(v) for v in surrogate.status[rep])
    where = f"round {rt + 1}, client {i}, local step {s + 1}"
    if code == SOLVER_GP:
        raise SolverError(
            "GP Cholesky update (fzoos)",
            "not positive definite",
            hint=f"{where}: a repeated or nearly repeated query with σ² = {variance:.3g}; "
            "add a jitter to gp_noise (e.g. 1e-8 or more)",
        )
    raise SolverError(
        "RFF ridge solve (fzoos, Cholesky of ΦΦᵀ + σ²I)",
        "not positive definite",
        hint=f"{where}: σ² = {variance:.3g}; use a positive gp_noise",
    )


_DOC_END = """
    Returns
    -------
    ZerothOrderRun
        x_R, the trace (queries counted per round) and the logs
        (:mod:`~fedtheory.papers.fzoos.runs`).

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
