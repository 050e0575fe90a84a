"""Quadratic test problems with known constants and optima (DESIGN §3).

Three families, each a frozen dataclass whose constants are *computed* from the data:

- :func:`random_quadratic`: f(x) = ½(x − x*)ᵀA(x − x*) + f*, with A = Q diag(λ) Qᵀ, Q Haar-random
  [3]_; the smoothness constant L and the strong-convexity constant μ are the extreme eigenvalues of
  A.
- :func:`two_eigenvalue_quadratic`: the 2-D worst case A = diag(μ, L) of gradient descent, whose GD
  trajectory is known in closed form (the bound ``classic.gd.strongly-convex.distance`` is
  attained on it with equality [1]_).
- :func:`isotropic_quadratic`: F(w) = (μ/2)‖w − w*‖² on a Euclidean ball with a Gaussian
  stochastic-gradient oracle, the setting of Rakhlin, Shamir & Sridharan [2]_, Lemma 1
  (``classic.sgd.strongly-convex.distance``), with the exact second-moment bound G².

References
----------
.. [1] Y. Nesterov (2004), *Introductory Lectures on Convex Optimization*, Theorem 2.1.15.
.. [2] A. Rakhlin, O. Shamir & K. Sridharan (2012), Making gradient descent optimal for strongly
   convex stochastic optimization, ICML (arXiv:1109.5647), Lemma 1.
.. [3] F. Mezzadri (2007), How to generate random matrices from the classical compact groups,
   Notices of the AMS 54(5), 592–604 (QR of a Gaussian matrix with the sign fix is Haar).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from fedtheory._arrays import readonly
from fedtheory._checks import check_int, check_real, check_vector
from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError
from fedtheory.problems.protocol import SingleClientProblem

__all__ = [
    "IsotropicQuadratic",
    "QuadraticInstance",
    "TwoEigenvalueQuadratic",
    "haar_orthogonal",
    "isotropic_quadratic",
    "random_quadratic",
    "two_eigenvalue_quadratic",
]


def _random_direction(d: int, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random unit vector in R^d (a normalised standard Gaussian)."""
    z = rng.standard_normal(d)
    return np.asarray(z / np.linalg.norm(z))


def _haar(d: int, rng: np.random.Generator) -> np.ndarray:
    z = rng.standard_normal((d, d))
    q, r = np.linalg.qr(z)
    # Sign fix (Mezzadri 2007): make diag(R) positive, otherwise Q is not Haar-distributed.
    signs = np.where(np.diag(r) < 0, -1.0, 1.0)
    return q * signs


def haar_orthogonal(d: int, *, seed: Seed) -> np.ndarray:
    """A Haar-distributed (uniformly random) d × d orthogonal matrix.

    Q is the orthogonal factor of the QR decomposition of a d × d standard Gaussian matrix,
    with the columns' signs fixed so that R has a positive diagonal; without the fix the
    distribution of Q depends on the QR implementation and is not Haar [3]_.

    Parameters
    ----------
    d
        Dimension, at least 1.
    seed
        Integer or :class:`numpy.random.SeedSequence`.

    Returns
    -------
    numpy.ndarray
        Shape (d, d), with QᵀQ = I up to rounding.

    Examples
    --------
    >>> import numpy as np
    >>> q = haar_orthogonal(4, seed=0)
    >>> bool(np.allclose(q.T @ q, np.eye(4)))
    True

    References
    ----------
    .. [3] F. Mezzadri (2007), How to generate random matrices from the classical compact
       groups, Notices of the AMS 54(5), 592–604.
    """
    d = check_int("d", d, minimum=1)
    return _haar(d, generator(seed))


