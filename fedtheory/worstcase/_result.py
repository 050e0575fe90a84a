"""The result of one performance-estimation problem (issue 16, DESIGN §6: one replicate).

A PEP is an experiment with one deterministic replicate: its value is the exact worst case of a
method over a function class (up to the SDP solver's accuracy), its dual multipliers certify that
value, and its primal Gram matrix describes the worst-case instance (Drori & Teboulle 2014;
Taylor, Hendrickx & Glineur 2017).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["FEASIBILITY_TOLERANCE", "ClientPoints", "PrimalInstance", "WorstCase"]

#: Absolute feasibility tolerance each solver is run to (``_solve._SOLVER_OPTIONS``): Clarabel's
#: ``tol_feas``; SCS's residuals are scaled, so its 1e-9 is taken as 1e-7 as well.
FEASIBILITY_TOLERANCE: dict[str, float] = {"CLARABEL": 1e-7, "SCS": 1e-7}


@dataclass(frozen=True)
class ClientPoints:
    """The worst-case data of one function of the PEP: its points, gradients and values.

    Row k of ``points``, ``gradients`` and ``values`` is one triple (x_k, ∇f(x_k), f(x_k)) of
    PEPit's ``list_of_points``, in the order the method queried them (the stationary points
    declared on the function are among them, flagged in ``stationary``).

    Attributes
    ----------
    points, gradients : numpy.ndarray
        Shape (n, N): coordinates in ℝ^N, N the side of the Gram matrix.
    values : numpy.ndarray
        Shape (n,): the function values.
    stationary : numpy.ndarray
        Shape (n,), bool: whether the triple is a declared stationary point (gradient 0).
    """

    points: np.ndarray
    gradients: np.ndarray
    values: np.ndarray
    stationary: np.ndarray

    def __len__(self) -> int:
        return int(self.values.shape[0])


@dataclass(frozen=True)
class PrimalInstance:
    """The primal worst-case instance of a solved PEP, as coordinates.

    PEPit factorises the primal Gram matrix G = PᵀP after the solve; every point and gradient of
    the PEP is a column of P, a vector of ℝ^N (N = the side of G; the instance lives in the span
    of these vectors, whose dimension is the rank of G). This is the data the counterexample
    (:func:`~fedtheory.worstcase.quadratic_counterexample`) interpolates by explicit functions
    (Taylor, Hendrickx & Glineur 2017, §3: an interpolable set of triples *is* a function of the
    class). Accurate to the solver's tolerance only.

    Attributes
    ----------
    clients : tuple of ClientPoints
        One per leaf function of the PEP (one per client; one in all for identical clients).
    x0 : numpy.ndarray
        The starting point, shape (N,).
    x_star : numpy.ndarray or None
        The minimiser x* of the average (None for non-convex classes, or when the builder did
        not pass it).
    iterates : numpy.ndarray
        The server models x_0, …, x_T, shape (T + 1, N) (shape (0, N) when not passed).
    """

    clients: tuple[ClientPoints, ...]
    x0: np.ndarray
    x_star: np.ndarray | None
    iterates: np.ndarray

    @property
    def ambient_dimension(self) -> int:
        """N, the length of every coordinate vector."""
        return int(self.x0.shape[0])


@dataclass(frozen=True)
class WorstCase:
    """Exact worst case of a method over a function class, as solved by an SDP.

    Attributes
    ----------
    value : float
        The worst-case value certified by the dual solution (PEPit's ``"dual"`` value: an upper
        bound on the true worst case up to the solver's feasibility error).
    primal_value : float
        The objective of the primal solution (a value attained by the Gram matrix below, up to
        the solver's accuracy); ``value - primal_value`` is the duality gap.
    solver : str
        The SDP solver that produced the solution (``"CLARABEL"`` or ``"SCS"``).
    status : str
        cvxpy's status of the solve (always ``"optimal"``: anything else raises
        :class:`~fedtheory.errors.SolverError`).
    method : str
        Which method was analysed (e.g. ``"fedavg"``).
    measure : str
        The performance measure (``"distance"``, ``"function"`` or ``"gradient"``).
    parameters : dict
        The parameters of the method and of the function class.
    dual : dict of str to float
        Dual certificate summary: the multiplier of every named constraint (initial condition,
        heterogeneity budget, performance metrics), plus ``"class_constraints_active"``: how many
        interpolation constraints carry a multiplier above 1e-7.
    gram : numpy.ndarray
        Primal worst-case Gram matrix of the points and gradients of the PEP (its rank is the
        dimension of the worst-case instance).
    function_values : numpy.ndarray
        Primal worst-case function values (one per leaf function value of the PEP).
    gram_size : int
        Side of the Gram matrix.
    n_constraints : int
        Number of scalar constraints of the SDP.
    residual : float
        Largest entry of PEPit's dual residual matrix (how far the dual certificate is from
        exact feasibility).
    solve_seconds : float
        Wall time of the solve (including PEPit's set-up).
    instance : PrimalInstance or None
        The primal worst-case instance (coordinates of every point, gradient and function value
        of the PEP; see :class:`PrimalInstance`); None when it was not extracted.
    solved_clients : int or None
        The number of clients of the SDP that was solved, when it is fewer than the method's m.
        The client-symmetric reduction solves two clients for m > 2 equally weighted ones
        (:mod:`fedtheory.worstcase._symmetry`; exact, not a relaxation). ``gram``,
        ``function_values``, ``gram_size``, ``n_constraints`` and ``dual`` are then those of
        the two-client SDP, and ``instance`` is lifted to m clients. None when the PEP of all
        m clients was solved.
    """

    value: float
    primal_value: float
    solver: str
    status: str
    method: str
    measure: str
    parameters: dict[str, Any]
    dual: dict[str, float]
    gram: np.ndarray = field(repr=False)
    function_values: np.ndarray = field(repr=False)
    gram_size: int
    n_constraints: int
    residual: float
    solve_seconds: float
    instance: PrimalInstance | None = field(default=None, repr=False, compare=False)
    solved_clients: int | None = None

    @property
    def gap(self) -> float:
        """Absolute difference between the dual and the primal values (the solver's accuracy)."""
        return abs(self.value - self.primal_value)

    def as_measurement(self) -> dict[str, float]:
        """The outputs of a claim experiment: ``worst`` (the certified value), ``accuracy``,
        ``primal`` and ``solve_seconds``.

        ``accuracy`` is the dual–primal gap plus the solver's feasibility tolerance
        (:data:`FEASIBILITY_TOLERANCE`): both values may be off the true optimum by constraint
        violations up to that tolerance (seen: 7e-8 on GD's distance rate at κ = 10, T = 10,
        with a gap of 1e-9), so the gap alone understates the error.
        """
        return {
            "worst": self.value,
            "accuracy": self.gap + FEASIBILITY_TOLERANCE.get(self.solver, 1e-7),
            "primal": self.primal_value,
            "solve_seconds": self.solve_seconds,
        }

    @property
    def gram_rank(self) -> int:
        """Numerical rank of the worst-case Gram matrix (eigenvalues above 1e-6 of the largest)."""
        eig = np.linalg.eigvalsh((self.gram + self.gram.T) / 2)
        top = float(eig.max()) if eig.size else 0.0
        return int(np.sum(eig > 1e-6 * max(top, 1e-300)))
