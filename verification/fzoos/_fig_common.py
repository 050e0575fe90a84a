"""Helpers shared by the experiment-level claim files of FZooS (guide §5 E, checks 28–32).

Private (the leading underscore keeps claim discovery out of it); imported by
``verification/fzoos/experiments.py`` (Figs. 1, 4) and ``verification/fzoos/ablations.py``
(Figs. 5, 6, Theorem 2's structure).

Rule (guide §5 check 28): rounds-to-threshold is the first r with
F(x_r) − F* ≤ 10⁻²·(F(x_0) − F*); a run that never reaches it within R rounds is counted as
R + 1 rounds (and R + 1 rounds' worth of queries) — a censored, optimistic value.
"""

from __future__ import annotations

import numpy as np

from fedtheory.papers.fzoos.runs import ZerothOrderRun

#: Threshold of check 28: F − F* ≤ THRESHOLD·(F(x_0) − F*).
THRESHOLD = 1e-2


def to_threshold(run: ZerothOrderRun, optimum: float) -> tuple[float, float, np.ndarray]:
    """Rounds and queries to the threshold (censored at R + 1) and the normalised gap curve."""
    values = np.asarray(run.log.values, dtype=float)
    gap = (values - optimum) / (values[0] - optimum)
    queries = np.concatenate([[0.0], np.cumsum(run.trace.function_queries).astype(float)])
    rounds = len(values) - 1
    hit = np.flatnonzero(gap <= THRESHOLD)
    if hit.size:
        return float(hit[0]), float(queries[hit[0]]), gap
    per_round = queries[-1] / rounds
    return float(rounds + 1), float(per_round * (rounds + 1)), gap


def mean_se(values: list[float]) -> tuple[float, float]:
    """Mean and standard error (ddof = 1; 0 for a single value) of ``values``."""
    array = np.asarray(values, dtype=float)
    se = float(array.std(ddof=1) / np.sqrt(array.size)) if array.size > 1 else 0.0
    return float(array.mean()), se
