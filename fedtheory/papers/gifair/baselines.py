"""The fairness baselines of the gifair paper on the core round loop (reading guide §2.5, §5 V18).

The paper compares GIFAIR-FL with q-FFL [1]_, TERM [2]_, AFL [3]_, Ditto [4]_ and FedMGDA+ [5]_
but does not define them; these are the algorithms of their own papers [general knowledge,
guide §2.5], each a client step and a server step
(:mod:`fedtheory.papers.gifair._baseline_steps`) on the one federated round loop
(:mod:`fedtheory.algorithms._round_loop`):

======================  ============================================  ===========================
algorithm               client step                                   server step
======================  ============================================  ===========================
:func:`qffl`            core ``LocalSGD`` (E steps from w^t)          ``QFairAggregation``
:func:`qfedsgd`         core ``FullGradientSum`` (∇F_k(w^t))          ``QFairAggregation``
:func:`term`            core ``LocalSGD``                             ``TiltedAggregation``
:func:`afl`             core ``LocalSGD`` (E = 1: one gradient step)  ``MixtureAggregation``
:func:`ditto`           ``DittoLocal`` (two core ``LocalSGD``)        core ``ServerStep`` /
                                                                      ``ModelAverage``
:func:`fedmgda_plus`    core ``LocalSGD``                             ``MinNormAggregation``
======================  ============================================  ===========================

**Conventions** (those of GIFAIR-FL-Global, checked by the same code: ``_inputs``):
``rounds`` C ≥ 1, ``local_steps`` E (steps, not epochs), ``step_size`` a constant η or a
schedule (:func:`~fedtheory.papers.gifair.algorithms.decaying_steps`,
:func:`~fedtheory.papers.gifair.algorithms.sqrt_steps`, or a callable mapping the array of
global steps t = cE + k to steps; row c of the core ``LocalSGD``'s 2-D steps), minibatches of
``batch`` rows drawn without replacement from the client's counter-based stream;
``clients_per_round`` (None: all K) with ``sampling`` ``"p_with_replacement"`` (S i.i.d.
draws from p, each draw an upload: Li et al.'s scheme I) or ``"uniform"`` (without
replacement); ``aggregation`` ``"weighted"`` (the uploads weighted by p_k, times K/``|S|`` under
uniform sampling: scheme II) or ``"uniform"`` (the plain mean of the uploads; with p-sampling
the mean is always uniform, the p being in the draws).

**Randomness.** Replicate r has the seed ``SeedSequence(seed, spawn_key=(r,))`` (the seed itself
for a single run); its generator draws the clients' stream seed (one uint64), then the
participation of every round, then (Ditto) the personal steps' stream seed — GIFAIR-FL's
draws, so a baseline and :func:`~fedtheory.papers.gifair.algorithms.gifair_global` with the
same seed train on the same minibatches and clients. Every replicate runs on the same problem;
replicate r of a batch equals the single run with its seed.

**Which aggregation the limits give** [derived]: q-FFL at q = 0 is w − Σ a_a L̂(w − w̄_a)/
(L̂ Σ a_a) = Σ a_a w̄_a / Σ a_a — the mean of the uploads normalised by their aggregation
weights: the printed q-FFL (a_a = 1/``|S|``) is the *uniform* mean (FedAvg with ``"uniform"``
aggregation; with p-sampling exactly scheme I), and ``aggregation="weighted"`` with full
participation the p-weighted average (the core FedAvg). Under uniform sampling with
``"weighted"`` it is the self-normalised Σ_S p_k w̄_k / Σ_S p_k, not scheme II's
(K/``|S|``) Σ_S p_k w̄_k. TERM as t → 0 gives the same normalised mean.

References
----------
.. [1] T. Li, M. Sanjabi, A. Beirami & V. Smith, Fair resource allocation in federated
   learning, ICLR 2020 (q-FFL, q-FedAvg, q-FedSGD).
.. [2] T. Li, A. Beirami, M. Sanjabi & V. Smith, Tilted empirical risk minimization, ICLR 2021.
.. [3] M. Mohri, G. Sivek & A. T. Suresh, Agnostic federated learning, ICML 2019.
.. [4] T. Li, S. Hu, A. Beirami & V. Smith, Ditto: fair and robust federated learning through
   personalization, ICML 2021.
.. [5] Z. Hu, K. Shaloudegi, G. Zhang & Y. Yu, Federated learning meets multi-objective
   optimization (FedMGDA+), arXiv:2006.11489, 2020.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from fedtheory._arrays import kernel_array
from fedtheory._checks import check_int, check_real, check_weights
from fedtheory._seeds import Seed
from fedtheory.algorithms.client_steps import FullGradientSum
from fedtheory.errors import ConditionError, ParameterError, SolverError
from fedtheory.papers.gifair._baseline_inputs import _finish, _round_steps, _run, _setup
from fedtheory.papers.gifair._baseline_steps import (
    SOLVER_FAILURES,
    SOLVER_ITERATIONS,
    SOLVER_RESIDUAL,
    SOLVER_SLOTS,
    DittoLocal,
    MinNormAggregation,
    MixtureAggregation,
    QFairAggregation,
    TiltedAggregation,
)
from fedtheory.papers.gifair._inputs import _averaging, _local_sgd, _step_table
from fedtheory.papers.gifair.problems import GroupedClassification, GroupedQuadratics
from fedtheory.papers.gifair.runs import BaselineRun

__all__ = ["afl", "ditto", "fedmgda_plus", "qfedsgd", "qffl", "term"]

Aggregation = Literal["weighted", "uniform"]
Sampling = Literal["p_with_replacement", "uniform"]
StepSize = float | Callable[[np.ndarray], np.ndarray]
Problem = GroupedQuadratics | GroupedClassification


def _check_losses(algorithm: str, q: float, losses: np.ndarray) -> None:
    """q-FFL needs F_k ≥ 0 (F^q), and F_k > 0 when 0 < q < 1 (q F^{q−1})."""
    if q == 0.0:
        return
    reported = losses[np.isfinite(losses)]
    if reported.size == 0:
        return
    smallest = float(reported.min())
    if smallest < 0.0 or (smallest == 0.0 and q < 1.0):
        raise ConditionError(
            f"{algorithm}: reported client loss",
            "F_k(w) > 0 (q-FFL raises the losses to the power q)",
            {"q": q, "smallest loss": smallest},
        )


# ============================================================================== q-FFL


def _qffl(algorithm: str, problem: Problem, q: Any, **settings: Any) -> BaselineRun:
    q = check_real("q", q, nonnegative=True)
    gradient = algorithm == "qfedsgd"
    s = _setup(problem, **settings)
    # L̂_c = 1/η at the round's first global step (the q-FFL papers use a constant η)
    first = s.table[np.minimum(np.arange(s.rounds), s.table.shape[0] - 1), 0]
    lipschitz = 1.0 / np.ascontiguousarray(first)
    client = FullGradientSum() if gradient else s.local_sgd()
    losses = s.nan_log()
    server = QFairAggregation(
        q=q,
        lipschitz=kernel_array(lipschitz),
        gradient_upload=gradient,
        slot_weights=kernel_array(s.slot_weights),
        losses=losses,
    )
    try:
        out = _run(algorithm, s, client, server)
    except ArithmeticError:
        _check_losses(algorithm, q, losses)
        raise
    _check_losses(algorithm, q, losses)
    return _finish(
        algorithm,
        s,
        out,
        logs={"losses": losses},
        hyperparameters={"q": q},
    )


def qffl(
    problem: Problem,
    q: float,
    *,
    rounds: int,
    local_steps: int,
    step_size: StepSize,
    batch: int,
    aggregation: Aggregation = "uniform",
    clients_per_round: int | None = None,
    sampling: Sampling = "p_with_replacement",
    init: np.ndarray | None = None,
    seed: Seed,
    replicates: int | None = None,
    record: bool = False,
) -> BaselineRun:
    """q-FFL trained by q-FedAvg (Li, Sanjabi, Beirami & Smith 2020; guide §2.5).

    Objective min_w Σ_k p_k F_k^{q+1}(w)/(q + 1). Each round the selected clients run E local
    SGD steps from w^t to w̄_k and report F_k(w^t); with L̂ = 1/η, ΔW_k = L̂(w^t − w̄_k),
    Δ_k = F_k^q ΔW_k and h_k = q F_k^{q−1}‖ΔW_k‖² + L̂ F_k^q, the server sets
    w^{t+1} = w^t − Σ_k a_k Δ_k / Σ_k a_k h_k. The default ``aggregation="uniform"`` is the
    printed algorithm (a_k equal: plain sums over the draws); q = 0 is then FedAvg with the
    uniform mean, and with ``"weighted"`` and full participation the p-weighted FedAvg (module
    docstring). L̂ is 1/η at the round's first global step.

    Parameters
    ----------
    problem
        A gifair problem (``GroupedQuadratics`` or ``GroupedClassification``).
    q
        q ≥ 0.
    rounds, local_steps, step_size, batch, aggregation, clients_per_round, sampling, init,
    seed, replicates, record
        As :func:`~fedtheory.papers.gifair.algorithms.gifair_global` (module docstring).

    Returns
    -------
    BaselineRun
        ``logs["losses"]``: the reported F_k(w^t).

    Raises
    ------
    ParameterError
        On invalid input (q < 0 among them).
    ConditionError
        If a reported loss is negative (or zero with 0 < q < 1): F^q is undefined.
    DivergenceError
        On non-finite models.
    """
    return _qffl(
        "qffl",
        problem,
        q,
        rounds=rounds,
        local_steps=local_steps,
        step_size=step_size,
        batch=batch,
        aggregation=aggregation,
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )


def qfedsgd(
    problem: Problem,
    q: float,
    *,
    rounds: int,
    step_size: StepSize,
    aggregation: Aggregation = "uniform",
    clients_per_round: int | None = None,
    sampling: Sampling = "p_with_replacement",
    init: np.ndarray | None = None,
    seed: Seed,
    replicates: int | None = None,
    record: bool = False,
) -> BaselineRun:
    """q-FedSGD: :func:`qffl` with ΔW_k = ∇F_k(w^t), the client's full gradient (Li et al.
    2020). The clients upload their exact gradient sums (core ``FullGradientSum``); q = 0 is
    FedSGD, w ← w − η Σ a_k ∇F_k / Σ a_k. Parameters and result as :func:`qffl`."""
    return _qffl(
        "qfedsgd",
        problem,
        q,
        rounds=rounds,
        local_steps=1,
        step_size=step_size,
        batch=None,
        aggregation=aggregation,
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )


# ============================================================================== TERM


def term(
    problem: Problem,
    tilt: float,
    *,
    rounds: int,
    local_steps: int,
    step_size: StepSize,
    batch: int,
    aggregation: Aggregation = "weighted",
    clients_per_round: int | None = None,
    sampling: Sampling = "p_with_replacement",
    init: np.ndarray | None = None,
    seed: Seed,
    replicates: int | None = None,
    record: bool = False,
) -> BaselineRun:
    """Federated TERM (Li, Beirami, Sanjabi & Smith 2021; guide §2.5).

    Tilted risk R̃(t; w) = (1/t) log Σ_k p_k e^{t F_k(w)}, whose gradient is Σ_k ω_k ∇F_k with
    ω_k ∝ p_k e^{t F_k(w)}. Each round the selected clients run E local SGD steps and report
    F_k(w^t); the server averages the uploads with ω_a ∝ a_a e^{t F_a(w^t)} (a_a = p_k with full
    participation and ``"weighted"``). With E = 1 and exact gradients this is gradient descent on
    R̃; t → 0 gives FedAvg, t → ∞ the minimax min_w max_k F_k (the optimum of R̃ is within
    log(1/min p_k)/t of it in value).

    Parameters
    ----------
    tilt
        t > 0. A negative tilt (robustness to outliers) is a different method and refused.
    rounds, local_steps, step_size, batch, aggregation, clients_per_round, sampling, init,
    seed, replicates, record
        As :func:`qffl`.

    Returns
    -------
    BaselineRun
        ``logs["losses"]`` and ``logs["weights"]`` (the ω_k).
    """
    tilt = check_real("tilt", tilt, positive=True)
    s = _setup(
        problem,
        rounds=rounds,
        local_steps=local_steps,
        step_size=step_size,
        batch=batch,
        aggregation=aggregation,
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )
    losses, weights = s.nan_log(), s.nan_log()
    server = TiltedAggregation(
        tilt=tilt, slot_weights=kernel_array(s.slot_weights), losses=losses, weights=weights
    )
    out = _run("term", s, s.local_sgd(), server)
    return _finish(
        "term",
        s,
        out,
        logs={"losses": losses, "weights": weights},
        hyperparameters={"tilt": tilt},
    )


# ============================================================================== AFL


def afl(
    problem: Problem,
    *,
    rounds: int,
    local_steps: int = 1,
    step_size: StepSize,
    mixture_step: StepSize,
    batch: int,
    clients_per_round: int | None = None,
    sampling: Sampling = "uniform",
    mixture_init: np.ndarray | None = None,
    init: np.ndarray | None = None,
    seed: Seed,
    replicates: int | None = None,
    record: bool = False,
) -> BaselineRun:
    """Stochastic AFL (Mohri, Sivek & Suresh 2019; guide §2.5): min_w max_{λ∈Δ} Σ_k λ_k F_k(w).

    Round c: the selected clients run E local SGD steps from w^c (E = 1, the theory: one
    stochastic gradient step, w̄_k = w^c − η g_k) and report F_k(w^c); the server sets
    w^{c+1} = w^c − Σ_a f_a λ^c_{k_a}(w^c − w̄_{k_a}) (= w^c − η Σ_k λ_k g_k with full
    participation) and λ^{c+1} = Π_Δ(λ^c + γ_c ĝ_λ), ĝ_λ[k] = Σ_{a: k_a = k} f_a F_k(w^c), with
    f_a the inverse inclusion probability of the draw (unbiased estimates; 1 with full
    participation) and Π_Δ the exact simplex projection. The outputs are the averaged iterates
    w̄ = (1/C) Σ_{c<C} w^c and λ̄ (with constant steps γ_w = η, γ_λ: gap
    O(D²/(γT) + γG²), the O(1/√T) rate for γ ∝ 1/√T). W is ℝ^d (no projection).

    Parameters
    ----------
    mixture_step
        γ_λ > 0, or a callable mapping the array of rounds c to steps γ_c.
    mixture_init
        λ^0 on the simplex; default p.
    sampling
        ``"uniform"`` (default) or ``"p_with_replacement"``; the estimator weights follow it.
    rounds, local_steps, step_size, batch, clients_per_round, init, seed, replicates, record
        As :func:`qffl`.

    Returns
    -------
    BaselineRun
        ``averaged_model``, ``averaged_mixture``; ``logs["mixtures"]`` (λ^c) and
        ``logs["losses"]``.
    """
    s = _setup(
        problem,
        rounds=rounds,
        local_steps=local_steps,
        step_size=step_size,
        batch=batch,
        aggregation="weighted",
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )
    gammas, gamma_record = _round_steps(mixture_step, "mixture_step", s.rounds)
    if mixture_init is None:
        start = s.p
    else:
        start = check_weights(mixture_init, s.K, parameter="mixture_init")
    mixture = np.array(np.broadcast_to(start, (s.reps, s.K)))
    model_sum = np.zeros((s.reps, s.d))
    mixture_sum = np.zeros((s.reps, s.K))
    mixtures, losses = s.nan_log(), s.nan_log()
    server = MixtureAggregation(
        factors=kernel_array(s.factors),
        mixture_steps=kernel_array(gammas),
        mixture=mixture,
        model_sum=model_sum,
        mixture_sum=mixture_sum,
        mixtures=mixtures,
        losses=losses,
    )
    out = _run("afl", s, s.local_sgd(), server)
    averaged = (model_sum / s.rounds, mixture_sum / s.rounds)
    return _finish(
        "afl",
        s,
        out,
        logs={"mixtures": mixtures, "losses": losses},
        hyperparameters={"mixture_step": gamma_record},
        averaged=averaged,
    )


# ============================================================================== Ditto


def ditto(
    problem: Problem,
    lam_d: float,
    *,
    rounds: int,
    local_steps: int,
    step_size: StepSize,
    batch: int,
    personal_steps: int | None = None,
    personal_step_size: StepSize | None = None,
    aggregation: Aggregation = "weighted",
    clients_per_round: int | None = None,
    sampling: Sampling = "p_with_replacement",
    init: np.ndarray | None = None,
    seed: Seed,
    replicates: int | None = None,
    record: bool = False,
) -> BaselineRun:
    """Ditto (Li, Hu, Beirami & Smith 2021; guide §2.5): FedAvg plus personal models.

    min_{v_k} F_k(v_k) + (λ_D/2)‖v_k − w*‖² with w* FedAvg's solution. Round c: every selected
    client runs FedAvg's E local steps from w^c (uploaded; the server aggregates as FedAvg:
    core ``ServerStep`` with ``"weighted"``, ``ModelAverage`` otherwise) and s steps of
    v_k ← v_k − η(ĝ(v_k) + λ_D(v_k − w^c)) warm-started from its personal v_k (both core
    ``LocalSGD``, the personal one with its own sample stream). For quadratics with exact
    gradients v_k → (A_k + λ_D I)^{−1}(A_k c_k + λ_D w*); λ_D → ∞ gives w*, λ_D → 0 the local
    optima. A client never selected keeps v_k = ``init`` (an assumption: the paper evaluates
    every client with its v_k).

    Parameters
    ----------
    lam_d
        λ_D ≥ 0.
    personal_steps, personal_step_size
        s ≥ 0 and its step (default E and ``step_size``; a schedule is indexed by c·max(s, 1) + k).
    rounds, local_steps, step_size, batch, aggregation, clients_per_round, sampling, init,
    seed, replicates, record
        As :func:`qffl`.

    Returns
    -------
    BaselineRun
        ``personal_models`` (K, d).
    """
    lam_d = check_real("lam_d", lam_d, nonnegative=True)
    s = _setup(
        problem,
        rounds=rounds,
        local_steps=local_steps,
        step_size=step_size,
        batch=batch,
        aggregation=aggregation,
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
        extra_streams=1,
    )
    S = (
        s.local_steps
        if personal_steps is None
        else check_int("personal_steps", personal_steps, minimum=0)
    )
    personal_table, personal_record = _step_table(
        step_size if personal_step_size is None else personal_step_size,
        s.rounds,
        max(S, 1),
        name="personal_step_size",
    )
    # Fortran order for every R and K: the layout numpy gave a copy of the broadcast for R = 1,
    # one type (the kernels were also compiled for the layout it gave for R > 1), the same
    # strides along the model (the personal models' slices are the same non-contiguous vectors)
    personal = np.array(np.broadcast_to(s.init, (s.reps, s.K, s.d)), order="F")
    client = DittoLocal(
        global_step=s.local_sgd(),
        personal_step=_local_sgd(
            s.rounds,
            S,
            s.batch,
            personal_table,
            np.ones((s.reps, s.K)),
            s.schedule.extra_streams[0],
            lam=lam_d,
            warm_start=True,
            receives=False,
        ),
        personal=personal,
    )
    server = _averaging(
        s.aggregation,
        s.per_round,
        s.sampling,
        s.p,
        s.reps,
        s.rounds,
    )
    out = _run("ditto", s, client, server)
    return _finish(
        "ditto",
        s,
        out,
        logs={},
        hyperparameters={
            "lam_d": lam_d,
            "personal_steps": S,
            "personal_step_size": personal_record,
        },
        personal=personal,
    )


# ============================================================================== FedMGDA+


def fedmgda_plus(
    problem: Problem,
    eps: float,
    *,
    rounds: int,
    local_steps: int,
    step_size: StepSize,
    global_step: StepSize,
    batch: int,
    aggregation: Aggregation = "uniform",
    clients_per_round: int | None = None,
    sampling: Sampling = "p_with_replacement",
    init: np.ndarray | None = None,
    seed: Seed,
    replicates: int | None = None,
    record: bool = False,
    tolerance: float = 1e-12,
    max_iterations: int = 100_000,
) -> BaselineRun:
    """FedMGDA+ (Hu, Shaloudegi, Zhang & Yu 2020; guide §2.5).

    Round c: the selected clients run E local SGD steps from w^c to w̄_k; the server normalises
    the pseudo-gradients ĝ_k = (w^c − w̄_k)/‖w^c − w̄_k‖ (0 for a zero update), solves
    λ* = argmin{‖Σ_k λ_k ĝ_k‖² : λ ∈ Δ, ‖λ − λ_0‖_∞ ≤ ε} exactly (accelerated projected
    gradient with an exact projection onto simplex ∩ box, to the KKT ``tolerance``), and sets
    w^{c+1} = w^c − η_g Σ_k λ*_k ĝ_k. λ_0 is the uploads' aggregation weights normalised
    (uniform by default, as Hu et al.). ε = 0 is FedAvg on normalised updates; ε = 1 is MGDA.

    Parameters
    ----------
    eps
        ε ∈ [0, 1].
    global_step
        η_g > 0, or a callable mapping the array of rounds c to steps.
    tolerance, max_iterations
        KKT tolerance of the QP and its iteration cap per round.
    rounds, local_steps, step_size, batch, aggregation, clients_per_round, sampling, init,
    seed, replicates, record
        As :func:`qffl`.

    Returns
    -------
    BaselineRun
        ``logs["weights"]`` (λ*) and ``logs["solver"]`` (R, 3) or (3,).

    Raises
    ------
    SolverError
        If the QP did not reach the tolerance within ``max_iterations`` in some round.
    """
    eps = check_real("eps", eps, nonnegative=True)
    if eps > 1.0:
        raise ParameterError(parameter="eps", value=eps, rule="must lie in [0, 1]")
    tolerance = check_real("tolerance", tolerance, positive=True)
    max_iterations = check_int("max_iterations", max_iterations, minimum=1)
    s = _setup(
        problem,
        rounds=rounds,
        local_steps=local_steps,
        step_size=step_size,
        batch=batch,
        aggregation=aggregation,
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )
    server_steps, global_record = _round_steps(global_step, "global_step", s.rounds)
    weights = s.nan_log()
    solver = np.zeros((s.reps, SOLVER_SLOTS))
    server = MinNormAggregation(
        eps=eps,
        global_steps=kernel_array(server_steps),
        slot_weights=kernel_array(s.slot_weights),
        tolerance=tolerance,
        max_iterations=max_iterations,
        weights=weights,
        solver=solver,
    )
    out = _run("fedmgda_plus", s, s.local_sgd(), server)
    if np.any(solver[:, SOLVER_FAILURES] > 0):
        r = int(np.argmax(solver[:, SOLVER_FAILURES] > 0))
        raise SolverError(
            "fedmgda_plus QP (accelerated projected gradient)",
            f"KKT residual {solver[r, SOLVER_RESIDUAL]:.3g} > {tolerance:g} after "
            f"{int(solver[r, SOLVER_ITERATIONS])} iterations in "
            f"{int(solver[r, SOLVER_FAILURES])} round(s)",
            hint="raise max_iterations or the tolerance",
        )
    return _finish(
        "fedmgda_plus",
        s,
        out,
        logs={"weights": weights, "solver": solver},
        hyperparameters={"eps": eps, "global_step": global_record, "tolerance": tolerance},
    )
