"""GIFAIR-FL's problems on the problem protocol: grouped quadratics and grouped classification.

The problems of Yue, Nouiehed & Al Kontar [1]_. Both are frozen dataclasses implementing
:class:`~fedtheory.problems.protocol.FederatedProblem` (client weights p = the group structure's
data shares, F = Σ_k p_k F_k is FedAvg's objective) plus vectorised ``client_values(theta)`` (K,)
and ``client_gradients(theta)`` (K, n), which is what Lemma 3.2's reweighting and the exact optima
of :mod:`~fedtheory.papers.gifair.exact` need.

- :class:`GroupedQuadratics` (guide §4, item 5): F_k(θ) = ½(θ − c_k)ᵀA_k(θ − c_k) + b_k with a
  finite table of gradient-noise rows z_{k,j}, centred per client, so that the stochastic
  gradient A_k(θ − c_k) + z_{k,J} (J uniform) is unbiased with σ_k² = mean_j ‖z_{k,j}‖² exactly.
  :func:`grouped_quadratics` reproduces the instance of guide §7.
- :class:`GroupedClassification`: ridge-regularised logistic or softmax regression,
  F_k(θ) = (1/n_k) Σ_j ℓ(θ; x_{k,j}, y_{k,j}) + (ρ/2)‖θ‖² (+ ν Σ_i θ_i²/(1 + θ_i²), the
  optional non-convex regulariser of guide §5 V14), with a held-out test split. Its
  generators (guide §4, items 1–4, 6) are in :mod:`~fedtheory.papers.gifair.datasets`.

References
----------
.. [1] S. Yue, M. Nouiehed & R. Al Kontar, GIFAIR-FL: a framework for group and individual
   fairness in federated learning, INFORMS J. Data Science (arXiv:2108.02741); guide §1, §4.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from scipy import special

from fedtheory._arrays import readonly
from fedtheory._checks import check_int, check_real, check_vector
from fedtheory._seeds import Seed, seed_sequence
from fedtheory.errors import ParameterError, SolverError
from fedtheory.papers.gifair.groups import GroupStructure

__all__ = [
    "GUIDE_GROUP_CENTRES",
    "GroupedClassification",
    "GroupedQuadratics",
    "grouped_quadratics",
]

#: The three group centres of guide §7's quadratic instance (d = 3, n = 4).
GUIDE_GROUP_CENTRES = ((0.0, 0.0, 0.0, 0.0), (3.0, 0.0, 1.0, 0.0), (0.0, 4.0, 0.0, 1.0))

Loss = Literal["logistic", "softmax"]


def _check_client(client: Any, K: int) -> int:
    k = check_int("client", client, minimum=0)
    if k >= K:
        raise ParameterError(parameter="client", value=k, rule=f"must be below K = {K}")
    return k


# ============================================================================== quadratics


@dataclass(frozen=True)
class GroupedQuadratics:
    """K strongly convex quadratic clients in groups, with an exact finite noise table.

    F_k(θ) = ½(θ − c_k)ᵀA_k(θ − c_k) + b_k (guide §4, item 5). A stochastic gradient of client k
    is A_k(θ − c_k) + z_{k,j} for a uniformly drawn row j of ``noise[k]``; the rows are centred,
    so it is unbiased and E‖g_k − ∇F_k‖² = σ_k² = mean_j ‖z_{k,j}‖² exactly (Assumption 2).

    Parameters
    ----------
    groups
        The group structure (labels and data shares p).
    curvature
        A_k, shape (K, n, n), symmetric positive definite.
    centres
        c_k = argmin F_k, shape (K, n).
    offsets
        b_k = F_k* = min F_k, shape (K,).
    noise
        z_{k,j}, shape (K, S, n), each client's rows with mean 0 (checked to 1e-12·scale).

    Raises
    ------
    ParameterError
        If a shape disagrees with K or n, some A_k is not symmetric positive definite, or a
        client's noise rows are not centred.
    """

    groups: GroupStructure
    curvature: np.ndarray
    centres: np.ndarray
    offsets: np.ndarray
    noise: np.ndarray

    def __post_init__(self) -> None:
        if not isinstance(self.groups, GroupStructure):
            raise ParameterError(
                parameter="groups",
                value=type(self.groups).__name__,
                rule="must be a GroupStructure",
            )
        K = self.groups.num_clients
        centres = np.asarray(self.centres, dtype=np.float64)
        if centres.ndim != 2 or centres.shape[0] != K:
            raise ParameterError(
                parameter="centres", value=f"shape {centres.shape}", rule=f"must be (K, n), K={K}"
            )
        n = centres.shape[1]
        curvature = check_vector("curvature", self.curvature, shape=(K, n, n))
        if not np.allclose(curvature, curvature.transpose(0, 2, 1), rtol=0, atol=1e-12):
            raise ParameterError(
                parameter="curvature", value="non-symmetric A_k", rule="must be symmetric"
            )
        if np.linalg.eigvalsh(curvature).min() <= 0:
            raise ParameterError(
                parameter="curvature", value="A_k with an eigenvalue ≤ 0", rule="must be SPD"
            )
        offsets = check_vector("offsets", self.offsets, shape=(K,))
        noise = np.asarray(self.noise, dtype=np.float64)
        if noise.ndim != 3 or noise.shape[0] != K or noise.shape[2] != n or noise.shape[1] < 1:
            raise ParameterError(
                parameter="noise", value=f"shape {noise.shape}", rule=f"must be (K, S, n={n})"
            )
        scale = max(1.0, float(np.abs(noise).max()))
        if np.abs(noise.mean(axis=1)).max() > 1e-12 * scale:
            raise ParameterError(
                parameter="noise", value="rows with non-zero mean", rule="must be centred"
            )
        object.__setattr__(
            self, "centres", readonly(check_vector("centres", centres, shape=(K, n)))
        )
        object.__setattr__(self, "curvature", readonly(curvature))
        object.__setattr__(self, "offsets", readonly(offsets))
        object.__setattr__(self, "noise", readonly(noise))

    # protocol layout -----------------------------------------------------------------

    @property
    def num_clients(self) -> int:
        """K."""
        return self.groups.num_clients

    @property
    def dimension(self) -> int:
        """n."""
        return int(self.centres.shape[1])

    @property
    def client_weights(self) -> np.ndarray:
        """p, the data shares."""
        return self.groups.p

    @property
    def noise_variance(self) -> np.ndarray:
        """σ_k² = mean_j ‖z_{k,j}‖², shape (K,), exact (Assumption 2 holds with equality)."""
        return readonly((self.noise**2).sum(axis=2).mean(axis=1))

    def constants(self) -> dict[str, float]:
        """L = max_k λ_max(A_k), μ = min_k λ_min(A_k) (every F_k, hence H for λ ≤ λ_max by D3,
        is L-smooth and μ-strongly convex: Assumption 1), and ``noise_variance_max`` = max σ_k².
        """
        eig = np.linalg.eigvalsh(self.curvature)
        return {
            "smoothness": float(eig.max()),
            "strong_convexity": float(eig.min()),
            "noise_variance_max": float(self.noise_variance.max()),
        }

    def gamma_max(self, lam: float, h_star: float) -> float:
        """Theorem 3.7's heterogeneity Γ_max over every multiplier c_k GIFAIR-FL can give client k.

        Γ_max = Σ_k p_k max_{c ∈ [1 − ρ_k, 1 + ρ_k]} ``|H* − c·b_k|`` with
        ρ_k = λ(d − 1)/(p_k|𝒜_{s_k}|) (F_k* = b_k here): the worst case of the repaired bound
        (guide §3).
        """
        groups = self.groups
        p, b = groups.p, np.asarray(self.offsets)
        reach = lam * (groups.num_groups - 1) / (p * groups.client_group_sizes)
        worst = np.maximum(np.abs(h_star - (1 + reach) * b), np.abs(h_star - (1 - reach) * b))
        return float(p @ worst)

    # oracles -------------------------------------------------------------------------

    def _theta(self, theta: Any) -> np.ndarray:
        return check_vector("theta", theta, shape=(self.dimension,))

    def client_values(self, theta: Any) -> np.ndarray:
        """F_k(θ) for every client, shape (K,)."""
        diff = self._theta(theta)[None, :] - self.centres
        return np.asarray(
            0.5 * np.einsum("ki,kij,kj->k", diff, self.curvature, diff) + self.offsets
        )

    def client_gradients(self, theta: Any) -> np.ndarray:
        """∇F_k(θ) = A_k(θ − c_k), shape (K, n)."""
        diff = self._theta(theta)[None, :] - self.centres
        return np.asarray(np.einsum("kij,kj->ki", self.curvature, diff))

    def client_value(self, client: int, w: Any) -> float:
        """F_k(w)."""
        k = _check_client(client, self.num_clients)
        diff = self._theta(w) - self.centres[k]
        return float(0.5 * diff @ self.curvature[k] @ diff + self.offsets[k])

    def client_gradient(self, client: int, w: Any) -> np.ndarray:
        """∇F_k(w)."""
        k = _check_client(client, self.num_clients)
        return np.asarray(self.curvature[k] @ (self._theta(w) - self.centres[k]))

    def global_value(self, w: Any) -> float:
        """F(w) = Σ_k p_k F_k(w) (FedAvg's objective, λ = 0)."""
        return float(self.client_values(w) @ self.groups.p)

    def global_gradient(self, w: Any) -> np.ndarray:
        """∇F(w)."""
        return np.asarray(self.groups.p @ self.client_gradients(w))

    def weighted_hessian(self, theta: Any, client_weights: Any) -> np.ndarray:
        """∇²(Σ_k w_k F_k) = Σ_k w_k A_k (θ is ignored: the Hessians are constant)."""
        w = np.asarray(client_weights, dtype=np.float64)
        return np.asarray(np.einsum("k,kij->ij", w, self.curvature))

    def global_optimum(self) -> np.ndarray:
        """argmin Σ p F = (Σ p_k A_k)^{-1} Σ p_k A_k c_k (guide V5)."""
        p = self.groups.p
        A = np.einsum("k,kij->ij", p, self.curvature)
        b = np.einsum("k,kij,kj->i", p, self.curvature, self.centres)
        return np.asarray(np.linalg.solve(A, b))

    def client_optima(self) -> np.ndarray:
        """c_k, shape (K, n)."""
        return np.array(self.centres)


def grouped_quadratics(
    group_sizes: Any = (3, 3, 3),
    dimension: int = 4,
    *,
    eigen_range: tuple[float, float] = (1.0, 4.0),
    group_centres: Any = None,
    spread: float = 0.25,
    sample_range: tuple[int, int] = (20, 99),
    offset_range: tuple[float, float] = (0.0, 0.0),
    noise: float = 1.0,
    noise_rows: int = 4096,
    seed: Seed = 0,
) -> GroupedQuadratics:
    """The grouped quadratic instance of guide §7 (defaults) or a variant of it.

    Client k of group i gets A_k = diag(a), a_j ~ U(eigen_range); c_k = u_i + N(0, spread²·I)
    with the group centre u_i; N_k ~ U{sample_range} (inclusive) and p_k = N_k/ΣN; b_k ~
    U(offset_range); S = ``noise_rows`` Gaussian rows, centred and rescaled so that σ_k² = σ²
    exactly for every client (σ = ``noise``; σ = 0 gives zero rows).

    The algorithms draw the rows without replacement, pass after pass, so within one pass of S
    draws the noise sums to exactly 0 (random reshuffling, which converges faster than the
    independent noise of Assumption 2). The default S = 4096 keeps a pass longer than the runs
    of the checks (one draw per local step); a claim that runs longer must raise it.

    Parameters
    ----------
    group_sizes
        ``|𝒜_i|`` for i = 0..d−1 (clients are labelled group by group).
    dimension
        n.
    group_centres
        u_i, shape (d, n). Default: guide §7's (0,0,0,0), (3,0,1,0), (0,4,0,1) when d = 3 and
        n = 4, otherwise drawn N(0, 4·I) from the seed.
    seed
        The seed (independent streams for sizes, centres, curvature, offsets and noise).

    Examples
    --------
    >>> problem = grouped_quadratics(seed=0)
    >>> problem.num_clients, problem.dimension, problem.groups.num_groups
    (9, 4, 3)
    """
    sizes = np.asarray(group_sizes)
    if sizes.ndim != 1 or sizes.size < 2 or not np.issubdtype(sizes.dtype, np.integer):
        raise ParameterError(
            parameter="group_sizes", value=group_sizes, rule="must list d ≥ 2 integer sizes"
        )
    if sizes.min() < 1:
        raise ParameterError(parameter="group_sizes", value=group_sizes, rule="sizes must be ≥ 1")
    n = check_int("dimension", dimension, minimum=1)
    lo = check_real("eigen_range[0]", eigen_range[0], positive=True)
    hi = check_real("eigen_range[1]", eigen_range[1], positive=True)
    if hi < lo:
        raise ParameterError(parameter="eigen_range", value=eigen_range, rule="needs lo ≤ hi")
    spread = check_real("spread", spread, nonnegative=True)
    sigma = check_real("noise", noise, nonnegative=True)
    S = check_int("noise_rows", noise_rows, minimum=2 if sigma > 0 else 1)
    n_lo = check_int("sample_range[0]", sample_range[0], minimum=1)
    n_hi = check_int("sample_range[1]", sample_range[1], minimum=n_lo)
    b_lo = check_real("offset_range[0]", offset_range[0])
    b_hi = check_real("offset_range[1]", offset_range[1])
    d = int(sizes.size)
    labels = np.repeat(np.arange(d), sizes)
    K = labels.size
    streams = [np.random.default_rng(s) for s in seed_sequence(seed).spawn(5)]
    if group_centres is None:
        if d == 3 and n == 4:
            centres_g = np.array(GUIDE_GROUP_CENTRES)
        else:
            centres_g = 2.0 * streams[1].standard_normal((d, n))
    else:
        centres_g = check_vector("group_centres", group_centres, shape=(d, n))
    counts = streams[0].integers(n_lo, n_hi + 1, size=K)
    centres = centres_g[labels] + spread * streams[1].standard_normal((K, n))
    diag = streams[2].uniform(lo, hi, size=(K, n))
    curvature = np.einsum("ki,ij->kij", diag, np.eye(n))
    offsets = streams[3].uniform(b_lo, b_hi, size=K) if b_hi > b_lo else np.full(K, b_lo)
    z = streams[4].standard_normal((K, S, n))
    z -= z.mean(axis=1, keepdims=True)
    if sigma > 0:
        z *= sigma / np.sqrt((z**2).sum(axis=2).mean(axis=1))[:, None, None]
    else:
        z[:] = 0.0
    return GroupedQuadratics(
        GroupStructure.from_counts(labels, counts), curvature, centres, offsets, z
    )


# ============================================================================== classification


def _softmax_scores(features: np.ndarray, theta: np.ndarray, classes: int) -> np.ndarray:
    W = theta.reshape(classes, -1)
    return np.asarray(features @ W.T)


@dataclass(frozen=True)
class GroupedClassification:
    """Ridge-regularised logistic or softmax regression over grouped clients.

    F_k(θ) = (1/n_k) Σ_{j<n_k} ℓ(θ; x_{k,j}, y_{k,j}) + (ρ/2)‖θ‖² + ν Σ_i θ_i²/(1 + θ_i²), with
    ℓ = log(1 + e^{−y xᵀθ}) (``"logistic"``, y = ±1, θ ∈ ℝ^p) or the softmax cross-entropy
    log Σ_c e^{w_cᵀx} − w_yᵀx (``"softmax"``, y ∈ {0..C−1}, θ = (w_0, …, w_{C−1}) flattened
    row-major, ``θ.reshape(C, p)``). Rows j ≥ n_k of the padded arrays are ignored.

    Constants (Assumption 1): μ = ρ; L = ρ + max_k λ_max(X_kᵀX_k/n_k)/4 (logistic: ℓ'' ≤ ¼),
    L = ρ + max_k λ_max(X_kᵀX_k/n_k)/2 (softmax: the Hessian is Σ (diag(s) − ssᵀ) ⊗ xxᵀ/n and
    ‖diag(s) − ssᵀ‖₂ ≤ ½ for every probability vector s) — valid upper bounds, not tight.

    The non-convex regulariser ν Σ_i θ_i²/(1 + θ_i²) (ν = ``nonconvex`` ≥ 0, default 0; guide §5
    V14, the smooth non-convex case of Theorems 3.11/8.6, Assumption A1′) has the diagonal
    Hessian ν(2 − 6θ_i²)/(1 + θ_i²)³ ∈ [−ν/2, 2ν]: it adds 2ν to L, and the certified curvature
    lower bound is ρ − ν/2, reported as μ when positive and as 0 (no strong convexity certified)
    otherwise — then F_k may be non-convex and :meth:`minimise` refuses.

    Parameters
    ----------
    groups
        The group structure.
    loss
        ``"logistic"`` or ``"softmax"``.
    features, labels, counts
        Training data: (K, n_max, p), (K, n_max) and (K,) with 1 ≤ n_k ≤ n_max. Labels are
        float ±1 (logistic) or integers in [0, C) (softmax).
    classes
        C (2 for logistic).
    ridge
        ρ > 0.
    test_features, test_labels, test_counts
        The held-out split in the same layout.
    nonconvex
        ν ≥ 0, the weight of the non-convex regulariser (0: the convex problem).
    """

    groups: GroupStructure
    loss: Loss
    features: np.ndarray
    labels: np.ndarray
    counts: np.ndarray
    classes: int
    ridge: float
    test_features: np.ndarray
    test_labels: np.ndarray
    test_counts: np.ndarray
    nonconvex: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.groups, GroupStructure):
            raise ParameterError(
                parameter="groups",
                value=type(self.groups).__name__,
                rule="must be a GroupStructure",
            )
        if self.loss not in ("logistic", "softmax"):
            raise ParameterError(
                parameter="loss", value=self.loss, rule="must be 'logistic' or 'softmax'"
            )
        K = self.groups.num_clients
        C = check_int("classes", self.classes, minimum=2)
        if self.loss == "logistic" and C != 2:
            raise ParameterError(parameter="classes", value=C, rule="logistic needs C = 2")
        object.__setattr__(self, "ridge", check_real("ridge", self.ridge, positive=True))
        object.__setattr__(
            self, "nonconvex", check_real("nonconvex", self.nonconvex, nonnegative=True)
        )
        for prefix in ("", "test_"):
            X = np.asarray(getattr(self, prefix + "features"), dtype=np.float64)
            if X.ndim != 3 or X.shape[0] != K:
                raise ParameterError(
                    parameter=prefix + "features",
                    value=f"shape {X.shape}",
                    rule=f"must be (K, n_max, p) with K = {K}",
                )
            counts = np.asarray(getattr(self, prefix + "counts"))
            if (
                counts.shape != (K,)
                or not np.issubdtype(counts.dtype, np.integer)
                or counts.min() < 1
                or counts.max() > X.shape[1]
            ):
                raise ParameterError(
                    parameter=prefix + "counts",
                    value=counts.tolist(),
                    rule=f"must be K integers in [1, n_max = {X.shape[1]}]",
                )
            X = check_vector(prefix + "features", X, shape=X.shape)
            y = np.asarray(getattr(self, prefix + "labels"))
            if y.shape != X.shape[:2]:
                raise ParameterError(
                    parameter=prefix + "labels", value=f"shape {y.shape}", rule="must be (K, n_max)"
                )
            mask = np.arange(X.shape[1])[None, :] < counts[:, None]
            if self.loss == "logistic":
                y = y.astype(np.float64)
                ok = bool(np.all(np.abs(y[mask]) == 1.0))
                rule = "logistic labels must be ±1"
            else:
                ok = np.issubdtype(y.dtype, np.integer) and bool(
                    np.all((y[mask] >= 0) & (y[mask] < C))
                )
                y = y.astype(np.int64)
                rule = f"softmax labels must be integers in [0, {C})"
            if not ok:
                raise ParameterError(parameter=prefix + "labels", value="labels", rule=rule)
            object.__setattr__(self, prefix + "features", readonly(X))
            object.__setattr__(self, prefix + "labels", readonly(y, None))
            object.__setattr__(self, prefix + "counts", readonly(counts, np.int64))
        if self.test_features.shape[2] != self.features.shape[2]:
            raise ParameterError(
                parameter="test_features",
                value=f"shape {self.test_features.shape}",
                rule="must have as many features as the training split",
            )

    # layout --------------------------------------------------------------------------

    @property
    def num_clients(self) -> int:
        """K."""
        return self.groups.num_clients

    @property
    def num_features(self) -> int:
        """p, the number of features (with the constant column, when a generator adds one)."""
        return int(self.features.shape[2])

    @property
    def dimension(self) -> int:
        """p (logistic) or C·p (softmax)."""
        return self.num_features * (1 if self.loss == "logistic" else self.classes)

    @property
    def client_weights(self) -> np.ndarray:
        """p, the data shares."""
        return self.groups.p

    def mask(self, split: str = "train") -> np.ndarray:
        """1{j < n_k}, shape (K, n_max): the real rows of the padded arrays."""
        counts = self._split(split)[2]
        return np.asarray(np.arange(self._split(split)[0].shape[1])[None, :] < counts[:, None])

    def _split(self, split: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if split == "train":
            return self.features, self.labels, self.counts
        if split == "test":
            return self.test_features, self.test_labels, self.test_counts
        raise ParameterError(parameter="split", value=split, rule="must be 'train' or 'test'")

    def constants(self) -> dict[str, float]:
        """L = ρ + 2ν + c·max_k λ_max(X_kᵀX_k/n_k), c = ¼ or ½, and μ = max(ρ − ν/2, 0)
        (class doc; μ = ρ without the non-convex regulariser, 0 when none is certified)."""
        X = np.where(self.mask()[:, :, None], self.features, 0.0)
        gram = np.einsum("kji,kjl->kil", X, X) / self.counts[:, None, None]
        top = float(np.linalg.eigvalsh(gram).max())
        factor = 0.25 if self.loss == "logistic" else 0.5
        return {
            "smoothness": self.ridge + 2.0 * self.nonconvex + factor * top,
            "strong_convexity": max(self.ridge - 0.5 * self.nonconvex, 0.0),
        }

    def regulariser(self, theta: Any) -> float:
        """(ρ/2)‖θ‖² + ν Σ_i θ_i²/(1 + θ_i²), the part of every F_k that is not data."""
        theta = self._theta(theta)
        square = theta * theta
        return float(
            0.5 * self.ridge * square.sum() + self.nonconvex * (square / (1 + square)).sum()
        )

    def regulariser_gradient(self, theta: Any) -> np.ndarray:
        """ρθ + ν·2θ_i/(1 + θ_i²)² (elementwise), shape (dimension,)."""
        theta = self._theta(theta)
        return np.asarray(self.ridge * theta + self.nonconvex * 2 * theta / (1 + theta**2) ** 2)

    # oracles -------------------------------------------------------------------------

    def _theta(self, theta: Any) -> np.ndarray:
        return check_vector("theta", theta, shape=(self.dimension,))

    def sample_losses(self, theta: Any, split: str = "train") -> np.ndarray:
        """ℓ(θ; x_{k,j}, y_{k,j}) without the regulariser, shape (K, n_max), 0 on padding rows."""
        theta = self._theta(theta)
        X, y, _ = self._split(split)
        if self.loss == "logistic":
            values = np.logaddexp(0.0, -y * (X @ theta))
        else:
            scores = _softmax_scores(X, theta, self.classes)
            picked = np.take_along_axis(scores, y[:, :, None], axis=2)[:, :, 0]
            values = special.logsumexp(scores, axis=2) - picked
        return np.asarray(np.where(self.mask(split), values, 0.0))

    def client_values(self, theta: Any, split: str = "train") -> np.ndarray:
        """F_k(θ) (mean loss + regulariser), shape (K,); ``split="test"`` gives the test risks."""
        theta = self._theta(theta)
        counts = self._split(split)[2]
        mean = self.sample_losses(theta, split).sum(axis=1) / counts
        return np.asarray(mean + self.regulariser(theta))

    def client_gradients(self, theta: Any) -> np.ndarray:
        """∇F_k(θ), shape (K, dimension)."""
        theta = self._theta(theta)
        weights = self.mask() / self.counts[:, None]  # (K, n_max)
        X, y = self.features, self.labels
        if self.loss == "logistic":
            coef = -y * special.expit(-y * (X @ theta)) * weights
            grads = np.einsum("kj,kji->ki", coef, X)
        else:
            scores = _softmax_scores(X, theta, self.classes)
            residual = special.softmax(scores, axis=2)
            residual[np.arange(X.shape[0])[:, None], np.arange(X.shape[1])[None, :], y] -= 1.0
            grads = np.einsum("kj,kjc,kji->kci", weights, residual, X).reshape(X.shape[0], -1)
        return np.asarray(grads + self.regulariser_gradient(theta)[None, :])

    def client_value(self, client: int, w: Any) -> float:
        """F_k(w)."""
        return float(self.client_values(w)[_check_client(client, self.num_clients)])

    def client_gradient(self, client: int, w: Any) -> np.ndarray:
        """∇F_k(w)."""
        return np.asarray(self.client_gradients(w)[_check_client(client, self.num_clients)])

    def global_value(self, w: Any) -> float:
        """F(w) = Σ_k p_k F_k(w)."""
        return float(self.client_values(w) @ self.groups.p)

    def global_gradient(self, w: Any) -> np.ndarray:
        """∇F(w)."""
        return np.asarray(self.groups.p @ self.client_gradients(w))

    def accuracy(self, theta: Any, split: str = "test") -> np.ndarray:
        """Per-client accuracy of the predictor (sign of xᵀθ, or argmax_c w_cᵀx), shape (K,).

        Logistic ties (xᵀθ = 0) count as wrong.
        """
        theta = self._theta(theta)
        X, y, counts = self._split(split)
        if self.loss == "logistic":
            correct = y * (X @ theta) > 0
        else:
            correct = np.argmax(_softmax_scores(X, theta, self.classes), axis=2) == y
        return np.asarray((correct & self.mask(split)).sum(axis=1) / counts)

    # Newton ----------------------------------------------------------------------------

    def weighted_hessian(self, theta: Any, client_weights: Any) -> np.ndarray:
        """∇²(Σ_k w_k F_k)(θ) for client weights w ≥ 0 (shape (dimension, dimension))."""
        theta = self._theta(theta)
        w = np.asarray(client_weights, dtype=np.float64)
        sample_w = (self.mask() / self.counts[:, None]) * w[:, None]
        X = self.features
        total = float(w.sum())
        if self.loss == "logistic":
            m = X @ theta
            s = special.expit(m) * special.expit(-m) * sample_w
            H = np.einsum("kj,kji,kjl->il", s, X, X)
        else:
            C, p = self.classes, self.num_features
            prob = special.softmax(_softmax_scores(X, theta, C), axis=2)
            flatX = X.reshape(-1, p)
            flatS = prob.reshape(-1, C)
            flatW = sample_w.reshape(-1)
            keep = flatW > 0
            flatX, flatS, flatW = flatX[keep], flatS[keep], flatW[keep]
            H = np.zeros((C, p, C, p))
            for c in range(C):
                H[c, :, c, :] = (flatX * (flatW * flatS[:, c])[:, None]).T @ flatX
            V = (np.sqrt(flatW)[:, None, None] * flatS[:, :, None] * flatX[:, None, :]).reshape(
                flatX.shape[0], C * p
            )
            H = H.reshape(C * p, C * p) - V.T @ V
        square = theta * theta
        curvature = self.ridge + self.nonconvex * (2 - 6 * square) / (1 + square) ** 3
        return np.asarray(H + total * np.diag(curvature))

    def minimise(
        self, client_weights: Any, *, start: Any = None, tol: float = 1e-10, max_iter: int = 100
    ) -> np.ndarray:
        """argmin_θ Σ_k w_k F_k(θ) by damped Newton (Armijo), to ‖∇‖ ≤ tol.

        Raises
        ------
        ParameterError
            If the problem is not certified convex (ν ≥ 2ρ: μ = 0, Newton may ascend).
        SolverError
            If the gradient norm is still above ``tol`` after ``max_iter`` steps.
        """
        if self.nonconvex >= 2.0 * self.ridge:
            raise ParameterError(
                parameter="nonconvex",
                value=self.nonconvex,
                rule=f"Newton's minimiser needs a convex objective: ν < 2ρ = {2 * self.ridge:g}",
            )
        w = np.asarray(client_weights, dtype=np.float64)
        if w.shape != (self.num_clients,) or w.min() < 0 or w.sum() <= 0:
            raise ParameterError(
                parameter="client_weights", value=w.tolist(), rule="must be K weights ≥ 0, Σ > 0"
            )
        theta = np.zeros(self.dimension) if start is None else self._theta(start)

        def value(t: np.ndarray) -> float:
            return float(w @ self.client_values(t))

        current = value(theta)
        for _ in range(max_iter):
            grad = w @ self.client_gradients(theta)
            if np.linalg.norm(grad) <= tol:
                return theta
            step = np.linalg.solve(self.weighted_hessian(theta, w), grad)
            decrement = float(grad @ step)
            t = 1.0
            while t > 1e-12:
                trial = theta - t * step
                new = value(trial)
                if new <= current - 1e-4 * t * decrement or (
                    t == 1.0 and abs(new - current) <= 1e-15 * max(1.0, abs(current))
                ):
                    break
                t *= 0.5
            theta, current = trial, new
        grad = w @ self.client_gradients(theta)
        if np.linalg.norm(grad) <= tol:
            return theta
        raise SolverError("newton", f"gradient norm {np.linalg.norm(grad):.3g} > {tol:g}")

    def global_optimum(self) -> np.ndarray:
        """argmin Σ p F (FedAvg's optimum) by Newton to ‖∇‖ ≤ 1e-10."""
        return self.minimise(self.groups.p)

    def client_optima(self) -> np.ndarray:
        """argmin F_k for every client, shape (K, dimension) (Newton, ‖∇F_k‖ ≤ 1e-10)."""
        eye = np.eye(self.num_clients)
        return np.stack([self.minimise(eye[k]) for k in range(self.num_clients)])
