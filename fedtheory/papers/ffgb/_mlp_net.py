"""The App. B.1 multilayer perceptron as numba kernels (private; DESIGN §4).

Shen, Hassani, Kale & Karbasi, *Federated Functional Gradient Boosting*, App. B.1: the MNIST
weak learner is an MLP with two hidden layers of 32 and 32 units and leaky-ReLU activations of
negative slope 0.01. Here the widths and the slope are parameters; the input is d_in features and
the output c values (one per class). One network is a flat parameter vector θ laid out as

    W1 (d_in × h1, row-major), b1 (h1), W2 (h1 × h2), b2 (h2), W3 (h2 × c), b3 (c),

and a batch X (n × d_in) is mapped to X W1 + b1 → leaky → · W2 + b2 → leaky → · W3 + b3.

- :func:`_mlp_init`: PyTorch's default ``nn.Linear`` initialisation (weights and biases uniform
  on ±1/√fan_in), drawn from a counter-based SplitMix64 stream of an explicit seed (the draw of
  parameter q is ``mix(key + (q + 1)·γ)``, ``key = mix(seed)``, its top 53 bits as a uniform in
  [0, 1)), so the numpy twin reproduces it bit for bit;
- :func:`_mlp_forward` and :func:`_mlp_backward`: the batch forward pass (keeping the
  pre-activations) and backpropagation of an output gradient ∂L/∂out into ∂L/∂θ;
- :func:`_learner_seed`: the seed of one oracle call (replicate r, round t, client i, local
  step k) derived from a base seed by the same mixer.

The numpy twin is ``tests/reference/ffgb_learners.py``.
"""

from __future__ import annotations

import math

import numpy as np

from fedtheory._jit import njit
from fedtheory.algorithms._sampling import GAMMA, _mix

__all__: list[str] = []

_TOP53 = np.uint64(11)
_UNIT = 2.0**-53


@njit
def _mlp_parameter_count(d_in: int, h1: int, h2: int, c: int) -> int:
    """p = d_in·h1 + h1 + h1·h2 + h2 + h2·c + c."""
    return d_in * h1 + h1 + h1 * h2 + h2 + h2 * c + c


