"""FedAvg at the minimax paper's App. D sizes in JAX and in PyTorch: the peers of the numba kernel.

Used by ``benchmarks/bench_minimax_fedavg.py``, kept apart so that the code of each peer is
easy to read and show. Both compute exactly the arithmetic of that script's numpy loop (b) —
per replicate, round and client, ``local_epochs`` epochs of minibatch SGD on the logistic loss,
then the server step w ← w − η_g Σ_i p_i (w − w_i) — batched over the S = R·m (replicate,
client) streams, in float64, on the *same minibatch orders*: the caller passes the orders
(:class:`EpochOrders` of the script, the kernel's counter-based stream), so the outputs must
equal the numpy loop's to rounding, not just in distribution.

Shapes: features ``X`` (R, m, n, d), targets ``y`` (R, m, n) in {−1, +1}, weights ``p`` (R, m),
orders (T, S, E, n) int (round, stream = r·m + i, epoch, position). One local step on the rows
B of a minibatch (the last one of an epoch may be partial):

    w ← w − (η/|B|) Σ_{j∈B} −y_j σ(−y_j x_jᵀw) x_j.

JAX (:func:`jax_fedavg`): ``jax.jit`` with float64 (``jax_enable_x64``), ``lax.scan`` over the
local steps and the rounds; an epoch's minibatches are padded to equal size with rows of
weight 0, so one scan step handles full and partial batches alike. Two variants:
``"vmap"`` maps one stream's local training over all S streams with ``jax.vmap``; ``"chunks"``
runs one replicate's whole FedAvg (clients by ``vmap``) and maps it over the replicates with
``lax.map(..., batch_size=chunk)`` (a ``vmap`` over ``chunk`` replicates at a time: a smaller
working set than all S streams at once).

PyTorch (:func:`torch_fedavg`): float64, a Python loop over rounds, epochs and minibatches;
each local step is one gather and two batched ``bmm`` over the S streams, optionally through
``torch.compile`` (``compiled=True``; the caller falls back to eager if it fails).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

# torch.compile's inductor compiles in a pool of worker processes by default: one in-process
# compile thread keeps the benchmark to this process on a 2-core machine (set before torch loads)
os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")

__all__ = ["FedAvgConfig", "jax_available", "jax_fedavg", "torch_available", "torch_fedavg"]


@dataclass(frozen=True)
class FedAvgConfig:
    """The App. D hyperparameters (the script's constants)."""

    clients: int
    samples: int
    dimension: int
    rounds: int
    epochs: int
    batch: int
    local_step: float
    server_step: float

    @property
    def batches(self) -> int:
        """Minibatches per epoch (the last one partial when batch ∤ n)."""
        return math.ceil(self.samples / self.batch)

    def padding(self) -> tuple[np.ndarray, np.ndarray]:
        """Positions (batches·batch,) into an epoch's order, and the step weights (batches,
        batch): 1/|B| for a real row, 0 for padding (padded positions read row 0)."""
        slots = self.batches * self.batch
        positions = np.arange(slots)
        valid = positions < self.samples
        sizes = np.minimum(self.batch, self.samples - self.batch * (positions // self.batch))
        weights = np.where(valid, 1.0 / sizes, 0.0).reshape(self.batches, self.batch)
        return np.where(valid, positions, 0), weights


# ============================================================================== availability


def jax_available() -> str | None:
    """None if JAX imports, else why not (one line)."""
    try:
        import jax  # noqa: F401
    except Exception as error:  # ImportError, or a broken install raising something else
        return f"{type(error).__name__}: {error}"
    return None


def torch_available() -> str | None:
    """None if PyTorch imports, else why not (one line)."""
    try:
        import torch  # noqa: F401
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return None


# ============================================================================== JAX


def jax_fedavg(
    config: FedAvgConfig, X: np.ndarray, y: np.ndarray, p: np.ndarray, *, variant: str, chunk: int
) -> Callable[[np.ndarray], np.ndarray]:
    """A function orders (T, S, E, n) → global models (R, d), jitted, data on the device.

    The data are transferred once here (like the numba path, whose data are generated
    beforehand); each call transfers the orders, runs, and waits for the result
    (``block_until_ready``). ``variant``: ``"vmap"`` or ``"chunks"`` (module docstring);
    ``chunk``: replicates per ``vmap`` in ``"chunks"``.
    """
    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    from jax import lax

    R, m, n, d = X.shape
    positions_np, weights_np = config.padding()
    positions = jnp.asarray(positions_np)
    weights = jnp.asarray(weights_np)  # (batches, batch)
    steps = config.epochs * config.batches
    eta, eta_g = config.local_step, config.server_step
    features = jax.device_put(jnp.asarray(X, dtype=jnp.float64))
    targets = jax.device_put(jnp.asarray(y, dtype=jnp.float64))
    shares = jax.device_put(jnp.asarray(p, dtype=jnp.float64))

    def local_training(w0, Xi, yi, order):
        """One stream: w0 (d,), Xi (n, d), yi (n,), order (E, n) → w after E epochs."""
        rows = order[:, positions].reshape(steps, config.batch)  # (steps, batch)
        scale = jnp.tile(weights, (config.epochs, 1))  # (steps, batch)

        def step(w, inputs):
            index, c = inputs
            Xb, yb = Xi[index], yi[index]
            coef = -yb * jnp.exp(-jnp.logaddexp(0.0, yb * (Xb @ w))) * c
            return w - eta * (coef @ Xb), None

        w, _ = lax.scan(step, w0, (rows, scale))
        return w

    clients = jax.vmap(local_training, in_axes=(None, 0, 0, 0))  # one replicate's m clients

    def server(wg, W, pr):
        return wg - eta_g * (pr @ (wg[None, :] - W))

    if variant == "vmap":
        streams = jax.vmap(local_training, in_axes=(0, 0, 0, 0))
        Xs, ys = features.reshape(R * m, n, d), targets.reshape(R * m, n)

        def all_replicates(orders):
            def one_round(wg, order):  # wg (R, d), order (S, E, n)
                W = streams(jnp.repeat(wg, m, axis=0), Xs, ys, order).reshape(R, m, d)
                return jax.vmap(server)(wg, W, shares), None

            wg, _ = lax.scan(one_round, jnp.zeros((R, d)), orders)
            return wg

    elif variant == "chunks":

        def one_replicate(args):
            Xr, yr, pr, orders_r = args  # orders_r (T, m, E, n)

            def one_round(wg, order):
                return server(wg, clients(wg, Xr, yr, order), pr), None

            wg, _ = lax.scan(one_round, jnp.zeros(d), orders_r)
            return wg

        def all_replicates(orders):
            per_replicate = orders.reshape(config.rounds, R, m, config.epochs, n).swapaxes(0, 1)
            return lax.map(
                one_replicate, (features, targets, shares, per_replicate), batch_size=chunk
            )

    else:
        raise ValueError(f"variant must be 'vmap' or 'chunks', got {variant!r}")

    compiled = jax.jit(all_replicates)

    def run(orders: np.ndarray) -> np.ndarray:
        result = compiled(jnp.asarray(orders, dtype=jnp.int32))
        return np.asarray(result.block_until_ready())

    return run


# ============================================================================== PyTorch


def torch_fedavg(
    config: FedAvgConfig, X: np.ndarray, y: np.ndarray, p: np.ndarray, *, compiled: bool
) -> Callable[[np.ndarray], np.ndarray]:
    """A function orders (T, S, E, n) → global models (R, d) in float64 PyTorch.

    The data become tensors once here; each call runs the loop. ``compiled``: the local step
    through ``torch.compile`` (inductor), else eager.
    """
    import torch

    R, m, n, d = X.shape
    S = R * m
    flat_X = torch.from_numpy(np.ascontiguousarray(X.reshape(S * n, d), dtype=np.float64))
    flat_y = torch.from_numpy(np.ascontiguousarray(y.reshape(S * n), dtype=np.float64))
    shares = torch.from_numpy(np.ascontiguousarray(p, dtype=np.float64))
    offsets = (torch.arange(S, dtype=torch.int64) * n)[:, None]
    eta, eta_g = config.local_step, config.server_step

    def step(W: Any, rows: Any, scale: float) -> Any:
        """One local step of every stream on its minibatch ``rows`` (S, b) of the flat data."""
        flat = rows.reshape(-1)
        Xb = flat_X.index_select(0, flat).view(S, -1, d)  # (S, b, d)
        yb = flat_y.index_select(0, flat).view(S, -1)  # (S, b)
        margins = yb * torch.bmm(Xb, W.unsqueeze(2)).squeeze(2)  # (S, b)
        coef = -yb * torch.sigmoid(-margins)
        return W - scale * torch.bmm(coef.unsqueeze(1), Xb).squeeze(1)

    local_step = torch.compile(step, dynamic=False) if compiled else step

    def run(orders: np.ndarray) -> np.ndarray:
        rows_all = torch.from_numpy(np.ascontiguousarray(orders, dtype=np.int64))
        with torch.no_grad():
            wg = torch.zeros((R, d), dtype=torch.float64)
            for t in range(config.rounds):
                W = wg.repeat_interleave(m, dim=0)  # (S, d): every client starts from w^g
                for e in range(config.epochs):
                    order = rows_all[t, :, e] + offsets  # (S, n) rows of the flat data
                    for start in range(0, n, config.batch):
                        rows = order[:, start : start + config.batch]
                        W = local_step(W, rows, eta / rows.shape[1])
                pull = torch.einsum("rm,rmd->rd", shares, wg[:, None, :] - W.reshape(R, m, d))
                wg = wg - eta_g * pull
        return wg.numpy()

    return run
