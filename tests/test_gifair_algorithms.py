"""GIFAIR-FL on the core round loop: the kernel views of the gifair problems (guide §1, §4).

Theory asserted:
- the per-sample losses and gradients of the grouped quadratics (½(θ−c)ᵀA(θ−c) + b + zᵀ(θ−c),
  gradient A(θ−c) + z) and of ridge logistic/softmax regression equal their numpy twins;
- a uniformly drawn noise row is unbiased: the mean of the sample gradients is ∇F_k, and the
  client loss is F_k;
- every fast minibatch step equals the generic one written with per-sample gradients.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from reference import gifair as twin

from fedtheory.errors import ParameterError
from fedtheory.papers.gifair._samples import kernel_view
from fedtheory.problems._oracle import (
    _minibatch_step_by_samples,
    client_loss,
    client_samples,
    minibatch_step,
    sample_count,
    sample_gradient,
    sample_loss,
)

# ------------------------------------------------ stand-ins for fedtheory.papers.gifair.problems
# (branch gifair-exact writes the real classes; the kernel views read exactly these attributes)


@dataclass(frozen=True)
class GroupStructure:
    labels: np.ndarray
    weights: np.ndarray


@dataclass(frozen=True)
class GroupedQuadratics:
    groups: GroupStructure
    curvature: np.ndarray
    centres: np.ndarray
    offsets: np.ndarray
    noise: np.ndarray


@dataclass(frozen=True)
class GroupedClassification:
    groups: GroupStructure
    loss: str
    features: np.ndarray
    labels: np.ndarray
    counts: np.ndarray
    classes: int
    ridge: float


def quadratics(
    labels: tuple[int, ...] = (0, 0, 1, 1, 2, 2),
    n: int = 3,
    rows: int = 8,
    noise: float = 1.0,
    seed: int = 0,
) -> GroupedQuadratics:
    rng = np.random.default_rng(seed)
    K = len(labels)
    Q = np.linalg.qr(rng.standard_normal((K, n, n)))[0]
    eig = rng.uniform(1.0, 4.0, (K, n))
    curvature = np.einsum("kab,kb,kcb->kac", Q, eig, Q)
    centres = 3.0 * np.eye(n)[np.array(labels) % n] + 0.5 * rng.standard_normal((K, n))
    Z = noise * rng.standard_normal((K, rows, n))
    Z -= Z.mean(axis=1, keepdims=True)
    counts = rng.integers(20, 100, K)
    groups = GroupStructure(np.array(labels), counts / counts.sum())
    return GroupedQuadratics(groups, curvature, centres, rng.uniform(0, 1, K), Z)


def classification(
    loss: str = "logistic",
    labels: tuple[int, ...] = (0, 0, 0, 1, 1, 2),
    counts: tuple[int, ...] = (9, 7, 12, 8, 10, 6),
    p: int = 3,
    classes: int = 3,
    ridge: float = 0.1,
    seed: int = 0,
) -> GroupedClassification:
    rng = np.random.default_rng(seed)
    K, n_max = len(labels), max(counts)
    X = rng.standard_normal((K, n_max, p)) + np.array(labels)[:, None, None] * 0.3
    if loss == "logistic":
        y = np.where(rng.random((K, n_max)) < 0.5, 1.0, -1.0)
        classes = 2
    else:
        y = rng.integers(0, classes, (K, n_max)).astype(float)
    size = np.array(counts)
    groups = GroupStructure(np.array(labels), size / size.sum())
    return GroupedClassification(groups, loss, X, y, size, classes, ridge)


def _dimension(problem: object) -> int:
    if isinstance(problem, GroupedQuadratics):
        return problem.centres.shape[1]
    assert isinstance(problem, GroupedClassification)
    p = problem.features.shape[2]
    return p if problem.loss == "logistic" else problem.classes * p


PROBLEMS = {
    "quadratics": lambda: quadratics(),
    "logistic": lambda: classification("logistic"),
    "softmax": lambda: classification("softmax"),
    "logistic-no-ridge": lambda: classification("logistic", ridge=0.0),
}


# ---------------------------------------------------------------------------- kernel views


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_view_losses_and_gradients_match_the_twins(name: str) -> None:
    problem = PROBLEMS[name]()
    view = kernel_view(problem)
    d = _dimension(problem)
    rng = np.random.default_rng(1)
    out = np.empty(d)
    for k in range(len(problem.groups.labels)):
        w = 2.0 * rng.standard_normal(d)
        samples = client_samples(view, 0, k)
        n = sample_count(samples)
        if isinstance(problem, GroupedQuadratics):
            Z = problem.noise[k]
            A, c, b = problem.curvature[k], problem.centres[k], problem.offsets[k]
            losses = twin.quadratic_losses(A, c, b, Z, w)
            gradients = twin.quadratic_gradients(A, c, Z, w)
            exact = 0.5 * (w - c) @ A @ (w - c) + b
            assert n == Z.shape[0]
            # the rows are centred: the sample mean is F_k and ∇F_k exactly (up to rounding)
            np.testing.assert_allclose(gradients.mean(axis=0), A @ (w - c), rtol=1e-12, atol=1e-12)
        else:
            nk = int(problem.counts[k])
            X, y = problem.features[k, :nk], problem.labels[k, :nk]
            args = (problem.loss, X, y, problem.classes, problem.ridge, w)
            losses = twin.classification_losses(*args)
            gradients = twin.classification_gradients(*args)
            exact = float(losses.mean())
            assert n == nk
        for j in range(n):
            assert sample_loss(samples, j, w) == pytest.approx(losses[j], rel=1e-12, abs=1e-13)
            sample_gradient(samples, j, w, out)
            np.testing.assert_allclose(out, gradients[j], rtol=1e-11, atol=1e-12)
        assert client_loss(samples, w) == pytest.approx(exact, rel=1e-12)
        assert client_loss(samples, w) == pytest.approx(losses.mean(), rel=1e-10)
    # the server (index K) has no samples
    assert sample_count(client_samples(view, 0, len(problem.groups.labels))) == 0


@pytest.mark.parametrize("lam", [0.0, 0.7])
@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_fast_minibatch_steps_equal_the_generic_step(name: str, lam: float) -> None:
    problem = PROBLEMS[name]()
    view = kernel_view(problem)
    d = _dimension(problem)
    rng = np.random.default_rng(2)
    for k in range(len(problem.groups.labels)):
        samples = client_samples(view, 0, k)
        rows = rng.permutation(sample_count(samples))[:5].astype(np.int64)
        w0, anchor = rng.standard_normal(d), rng.standard_normal(d)
        fast, slow = w0.copy(), w0.copy()
        scratch = np.empty(5)
        for _ in range(3):  # repeated: the softmax accumulator must be left at zero
            minibatch_step(samples, rows, fast, anchor, 0.3, lam, scratch)
            _minibatch_step_by_samples(samples, rows, slow, anchor, 0.3, lam, scratch)
        np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-13)
        assert not np.allclose(fast, w0)


def test_kernel_view_refuses_other_objects_and_losses() -> None:
    with pytest.raises(ParameterError, match="GroupedQuadratics or a GroupedClassification"):
        kernel_view(np.zeros(3))
    bad = classification("logistic")
    bad = GroupedClassification(bad.groups, "hinge", *[getattr(bad, f) for f in
                                ("features", "labels", "counts", "classes", "ridge")])  # fmt: skip
    with pytest.raises(ParameterError, match="logistic' or 'softmax"):
        kernel_view(bad)
