"""Numerics of the fzoos paper: Shu, Lin, Dai & Low, *Federated Zeroth-Order Optimization using
Trajectory-Informed Surrogate Gradients* (FZooS).

(Under construction on the fzoos staging branch; the lead fills this docstring and the exports.)
"""

from __future__ import annotations

__all__: list[str] = []
