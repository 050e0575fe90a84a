"""Kernel views of the gifair problems for the core round loop (private; DESIGN §3, §4).

The sample oracle of :mod:`fedtheory.problems._oracle` for the two problem families of
:mod:`fedtheory.papers.gifair.problems` (reading guide §4 and §5; the attribute names are the
problems' own):

:class:`QuadraticView` — ``GroupedQuadratics``
    Sample j of client k is the noise row z_j = ``noise[k, j]`` (S rows, centred):
    ℓ(θ; z_j) = ½(θ − c_k)ᵀA_k(θ − c_k) + b_k + z_jᵀ(θ − c_k), ∇ℓ = A_k(θ − c_k) + z_j. The
    mean over the rows is F_k (the rows are centred), so a uniformly drawn row is an unbiased
    stochastic gradient with σ_k² = mean_j ‖z_j‖² exactly (Assumption 2). ``client_loss`` is
    the closed form F_k(θ) = ½(θ − c_k)ᵀA_k(θ − c_k) + b_k, the problem's definition: the mean
    of the sample losses is F_k(θ) + z̄ᵀ(θ − c_k) and the noise term averages to exactly 0,
    since z̄ = 0 by construction (the problem refuses rows not centred to 1e-12·scale) — so a
    reported loss costs one n × n form, not S rows (the count of queries still says S); the
    minibatch step takes one product A_k(θ − c_k) per step instead of one per sample.
:class:`ClassificationView` — ``GroupedClassification``
    Ridge-regularised logistic regression (labels ±1, θ ∈ ℝ^p) or softmax regression (labels
    in [0, C), θ ∈ ℝ^{C·p} read as the C × p matrix W of class rows), per sample
    ℓ(θ; x, y) + (ρ/2)‖θ‖² with ℓ = log(1 + e^{−y xᵀθ}) resp. log Σ_c e^{W_c x} − W_y x, and
    gradients −y x sig(−y xᵀθ) + ρθ resp. (softmax(Wx) − e_y) ⊗ x + ρθ. The logistic minibatch
    step is the core linear kernel (:func:`fedtheory.problems._linear_samples._minibatch_step`)
    with the ridge as a pull of weight ρ towards 0 — a view with ρ = 0 (not a valid problem,
    which needs ρ > 0; the tests build one with ``_replace``) runs the very arithmetic of the
    core FedAvg on a logistic :class:`~fedtheory.problems.FederatedDataset` (bit for bit); the
    softmax step accumulates the batch gradient once. ``client_loss`` is one fused pass with the
    ridge added once and, for the logistic loss, one logarithm of a product in place of n
    log1p (relative error ≤ 2.3e-13; :func:`_classification_client_loss`). The optional
    non-convex regulariser ν Σ_i θ_i²/(1 + θ_i²) (the problem's ``nonconvex``, guide §5 V14)
    enters every sample loss and gradient (+ ν·2θ_i/(1 + θ_i²)²) and the client loss once; with
    ν > 0 the logistic step is the generic one written with ``sample_gradient``.

Every replicate shares the problem's data (index r is ignored); there are no server samples
(index K gives an empty client). :func:`kernel_view` builds the view of a problem. The plain
numpy twins are in ``tests/reference/gifair.py``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from fedtheory._arrays import kernel_array
from fedtheory._jit import njit
from fedtheory.errors import ParameterError
from fedtheory.papers.gifair.problems import GroupedClassification, GroupedQuadratics
from fedtheory.problems._linear_samples import (
    LOSS_LOGISTIC,
    LinearClientSamples,
    _logistic_slope,
    _minibatch_step,
    _minibatch_steps,
    _softplus,
)
from fedtheory.problems._oracle import _minibatch_step_by_samples, _minibatch_steps_by_step

__all__: list[str] = []

#: Loss codes of :class:`ClassificationView`.
LOGISTIC = 0
SOFTMAX = 1
_LOSS_CODES = {"logistic": LOGISTIC, "softmax": SOFTMAX}


# ============================================================================== quadratics


@njit
def _quadratic_client(view: QuadraticView, r: int, i: int) -> QuadraticClient:
    """Client ``i``'s curvature, centre, offset and noise rows (an empty client for i ≥ K)."""
    k = min(i, view.offsets.shape[0] - 1)
    rows = view.noise.shape[1] if i < view.offsets.shape[0] else 0
    return QuadraticClient(
        view.curvature[k], view.centres[k], view.offsets[k], view.noise[k, :rows], view.buffer
    )


