"""The kernel-level zeroth-order oracle of the fzoos paper's problems (private; DESIGN §3, §4).

A federated zeroth-order problem (Shu et al., eq. (1)) has N clients with local functions f_i on
ℝ^d (the paper's domain is [0, 1]^d; the problems say whether they need the box) and the global
objective F = (1/N) Σ_i f_i. A client can only *query* y_i(x) = f_i(x) + ζ, ζ ~ N(0, σ²); the
noise is drawn by the client step from its counter-based stream, not by the problem. The exact
gradients are available to the toolkit (never to the algorithms' directions) so that a run can log
the gradient disparity Ξ = ‖ĝ − ∇F(x)‖² of Sec. 3.2 at every local step.

The kernel view of a problem is a subclass of a :class:`typing.NamedTuple` of arrays that names
its kernels (the idiom of :func:`fedtheory._jit.dispatch`):

``zo_value(view, i, x) -> float``
    f_i(x), noiseless (one query is counted by the caller, who adds the noise).
``zo_gradient(view, i, x, out) -> None``
    ∇f_i(x) into ``out`` (shape (d,)); diagnostics only: it is not counted as a query.

F and ∇F are the means over the clients (:func:`global_value`, :func:`global_gradient`). The
Python-level problems offer the same through the core problem protocol
(:mod:`fedtheory.problems.protocol`) and return their view from ``kernel_view()``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory._jit import dispatch, njit

__all__ = ["global_gradient", "global_value", "zo_gradient", "zo_value"]

zo_value = dispatch("zo_value", "i", "x")
zo_gradient = dispatch("zo_gradient", "i", "x", "out")


@njit(inline="always")
def global_value(view: tuple[Any, ...], num_clients: int, x: np.ndarray) -> float:
    """F(x) = (1/N) Σ_i f_i(x)."""
    total = 0.0
    for i in range(num_clients):
        total += zo_value(view, i, x)
    mean: float = total / num_clients
    return mean


@njit
def global_gradient(
    view: tuple[Any, ...], num_clients: int, x: np.ndarray, out: np.ndarray, scratch: np.ndarray
) -> None:
    """∇F(x) = (1/N) Σ_i ∇f_i(x) into ``out``; ``scratch`` is a (d,) buffer."""
    d = x.shape[0]
    for k in range(d):
        out[k] = 0.0
    for i in range(num_clients):
        zo_gradient(view, i, x, scratch)
        for k in range(d):
            out[k] += scratch[k]
    for k in range(d):
        out[k] /= num_clients
