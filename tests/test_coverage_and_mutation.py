"""Bound coverage (``catalog --coverage``), declared bound uses and mutation analysis."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
import sympy as sp

from fedtheory import bounds
from fedtheory.bounds import mutation
from fedtheory.bounds._usage import recording
from fedtheory.errors import ParameterError
from fedtheory.verify import discovery
from fedtheory.verify.coverage import coverage

REPO = Path(__file__).resolve().parents[1]
CATALOG = REPO / "verification"


@pytest.fixture(scope="module")
def catalog() -> list[discovery.LoadedClaim]:
    return discovery.discover(CATALOG)


#: Bounds known to be judged by no claim yet, without a reason (issue 12 is open on them): the
#: list must shrink, never grow — a new bound arriving unexercised fails the test below.
KNOWN_GAPS: set[str] = set()


def test_every_registered_bound_is_judged_or_says_why(catalog) -> None:
    rows = coverage(catalog)
    unexercised = [r.bound.id for r in rows if r.status == "unexercised"]
    closed = KNOWN_GAPS - set(unexercised)
    assert not closed, f"judged now or given a reason: remove {sorted(closed)} from KNOWN_GAPS"
    unexercised = sorted(set(unexercised) - KNOWN_GAPS)
    assert not unexercised, (
        f"bounds that no claim evaluates on data and that give no reason: {unexercised}; add a "
        "claim that judges them (criterion, uses=) or Bound(..., unjudged='why')"
    )
    stale = [r.bound.id for r in rows if r.status == "stale-reason"]
    assert not stale, f"bounds judged by claims although their unjudged reason says not: {stale}"
    assert {r.bound.id for r in rows} == set(bounds.ids())


EVALUATING = """
from fedtheory import bounds
from fedtheory.verify import Measurement, Monotone, RateExponent, Sweep

RATE = bounds.get("classic.sgd.strongly-convex.distance")
STEP = bounds.get("classic.gd.strongly-convex")
IDLE = bounds.get("classic.inexact-gd")
POWER = float(RATE.exponent("T").power)  # evaluated while loading


def experiment(params, seed):
    gap = float(STEP.evaluate(L=10, mu=1, T=params["T"], Delta0=1))
    return {"y": 1.0 / params["T"], "gap": gap}


grid = Sweep(grid={"T": [1, 10, 100]})
runs = Measurement(
    id="classic/demo/runs", experiment=experiment, sweeps={"smoke": grid, "quick": grid},
    uses=[STEP, IDLE],
)
rate = runs.claim(id="classic/demo/rate", source=RATE.source, statement="1/T.",
                  criterion=RateExponent("T", "y", expected=POWER), uses=[RATE])
trend = runs.claim(id="classic/demo/trend", source=RATE.source, statement="decreasing.",
                   criterion=Monotone("T", "gap", direction="decreasing"))