@njit
def _noise_rows(view: QuadraticView) -> int:
    return int(view.noise.shape[1])


@njit
def _quadratic_count(samples: QuadraticClient) -> int:
    return int(samples.noise.shape[0])


@njit
def _quadratic_form(samples: QuadraticClient, w: np.ndarray) -> float:
    """½(w − c)ᵀA(w − c) + b."""
    A = samples.curvature
    c = samples.centre
    d = w.shape[0]
    total = 0.0
    for a in range(d):
        inner = 0.0
        for b in range(d):
            inner += A[a, b] * (w[b] - c[b])
        total += (w[a] - c[a]) * inner
    return 0.5 * total + samples.offset


@njit
def _quadratic_loss(samples: QuadraticClient, j: int, w: np.ndarray) -> float:
    """ℓ(w; z_j) = ½(w − c)ᵀA(w − c) + b + z_jᵀ(w − c)."""
    z = samples.noise[j]
    linear = 0.0
    for a in range(w.shape[0]):
        linear += z[a] * (w[a] - samples.centre[a])
    return _quadratic_form(samples, w) + linear


@njit
def _quadratic_gradient(samples: QuadraticClient, j: int, w: np.ndarray, out: np.ndarray) -> None:
    """∇ℓ(w; z_j) = A(w − c) + z_j into ``out``."""
    A = samples.curvature
    c = samples.centre
    z = samples.noise[j]
    d = w.shape[0]
    for a in range(d):
        inner = 0.0
        for b in range(d):
            inner += A[a, b] * (w[b] - c[b])
        out[a] = inner + z[a]


@njit
def _quadratic_step(
    samples: QuadraticClient,
    rows: np.ndarray,
    w: np.ndarray,
    anchor: np.ndarray,
    eta: float,
    lam: float,
    scratch: np.ndarray,
) -> None:
    """w ← w − η(A(w − c) + z̄_B + λ(w − anchor)), z̄_B the mean noise row of the batch."""
    A = samples.curvature
    c = samples.centre
    g = samples.buffer
    d = w.shape[0]
    b = rows.shape[0]
    for a in range(d):
        inner = 0.0
        for e in range(d):
            inner += A[a, e] * (w[e] - c[e])
        g[a] = inner
    for s in range(b):
        z = samples.noise[rows[s]]
        for a in range(d):
            g[a] += z[a] / b
    for a in range(d):
        w[a] -= eta * (g[a] + lam * (w[a] - anchor[a]))


class _QuadraticViewFields(NamedTuple):
    curvature: np.ndarray
    centres: np.ndarray
    offsets: np.ndarray
    noise: np.ndarray
    buffer: np.ndarray


class QuadraticView(_QuadraticViewFields):
    """``GroupedQuadratics`` as the kernels read it: curvature (K, n, n), centres (K, n),
    offsets (K,), noise (K, S, n), and n floats of scratch that every client shares (see
    :func:`kernel_view`)."""

    __slots__ = ()

    client_samples = _quadratic_client
    max_sample_count = _noise_rows


class _QuadraticClientFields(NamedTuple):
    curvature: np.ndarray
    centre: np.ndarray
    offset: float
    noise: np.ndarray
    buffer: np.ndarray


class QuadraticClient(_QuadraticClientFields):
    """One client of :class:`QuadraticView` (``buffer``: d floats of scratch)."""

    __slots__ = ()

    sample_count = _quadratic_count
    sample_gradient = _quadratic_gradient
    sample_loss = _quadratic_loss
    client_loss = _quadratic_form
    minibatch_step = _quadratic_step


# ============================================================================== classification


@njit
def _classification_client(view: ClassificationView, r: int, i: int) -> ClassificationClient:
    """Client ``i``'s rows (an empty client for i ≥ K) and the view's scratch buffers."""
    k = min(i, view.counts.shape[0] - 1)
    n = view.counts[k] if i < view.counts.shape[0] else 0
    return ClassificationClient(
        view.loss,
        view.features[k, :n],
        view.labels[k, :n],
        view.classes,
        view.ridge,
        view.zeros,
        view.logits,
        view.nonconvex,
    )


