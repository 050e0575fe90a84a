"""Input checks, randomness and the loop call shared by the fzoos runners (private).

Every check raises :class:`~fedtheory.errors.ParameterError` naming the parameter, the value and
the rule; a non-finite iterate raises :class:`~fedtheory.errors.DivergenceError` naming the round,
the client and the local step (recorded by the kernels, :mod:`.steps`).

**Randomness.** Replicate r has the seed ``SeedSequence(seed, spawn_key=(r,))`` (the seed itself
for one run); its generator draws one uint64, the replicate's stream seed, and every random
number of the run (query noise, FD directions, FZooS's candidates) is a counter-based draw keyed
by (stream seed, client, round, call) (:mod:`fedtheory.algorithms._sampling`). Replicate r of a
batch therefore equals the single run with its seed, bit for bit, on any executor. FZooS's RFF
frequencies are shared by all clients and the server (one seed, App. B): they are drawn from the
replicate's generator after the stream seed.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_finite_trace, check_int, check_real, check_vector
from fedtheory._seeds import generator, replicate_seeds
from fedtheory.algorithms._round_loop import _round_loop
from fedtheory.errors import DivergenceError, ParameterError
from fedtheory.papers.fzoos._union_view import unify
from fedtheory.papers.fzoos.steps import Controls, FDSettings, RunLog

__all__: list[str] = []

#: Local optimizers: plain GD (the theory) and Adam (the experiments, App. E).
OPTIMIZERS: tuple[str, ...] = ("gd", "adam")


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ParameterError(
            parameter=name, value=value, rule=f"must be one of {', '.join(map(repr, choices))}"
        )
    return value


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise ParameterError(parameter=name, value=value, rule="must be True or False")
    return bool(value)


def _unit(name: str, value: Any) -> float:
    """A number in [0, 1] (γ)."""
    number = check_real(name, value, nonnegative=True)
    if number > 1.0:
        raise ParameterError(parameter=name, value=number, rule="must lie in [0, 1]")
    return number


@dataclass(frozen=True)
class _Problem:
    view: Any
    clients: int
    dimension: int
    gradients: bool
    box: bool


def _problem(problem: Any) -> _Problem:
    """The kernel view and layout of a fzoos problem (``kernel_view()``, ``num_clients``,
    ``dimension``; optional ``exact_gradients`` (default True) and ``box`` (default False))."""
    view_of = getattr(problem, "kernel_view", None)
    if not callable(view_of):
        raise ParameterError(
            parameter="problem",
            value=type(problem).__name__,
            rule="must be a fzoos problem with kernel_view(), num_clients and dimension",
        )
    clients = check_int("problem.num_clients", problem.num_clients, minimum=1)
    dimension = check_int("problem.dimension", problem.dimension, minimum=1)
    gradients = bool(getattr(problem, "exact_gradients", True))
    box = bool(getattr(problem, "box", False))
    return _Problem(unify(view_of()), clients, dimension, gradients, box)


@dataclass(frozen=True)
class _Common:
    """The checked inputs every runner shares and every replicate's draws."""

    info: _Problem
    rounds: int
    local_steps: int
    eta: float
    adam: bool
    betas: tuple[float, float, float]
    clip: bool
    init: np.ndarray
    replicates: int | None
    record: bool
    streams: np.ndarray
    generators: tuple[np.random.Generator, ...]

    @property
    def reps(self) -> int:
        return int(self.streams.size)

    @property
    def batched(self) -> bool:
        return self.replicates is not None

    @property
    def hyperparameters(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "local_steps": self.local_steps,
            "step_size": self.eta,
            "optimizer": "adam" if self.adam else "gd",
            "adam": self.betas if self.adam else None,
            "clip": self.clip,
        }


def _common(
    info: _Problem,
    *,
    rounds: Any,
    local_steps: Any,
    step_size: Any,
    optimizer: Any,
    adam: Any,
    clip: Any,
    init: Any,
    seed: Any,
    replicates: Any,
    record: Any,
) -> _Common:
    """Check the shared inputs in one order, then draw every replicate's stream seed."""
    rounds = check_int("rounds", rounds, minimum=1)
    T = check_int("local_steps", local_steps, minimum=1)
    eta = check_real("step_size", step_size, positive=True)
    use_adam = _choice("optimizer", optimizer, OPTIMIZERS) == "adam"
    if not isinstance(adam, tuple) or len(adam) != 3:
        raise ParameterError(
            parameter="adam", value=adam, rule="must be a tuple (beta1, beta2, epsilon)"
        )
    beta1 = check_real("adam[0]", adam[0], nonnegative=True, below=1.0)
    beta2 = check_real("adam[1]", adam[1], nonnegative=True, below=1.0)
    epsilon = check_real("adam[2]", adam[2], positive=True)
    clip = _flag("clip", clip)
    d = info.dimension
    start = np.full(d, 0.5) if init is None else check_vector("init", init, shape=(d,))
    if info.box and np.any((start < 0) | (start > 1)):
        raise ParameterError(
            parameter="init", value=start.tolist(), rule="must lie in [0, 1]^d (the problem's box)"
        )
    batched = None if replicates is None else check_int("replicates", replicates, minimum=1)
    record = _flag("record", record)
    seeds = [seed] if batched is None else replicate_seeds(seed, batched)
    generators = tuple(generator(seed_r) for seed_r in seeds)
    streams = np.array([rng.integers(0, 2**64, dtype=np.uint64) for rng in generators])
    return _Common(
        info, rounds, T, eta, use_adam, (beta1, beta2, epsilon), clip, start, batched, record,
        streams.astype(np.uint64), generators,
    )  # fmt: skip


