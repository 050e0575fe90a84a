"""The comparison inequalities (12), (15) and the lemmas of App. C–E of the ``ffgb`` paper.

Registered on import by :mod:`fedtheory.bounds.ffgb`, whose docstring holds the table of ids and
the notation: the residual and boundedness lemmas of FFGB ((28), (29)), of FFGB.C (Lemmas D.1,
D.2 and the least admissible radius of Theorem D.1) and of FFGB.L (Lemmas E.1, E.2, E.4), each
erratum as printed next to its correction (guide ``shared/theory/ffgb.md`` §3.2, §6).
"""

from __future__ import annotations

import sympy as sp

from fedtheory.bounds._bound import Hypothesis
from fedtheory.bounds._citation import Citation
from fedtheory.bounds._ffgb_vocabulary import (
    F_UNIT,
    FFGBL_LABEL_B,
    G2_FFGBL,
    GAMMA_LE_1,
    K0_GE_3,
    LOSS_GRADIENT,
    LOSS_UNIT,
    TV,
    W1,
    X_UNIT,
    B,
    D,
    G,
    L,
    W2sq_s,
    f0_lip,
    f0_norm,
    f0_sup,
    f_lip,
    f_sup,
    f_sup_alpha,
    g_lip,
    g_sup,
    g_sup_alpha,
    gamma,
    mu,
    register_terms,
)

# ====================================================================== (12), (15)
register_terms(
    "ffgb.eq12",
    [2 * f_sup * g_sup * TV],
    kind="upper",
    unit=LOSS_UNIT,
    source=Citation("ffgb", "eq. (12)"),
    quantity="|⟨f, g⟩_{α_i} − ⟨f, g⟩_α|",
    quantity_latex=r"|\langle f, g\rangle_{\alpha_i} - \langle f, g\rangle_{\alpha}|",
    statement=(
        "The TV comparison inequality: two inner products under α_i and α differ by at most "
        "2‖f‖_∞‖g‖_∞TV(α, α_i); equality for f ≡ 1, g = sign(α_i − α) on finite atoms."
    ),
    hypotheses=[Hypothesis(sp.Le(TV, 1), "a total-variation distance is at most 1")],
    example={"f_sup": 1, "g_sup": 2, "TV": 0.25},
)
register_terms(
    "ffgb.eq15",
    [(f_lip * g_sup_alpha + g_lip * f_sup_alpha) * W1],
    kind="upper",
    unit=LOSS_UNIT,
    source=Citation("ffgb", "eq. (15), proved in App. E"),
    quantity="|⟨f, g⟩_{α_i} − ⟨f, g⟩_α|",
    quantity_latex=r"|\langle f, g\rangle_{\alpha_i} - \langle f, g\rangle_{\alpha}|",
    statement=(
        "The W1 comparison inequality: with ξ = ‖f‖_lip‖g‖_{α,∞} + ‖g‖_lip‖f‖_{α,∞}, the "
        "inner products differ by at most ξ·W1(α, α_i) (Kantorovich duality, for empirical "
        "measures with supp α_i ⊆ supp α); equality for f ≡ 1 and g the dual potential."
    ),
    example={"f_lip": 1, "g_sup_alpha": 2, "g_lip": 0.5, "f_sup_alpha": 3, "W1": 0.1},
)

