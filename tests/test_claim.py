"""Tests of sweeps, measurements and claims (``fedtheory.verify.sweep``, ``.measurements``,
``.claim``)."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.errors import ParameterError
from fedtheory.verify import (
    PROFILES,
    Claim,
    ClaimResult,
    Measurement,
    Measurements,
    PointMeasurements,
    Sweep,
    Verdict,
)
from fedtheory.verify.criteria import Monotone, RateExponent, UpperBoundHolds

SOURCE = Citation("classic", "SGD with step 1/(μt), Lemma 1")
BOUND = bounds.get("classic.sgd.strongly-convex.distance")


def experiment(params: dict[str, Any], seed: int) -> dict[str, float]:
    """A module-level experiment (never run here)."""
    return {"y": 1.0 / params["T"] + 0 * seed}


def two_positional(params, seed, extra=0):  # a default third argument is fine
    return {"y": 1.0}


def one_argument(params):
    return {"y": 1.0}


def raises(match: str, parameter: str | None = None):
    """pytest.raises(ParameterError) that also checks the error's ``parameter``."""

    class _Check:
        def __enter__(self):
            self._ctx = pytest.raises(ParameterError, match=match)
            self._info = self._ctx.__enter__()
            return self._info

        def __exit__(self, *exc):
            handled = self._ctx.__exit__(*exc)
            if parameter is not None:
                assert self._info.value.parameter == parameter
            return handled

    return _Check()


# ============================================================================ Sweep


def test_sweep_points_are_the_product_with_the_last_name_fastest():
    sweep = Sweep(grid={"a": [1, 2], "b": ["x", "y", "z"]}, fixed={"d": 5}, replicates=3)
    assert sweep.varied == ("a", "b")
    assert sweep.points() == (
        {"d": 5, "a": 1, "b": "x"},
        {"d": 5, "a": 1, "b": "y"},
        {"d": 5, "a": 1, "b": "z"},
        {"d": 5, "a": 2, "b": "x"},
        {"d": 5, "a": 2, "b": "y"},
        {"d": 5, "a": 2, "b": "z"},
    )
    assert sweep.replicates == 3
    # the order of the grid's names decides which varies fastest
    swapped = Sweep(grid={"b": ["x", "y", "z"], "a": [1, 2]})
    assert [(p["a"], p["b"]) for p in swapped.points()][:3] == [(1, "x"), (2, "x"), (1, "y")]


def test_sweep_fixed_only_and_explicit_points():
    only = Sweep(fixed={"d": 5, "name": "q"})
    assert only.points() == ({"d": 5, "name": "q"},)
    assert only.varied == ()
    explicit = Sweep(points=[{"n": 10, "T": 100}, {"n": 20, "T": 50}], fixed={"d": 1})
    assert explicit.varied == ("n", "T")
    assert explicit.points() == ({"d": 1, "n": 10, "T": 100}, {"d": 1, "n": 20, "T": 50})
    assert explicit.to_dict() == {
        "fixed": {"d": 1},
        "replicates": 1,
        "points": [{"n": 10, "T": 100}, {"n": 20, "T": 50}],
    }


def test_sweep_converts_numpy_values_to_plain_data():
    sweep = Sweep(grid={"T": np.array([10, 100])}, fixed={"mu": np.float64(0.5)}, block=2)
    assert sweep.points() == ({"mu": 0.5, "T": 10}, {"mu": 0.5, "T": 100})
    assert all(type(p["T"]) is int and type(p["mu"]) is float for p in sweep.points())
    doc = sweep.to_dict()
    assert doc == {"fixed": {"mu": 0.5}, "replicates": 1, "grid": {"T": [10, 100]}, "block": 2}
    assert json.loads(json.dumps(doc, allow_nan=False)) == doc


def test_sweep_to_dict_without_block():
    doc = Sweep(grid={"T": [1, 2]}, fixed={"d": 3}, replicates=4).to_dict()
    assert doc == {"fixed": {"d": 3}, "replicates": 4, "grid": {"T": [1, 2]}}


