"""Closed-form least-squares lines shared by the rate fits and the bootstrap of their slope."""

from __future__ import annotations

import math

import numpy as np

from fedtheory.stats._checks import FloatArray

__all__ = ["ols_slopes", "wls_line"]


def wls_line(u: FloatArray, v: FloatArray, w: FloatArray) -> tuple[float, float, float, float]:
    """Weighted least-squares line v ≈ α + β u: (β, α, R², residual standard error)."""
    sw = float(w.sum())
    u_bar = float(w @ u) / sw
    v_bar = float(w @ v) / sw
    uc = u - u_bar
    vc = v - v_bar
    slope = float(w @ (uc * vc)) / float(w @ (uc * uc))
    intercept = v_bar - slope * u_bar
    resid = vc - slope * uc
    ss_res = float(w @ (resid * resid))
    ss_tot = float(w @ (vc * vc))
    r_squared = max(0.0, 1.0 - ss_res / ss_tot) if ss_tot > 0 else 1.0
    m = int(np.count_nonzero(w > 0))
    resid_std = math.sqrt(ss_res / sw * m / (m - 2)) if m > 2 else math.nan
    return slope, intercept, r_squared, resid_std


def ols_slopes(u: FloatArray, v: FloatArray) -> FloatArray:
    """Closed-form OLS slopes of every row of ``v`` (B, P) on ``u`` (P,)."""
    uc = u - u.mean()
    vc = v - v.mean(axis=1, keepdims=True)
    return np.asarray((vc @ uc) / float(uc @ uc))