@njit
def _mlp_unpack(
    theta: np.ndarray, d_in: int, h1: int, h2: int, c: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Views W1, b1, W2, b2, W3, b3 of the flat vector ``theta`` (no copy)."""
    o = 0
    W1 = theta[o : o + d_in * h1].reshape((d_in, h1))
    o += d_in * h1
    b1 = theta[o : o + h1]
    o += h1
    W2 = theta[o : o + h1 * h2].reshape((h1, h2))
    o += h1 * h2
    b2 = theta[o : o + h2]
    o += h2
    W3 = theta[o : o + h2 * c].reshape((h2, c))
    o += h2 * c
    b3 = theta[o : o + c]
    return W1, b1, W2, b2, W3, b3


@njit
def _uniform(key: np.uint64, q: int) -> float:
    """The q-th uniform in [0, 1) of the stream with key ``key``: top 53 bits of a draw."""
    u = _mix(key + np.uint64(q + 1) * GAMMA)
    return float(u >> _TOP53) * _UNIT


@njit
def _mlp_init(seed: np.uint64, d_in: int, h1: int, h2: int, c: int) -> np.ndarray:
    """θ with every entry of layer ℓ uniform on ±1/√fan_in(ℓ) (PyTorch's nn.Linear default).

    Entry q of θ (in the flat layout) is ``bound·(2u_q − 1)``, u_q the q-th uniform of the
    stream with key ``mix(seed)``.
    """
    p = _mlp_parameter_count(d_in, h1, h2, c)
    theta = np.empty(p)
    key = _mix(seed)
    ends = (d_in * h1 + h1, d_in * h1 + h1 + h1 * h2 + h2, p)
    fans = (d_in, h1, h2)
    start = 0
    for layer in range(3):
        bound = 1.0 / math.sqrt(fans[layer])
        for q in range(start, ends[layer]):
            theta[q] = bound * (2.0 * _uniform(key, q) - 1.0)
        start = ends[layer]
    return theta


@njit
def _leaky(z: np.ndarray, slope: float) -> np.ndarray:
    """Leaky ReLU, elementwise: z if z > 0, slope·z otherwise."""
    out = np.empty_like(z)
    flat_in = z.reshape(-1)
    flat_out = out.reshape(-1)
    for q in range(flat_in.shape[0]):
        v = flat_in[q]
        flat_out[q] = v if v > 0.0 else slope * v
    return out


@njit
def _add_bias(z: np.ndarray, b: np.ndarray) -> None:
    """z[j, :] += b for every row j (in place)."""
    for j in range(z.shape[0]):
        for q in range(z.shape[1]):
            z[j, q] += b[q]


@njit
def _mlp_forward(
    theta: np.ndarray, X: np.ndarray, h1: int, h2: int, c: int, slope: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Forward pass of a batch X (n × d_in): Z1, A1, Z2, A2 and the output (n × c)."""
    W1, b1, W2, b2, W3, b3 = _mlp_unpack(theta, X.shape[1], h1, h2, c)
    Z1 = X @ W1
    _add_bias(Z1, b1)
    A1 = _leaky(Z1, slope)
    Z2 = A1 @ W2
    _add_bias(Z2, b2)
    A2 = _leaky(Z2, slope)
    out = A2 @ W3
    _add_bias(out, b3)
    return Z1, A1, Z2, A2, out


@njit
def _column_sums(a: np.ndarray, out: np.ndarray) -> None:
    """out[q] = Σ_j a[j, q] (rows summed in order)."""
    for q in range(a.shape[1]):
        out[q] = 0.0
    for j in range(a.shape[0]):
        for q in range(a.shape[1]):
            out[q] += a[j, q]


@njit
def _leaky_backward(dz: np.ndarray, z: np.ndarray, slope: float) -> None:
    """dz *= leaky′(z) elementwise (1 where z > 0, slope elsewhere), in place."""
    for j in range(dz.shape[0]):
        for q in range(dz.shape[1]):
            if not z[j, q] > 0.0:
                dz[j, q] *= slope


@njit
def _assign(out: np.ndarray, a: np.ndarray) -> None:
    """out[:, :] = a, element by element (a slice assignment would compile numba's broadcasting
    and its shape-error formatting into every kernel that backpropagates)."""
    for j in range(a.shape[0]):
        for q in range(a.shape[1]):
            out[j, q] = a[j, q]


@njit
def _mlp_backward(
    theta: np.ndarray,
    X: np.ndarray,
    Z1: np.ndarray,
    A1: np.ndarray,
    Z2: np.ndarray,
    A2: np.ndarray,
    dout: np.ndarray,
    h1: int,
    h2: int,
    c: int,
    slope: float,
    grad: np.ndarray,
) -> None:
    """∂L/∂θ into ``grad`` (flat layout) from ∂L/∂out = ``dout`` (n × c), by backpropagation."""
    d_in = X.shape[1]
    _, _, W2, _, W3, _ = _mlp_unpack(theta, d_in, h1, h2, c)
    gW1, gb1, gW2, gb2, gW3, gb3 = _mlp_unpack(grad, d_in, h1, h2, c)
    _assign(gW3, A2.T @ dout)
    _column_sums(dout, gb3)
    dZ2 = dout @ W3.T
    _leaky_backward(dZ2, Z2, slope)
    _assign(gW2, A1.T @ dZ2)
    _column_sums(dZ2, gb2)
    dZ1 = dZ2 @ W2.T
    _leaky_backward(dZ1, Z1, slope)
    _assign(gW1, X.T @ dZ1)
    _column_sums(dZ1, gb1)


@njit
def _learner_seed(base: np.uint64, r: int, t: int, i: int, k: int) -> np.uint64:
    """The seed of oracle call (r, t, i, k): s ← mix(s + (v + 1)·γ) for v = r, t, i, k."""
    s = base
    s = _mix(s + np.uint64(r + 1) * GAMMA)
    s = _mix(s + np.uint64(t + 1) * GAMMA)
    s = _mix(s + np.uint64(i + 1) * GAMMA)
    s = _mix(s + np.uint64(k + 1) * GAMMA)
    return s