@pytest.mark.parametrize(
    ("kwargs", "parameter", "match"),
    [
        ({"grid": {"a": [1, [2]]}}, "grid['a']", "int, float, str or bool"),
        ({"grid": {"a": [1, {"x": 1}]}}, "grid['a']", "got dict"),
        ({"fixed": {"d": [1, 2]}}, "fixed['d']", "got list"),
        ({"grid": {"a": [1.0, math.nan]}}, "grid['a']", "finite"),
        ({"fixed": {"d": math.inf}}, "fixed['d']", "finite"),
        ({"grid": {"a": "abc"}}, "grid['a']", "list of values"),
        ({"grid": {"a": 3}}, "grid['a']", "list of values"),
        ({"grid": {"a": []}}, "grid['a']", "empty"),
        ({"grid": {"a": [1, 2, 1]}}, "grid['a']", "repeated"),
        ({"grid": {"a": [1, 2]}, "fixed": {"a": 3}}, "grid['a']", "also in fixed"),
        ({"replicates": 0}, "replicates", ">= 1"),
        ({"replicates": 2.0}, "replicates", "int"),
        ({"replicates": True}, "replicates", "int"),
        ({"block": 0}, "block", ">= 1"),
        ({"grid": {"1a": [1]}}, "grid", "identifiers"),
        ({"grid": {"a-b": [1]}}, "grid", "identifiers"),
        ({"fixed": {"with space": 1}}, "fixed", "identifiers"),
        ({"grid": {"a": [1]}, "points": [{"a": 1}]}, "points", "either grid or points"),
        ({"points": []}, "points", "empty"),
        ({"points": [{"a": 1}, {"b": 2}]}, "points[1]", "same keys"),
        ({"points": [{"a": 1}, {"a": 1}]}, "points", "repeated"),
        ({"points": [{"a": 1}], "fixed": {"a": 2}}, "points[0]", "also in fixed"),
        ({"points": [{"a": [1]}]}, "points[0]['a']", "got list"),
        ({"points": [{"9": 1}]}, "points[0]", "identifiers"),
    ],
)
def test_sweep_validation_names_the_parameter(kwargs, parameter, match):
    with raises(match, parameter) as info:
        Sweep(**kwargs)
    assert str(info.value).startswith(parameter)


def test_sweep_bad_names_are_reported_by_value():
    with raises("identifiers", "grid") as info:
        Sweep(grid={"a-b": [1]})
    assert info.value.value == "a-b"


# ============================================================================ Claim


def criterion():
    return RateExponent("T", "y", expected=-1, n_resamples=400)


SMOKE = Sweep(grid={"T": [10, 100, 1000]}, replicates=8)
QUICK = Sweep(grid={"T": [10, 100, 1000, 10000]}, fixed={"d": 2}, replicates=16)


def make_claim(**overrides: Any) -> Claim:
    kwargs: dict[str, Any] = {
        "id": "classic/sgd/rate",
        "source": SOURCE,
        "statement": "SGD's squared distance decays like 1/T.",
        "experiment": experiment,
        "sweeps": {"smoke": SMOKE, "quick": QUICK},
        "criterion": criterion(),
        "bound": BOUND,
    }
    kwargs.update(overrides)
    return Claim(**kwargs)


def test_claim_valid_and_described_as_json():
    claim = make_claim(notes="step 1/(μt)")
    assert claim.paper == "classic"
    assert claim.expect == "holds"
    doc = claim.describe()
    assert json.loads(json.dumps(doc, allow_nan=False)) == doc
    assert doc["id"] == "classic/sgd/rate"
    assert doc["paper"] == "classic"
    assert doc["source"] == SOURCE.short
    assert doc["citation"] == SOURCE.full
    assert doc["bound"] == BOUND.id
    assert doc["criterion"] == claim.criterion.describe()
    assert doc["criterion_spec"] == claim.criterion.to_dict()
    assert doc["expect"] == "holds"
    assert doc["notes"] == "step 1/(μt)"
    assert set(doc["profiles"]) == set(PROFILES)
    assert doc["profiles"]["smoke"] == SMOKE.to_dict()
    assert doc["profiles"]["full"] == QUICK.to_dict()
    assert make_claim(bound=None).describe()["bound"] is None


def test_claim_sweep_profiles_and_full_fallback():
    claim = make_claim()
    assert claim.sweep("smoke") is SMOKE
    assert claim.sweep("quick") is QUICK
    assert claim.sweep("full") is QUICK
    full = Sweep(grid={"T": [10, 100, 1000, 10000, 100000]}, replicates=8)
    with_full = make_claim(sweeps={"smoke": SMOKE, "quick": QUICK, "full": full})
    assert with_full.sweep("full") is full
    assert with_full.describe()["profiles"]["full"] == full.to_dict()
    with raises("must be one of", "profile"):
        claim.sweep("huge")


def test_claim_keeps_its_own_copy_of_the_sweeps():
    sweeps = {"smoke": SMOKE, "quick": QUICK}
    claim = make_claim(sweeps=sweeps)
    sweeps["full"] = SMOKE
    assert "full" not in claim.sweeps
    assert claim.sweep("full") is QUICK


