"""Plain-numpy twins of the baselines' kernels (``fedtheory/papers/gifair/_baseline_steps.py``).

Written from the baselines' definitions (reading guide §2.5), vectorised, with other algorithms
than the kernels where there is a choice: the projection onto simplex ∩ box by bisection on the
shift τ (the kernel walks the sorted breakpoints), FedMGDA+'s QP by plain projected gradient
(the kernel: accelerated, with restarts). Each server twin maps the round's broadcast model w,
the uploads (the clients' models, or gradient sums) and the uploading clients (with repeats) to
the new model. Slow on purpose.
"""

from __future__ import annotations

import numpy as np


def project_capped_simplex(y: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """argmin ‖x − y‖ over {Σx = 1, lo ≤ x ≤ hi}: x = clip(y − τ), τ by 100 bisections."""
    left, right = float(np.min(y - hi)) - 1.0, float(np.max(y - lo)) + 1.0
    for _ in range(100):
        tau = 0.5 * (left + right)
        if np.clip(y - tau, lo, hi).sum() > 1.0:
            left = tau
        else:
            right = tau
    return np.clip(y - 0.5 * (left + right), lo, hi)


def min_norm_weights(
    directions: np.ndarray, lo: np.ndarray, hi: np.ndarray, start: np.ndarray, iterations: int
) -> np.ndarray:
    """argmin ‖directionsᵀx‖² over {Σx = 1, lo ≤ x ≤ hi} by projected gradient, step 1/L
    (at most ``iterations``; stops when an iteration no longer moves x)."""
    gram = directions @ directions.T
    lipschitz = 2.0 * max(np.linalg.eigvalsh(gram).max(), 1e-300)
    x = start.copy()
    for _ in range(iterations):
        following = project_capped_simplex(x - 2.0 * gram @ x / lipschitz, lo, hi)
        if np.max(np.abs(following - x)) <= 1e-16:
            return following
        x = following
    return x


def qffl_server(
    q: float,
    lipschitz: float,
    w: np.ndarray,
    uploads: np.ndarray,
    clients: np.ndarray,
    losses: np.ndarray,
    slot_weights: np.ndarray,
    counts: np.ndarray | None = None,
) -> np.ndarray:
    """q-FedAvg's server: w − Σ a Δ / Σ a h (q-FedSGD: ``counts`` given, ΔW = upload/n_k)."""
    if counts is None:
        delta_w = lipschitz * (w[None, :] - uploads[clients])
    else:
        delta_w = uploads[clients] / counts[clients][:, None]
    F = losses[clients]
    delta = (F**q)[:, None] * delta_w
    h = q * F ** (q - 1.0) * np.sum(delta_w**2, axis=1) + lipschitz * F**q
    return w - (slot_weights[:, None] * delta).sum(axis=0) / float(slot_weights @ h)


def term_weights(tilt: float, losses: np.ndarray, slot_weights: np.ndarray) -> np.ndarray:
    """ω_a ∝ a_a e^{t F_a}, normalised (a softmax with the largest loss subtracted)."""
    raw = slot_weights * np.exp(tilt * (losses - losses.max()))
    return raw / raw.sum()


def term_server(
    tilt: float,
    w: np.ndarray,
    uploads: np.ndarray,
    clients: np.ndarray,
    losses: np.ndarray,
    slot_weights: np.ndarray,
) -> np.ndarray:
    """Federated TERM's server: the tilted average Σ ω_a w̄_a (written as w − Σ ω(w − w̄))."""
    omega = term_weights(tilt, losses[clients], slot_weights)
    return w - omega @ (w[None, :] - uploads[clients])


def afl_server(
    step: float,
    w: np.ndarray,
    mixture: np.ndarray,
    uploads: np.ndarray,
    clients: np.ndarray,
    losses: np.ndarray,
    factors: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Stochastic AFL's server: w − Σ f λ (w − w̄), then λ ← Π_Δ(λ + γ Σ f F e_k)."""
    new_w = w - (factors * mixture[clients]) @ (w[None, :] - uploads[clients])
    ascent = mixture.copy()
    np.add.at(ascent, clients, step * factors * losses[clients])
    n = mixture.shape[0]
    return new_w, project_capped_simplex(ascent, np.zeros(n), np.ones(n))


def fedmgda_server(
    eps: float,
    step: float,
    w: np.ndarray,
    uploads: np.ndarray,
    clients: np.ndarray,
    slot_weights: np.ndarray,
    iterations: int = 20000,
) -> tuple[np.ndarray, np.ndarray]:
    """FedMGDA+'s server: normalised updates, the QP near λ_0 = a/Σa, w − η_g Σ λ ĝ."""
    g = w[None, :] - uploads[clients]
    norms = np.linalg.norm(g, axis=1)
    g_hat = np.divide(g, norms[:, None], out=np.zeros_like(g), where=norms[:, None] > 0)
    start = slot_weights / slot_weights.sum()
    lo, hi = np.maximum(0.0, start - eps), np.minimum(1.0, start + eps)
    lam = min_norm_weights(g_hat, lo, hi, start, iterations)
    return w - step * lam @ g_hat, lam
