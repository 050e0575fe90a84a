"""GM-A: App. D's Gaussian model of Chen, Zheng, Long & Su, with exact risks and accuracies.

:func:`appendix_d_clients` draws x ∼ N(0, I_d), w⋆ ∼ N(0, I_d) and client optima w⋆ + R v_i with
v_i "negatively correlated" with w⋆ (the hemisphere flip). The population logistic risk and
accuracy of any model are one-dimensional Gaussian integrals (Stein's lemma and the conditional
law of xᵀw given xᵀw⋆), computed with a graded composite Gauss–Legendre rule that agrees with
30-digit adaptive quadrature to ~1e-15: Figure 1 is replicated without test-set noise. See
:mod:`fedtheory.papers.minimax.logistic_models` for the shared model and its departures.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import special

from fedtheory._arrays import readonly
from fedtheory._checks import check_int, check_real
from fedtheory._seeds import Seed, generator
from fedtheory.papers.minimax.logistic_models import (
    _SQRT_2PI,
    LogisticProblem,
    _check_counts,
    _check_radius,
    _client_weights,
    _draw_labels,
    _padding_mask,
    _sig_prime,
)
from fedtheory.problems.dataset import FederatedDataset

__all__ = ["AppendixDClients", "appendix_d_clients"]


@functools.lru_cache(maxsize=1)
def _half_line_rule() -> tuple[np.ndarray, np.ndarray]:
    """Nodes z_k > 0 and weights ω_k with Σ_k ω_k g(z_k) ≈ ∫_0^∞ g(z) φ(z) dz.

    The rule is composite 16-point Gauss–Legendre. Panels are geometric [2^{−k−1}, 2^{−k}]
    from 2^{−40} up to 1, then of width ½ up to 12, where φ(12) ~ 1e-32. The grading resolves
    integrands that vary on the scale 1/σ near 0, for any σ up to ~10^{12}. Examples are
    softplus(−σz), sig'(σz) and erf(kz/√2) with large σ or k. The tests compare it with an
    adaptive high-precision reference.
    """
    x, w = np.polynomial.legendre.leggauss(16)
    edges = np.concatenate(([0.0], 2.0 ** np.arange(-40.0, 0.0), np.arange(1.0, 12.25, 0.5)))
    a, b = edges[:-1, None], edges[1:, None]
    nodes = (0.5 * (b - a) * x + 0.5 * (a + b)).ravel()
    weights = (0.5 * (b - a) * w).ravel() * np.exp(-0.5 * nodes**2) / _SQRT_2PI
    return readonly(nodes), readonly(weights)


def _gauss_expect_even(fun: Any, *params: np.ndarray) -> np.ndarray:
    """E[g(|Z|)] = 2∫_0^∞ g(z)φ(z)dz, Z ~ N(0,1), vectorized over parameter arrays ``(M,)``."""
    z, w = _half_line_rule()
    cols = [np.asarray(q, dtype=np.float64)[:, None] for q in params]
    return np.asarray(2.0 * (fun(z[None, :], *cols) @ w))


def _j_softplus(sigma: np.ndarray) -> np.ndarray:
    """E[softplus(−σ|Z|)]."""
    return _gauss_expect_even(lambda z, s: np.logaddexp(0.0, -s * z), sigma)


def _j_sigprime(sigma: np.ndarray) -> np.ndarray:
    """E[sig'(σZ)]."""
    return _gauss_expect_even(lambda z, s: _sig_prime(s * z), sigma)


def _j_z2_sigprime(sigma: np.ndarray) -> np.ndarray:
    """E[Z² sig'(σZ)]."""
    return _gauss_expect_even(lambda z, s: z * z * _sig_prime(s * z), sigma)


def _gaussian_risk(norm_w: np.ndarray, norm_star: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """𝓡(w) for x ~ N(0, I) and labels from w⋆: u = xᵀw, v = xᵀw⋆ bivariate normal.

    𝓡(w) = E[softplus(u)] − E[sig(v)u]. E[softplus(u)] = σ_u/√(2π) + E[softplus(−|u|)], since
    softplus(u) = max(u, 0) + softplus(−|u|). By Stein's lemma,
    E[sig(v)u] = (c/σ_v²)E[v sig(v)] = c·E[sig'(v)] with c = wᵀw⋆. All three terms are 1-D
    integrals.
    """
    return np.asarray(norm_w / _SQRT_2PI + _j_softplus(norm_w) - inner * _j_sigprime(norm_star))


def _gaussian_accuracy(norm_w: np.ndarray, norm_star: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """P(y = sign(xᵀw)) for x ~ N(0, I), as a 1-D integral.

    With v = σ_v Z, the conditional law of u given Z gives P(u > 0 | Z) = Φ(kZ), where
    k = ρ/√(1 − ρ²) and ρ = corr(u, v). Since E[sig(−v)] = ½,

        accuracy = ½ + E[tanh(v/2)(Φ(kZ) − ½)] = ½ + ∫_0^∞ tanh(σ_v z/2) erf(kz/√2) φ(z) dz,

    an even and smooth integrand (k = ±∞ when w ∥ w⋆). The model w = 0 has accuracy ½.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = np.clip(inner / (norm_w * norm_star), -1.0, 1.0)
        k = rho / np.sqrt(1.0 - rho**2)
    k = np.where(np.isnan(k), 0.0, k)
    half = _gauss_expect_even(
        lambda z, s, kk: np.tanh(0.5 * s * z) * special.erf(kk * z / math.sqrt(2.0)), norm_star, k
    )
    return np.asarray(0.5 + 0.5 * half)


@dataclass(frozen=True, eq=False)
class AppendixDClients(LogisticProblem):
    """GM-A: the App. D replica (see :func:`appendix_d_clients`), with exact population metrics.

    Attributes
    ----------
    w_common : numpy.ndarray
        ``(d,)``, the common model w⋆ ~ N(0, I_d) of App. D.
    directions : numpy.ndarray
        ``(m, d)``, the unit v_i with ⟨v_i, w⋆⟩ ≤ 0.
    """

    w_common: np.ndarray
    directions: np.ndarray

    @functools.cached_property
    def _norms(self) -> np.ndarray:
        return np.asarray(np.linalg.norm(self.optima, axis=1))

    @functools.cached_property
    def _bayes_risk(self) -> np.ndarray:
        n = self._norms
        return _gaussian_risk(n, n, n**2)

    def _moments(self, models: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        W = self._models(models)
        return np.linalg.norm(W, axis=1), self._norms, np.einsum("id,id->i", W, self.optima)

    def population_risk(self, models: Any) -> np.ndarray:
        """𝓡_i(w_i), exact: three 1-D Gaussian integrals (:func:`_gaussian_risk`)."""
        return _gaussian_risk(*self._moments(models))

    def excess_risk(self, models: Any) -> np.ndarray:
        """Exact 𝓡_i(w_i) − 𝓡_i(w⋆^(i)), the theory's metric (App. D reports test accuracy)."""
        return np.asarray(np.maximum(self.population_risk(models) - self._bayes_risk, 0.0))

    def accuracy(self, models: Any) -> np.ndarray:
        """Exact population accuracy (the limit of App. D's test accuracy), shape ``(m,)``."""
        return _gaussian_accuracy(*self._moments(models))

    @property
    def beta(self) -> float:
        """λ_max(E xxᵀ)/4 = 1/4 for x ~ N(0, I)."""
        return 0.25

    @property
    def beta_sample(self) -> float:
        """Per-sample smoothness sup_x ‖x‖²/4 = ∞: Gaussian features violate Lemma 7."""
        return math.inf

    @property
    def ell_inf(self) -> float:
        """sup ℓ = ∞: Gaussian features are unbounded (guide §4)."""
        return math.inf

    @functools.cached_property
    def sigma2(self) -> float:
        """max_i E[‖x‖² sig'(xᵀw⋆_i)] = max_i E[Z² sig'(σ_iZ)] + (d − 1)E[sig'(σ_iZ)], exact.

        Here σ_i = ‖w⋆_i‖; decompose x along w⋆_i and its orthogonal complement.
        """
        n = self._norms
        return float(np.max(_j_z2_sigprime(n) + (self.d - 1) * _j_sigprime(n)))

    @functools.cached_property
    def mu(self) -> float:
        """min over ‖w‖ ≤ ρ of λ_min(∇²𝓡(w)), exact: ∇²𝓡(w) = a(I − ŵŵᵀ) + bŵŵᵀ.

        Here a = E[sig'(‖w‖Z)] and b = E[Z² sig'(‖w‖Z)] ≤ a. Both decrease in ‖w‖, so μ = b(ρ)
        (= 0 when 𝒲 is unbounded).
        """
        rho = self.data.radius
        if not math.isfinite(rho):
            return 0.0
        b = float(_j_z2_sigprime(np.array([rho]))[0])
        return b if self.d == 1 else min(b, float(_j_sigprime(np.array([rho]))[0]))


def appendix_d_clients(
    R: float,
    seed: Seed,
    *,
    m: int = 5,
    n: Any = 100,
    d: int = 100,
    radius: float = math.inf,
    weights: Any = None,
) -> AppendixDClients:
    """GM-A (guide §2.6, §4 tier 1): the App. D experiment's data, with exact metrics.

    * w⋆ ~ N(0, I_d); w⋆^(i) = w⋆ + R v_i, where v_i = g/‖g‖ (g ~ N(0, I_d)) is flipped to −v_i
      if ⟨v_i, w⋆⟩ > 0. This is our reading of "negatively correlated".
    * Features x ~ N(0, I_d); the paper does not say.
    * Labels P(y = +1 | x) = sig(xᵀw⋆^(i)).
    * App. D's defaults are m = 5, n_i = 100, d = 100, with R varied over [0, 20].

    :meth:`~AppendixDClients.excess_risk` and :meth:`~AppendixDClients.accuracy` are *exact*
    population quantities (1-D quadrature), not test-set estimates as in the paper.

    With d = n_i = 100 the local data are separable, so the ERMs do not exist unless a finite
    ``radius`` is given. ``local_erm``, ``global_erm`` and ``fedprox_erm`` then raise
    :class:`~fedtheory.errors.SolverError`. App. D itself runs SGD.

    Random draws, in order: w⋆; the m directions; the features (m·n_max·d normals); the label
    uniforms.

    Parameters
    ----------
    R
        Heterogeneity level ≥ 0.
    seed
        Integer or :class:`numpy.random.SeedSequence`.
    m, n, d
        Clients (≥ 1), samples per client (int or length-m sequence), dimension (≥ 1).
    radius
        ρ of 𝒲 for the ERMs; default ∞. The optima need not lie inside.
    weights
        Client weights; default n_i/N.

    Examples
    --------
    >>> inst = appendix_d_clients(5.0, seed=0)
    >>> inst.data.features.shape, bool(np.all(inst.directions @ inst.w_common <= 0))
    ((5, 100, 100), True)
    """
    R = check_real("R", R, nonnegative=True)
    m = check_int("m", m, minimum=1)
    d = check_int("d", d, minimum=1)
    counts = _check_counts(n, m)
    p = _client_weights(weights, counts)
    rng = generator(seed)
    w_star = rng.standard_normal(d)
    V = rng.standard_normal((m, d))
    V /= np.linalg.norm(V, axis=1, keepdims=True)
    V *= np.where(V @ w_star > 0, -1.0, 1.0)[:, None]
    optima = w_star + R * V
    rho = _check_radius(radius, math.inf, optima, strict=False)
    mask = _padding_mask(counts)
    features = rng.standard_normal((m, mask.shape[1], d)) * mask[:, :, None]
    margins = np.einsum("mnd,md->mn", features, optima)
    targets = _draw_labels(margins, mask, rng)
    data = FederatedDataset(features, targets, counts, "logistic", rho)
    return AppendixDClients(
        data=data,
        optima=readonly(optima),
        weights=p,
        R=R,
        w_common=readonly(w_star),
        directions=readonly(V),
    )
