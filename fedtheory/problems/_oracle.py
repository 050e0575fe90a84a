"""The kernel-level oracle of a finite-sum federated problem (private; DESIGN §3, §4).

Client ``i`` of replicate ``r`` holds ``sample_count(problem, r, i)`` samples; index
``i = num_clients`` denotes the server's own samples (none for most problems). A problem's kernel
view is a subclass of a :class:`typing.NamedTuple` of arrays that names its kernels (the idiom of
:func:`fedtheory._jit.dispatch`):

- ``sample_count(problem, r, i) -> int``: n_i;
- ``max_sample_count(problem) -> int``: the largest n_i (for per-client buffers);
- ``sample_gradient(problem, r, i, j, w, out)``: ∇ℓ(w; z_ij) into ``out``;
- ``minibatch_step(problem, r, i, rows, w, anchor, eta, lam, scratch)`` (optional):
  w ← w − η(ĝ_B(w) + λ(w − anchor)) in place, ĝ_B the mean of the sample gradients of ``rows``;
  ``scratch`` is a float64 buffer of at least ``len(rows)`` entries. Problems without a fast
  path get :func:`_minibatch_step_by_samples`, written with ``sample_gradient``.

The round loop's client steps call these generic functions; the views live with the problems
(:mod:`fedtheory.problems._linear_samples` for :class:`~fedtheory.problems.FederatedDataset`,
and in the paper packages for their own problems).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory._jit import dispatch, njit

__all__ = ["max_sample_count", "minibatch_step", "sample_count", "sample_gradient"]


@njit
def _minibatch_step_by_samples(
    problem: tuple[Any, ...],
    r: int,
    i: int,
    rows: np.ndarray,
    w: np.ndarray,
    anchor: np.ndarray,
    eta: float,
    lam: float,
    scratch: np.ndarray,
) -> None:
    """The generic minibatch step: mean of ``sample_gradient`` over ``rows``, then the step."""
    d = w.shape[0]
    gradient = np.zeros(d)
    one = np.empty(d)
    for s in range(rows.shape[0]):
        sample_gradient(problem, r, i, rows[s], w, one)
        for k in range(d):
            gradient[k] += one[k]
    scale = 1.0 / rows.shape[0]
    for k in range(d):
        w[k] -= eta * (scale * gradient[k] + lam * (w[k] - anchor[k]))


sample_count = dispatch("sample_count")
max_sample_count = dispatch("max_sample_count")
sample_gradient = dispatch("sample_gradient")
minibatch_step = dispatch("minibatch_step", default=_minibatch_step_by_samples)
