"""Figures of verdicts: every legend entry stands for something drawn, no legend is clipped,
and the report's figures are stamped (version, profile, seed)."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from fedtheory import __version__
from fedtheory.plotting import FigureSpec, Series, figure_from_spec, png_bytes, stamp_text


def _visible(line: Line2D) -> bool:
    """A line that draws: a marker, or a line style with two neighbouring finite points."""
    if line.get_marker() not in (None, "None", "", " "):
        return True
    if line.get_linestyle() in ("None", "", " "):
        return False
    x, y = (np.asarray(v, dtype=float) for v in line.get_data())
    finite = np.isfinite(x) & np.isfinite(y)
    return bool((finite[1:] & finite[:-1]).any())


def _assert_legend_honest(spec: FigureSpec) -> None:
    fig = figure_from_spec(spec, title="classic/unit/claim")
    png_bytes(fig)  # lays the figure out and draws it
    ax = fig.axes[0]
    legend = ax.get_legend()
    assert legend is not None
    drawn = {line.get_label(): line for line in ax.lines}
    for handle, text in zip(legend.legend_handles, legend.get_texts(), strict=True):
        if isinstance(handle, Patch):
            continue  # the confidence band: a filled patch
        label = text.get_text()
        assert label in drawn, label
        assert _visible(drawn[label]), f"legend entry {label!r} stands for an invisible line"
    renderer = fig.canvas.get_renderer()
    box, frame = legend.get_window_extent(renderer), fig.bbox
    assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1


def test_single_point_bound_is_drawn_with_a_marker() -> None:
    # a one-point claim: the bound is one point, which a dashed line alone would not draw
    spec = FigureSpec(
        "n",
        "error",
        (
            Series("measured", (100.0,), (0.5,), low=(0.4,), high=(0.6,)),
            Series("bound", (100.0,), (0.8,), "bound"),
            Series("fit", (100.0,), (0.45,), "fit"),
        ),
        x_log=True,
        y_log=True,
    )
    _assert_legend_honest(spec)


def test_isolated_point_between_hidden_ones_is_marked() -> None:
    # on a log axis the -1 and 0 are hidden: the bound's middle point stands alone
    spec = FigureSpec(
        "n",
        "error",
        (
            Series("measured", (1.0, 2.0, 3.0), (1.0, 0.5, 0.3)),
            Series("bound", (1.0, 2.0, 3.0), (-1.0, 0.7, 0.0), "bound"),
        ),
        y_log=True,
    )
    _assert_legend_honest(spec)


@pytest.mark.parametrize("count", [6, 14])
def test_long_legend_is_inside_the_figure(count: int) -> None:
    series = []
    for i in range(count):
        group = f"a long group label number {i}"
        series.append(Series("measured error", (1.0, 10.0, 100.0), (1.0, 0.1, 0.01), group=group))
        series.append(Series("bound", (1.0, 10.0, 100.0), (2.0, 0.2, 0.02), "bound", group=group))
    _assert_legend_honest(FigureSpec("T", "error", tuple(series), x_log=True, y_log=True))


def test_report_figure_carries_the_stamp(tmp_path, monkeypatch) -> None:
    from fedtheory.verify import _display
    from fedtheory.verify.report import _common

    captured = []
    original = _display.figure_from_spec  # the report draws a claim's figure there

    def recording(*args, **kwargs):
        captured.append(original(*args, **kwargs))
        return captured[-1]

    monkeypatch.setattr(_display, "figure_from_spec", recording)

    class _Claim:
        id = "classic/unit/claim"

    class _Verdict:
        figure = FigureSpec("n", "y", (Series("measured", (1.0, 2.0), (1.0, 2.0)),))

    class _Result:
        claim, verdict, profile = _Claim(), _Verdict(), "quick"

    stamp = stamp_text("quick", 7)
    assert stamp == f"fedtheory {__version__} · profile quick · seed 7"
    _common.write_figure(_Result(), tmp_path / "a.png", stamp=stamp)  # type: ignore[arg-type]
    assert stamp in [t.get_text() for t in captured[-1].texts]
    # without a stamp given, the version and the result's profile
    _common.write_figure(_Result(), tmp_path / "b.png")  # type: ignore[arg-type]
    assert f"fedtheory {__version__} · profile quick" in [t.get_text() for t in captured[-1].texts]


def _unshared_png(fig: Figure) -> bytes:
    """``png_bytes`` on a canvas of its own (a subclass of the Agg canvas is never shared)."""

    class OwnCanvas(FigureCanvasAgg):
        pass

    OwnCanvas(fig)
    return png_bytes(fig)


def _log_spec(scale: float, label: str) -> FigureSpec:
    x = tuple(float(v) for v in np.geomspace(1.0, 1e4 * scale, 9))
    y = tuple(float(scale / (1.0 + v)) for v in x)
    series = (Series(label, x, y),)
    title = f"$T^{{-1}}$ {label}"
    return FigureSpec("T", "excess risk", series, x_log=True, y_log=True, title=title)


def test_the_shared_renderer_draws_the_pixels_of_a_canvas_of_its_own() -> None:
    """png_bytes draws figures of one size on one renderer per thread, to reuse the measured
    texts and parsed mathtext (issue 19): the PNG is byte for byte the one a canvas of its own
    draws, whatever figures were drawn on that renderer before, and the figure keeps its own
    canvas."""
    specs = [_log_spec(s, f"run {i}") for i, s in enumerate((1.0, 37.0, 0.01))]
    own = [_unshared_png(figure_from_spec(spec, title="classic/unit/claim")) for spec in specs]
    for _ in range(2):  # the second time, every text is already in the renderer's caches
        for spec, expected in zip(specs, own, strict=True):
            fig = figure_from_spec(spec, title="classic/unit/claim")
            canvas = fig.canvas
            assert png_bytes(fig) == expected
            assert fig.canvas is canvas
    assert len(set(own)) == len(own)  # three different figures