@dataclass(frozen=True, eq=False)
class QuadraticInstance(SingleClientProblem):
    """f(x) = ½(x − x*)ᵀA(x − x*) + f*, a strongly convex quadratic with computed constants.

    The gradient is ∇f(x) = A x − b with b = A x*. The constants are computed from A with
    :func:`numpy.linalg.eigh`, not copied from the generator's arguments: ∇f is L-Lipschitz
    with L = λ_max(A) (the smallest such constant) and f is μ-strongly convex with
    μ = λ_min(A) (the largest such constant).

    Attributes
    ----------
    A : numpy.ndarray
        Symmetric positive definite matrix, shape (d, d).
    b : numpy.ndarray
        A x*, shape (d,).
    x_star : numpy.ndarray
        The unique minimiser, shape (d,).
    f_star : float
        The minimum value.
    L : float
        Smoothness constant λ_max(A).
    mu : float
        Strong-convexity constant λ_min(A).
    eigenvalues : numpy.ndarray
        Eigenvalues of A in increasing order, shape (d,).
    eigenvectors : numpy.ndarray
        Orthonormal eigenvectors of A as columns, matching ``eigenvalues``.
    d : int
        Dimension.
    """

    A: np.ndarray
    b: np.ndarray
    x_star: np.ndarray
    f_star: float
    L: float
    mu: float
    eigenvalues: np.ndarray
    eigenvectors: np.ndarray
    d: int

    @property
    def condition_number(self) -> float:
        """κ = L/μ."""
        return self.L / self.mu

    def _minimiser(self) -> np.ndarray:
        return self.x_star

    def value(self, x: np.ndarray) -> float:
        """f(x) = ½(x − x*)ᵀA(x − x*) + f*."""
        r = np.asarray(x, dtype=np.float64) - self.x_star
        return float(0.5 * r @ (self.A @ r) + self.f_star)

    def gradient(self, x: np.ndarray) -> np.ndarray:
        """∇f(x) = A x − b."""
        return np.asarray(self.A @ np.asarray(x, dtype=np.float64) - self.b)

    def exact_gd_iterates(self, x0: np.ndarray, *, step: float, rounds: int) -> np.ndarray:
        """Closed-form iterates of exact gradient descent x_{k+1} = x_k − step·∇f(x_k).

        In the eigenbasis of A the error contracts coordinatewise:
        x_k − x* = V diag((1 − step·λ_i)^k) Vᵀ (x_0 − x*).

        Parameters
        ----------
        x0
            Starting point, shape (d,).
        step
            Step size (positive).
        rounds
            Number of steps k = 1, …, rounds.

        Returns
        -------
        numpy.ndarray
            Shape (rounds + 1, d): x_0, x_1, …, x_rounds.
        """
        x0 = check_vector("x0", x0, shape=(self.d,))
        step = check_real("step", step, positive=True)
        rounds = check_int("rounds", rounds, minimum=0)
        factors = (1.0 - step * self.eigenvalues)[None, :] ** np.arange(rounds + 1)[:, None]
        coords = self.eigenvectors.T @ (x0 - self.x_star)
        return np.asarray(self.x_star + (factors * coords) @ self.eigenvectors.T)


@dataclass(frozen=True, eq=False)
class TwoEigenvalueQuadratic(QuadraticInstance):
    """The 2-D quadratic f(x) = ½(μ x₁² + L x₂²): the worst case of gradient descent.

    x* = 0, f* = 0, and ``x0`` is a suggested starting point with both coordinates nonzero, so
    that both eigen-directions are excited. With step 2/(μ + L) both coordinates contract by
    (L − μ)/(L + μ) in absolute value, hence ‖x_T − x*‖² = ((L − μ)/(L + μ))^{2T}‖x_0 − x*‖² for
    *every* x_0: Nesterov (2004), Theorem 2.1.15 holds with equality.

    Attributes
    ----------
    x0 : numpy.ndarray
        Suggested starting point (x0_scale, x0_scale).
    """

    x0: np.ndarray


_Q = TypeVar("_Q", bound=QuadraticInstance)

#: Largest relative gap tolerated between a requested and a computed constant.
_CONSTANT_RTOL = 1e-6


