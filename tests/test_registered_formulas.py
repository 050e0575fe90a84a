"""Every registered bound of ``minimax`` and ``fedlrgd`` pinned at an independent point.

Each row of :data:`PINS` names a bound, a parameter point inside its hypotheses (never its
``Bound.example``) and the formula transcribed from the paper — or, for ``derived`` and
``corrected`` bounds, from the reading guide's derivation — as plain Python (``math``; ``mpmath``
where float64 could move a ceiling, and for a root found without the paper's closed form).
Nothing here reads ``Bound.expr`` or calls the library besides ``Bound.evaluate``, so a typo in a
registered expression (a factor, an exponent, a term, a branch of a min) changes the value at the
pinned point and fails its row. Bounds with a min or max are pinned once per active branch.

Papers: seeds ``001_…`` (Chen, Zheng, Long & Su, minimax; equations (1)–(66)) and ``004_…``
(Jadbabaie, Makur & Shah, FedLRGD; (1)–(90)); guides ``shared/theory/minimax.md`` and
``shared/theory/fedlrgd.md`` for the [derived] forms. Order bounds (≲, ≳) are pinned at an
explicit value of their unknown constant ``C``. No bound of these papers has a sequence parameter
(they would be passed as lists). A registered formula found to disagree with the paper keeps its
row with the paper's value and ``xfail="<the disagreement>"`` (strict): none does at present.

Tolerance: relative 1e-12. The library evaluates in float64 with numpy, the transcriptions in
float64 with ``math`` (or at 40 digits with mpmath): they agree to a few ulps (≤ 4e-16 at every
row). Integer values — the rank (47) and Γ(FedLRGD) at integer φ — are compared exactly, at points
far below 2**40 where float64 is exact.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mpmath
import pytest

from fedtheory import bounds

PAPERS = ("minimax", "fedlrgd")
REL = 1e-12
sqrt, exp, log, e = math.sqrt, math.exp, math.log, math.e


@dataclass(frozen=True)
class Pin:
    """A bound, a point inside its hypotheses and its value computed without the library."""

    bound_id: str
    formula: Callable[..., float]
    point: dict[str, Any]
    label: str = ""
    exact: bool = False
    xfail: str = ""

    def param(self) -> Any:
        test_id = f"{self.bound_id}[{self.label}]" if self.label else self.bound_id
        marks = [pytest.mark.xfail(strict=True, reason=self.xfail)] if self.xfail else []
        return pytest.param(self, id=test_id, marks=marks)


def pin(
    bound_id: str,
    formula: Callable[..., float],
    *,
    label: str = "",
    exact: bool = False,
    xfail: str = "",
    **point: Any,
) -> Pin:
    return Pin(bound_id, formula, point, label, exact, xfail)


# ============================================================================ minimax (seed 001)
# ---- Theorem 4 (local training)
def thm4(C, beta, ell_inf, mu, n_i):
    # Theorem 4 (its display is unnumbered): E[IER_i] ≲ β‖ℓ‖∞/(μn_i)
    return C * beta * ell_inf / (mu * n_i)


def thm4_explicit(beta, ell_inf, mu, n_i):
    # [derived] guide §3.1: App. C.1's federated stability 32β‖ℓ‖∞p_i/(μn_i) for one client, p = 1
    return fed_stability(beta, ell_inf, mu, p_i=1, n_i=n_i)


# ---- Theorem 6 (FedAvg): (9), (10) with B_q = Σp_i²/n_i; (11) with p_i = n_i/N
def thm6_aer(C, beta, ell_inf, mu, N, R):
    # eq. (11), left: β‖ℓ‖∞/(μN) + βR²
    return C * (beta * ell_inf / (mu * N) + beta * R**2)


def thm6_aer_weighted(C, beta, ell_inf, mu, B_q, R):
    # eq. (9): (β‖ℓ‖∞/μ)Σp_i²/n_i + βR²
    return C * (beta * ell_inf / mu * B_q + beta * R**2)


def thm6_ier(C, beta, sigma2, mu, N, R):
    # eq. (11), right: βσ²/(μ²N) + β³R²/μ²
    return C * (beta * sigma2 / (mu**2 * N) + beta**3 * R**2 / mu**2)


def thm6_ier_weighted(C, beta, sigma2, mu, B_q, R):
    # eq. (10): (βσ²/μ²)Σp_i²/n_i + (β³/μ²)R²
    return C * (beta * sigma2 / mu**2 * B_q + beta**3 / mu**2 * R**2)


def thm6_aer_explicit(beta, ell_inf, mu, B_q, R):
    # [derived] guide §3.1 from (44)–(46): 4βR² + Σ_i p_iγ_i, γ_i = 32β‖ℓ‖∞p_i/(μn_i)
    return 4 * beta * R**2 + 32 * beta * ell_inf / mu * B_q


def thm6_ier_explicit(beta, sigma2, mu, B_q, R):
    # [derived] guide §3.1 from (47) on: IER_i ≤ β‖ŵ − w̄_p‖² + βR² with
    # E‖ŵ − w̄_p‖² ≤ (8/μ²)(σ²Σp_i²/n_i + β²R²)
    return beta * (8 / mu**2) * (sigma2 * B_q + beta**2 * R**2) + beta * R**2


def thm6_stability(beta, ell_inf, mu, p_i, n_i):
    # [derived] App. C.1 after (46): (μ/2 − βp_i/n_i)‖Δŵ‖ ≤ 2√(2β‖ℓ‖∞)p_i/n_i, and the left factor
    # is ≥ μ/4 once n_i ≥ 4βp_i/μ
    return 2 * sqrt(2 * beta * ell_inf) * p_i / n_i / (mu / 4)


def fed_stability(beta, ell_inf, mu, p_i, n_i):
    # App. C.1, the display after (46): γ_1 ≤ 32β‖ℓ‖∞p_1/(μn_1)
    return 32 * beta * ell_inf * p_i / (mu * n_i)


# ---- Lemma 7 (logistic instance), a = c_X D√d (or c_X√d·sup‖w‖)
def mu0_printed(a):
    # eq. (12) as printed: (exp{c_X D√d/2} + exp{−c_X D√d})^{−2}
    return (exp(a / 2) + exp(-a)) ** -2


def mu0_corrected(a):
    # corrected (12), guide §6.1: min_{|t|≤a} sig'(t), sig' = sig(1 − sig) even and decreasing in
    # |t|, so attained at t = a — computed from the logistic function, not the closed form
    sig = 1 / (1 + exp(-a))
    return sig * (1 - sig)


def lemma7_beta(c_X, d):
    # Lemma 7 and (13): β = σ² = c_X²d/4
    return c_X**2 * d / 4


def loss_bound_printed(a):
    # Lemma 7: ‖ℓ‖∞ = c_X D√d
    return a


def loss_bound_corrected(a):
    # corrected, guide §6.1: sup_{|t|≤a} log(1 + e^{−t}), the loss is decreasing: t = −a
    t = -a
    return log(1 + exp(-t))


# ---- Theorem 8 (estimation lower bounds), Corollary 9, the minimax rates
def thm8_aer(C, d, m, N, R):
    # eq. (14): d/(N/m) ∧ R² + d/N
    return C * (min(d / (N / m), R**2) + d / N)


def thm8_ier(C, d, n_i, N, R):
    # eq. (15): d/n_i ∧ R² + d/N
    return C * (min(d / n_i, R**2) + d / N)


def assouad(d, delta_i, c_X, n_i):
    # [derived, constants corrected] guide §3.1, §6.3, proof of Thm 8 (34): sign rounding and
    # TV ≤ √2c_Xδ_i√n_i per coordinate give (d/2)δ_i²(1 − √2c_Xδ_i√n_i)
    return d / 2 * delta_i**2 * (1 - sqrt(2) * c_X * delta_i * sqrt(n_i))


def thm8_explicit(d, m, N, R, c_X):
    # [derived] guide §3.1: the Assouad bound at c = 1/(2√2c_X), exactly equal n = N/m.
    # R² ≥ dm/N: δ = c/√n, factor 1 − √2c_Xc = 1/2, so (d/2)(c²/n)(1/2) = c²dm/(4N);
    # R² ≤ dm/N: δ = cR/√d, factor ≥ 1/2, so (d/2)(c²R²/d)(1/2) = c²R²/4.
    c = 1 / (2 * sqrt(2) * c_X)
    if d * m / N <= R**2:
        return assouad(d, delta_i=c / sqrt(N / m), c_X=c_X, n_i=N / m)
    return c**2 * R**2 / 4


def cor9_aer(C, mu, beta, m, N, R):
    # eq. (16): μ(β/(N/m) ∧ R² + β/N)
    return C * mu * (min(beta / (N / m), R**2) + beta / N)


def cor9_ier(C, mu, beta, n_i, N, R):
    # eq. (17): μ(β/n_i ∧ R² + β/N)
    return C * mu * (min(beta / n_i, R**2) + beta / N)


def rate_aer(C, m, N, R):
    # eq. (4) (introduction) and §3.3: Ω(1/N + R²) for R² ≲ m/N, Ω(m/N) above
    return C * (min(m / N, R**2) + 1 / N)


def rate_ier(C, n_i, N, R):
    # §3.3 with (17), (19): 1/n_i ∧ R² + 1/N
    return C * (min(1 / n_i, R**2) + 1 / N)


# ---- §3.3: the dichotomy
def dichotomy_aer(C, beta, ell_inf, mu, m, N, R):
    # eq. (18) with p_i = n_i/N (display after (19)): β(‖ℓ‖∞/(μN/m) ∧ R²) + β‖ℓ‖∞/(μN)
    return C * (beta * min(ell_inf / (mu * N / m), R**2) + beta * ell_inf / (mu * N))


def dichotomy_ier(C, beta, ell_inf, mu, sigma2, n_i, N, R):
    # eq. (19) with p_i = n_i/N: (β³/μ²)(‖ℓ‖∞/(μn_i) ∧ R²) + βσ²/(μ²N)
    return C * (beta**3 / mu**2 * min(ell_inf / (mu * n_i), R**2) + beta * sigma2 / (mu**2 * N))


def dichotomy_threshold(ell_inf, mu, m, N):
    # §3.3: output FedAvg when R² ≤ (‖ℓ‖∞/μ)·m/N
    return ell_inf / mu * m / N


# ---- Theorems 11, 12 (FedProx)
def thm11(C, mu, beta, ell_inf, C_p, A, B_q, R):
    # eq. (28): (μ/(1 ∧ C_p) + (1 ∨ C_p)β‖ℓ‖∞/μ)[(R√(Σp_i/n_i)) ∧ (Σp_i/n_i) + Σp_i²/n_i]
    prefactor = mu / min(1, C_p) + max(1, C_p) * beta * ell_inf / mu
    return C * prefactor * (min(R * sqrt(A), A) + B_q)


def thm11_balanced(C, mu, beta, ell_inf, m, N, R):
    # eq. (30): (μ + β‖ℓ‖∞/μ)(1/(N/m) ∧ R/√(N/m) + 1/N)
    return C * (mu + beta * ell_inf / mu) * (min(1 / (N / m), R / sqrt(N / m)) + 1 / N)


def thm12(C, mu, beta, ell_inf, sigma2, D, n_i, m, N, R):
    # eq. (29): [(μ + μ⁻¹)(β‖ℓ‖∞ + (σ²β² + β² + σ²)/μ²) + μD²](R/√n_i ∧ 1/n_i + √m/N)
    prefactor = (mu + 1 / mu) * (beta * ell_inf + (sigma2 * beta**2 + beta**2 + sigma2) / mu**2)
    return C * (prefactor + mu * D**2) * (min(R / sqrt(n_i), 1 / n_i) + sqrt(m) / N)


# ---- App. B: FedProx optimization
def g_lambda(beta, D, lam, ell_inf):
    # Lemma 18 as used in (38), (39), Prop. 16: β²D² ∧ 2λ‖ℓ‖∞ ∧ λ²D²
    return min(beta**2 * D**2, 2 * lam * ell_inf, lam**2 * D**2)


def lemma14(beta, mu, D, k):
    # Lemma 14: 8β²D²/(μ²(k + 1))
    return 8 * beta**2 * D**2 / (mu**2 * (k + 1))


def lemma15(beta, mu, lam, D, ell_inf, m, p_norm2, T):
    # Lemma 15, eq. (39) at t = T: 12(λ + μ)²m‖p‖²G_λ/(λ²μ²(T + 1))
    G = g_lambda(beta, D, lam, ell_inf)
    return 12 * (lam + mu) ** 2 * m * p_norm2 * G / (lam**2 * mu**2 * (T + 1))


def local_steps(beta, mu, lam, D, ell_inf, tau):
    # eq. (38): K_τ + 1 ≥ (4τ + 20)λ²β²D²/(μ²G_λ)
    return (4 * tau + 20) * lam**2 * beta**2 * D**2 / (mu**2 * g_lambda(beta, D, lam, ell_inf)) - 1


def prop16(beta, mu, lam, D, ell_inf, m, p_norm2, K_T, T):
    # [corrected] guide §6.5, Proposition 16 with T + 1 for the printed t + 1, via its proof:
    # (β + λ)/2 · Lemma 14 at k = K_T + λ/2 · Lemma 15 at T, i.e.
    # 4(β + λ)β²D²/(μ²(K_T + 1)) + 6(λ + μ)²m‖p‖²G_λ/(λμ²(T + 1))
    inner = (beta + lam) / 2 * lemma14(beta, mu, D, K_T)
    return inner + lam / 2 * lemma15(beta, mu, lam, D, ell_inf, m, p_norm2, T)


def prop16_printed(beta, mu, lam, D, ell_inf, m, p_norm2, K_T, t):
    # Proposition 16 as printed, with the loop index t in place of T
    return prop16(beta, mu, lam, D, ell_inf, m, p_norm2, K_T, T=t)


# ---- [derived] crossings and the quadratic model GM-Q (guide §3.3, §5 V1, V6, V11; v = s²/n)
def crossing_fisher(d, m, kappa_u, n):
    # [derived] guide §3.3: d/(2n) = d/(2N) + κ_uR²/2 with N = mn, solved for R²
    return (d / n - d / (m * n)) / kappa_u


def gmq_plt(d, s2, n):
    # [derived] V1: E[IER_PLT] = dv/2
    return d * (s2 / n) / 2


def gmq_fedavg(d, s2, N, R):
    # [derived] V1: ½(R² + ds²/N)
    return (R**2 + d * s2 / N) / 2


def gmq_fedavg_weighted(d, s2, B_q, R2_p):
    # [derived] V1, imbalanced: ½(Σp_i‖w̄_p − w⋆⁽ⁱ⁾‖² + ds²Σp_i²/n_i)
    return (R2_p + d * s2 * B_q) / 2


def gmq_fedprox(d, s2, n, m, R, lam):
    # [derived] V1 from first principles: w̃⁽ⁱ⁾ = (1 − θ)x̄_i + θx̄_pool, θ = λ/(1 + λ). The bias
    # θ(w̄ − w⋆⁽ⁱ⁾) has norm θR; the noise ((1 − θ) + θ/m)ξ̄_i + (θ/m)Σ_{j≠i}ξ̄_j has variance
    # v[((1 − θ) + θ/m)² + (m − 1)θ²/m²] per coordinate; the risk is half the squared error.
    theta, v = lam / (1 + lam), s2 / n
    per_coordinate = ((1 - theta) + theta / m) ** 2 + (m - 1) * theta**2 / m**2
    return (d * v * per_coordinate + theta**2 * R**2) / 2


def gmq_fedprox_tuned(d, s2, n, m, R):
    # [derived] V11: risk(θ) = ½[V(1 − θ)² + dv/m + θ²R²], V = dv(1 − 1/m); a(1 − θ)² + bθ² is
    # least at θ* = a/(a + b), where it equals ab/(a + b)
    v = s2 / n
    V = d * v * (1 - 1 / m)
    return (d * v / m + V * R**2 / (V + R**2)) / 2


def gmq_crossing(d, s2, n, N):
    # [derived] V6: ½(R² + ds²/N) = ds²/(2n) solved for R²
    return d * s2 / n - d * s2 / N


# Shared problem constants (μ ≤ β; 4β/μ = 25 ≤ n_i, N; 4βm/μ = 300 ≤ N) and the order constant
MU, BETA, ELL, SIG2, D_W, C = 0.4, 2.5, 1.7, 0.6, 1.9, 1.3
LOSS = {"beta": BETA, "ell_inf": ELL, "mu": MU}
NOISE = {"beta": BETA, "sigma2": SIG2, "mu": MU}
#: App. B rows (m‖p‖² = 1.8 ≥ 1, ‖p‖² ≤ 1); λ puts each term of G_λ in charge (β²D² = 22.6)
OPT = {"beta": BETA, "mu": MU, "D": D_W, "ell_inf": ELL, "m": 12, "p_norm2": 0.15}
G_BRANCHES = {"G=lam^2 D^2": 0.3, "G=2 lam ell": 3.0, "G=beta^2 D^2": 20.0}
GMQ = {"d": 7, "s2": 0.45}

# fmt: off
MINIMAX = [
    pin("minimax.thm4", thm4, C=C, **LOSS, n_i=250),
    pin("minimax.thm4.explicit", thm4_explicit, **LOSS, n_i=170),
    pin("minimax.thm6.aer", thm6_aer, C=C, **LOSS, N=3000, R=0.13),
    pin("minimax.thm6.aer.weighted", thm6_aer_weighted, C=C, **LOSS, B_q=0.0021, R=0.13),
    pin("minimax.thm6.ier", thm6_ier, C=C, **NOISE, N=3000, R=0.13),
    pin("minimax.thm6.ier.weighted", thm6_ier_weighted, C=C, **NOISE, B_q=0.0021, R=0.13),
    pin("minimax.thm6.aer.explicit", thm6_aer_explicit, **LOSS, B_q=0.0021, R=0.13),
    pin("minimax.thm6.ier.explicit", thm6_ier_explicit, **NOISE, B_q=0.0021, R=0.13),
    pin("minimax.thm6.stability", thm6_stability, **LOSS, p_i=0.23, n_i=250),
    pin("minimax.thm6.federated-stability", fed_stability, **LOSS, p_i=0.23, n_i=250),
    pin("minimax.lemma7.mu0", mu0_printed, a=0.8),
    pin("minimax.lemma7.mu0.corrected", mu0_corrected, a=2.3),
    pin("minimax.lemma7.beta", lemma7_beta, c_X=1.3, d=7),
    pin("minimax.lemma7.loss-bound", loss_bound_printed, a=2.3),
    pin("minimax.lemma7.loss-bound.corrected", loss_bound_corrected, a=2.3),
    pin("minimax.thm8.aer", thm8_aer, label="R^2", C=C, d=7, m=12, N=3000, R=0.1),
    pin("minimax.thm8.aer", thm8_aer, label="dm/N", C=C, d=7, m=12, N=3000, R=0.3),
    pin("minimax.thm8.ier", thm8_ier, label="R^2", C=C, d=7, n_i=250, N=3000, R=0.1),
    pin("minimax.thm8.ier", thm8_ier, label="d/n_i", C=C, d=7, n_i=250, N=3000, R=0.3),
    pin("minimax.thm8.explicit", thm8_explicit, label="R^2", d=7, m=12, N=3000, R=0.1, c_X=1.3),
    pin("minimax.thm8.explicit", thm8_explicit, label="dm/N", d=7, m=12, N=3000, R=0.3, c_X=1.3),
    pin("minimax.thm8.assouad", assouad, d=7, delta_i=0.02, c_X=1.3, n_i=250),
    pin("minimax.cor9.aer", cor9_aer, label="R^2", C=C, mu=MU, beta=BETA, m=12, N=3000, R=0.05),
    pin("minimax.cor9.aer", cor9_aer, label="m/N", C=C, mu=MU, beta=BETA, m=12, N=3000, R=0.3),
    pin("minimax.cor9.ier", cor9_ier, label="R^2", C=C, mu=MU, beta=BETA, n_i=250, N=3000, R=0.07),
    pin("minimax.cor9.ier", cor9_ier, label="1/n_i", C=C, mu=MU, beta=BETA, n_i=250, N=3000, R=0.2),
    pin("minimax.minimax-rate.aer", rate_aer, label="R^2", C=C, m=12, N=3000, R=0.05),
    pin("minimax.minimax-rate.aer", rate_aer, label="m/N", C=C, m=12, N=3000, R=0.3),
    pin("minimax.minimax-rate.aer.attained", rate_aer, label="R^2", C=C, m=12, N=3000, R=0.05),
    pin("minimax.minimax-rate.aer.attained", rate_aer, label="m/N", C=C, m=12, N=3000, R=0.3),
    pin("minimax.minimax-rate.ier", rate_ier, label="R^2", C=C, n_i=250, N=3000, R=0.05),
    pin("minimax.minimax-rate.ier", rate_ier, label="1/n_i", C=C, n_i=250, N=3000, R=0.3),
    pin("minimax.minimax-rate.ier.attained", rate_ier, label="R^2", C=C, n_i=250, N=3000, R=0.05),
    pin("minimax.minimax-rate.ier.attained", rate_ier, label="1/n_i", C=C, n_i=250, N=3000, R=0.3),
    pin("minimax.dichotomy.aer", dichotomy_aer, label="R^2", C=C, **LOSS, m=12, N=3000, R=0.1),
    pin("minimax.dichotomy.aer", dichotomy_aer, label="local", C=C, **LOSS, m=12, N=3000, R=0.2),
    pin("minimax.dichotomy.ier", dichotomy_ier, label="R^2", C=C, **LOSS, sigma2=SIG2, n_i=250,
        N=3000, R=0.1),
    pin("minimax.dichotomy.ier", dichotomy_ier, label="local", C=C, **LOSS, sigma2=SIG2, n_i=250,
        N=3000, R=0.2),
    pin("minimax.dichotomy.threshold", dichotomy_threshold, ell_inf=ELL, mu=MU, m=12, N=3000),
    pin("minimax.thm11.aer", thm11, label="R sqrt(A)", C=C, **LOSS, C_p=1.8, A=0.012, B_q=0.0021,
        R=0.05),
    pin("minimax.thm11.aer", thm11, label="A", C=C, **LOSS, C_p=1.8, A=0.012, B_q=0.0021, R=0.3),
    pin("minimax.thm11.aer.balanced", thm11_balanced, label="R/sqrt(N/m)", C=C, **LOSS, m=12,
        N=3000, R=0.03),
    pin("minimax.thm11.aer.balanced", thm11_balanced, label="m/N", C=C, **LOSS, m=12, N=3000,
        R=0.3),
    pin("minimax.thm12.ier", thm12, label="R/sqrt(n_i)", C=C, **LOSS, sigma2=SIG2, D=D_W, n_i=250,
        m=12, N=3000, R=0.03),
    pin("minimax.thm12.ier", thm12, label="1/n_i", C=C, **LOSS, sigma2=SIG2, D=D_W, n_i=250, m=12,
        N=3000, R=0.3),
    pin("minimax.lemma14", lemma14, beta=BETA, mu=MU, D=D_W, k=37),
    *[pin("minimax.lemma15", lemma15, label=g, **OPT, lam=lam, T=250)
      for g, lam in G_BRANCHES.items()],
    *[pin("minimax.lemma15.local-steps", local_steps, label=g, beta=BETA, mu=MU, lam=lam, D=D_W,
          ell_inf=ELL, tau=6) for g, lam in G_BRANCHES.items()],
    *[pin("minimax.prop16", prop16, label=g, **OPT, lam=lam, K_T=60, T=250)
      for g, lam in G_BRANCHES.items()],
    *[pin("minimax.prop16.printed", prop16_printed, label=g, **OPT, lam=lam, K_T=60, t=45)
      for g, lam in G_BRANCHES.items()],
    pin("minimax.crossing.fisher", crossing_fisher, d=7, m=6, kappa_u=0.35, n=180),
    pin("minimax.gmq.plt", gmq_plt, **GMQ, n=180),
    pin("minimax.gmq.fedavg", gmq_fedavg, **GMQ, N=1080, R=0.13),
    pin("minimax.gmq.fedavg.weighted", gmq_fedavg_weighted, **GMQ, B_q=0.0021, R2_p=0.017),
    pin("minimax.gmq.fedprox", gmq_fedprox, **GMQ, n=180, m=6, R=0.13, lam=0.65),
    pin("minimax.gmq.fedprox.tuned", gmq_fedprox_tuned, **GMQ, n=180, m=6, R=0.13),
    pin("minimax.gmq.crossing", gmq_crossing, **GMQ, n=180, N=1080),
]
# fmt: on


# ============================================================================ fedlrgd (seed 004)
def level(eta):
    """l = ⌈η⌉ − 1 of Lemma 1 and Theorem 1 (l = 2 at η = 3, where ⌊η⌋ would give 3)."""
    return math.ceil(eta) - 1


# ---- Lemma 1, Theorem 1
def lemma1(L2, eta, q):
    # Lemma 1: L2/(l! q^η)
    return L2 / (math.factorial(level(eta)) * q**eta)


def thm1_constant(L2, eta, d):
    # Theorem 1: K = L2² e^{2η/d} d^{η/d} 4^η (l + d)^{2η}/(l!)²
    lv = level(eta)
    # fmt: off
    return (L2**2 * exp(2 * eta / d) * d ** (eta / d) * 4**eta * (lv + d) ** (2 * eta)
            / math.factorial(lv) ** 2)
    # fmt: on


def thm1(L2, eta, d, r):
    # Theorem 1: (1/nk)‖M − M_r‖_F² ≤ K (1/r)^{2η/d}
    return thm1_constant(L2, eta, d) * (1 / r) ** (2 * eta / d)


def thm1_rmin(eta, d):
    # Theorem 1: for every r ≥ e√d 2^d (l + d)^d
    return e * sqrt(d) * 2**d * (level(eta) + d) ** d


def rank_at_tolerance(L2, eta, d, tol):
    # [derived] guide §3.3 D4 plus the registered + 1 (the bound's statement): every integer
    # r ≥ max{r_min, (K/tol)^{d/(2η)}} has K r^{−2η/d} ≤ tol, so r(tol) ≤ ⌈max{…}⌉ ≤ max{…} + 1
    return max(thm1_rmin(eta, d), (thm1_constant(L2, eta, d) / tol) ** (d / (2 * eta))) + 1


def d1_conditioning(r, eta, d, alpha, L2):
    # [derived] guide §3.3 D1(b): Theorem 1 on the r × r matrix G (rank r − 1) gives
    # σ_r(G) ≤ r√K (r − 1)^{−η/d}, and ‖G⁻¹‖_op/r^α = 1/(σ_r(G) r^α)
    sigma_r = r * sqrt(thm1_constant(L2, eta, d)) * (r - 1) ** (-eta / d)
    return 1 / (sigma_r * r**alpha)


# ---- Theorem 2
def rank_47(d, eta, alpha, L2, kappa, B, mu, p, Delta0, epsilon):
    # Theorem 2, eq. (47), at 40 digits so that float64 rounding cannot move the ceiling
    with mpmath.workdps(40):
        d, eta, alpha, L2, kappa, B, mu, p, Delta0, epsilon = map(
            mpmath.mpf, (d, eta, alpha, L2, kappa, B, mu, p, Delta0, epsilon)
        )
        X = Delta0 + 9 * (B + 3) ** 4 * p / (2 * mu)
        # fmt: off
        A = (L2**d * eta**d * mpmath.e ** (eta * (d + 1)) * d ** (eta / 2)
             * (2 * eta + 2 * d) ** (eta * d) / (eta - 1) ** (eta * d))
        # fmt: on
        first = mpmath.e * mpmath.sqrt(d) * 2**d * (eta + d) ** d
        second = (A * (kappa * X / ((kappa - 1) * epsilon)) ** (d / 2)) ** (
            1 / (eta - (2 * alpha + 2) * d)
        )
        x = max(first, second)
        r = int(mpmath.ceil(x))
        assert min(r - x, x - (r - 1)) > 1e-6, "pin (47) away from an integer"
    return r


def iterations_48(kappa, B, mu, p, Delta0, epsilon):
    # Theorem 2, (48) before rounding: log(X/ε)/log(κ/(κ − 1)), X = F(θ⁰) − F_* + 9(B + 3)⁴p/(2μ)
    X = Delta0 + 9 * (B + 3) ** 4 * p / (2 * mu)
    return log(X / epsilon) / log(kappa / (kappa - 1))


def gamma_fedlrgd(r, n, S, phi, m):
    # Theorem 2, its proof's accounting (Definition 1; n is the paper's s): r² (epoch 1)
    # + rs + φm (epoch 2) + (r − 1)φm (epochs 3 to r + 1) + rS (epoch r + 2)
    return r**2 + (r * n + phi * m) + (r - 1) * phi * m + r * S


def sufficient_rank(L2, eta, d, alpha, r):
    # proof of Theorem 2, the display before (47):
    # L2 η 2^η e^{η(d+1)/d} d^{η/(2d)} (η + d)^η / ((η − 1)^η r^{(η/d) − 2α − 2})
    # fmt: off
    return (L2 * eta * 2**eta * exp(eta * (d + 1) / d) * d ** (eta / (2 * d)) * (eta + d) ** eta
            / ((eta - 1) ** eta * r ** (eta / d - 2 * alpha - 2)))
    # fmt: on


def rank_exponent(d, eta, alpha):
    # [derived] guide §3.2.3: (47)'s second branch is ε^{−(d/2)/(η − (2α + 2)d)}
    return (d / 2) / (eta - (2 * alpha + 2) * d)


# ---- Theorem 3 and its proof (App. D), ε' = ε/p
def thm3(C, phi, m, p, epsilon):
    # Theorem 3: Γ(FedAve) = O(φm(p/ε)^{3/4})
    return C * phi * m * (p / epsilon) ** 0.75


def thm3_upper(phi, tau, m, C_A, epsilon, p):
    # App. D, last display: Γ(FedAve) ≤ 8φτm(C/ε')^{3/4}
    return 8 * phi * tau * m * (C_A / (epsilon / p)) ** 0.75


def thm3_lower(phi, tau, m, C_A, epsilon, p):
    # App. D, last display: (3φτm/4)(C/ε')^{3/4} ≤ Γ(FedAve)
    return 3 * phi * tau * m / 4 * (C_A / (epsilon / p)) ** 0.75


def b_star(phi, tau, m, C_A, epsilon, p):
    # App. D: b* is the unique positive root of the stationarity condition (86)
    # 2C1b³ + C1C3b² − C2C3 = 0, C1 = C/(2mε'), C2 = m√(C/ε'), C3 = φτm (82)–(84) — found by
    # Newton's method at 40 digits from √(C2/C1), not from Viète's formula
    with mpmath.workdps(40):
        eps1 = mpmath.mpf(epsilon) / p
        C1, C2, C3 = C_A / (2 * m * eps1), m * mpmath.sqrt(C_A / eps1), mpmath.mpf(phi) * tau * m
        root = mpmath.findroot(lambda b: 2 * C1 * b**3 + C1 * C3 * b**2 - C2 * C3, sqrt(C2 / C1))
        assert root > 0
        return float(root)


def b_star_lower(phi, tau, m, C_A, epsilon, p):
    # eq. (89), left: (m/2)(ε'/C)^{1/4}
    return m / 2 * (epsilon / p / C_A) ** 0.25


def b_star_upper(phi, tau, m, C_A, epsilon, p):
    # eq. (89), right: 2m(ε'/C)^{1/4}
    return 2 * m * (epsilon / p / C_A) ** 0.25


def lemma3(L, mu, m, tau, b, T, D0, sigma2):
    # Lemma 3 (App. D, from FedPAQ [30, Thm 1]), κ = L1/μ, for T ≥ T0
    kappa = L / mu
    T0 = 4 * max(kappa, 4 + 32 * kappa**2 * (1 - tau) / (tau * (m - 1)), 4 * m / (mu**2 * b))
    assert T >= T0
    # fmt: off
    return (L * (T0 * b + 1) ** 2 / (2 * (T * b + 1) ** 2) * D0
            + 8 * kappa * sigma2 / (mu * m) * (1 + 8 * (1 - tau) * m / (tau * (m - 1)))
              * b / (T * b + 1)
            + 8 * e * L * kappa**2 * sigma2 / m * (b - 1) ** 2 / (T * b + 1)
            + 128 * e * kappa**3 * sigma2 / mu * (1 + 8 * (1 - tau) / (tau * (m - 1)))
              * (b - 1) / (T * b + 1) ** 2)
    # fmt: on


def lemma4_lower(t):
    # Lemma 4: 1/2 + t/√6 − 5t²/9 ≤ sin(arcsin(1 − t²)/3 + 2π/3)
    return 1 / 2 + t / sqrt(6) - 5 * t**2 / 9


def lemma4_upper(t):
    # Lemma 4: sin(arcsin(1 − t²)/3 + 2π/3) ≤ 1/2 + t/√6 + 5t²/9
    return 1 / 2 + t / sqrt(6) + 5 * t**2 / 9


# ---- Proposition 1 and App. E
def prop1(C, phi, m, p, epsilon, xi, c1, eta, alpha, d):
    # Proposition 1: Γ(FedLRGD) = O(φm(p/ε)^ξ)
    return C * phi * m * (p / epsilon) ** xi


def prop1_ratio(C, p, epsilon, xi, c1, eta, alpha, d):
    # [derived] Proposition 1's two displays divided: (p/ε)^ξ / (p/ε)^{3/4}
    return C * (p / epsilon) ** xi / (p / epsilon) ** 0.75


def prop1_rank_exponent(c1, eta, alpha, d):
    # App. E: the accuracy factor of (47) is O((p/ε)^{1/(2c1)})
    return 1 / (2 * c1)


# ---- App. B and §II-D: Proposition 2 (its q is k here), (18), (19); the sub-gamma corrections
# [derived] (Boucheron–Lugosi–Massart Cor. 2.6): P(Y ≥ b + √(2bx) + x) ≤ e^{−x} for
# Y ~ Erlang(b, 1), and E max_{i≤N}(Y_i − b) ≤ √(2b log N) + log N
def prop2_lower(k, b):
    # Proposition 2: (1/2)log(q − 1) + (1/2)log b ≤ F_Y^{−1}(1 − 1/q)
    return log(k - 1) / 2 + log(b) / 2


def prop2_upper(k, b):
    # Proposition 2: F_Y^{−1}(1 − 1/q) ≤ 2log(q − 1) + 2b log(2b)
    return 2 * log(k - 1) + 2 * b * log(2 * b)


def eq18(k, b):
    # eq. (18): F_Y^{−1}(1 − 1/k) ≈ log k + b
    return log(k) + b


def eq18_corrected(k, b):
    # [derived] the sub-gamma tail at x = log k
    return b + sqrt(2 * b * log(k)) + log(k)


def eq19(tau, m, b):
    # eq. (19): b + E[max_{i≤τm} Y_i] ≈ log(τm) + 2b
    return log(tau * m) + 2 * b


def eq19_corrected(tau, m, b):
    # [derived] b + (b + E max_{i≤τm}(Y_i − b)) with the sub-gamma maximal inequality
    return b + (b + sqrt(2 * b * log(tau * m)) + log(tau * m))


def fedgd(r, n, phi, m, Delta0, epsilon, kappa):
    # [derived] guide §2.5 / D3: (r + s + φm) per GD iteration (server epoch r, client epoch
    # s + φm) times ⌈log(Δ0/ε)/log(κ/(κ − 1))⌉ iterations (Lemma 2 with zero error), registered
    # with the ceiling relaxed to 1 + its argument
    return (r + n + phi * m) * (1 + log(Delta0 / epsilon) / log(kappa / (kappa - 1)))


#: Theorem 3 rows: (88) φ ≥ 40/(C^{1/4}τ) = 42.04 holds with φ = 47; ε' = ε/p = 0.75 ∈ (0, 1]
THM3 = {"phi": 47, "tau": 0.8, "m": 500, "C_A": 2.0, "epsilon": 3.0, "p": 4}
#: Proposition 1's regime: (c1 + 2α + 2)d = 15.8 ≤ η, c1 = 3.5 ≥ 2/ξ = 3.33, ξ < 3/4
PROP1 = {"xi": 0.6, "c1": 3.5, "eta": 20.0, "alpha": 1.2, "d": 2}
HOLDER = {"L2": 0.7, "eta": 2.5, "d": 2}  # r_min = 246.03, K = 1.16e5

# fmt: off
FEDLRGD = [
    pin("fedlrgd.lemma1", lemma1, L2=0.7, eta=3.4, q=5.5),
    pin("fedlrgd.lemma1", lemma1, label="integer eta", L2=0.7, eta=3.0, q=5.5),
    pin("fedlrgd.thm1", thm1, **HOLDER, r=500),
    pin("fedlrgd.thm1.constant", thm1_constant, **HOLDER),
    pin("fedlrgd.thm1.rmin", thm1_rmin, eta=2.5, d=2),
    pin("fedlrgd.thm1.rmin", thm1_rmin, label="integer eta", eta=3.0, d=3),
    pin("fedlrgd.thm1.rank-at-tolerance", rank_at_tolerance, label="tail", **HOLDER, tol=1e-4),
    pin("fedlrgd.thm1.rank-at-tolerance", rank_at_tolerance, label="r_min", **HOLDER, tol=50.0),
    pin("fedlrgd.thm2.rank", rank_47, label="second branch", exact=True, d=2, eta=20.0, alpha=1.2,
        L2=0.8, kappa=1.5, B=0.5, mu=3.0, p=2, Delta0=300.0, epsilon=0.05),
    pin("fedlrgd.thm2.rank", rank_47, label="first branch", exact=True, d=2, eta=30.0, alpha=1.5,
        L2=0.6, kappa=3.0, B=0.5, mu=2.0, p=3, Delta0=2.5, epsilon=0.2),
    pin("fedlrgd.thm2.iterations", iterations_48, kappa=3.5, B=0.6, mu=2.2, p=3, Delta0=6.5,
        epsilon=0.02),
    # Γ at integer φ is an integer, compared exactly; the audit's mutant φm(r + 1) is φm = 192 off
    pin("fedlrgd.thm2", gamma_fedlrgd, exact=True, r=37, n=250, S=21, phi=3, m=64),
    pin("fedlrgd.thm2.sufficient-rank", sufficient_rank, L2=0.7, eta=10.5, d=2, alpha=1.5, r=3000),
    pin("fedlrgd.thm2.rank-exponent", rank_exponent, d=2, eta=20.0, alpha=1.2),
    pin("fedlrgd.thm3", thm3, C=C, phi=35, m=640, p=3, epsilon=0.4),
    pin("fedlrgd.thm3.upper", thm3_upper, **THM3),
    pin("fedlrgd.thm3.lower", thm3_lower, **THM3),
    pin("fedlrgd.thm3.b-star", b_star, **THM3),
    pin("fedlrgd.thm3.b-star.lower", b_star_lower, **THM3),
    pin("fedlrgd.thm3.b-star.upper", b_star_upper, **THM3),
    pin("fedlrgd.lemma3", lemma3, label="T0 from 4m/(mu^2 b)", L=3.0, mu=1.2, m=50, tau=0.6, b=7,
        T=120, D0=0.8, sigma2=2.3),
    pin("fedlrgd.lemma3", lemma3, label="T0 from 1-tau", L=3.0, mu=1.2, m=50, tau=0.2, b=20,
        T=100, D0=0.8, sigma2=2.3),
    pin("fedlrgd.lemma3", lemma3, label="T0 from kappa", L=6.0, mu=0.5, m=50, tau=1.0, b=200,
        T=60, D0=0.8, sigma2=2.3),
    pin("fedlrgd.lemma4.lower", lemma4_lower, t=0.37),
    pin("fedlrgd.lemma4.upper", lemma4_upper, t=0.83),
    pin("fedlrgd.prop1", prop1, C=C, phi=35, m=640, p=3, epsilon=0.004, **PROP1),
    pin("fedlrgd.prop1.ratio", prop1_ratio, C=C, p=3, epsilon=0.004, **PROP1),
    pin("fedlrgd.prop1.rank-exponent", prop1_rank_exponent, c1=3.5, eta=20.0, alpha=1.2, d=2),
    pin("fedlrgd.prop2.lower", prop2_lower, k=750, b=13),
    pin("fedlrgd.prop2.upper", prop2_upper, k=750, b=13),
    pin("fedlrgd.eq18", eq18, k=750, b=13),
    pin("fedlrgd.eq18.corrected", eq18_corrected, k=750, b=13),
    pin("fedlrgd.eq19", eq19, tau=0.7, m=640, b=13),
    pin("fedlrgd.eq19.corrected", eq19_corrected, tau=0.7, m=640, b=13),
    pin("fedlrgd.fedgd", fedgd, r=37, n=250, phi=12.5, m=64, Delta0=6.5, epsilon=0.02, kappa=3.5),
    pin("fedlrgd.d1.conditioning", d1_conditioning, r=4000, eta=10.5, d=2, alpha=1.5, L2=0.7),
]
# fmt: on

PINS = MINIMAX + FEDLRGD


# ============================================================================ tests
@pytest.mark.parametrize("row", [p.param() for p in PINS])
def test_registered_formula_matches_the_paper(row: Pin) -> None:
    bound = bounds.get(row.bound_id)
    # the contract suite evaluates every example already: a pin must add a second point
    assert {name: row.point[name] for name in bound.example} != bound.example
    got = bound.evaluate(**row.point)
    want = row.formula(**row.point)
    if row.exact:
        assert float(want).is_integer() and abs(want) < 2**40, "exact pins need a float64 integer"
        assert got == want
    else:
        assert got == pytest.approx(want, rel=REL, abs=0)


@pytest.mark.parametrize("paper", PAPERS)
def test_every_registered_bound_is_pinned(paper: str) -> None:
    registered = set(bounds.ids(paper))
    pinned = {row.bound_id for row in PINS if row.bound_id.split(".", 1)[0] == paper}
    missing = sorted(registered - pinned)
    assert not missing, (
        f"bound(s) of {paper!r} registered without a pin: {missing}. Add a row to PINS in "
        "tests/test_registered_formulas.py: a point inside the hypotheses (not Bound.example) and "
        "the formula transcribed from the paper (or the guide's derivation), citing the equation."
    )
    stale = sorted(pinned - registered)
    assert not stale, f"pins of bounds that are no longer registered: {stale}"


def test_thm2_gamma_pin_separates_the_upload_mutant() -> None:
    """The audit's mutant φ·m·(r + 1) for φ·m·r in Γ(FedLRGD) passed 680 tests: at the pinned point
    it is φm = 192 away from the registered value."""
    (row,) = [p for p in PINS if p.bound_id == "fedlrgd.thm2"]
    r, n, S, phi, m = (row.point[k] for k in ("r", "n", "S", "phi", "m"))
    mutant = r**2 + r * n + r * S + phi * m * (r + 1)
    assert bounds.get("fedlrgd.thm2").evaluate(**row.point) == mutant - phi * m == 18500
