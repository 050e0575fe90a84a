"""Offline, seeded substitutes of GIFAIR-FL's experiments (guide §4, items 1–4 and 6).

Each generator returns a :class:`~fedtheory.papers.gifair.problems.GroupedClassification`
(convex: ridge-regularised logistic or softmax regression, so the exact optima of
:mod:`~fedtheory.papers.gifair.exact` apply). Train and test rows of a client are drawn from the
same client distribution; p_k = n_k/Σn (training counts).

- :func:`grouped_logistic`: guide §7's pilot (20 clients split 6/10/4, 10 features);
- :func:`grouped_synthetic`: Synthetic(α, β) of Li et al. (FedProx) with group means (item 1);
- :func:`femnist_groups_like`: FEMNIST-3-groups (Table 1: digits shared, capitals in groups 1
  and 3, lower case in groups 2 and 3; item 2);
- :func:`femnist_skewed_like`: individual fairness, 5 random classes per client (item 3);
- :func:`shakespeare_gender_like`: next-character prediction on per-client Markov chains, 25
  "male" clients with longer texts and 10 "female" (item 4, Table 6);
- :func:`digits_groups`: scikit-learn's bundled 8×8 digits, groups by label subsets (item 6;
  needs the optional ``data`` extra).

Generators that add a constant feature (an intercept) say so; it is the last column.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory._checks import check_int, check_real
from fedtheory._seeds import Seed, seed_sequence
from fedtheory.errors import MissingExtraError, ParameterError
from fedtheory.papers.gifair.groups import GroupStructure
from fedtheory.papers.gifair.problems import GroupedClassification

__all__ = [
    "DIGITS_GROUP_LABELS",
    "FEMNIST_CAPITALS",
    "FEMNIST_DIGITS",
    "FEMNIST_LOWER",
    "digits_groups",
    "femnist_groups_like",
    "femnist_skewed_like",
    "grouped_logistic",
    "grouped_synthetic",
    "shakespeare_gender_like",
]


def _sizes(group_sizes: Any, parameter: str = "group_sizes") -> np.ndarray:
    sizes = np.asarray(group_sizes)
    if sizes.ndim != 1 or sizes.size < 2 or not np.issubdtype(sizes.dtype, np.integer):
        raise ParameterError(
            parameter=parameter, value=group_sizes, rule="must list d ≥ 2 integer sizes"
        )
    if sizes.min() < 1:
        raise ParameterError(parameter=parameter, value=group_sizes, rule="sizes must be ≥ 1")
    return sizes.astype(np.int64)


def _streams(seed: Seed, count: int) -> list[np.random.Generator]:
    return [np.random.default_rng(s) for s in seed_sequence(seed).spawn(count)]


def _pad(rows: list[np.ndarray], width: int | None, dtype: Any) -> np.ndarray:
    n_max = max(r.shape[0] for r in rows)
    shape = (len(rows), n_max) if width is None else (len(rows), n_max, width)
    out = np.zeros(shape, dtype=dtype)
    for k, r in enumerate(rows):
        out[k, : r.shape[0]] = r
    return out


def _pack(
    labels: np.ndarray,
    loss: str,
    classes: int,
    ridge: float,
    train: list[tuple[np.ndarray, np.ndarray]],
    test: list[tuple[np.ndarray, np.ndarray]],
) -> GroupedClassification:
    counts = np.array([x.shape[0] for x, _ in train], dtype=np.int64)
    p_feat = train[0][0].shape[1]
    ydtype = np.float64 if loss == "logistic" else np.int64
    return GroupedClassification(
        groups=GroupStructure.from_counts(labels, counts),
        loss=loss,  # type: ignore[arg-type]
        features=_pad([x for x, _ in train], p_feat, np.float64),
        labels=_pad([y for _, y in train], None, ydtype),
        counts=counts,
        classes=classes,
        ridge=ridge,
        test_features=_pad([x for x, _ in test], p_feat, np.float64),
        test_labels=_pad([y for _, y in test], None, ydtype),
        test_counts=np.array([x.shape[0] for x, _ in test], dtype=np.int64),
    )


def _test_count(n: int, fraction: float) -> int:
    return max(1, round(n * fraction))


def grouped_logistic(
    group_sizes: Any = (6, 10, 4),
    features: int = 10,
    *,
    sample_range: tuple[int, int] = (50, 150),
    group_scale: float = 2.0,
    within: float = 0.3,
    shift: float = 0.5,
    test_fraction: float = 0.25,
    ridge: float = 1e-2,
    seed: Seed = 0,
) -> GroupedClassification:
    """Grouped binary logistic regression, guide §7's pilot (20 clients split 6/10/4).

    Group i has a true direction w_i ~ N(0, group_scale²·I); client k of group i has
    w_k = w_i + N(0, within²·I) and a feature mean m_k ~ N(0, shift²·I); x ~ N(m_k, I) and
    P(y = +1 | x) = sigmoid(xᵀw_k). n_k ~ U{sample_range}; the test split has
    round(test_fraction·n_k) rows. The last feature is a constant 1 (an intercept): ``features``
    counts it.
    """
    sizes = _sizes(group_sizes)
    p = check_int("features", features, minimum=2)
    lo = check_int("sample_range[0]", sample_range[0], minimum=1)
    hi = check_int("sample_range[1]", sample_range[1], minimum=lo)
    frac = check_real("test_fraction", test_fraction, positive=True)
    labels = np.repeat(np.arange(sizes.size), sizes)
    rng_n, rng_w, rng_x = _streams(seed, 3)
    w_group = group_scale * rng_w.standard_normal((sizes.size, p))
    train: list[tuple[np.ndarray, np.ndarray]] = []
    test: list[tuple[np.ndarray, np.ndarray]] = []
    for g in labels:
        w = w_group[g] + within * rng_w.standard_normal(p)
        mean = shift * rng_x.standard_normal(p - 1)
        n = int(rng_n.integers(lo, hi + 1))
        for rows, store in ((n, train), (_test_count(n, frac), test)):
            x = np.hstack([mean + rng_x.standard_normal((rows, p - 1)), np.ones((rows, 1))])
            y = np.where(rng_x.random(rows) < 1 / (1 + np.exp(-(x @ w))), 1.0, -1.0)
            store.append((x, y))
    return _pack(labels, "logistic", 2, ridge, train, test)


def grouped_synthetic(
    alpha: float = 1.0,
    beta: float = 1.0,
    *,
    group_sizes: Any = (6, 10, 4),
    within: float = 0.1,
    classes: int = 10,
    features: int = 60,
    sample_range: tuple[int, int] = (50, 200),
    test_fraction: float = 0.25,
    ridge: float = 1e-2,
    seed: Seed = 0,
) -> GroupedClassification:
    """Synthetic(α, β) (Li et al. 2020, FedProx) with groups (guide §4, item 1).

    Group mean u_g ~ N(0, α); client k of group g: u_k ~ N(u_g, within), W_k ~ N(u_k, 1) (C×p),
    b_k ~ N(u_k, 1) (C), B_k ~ N(0, β), v_k ~ N(B_k, 1) (p), x ~ N(v_k, Σ) with Σ_jj = j^{−1.2},
    y = argmax(W_k x + b_k). Sizes: log-normal (as in FedProx) clipped to ``sample_range``. The
    model is softmax regression on (x, 1): ``features`` raw features plus the intercept.
    """
    sizes = _sizes(group_sizes)
    alpha = check_real("alpha", alpha, nonnegative=True)
    beta = check_real("beta", beta, nonnegative=True)
    C = check_int("classes", classes, minimum=2)
    p = check_int("features", features, minimum=1)
    lo = check_int("sample_range[0]", sample_range[0], minimum=1)
    hi = check_int("sample_range[1]", sample_range[1], minimum=lo)
    frac = check_real("test_fraction", test_fraction, positive=True)
    labels = np.repeat(np.arange(sizes.size), sizes)
    rng_n, rng_m, rng_x = _streams(seed, 3)
    u_group = rng_m.normal(0.0, np.sqrt(alpha), size=sizes.size)
    std = np.arange(1, p + 1) ** -0.6  # Σ_jj = j^{−1.2}
    train: list[tuple[np.ndarray, np.ndarray]] = []
    test: list[tuple[np.ndarray, np.ndarray]] = []
    for g in labels:
        u = rng_m.normal(u_group[g], np.sqrt(within))
        W = rng_m.normal(u, 1.0, size=(C, p))
        b = rng_m.normal(u, 1.0, size=C)
        v = rng_m.normal(rng_m.normal(0.0, np.sqrt(beta)), 1.0, size=p)
        n = int(np.clip(rng_n.lognormal(4, 2) + lo, lo, hi))
        for rows, store in ((n, train), (_test_count(n, frac), test)):
            x = v + std * rng_x.standard_normal((rows, p))
            y = np.argmax(x @ W.T + b, axis=1)
            store.append((np.hstack([x, np.ones((rows, 1))]), y))
    return _pack(labels, "softmax", C, ridge, train, test)


#: FEMNIST-3-groups' classes (guide §4, item 2): digits, capitals, lower case.
FEMNIST_DIGITS = tuple(range(5))
#: FEMNIST-3-groups' capital letters (classes 5–12).
FEMNIST_CAPITALS = tuple(range(5, 13))
#: FEMNIST-3-groups' lower-case letters (classes 13–19).
FEMNIST_LOWER = tuple(range(13, 20))


def _prototype_samples(
    allowed: np.ndarray,
    rows: int,
    prototypes: np.ndarray,
    affine: tuple[np.ndarray, np.ndarray],
    noise: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    y = rng.choice(allowed, size=rows)
    z = prototypes[y] + noise * rng.standard_normal((rows, prototypes.shape[1]))
    A, b = affine
    x = z @ A.T + b
    return np.hstack([x, np.ones((rows, 1))]), y


def _writer_style(p: int, strength: float, rng: np.random.Generator) -> tuple[Any, Any]:
    A = np.eye(p) + strength * rng.standard_normal((p, p)) / np.sqrt(p)
    return A, strength * rng.standard_normal(p)


def femnist_groups_like(
    devices: Any = (6, 10, 4),
    samples: Any = (80, 100, 60),
    *,
    features: int = 16,
    separation: float = 1.0,
    noise: float = 1.0,
    style: float = 0.3,
    test_fraction: float = 0.25,
    ridge: float = 1e-2,
    seed: Seed = 0,
) -> GroupedClassification:
    """FEMNIST-3-groups-like (guide §4, item 2; Table 1 scaled 1/10).

    20 classes: 0–4 "digits" (every group), 5–12 "capitals" (groups 1 and 3 of the paper = 0
    and 2 here), 13–19 "lower case" (groups 2 and 3 = 1 and 2 here). Class prototypes
    μ_c ~ N(0, separation²·I) in ℝ^features; a sample of class c is A_k(μ_c + noise·ε) + b_k
    with a per-client "writer style" A_k = I + style·G/√p, b_k ~ N(0, style²·I); classes are
    uniform over the client's allowed set. Softmax + ridge on (x, 1).

    Parameters
    ----------
    devices
        Clients per group (the paper's 60/100/40 scaled to 6/10/4).
    samples
        Training samples per device in each group (800 : 1000 : 600 scaled to 80/100/60).
    """
    sizes = _sizes(devices, "devices")
    per = _sizes(samples, "samples")
    if sizes.size != 3 or per.size != 3:
        raise ParameterError(
            parameter="devices", value=devices, rule="FEMNIST-3-groups has exactly 3 groups"
        )
    p = check_int("features", features, minimum=1)
    frac = check_real("test_fraction", test_fraction, positive=True)
    rng_c, rng_s, rng_x = _streams(seed, 3)
    prototypes = separation * rng_c.standard_normal((20, p))
    allowed = [
        np.array(FEMNIST_DIGITS + FEMNIST_CAPITALS),
        np.array(FEMNIST_DIGITS + FEMNIST_LOWER),
        np.arange(20),
    ]
    labels = np.repeat(np.arange(3), sizes)
    train: list[tuple[np.ndarray, np.ndarray]] = []
    test: list[tuple[np.ndarray, np.ndarray]] = []
    for g in labels:
        affine = _writer_style(p, style, rng_s)
        n = int(per[g])
        train.append(_prototype_samples(allowed[g], n, prototypes, affine, noise, rng_x))
        test.append(
            _prototype_samples(allowed[g], _test_count(n, frac), prototypes, affine, noise, rng_x)
        )
    return _pack(labels, "softmax", 20, ridge, train, test)


def femnist_skewed_like(
    clients: int = 20,
    *,
    classes: int = 10,
    classes_per_client: int = 5,
    samples: int = 100,
    features: int = 16,
    separation: float = 1.0,
    noise: float = 1.0,
    style: float = 0.3,
    test_fraction: float = 0.25,
    ridge: float = 1e-2,
    seed: Seed = 0,
) -> GroupedClassification:
    """FEMNIST-skewed-like, individual fairness d = K (guide §4, item 3).

    Each client draws ``classes_per_client`` distinct classes at random out of ``classes`` and
    ``samples`` training rows (equal sizes, so p = 1/K and λ_max = 1/(K(K−1))); samples as in
    :func:`femnist_groups_like` (prototypes, writer style, softmax + ridge on (x, 1)).
    """
    K = check_int("clients", clients, minimum=2)
    C = check_int("classes", classes, minimum=2)
    m = check_int("classes_per_client", classes_per_client, minimum=1)
    if m > C:
        raise ParameterError(
            parameter="classes_per_client", value=m, rule=f"must be at most classes = {C}"
        )
    n = check_int("samples", samples, minimum=1)
    p = check_int("features", features, minimum=1)
    frac = check_real("test_fraction", test_fraction, positive=True)
    rng_c, rng_s, rng_x = _streams(seed, 3)
    prototypes = separation * rng_c.standard_normal((C, p))
    train: list[tuple[np.ndarray, np.ndarray]] = []
    test: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(K):
        allowed = np.sort(rng_c.choice(C, size=m, replace=False))
        affine = _writer_style(p, style, rng_s)
        train.append(_prototype_samples(allowed, n, prototypes, affine, noise, rng_x))
        test.append(
            _prototype_samples(allowed, _test_count(n, frac), prototypes, affine, noise, rng_x)
        )
    return _pack(np.arange(K), "softmax", C, ridge, train, test)


def _perturb(P: np.ndarray, scale: float, rng: np.random.Generator) -> np.ndarray:
    Q = P * np.exp(scale * rng.standard_normal(P.shape))
    return np.asarray(Q / Q.sum(axis=1, keepdims=True))


def _markov_text(P: np.ndarray, length: int, rng: np.random.Generator) -> np.ndarray:
    V = P.shape[0]
    text = np.empty(length, dtype=np.int64)
    text[0] = rng.integers(V)
    cumulative = np.cumsum(P, axis=1)
    draws = rng.random(length)
    for t in range(1, length):
        text[t] = min(int(np.searchsorted(cumulative[text[t - 1]], draws[t])), V - 1)
    return text


def _next_character(text: np.ndarray, V: int, order: int) -> tuple[np.ndarray, np.ndarray]:
    rows = text.size - order
    x = np.zeros((rows, order * V))
    for lag in range(order):
        x[np.arange(rows), lag * V + text[order - 1 - lag : order - 1 - lag + rows]] = 1.0
    return x, text[order:]


def shakespeare_gender_like(
    male: int = 25,
    female: int = 10,
    *,
    vocabulary: int = 20,
    order: int = 1,
    concentration: float = 0.5,
    group_perturbation: float = 0.8,
    client_perturbation: float = 0.3,
    male_length: float = 120.0,
    female_length: float = 50.0,
    length_sigma: float = 0.4,
    test_fraction: float = 0.25,
    ridge: float = 1e-2,
    seed: Seed = 0,
) -> GroupedClassification:
    """Shakespeare-by-gender-like next-character prediction (guide §4, item 4; Table 6).

    A shared transition matrix over V symbols has rows ~ Dirichlet(concentration); each group
    multiplies it by e^{group_perturbation·N(0,1)} entrywise (renormalised), each client again by
    e^{client_perturbation·N(0,1)}. Text lengths are log-normal with median ``male_length``
    (group 0, "male") or ``female_length`` (group 1, "female", the minority) and σ
    ``length_sigma``. Features: one-hot of the previous ``order`` (1 or 2) characters
    (order·V columns, no intercept: each one-hot block sums to 1); softmax over the next
    character (C = V, dimension V·order·V). The test text of a client is a separate draw of
    round(test_fraction·length) characters from the same chain.
    """
    n_m = check_int("male", male, minimum=1)
    n_f = check_int("female", female, minimum=1)
    V = check_int("vocabulary", vocabulary, minimum=2)
    if order not in (1, 2):
        raise ParameterError(parameter="order", value=order, rule="must be 1 or 2")
    frac = check_real("test_fraction", test_fraction, positive=True)
    rng_p, rng_n, rng_t = _streams(seed, 3)
    base = rng_p.dirichlet(np.full(V, concentration), size=V)
    group_P = [_perturb(base, group_perturbation, rng_p) for _ in range(2)]
    labels = np.repeat([0, 1], [n_m, n_f])
    medians = (male_length, female_length)
    train: list[tuple[np.ndarray, np.ndarray]] = []
    test: list[tuple[np.ndarray, np.ndarray]] = []
    for g in labels:
        P = _perturb(group_P[g], client_perturbation, rng_p)
        length = max(order + 2, round(rng_n.lognormal(np.log(medians[g]), length_sigma)))
        for size, store in ((length, train), (max(order + 2, _test_count(length, frac)), test)):
            store.append(_next_character(_markov_text(P, size + order, rng_t), V, order))
    return _pack(labels, "softmax", V, ridge, train, test)


#: The label subsets of the digits groups (guide §4, item 6).
DIGITS_GROUP_LABELS = (tuple(range(7)), tuple(range(3, 10)), tuple(range(10)))


def digits_groups(
    group_sizes: Any = (7, 7, 6),
    *,
    samples: int = 60,
    test_fraction: float = 0.25,
    ridge: float = 1e-2,
    seed: Seed = 0,
) -> GroupedClassification:
    """scikit-learn's 8×8 digits split over clients in label-subset groups (guide §4, item 6).

    Group 0 holds digits 0–6, group 1 digits 3–9, group 2 every digit (20 clients by default,
    7/7/6). The 1,797 images are shuffled; each client takes ``samples`` training and
    round(test_fraction·samples) test images *without replacement* among the still unused
    images of its labels. Features: pixels/16 and an intercept (65 columns); softmax over 10
    classes + ridge.

    Raises
    ------
    MissingExtraError
        If scikit-learn (the ``data`` extra) is not installed.
    ParameterError
        If the clients ask for more images than a label subset has left.
    """
    try:
        from sklearn.datasets import load_digits
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise MissingExtraError(
            "digits_groups needs scikit-learn: pip install 'fedtheory[data]'"
        ) from error
    sizes = _sizes(group_sizes)
    if sizes.size != 3:
        raise ParameterError(
            parameter="group_sizes", value=group_sizes, rule="the digits groups are 3"
        )
    n = check_int("samples", samples, minimum=1)
    frac = check_real("test_fraction", test_fraction, positive=True)
    n_test = _test_count(n, frac)
    data = load_digits()
    X = np.hstack([data.data / 16.0, np.ones((data.data.shape[0], 1))])
    y = data.target.astype(np.int64)
    (rng,) = _streams(seed, 1)
    order = rng.permutation(y.size)
    used = np.zeros(y.size, dtype=bool)
    labels = np.repeat(np.arange(3), sizes)
    train: list[tuple[np.ndarray, np.ndarray]] = []
    test: list[tuple[np.ndarray, np.ndarray]] = []
    for g in labels:
        allowed = np.isin(y[order], DIGITS_GROUP_LABELS[g]) & ~used[order]
        take = order[np.flatnonzero(allowed)[: n + n_test]]
        if take.size < n + n_test:
            raise ParameterError(
                parameter="samples",
                value=n,
                rule="too many images per client for the digits' label subsets",
            )
        used[take] = True
        train.append((X[take[:n]], y[take[:n]]))
        test.append((X[take[n:]], y[take[n:]]))
    return _pack(labels, "softmax", 10, ridge, train, test)
