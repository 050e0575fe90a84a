"""``fedtheory bounds show`` at 80 columns: wrapped at word boundaries, never mid-token."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from rich.cells import cell_len
from rich.console import Console

import fedtheory.cli as cli_module
from fedtheory import bounds

WIDTH = 80


@pytest.fixture
def terminal_80(monkeypatch: pytest.MonkeyPatch) -> None:
    # what _console() returns on an 80-column terminal: the terminal's width, soft wrapping on
    def console() -> Console:
        return Console(width=WIDTH, markup=False, highlight=False, emoji=False, soft_wrap=True)

    monkeypatch.setattr(cli_module, "_console", console)


# long statements, sources and formulas (prop16's 2-D form is wider than 80 columns)
@pytest.mark.parametrize("bound_id", ["minimax.prop16", "minimax.gmq.fedprox"])
def test_show_wraps_at_word_boundaries(terminal_80: None, bound_id: str) -> None:
    result = CliRunner().invoke(cli_module.cli, ["bounds", "show", bound_id])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(cell_len(line) for line in lines) <= WIDTH
    tokens = set(result.output.split())
    bound = bounds.get(bound_id)
    texts = [str(bound), bound.statement, bound.statement_latex(), bound.source.full]
    for text in texts:
        # every word of the long paragraphs is printed whole: no line was cut inside a word
        cut = [word for word in text.split() if cell_len(word) <= WIDTH and word not in tokens]
        assert cut == [], f"words cut across lines: {cut}"