@pytest.mark.parametrize(
    "bad_id",
    ["classic/sgd", "Classic/sgd/rate", "classic/sgd/Rate", "classic//rate", "/classic/a/b", ""],
)
def test_claim_id_format(bad_id):
    with raises("paper>/<theorem>/<slug>", "id"):
        make_claim(id=bad_id)


def test_claim_id_must_start_with_the_paper_key():
    with raises("'classic'", "id"):
        make_claim(id="minimax/thm4/rate")
    make_claim(id="classic/sgd/rate/sub-case_2")  # deeper ids are fine


def test_claim_experiment_must_be_a_module_level_function():
    def nested(params, seed):
        return {"y": 1.0}

    with raises("module-level", "experiment"):
        make_claim(experiment=lambda params, seed: {"y": 1.0})
    with raises("module-level", "experiment") as info:
        make_claim(experiment=nested)
    assert "nested" in str(info.value)
    with raises("module-level", "experiment"):
        make_claim(experiment=print)  # a builtin, not a Python function
    with raises("params: dict, seed: int", "experiment"):
        make_claim(experiment=one_argument)
    make_claim(experiment=two_positional)


@pytest.mark.parametrize(
    ("sweeps", "parameter", "match"),
    [
        ({"quick": QUICK}, "sweeps", "'smoke'"),
        ({"smoke": SMOKE}, "sweeps", "'quick'"),
        ({"smoke": SMOKE, "quick": QUICK, "huge": QUICK}, "sweeps", "profiles are"),
        ({"smoke": {"T": [1, 2, 3]}, "quick": QUICK}, "sweeps['smoke']", "must be a Sweep"),
        ([SMOKE, QUICK], "sweeps", "dict"),
    ],
)
def test_claim_sweeps_validation(sweeps, parameter, match):
    with raises(match, parameter):
        make_claim(sweeps=sweeps)


def test_claim_sweeps_are_checked_by_the_criterion():
    not_varied = Sweep(grid={"n": [1, 2, 3]}, fixed={"T": 10}, replicates=8)
    with raises("must be varied", "classic/sgd/rate: sweeps['quick']"):
        make_claim(sweeps={"smoke": SMOKE, "quick": not_varied})
    too_few = Sweep(grid={"T": [10, 100]})
    with raises("at least 3 values", "classic/sgd/rate: sweeps['smoke']"):
        make_claim(sweeps={"smoke": too_few, "quick": QUICK})
    mean = UpperBoundHolds("y", BOUND, x="T", bound_args={"G2": 1.0, "mu": 1.0})
    one = Sweep(grid={"T": [10, 100]}, replicates=1)
    with raises("at least 2 replicates", "classic/sgd/rate: sweeps['smoke']"):
        make_claim(criterion=mean, sweeps={"smoke": one, "quick": QUICK})
    make_claim(criterion=mean, sweeps={"smoke": SMOKE, "quick": QUICK})


@pytest.mark.parametrize(
    ("field", "value", "match"),
    [
        ("criterion", "slope -1", "Criterion"),
        ("expect", "maybe", "'holds' or 'violated'"),
        ("expect", "inconclusive", "'holds' or 'violated'"),
        ("statement", "  ", "empty"),
        ("bound", "classic.sgd.strongly-convex.distance", "Bound"),
        ("source", "classic — Lemma 1", "Citation"),
    ],
)
def test_claim_field_validation(field, value, match):
    with raises(match, field):
        make_claim(**{field: value})


def test_claim_expect_violated_and_result_status():
    claim = make_claim(expect="violated")
    assert claim.describe()["expect"] == "violated"

    def status(c: Claim, outcome: str) -> tuple[str, bool]:
        verdict = Verdict.error("x") if outcome == "error" else Verdict(outcome, "r")
        result = ClaimResult(c, "quick", verdict, 4, 16, 0, 16, 0.5)
        json.dumps(result.to_dict(), allow_nan=False)
        return result.status, result.passed

    holds = make_claim()
    assert status(holds, "holds") == ("holds", True)
    assert status(holds, "violated") == ("failed", False)
    assert status(claim, "violated") == ("violated-as-expected", True)
    assert status(claim, "holds") == ("failed", False)
    assert status(holds, "inconclusive") == ("inconclusive", False)
    assert status(claim, "error") == ("error", False)


def test_claim_source_defaults_to_the_bound_source():
    claim = make_claim(source=None)
    assert claim.source is BOUND.source
    assert claim.describe()["citation"] == BOUND.source.full
    other = Citation("classic", "a textbook statement of the same bound")
    assert make_claim(source=other).source is other  # an explicit source wins
    with raises("or a bound= whose source is cited", "source"):
        make_claim(source=None, bound=None)
    with raises("must be a Bound", "bound"):
        make_claim(source=None, bound="classic.sgd.strongly-convex.distance")


