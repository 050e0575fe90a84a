"""The branch-free exp and log of the kernels (fedtheory._vector_math) against numpy."""

from __future__ import annotations

import numpy as np
import pytest

from fedtheory import _vector_math as vector_math

RNG = np.random.default_rng(20240521)


def test_polynomial_exp_and_log_match_numpy_to_a_few_ulp() -> None:
    x = 10.0 ** RNG.uniform(-320, 300, 20000)  # includes subnormals
    x = x[x > 0]
    got = vector_math._log_array(x)
    np.testing.assert_array_less(np.abs(got - np.log(x)), 4e-16 * np.maximum(1, np.abs(np.log(x))))
    near_one = RNG.uniform(0.5, 2.0, 20000)
    assert np.abs(vector_math._log_array(near_one) - np.log(near_one)).max() <= 2.3e-16
    y = RNG.uniform(-708, 709, 20000)
    assert (np.abs(vector_math._exp_array(y) / np.exp(y) - 1.0)).max() <= 4.5e-16
    small = RNG.uniform(-1, 1, 20000)
    assert (np.abs(vector_math._exp_array(small) / np.exp(small) - 1.0)).max() <= 4.5e-16
    # clamped outside the documented range, never inf or NaN
    assert vector_math._exp_array(np.array([-1e4]))[0] == pytest.approx(np.exp(-708.0), rel=1e-15)
