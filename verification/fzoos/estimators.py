"""The GP gradient surrogate and the random Fourier features of FZooS (reading guide §5 C,
checks 15 and 18; Lemmas C.1 and C.3).

* **Check 15 (Lemma C.1, calibration).** f ~ GP(0, SE) with l = 1 is sampled *jointly* at n
  history points and in its gradient at a test point x (the derivative covariances of the SE
  kernel), the history observed with noise of variance σ²; the surrogate of
  :class:`~fedtheory.papers.fzoos.gp.GaussianProcessSurrogate` (same kernel, same σ²) gives
  ∇μ(x) and Σ(x). Then e = ∇μ − ∇f | 𝒟 ~ N(0, Σ) exactly, so s = eᵀΣ⁻¹e ~ χ²_d: a KS test of
  ``draws`` values of s against χ²_d must not reject at 1%, and ‖e‖² > ω‖Σ‖₂ (the registered
  ``fzoos.lemmac1``) must have probability ≤ δ (one-sided Clopper–Pearson at 95%).
* **Check 16 (ρ structure)** lives in uncertainty.py with the rest of Lemma C.6 (its claim ids
  ``fzoos/estimators/spectral-norm-stays-kappa`` and ``…/trace-decreases`` are kept).
* **Check 18 (Lemma C.3).** For the SE kernel (d = 10, l = 1) and one pair (x, x′) per feature
  draw, |φ(x)ᵀφ(x′) − k| ≤ √(8ln(2/δ)/M) and ‖∇φ(x)ᵀφ(x′) − ∇_xk‖ ≤ √(4V/(Mδ)), V = d/l², each
  with failure probability ≤ δ (Clopper–Pearson), and the RMS kernel error decays like M^{−1/2}.

Not here yet: check 17 (GP error along real FZooS trajectories), check 19 (Lemma C.4) and
check 14 (Theorem 1 with measured quantities) — they need FZooS runs with the GP surrogate.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import stats as scipy_stats

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.papers.fzoos.gp import GaussianProcessSurrogate, se_kernel_gradient
from fedtheory.papers.fzoos.rff import RandomFourierFeatures
from fedtheory.verify import (
    LowerBoundHolds,
    Measurement,
    RateExponent,
    Sweep,
    UpperBoundHolds,
)

LEMMAC1 = bounds.get("fzoos.lemmac1")
LEMMAC3_KERNEL = bounds.get("fzoos.lemmac3.kernel")
LEMMAC3_GRADIENT = bounds.get("fzoos.lemmac3.gradient")

LEVEL = 0.95  # one-sided confidence level of the binomial tests


def _clopper_pearson_upper(failures: int, draws: int, level: float) -> float:
    """One-sided exact binomial upper confidence limit of a failure probability."""
    if failures == draws:
        return 1.0
    return float(scipy_stats.beta.ppf(level, failures + 1, draws - failures))


# ====================================================================== check 15
def _joint_sample(
    rng: np.random.Generator, X: np.ndarray, x: np.ndarray, noise: float
) -> tuple[np.ndarray, np.ndarray]:
    """(y = f(X) + noise, ∇f(x)) for f ~ GP(0, SE, l = 1), jointly Gaussian."""
    n, d = X.shape
    diff = X[:, None, :] - X[None, :, :]
    K = np.exp(-0.5 * np.sum(diff**2, axis=-1)) + noise * np.eye(n)
    dx = X - x  # Cov(f(X_τ), ∂_j f(x)) = ∂_{x_j} k(X_τ, x) = (X_τ − x)_j k(X_τ, x)
    cross = dx * np.exp(-0.5 * np.sum(dx**2, axis=1))[:, None]
    joint = np.block([[K, cross], [cross.T, np.eye(d)]])
    z = np.linalg.cholesky(joint + 1e-12 * np.eye(n + d)) @ rng.standard_normal(n + d)
    return z[:n], z[n:]


def gp_calibration(params: dict[str, Any], seed: int) -> dict[str, float]:
    """KS p-value of s = eᵀΣ⁻¹e against χ²_d and the exceedance of ω‖Σ‖₂ over ``draws``."""
    d, n, draws = int(params["d"]), int(params["n"]), int(params["draws"])
    noise, delta = float(params["noise"]), float(params["delta"])
    rng = np.random.default_rng(seed)
    s = np.empty(draws)
    exceed = 0
    for k in range(draws):
        x = rng.uniform(0.0, 1.0, d)
        X = x + rng.uniform(-1.0, 1.0, (n, d))
        y, grad = _joint_sample(rng, X, x, noise)
        gp = GaussianProcessSurrogate(d, noise=noise, capacity=n)
        gp.add(X, y)
        e = gp.mean_gradient(x) - grad
        cov = gp.gradient_covariance(x)
        s[k] = float(e @ np.linalg.solve(cov, e))
        norm = float(np.linalg.eigvalsh(cov)[-1])
        exceed += int(e @ e > float(LEMMAC1.evaluate(d=d, delta=delta, sig=norm)))
    return {
        "ks_p": float(scipy_stats.kstest(s, scipy_stats.chi2(d).cdf).pvalue),
        "ks_level": float(params["ks_level"]),
        "frequency": exceed / draws,
        "freq_high": _clopper_pearson_upper(exceed, draws, LEVEL),
        "delta": delta,
    }


_CAL = {"noise": 0.01, "delta": 0.1, "ks_level": 0.01}
calibration = Measurement(
    id="fzoos/estimators/gp-calibration",
    experiment=gp_calibration,
    sweeps={
        "smoke": Sweep(grid={"d": [2, 5], "n": [5, 20]}, fixed={**_CAL, "draws": 150}),
        "quick": Sweep(grid={"d": [2, 5, 20], "n": [5, 20, 100]}, fixed={**_CAL, "draws": 500}),
    },
    notes=(
        "f ~ GP(0, SE, l = 1) sampled jointly at n points x + U[−1, 1]^d and in ∇f(x), x ~ "
        "U[0, 1]^d, noise variance σ² = 0.01 on y (the surrogate's σ²); `draws` independent "
        "draws per point; δ = 0.1; KS level 1% (guide check 15)."
    ),
    uses=[LEMMAC1],
)
ks_claim = calibration.claim(
    id="fzoos/estimators/gp-gradient-chi2",
    source=Citation("fzoos", "Lemma C.1 (its Gaussian core)"),
    statement=(
        "For f ~ GP with the surrogate's kernel, ∇f − ∇μ | 𝒟 ~ N(0, Σ(x)): s = eᵀΣ⁻¹e ~ χ²_d "
        "(a KS test does not reject at 1%)."
    ),
    criterion=LowerBoundHolds("ks_p", "ks_level", over="every"),
    bound=LEMMAC1,
    notes="Fails if the derivative kernel, the noise handling or the covariance sign is wrong.",
)
omega_claim = calibration.claim(
    id="fzoos/estimators/lemmac1-exceedance",
    source=Citation("fzoos", "Lemma C.1"),
    statement="‖∇μ(x) − ∇f(x)‖² ≤ ω‖Σ(x)‖₂, ω = d + 2(√d + 1)ln(1/δ), with probability ≥ 1 − δ.",
    criterion=UpperBoundHolds("freq_high", "delta", over="every"),
    bound=LEMMAC1,
    notes="One-sided Clopper–Pearson upper limit of the failure rate at 95% must be ≤ δ.",
)


# ====================================================================== check 18
def rff_errors(params: dict[str, Any], seed: int) -> dict[str, float]:
    """``draws`` independent feature draws, each at one random pair (x, x′) in [0, 1]^d: the
    exceedance of Lemma C.3's kernel and gradient bounds and the RMS kernel error."""
    d, m, draws = int(params["d"]), int(params["M"]), int(params["draws"])
    delta = float(params["delta"])
    kernel_bound = float(LEMMAC3_KERNEL.evaluate(M=m, delta=delta))
    gradient_bound = float(LEMMAC3_GRADIENT.evaluate(M=m, delta=delta, V=d))  # V = d/l², l = 1
    seeds = np.random.SeedSequence(seed).generate_state(draws, dtype=np.uint64)
    rng = np.random.default_rng(seed)
    k_err, g_err = np.empty(draws), np.empty(draws)
    for j in range(draws):
        x, x2 = rng.uniform(0.0, 1.0, d), rng.uniform(0.0, 1.0, d)
        rff = RandomFourierFeatures(d, m, seed=int(seeds[j]))
        phi2 = rff.features(x2)
        k_err[j] = abs(float(rff.features(x) @ phi2) - float(np.exp(-0.5 * np.sum((x - x2) ** 2))))
        g_err[j] = float(np.linalg.norm(rff.jacobian(x).T @ phi2 - se_kernel_gradient(x, x2)))
    fk, fg = int(np.sum(k_err > kernel_bound)), int(np.sum(g_err > gradient_bound))
    return {
        "kernel_freq_high": _clopper_pearson_upper(fk, draws, LEVEL),
        "gradient_freq_high": _clopper_pearson_upper(fg, draws, LEVEL),
        "delta": delta,
        "kernel_rms": float(np.sqrt(np.mean(k_err**2))),
        "kernel_max_ratio": float(k_err.max() / kernel_bound),
        "gradient_max_ratio": float(g_err.max() / gradient_bound),
    }


