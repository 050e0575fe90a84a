"""Bounds of Chen, Zheng, Long & Su, “Minimax Estimation for Personalized Federated Learning: An
Alternative between FedAvg and Local Training?” (paper key ``minimax``, arXiv:2103.01901).

Equation numbers are the paper's own. The reading guide ``shared/theory/minimax.md`` derives the
explicit constants registered here with status ``derived`` (§3.1, §3.3, §5 V1) and lists the errata
(§6) whose printed and corrected forms are both registered.

Conventions
-----------
* ``R`` is the heterogeneity level: Σ_i p_i‖w⋆^(i) − w̄_p‖² ≤ R² (Assumption B(a), used for AER
  bounds) or ‖w⋆^(i) − w̄_p‖² ≤ R² for every i (B(b), used for IER bounds); each bound says which.
* The main id of a FedAvg/dichotomy/FedProx bound is the *balanced* form, weights p_i = n_i/N and
  (where the paper needs it) n_i ≍ N/m, as in (11), (18)–(19), (30); the general-weight forms use
  the aggregates ``A`` = Σ_i p_i/n_i, ``B_q`` = Σ_i p_i²/n_i and ``C_p`` of (25).
* Order bounds (≲, ≳) share the unknown constant ``C``, so that crossovers between them are
  closed forms in the problem constants (e.g. where FedAvg's (11) meets local training's (4)).
* ``ell_inf`` is ‖ℓ‖∞ of Assumption A(b) (0 ≤ ℓ ≤ ‖ℓ‖∞), the same quantity as COMMON's ``M``.

===========================================  ==================================================
id                                           statement
===========================================  ==================================================
``minimax.thm4``                             local training: E[IER_i] ≲ β‖ℓ‖∞/(μn_i)        (4)
``minimax.thm4.explicit``                    the same with constant 32 (derived)
``minimax.thm6.aer`` / ``.weighted``         FedAvg: E[AER] ≲ β‖ℓ‖∞/(μN) + βR²        (11) / (9)
``minimax.thm6.ier`` / ``.weighted``         FedAvg: E[IER_i] ≲ βσ²/(μ²N) + β³R²/μ²  (11) / (10)
``minimax.thm6.aer.explicit``                32(β‖ℓ‖∞/μ)Σp²/n + 4βR² (derived)
``minimax.thm6.ier.explicit``                (8βσ²/μ²)Σp²/n + (8β³/μ² + β)R² (derived)
``minimax.thm6.stability``                   FedAvg ERM replace-one: ‖Δŵ‖ ≤ 8√(2β‖ℓ‖∞)p_i/(μn_i)
``minimax.thm6.federated-stability``         FedAvg ERM: γ_i ≤ 32β‖ℓ‖∞p_i/(μn_i)      (App. C.1)
``minimax.lemma7.mu0``                       logistic curvature floor as printed         (12)
``minimax.lemma7.mu0.corrected``             (e^{a/2} + e^{−a/2})^{−2} = ``min_{|t|≤a} sig'(t)``
``minimax.lemma7.beta``                      logistic β = σ² = c_X²d/4
``minimax.lemma7.loss-bound[.corrected]``    ‖ℓ‖∞ = c_XD√d as printed / log(1 + e^a)
``minimax.thm8.aer`` / ``.ier``              estimation lower bounds               (14) / (15)
``minimax.thm8.explicit``                    min(dm/N, R²)/(32c_X²) (derived, corrected proof)
``minimax.thm8.assouad``                     Bayes risk ≥ (d/2)δ²(1 − √2c_Xδ√n_i) (derived)
``minimax.cor9.aer`` / ``.ier``              excess-risk lower bounds              (16) / (17)
``minimax.minimax-rate.aer`` / ``.ier``      min(m/N, R²) + 1/N, min(1/n_i, R²) + 1/N (≳)
``minimax.minimax-rate.*.attained``          the same rates as ≲ (attained by the dichotomy)
``minimax.dichotomy.aer`` / ``.ier``         oracle FedAvg/local switch               (18) / (19)
``minimax.dichotomy.threshold``              the switch: R² = (‖ℓ‖∞/μ)m/N                (§3.3)
``minimax.thm11.aer`` / ``.balanced``        FedProx AER                              (28) / (30)
``minimax.thm12.ier``                        FedProx IER                                    (29)
``minimax.lemma14``                          inner loop: 8β²D²/(μ²(k+1))
``minimax.lemma15``                          outer loop: 12(λ+μ)²m‖p‖²G_λ/(λ²μ²(T+1))      (39)
``minimax.lemma15.local-steps``              local steps required in round τ               (38)
``minimax.prop16`` / ``.printed``            FedProx optimization error, T+1 / printed t+1
``minimax.crossing.fisher``                  R*² ≈ d(1 − 1/m)/(κ_u n) (derived, §3.3)
``minimax.gmq.*``                            exact risks of the quadratic model GM-Q (§5 V1)
===========================================  ==================================================
"""

from __future__ import annotations

from functools import partial

import sympy as sp

from fedtheory.bounds._bound import Bound, Hypothesis, register
from fedtheory.bounds._citation import Citation
from fedtheory.bounds._symbols import COMMON, Vocabulary

__all__: list[str] = []

# ---------------------------------------------------------------------------- symbols
V = Vocabulary("minimax", parent=COMMON)
m, n, n_i, N, d, R = (COMMON.symbol(s) for s in ("m", "n", "n_i", "N", "d", "R"))
T, t, mu, beta, sigma2, C = (COMMON.symbol(s) for s in ("T", "t", "mu", "beta", "sigma2", "C"))

ell_inf = V.declare(
    "ell_inf",
    "bound on the loss, 0 ≤ ℓ ≤ ‖ℓ‖∞ (Assumption A(b)); COMMON calls it M",
    latex=r"\Vert\ell\Vert_{\infty}",
    positive=True,
)
D = V.declare("D", "diameter of the parameter set 𝒲 (Assumption A(a))", positive=True)
lam = V.declare(
    "lam", "FedProx proximal weight λ of objective (20)", latex=r"\lambda", positive=True
)
p_i = V.declare("p_i", "weight p_i of client i (p in the simplex)", latex="p_i", positive=True)
A = V.declare(
    "A", "Σ_i p_i/n_i (equals m/N for p_i = n_i/N)", latex=r"A_{\mathbf{p}}", positive=True
)
B_q = V.declare(
    "B_q",
    "Σ_i p_i²/n_i, the variance factor of the p-weighted ERM (equals 1/N for p_i = n_i/N)",
    latex=r"B_{\mathbf{p}}",
    positive=True,
)
C_p = V.declare(
    "C_p",
    "weight-balance constant of (25): p_max·Σ_i p_i/n_i / Σ_i p_i²/n_i ≤ C_p",
    latex=r"C_{\mathbf{p}}",
    positive=True,
)
p_norm2 = V.declare(
    "p_norm2",
    "‖p‖² = Σ_i p_i² (between 1/m and 1)",
    latex=r"\Vert\mathbf{p}\Vert^{2}",
    positive=True,
)
k = V.declare(
    "k",
    "local SGD step counter within a round of Algorithm 2 (k ≥ 0)",
    nonnegative=True,
    integer=True,
)
K_T = V.declare(
    "K_T",
    "local SGD steps of the final local-training stage (Stage II of Algorithm 2)",
    latex="K_T",
    nonnegative=True,
    integer=True,
)
tau = V.declare(
    "tau",
    "round index τ = 0, 1, … of the joint-training stage of Algorithm 2",
    latex=r"\tau",
    nonnegative=True,
    integer=True,
)
a = V.declare(
    "a",
    "logit bound a = c_X√d·sup_{w∈𝒲}‖w‖ ≥ |xᵀw| (the paper writes c_X D√d)",
    positive=True,
)
c_X = V.declare(
    "c_X",
    "almost-sure bound |x_k| ≤ c_X on the feature coordinates (Lemma 7)",
    latex="c_X",
    positive=True,
)
delta_i = V.declare(
    "delta_i",
    "scale δ_i of the Assouad prior w⋆^(i) = δ_i v^(i), v^(i) uniform on {±1}^d",
    latex=r"\delta_i",
    positive=True,
)
s2 = V.declare(
    "s2",
    "per-coordinate noise variance s² of the quadratic model GM-Q (z = w⋆^(i) + ξ)",
    latex="s^{2}",
    positive=True,
)
R2_p = V.declare(
    "R2_p",
    "Σ_i p_i‖w̄_p − w⋆^(i)‖², the B(a) heterogeneity of the weights p (at most R²)",
    latex=r"R_{\mathbf{p}}^{2}",
    nonnegative=True,
)
kappa_u = V.declare(
    "kappa_u",
    "average curvature u_iᵀH_iu_i of the client population risks along the unit "
    "heterogeneity directions u_i = (w⋆^(i) − w̄)/R",
    latex=r"\kappa_{u}",
    positive=True,
)

