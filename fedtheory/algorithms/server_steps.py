"""Generic server steps of the round loop (DESIGN §3).

A server step is a subclass of a :class:`typing.NamedTuple` of its parameters that names two
kernels, ``server_state`` and ``server_update`` (:mod:`fedtheory.algorithms._round_loop` states
their contract). Each counts the floats it receives (d per uploading client) and the gradients it
computes on the server's own data.

:class:`ServerStep`
    w^g ← P_𝒲[w^g − s_t (m/``|C_t|``) Σ_{i∈C_t} p_i (w^g − w^(i))]: FedAvg's server update in the
    p-weighted form (Algorithm 1 of the minimax paper; the average Σ p_i w^(i) for s_t = 1 and
    full participation) and FedProx's (Algorithm 2, s_t = λη_t^g).
:class:`ModelAverage`
    w^g ← (1/``|C_t|``) Σ_{i∈C_t} w^(i): the plain average of the uploaded models (FedPAQ/FedAve).
:class:`GradientStep`
    w^g ← w^g − η (g_server + Σ_i g_i)/n with the uploaded gradient sums g_i and the server's own
    g_server: exact gradient descent on the sample-average objective (federated GD).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from fedtheory._jit import njit
from fedtheory.algorithms._ball import _project
from fedtheory.algorithms._buffers import _one_vector, _two_vectors
from fedtheory.algorithms.trace import FLOATS_UP, SERVER_GRADIENT_CALLS
from fedtheory.problems._oracle import client_samples, sample_count, sample_gradient

__all__ = ["GradientStep", "ModelAverage", "ServerStep"]


# ============================================================================== ServerStep


@njit
def _server_step_update(
    rule: ServerStep,
    problem: tuple[Any, ...],
    state: tuple[np.ndarray],
    r: int,
    t: int,
    uploaders: np.ndarray,
    wg: np.ndarray,
    models: np.ndarray,
    row: np.ndarray,
) -> None:
    """w^g ← P_𝒲[w^g − s_t (m/``|C_t|``) Σ_{i∈C_t} p_i (w^g − w^(i))], in the clients' order."""
    (step_sum,) = state
    m, d = models.shape
    sampled = uploaders.shape[0]
    for k in range(d):
        step_sum[k] = 0.0
    for a in range(sampled):
        i = uploaders[a]
        p = rule.weights[r, i]
        for k in range(d):
            step_sum[k] += p * (wg[k] - models[i, k])
    factor = rule.steps[t] * m / sampled
    for k in range(d):
        wg[k] -= factor * step_sum[k]
    if rule.project and rule.radius < math.inf:
        _project(wg, rule.radius)
    row[FLOATS_UP] += d * sampled


class _ServerStepFields(NamedTuple):
    steps: np.ndarray
    weights: np.ndarray
    project: bool
    radius: float


class ServerStep(_ServerStepFields):
    """The p-weighted server update of FedAvg and FedProx.

    Attributes
    ----------
    steps : numpy.ndarray
        ``(rows,)`` server multipliers s_t (η_t for FedAvg, λη_t^g for FedProx).
    weights : numpy.ndarray
        ``(R, m)`` client weights p on the simplex.
    project : bool
        Project w^g onto 𝒲 after the step.
    radius : float
        Radius of 𝒲 (inf: no projection).
    """

    __slots__ = ()

    server_state = _one_vector
    server_update = _server_step_update


# ============================================================================== ModelAverage


@njit
def _average_update(
    rule: ModelAverage,
    problem: tuple[Any, ...],
    state: tuple[np.ndarray],
    r: int,
    t: int,
    uploaders: np.ndarray,
    wg: np.ndarray,
    models: np.ndarray,
    row: np.ndarray,
) -> None:
    """w^g ← (Σ_a w^(uploaders[a]))/``|C_t|``, summed in the given order."""
    (total,) = state
    d = wg.shape[0]
    sent = uploaders.shape[0]
    for k in range(d):
        total[k] = 0.0
    for a in range(sent):
        i = uploaders[a]
        for k in range(d):
            total[k] += models[i, k]
    for k in range(d):
        wg[k] = total[k] / sent
    row[FLOATS_UP] += d * sent


class _ModelAverageFields(NamedTuple):
    pass


class ModelAverage(_ModelAverageFields):
    """The plain average of the uploaded models (no parameters)."""

    __slots__ = ()

    server_state = _one_vector
    server_update = _average_update


# ============================================================================== GradientStep


@njit
def _gradient_step_update(
    rule: GradientStep,
    problem: tuple[Any, ...],
    state: tuple[np.ndarray, np.ndarray],
    r: int,
    t: int,
    uploaders: np.ndarray,
    wg: np.ndarray,
    models: np.ndarray,
    row: np.ndarray,
) -> None:
    """w^g ← w^g − η (Σ_j ∇ℓ(w^g; z_0j) + Σ_a g_{uploaders[a]})/n."""
    total, one = state
    m, d = models.shape
    for k in range(d):
        total[k] = 0.0
    samples = client_samples(problem, r, m)  # the server's own samples (index m)
    own = sample_count(samples)
    for j in range(own):
        sample_gradient(samples, j, wg, one)
        for k in range(d):
            total[k] += one[k]
    row[SERVER_GRADIENT_CALLS] += own
    sent = uploaders.shape[0]
    for a in range(sent):
        i = uploaders[a]
        for k in range(d):
            total[k] += models[i, k]
    for k in range(d):
        wg[k] -= rule.step * (total[k] / rule.samples)
    row[FLOATS_UP] += d * sent


class _GradientStepFields(NamedTuple):
    step: float
    samples: float


class GradientStep(_GradientStepFields):
    """A gradient step on the sample average from the uploaded gradient sums.

    Attributes
    ----------
    step : float
        η.
    samples : float
        n, the total number of samples (server and clients) the objective averages over.
    """

    __slots__ = ()

    server_state = _two_vectors
    server_update = _gradient_step_update