def test_claim_id_must_match_the_paper_of_the_defaulted_source():
    minimax_bound = bounds.get("minimax.thm4")
    with raises("'minimax'", "id"):
        make_claim(source=None, bound=minimax_bound)


# ============================================================================ Measurement


def make_measurement(**overrides: Any) -> Measurement:
    kwargs: dict[str, Any] = {
        "id": "classic/sgd/last-iterate",
        "experiment": experiment,
        "sweeps": {"smoke": SMOKE, "quick": QUICK},
        "notes": "Projected SGD.",
    }
    kwargs.update(overrides)
    return Measurement(**kwargs)


def test_measurement_claims_share_it_and_its_sweeps():
    data = make_measurement()
    assert data.paper == "classic"
    assert data.sweep("quick") is QUICK and data.sweep("full") is QUICK
    rate = data.claim(id="classic/sgd/rate", statement="1/T.", criterion=criterion(), bound=BOUND)
    mean = data.claim(
        id="classic/sgd/distance-bound",
        statement="E‖w_T − w*‖² ≤ 4G²/(μ²T).",
        criterion=UpperBoundHolds("dist2", BOUND, x="T", bound_args={"G2": 1.0, "mu": 1.0}),
        source=SOURCE,
        notes="G² is a supremum.",
    )
    assert rate.measurement is mean.measurement is data
    assert rate.experiment is mean.experiment is experiment
    assert rate.sweeps == mean.sweeps == {"smoke": SMOKE, "quick": QUICK}
    assert rate.source is BOUND.source
    assert rate.describe()["measures"] == mean.describe()["measures"] == "classic/sgd/last-iterate"
    assert rate.describe()["notes"] == "Projected SGD."
    assert mean.describe()["notes"] == "Projected SGD. G² is a supremum."
    assert mean == Claim(
        id="classic/sgd/distance-bound",
        statement="E‖w_T − w*‖² ≤ 4G²/(μ²T).",
        criterion=mean.criterion,
        source=SOURCE,
        measurement=data,
        notes="G² is a supremum.",
    )


def test_a_claim_alone_on_its_data_has_an_implicit_measurement_named_after_it():
    claim = make_claim(notes="own notes")
    assert claim.measurement.id == claim.id
    assert claim.measurement.experiment is experiment
    assert claim.measurement.sweeps == claim.sweeps
    assert claim.measurement.notes == ""
    assert claim.describe()["measures"] == claim.id
    assert claim.describe()["notes"] == "own notes"


def test_a_claim_may_judge_a_slice_of_its_own_of_a_measurement():
    shared = make_measurement(sweeps=None)
    with raises("no sweeps of its own", "sweeps"):
        shared.sweep("quick")
    with raises("has no sweeps of its own: give the claim's", "sweeps"):
        shared.claim(id="classic/sgd/rate", statement="1/T.", criterion=criterion(), bound=BOUND)
    tail = {"smoke": SMOKE, "quick": Sweep(grid={"T": [100, 1000, 10000]}, replicates=16)}
    claim = shared.claim(
        id="classic/sgd/rate", statement="1/T.", criterion=criterion(), bound=BOUND, sweeps=tail
    )
    assert claim.sweeps == tail and claim.sweeps is not tail
    assert claim.sweep("full") is tail["quick"]
    # the slice is checked like any sweep: by the profiles rule and by the criterion
    with raises("needs a 'smoke' sweep", "sweeps"):
        shared.claim(
            id="classic/sgd/rate",
            statement="1/T.",
            criterion=criterion(),
            bound=BOUND,
            sweeps={"quick": QUICK},
        )
    with raises("at least 3 values", "classic/sgd/rate: sweeps['smoke']"):
        shared.claim(
            id="classic/sgd/rate",
            statement="1/T.",
            criterion=criterion(),
            bound=BOUND,
            sweeps={"smoke": Sweep(grid={"T": [1, 2]}), "quick": QUICK},
        )


def test_measurement_of_another_paper_is_refused():
    other = make_measurement(id="minimax/fig1/appendix-d")
    with raises("must belong to the claim's paper 'classic'", "measurement") as info:
        other.claim(id="classic/sgd/rate", statement="1/T.", criterion=criterion(), bound=BOUND)
    assert info.value.value == "minimax/fig1/appendix-d"


