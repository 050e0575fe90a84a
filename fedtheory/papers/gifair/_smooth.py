"""Damped Newton for GIFAIR's smooth baselines, TERM and q-FFL (guide §2.5), used by
:mod:`fedtheory.papers.gifair.exact`.

Each objective is f(θ) = φ(F_1(θ), …, F_K(θ)) with φ smooth and convex, non-decreasing in every
F_k; so ∇f = Σ_k (∂φ/∂F_k)∇F_k and ∇²f = Σ_k (∂φ/∂F_k)∇²F_k + Jᵀ∇²φ J (J the client
gradients), both from the problem's oracles (``client_values``, ``client_gradients``,
``weighted_hessian``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from fedtheory.errors import SolverError


class Solution(NamedTuple):
    """θ*, f(θ*), F_k(θ*), ‖∇f(θ*)‖ and the number of Newton steps."""

    theta: np.ndarray
    value: float
    client_losses: np.ndarray
    gradient_norm: float
    steps: int


#: Newton's stopping rule: ‖∇f‖ ≤ NEWTON_TOL · scale (scale defined per objective, ≥ 1).
NEWTON_TOL = 1e-10
NEWTON_STEPS = 200


class Smooth:
    """A smooth convex baseline objective f(θ) = φ(F(θ)): value, gradient, Hessian, scale."""

    def __init__(self, problem: Any) -> None:
        self.problem = problem

    def value(self, F: np.ndarray) -> float:
        raise NotImplementedError

    def weights(self, F: np.ndarray) -> np.ndarray:
        """∂φ/∂F_k, so that ∇f = Σ_k weights_k ∇F_k."""
        raise NotImplementedError

    def curvature(self, F: np.ndarray, J: np.ndarray) -> np.ndarray:
        """Jᵀ ∇²φ J, the Gauss–Newton part of the Hessian."""
        raise NotImplementedError


class Tilted(Smooth):
    """TERM, f = (1/t) log Σ_k p_k e^{t F_k}: ∂φ/∂F = w = softmax(tF + log p) and
    ∇²φ = t(diag w − w wᵀ), computed with the maximum subtracted (stable for any t).
    """

    def __init__(self, problem: Any, t: float) -> None:
        super().__init__(problem)
        self.t = t
        p = self.p = problem.groups.p
        with np.errstate(divide="ignore"):
            self.log_p = np.where(p > 0, np.log(np.where(p > 0, p, 1.0)), -np.inf)

    def _shifted(self, F: np.ndarray) -> tuple[float, np.ndarray]:
        z = self.t * F + self.log_p
        top = float(z.max())
        return top, np.exp(z - top)

    def value(self, F: np.ndarray) -> float:
        """Around the mean F̄ = Σ p F: F̄ + log1p(Σ p expm1(t(F − F̄)))/t while t(F − F̄) ≤ 50
        (accurate as t → 0, where log Σ p e^{tF} = O(t) would lose digits to the /t), else with
        the maximum subtracted (no overflow for large t).
        """
        mean = float(self.p @ F)
        if self.t * float((F - mean).max()) <= 50.0:
            return mean + float(np.log1p(self.p @ np.expm1(self.t * (F - mean)))) / self.t
        top, e = self._shifted(F)
        return (top + float(np.log(e.sum()))) / self.t

    def weights(self, F: np.ndarray) -> np.ndarray:
        _, e = self._shifted(F)
        return np.asarray(e / e.sum())

    def curvature(self, F: np.ndarray, J: np.ndarray) -> np.ndarray:
        w = self.weights(F)
        mean = w @ J
        centred = J - mean[None, :]
        return np.asarray(self.t * (centred.T * w) @ centred)


class Power(Smooth):
    """q-FFL, f = Σ_k p_k F_k^{q+1}/(q+1): ∂φ/∂F_k = p_k F_k^q and ∇²φ = diag(q p_k F_k^{q−1}).

    F_k^{q−1} ∇F_k∇F_kᵀ is taken as 0 where F_k = 0 (for q < 1 it is O(F_k^q) → 0 there,
    since ‖∇F_k‖² ≤ 2LF_k for a smooth F_k ≥ 0 with minimum 0).
    """

    def __init__(self, problem: Any, q: float) -> None:
        super().__init__(problem)
        self.q = q
        self.p = problem.groups.p

    def value(self, F: np.ndarray) -> float:
        return float(self.p @ F ** (self.q + 1)) / (self.q + 1)

    def weights(self, F: np.ndarray) -> np.ndarray:
        return np.asarray(self.p * F**self.q)

    def curvature(self, F: np.ndarray, J: np.ndarray) -> np.ndarray:
        if self.q == 0:
            return np.zeros((J.shape[1], J.shape[1]))
        positive = F > 0
        coef = np.zeros_like(F)
        coef[positive] = self.q * self.p[positive] * F[positive] ** (self.q - 1)
        return np.asarray((J.T * coef) @ J)


def newton(objective: Smooth, what: str) -> Solution:
    """Damped Newton with Armijo backtracking from FedAvg's optimum, to ‖∇f‖ ≤ 1e-10·scale.

    scale = max(1, max_k |∂φ/∂F_k|·‖∇F_k(θ)‖), the size of the largest term of
    ∇f = Σ_k (∂φ/∂F_k)∇F_k: rounding in that sum is relative to it, not to ‖∇f‖.
    When the Armijo decrease is below the objective's rounding (near the optimum), a step is
    accepted if it does not raise f beyond rounding and it reduces ‖∇f‖.

    Raises
    ------
    SolverError
        Naming ``"newton"`` and the achieved gradient norm, after 200 steps or when no step
        size down to 1e-12 makes progress.
    """
    problem = objective.problem
    theta = np.asarray(problem.global_optimum(), dtype=np.float64)

    def state(point: np.ndarray) -> tuple[np.ndarray, float, np.ndarray, np.ndarray, float]:
        F = problem.client_values(point)
        J = problem.client_gradients(point)
        w = objective.weights(F)
        scale = max(1.0, float((np.abs(w) * np.linalg.norm(J, axis=1)).max()))
        return F, objective.value(F), w, np.asarray(w @ J), scale

    F, value, w, grad, scale = state(theta)
    norm = float(np.linalg.norm(grad))
    for step_count in range(NEWTON_STEPS + 1):
        if norm <= NEWTON_TOL * scale:
            return Solution(theta, value, F, norm, step_count)
        if step_count == NEWTON_STEPS:
            break
        J = problem.client_gradients(theta)
        hessian = problem.weighted_hessian(theta, w) + objective.curvature(F, J)
        try:
            direction = np.linalg.solve(hessian, grad)
        except np.linalg.LinAlgError:
            direction = np.linalg.lstsq(hessian, grad, rcond=None)[0]
        decrement = float(grad @ direction)
        if not np.isfinite(decrement) or decrement <= 0:
            direction, decrement = grad, float(grad @ grad)  # Hessian not PD: steepest descent
        size = 1.0
        rounding = 8 * np.finfo(float).eps * max(1.0, abs(value))
        while size >= 1e-12:
            trial = theta - size * direction
            new = state(trial)
            new_norm = float(np.linalg.norm(new[3]))
            if new[1] <= value - 1e-4 * size * decrement or (
                new[1] <= value + rounding and new_norm < norm
            ):
                break
            size *= 0.5
        else:
            break
        theta = trial
        F, value, w, grad, scale = new
        norm = new_norm
    raise SolverError(
        "newton",
        f"gradient norm {norm:.3g} > {NEWTON_TOL:g}·{scale:.3g}",
        hint=f"{what}: damped Newton did not reach the tolerance",
    )
