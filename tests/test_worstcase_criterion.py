"""WorstCaseHolds: a bound against an exact worst case (issue 16, criteria rules of DESIGN §5)."""

from __future__ import annotations

import pytest
from test_criteria import make_measurements

from fedtheory import bounds
from fedtheory.errors import ParameterError
from fedtheory.verify import HOLDS, INCONCLUSIVE, VIOLATED, WorstCaseHolds

CLAIM = "classic/test/worstcase"
EXACT = bounds.get("classic.gd.smooth-convex.exact")  # L D0 / (4T + 2)


def data(worst: list[float], *, accuracy: float = 1e-9, bound: list[float] | None = None):
    rows = []
    for T, w in enumerate(worst, start=1):
        outputs = {"worst": [w], "accuracy": [accuracy], "L": [1.0], "D0": [1.0]}
        if bound is not None:
            outputs["bound"] = [bound[T - 1]]
        rows.append(({"T": T}, outputs))
    return make_measurements(CLAIM, ("T",), rows)


def exact(T: int) -> float:
    return float(EXACT.evaluate(L=1.0, D0=1.0, T=T))


def test_a_bound_above_the_worst_case_holds_and_reports_its_tightness() -> None:
    worst = [exact(T) / 2 for T in (1, 2, 3)]
    verdict = WorstCaseHolds("worst", EXACT, x="T").judge(data(worst))
    assert verdict.outcome == HOLDS
    assert verdict.numbers["min_tightness"] == pytest.approx(2.0)
    assert [row["tightness"] for row in verdict.table] == pytest.approx([2.0, 2.0, 2.0])


def test_a_bound_below_the_worst_case_is_violated_with_the_point_as_counterexample() -> None:
    worst = [exact(1), exact(2) * (1 + 1e-3), exact(3)]
    verdict = WorstCaseHolds("worst", EXACT, x="T").judge(data(worst))
    assert verdict.outcome == VIOLATED
    assert verdict.counterexample["params"] == {"T": 2}
    assert verdict.counterexample["measured"] == pytest.approx(worst[1])
    assert "below the exact worst case" in verdict.reason


def test_agreement_within_the_accuracy_is_inconclusive_for_an_upper_bound() -> None:
    worst = [exact(T) * (1 + 1e-7) for T in (1, 2, 3)]
    verdict = WorstCaseHolds("worst", EXACT, x="T").judge(data(worst))
    assert verdict.outcome == INCONCLUSIVE
    assert "within the solver's accuracy" in verdict.reason


def test_tight_mode_holds_within_the_tolerance_and_fails_outside_it_on_either_side() -> None:
    criterion = WorstCaseHolds("worst", EXACT, tight=True, x="T")
    assert criterion.judge(data([exact(T) * (1 - 5e-7) for T in (1, 2, 3)])).outcome == HOLDS
    loose = criterion.judge(data([exact(T) * (1 - 1e-3) for T in (1, 2, 3)]))
    assert loose.outcome == VIOLATED
    assert "not the worst case" in loose.reason
    false = criterion.judge(data([exact(T) * (1 + 1e-3) for T in (1, 2, 3)]))
    assert false.outcome == VIOLATED
    assert "below the exact worst case" in false.reason


def test_the_solver_accuracy_widens_the_tolerance() -> None:
    worst = [exact(T) * (1 + 1e-4) for T in (1, 2, 3)]
    criterion = WorstCaseHolds("worst", EXACT, tight=True, x="T")
    assert criterion.judge(data(worst, accuracy=1e-9)).outcome == VIOLATED
    assert criterion.judge(data(worst, accuracy=1e-3)).outcome == HOLDS


def test_the_bound_may_be_an_output() -> None:
    verdict = WorstCaseHolds("worst", "bound", x="T").judge(
        data([0.5, 0.25, 0.125], bound=[1.0, 0.5, 0.1])
    )
    assert verdict.outcome == VIOLATED
    assert verdict.counterexample["params"] == {"T": 3}


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [({"rtol": 0.0}, "rtol"), ({"rtol": 0.01}, "rtol"), ({"tight": 1}, "tight")],
)
def test_bad_settings_are_refused(kwargs: dict, parameter: str) -> None:
    with pytest.raises(ParameterError) as info:
        WorstCaseHolds("worst", EXACT, **kwargs)
    assert info.value.parameter == parameter
