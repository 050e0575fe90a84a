"""FedLRGD (Algorithm 1), FedAve as analysed in Theorem 3, federated GD, and the cost model.

Jadbabaie, Makur & Shah, *Federated Optimization of Smooth Loss Functions* (the ``fedlrgd``
seed; reading guide §2). Every algorithm here runs on a
:class:`~fedtheory.papers.fedlrgd.erm.LatentERM` instance (a server with r samples and m
clients with s samples each, objective F of (3)) and records its epochs in an
:class:`EpochLog`, from which the federated oracle complexity of Definition 1,

    Γ(𝒜) = Σ_{t≤T} [ b_t + 1{clients communicate in epoch t}·φτm ],

is *measured* rather than copied from a theorem.

- :func:`fedlrgd`: Algorithm 1 with the exact index conventions of guide §2.2 (epoch 1: the
  server's r² gradients G^{(i)}_{j,k} = g_i(x^{(0,j)}; ϑ^{(k)}) (34); epoch 2: every client
  solves G^{(i)ᵀ}v = hᵀ (35)/(38)–(39) and sends v_1; epochs 3..r+1: v_2..v_r; epoch r+2: S
  inexact GD steps θ ← θ − ∇̂F(θ)/L1 with ∇̂F_i(θ) = (1/n)Σ_k g_i(x^{(0,k)}; θ)(1 + Σ_c v_k^{(i,c)})
  (41)–(42)). Γ = r² + rs + rS + φmr (Theorem 2).
- :func:`fedave`: FedPAQ [2]_ without quantization, the algorithm behind Theorem 3 (guide §2.4):
  τm clients sampled per epoch run b single-sample SGD steps from the server model, the server
  averages. Γ = T(b + φτm).
- :func:`fedgd`: federated full-gradient GD (guide §2.5, the baseline the paper omits): per
  iteration a type-B epoch (server gradients) and a type-A epoch (client gradient sums), then
  the exact step θ ← θ − ∇F(θ)/L1. Γ = T(r + s + φm).
- :func:`gradient_descent_exact`: the ground-truth trajectory θ ← θ − ∇F(θ)/L1.
- :func:`running_time_monte_carlo`: the running-time model of §II-D behind Definition 1
  (per-gradient time 1 + Exp(1); uploads through an M/M/1 queue), to compare with (19), (20),
  (23).

Departures from the paper (each also stated where it applies)
--------------------------------------------------------------
- *Pivots.* The paper only asks for distinct ϑ^{(1..r)} with invertible G^{(i)}; the default
  draws them uniformly in the instance's ``theta_box`` (guide §2.3.1).
- *Weight solver.* The paper inverts G^{(i)} (``solver="inv"``); the default ``"lstsq"``
  solves G^{(i)ᵀ}v = hᵀ by SVD least squares, which stays exact when G^{(i)} is singular
  (exactly low-rank models, guide V6) and is numerically sane when it is ill-conditioned.
- *r below the server's sample count.* The paper's server holds exactly r samples. With more,
  the first r are the basis rows and the server treats its other R − r samples like a client
  (it computes their (R − r)·r gradients at the pivots in epoch 1 and their weights itself);
  then Γ = Rr + rs + rS + φmr, which is Theorem 2's value at R = r.
- *τ = 1* in FedLRGD (guide §2.3.3): the paper never says how inactive clients' weights would
  be handled.
- *FedAve's objective* is the client average (FedPAQ's), not F of (3): it never uses the
  server's samples (guide §2.4, §6.6). Its reported gaps are nevertheless F(θ_t) − F_* for F of
  (3), the objective the paper compares on.

References
----------
.. [1] A. Jadbabaie, A. Makur & D. Shah, Federated optimization of smooth loss functions,
   arXiv:2201.01954v2; Definition 1, Algorithm 1, eqs. (19)–(26), (34)–(42), Theorems 2–3,
   Lemma 2, App. D.
.. [2] A. Reisizadeh, A. Mokhtari, H. Hassani, A. Jadbabaie & R. Pedarsani (2020), FedPAQ: a
   communication-efficient federated learning method with periodic averaging and quantization,
   AISTATS; Algorithm 1, Theorem 1 (cited as [30] by [1]).
.. [3] M. P. Friedlander & M. Schmidt (2012), Hybrid deterministic-stochastic methods for data
   fitting, SIAM J. Sci. Comput. 34(3), Lemma 2.1 (the paper's Lemma 2).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from scipy import integrate, special

from fedtheory._arrays import readonly
from fedtheory._checks import check_finite_trace, check_int, check_real, check_vector
from fedtheory._jit import njit
from fedtheory._seeds import Seed, generator, seed_sequence
from fedtheory.errors import ParameterError, SolverError
from fedtheory.papers.fedlrgd.erm import LatentERM, LogisticLatentERM, QuadraticLatentERM

__all__ = [
    "EpochLog",
    "EpochLogger",
    "FedAveRun",
    "FedLRGDRun",
    "LatentRun",
    "RunningTimeSample",
    "erlang_max_mean",
    "fedave",
    "fedave_burn_in",
    "fedgd",
    "fedlrgd",
    "gradient_descent_exact",
    "running_time_monte_carlo",
]

EpochKind = Literal["A", "B", "C"]
Solver = Literal["lstsq", "solve", "pinv", "inv"]
SOLVERS: tuple[str, ...] = ("lstsq", "solve", "pinv", "inv")
PivotDesign = Literal["box", "lhs"]

#: Rows of the trajectory evaluated at once when computing gaps (bounds memory to ~n·256 floats).
_GAP_CHUNK = 256


# =============================================================================================
# Definition 1: the epoch logger
# =============================================================================================


@dataclass(frozen=True, eq=False)
class EpochLog:
    """The epochs of a run, as Definition 1 counts them.

    Epoch t has a type (§II-D): **A** — active clients compute b_t gradients each, then
    communicate; **B** — only the server computes b_t gradients; **C** — clients only
    communicate. ``active[t]`` is the number τm of clients that upload one vector in ℝ^p in
    epoch t (0 when nobody communicates).

    Attributes
    ----------
    kinds : tuple of str
        "A", "B" or "C" per epoch.
    gradients : numpy.ndarray
        b_t per epoch (int64): gradient evaluations per active client (or by the server).
    communicates : numpy.ndarray
        1{clients communicate in epoch t} (bool).
    active : numpy.ndarray
        τm per epoch (int64; 0 when nobody communicates).
    phi : float
        The communication-to-computation ratio φ.
    """

    kinds: tuple[str, ...]
    gradients: np.ndarray
    communicates: np.ndarray
    active: np.ndarray
    phi: float

    @property
    def epochs(self) -> int:
        """Number of epochs T."""
        return len(self.kinds)

    @property
    def computation(self) -> int:
        """Σ_t b_t (an exact integer)."""
        return int(self.gradients.sum())

    @property
    def uploads(self) -> int:
        """Σ_t 1{comm}·τm: vectors in ℝ^p received by the server (an exact integer)."""
        return int(self.active[self.communicates].sum())

    @property
    def gamma(self) -> float:
        """Γ of Definition 1: Σ_t b_t + φ·Σ_t 1{comm}·τm."""
        return float(self.computation) + self.phi * float(self.uploads)

    def costs(self) -> np.ndarray:
        """Per-epoch terms b_t + 1{comm}·φτm of Definition 1, shape (T,)."""
        return np.asarray(self.gradients + np.where(self.communicates, self.phi * self.active, 0))

    def expected_times(self) -> np.ndarray:
        """Per-epoch expected running times of (25): 2b + log(τm) + φτm (A), 2b (B), φτm (C).

        These are the paper's approximations; :func:`running_time_monte_carlo` simulates the
        model they approximate.
        """
        out = np.empty(self.epochs)
        for t, kind in enumerate(self.kinds):
            b, k = float(self.gradients[t]), float(self.active[t])
            if kind == "A":
                out[t] = 2.0 * b + math.log(k) + self.phi * k
            elif kind == "B":
                out[t] = 2.0 * b
            else:
                out[t] = self.phi * k
        return out


class EpochLogger:
    """Records epochs one by one while an algorithm runs; :meth:`freeze` gives the
    :class:`EpochLog`.

    Each :meth:`record` call is one epoch and is checked against its type: type A needs
    communicating clients, type B has none, type C computes nothing.

    Examples
    --------
    >>> logger = EpochLogger()
    >>> logger.record("B", gradients=4)
    >>> logger.record("A", gradients=6, active=10)
    >>> logger.record("C", active=10)
    >>> log = logger.freeze(phi=2.0)
    >>> log.kinds, log.computation, log.uploads, log.gamma
    (('B', 'A', 'C'), 10, 20, 50.0)
    """

    def __init__(self) -> None:
        self._kinds: list[str] = []
        self._gradients: list[int] = []
        self._active: list[int] = []

    def record(self, kind: EpochKind, *, gradients: int = 0, active: int = 0) -> None:
        """Append one epoch.

        Parameters
        ----------
        kind
            "A" (clients compute and communicate), "B" (server computes), "C" (clients
            communicate).
        gradients
            b_t ≥ 0, per active client (A) or at the server (B); must be 0 for C.
        active
            τm ≥ 1 uploading clients for A and C; must be 0 for B.
        """
        if kind not in ("A", "B", "C"):
            raise ParameterError(parameter="kind", value=kind, rule="must be 'A', 'B' or 'C'")
        gradients = check_int("gradients", gradients, minimum=0)
        active = check_int("active", active, minimum=0)
        if kind == "B" and active != 0:
            raise ParameterError(
                parameter="active", value=active, rule="a type-B epoch has no communication"
            )
        if kind in ("A", "C") and active < 1:
            raise ParameterError(
                parameter="active",
                value=active,
                rule=f"a type-{kind} epoch needs at least one communicating client",
            )
        if kind == "C" and gradients != 0:
            raise ParameterError(
                parameter="gradients", value=gradients, rule="a type-C epoch computes nothing"
            )
        self._kinds.append(kind)
        self._gradients.append(gradients)
        self._active.append(active)

    def freeze(self, phi: float) -> EpochLog:
        """The immutable log, with the communication-to-computation ratio φ ≥ 0."""
        phi = check_real("phi", phi, nonnegative=True)
        active = np.array(self._active, dtype=np.int64)
        return EpochLog(
            kinds=tuple(self._kinds),
            gradients=readonly(np.array(self._gradients, dtype=np.int64), np.int64),
            communicates=readonly(active > 0, np.bool_),
            active=readonly(active, np.int64),
            phi=phi,
        )


# =============================================================================================
# runs
# =============================================================================================


@dataclass(frozen=True, eq=False)
class LatentRun:
    """A run on a :class:`~fedtheory.papers.fedlrgd.erm.LatentERM` instance.

    Attributes
    ----------
    algorithm : str
        Name of the algorithm.
    trajectory : numpy.ndarray
        The server's iterates θ^{(0)}, …, θ^{(T)}, shape (T + 1, p).
    gaps : numpy.ndarray
        F(θ^{(t)}) − F_* for F of (3), shape (T + 1,).
    log : EpochLog or None
        The epochs (None for the centralized :func:`gradient_descent_exact`).
    hyperparameters : dict
        The settings of the run (plain data).
    """

    algorithm: str
    trajectory: np.ndarray
    gaps: np.ndarray
    log: EpochLog | None
    hyperparameters: dict[str, Any]

    @property
    def theta(self) -> np.ndarray:
        """The output θ^{(T)}."""
        return np.asarray(self.trajectory[-1])

    @property
    def iterations(self) -> int:
        """T: the number of updates of θ."""
        return int(self.trajectory.shape[0] - 1)

    @property
    def gamma(self) -> float | None:
        """Γ of Definition 1 (None without a log)."""
        return None if self.log is None else self.log.gamma


@dataclass(frozen=True, eq=False)
class FedLRGDRun(LatentRun):
    """Result of :func:`fedlrgd` (Algorithm 1).

    Attributes
    ----------
    errors : numpy.ndarray
        ‖∇̂F(θ^{(γ−1)}) − ∇F(θ^{(γ−1)})‖₂ for γ = 1, …, S, shape (S,): the gradient errors of
        Lemma 2 (e2 = errors²).
    gradient_norms : numpy.ndarray
        ‖∇F(θ^{(γ−1)})‖₂, shape (S,).
    condition : numpy.ndarray
        cond₂(G^{(i)}) = σ_max/σ_min for every coordinate i, shape (p,) (inf when singular).
    omega : numpy.ndarray
        ω_{i,k} = 1 + Σ_c v_k^{(i,c)}, shape (p, r): the weights of (41).
    pivots : numpy.ndarray
        ϑ^{(1..r)}, shape (r, p).
    basis : numpy.ndarray
        The server samples x^{(0,1..r)} used as rows of G^{(i)}, shape (r, d_x).
    instance : LatentERM
        The instance (for :meth:`surrogate_gradient`).
    """

    errors: np.ndarray
    gradient_norms: np.ndarray
    condition: np.ndarray
    omega: np.ndarray
    pivots: np.ndarray
    basis: np.ndarray
    instance: LatentERM = field(repr=False)

    def surrogate_gradient(self, theta: Any) -> np.ndarray:
        """∇̂F(θ) of (41) with the learned weights, at θ of shape (p,) or (q, p)."""
        theta = np.asarray(theta, dtype=np.float64)
        if theta.ndim not in (1, 2) or theta.shape[-1] != self.instance.p:
            raise ParameterError(
                parameter="theta",
                value=f"array of shape {theta.shape}",
                rule=f"must have shape ({self.instance.p},) or (q, {self.instance.p})",
            )
        return _surrogate(self.instance, self.basis, self.omega, theta)


@dataclass(frozen=True, eq=False)
class FedAveRun(LatentRun):
    """Result of :func:`fedave`.

    Attributes
    ----------
    steps : numpy.ndarray
        Local step η_t of epoch t, shape (T,).
    active_clients : numpy.ndarray
        Indices of the τm clients sampled in epoch t, shape (T, τm).
    """

    steps: np.ndarray
    active_clients: np.ndarray


# =============================================================================================
# shared checks and helpers
# =============================================================================================


def _check_instance(instance: Any) -> LatentERM:
    if not isinstance(instance, LatentERM):
        raise ParameterError(
            parameter="instance",
            value=type(instance).__name__,
            rule="must be a LatentERM (fedtheory.papers.fedlrgd.erm)",
        )
    return instance


def _start(instance: LatentERM, theta0: Any) -> np.ndarray:
    if theta0 is None:
        return np.zeros(instance.p)
    return check_vector("theta0", theta0, shape=(instance.p,))


def _step(instance: LatentERM, step: Any) -> float:
    """1/L1 of (42) by default; an explicit step is a departure (used for negative controls)."""
    if step is None:
        return 1.0 / instance.L1
    return check_real("step", step, positive=True)


def _gaps(instance: LatentERM, trajectory: np.ndarray) -> np.ndarray:
    out = np.empty(trajectory.shape[0])
    for start in range(0, trajectory.shape[0], _GAP_CHUNK):
        block = trajectory[start : start + _GAP_CHUNK]
        out[start : start + block.shape[0]] = (
            np.asarray(instance.objective(block)) - instance.F_star
        )
    return out


def _finish(algorithm: str, trajectory: np.ndarray, gaps: np.ndarray, hint: str = "") -> None:
    norms = np.sqrt(np.einsum("tp,tp->t", trajectory, trajectory))
    check_finite_trace(algorithm, (norms, gaps), hint=hint)


# =============================================================================================
# FedLRGD (Algorithm 1)
# =============================================================================================


def _pivots(instance: LatentERM, pivots: Any, r: int, seed: Seed | None) -> np.ndarray:
    """ϑ^{(1..r)}: an explicit (r, p) array of distinct rows, or a random design in the box."""
    p = instance.p
    if pivots is None:
        pivots = "box"
    if isinstance(pivots, str):
        if pivots not in ("box", "lhs"):
            raise ParameterError(
                parameter="pivots",
                value=pivots,
                rule="must be None, 'box', 'lhs' or an array of shape (r, p)",
            )
        if seed is None:
            raise ParameterError(
                parameter="seed",
                value=None,
                rule=f"is needed to draw the pivots (pivots={pivots!r})",
            )
        rng = generator(seed)
        lo, hi = instance.theta_box
        if pivots == "box":
            unit = rng.random((r, p))
        else:  # Latin hypercube: one point per stratum of every coordinate
            strata = np.column_stack([rng.permutation(r) for _ in range(p)])
            unit = (strata + rng.random((r, p))) / r
        return np.asarray(lo + (hi - lo) * unit)
    array = check_vector("pivots", pivots, shape=(r, p))
    if np.unique(array, axis=0).shape[0] != r:
        raise ParameterError(
            parameter="pivots", value="array with repeated rows", rule="pivots must be distinct"
        )
    return array


def _singular_values(G: np.ndarray) -> np.ndarray:
    """σ(G^{(i)}) for every coordinate, shape (p, r), descending."""
    return np.asarray(np.linalg.svd(np.moveaxis(G, 2, 0), compute_uv=False))


def _condition(sigma: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return np.where(sigma[:, -1] > 0, sigma[:, 0] / sigma[:, -1], np.inf)


def _client_weights(
    G: np.ndarray,
    H: np.ndarray,
    solver: str,
    rcond: float | None,
    *,
    transpose: bool = False,
) -> np.ndarray:
    """The weights v^{(i,c)} of (35)/(38)–(39): for every coordinate i, solve G^{(i)ᵀ}v = hᵀ.

    Parameters
    ----------
    G
        Server tensor, shape (r, r, p): G[j, k, i] = g_i(x^{(0,j)}; ϑ^{(k)}) (rows data j,
        columns pivots k, (34)).
    H
        Client sums, shape (c, r, p): H[c, k, i] = Σ_j g_i(x^{(c,j)}; ϑ^{(k)}).
    solver
        "lstsq" (SVD least squares with cutoff rcond·σ_max), "pinv" (v = h·pinv(G), the same
        cutoff), "solve" (LU), "inv" (v = h·G^{−1}, the literal (35)). "solve" and "inv" refuse
        a numerically singular G^{(i)} (σ_min ≤ r·eps·σ_max) with a SolverError.
    rcond
        Relative cutoff of "lstsq"/"pinv"; None: r·eps (numpy's lstsq default).
    transpose
        Solve G v = hᵀ instead (the transposition bug; for tests only).

    Returns
    -------
    numpy.ndarray
        v, shape (c, p, r).
    """
    r, _, p = G.shape
    cutoff = float(r) * np.finfo(float).eps if rcond is None else rcond
    out = np.empty((H.shape[0], p, r))
    for i in range(p):
        Gi = G[:, :, i]
        system = Gi if transpose else Gi.T  # v solves system @ v = h
        rhs = H[:, :, i].T  # (r, c)
        if solver in ("solve", "inv"):
            sigma = np.linalg.svd(Gi, compute_uv=False)
            if not sigma[-1] > r * np.finfo(float).eps * sigma[0]:
                cond = sigma[0] / sigma[-1] if sigma[-1] > 0 else math.inf
                raise SolverError(
                    f"fedlrgd (solver={solver!r})",
                    f"G^(i) is singular at coordinate i = {i} (0-based): "
                    f"cond = {cond:.3g}, numerical rank "
                    f"{int(np.sum(sigma > r * np.finfo(float).eps * sigma[0]))} < r = {r}",
                    hint="the non-singularity assumption (7) fails here (e.g. an exactly "
                    "low-rank model with r above its rank); use solver='lstsq' (or 'pinv')",
                )
            if solver == "solve":
                v = np.linalg.solve(system, rhs)
            else:
                v = (rhs.T @ np.linalg.inv(system.T)).T  # row vector h times G^{-1} (35)
        elif solver == "lstsq":
            v = np.linalg.lstsq(system, rhs, rcond=cutoff)[0]
        else:  # pinv: v = h·pinv(G), the row-vector form of (35)
            v = (rhs.T @ _pinv(system.T, cutoff)).T
        out[:, i, :] = v.T
    return out


def _pinv(matrix: np.ndarray, cutoff: float) -> np.ndarray:
    u, sigma, vt = np.linalg.svd(matrix)
    keep = sigma > cutoff * sigma[0]
    inv = np.zeros_like(sigma)
    inv[keep] = 1.0 / sigma[keep]
    return np.asarray((vt.T * inv) @ u.T)


def _surrogate(
    instance: LatentERM, basis: np.ndarray, omega: np.ndarray, theta: np.ndarray
) -> np.ndarray:
    """∇̂F_i(θ) = (1/n) Σ_k g_i(x^{(0,k)}; θ) ω_{i,k} (41), θ of shape (p,) or (q, p)."""
    grads = instance._gradient(basis, theta)  # (r, p) or (r, q, p)
    if theta.ndim == 1:
        return np.asarray(np.einsum("ki,ik->i", grads, omega) / instance.n)
    return np.asarray(np.einsum("kqi,ik->qi", grads, omega) / instance.n)


def fedlrgd(
    instance: LatentERM,
    *,
    r: int,
    S: int,
    pivots: np.ndarray | PivotDesign | None = None,
    theta0: np.ndarray | None = None,
    solver: Solver = "lstsq",
    rcond: float | None = None,
    phi: float = 1.0,
    step: float | None = None,
    seed: Seed | None = None,
) -> FedLRGDRun:
    """FedLRGD, Algorithm 1 of Jadbabaie, Makur & Shah [1]_ (index conventions of guide §2.2).

    Epochs (τ = 1; Definition 1 types in brackets):

    1. [B, b₁ = r²] the server evaluates G[j, k, :] = ∇_θ f(x^{(0,j)}; ϑ^{(k)}) for its r
       samples and the r pivots; G^{(i)} = G[:, :, i] (34), rows data, columns pivots.
    2. [A, b₂ = rs] client c evaluates its s gradients at the r pivots, forms
       h^{(i,c)} = Σ_j [g_i(x^{(c,j)}; ϑ^{(1)}) … g_i(x^{(c,j)}; ϑ^{(r)})] and solves
       G^{(i)ᵀ} v^{(i,c)} = h^{(i,c)ᵀ} — the row-vector form v = h (G^{(i)})^{−1} of (35),
       *not* G v = h — then sends {v_1^{(i,c)}}_i ∈ ℝ^p.
    3. [C, epochs 3, …, r + 1] client c sends {v_{t−1}^{(i,c)}}_i.
    4. [B, b = rS] the server runs S inexact GD steps (42), θ ← θ − ∇̂F(θ)/L1, with the
       surrogate (41) ∇̂F_i(θ) = (1/n) Σ_{k≤r} g_i(x^{(0,k)}; θ) ω_{i,k},
       ω_{i,k} = 1 + Σ_c v_k^{(i,c)}.

    So T = r + 2 epochs and Γ = r² + rs + rS + φmr (Theorem 2), measured by the run's
    :class:`EpochLog`. The errors ‖∇̂F − ∇F‖ at every iterate (the e_k of Lemma 2) are
    recorded; computing them (and the gaps) is diagnostics, outside the cost model.

    Departures (guide §2.3): the pivots default to a uniform draw in ``instance.theta_box``
    (the paper gives no rule); the default solver is SVD least squares (the paper's literal
    inverse is ``solver="inv"``); with r below the server's sample count R the other R − r
    server samples are treated like a client whose weights the server computes itself
    (Γ = Rr + rs + rS + φmr); ``step`` overrides 1/L1 (for negative controls only).

    Parameters
    ----------
    instance
        The federated ERM.
    r
        The approximate rank: the number of pivots and of server samples used as rows,
        1 ≤ r ≤ instance.server_size.
    S
        Number of inexact GD iterations, ≥ 0.
    pivots
        ϑ^{(1..r)}: an array of shape (r, p) with distinct rows, ``"box"`` (default: uniform
        in ``instance.theta_box``^p) or ``"lhs"`` (a Latin hypercube in the same box); the
        random designs need ``seed``.
    theta0
        θ^{(0)}, shape (p,); default 0 (Theorem 2 allows any start).
    solver
        "lstsq" (default), "pinv", "solve" or "inv" (see above). "solve" and "inv" raise a
        :class:`~fedtheory.errors.SolverError` when some G^{(i)} is numerically singular.
    rcond
        Relative singular-value cutoff of "lstsq"/"pinv" in (0, 1); default r·eps.
    phi
        Communication-to-computation ratio φ ≥ 0 (only enters Γ).
    step
        GD step; default 1/L1 as in (42).
    seed
        Integer or SeedSequence, for the random pivot designs.

    Returns
    -------
    FedLRGDRun
        Trajectory θ^{(0..S)}, gaps, errors, cond(G^{(i)}), weights ω, the epoch log and Γ.

    Raises
    ------
    ParameterError
        On a bad instance, r outside [1, server samples], S < 0, repeated pivots, an unknown
        solver, a bad θ^{(0)}, φ or step.
    SolverError
        For "solve"/"inv" when some G^{(i)} is numerically singular (the message names the
        coordinate and the condition number and suggests "lstsq").
    DivergenceError
        If an iterate is not finite.

    Examples
    --------
    >>> from fedtheory.papers.fedlrgd.erm import quadratic_latent_erm
    >>> inst = quadratic_latent_erm(10, 5, 4, 5, seed=0)          # exact rank 4
    >>> run = fedlrgd(inst, r=4, S=20, phi=10.0, seed=1)
    >>> gd = gradient_descent_exact(inst, S=20)
    >>> bool(np.abs(run.trajectory - gd.trajectory).max() < 1e-10)
    True
    >>> run.log.epochs, run.gamma == 4**2 + 4*5 + 4*20 + 10.0*10*4
    (6, True)
    """
    instance = _check_instance(instance)
    r = check_int("r", r, minimum=1)
    if r > instance.server_size:
        raise ParameterError(
            parameter="r",
            value=r,
            rule=f"must be at most the number of server samples ({instance.server_size}); "
            "Algorithm 1 uses r server samples as the rows of G^(i)",
        )
    S = check_int("S", S, minimum=0)
    if solver not in SOLVERS:
        raise ParameterError(
            parameter="solver", value=solver, rule=f"must be one of {', '.join(SOLVERS)}"
        )
    if rcond is not None:
        rcond = check_real("rcond", rcond, positive=True, below=1.0)
    phi = check_real("phi", phi, nonnegative=True)
    theta = _start(instance, theta0)
    eta = _step(instance, step)
    pivot_array = _pivots(instance, pivots, r, seed)

    m, s, p = instance.m, instance.s, instance.p
    basis = np.ascontiguousarray(instance.server[:r])
    extra = instance.server[r:]
    logger = EpochLogger()

    # Epoch 1 (type B): the server's r² gradients at the pivots, G^{(i)} of (34).
    G = instance._gradient(basis, pivot_array)  # (r, r, p): [j, k, i]
    logger.record("B", gradients=instance.server_size * r)
    condition = _condition(_singular_values(G))

    # Epoch 2 (type A): every client's r·s gradients at the pivots and its weights (35).
    client_grads = instance._gradient(instance.clients.reshape(-1, instance.d_x), pivot_array)
    H = client_grads.reshape(m, s, r, p).sum(axis=1)  # (m, r, p): h^{(i,c)}
    v = _client_weights(G, H, solver, rcond)  # (m, p, r)
    omega = 1.0 + v.sum(axis=0)
    if extra.shape[0] > 0:  # departure: server samples beyond r, handled like a client
        H_extra = instance._gradient(extra, pivot_array).sum(axis=0)[None]
        omega = omega + _client_weights(G, H_extra, solver, rcond)[0]
    logger.record("A", gradients=r * s, active=m)
    # Epochs 3, …, r + 1 (type C): v_2, …, v_r.
    for _ in range(r - 1):
        logger.record("C", active=m)

    # Epoch r + 2 (type B): S inexact GD steps (42), r server gradients each.
    trajectory = np.empty((S + 1, p))
    trajectory[0] = theta
    errors = np.empty(S)
    norms = np.empty(S)
    with np.errstate(all="ignore"):
        for gamma in range(S):
            surrogate = _surrogate(instance, basis, omega, theta)
            exact = instance.full_gradient(theta)
            errors[gamma] = float(np.linalg.norm(surrogate - exact))
            norms[gamma] = float(np.linalg.norm(exact))
            theta = theta - eta * surrogate
            trajectory[gamma + 1] = theta
            if not np.all(np.isfinite(theta)):
                trajectory[gamma + 1 :] = np.nan
                break
        gaps = _gaps(instance, trajectory)
    logger.record("B", gradients=r * S)
    _finish("fedlrgd", trajectory, gaps)
    log = logger.freeze(phi)
    return FedLRGDRun(
        algorithm="fedlrgd",
        trajectory=readonly(trajectory),
        gaps=readonly(gaps),
        log=log,
        hyperparameters={
            "r": r,
            "S": S,
            "pivots": pivots if isinstance(pivots, str) or pivots is None else "given",
            "solver": solver,
            "rcond": rcond,
            "phi": phi,
            "step": eta,
        },
        errors=readonly(errors),
        gradient_norms=readonly(norms),
        condition=readonly(condition),
        omega=readonly(omega),
        pivots=readonly(pivot_array),
        basis=readonly(basis),
        instance=instance,
    )


# =============================================================================================
# exact GD and federated GD
# =============================================================================================


def _exact_gd(instance: LatentERM, theta: np.ndarray, eta: float, S: int) -> np.ndarray:
    trajectory = np.empty((S + 1, instance.p))
    trajectory[0] = theta
    with np.errstate(all="ignore"):
        for k in range(S):
            theta = theta - eta * instance.full_gradient(theta)
            trajectory[k + 1] = theta
            if not np.all(np.isfinite(theta)):
                trajectory[k + 1 :] = np.nan
                break
    return trajectory


def gradient_descent_exact(
    instance: LatentERM,
    *,
    S: int,
    theta0: np.ndarray | None = None,
    step: float | None = None,
) -> LatentRun:
    """The ground truth of Lemma 2 with zero errors: θ ← θ − ∇F(θ)/L1, S times.

    Centralized (no epochs, no Γ). By Lemma 2 with e = 0, F(θ^{(S)}) − F_* ≤
    (1 − 1/κ)^S (F(θ^{(0)}) − F_*).

    Parameters
    ----------
    instance
        The federated ERM (all n samples are used).
    S
        Number of steps ≥ 0.
    theta0
        Start, shape (p,); default 0.
    step
        Default 1/L1.

    Returns
    -------
    LatentRun
        With ``log=None``.
    """
    instance = _check_instance(instance)
    S = check_int("S", S, minimum=0)
    theta = _start(instance, theta0)
    eta = _step(instance, step)
    trajectory = _exact_gd(instance, theta, eta, S)
    with np.errstate(all="ignore"):
        gaps = _gaps(instance, trajectory)
    _finish("gradient_descent_exact", trajectory, gaps)
    return LatentRun(
        algorithm="gradient_descent_exact",
        trajectory=readonly(trajectory),
        gaps=readonly(gaps),
        log=None,
        hyperparameters={"S": S, "step": eta},
    )


def fedgd(
    instance: LatentERM,
    *,
    T: int,
    phi: float = 1.0,
    theta0: np.ndarray | None = None,
    step: float | None = None,
) -> LatentRun:
    """Federated full-gradient GD, the baseline of guide §2.5 [derived].

    Each iteration is two epochs: [B, b = R] the server evaluates its R gradients; [A, b = s]
    every client evaluates its s gradients and sends their sum ∈ ℝ^p. The server then steps
    θ ← θ − ∇F(θ)/L1 with the exact ∇F(θ) = (1/n)(server sum + Σ_c client sums). Hence
    2T epochs and Γ = T(R + s + φm) (with R = r server samples: the guide's (r + s + φm)·T),
    and the trajectory is exactly :func:`gradient_descent_exact`'s.

    Parameters
    ----------
    instance
        The federated ERM.
    T
        Iterations ≥ 0.
    phi
        φ ≥ 0 (only enters Γ).
    theta0
        Start, shape (p,); default 0.
    step
        Default 1/L1.

    Returns
    -------
    LatentRun
    """
    instance = _check_instance(instance)
    T = check_int("T", T, minimum=0)
    phi = check_real("phi", phi, nonnegative=True)
    theta = _start(instance, theta0)
    eta = _step(instance, step)
    logger = EpochLogger()
    for _ in range(T):
        logger.record("B", gradients=instance.server_size)
        logger.record("A", gradients=instance.s, active=instance.m)
    trajectory = _exact_gd(instance, theta, eta, T)
    with np.errstate(all="ignore"):
        gaps = _gaps(instance, trajectory)
    _finish("fedgd", trajectory, gaps)
    return LatentRun(
        algorithm="fedgd",
        trajectory=readonly(trajectory),
        gaps=readonly(gaps),
        log=logger.freeze(phi),
        hyperparameters={"T": T, "phi": phi, "step": eta},
    )


# =============================================================================================
# FedAve (FedPAQ without quantization, Theorem 3)
# =============================================================================================

_LOGISTIC = 0
_QUADRATIC = 1


@njit
def _sample_gradient(
    family: int,
    features: np.ndarray,
    labels: np.ndarray,
    bumps: np.ndarray,
    linear: np.ndarray,
    curvatures: np.ndarray,
    ridge: float,
    c: int,
    j: int,
    theta: np.ndarray,
    out: np.ndarray,
) -> None:
    """∇_θ f(x^{(c,j)}; θ) into ``out`` for LVM-A (family 0) or LVM-Q (family 1)."""
    p = theta.shape[0]
    if family == _LOGISTIC:
        z = 0.0
        for i in range(p):
            z += features[c, j, i] * theta[i]
        if z >= 0.0:
            sig = 1.0 / (1.0 + math.exp(-z))
        else:
            ez = math.exp(z)
            sig = ez / (1.0 + ez)
        residual = sig - labels[c, j]
        for i in range(p):
            out[i] = residual * features[c, j, i] + ridge * theta[i]
    else:
        for i in range(p):
            out[i] = ridge * theta[i] - linear[c, j, i]
        for k in range(curvatures.shape[0]):
            weight = bumps[c, j, k]
            for i in range(p):
                acc = 0.0
                for q in range(p):
                    acc += curvatures[k, i, q] * theta[q]
                out[i] += weight * acc


@njit
def _fedave_kernel(
    family: int,
    features: np.ndarray,
    labels: np.ndarray,
    bumps: np.ndarray,
    linear: np.ndarray,
    curvatures: np.ndarray,
    ridge: float,
    theta0: np.ndarray,
    clients: np.ndarray,
    samples: np.ndarray,
    steps: np.ndarray,
) -> np.ndarray:
    """FedAve epochs: the sampled clients run b single-sample SGD steps from θ_t, the server
    averages. ``clients`` (T, A) and ``samples`` (T, A, b) are pre-drawn indices; returns the
    server trajectory, shape (T + 1, p)."""
    T, A = clients.shape
    b = samples.shape[2]
    p = theta0.shape[0]
    trajectory = np.empty((T + 1, p))
    theta = theta0.copy()
    trajectory[0] = theta
    local = np.empty(p)
    total = np.empty(p)
    grad = np.empty(p)
    for t in range(T):
        total[:] = 0.0
        for a in range(A):
            c = clients[t, a]
            local[:] = theta
            for k in range(b):
                _sample_gradient(
                    family,
                    features,
                    labels,
                    bumps,
                    linear,
                    curvatures,
                    ridge,
                    c,
                    samples[t, a, k],
                    local,
                    grad,
                )
                for i in range(p):
                    local[i] -= steps[t] * grad[i]
            for i in range(p):
                total[i] += local[i]
        for i in range(p):
            theta[i] = total[i] / A
        trajectory[t + 1] = theta
    return trajectory


def _kernel_inputs(
    instance: LatentERM,
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
    """Family code and per-sample arrays of the clients for the numba kernel."""
    m, s, p = instance.m, instance.s, instance.p
    empty3 = np.zeros((1, 1, 1))
    if isinstance(instance, LogisticLatentERM):
        features = np.ascontiguousarray(instance.clients[:, :, :-1])
        labels = np.ascontiguousarray(instance.clients[:, :, -1])
        return (
            _LOGISTIC,
            features,
            labels,
            empty3,
            empty3,
            np.zeros((0, p, p)),
            float(instance.ridge),
        )
    if isinstance(instance, QuadraticLatentERM):
        flat = instance.clients.reshape(-1, instance.d_x)
        bumps = np.ascontiguousarray(instance._bumps(flat).reshape(m, s, -1))
        linear = np.ascontiguousarray(instance._linear(flat).reshape(m, s, p))
        return (
            _QUADRATIC,
            empty3,
            np.zeros((1, 1)),
            bumps,
            linear,
            np.ascontiguousarray(instance.curvatures),
            float(instance.ridge),
        )
    raise ParameterError(
        parameter="instance",
        value=type(instance).__name__,
        rule="fedave supports LogisticLatentERM and QuadraticLatentERM",
    )


def fedave_burn_in(instance: LatentERM, *, b: int, tau: float = 1.0) -> int:
    """T0 of Lemma 3 (App. D): ⌈4 max{κ, 4 + 32κ²(1 − τ)/(τ(m − 1)), 4m/(μ²b)}⌉.

    Lemma 3 (distilled from FedPAQ's Theorem 1) bounds the gap after T ≥ T0 epochs in terms of
    E‖θ^{(T0)} − θ^⋆‖².
    """
    instance = _check_instance(instance)
    b = check_int("b", b, minimum=1)
    tau = check_real("tau", tau, positive=True)
    kappa, m, mu = instance.kappa, instance.m, instance.mu
    middle = 4.0 if tau >= 1.0 else 4.0 + 32.0 * kappa**2 * (1.0 - tau) / (tau * (m - 1))
    return math.ceil(4.0 * max(kappa, middle, 4.0 * m / (mu * mu * b)))


def _active(tau: Any, m: int) -> tuple[float, int]:
    tau = check_real("tau", tau, positive=True)
    if tau > 1.0:
        raise ParameterError(parameter="tau", value=tau, rule="must be in (0, 1]")
    count = round(tau * m)
    if count < 1 or abs(tau * m - count) > 1e-9 * m:
        raise ParameterError(
            parameter="tau",
            value=tau,
            rule=f"tau*m must be a positive integer (m = {m}): the number of active clients",
        )
    return tau, int(count)


def _fedave_steps(
    eta: Any, T: int, b: int, instance: LatentERM, tau: float, offset: Any
) -> tuple[np.ndarray, Any, int | None]:
    if isinstance(eta, str):
        if eta != "fedpaq":
            raise ParameterError(
                parameter="eta",
                value=eta,
                rule="must be a positive number, a sequence of T steps or 'fedpaq'",
            )
        t0 = (
            fedave_burn_in(instance, b=b, tau=tau)
            if offset is None
            else check_int("eta_offset", offset, minimum=0)
        )
        t = np.arange(T, dtype=np.float64) + t0
        return 4.0 / (instance.mu * (t * b + 1.0)), "fedpaq", t0
    if offset is not None:
        raise ParameterError(
            parameter="eta_offset", value=offset, rule="only applies to eta='fedpaq'"
        )
    if isinstance(eta, numbers.Real) and not isinstance(eta, bool):
        value = check_real("eta", eta, positive=True)
        return np.full(T, value), value, None
    if isinstance(eta, Sequence | np.ndarray) and not isinstance(eta, str):
        steps = np.array(eta, dtype=np.float64).reshape(-1)
        if steps.size != T or not np.all(np.isfinite(steps)) or not np.all(steps > 0):
            raise ParameterError(
                parameter="eta",
                value=f"sequence of length {steps.size}",
                rule=f"must hold T = {T} positive finite steps",
            )
        return steps, tuple(float(v) for v in steps), None
    raise ParameterError(
        parameter="eta", value=eta, rule="must be a positive number, a sequence or 'fedpaq'"
    )


def fedave(
    instance: LatentERM,
    *,
    T: int,
    b: int,
    tau: float = 1.0,
    eta: float | Sequence[float] | np.ndarray | Literal["fedpaq"] = "fedpaq",
    eta_offset: int | None = None,
    theta0: np.ndarray | None = None,
    phi: float = 1.0,
    seed: Seed,
) -> FedAveRun:
    """FedAve as analysed in Theorem 3: FedPAQ [2]_ (Algorithm 1) without quantization.

    Epoch t = 0, …, T − 1 (type A, b_t = b, τm uploads): the server samples τm clients
    uniformly without replacement and broadcasts θ_t; each runs b local SGD steps
    θ^c ← θ^c − η_t ∇_θ f(x^{(c,J)}; θ^c) with J uniform on its s samples (single-sample
    SGD: one stochastic gradient = one oracle call, unbiased for the client's ∇f_c); the
    server sets θ_{t+1} to the average of the τm local models. Γ = T(b + φτm).

    Step size. The paper does not restate the schedule; it cites FedPAQ's Theorem 1, whose
    strongly convex schedule is, *as recalled by the reading guide and by us, not verified
    against FedPAQ (unavailable offline)*, η = 4μ^{−1}/(kτ_loc + 1) with k the period index
    and τ_loc the number of local steps (the paper's b). ``eta="fedpaq"`` uses
    η_t = 4/(μ((t + t0)b + 1)), with t0 = ``eta_offset`` or, by default, Lemma 3's burn-in
    T0 (:func:`fedave_burn_in`): Lemma 3 is stated from θ^{(T0)} on, so epoch 0 here plays the
    role of the paper's epoch T0, and T0 ≥ 4κ gives η_t ≤ 1/(L1 b). The exponent 2 in Lemma
    3's first term (T0b + 1)²/(Tb + 1)² is consistent with this 1/(tb + 1) schedule
    [derived consistency check, not a verification].

    Objective. FedPAQ minimizes the client average; the server's samples are never used
    (guide §2.4). The reported gaps are for F of (3).

    Parameters
    ----------
    instance
        A :class:`~fedtheory.papers.fedlrgd.erm.LogisticLatentERM` or
        :class:`~fedtheory.papers.fedlrgd.erm.QuadraticLatentERM`.
    T
        Epochs ≥ 0.
    b
        Local SGD steps (= gradients) per active client per epoch, ≥ 1.
    tau
        Fraction of active clients in (0, 1]; τm must be an integer.
    eta
        "fedpaq" (default), a constant step > 0 or a sequence of T steps.
    eta_offset
        t0 of the "fedpaq" schedule; default T0 of Lemma 3.
    theta0
        Start, shape (p,); default 0.
    phi
        φ ≥ 0 (only enters Γ).
    seed
        Integer or SeedSequence (client sampling and SGD indices).

    Returns
    -------
    FedAveRun
    """
    instance = _check_instance(instance)
    T = check_int("T", T, minimum=0)
    b = check_int("b", b, minimum=1)
    tau, active = _active(tau, instance.m)
    phi = check_real("phi", phi, nonnegative=True)
    theta = _start(instance, theta0)
    steps, eta_record, t0 = _fedave_steps(eta, T, b, instance, tau, eta_offset)
    inputs = _kernel_inputs(instance)
    rng = generator(seed)
    clients = np.empty((T, active), dtype=np.int64)
    for t in range(T):
        clients[t] = (
            np.arange(instance.m)
            if active == instance.m
            else rng.choice(instance.m, size=active, replace=False)
        )
    samples = rng.integers(0, instance.s, size=(T, active, b), dtype=np.int64)
    with np.errstate(all="ignore"):
        trajectory = _fedave_kernel(
            *inputs,
            np.ascontiguousarray(theta),
            clients,
            samples,
            np.ascontiguousarray(steps),
        )
        gaps = _gaps(instance, trajectory)
    hint = ""
    if steps.size and float(steps.max()) * instance.L1 > 2.0:
        hint = f"largest step {float(steps.max()):.3g} exceeds 2/L1 = {2 / instance.L1:.3g}"
    _finish("fedave", trajectory, gaps, hint=hint)
    logger = EpochLogger()
    for _ in range(T):
        logger.record("A", gradients=b, active=active)
    return FedAveRun(
        algorithm="fedave",
        trajectory=readonly(trajectory),
        gaps=readonly(gaps),
        log=logger.freeze(phi),
        hyperparameters={
            "T": T,
            "b": b,
            "tau": tau,
            "eta": eta_record,
            "eta_offset": t0,
            "phi": phi,
        },
        steps=readonly(steps),
        active_clients=readonly(clients, np.int64),
    )


# =============================================================================================
# the running-time model of §II-D
# =============================================================================================


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
    return head + tail


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
