"""The benchmark harness (benchmarks/_harness.py) with fake contenders and a fake clock.

No timing is asserted: a fake clock makes every "duration" a number the test chose, so the
medians, spreads and speed-ups are exact, and the call log shows the warm-up and the
interleaving order.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

HARNESS_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "_harness.py"


def _load_harness() -> ModuleType:
    """benchmarks/ is a folder of scripts, not a package: load the module from its file."""
    spec = importlib.util.spec_from_file_location("_bench_harness_under_test", HARNESS_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


harness = _load_harness()


class FakeClock:
    """A clock that a contender advances by the duration it chooses."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def contenders(
    clock: FakeClock, durations: dict[str, Iterator[float]], outputs: dict[str, Any], log: list
) -> list[Any]:
    def make(name: str) -> Callable[[], Any]:
        def run() -> Any:
            log.append(name)
            clock.now += next(durations[name])
            return outputs[name]

        return run

    return [harness.Contender(name, make(name)) for name in outputs]


def run_three(
    outputs: dict[str, Any] | None = None, repeats: int = 3, **kwargs: Any
) -> tuple[Any, list[str]]:
    clock = FakeClock()
    log: list[str] = []
    # warm-up durations (first value) are never timed; then one value per round
    durations = {
        "ref": iter([100.0, 4.0, 2.0, 3.0]),
        "fast": iter([100.0, 1.0, 1.0, 5.0]),
        "slow": iter([100.0, 8.0, 6.0, 7.0]),
    }
    outputs = outputs or {"ref": np.ones(3), "fast": np.ones(3), "slow": np.ones(3) + 1e-13}
    result = harness.compare(
        "fake",
        contenders(clock, durations, outputs, log),
        reference="ref",
        repeats=repeats,
        check=harness.max_relative(1e-12, "fake outputs agree to rounding"),
        clock=clock,
        **kwargs,
    )
    return result, log


def test_warm_up_first_then_round_robin_rotating_start() -> None:
    _, log = run_three()
    assert log[:3] == ["ref", "fast", "slow"]  # warm-up, untimed, in order
    assert log[3:] == ["ref", "fast", "slow", "fast", "slow", "ref", "slow", "ref", "fast"]


def test_medians_spread_best_and_speedups_exclude_the_warm_up() -> None:
    result, _ = run_three(work={"GFLOP": 12.0}, also_versus=("slow",))
    ref, fast, slow = (result.row(n) for n in ("ref", "fast", "slow"))
    assert ref.sample.seconds == (4.0, 2.0, 3.0)
    assert (ref.median, ref.sample.spread, ref.sample.best) == (3.0, 2.0, 2.0)
    assert (fast.median, slow.median) == (1.0, 7.0)
    assert ref.speedup == 1.0 and fast.speedup == 3.0 and slow.speedup == pytest.approx(3 / 7)
    assert result.speedup("fast", "slow") == 7.0
    assert fast.throughput == {"GFLOP": 12.0}
    assert ref.difference is None
    assert fast.difference == 0.0 and 0.0 < slow.difference < 1e-12


def test_a_wrong_output_raises_instead_of_being_timed() -> None:
    with pytest.raises(harness.OutputMismatch, match="'slow' differs from the reference 'ref'"):
        run_three({"ref": np.ones(3), "fast": np.ones(3), "slow": np.array([1.0, 1.0, 1.1])})


def test_nan_and_shape_mismatch_raise() -> None:
    with pytest.raises(harness.OutputMismatch):
        run_three({"ref": np.ones(3), "fast": np.ones(3), "slow": np.array([1.0, np.nan, 1.0])})
    with pytest.raises(harness.OutputMismatch):
        run_three({"ref": np.ones(3), "fast": np.ones(3), "slow": np.ones(4)})