def _instance_from_matrix(
    cls: type[_Q], A: np.ndarray, x_star: np.ndarray, f_star: float, **extra: Any
) -> _Q:
    """Build ``cls`` from A and x*, computing b, L, μ and the eigendecomposition."""
    A = 0.5 * (A + A.T)
    eigenvalues, eigenvectors = np.linalg.eigh(A)
    if not eigenvalues[0] > 0:
        raise ParameterError(
            parameter="mu",
            value=float(eigenvalues[0]),
            rule="the computed smallest eigenvalue is not positive: L/mu is too large for "
            "float64 (keep the condition number below about 1e12)",
        )
    return cls(
        A=readonly(A),
        b=readonly(A @ x_star),
        x_star=readonly(x_star),
        f_star=float(f_star),
        L=float(eigenvalues[-1]),
        mu=float(eigenvalues[0]),
        eigenvalues=readonly(eigenvalues),
        eigenvectors=readonly(eigenvectors),
        d=int(A.shape[0]),
        **extra,
    )


def _check_constants(L: float, mu: float) -> tuple[float, float]:
    L = check_real("L", L, positive=True)
    mu = check_real("mu", mu, positive=True)
    if mu > L:
        raise ParameterError(
            parameter="mu",
            value=mu,
            rule=f"must not exceed L = {L:.6g} (strong convexity cannot exceed smoothness)",
        )
    return L, mu


def random_quadratic(
    d: int, *, L: float, mu: float, seed: Seed, x_star_norm: float = 1.0
) -> QuadraticInstance:
    """A random strongly convex quadratic with prescribed extreme eigenvalues.

    f(x) = ½(x − x*)ᵀA(x − x*) with A = Q diag(λ) Qᵀ, Q Haar-random orthogonal
    (:func:`haar_orthogonal`), and f* = 0. For d ≥ 2 the extreme eigenvalues are exactly the
    requested ones, λ_1 = μ and λ_d = L, and the d − 2 others are drawn independently and
    uniformly in [μ, L]: the instance is μ-strongly convex and L-smooth with both constants
    attained. For d = 1 there is a single curvature, so ``mu`` must equal ``L``. The minimiser
    x* is uniformly random on the sphere of radius ``x_star_norm``.

    Random draws, in order, from ``numpy.random.default_rng(seed)``: the Gaussian matrix of Q,
    the d − 2 inner eigenvalues, the direction of x*.

    Parameters
    ----------
    d
        Dimension, at least 1.
    L
        Smoothness constant (largest eigenvalue), positive.
    mu
        Strong-convexity constant (smallest eigenvalue), 0 < mu ≤ L.
    seed
        Integer or :class:`numpy.random.SeedSequence`.
    x_star_norm
        ‖x*‖, non-negative.

    Returns
    -------
    QuadraticInstance
        With ``L`` and ``mu`` recomputed from A (they agree with the arguments to rounding).

    Raises
    ------
    ParameterError
        On a non-integer or non-positive ``d``, non-positive ``L`` or ``mu``, ``mu > L``,
        ``mu != L`` when ``d = 1``, a negative ``x_star_norm``, an invalid ``seed``, or a
        condition number L/mu so large that rounding moves the computed μ by more than a
        relative 1e-6 (about L/mu > 1e9).

    Examples
    --------
    >>> q = random_quadratic(5, L=10.0, mu=0.1, seed=0)
    >>> round(q.L, 12), round(q.mu, 12)
    (10.0, 0.1)
    >>> bool(abs(q.value(q.x_star) - q.f_star) < 1e-15)
    True
    """
    d = check_int("d", d, minimum=1)
    L, mu = _check_constants(L, mu)
    x_star_norm = check_real("x_star_norm", x_star_norm, nonnegative=True)
    if d == 1 and mu != L:
        raise ParameterError(
            parameter="mu",
            value=mu,
            rule=f"must equal L = {L:.6g} when d = 1 (a 1-D quadratic has one curvature)",
        )
    rng = generator(seed)
    q = _haar(d, rng)
    inner = np.sort(rng.uniform(mu, L, size=max(d - 2, 0)))
    eigenvalues = np.concatenate(([mu], inner, [L])) if d >= 2 else np.array([L])
    x_star = x_star_norm * _random_direction(d, rng)
    A = (q * eigenvalues) @ q.T
    instance = _instance_from_matrix(QuadraticInstance, A, x_star, 0.0)
    if abs(instance.mu - mu) > _CONSTANT_RTOL * mu:
        raise ParameterError(
            parameter="mu",
            value=mu,
            rule=f"is not representable next to L = {L:.6g} in float64: the computed smallest "
            f"eigenvalue is {instance.mu:.6g} (keep L/mu below about 1e9)",
        )
    return instance


