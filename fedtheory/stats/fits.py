"""Rate fits of a curve: a power law, and a power law on top of a floor.

- :func:`fit_power_law`: y ≈ prefactor · x^exponent by least squares of log y on log x;
- :func:`fit_power_law_with_floor`: y ≈ a + b · x^k by variable projection ([GP73]_).

Both return frozen dataclasses of plain Python scalars (:class:`PowerLawFit`,
:class:`FloorFit`); their bootstrap intervals are in :mod:`fedtheory.stats.bootstrap`.

References
----------
.. [GP73] G. H. Golub and V. Pereyra, "The differentiation of pseudo-inverses and nonlinear least
   squares problems whose variables separate", *SIAM J. Numer. Anal.* 10(2):413–432, 1973.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.optimize import minimize_scalar

from fedtheory.errors import ParameterError
from fedtheory.stats._checks import (
    FloatArray,
    as_vector,
    check_count,
    check_distinct,
    check_positive,
    check_same_length,
    weight_vector,
)
from fedtheory.stats._least_squares import wls_line

__all__ = ["FloorFit", "PowerLawFit", "fit_power_law", "fit_power_law_with_floor"]


# --------------------------------------------------------------------------------------------
# power law
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PowerLawFit:
    """Least-squares fit of log y on log x: y ≈ prefactor · x^exponent.

    Attributes
    ----------
    exponent : float
        Slope β of the fitted line log y = log(prefactor) + β log x.
    prefactor : float
        exp of the intercept.
    r_squared : float
        Coefficient of determination of the (weighted) fit in log space, in [0, 1]; 1 when log y
        is constant.
    residual_std : float
        Residual standard error of the log residuals r_i,
        ``sqrt(Σ w_i r_i² / Σ w_i · m / (m − 2))`` with m the number of points of positive weight
        (the usual ``sqrt(Σ r_i² / (m − 2))`` without weights); NaN when m = 2 (no degree of
        freedom left).
    n_points : int
        Number of points passed (including points of zero weight).
    """

    exponent: float
    prefactor: float
    r_squared: float
    residual_std: float
    n_points: int

    def predict(self, x: npt.ArrayLike) -> FloatArray:
        """Evaluate prefactor · x^exponent."""
        return np.asarray(self.prefactor * np.asarray(x, dtype=np.float64) ** self.exponent)

    def __str__(self) -> str:
        return (
            f"y ≈ {self.prefactor:.6g}·x^{self.exponent:.6g} (R² = {self.r_squared:.4f}, "
            f"log-residual std {self.residual_std:.3g}, {self.n_points} points)"
        )


def fit_power_law(
    x: npt.ArrayLike, y: npt.ArrayLike, *, weights: npt.ArrayLike | None = None
) -> PowerLawFit:
    r"""Fit y ≈ prefactor · x^exponent by (weighted) least squares of log y on log x.

    With u_i = log x_i, v_i = log y_i and weights w_i ≥ 0 (all 1 by default) the fit minimises
    Σ w_i (v_i − α − β u_i)², whose solution is

    .. math::

        β = \frac{Σ w_i (u_i − ū)(v_i − v̄)}{Σ w_i (u_i − ū)^2}, \qquad α = v̄ − β ū,

    with ū, v̄ the weighted means; exponent = β and prefactor = e^α.

    Parameters
    ----------
    x, y : array_like, shape (P,)
        Positive, finite values.
    weights : array_like, shape (P,), optional
        Non-negative weights of the squared log residuals (e.g. 1/Var(log y_i)).

    Returns
    -------
    PowerLawFit

    Raises
    ------
    ParameterError
        If x or y has a non-positive or non-finite entry, the lengths differ, a weight is
        negative, or fewer than 2 distinct x carry positive weight.

    Examples
    --------
    >>> fit = fit_power_law([1, 4, 16], [3.0, 1.5, 0.75])
    >>> round(fit.exponent, 12), round(fit.prefactor, 12), round(fit.r_squared, 12)
    (-0.5, 3.0, 1.0)
    """
    xv = as_vector(x, "x", min_size=2)
    yv = as_vector(y, "y")
    check_same_length(xv, yv, "x", "y")
    check_positive(xv, "x", "for a log-log fit")
    check_positive(yv, "y", "for a log-log fit")
    w = weight_vector(weights, xv.size)
    check_distinct(xv, w > 0, 2, " with positive weight")
    slope, intercept, r_squared, resid_std = wls_line(np.log(xv), np.log(yv), w)
    return PowerLawFit(
        exponent=slope,
        prefactor=math.exp(intercept),
        r_squared=r_squared,
        residual_std=resid_std,
        n_points=int(xv.size),
    )


# --------------------------------------------------------------------------------------------
# floor + power law
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FloorFit:
    """Least-squares fit of y ≈ floor + coefficient · x^exponent (see
    :func:`fit_power_law_with_floor`).

    Attributes
    ----------
    floor : float
        The constant a.
    coefficient : float
        The coefficient b.
    exponent : float
        The exponent k.
    rss : float
        Weighted residual sum of squares Σ w_i (y_i − a − b x_i^k)² (with the default weights
        1/y_i²: the sum of squared relative residuals).
    n_points : int
        Number of points.
    at_bound : bool
        True when the exponent ended on the edge of the searched k-range (its ends or the
        excluded neighbourhood of 0): the optimum may lie outside the range.
    """

    floor: float
    coefficient: float
    exponent: float
    rss: float
    n_points: int
    at_bound: bool = False

    def predict(self, x: npt.ArrayLike) -> FloatArray:
        """Evaluate floor + coefficient · x^exponent."""
        xa = np.asarray(x, dtype=np.float64)
        return np.asarray(self.floor + self.coefficient * xa**self.exponent)

    def __str__(self) -> str:
        edge = ", exponent at the search bound" if self.at_bound else ""
        return (
            f"y ≈ {self.floor:.6g} + {self.coefficient:.6g}·x^{self.exponent:.6g} "
            f"(rss {self.rss:.3g}, {self.n_points} points{edge})"
        )


def _floor_linear(
    k: FloatArray, u: FloatArray, y: FloatArray, w: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Variable projection: for each exponent k_j the weighted LS floor and coefficient.

    Uses the scaled regressor z = exp(k·u − max(k·u)) (max z = 1) and the closed-form weighted
    least squares of y on (1, z) with centred sums. Returns (rss, a, β, shift) per k with
    coefficient b = β · exp(−shift); residuals are computed explicitly so that rss is accurate
    near an exact fit.
    """
    ku = np.outer(k, u)
    shift = ku.max(axis=1)
    z = np.exp(ku - shift[:, None])
    sw = float(w.sum())
    z_bar = (z @ w) / sw
    y_bar = float(w @ y) / sw
    zc = z - z_bar[:, None]
    yc = y - y_bar
    beta = ((zc * yc) @ w) / ((zc * zc) @ w)
    a = y_bar - beta * z_bar
    resid = y - a[:, None] - beta[:, None] * z
    rss = (resid * resid) @ w
    return np.asarray(rss), np.asarray(a), np.asarray(beta), np.asarray(shift)