def test_the_last_timed_output_is_checked_too() -> None:
    clock = FakeClock()
    calls = {"n": 0}

    def drifting() -> float:
        calls["n"] += 1
        return 1.0 if calls["n"] == 1 else 2.0  # right at the warm-up, wrong when timed

    with pytest.raises(harness.OutputMismatch, match="'drift'"):
        harness.compare(
            "drift",
            [harness.Contender("ref", lambda: 1.0), harness.Contender("drift", drifting)],
            reference="ref",
            repeats=2,
            check=harness.objective_values(1e-9, "solver tolerance"),
            clock=clock,
        )


def test_without_warm_up_every_call_is_timed_and_still_checked() -> None:
    clock = FakeClock()
    log: list[str] = []
    durations = {"ref": iter([2.0, 4.0]), "other": iter([1.0, 1.0])}
    outputs = {"ref": 1.0, "other": 1.0 + 1e-12}
    result = harness.compare(
        "no warm-up",
        contenders(clock, durations, outputs, log),
        reference="ref",
        repeats=2,
        check=harness.objective_values(1e-9, "solver tolerance"),
        warmup=False,
        clock=clock,
    )
    assert log == ["ref", "other", "other", "ref"]
    assert result.row("ref").sample.seconds == (2.0, 4.0)
    assert 0.0 < result.row("other").difference < 1e-9
    assert "untimed warm-up" not in result.markdown()
    with pytest.raises(harness.OutputMismatch):
        harness.compare(
            "no warm-up, wrong",
            [harness.Contender("ref", lambda: 1.0), harness.Contender("bad", lambda: 1.1)],
            reference="ref",
            repeats=1,
            check=harness.objective_values(1e-9, "solver tolerance"),
            warmup=False,
            clock=clock,
        )


def test_objective_values_check_and_custom_value() -> None:
    check = harness.objective_values(1e-6, "SCS eps 1e-9", value=lambda out: out["value"])
    assert check.verify("scs", {"value": 2.0 + 1e-7}, "clarabel", {"value": 2.0}) < 1e-6
    with pytest.raises(harness.OutputMismatch):
        check.verify("scs", {"value": 2.1}, "clarabel", {"value": 2.0})


def test_a_check_must_say_why_and_names_must_be_valid() -> None:
    with pytest.raises(ValueError, match="why"):
        harness.max_relative(1e-12, " ")
    check = harness.max_relative(1e-12, "rounding")
    same = [harness.Contender("a", lambda: 1.0), harness.Contender("a", lambda: 1.0)]
    with pytest.raises(ValueError, match="unique"):
        harness.compare("x", same, reference="a", repeats=1, check=check)
    with pytest.raises(ValueError, match="not a contender"):
        harness.compare("x", same[:1], reference="b", repeats=1, check=check)
    with pytest.raises(ValueError, match="repeats"):
        harness.compare("x", same[:1], reference="a", repeats=0, check=check)


def test_markdown_and_json_render_every_row_and_the_machine() -> None:
    result, _ = run_three(work={"GFLOP": 12.0}, yardstick=("DGEMM", "GFLOP", 24.0))
    text = str(result)
    assert text.startswith("### fake")
    assert "machine:" in text and "cores" in text and "numpy" in text and "load average" in text
    table = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(table) == 1 + 3  # header + rows
    assert "| fast | 1 | 4 | 1 | 3.00× |" in text  # reference median 3 s ≥ 1 s: in seconds
    assert "% of DGEMM" in table[0] and "50.0%" in text  # 12 GFLOP/s of 24
    data = json.loads(json.dumps(result.to_dict()))
    assert [row["name"] for row in data["rows"]] == ["ref", "fast", "slow"]
    assert data["rows"][1]["seconds"] == [1.0, 1.0, 5.0]
    assert data["check"]["tolerance"] == 1e-12


def test_measure_warms_up_and_takes_the_median() -> None:
    clock = FakeClock()
    steps = iter([50.0, 3.0, 1.0, 2.0])

    def run() -> str:
        clock.now += next(steps)
        return "out"

    sample = harness.measure(run, 3, clock=clock)
    assert sample.seconds == (3.0, 1.0, 2.0) and sample.median == 2.0 and sample.output == "out"
