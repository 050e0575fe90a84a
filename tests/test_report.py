"""Tests of the verification report (``fedtheory.verify.report``) and ``fedtheory.plotting``."""

from __future__ import annotations

import copy
import io
import json
import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rich.console import Console

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.errors import ParameterError
from fedtheory.plotting import FigureSpec, Series
from fedtheory.verify import Claim, ClaimResult, Sweep, Verdict, report
from fedtheory.verify.criteria import Criterion, UpperBoundHolds
from fedtheory.verify.measurements import Measurements, PointMeasurements

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SCRIPT = "<script>alert('x')</script> & a < b"


def experiment(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Stand-in experiment (never run: the report only reads results)."""
    return {"y": float(seed)}


class StandIn(Criterion):
    """A criterion that only describes itself."""

    def judge(self, data: Any, *, seed: int = 0) -> Verdict:
        raise NotImplementedError

    def describe(self) -> str:
        return "log-log slope of y in T within -1 ± 0.1"

    def to_dict(self) -> dict[str, Any]:
        return {"criterion": "StandIn"}


SWEEP = Sweep(grid={"T": [10, 100, 1000]}, fixed={"d": 5}, replicates=4)


def make_claim(
    id: str,
    where: str,
    statement: str,
    *,
    bound: Any = None,
    expect: str = "holds",
    gating: bool = True,
):
    source = Citation(id.split("/")[0], where)
    return Claim(
        id=id,
        source=source,
        statement=statement,
        experiment=experiment,
        sweeps={"smoke": SWEEP, "quick": SWEEP},
        criterion=StandIn(),
        bound=bound,
        expect=expect,  # type: ignore[arg-type]
        notes="a note",
        gating=gating,
    )


def result(claim: Any, verdict: Verdict) -> ClaimResult:
    return ClaimResult(
        claim=claim,
        profile="quick",
        verdict=verdict,
        n_points=3,
        n_replicates=12,
        n_cached=8,
        n_computed=4,
        compute_seconds=1.25,
        file="verification/demo.py",
    )


T = (10.0, 100.0, 1000.0)


@pytest.fixture(scope="module")
def results() -> list[ClaimResult]:
    gd = bounds.get("classic.gd.strongly-convex")
    rate_figure = FigureSpec(
        x_label="T",
        y_label="f(x_T) − f*",
        x_log=True,
        y_log=True,
        title="GD on a quadratic",
        series=(
            Series("measured, d=5", T, (0.1, 0.011, 0.00098), "measured",
                   low=(0.08, 0.009, 0.0008), high=(0.12, 0.013, 0.0012), group="d=5"),
            Series("bound, d=5", T, (0.2, 0.02, 0.002), "bound", group="d=5"),
            Series("measured, d=10", T, (0.3, 0.03, 0.003), "measured",
                   low=(0.25, 0.02, 0.002), high=(0.35, 0.04, 0.004), group="d=10"),
            Series("bound, d=10", T, (0.6, 0.06, 0.006), "bound", group="d=10"),
            Series("fit", T, (0.1, 0.01, 0.001), "fit"),
            Series("1/T", T, (0.1, 0.01, 0.001), "reference"),
        ),
    )  # fmt: skip
    holds = result(
        make_claim("classic/gd/rate", "Theorem 2.1.15", "GD converges at rate 1/T.", bound=gd),
        Verdict(
            "holds",
            "the slope's CI lies inside the band",
            predicted="slope −1 ± 0.1",
            measured="slope −1.004",
            ci=(-1.0234, -0.98127),
            numbers={"slope": -1.004, "r2": 0.999, "undefined": math.nan},
            table=tuple(
                {"T": t, "mean": m, "n": 4} for t, m in zip(T, (0.1, 0.011, 0.00098), strict=True)
            ),
            figure=rate_figure,
        ),
    )
    erratum = result(
        make_claim(
            "minimax/thm4/erratum", "Theorem 4, eq. (9)", "The printed constant.", expect="violated"
        ),
        Verdict(
            "violated",
            "the bound is exceeded at n=10",
            predicted="≤ bound",
            measured="max ratio 2.5",
            numbers={"max_ratio": 2.5},
            counterexample={"params": {"n": 10, "d": 5}, "replicate": 1, "seed": 77,
                            "measured": 2.5, "bound": 1.0},
            figure=FigureSpec("n", "risk", (Series("risk", (1.0, 10.0), (0.5, 2.5)),)),
        ),
    )  # fmt: skip
    failed = result(
        make_claim("minimax/thm5/rate", "Theorem 5", "Rate 1/n."),
        Verdict("violated", "slope −0.5 outside the band", predicted="−1", measured="−0.5"),
    )
    broken = result(
        make_claim("classic/sgd/broken", "Lemma 1", SCRIPT),
        Verdict.error("ZeroDivisionError: division by zero in experiment"),
    )
    unsure = result(
        make_claim("fedlrgd/thm2/crossing", "Theorem 2", "Curves cross near n = d."),
        Verdict(
            "inconclusive",
            "the CI is too wide",
            ci=(-math.inf, 0.5),
            figure=FigureSpec(
                "n",
                "gap",
                (Series("gap", (0.0, 1.0, 10.0, 100.0), (-1.0, 0.0, 0.5, math.nan), "measured",
                        low=(-2.0, -1.0, 0.1, 0.2), high=(1.0, 1.0, 0.9, 0.8)),),
                x_log=True,
                y_log=True,
            ),
        ),
    )  # fmt: skip
    return [holds, erratum, failed, broken, unsure]


@pytest.fixture(scope="module")
def written(results: list[ClaimResult], tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("report")
    run_info = {
        "seed": 0,
        "executor": "local",
        "workers": 2,
        "seconds": 14.23,
        "store": directory / "results.sqlite",
        "command": ["fedtheory", "verify"],
    }
    paths = report.write_report(results, directory, run_info=run_info)
    assert paths["html"] == directory / "index.html"
    assert paths["json"] == directory / "verdicts.json"
    return directory


def test_summarize_and_summary_line(results: list[ClaimResult]) -> None:
    counts = report.summarize(results)
    assert counts == {"holds": 1, "violated-as-expected": 1, "failed": 1, "reported": 0,
                      "inconclusive": 1, "error": 1, "total": 5}  # fmt: skip
    line = report.summary_line(results, 14.23)
    assert line == (
        "5 claims: 1 holds, 1 violated-as-expected, 1 failed, 1 inconclusive, 1 error — 14.2 s"
    )
    assert report.summary_line([], None) == (
        "0 claims: 0 holds, 0 violated-as-expected, 0 failed, 0 inconclusive, 0 error"
    )


def test_table_plain_text_at_width_100(results: list[ClaimResult]) -> None:
    out = io.StringIO()
    report.render_table(results, Console(file=out, width=100, force_terminal=False))
    text = out.getvalue()
    assert "\x1b[" not in text  # no colour codes off a terminal
    assert max(len(line) for line in text.splitlines()) <= 100
    for r in results:
        assert r.claim.id in text
        assert r.verdict.outcome in text
    assert "[−1.02, −0.981]" in text  # CI with 3 significant digits
    assert "[−∞, 0.5]" in text
    assert text.count("✓") == 2 and "✗" in text
    # one reason line per claim that did not pass, after the table
    reasons = [line for line in text.splitlines() if line.startswith("✗ ")]
    assert len(reasons) == 3
    assert any("slope −0.5 outside the band" in line for line in reasons)
    assert any("ZeroDivisionError" in line for line in reasons)
    assert "claim / source" in text and "classic — Lemma 1" in text  # source under the id


def test_table_wide_console_has_a_source_column(results: list[ClaimResult]) -> None:
    out = io.StringIO()
    report.render_table(results, Console(file=out, width=160, force_terminal=False))
    header = out.getvalue().splitlines()[0].split()
    assert header == ["claim", "source", "criterion", "predicted", "measured", "CI", "outcome",
                      "pass"]  # fmt: skip
    assert "classic — Theorem 2.1.15" in out.getvalue()


def test_table_prints_markup_literally(results: list[ClaimResult]) -> None:
    claim = make_claim("classic/markup/text", "Lemma [bold]9[/bold]", "x")
    weird = result(claim, Verdict("inconclusive", "[red]not markup[/red]", measured="[i]m[/i]"))
    out = io.StringIO()
    report.render_table([weird], Console(file=out, width=100, force_terminal=False))
    text = out.getvalue()
    assert "[red]not markup[/red]" in text and "[i]m[/i]" in text and "[bold]9[/bold]" in text


def test_table_colours_on_a_terminal(results: list[ClaimResult]) -> None:
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=True, color_system="standard")
    report.render_table(results, console)
    assert "\x1b[" in out.getvalue()


def test_verdicts_json_is_strict_and_round_trips(written: Path, results: list[ClaimResult]) -> None:
    def no_constants(name: str) -> None:
        raise AssertionError(f"non-strict JSON constant {name}")

    doc = json.loads((written / "verdicts.json").read_text("utf-8"), parse_constant=no_constants)
    report.validate_verdicts(doc)
    assert doc["schema"] == "fedtheory.verdicts" and doc["schema_version"] == 1
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", doc["created"])
    assert doc["run"]["profile"] == "quick"
    assert doc["run"]["command"] == "fedtheory verify"
    assert doc["run"]["store"].endswith("results.sqlite")
    assert doc["summary"] == report.summarize(results)
    assert [c["id"] for c in doc["claims"]] == [r.claim.id for r in results]
    holds = doc["claims"][0]
    assert holds["status"] == "holds" and holds["passed"] is True
    assert holds["bound"] == "classic.gd.strongly-convex"
    assert holds["verdict"]["ci"] == [-1.0234, -0.98127]
    assert holds["verdict"]["numbers"] == {"slope": -1.004, "r2": 0.999, "undefined": None}
    assert holds["verdict"]["table"][2] == {"T": 1000.0, "mean": 0.00098, "n": 4}
    series = holds["verdict"]["figure"]["series"][0]
    assert series["low"] == [0.08, 0.009, 0.0008] and series["group"] == "d=5"
    assert doc["claims"][1]["verdict"]["counterexample"]["seed"] == 77
    assert doc["claims"][3]["verdict"]["figure"] is None
    unsure = doc["claims"][4]["verdict"]
    assert unsure["ci"] == [None, 0.5]  # -inf is not JSON
    assert unsure["figure"]["series"][0]["y"][3] is None
    assert (holds["n_points"], holds["n_cached"], holds["compute_seconds"]) == (3, 8, 1.25)


def _set(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "where"),
    [
        (("claims", 0, "verdict"), _DELETE, "verdicts.claims[0]"),
        (("run",), _DELETE, "verdicts"),
        (("schema_version",), "1", "verdicts.schema_version"),
        (("schema_version",), True, "verdicts.schema_version"),
        (("claims", 1, "passed"), "yes", "verdicts.claims[1].passed"),
        (("claims", 2, "verdict", "outcome"), "maybe", "verdicts.claims[2].verdict.outcome"),
        (("claims", 0, "verdict", "ci"), [1.0], "verdicts.claims[0].verdict.ci"),
        (("claims", 0, "n_points"), 2.5, "verdicts.claims[0].n_points"),
        (("claims", 0, "verdict", "numbers", "slope"), "x", "verdicts.claims[0].verdict.numbers"),
        (("claims", 0, "verdict", "figure", "series", 0, "role"), "line", "verdicts.claims[0]"),
        (("summary", "failed"), 0, "verdicts.summary.failed"),
        (("claims",), {}, "verdicts.claims"),
    ],
)
def test_validate_verdicts_rejects(written: Path, path: tuple[Any, ...], value: Any, where: str):
    doc = json.loads((written / "verdicts.json").read_text("utf-8"))
    report.validate_verdicts(copy.deepcopy(doc))
    _set(doc, path, value)
    with pytest.raises(ParameterError) as info:
        report.validate_verdicts(doc)
    assert str(info.value).startswith(where)


def test_schema_is_a_json_schema_document() -> None:
    schema = report.VERDICTS_SCHEMA
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    json.dumps(schema, allow_nan=False)
    refs = re.findall(r'"\$ref": "#/\$defs/(\w+)"', json.dumps(schema))
    assert refs and set(refs) <= set(schema["$defs"])


def test_html_is_self_contained(written: Path, results: list[ClaimResult]) -> None:
    text = (written / "index.html").read_text("utf-8")
    for r in results:
        assert r.claim.id in text
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", text, re.IGNORECASE)
    assert "<link" not in text and "@import" not in text and "url(" not in text
    assert text.count('src="data:image/png;base64,') == 3  # claims with a figure
    assert "Minimax Estimation for Personalized Federated Learning" in text  # paper title
    assert "<details>" in text and "<summary>Per-point numbers (3 rows)</summary>" in text
    # the bound's statement as MathML (quantity ≤ expression), no raw TeX
    assert '<math display="block">' in text and "<mo>≤</mo>" in text and r"\leq" not in text
    assert "classic.gd.strongly-convex" in text
    assert "Counterexample" in text and "77" in text
    assert "grid T ∈ {10, 100, 1000}" in text and "8 cached" in text
    assert '<span class="count failed">1 failed</span>' in text
    assert "profile quick" in text and "seed 0" in text


def test_html_escapes_text(written: Path) -> None:
    text = (written / "index.html").read_text("utf-8")
    assert text.count("<script") == 1  # the page's own inline script, none from a claim
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; a &lt; b" in text


def test_figures_are_pngs(written: Path, results: list[ClaimResult]) -> None:
    pngs = sorted((written / "figures").glob("*.png"))
    assert [p.name for p in pngs] == sorted(
        report.figure_name(r.claim.id) for r in results if r.verdict.figure is not None
    )
    for png in pngs:
        data = png.read_bytes()
        assert data[:8] == PNG_MAGIC
        assert len(data) > 10_000
    assert not list((written / "figures").glob(".*tmp"))  # no leftover temporary files


def test_write_figure_without_figure(results: list[ClaimResult], tmp_path: Path) -> None:
    assert report.write_figure(results[3], tmp_path / "x.png") is None
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize(
    ("y", "low", "high"),
    [
        ((-1.0, 0.0, -3.0), None, None),  # nothing positive: falls back to a linear axis
        ((1.0, -2.0, 0.5), (0.5, -3.0, -0.1), (2.0, -1.0, 1.0)),
        ((math.nan, math.inf, 1.0), (0.0, 0.0, 0.0), (math.nan, 1.0, 2.0)),
    ],
)
def test_nonpositive_values_on_log_axes(tmp_path: Path, y: Any, low: Any, high: Any) -> None:
    spec = FigureSpec(
        "n",
        "y",
        (Series("m", (0.0, 1.0, 2.0), y, "measured", low=low, high=high),
         Series("b", (-1.0, 1.0, 2.0), (1.0, 1.0, 1.0), "bound")),
        x_log=True,
        y_log=True,
    )  # fmt: skip
    claim = make_claim("classic/log/axes", "Lemma 2", "Positive only.")
    path = report.write_figure(
        result(claim, Verdict("holds", "ok", figure=spec)), tmp_path / "f.png"
    )
    assert path is not None and path.read_bytes()[:8] == PNG_MAGIC


def test_report_keeps_unrelated_files_and_survives_a_bad_figure(
    results: list[ClaimResult], tmp_path: Path
) -> None:
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "old.png").write_bytes(b"old")
    (tmp_path / "notes.txt").write_text("keep")
    bad = result(
        make_claim("classic/bad/figure", "Lemma 3", "Mismatched series."),
        Verdict("holds", "ok", figure=FigureSpec("x", "y", (Series("s", (1.0, 2.0), (1.0,)),))),
    )
    with pytest.warns(RuntimeWarning, match="classic/bad/figure: could not draw the figure"):
        paths = report.write_report([*results[:2], bad], tmp_path, run_info=None)
    assert (tmp_path / "figures" / "old.png").read_bytes() == b"old"
    assert (tmp_path / "notes.txt").read_text() == "keep"
    assert "classic/bad/figure" not in paths and "classic/gd/rate" in paths
    doc = json.loads(paths["json"].read_text("utf-8"))
    report.validate_verdicts(doc)
    assert doc["run"] == dict.fromkeys(report.RUN_KEYS) | {"profile": "quick"}
    assert "classic/bad/figure" in paths["html"].read_text("utf-8")


def test_series_colors_follow_groups() -> None:
    from fedtheory.plotting import NEUTRAL_COLOR, PALETTE, REFERENCE_COLOR, series_colors

    s = (
        Series("a", (1.0,), (1.0,), group="g1"),
        Series("b", (1.0,), (1.0,), "bound", group="g2"),
        Series("c", (1.0,), (1.0,), "bound", group="g1"),
        Series("d", (1.0,), (1.0,)),
        Series("e", (1.0,), (1.0,)),
        Series("f", (1.0,), (1.0,), "fit"),
        Series("r", (1.0,), (1.0,), "reference", group="g1"),
    )
    colors = series_colors(s)
    assert colors[0] == colors[2] == PALETTE[0] and colors[1] == PALETTE[1]
    assert len({colors[0], colors[1], colors[3], colors[4]}) == 4
    assert colors[5] == NEUTRAL_COLOR and colors[6] == REFERENCE_COLOR
    single = series_colors((Series("m", (1.0,), (1.0,)), Series("b", (1.0,), (1.0,), "bound")))
    assert single[0] == single[1]


def test_figure_styles_scales_and_colours(results: list[ClaimResult]) -> None:
    from matplotlib.colors import to_hex

    from fedtheory.plotting import REFERENCE_COLOR, figure_from_spec

    spec = results[0].verdict.figure
    assert spec is not None
    fig = figure_from_spec(spec, title="classic/gd/rate")
    (ax,) = fig.axes
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
    assert ax.get_title() == "classic/gd/rate\nGD on a quadratic"
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert to_hex(lines["measured, d=5"].get_color()) == to_hex(lines["bound, d=5"].get_color())
    assert to_hex(lines["measured, d=10"].get_color()) == to_hex(lines["bound, d=10"].get_color())
    assert lines["measured, d=5"].get_color() != lines["measured, d=10"].get_color()
    assert lines["measured, d=5"].get_marker() == "o"
    assert lines["bound, d=5"].get_linestyle() == "--"
    assert lines["fit"].get_linestyle() == ":"
    assert to_hex(lines["1/T"].get_color()) == REFERENCE_COLOR
    assert len(ax.collections) == 2  # one CI band per measured series
    legend = ax.get_legend()
    assert legend is not None
    assert "95% CI of the mean" in [t.get_text() for t in legend.get_texts()]


def test_figure_log_axis_without_positive_values_falls_back_to_linear() -> None:
    from fedtheory.plotting import figure_from_spec

    spec = FigureSpec(
        "n", "y", (Series("m", (1.0, 10.0, 100.0), (-1.0, 0.0, -2.0)),), x_log=True, y_log=True
    )
    (ax,) = figure_from_spec(spec).axes
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "linear")
    notes = " ".join(t.get_text() for t in ax.texts)
    assert "linear y axis: no positive values" in notes
    assert "not shown" not in notes  # on the linear axis every point is shown
    spec = FigureSpec("n", "y", (Series("m", (1.0, 10.0, 100.0), (1.0, 0.0, -2.0)),), y_log=True)
    (ax,) = figure_from_spec(spec).axes
    assert ax.get_yscale() == "log"
    assert "2 points not shown" in " ".join(t.get_text() for t in ax.texts)
    spec = FigureSpec("n", "y", (Series("m", (1.0, 10.0), (1.0, 2.0)),))
    (ax,) = figure_from_spec(spec).axes
    assert (ax.get_xscale(), ax.get_yscale()) == ("linear", "linear")


def test_ci_band_masks_what_a_log_axis_cannot_show() -> None:
    from fedtheory.plotting import ci_band, new_figure, png_bytes

    fig, ax = new_figure()
    ax.set_yscale("log")
    hidden = ci_band(ax, [1, 2, 3, 4], [0.5, -1.0, 1.0, None], [2.0, 3.0, -0.5, 4.0], "C0")
    assert hidden == 2  # high <= 0, and a missing low; a low <= 0 reaches the bottom
    assert len(ax.collections) == 1
    assert png_bytes(fig)[:8] == PNG_MAGIC
    with pytest.raises(ValueError, match="differ in length"):
        ci_band(ax, [1, 2], [1.0], [2.0, 3.0], "C0")


def test_figure_legend_names_groups_once() -> None:
    from fedtheory.plotting import figure_from_spec

    x = (1.0, 10.0)
    spec = FigureSpec(
        "T",
        "err",
        tuple(
            s
            for g in ("m=1", "m=4")
            for s in (
                Series("measured err", x, (1.0, 0.1), group=g),
                Series("predicted", x, (1.0, 0.1), "reference", group=g),
            )
        ),
    )
    (ax,) = figure_from_spec(spec).axes
    legend = ax.get_legend()
    assert legend is not None
    texts = [t.get_text() for t in legend.get_texts()]
    assert texts == ["measured err (m=1)", "predicted", "measured err (m=4)"]


def _loaded_verify_modules(imports: str) -> list[str]:
    """The fedtheory.verify modules a fresh interpreter holds after ``imports``."""
    code = (
        f"import sys\n{imports}\n"
        "print(sorted(m for m in sys.modules if m.startswith('fedtheory.verify')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(done.stdout.strip().replace("'", '"'))


def test_plotting_sits_below_verify() -> None:
    # the figure data model and the drawing helpers import nothing from the engine ...
    assert _loaded_verify_modules("import fedtheory.plotting, fedtheory.plotting.draw") == []
    # ... while the engine uses them (the probe does see verify modules when they are loaded;
    # the package imports its names on first use)
    assert "fedtheory.verify.verdict" in _loaded_verify_modules(
        "from fedtheory.verify import Verdict"
    )
    import fedtheory.plotting
    import fedtheory.verify

    assert fedtheory.verify.FigureSpec is fedtheory.plotting.FigureSpec
    assert fedtheory.verify.Series is fedtheory.plotting.Series


def _bound_result(claim_id: str, measured: list[float]) -> ClaimResult:
    """A claim judged by UpperBoundHolds on one replicate per point, bound 1 everywhere."""
    points = tuple(
        PointMeasurements(
            params={"T": t},
            replicates=np.arange(1),
            seeds=np.array([i]),
            values={"y": np.array([y]), "bound": np.array([1.0])},
        )
        for i, (t, y) in enumerate(zip(T, measured, strict=True))
    )
    criterion = UpperBoundHolds("y", "bound", over="every")
    verdict = criterion.judge(Measurements(claim_id, ("T",), points))
    return result(make_claim(claim_id, "Theorem 1", "y stays below the bound."), verdict)


def test_huge_slack_is_reported_as_resolving_power(tmp_path: Path) -> None:
    loose = _bound_result("classic/gd/loose", [1e-4, 1 / 3200, 1e-5])  # tightest: ×3.2·10³
    sharp = _bound_result("classic/gd/sharp", [0.1, 1 / 5.6, 0.01])  # tightest: ×5.60
    sentence = "cannot see constant errors below ×3.2·10³ (slack at the tightest point)"
    assert report.resolving_power_note(loose.verdict) == sentence
    assert report.resolving_power_note(sharp.verdict) is None

    report.write_report([loose, sharp], tmp_path)
    text = (tmp_path / "index.html").read_text("utf-8")
    assert f'<dt>Resolving power</dt><dd class="warn">⚠ {sentence}</dd>' in text
    sharp_card = text[text.index('id="claim-classic__gd__sharp"') :]
    assert "<dt>Resolving power</dt><dd>×5.60 (slack at the tightest point)" in sharp_card
    assert "cannot see" not in sharp_card  # no warning below 10²
    doc = json.loads((tmp_path / "verdicts.json").read_text("utf-8"))
    report.validate_verdicts(doc)
    powers = [c["verdict"]["numbers"]["resolving_power"] for c in doc["claims"]]
    assert powers == pytest.approx([3200, 5.6], rel=1e-8)

    out = io.StringIO()
    report.render_table([loose, sharp], Console(file=out, width=300, force_terminal=False))
    assert text.count("⚠") == 1 and out.getvalue().count("⚠") == 1
    assert sentence in out.getvalue()
    out = io.StringIO()
    report.render_table([loose, sharp], Console(file=out, width=100, force_terminal=False))
    assert max(len(line) for line in out.getvalue().splitlines()) <= 100
    assert "⚠ cannot see" in out.getvalue()


def test_a_claim_that_does_not_gate_is_reported_and_never_fails_the_run(tmp_path: Path) -> None:
    """gating=False (an experiment-level reproduction): its outcome is judged, stored and shown
    as "reported" in the summary, the table, the HTML card and verdicts.json, and the exit
    status ignores it; a gating claim with the same outcome fails the run."""
    from fedtheory.verify.runner import VerifyRun

    verdict = Verdict("violated", "FedAvg ahead at round 30", predicted="FFGB ≥ FedAvg")
    loose_claim = make_claim("ffgb/x3/fig1", "Fig. 1", "FFGB beats FedAvg.", gating=False)
    loose = result(loose_claim, verdict)
    strict = result(make_claim("ffgb/x3/fig1-gating", "Fig. 1", "FFGB beats FedAvg."), verdict)
    assert loose.status == "reported" and not loose.passed and loose.acceptable
    assert strict.status == "failed" and not strict.acceptable
    assert VerifyRun((loose,), 1.0, {}).exit_code == 0
    assert VerifyRun((loose, strict), 1.0, {}).exit_code == 1
    holding = result(
        make_claim("ffgb/x3/fig3", "Fig. 3", "FFGB beats FedAvg.", gating=False),
        Verdict("holds", "FFGB ahead", predicted="FFGB ≥ FedAvg"),
    )
    assert holding.status == "holds" and holding.acceptable

    assert report.summary_line([loose, holding]) == (
        "2 claims: 1 holds, 0 violated-as-expected, 0 failed, 1 reported, 0 inconclusive, 0 error"
    )
    out = io.StringIO()
    report.render_table([loose, holding], Console(file=out, width=100, force_terminal=False))
    text = out.getvalue()
    assert "(✗)" in text and "(✓)" in text and "not gating" in text
    assert "✗ ffgb/x3/fig1" not in text  # no failure line: it does not fail the run

    report.write_report([loose, holding], tmp_path)
    doc = json.loads((tmp_path / "verdicts.json").read_text())
    report.validate_verdicts(doc)
    by_id = {c["id"]: c for c in doc["claims"]}
    assert by_id["ffgb/x3/fig1"]["gating"] is False
    assert by_id["ffgb/x3/fig1"]["status"] == "reported"
    assert doc["summary"]["reported"] == 1
    html = (tmp_path / "index.html").read_text()
    assert "reported, not gating" in html


def test_gating_must_be_a_bool() -> None:
    with pytest.raises(ParameterError, match="gating"):
        make_claim("ffgb/x3/bad", "Fig. 1", "x", gating="no")  # type: ignore[arg-type]