def two_eigenvalue_quadratic(
    L: float, mu: float, *, x0_scale: float = 1.0
) -> TwoEigenvalueQuadratic:
    """The 2-D worst case of gradient descent: A = diag(μ, L), x* = 0, f* = 0.

    Gradient descent with step η gives x_k = diag((1 − ημ)^k, (1 − ηL)^k) x_0 exactly
    (:meth:`QuadraticInstance.exact_gd_iterates`). With η = 2/(μ + L) the squared distance
    contracts by exactly ((L − μ)/(L + μ))² per step, attaining
    ``classic.gd.strongly-convex.distance`` (Nesterov 2004, Theorem 2.1.15) with equality.

    Parameters
    ----------
    L, mu
        The two eigenvalues, 0 < mu ≤ L.
    x0_scale
        The suggested start is ``x0 = (x0_scale, x0_scale)``; must be positive.

    Examples
    --------
    >>> q = two_eigenvalue_quadratic(4.0, 1.0)
    >>> q.A.tolist(), q.x0.tolist()
    ([[1.0, 0.0], [0.0, 4.0]], [1.0, 1.0])
    """
    L, mu = _check_constants(L, mu)
    x0_scale = check_real("x0_scale", x0_scale, positive=True)
    return _instance_from_matrix(
        TwoEigenvalueQuadratic,
        np.diag([mu, L]),
        np.zeros(2),
        0.0,
        x0=readonly(np.full(2, x0_scale)),
    )


@dataclass(frozen=True, eq=False)
class IsotropicQuadratic(SingleClientProblem):
    """F(w) = (μ/2)‖w − w*‖² on the ball W = {‖w‖ ≤ R}, with a Gaussian gradient oracle.

    The stochastic gradient at w is g(w) = μ(w − w*) + ξ with ξ ~ N(0, σ² I_d), unbiased for
    ∇F(w). Since w* lies inside W, it is also the constrained minimiser and F* = 0.

    **The second-moment constant.** For every w,

        E‖g(w)‖² = μ²‖w − w*‖² + 2μ(w − w*)ᵀE[ξ] + E‖ξ‖² = μ²‖w − w*‖² + dσ²,

    and on W, ‖w − w*‖ ≤ ‖w‖ + ‖w*‖ ≤ R + ‖w*‖, with equality at w = −R w*/‖w*‖ (any point of the
    sphere ‖w‖ = R when w* = 0). Hence the smallest G² with E‖g(w)‖² ≤ G² on W, as required by
    Rakhlin, Shamir & Sridharan (2012), Lemma 1, is

        G² = μ²(R + ‖w*‖)² + dσ²   (attribute ``G2``; the maximiser is ``worst_point``).

    F is μ-strongly convex and L-smooth with L = μ.

    Attributes
    ----------
    d : int
        Dimension.
    mu : float
        Strong convexity (and smoothness) constant.
    sigma : float
        Standard deviation of each noise coordinate.
    radius : float
        Radius R of the feasible ball.
    w_star : numpy.ndarray
        Minimiser, ‖w*‖ < R.
    G2 : float
        sup_{w ∈ W} E‖g(w)‖² = μ²(R + ‖w*‖)² + dσ².
    L : float
        Smoothness constant (= mu).
    f_star : float
        Minimum value (0).
    """

    d: int
    mu: float
    sigma: float
    radius: float
    w_star: np.ndarray
    G2: float
    L: float
    f_star: float = 0.0

    def _minimiser(self) -> np.ndarray:
        return self.w_star  # interior: also the minimiser over the ball

    @property
    def worst_point(self) -> np.ndarray:
        """The point of W maximising E‖g(w)‖²: −R w*/‖w*‖ (R e₁ when w* = 0)."""
        norm = float(np.linalg.norm(self.w_star))
        if norm == 0.0:
            point = np.zeros(self.d)
            point[0] = self.radius
            return point
        return np.asarray(-self.radius * self.w_star / norm)

    def value(self, w: np.ndarray) -> float:
        """F(w) = (μ/2)‖w − w*‖²."""
        r = np.asarray(w, dtype=np.float64) - self.w_star
        return float(0.5 * self.mu * (r @ r))

    def gradient(self, w: np.ndarray) -> np.ndarray:
        """∇F(w) = μ(w − w*)."""
        return np.asarray(self.mu * (np.asarray(w, dtype=np.float64) - self.w_star))

    def second_moment(self, w: np.ndarray) -> float:
        """E‖g(w)‖² = μ²‖w − w*‖² + dσ² (exact)."""
        r = np.asarray(w, dtype=np.float64) - self.w_star
        return float(self.mu**2 * (r @ r) + self.d * self.sigma**2)

    def project(self, w: np.ndarray) -> np.ndarray:
        """Euclidean projection onto the ball ‖w‖ ≤ R."""
        w = np.asarray(w, dtype=np.float64)
        norm = float(np.linalg.norm(w))
        return w * (self.radius / norm) if norm > self.radius else w.copy()

    def stochastic_gradients(self, w: np.ndarray, size: int, *, seed: Seed) -> np.ndarray:
        """``size`` independent draws of g(w) = μ(w − w*) + σ z, z ~ N(0, I_d).

        Returns
        -------
        numpy.ndarray
            Shape (size, d).
        """
        w = check_vector("w", w, shape=(self.d,))
        size = check_int("size", size, minimum=1)
        z = generator(seed).standard_normal((size, self.d))
        return np.asarray(self.mu * (w - self.w_star) + self.sigma * z)


