"""The running-time model of §II-D behind Definition 1 (Jadbabaie, Makur & Shah).

In the model of [1]_, a gradient takes 1 + Exp(1) time units; a type-A epoch waits for the slowest
of the τm active clients (b + max_i Y_i, Y_i ∼ Erlang(b, 1)); a type-B epoch takes b + Y; the
uploads go through an M/M/1 queue (arrival rate 1, service rate ν), and an epoch's communication
time is φ·S with S the time of the τm-th departure (22)–(24). :func:`running_time_monte_carlo`
simulates it, to compare with the paper's approximations (19), (20) and (23);
:func:`erlang_max_mean` computes the exact b + E[max_i Y_i] by quadrature. The M/M/1 kernel's twin
is ``tests/reference/fedlrgd_algorithms.py``.

References
----------
.. [1] A. Jadbabaie, A. Makur & D. Shah, Federated optimization of smooth loss functions,
   arXiv:2201.01954v2; §II-D, eqs. (19)–(25), (73).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy import integrate, special

from fedtheory._arrays import readonly
from fedtheory._checks import check_int, check_real
from fedtheory._jit import njit
from fedtheory._seeds import Seed, seed_sequence
from fedtheory.errors import ParameterError

__all__ = ["RunningTimeSample", "erlang_max_mean", "running_time_monte_carlo"]


@njit
def _mm1_completion(
    initial: np.ndarray, services: np.ndarray, interarrivals: np.ndarray
) -> np.ndarray:
    """Time of the k-th departure of a FIFO single-server queue, per replicate.

    ``initial[q]`` customers are in the system at time 0 (they depart first, in order);
    then customers arrive at the partial sums of ``interarrivals[q]``. Customer j (1-based,
    in departure order) has service time ``services[q, j − 1]``; k = services.shape[1]. The
    departure times follow D_j = max(A_j, D_{j−1}) + service_j with A_j = 0 for the initial
    customers (service is memoryless, so the residual service of the one in service at time 0
    is a fresh draw).
    """
    R, k = services.shape
    out = np.empty(R)
    for q in range(R):
        departure = 0.0
        arrival = 0.0
        n0 = initial[q]
        for j in range(k):
            if j >= n0:
                arrival += interarrivals[q, j - n0]
                if arrival > departure:
                    departure = arrival
            departure += services[q, j]
        out[q] = departure
    return out


def erlang_max_mean(b: int, k: int) -> float:
    """E[max_{i≤k} Y_i] for Y_i i.i.d. Erlang(b, 1), by numerical integration of 1 − F_Y^k.

    F_Y(y) = 1 − e^{−y}Σ_{j<b} y^j/j! (73) is the regularized lower incomplete gamma function.
    The integral ∫_0^∞ (1 − F_Y(y)^k) dy is split at the median of the maximum and cut where
    the tail is below 1e−18 (relative accuracy ≈ 1e−10).
    """
    b = check_int("b", b, minimum=1)
    k = check_int("k", k, minimum=1)

    def integrand(y: float) -> float:
        upper = float(special.gammaincc(b, y))  # 1 − F_Y(y), accurate in the tail
        if upper >= 1.0:
            return 1.0
        return -math.expm1(k * math.log1p(-upper))

    median = float(special.gammaincinv(b, 0.5 ** (1.0 / k)))
    top = float(special.gammainccinv(b, 1e-18 / k))
    head = integrate.quad(integrand, 0.0, median, limit=200, epsabs=0.0, epsrel=1e-12)[0]
    tail = integrate.quad(integrand, median, top, limit=200, epsabs=0.0, epsrel=1e-12)[0]
    return float(head + tail)


@dataclass(frozen=True, eq=False)
class RunningTimeSample:
    """Simulated epoch times of the running-time model of §II-D, with the paper's predictions.

    Attributes
    ----------
    b : int
        Gradients per client (or at the server) in the epoch.
    active : int
        τm, the number of active clients.
    phi : float
        φ: the communication time of an epoch is φ·S (24).
    nu : float
        Service rate ν > 1 of the M/M/1 upload queue.
    compute_clients : numpy.ndarray
        b + max_{i≤τm} Y_i, Y_i ∼ Erlang(b, 1): the computation phase of a type-A epoch.
    compute_server : numpy.ndarray
        b + Y, Y ∼ Erlang(b, 1): a type-B epoch (the server computes alone).
    completion : numpy.ndarray
        S = inf{t : D(t) = τm} (22): time of the τm-th departure of the M/M/1 queue.
    """

    b: int
    active: int
    phi: float
    nu: float
    compute_clients: np.ndarray
    compute_server: np.ndarray
    completion: np.ndarray

    @property
    def epoch_A(self) -> np.ndarray:
        """Type-A epoch times: computation then φ·S (25)."""
        return np.asarray(self.compute_clients + self.phi * self.completion)

    @property
    def epoch_B(self) -> np.ndarray:
        """Type-B epoch times."""
        return self.compute_server

    @property
    def epoch_C(self) -> np.ndarray:
        """Type-C epoch times φ·S."""
        return np.asarray(self.phi * self.completion)

    @property
    def approx_19(self) -> float:
        """The paper's (19): b + E[max_i Y_i] ≈ log(τm) + 2b."""
        return math.log(self.active) + 2.0 * self.b

    @property
    def approx_20(self) -> float:
        """(20): b + E[Y] = 2b (exact)."""
        return 2.0 * self.b

    @property
    def approx_23(self) -> float:
        """(23): E[S] = τm (exact for a stationary start, by Burke's theorem)."""
        return float(self.active)

    @property
    def exact_compute_clients(self) -> float:
        """b + E[max_{i≤τm} Y_i] by numerical integration (:func:`erlang_max_mean`)."""
        return self.b + erlang_max_mean(self.b, self.active)


