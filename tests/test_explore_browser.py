"""The bound explorer in a real headless browser (Chromium, driven by ``--dump-dom`` alone).

Three browser launches for the whole file, each a page with a test request that the page runs
on load (``fedtheory.explore._browser``):

- every bound of the registry the printer can express, on one page: at 20 random admissible
  points per bound (drawn here from each symbol's domain so that the hypotheses hold, judged by
  ``Bound.evaluate``) the page's value equals ``Bound.evaluate`` to 1e-9 relative and the page
  reports no failed hypothesis; at a point outside the hypotheses the page names exactly the
  hypotheses ``Bound.evaluate`` names;
- the documentation's dichotomy page: it loads without a console message; dragging a slider
  (an ``input`` event, as a user's drag) changes the plotted values; the crossover of local
  training and FedAvg is where the closed form R*² = ds²(1/n − 1/N) puts it, before and after;
- the documentation's FedLRGD page: typing a value that breaks Theorem 3's (88) shows the
  failed hypothesis and draws nothing of the bounds it belongs to; a wider ε range leaves
  Theorem 3's curve undrawn beyond ε = 1, with a message naming ε ≤ 1.

Chromium is required: without it the tests fail (CI installs it in ``.ci/run``).
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from fedtheory import bounds
from fedtheory.errors import ConditionError, ParameterError
from fedtheory.explore import explorer_html, write_explorer
from fedtheory.explore._browser import PageRun, find_chromium, run_page

ROOT = Path(__file__).resolve().parents[1]
POINTS = 20


def _pages_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("explorer_pages", ROOT / "docs/explorer/pages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["explorer_pages"] = module
    spec.loader.exec_module(module)
    return module


PAGES = _pages_module().PAGES


@pytest.fixture(scope="module", autouse=True)
def _chromium() -> None:
    if find_chromium() is None:
        pytest.fail(
            "Chromium is needed by the explorer's browser tests and was not found on PATH "
            "(chromium, chromium-browser): install it (apt-get install chromium; .ci/run does)"
        )


def _clean(run: PageRun) -> dict[str, Any]:
    """The page's test output, after checking that the page logged nothing and raised nothing."""
    assert run.console == [], run.console
    assert run.output is not None, "the page wrote no test output"
    assert run.output["errors"] == [], run.output["errors"]
    return run.output


# --------------------------------------------------------------------------- random points
def _draw(bound: bounds.Bound, rng: np.random.Generator, spread: float) -> dict[str, Any]:
    point: dict[str, Any] = {}
    for name, info in bound.info.items():
        symbol = info.symbol
        center = 1.0 if info.role == "constant" else float(bound.example[name])
        if center > 0 and (symbol.is_positive or symbol.is_nonnegative):
            value = center * 10 ** rng.uniform(-spread, spread)
        elif symbol.is_nonnegative:
            value = rng.uniform(0, spread)
        else:
            value = center + rng.uniform(-spread, spread) * max(1.0, abs(center))
        if symbol.is_integer:
            value = round(value)
            if symbol.is_positive:
                value = max(value, 1)
            elif symbol.is_nonnegative:
                value = max(value, 0)
        point[name] = value
    return point


def _normal(value: Any) -> bool:
    number = float(value)
    return math.isfinite(number) and (number == 0 or 1e-300 < abs(number) < 1e300)


def _holds(bound: bounds.Bound, points: list[dict[str, Any]]) -> np.ndarray:
    """Which points satisfy every hypothesis: a vectorized pre-selection with the bound's own
    compiled hypotheses (``evaluate`` then judges each chosen point; calling it on every
    candidate would build a ConditionError message, with sympy, for each failing one)."""
    arrays = {name: np.array([p[name] for p in points], dtype=float) for name in bound.info}
    ordered = bound._ordered(arrays, python_scalars=False)
    mask = np.ones(len(points), dtype=bool)
    with np.errstate(all="ignore"):
        for function in bound._hypothesis_functions:
            mask &= np.broadcast_to(np.asarray(function(*ordered), dtype=bool), mask.shape)
    return mask


