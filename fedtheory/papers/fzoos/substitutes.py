"""Offline substitutes of the attack and metric experiments (reading guide §4.4, §4.5, §4.7).

Both are problems on the core protocol over the paper's box [0, 1]^d, with N clients whose
local functions come from numpy-trained softmax models (:mod:`~fedtheory.papers.fzoos.datasets`):

- :class:`BlackBoxAttack` (Sec. 6.2, App. E.2; CIFAR-10/MNIST CNNs replaced by softmax models
  on synthetic 8 × 8 class templates, d = 64): f_i(x) is client i's margin (true logit − highest
  other logit) at the target image z + δ(x), δ(x) = ε∞(2x − 1) ∈ [−ε∞, ε∞]^d (x = 1/2 is the
  unperturbed image); the attack succeeds when the *averaged* logits of the N models
  misclassify z + δ(x). :func:`attack_substitute` builds the N = 10 models and 15 targets.
- :class:`MetricOptimisation` (Sec. 6.3, App. E.3; the Covertype MLP replaced by softmax
  regression on a 7-class Gaussian mixture with 54 features, d = 7·54 + 7 = 385):
  f_i(x) = 1 − macro precision / recall / F1 / Jaccard of θ* + s(2x − 1) on client i's data
  (x = 1/2 is θ*). f_i is piecewise constant: ``exact_gradients`` is False.
  :func:`metric_substitute` trains θ* and builds the N = 7 client sets.

Deviation from the paper, stated: with P × 10 classes per client literally, a target is
correctly classified by all 10 models only if every client saw its class, which almost never
happens for P < 1; so each client also holds a small ``minority`` share of every other class
(``minority=0`` is the literal construction, which then raises when fewer than the requested
targets qualify). At P = 1 all clients hold the same data and their models are identical, as in
the paper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_int, check_real
from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError
from fedtheory.papers.fzoos._substitute_views import (
    F1,
    JACCARD,
    PRECISION,
    RECALL,
    AttackView,
    MetricView,
)
from fedtheory.papers.fzoos.datasets import (
    SoftmaxModel,
    class_subsets,
    class_templates,
    gaussian_mixture,
    template_images,
    train_softmax,
)
from fedtheory.papers.fzoos.problems import ZerothOrderProblem

__all__ = [
    "METRICS",
    "AttackSubstitute",
    "BlackBoxAttack",
    "MetricOptimisation",
    "attack_substitute",
    "metric_substitute",
]

Metric = Literal["precision", "recall", "f1", "jaccard"]
#: The metric names and their kernel codes.
METRICS: dict[str, int] = {"precision": PRECISION, "recall": RECALL, "f1": F1, "jaccard": JACCARD}


# ============================================================================== attack


class BlackBoxAttack(ZerothOrderProblem):
    """The federated black-box attack on one target image (module docstring).

    Parameters
    ----------
    models
        The N client models (each :class:`~fedtheory.papers.fzoos.datasets.SoftmaxModel` with
        K classes and p = d features).
    image
        The target z, shape (p,).
    label
        Its true class y ∈ [0, K).
    epsilon
        ε∞ > 0, the perturbation radius of δ(x) = ε∞(2x − 1).

    Notes
    -----
    f_i is concave and piecewise linear (a linear true logit minus a maximum of linear
    logits): gradients are exact almost everywhere (``exact_gradients`` True), F has no finite
    smoothness constant (``constants()["smoothness"]`` is inf), and min F over the box sits at
    a vertex, which is not computed (``optimum_value`` raises).
    """

    box = True

    def __init__(
        self, models: list[SoftmaxModel], image: Any, label: int, *, epsilon: float
    ) -> None:
        if len(models) < 1:
            raise ParameterError(parameter="models", value=0, rule="must hold at least one model")
        weights = np.stack([np.asarray(m.weights, dtype=np.float64) for m in models])
        bias = np.stack([np.asarray(m.bias, dtype=np.float64) for m in models])
        N, K, p = weights.shape
        z = np.asarray(image, dtype=np.float64)
        if z.shape != (p,) or bias.shape != (N, K):
            raise ParameterError(
                parameter="image", value=f"shape {z.shape}", rule=f"must be ({p},)"
            )
        y = check_int("label", label, minimum=0)
        if y >= K:
            raise ParameterError(parameter="label", value=y, rule=f"must be below K = {K}")
        self.epsilon = check_real("epsilon", epsilon, positive=True)
        self._N, self._d = N, p
        self._view = AttackView(
            kernel_array(weights), kernel_array(bias), kernel_array(z), y, self.epsilon
        )

    @property
    def start(self) -> np.ndarray:
        """x = 1/2: the unperturbed image."""
        return np.full(self._d, 0.5)

    def perturbation(self, x: Any) -> np.ndarray:
        """δ(x) = ε∞(2x − 1)."""
        return np.asarray(self.epsilon * (2.0 * self._point(x) - 1.0))

    def averaged_logits(self, x: Any) -> np.ndarray:
        """(1/N) Σ_i (W_i(z + δ(x)) + b_i), shape (K,)."""
        image = self._view.image + self.perturbation(x)
        W = self._view.weights.mean(axis=0)
        return np.asarray(W @ image + self._view.bias.mean(axis=0))

    def success(self, x: Any) -> bool:
        """Whether the averaged logits misclassify z + δ(x) (App. E.2)."""
        return bool(int(np.argmax(self.averaged_logits(x))) != self._view.label)

    def required_epsilon(self) -> float:
        """The smallest ε∞ at which some perturbation succeeds, exact.

        The averaged margin against class c is linear in δ, m_c(z) + (w̄_y − w̄_c)ᵀδ; its minimum
        over ‖δ‖∞ ≤ ε is m_c(z) − ε‖w̄_y − w̄_c‖₁, so ε_c = m_c(z)/‖w̄_y − w̄_c‖₁ and the answer
        is min_c ε_c (a margin ≤ 0 gives 0).
        """
        W = self._view.weights.mean(axis=0)
        b = self._view.bias.mean(axis=0)
        y = self._view.label
        logits = W @ self._view.image + b
        out = math.inf
        for c in range(W.shape[0]):
            if c != y:
                norm = float(np.abs(W[y] - W[c]).sum())
                gap = max(float(logits[y] - logits[c]), 0.0)
                out = min(out, gap / norm if norm > 0 else (0.0 if gap == 0 else math.inf))
        return out

    def constants(self) -> dict[str, float]:
        """``smoothness`` inf (piecewise linear), ``strong_convexity`` 0 (F is concave) and
        ``lipschitz`` = max_i max_{c≠y} 2ε∞‖W_i[y] − W_i[c]‖₂ (exact Lipschitz constant of
        every f_i on the box)."""
        W = self._view.weights
        y = self._view.label
        diffs = np.linalg.norm(W[:, y : y + 1, :] - W, axis=2)
        return {
            "smoothness": math.inf,
            "strong_convexity": 0.0,
            "lipschitz": 2.0 * self.epsilon * float(diffs.max()),
        }


@dataclass(frozen=True)
class AttackSubstitute:
    """The N client models and the targets of the substitute attack (:func:`attack_substitute`).

    Attributes
    ----------
    models
        The N client models.
    classes
        The classes each client was trained on (beside the minority share).
    images, labels
        The targets, (targets, p) and (targets,): test images correctly classified by every model.
    epsilon
        ε∞ of the problems.
    """

    models: tuple[SoftmaxModel, ...]
    classes: tuple[np.ndarray, ...]
    images: np.ndarray
    labels: np.ndarray
    epsilon: float

    def problem(self, target: int) -> BlackBoxAttack:
        """The attack on target ``target``."""
        k = check_int("target", target, minimum=0)
        if k >= self.labels.shape[0]:
            raise ParameterError(
                parameter="target", value=k, rule=f"must be below {self.labels.shape[0]}"
            )
        return BlackBoxAttack(
            list(self.models), self.images[k], int(self.labels[k]), epsilon=self.epsilon
        )

    def success_rate(self, points: Any) -> float:
        """The fraction of targets whose point (one row per target, in [0, 1]^d) succeeds."""
        X = np.asarray(points, dtype=np.float64)
        if X.shape != self.images.shape:
            raise ParameterError(
                parameter="points", value=f"shape {X.shape}", rule=f"must be {self.images.shape}"
            )
        return float(np.mean([self.problem(k).success(X[k]) for k in range(X.shape[0])]))


def attack_substitute(
    P: float = 0.5,
    *,
    clients: int = 10,
    targets: int = 15,
    side: int = 8,
    per_class: int = 60,
    noise: float = 0.5,
    minority: float = 0.1,
    epsilon: float = 0.5,
    steps: int = 300,
    seed: Seed = 0,
) -> AttackSubstitute:
    """Train the client models of the substitute attack and pick the targets (guide §4.7).

    Data: 10 class templates on a ``side`` × ``side`` grid (:func:`~fedtheory.papers.fzoos.
    datasets.class_templates`), ``per_class`` noisy training images and as many test images
    per class (pixel noise ``noise``). Client i trains a softmax model (full-batch GD,
    ``steps`` steps, ridge 10⁻³) on the images of its ``max(1, round(10P))`` sampled classes
    plus a ``minority`` fraction of every other class (module docstring). The targets are the
    first ``targets`` test images, in a seeded random order, that every model classifies
    correctly. Draw order: templates, training images, test images, class subsets, minority
    samples, target order.

    Raises
    ------
    ParameterError
        If P ∉ [0, 1], minority ∉ [0, 1], ε∞ ≤ 0, a count is below 1, or fewer than ``targets``
        test images are classified correctly by all the models (raise P or ``minority``).
    """
    N = check_int("clients", clients, minimum=1)
    n_targets = check_int("targets", targets, minimum=1)
    share = check_real("minority", minority, nonnegative=True)
    if share > 1.0:
        raise ParameterError(parameter="minority", value=share, rule="must lie in [0, 1]")
    eps = check_real("epsilon", epsilon, positive=True)
    rng = generator(seed)
    templates = class_templates(rng, 10, side)
    X, y = template_images(rng, templates, per_class, noise)
    X_test, y_test = template_images(rng, templates, per_class, noise)
    subsets = class_subsets(rng, N, 10, P)
    models = []
    for subset in subsets:
        own = np.isin(y, subset)
        extra = ~own & (rng.uniform(size=y.shape[0]) < share)
        rows = own | extra
        models.append(train_softmax(X[rows], y[rows], 10, steps=steps, learning_rate=0.5))
    correct = np.all([m.predict(X_test) == y_test for m in models], axis=0)
    order = rng.permutation(y_test.shape[0])
    chosen = order[correct[order]][:n_targets]
    if chosen.shape[0] < n_targets:
        raise ParameterError(
            parameter="P",
            value=P,
            rule=f"only {chosen.shape[0]} test images are classified correctly by all "
            f"{N} models (need {n_targets}); raise P or minority",
        )
    return AttackSubstitute(
        models=tuple(models),
        classes=tuple(readonly(s, None) for s in subsets),
        images=readonly(X_test[chosen]),
        labels=readonly(y_test[chosen], np.int64),
        epsilon=eps,
    )


# ============================================================================== metric


class MetricOptimisation(ZerothOrderProblem):
    """1 − a macro metric of perturbed softmax parameters on each client's data (module docstring).

    Parameters
    ----------
    model
        θ*, a :class:`~fedtheory.papers.fzoos.datasets.SoftmaxModel` (K classes, p features).
    features, labels
        One (n_i, p) array and one (n_i,) integer array per client.
    metric
        ``"precision"``, ``"recall"``, ``"f1"`` or ``"jaccard"`` (macro averages).
    scale
        s > 0 of θ = θ* + s(2x − 1).

    Notes
    -----
    f_i is piecewise constant: ``exact_gradients`` is False, ``client_gradient`` returns the
    almost-everywhere gradient 0, ``smoothness`` is reported as 0 (the a.e. Hessian) although
    f_i is discontinuous, and no optimum is available.
    """

    box = True
    exact_gradients = False

    def __init__(
        self,
        model: SoftmaxModel,
        features: Any,
        labels: Any,
        *,
        metric: Metric = "precision",
        scale: float = 0.5,
    ) -> None:
        W = np.asarray(model.weights, dtype=np.float64)
        b = np.asarray(model.bias, dtype=np.float64)
        K, p = W.shape
        if metric not in METRICS:
            raise ParameterError(
                parameter="metric", value=metric, rule=f"must be one of {sorted(METRICS)}"
            )
        if len(features) < 1 or len(features) != len(labels):
            raise ParameterError(
                parameter="features", value=len(features), rule="must be one array per client"
            )
        Z = [np.asarray(f, dtype=np.float64) for f in features]
        Y = [np.asarray(v) for v in labels]
        for i, (z, v) in enumerate(zip(Z, Y, strict=True)):
            if z.ndim != 2 or z.shape[1] != p or z.shape[0] < 1 or v.shape != (z.shape[0],):
                raise ParameterError(
                    parameter="features",
                    value=f"client {i}: shape {z.shape}",
                    rule=f"must be (n_i ≥ 1, {p})",
                )
            if v.min() < 0 or v.max() >= K:
                raise ParameterError(
                    parameter="labels", value=f"client {i}", rule=f"must lie in [0, {K})"
                )
        self.metric = metric
        self.scale = check_real("scale", scale, positive=True)
        self.model = SoftmaxModel(readonly(W), readonly(b))
        self._N, self._d = len(Z), K * p + K
        offsets = np.concatenate([[0], np.cumsum([z.shape[0] for z in Z])]).astype(np.int64)
        self._view = MetricView(
            kernel_array(W), kernel_array(b), kernel_array(np.concatenate(Z)),
            kernel_array(np.concatenate(Y), np.int64), offsets, self.scale, METRICS[metric],
        )  # fmt: skip

    @property
    def start(self) -> np.ndarray:
        """x = 1/2: θ = θ*."""
        return np.full(self._d, 0.5)

    def parameters(self, x: Any) -> SoftmaxModel:
        """θ* + s(2x − 1) as a model."""
        theta = self.model.flat + self.scale * (2.0 * self._point(x) - 1.0)
        K, p = self.model.weights.shape
        return SoftmaxModel(theta[: K * p].reshape(K, p), theta[K * p :])

    def constants(self) -> dict[str, float]:
        """``smoothness`` 0 and ``strong_convexity`` 0 (piecewise constant; see Notes)."""
        return {"smoothness": 0.0, "strong_convexity": 0.0}


def metric_substitute(
    P: float = 0.5,
    *,
    metric: Metric = "precision",
    clients: int = 7,
    train_per_class: int = 300,
    test_per_class: int = 60,
    separation: float = 1.0,
    scale: float = 0.5,
    steps: int = 500,
    seed: Seed = 0,
) -> MetricOptimisation:
    """θ* and the client sets of the substitute metric experiment (guide §4.7).

    A 7-class Gaussian mixture with 54 features (:func:`~fedtheory.papers.fzoos.datasets.
    gaussian_mixture`): ``train_per_class`` points per class train θ* (softmax regression,
    full-batch GD, ``steps`` steps, ridge 10⁻³), and a held-out split of ``test_per_class``
    points per class is shared out: client i holds every held-out point of its
    ``max(1, round(7P))`` sampled classes (App. E.3: each client samples P × 7 classes; the
    paper's P direction is contradictory, guide A13: here a larger P means *less*
    heterogeneity, as in the attack). Draw order: training mixture, held-out mixture (the same
    means: one call), class subsets.

    Raises
    ------
    ParameterError
        If P ∉ [0, 1], the metric is unknown or a setting is out of range.
    """
    N = check_int("clients", clients, minimum=1)
    n_train = check_int("train_per_class", train_per_class, minimum=1)
    n_test = check_int("test_per_class", test_per_class, minimum=1)
    rng = generator(seed)
    X, y = gaussian_mixture(rng, n_train + n_test, classes=7, features=54, separation=separation)
    K = 7
    block = np.arange(y.shape[0]) % (n_train + n_test) < n_train
    model = train_softmax(X[block], y[block], K, steps=steps, learning_rate=0.5)
    X_test, y_test = X[~block], y[~block]
    subsets = class_subsets(rng, N, K, P)
    features = [X_test[np.isin(y_test, s)] for s in subsets]
    labels = [y_test[np.isin(y_test, s)] for s in subsets]
    return MetricOptimisation(model, features, labels, metric=metric, scale=scale)
