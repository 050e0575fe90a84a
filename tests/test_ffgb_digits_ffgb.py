"""FFGB on the digits substitute through the public ffgb() (paper ffgb, issue 13, guide §4.2).

:meth:`DigitsFederation.population` turns the digits federation into the finite-atom population
that :func:`~fedtheory.papers.ffgb.ffgb` runs on. Checked here: its kernel view computes the
same ∇R_i[g] as :class:`~fedtheory.papers.ffgb.DigitsView` (bit for bit), and FFGB with the
tree oracle on it equals Algorithms 1–2 written in numpy on the twins of the tree and the
softmax gradient (``tests/reference/ffgb_learners.py``), iterate for iterate. Bad μ is refused.
"""

from __future__ import annotations

import numpy as np
import pytest

from fedtheory._jit import dispatch
from fedtheory.errors import ParameterError
from fedtheory.papers.ffgb import ffgb, tree_oracle
from fedtheory.papers.ffgb.digits import DIGITS_CLASSES, DigitsFederation, digits_federation
from tests.reference import ffgb_learners as ref

loss_gradient = dispatch("loss_gradient", "i", "g", "out")


@pytest.fixture(scope="module")
def federation() -> DigitsFederation:
    return digits_federation(0.3, clients=4, seed=7)


def test_population_view_equals_the_digits_view(federation: DigitsFederation) -> None:
    """AtomView (softmax, one-hot q_i, zero extension) and DigitsView agree to rounding.

    They are two kernels computing the same sums; under the package's ``fastmath`` reassociation
    LLVM may vectorise them differently (seen on fresh-clone CI runs: differences of 4·10⁻¹⁶ in 6 %
    of the entries), so bit equality is not part of the contract between different kernels —
    only for one kernel across executors and worker counts (tested elsewhere)."""
    population = federation.population(mu=0.01)
    assert population.num_clients == federation.clients
    assert population.function_shape == (federation.atoms, DIGITS_CLASSES)
    atom_view, digits_view = population.kernel_view(), federation.view()
    rng = np.random.default_rng(0)
    g = 3.0 * rng.standard_normal(federation.atoms * DIGITS_CLASSES)
    for i in range(federation.clients):
        a, b = np.empty_like(g), np.empty_like(g)
        loss_gradient(atom_view, i, g, a)
        loss_gradient(digits_view, i, g, b)
        # a few ulps of the largest entry: sums reassociated differently, with cancellation
        scale = 16 * np.finfo(float).eps * float(np.abs(b).max())
        np.testing.assert_allclose(a, b, rtol=0, atol=scale)
        off = np.repeat(federation.owners != i, DIGITS_CLASSES)
        assert np.all(a[off] == 0.0) and np.any(a[~off] != 0.0)


@pytest.mark.parametrize("residual", ["reset", "none"])
def test_ffgb_on_digits_equals_a_numpy_ffgb_with_the_tree_twin(
    federation: DigitsFederation, residual: str
) -> None:
    """Algorithm 2's clients (φ = Δ + ∇R_i[g], h = tree(φ), g ← g − η(h + μg), Δ ← φ − h, with
    Δ reset every round; ``"none"``: φ = ∇R_i[g]) and Algorithm 1's average, in numpy."""
    mu, eta0, k0, rounds, K, depth = 0.01, 0.05, 1.0, 2, 3, 3
    population = federation.population(mu=mu)
    oracle = tree_oracle(federation.features, max_depth=depth)
    run = ffgb(
        population,
        oracle,
        rounds=rounds,
        local_steps=K,
        residual=residual,
        eta0=eta0,
        k0=k0,
        record=True,
    )
    labels, alpha = federation.labels, federation.alpha
    f = np.zeros(federation.atoms * DIGITS_CLASSES)
    expected = [f.copy()]
    for t in range(rounds):
        models = []
        for i in range(federation.clients):
            g, delta = f.copy(), np.zeros_like(f)
            for k in range(1, K + 1):
                eta = eta0 / (mu * (t * K + k + k0))
                gradient = ref.softmax_loss_gradient(labels, alpha, i, g)
                phi = gradient if residual == "none" else delta + gradient
                h, _ = ref.tree_oracle(federation.features, depth, 1, phi, alpha[i])
                g = g - eta * (h.ravel() + mu * g)
                if residual != "none":
                    delta = phi - h.ravel()
            models.append(g)
        f = np.mean(models, axis=0)
        expected.append(f.copy())
    assert run.iterates is not None
    np.testing.assert_allclose(
        run.iterates.reshape(rounds + 1, -1), np.array(expected), rtol=1e-10, atol=1e-12
    )
    assert int(run.models_per_client.sum()) == rounds * federation.clients * K
    assert 0.0 < run.diagnostics.measured_gamma <= 1.0


@pytest.mark.parametrize("mu", [0.0, -1.0, float("nan"), "a"])
def test_population_refuses_a_bad_mu(federation: DigitsFederation, mu: object) -> None:
    with pytest.raises(ParameterError, match="mu"):
        federation.population(mu)  # type: ignore[arg-type]