_bound = partial(Bound, vocabulary=V)

_R_AER = "heterogeneity level of Assumption B(a): Σ_i p_i‖w⋆^(i) − w̄_p‖² ≤ R²"
_R_IER = "heterogeneity level of Assumption B(b): ‖w⋆^(i) − w̄_p‖² ≤ R² for every client i"
_R_GMQ = "distance ‖w⋆^(i) − w̄‖ = R of every client optimum from their average (GM-Q)"
_SIGMA2 = "bound σ² on E‖∇ℓ(w⋆^(i), Z_i)‖², the gradient noise at the optimum (Assumption A(c))"
_N_BALANCED = "number of samples on each client (balanced GM-Q: N = m·n)"

# ---------------------------------------------------------------------------- hypotheses
_mu_le_beta = Hypothesis(
    sp.Le(mu, beta), "Assumption A(b): a μ-strongly convex, β-smooth risk has μ ≤ β"
)
_n_i_stability = Hypothesis(
    sp.Ge(n_i, 4 * beta / mu), "enough local samples for the stability argument of Theorem 4"
)
_N_stability = Hypothesis(sp.Ge(N, 4 * beta / mu), "Theorem 6's n_i ≥ 4βp_i/μ with p_i = n_i/N")
_Nm_stability = Hypothesis(
    sp.Ge(N, 4 * beta * m / mu), "n_i ≥ 4β/μ for every client with balanced n_i = N/m"
)
_p_i_stability = Hypothesis(
    sp.Ge(n_i, 4 * beta * p_i / mu), "Theorem 6: n_i ≥ 4βp_i/μ, needed by the stability argument"
)
_p_i_weight = Hypothesis(sp.Le(p_i, 1), "p_i is a weight of the simplex")
_Bq_stability = Hypothesis(
    sp.Le(B_q, mu / (4 * beta)),
    "implied by Theorem 6's n_i ≥ 4βp_i/μ for all i (p_i/n_i ≤ μ/(4β)); the per-client "
    "condition itself cannot be checked from the aggregate",
)
_A_stability = Hypothesis(
    sp.Le(A, mu / (4 * beta)),
    "implied by n_i ≥ 4β/μ for all i (Σp_i/n_i ≤ max_i 1/n_i); the per-client condition "
    "itself cannot be checked from the aggregate",
)
_Bq_le_A = Hypothesis(sp.Le(B_q, A), "Σp_i²/n_i ≤ Σp_i/n_i since every p_i ≤ 1")
_Cp_ge_1 = Hypothesis(sp.Ge(C_p, 1), "(25) can only hold with C_p ≥ p_max·Σp_i/n_i / Σp_i²/n_i ≥ 1")
_p_norm_lower = Hypothesis(sp.Ge(m * p_norm2, 1), "‖p‖² ≥ 1/m for weights summing to one")
_p_norm_upper = Hypothesis(sp.Le(p_norm2, 1), "‖p‖² ≤ 1 for weights in the simplex")
_c_X_assouad = Hypothesis(
    sp.Ge(c_X, 1 / (2 * sp.sqrt(2))),
    "the prior scale c = 1/(2√2 c_X) must be ≤ 1 for the prior to satisfy B(a)",
)

# ---------------------------------------------------------------------------- quantities
_IER_PLT = "E_S[IER_i(A_PLT)]"
_IER_PLT_TEX = r"\mathbb{E}_{S}[\mathrm{IER}_i(\mathcal{A}_{\mathrm{PLT}})]"
_AER_FA = "E_S[AER_p(A_FA)]"
_AER_FA_TEX = r"\mathbb{E}_{S}[\mathrm{AER}_{\mathbf{p}}(\mathcal{A}_{\mathrm{FA}})]"
_IER_FA = "E_S[IER_i(A_FA)]"
_IER_FA_TEX = r"\mathbb{E}_{S}[\mathrm{IER}_i(\mathcal{A}_{\mathrm{FA}})]"
_MIN_CURVATURE = "min_{|t|≤a} sig'(t), the least curvature of the logistic loss for |xᵀw| ≤ a"
_MIN_CURVATURE_TEX = r"\min_{|t|\leq a}\,\sigma'(t)"

# ====================================================================== Theorem 4: local training
_thm4_expr = beta * ell_inf / (mu * n_i)
register(
    _bound(
        "minimax.thm4",
        C * _thm4_expr,
        kind="order-upper",
        source=Citation("minimax", "Theorem 4, eq. (4)"),
        quantity=_IER_PLT,
        quantity_latex=_IER_PLT_TEX,
        statement=(
            "Pure local training (each client's ERM on its own n_i samples) has expected "
            "individualized excess risk ≲ β‖ℓ‖∞/(μn_i), whatever the heterogeneity: a strongly "
            "convex ERM is O(β‖ℓ‖∞/(μn_i))-uniformly stable. The same bound holds for AER_p with "
            "any weights."
        ),
        hypotheses=[_n_i_stability, _mu_le_beta],
        example={"beta": 1, "mu": 0.5, "ell_inf": 1, "n_i": 100},
    )
)

register(
    _bound(
        "minimax.thm4.explicit",
        32 * _thm4_expr,
        kind="upper",
        status="derived",
        source=Citation(
            "minimax", "Theorem 4; constant from the proof of (9) in App. C.1 with m = 1, p = 1"
        ),
        quantity=_IER_PLT,
        quantity_latex=_IER_PLT_TEX,
        statement=(
            "Explicit form of Theorem 4 (guide §3.1): the federated-stability argument of App. "
            "C.1 with one client (p = 1, R = 0) gives E[IER_i] ≤ 32β‖ℓ‖∞/(μn_i) when "
            "n_i ≥ 4β/μ."
        ),
        hypotheses=[_n_i_stability, _mu_le_beta],
        example={"beta": 1, "mu": 0.5, "ell_inf": 1, "n_i": 100},
    )
)

