"""Rich displays in notebooks: ``Bound._repr_latex_`` with its hypotheses, and the HTML of a
``Verdict``, a ``ClaimResult`` and a ``VerifyRun`` (``_repr_html_``), drawn from the pieces of
the HTML report (badges, colours, the claim figure).

The results come from a real smoke run of the catalog's Lemma 7 claims of the minimax paper
(an erratum and two holding claims, numpy only, well under a second).
"""

from __future__ import annotations

import base64
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.plotting import stamp_text
from fedtheory.verify import Claim, ClaimResult, Sweep, UpperBoundHolds, Verdict, VerifyRun, verify
from fedtheory.verify._display import badge, status_css
from fedtheory.verify.report import write_figure, write_html

ROOT = Path(__file__).resolve().parents[1]
LEMMA7 = ROOT / "verification" / "minimax" / "lemma7.py"
VOID = {"img", "br", "meta", "hr", "input", "col", "wbr"}


class Page(HTMLParser):
    """Parses a fragment, checks that every element is closed in order, and keeps the text,
    the tags and their attributes."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.chunks: list[str] = []
        self.feed(text)
        self.close()
        assert self.stack == [], f"unclosed elements: {self.stack}"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self.stack or self.stack[-1] != "style":
            self.chunks.append(data)

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.chunks).split())

    def having(self, tag: str) -> list[dict[str, str]]:
        return [attrs for name, attrs in self.tags if name == tag]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> VerifyRun:
    store = tmp_path_factory.mktemp("store") / "results.sqlite"
    return verify([LEMMA7], claims="minimax/lemma7/mu0-*", profile="smoke", store=store, workers=1)


def _result(run: VerifyRun, claim_id: str) -> ClaimResult:
    return next(r for r in run.results if r.claim.id == claim_id)


def test_bound_latex_shows_the_relation_and_every_hypothesis() -> None:
    bound = bounds.get("minimax.thm6.aer")  # ≲, hypotheses N ≥ 4β/μ and μ ≤ β
    latex = bound._repr_latex_()
    assert latex.startswith("$") and latex.endswith("$")
    assert r"\lesssim" in latex
    assert r"\text{if }" in latex
    assert r"N \geq \frac{4 \beta}{\mu}" in latex and r"\mu \leq \beta" in latex
    # a bound without hypotheses shows the statement alone
    plain = bounds.get("minimax.gmq.plt")
    assert not plain.hypotheses and r"\text{if" not in plain._repr_latex_()


def test_claim_result_html_is_a_card_with_verdict_and_figure(
    run: VerifyRun, tmp_path: Path
) -> None:
    result = _result(run, "minimax/lemma7/mu0-printed")  # the erratum: violated as expected
    verdict = result.verdict
    assert result.status == "violated-as-expected" and verdict.figure is not None
    page = Page(result._repr_html_())
    text = page.text
    assert "minimax/lemma7/mu0-printed" in text
    assert "expected violated · ✓ passed" in text
    assert verdict.measured in text and verdict.predicted in text
    assert "Counterexample" in text and str(verdict.counterexample["seed"]) in text
    assert "minimax.lemma7.mu0" in text  # the bound, with its formula as MathML
    assert page.having("math")
    # the outcome with the report's badge (class and erratum mark)
    spans = [a for a in page.having("span") if "badge" in a.get("class", "").split()]
    assert [a["class"] for a in spans] == ["badge violated-as-expected"]
    assert badge("violated-as-expected", "violated") in result.html()
    # the figure, inline, is the very PNG the report writes for the claim
    (image,) = page.having("img")
    assert image["src"].startswith("data:image/png;base64,")
    shown = base64.b64decode(image["src"].split(",", 1)[1])
    written = write_figure(result, tmp_path / "f.png", stamp=stamp_text(result.profile))
    assert written is not None and shown == written.read_bytes() == result.figure_png()
    assert not Page(result.html(figure=False)).having("img")


def test_verdict_html_shows_outcome_numbers_and_interval(run: VerifyRun) -> None:
    violated = _result(run, "minimax/lemma7/mu0-printed").verdict
    page = Page(violated._repr_html_())
    spans = [a["class"] for a in page.having("span") if "badge" in a.get("class", "")]
    assert spans == ["badge failed"]  # no claim, no expectation: a violation is red
    assert "violated" in page.text and violated.measured in page.text
    assert "CI —" in page.text  # an every-replicate check has no interval
    rate = Verdict(
        "holds", "slope within the band", "slope −1 ± 0.1", "slope −1.004", ci=(-1.02, -0.98)
    )
    page = Page(rate._repr_html_())
    assert [a["class"] for a in page.having("span") if "badge" in a["class"]] == ["badge holds"]
    assert "slope −1.004" in page.text and "[−1.02, −0.98]" in page.text


def test_verify_run_html_counts_and_one_row_per_claim(run: VerifyRun) -> None:
    assert len(run.results) == 3
    page = Page(run._repr_html_())
    assert "3 claims: 2 holds 1 violated-as-expected 0 failed" in page.text
    rows = page.having("tr")
    assert len(rows) == 1 + 3  # the header and one row per claim
    for result in run.results:
        assert result.claim.id in page.text and result.verdict.measured in page.text
    assert not page.having("img")  # compact: figures on request
    with_figures = Page(run.html(figures=True))
    assert len(with_figures.having("img")) == sum(r.verdict.figure is not None for r in run.results)
    single = VerifyRun(results=run.results[:1], seconds=1.0, info={})
    assert len(Page(single._repr_html_()).having("img")) == 1  # one claim: its figure


def test_displays_escape_what_a_claim_says(run: VerifyRun) -> None:
    evil = "<img src=x onerror=alert(1)>"
    claim = Claim(
        id="classic/unit/escaping",
        source=Citation("classic", evil),
        statement=f"x ≤ 1 {evil}",
        experiment=_experiment,
        sweeps={p: Sweep(grid={"n": [1, 2]}, replicates=2) for p in ("smoke", "quick")},
        criterion=UpperBoundHolds("x", "one", x="n"),
    )
    verdict = Verdict("violated", evil, evil, evil, counterexample={"params": {"n": evil}})
    result = ClaimResult(claim, "smoke", verdict, 2, 4, 0, 4, 0.1)
    for text in (result.html(), verdict._repr_html_(), VerifyRun((result,), 1.0, {}).html()):
        page = Page(text)
        assert all(a.get("src") != "x" for a in page.having("img"))
        assert evil in page.text


def test_the_report_and_the_displays_share_badges_and_colours(
    run: VerifyRun, tmp_path: Path
) -> None:
    page = write_html(run.results, tmp_path / "index.html").read_text()
    assert status_css() in page
    for result in run.results:
        assert badge(result.status, result.verdict.outcome) in page
        assert badge(result.status, result.verdict.outcome) in result.html(figure=False)
    css = re.search(r"<style>(.*?)</style>", run.html(), re.S)
    assert css is not None and status_css(".fedtheory-display") in css.group(1)


def _experiment(params: dict[str, float], seed: int) -> dict[str, float]:
    return {"x": 0.5, "one": 1.0}
