"""House rules that a test can check: the numba policy, errors, no print in the library."""

from __future__ import annotations

import ast
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import fedtheory
from fedtheory import _jit
from fedtheory.errors import (
    ConditionError,
    DivergenceError,
    FedTheoryError,
    FloatRangeError,
    ParameterError,
    SolverError,
)

PACKAGE = Path(fedtheory.__file__).parent
SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_numba_policy_flags() -> None:
    assert _jit.JIT_OPTIONS["cache"] is True
    assert _jit.JIT_OPTIONS["nogil"] is True
    assert _jit.JIT_OPTIONS["fastmath"] == {"reassoc", "contract"}
    assert not {"nnan", "ninf", "fast"} & set(_jit.JIT_OPTIONS["fastmath"])
    assert "parallel" not in _jit.JIT_OPTIONS


@_jit.njit
def _sum_of_squares(values: np.ndarray) -> float:
    total = 0.0
    for value in values:
        total += value * value
    return total


def _sum_of_squares_reference(values: np.ndarray) -> float:
    return float(np.sum(values**2))


def test_policy_kernel_matches_reference_and_propagates_nan() -> None:
    """A reduction compiled under the policy agrees with numpy and lets NaN/inf through
    (divergence detection depends on it: no nnan/ninf fast-math)."""
    rng = np.random.default_rng(0)
    values = rng.standard_normal(1001)
    assert _sum_of_squares(values) == pytest.approx(_sum_of_squares_reference(values), rel=1e-12)
    values[500] = np.nan
    assert math.isnan(_sum_of_squares(values))
    values[500] = np.inf
    assert math.isinf(_sum_of_squares(values))


def test_no_other_numba_decorator_spelling() -> None:
    pattern = re.compile(r"numba\.(njit|jit)\(|from numba import .*\b(njit|jit)\b|@jit\b")
    offenders = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in SOURCES
        if path.name != "_jit.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []


def test_no_print_in_the_library() -> None:
    offenders = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "print"
            ):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offenders == []


def test_error_messages_name_parameter_value_and_rule() -> None:
    error = ParameterError(parameter="n", value=-1, rule="must be positive")
    assert str(error) == "n=-1: must be positive"
    assert (error.parameter, error.value, error.rule) == ("n", -1, "must be positive")
    assert isinstance(error, ValueError) and isinstance(error, FedTheoryError)
    with pytest.raises(TypeError):
        ParameterError()
    condition = ConditionError(
        "minimax.thm4", "n_i ≥ 4*beta/mu", {"n_i": 2, "beta": 1.0, "mu": 0.1}, note="stability"
    )
    assert str(condition).startswith(
        "minimax.thm4: hypothesis n_i ≥ 4*beta/mu (stability) fails at n_i=2, beta=1, mu=0.1"
    )
    assert condition.failed == ("n_i ≥ 4*beta/mu",)
    divergence = DivergenceError("fedavg", 17, float("inf"), hint="lower the step size")
    assert str(divergence) == "fedavg diverged at round 17 (value inf); lower the step size"
    assert isinstance(divergence, ArithmeticError)
    solver = SolverError("clarabel", "infeasible")
    assert "clarabel failed with status 'infeasible'" in str(solver)
    overflow = FloatRangeError("r(47)", 1234.5)
    assert "10^1234.5" in str(overflow) and isinstance(overflow, OverflowError)


def test_public_api_is_curated() -> None:
    assert fedtheory.__version__
    assert {"bounds", "errors"} <= set(fedtheory.__all__)


_COMPILER = """
import os, sys, time
from pathlib import Path
import numpy as np
from fedtheory import _jit
from fedtheory._vector_math import _exp_array

role, folder = sys.argv[1], Path(sys.argv[2])
if role == "first":
    hold = _jit._compile_lock

    def held_long(path):  # note the lock, and keep it 1 s after compiling
        with hold(path):
            (folder / "locked").touch()
            yield
            time.sleep(1.0)

    _jit._compile_lock = _jit.contextlib.contextmanager(held_long)
    while not (folder / "second-ready").exists():
        time.sleep(0.01)
else:
    (folder / "second-ready").touch()
    while not (folder / "locked").exists():
        time.sleep(0.01)
_exp_array(np.ones(3))
misses = sum(_exp_array._cache_misses.values())
hits = sum(_exp_array._cache_hits.values())
print(misses, hits)
"""


def test_two_processes_compile_a_kernel_once(tmp_path: Path) -> None:
    """A process that needs a kernel another process is compiling waits for it and loads it
    from the disk cache instead of compiling it too (``_jit._compile_lock``): the second process
    starts its call while the first holds the lock, and finds the kernel in the cache."""
    script = tmp_path / "compile.py"
    script.write_text(_COMPILER)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    processes = {
        role: subprocess.Popen(
            [sys.executable, str(script), role, str(tmp_path)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for role in ("first", "second")
    }
    outputs = {role: p.communicate(timeout=120) for role, p in processes.items()}
    for role, (_, err) in outputs.items():
        assert processes[role].returncode == 0, err[-2000:]
    assert outputs["first"][0].split() == ["1", "0"]  # compiled
    assert outputs["second"][0].split() == ["0", "1"]  # loaded what the first compiled