# ====================================================================== FFGB lemmas (App. C)
_residual = (1 - gamma) * G / gamma
_h_bound = (2 - gamma) * G / gamma
_FFGB_LEMMA_EXAMPLE = {"G": 1, "gamma": 0.5}
register_terms(
    "ffgb.lemma-residual",
    [_residual],
    kind="upper",
    unit=LOSS_GRADIENT,
    source=Citation("ffgb", "proof of Theorem 3.1, eq. (28)"),
    quantity="‖Δ_i^{k,t}‖_α",
    quantity_latex=r"\Vert\Delta_i^{k,t}\Vert_{\alpha}",
    statement=(
        "FFGB's residual obeys ‖Δ^k‖ ≤ (1 − γ)(‖Δ^{k−1}‖ + G) from Δ⁰ = 0, hence ‖Δ^{k,t}‖_α ≤ "
        "(1 − γ)G/γ for every k, t."
    ),
    hypotheses=[GAMMA_LE_1],
    example=_FFGB_LEMMA_EXAMPLE,
)
register_terms(
    "ffgb.lemma-residual.h",
    [_h_bound],
    kind="upper",
    unit=LOSS_GRADIENT,
    source=Citation("ffgb", "proof of Theorem 3.1, after (28)"),
    quantity="‖h_i^{k,t}‖_α",
    quantity_latex=r"\Vert h_i^{k,t}\Vert_{\alpha}",
    statement=(
        "The oracle's query φ = Δ^{k−1} + ∇R_i[g^k] has norm ≤ G/γ, so its output has norm ≤ "
        "(2 − γ)G/γ (printed for h̄; the proof of (29) uses the weaker 2G/γ)."
    ),
    hypotheses=[GAMMA_LE_1],
    example=_FFGB_LEMMA_EXAMPLE,
)
register_terms(
    "ffgb.lemma-iterate",
    [2 * G / (gamma * mu)],
    kind="upper",
    unit=F_UNIT,
    status="corrected",
    source=Citation("ffgb", "proof of Theorem 3.1, eq. (29) with its typo fixed"),
    quantity="‖g_i^{k,t}‖_α",
    quantity_latex=r"\Vert g_i^{k,t}\Vert_{\alpha}",
    statement=(
        "(29) corrected: ‖g^{k+1}‖ − 2G/(γμ) ≤ (1 − μη)(‖g^k‖ − 2G/(γμ)) (printed with g^{k+1} on "
        "both sides), valid as μη = 2/(tK + k + 1) ≤ 1; so every iterate stays in the ball "
        "2G/(γμ) if f⁰ does — a condition Theorem 3.1 uses but does not state."
    ),
    hypotheses=[
        GAMMA_LE_1,
        Hypothesis(sp.Le(f0_norm, 2 * G / (gamma * mu)), "the proof starts in the ball 2G/(γμ)"),
    ],
    example={**_FFGB_LEMMA_EXAMPLE, "mu": 0.1, "f0_norm": 5},
)
register_terms(
    "ffgb.lemma-iterate.hhat",
    [4 * G / gamma],
    kind="upper",
    unit=LOSS_GRADIENT,
    source=Citation("ffgb", "proof of Theorem 3.1, after (29)"),
    quantity="‖ĥ_i^{k,t}‖_α = ‖h_i^{k,t} + μg_i^{k,t}‖_α",
    quantity_latex=r"\Vert h_i^{k,t} + \mu g_i^{k,t}\Vert_{\alpha}",
    statement="With ‖h‖ ≤ 2G/γ and μ‖g‖ ≤ 2G/γ, the full step direction ĥ = h + μg is ≤ 4G/γ.",
    hypotheses=[
        GAMMA_LE_1,
        Hypothesis(sp.Le(f0_norm, 2 * G / (gamma * mu)), "the proof starts in the ball 2G/(γμ)"),
    ],
    example={**_FFGB_LEMMA_EXAMPLE, "mu": 0.1, "f0_norm": 5},
)