_RFF = {"d": 10, "delta": 0.05}
rff_data = Measurement(
    id="fzoos/estimators/rff-lemmac3",
    experiment=rff_errors,
    sweeps={
        "smoke": Sweep(grid={"M": [250, 1000, 4000]}, fixed={**_RFF, "draws": 60}, replicates=8),
        "quick": Sweep(grid={"M": [250, 1000, 4000]}, fixed={**_RFF, "draws": 120}, replicates=8),
    },
    notes=(
        "SE kernel, d = 10, l = 1, √(2/M) features; each replicate `draws` independent feature "
        "draws, each at its own uniform pair (x, x′) ∈ [0, 1]^d; δ = 0.05 (guide check 18)."
    ),
    uses=[LEMMAC3_KERNEL, LEMMAC3_GRADIENT],
)
rff_kernel = rff_data.claim(
    id="fzoos/estimators/lemmac3-kernel-exceedance",
    source=Citation("fzoos", "Lemma C.3, (15)–(16)"),
    statement="|φ(x)ᵀφ(x′) − k(x, x′)| ≤ √(8ln(2/δ)/M) with probability ≥ 1 − δ.",
    criterion=UpperBoundHolds("kernel_freq_high", "delta", over="every"),
    bound=LEMMAC3_KERNEL,
)
rff_gradient = rff_data.claim(
    id="fzoos/estimators/lemmac3-gradient-exceedance",
    source=Citation("fzoos", "Lemma C.3, (18)–(20)"),
    statement="‖∇φ(x)ᵀφ(x′) − ∇_xk(x, x′)‖ ≤ √(4V/(Mδ)), V = d/l², with probability ≥ 1 − δ.",
    criterion=UpperBoundHolds("gradient_freq_high", "delta", over="every"),
    bound=LEMMAC3_GRADIENT,
)
rff_rate = rff_data.claim(
    id="fzoos/estimators/rff-kernel-rate",
    source=Citation("fzoos", "Lemma C.3"),
    statement="The RFF kernel error decays like M^{−1/2} (RMS over pairs and feature draws).",
    criterion=RateExponent(
        "M", "kernel_rms", expected=LEMMAC3_KERNEL, band=0.05, bound_args={"delta": "delta"}
    ),
    bound=LEMMAC3_KERNEL,
    notes="Guide check 18: slope −0.50 ± 0.05, the expected slope taken from the bound.",
)
