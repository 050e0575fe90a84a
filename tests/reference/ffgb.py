"""Plain-numpy twins of the ffgb kernels (:mod:`fedtheory.papers.ffgb`).

Written from the paper's Algorithms 2–5 and the reading guide's App. Z prototype, vectorised
over atoms with numpy and looping over rounds, clients and local steps in Python; the random
oracle's stream is SplitMix64 on Python integers. Functions are (P, c) arrays here (the kernels
use the flat (P·c,) vectors). Slow on purpose.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

MASK = (1 << 64) - 1
GAMMA64 = 0x9E3779B97F4A7C15


# ------------------------------------------------------------------ norms


def l2(v: np.ndarray, w: np.ndarray) -> float:
    """‖v‖_α for v of shape (P, c)."""
    return float(np.sqrt(np.sum(w * np.sum(v**2, axis=1))))


def sup(v: np.ndarray, w: np.ndarray) -> float:
    """max over supp α of ‖v(x)‖."""
    norms = np.sqrt(np.sum(v**2, axis=1))
    return float(np.max(np.where(w > 0, norms, 0.0), initial=0.0))


def lipschitz(v: np.ndarray, points: np.ndarray) -> float:
    """Largest slope over all pairs of atoms (no sorting shortcut)."""
    diffs = np.sqrt(np.sum((v[:, None, :] - v[None, :, :]) ** 2, axis=2))
    gaps = np.sqrt(np.sum((points[:, None, :] - points[None, :, :]) ** 2, axis=2))
    off = ~np.eye(len(v), dtype=bool)
    if np.any(off & (gaps == 0) & (diffs > 0)):
        return math.inf
    ok = off & (gaps > 0)
    return float(np.max(diffs[ok] / gaps[ok], initial=0.0))


def norm(kind: str, v: np.ndarray, w: np.ndarray) -> float:
    return l2(v, w) if kind == "l2" else sup(v, w)


def quotient(top: float, bottom: float) -> float:
    if bottom > 0:
        return top / bottom
    return 0.0 if top == 0 else math.inf


def ratio(
    kind: str, gamma: float, phi: np.ndarray, h: np.ndarray, w: np.ndarray, points: np.ndarray
) -> float:
    """The measured ratio of an oracle call (lip: the largest of the three)."""
    if kind == "l2":
        return quotient(l2(h - phi, w), l2(phi, w))
    out = quotient(sup(h - phi, w), sup(phi, w))
    if kind == "lip":
        slope = lipschitz(phi, points)
        out = max(out, quotient(lipschitz(h - phi, points), slope))
        if gamma < 1:
            out = max(out, (1 - gamma) * quotient(lipschitz(h, points), slope))
    return out


# ------------------------------------------------------------------ losses


def risk_gradient(
    loss: str, alpha_i: np.ndarray, labels_i: np.ndarray, extension_i: np.ndarray, g: np.ndarray
) -> np.ndarray:
    """∇R_i[g] on supp α_i (σ(g) − q, g − m, softmax(g) − q), the extension off it."""
    if loss == "logistic":
        part = 1.0 / (1.0 + np.exp(-g))
    elif loss == "square":
        part = g
    else:
        e = np.exp(g - g.max(axis=1, keepdims=True))
        part = e / e.sum(axis=1, keepdims=True)
    return np.where(alpha_i[:, None] > 0, part - labels_i, extension_i)


# ------------------------------------------------------------------ oracles


def mix(z: int) -> int:
    z &= MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def call_normals(seed: int, t: int, i: int, k: int, size: int) -> np.ndarray:
    """The random oracle's Gaussian direction of call (t, i, k)."""
    key = mix(int(seed) + (t + 1) * GAMMA64)
    key = mix(key + (i + 1) * GAMMA64)
    key = mix(key + (k + 1) * GAMMA64)
    out = np.empty(size)
    for j in range(size):
        u1 = mix(key + (2 * j + 1) * GAMMA64)
        u2 = mix(key + (2 * j + 2) * GAMMA64)
        a = ((u1 >> 11) + 0.5) * 2.0**-53
        b = (u2 >> 11) * 2.0**-53
        out[j] = math.sqrt(-2.0 * math.log(a)) * math.cos(2.0 * math.pi * b)
    return out


Oracle = Callable[[np.ndarray, np.ndarray, np.ndarray, tuple[int, int, int]], np.ndarray]


def scale_oracle(gamma: float) -> Oracle:
    return lambda phi, w, g, call: gamma * phi


def biased_oracle(gamma: float, kind: str, direction: np.ndarray) -> Oracle:
    def oracle(phi: np.ndarray, w: np.ndarray, g: np.ndarray, call: tuple[int, int, int]):
        v = direction.reshape(phi.shape)
        size = norm(kind, v, w)
        shift = (1 - gamma) * norm(kind, phi, w) / size if size > 0 else 0.0
        return phi - shift * v

    return oracle


