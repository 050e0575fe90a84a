"""Exact oracles: minimizers computed to machine precision, the ground truth of the checks.

The minimax paper's upper bounds are about exact ERMs (Theorems 4 and 6) and the exact FedProx
minimizer of (20) (Prop. 10); :mod:`fedtheory.exact.logistic` computes them for the logistic
instance of Lemma 7 with numpy and scipy only.
"""

from __future__ import annotations

from fedtheory.exact.logistic import (
    ERMInfo,
    FedProxInfo,
    fedprox_logistic,
    logistic_erm,
    logistic_erm_batch,
    logistic_loss_derivatives,
)

__all__ = [
    "ERMInfo",
    "FedProxInfo",
    "fedprox_logistic",
    "logistic_erm",
    "logistic_erm_batch",
    "logistic_loss_derivatives",
]