@njit
def _classification_rows(view: ClassificationView) -> int:
    return int(view.features.shape[1])


@njit
def _classification_count(samples: ClassificationClient) -> int:
    return int(samples.features.shape[0])


@njit
def _regulariser(samples: ClassificationClient, w: np.ndarray) -> float:
    """The regulariser (ρ/2)‖w‖² + ν Σ_a w_a²/(1 + w_a²) (ν = 0: the ridge alone)."""
    if samples.ridge == 0.0 and samples.nonconvex == 0.0:
        return 0.0
    total = 0.0
    bumps = 0.0
    for a in range(w.shape[0]):
        square = w[a] * w[a]
        total += square
        bumps += square / (1.0 + square)
    return 0.5 * samples.ridge * total + samples.nonconvex * bumps


@njit
def _bump_slope(nu: float, value: float) -> float:
    """d/dw of ν w²/(1 + w²): 2νw/(1 + w²)²."""
    if nu == 0.0:
        return 0.0
    denominator = 1.0 + value * value
    return 2.0 * nu * value / (denominator * denominator)


@njit
def _softmax_logits(samples: ClassificationClient, j: int, w: np.ndarray) -> float:
    """Logits W_c x_j into ``samples.logits``; returns log Σ_c e^{W_c x_j} (stable)."""
    x = samples.features[j]
    p = x.shape[0]
    logits = samples.logits
    top = -math.inf
    for c in range(samples.classes):
        value = 0.0
        for a in range(p):
            value += w[c * p + a] * x[a]
        logits[c] = value
        top = max(top, value)
    total = 0.0
    for c in range(samples.classes):
        total += math.exp(logits[c] - top)
    return top + math.log(total)


@njit
def _classification_loss(samples: ClassificationClient, j: int, w: np.ndarray) -> float:
    """ℓ(w; x_j, y_j) + (ρ/2)‖w‖²."""
    x = samples.features[j]
    if samples.loss == LOGISTIC:
        margin = 0.0
        for a in range(x.shape[0]):
            margin += x[a] * w[a]
        return _softplus(float(-samples.labels[j] * margin)) + _regulariser(samples, w)
    lse = _softmax_logits(samples, j, w)
    value: float = lse - samples.logits[int(samples.labels[j])] + _regulariser(samples, w)
    return value


#: Below this, log1p(e) for e = e^{−|u|} is its Taylor polynomial to e⁵ (error < e⁶/6, i.e.
#: below 2⁻⁵²·e for e ≤ 2⁻¹⁰); at or above it (1 + e) enters the product of
#: :func:`_classification_client_loss`.
_SERIES_BELOW = 2.0**-10
#: The running product is folded into its logarithm before it can overflow (each factor ≤ 2).
_FOLD_ABOVE = 2.0**500


@njit
def _classification_client_loss(samples: ClassificationClient, w: np.ndarray) -> float:
    """F_k(w) = (1/n) Σ_j ℓ(w; x_j, y_j) + (ρ/2)‖w‖² in one pass (NaN for n = 0).

    The fast path of the loss pass of GIFAIR-FL (every reported F_k, every round). The ridge
    term is added once, not n times. Logistic: with u_j = −y_j x_jᵀw and e_j = e^{−|u_j|},
    softplus(u_j) = max(u_j, 0) + log1p(e_j); the n log1p are replaced by one logarithm of
    Π_j (1 + e_j) (folded before 2⁵⁰⁰), except for e_j < 2⁻¹⁰, whose log1p is its degree-5
    Taylor polynomial (well-classified samples, where forming 1 + e_j would lose e_j's digits).
    So each sample costs one exp and a product instead of an exp and a log1p (about 2.3× faster
    for 10 features), at a relative error of at most ≈ 2.3e-13 against the exact sum: forming
    a factor 1 + e_j ≥ 1 + 2⁻¹⁰ and multiplying it in each add at most 2⁻⁵³ to a logarithm of
    at least log(1 + 2⁻¹⁰) ≈ 9.8e-4, and the terms are non-negative. Softmax: the per-sample
    log-sum-exp, with the ridge once.
    """
    X = samples.features
    n = X.shape[0]
    if n == 0:
        return math.nan
    total = 0.0
    if samples.loss == LOGISTIC:
        y = samples.labels
        d = w.shape[0]
        product = 1.0
        for j in range(n):
            x = X[j]
            margin = 0.0
            for a in range(d):
                margin += x[a] * w[a]
            u = -y[j] * margin
            e = math.exp(-abs(u))
            total += max(u, 0.0)
            if e < _SERIES_BELOW:
                total += e * (1.0 - e * (0.5 - e * (1.0 / 3.0 - e * (0.25 - e * 0.2))))
            else:
                product *= 1.0 + e
                if product > _FOLD_ABOVE:
                    total += math.log(product)
                    product = 1.0
        total += math.log(product)
    else:
        for j in range(n):
            lse = _softmax_logits(samples, j, w)
            total += lse - samples.logits[int(samples.labels[j])]
    mean: float = total / n + _regulariser(samples, w)
    return mean