def topk_oracle(gamma: float, kind: str) -> Oracle:
    def oracle(phi: np.ndarray, w: np.ndarray, g: np.ndarray, call: tuple[int, int, int]):
        squares = np.sum(phi**2, axis=1)
        scores = np.where(w > 0, w * squares if kind == "l2" else np.sqrt(squares), 0.0)
        order = np.argsort(-scores, kind="stable")
        h = np.zeros_like(phi)
        # the mass left out when the first s atoms are kept, summed from the smallest score up
        rest = np.append(np.cumsum(scores[order][::-1])[::-1], 0.0)
        total = rest[0] if rest.size > 1 else 0.0
        top = scores.max(initial=0.0)
        for s, x in enumerate(order):
            if scores[x] <= 0:
                break
            if kind == "l2":
                if rest[s] <= (1 - gamma) ** 2 * total:
                    break
            elif scores[x] <= (1 - gamma) * top:
                break
            h[x] = phi[x]
        return h

    return oracle


def random_oracle(gamma: float, kind: str, seed: int) -> Oracle:
    def oracle(phi: np.ndarray, w: np.ndarray, g: np.ndarray, call: tuple[int, int, int]):
        xi = call_normals(seed, *call, phi.size).reshape(phi.shape)
        size = norm(kind, xi, w)
        shift = (1 - gamma) * norm(kind, phi, w) / size if size > 0 else 0.0
        return phi - shift * xi

    return oracle


def adversarial_oracle(gamma: float, kind: str, target: np.ndarray) -> Oracle:
    def oracle(phi: np.ndarray, w: np.ndarray, g: np.ndarray, call: tuple[int, int, int]):
        v = g - target.reshape(phi.shape)
        size = norm(kind, v, w)
        shift = (1 - gamma) * norm(kind, phi, w) / size if size > 0 else 0.0
        return phi - shift * v

    return oracle


# ------------------------------------------------------------------ algorithms


def clip(v: np.ndarray, level: float) -> np.ndarray:
    sizes = np.sqrt(np.sum(v**2, axis=1, keepdims=True))
    return v * np.minimum(1.0, level / np.where(sizes > 0, sizes, 1.0))


def ffgb_rounds(
    loss: str,
    alpha: np.ndarray,
    labels: np.ndarray,
    extension: np.ndarray,
    mu: float,
    oracle: Oracle,
    rounds: int,
    K: int,
    *,
    residual: str = "reset",
    eta0: float = 2.0,
    k0: float = 1.0,
    clip_h: float = math.inf,
    clip_delta: float = math.inf,
    start_radius: float = math.inf,
    regularise: bool = True,
    masks: np.ndarray | None = None,
    init: np.ndarray | None = None,
) -> np.ndarray:
    """FFGB / FFGB.C (Algorithms 2, 3, 5); returns f^0..f^T, shape (T + 1, P, c).

    ``labels``/``extension``: (N, P, c). ``masks``: (T, N) sampled clients (default all).
    """
    n, atoms, c = labels.shape
    f = np.zeros((atoms, c)) if init is None else init.reshape(atoms, c).copy()
    deltas = np.zeros((n, atoms, c))
    out = [f.copy()]
    for t in range(rounds):
        sampled = [i for i in range(n) if masks is None or masks[t, i]]
        models = []
        for i in sampled:
            g = clip(f, start_radius) if start_radius < math.inf else f.copy()
            if residual != "persistent":
                deltas[i] = 0.0
            for k in range(1, K + 1):
                eta = eta0 / (mu * (t * K + k + k0))
                grad = risk_gradient(loss, alpha[i], labels[i], extension[i], g)
                phi = grad if residual == "none" else deltas[i] + grad
                h = oracle(phi, alpha[i], g, (t, i, k))
                step = clip(h, clip_h) if clip_h < math.inf else h
                if regularise:
                    step = step + mu * g
                g = g - eta * step
                if residual != "none":
                    deltas[i] = phi - h
                    if clip_delta < math.inf:
                        deltas[i] = clip(deltas[i], clip_delta)
            models.append(g)
        f = np.mean(models, axis=0)
        out.append(f.copy())
    return np.array(out)


def ffgb_l_rounds(
    alpha: np.ndarray,
    targets: np.ndarray,
    oracle: Oracle,
    rounds: int,
    K: int,
    *,
    eta0: float = 4.0,
    k0: float = 3.0,
    sign: float = 1.0,
    return_previous: bool = False,
    masks: np.ndarray | None = None,
) -> np.ndarray:
    """FFGB.L (Algorithm 4); ``targets`` (N, P) the u_i; returns f^0..f^T (T + 1, P)."""
    n, atoms = targets.shape
    f = np.zeros((atoms, 1))
    out = [f[:, 0].copy()]
    for t in range(rounds):
        models = []
        for i in range(n):
            if masks is not None and not masks[t, i]:
                continue
            g = f.copy()
            delta = np.zeros((atoms, 1))
            u = targets[i][:, None]
            previous = g
            for k in range(1, K + 1):
                eta = eta0 / (t * K + k + k0)
                h = oracle(sign * (u - delta), alpha[i], g, (t, i, k))
                previous = g
                g = g - eta * (g - h)
                delta = delta - u + h
            models.append(previous if return_previous else g)
        f = np.mean(models, axis=0)
        out.append(f[:, 0].copy())
    return np.array(out)


def mcshane(points: np.ndarray, labels: np.ndarray, lipschitz_constant: float, at: np.ndarray):
    """u(x) = min_j (y_j + L‖x − x_j‖), by a Python loop over evaluation points."""
    return np.array(
        [
            min(
                y + lipschitz_constant * np.linalg.norm(x - p)
                for p, y in zip(points, labels, strict=True)
            )
            for x in at
        ]
    )
