"""App. C of Jadbabaie, Makur & Shah: the approximate rank of gradient slices of trained networks.

Steps 2–6 of the procedure of [1]_ in :mod:`fedtheory.papers.fedlrgd.networks`:
:func:`app_c_perturbations` and :func:`gradient_slices` build the tensor ℳ_{i,j,q} =
∂f/∂θ_q(x^(i); θ^(j)) of (75)–(76); :func:`nontrivial_coordinates` and :func:`sample_coordinates`
pick the weights whose slices are read; :func:`energy_rank` and :func:`energy_ranks` compute the
approximate rank (77), min{J : Σ_{i≤J} σ_i² ≥ 0.9‖ℳ_q‖_F²}; :func:`gaussian_null_ranks` gives the
same statistic on i.i.d. Gaussian matrices of the same shape (a null the paper does not show;
guide §6.13); :func:`slice_rank_study` runs the whole pipeline for one seed.

References
----------
.. [1] A. Jadbabaie, A. Makur & D. Shah (2022), Federated Optimization of Smooth Loss Functions,
   arXiv:2201.01954v2, App. C, eqs. (75)–(77), Figures 1–2.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fedtheory._arrays import readonly
from fedtheory._checks import check_int, check_real, check_vector
from fedtheory._seeds import Seed, generator, seed_entropy
from fedtheory.errors import ParameterError
from fedtheory.papers.fedlrgd.digits import DigitsSplit, digits_split
from fedtheory.papers.fedlrgd.networks import Activation, Network, TrainingRun, train_sgd

__all__ = [
    "APP_C_ENERGY",
    "APP_C_THRESHOLD",
    "GradientSlices",
    "SliceRankStudy",
    "app_c_perturbations",
    "energy_rank",
    "energy_ranks",
    "gaussian_null_ranks",
    "gradient_slices",
    "nontrivial_coordinates",
    "sample_coordinates",
    "slice_rank_study",
]


#: Fraction of the squared Frobenius norm the approximate rank must capture (eq. (77)).
APP_C_ENERGY = 0.9


#: Weights with ``|θ*_q|`` ≥ this are "non-trivial" (App. C, ε = 0.005).
APP_C_THRESHOLD = 0.005


def nontrivial_coordinates(theta: np.ndarray, threshold: float = APP_C_THRESHOLD) -> np.ndarray:
    """Indices q with ``|θ*_q|`` ≥ ``threshold`` (App. C's "non-trivial" weights, ε = 0.005).

    >>> nontrivial_coordinates(np.array([0.1, -0.001, -0.2, 0.005])).tolist()
    [0, 2, 3]
    """
    theta = np.asarray(theta, dtype=np.float64)
    if theta.ndim != 1:
        raise ParameterError(
            parameter="theta", value=f"array of shape {theta.shape}", rule="must be 1-D"
        )
    eps = check_real("threshold", threshold, nonnegative=True)
    return np.flatnonzero(np.abs(theta) >= eps)


def sample_coordinates(
    theta: np.ndarray,
    count: int,
    *,
    seed: Seed,
    threshold: float = APP_C_THRESHOLD,
) -> np.ndarray:
    """``count`` non-trivial coordinates drawn uniformly without replacement, sorted (fn. 12).

    All non-trivial coordinates are returned when there are at most ``count`` of them.

    Raises
    ------
    ParameterError
        If ``count < 1`` or no coordinate is non-trivial.
    """
    count = check_int("count", count, minimum=1)
    candidates = nontrivial_coordinates(theta, threshold)
    if candidates.size == 0:
        raise ParameterError(
            parameter="threshold",
            value=threshold,
            rule="leaves no non-trivial coordinate (|θ_q| ≥ threshold)",
        )
    if candidates.size <= count:
        return candidates
    return np.sort(generator(seed).choice(candidates, size=count, replace=False))


def app_c_perturbations(theta: np.ndarray, k: int, *, seed: Seed) -> np.ndarray:
    """k perturbed parameter vectors θ^(j) = θ* + (‖θ*‖₁/p)·g_j, g_j ~ N(0, I_p) (eq. (75)).

    Returns
    -------
    numpy.ndarray
        Shape (k, p); row j is θ^(j). The per-coordinate noise scale is the mean ``|θ*_q|``.
    """
    theta = np.asarray(theta, dtype=np.float64)
    if theta.ndim != 1 or theta.size < 1:
        raise ParameterError(
            parameter="theta", value=f"array of shape {theta.shape}", rule="must be 1-D, p ≥ 1"
        )
    theta = check_vector("theta", theta, shape=theta.shape)
    k = check_int("k", k, minimum=1)
    scale = float(np.abs(theta).sum()) / theta.size
    noise = generator(seed).standard_normal((k, theta.size))
    return theta[None, :] + scale * noise


@dataclass(frozen=True, eq=False)
class GradientSlices:
    """Slices ℳ_q of the App. C tensor (eq. (76)) for selected coordinates q.

    Attributes
    ----------
    slices : numpy.ndarray
        Shape (len(coordinates), k, k): ``slices[c, i, j] = ∂f/∂θ_q(x^(i); θ^(j))`` with
        q = coordinates[c]; rows index data, columns perturbed parameters (as in App. C).
    coordinates : numpy.ndarray
        The q's.
    samples : numpy.ndarray
        Indices of the k data samples in the pool they were drawn from.
    perturbation_scale : float
        ‖θ*‖₁/p, the standard deviation of the perturbation per coordinate.
    """

    slices: np.ndarray
    coordinates: np.ndarray
    samples: np.ndarray
    perturbation_scale: float


def gradient_slices(
    network: Network,
    theta: np.ndarray,
    X: np.ndarray,
    Y: np.ndarray,
    *,
    k: int,
    coordinates: np.ndarray,
    seed: Seed,
) -> GradientSlices:
    """Steps 2–4 of App. C: k samples, k perturbations (75), the slices ℳ_q of (76).

    Parameters
    ----------
    network
        The architecture.
    theta
        Trained parameters θ*.
    X, Y
        The pool the k samples are drawn from uniformly among k-subsets (App. C: the test
        set).
    k
        Number of samples and of perturbations, 1 ≤ k ≤ len(X).
    coordinates
        The q's whose slices are formed (e.g. :func:`sample_coordinates`).
    seed
        Seeds the sample choice and the perturbations.

    Returns
    -------
    GradientSlices
        Column j of every slice holds the per-sample gradients at θ^(j), so the whole tensor
        costs k backpropagations over k samples.
    """
    theta = network._check_theta(theta)
    X, Y = network._check_data(X, Y)
    k = check_int("k", k, minimum=1)
    if k > X.shape[0]:
        raise ParameterError(
            parameter="k", value=k, rule=f"must be at most the pool size {X.shape[0]}"
        )
    q = network._check_coordinates(coordinates)
    sample_seed, perturbation_seed = np.random.SeedSequence(seed_entropy(seed)).spawn(2)
    samples = np.sort(generator(sample_seed).choice(X.shape[0], size=k, replace=False))
    thetas = app_c_perturbations(theta, k, seed=perturbation_seed)
    xs, ys = X[samples], Y[samples]
    slices = np.empty((q.size, k, k))
    for j in range(k):
        slices[:, :, j] = network._per_sample(thetas[j], xs, ys, q).T
    scale = float(np.abs(theta).sum()) / theta.size
    return GradientSlices(readonly(slices), q, samples, scale)


def _check_energy(energy: float) -> float:
    value = check_real("energy", energy, positive=True)
    if value > 1.0:
        raise ParameterError(parameter="energy", value=value, rule="must be in (0, 1]")
    return value


def _ranks_from_singular_values(sigma: np.ndarray, energy: float) -> np.ndarray:
    """min{J : Σ_{i≤J} σ_i² ≥ energy·Σ_i σ_i²} along the last axis (σ sorted decreasingly)."""
    cumulative = np.cumsum(sigma**2, axis=-1)
    total = cumulative[..., -1:]
    return np.asarray(np.argmax(cumulative >= energy * total, axis=-1) + 1)


def energy_rank(matrix: np.ndarray, energy: float = APP_C_ENERGY) -> int:
    """Approximate rank of eq. (77): min{J ∈ [k] : Σ_{i≤J} σ_i² ≥ 0.9‖M‖_F²}.

    Parameters
    ----------
    matrix
        A non-zero finite two-dimensional array (any shape; App. C's slices are k × k).
    energy
        The captured fraction, in (0, 1] (0.9 in App. C, "arbitrary").

    Raises
    ------
    ParameterError
        If the matrix is not 2-D, not finite, or zero (eq. (77) is defined for non-zero
        matrices only).

    Examples
    --------
    >>> energy_rank(np.diag([3.0, 1.0, 0.1]))  # 9/10.01 < 0.9 ≤ 10/10.01
    2
    >>> energy_rank(np.outer([1.0, 2.0], [3.0, 4.0, 5.0]))
    1
    """
    M = np.asarray(matrix, dtype=np.float64)
    if M.ndim != 2 or M.size == 0:
        raise ParameterError(
            parameter="matrix", value=f"array of shape {M.shape}", rule="must be a 2-D matrix"
        )
    M = check_vector("matrix", M, shape=M.shape)
    fraction = _check_energy(energy)
    if not M.any():
        raise ParameterError(
            parameter="matrix",
            value="the zero matrix",
            rule="the approximate rank (77) is defined for non-zero matrices only",
        )
    sigma = np.linalg.svd(M, compute_uv=False)
    return int(_ranks_from_singular_values(sigma, fraction))


def energy_ranks(stack: np.ndarray, energy: float = APP_C_ENERGY) -> np.ndarray:
    """Approximate rank (77) of every matrix of a stack; 0 marks an all-zero matrix.

    Parameters
    ----------
    stack
        Shape (n, rows, cols), finite.
    energy
        The captured fraction, in (0, 1].

    Returns
    -------
    numpy.ndarray
        Integer ranks in [1, min(rows, cols)], or 0 where the matrix is exactly zero (its
        approximate rank is undefined: count these and exclude them).

    Examples
    --------
    >>> stack = np.stack([np.eye(3), np.zeros((3, 3)), np.ones((3, 3))])
    >>> energy_ranks(stack).tolist()
    [3, 0, 1]
    """
    S = np.asarray(stack, dtype=np.float64)
    if S.ndim != 3 or 0 in S.shape[1:]:
        raise ParameterError(
            parameter="stack",
            value=f"array of shape {S.shape}",
            rule="must have shape (n, rows, cols) with rows, cols ≥ 1",
        )
    S = check_vector("stack", S, shape=S.shape)
    fraction = _check_energy(energy)
    ranks = np.zeros(S.shape[0], dtype=np.int64)
    nonzero = S.reshape(S.shape[0], -1).any(axis=1)
    if nonzero.any():
        sigma = np.linalg.svd(S[nonzero], compute_uv=False)
        ranks[nonzero] = _ranks_from_singular_values(sigma, fraction)
    return ranks


def gaussian_null_ranks(
    k: int,
    count: int,
    *,
    seed: Seed,
    columns: int | None = None,
    energy: float = APP_C_ENERGY,
) -> np.ndarray:
    """Approximate ranks (77) of ``count`` i.i.d. standard Gaussian k × k matrices.

    The null against which App. C's ranks are compared here (the paper shows none; guide
    §6.13): a matrix of the same shape with no structure. Its 90%-energy rank concentrates
    (Marchenko–Pastur) near 0.52 k for square matrices — 31 at k = 60.

    Parameters
    ----------
    k
        Rows (≥ 1).
    count
        Number of matrices (≥ 1).
    seed
        Seeds the draws.
    columns
        Columns (default ``k``).
    energy
        The captured fraction, in (0, 1].
    """
    k = check_int("k", k, minimum=1)
    count = check_int("count", count, minimum=1)
    cols = k if columns is None else check_int("columns", columns, minimum=1)
    fraction = _check_energy(energy)
    draws = generator(seed).standard_normal((count, k, cols))
    sigma = np.linalg.svd(draws, compute_uv=False)
    return _ranks_from_singular_values(sigma, fraction).astype(np.int64)


@dataclass(frozen=True, eq=False)
class SliceRankStudy:
    """One run of App. C's procedure on the digits substitute (:func:`slice_rank_study`).

    Attributes
    ----------
    network : Network
        The architecture.
    data : DigitsSplit
        The training/test split used.
    training : TrainingRun
        θ* and the training trace.
    train_accuracy, test_accuracy : float
        Accuracies of θ*.
    slices : GradientSlices
        The sampled slices (coordinates, samples, perturbation scale).
    ranks : numpy.ndarray
        Approximate rank (77) of every sampled slice, 0 for an all-zero slice.
    null_ranks : numpy.ndarray
        Approximate ranks of as many i.i.d. Gaussian k × k matrices.
    nontrivial : int
        Number of non-trivial coordinates (``|θ*_q|`` ≥ threshold) the slices were sampled from.
    """

    network: Network
    data: DigitsSplit
    training: TrainingRun
    train_accuracy: float
    test_accuracy: float
    slices: GradientSlices
    ranks: np.ndarray
    null_ranks: np.ndarray
    nontrivial: int

    @property
    def zero_slices(self) -> int:
        """Number of sampled slices that are exactly zero (rank undefined, excluded)."""
        return int(np.count_nonzero(self.ranks == 0))

    @property
    def valid_ranks(self) -> np.ndarray:
        """Ranks of the non-zero slices (the histogram of App. C)."""
        return self.ranks[self.ranks > 0]


def slice_rank_study(
    *,
    hidden: tuple[int, ...] = (64,),
    activation: Activation = "sigmoid",
    k: int = 60,
    n_slices: int = 500,
    epochs: int = 100,
    batch_size: int = 32,
    learning_rate: float = 0.5,
    seed: Seed,
    energy: float = APP_C_ENERGY,
    threshold: float = APP_C_THRESHOLD,
) -> SliceRankStudy:
    """App. C's procedure end to end on the 8×8 digits (reading guide §4.1 and §4.4).

    Train ``Network((64, *hidden, 10), activation)`` with :func:`train_sgd` on the training
    split, sample ``n_slices`` non-trivial coordinates, build their slices at ``k`` test samples
    and ``k`` perturbations (75)–(76), and compute their approximate ranks (77) and those of as
    many Gaussian k × k matrices.

    Parameters
    ----------
    hidden
        Hidden widths (App. C: one layer of K = input dimension; here K = 64 by default).
    activation
        ``"sigmoid"`` or ``"relu"``.
    k
        Samples and perturbations per slice (App. C: 30, 60, 90).
    n_slices
        Coordinates sampled (App. C, footnote 12: about 500).
    epochs, batch_size, learning_rate
        Plain minibatch SGD (the paper uses Adam; see :func:`train_sgd`).
    seed
        Seeds the split, the training, the coordinates, the slices and the null.
    energy, threshold
        The 90% of eq. (77) and App. C's ε = 0.005.

    Raises
    ------
    MissingExtraError
        If scikit-learn (the ``data`` extra) is not installed.
    """
    hidden = tuple(hidden)
    network = Network((64, *hidden, 10), activation)
    k = check_int("k", k, minimum=1)
    n_slices = check_int("n_slices", n_slices, minimum=1)
    fraction = _check_energy(energy)
    split_seed, train_seed, coordinate_seed, slice_seed, null_seed = np.random.SeedSequence(
        seed_entropy(seed)
    ).spawn(5)
    data = digits_split(split_seed)
    run = train_sgd(
        network,
        data.X_train,
        data.Y_train,
        epochs=epochs,
        batch_size=batch_size,
        learning_rate=learning_rate,
        seed=train_seed,
    )
    coordinates = sample_coordinates(run.theta, n_slices, seed=coordinate_seed, threshold=threshold)
    slices = gradient_slices(
        network,
        run.theta,
        data.X_test,
        data.Y_test,
        k=k,
        coordinates=coordinates,
        seed=slice_seed,
    )
    ranks = energy_ranks(slices.slices, fraction)
    null = gaussian_null_ranks(k, coordinates.size, seed=null_seed, energy=fraction)
    return SliceRankStudy(
        network=network,
        data=data,
        training=run,
        train_accuracy=network.accuracy(run.theta, data.X_train, data.Y_train),
        test_accuracy=network.accuracy(run.theta, data.X_test, data.Y_test),
        slices=slices,
        ranks=ranks,
        null_ranks=null,
        nontrivial=int(nontrivial_coordinates(run.theta, threshold).size),
    )
