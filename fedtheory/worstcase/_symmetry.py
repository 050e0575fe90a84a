"""Client symmetry: the worst case over m ≥ 2 equally weighted clients is the one over two.

Private. A method whose clients all run the same local step, aggregated with uniform weights,
has a PEP that is invariant under permutations of the clients. Its worst case does not depend
on m ≥ 2, and the SDP of two clients is an exact reduction of the SDP of m:

- **m clients ≤ two.** The PEP is a convex problem invariant under permuting the clients, so
  it has a permutation-invariant optimal solution (average any optimal solution over the
  permutations). In a symmetric solution, every constraint involves one client's own inner
  products and function values and the averages over clients (interpolation conditions,
  heterogeneity, the server step, SCAFFOLD's mean control variate). Write client i's vectors
  as their mean plus a deviation. Then one client's inner products are M + D, where M is the
  Gram matrix of the means and D the common Gram matrix of the deviations. The full Gram
  matrix is PSD exactly when M ⪰ 0 and D ⪰ 0, for any m ≥ 2. So (M, D) is a feasible
  two-client solution with the same value.
- **m clients ≥ two.** A two-client solution lifts to m clients (:func:`lift_instance`).
  Take means μ = (c₁ + c₂)/2 and deviations δ = (c₁ − c₂)/2 of the two clients' vectors.
  Client i of m gets (μ, δ ⊗ u_i), where u_1, …, u_m are unit vectors with Σ u_i = 0
  (a regular simplex, :func:`simplex`), and the mean function values. Each client's inner
  products are the average of the two clients' inner products. The interpolation conditions
  are linear in those, so they hold, the averages are the two-client averages, and the server
  iterates and the measure are unchanged.

Measured on the full PEP (SCS; K = 2, T = 2, L = 1, μ = 0.1, η = 0.5, ζ² = 1): FedAvg
0.76008024 and SCAFFOLD 0.66342043 at m = 2, 3 and 4. ``tests/test_worstcase_symmetry.py``
compares reduced and full PEPs. The reduction turns a PEP of m·K·T client steps into one of
2·K·T. At m = 4, K·T = 20 that is about 6 s instead of two minutes, and the full solve ends
``optimal_inaccurate``.

For quadratic clients the lift is explicit (:func:`lift_quadratics`). Client i has the
Hessian that acts as [[Q̄, Δ], [Δ, Q̄]] on (mean, deviation along u_i), with Q̄ = (Q₁ + Q₂)/2
and Δ = (Q₁ − Q₂)/2, and as Q̄ on the rest; its minimiser is (ā, δa ⊗ u_i). That block is
unitarily Q₁ ⊕ Q₂, so the spectrum stays in [μ, L]. Every local iterate is (mean,
deviation ⊗ u_i) of the two-client run. So the toolkit's own round loop on the m lifted
clients reproduces the two-client counterexample's value.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from fedtheory.worstcase._result import ClientPoints, PrimalInstance, WorstCase
from fedtheory.worstcase._setting import Setting

__all__ = ["lift_instance", "lift_quadratics", "lift_result", "simplex", "symmetric_reduction"]


def symmetric_reduction(setting: Setting) -> Setting | None:
    """The two-client setting with the same worst case as ``setting``, or None.

    The reduction applies when there are more than two clients, the weights are uniform and
    the clients are distinct functions (``heterogeneity`` ``"optimum"`` or
    ``"dissimilarity"``). Every local step of the round loop is the same for every client.
    With ``"identical"`` clients the PEP already has one function.
    """
    if setting.m <= 2 or setting.heterogeneity == "identical":
        return None
    q = setting.q
    if max(q) - min(q) > 1e-15:
        return None
    return replace(setting, m=2, weights=())


def simplex(m: int) -> np.ndarray:
    """Rows u_1, …, u_m ∈ ℝ^m: unit vectors with Σ u_i = 0 (so ⟨u_i, u_j⟩ = −1/(m − 1))."""
    centred = np.eye(m) - 1.0 / m
    return np.asarray(centred * np.sqrt(m / (m - 1.0)))


def _lift_rows(first: np.ndarray, second: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Rows (μ, δ ⊗ u) of one client, from the two clients' rows (shape (n, N) each)."""
    mean = 0.5 * (first + second)
    deviation = 0.5 * (first - second)
    return np.concatenate([mean, np.kron(deviation, u[None, :])], axis=1)


