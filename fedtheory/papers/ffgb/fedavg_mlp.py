"""FedAvg on FFGB's weak-learner network: the baseline of the paper's figures (§4, App. B.2).

Shen, Hassani, Kale & Karbasi compare FFGB with FedAvg "on the same architecture" (§4.1; the
App. B.1 MLP for MNIST) and report test accuracy against communication rounds (Fig. 3) and
against the number of models exchanged per client (Figs. 1, 4): FedAvg exchanges 2 models per
round per client (it downloads the global model and uploads its local one), FFGB N·K (§4.1).
MNIST's FedAvg (App. B.2, from Karimireddy et al.): 25 local steps, each on 20% of the local
data, step 0.0003.

:func:`fedavg_digits` runs that FedAvg on a
:class:`~fedtheory.papers.ffgb.digits.DigitsFederation` with the core's FedAvg loop
(:func:`fedtheory.algorithms.federated.local_sgd_rounds`: client step
:class:`~fedtheory.algorithms.client_steps.LocalSGD` from the server's model, server step
:class:`~fedtheory.algorithms.server_steps.ServerStep` with multiplier 1, i.e. the p-weighted
average Σ p_i w^(i), p_i = n_i/n) on the MLP's kernel view
(:mod:`fedtheory.papers.ffgb._mlp_samples`): no second round loop. Minibatches are drawn
without replacement by the core's counter-based stream; the initial network is PyTorch's
default initialisation drawn from the seed.

Departure (guide §4.2): the step must be re-tuned for the digits (the paper's 0.0003 on MNIST
barely moves the network in a few hundred rounds here), so ``local_step`` has no default.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_finite_trace, check_int, check_real
from fedtheory._seeds import Seed, generator
from fedtheory.algorithms.federated import local_sgd_rounds
from fedtheory.algorithms.trace import Trace
from fedtheory.errors import ParameterError
from fedtheory.papers.ffgb._mlp_net import _mlp_forward, _mlp_init, _mlp_parameter_count
from fedtheory.papers.ffgb._mlp_samples import MLPSamples
from fedtheory.papers.ffgb.digits import DIGITS_CLASSES, DigitsFederation

__all__ = ["DigitsFedAvgRun", "fedavg_digits", "mlp_values"]


@dataclass(frozen=True, eq=False)
class DigitsFedAvgRun:
    """Result of :func:`fedavg_digits`.

    Attributes
    ----------
    global_model : numpy.ndarray
        θ_T, the final network's flat parameters, shape (p,).
    iterates : numpy.ndarray
        θ_t for t = 0, …, T, shape (T + 1, p).
    train_accuracy, test_accuracy : numpy.ndarray
        Accuracy of θ_t on the training and the test atoms, shape (T + 1,).
    models_exchanged : numpy.ndarray
        Models sent or received per client up to θ_t, read off the trace's float counts
        ((floats up + floats down) / (p·N) summed over the rounds before t): 2t.
    trace : Trace
        Rows 0..T − 1 the rounds, row T the final download of θ_T.
    hyperparameters : dict[str, Any]
        The run's settings.
    """

    global_model: np.ndarray
    iterates: np.ndarray
    train_accuracy: np.ndarray
    test_accuracy: np.ndarray
    models_exchanged: np.ndarray
    trace: Trace
    hyperparameters: dict[str, Any]

    @property
    def rounds(self) -> int:
        """T."""
        return int(self.iterates.shape[0] - 1)


def mlp_values(
    theta: Any,
    features: Any,
    *,
    hidden: tuple[int, int] = (32, 32),
    slope: float = 0.01,
    classes: int = DIGITS_CLASSES,
) -> np.ndarray:
    """The network θ's outputs at the rows of ``features``, shape (n, classes).

    Raises
    ------
    ParameterError
        If θ does not have the parameter count of the architecture.
    """
    X = kernel_array(np.asarray(features, dtype=np.float64))
    if X.ndim != 2:
        raise ParameterError(
            parameter="features", value=f"array of shape {X.shape}", rule="must have shape (n, d)"
        )
    h1, h2 = (check_int(f"hidden[{a}]", v, minimum=1) for a, v in enumerate(hidden))
    classes = check_int("classes", classes, minimum=1)
    p = _mlp_parameter_count(X.shape[1], h1, h2, classes)
    w = kernel_array(np.asarray(theta, dtype=np.float64))
    if w.shape != (p,):
        raise ParameterError(
            parameter="theta",
            value=f"array of shape {w.shape}",
            rule=f"must have the architecture's {p} parameters",
        )
    slope = check_real("slope", slope, nonnegative=True, below=1.0)
    out: np.ndarray = _mlp_forward(w, X, h1, h2, classes, slope)[4]
    return out


def _mlp_samples(federation: DigitsFederation, h1: int, h2: int, slope: float) -> MLPSamples:
    N = federation.clients
    sizes = federation.client_sizes
    d_in = federation.features.shape[1]
    features = np.zeros((N, int(sizes.max()), d_in))
    labels = np.zeros((N, int(sizes.max())), dtype=np.int64)
    for i in range(N):
        atoms = federation.client_atoms(i)
        features[i, : atoms.size] = federation.features[atoms]
        labels[i, : atoms.size] = federation.labels[atoms]
    return MLPSamples(
        features, labels, kernel_array(sizes, np.int64), h1, h2, DIGITS_CLASSES, slope
    )


def fedavg_digits(
    federation: DigitsFederation,
    *,
    rounds: int,
    local_step: float,
    local_steps: int = 25,
    batch_fraction: float = 0.2,
    hidden: tuple[int, int] = (32, 32),
    slope: float = 0.01,
    clients_per_round: int | None = None,
    seed: Seed,
) -> DigitsFedAvgRun:
    """FedAvg on the App. B.1 MLP over the digits clients (the baseline of §4, App. B.2).

    For t = 0, …, T − 1: the sampled clients (all by default) start from θ_t, take
    ``local_steps`` minibatch SGD steps on the mean cross-entropy of batches of
    round(batch_fraction · min_i n_i) distinct points, and θ_{t+1} = Σ_i p_i θ^(i) with
    p_i = n_i/n (over the sampled clients, rescaled by m/``|C_t|``).

    Parameters
    ----------
    federation
        The digits clients (:func:`~fedtheory.papers.ffgb.digits.digits_federation`).
    rounds
        T ≥ 0.
    local_step
        The SGD step η > 0 (to be tuned; App. B.2 uses 0.0003 on MNIST).
    local_steps
        Local steps per round ≥ 1 (App. B.2: 25).
    batch_fraction
        Fraction in (0, 1] of the local data per step (App. B.2: 0.2).
    hidden, slope
        The MLP (App. B.1: (32, 32), 0.01).
    clients_per_round
        Clients sampled per round, uniformly without replacement; default all.
    seed
        Integer or SeedSequence: draws the minibatch stream, the initial network and the
        participation.

    Returns
    -------
    DigitsFedAvgRun

    Raises
    ------
    ParameterError
        On any bad argument.
    DivergenceError
        If a model becomes non-finite (the step is too large).
    """
    if not isinstance(federation, DigitsFederation):
        raise ParameterError(
            parameter="federation",
            value=type(federation).__name__,
            rule="must be a DigitsFederation (see digits_federation)",
        )
    rounds = check_int("rounds", rounds, minimum=0)
    eta = check_real("local_step", local_step, positive=True)
    local_steps = check_int("local_steps", local_steps, minimum=1)
    fraction = check_real("batch_fraction", batch_fraction, positive=True)
    if fraction > 1.0:
        raise ParameterError(parameter="batch_fraction", value=fraction, rule="must lie in (0, 1]")
    if not isinstance(hidden, tuple | list) or len(hidden) != 2:
        raise ParameterError(
            parameter="hidden", value=hidden, rule="must be a pair of widths (h1, h2)"
        )
    h1 = check_int("hidden[0]", hidden[0], minimum=1)
    h2 = check_int("hidden[1]", hidden[1], minimum=1)
    slope = check_real("slope", slope, nonnegative=True, below=1.0)
    N = federation.clients
    per_round = N
    if clients_per_round is not None:
        per_round = check_int("clients_per_round", clients_per_round, minimum=1)
        if per_round > N:
            raise ParameterError(
                parameter="clients_per_round", value=per_round, rule=f"must be at most N = {N}"
            )
    samples = _mlp_samples(federation, h1, h2, slope)
    sizes = federation.client_sizes
    batch = max(1, round(fraction * int(sizes.min())))
    d_in = federation.features.shape[1]
    p = _mlp_parameter_count(d_in, h1, h2, DIGITS_CLASSES)

    rng = generator(seed)
    stream = rng.integers(0, 2**64, dtype=np.uint64)
    init_seed = rng.integers(0, 2**64, dtype=np.uint64)
    masks = np.ones((1, rounds, N), dtype=np.bool_)
    if per_round < N:
        masks[:] = False
        for t in range(rounds):
            masks[0, t, rng.choice(N, size=per_round, replace=False)] = True
    theta0 = _mlp_init(np.uint64(init_seed), d_in, h1, h2, DIGITS_CLASSES)

    out = local_sgd_rounds(
        samples,
        radius=math.inf,
        weights=(sizes / sizes.sum())[None, :],
        masks=masks,
        work=np.append(np.full(rounds, local_steps), 0).astype(np.int64),
        epochs=False,
        batch=batch,
        local_steps=np.array([eta]),
        server_steps=np.ones(rounds),
        lam=0.0,
        persistent=False,
        train_sampled=True,
        project_global=False,
        final_download=True,
        init_global=theta0[None, :],
        init_local=np.ascontiguousarray(np.broadcast_to(theta0, (1, N, p))),
        seeds=np.array([stream], dtype=np.uint64),
        record=True,
    )
    global_model, _, counts, model_sizes, global_iterates, _ = out
    check_finite_trace(
        "fedavg_digits",
        (model_sizes[0],),
        hint="the squared norms of the networks are not finite (is local_step too large?)",
    )
    trace = Trace.from_counts(counts[0])
    per_row = (trace.floats_up + trace.floats_down) / (p * N)
    exchanged = np.concatenate([[0.0], np.cumsum(per_row[:rounds])])
    iterates = global_iterates[0]
    train, test = federation.train_atoms, federation.test_atoms
    atoms = kernel_array(federation.features)
    train_accuracy = np.empty(rounds + 1)
    test_accuracy = np.empty(rounds + 1)
    for t in range(rounds + 1):
        predicted = np.argmax(
            _mlp_forward(iterates[t], atoms, h1, h2, DIGITS_CLASSES, slope)[4],
            axis=1,
        )
        correct = predicted == federation.labels
        train_accuracy[t] = float(np.mean(correct[train]))
        test_accuracy[t] = float(np.mean(correct[test]))
    return DigitsFedAvgRun(
        global_model=readonly(global_model[0]),
        iterates=readonly(iterates),
        train_accuracy=readonly(train_accuracy),
        test_accuracy=readonly(test_accuracy),
        models_exchanged=readonly(exchanged),
        trace=trace,
        hyperparameters={
            "rounds": rounds,
            "local_step": eta,
            "local_steps": local_steps,
            "batch_fraction": fraction,
            "batch": batch,
            "hidden": (h1, h2),
            "slope": slope,
            "clients_per_round": per_round,
            "weights": "n_i/n",
            "s": federation.s,
        },
    )