def _admissible(
    bound: bounds.Bound, rng: np.random.Generator
) -> list[tuple[dict[str, Any], float, bool]]:
    """POINTS points where every hypothesis holds, with the value the page must show and
    whether it is the bound's value. Where float64 arithmetic overflows or underflows on the
    way, ``evaluate`` recomputes the value in arbitrary precision; the page, in float64, must
    then show float64's answer (``inf``/``nan`` as ``None``, or 0)."""
    found: list[tuple[dict[str, Any], float, bool]] = []
    for spread in (1.0, 0.3, 0.05, 0.0):
        candidates = [_draw(bound, rng, spread) for _ in range(60)]
        for point, holds in zip(candidates, _holds(bound, candidates), strict=True):
            if not holds:
                continue
            try:
                value = bound.evaluate(**point)  # the oracle, which checks the hypotheses too
            except ParameterError:  # a value outside float64
                continue
            if not _normal(value):
                continue
            float64 = float(bound._float_values(point, check=False)[2])
            exact = float64 == float(value) or (float64 != 0 and _normal(float64))
            found.append((point, float(value) if exact else float64, exact))
            if len(found) == POINTS:
                return found
    return found


def _outside(
    bound: bounds.Bound, rng: np.random.Generator
) -> tuple[dict[str, Any], set[str]] | None:
    """A point where some hypothesis fails, with every failed hypothesis ``evaluate`` names
    (``None`` when random draws around the example do not leave the hypotheses)."""
    for spread in (1.0, 3.0):
        candidates = [_draw(bound, rng, spread) for _ in range(60)]
        for point, holds in zip(candidates, _holds(bound, candidates), strict=True):
            if holds:
                continue
            try:
                bound.evaluate(**point)
            except ConditionError as exc:
                return point, set(exc.failed)
            except ParameterError:
                continue
            raise AssertionError(f"{bound.id}: evaluate accepts {point}")
    return None


def test_every_expressible_bound_agrees_with_evaluate(tmp_path: Path) -> None:
    expressible = [b for b in bounds.iter_bounds() if not b.sequences]
    assert len(expressible) == 212
    rng = np.random.default_rng(20260518)
    steps: list[dict[str, Any]] = []
    expected: list[tuple[str, list[tuple[dict[str, Any], float, bool]]]] = []
    outside: list[tuple[str, set[str]]] = []
    inside_points: list[list[Any]] = []
    outside_points: list[list[Any]] = []
    for index, bound in enumerate(expressible):
        found = _admissible(bound, rng)
        assert len(found) == POINTS, f"{bound.id}: only {len(found)} admissible points drawn"
        inside_points.extend([index, _keyed(bound, p)] for p, _, _ in found)
        expected.append((bound.id, found))
        if bound.hypotheses:
            found_outside = _outside(bound, rng)
            if found_outside is not None:
                outside_points.append([index, _keyed(bound, found_outside[0])])
                outside.append((bound.id, found_outside[1]))
    assert len(outside) >= 120, len(outside)
    steps = [
        {"op": "evaluateMany", "points": inside_points},
        {"op": "evaluateMany", "points": outside_points},
        # Assouad's per-δ bound d δ²(1 − √2 c_X δ √n_i)/2 turns negative for large δ
        {"op": "axis", "key": "delta_i"},
        {"op": "values"},
        {"op": "plotted"},
        {"op": "messages"},
    ]
    page = explorer_html(expressible, "T", flat=True)
    request = json.dumps({"steps": steps}).replace("</", "<\\/")
    path = tmp_path / "registry.html"
    path.write_text(
        page.replace(  # the request must be in the DOM before the page's script runs
            '<script type="application/json" id="explorer-data">',
            f'<script type="application/json" id="fedtheory-test">{request}</script>'
            '<script type="application/json" id="explorer-data">',
        ),
        encoding="utf-8",
    )
    output = _clean(run_page(path, budget_ms=20000))
    inside, out, _, page_values, plotted, messages = output["results"]
    assert output["bounds"] == [b.id for b in expressible]
    mismatches = []
    overflows: list[str] = []
    position = 0
    for bound_id, values in expected:
        for point, value, exact in values:
            got, failed = inside[position]
            position += 1
            if not exact:
                overflows.append(bound_id)
                agrees = got is None if not math.isfinite(value) else got == value
            else:
                agrees = got is not None and math.isclose(got, value, rel_tol=1e-9, abs_tol=0)
            if failed or not agrees:
                mismatches.append((bound_id, point, value, got, failed))
    assert mismatches == [], mismatches[:10]
    assert len(overflows) < 20, overflows  # the exception, not the rule
    for (bound_id, failed), (_, page_failed) in zip(outside, out, strict=True):
        assert set(page_failed) == failed, (bound_id, failed, page_failed)
    # values that are not positive are not drawn on the log scale, with a note
    assouad = [b.id for b in expressible].index("minimax.thm8.assouad")
    drawn = plotted[assouad]
    assert drawn and all(y > 0 for _, y in drawn)
    # 1 − √2 c_X δ √n_i < 0 beyond
    negative = 1 / (2**0.5 * page_values["c_X"] * page_values["n_i"] ** 0.5)
    assert max(x for x, _ in drawn) <= negative < 10  # 10: the end of the plotted range
    notes = [m["text"] for m in messages if m["bound"] == assouad]
    assert len(notes) == 1 and notes[0].startswith("minimax.thm8.assouad is not drawn for delta_i")
    assert notes[0].endswith("to 10: the value is not positive (log scale)"), notes