def _lift_common(rows: np.ndarray, m: int) -> np.ndarray:
    """Rows of points shared by every client (server models, x*): (x, 0)."""
    return np.concatenate([rows, np.zeros((rows.shape[0], rows.shape[1] * m))], axis=1)


def lift_instance(instance: PrimalInstance, m: int) -> PrimalInstance:
    """The m-client worst-case instance of a two-client one (module docstring).

    ``instance`` is the primal instance of a two-client PEP from the one round loop. Both
    clients' triples are in the same order, because both were built by the same steps. The
    result lives in ℝ^{N(1+m)}.
    """
    first, second = instance.clients
    clients = tuple(
        ClientPoints(
            points=_lift_rows(first.points, second.points, u),
            gradients=_lift_rows(first.gradients, second.gradients, u),
            values=0.5 * (first.values + second.values),
            stationary=first.stationary & second.stationary,
        )
        for u in simplex(m)
    )
    return PrimalInstance(
        clients=clients,
        x0=_lift_common(instance.x0[None, :], m)[0],
        x_star=None if instance.x_star is None else _lift_common(instance.x_star[None, :], m)[0],
        iterates=_lift_common(instance.iterates, m),
    )


def lift_result(result: WorstCase, setting: Setting) -> WorstCase:
    """The worst case of ``setting`` (m clients) from its two-client reduction's ``result``.

    The value, the certificate and the SDP data are the two-client ones. The parameters are
    ``setting``'s, the instance is lifted to m clients, and ``solved_clients`` is 2.
    """
    assert result.instance is not None  # solve_pep always extracts it
    return replace(
        result,
        parameters=setting.parameters(),
        instance=lift_instance(result.instance, setting.m),
        solved_clients=len(result.instance.clients),
    )


def lift_quadratics(
    hessians: np.ndarray, minimisers: np.ndarray, x0: np.ndarray, m: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """m quadratic clients (and start) whose uniform average runs as the two given ones.

    Parameters
    ----------
    hessians, minimisers
        Q_1, Q_2, shape (2, d, d), and a_1, a_2, shape (2, d), of a two-client instance with
        uniform weights.
    x0
        Its start, shape (d,).
    m
        The number of clients of the lifted instance (≥ 2).

    Returns
    -------
    hessians, minimisers, x0
        Shapes (m, D, D), (m, D) and (D,) with D = d(1 + m) (module docstring).
    """
    d = hessians.shape[1]
    mean_q = 0.5 * (hessians[0] + hessians[1])
    half_gap = 0.5 * (hessians[0] - hessians[1])
    mean_a = 0.5 * (minimisers[0] + minimisers[1])
    deviation_a = 0.5 * (minimisers[0] - minimisers[1])
    lifted_q, lifted_a = [], []
    for u in simplex(m):
        along = np.kron(np.eye(d), u[:, None])  # δ ↦ δ ⊗ u, shape (d·m, d)
        Q = np.zeros((d * (1 + m), d * (1 + m)))
        Q[:d, :d] = mean_q
        Q[:d, d:] = half_gap @ along.T
        Q[d:, :d] = along @ half_gap
        Q[d:, d:] = np.kron(mean_q, np.eye(m))  # Q̄ ⊗ uuᵀ along u, Q̄ on the rest
        lifted_q.append(0.5 * (Q + Q.T))
        lifted_a.append(np.concatenate([mean_a, np.kron(deviation_a, u)]))
    start = np.concatenate([x0, np.zeros(d * m)])
    return np.array(lifted_q), np.array(lifted_a), start
