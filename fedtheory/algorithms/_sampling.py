"""The counter-based minibatch stream of the client steps (private; DESIGN §4).

Minibatches are drawn inside the kernels from a counter-based SplitMix64 stream, so the plain
numpy twin (``tests/reference/federated.py``) reproduces them exactly:

- ``mix(z)``: the SplitMix64 finaliser (Stafford's variant 13), arithmetic mod 2^64;
- client ``i`` of a replicate with seed ``s`` has the key ``key_i = mix(s + (i + 1)·γ)``,
  ``γ = 0x9E3779B97F4A7C15``; its ``c``-th draw (``c = 0, 1, …``, counted over the whole run)
  is ``u = mix(key_i + (c + 1)·γ)``;
- an index below ``n`` is ``((u >> 32)·n) >> 32`` (Lemire's multiply-shift; bias ≤ n/2^32);
- every client keeps a permutation of its rows (the identity at the start) and a cursor; a
  minibatch of ``b`` rows at cursor ``j`` is drawn by the next ``b`` steps of a forward
  Fisher–Yates shuffle, done lazily: for ``q = j, …, j + b − 1`` swap ``perm[q]`` with
  ``perm[q + index below (n − q)]``. A finished pass is therefore a uniform permutation, and
  every minibatch holds distinct rows (sampling without replacement, Lemma 19 of the minimax
  paper).

Gaussian and uniform draws (zeroth-order steps: query noise, finite-difference directions,
candidate points) come from the same mixer, *counter-based*: a stream is a key and a draw is a
pure function of (key, index), so any kernel can recompute any draw and no state is carried:

- :func:`_stream_key` chains keys, ``key' = mix(key + (a + 1)·γ)`` (e.g. client key → round →
  call), so a draw depends on (seed, replicate, client, round, call) only, never on the order
  in which clients, replicates or workers run;
- :func:`_uniform` is the j-th uniform in [0, 1): ``(mix(key + (j + 1)·γ) >> 11)/2^53``;
- :func:`_standard_normal` is the j-th standard normal: Box–Muller on the 53-bit uniforms
  a = ((mix(key + (2j + 1)·γ) >> 11) + ½)/2^53 ∈ (0, 1) and b = (mix(key + (2j + 2)·γ) >> 11)/2^53,
  ξ_j = √(−2 log a)·cos(2πb) (the cosine branch only: one normal per pair, so the j-th normal
  needs no neighbour). It is the formula of the ffgb paper's private random oracle
  (:mod:`fedtheory.papers.ffgb.oracles`), which may switch to this one.
"""

from __future__ import annotations

import math

import numpy as np

from fedtheory._jit import njit

__all__: list[str] = []

GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@njit
def _mix(z: np.uint64) -> np.uint64:
    """SplitMix64 finaliser (mod 2^64)."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    mixed: np.uint64 = z ^ (z >> _S31)
    return mixed


@njit
def _client_key(seed: np.uint64, client: int) -> np.uint64:
    """key_i = mix(seed + (i + 1)·γ)."""
    return _mix(seed + np.uint64(client + 1) * GAMMA)


@njit
def _draw_rows(
    perm: np.ndarray,
    start: int,
    b: int,
    n: int,
    key: np.uint64,
    counter: np.uint64,
    picks: np.ndarray,
) -> np.uint64:
    """Lazy Fisher–Yates: fix positions start, …, start + b − 1 of ``perm``; return the counter.

    The b draws are independent of each other (counter-based), so they are computed first in a
    loop LLVM vectorises (``picks``: at least b int64 of scratch); only the swaps are
    sequential. The same draws and swaps as one draw per swap, bit for bit.
    """
    for j in range(b):
        u = _mix(key + (counter + np.uint64(j + 1)) * GAMMA)
        picks[j] = np.int64(((u >> _S32) * np.uint64(n - start - j)) >> _S32)
    for j in range(b):
        q = start + j
        pick = q + picks[j]
        swap = perm[pick]
        perm[pick] = perm[q]
        perm[q] = swap
    advanced: np.uint64 = counter + np.uint64(b)
    return advanced


_S11 = np.uint64(11)
_TWO_M53 = 1.1102230246251565e-16  # 2^-53


@njit
def _stream_key(key: np.uint64, a: int) -> np.uint64:
    """The sub-stream key mix(key + (a + 1)·γ) (a ≥ 0: a round, a client, a call)."""
    return _mix(key + np.uint64(a + 1) * GAMMA)


@njit
def _uniform(key: np.uint64, j: int) -> float:
    """The j-th uniform in [0, 1) of the stream ``key`` (53 bits)."""
    u = _mix(key + np.uint64(j + 1) * GAMMA)
    return float(u >> _S11) * _TWO_M53


@njit
def _standard_normal(key: np.uint64, j: int) -> float:
    """The j-th standard normal of the stream ``key`` (Box–Muller, cosine branch)."""
    first = _mix(key + np.uint64(2 * j + 1) * GAMMA)
    second = _mix(key + np.uint64(2 * j + 2) * GAMMA)
    a = (float(first >> _S11) + 0.5) * _TWO_M53
    b = float(second >> _S11) * _TWO_M53
    return math.sqrt(-2.0 * math.log(a)) * math.cos(2.0 * math.pi * b)
