"""The group structure of GIFAIR-FL and its reweighting (Lemma 3.2; guide §1, D1–D4).

Yue, Nouiehed & Al Kontar, *GIFAIR-FL: a framework for group and individual fairness in
federated learning*. K clients carry group labels s_k ∈ {0, …, d−1} and data shares p_k. With
the group losses L_i = (1/``|𝒜_i|``) Σ_{k∈𝒜_i} F_k (an *unweighted* mean over the group's
clients), ::

    R = Σ_{i<j} |L_i − L_j|,        H = Σ_k p_k F_k + λ R            (eq. (1)),

and Lemma 3.2 rewrites H as a reweighted FedAvg objective H = Σ_k q_k F_k (eq. (2)) with ::

    r_k = Σ_{j≠s_k} sign(L_{s_k} − L_j)  (sign(0) = 0),   q_k = p_k + λ r_k/|𝒜_{s_k}|,
    c_k = q_k/p_k                                                     (Alg. 2's multiplier).

The derived facts of guide §1 that :class:`GroupStructure` makes computable:

- D1: Σ_k q_k = 1 for every λ, ties included; D2: q_k ∈ [0, 2p_k] when λ ≤ λ_max, where
  λ_max = min_k p_k|𝒜_{s_k}|/(d − 1), and the appendix constant ε = 1 − (d−1)λ/min_k p_k|𝒜_{s_k}|
  equals 1 − λ/λ_max;
- D3: H(θ) = max over the zonotope Z_λ = p + λ Σ_{i<j} [−1, 1]·g_ij of Σ_k q_k F_k, with the
  generators g_ij = 1_{𝒜_i}/``|𝒜_i|`` − 1_{𝒜_j}/``|𝒜_j|``
  (:meth:`GroupStructure.zonotope_generators`; the LP is
  :func:`fedtheory.papers.gifair.exact.zonotope_max`);
- D4: R = Σ_m (d − 2m + 1) L_(m) = −(d−1) Σ_i L_i + 2 Σ_{j<d} sum_largest(L, j).

Errata kept as functions: the main text's individual-fairness objective Σ_k (1 + λr_k/p_k) F_k
(:meth:`GroupStructure.printed_individual_weights`; the correct form is Σ_k (p_k + λr_k) F_k),
and Example 3.3's weights (:func:`example_3_3`), which are correct.

Every method takes client losses of shape (..., K) and broadcasts over the leading axes. Group
losses are computed as a sum followed by one division, so that groups whose client losses have
equal sums and sizes tie *exactly* (no rounding breaks a tie that holds in exact arithmetic).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from fedtheory._arrays import readonly
from fedtheory._checks import check_real
from fedtheory.errors import ParameterError

__all__ = ["Example33", "GroupStructure", "example_3_3"]


def _check_labels(labels: Any) -> np.ndarray:
    array = np.asarray(labels)
    if array.ndim != 1:
        raise ParameterError(
            parameter="labels", value=f"array of shape {array.shape}", rule="must be 1-D (K,)"
        )
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise ParameterError(
            parameter="labels", value=array.dtype, rule="must hold integer group labels"
        )
    array = array.astype(np.int64)
    if array.size < 2:
        raise ParameterError(parameter="labels", value=array.tolist(), rule="needs K ≥ 2 clients")
    if array.min() < 0:
        raise ParameterError(
            parameter="labels", value=array.tolist(), rule="group labels must lie in [0, d)"
        )
    d = int(array.max()) + 1
    if d < 2:
        raise ParameterError(
            parameter="labels", value=array.tolist(), rule="needs d ≥ 2 groups (labels 0 and 1)"
        )
    sizes = np.bincount(array, minlength=d)
    if (sizes == 0).any():
        empty = np.flatnonzero(sizes == 0).tolist()
        raise ParameterError(
            parameter="labels",
            value=array.tolist(),
            rule=f"every group 0..{d - 1} must be non-empty; groups {empty} have no client",
        )
    return array


def _check_p(p: Any, K: int) -> np.ndarray:
    try:
        array = np.array(p, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParameterError(
            parameter="p", value=p, rule="must be an array of real numbers"
        ) from None
    if array.shape != (K,):
        raise ParameterError(
            parameter="p", value=f"array of shape {array.shape}", rule=f"must have shape ({K},)"
        )
    if not np.isfinite(array).all() or array.min() < 0:
        raise ParameterError(
            parameter="p", value=array.tolist(), rule="must be finite and non-negative"
        )
    if abs(array.sum() - 1.0) > 1e-12 * K:
        raise ParameterError(
            parameter="p",
            value=f"vector with sum {array.sum():.17g}",
            rule=f"must sum to 1 within 1e-12·K = {1e-12 * K:.3g}",
        )
    return array


@dataclass(frozen=True)
class GroupStructure:
    """K clients in d groups with data shares p (guide §1, the notation table).

    Parameters
    ----------
    labels
        s, shape (K,): client k's group s_k ∈ {0, …, d−1}; every group must be non-empty, so d is
        ``labels.max() + 1``.
    p
        Shape (K,): the data shares p_k = N_k/Σ_j N_j (FedAvg's weights), a probability vector
        (sum 1 within 1e-12·K).

    Raises
    ------
    ParameterError
        If K < 2, d < 2, a group is empty, a label is negative or not an integer, or p is not a
        probability vector of length K.

    Examples
    --------
    >>> g = GroupStructure.from_counts([0, 0, 1], [10, 30, 60])
    >>> g.num_groups, g.group_sizes.tolist(), round(g.lambda_max, 3)
    (2, [2, 1], 0.2)
    """

    labels: np.ndarray
    p: np.ndarray

    def __post_init__(self) -> None:
        labels = _check_labels(self.labels)
        p = _check_p(self.p, labels.size)
        object.__setattr__(self, "labels", readonly(labels, np.int64))
        object.__setattr__(self, "p", readonly(p))

    # ------------------------------------------------------------------ constructors

    @classmethod
    def from_counts(cls, labels: Any, sample_counts: Any) -> GroupStructure:
        """The structure with p_k = N_k/Σ_j N_j (guide §1).

        Raises
        ------
        ParameterError
            If a count is not a positive integer, or the labels are invalid.
        """
        counts = np.asarray(sample_counts)
        if counts.ndim != 1 or not np.issubdtype(counts.dtype, np.integer) or counts.min() < 1:
            raise ParameterError(
                parameter="sample_counts",
                value=counts.tolist(),
                rule="must be a 1-D array of positive integers N_k",
            )
        counts = counts.astype(np.float64)
        return cls(labels, counts / counts.sum())

    @classmethod
    def individual(cls, p: Any) -> GroupStructure:
        """Individual fairness: every client its own group (d = K, ``|𝒜_k|`` = 1; guide §2.2)."""
        size = np.asarray(p).shape[0] if np.ndim(p) == 1 else 0
        return cls(np.arange(size), p)

    # ------------------------------------------------------------------ layout

    @property
    def num_clients(self) -> int:
        """K."""
        return int(self.labels.size)

    @property
    def num_groups(self) -> int:
        """d."""
        return int(self.labels.max()) + 1

    @property
    def group_sizes(self) -> np.ndarray:
        """``|𝒜_i|``, shape (d,)."""
        return readonly(np.bincount(self.labels, minlength=self.num_groups), np.int64)

    @property
    def client_group_sizes(self) -> np.ndarray:
        """``|𝒜_{s_k}|``, shape (K,)."""
        return readonly(self.group_sizes[self.labels], np.int64)

    @property
    def group_weights(self) -> np.ndarray:
        """P_i = Σ_{k∈𝒜_i} p_k, shape (d,) (D2: a group's total weight is P_i + λ r_i)."""
        return readonly(np.bincount(self.labels, weights=self.p, minlength=self.num_groups))

    @property
    def membership(self) -> np.ndarray:
        """The 0/1 matrix 1{s_k = i}, shape (K, d)."""
        return readonly(self.labels[:, None] == np.arange(self.num_groups)[None, :])

    # ------------------------------------------------------------------ λ range

    @property
    def lambda_max(self) -> float:
        """λ_max = min_k p_k|𝒜_{s_k}|/(d − 1): below it every q_k ≥ 0 (guide §1, D2)."""
        return float(np.min(self.p * self.client_group_sizes) / (self.num_groups - 1))

    def epsilon(self, lam: float) -> float:
        """The appendix constant ε = 1 − (d−1)λ/min_k p_k|𝒜_{s_k}| (§8.3), = 1 − λ/λ_max.

        Computed in the appendix form; guide §1 ([derived]) shows it equals 1 − λ/λ_max.
        """
        lam = check_real("lam", lam, nonnegative=True)
        return 1.0 - (self.num_groups - 1) * lam / float(np.min(self.p * self.client_group_sizes))

    def check_lambda(self, lam: Any, *, strict: bool = True) -> float:
        """Return λ as a float after checking 0 ≤ λ < λ_max (``strict``) or 0 ≤ λ ≤ λ_max.

        Alg. 2 takes λ ∈ [0, λ_max); the objective (1) stays convex up to λ_max included (D3).

        Raises
        ------
        ParameterError
            If λ is negative or not below (not at most, non-strict) λ_max; the rule states λ_max.
        """
        value = check_real("lam", lam)
        bound = self.lambda_max
        inside = value < bound if strict else value <= bound
        if value < 0 or not inside:
            relation = "<" if strict else "≤"
            raise ParameterError(
                parameter="lam",
                value=value,
                rule=f"GIFAIR-FL needs 0 ≤ λ {relation} λ_max = min_k p_k|A_(s_k)|/(d−1) = "
                f"{bound:.6g} for these groups (Lemma 3.2)",
            )
        return value

    # ------------------------------------------------------------------ losses and ranks

    def _losses(self, client_losses: Any) -> np.ndarray:
        array = np.asarray(client_losses, dtype=np.float64)
        if array.ndim < 1 or array.shape[-1] != self.num_clients:
            raise ParameterError(
                parameter="client_losses",
                value=f"array of shape {array.shape}",
                rule=f"must have shape (..., K) with K = {self.num_clients}",
            )
        return array

    def group_losses(self, client_losses: Any) -> np.ndarray:
        """L_i = (1/``|𝒜_i|``) Σ_{k∈𝒜_i} F_k, shape (..., d) (guide §1; unweighted in groups)."""
        losses = self._losses(client_losses)
        sums = losses @ self.membership.astype(np.float64)
        return np.asarray(sums / self.group_sizes)

    def spread(self, client_losses: Any) -> np.ndarray | float:
        """R = Σ_{i<j} ``|L_i − L_j|`` (eq. (1)), shape (...)."""
        L = self.group_losses(client_losses)
        i, j = np.triu_indices(self.num_groups, 1)
        return np.abs(L[..., i] - L[..., j]).sum(axis=-1)  # type: ignore[no-any-return]

    def group_ranks(self, client_losses: Any) -> np.ndarray:
        """r_i = Σ_{j≠i} sign(L_i − L_j) with sign(0) = 0, shape (..., d), integers."""
        L = self.group_losses(client_losses)
        signs = np.sign(L[..., :, None] - L[..., None, :])
        return np.asarray(signs.sum(axis=-1).astype(np.int64))

    def ranks(self, client_losses: Any) -> np.ndarray:
        """r_k = r_{s_k}, shape (..., K): the signed rank of client k's group (guide §1)."""
        return np.asarray(self.group_ranks(client_losses)[..., self.labels])

    def weights(self, lam: float, client_losses: Any) -> np.ndarray:
        """q_k = p_k + λ r_k/``|𝒜_{s_k}|``, shape (..., K) (Lemma 3.2, eq. (2)).

        Defined for every λ ≥ 0 (D1 holds for all λ); q ≥ 0 for every sign pattern iff
        λ ≤ λ_max (D2).
        """
        lam = check_real("lam", lam, nonnegative=True)
        return np.asarray(self.p + lam * self.ranks(client_losses) / self.client_group_sizes)

    def multipliers(self, lam: float, client_losses: Any) -> np.ndarray:
        """c_k = q_k/p_k = 1 + λ r_k/(p_k|𝒜_{s_k}|), shape (..., K) (Alg. 2, red text).

        Raises
        ------
        ParameterError
            If some p_k = 0 (the multiplier is undefined there).
        """
        if (self.p == 0).any():
            raise ParameterError(
                parameter="p", value=self.p.tolist(), rule="c_k = q_k/p_k needs every p_k > 0"
            )
        lam = check_real("lam", lam, nonnegative=True)
        return np.asarray(
            1.0 + lam * self.ranks(client_losses) / (self.p * self.client_group_sizes)
        )

    def objective(self, lam: float, client_losses: Any) -> np.ndarray | float:
        """H = Σ_k p_k F_k + λ R, the definition (eq. (1)), shape (...)."""
        lam = check_real("lam", lam, nonnegative=True)
        losses = self._losses(client_losses)
        return losses @ self.p + lam * self.spread(losses)  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ D3 and D4

    @property
    def pairs(self) -> np.ndarray:
        """The group pairs (i, j), i < j, shape (d(d−1)/2, 2), in the order of the generators."""
        i, j = np.triu_indices(self.num_groups, 1)
        return readonly(np.stack([i, j], axis=1), np.int64)

    def zonotope_generators(self) -> np.ndarray:
        """g_ij = 1_{𝒜_i}/``|𝒜_i|`` − 1_{𝒜_j}/``|𝒜_j|``, shape (d(d−1)/2, K) (D3).

        Z_λ = p + λ Σ_{i<j} [−1, 1]·g_ij, and H(θ) = max_{q∈Z_λ} Σ_k q_k F_k(θ)
        = pᵀF + λ Σ_{i<j} ``|g_ijᵀF|``.
        """
        scaled = self.membership / self.group_sizes  # (K, d)
        pairs = self.pairs
        return readonly((scaled[:, pairs[:, 0]] - scaled[:, pairs[:, 1]]).T)

    def zonotope_support(self, lam: float, client_losses: Any) -> np.ndarray | float:
        """max_{q∈Z_λ} qᵀF in closed form, pᵀF + λ Σ_{i<j} ``|g_ijᵀF|`` (D3), shape (...)."""
        lam = check_real("lam", lam, nonnegative=True)
        losses = self._losses(client_losses)
        gen = self.zonotope_generators()
        return losses @ self.p + lam * np.abs(losses @ gen.T).sum(axis=-1)  # type: ignore[no-any-return]

    def ordered_spread(self, client_losses: Any) -> np.ndarray | float:
        """R in the ordered-weight form Σ_m (d − 2m + 1) L_(m), L_(1) ≥ … ≥ L_(d) (D4)."""
        L = np.sort(self.group_losses(client_losses), axis=-1)[..., ::-1]
        d = self.num_groups
        coefficients = d - 2 * np.arange(1, d + 1) + 1
        return L @ coefficients.astype(np.float64)

    def sum_largest_spread(self, client_losses: Any) -> np.ndarray | float:
        """R = −(d−1) Σ_i L_i + 2 Σ_{j=1}^{d−1} sum_largest(L, j) (D4; the cvxpy form)."""
        L = np.sort(self.group_losses(client_losses), axis=-1)[..., ::-1]
        d = self.num_groups
        partial = np.cumsum(L, axis=-1)[..., : d - 1]
        return -(d - 1) * L.sum(axis=-1) + 2 * partial.sum(axis=-1)  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ erratum

    def printed_individual_weights(self, lam: float, client_losses: Any) -> np.ndarray:
        """The main text's individual-fairness weights 1 + λ r_k/p_k (an erratum; guide §6.10).

        The main text writes H = Σ_k (1 + λ r_k/p_k) F_k for d = K; Lemma 3.2 gives
        H = Σ_k (p_k + λ r_k) F_k = Σ_k p_k (1 + λ r_k/p_k) F_k. The printed form drops the
        factor p_k and is *not* equal to H (the tests assert the difference).

        Raises
        ------
        ParameterError
            If the structure is not individual (d ≠ K) or some p_k = 0.
        """
        if self.num_groups != self.num_clients:
            raise ParameterError(
                parameter="groups",
                value=f"d={self.num_groups}, K={self.num_clients}",
                rule="the printed individual-fairness formula is for d = K",
            )
        return np.asarray(self.multipliers(lam, client_losses))


class Example33(NamedTuple):
    """Example 3.3: the structure, losses with L_1 > L_2 > L_3 > L_4, and the printed weights."""

    groups: GroupStructure
    client_losses: np.ndarray
    weights: np.ndarray


def example_3_3(lam: float, p: Any = None) -> Example33:
    """Example 3.3: 4 groups of 10 clients with L_1 > L_2 > L_3 > L_4 (guide §3, Lemma 3.2).

    The paper's weights are p_k(1 + 3λ/(10p_k)), p_k(1 + λ/(10p_k)), p_k(1 − λ/(10p_k)) and
    p_k(1 − 3λ/(10p_k)) for groups 1 to 4; they are returned as printed (coefficients
    3, 1, −1, −3) so that a test can compare them with :meth:`GroupStructure.weights`.

    Parameters
    ----------
    lam
        λ ≥ 0.
    p
        Data shares, shape (40,); uniform by default. Client k is in group ⌊k/10⌋.
    """
    lam = check_real("lam", lam, nonnegative=True)
    labels = np.repeat(np.arange(4), 10)
    shares = np.full(40, 1 / 40) if p is None else p
    groups = GroupStructure(labels, shares)
    losses = (4.0 - labels).astype(np.float64)  # group 0 (the paper's group 1) is the worst
    coefficient = np.array([3.0, 1.0, -1.0, -3.0])[labels]
    printed = groups.p * (1 + coefficient * lam / (10 * groups.p))
    return Example33(groups, readonly(losses), readonly(printed))
