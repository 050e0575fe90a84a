"""The fairness metrics of GIFAIR-FL's tables and Definition 2.1 (guide §1 metrics, §4, V15).

- client accuracies a_k, their mean ā = (1/K) Σ a_k and *population* variance
  Var(a) = (1/K) Σ (a_k − ā)² (Tables 2, 3, 5 report ā and √Var(a));
- group accuracies: the unweighted mean of a_k over each group's clients (as L_i for losses);
- Definition 2.1: model 1 is fairer than model 2 when the variance over the d group
  accuracies is smaller (:func:`group_variance`);
- the discrepancy max − min of the group accuracies (Tables 4 and 6).

Every function takes per-client values of shape (..., K) and reduces the last axis.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory.errors import ParameterError
from fedtheory.papers.gifair.groups import GroupStructure

__all__ = [
    "FairnessSummary",
    "discrepancy",
    "fairness_summary",
    "group_means",
    "group_variance",
    "mean_and_variance",
]


def _values(values: Any, K: int | None = None) -> np.ndarray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim < 1 or array.shape[-1] < 1 or (K is not None and array.shape[-1] != K):
        raise ParameterError(
            parameter="values",
            value=f"array of shape {array.shape}",
            rule="must have shape (..., K)" + (f" with K = {K}" if K else ""),
        )
    return array


def mean_and_variance(values: Any) -> tuple[np.ndarray, np.ndarray]:
    """(ā, Var(a)) over the last axis, Var the population variance (1/K) Σ (a_k − ā)²."""
    array = _values(values)
    mean = array.mean(axis=-1)
    return mean, ((array - mean[..., None]) ** 2).mean(axis=-1)


def group_means(groups: GroupStructure, values: Any) -> np.ndarray:
    """The unweighted mean of the per-client values over each group, shape (..., d)."""
    return groups.group_losses(_values(values, groups.num_clients))


def group_variance(groups: GroupStructure, values: Any) -> np.ndarray:
    """Definition 2.1's fairness measure: the population variance over the d group means."""
    return mean_and_variance(group_means(groups, values))[1]


def discrepancy(groups: GroupStructure, values: Any) -> np.ndarray:
    """max − min of the group means (Tables 4 and 6)."""
    means = group_means(groups, values)
    return np.asarray(means.max(axis=-1) - means.min(axis=-1))


@dataclass(frozen=True)
class FairnessSummary:
    """The tables' numbers for one model: ā, √Var(a), group means, their variance, discrepancy."""

    mean: float
    std: float
    group_means: np.ndarray
    group_variance: float
    discrepancy: float


def fairness_summary(groups: GroupStructure, values: Any) -> FairnessSummary:
    """All the metrics of one vector of per-client values (K,), e.g. test accuracies."""
    array = _values(values, groups.num_clients)
    if array.ndim != 1:
        raise ParameterError(
            parameter="values", value=f"array of shape {array.shape}", rule="must be 1-D (K,)"
        )
    mean, var = mean_and_variance(array)
    return FairnessSummary(
        mean=float(mean),
        std=float(np.sqrt(var)),
        group_means=group_means(groups, array),
        group_variance=float(group_variance(groups, array)),
        discrepancy=float(discrepancy(groups, array)),
    )