# ====================================================================== FFGB.C lemmas (App. D)
register_terms(
    "ffgb.lemmad1.residual",
    [_residual],
    kind="upper",
    unit=LOSS_GRADIENT,
    source=Citation("ffgb", "Lemma D.1, eq. (34)"),
    quantity="‖Δ_i^{k,t}‖_{α_i,∞} before clipping",
    quantity_latex=r"\Vert\Delta_i^{k,t}\Vert_{\alpha_i,\infty}",
    statement=(
        "On supp α_i the unclipped residual of FFGB.C is ≤ G¹_γ = (1 − γ)G/γ: the clip Π_{G¹_γ} "
        "of line 6 never changes a value there."
    ),
    hypotheses=[GAMMA_LE_1],
    example=_FFGB_LEMMA_EXAMPLE,
)
register_terms(
    "ffgb.lemmad1.h",
    [_h_bound],
    kind="upper",
    unit=LOSS_GRADIENT,
    source=Citation("ffgb", "Lemma D.1, eq. (35)"),
    quantity="‖h_i^{k,t}‖_{α_i,∞} before clipping",
    quantity_latex=r"\Vert h_i^{k,t}\Vert_{\alpha_i,\infty}",
    statement=(
        "On supp α_i the oracle output of FFGB.C is ≤ G²_γ = (2 − γ)G/γ: the clip Π_{G²_γ} of "
        "line 5 never changes a value there."
    ),
    hypotheses=[GAMMA_LE_1],
    example=_FFGB_LEMMA_EXAMPLE,
)
register_terms(
    "ffgb.thmd1.b-min",
    [2 * G / (mu * gamma)],
    kind="lower",
    unit=F_UNIT,
    source=Citation("ffgb", "Theorem D.1 (the condition B ≥ 2G/(μγ))"),
    quantity="B, the L∞ radius of FFGB.C's feasible set",
    quantity_latex="B",
    statement=(
        "Theorem D.1 needs B ≥ 2G/(μγ), the radius of the ball the regularised iterates stay in "
        "(Lemma D.2); the main text's Theorem 3.2 omits it. B cannot be small: the radius term "
        "G·B·ω/(μγ) is then ≥ 2G²ω/(μ²γ²)."
    ),
    hypotheses=[GAMMA_LE_1],
    example={"G": 1, "mu": 0.1, "gamma": 0.5},
)
_LEMMA_D2 = (
    "If ‖f⁰‖_∞ ≤ 2G/(γμ), the iterates of FFGB.C satisfy ‖g^{k,t}‖_∞ ≤ 2G/(γμ) on all of 𝒳, "
    "by ‖g^{k+1}‖ − 2G/(γμ) ≤ (1 − μη)(‖g^k‖ − 2G/(γμ))."
)
_f0_sup_d2 = Hypothesis(sp.Le(f0_sup, 2 * G / (gamma * mu)), "Lemma D.2: ‖f⁰‖_∞ ≤ 2G/(γμ)")
register_terms(
    "ffgb.lemmad2",
    [2 * G / (gamma * mu)],
    kind="upper",
    unit=F_UNIT,
    source=Citation("ffgb", "Lemma D.2"),
    quantity="‖ḡ^{k,t}‖_∞",
    quantity_latex=r"\Vert\bar g^{k,t}\Vert_{\infty}",
    statement=(
        _LEMMA_D2 + " As printed, with η = 4/(μ(tK + k + 1)): the induction needs μη ≤ 1, which "
        "fails at the first two steps (μη = 2, 4/3), and the bound fails (guide D1: 49.6 > 40 "
        "at γ = 0.5, μ = 0.1, f⁰ = −2G/(γμ))."
    ),
    hypotheses=[GAMMA_LE_1, _f0_sup_d2],
    example={"G": 1, "mu": 0.1, "gamma": 0.5, "f0_sup": 1},
)
register_terms(
    "ffgb.lemmad2.corrected",
    [2 * G / (gamma * mu)],
    kind="upper",
    unit=F_UNIT,
    status="corrected",
    source=Citation("ffgb", "Lemma D.2 with η = 4/(μ(tK + k + k0)), k0 ≥ 3 (guide §2.3)"),
    quantity="‖g_i^{k,t}‖_∞ for every client i",
    quantity_latex=r"\Vert g_i^{k,t}\Vert_{\infty}",
    statement=(
        _LEMMA_D2 + " With the step offset k0 ≥ 3 (μη ≤ 1 at every step) the induction holds, "
        "per client (the proof treats only ḡ, but the g_i are what the analysis uses)."
    ),
    hypotheses=[GAMMA_LE_1, _f0_sup_d2, K0_GE_3],
    example={"G": 1, "mu": 0.1, "gamma": 0.5, "f0_sup": 1, "k0": 3},
)

