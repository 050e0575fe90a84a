"""Plain-numpy twins of FedAve on the round loop (its client and server steps) and of the
queue kernel of :mod:`fedtheory.papers.fedlrgd.running_time`.

Slow and written straight from the definitions, sharing no code with the kernels:

- :func:`fedave` runs FedAve's epochs with the instance's own vectorised per-sample gradient
  (:meth:`LatentERM.gradient`), so it also cross-checks the kernel's hand-written gradients;
- :func:`mm1_completion` simulates the M/M/1 queue event by event (the kernel uses the Lindley
  recursion D_j = max(A_j, D_{j−1}) + service_j).

Same pre-drawn random inputs, same outputs.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def fedave(
    instance: Any,
    theta0: np.ndarray,
    clients: np.ndarray,
    samples: np.ndarray,
    steps: np.ndarray,
) -> np.ndarray:
    """Twin of FedAve on the round loop (PresampledSGD + ModelAverage): the server trajectory,
    shape (T + 1, p)."""
    theta = np.array(theta0, dtype=float)
    trajectory = [theta.copy()]
    for t in range(clients.shape[0]):
        models = []
        for a, c in enumerate(clients[t]):
            local = theta.copy()
            for j in samples[t, a]:
                x = instance.clients[c, j][None, :]
                local = local - steps[t] * instance.gradient(x, local)[0]
            models.append(local)
        theta = np.mean(models, axis=0)
        trajectory.append(theta.copy())
    return np.array(trajectory)


def mm1_completion(
    initial: np.ndarray, services: np.ndarray, interarrivals: np.ndarray
) -> np.ndarray:
    """Twin of ``_mm1_completion``: event-driven simulation of a FIFO single-server queue.

    ``initial[q]`` customers wait at time 0; services are consumed in the order in which
    services start, inter-arrival times in the order of arrivals; returns the time of the k-th
    departure, k = services.shape[1].
    """
    out = []
    for q in range(services.shape[0]):
        k = services.shape[1]
        service_draws = iter(services[q])
        arrival_draws = iter(interarrivals[q])
        clock = 0.0
        in_system = int(initial[q])
        departures = 0
        next_departure = clock + next(service_draws) if in_system > 0 else math.inf
        gap = next(arrival_draws, None)
        next_arrival = math.inf if gap is None else clock + gap
        while True:
            if in_system > 0 and next_departure <= next_arrival:
                clock = next_departure
                in_system -= 1
                departures += 1
                if departures == k:
                    out.append(clock)
                    break
                next_departure = clock + next(service_draws) if in_system > 0 else math.inf
            else:
                clock = next_arrival
                in_system += 1
                if in_system == 1:
                    next_departure = clock + next(service_draws)
                gap = next(arrival_draws, None)
                next_arrival = math.inf if gap is None else clock + gap
    return np.array(out)