def _gauss_newton_polish(
    u: FloatArray,
    y: FloatArray,
    w: FloatArray,
    k: float,
    k_lo: float,
    k_hi: float,
) -> tuple[float, float, float, float]:
    """Refine (a, b, k) by damped Gauss–Newton on the full problem; returns (rss, a, b, k).

    Starts from the variable-projection optimum at ``k``; a step is accepted only if it lowers
    the rss and keeps k inside [k_lo, k_hi]. Converges quadratically on (near-)exact data, where
    the bounded 1-D search alone only locates k to ~√ε relative.
    """
    rss_arr, a_arr, beta_arr, shift_arr = _floor_linear(np.array([k]), u, y, w)
    rss, a, beta, shift = (
        float(rss_arr[0]),
        float(a_arr[0]),
        float(beta_arr[0]),
        float(shift_arr[0]),
    )
    sqrt_w = np.sqrt(w)
    for _ in range(30):
        z = np.exp(k * u - shift)
        resid = sqrt_w * (y - a - beta * z)
        jac = sqrt_w[:, None] * np.column_stack([np.ones_like(u), z, beta * z * u])
        scale = np.linalg.norm(jac, axis=0)
        scale[scale == 0] = 1.0
        step = np.linalg.lstsq(jac / scale, resid, rcond=None)[0] / scale
        improved = False
        for damping in (1.0, 0.5, 0.25, 0.125):
            a_new = a + damping * step[0]
            beta_new = beta + damping * step[1]
            k_new = k + damping * step[2]
            if not k_lo <= k_new <= k_hi:
                continue
            r_new = sqrt_w * (y - a_new - beta_new * np.exp(k_new * u - shift))
            rss_new = float(r_new @ r_new)
            if rss_new < rss:
                a, beta, k, rss = a_new, beta_new, k_new, rss_new
                improved = True
                break
        if not improved or abs(damping * step[2]) <= 4 * np.finfo(float).eps * (1 + abs(k)):
            break
    return float(rss), float(a), float(beta) * math.exp(-shift), float(k)


