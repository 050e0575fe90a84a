"""A bound's compiled code does not depend on the process's history (``fedtheory.bounds``).

sympy's ``lambdify`` names the dummies standing for a function's arguments after a global counter
and orders a product's factors by those names compared as strings, so the float operations of a
compiled bound used to depend on how many dummies the process had created before compiling it
(e.g. ``Dummy_99``, ``Dummy_100`` sort the other way round). A verification worker compiles a
bound after whatever tasks it ran first: the last bit of ``fedlrgd.thm1``'s value differed
between two runs of the catalog. These tests compile bounds at counter values that straddle
powers of ten and require the same code and the same bits every time.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest
import sympy as sp

from fedtheory import bounds

#: Points of fedlrgd.thm1 (L2, eta, d, r), among them draws of the catalog whose last bit
#: depended on the factor order.
THM1_POINTS = [
    (0.0123, 26.273536087633765, 3, 1.2e11),
    (3.7, 18.490187984665305, 3, 4.06e5),
    (250.0, 2.633419891433819, 5, 3.72e7),
    (1.0, 4.74421390763303, 7, 8.98e10),
]


def _compile_at_counts(bound: bounds.Bound, name: str) -> list[tuple[str, object]]:
    """The compiled function ``name`` after moving sympy's dummy counter to 10^p − j, j = 1..12,
    each below another power of ten, so that the dummies of some compilations straddle a power
    of ten (the counter only moves forward: earlier dummies keep unique indices)."""
    out = []
    first_power = len(str(sp.Dummy._count)) + 1
    for j in range(1, 13):
        sp.Dummy._count = 10 ** (first_power + j) - j
        bound.__dict__.pop(name, None)  # drop the cached compilation
        function = getattr(bound, name)
        functions = function if isinstance(function, list) else [function]
        source = "".join(inspect.getsource(f) for f in functions)
        out.append((re.sub(r"Dummy_\d+", "D", source), function))
    return out


@pytest.mark.parametrize("bound_id", ["fedlrgd.thm1", "minimax.thm6.aer.explicit"])
def test_compiled_code_is_the_same_at_every_counter_value(bound_id: str) -> None:
    bound = bounds.get(bound_id)
    compiled = _compile_at_counts(bound, "_numpy_function")
    assert len(compiled) >= 10
    assert len({code for code, _ in compiled}) == 1, {code for code, _ in compiled}
    assert bound.hypotheses
    hypotheses = _compile_at_counts(bound, "_hypothesis_functions")
    assert len({code for code, _ in hypotheses}) == 1


def test_thm1_gives_the_same_bits_at_every_counter_value() -> None:
    bound = bounds.get("fedlrgd.thm1")
    values = set()
    for _code, function in _compile_at_counts(bound, "_numpy_function"):
        for L2, eta, d, r in THM1_POINTS:
            args = {"L2": L2, "eta": eta, "d": d, "r": r}
            ordered = [np.asarray(float(args[n])) for n in bound._infos]
            values.add((L2, float(function(*ordered)).hex()))
    assert len(values) == len(THM1_POINTS)


@pytest.mark.parametrize(
    "order", [sp.Integer(1), sp.Rational(1, 2), sp.Rational(3, 2), sp.Integer(2)]
)
def test_harmonic_numbers_compile_to_their_sums(order: sp.Expr) -> None:
    """c·H_n^{(s)}/√n compiles to Σ_{t≤n} c t^{−s}/√n on both namespaces.

    sympy's numpy printer writes H_n as ``polygamma(0, n + 1) + euler_gamma`` without
    parentheses (so the product above became c·ψ(n + 1) + γ/√n: gifair.thm86 was 16 times too
    large at T = 1000), and its mpmath printer passes an order ``mpmath.harmonic`` refuses.
    """
    from fedtheory.bounds._expressions import (
        MPMATH_NAMESPACE,
        NUMPY_NAMESPACE,
        lambdify,
        prepare_for_lambdify,
    )

    n, c = sp.symbols("n c", positive=True)
    expr = prepare_for_lambdify(3 * c * sp.harmonic(n, order) / sp.sqrt(n))
    on_numpy = lambdify([n, c], expr, [NUMPY_NAMESPACE, "scipy", "numpy"])
    on_mpmath = lambdify([n, c], expr, [MPMATH_NAMESPACE, "mpmath"])
    points = np.array([1, 2, 7, 1000, 123457])
    direct = [
        3 * 0.3 * np.sum(np.arange(1, p + 1, dtype=float) ** -float(order)) / np.sqrt(p)
        for p in points
    ]
    np.testing.assert_allclose(on_numpy(points, 0.3), direct, rtol=1e-12)
    np.testing.assert_allclose([float(on_mpmath(int(p), 0.3)) for p in points], direct, rtol=1e-12)