#: Largest number of Erlang draws held in memory at once by :func:`running_time_monte_carlo`.
_DRAW_CHUNK = 1 << 20


def running_time_monte_carlo(
    b: int,
    active: int,
    phi: float,
    nu: float,
    replicates: int,
    seed: Seed,
    *,
    start: Literal["stationary", "empty"] = "stationary",
) -> RunningTimeSample:
    """Monte Carlo of the running-time model of §II-D (guide §2.1), per epoch type.

    Computation: a gradient takes 1 + Exp(1) time units, so b gradients take b + Y with
    Y ∼ Erlang(b, 1) = Gamma(b, 1) (drawn as such); a type-A epoch waits for the slowest of
    the τm active clients, b + max_i Y_i (predicted ≈ log(τm) + 2b by (19)); a type-B epoch
    takes b + Y (E = 2b, (20)).

    Communication: the τm uploads go through an M/M/1 FIFO queue with arrival rate 1 and
    service rate ν > 1; S is the time of the τm-th departure (22). With ``start="stationary"``
    the queue starts in its stationary law (N(0) geometric, P(N = n) = (1 − 1/ν)ν^{−n}), as the
    paper assumes: by Burke's theorem the departures are then Poisson(1) and S ∼ Erlang(τm, 1),
    E[S] = τm (23) whatever ν. ``start="empty"`` starts from an empty system (then E[S] > τm:
    the steady-state assumption matters). Communication time is φ·S (24).

    Parameters
    ----------
    b
        Gradients per client per epoch, ≥ 1.
    active
        τm ≥ 1.
    phi
        φ ≥ 0.
    nu
        Service rate ν > 1.
    replicates
        Number of simulated epochs ≥ 1.
    seed
        Integer or SeedSequence.
    start
        "stationary" (default) or "empty".

    Returns
    -------
    RunningTimeSample
        The simulated times and the paper's predictions (19), (20), (23).
    """
    b = check_int("b", b, minimum=1)
    active = check_int("active", active, minimum=1)
    phi = check_real("phi", phi, nonnegative=True)
    nu = check_real("nu", nu, positive=True)
    if not nu > 1.0:
        raise ParameterError(
            parameter="nu", value=nu, rule="must exceed the arrival rate 1 (a stable queue)"
        )
    replicates = check_int("replicates", replicates, minimum=1)
    if start not in ("stationary", "empty"):
        raise ParameterError(parameter="start", value=start, rule="must be 'stationary' or 'empty'")
    rng_compute, rng_server, rng_queue = (
        np.random.default_rng(child) for child in seed_sequence(seed).spawn(3)
    )
    compute = np.empty(replicates)
    rows = max(1, _DRAW_CHUNK // active)
    for first in range(0, replicates, rows):
        count = min(rows, replicates - first)
        compute[first : first + count] = rng_compute.gamma(b, 1.0, size=(count, active)).max(axis=1)
    server = rng_server.gamma(b, 1.0, size=replicates)
    if start == "stationary":
        initial = rng_queue.geometric(1.0 - 1.0 / nu, size=replicates).astype(np.int64) - 1
    else:
        initial = np.zeros(replicates, dtype=np.int64)
    completion = np.empty(replicates)
    rows = max(1, _DRAW_CHUNK // active)
    for first in range(0, replicates, rows):
        count = min(rows, replicates - first)
        services = rng_queue.exponential(1.0 / nu, size=(count, active))
        interarrivals = rng_queue.exponential(1.0, size=(count, active))
        completion[first : first + count] = _mm1_completion(
            np.ascontiguousarray(initial[first : first + count]), services, interarrivals
        )
    return RunningTimeSample(
        b=b,
        active=active,
        phi=phi,
        nu=nu,
        compute_clients=readonly(b + compute),
        compute_server=readonly(b + server),
        completion=readonly(completion),
    )