def _fd_settings(
    common: _Common, *, exact: Any, queries: Any, smoothing: Any, noise: Any, shared: Any
) -> FDSettings:
    """The local estimator's settings (exact gradients need a problem that has them)."""
    exact = _flag("exact", exact)
    if exact and not common.info.gradients:
        raise ParameterError(
            parameter="estimator",
            value="exact",
            rule="the problem has no exact gradients (exact_gradients is False)",
        )
    return FDSettings(
        exact=exact,
        gradients=common.info.gradients,
        queries=check_int("queries", queries, minimum=1),
        smoothing=check_real("smoothing", smoothing, positive=True),
        noise=check_real("noise", noise, nonnegative=True),
        shared_directions=_flag("shared_directions", shared),
        seeds=kernel_array(common.streams, np.uint64),
    )


def _controls(common: _Common, used: bool) -> Controls:
    reps, m, d = common.reps, common.info.clients, common.info.dimension
    if not used:
        m = d = 0
    return Controls(np.zeros((reps, m, d)), np.zeros((reps, d)), np.zeros((reps, m, d)))


def _run_log(common: _Common) -> RunLog:
    reps, R, m, T = common.reps, common.rounds, common.info.clients, common.local_steps
    shape = (reps, R, m, T)
    return RunLog(
        disparity=np.full(shape, np.nan),
        cosine=np.full(shape, np.nan),
        drift=np.full(shape, np.nan),
        local_error=np.full(shape, np.nan),
        correction_error=np.full(shape, np.nan),
        gamma=np.full(shape, np.nan),
        gamma_oracle=np.full(shape, np.nan),
        values=np.full((reps, R + 1), np.nan),
        grad_norm2=np.full((reps, R + 1), np.nan),
        diverged=np.full((reps, 3), -1, dtype=np.int64),
    )


def _loop(
    algorithm: str, common: _Common, client: Any, server: Any, log: RunLog
) -> tuple[np.ndarray, ...]:
    """The core round loop (every client trains and uploads every round) from x_0; raises
    DivergenceError at the first non-finite iterate, naming round, client and local step."""
    reps, R, m, d = common.reps, common.rounds, common.info.clients, common.info.dimension
    everyone = np.broadcast_to(np.arange(m, dtype=np.int64), (reps, R, m)).copy()
    counts = np.full((reps, R), m, dtype=np.int64)
    with np.errstate(all="ignore"):
        out = _round_loop(
            common.info.view,
            client,
            server,
            everyone,
            counts,
            everyone,
            counts,
            np.ones(R, dtype=np.bool_),
            kernel_array(np.broadcast_to(common.init, (reps, d))),
            kernel_array(np.broadcast_to(common.init, (reps, m, d))),
            common.record,
        )
    where = log.diverged[:, 0]
    if np.any(where >= 0):
        rep = int(np.argmax(where >= 0))
        rt, i, s = (int(v) for v in log.diverged[rep])
        prefix = f"replicate {rep}, " if common.batched else ""
        raise DivergenceError(
            algorithm,
            rt + 1,
            float("nan"),
            hint=f"{prefix}client {i}, local step {s + 1}: the iterate x_(r,t) is not finite "
            "(step size too large for the problem's smoothness, or γ too large?)",
        )
    sizes = out[3]
    check_finite_trace(algorithm, (sizes.max(axis=0),), hint="a model is not finite")
    return tuple(out)


def _shaped(array: np.ndarray, batched: bool) -> np.ndarray:
    """A read-only view of a run's array: the replicate axis kept for a batch, dropped else."""
    return readonly(array if batched else array[0], None, copy=False)


def _gamma_number(name: str, value: Any) -> float | None:
    """A fixed γ in [0, 1], or None when ``value`` is not a number."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return _unit(name, value)
    return None