"""


def test_a_run_reports_the_bounds_each_experiment_evaluated(tmp_path) -> None:
    # what tests/test_catalog.py checks the declared uses of the catalog against: the bounds a
    # file evaluates while loading, and those its experiments evaluate in the workers
    from fedtheory.verify import verify
    from fedtheory.verify.report import verdicts_document

    file = tmp_path / "claims.py"
    file.write_text(EVALUATING)
    [rate, trend] = discovery.load_claim_file(file)
    assert rate.evaluated_at_load == trend.evaluated_at_load == {RATE_ID}
    run = verify([file], profile="smoke", store=tmp_path / "s.sqlite", workers=1)
    # computed once (under the first claim's tasks), reported for both claims of the measurement
    assert [r.n_computed for r in run.results] == [3, 0]
    assert [r.evaluated for r in run.results] == [{STEP_ID}, {STEP_ID}]
    doc = verdicts_document(list(run.results))
    assert [c["evaluated"] for c in doc["claims"]] == [[STEP_ID], [STEP_ID]]
    # the declared-but-never-evaluated bound (IDLE) is what such a check finds
    declared = {b.origin for c in (rate, trend) for b in (*c.claim.uses, *c.claim.measurement.uses)}
    assert declared - rate.evaluated_at_load - run.results[0].evaluated == {"classic.inexact-gd"}
    # cached replicates do not run: nothing is known of what they evaluate
    again = verify([file], profile="smoke", store=tmp_path / "s.sqlite", workers=1)
    assert [r.evaluated for r in again.results] == [None, None]
    assert [c["evaluated"] for c in verdicts_document(list(again.results))["claims"]] == [
        None,
        None,
    ]


RATE_ID = "classic.sgd.strongly-convex.distance"
STEP_ID = "classic.gd.strongly-convex"


def test_a_claim_file_evaluating_an_undeclared_bound_is_refused(tmp_path) -> None:
    file = tmp_path / "claims.py"
    file.write_text(
        textwrap.dedent(
            """
            from fedtheory import bounds
            from fedtheory.verify import Claim, RateExponent, Sweep

            B = bounds.get("classic.sgd.strongly-convex.distance")
            POWER = float(B.exponent("T").power)

            def experiment(params, seed):
                return {"y": 1.0 / params["T"]}

            grid = Sweep(grid={"T": [1, 10, 100]})
            claim = Claim(id="classic/demo/rate", source=B.source, statement="1/T",
                          experiment=experiment, sweeps={"smoke": grid, "quick": grid},
                          criterion=RateExponent("T", "y", expected=POWER))
            """
        )
    )
    with pytest.raises(ParameterError, match=r"classic\.sgd\.strongly-convex\.distance"):
        discovery.load_claim_file(file)
    file.write_text(file.read_text().replace("POWER))", "POWER), uses=[B])"))
    [loaded] = discovery.load_claim_file(file)
    assert loaded.claim.bounds == ("classic.sgd.strongly-convex.distance",)


def test_uses_must_be_bounds() -> None:
    from fedtheory.verify import Measurement, Sweep

    def experiment(params, seed):
        return {"y": 1.0}

    grid = Sweep(grid={"T": [1, 2]})
    with pytest.raises(ParameterError, match="uses"):
        Measurement(
            id="classic/demo/x",
            experiment=experiment,
            sweeps={"smoke": grid, "quick": grid},
            uses=["classic.gd.strongly-convex"],
        )


def test_recording_follows_substituted_bounds() -> None:
    with recording() as used:
        bounds.get("classic.gd.strongly-convex").subs(L=10, mu=1).evaluate(T=3, Delta0=1)
    assert used == {"classic.gd.strongly-convex"}


def test_mutants_cover_every_operator_and_are_deterministic() -> None:
    found = mutation.mutants("minimax.gmq.crossing")
    labels = [m.label for m in found]
    assert "whole bound ×2" in labels and "whole bound ÷2" in labels
    assert "exponent of n: -1 → -1/2" in labels
    assert "symbols N ↔ n" in labels
    assert "term 1/n dropped" in labels
    assert [m.id for m in found] == [f"minimax.gmq.crossing~{k}" for k in range(1, len(found) + 1)]
    assert [m.digest for m in mutation.mutants("minimax.gmq.crossing")] == [m.digest for m in found]
    original = bounds.get("minimax.gmq.crossing").expr
    assert all(sp.srepr(m.expr) != sp.srepr(original) for m in found)


def test_constants_are_mutated_but_not_unit_signs() -> None:
    n = sp.Symbol("n", positive=True, integer=True)
    demo = bounds.Bound(
        "classic.demo",
        8 / n - 1 / (2 * n**2),
        kind="upper",
        quantity="error",
        source=bounds.Citation("classic", "a demo"),
        example={"n": 10},
    )
    constants = sorted(m.label for m in mutation.mutants(demo) if m.operator == "constant")
    assert constants == [
        "constant -1/2 ×2 (→ -1)",
        "constant -1/2 ÷2 (→ -1/4)",
        "constant 8 ×2 (→ 16)",
        "constant 8 ÷2 (→ 4)",
    ]


def test_equivalent_mutants_are_flagged() -> None:
    # a symmetric expression: swapping the two symbols changes nothing
    equal = [m for m in mutation.mutants("classic.gd.strongly-convex") if m.equivalent]
    for m in equal:
        b = bounds.get(m.bound)
        point = {**b.example, **dict.fromkeys(b.constants, 1)}
        with mutation.applied(m):
            mutated = b.evaluate(**point)
        assert mutated == pytest.approx(b.evaluate(**point))
    swaps = [m for m in mutation.mutants("minimax.thm6.aer") if m.operator == "swap"]
    assert [m.equivalent for m in swaps if "beta ↔ ell_inf" in m.label] == [True]


def test_an_order_statement_ignores_its_constant() -> None:
    # O(f) and O(2f) are one statement: the whole-bound rescalings of an order bound are
    # equivalent, its exponent mutants (m/N → (m/N)^(3/2) moves every ratio) are not
    found = mutation.mutants("minimax.minimax-rate.aer")
    assert [m.equivalent for m in found if m.operator == "scale"] == [True, True]
    assert not any(m.equivalent for m in found if m.operator == "exponent")
    # an upper bound with a value keeps its constant mutants
    exact = mutation.mutants("minimax.gmq.fedavg")
    assert not any(m.equivalent for m in exact if m.operator == "scale")


def test_applied_plants_and_restores() -> None:
    bound = bounds.get("minimax.gmq.crossing")
    example = dict(bound.example)
    before = bound.evaluate(**example)
    doubled = next(m for m in mutation.mutants(bound) if m.label == "whole bound ×2")
    with mutation.applied(doubled):
        assert mutation.active() is doubled
        assert bound.evaluate(**example) == pytest.approx(2 * before, rel=1e-15)
    assert mutation.active() is None
    assert bound.evaluate(**example) == before


def test_mutant_from_dict_checks_the_expression() -> None:
    mutant = mutation.mutants("minimax.gmq.crossing")[0]
    assert mutation.mutant_from_dict(mutant.to_dict()) == mutant
    with pytest.raises(ParameterError, match="another expression"):
        mutation.mutant_from_dict({**mutant.to_dict(), "digest": "0" * 16})
    with pytest.raises(ParameterError, match="no such mutant"):
        mutation.mutant_from_dict({**mutant.to_dict(), "id": "minimax.gmq.crossing~999"})


def test_mutants_are_made_once_per_process_and_expression(monkeypatch) -> None:
    # a worker remakes the mutant of every task from its id (mutant_from_dict): making the 86
    # mutants of fedlrgd.thm2.rank took 3–10 s of sympy per task, which is what made
    # `fedtheory mutate --paper fedlrgd` crawl; the mutants of a bound are now made once
    bound = bounds.get("fedlrgd.thm2.rank")
    first = mutation.mutants(bound)
    made: list[str] = []
    real = mutation._make_mutants

    def counted(b: bounds.Bound) -> tuple[mutation.Mutant, ...]:
        made.append(b.id)
        return real(b)

    monkeypatch.setattr(mutation, "_make_mutants", counted)
    for mutant in first[:5]:
        assert mutation.mutant_from_dict(mutant.to_dict()) is mutant
    again = mutation.mutants("fedlrgd.thm2.rank")
    assert again == first and again is not first  # a new list of the same mutants
    assert made == []
    # under a planted mutant the registered object has another expression: its own mutants
    with mutation.applied(first[0]):
        planted = mutation.mutants(bound)
    assert made == ["fedlrgd.thm2.rank"]
    assert [m.digest for m in planted] != [m.digest for m in first]
    assert mutation.mutants(bound) == first and made == ["fedlrgd.thm2.rank"]
    # another bound object is another key, even with the same id and expression
    n = sp.Symbol("n", positive=True, integer=True)
    demo = [
        bounds.Bound(
            "classic.demo",
            8 / n,
            kind="upper",
            quantity="error",
            source=bounds.Citation("classic", "a demo"),
            example={"n": n_example},
        )
        for n_example in (10, 20)
    ]
    counts = [len(mutation.mutants(b)) for b in demo]
    assert counts[0] == counts[1] > 0
    assert made[1:] == ["classic.demo", "classic.demo"]


def test_claim_files_reload_under_a_mutant_of_a_bound_they_evaluated() -> None:
    # logistic_model.py reads the exponent of minimax.dichotomy.threshold while loading: a
    # mutant of it must reload the file (its expected exponent changes); a mutant of a bound it
    # does not evaluate while loading reuses the module (its claims see the registry as it is)
    file = CATALOG / "minimax" / "logistic_model.py"

    def crossing_claim() -> Any:
        [found] = [
            c.claim
            for c in discovery.load_claim_file(file)
            if c.claim.id == "minimax/dichotomy/crossing-scales-like-sqrt-m-over-n"
        ]
        return found

    before = crossing_claim()
    threshold = next(
        m
        for m in mutation.mutants("minimax.dichotomy.threshold")
        if m.label == "exponent of N: -1 → -2"
    )
    with mutation.applied(threshold):
        during = crossing_claim()
    assert during is not before
    assert during.criterion.scaling[1] == -1.0 != before.criterion.scaling[1]
    after = crossing_claim()
    assert after.criterion.scaling == before.criterion.scaling
    with mutation.applied(mutation.mutants("minimax.lemma7.beta")[0]):
        assert crossing_claim() is after


def test_mutate_kills_planted_bugs_of_a_judged_bound(tmp_path) -> None:
    from fedtheory.verify.mutate import mutate
    from fedtheory.verify.mutation_report import write_mutation_report

    run = mutate(
        CATALOG / "minimax" / "lemma7.py",
        bound="minimax.lemma7.beta",
        store=tmp_path / "r.sqlite",
        workers=1,
    )
    [result] = run.bounds
    assert result.claims and result.count("survived") == 0
    assert result.count("killed") == len(result.results) > 0
    assert run.score("minimax")[2] == 1.0
    written = write_mutation_report(run, tmp_path / "report")
    data = json.loads(written["json"].read_text())
    assert data["scores"]["minimax"]["killed"] == result.count("killed")
    assert "minimax.lemma7.beta~1" in written["html"].read_text()


def test_a_change_of_units_kills_the_exponent_mutants_of_d(tmp_path) -> None:
    # Lemma 14, 8D²β²/(μ²(k+1)): every claim runs GM-Q, where β = μ = 1, so a mutant of their
    # exponents is a constant factor on the data; D moves with the data's units (× s), so the
    # change-of-units claim kills every mutant of its exponent.
    from fedtheory.verify.mutate import mutate

    run = mutate(
        CATALOG / "minimax" / "fedprox.py",
        bound="minimax.lemma14",
        store=tmp_path / "r.sqlite",
        workers=1,
    )
    [result] = run.bounds
    by_label = {r.mutant.label: r for r in result.results}
    for step in ("5/2", "3/2", "3", "1"):
        killed = by_label[f"exponent of D: 2 → {step}"]
        assert killed.fate == "killed", killed
        assert "minimax/lemma14/change-of-units" in killed.killers
    beta = by_label["exponent of beta: 2 → 3"]
    assert beta.fate == "survived"
    assert beta.explanation.startswith("equal to the bound at every point the claims judge")


def test_mutate_reports_unjudged_bounds(tmp_path) -> None:
    from fedtheory.verify.mutate import mutate

    run = mutate(
        CATALOG / "minimax" / "lemma7.py",
        bound="minimax.lemma15.local-steps",
        store=tmp_path / "r.sqlite",
        workers=1,
    )
    [result] = run.bounds
    assert not result.claims
    assert {r.fate for r in result.results} <= {"unjudged", "equivalent"}
    assert run.score()[1] == 0


def test_mutate_refuses_a_bound_of_another_paper(tmp_path) -> None:
    from fedtheory.verify.mutate import mutate

    with pytest.raises(ParameterError, match="--bound"):
        mutate(CATALOG, paper="fedlrgd", bound="minimax.gmq.crossing", store=tmp_path / "r")