@njit
def _classification_gradient(
    samples: ClassificationClient, j: int, w: np.ndarray, out: np.ndarray
) -> None:
    """∇ℓ(w; x_j, y_j) + ρw + ν·2w/(1 + w²)² (elementwise) into ``out``."""
    x = samples.features[j]
    p = x.shape[0]
    rho = samples.ridge
    nu = samples.nonconvex
    if samples.loss == LOGISTIC:
        margin = 0.0
        for a in range(p):
            margin += x[a] * w[a]
        y = samples.labels[j]
        g = -y * _logistic_slope(y * margin)
        for a in range(p):
            out[a] = g * x[a] + rho * w[a] + _bump_slope(nu, w[a])
        return
    lse = _softmax_logits(samples, j, w)
    label = int(samples.labels[j])
    for c in range(samples.classes):
        weight = math.exp(samples.logits[c] - lse) - (1.0 if c == label else 0.0)
        for a in range(p):
            b = c * p + a
            out[b] = weight * x[a] + rho * w[b] + _bump_slope(nu, w[b])


@njit
def _classification_step(
    samples: ClassificationClient,
    rows: np.ndarray,
    w: np.ndarray,
    anchor: np.ndarray,
    eta: float,
    lam: float,
    scratch: np.ndarray,
) -> None:
    """w ← w − η(ĝ_B(w) + ρw + ν·2w/(1 + w²)² + λ(w − anchor)).

    Logistic with λ = 0 and ν = 0: the core linear kernel with the ridge as a pull of weight ρ
    towards 0 (ρ = 0: the core FedAvg step itself); otherwise the generic step. Softmax: the batch
    gradient accumulated once.
    """
    if samples.loss == LOGISTIC:
        if lam == 0.0 and samples.nonconvex == 0.0:
            linear = LinearClientSamples(LOSS_LOGISTIC, samples.features, samples.labels)
            _minibatch_step(linear, rows, w, samples.zeros, eta, samples.ridge, scratch)
        else:
            _minibatch_step_by_samples(samples, rows, w, anchor, eta, lam, scratch)
        return
    p = samples.features.shape[1]
    d = w.shape[0]
    g = samples.zeros  # the gradient accumulator (restored to zeros below)
    b = rows.shape[0]
    for s in range(b):
        j = rows[s]
        x = samples.features[j]
        lse = _softmax_logits(samples, j, w)
        label = int(samples.labels[j])
        for c in range(samples.classes):
            weight = math.exp(samples.logits[c] - lse) - (1.0 if c == label else 0.0)
            for a in range(p):
                g[c * p + a] += weight * x[a]
    rho = samples.ridge
    nu = samples.nonconvex
    for a in range(d):
        regular = rho * w[a] + _bump_slope(nu, w[a])
        w[a] -= eta * (g[a] / b + regular + lam * (w[a] - anchor[a]))
        g[a] = 0.0