def isotropic_quadratic(
    d: int,
    *,
    mu: float,
    sigma: float,
    radius: float,
    x_star_norm: float,
    seed: Seed,
) -> IsotropicQuadratic:
    """The noisy isotropic quadratic of projected SGD (see :class:`IsotropicQuadratic`).

    Parameters
    ----------
    d
        Dimension, at least 1.
    mu
        Curvature μ > 0 of F(w) = (μ/2)‖w − w*‖².
    sigma
        Noise standard deviation per coordinate, σ ≥ 0.
    radius
        Radius R > 0 of the feasible ball.
    x_star_norm
        ‖w*‖, with 0 ≤ x_star_norm < radius (w* strictly inside the ball).
    seed
        Integer or :class:`numpy.random.SeedSequence`; draws the direction of w*.

    Returns
    -------
    IsotropicQuadratic
        With ``G2 = mu²(radius + x_star_norm)² + d sigma²`` and ``L = mu``.

    Examples
    --------
    >>> p = isotropic_quadratic(3, mu=2.0, sigma=1.0, radius=2.0, x_star_norm=1.0, seed=0)
    >>> round(p.G2, 12), p.L
    (39.0, 2.0)
    """
    d = check_int("d", d, minimum=1)
    mu = check_real("mu", mu, positive=True)
    sigma = check_real("sigma", sigma, nonnegative=True)
    radius = check_real("radius", radius, positive=True)
    x_star_norm = check_real("x_star_norm", x_star_norm, nonnegative=True)
    if not x_star_norm < radius:
        raise ParameterError(
            parameter="x_star_norm",
            value=x_star_norm,
            rule=f"must be below radius = {radius:.6g} (the minimiser must lie inside the ball)",
        )
    w_star = x_star_norm * _random_direction(d, generator(seed))
    G2 = mu**2 * (radius + float(np.linalg.norm(w_star))) ** 2 + d * sigma**2
    return IsotropicQuadratic(
        d=d,
        mu=mu,
        sigma=sigma,
        radius=radius,
        w_star=readonly(w_star),
        G2=float(G2),
        L=mu,
    )