@pytest.mark.parametrize(
    ("overrides", "parameter", "match"),
    [
        ({"measurement": None, "experiment": None}, "experiment", "give measurement="),
        ({"sweeps": None}, "sweeps", "experiment= needs sweeps="),
        ({"measurement": "classic/sgd/last-iterate"}, "measurement", "must be a Measurement"),
        ({"notes": 3}, "notes", "must be a str"),
    ],
)
def test_claim_needs_a_measurement_or_an_experiment(overrides, parameter, match):
    with raises(match, parameter):
        make_claim(**overrides)


def test_claim_with_a_measurement_takes_no_experiment():
    with raises("comes from the measurement 'classic/sgd/last-iterate'", "experiment") as info:
        make_claim(measurement=make_measurement(), sweeps=None)
    assert info.value.value == "experiment"  # the function's name


@pytest.mark.parametrize(
    ("overrides", "parameter", "match"),
    [
        ({"id": "classic/sgd"}, "id", "paper>/<theorem>/<slug>"),
        ({"id": "Classic/sgd/x"}, "id", "paper>/<theorem>/<slug>"),
        ({"experiment": lambda params, seed: {"y": 1.0}}, "experiment", "module-level"),
        ({"experiment": one_argument}, "experiment", "params: dict, seed: int"),
        ({"sweeps": {"smoke": SMOKE}}, "sweeps", "'quick'"),
        ({"sweeps": [SMOKE, QUICK]}, "sweeps", "dict"),
        ({"sweeps": {"smoke": SMOKE, "quick": {"T": [1]}}}, "sweeps['quick']", "a Sweep"),
        ({"notes": None}, "notes", "must be a str"),
    ],
)
def test_measurement_validation_names_the_parameter(overrides, parameter, match):
    with raises(match, parameter):
        make_measurement(**overrides)


def test_measurement_keeps_its_own_copy_of_the_sweeps():
    sweeps = {"smoke": SMOKE, "quick": QUICK}
    data = make_measurement(sweeps=sweeps)
    sweeps["full"] = SMOKE
    assert data.sweep("full") is QUICK


# ============================================================================ Measurements


def point(params: dict[str, Any], **values: list[float]) -> PointMeasurements:
    n = len(next(iter(values.values())))
    return PointMeasurements(
        params=params,
        replicates=np.arange(n),
        seeds=np.arange(n) + 100,
        values={k: np.asarray(v, dtype=float) for k, v in values.items()},
    )


def test_measurements_groups_split_by_other_parameters_and_sort_by_x():
    points = tuple(
        point({"d": 3, "T": t, "c": c}, y=[t * k, t * k + 1])
        for t in (100, 10, 1000)  # the sweep's order, not sorted
        for c, k in (("lo", 1), ("hi", 2))
    )
    data = Measurements("classic/sgd/rate", ("T", "c"), points)
    assert len(data) == 6
    groups = data.groups("T")
    assert [key for key, _ in groups] == [{"c": "lo"}, {"c": "hi"}]
    for key, curve in groups:
        assert curve.varied == ("T",)
        assert curve.claim_id == "classic/sgd/rate"
        assert curve.param("T").tolist() == [10, 100, 1000]
        assert {p.params["c"] for p in curve.points} == {key["c"]}
    by_c = data.groups("c")
    assert [key for key, _ in by_c] == [{"T": 100}, {"T": 10}, {"T": 1000}]
    assert [p.params["c"] for p in by_c[0][1].points] == ["hi", "lo"]  # sorted by x
    single = Measurements("classic/sgd/rate", ("T",), points[::2])
    assert [key for key, _ in single.groups("T")] == [{}]


def test_measurements_accessors():
    points = (point({"T": 10, "mu": 0.5}, y=[1.0, 2.0]), point({"T": 20, "mu": 0.5}, y=[3.0, 5.0]))
    data = Measurements("classic/sgd/rate", ("T",), points)
    assert data.param("T").tolist() == [10, 20]
    assert [c.tolist() for c in data.column("y")] == [[1.0, 2.0], [3.0, 5.0]]
    assert data.value_or_param("y", points[1]).tolist() == [3.0, 5.0]
    assert data.value_or_param("mu", points[0]).tolist() == [0.5, 0.5]
    with raises("neither an output", "name") as info:
        data.value_or_param("G2", points[0])
    assert "classic/sgd/rate" in str(info.value)
    with raises("returned only y", "output"):
        points[0]["z"]
    assert points[0].n == 2


def test_monotone_judges_groups_of_unsorted_measurements():
    # end to end: a sweep's unsorted order is judged along sorted x
    points = tuple(point({"T": t}, y=[float(t)]) for t in (100, 10, 1000))
    data = Measurements("classic/sgd/rate", ("T",), points)
    verdict = Monotone("T", "y", direction="increasing").judge(data)
    assert verdict.outcome == "holds"
