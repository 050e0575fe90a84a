"""The fzoos paper's analytic federated problems on the core problem protocol (guide §4.2, §5).

Every problem has N clients with local functions f_i and the global objective
F = (1/N) Σ_i f_i (Shu et al. [1]_, eq. (1)); it implements
:class:`~fedtheory.problems.protocol.FederatedProblem` (``client_weights`` = 1/N) and adds

- ``kernel_view()``: the NamedTuple view read by the numba kernels ``zo_value`` / ``zo_gradient``
  of :mod:`fedtheory.papers.fzoos._oracle`;
- ``box``: whether the paper's domain [0, 1]^d applies (points outside are then refused);
- ``exact_gradients``: whether ``client_gradient`` is the true gradient (so that the gradient
  disparity Ξ = ‖ĝ − ∇F‖² of Sec. 3.2 is meaningful);
- ``optimum_value``: F* = min F over the domain, where it is known;
- ``heterogeneity(x)``: G(x) = (1/N) Σ_i ‖∇f_i(x) − ∇F(x)‖² (Sec. 5.1), exact.

Problems here:

- :class:`SyntheticQuadratics`: the federated quadratics (98)–(99) of App. E.1 with heterogeneity
  C, optimised in the paper's normalised input u = (x + 10)/20 ∈ [0, 1]^d;
- :class:`DenseQuadratics` with the factories :func:`linear_heterogeneity` (f_i = F + ⟨b_i, x⟩,
  Σ_i b_i = 0: guide check 3) and :func:`random_quadratics` (a strongly convex F with α < β:
  check 11);
- :class:`NonconvexSines`: a genuinely non-convex F for Theorem C.1(iii) (guide check 13).

The GP-sample functions, federated logistic regression and the offline substitutes of the attack
and metric experiments live in :mod:`~fedtheory.papers.fzoos.gp_samples`,
:mod:`~fedtheory.papers.fzoos.logistic` and :mod:`~fedtheory.papers.fzoos.substitutes`.

References
----------
.. [1] Y. Shu, X. Lin, Z. Dai & B. K. H. Low, Federated zeroth-order optimization using
   trajectory-informed surrogate gradients (FZooS); App. E.1, eqs. (98)–(99); reading guide
   §4.2 (derived facts), §4.7, checks 3, 11, 13.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import special

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_int, check_real, check_vector
from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError, SolverError
from fedtheory.papers.fzoos._oracle import global_gradient, global_value, zo_gradient, zo_value
from fedtheory.papers.fzoos._views import DenseQuadraticView, SeparableView

__all__ = [
    "DenseQuadratics",
    "NonconvexSines",
    "SyntheticQuadratics",
    "ZerothOrderProblem",
    "dirichlet_marginal_variance",
    "linear_heterogeneity",
    "negative_curvature_probability",
    "random_quadratics",
]


def _unavailable(problem: str, what: str, reason: str) -> SolverError:
    """The error of a problem that cannot give an exact optimum (a ``SolverError``)."""
    return SolverError(f"{problem}.{what}", "not available", hint=reason)


# ============================================================================== base


class ZerothOrderProblem:
    """Common layout and oracles of the fzoos problems (see the module docstring).

    A subclass sets ``_view`` (its kernel view), ``_N``, ``_d``, ``box``, ``exact_gradients``
    and implements :meth:`constants`, :meth:`global_optimum` and :meth:`client_optima`.
    """

    _view: Any
    _N: int
    _d: int
    #: Whether the paper's domain [0, 1]^d applies (points outside are refused).
    box: bool = True
    #: Whether ``client_gradient`` is the exact gradient of f_i.
    exact_gradients: bool = True

    # layout ----------------------------------------------------------------------------

    @property
    def num_clients(self) -> int:
        """N."""
        return self._N

    @property
    def dimension(self) -> int:
        """d."""
        return self._d

    @property
    def client_weights(self) -> np.ndarray:
        """1/N for every client (eq. (1))."""
        return readonly(np.full(self._N, 1.0 / self._N))

    def kernel_view(self) -> Any:
        """The NamedTuple view read by the kernels ``zo_value`` and ``zo_gradient``."""
        return self._view

    @property
    def optimum_value(self) -> float:
        """F* = min F over the domain."""
        raise _unavailable(type(self).__name__, "optimum_value", "F* is not known")

    def constants(self) -> dict[str, float]:
        """``"smoothness"`` β and ``"strong_convexity"`` α of F (subclasses document them)."""
        raise NotImplementedError

    def global_optimum(self) -> np.ndarray:
        """argmin F over the domain."""
        raise _unavailable(type(self).__name__, "global_optimum", "argmin F is not known")

    def client_optima(self) -> np.ndarray:
        """argmin f_i over the domain for every client, shape (N, d)."""
        raise _unavailable(type(self).__name__, "client_optima", "argmin f_i is not known")

    # checks ----------------------------------------------------------------------------

    def _point(self, x: Any, name: str = "x") -> np.ndarray:
        point = check_vector(name, x, shape=(self._d,))
        if self.box and (point.min() < 0.0 or point.max() > 1.0):
            raise ParameterError(
                parameter=name,
                value=f"a point with coordinates in [{point.min():.6g}, {point.max():.6g}]",
                rule="must lie in the box [0, 1]^d (the paper's domain, eq. (1))",
            )
        return point

    def _client(self, client: Any) -> int:
        i = check_int("client", client, minimum=0)
        if i >= self._N:
            raise ParameterError(parameter="client", value=i, rule=f"must be below N = {self._N}")
        return i

    # oracles ---------------------------------------------------------------------------

    def client_value(self, client: int, x: Any) -> float:
        """f_i(x) (one noiseless zeroth-order query)."""
        return float(zo_value(self._view, self._client(client), self._point(x)))

    def client_gradient(self, client: int, x: Any) -> np.ndarray:
        """∇f_i(x), shape (d,)."""
        out = np.empty(self._d)
        zo_gradient(self._view, self._client(client), self._point(x), out)
        return out

    def client_values(self, x: Any) -> np.ndarray:
        """f_i(x) for every client, shape (N,)."""
        point = self._point(x)
        return np.array([zo_value(self._view, i, point) for i in range(self._N)])

    def client_gradients(self, x: Any) -> np.ndarray:
        """∇f_i(x) for every client, shape (N, d)."""
        point = self._point(x)
        out = np.empty((self._N, self._d))
        for i in range(self._N):
            zo_gradient(self._view, i, point, out[i])
        return out

    def global_value(self, x: Any) -> float:
        """F(x) = (1/N) Σ_i f_i(x)."""
        return float(global_value(self._view, self._N, self._point(x)))

    def global_gradient(self, x: Any) -> np.ndarray:
        """∇F(x) = (1/N) Σ_i ∇f_i(x)."""
        out = np.empty(self._d)
        global_gradient(self._view, self._N, self._point(x), out, np.empty(self._d))
        return out

    def heterogeneity(self, x: Any) -> float:
        """G(x) = (1/N) Σ_i ‖∇f_i(x) − ∇F(x)‖² (Sec. 5.1), exact at x."""
        grads = self.client_gradients(x)
        return float(np.mean(np.sum((grads - grads.mean(axis=0)) ** 2, axis=1)))


# ============================================================================== separable


def dirichlet_marginal_variance(N: int) -> float:
    """Var a_j^{(i)} = (1/N)(1 − 1/N)/2 for (a_j^{(1..N)}) ~ Dirichlet((1/N)·1_N) (guide §4.2)."""
    n = check_int("N", N, minimum=1)
    return (1.0 / n) * (1.0 - 1.0 / n) / 2.0


def negative_curvature_probability(N: int, C: float) -> float:
    """P(1 + C(a − 1/N) < 0) = P(Beta(1/N, 1 − 1/N) < 1/N − 1/C) (guide §4.2, §6 item 8).

    The probability that a coordinate of a client of (98) has negative curvature; 0.668 at
    N = 5, C = 50 (the Beta(0.2, 0.8) cdf at 0.18).
    """
    n = check_int("N", N, minimum=1)
    c = check_real("C", C, nonnegative=True)
    threshold = 1.0 / n - (1.0 / c if c > 0 else math.inf)
    if n == 1 or threshold <= 0.0:
        return 0.0
    return float(special.betainc(1.0 / n, 1.0 - 1.0 / n, threshold))


def _dirichlet_rows(rng: np.random.Generator, N: int, d: int) -> np.ndarray:
    """(N, d): column j is one Dirichlet((1/N)·1_N) draw."""
    if N == 1:
        return np.ones((1, d))
    return np.ascontiguousarray(rng.dirichlet(np.full(N, 1.0 / N), size=d).T)


class _Separable(ZerothOrderProblem):
    """Coordinate-separable problems (:class:`~fedtheory.papers.fzoos._views.SeparableView`)."""

    _view: SeparableView

    def _setup(self, quad: np.ndarray, lin: np.ndarray, const: np.ndarray, **maps: float) -> None:
        self._N, self._d = quad.shape
        self._view = SeparableView(
            kernel_array(quad), kernel_array(lin), kernel_array(const),
            float(maps["scale"]), float(maps["shift"]),
            float(maps["amplitude"]), float(maps["frequency"]),
        )  # fmt: skip

    def _gradient_gaps(self) -> tuple[np.ndarray, np.ndarray]:
        """(S, R), both (N, d): ∂_j f_i − ∂_j F = S_ij u_j + R_ij (the sine terms cancel)."""
        v = self._view
        dq = v.quad - v.quad.mean(axis=0)
        dl = v.lin - v.lin.mean(axis=0)
        return 2.0 * v.scale**2 * dq, v.scale * (2.0 * dq * v.shift + dl)

    def heterogeneity_max(self) -> float:
        """max_{x ∈ [0,1]^d} G(x), exact.

        G(x) = Σ_j (1/N) Σ_i (S_ij x_j + R_ij)² is a sum of convex functions of one coordinate
        each, so its maximum over the box is Σ_j max over x_j ∈ {0, 1} (guide §4.2).
        """
        S, R = self._gradient_gaps()
        at0 = np.mean(R**2, axis=0)
        at1 = np.mean((S + R) ** 2, axis=0)
        return float(np.maximum(at0, at1).sum())

    def maximising_corner(self) -> np.ndarray:
        """A corner of [0, 1]^d where G attains :meth:`heterogeneity_max`."""
        S, R = self._gradient_gaps()
        corner = np.mean((S + R) ** 2, axis=0) > np.mean(R**2, axis=0)
        return np.asarray(corner, dtype=np.float64)


class SyntheticQuadratics(_Separable):
    """The federated synthetic quadratics (98)–(99) of App. E.1, in normalised coordinates.

    With the original input t ∈ [−10, 10]^d,

        f_i(t) = (1/(10d)) (Σ_j [(1 + C(a_j^{(i)} − 1/N)) t_j² + (1 + C(b_j^{(i)} − 1/N)) t_j] + 1),

    where for every coordinate j the vectors (a_j^{(1..N)}) and (b_j^{(1..N)}) are independent
    Dirichlet((1/N)·1_N) draws; they sum to 1, so F(t) = (1/(10d))(Σ_j [t_j² + t_j] + 1) for
    every C (99). The problem's variable is the paper's normalised input u = (t + 10)/20 ∈
    [0, 1]^d (App. E: inputs are min–max normalised; ``box`` is True), so every oracle, gradient
    and constant below is in u unless its name says "original".

    Derived facts (guide §4.2): t* = −1/2 (u* = 0.475), F* = (1 − d/4)/(10d) in both
    coordinates; F has Hessian I/(5d) in t and (80/d)·I in u, so α = β (condition number 1);
    E_Dir[G(t)] = Var·C²/(100d²) Σ_j (4t_j² + 1) with Var = (1/N)(1 − 1/N)/2, whose maximum
    over the box is 0.3208·C²/d for N = 5 (times 400 in u: gradients scale by dt/du = 20);
    a coordinate of f_i has negative curvature when a_j^{(i)} < 1/N − 1/C (≈ 67% at C = 50).

    Parameters
    ----------
    d
        Dimension (≥ 1); the paper uses 300.
    N
        Number of clients (≥ 1); the paper uses 5.
    C
        Heterogeneity (≥ 0); the paper uses 0.5, 5 and 50.
    seed
        Seed of the Dirichlet draws: a (d draws, then) b (d draws), from one generator.

    Raises
    ------
    ParameterError
        If d < 1, N < 1, C < 0 or the seed is not reproducible.
    """

    #: The original input t = SCALE·u + SHIFT.
    SCALE = 20.0
    SHIFT = -10.0

    def __init__(self, d: int = 300, N: int = 5, C: float = 5.0, *, seed: Seed = 0) -> None:
        d = check_int("d", d, minimum=1)
        N = check_int("N", N, minimum=1)
        self.C = check_real("C", C, nonnegative=True)
        rng = generator(seed)
        a = _dirichlet_rows(rng, N, d)
        b = _dirichlet_rows(rng, N, d)
        #: The Dirichlet draws a_j^{(i)}, b_j^{(i)} of (98), shape (N, d).
        self.dirichlet_a = readonly(a)
        self.dirichlet_b = readonly(b)
        scale = 1.0 / (10.0 * d)
        quad = (1.0 + self.C * (a - 1.0 / N)) * scale
        lin = (1.0 + self.C * (b - 1.0 / N)) * scale
        const = np.full(N, scale)
        self._setup(quad, lin, const, scale=self.SCALE, shift=self.SHIFT, amplitude=0.0,
                    frequency=0.0)  # fmt: skip

    # coordinates -----------------------------------------------------------------------

    @classmethod
    def to_original(cls, u: Any) -> np.ndarray:
        """t = 20u − 10 (the paper's input in [−10, 10]^d)."""
        return cls.SCALE * np.asarray(u, dtype=np.float64) + cls.SHIFT

    @classmethod
    def from_original(cls, t: Any) -> np.ndarray:
        """u = (t + 10)/20."""
        return (np.asarray(t, dtype=np.float64) - cls.SHIFT) / cls.SCALE

    # exact quantities ------------------------------------------------------------------

    @property
    def optimum_value(self) -> float:
        """F* = (1 − d/4)/(10d) (the same in t and in u)."""
        return (1.0 - self._d / 4.0) / (10.0 * self._d)

    def global_optimum(self) -> np.ndarray:
        """u* = (−1/2 + 10)/20 = 0.475 in every coordinate (t* = −1/2)."""
        return np.full(self._d, 0.475)

    def client_optima(self) -> np.ndarray:
        """argmin over [0, 1]^d of every f_i, exact, shape (N, d).

        f_i is separable: each coordinate minimises q t² + l t over t ∈ [−10, 10], whose
        minimiser is the vertex −l/(2q) when q > 0 and it lies inside, else the better end.
        Concave coordinates (C large) sit on the boundary (guide §6 item 8).
        """
        q, lin = self._view.quad, self._view.lin
        candidates = [np.full(q.shape, -10.0), np.full(q.shape, 10.0)]
        with np.errstate(divide="ignore", invalid="ignore"):
            vertex = np.where(q > 0, -lin / (2.0 * q), -10.0)
        candidates.append(np.clip(vertex, -10.0, 10.0))
        stack = np.stack(candidates)
        values = (q * stack + lin) * stack
        best = np.take_along_axis(stack, values.argmin(axis=0)[None], axis=0)[0]
        return self.from_original(best)

    def constants(self) -> dict[str, float]:
        """Constants of F and of the heterogeneity (u unless "original").

        ``smoothness`` = ``strong_convexity`` = 80/d (Hessian of F in u, exact);
        ``smoothness_original`` = ``strong_convexity_original`` = 1/(5d) (in t);
        ``client_smoothness`` = max_ij ``|∂²f_i/∂u_j²|`` (the local functions, exact);
        ``heterogeneity_max`` = max_{u ∈ [0,1]^d} G(u) (exact, :meth:`heterogeneity_max`).
        """
        d = self._d
        curv = 2.0 * self.SCALE**2 * np.abs(self._view.quad).max()
        return {
            "smoothness": 80.0 / d,
            "strong_convexity": 80.0 / d,
            "smoothness_original": 1.0 / (5.0 * d),
            "strong_convexity_original": 1.0 / (5.0 * d),
            "client_smoothness": float(curv),
            "heterogeneity_max": self.heterogeneity_max(),
        }

    def expected_heterogeneity(self, u: Any) -> float:
        """E_Dir[G(u)] = 400·Var·C²/(100d²) Σ_j (4t_j² + 1), t = 20u − 10 (guide §4.2).

        The expectation over the Dirichlet draws at a fixed point (u-coordinates: the factor
        400 = (dt/du)² converts the guide's t-space formula).
        """
        t = self.to_original(self._point(u, "u"))
        var = dirichlet_marginal_variance(self._N)
        return float(
            self.SCALE**2 * var * self.C**2 / (100.0 * self._d**2) * np.sum(4.0 * t**2 + 1.0)
        )

    def negative_curvature_fraction(self) -> float:
        """The fraction of (client, coordinate) pairs with 1 + C(a_j^{(i)} − 1/N) < 0."""
        return float(np.mean(self._view.quad < 0.0))


# ============================================================================== non-convex


def _scalar_minimum(amplitude: float, frequency: float) -> tuple[float, float]:
    """argmin and min of g(t) = t²/2 + a sin(ωt) over ℝ (a ≥ 0).

    g ≥ t²/2 − a and g(0) = 0, so every global minimiser has |t| ≤ √(2a). A grid of spacing
    δ on that interval finds the minimum to within Lip·δ (|g′| ≤ √(2a) + aω there); each grid
    local minimum is then polished by safeguarded Newton on g′ and the best is kept.
    """
    if amplitude == 0.0:
        return 0.0, 0.0
    radius = math.sqrt(2.0 * amplitude)
    grid = np.linspace(-radius, radius, 20001)
    values = grid**2 / 2 + amplitude * np.sin(frequency * grid)
    interior = np.flatnonzero((values[1:-1] <= values[:-2]) & (values[1:-1] <= values[2:])) + 1
    step = grid[1] - grid[0]
    best_t, best_v = float(grid[values.argmin()]), float(values.min())
    for k in interior:
        lo, hi = grid[k] - step, grid[k] + step
        t = float(grid[k])
        for _ in range(60):
            g1 = t + amplitude * frequency * math.cos(frequency * t)
            g2 = 1.0 - amplitude * frequency**2 * math.sin(frequency * t)
            new = t - g1 / g2 if g2 > 0 else 0.5 * (lo + hi)
            if not lo <= new <= hi:
                new = 0.5 * (lo + hi)
            if g1 > 0:
                hi = t
            else:
                lo = t
            if abs(new - t) <= 1e-15 * max(1.0, abs(t)):
                t = new
                break
            t = new
        v = t * t / 2 + amplitude * math.sin(frequency * t)
        if v < best_v:
            best_t, best_v = t, v
    return best_t, best_v


class NonconvexSines(_Separable):
    """A genuinely non-convex F with heterogeneous clients (guide check 13, Theorem C.1(iii)).

    f_i(x) = (1/d) Σ_j [(1 + C p_ij) x_j²/2 + C q_ij x_j + a·sin(ω x_j)] with p_ij = a_j^{(i)} − 1/N
    and q_ij = b_j^{(i)} − 1/N from Dirichlet((1/N)·1_N) draws as in (98), so Σ_i p_ij = Σ_i q_ij
    = 0 and F(x) = (1/d) Σ_j g(x_j), g(t) = t²/2 + a sin(ωt). With the defaults a = 0.5, ω = 3,
    g″ = 1 − 4.5 sin(3t) < 0 wherever sin(3t) > 2/9: F is not convex.

    The domain is ℝ^d (``box`` is False): Theorem C.1(iii) needs only a β-smooth F bounded
    below. β = (1 + aω²)/d exactly (sup ``|g″|``, attained where sin(ωt) = −1); α = 0.
    F* = min g (one-dimensional, computed to machine precision; see :func:`_scalar_minimum`),
    attained at x* = t*·1. The local functions are unbounded below when 1 + C p_ij < 0, and
    otherwise non-convex: :meth:`client_optima` is not available.

    Parameters
    ----------
    d, N
        Dimension and number of clients (≥ 1).
    C
        Heterogeneity (≥ 0).
    amplitude, frequency
        a ≥ 0 and ω > 0 of the shared sine term.
    seed
        Seed of the Dirichlet draws (p first, then q).

    Raises
    ------
    ParameterError
        If d < 1, N < 1, C < 0, a < 0, ω ≤ 0 or the seed is not reproducible.
    """

    box = False

    def __init__(
        self,
        d: int = 50,
        N: int = 5,
        C: float = 5.0,
        *,
        amplitude: float = 0.5,
        frequency: float = 3.0,
        seed: Seed = 0,
    ) -> None:
        d = check_int("d", d, minimum=1)
        N = check_int("N", N, minimum=1)
        self.C = check_real("C", C, nonnegative=True)
        self.amplitude = check_real("amplitude", amplitude, nonnegative=True)
        self.frequency = check_real("frequency", frequency, positive=True)
        rng = generator(seed)
        p = _dirichlet_rows(rng, N, d) - 1.0 / N
        q = _dirichlet_rows(rng, N, d) - 1.0 / N
        quad = (1.0 + self.C * p) / (2.0 * d)
        lin = self.C * q / d
        self._setup(quad, lin, np.zeros(N), scale=1.0, shift=0.0,
                    amplitude=self.amplitude / d, frequency=self.frequency)  # fmt: skip
        self._t_star, self._g_star = _scalar_minimum(self.amplitude, self.frequency)

    @property
    def optimum_value(self) -> float:
        """F* = min_t g(t) (F is the mean over coordinates of g)."""
        return self._g_star

    def global_optimum(self) -> np.ndarray:
        """x* = t*·1 with t* = argmin g."""
        return np.full(self._d, self._t_star)

    def client_optima(self) -> np.ndarray:
        """Not available: the f_i are non-convex (and unbounded below when 1 + C p_ij < 0)."""
        raise _unavailable("NonconvexSines", "client_optima", "the local functions are non-convex")

    def constants(self) -> dict[str, float]:
        """``smoothness`` β = (1 + aω²)/d (exact), ``strong_convexity`` 0 (F is non-convex),
        ``heterogeneity_max`` = max over [0, 1]^d of G (exact; G is unbounded on ℝ^d)."""
        return {
            "smoothness": (1.0 + self.amplitude * self.frequency**2) / self._d,
            "strong_convexity": 0.0,
            "heterogeneity_max": self.heterogeneity_max(),
        }


# ============================================================================== dense quadratics


class DenseQuadratics(ZerothOrderProblem):
    """f_i(x) = ½ xᵀA_i x + b_iᵀx + c_i on ℝ^d, with F = ½ xᵀĀx + b̄ᵀx + c̄ strongly convex.

    The domain is ℝ^d (``box`` is False): these problems serve the pathwise checks of the plain
    GD framework (guide checks 3, 10, 11), which has no projection. α and β are the extreme
    eigenvalues of Ā (exact up to ``eigvalsh``); x* = −Ā⁻¹b̄ and F* = c̄ − ½ b̄ᵀĀ⁻¹b̄.

    Parameters
    ----------
    curvature
        A_i, shape (N, d, d), symmetric; their mean Ā must be positive definite.
    lin
        b_i, shape (N, d).
    const
        c_i, shape (N,).

    Raises
    ------
    ParameterError
        If a shape disagrees, an A_i is not symmetric, or Ā is not positive definite.
    """

    box = False

    def __init__(self, curvature: Any, lin: Any, const: Any) -> None:
        A = np.asarray(curvature, dtype=np.float64)
        if A.ndim != 3 or A.shape[1] != A.shape[2] or A.shape[0] < 1 or A.shape[1] < 1:
            raise ParameterError(
                parameter="curvature", value=f"shape {A.shape}", rule="must be (N, d, d), N, d ≥ 1"
            )
        N, d = A.shape[0], A.shape[1]
        A = check_vector("curvature", A, shape=(N, d, d))
        scale = max(1.0, float(np.abs(A).max()))
        if np.abs(A - A.transpose(0, 2, 1)).max() > 1e-12 * scale:
            raise ParameterError(parameter="curvature", value="A_i", rule="must be symmetric")
        A = 0.5 * (A + A.transpose(0, 2, 1))
        b = check_vector("lin", lin, shape=(N, d))
        c = check_vector("const", const, shape=(N,))
        mean = A.mean(axis=0)
        eig = np.linalg.eigvalsh(mean)
        if not eig[0] > 0:
            raise ParameterError(
                parameter="curvature",
                value=f"mean with λ_min = {eig[0]:.6g}",
                rule="the mean curvature Ā must be positive definite (F strongly convex)",
            )
        self._N, self._d = N, d
        self._eig = eig
        self._view = DenseQuadraticView(kernel_array(A), kernel_array(b), kernel_array(c))

    @property
    def mean_curvature(self) -> np.ndarray:
        """Ā = (1/N) Σ_i A_i."""
        return readonly(self._view.curvature.mean(axis=0))

    def global_optimum(self) -> np.ndarray:
        """x* = −Ā⁻¹b̄."""
        return np.linalg.solve(self._view.curvature.mean(axis=0), -self._view.lin.mean(axis=0))

    @property
    def optimum_value(self) -> float:
        """F* = c̄ − ½ b̄ᵀĀ⁻¹b̄ = F(x*)."""
        b = self._view.lin.mean(axis=0)
        return float(self._view.const.mean() + 0.5 * b @ self.global_optimum())

    def client_optima(self) -> np.ndarray:
        """x_i* = −A_i⁻¹b_i; not available when some A_i is not positive definite."""
        A, b = self._view.curvature, self._view.lin
        if np.linalg.eigvalsh(A).min() <= 0:
            raise _unavailable(
                "DenseQuadratics", "client_optima", "some A_i is not positive definite"
            )
        return np.stack([np.linalg.solve(A[i], -b[i]) for i in range(self._N)])

    def constants(self) -> dict[str, float]:
        """``smoothness`` λ_max(Ā), ``strong_convexity`` λ_min(Ā); when every A_i = Ā (pure
        linear heterogeneity) also the constant ``heterogeneity_max`` G = (1/N) Σ‖b_i − b̄‖²."""
        out = {"smoothness": float(self._eig[-1]), "strong_convexity": float(self._eig[0])}
        A = self._view.curvature
        if np.array_equal(A, np.broadcast_to(A[0], A.shape)):
            b = self._view.lin
            out["heterogeneity_max"] = float(np.mean(np.sum((b - b.mean(axis=0)) ** 2, axis=1)))
        return out


def _spectrum(rng: np.random.Generator, d: int, alpha: float, beta: float) -> np.ndarray:
    """A random SPD matrix QΛQᵀ with λ_min = α, λ_max = β (the rest uniform between)."""
    lam = rng.uniform(alpha, beta, size=d)
    lam[0] = alpha
    if d > 1:
        lam[-1] = beta
    Q, R = np.linalg.qr(rng.standard_normal((d, d)))
    Q = Q * np.sign(np.diag(R))
    A = (Q * lam) @ Q.T
    return np.asarray(0.5 * (A + A.T))


def _check_spectrum(alpha: float, beta: float) -> tuple[float, float]:
    a = check_real("alpha", alpha, positive=True)
    b = check_real("beta", beta, positive=True)
    if b < a:
        raise ParameterError(parameter="beta", value=b, rule=f"must be at least alpha = {a:.6g}")
    return a, b


def linear_heterogeneity(
    d: int,
    N: int,
    *,
    alpha: float = 0.5,
    beta: float = 2.0,
    spread: float = 1.0,
    seed: Seed = 0,
) -> DenseQuadratics:
    """Pure linear heterogeneity f_i = F + ⟨b_i, x⟩ with Σ_i b_i = 0 (guide check 3).

    F(x) = ½(x − x*)ᵀA(x − x*) with A = QΛQᵀ (λ_min = α, λ_max = β) and x* ~ U[0.25, 0.75]^d;
    b_i ~ N(0, spread²·I) centred over the clients (so ∇f_i − ∇F = b_i is constant and
    G = (1/N) Σ‖b_i‖² exactly). Draw order: A, x*, then the b's.

    Raises
    ------
    ParameterError
        If d < 1, N < 1, α ≤ 0, β < α or spread < 0.
    """
    d = check_int("d", d, minimum=1)
    N = check_int("N", N, minimum=1)
    alpha, beta = _check_spectrum(alpha, beta)
    spread = check_real("spread", spread, nonnegative=True)
    rng = generator(seed)
    A = _spectrum(rng, d, alpha, beta)
    centre = rng.uniform(0.25, 0.75, size=d)
    shifts = spread * rng.standard_normal((N, d))
    shifts -= shifts.mean(axis=0)
    lin = -(A @ centre)[None, :] + shifts
    const = np.full(N, 0.5 * centre @ A @ centre)
    return DenseQuadratics(np.broadcast_to(A, (N, d, d)), lin, const)


def random_quadratics(
    d: int,
    N: int,
    *,
    alpha: float = 0.5,
    beta: float = 2.0,
    C: float = 1.0,
    seed: Seed = 0,
) -> DenseQuadratics:
    """A random strongly convex quadratic F with α < β and heterogeneous clients (check 11).

    Ā = QΛQᵀ with λ_min = α, λ_max = β and x* ~ U[0.25, 0.75]^d as in
    :func:`linear_heterogeneity`; client i has A_i = Ā + C·E_i and b_i = −Āx* + C·e_i with
    symmetric E_i (Gaussian entries of variance 1/d) and e_i ~ N(0, I), both centred over
    the clients, so the mean is exactly F and the local functions may be non-convex for large C.

    Raises
    ------
    ParameterError
        If d < 1, N < 1, α ≤ 0, β < α or C < 0.
    """
    d = check_int("d", d, minimum=1)
    N = check_int("N", N, minimum=1)
    alpha, beta = _check_spectrum(alpha, beta)
    C = check_real("C", C, nonnegative=True)
    rng = generator(seed)
    A = _spectrum(rng, d, alpha, beta)
    centre = rng.uniform(0.25, 0.75, size=d)
    E = rng.standard_normal((N, d, d)) / math.sqrt(d)
    E = 0.5 * (E + E.transpose(0, 2, 1))
    E -= E.mean(axis=0)
    e = rng.standard_normal((N, d))
    e -= e.mean(axis=0)
    curvature = A[None] + C * E
    curvature = 0.5 * (curvature + curvature.transpose(0, 2, 1))
    lin = -(A @ centre)[None, :] + C * e
    const = np.full(N, 0.5 * centre @ A @ centre)
    return DenseQuadratics(curvature, lin, const)
