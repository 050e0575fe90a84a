"""Gradient descent, inexact gradient descent and projected SGD on quadratics (DESIGN §3).

The centralized baselines the federated results are compared with, and the experiments behind
the ``classic`` bounds:

- :func:`gradient_descent`: x_{k+1} = x_k − η(∇f(x_k) + e_k) on a :class:`QuadraticInstance`,
  exact (e_k = 0) or with given gradient errors (``classic.gd.strongly-convex`` [2]_,
  ``classic.gd.strongly-convex.distance`` [1]_, ``classic.inexact-gd`` [3]_);
- :func:`inexact_errors`: random-direction gradient errors of prescribed norms;
- :func:`sgd_projected`: projected SGD with step 1/(μt) on an :class:`IsotropicQuadratic`
  (``classic.sgd.strongly-convex.distance`` and ``.gap`` [4]_).

The loops run in numba kernels (:mod:`fedtheory.algorithms._kernels`); these wrappers validate
the inputs, draw the randomness and raise :class:`~fedtheory.errors.DivergenceError` on a
non-finite trace.

References
----------
.. [1] Y. Nesterov (2004), *Introductory Lectures on Convex Optimization*, Theorem 2.1.15.
.. [2] H. Karimi, J. Nutini & M. Schmidt (2016), Linear convergence of gradient and
   proximal-gradient methods under the Polyak-Łojasiewicz condition, ECML-PKDD, Theorem 1.
.. [3] M. P. Friedlander & M. Schmidt (2012), Hybrid deterministic-stochastic methods for data
   fitting, SIAM J. Sci. Comput. 34(3), Lemma 2.1.
.. [4] A. Rakhlin, O. Shamir & K. Sridharan (2012), Making gradient descent optimal for strongly
   convex stochastic optimization, ICML (arXiv:1109.5647), Lemma 1 and Theorem 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from fedtheory._arrays import readonly
from fedtheory._checks import check_finite_trace, check_int, check_real, check_vector
from fedtheory._seeds import Seed, generator
from fedtheory.algorithms._kernels import _gd_quadratic, _sgd_ball
from fedtheory.errors import ParameterError
from fedtheory.problems.quadratic import IsotropicQuadratic, QuadraticInstance

__all__ = ["GDRun", "SGDRun", "gradient_descent", "inexact_errors", "sgd_projected"]

#: Largest number of noise values (float64) drawn at once by :func:`sgd_projected`: 8 MiB.
NOISE_CHUNK_ELEMENTS = 1 << 20

StepRule = Literal["1/(mu t)"]


@dataclass(frozen=True, eq=False)
class GDRun:
    """Result of :func:`gradient_descent`.

    Attributes
    ----------
    x : numpy.ndarray
        Final iterate x_rounds, shape (d,).
    gaps : numpy.ndarray
        f(x_k) − f* for k = 0, …, rounds, shape (rounds + 1,).
    distances2 : numpy.ndarray
        ‖x_k − x*‖² for k = 0, …, rounds, shape (rounds + 1,).
    error_norms2 : numpy.ndarray
        ‖e_k‖² for k = 0, …, rounds − 1, shape (rounds,); zeros for exact gradients.
    step : float
        Step size η.
    rounds : int
        Number of steps.
    """

    x: np.ndarray
    gaps: np.ndarray
    distances2: np.ndarray
    error_norms2: np.ndarray
    step: float
    rounds: int


def _check_instance(instance: Any, cls: type, name: str) -> None:
    if not isinstance(instance, cls):
        raise ParameterError(
            parameter=name,
            value=type(instance).__name__,
            rule=f"must be a {cls.__name__} (see fedtheory.problems)",
        )


def gradient_descent(
    instance: QuadraticInstance,
    *,
    step: float,
    rounds: int,
    x0: np.ndarray,
    errors: np.ndarray | None = None,
) -> GDRun:
    """Gradient descent with optional gradient errors on a quadratic.

    x_{k+1} = x_k − step·(∇f(x_k) + e_k), k = 0, …, rounds − 1, with ∇f(x) = A x − b.

    With step 1/L and e_k = 0 the gap satisfies f(x_T) − f* ≤ (1 − μ/L)^T (f(x_0) − f*)
    (``classic.gd.strongly-convex``; Karimi et al. 2016, Theorem 1). With step 2/(μ + L),
    ‖x_T − x*‖² ≤ ((L − μ)/(L + μ))^{2T}‖x_0 − x*‖² (``classic.gd.strongly-convex.distance``;
    Nesterov 2004, Theorem 2.1.15), with equality on :func:`two_eigenvalue_quadratic`.
    With step 1/L and errors, Friedlander & Schmidt (2012), Lemma 2.1 bounds the gap by
    (1 − μ/L)^S Δ0 + Σ_k (1 − μ/L)^{S−1−k}‖e_k‖²/(2L) (``classic.inexact-gd``; pass
    ``e2=run.error_norms2``).

    Parameters
    ----------
    instance
        The quadratic (:func:`fedtheory.problems.random_quadratic` and friends).
    step
        Step size η > 0. GD diverges for η > 2/L (on the top eigen-direction, ``|1 − ηL|`` > 1).
    rounds
        Number of steps, at least 1.
    x0
        Starting point, shape (d,).
    errors
        Optional gradient errors e_k, shape (rounds, d) (see :func:`inexact_errors`).

    Returns
    -------
    GDRun
        Final iterate and the traces of gaps, squared distances and squared error norms.

    Raises
    ------
    ParameterError
        On a wrong instance type, a non-positive step, a bad round count, or ``x0`` / ``errors``
        of the wrong shape or not finite.
    DivergenceError
        If an iterate's gap or distance is not finite; ``round`` is the first such k.

    Examples
    --------
    >>> from fedtheory.problems import two_eigenvalue_quadratic
    >>> q = two_eigenvalue_quadratic(L=3.0, mu=1.0)
    >>> run = gradient_descent(q, step=0.5, rounds=2, x0=q.x0)   # step 2/(μ+L)
    >>> run.distances2.tolist()                                 # ratio ((L−μ)/(L+μ))² = 1/4
    [2.0, 0.5, 0.125]
    """
    _check_instance(instance, QuadraticInstance, "instance")
    step = check_real("step", step, positive=True)
    rounds = check_int("rounds", rounds, minimum=1)
    d = instance.d
    x0 = check_vector("x0", x0, shape=(d,))
    if errors is None:
        kernel_errors = np.zeros((0, d))
        error_norms2 = np.zeros(rounds)
    else:
        kernel_errors = check_vector("errors", errors, shape=(rounds, d))
        error_norms2 = np.einsum("kd,kd->k", kernel_errors, kernel_errors)
    # errstate: with NUMBA_DISABLE_JIT the kernel runs on numpy scalars, which warn on overflow;
    # compiled or not, a diverging run must reach check_finite_trace below.
    with np.errstate(all="ignore"):
        x, gaps, dist2 = _gd_quadratic(instance.A, instance.x_star, x0, step, rounds, kernel_errors)
    hint = ""
    if step > 2.0 / instance.L:
        hint = f"step {step:.6g} exceeds 2/L = {2.0 / instance.L:.6g}"
    check_finite_trace("gradient_descent", (gaps, dist2), hint=hint)
    return GDRun(
        x=readonly(x, copy=False),
        gaps=readonly(gaps, copy=False),
        distances2=readonly(dist2, copy=False),
        error_norms2=readonly(error_norms2, copy=False),
        step=step,
        rounds=rounds,
    )


def inexact_errors(
    d: int, rounds: int, *, scale: float, decay: float = 1.0, seed: Seed
) -> np.ndarray:
    """Gradient errors with uniformly random directions and geometric norms.

    e_k = scale·decay^k·u_k for k = 0, …, rounds − 1, with u_k independent and uniform on the
    unit sphere (normalised standard Gaussians), so ‖e_k‖ = scale·decay^k exactly (to rounding).
    ``decay = 1`` (the default) gives errors of constant norm ``scale``, the setting of
    ``classic.inexact-gd.bounded-errors`` with ε² = scale²; ``decay < 1`` gives summable errors,
    under which inexact GD keeps its linear rate (Friedlander & Schmidt 2012).

    Parameters
    ----------
    d
        Dimension.
    rounds
        Number of errors (one per GD step).
    scale
        ‖e_0‖ ≥ 0.
    decay
        Ratio ‖e_{k+1}‖/‖e_k‖ > 0.
    seed
        Integer or :class:`numpy.random.SeedSequence`.

    Returns
    -------
    numpy.ndarray
        Shape (rounds, d).

    Examples
    --------
    >>> e = inexact_errors(3, 4, scale=2.0, decay=0.5, seed=0)
    >>> np.linalg.norm(e, axis=1).round(12).tolist()
    [2.0, 1.0, 0.5, 0.25]
    """
    d = check_int("d", d, minimum=1)
    rounds = check_int("rounds", rounds, minimum=1)
    scale = check_real("scale", scale, nonnegative=True)
    decay = check_real("decay", decay, positive=True)
    z = generator(seed).standard_normal((rounds, d))
    with np.errstate(over="ignore", invalid="ignore"):
        norms = scale * decay ** np.arange(rounds, dtype=np.float64)
        errors = z * (norms / np.linalg.norm(z, axis=1))[:, None]
    if not np.isfinite(errors).all():
        raise ParameterError(
            parameter="decay",
            value=decay,
            rule=f"gives error norms beyond float64 over {rounds} rounds (scale·decay^k overflows)",
        )
    return np.asarray(errors)


@dataclass(frozen=True, eq=False)
class SGDRun:
    """Result of :func:`sgd_projected`.

    Attributes
    ----------
    w : numpy.ndarray
        Final iterate (after ``rounds`` steps), shape (d,).
    record_rounds : numpy.ndarray
        Step counts k at which the distance was recorded (0 = the start), sorted, int64.
    distances2 : numpy.ndarray
        ‖w − w*‖² after k steps, for each k in ``record_rounds``.
    gaps : numpy.ndarray
        F(w) − F* = (μ/2)‖w − w*‖² at the same rounds.
    rounds : int
        Number of SGD steps T.
    max_norm : float
        max over all iterates of ‖w‖ (≤ radius: the projection keeps iterates feasible).
    projections : int
        Number of steps at which the projection was active.
    """

    w: np.ndarray
    record_rounds: np.ndarray
    distances2: np.ndarray
    gaps: np.ndarray
    rounds: int
    max_norm: float
    projections: int


def _check_record(record: Any, rounds: int) -> np.ndarray:
    if record is None:
        return np.array([rounds], dtype=np.int64)
    array = np.asarray(record)
    if array.ndim != 1 or array.size == 0 or not np.issubdtype(array.dtype, np.integer):
        raise ParameterError(
            parameter="record", value=record, rule="must be a non-empty 1-D array of integers"
        )
    if array.min() < 0 or array.max() > rounds or np.any(np.diff(array) <= 0):
        raise ParameterError(
            parameter="record",
            value=record,
            rule=f"must be strictly increasing step counts between 0 and rounds = {rounds}",
        )
    out = array.astype(np.int64)
    out.setflags(write=False)
    return out


def _step_parameters(step_rule: Any, mu: float) -> tuple[float, bool]:
    if isinstance(step_rule, str):
        if step_rule != "1/(mu t)":
            raise ParameterError(
                parameter="step_rule",
                value=step_rule,
                rule="must be '1/(mu t)' or a positive constant step",
            )
        return 1.0 / mu, True
    return check_real("step_rule", step_rule, positive=True), False


def sgd_projected(
    problem: IsotropicQuadratic,
    *,
    rounds: int,
    seed: Seed,
    step_rule: StepRule | float = "1/(mu t)",
    record: np.ndarray | list[int] | None = None,
    w0: np.ndarray | None = None,
    chunk_rows: int | None = None,
) -> SGDRun:
    """Projected SGD on the noisy isotropic quadratic (Rakhlin, Shamir & Sridharan 2012).

    For t = 1, …, T (T = ``rounds``): g_t = μ(w_t − w*) + ξ_t with ξ_t ~ N(0, σ² I_d), and
    w_{t+1} = Π_W(w_t − η_t g_t), Π_W the projection onto W = {‖w‖ ≤ R}. The default step rule
    η_t = 1/(μt) is the one of Rakhlin et al., Lemma 1: for every t, E‖w_t − w*‖² ≤ 4G²/(μ²t)
    (``classic.sgd.strongly-convex.distance``). A positive number as ``step_rule`` runs SGD
    with that constant step instead.

    Conventions (the paper leaves the start open): w_1 = 0 unless ``w0`` is given (any w_1 in W
    is allowed by the lemma; with η_1 = 1/μ the first step forgets it anyway, since
    w_1 − η_1 μ(w_1 − w*) = w*). The step count k = t − 1 is what ``record`` and ``rounds``
    count: after T steps the iterate is w_{T+1} in the paper's indexing, so the lemma gives
    E‖w_{T+1} − w*‖² ≤ 4G²/(μ²(T + 1)) ≤ 4G²/(μ²T).

    The noise is drawn from ``numpy.random.default_rng(seed)`` as standard normals, row t
    for step t, in blocks of at most ``chunk_rows`` rows so that memory stays bounded for large
    T; the kernel state carries over between blocks, and the result does not depend on
    ``chunk_rows`` (bit for bit).

    Parameters
    ----------
    problem
        The problem (:func:`fedtheory.problems.isotropic_quadratic`).
    rounds
        Number of SGD steps T ≥ 1.
    seed
        Integer or :class:`numpy.random.SeedSequence` for the noise.
    step_rule
        ``"1/(mu t)"`` (η_t = (1/μ)/t) or a positive constant step.
    record
        Sorted step counts k in [0, rounds] at which to record ‖w − w*‖² (k = 0 is the start);
        default: the last only.
    w0
        Start w_1, inside the ball; default the origin.
    chunk_rows
        Rows of noise drawn at once; default ``max(1, 2**20 // d)`` (8 MiB).

    Returns
    -------
    SGDRun
        Final iterate, recorded distances and gaps, and projection diagnostics.

    Raises
    ------
    ParameterError
        On a wrong problem type, ``rounds < 1``, an invalid seed, step rule, record, start or
        chunk size.
    DivergenceError
        If an iterate is not finite.

    Examples
    --------
    >>> from fedtheory.problems import isotropic_quadratic
    >>> p = isotropic_quadratic(2, mu=1.0, sigma=0.0, radius=2.0, x_star_norm=1.0, seed=0)
    >>> run = sgd_projected(p, rounds=3, seed=0, record=[0, 1, 3])
    >>> run.distances2.round(12).tolist()        # noiseless: step 1/μ jumps to w*
    [1.0, 0.0, 0.0]
    """
    _check_instance(problem, IsotropicQuadratic, "problem")
    rounds = check_int("rounds", rounds, minimum=1)
    rng = generator(seed)
    step0, decaying = _step_parameters(step_rule, problem.mu)
    record_rounds = _check_record(record, rounds)
    d = problem.d
    if w0 is None:
        w = np.zeros(d)
    else:
        w = check_vector("w0", w0, shape=(d,))
        if float(np.linalg.norm(w)) > problem.radius:
            raise ParameterError(
                parameter="w0",
                value=f"point of norm {float(np.linalg.norm(w)):.6g}",
                rule=f"must lie in the ball of radius {problem.radius:.6g}",
            )
    if chunk_rows is None:
        chunk_rows = max(1, NOISE_CHUNK_ELEMENTS // d)
    chunk_rows = check_int("chunk_rows", chunk_rows, minimum=1)

    w_star = problem.w_star
    distances2 = np.empty(record_rounds.shape[0])
    start = int(np.searchsorted(record_rounds, 0, side="right"))
    distances2[:start] = float(np.sum((w - w_star) ** 2))
    max_norm2 = float(w @ w)
    projections = 0
    t = 1
    while t <= rounds:
        n = min(chunk_rows, rounds - t + 1)
        z = rng.standard_normal((n, d))
        stop = int(np.searchsorted(record_rounds, t + n - 1, side="right"))
        with np.errstate(all="ignore"):
            w, block, block_max, block_projections = _sgd_ball(
                problem.mu,
                problem.sigma,
                w_star,
                problem.radius,
                z,
                w,
                t,
                step0,
                decaying,
                record_rounds[start:stop],
            )
        distances2[start:stop] = block
        max_norm2 = max(max_norm2, block_max)
        projections += int(block_projections)
        start = stop
        t += n
    check_finite_trace(
        "sgd_projected",
        (np.append(distances2, np.sum(w * w)),),
        np.append(record_rounds, rounds),
    )
    return SGDRun(
        w=readonly(w, copy=False),
        record_rounds=record_rounds,
        distances2=readonly(distances2, copy=False),
        gaps=readonly(0.5 * problem.mu * distances2, copy=False),
        rounds=rounds,
        max_norm=float(np.sqrt(max_norm2)),
        projections=projections,
    )
