"""FedLRGD, Algorithm 1 of Jadbabaie, Makur & Shah, with its epochs counted as they happen.

*Federated Optimization of Smooth Loss Functions* [1]_ (the ``fedlrgd`` seed; reading guide §2).
:func:`fedlrgd` runs on a :class:`~fedtheory.papers.fedlrgd.erm.LatentERM` instance (a server
with r samples and m clients with s samples each, objective F of (3)) with the exact index
conventions of guide §2.2: epoch 1, the server's r² gradients G^{(i)}_{j,k} = g_i(x^{(0,j)};
ϑ^{(k)}) (34); epoch 2, every client solves G^{(i)ᵀ}v = hᵀ (35)/(38)–(39) and sends v_1; epochs
3..r+1, v_2..v_r; epoch r+2, S inexact GD steps [2]_ θ ← θ − ∇̂F(θ)/L1 with
∇̂F_i(θ) = (1/n)Σ_k g_i(x^{(0,k)}; θ)(1 + Σ_c v_k^{(i,c)}) (41)–(42).

The gradient oracle counts every evaluation into the run's
:class:`~fedtheory.algorithms.trace.Trace` where it is made (the server's, and each client's),
and the uploads are counted as they are sent; Definition 1's Γ = r² + rs + rS + φmr (Theorem 2)
is then *read off* the trace (:class:`~fedtheory.papers.fedlrgd.epochs.EpochLog`), never
written in. FedLRGD is not a round-by-round local-update method, so it runs in numpy (SVD
least squares per coordinate), not on the round loop.

Departures from the paper (each also stated where it applies)
--------------------------------------------------------------
- *Pivots.* The paper only asks for distinct ϑ^{(1..r)} with invertible G^{(i)}; the default
  draws them uniformly in the instance's ``theta_box`` (guide §2.3.1). The clients must know
  them: the trace counts their broadcast (r·p floats per client in epoch 2), which Definition 1
  does not charge.
- *Weight solver.* The paper inverts G^{(i)} (``solver="inv"``); the default ``"lstsq"``
  solves G^{(i)ᵀ}v = hᵀ by SVD least squares, which stays exact when G^{(i)} is singular
  (exactly low-rank models, guide V6) and is numerically sane when it is ill-conditioned.
- *r below the server's sample count.* The paper's server holds exactly r samples. With more,
  the first r are the basis rows and the server treats its other R − r samples like a client
  (it computes their (R − r)·r gradients at the pivots in epoch 1 and their weights itself);
  then Γ = Rr + rs + rS + φmr, which is Theorem 2's value at R = r.
- *τ = 1* (guide §2.3.3): the paper never says how inactive clients' weights would be handled.

References
----------
.. [1] A. Jadbabaie, A. Makur & D. Shah, Federated optimization of smooth loss functions,
   arXiv:2201.01954v2; Definition 1, Algorithm 1, eqs. (34)–(42), Theorem 2, Lemma 2.
.. [2] M. P. Friedlander & M. Schmidt (2012), Hybrid deterministic-stochastic methods for data
   fitting, SIAM J. Sci. Comput. 34(3), Lemma 2.1 (the paper's Lemma 2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from fedtheory._arrays import readonly
from fedtheory._checks import check_int, check_real, check_vector
from fedtheory._seeds import Seed, generator
from fedtheory.algorithms.trace import TraceRecorder
from fedtheory.errors import ParameterError, SolverError
from fedtheory.papers.fedlrgd._runs import (
    LatentRun,
    check_instance,
    checked_gaps,
    gd_step,
    start_point,
)
from fedtheory.papers.fedlrgd.erm import LatentERM

__all__ = ["SOLVERS", "FedLRGDRun", "fedlrgd"]

Solver = Literal["lstsq", "solve", "pinv", "inv"]
#: The weight solvers of :func:`fedlrgd`.
SOLVERS: tuple[str, ...] = ("lstsq", "solve", "pinv", "inv")
PivotDesign = Literal["box", "lhs"]


class _CountedGradients:
    """FedLRGD's gradient oracle: evaluates ∇_θ f and counts each evaluation, by whom it is
    made, into the open row of the trace."""

    def __init__(self, instance: LatentERM, recorder: TraceRecorder) -> None:
        self.instance = instance
        self.recorder = recorder

    def server(self, points: np.ndarray, theta: np.ndarray) -> np.ndarray:
        """The server's gradients at its ``points`` and the parameter(s) ``theta``."""
        grads = self.instance._gradient(points, theta)
        calls = points.shape[0] * (1 if theta.ndim == 1 else theta.shape[0])
        self.recorder.count_gradients(calls, by="server")
        return grads

    def clients(self, theta: np.ndarray) -> np.ndarray:
        """Every client's gradients at its own samples and the parameters ``theta`` (q, p),
        shape (m, s, q, p); client c makes s·q evaluations."""
        instance = self.instance
        flat = self.instance._gradient(instance.clients.reshape(-1, instance.d_x), theta)
        for client in range(instance.m):
            self.recorder.count_gradients(instance.s * theta.shape[0], by=client)
        return flat.reshape(instance.m, instance.s, theta.shape[0], instance.p)


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
        return _surrogate(
            self.instance, self.instance._gradient(self.basis, theta), self.omega, theta
        )


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
    instance: LatentERM, grads: np.ndarray, omega: np.ndarray, theta: np.ndarray
) -> np.ndarray:
    """∇̂F_i(θ) = (1/n) Σ_k g_i(x^{(0,k)}; θ) ω_{i,k} (41), θ of shape (p,) or (q, p), from the
    basis rows' gradients ``grads`` at θ ((r, p) or (r, q, p))."""
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
    """FedLRGD, Algorithm 1 of Jadbabaie, Makur & Shah (index conventions of guide §2.2).

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

    So T = r + 2 epochs and Γ = r² + rs + rS + φmr (Theorem 2), measured by the run's trace
    (``run.log`` is its :class:`~fedtheory.papers.fedlrgd.epochs.EpochLog` view). The errors
    ‖∇̂F − ∇F‖ at every iterate (the e_k of Lemma 2) are
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
    >>> from fedtheory.papers.fedlrgd import gradient_descent_exact, quadratic_latent_erm
    >>> inst = quadratic_latent_erm(10, 5, 4, 5, seed=0)          # exact rank 4
    >>> run = fedlrgd(inst, r=4, S=20, phi=10.0, seed=1)
    >>> gd = gradient_descent_exact(inst, S=20)
    >>> bool(np.abs(run.trajectory - gd.trajectory).max() < 1e-10)
    True
    >>> run.log.epochs, run.gamma == 4**2 + 4*5 + 4*20 + 10.0*10*4
    (6, True)
    """
    instance = check_instance(instance)
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
    theta = start_point(instance, theta0)
    eta = gd_step(instance, step)
    pivot_array = _pivots(instance, pivots, r, seed)

    m, p = instance.m, instance.p
    basis = np.ascontiguousarray(instance.server[:r])
    extra = instance.server[r:]
    recorder = TraceRecorder(clients=m)
    oracle = _CountedGradients(instance, recorder)

    # Epoch 1 (type B): the server's gradients at the pivots — G^{(i)} of (34) from its r basis
    # samples, and those of its other samples (the departure above).
    G = oracle.server(basis, pivot_array)  # (r, r, p): [j, k, i]
    extra_grads = oracle.server(extra, pivot_array) if extra.shape[0] > 0 else None
    recorder.end_row()
    condition = _condition(_singular_values(G))

    # Epoch 2 (type A): every client receives the pivots, evaluates its r·s gradients at them,
    # solves for its weights (35) and sends v_1.
    for client in range(m):
        recorder.count_download(client, floats=r * p)
    H = oracle.clients(pivot_array).sum(axis=1)  # (m, r, p): h^{(i,c)}
    v = _client_weights(G, H, solver, rcond)  # (m, p, r)
    omega = 1.0 + v.sum(axis=0)
    if extra_grads is not None:
        H_extra = extra_grads.sum(axis=0)[None]
        omega = omega + _client_weights(G, H_extra, solver, rcond)[0]
    # Epochs 2, …, r + 1: client c sends v_t^{(·,c)} ∈ ℝ^p, one epoch each (types A, then C).
    for _ in range(r):
        for client in range(m):
            recorder.count_upload(client, floats=p)
        recorder.end_row()

    # Epoch r + 2 (type B): S inexact GD steps (42), r server gradients each.
    trajectory = np.empty((S + 1, p))
    trajectory[0] = theta
    errors = np.empty(S)
    norms = np.empty(S)
    with np.errstate(all="ignore"):
        for gamma in range(S):
            surrogate = _surrogate(instance, oracle.server(basis, theta), omega, theta)
            exact = instance.full_gradient(theta)  # diagnostics: not counted
            errors[gamma] = float(np.linalg.norm(surrogate - exact))
            norms[gamma] = float(np.linalg.norm(exact))
            theta = theta - eta * surrogate
            trajectory[gamma + 1] = theta
            if not np.all(np.isfinite(theta)):
                trajectory[gamma + 1 :] = np.nan
                break
    gaps = checked_gaps("fedlrgd", instance, trajectory)
    recorder.end_row(float(instance.objective(theta)))
    return FedLRGDRun(
        algorithm="fedlrgd",
        trajectory=readonly(trajectory),
        gaps=readonly(gaps),
        trace=recorder.freeze(),
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
