"""The seed-win rule of check 34 (verification/fzoos/substitute_experiments.py; guide §5 E).

Asserted on hand-built curves whose outcomes follow from the rule's statement (no runs):
- FZooS beats a baseline when it reaches the baseline's final level with strictly fewer
  queries (rounds) than the baseline *first* reached it — not than the baseline's whole budget;
- a tie, a baseline that made no progress and a FZooS that never reaches the level are losses;
- the direction (success rate up, metric loss down) and the required count ⌈0.8·S⌉;
- the equal-budget value compares FZooS's final level with the baseline's level at its last
  round within FZooS's total queries.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load() -> ModuleType:
    name = "_fzoos_substitute_claims"
    if name in sys.modules:
        return sys.modules[name]
    path = ROOT / "verification/fzoos/substitute_experiments.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


claims = _load()


def _judge(fz: list[list[float]], base: list[list[float]], higher: bool, fz_step=6.0, b_step=21.0):
    """Every baseline gets ``base``; queries grow linearly per round."""
    curves = {m: [np.asarray(c, float) for c in base] for m in claims.BASELINES}
    curves["fzoos"] = [np.asarray(c, float) for c in fz]
    queries = {m: [b_step * np.arange(len(c), dtype=float) for c in base] for m in claims.BASELINES}
    queries["fzoos"] = [fz_step * np.arange(len(c), dtype=float) for c in fz]
    out: dict[str, float] = {}
    claims._efficiency(curves, queries, higher, out)
    return out


def test_win_is_against_the_baseline_first_hit_not_its_budget() -> None:
    # baseline reaches 0.6 at round 1 (21 queries) and stays; FZooS reaches it at round 4
    # (24 queries): fewer than the baseline's budget (105) but more than its first hit.
    out = _judge([[0, 0, 0, 0.2, 0.6, 0.6]], [[0, 0.6, 0.6, 0.6, 0.6, 0.6]], True)
    assert out["wins_queries_fedzo"] == 0 and out["wins_rounds_fedzo"] == 0
    # FZooS reaches it at round 3 (18 < 21 queries): a query win, not a rounds win.
    out = _judge([[0, 0, 0, 0.6, 0.6, 0.6]], [[0, 0.6, 0.6, 0.6, 0.6, 0.6]], True)
    assert out["wins_queries_fedzo"] == 1 and out["wins_rounds_fedzo"] == 0
    assert out["query_ratio_fedzo"] == pytest.approx(18 / 21)


def test_ties_no_progress_and_never_are_losses() -> None:
    # equal queries (same per-round cost, same round): not strictly fewer
    out = _judge([[0, 0, 1.0]], [[0, 0, 1.0]], True, fz_step=21.0)
    assert out["wins_queries_fedzo"] == 0 and out["degenerate_fedzo"] == 0
    # a baseline without progress: both reach its final level at 0 queries
    out = _judge([[0, 1.0, 1.0]], [[0, 0, 0]], True)
    assert out["wins_queries_fedzo"] == 0 and out["degenerate_fedzo"] == 1
    # FZooS never reaches 0.8 within R rounds
    out = _judge([[0, 0.4, 0.6]], [[0, 0.2, 0.8]], True)
    assert out["never_fedzo"] == 1 and out["wins_queries_fedzo"] == 0
    assert out["query_ratio_fedzo"] == -1.0


def test_direction_and_required_count() -> None:
    # metric loss: lower is better; FZooS reaches 0.5 at round 1 (6 queries < 42)
    loss = _judge([[0.6, 0.5, 0.5]] * 5, [[0.6, 0.55, 0.5]] * 5, False)
    assert loss["wins_queries_min"] == 5 and loss["wins_rounds_min"] == 5
    assert loss["seeds"] == 5 and loss["required"] == 4
    # read as "higher is better", the baseline's final 0.5 is reached by both at round 0
    up = _judge([[0.6, 0.5, 0.5]] * 5, [[0.6, 0.55, 0.5]] * 5, True)
    assert up["wins_queries_min"] == 0
    assert _judge([[0, 1]] * 2, [[0, 1]] * 2, True)["required"] == 2
    assert _judge([[0, 1]] * 3, [[0, 1]] * 3, True)["required"] == 3


def test_equal_budget_value() -> None:
    # FZooS's budget 12 queries (R = 2); the baseline's last round within it is round 0 (21 > 12)
    out = _judge([[0, 0.5, 0.7]], [[0, 0.9, 1.0]], True)
    assert out["wins_budget_fedzo"] == 1 and out["wins_queries_fedzo"] == 0
    # with FZooS's step as costly as the baseline's, the comparison is at the final round
    out = _judge([[0, 0.5, 0.7]], [[0, 0.9, 1.0]], True, fz_step=21.0)
    assert out["wins_budget_fedzo"] == 0