@njit
def _classification_steps(
    samples: ClassificationClient,
    rows: np.ndarray,
    sizes: np.ndarray,
    etas: np.ndarray,
    w: np.ndarray,
    anchor: np.ndarray,
    lam: float,
    scratch: np.ndarray,
) -> None:
    """Consecutive minibatch steps (:data:`fedtheory.problems._oracle.minibatch_steps`): step j
    takes the next ``sizes[j]`` entries of ``rows`` and the step ``etas[j]``.

    Logistic with λ = 0 and ν = 0: the core linear kernel's run of steps, with the ridge as the
    pull towards 0 (bit for bit the steps of :func:`_classification_step` one at a time, in one
    call instead of three nested calls per step); otherwise the generic loop over
    :func:`_classification_step`.
    """
    if samples.loss == LOGISTIC and lam == 0.0 and samples.nonconvex == 0.0:
        linear = LinearClientSamples(LOSS_LOGISTIC, samples.features, samples.labels)
        _minibatch_steps(linear, rows, sizes, etas, w, samples.zeros, samples.ridge, scratch)
    else:
        _minibatch_steps_by_step(samples, rows, sizes, etas, w, anchor, lam, scratch)


class _ClassificationViewFields(NamedTuple):
    loss: int
    features: np.ndarray
    labels: np.ndarray
    counts: np.ndarray
    classes: int
    ridge: float
    zeros: np.ndarray
    logits: np.ndarray
    nonconvex: float


class ClassificationView(_ClassificationViewFields):
    """``GroupedClassification`` as the kernels read it: loss code (:data:`LOGISTIC`,
    :data:`SOFTMAX`), features (K, n_max, p), labels (K, n_max) float64 (±1, or the class),
    counts (K,) int64, classes C, ridge ρ ≥ 0, the scratch every client shares (see
    :func:`kernel_view`): ``zeros`` (d zeros, restored after use) and ``logits`` (C floats),
    and the weight ν ≥ 0 of the non-convex regulariser."""

    __slots__ = ()

    client_samples = _classification_client
    max_sample_count = _classification_rows


class _ClassificationClientFields(NamedTuple):
    loss: int
    features: np.ndarray
    labels: np.ndarray
    classes: int
    ridge: float
    zeros: np.ndarray
    logits: np.ndarray
    nonconvex: float


class ClassificationClient(_ClassificationClientFields):
    """One client of :class:`ClassificationView` (``zeros``: d zeros, the anchor of the ridge
    and the softmax accumulator; ``logits``: C floats of scratch; ``nonconvex``: ν)."""

    __slots__ = ()

    sample_count = _classification_count
    sample_gradient = _classification_gradient
    sample_loss = _classification_loss
    client_loss = _classification_client_loss
    minibatch_step = _classification_step
    minibatch_steps = _classification_steps


# ============================================================================== the builder


def kernel_view(
    problem: GroupedQuadratics | GroupedClassification,
) -> QuadraticView | ClassificationView:
    """The kernel view of a gifair problem, dispatched on its class (isinstance): a
    :class:`~fedtheory.papers.gifair.problems.GroupedQuadratics` or a
    :class:`~fedtheory.papers.gifair.problems.GroupedClassification`.

    The problems have validated their arrays (SPD curvature, centred noise, ±1 or class labels,
    ridge ρ > 0); the view only lays them out for the kernels, with scratch buffers allocated
    here once instead of at every ``client_samples`` call (two allocations per client and
    update cost the round ~10%). The clients of one view share them, so a view serves one
    kernel call at a time (every run builds its own).

    Raises
    ------
    ParameterError
        For any other object.
    """
    if isinstance(problem, GroupedQuadratics):
        return QuadraticView(
            kernel_array(problem.curvature),
            kernel_array(problem.centres),
            kernel_array(problem.offsets),
            kernel_array(problem.noise),
            np.empty(problem.dimension),
        )
    if isinstance(problem, GroupedClassification):
        return ClassificationView(
            _LOSS_CODES[problem.loss],
            kernel_array(problem.features),
            kernel_array(problem.labels),
            kernel_array(problem.counts, np.int64),
            int(problem.classes),
            float(problem.ridge),
            np.zeros(problem.dimension),
            np.empty(problem.classes),
            float(problem.nonconvex),
        )
    raise ParameterError(
        parameter="problem",
        value=type(problem).__name__,
        rule="must be a GroupedQuadratics or a GroupedClassification "
        "(fedtheory.papers.gifair.problems)",
    )