def _keyed(bound: bounds.Bound, point: dict[str, Any]) -> dict[str, Any]:
    """A point with the page's keys (an unknown constant is ``C@<bound id>``)."""
    return {
        (f"{n}@{bound.id}" if bound.info[n].role == "constant" else n): v for n, v in point.items()
    }


def test_dichotomy_page_sliders_and_crossover(tmp_path: Path) -> None:
    spec = dict(PAGES["dichotomy"])
    path = write_explorer(tmp_path / "dichotomy.html", spec.pop("bounds"), spec.pop("axis"), **spec)
    steps = [
        {"op": "values"},
        {"op": "plotted"},
        {"op": "crossovers"},
        {"op": "drag", "key": "n", "position": 800},  # a user's drag of the n slider
        {"op": "values"},
        {"op": "plotted"},
        {"op": "crossovers"},
        {"op": "messages"},
    ]
    output = _clean(run_page(path, request={"steps": steps}))
    values0, plotted0, crossings0, n_after, values1, plotted1, crossings1, messages = output[
        "results"
    ]
    ids = output["bounds"]
    assert ids == spec_ids("dichotomy")
    assert values1["n"] == n_after != values0["n"]
    assert values1["N"] == values1["m"] * values1["n"]  # the tie follows the slider
    plt, fedavg = ids.index("minimax.gmq.plt"), ids.index("minimax.gmq.fedavg")
    for before, after in zip(plotted0, plotted1, strict=True):
        assert len(before) > 100 and len(after) > 100
        assert [x for x, _ in before] == [x for x, _ in after]  # same R grid
        assert any(
            not math.isclose(a[1], b[1], rel_tol=1e-12) for a, b in zip(before, after, strict=True)
        )
    # each plotted point is the bound's value there (local training is flat in R)
    for points, values in ((plotted0, values0), (plotted1, values1)):
        oracle = bounds.get("minimax.gmq.fedavg")
        for x, y in points[fedavg][::40]:
            expected = oracle.evaluate(d=values["d"], s2=values["s2"], N=values["N"], R=x)
            assert math.isclose(y, expected, rel_tol=1e-9)
        assert {y for _, y in points[plt]} == {values["d"] * values["s2"] / (2 * values["n"])}
    for crossings, values in ((crossings0, values0), (crossings1, values1)):
        pair = [c for c in crossings if {c["a"], c["b"]} == {ids[plt], ids[fedavg]}]
        assert len(pair) == 1, crossings
        star = math.sqrt(values["d"] * values["s2"] * (1 / values["n"] - 1 / values["N"]))
        assert math.isclose(pair[0]["x"], star, rel_tol=1e-9), (pair, star)
    assert messages == []  # GM-Q's exact risks have no hypotheses; every value is drawn


