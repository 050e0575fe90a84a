"""FZooS's surrogates along real runs and against the theory (reading guide §5 B/C, checks 14,
17 and 19; Lemma C.4 and Theorem 1 of Shu et al.).

* **Check 19 (Lemma C.4).** A fixed history of n points, uniform in [0, 1]^d (d = 10 quick), with
  observations y = f/max|f| of a GP-sample function (so |y| ≤ 1, the lemma's hypothesis) and
  the surrogates' noise σ² = 0.01: the exact GP gradient ∇μ(x)
  (:class:`~fedtheory.papers.fzoos.gp.GaussianProcessSurrogate`) against the RFF one ∇μ̂(x) =
  ∇φ(x)ᵀw of (6) (:class:`~fedtheory.papers.fzoos.rff.RandomFourierFeatures`, one feature draw
  per replicate), averaged over ``tests`` test points x. The squared error decays like 1/M
  (the registered ``fzoos.lemmac4.squared``, slope −1 ± 0.15), the error norm never exceeds the
  explicit bound (25) (``fzoos.lemmac4``, with rT = n, V = d/l², L = e^{−1/2}/l; the
  bound/observed ratio is an output), and along nested histories (n doubling, M fixed) the
  squared error grows with n with a fitted exponent reported as ``n_exponent`` and judged
  against the bound's own log–log slope over the same n (the paper's O(n⁴ ln n)).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.papers.fzoos.gp import GaussianProcessSurrogate, se_gradient_bound, se_kappa
from fedtheory.papers.fzoos.gp_samples import GPSampleFunctions
from fedtheory.papers.fzoos.rff import RandomFourierFeatures
from fedtheory.verify import LowerBoundHolds, Measurement, RateExponent, Sweep, UpperBoundHolds

LEMMAC4 = bounds.get("fzoos.lemmac4")
LEMMAC4_SQUARED = bounds.get("fzoos.lemmac4.squared")


# ====================================================================== check 19
def _history(params: dict[str, Any], count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fixed history (count, d) with |y| ≤ 1, and the test points (tests, d)."""
    d = int(params["d"])
    rng = np.random.default_rng(int(params["history_seed"]))
    problem = GPSampleFunctions(d=d, N=1, C=0.0, features=2000, seed=int(params["history_seed"]))
    X = rng.uniform(0.0, 1.0, (count, d))
    y = np.array([problem.client_value(0, x) for x in X])
    y = y / np.max(np.abs(y))
    tests = rng.uniform(0.0, 1.0, (int(params["tests"]), d))
    return X, y, tests


def _rff_errors(
    X: np.ndarray, y: np.ndarray, tests: np.ndarray, M: int, noise: float, seed: int
) -> np.ndarray:
    """‖∇μ̂(x) − ∇μ(x)‖² at every test point for one feature draw."""
    d = X.shape[1]
    gp = GaussianProcessSurrogate(d, noise=noise, capacity=X.shape[0])
    gp.add(X, y)
    rff = RandomFourierFeatures(d, M, seed=seed)
    w = rff.weights(X, y, noise, system="samples")
    return np.array([np.sum((rff.gradient(x, w) - gp.mean_gradient(x)) ** 2) for x in tests])


def _constants(params: dict[str, Any]) -> dict[str, float]:
    """V = E‖v‖² = d/l² and L = sup‖∇_x k‖ = e^{−1/2}/l of the SE kernel (l = 1)."""
    return {"V": int(params["d"]) * se_kappa(1.0), "L": se_gradient_bound(1.0)}


