"""One kernel type for every fzoos problem view (private; DESIGN §4, the numba policy).

numba specialises a kernel on the *types* of its arguments. Every runner of
:mod:`fedtheory.papers.fzoos.algorithms` passes the problem's view into the core round loop, so
each view class (:class:`~._views.SeparableView`, :class:`~._views.DenseQuadraticView`,
:class:`~._views.FourierView`, :class:`~._views.LogisticView`,
:class:`~._substitute_views.AttackView`, :class:`~._substitute_views.MetricView`) compiled its
own copy of the whole loop with its client step. Measured on an idle machine with an empty
cache: 14 s (finite differences) and 41 s (FZooS) for the first view class, then 10 s and 14 s
for each further one — about 175 s for the six, paid by every process of a fresh catalog run
that met them all. With one kernel type for all six the first compile costs 35 s and 50 s
(the union's six branches are compiled in) and every further problem nothing: 85 s in all.

:class:`ProblemView` holds one view of each class (all but one empty) and a ``kind`` code; its
kernels branch on the code and call the view's own kernel, so the arithmetic (and every bit) is
that of the view. The runners wrap a package view with :func:`unify`; a view class defined
elsewhere (a test's, a user's) passes through unchanged and gets its own specialisation, as
before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, cast

import numba
import numpy as np

from fedtheory._jit import jit_disabled, njit
from fedtheory.papers.fzoos._substitute_views import (
    AttackView,
    MetricView,
    _attack_gradient,
    _attack_value,
    _metric_gradient,
    _metric_value,
)
from fedtheory.papers.fzoos._views import (
    DenseQuadraticView,
    FourierView,
    LogisticView,
    SeparableView,
    _dense_gradient,
    _dense_value,
    _fourier_gradient,
    _fourier_value,
    _logistic_gradient,
    _logistic_value,
    _separable_gradient,
    _separable_value,
)

__all__: list[str] = []

SEPARABLE, DENSE, FOURIER, LOGISTIC, ATTACK, METRIC = range(6)

#: numba's type of a Python value (untyped in numba's stubs).
_typeof = cast(Callable[[Any], Any], numba.typeof)


@njit
def _union_value(view: ProblemView, i: int, x: np.ndarray) -> float:
    """f_i(x) by the kernel of the view named by ``view.kind``."""
    kind = view.kind
    if kind == SEPARABLE:
        return _separable_value(view.separable, i, x)
    if kind == DENSE:
        return _dense_value(view.dense, i, x)
    if kind == FOURIER:
        return _fourier_value(view.fourier, i, x)
    if kind == LOGISTIC:
        return _logistic_value(view.logistic, i, x)
    if kind == ATTACK:
        return _attack_value(view.attack, i, x)
    return _metric_value(view.metric, i, x)


@njit
def _union_gradient(view: ProblemView, i: int, x: np.ndarray, out: np.ndarray) -> None:
    """∇f_i(x) into ``out`` by the kernel of the view named by ``view.kind``."""
    kind = view.kind
    if kind == SEPARABLE:
        _separable_gradient(view.separable, i, x, out)
    elif kind == DENSE:
        _dense_gradient(view.dense, i, x, out)
    elif kind == FOURIER:
        _fourier_gradient(view.fourier, i, x, out)
    elif kind == LOGISTIC:
        _logistic_gradient(view.logistic, i, x, out)
    elif kind == ATTACK:
        _attack_gradient(view.attack, i, x, out)
    else:
        _metric_gradient(view.metric, i, x, out)


class _ProblemFields(NamedTuple):
    kind: int
    separable: SeparableView
    dense: DenseQuadraticView
    fourier: FourierView
    logistic: LogisticView
    attack: AttackView
    metric: MetricView


class ProblemView(_ProblemFields):
    """The view of any package problem: ``kind`` (0–5) and one view per class (module doc)."""

    __slots__ = ()

    zo_value = _union_value
    zo_gradient = _union_gradient


def _vector() -> np.ndarray:
    return np.zeros(0)


def _matrix() -> np.ndarray:
    return np.zeros((0, 0))


def _empty() -> dict[str, Any]:
    """A view of each class with empty arrays of the field types the problems build."""
    return {
        "separable": SeparableView(_matrix(), _matrix(), _vector(), 0.0, 0.0, 0.0, 0.0),
        "dense": DenseQuadraticView(np.zeros((0, 0, 0)), _matrix(), _vector()),
        "fourier": FourierView(_matrix(), _vector(), _matrix()),
        "logistic": LogisticView(_matrix(), _vector(), np.zeros(0, dtype=np.int64), 0.0),
        "attack": AttackView(np.zeros((0, 0, 0)), _matrix(), _vector(), 0, 0.0),
        "metric": MetricView(
            _matrix(),
            _vector(),
            _matrix(),
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.int64),
            0.0,
            0,
        ),
    }


_KINDS: dict[type, tuple[int, str]] = {
    SeparableView: (SEPARABLE, "separable"),
    DenseQuadraticView: (DENSE, "dense"),
    FourierView: (FOURIER, "fourier"),
    LogisticView: (LOGISTIC, "logistic"),
    AttackView: (ATTACK, "attack"),
    MetricView: (METRIC, "metric"),
}


def unify(view: Any) -> Any:
    """``view`` inside a :class:`ProblemView` when its class is one of the package's six (and
    its fields have the types of the empty placeholders, so that every problem shares one
    kernel type); any other view unchanged."""
    entry = _KINDS.get(type(view))
    if entry is None:
        return view
    kind, field = entry
    fields = _empty()
    placeholder = fields[field]
    for value, empty in zip(view, placeholder, strict=True):
        if not _same_type(value, empty):
            return view  # an unusual dtype or shape: its own specialisation, still correct
    fields[field] = view
    return ProblemView(kind=kind, **fields)


def _same_type(value: Any, empty: Any) -> bool:
    """Whether numba types ``value`` as it types the placeholder field ``empty``."""
    if jit_disabled():
        return True
    return bool(_typeof(value) == _typeof(empty))