def fit_power_law_with_floor(
    x: npt.ArrayLike,
    y: npt.ArrayLike,
    *,
    weights: npt.ArrayLike | None = None,
    k_bounds: tuple[float, float] = (-5.0, 5.0),
    k_gap: float = 1e-3,
    n_grid: int = 101,
) -> FloorFit:
    r"""Least-squares fit of y ≈ a + b · x^k: a floor plus a power law.

    Minimises the weighted residual sum of squares

    .. math:: S(a, b, k) = Σ_i w_i (y_i − a − b x_i^k)^2,

    by default with w_i = 1/y_i² (relative residuals, so every decade of y counts equally). For
    fixed k the model is linear in (a, b), solved in closed form; this *variable projection*
    (Golub & Pereyra 1973) leaves the 1-D problem min_k S(â(k), b̂(k), k). It is searched on a
    coarse grid of ``n_grid`` exponents per sign in ``k_bounds`` without (−k_gap, k_gap) (where
    x^k → 1 and the model degenerates into a + b' log x), each of the three best local grid
    minima is refined by a bounded Brent search between its grid neighbours
    (:func:`scipy.optimize.minimize_scalar`), and the best one is polished by Gauss–Newton on
    (a, b, k).

    Parameters
    ----------
    x, y : array_like, shape (P,)
        x > 0 with at least 3 distinct values; y > 0 unless ``weights`` is given.
    weights : array_like, shape (P,), optional
        Non-negative weights w_i (default 1/y_i²).
    k_bounds : (float, float)
        Searched exponent range.
    k_gap : float
        Half-width of the excluded neighbourhood of k = 0.
    n_grid : int
        Coarse-grid size per sign of k.

    Returns
    -------
    FloorFit
        ``at_bound`` flags an exponent on the edge of the searched range.

    Examples
    --------
    >>> x = np.logspace(0, 4, 12)
    >>> fit = fit_power_law_with_floor(x, 0.01 + 3.0 / x)
    >>> round(fit.floor, 8), round(fit.coefficient, 8), round(fit.exponent, 8)
    (0.01, 3.0, -1.0)
    """
    xv = as_vector(x, "x", min_size=3)
    yv = as_vector(y, "y")
    check_same_length(xv, yv, "x", "y")
    check_positive(xv, "x", "for a power law")
    if weights is None:
        check_positive(yv, "y", "for the default relative weights 1/y² (pass weights=)")
        w = 1.0 / yv**2
    else:
        w = weight_vector(weights, xv.size)
    check_distinct(xv, w > 0, 3, " with positive weight (3 parameters)")
    k_lo, k_hi, k_gap = _check_k_range(k_bounds, k_gap)
    n_grid = check_count(n_grid, "n_grid", 3)

    u = np.log(xv)
    segments = []
    if k_lo < -k_gap:
        segments.append(np.linspace(k_lo, min(k_hi, -k_gap), n_grid))
    if k_hi > k_gap:
        segments.append(np.linspace(max(k_lo, k_gap), k_hi, n_grid))

    def objective(k: float) -> float:
        return float(_floor_linear(np.array([k]), u, yv, w)[0][0])

    # local minima of the coarse grid: (grid rss, grid k, bracket low, bracket high)
    candidates: list[tuple[float, float, float, float]] = []
    for grid in segments:
        values = _floor_linear(grid, u, yv, w)[0]
        values = np.where(np.isfinite(values), values, np.inf)
        for i in range(grid.size):
            left = values[i - 1] if i > 0 else np.inf
            right = values[i + 1] if i + 1 < grid.size else np.inf
            if np.isfinite(values[i]) and values[i] <= left and values[i] <= right:
                low_i, high_i = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
                candidates.append((float(values[i]), float(grid[i]), float(low_i), float(high_i)))
    if not candidates:
        raise ParameterError(
            parameter="y", value="no finite fit", rule="no finite least-squares fit on the k grid"
        )
    candidates.sort()
    best_rss, best_k = math.inf, math.nan
    for grid_rss, grid_k, lo_i, hi_i in candidates[:3]:
        res = minimize_scalar(
            objective, bounds=(lo_i, hi_i), method="bounded", options={"xatol": 1e-12}
        )
        k_i, rss_i = float(res.x), float(res.fun)
        if not rss_i <= grid_rss:  # Brent can miss a grid point on the bracket's edge
            k_i, rss_i = grid_k, grid_rss
        if rss_i < best_rss:
            best_rss, best_k = rss_i, k_i
    seg_lo, seg_hi = (k_lo, -k_gap) if best_k < 0 else (k_gap, k_hi)
    seg_lo, seg_hi = max(seg_lo, k_lo), min(seg_hi, k_hi)
    rss, a, b, k = _gauss_newton_polish(u, yv, w, best_k, seg_lo, seg_hi)
    tol = 1e-6 * (k_hi - k_lo)
    at_bound = bool(min(abs(k - seg_lo), abs(k - seg_hi)) <= tol)
    return FloorFit(
        floor=a, coefficient=b, exponent=k, rss=rss, n_points=int(xv.size), at_bound=at_bound
    )


def _check_k_range(k_bounds: tuple[float, float], k_gap: float) -> tuple[float, float, float]:
    try:
        k_lo, k_hi = (float(v) for v in k_bounds)
        gap = float(k_gap)
    except (TypeError, ValueError) as exc:
        raise ParameterError(
            parameter="k_bounds", value=k_bounds, rule="must be a pair of numbers (low, high)"
        ) from exc
    if not (math.isfinite(k_lo) and math.isfinite(k_hi) and k_lo < k_hi):
        raise ParameterError(
            parameter="k_bounds", value=k_bounds, rule="must be finite with low < high"
        )
    if not (math.isfinite(gap) and gap >= 0):
        raise ParameterError(parameter="k_gap", value=k_gap, rule="must be finite and >= 0")
    if -gap <= k_lo and k_hi <= gap:
        raise ParameterError(
            parameter="k_bounds",
            value=k_bounds,
            rule=f"must extend beyond the excluded neighbourhood (−{gap:g}, {gap:g}) of 0",
        )
    return k_lo, k_hi, gap