# ====================================================================== FFGB.L lemmas (App. E)
_LIP_EXAMPLE = {"L": 2, "gamma": 0.5}
_SUP_EXAMPLE = {"B": 1, "gamma": 0.5}
register_terms(
    "ffgb.lemmae1.residual",
    [(1 - gamma) * B / gamma],
    kind="upper",
    unit=F_UNIT,
    square_loss=True,
    source=Citation("ffgb", "Lemma E.1, eqs. (42)–(43)"),
    quantity="‖Δ_i^k‖_{α_i,∞}",
    quantity_latex=r"\Vert\Delta_i^{k}\Vert_{\alpha_i,\infty}",
    statement="FFGB.L's residual is ≤ (1 − γ)B/γ on supp α_i, by (19) and |u_i| ≤ B there.",
    hypotheses=[GAMMA_LE_1],
    meanings={"B": FFGBL_LABEL_B},
    example=_SUP_EXAMPLE,
)
register_terms(
    "ffgb.lemmae1.h",
    [B / gamma],
    kind="upper",
    unit=F_UNIT,
    square_loss=True,
    source=Citation("ffgb", "Lemma E.1"),
    quantity="‖h_i^k‖_{α_i,∞}",
    quantity_latex=r"\Vert h_i^{k}\Vert_{\alpha_i,\infty}",
    statement="FFGB.L's oracle outputs are ≤ ‖u_i‖ + ‖Δ^k‖ ≤ B/γ on supp α_i.",
    hypotheses=[GAMMA_LE_1],
    meanings={"B": FFGBL_LABEL_B},
    example=_SUP_EXAMPLE,
)
register_terms(
    "ffgb.lemmae1.residual-lip",
    [(1 - gamma) * L / gamma],
    kind="upper",
    unit=F_UNIT / X_UNIT,
    square_loss=True,
    source=Citation("ffgb", "App. E, before Lemma E.1 (induction with (20))"),
    quantity="‖Δ_i^k‖_lip",
    quantity_latex=r"\Vert\Delta_i^{k}\Vert_{\mathrm{lip}}",
    statement=(
        "By (20) and ‖u_i‖_lip ≤ L, ‖Δ^k‖_lip ≤ (1 − γ)(‖Δ^{k−1}‖_lip + L), hence ≤ (1 − γ)L/γ."
    ),
    hypotheses=[GAMMA_LE_1],
    example=_LIP_EXAMPLE,
)
register_terms(
    "ffgb.lemmae1.h-lip",
    [L / gamma],
    kind="upper",
    unit=F_UNIT / X_UNIT,
    square_loss=True,
    source=Citation("ffgb", "App. E, before Lemma E.1"),
    quantity="‖h_i^k‖_lip",
    quantity_latex=r"\Vert h_i^{k}\Vert_{\mathrm{lip}}",
    statement="The query u_i − Δ^{k−1} is L/γ-Lipschitz, and so is the oracle's output.",
    hypotheses=[GAMMA_LE_1],
    example=_LIP_EXAMPLE,
)
_f0_lip_hyp = Hypothesis(sp.Le(f0_lip, L / gamma), "the induction starts from ‖f⁰‖_lip ≤ L/γ")
_G_LIP = (
    "‖g^{k+1}‖_lip ≤ (1 − η)‖g^k‖_lip + ηL/γ keeps FFGB.L's iterates in the feasible set "
    "{‖f‖_lip ≤ L/γ} of (14) — if η ≤ 1, the 'sufficiently small η' of App. E."
)
register_terms(
    "ffgb.lemmae1.g-lip",
    [L / gamma],
    kind="upper",
    unit=F_UNIT / X_UNIT,
    square_loss=True,
    source=Citation("ffgb", "App. E, before Lemma E.1, with Theorem 3.3's steps 4/(μ(tK + k + 1))"),
    quantity="‖g_i^{k,t}‖_lip",
    quantity_latex=r"\Vert g_i^{k,t}\Vert_{\mathrm{lip}}",
    statement=(
        _G_LIP + " Theorem 3.3's η = 4/(tK + k + 1) (μ = 1) is 2 and 4/3 at the first two "
        "steps: extrapolation, and the bound fails (guide D2: Lip(f¹) = 2L at K = 1, γ = 1)."
    ),
    hypotheses=[GAMMA_LE_1, _f0_lip_hyp],
    example={**_LIP_EXAMPLE, "f0_lip": 1},
)
register_terms(
    "ffgb.lemmae1.g-lip.corrected",
    [L / gamma],
    kind="upper",
    unit=F_UNIT / X_UNIT,
    square_loss=True,
    status="corrected",
    source=Citation("ffgb", "App. E with η = 4/(tK + k + k0), k0 ≥ 3 (guide §2.4)"),
    quantity="‖g_i^{k,t}‖_lip",
    quantity_latex=r"\Vert g_i^{k,t}\Vert_{\mathrm{lip}}",
    statement=_G_LIP + " With k0 ≥ 3 every η ≤ 1: each iterate is a convex combination.",
    hypotheses=[GAMMA_LE_1, _f0_lip_hyp, K0_GE_3],
    example={**_LIP_EXAMPLE, "f0_lip": 1, "k0": 3},
)
register_terms(
    "ffgb.lemmae2",
    [B / gamma],
    kind="upper",
    unit=F_UNIT,
    square_loss=True,
    source=Citation("ffgb", "Lemma E.2, eq. (44)"),
    quantity="‖g_i^{k,t}‖_{α_i,∞}",
    quantity_latex=r"\Vert g_i^{k,t}\Vert_{\alpha_i,\infty}",
    statement=(
        "As printed: FFGB.L's local iterates are ≤ B/γ on supp α_i. The induction's base "
        "‖f^t‖_{α_i,∞} ≤ B/γ is wrong: f^t averages the other clients' functions, bounded on "
        "supp α_i only by (LD + B)/γ (guide §3.2)."
    ),
    hypotheses=[GAMMA_LE_1],
    meanings={"B": FFGBL_LABEL_B},
    example=_SUP_EXAMPLE,
)
register_terms(
    "ffgb.lemmae2.corrected",
    [(L * D + B) / gamma],
    kind="upper",
    unit=F_UNIT,
    square_loss=True,
    status="corrected",
    source=Citation("ffgb", "Lemmas E.2–E.3 corrected (guide §3.2), steps with k0 ≥ 3"),
    quantity="‖g_i^{k,t}‖_{α,∞}",
    quantity_latex=r"\Vert g_i^{k,t}\Vert_{\alpha,\infty}",
    statement=(
        "Every oracle output h_j is ≤ B/γ on supp α_j and L/γ-Lipschitz, hence ≤ (LD + B)/γ on "
        "supp α (Assumption 3.3); with η ≤ 1 each iterate is a convex combination of f⁰ and such "
        "outputs, so it is ≤ (LD + B)/γ on supp α (Lemma E.3's bound) and on every supp α_i."
    ),
    hypotheses=[
        GAMMA_LE_1,
        K0_GE_3,
        Hypothesis(sp.Le(f0_sup, (L * D + B) / gamma), "start inside: ‖f⁰‖_{α,∞} ≤ (LD + B)/γ"),
    ],
    meanings={"B": FFGBL_LABEL_B, "f0_sup": "‖f⁰‖_{α,∞}, the sup of |f⁰| on supp α"},
    example={"L": 2, "D": 0.1, "B": 1, "gamma": 0.5, "k0": 3, "f0_sup": 1},
)
_G_S2 = 2 * L**2 * W2sq_s + 2 * B**2
_E4 = (
    "Transporting α_s onto α_i (W2 plan) and the L/γ-Lipschitz continuity bound the average "
    "iterate on client s's points: G_s² = (2L²/N)Σ_i W2²(α_s, α_i) + 2B², independent of D."
)
register_terms(
    "ffgb.lemmae4",
    [_G_S2 / gamma**2],
    kind="upper",
    unit=F_UNIT,
    square_loss=True,
    source=Citation("ffgb", "Lemma E.4"),
    quantity="‖ḡ^{k,t}‖_{α_s}",
    quantity_latex=r"\Vert\bar g^{k,t}\Vert_{\alpha_s}",
    statement=(
        _E4 + " As printed the norm is not squared: a norm (unit F) bounded by a squared norm "
        "(F²) — the dimensional audit (D4) flags it."
    ),
    hypotheses=[GAMMA_LE_1],
    meanings={"B": FFGBL_LABEL_B},
    example={"L": 2, "W2sq_s": 0.05, "B": 1, "gamma": 0.5},
)
register_terms(
    "ffgb.lemmae4.corrected",
    [_G_S2 / gamma**2],
    kind="upper",
    unit=F_UNIT**2,
    square_loss=True,
    status="corrected",
    source=Citation("ffgb", "Lemma E.4, (46)–(47) with the squared norm; steps with k0 ≥ 3"),
    quantity="‖ḡ^{k,t}‖²_{α_s} (also ‖h̄^{k,t}‖²_{α_s})",
    quantity_latex=r"\Vert\bar g^{k,t}\Vert_{\alpha_s}^{2}",
    statement=(
        _E4 + " The statement needs the squared norm (the proof bounds ‖·‖²), η ≤ 1 (iterates "
        "are convex combinations of f⁰ = 0 and oracle outputs) and f⁰ inside the bound."
    ),
    hypotheses=[GAMMA_LE_1, K0_GE_3],
    meanings={"B": FFGBL_LABEL_B},
    example={"L": 2, "W2sq_s": 0.05, "B": 1, "gamma": 0.5, "k0": 3},
)
register_terms(
    "ffgb.lemmae4.global",
    [G2_FFGBL / gamma**2],
    kind="upper",
    unit=F_UNIT**2,
    square_loss=True,
    status="corrected",
    source=Citation("ffgb", "Lemma E.4, last sentence (G-bounded → G/γ-bounded)"),
    quantity="‖ḡ^{k,t}‖²_α",
    quantity_latex=r"\Vert\bar g^{k,t}\Vert_{\alpha}^{2}",
    statement=(
        "Averaging Lemma E.4 over s (α = (1/N)Σ_s α_s): ‖ḡ‖²_α ≤ G²/γ² with FFGB.L's G² = "
        "(2L²/N²)Σ_{i,s}W2²(α_s, α_i) + 2B² (printed: 'G-bounded')."
    ),
    hypotheses=[GAMMA_LE_1, K0_GE_3],
    meanings={"B": FFGBL_LABEL_B},
    example={"L": 2, "W2sq": 0.05, "B": 1, "gamma": 0.5, "k0": 3},
)