def rff_surrogate_error(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Mean and max ‖∇μ̂ − ∇μ‖² over the test points for one feature draw (history fixed by
    ``history_seed``), with Lemma C.4's symbols rT = n (r = n/T)."""
    n, M, T = int(params["n"]), int(params["M"]), int(params["T"])
    X, y, tests = _history(params, n)
    errors = _rff_errors(X, y, tests, M, float(params["sigma2"]), seed)
    out = {"err2": float(errors.mean()), "err_max": float(np.sqrt(errors.max())), "r": n / T}
    out.update(_constants(params))
    bound = float(
        LEMMAC4.evaluate(
            r=n / T, T=T, sigma2=params["sigma2"], M=M, delta=params["delta"], **_constants(params)
        )
    )
    out["bound_ratio"] = bound / max(out["err_max"], 1e-300)
    return out


_C4 = {"history_seed": 7, "sigma2": 0.01, "delta": 0.1, "T": 10}
lemmac4 = Measurement(
    id="fzoos/surrogates/lemmac4",
    experiment=rff_surrogate_error,
    sweeps={
        "smoke": Sweep(
            grid={"M": [250, 1000, 4000], "n": [20]},
            fixed={**_C4, "d": 5, "tests": 8},
            replicates=8,
        ),
        "quick": Sweep(
            grid={"M": [1000, 4000, 16000], "n": [20, 160]},
            fixed={**_C4, "d": 10, "tests": 10},
            replicates=10,
        ),
    },
    notes=(
        "History: n points uniform in [0, 1]^d, y = f/max|f| for a GP-sample f (2000 features, "
        "seed `history_seed`), the same for every M and replicate; one RFF draw per replicate; "
        "the error averaged over `tests` uniform test points; σ² = 0.01, δ = 0.1, T = 10 "
        "(rT = n) (guide check 19)."
    ),
    uses=[LEMMAC4, LEMMAC4_SQUARED],
)
c4_rate = lemmac4.claim(
    id="fzoos/surrogates/lemmac4-rate-in-m",
    source=Citation("fzoos", "Lemma C.4, eq. (26)"),
    statement=(
        "For a fixed history the squared error of the RFF surrogate gradient, ‖∇μ̂ − ∇μ‖², "
        "decays like 1/M."
    ),
    criterion=RateExponent("M", "err2", expected=LEMMAC4_SQUARED, band=0.15, bound_args={"C": 1.0}),
    bound=LEMMAC4_SQUARED,
    notes="Guide check 19: slope −1.0 ± 0.15, the expected slope taken from the bound.",
)
c4_bound = lemmac4.claim(
    id="fzoos/surrogates/lemmac4-bound-holds",
    source=Citation("fzoos", "Lemma C.4, explicit form (25)"),
    statement=(
        "‖∇μ̂_{r,T}(x) − ∇μ_{r,T}(x)‖ ≤ (25) at every test point (rT = n, V = d/l², "
        "L = e^{−1/2}/l); the bound/observed ratio is the output `bound_ratio`."
    ),
    criterion=UpperBoundHolds(
        "err_max", LEMMAC4, over="every", bound_args={"sigma2": "sigma2", "delta": "delta"}
    ),
    bound=LEMMAC4,
    notes="Guide check 19 / §6.3: the bound is vacuous (expected ratio ≥ 10³).",
)


def rff_error_growth(params: dict[str, Any], seed: int) -> dict[str, float]:
    """One feature draw, nested histories n = n_min·2^k, k ≤ ``doublings`` (prefixes of one
    history): the log–log slope of the mean squared error in n and that of the squared (25)."""
    sizes = [int(params["n_min"]) * 2**k for k in range(int(params["doublings"]) + 1)]
    M, T = int(params["M"]), int(params["T"])
    X, y, tests = _history(params, max(sizes))
    errors = [
        float(_rff_errors(X[:n], y[:n], tests, M, float(params["sigma2"]), seed).mean())
        for n in sizes
    ]
    constants = _constants(params)
    squared_bound = [
        float(
            LEMMAC4.evaluate(
                r=n / T, T=T, sigma2=params["sigma2"], M=M, delta=params["delta"], **constants
            )
        )
        ** 2
        for n in sizes
    ]
    logs = np.log(sizes)
    return {
        "n_exponent": float(np.polyfit(logs, np.log(errors), 1)[0]),
        "bound_exponent": float(np.polyfit(logs, np.log(squared_bound), 1)[0]),
        "zero": 0.0,
    }


growth = Measurement(
    id="fzoos/surrogates/lemmac4-growth",
    experiment=rff_error_growth,
    sweeps={
        "smoke": Sweep(
            grid={"M": [1000]},
            fixed={**_C4, "d": 5, "tests": 8, "n_min": 10, "doublings": 2},
            replicates=4,
        ),
        "quick": Sweep(
            grid={"M": [2000]},
            fixed={**_C4, "d": 10, "tests": 10, "n_min": 20, "doublings": 4},
            replicates=10,
        ),
    },
    notes=(
        "As fzoos/surrogates/lemmac4 with nested histories (prefixes of one history of "
        "n_min·2^doublings points) and one feature draw per replicate; exponents are "
        "least-squares log–log slopes over n = n_min·2^k (guide check 19)."
    ),
    uses=[LEMMAC4],
)
growth_grows = growth.claim(
    id="fzoos/surrogates/lemmac4-error-grows-with-n",
    source=Citation("fzoos", "Lemma C.4 (the rT dependence of (25))"),
    statement="At fixed M the squared RFF error grows with the history size n = rT.",
    criterion=LowerBoundHolds("n_exponent", "zero", over="mean"),
    bound=LEMMAC4,
    notes="The fitted exponent is the output `n_exponent` (guide check 19: report it).",
)
growth_below = growth.claim(
    id="fzoos/surrogates/lemmac4-growth-below-bound",
    source=Citation("fzoos", "Lemma C.4, explicit form (25)"),
    statement=(
        "The squared RFF error grows in n no faster than the squared bound (25) does "
        "(its log–log slope over the same n, ≈ 4 for the paper's O(n⁴ ln n))."
    ),
    criterion=UpperBoundHolds("n_exponent", "bound_exponent", over="every"),
    bound=LEMMAC4,
)