def spec_ids(name: str) -> list[str]:
    return list(PAGES[name]["bounds"])


def test_fedlrgd_page_shows_failed_hypotheses(tmp_path: Path) -> None:
    spec = dict(PAGES["fedlrgd"])
    path = write_explorer(tmp_path / "fedlrgd.html", spec.pop("bounds"), spec.pop("axis"), **spec)
    steps = [
        {"op": "messages"},
        {"op": "set", "key": "phi", "value": 10},  # (88) needs φ ≥ 40/(C^{1/4}τ)
        {"op": "plotted"},
        {"op": "messages"},
        {"op": "set", "key": "phi", "value": 50},
        {"op": "drag", "key": "epsilon", "position": 0},
        {"op": "values"},
        {"op": "range", "low": 1e-6, "high": 100},  # beyond Theorem 3's ε ≤ 1
        {"op": "plotted"},
        {"op": "messages"},
    ]
    run = run_page(path, request={"steps": steps})
    output = _clean(run)
    ids = output["bounds"]
    messages0, phi, plotted, messages, _, _, values, _, wide, wide_messages = output["results"]
    assert messages0 == []
    assert phi == 10
    bracket = [ids.index("fedlrgd.thm3.upper"), ids.index("fedlrgd.thm3.lower")]
    for index, points in enumerate(plotted):
        if index in bracket:
            assert points == [], ids[index]  # nothing plotted where the hypothesis fails
        else:
            assert len(points) > 100, ids[index]
    current = {(m["bound"], m["text"]) for m in messages if m["kind"] == "current"}
    for index in bracket:
        assert (
            index,
            f"{ids[index]}: hypothesis phi ≥ 40/(C_A**(1/4)*tau) fails at the current point",
        ) in current
    assert {m["bound"] for m in messages} == set(bracket)
    # the failing hypothesis is visible on the page (the message list and the bound's card)
    assert "hypothesis phi ≥ 40/(C_A**(1/4)*tau) fails" in run.dom
    assert values["epsilon"] == pytest.approx(1e-8)  # the slider's low end
    thm3, fedgd = ids.index("fedlrgd.thm3"), ids.index("fedlrgd.prop1")
    assert wide[thm3] and max(x for x, _ in wide[thm3]) <= 1.0 < max(x for x, _ in wide[fedgd])
    texts = [m["text"] for m in wide_messages if m["bound"] == thm3 and m["kind"] == "hypothesis"]
    assert len(texts) == 1, texts
    assert texts[0].startswith("fedlrgd.thm3 is not drawn for epsilon from 1.0"), texts
    assert texts[0].endswith("to 100: hypothesis epsilon ≤ 1 fails"), texts


def test_chromium_errors_are_reported(tmp_path: Path) -> None:
    """The harness sees a broken page: an exception and a console message are caught."""
    page = explorer_html(["minimax.gmq.plt"], "n").replace(
        "// ------------------------------------------------------------------ the page",
        'console.log("planted"); null.planted;',
    )
    path = tmp_path / "broken.html"
    path.write_text(page, encoding="utf-8")
    run = run_page(path)
    assert any("planted" in line for line in run.console)
    assert any("Cannot read properties of null" in line for line in run.console)
    with pytest.raises(AssertionError):
        _clean(run)