# ====================================================================== Theorem 6: FedAvg
_aer_fa_balanced = beta * ell_inf / (mu * N) + beta * R**2
_ier_fa_balanced = beta * sigma2 / (mu**2 * N) + beta**3 * R**2 / mu**2
register(
    _bound(
        "minimax.thm6.aer",
        C * _aer_fa_balanced,
        kind="order-upper",
        source=Citation("minimax", "Theorem 6, eq. (11) (eq. (9) with p_i = n_i/N)"),
        quantity=_AER_FA,
        quantity_latex=_AER_FA_TEX,
        statement=(
            "FedAvg, read as the exact minimizer of the p-weighted ERM (8) with p_i = n_i/N, has "
            "expected average excess risk ≲ β‖ℓ‖∞/(μN) + βR²: the pooled 1/N rate plus a "
            "heterogeneity floor βR² that no amount of data removes. Analyses the ERM, not "
            "Algorithm 1 as run; needs the client optima interior to 𝒲 (guide §6.7)."
        ),
        hypotheses=[_N_stability, _mu_le_beta],
        meanings={"R": _R_AER},
        example={"beta": 1, "mu": 0.5, "ell_inf": 1, "N": 1000, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.thm6.aer.weighted",
        C * (beta * ell_inf / mu * B_q + beta * R**2),
        kind="order-upper",
        source=Citation("minimax", "Theorem 6, eq. (9)"),
        quantity=_AER_FA,
        quantity_latex=_AER_FA_TEX,
        statement=(
            "General weights: the minimizer of the p-weighted ERM (8) has E[AER_p] ≲ "
            "(β‖ℓ‖∞/μ)Σ_i p_i²/n_i + βR², the first term being the average federated stability. "
            "Σp_i²/n_i ≥ 1/N with equality at p_i = n_i/N, which gives minimax.thm6.aer. Only "
            "the consequence Σp_i²/n_i ≤ μ/(4β) of the hypothesis n_i ≥ 4βp_i/μ is checked."
        ),
        hypotheses=[_Bq_stability, _mu_le_beta],
        meanings={"R": _R_AER},
        example={"beta": 1, "mu": 0.5, "ell_inf": 1, "B_q": 0.001, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.thm6.ier",
        C * _ier_fa_balanced,
        kind="order-upper",
        source=Citation("minimax", "Theorem 6, eq. (11) (eq. (10) with p_i = n_i/N)"),
        quantity=_IER_FA,
        quantity_latex=_IER_FA_TEX,
        statement=(
            "FedAvg (minimizer of (8), p_i = n_i/N) has expected individualized excess risk "
            "≲ βσ²/(μ²N) + β³R²/μ² for every client under B(b); proved through the l2 error of "
            "the global model (Foster et al. 2019), hence the worse μ and β dependence than (9)."
        ),
        hypotheses=[_N_stability, _mu_le_beta],
        meanings={"R": _R_IER, "sigma2": _SIGMA2},
        example={"beta": 1, "mu": 0.5, "sigma2": 1, "N": 1000, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.thm6.ier.weighted",
        C * (beta * sigma2 / mu**2 * B_q + beta**3 * R**2 / mu**2),
        kind="order-upper",
        source=Citation("minimax", "Theorem 6, eq. (10)"),
        quantity=_IER_FA,
        quantity_latex=_IER_FA_TEX,
        statement=(
            "General weights: E[IER_i] ≲ (βσ²/μ²)Σ_i p_i²/n_i + (β³/μ²)R² under B(b); "
            "minimized at p_i = n_i/N (minimax.thm6.ier). Only the consequence "
            "Σp_i²/n_i ≤ μ/(4β) of the hypothesis n_i ≥ 4βp_i/μ is checked."
        ),
        hypotheses=[_Bq_stability, _mu_le_beta],
        meanings={"R": _R_IER, "sigma2": _SIGMA2},
        example={"beta": 1, "mu": 0.5, "sigma2": 1, "B_q": 0.001, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.thm6.aer.explicit",
        32 * beta * ell_inf / mu * B_q + 4 * beta * R**2,
        kind="upper",
        status="derived",
        source=Citation("minimax", "Theorem 6, eq. (9); constants from (44)–(46), App. C.1"),
        quantity=_AER_FA,
        quantity_latex=_AER_FA_TEX,
        statement=(
            "Explicit form of (9) (guide §3.1): E[AER_p] ≤ 4βR² (smoothness around the client "
            "optima, averaged over reference clients) + Σ_i p_iγ_i with federated stability "
            "γ_i ≤ 32β‖ℓ‖∞p_i/(μn_i), i.e. 32(β‖ℓ‖∞/μ)Σp_i²/n_i + 4βR². Needs interior optima. "
            "Only the consequence Σp_i²/n_i ≤ μ/(4β) of n_i ≥ 4βp_i/μ is checked."
        ),
        hypotheses=[_Bq_stability, _mu_le_beta],
        meanings={"R": _R_AER},
        example={"beta": 1, "mu": 0.5, "ell_inf": 1, "B_q": 0.001, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.thm6.ier.explicit",
        8 * beta * sigma2 / mu**2 * B_q + (8 * beta**3 / mu**2 + beta) * R**2,
        kind="upper",
        status="derived",
        source=Citation("minimax", "Theorem 6, eq. (10); constants from (47) onward, App. C.1"),
        quantity=_IER_FA,
        quantity_latex=_IER_FA_TEX,
        statement=(
            "Explicit form of (10) (guide §3.1): IER_i ≤ β‖ŵ − w̄_p‖² + βR² by smoothness, and "
            "‖ŵ − w̄_p‖² ≤ (8/μ²)(‖Σp_i∇L_i(w⋆^(i))‖² + β²R²) by strong convexity, whose "
            "expectation is at most (8/μ²)(σ²Σp_i²/n_i + β²R²). The proof of (10) does not use "
            "n_i ≥ 4βp_i/μ, but needs the optima interior to 𝒲 (∇𝓡_i(w⋆^(i)) = 0)."
        ),
        hypotheses=[_mu_le_beta],
        meanings={"R": _R_IER, "sigma2": _SIGMA2},
        example={"beta": 1, "mu": 0.5, "sigma2": 1, "B_q": 0.001, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.thm6.stability",
        8 * sp.sqrt(2 * beta * ell_inf) * p_i / (mu * n_i),
        kind="upper",
        status="derived",
        source=Citation("minimax", "proof of (9), App. C.1: the display after (46)"),
        quantity="‖ŵ(S) − ŵ(S^{∖(i,j)})‖",
        quantity_latex=r"\Vert\hat w(S) - \hat w(S^{\setminus(i,j)})\Vert",
        statement=(
            "Replacing one sample of client i moves the minimizer of the p-weighted ERM (8) by "
            "at most 8√(2β‖ℓ‖∞)·p_i/(μn_i): App. C.1 shows (μ/2 − βp_i/n_i)‖Δŵ‖ ≤ "
            "2√(2β‖ℓ‖∞)p_i/n_i, and n_i ≥ 4βp_i/μ makes the left factor ≥ μ/4. It scales with "
            "p_i/n_i, so with p_i = n_i/N it is the same 1/N for every client."
        ),
        hypotheses=[_p_i_stability, _p_i_weight, _mu_le_beta],
        example={"beta": 1, "mu": 0.5, "ell_inf": 1, "p_i": 0.1, "n_i": 100},
    )
)

register(
    _bound(
        "minimax.thm6.federated-stability",
        32 * beta * ell_inf * p_i / (mu * n_i),
        kind="upper",
        source=Citation("minimax", "proof of (9), App. C.1: the display after (46)"),
        quantity="γ_i = sup_z |ℓ(ŵ(S), z) − ℓ(ŵ(S^{∖(i,j)}), z)|",
        quantity_latex=r"\gamma_i",
        statement=(
            "Federated stability (Definition 5) of the FedAvg ERM (8): "
            "γ_i ≤ (16β‖ℓ‖∞p_i/(μn_i))(1 + 4βp_i/(μn_i)) ≤ 32β‖ℓ‖∞p_i/(μn_i), from the "
            "parameter bound minimax.thm6.stability through |Δℓ| ≤ √(2β‖ℓ‖∞)‖Δŵ‖ + (β/2)‖Δŵ‖²."
        ),
        hypotheses=[_p_i_stability, _p_i_weight, _mu_le_beta],
        example={"beta": 1, "mu": 0.5, "ell_inf": 1, "p_i": 0.1, "n_i": 100},
    )
)

# ====================================================================== Lemma 7: logistic instance
register(
    _bound(
        "minimax.lemma7.mu0",
        (sp.exp(a / 2) + sp.exp(-a)) ** -2,
        kind="lower",
        status="printed",
        source=Citation("minimax", "Lemma 7, eq. (12)"),
        quantity=_MIN_CURVATURE,
        quantity_latex=_MIN_CURVATURE_TEX,
        statement=(
            "As printed, with a = c_X D√d: the Hessian of the logistic loss dominates μ0·xxᵀ with "
            "μ0 = (e^{a/2} + e^{−a})^{−2}. Wrong (guide §6.1): it exceeds 1/4 = max sig' for "
            "small a (0.2798 at a = 0.5, true minimum 0.2350) and exceeds the true minimum "
            "sig'(a) for every a > 0, so it is not a valid curvature lower bound. See "
            "minimax.lemma7.mu0.corrected."
        ),
        example={"a": 1},
    )
)

register(
    _bound(
        "minimax.lemma7.mu0.corrected",
        (sp.exp(a / 2) + sp.exp(-a / 2)) ** -2,
        kind="exact",
        status="corrected",
        source=Citation("minimax", "Lemma 7, eq. (12), corrected"),
        quantity=_MIN_CURVATURE,
        quantity_latex=_MIN_CURVATURE_TEX,
        statement=(
            "Corrected (12): the logistic second derivative sig'(t) = e^t/(1 + e^t)² is even and "
            "decreasing in |t|, so over |xᵀw| ≤ a its minimum is sig'(a) = (e^{a/2} + "
            "e^{−a/2})^{−2} = 1/(4cosh²(a/2)), with a = c_X√d·sup_{w∈𝒲}‖w‖ (= c_X D√d only if "
            "0 ∈ 𝒲). Hence ∇²ℓ ⪰ μ0·xxᵀ and, on the feature event 𝖤, μ ≍ μ0."
        ),
        example={"a": 1},
    )
)

register(
    _bound(
        "minimax.lemma7.beta",
        c_X**2 * d / 4,
        kind="upper",
        source=Citation("minimax", "Lemma 7 and eq. (13)"),
        quantity="smoothness β (and gradient noise σ²) of the logistic instance",
        quantity_latex=r"\beta,\ \sigma^{2}",
        statement=(
            "∇²ℓ = sig'(yxᵀw)·xxᵀ ⪯ xxᵀ/4 and ‖x‖² ≤ c_X²d, so the logistic loss is "
            "c_X²d/4-smooth; σ² ≤ tr E[∇²ℓ(w⋆)] ≤ c_X²d/4 as well (Lemma 7)."
        ),
        example={"c_X": 1, "d": 10},
    )
)

register(
    _bound(
        "minimax.lemma7.loss-bound",
        a,
        kind="upper",
        status="printed",
        source=Citation("minimax", "Lemma 7"),
        quantity="sup of the logistic loss log(1 + e^{−yxᵀw}) over |xᵀw| ≤ a",
        quantity_latex=r"\sup_{|t|\leq a}\log(1+e^{-t})",
        statement=(
            "As printed: Assumption A holds with ‖ℓ‖∞ = c_X D√d (= a). Wrong by up to log 2: the "
            "loss at w = 0 is already log 2 and its supremum is log(1 + e^a) > a; see "
            "minimax.lemma7.loss-bound.corrected."
        ),
        example={"a": 1},
    )
)

register(
    _bound(
        "minimax.lemma7.loss-bound.corrected",
        sp.log(1 + sp.exp(a)),
        kind="exact",
        status="corrected",
        source=Citation("minimax", "Lemma 7, corrected"),
        quantity="sup of the logistic loss log(1 + e^{−yxᵀw}) over |xᵀw| ≤ a",
        quantity_latex=r"\sup_{|t|\leq a}\log(1+e^{-t})",
        statement=(
            "The logistic loss log(1 + e^{−t}) is decreasing in t, so over |t| ≤ a its supremum "
            "is log(1 + e^a) ≤ log 2 + a: the ‖ℓ‖∞ of Lemma 7 with the + log 2 the paper omits."
        ),
        example={"a": 1},
    )
)

# ====================================================================== Theorem 8, Corollary 9
_EST_AER = "inf_ŵ sup_{𝒫1} (1/N)Σ_i n_i E_S‖ŵ^(i) − w⋆^(i)‖²"
_EST_AER_TEX = (
    r"\inf_{\hat w}\sup_{\mathcal{P}_1}\frac{1}{N}\sum_i n_i"
    r"\mathbb{E}\Vert\hat w^{(i)} - w_\star^{(i)}\Vert^2"
)
_EST_IER = "inf_ŵ sup_{𝒫2} E_S‖ŵ^(i) − w⋆^(i)‖²"
_EST_IER_TEX = (
    r"\inf_{\hat w}\sup_{\mathcal{P}_2}\mathbb{E}\Vert\hat w^{(i)} - w_\star^{(i)}\Vert^2"
)

register(
    _bound(
        "minimax.thm8.aer",
        C * (sp.Min(d * m / N, R**2) + d / N),
        kind="order-lower",
        source=Citation("minimax", "Theorem 8, eq. (14)"),
        quantity=_EST_AER,
        quantity_latex=_EST_AER_TEX,
        statement=(
            "Logistic model of Lemma 7, balanced n_i ≍ N/m, p_i = n_i/N: no estimator has "
            "weighted squared estimation error below d/(N/m) ∧ R² + d/N over the configurations "
            "satisfying B(a) (Assouad over a product prior plus the homogeneous d/N bound)."
        ),
        meanings={"R": _R_AER},
        example={"d": 10, "m": 10, "N": 1000, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.thm8.ier",
        C * (sp.Min(d / n_i, R**2) + d / N),
        kind="order-lower",
        source=Citation("minimax", "Theorem 8, eq. (15)"),
        quantity=_EST_IER,
        quantity_latex=_EST_IER_TEX,
        statement=(
            "Logistic model, balanced n_i, p_i = n_i/N: for every client i no estimator has "
            "squared estimation error below d/n_i ∧ R² + d/N over the configurations satisfying "
            "B(b). (The proof's 'δ_i ≍ 1/√n_i when R ≥ dm/N' should read R² ≳ d/n_i.)"
        ),
        meanings={"R": _R_IER},
        example={"d": 10, "n_i": 100, "N": 1000, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.thm8.explicit",
        sp.Min(d * m / N, R**2) / (32 * c_X**2),
        kind="lower",
        status="derived",
        source=Citation("minimax", "Theorem 8, eq. (14): heterogeneous part, App. A (corrected)"),
        quantity=_EST_AER,
        quantity_latex=_EST_AER_TEX,
        statement=(
            "Heterogeneous part of (14) with explicit constant (guide §3.1, §6.3), for exactly "
            "equal n_i = N/m: minimax.thm8.assouad with δ = c/√n (R² ≥ dm/N) or δ = cR/√d "
            "(R² ≤ dm/N) and c = 1/(2√2c_X) gives min(dm/N, R²)/(32c_X²). The prior satisfies "
            "B(a) only if c ≤ 1, i.e. c_X ≥ 1/(2√2). The homogeneous d/N term (Lemma 13) has no "
            "explicit constant and is not included."
        ),
        hypotheses=[_c_X_assouad],
        meanings={"R": _R_AER},
        example={"d": 10, "m": 10, "N": 1000, "R": 0.1, "c_X": 1},
    )
)

register(
    _bound(
        "minimax.thm8.assouad",
        d / 2 * delta_i**2 * (1 - sp.sqrt(2) * c_X * delta_i * sp.sqrt(n_i)),
        kind="lower",
        status="derived",
        source=Citation("minimax", "proof of Theorem 8, App. A, eq. (34) (constants corrected)"),
        quantity="inf_ŵ E‖ŵ^(i) − δ_i v^(i)‖² under the Assouad prior (Bayes risk of client i)",
        quantity_latex=r"\inf_{\hat w}\mathbb{E}\Vert\hat w^{(i)} - \delta_i v^{(i)}\Vert^2",
        statement=(
            "Per-δ Bayes-risk bound of the multi-dataset Assouad argument: with w⋆^(i) = δ_iv^(i), "
            "v^(i) uniform on {±1}^d, the sign-rounding step and TV ≤ √2c_Xδ_i√n_i per "
            "coordinate give E‖ŵ^(i) − w⋆^(i)‖² ≥ (d/2)δ_i²(1 − √2c_Xδ_i√n_i) for every "
            "estimator (informative for δ_i < 1/(√2c_X√n_i); w⋆^(i) must lie in 𝒲)."
        ),
        example={"d": 10, "delta_i": 0.01, "c_X": 1, "n_i": 100},
    )
)

_cor9_note = (
    " The bound is on the truncated risk E[·1_𝖤] over a feature event of probability "
    "≥ 1 − e^{−c'√(N/m)}; its side conditions n_i ≥ Cβ and m ≤ C'(N/m)^c carry unknown "
    "constants and are not checked."
)
register(
    _bound(
        "minimax.cor9.aer",
        C * mu * (sp.Min(beta * m / N, R**2) + beta / N),
        kind="order-lower",
        source=Citation("minimax", "Corollary 9, eq. (16)"),
        quantity="E_{A,S}[AER_p(A)·1_E]",
        quantity_latex=r"\mathbb{E}[\mathrm{AER}_{\mathbf{p}}(\mathcal{A})\,1_{\mathsf{E}}]",
        statement=(
            "There is a logistic instance satisfying A and B(a) on which every (randomized) "
            "algorithm has E[AER_p·1_𝖤] ≳ μ(β/(N/m) ∧ R² + β/N): Theorem 8 times the population "
            "strong convexity μ0 ≍ μ, with β ≍ d. Balanced n_i, p_i = n_i/N." + _cor9_note
        ),
        hypotheses=[_mu_le_beta],
        meanings={"R": _R_AER},
        example={"mu": 0.5, "beta": 1, "m": 10, "N": 1000, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.cor9.ier",
        C * mu * (sp.Min(beta / n_i, R**2) + beta / N),
        kind="order-lower",
        source=Citation("minimax", "Corollary 9, eq. (17)"),
        quantity="E_{A,S}[IER_i(A)·1_{E_i}]",
        quantity_latex=r"\mathbb{E}[\mathrm{IER}_i(\mathcal{A})\,1_{\mathsf{E}_i}]",
        statement=(
            "For each client i there is a logistic instance satisfying A and B(b) on which every "
            "algorithm has E[IER_i·1_{𝖤_i}] ≳ μ(β/n_i ∧ R² + β/N). Balanced n_i, p_i = n_i/N."
            + _cor9_note
        ),
        hypotheses=[_mu_le_beta],
        meanings={"R": _R_IER},
        example={"mu": 0.5, "beta": 1, "n_i": 100, "N": 1000, "R": 0.1},
    )
)

# ---------------------------------------------------------------------- the minimax rate itself
_rate_aer = sp.Min(m / N, R**2) + 1 / N
_rate_ier = sp.Min(1 / n_i, R**2) + 1 / N
_RATE_NOTE = (
    " Sample-size dependence only: (β, μ, ‖ℓ‖∞, σ, d) are taken O(1), as in the paper's §3.3."
)
register(
    _bound(
        "minimax.minimax-rate.aer",
        C * _rate_aer,
        kind="order-lower",
        source=Citation("minimax", "Corollary 9, eq. (16), and §3.3"),
        quantity="inf_A sup E[AER_p(A)]",
        quantity_latex=r"\inf_{\mathcal{A}}\sup\,\mathbb{E}[\mathrm{AER}_{\mathbf{p}}]",
        statement=(
            "The minimax AER rate of personalized FL with balanced data: no algorithm beats "
            "m/N ∧ R² + 1/N. Below R² ≍ m/N it is FedAvg's R² + 1/N, above it local training's "
            "m/N; minimax.minimax-rate.aer.attained is the matching upper bound." + _RATE_NOTE
        ),
        meanings={"R": _R_AER},
        example={"m": 10, "N": 1000, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.minimax-rate.aer.attained",
        C * _rate_aer,
        kind="order-upper",
        source=Citation("minimax", "eq. (18) with p_i = n_i/N, and §3.3"),
        quantity="E[AER_p(A_dichotomy)]",
        quantity_latex=r"\mathbb{E}[\mathrm{AER}_{\mathbf{p}}(\mathcal{A}_{\mathrm{dich}})]",
        statement=(
            "The oracle dichotomy (FedAvg if R² ≲ m/N, else local training) attains the minimax "
            "AER rate m/N ∧ R² + 1/N (minimax.dichotomy.aer with constants O(1))." + _RATE_NOTE
        ),
        meanings={"R": _R_AER},
        example={"m": 10, "N": 1000, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.minimax-rate.ier",
        C * _rate_ier,
        kind="order-lower",
        source=Citation("minimax", "Corollary 9, eq. (17), and §3.3"),
        quantity="inf_A sup E[IER_i(A)]",
        quantity_latex=r"\inf_{\mathcal{A}}\sup\,\mathbb{E}[\mathrm{IER}_i]",
        statement=(
            "The minimax IER rate with balanced data: no algorithm beats 1/n_i ∧ R² + 1/N for "
            "client i; minimax.minimax-rate.ier.attained is the matching upper bound." + _RATE_NOTE
        ),
        meanings={"R": _R_IER},
        example={"n_i": 100, "N": 1000, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.minimax-rate.ier.attained",
        C * _rate_ier,
        kind="order-upper",
        source=Citation("minimax", "eq. (19) with p_i = n_i/N, and §3.3"),
        quantity="E[IER_i(A_dichotomy)]",
        quantity_latex=r"\mathbb{E}[\mathrm{IER}_i(\mathcal{A}_{\mathrm{dich}})]",
        statement=(
            "The oracle dichotomy attains the minimax IER rate 1/n_i ∧ R² + 1/N "
            "(minimax.dichotomy.ier with constants O(1))." + _RATE_NOTE
        ),
        meanings={"R": _R_IER},
        example={"n_i": 100, "N": 1000, "R": 0.1},
    )
)

# ====================================================================== §3.3: the dichotomy
register(
    _bound(
        "minimax.dichotomy.aer",
        C * (beta * sp.Min(ell_inf * m / (mu * N), R**2) + beta * ell_inf / (mu * N)),
        kind="order-upper",
        source=Citation("minimax", "§3.3, eq. (18) with p_i = n_i/N"),
        quantity="E_S[AER_p(A_dichotomy)]",
        quantity_latex=r"\mathbb{E}_{S}[\mathrm{AER}_{\mathbf{p}}(\mathcal{A}_{\mathrm{dich}})]",
        statement=(
            "The oracle switch (FedAvg if R² ≤ (‖ℓ‖∞/μ)m/N, else pure local training) has "
            "E[AER] ≲ β(‖ℓ‖∞/(μN/m) ∧ R²) + β‖ℓ‖∞/(μN) under the hypotheses of Theorems 4 and "
            "6 with balanced n_i = N/m: the better of (4) and (11), matching (16) when "
            "(β, μ, ‖ℓ‖∞, σ) are O(1)."
        ),
        hypotheses=[_Nm_stability, _mu_le_beta],
        meanings={"R": _R_AER},
        example={"beta": 1, "mu": 0.5, "ell_inf": 1, "m": 10, "N": 1000, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.dichotomy.ier",
        C * (beta**3 / mu**2 * sp.Min(ell_inf / (mu * n_i), R**2) + beta * sigma2 / (mu**2 * N)),
        kind="order-upper",
        source=Citation("minimax", "§3.3, eq. (19) with p_i = n_i/N"),
        quantity="E_S[IER_i(A_dichotomy)]",
        quantity_latex=r"\mathbb{E}_{S}[\mathrm{IER}_i(\mathcal{A}_{\mathrm{dich}})]",
        statement=(
            "With balanced n_i (not checked), the oracle switch has E[IER_i] ≲ "
            "(β³/μ²)(‖ℓ‖∞/(μn_i) ∧ R²) + βσ²/(μ²N) under B(b), matching (17) when the problem "
            "constants are O(1)."
        ),
        hypotheses=[_n_i_stability, _N_stability, _mu_le_beta],
        meanings={"R": _R_IER, "sigma2": _SIGMA2},
        example={"beta": 1, "mu": 0.5, "ell_inf": 1, "sigma2": 1, "n_i": 100, "N": 1000, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.dichotomy.threshold",
        ell_inf / mu * m / N,
        kind="exact",
        source=Citation("minimax", "§3.3, the dichotomous strategy"),
        quantity="R²",
        quantity_latex="R^{2}",
        statement=(
            "The switching value of R² of the oracle dichotomous strategy: output FedAvg when "
            "R² ≤ (‖ℓ‖∞/μ)·m/N, else pure local training. Only its m/N scaling is a theorem: the "
            "lower-bound kink sits at R² = dm/N (Theorem 8), which differs in d, D and μ "
            "(guide §3.3); see minimax.crossing.fisher for a sharper location."
        ),
        example={"ell_inf": 1, "mu": 0.5, "m": 10, "N": 1000},
    )
)

# ====================================================================== Theorems 11, 12: FedProx
register(
    _bound(
        "minimax.thm11.aer",
        C
        * (mu / sp.Min(1, C_p) + sp.Max(1, C_p) * beta * ell_inf / mu)
        * (sp.Min(R * sp.sqrt(A), A) + B_q),
        kind="order-upper",
        source=Citation("minimax", "Theorem 11, eq. (28)"),
        quantity="E_{A,S}[AER_p(A_FP)]",
        quantity_latex=r"\mathbb{E}[\mathrm{AER}_{\mathbf{p}}(\mathcal{A}_{\mathrm{FP}})]",
        statement=(
            "FedProx (Algorithm 2 with the schedules (26)–(27) and a λ chosen from R) has "
            "E[AER_p] ≲ (μ/(1 ∧ C_p) + (1 ∨ C_p)β‖ℓ‖∞/μ)(R√A ∧ A + B_q), A = Σp_i/n_i, "
            "B_q = Σp_i²/n_i. Note C_p ≥ 1 always, so 1 ∧ C_p = 1. In the middle regime the rate "
            "R√A is loose (an artifact of the stability analysis, guide §6.4)."
        ),
        hypotheses=[_A_stability, _Bq_le_A, _Cp_ge_1, _mu_le_beta],
        meanings={"R": _R_AER},
        example={
            "mu": 0.5,
            "beta": 1,
            "ell_inf": 1,
            "C_p": 2,
            "A": 0.01,
            "B_q": 0.001,
            "R": 0.1,
        },
    )
)

register(
    _bound(
        "minimax.thm11.aer.balanced",
        C * (mu + beta * ell_inf / mu) * (sp.Min(m / N, R * sp.sqrt(m / N)) + 1 / N),
        kind="order-upper",
        source=Citation("minimax", "Theorem 11, eq. (30)"),
        quantity="E_{A,S}[AER_p(A_FP)]",
        quantity_latex=r"\mathbb{E}[\mathrm{AER}_{\mathbf{p}}(\mathcal{A}_{\mathrm{FP}})]",
        statement=(
            "(28) with p_i = n_i/N and balanced n_i: E[AER] ≲ (μ + β‖ℓ‖∞/μ)(1/(N/m) ∧ "
            "R/√(N/m) + 1/N). Optimal for R² ≳ m/N and R² ≲ 1/(mN); for 1/(mN) ≲ R² ≲ m/N it is "
            "Θ(R√(m/N)), not the O(m/N) the text states, and worse than the minimax R² + 1/N."
        ),
        hypotheses=[_Nm_stability, _mu_le_beta],
        meanings={"R": _R_AER},
        example={"mu": 0.5, "beta": 1, "ell_inf": 1, "m": 10, "N": 1000, "R": 0.1},
    )
)

_K12 = (mu + 1 / mu) * (beta * ell_inf + (sigma2 * beta**2 + beta**2 + sigma2) / mu**2) + mu * D**2
register(
    _bound(
        "minimax.thm12.ier",
        C * _K12 * (sp.Min(R / sp.sqrt(n_i), 1 / n_i) + sp.sqrt(m) / N),
        kind="order-upper",
        source=Citation("minimax", "Theorem 12, eq. (29)"),
        quantity="E_{A,S}[IER_i(A_FP)]",
        quantity_latex=r"\mathbb{E}[\mathrm{IER}_i(\mathcal{A}_{\mathrm{FP}})]",
        statement=(
            "FedProx with balanced n_i and p_i ≍ 1/m (not checked) has E[IER_i] ≲ "
            "[(μ + μ⁻¹)(β‖ℓ‖∞ + (σ²β² + β² + σ²)/μ²) + μD²](R/√n_i ∧ 1/n_i + √m/N) under B(b), "
            "for a λ chosen from R: off the minimax rate by R/√n_i vs R² in the middle regime "
            "and by √m at R² ≲ 1/N. The prefactor mixes units (μ + μ⁻¹) as printed."
        ),
        hypotheses=[_n_i_stability, _mu_le_beta],
        meanings={"R": _R_IER, "sigma2": _SIGMA2},
        example={
            "mu": 0.5,
            "beta": 1,
            "ell_inf": 1,
            "sigma2": 1,
            "D": 1,
            "n_i": 100,
            "m": 10,
            "N": 1000,
            "R": 0.1,
        },
    )
)

# ================================================================ App. B: FedProx optimization
#: A-priori bound on ‖∇F_i‖² (Lemma 18), G_λ = β²D² ∧ 2λ‖ℓ‖∞ ∧ λ²D².
G_lambda = sp.Min(beta**2 * D**2, 2 * lam * ell_inf, lam**2 * D**2)
_OPT_EXAMPLE = {"beta": 1, "mu": 0.5, "lam": 0.5, "D": 1, "ell_inf": 1}

register(
    _bound(
        "minimax.lemma14",
        8 * beta**2 * D**2 / (mu**2 * (k + 1)),
        kind="upper",
        source=Citation("minimax", "Lemma 14 (App. B.1)"),
        quantity="E[‖w_{t,k}^(i) − Prox_{L_i/λ}(w_t^g)‖² | ℱ_{t,0}, i ∈ 𝒞_t]",
        quantity_latex=r"\mathbb{E}\Vert w^{(i)}_{t,k} - \mathrm{Prox}_{L_i/\lambda}(w^g_t)\Vert^2",
        statement=(
            "Inner loop of Algorithm 2: SoftLocalSGD with steps 1/((μ + λ)(k + 1)) on the "
            "(μ + λ)-strongly convex local prox objective is within 8β²D²/(μ²(k + 1)) of the "
            "proximal point after k steps, in mean square (Assumption A(a, b))."
        ),
        hypotheses=[_mu_le_beta],
        example={"beta": 1, "mu": 0.5, "D": 1, "k": 10},
    )
)

_lemma15_core = 12 * (lam + mu) ** 2 * m * p_norm2 * G_lambda / (lam**2 * mu**2)
register(
    _bound(
        "minimax.lemma15",
        _lemma15_core / (T + 1),
        kind="upper",
        source=Citation("minimax", "Lemma 15, eq. (39) (App. B.2)"),
        quantity="E‖w_T^g − w̃^g‖²",
        quantity_latex=r"\mathbb{E}\Vert w^{g}_{T} - \tilde w^{g}\Vert^2",
        statement=(
            "Outer loop of Algorithm 2 (sampled clients train; the printed branch is inverted, "
            "guide §6.2): with global steps 2(μ + λ)/(λμ(t + 1)) the global model is within "
            "12(λ + μ)²m‖p‖²G_λ/(λ²μ²(T + 1)) of the FedProx optimum after T rounds, "
            "G_λ = β²D² ∧ 2λ‖ℓ‖∞ ∧ λ²D² (Lemma 18). Requires the local-step schedule (38) in "
            "every round τ < T, minimax.lemma15.local-steps, which a scalar hypothesis cannot "
            "express (K_τ grows with τ)."
        ),
        hypotheses=[_mu_le_beta, _p_norm_lower, _p_norm_upper],
        example={**_OPT_EXAMPLE, "m": 10, "p_norm2": 0.2, "T": 100},
    )
)

register(
    _bound(
        "minimax.lemma15.local-steps",
        (4 * tau + 20) * lam**2 * beta**2 * D**2 / (mu**2 * G_lambda) - 1,
        kind="lower",
        source=Citation("minimax", "Lemma 15, eq. (38)"),
        quantity="K_τ, the local SGD steps in round τ that Lemma 15 requires",
        quantity_latex=r"K_{\tau}",
        statement=(
            "Requirement (38) of Lemma 15: K_τ + 1 ≥ (4τ + 20)λ²β²D²/(μ²G_λ) in every round τ "
            "before the one bounded. Since G_λ ≤ λ²D² and β ≥ μ it asks for at least 19 + 4τ "
            "steps: the local work grows linearly in τ, Θ(T²) in total (Theorem 11 writes it "
            "K_t + 1 ≥ C_1(λ² ∨ 1)t)."
        ),
        hypotheses=[_mu_le_beta],
        example={**_OPT_EXAMPLE, "tau": 0},
    )
)

_prop16_inner = 4 * (beta + lam) * beta**2 * D**2 / (mu**2 * (K_T + 1))
_prop16_outer = 6 * (lam + mu) ** 2 * m * p_norm2 * G_lambda / (lam * mu**2)
_PROP16_QUANTITY = "E[ℰ_OPT], objective (20) at the output minus its minimum"
_PROP16_QUANTITY_TEX = r"\mathbb{E}[\mathcal{E}_{\mathrm{OPT}}]"
register(
    _bound(
        "minimax.prop16",
        _prop16_inner + _prop16_outer / (T + 1),
        kind="upper",
        status="corrected",
        source=Citation("minimax", "Proposition 16, corrected (t + 1 → T + 1)"),
        quantity=_PROP16_QUANTITY,
        quantity_latex=_PROP16_QUANTITY_TEX,
        statement=(
            "Optimization error of Algorithm 2 after T rounds and K_T final local steps: "
            "(β + λ)/2 times Lemma 14 at k = K_T plus λ/2 times Lemma 15 at T, i.e. "
            "4(β + λ)β²D²/(μ²(K_T + 1)) + 6(λ + μ)²m‖p‖²G_λ/(λμ²(T + 1)). The paper prints t + 1 "
            "for T + 1 (guide §6.5); needs the schedule (38)."
        ),
        hypotheses=[_mu_le_beta, _p_norm_lower, _p_norm_upper],
        example={**_OPT_EXAMPLE, "m": 10, "p_norm2": 0.2, "K_T": 100, "T": 100},
    )
)

register(
    _bound(
        "minimax.prop16.printed",
        _prop16_inner + _prop16_outer / (t + 1),
        kind="upper",
        status="printed",
        source=Citation("minimax", "Proposition 16"),
        quantity=_PROP16_QUANTITY,
        quantity_latex=_PROP16_QUANTITY_TEX,
        statement=(
            "As printed, with (t + 1): the loop index t of Algorithm 2 is not defined at the "
            "output, so this is not a bound on ℰ_OPT at all — its value depends on a free t "
            "and not on the number of rounds T. At t = T it is minimax.prop16; for t ≥ T it is "
            "smaller than the corrected bound (and tends to the inner-loop term as t → ∞)."
        ),
        hypotheses=[_mu_le_beta, _p_norm_lower, _p_norm_upper],
        meanings={"t": "loop index t of Algorithm 2 as printed in Prop. 16 (undefined there)"},
        example={**_OPT_EXAMPLE, "m": 10, "p_norm2": 0.2, "K_T": 100, "t": 100},
        unjudged=(
            "not a bound on data: its value depends on a free loop index t that the output of "
            "Algorithm 2 does not define (at t = T it is minimax.prop16, which is judged); the "
            "former erratum claim is withdrawn and the dependence on t is unit-tested"
        ),
    )
)

# ====================================================================== where the dichotomy flips
register(
    _bound(
        "minimax.crossing.fisher",
        d * (1 - 1 / m) / (kappa_u * n),
        kind="exact",
        status="derived",
        source=Citation("minimax", "§3.3, threshold R² ≍ m/N; local quadratic approximation"),
        quantity="R*², where E[IER_FA] = E[IER_PLT]",
        quantity_latex=r"R_{\star}^{2}",
        statement=(
            "Guide §3.3 [derived], to leading order in 1/n (local quadratic/Fisher "
            "approximation; well-specified model, balanced data, exact ERMs, w⋆^(i) = w̄ + Ru_i, "
            "Σu_i = 0): E[IER_PLT] ≈ d/(2n) and E[IER_FA] ≈ d/(2N) + κ_uR²/2 cross at "
            "R*² = d(1 − 1/m)/(κ_u n). Exact for the quadratic model (minimax.gmq.crossing)."
        ),
        meanings={"n": "number of samples on each client (balanced: N = m·n)"},
        example={"d": 10, "m": 10, "kappa_u": 0.2, "n": 100},
    )
)

# ====================================================================== GM-Q: exact quadratic risks
_theta = lam / (1 + lam)
_v = s2 / n
_V = d * _v * (1 - 1 / m)
_GMQ_NOTE = (
    " Quadratic model GM-Q (guide §5 V1): ℓ(w, z) = ½‖w − z‖², z = w⋆^(i) + ξ with per-"
    "coordinate noise variance s², m clients with n samples each (N = mn), p_i = 1/m, "
    "‖w⋆^(i) − w̄‖ = R for every i, 𝒲 large enough that no projection is active."
)
_GMQ_IER = "E_S[IER_i] on GM-Q"
register(
    _bound(
        "minimax.gmq.plt",
        d * s2 / (2 * n),
        kind="exact",
        status="derived",
        source=Citation("minimax", "Theorem 4 on the quadratic model (guide §5 V1)"),
        quantity="E_S[IER_i(A_PLT)] on GM-Q",
        quantity_latex=r"\mathbb{E}[\mathrm{IER}_i(\mathcal{A}_{\mathrm{PLT}})]",
        statement=(
            "Local training outputs the client mean x̄_i, whose excess risk ½‖x̄_i − w⋆^(i)‖² has "
            "expectation ds²/(2n), independent of R." + _GMQ_NOTE
        ),
        meanings={"n": _N_BALANCED},
        example={"d": 10, "s2": 1, "n": 100},
    )
)

register(
    _bound(
        "minimax.gmq.fedavg",
        (R**2 + d * s2 / N) / 2,
        kind="exact",
        status="derived",
        source=Citation("minimax", "Theorem 6 on the quadratic model (guide §5 V1)"),
        quantity="E_S[IER_i(A_FA)] = E_S[AER(A_FA)] on GM-Q",
        quantity_latex=r"\mathbb{E}[\mathrm{IER}_i(\mathcal{A}_{\mathrm{FA}})]",
        statement=(
            "FedAvg (the ERM of (8)) outputs the pooled mean, whose excess risk for client i has "
            "expectation ½(R² + ds²/N): the bias R² is exactly the heterogeneity, the variance "
            "the pooled one." + _GMQ_NOTE
        ),
        meanings={"R": _R_GMQ},
        example={"d": 10, "s2": 1, "N": 1000, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.gmq.fedavg.weighted",
        (R2_p + d * s2 * B_q) / 2,
        kind="exact",
        status="derived",
        source=Citation("minimax", "Theorem 6, eq. (9), on the quadratic model (guide §5 V1)"),
        quantity="E_S[AER_p(A_FA)] on GM-Q with weights p and sizes n_i",
        quantity_latex=_AER_FA_TEX,
        statement=(
            "Imbalanced GM-Q: the p-weighted ERM is Σp_i x̄_i, and E[AER_p] = "
            "½(Σp_i‖w̄_p − w⋆^(i)‖² + ds²Σp_i²/n_i) exactly — the quadratic-model instance of "
            "(9), with the bias and variance factors of the bound attained."
        ),
        hypotheses=[Hypothesis(sp.Le(B_q, 1), "Σp_i²/n_i ≤ Σp_i² ≤ 1 for weights in the simplex")],
        example={"d": 10, "s2": 1, "B_q": 0.001, "R2_p": 0.01},
    )
)

register(
    _bound(
        "minimax.gmq.fedprox",
        (d * _v * ((1 - _theta) ** 2 + (1 - (1 - _theta) ** 2) / m) + _theta**2 * R**2) / 2,
        kind="exact",
        status="derived",
        source=Citation("minimax", "objective (20) on the quadratic model (guide §5 V1)"),
        quantity=_GMQ_IER + " of the FedProx minimizer",
        quantity_latex=r"\mathbb{E}[\mathrm{IER}_i(\tilde w^{(i)})]",
        statement=(
            "The exact minimizer of the FedProx objective (20) shrinks each client mean toward "
            "the pooled mean, w̃^(i) = (1 − θ)x̄_i + θx̄_pool with θ = λ/(1 + λ); its risk is "
            "½[dv((1 − θ)² + (1 − (1 − θ)²)/m) + θ²R²], v = s²/n: local training at λ = 0, "
            "FedAvg as λ → ∞." + _GMQ_NOTE
        ),
        meanings={"R": _R_GMQ, "n": _N_BALANCED},
        example={"d": 10, "s2": 1, "n": 100, "m": 10, "R": 0.1, "lam": 1},
    )
)

register(
    _bound(
        "minimax.gmq.fedprox.tuned",
        (d * _v / m + R**2 * _V / (R**2 + _V)) / 2,
        kind="exact",
        status="derived",
        source=Citation("minimax", "Fig. 1 conjecture (tuned FedProx) on the quadratic model"),
        quantity="min_λ " + _GMQ_IER + " of the FedProx minimizer",
        quantity_latex=r"\min_{\lambda}\mathbb{E}[\mathrm{IER}_i(\tilde w^{(i)})]",
        statement=(
            "Optimally tuned FedProx on GM-Q (guide §5 V11): the best shrinkage θ* = V/(V + R²), "
            "λ* = V/R², gives ½[dv/m + R²V/(R² + V)] with V = dv(1 − 1/m), v = s²/n — a "
            "harmonic mean of FedAvg's bias and local training's excess variance, within a "
            "factor 2 of min(FedAvg, local): the paper's conjecture holds on this model."
            + _GMQ_NOTE
        ),
        meanings={"R": _R_GMQ, "n": _N_BALANCED},
        example={"d": 10, "s2": 1, "n": 100, "m": 10, "R": 0.1},
    )
)

register(
    _bound(
        "minimax.gmq.crossing",
        d * s2 * (1 / n - 1 / N),
        kind="exact",
        status="derived",
        source=Citation("minimax", "§3.3 threshold on the quadratic model (guide §3.3, §5 V6)"),
        quantity="R*², where E[IER_FA] = E[IER_PLT] on GM-Q",
        quantity_latex=r"R_{\star}^{2}",
        statement=(
            "Solving ½(R² + ds²/N) = ds²/(2n) in R²: FedAvg beats local training exactly when "
            "R² < ds²(1/n − 1/N) = ds²(1 − 1/m)/n, the threshold R² ≍ m/N of §3.3 with its "
            "constant." + _GMQ_NOTE
        ),
        hypotheses=[Hypothesis(sp.Ge(N, n), "the total sample N = mn includes the client's n")],
        meanings={"n": _N_BALANCED},
        example={"d": 10, "s2": 1, "n": 100, "N": 1000},
    )
)
