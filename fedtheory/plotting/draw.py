"""Drawing helpers: small matplotlib functions shared by the verification report and figures.

Everything here works on explicit :class:`~matplotlib.figure.Figure` and
:class:`~matplotlib.axes.Axes` objects with an Agg canvas attached: nothing touches ``pyplot``
state or calls ``matplotlib.use``, so importing fedtheory never changes a user's backend.

Conventions (DESIGN §6): measured values are markers joined by a thin line with a shaded
confidence band, the theorem's bound is dashed, a fitted line dotted and a reference curve thin
and gray. Curves of one group (e.g. one value of a second parameter) share a colour.

On a logarithmic axis, points that cannot be shown (non-positive or non-finite) are masked rather
than passed to matplotlib; the drawing helpers return how many were hidden so that the caller
can say so on the figure (:func:`note_hidden`).

Examples
--------
>>> import numpy as np
>>> fig, ax = new_figure()
>>> ax.set_yscale("log")
>>> ci_band(ax, [1, 2, 3], [0.5, -1.0, 1.5], [2.0, 3.0, 4.0], "C0")
0
>>> len(png_bytes(fig)) > 1000
True
"""

from __future__ import annotations

import dataclasses
import io
import math
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.mathtext import MathTextParser, VectorParse
from matplotlib.patches import Patch

from fedtheory._version import __version__
from fedtheory.plotting.model import FigureSpec, Series

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = [
    "BOUND_STYLE",
    "FIT_STYLE",
    "MEASURED_STYLE",
    "NEUTRAL_COLOR",
    "PALETTE",
    "REFERENCE_COLOR",
    "REFERENCE_STYLE",
    "ci_band",
    "draw_series",
    "figure_from_spec",
    "new_figure",
    "note_hidden",
    "png_bytes",
    "series_colors",
    "stamp",
    "stamp_text",
]

#: Colours assigned to groups in order of first appearance (matplotlib's ``tab10``).
PALETTE: tuple[str, ...] = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#bcbd22",
    "#7f7f7f",
)
#: Colour of reference curves and of notes on a figure.
REFERENCE_COLOR = "#8a8a8a"
#: Colour of a bound or fit that belongs to no group when there is no single measured curve.
NEUTRAL_COLOR = "#222222"
#: Line style of a bound.
BOUND_STYLE: dict[str, Any] = {"linestyle": "--", "linewidth": 1.6}
#: Line style of a fitted curve.
FIT_STYLE: dict[str, Any] = {"linestyle": ":", "linewidth": 1.8}
#: Line and marker style of measured points.
MEASURED_STYLE: dict[str, Any] = {
    "linestyle": "-",
    "linewidth": 1.0,
    "marker": "o",
    "markersize": 4,
}
#: Line style of a reference curve.
REFERENCE_STYLE: dict[str, Any] = {"linestyle": "-", "linewidth": 0.8}


#: Legends with more entries than this are drawn below the axes instead of inside them.
LEGEND_INSIDE_MAX = 4


def new_figure(figsize: tuple[float, float] = (6.0, 4.0), dpi: float = 110) -> tuple[Figure, Axes]:
    """A figure with an Agg canvas and one axes, independent of ``pyplot``.

    Parameters
    ----------
    figsize
        Size in inches.
    dpi
        Resolution used when the figure is saved.

    Returns
    -------
    (Figure, Axes)
    """
    fig = Figure(figsize=figsize, dpi=dpi)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    return fig, ax


def png_bytes(fig: Figure, *, tight: bool = True) -> bytes:
    """Lay out ``fig`` (``tight_layout``, unless ``tight=False``) and render it to PNG bytes.

    ``tight_layout`` makes room for everything attached to the axes — a legend placed below
    them included — so nothing is clipped at the image's edge. (Cropping with
    ``bbox_inches="tight"`` would draw every figure once more: 453 report figures took 2.4×
    as long.)

    A figure with a plain Agg canvas (:func:`new_figure`'s) is laid out and drawn on a
    renderer this thread keeps for every figure of its size and dpi, so that the metrics of
    the texts figures share (tick labels above all, mathtext on a log axis) are measured and
    parsed once rather than once per figure: the same pixels, in a fraction of the time. The
    figure keeps its own canvas (which has drawn nothing afterwards).
    """
    original = fig.canvas
    shared = type(original) is FigureCanvasAgg
    canvas = _SharedRendererCanvas(fig) if shared else original
    try:
        if tight:
            fig.tight_layout()
        if not isinstance(canvas, FigureCanvasAgg):
            canvas = FigureCanvasAgg(fig)
        buffer = io.BytesIO()
        canvas.print_png(buffer)  # type: ignore[no-untyped-call]  # unannotated in matplotlib
    finally:
        if shared:
            fig.set_canvas(original)
    return buffer.getvalue()


#: Keys of the matplotlib settings a mathtext parse depends on besides its arguments.
_MATHTEXT_SETTINGS = tuple(k for k in mpl.rcParams if k.startswith("mathtext."))


if TYPE_CHECKING:  # pragma: no cover - generic in matplotlib's stubs only
    _VectorParser = MathTextParser[VectorParse]
else:
    _VectorParser = MathTextParser


class _CachingMathTextParser(_VectorParser):
    """matplotlib's mathtext parser for Agg (``"path"`` output) with a larger cache.

    matplotlib keeps the last 50 parses; a report draws hundreds of figures whose log-axis
    tick labels (``$\\mathdefault{10^{-2}}$``, ...) come back figure after figure, more than 50
    apart. The cache key is what matplotlib's is (the text, dpi, font properties and
    antialiasing) plus the ``mathtext.*`` settings, so a changed setting is parsed anew.
    """

    _LIMIT = 2048

    def __init__(self) -> None:
        super().__init__("path")
        self._parses: OrderedDict[tuple[Any, ...], VectorParse] = OrderedDict()

    def parse(
        self,
        s: str,
        dpi: float = 72,
        prop: FontProperties | None = None,
        *,
        antialiased: bool | None = None,
    ) -> VectorParse:
        key = (
            s,
            dpi,
            None if prop is None else prop.copy(),
            mpl.rcParams["text.antialiased"] if antialiased is None else antialiased,
            tuple(str(mpl.rcParams[k]) for k in _MATHTEXT_SETTINGS),
        )
        found = self._parses.get(key)
        if found is None:
            found = super().parse(s, dpi, prop, antialiased=antialiased)
            self._parses[key] = found
            if len(self._parses) > self._LIMIT:
                self._parses.popitem(last=False)
        else:
            self._parses.move_to_end(key)
        return found


_THREAD = threading.local()


def _shared_renderer(width: int, height: int, dpi: float) -> RendererAgg:
    """This thread's Agg renderer of that size and dpi (a few sizes are kept)."""
    renderers: dict[tuple[int, int, float], RendererAgg] | None = getattr(
        _THREAD, "renderers", None
    )
    if renderers is None:
        renderers = _THREAD.renderers = {}
    key = (width, height, dpi)
    renderer = renderers.get(key)
    if renderer is None:
        if len(renderers) >= 8:
            renderers.clear()
        renderer = renderers[key] = RendererAgg(width, height, dpi)  # type: ignore[no-untyped-call]
        renderer.mathtext_parser = _CachingMathTextParser()
    return renderer


class _SharedRendererCanvas(FigureCanvasAgg):
    """An Agg canvas drawing on this thread's renderer for its size and dpi
    (:func:`png_bytes`): matplotlib caches text metrics per renderer, so figures drawn on one
    renderer share them."""

    def get_renderer(self) -> RendererAgg:
        width, height = self.get_width_height(physical=True)
        renderer = _shared_renderer(width, height, self.figure.dpi)
        self.renderer = renderer
        return renderer


def stamp_text(profile: str | None = None, seed: int | None = None) -> str:
    """``"fedtheory <version> · profile <p> · seed <s>"`` (parts not known are left out)."""
    parts = [f"fedtheory {__version__}"]
    if profile is not None:
        parts.append(f"profile {profile}")
    if seed is not None:
        parts.append(f"seed {seed}")
    return " · ".join(parts)


def stamp(fig: Figure, text: str) -> None:
    """Write ``text`` small and gray in the lower right corner of ``fig`` (provenance)."""
    fig.text(
        0.995,
        0.005,
        text,
        ha="right",
        va="bottom",
        fontsize=5.5,
        color=REFERENCE_COLOR,
        gid="fedtheory-stamp",
    )


def _is_log(ax: Axes, axis: str, given: bool | None) -> bool:
    if given is not None:
        return given
    scale = ax.get_xscale() if axis == "x" else ax.get_yscale()
    return scale == "log"


def _as_float(values: Sequence[Any] | np.ndarray) -> np.ndarray:
    """Floats, with ``None`` (a non-finite value after a JSON round trip) as NaN."""
    return np.array([np.nan if v is None else v for v in values], dtype=float)


def ci_band(
    ax: Axes,
    x: Sequence[Any] | np.ndarray,
    low: Sequence[Any] | np.ndarray,
    high: Sequence[Any] | np.ndarray,
    color: str,
    *,
    alpha: float = 0.18,
    label: str | None = None,
    x_log: bool | None = None,
    y_log: bool | None = None,
) -> int:
    """Shade the confidence band between ``low`` and ``high``.

    Parameters
    ----------
    ax
        Target axes.
    x, low, high
        Equal-length sequences; ``None`` counts as missing.
    color
        Fill colour.
    alpha
        Fill opacity.
    label
        Legend entry (none by default).
    x_log, y_log
        Whether the axes are logarithmic; read from ``ax`` when omitted.

    Returns
    -------
    int
        Number of points left out (non-finite, or with ``x ≤ 0`` / ``high ≤ 0`` on a log
        axis). On a log y axis a non-positive ``low`` is drawn down to the bottom of the axes
        (the interval reaches zero) rather than hidden.
    """
    xs, lo, hi = _as_float(x), _as_float(low), _as_float(high)
    if not len(xs) == len(lo) == len(hi):
        raise ValueError(f"x, low and high differ in length ({len(xs)}, {len(lo)}, {len(hi)})")
    y_log = _is_log(ax, "y", y_log)
    valid = np.isfinite(xs) & np.isfinite(hi)
    if _is_log(ax, "x", x_log):
        valid &= xs > 0
    if y_log:
        valid &= hi > 0
        # an interval reaching zero (or -inf): matplotlib's log scale clips it to the bottom
        lo = np.where(lo <= 0, 0.0, lo)
    valid &= np.isfinite(lo)
    if valid.any():  # NaN splits the band at hidden points instead of bridging them
        nan = np.full(len(xs), np.nan)
        ax.fill_between(
            np.where(valid, xs, nan),
            np.where(valid, lo, nan),
            np.where(valid, hi, nan),
            color=color,
            alpha=alpha,
            linewidth=0,
            label=label,
        )
    return int((~valid).sum())


def draw_series(
    ax: Axes,
    series: Series,
    color: str,
    *,
    x_log: bool | None = None,
    y_log: bool | None = None,
) -> int:
    """Draw one :class:`~fedtheory.plotting.model.Series` in the style of its role.

    ``measured``: markers and a thin line, with the CI band when ``low``/``high`` are given;
    ``bound``: dashed; ``fit``: dotted; ``reference``: thin gray (``color`` is ignored).

    Parameters
    ----------
    ax
        Target axes.
    series
        The curve (``x``, ``y``, optional ``low``/``high``, ``label``, ``role``).
    color
        Line colour (see :func:`series_colors`).
    x_log, y_log
        Whether the axes are logarithmic; read from ``ax`` when omitted. Set the scales
        before drawing.

    Returns
    -------
    int
        Number of points that could not be shown: non-finite, or non-positive on a log axis.
        They are masked (the line breaks there) instead of being handed to matplotlib.
    """
    xs, ys = _as_float(series.x), _as_float(series.y)
    if len(xs) != len(ys):
        raise ValueError(f"series {series.label!r}: x and y differ in length")
    x_log, y_log = _is_log(ax, "x", x_log), _is_log(ax, "y", y_log)
    valid = np.isfinite(xs) & np.isfinite(ys)
    if x_log:
        valid &= xs > 0
    if y_log:
        valid &= ys > 0
    hidden = int((~valid).sum())
    if series.role == "measured" and series.low is not None and series.high is not None:
        ci_band(ax, series.x, series.low, series.high, color, x_log=x_log, y_log=y_log)
    ys_shown = np.where(valid, ys, np.nan)
    xs_shown = np.where(valid, xs, np.nan)
    if not valid.any():
        return hidden
    if series.role == "measured":
        style: dict[str, Any] = {**MEASURED_STYLE, "color": color, "zorder": 3}
    elif series.role == "bound":
        style = {**BOUND_STYLE, "color": color, "zorder": 2}
    elif series.role == "fit":
        style = {**FIT_STYLE, "color": color, "zorder": 2}
    else:
        style = {**REFERENCE_STYLE, "color": REFERENCE_COLOR, "zorder": 1}
    if "marker" not in style and _isolated_points(valid):
        # a line needs two neighbouring points: a point with no shown neighbour (a one-point
        # bound, or one left between hidden points) would be invisible, and its legend entry
        # would stand for nothing — mark the points
        marker = _ROLE_MARKERS.get(series.role, "o")
        style.update(marker=marker, markersize=10 if marker == "_" else 5, markeredgewidth=1.6)
    ax.plot(xs_shown, ys_shown, label=series.label or None, **style)
    return hidden


#: Markers of the line roles where a point stands alone.
_ROLE_MARKERS = {"bound": "_", "fit": "x", "reference": "."}


def _isolated_points(valid: np.ndarray) -> bool:
    """Whether some shown point has no shown neighbour (a line would not draw it)."""
    shown = np.asarray(valid, dtype=bool)
    before = np.concatenate([[False], shown[:-1]])
    after = np.concatenate([shown[1:], [False]])
    return bool((shown & ~before & ~after).any())


def series_colors(series: Sequence[Series]) -> list[str]:
    """One colour per series, consistent within a group.

    Series with the same non-empty ``group`` share a colour (a measured curve and its bound
    match). Each ungrouped measured series gets its own colour. An ungrouped bound or fit takes
    the colour of the measured curve when there is exactly one ungrouped measured series,
    otherwise a neutral dark gray (then further palette colours, so that two such lines differ).
    Reference curves are gray.

    Examples
    --------
    >>> from fedtheory.plotting.model import Series
    >>> s = [Series("a", (1,), (1,), group="m=1"), Series("b", (1,), (1,), "bound", group="m=1"),
    ...      Series("c", (1,), (1,), group="m=2")]
    >>> series_colors(s)
    ['#1f77b4', '#1f77b4', '#ff7f0e']
    """
    colors: list[str] = []
    group_color: dict[str, str] = {}
    counter = 0

    def next_color() -> str:
        nonlocal counter
        color = PALETTE[counter % len(PALETTE)]
        counter += 1
        return color

    for s in series:
        if s.role != "reference" and s.group and s.group not in group_color:
            group_color[s.group] = next_color()
    ungrouped_measured = [s for s in series if s.role == "measured" and not s.group]
    measured_color = {id(s): next_color() for s in ungrouped_measured}
    neutral_used = 0
    for s in series:
        if s.role == "reference":
            colors.append(REFERENCE_COLOR)
        elif s.group:
            colors.append(group_color[s.group])
        elif s.role == "measured":
            colors.append(measured_color[id(s)])
        elif len(ungrouped_measured) == 1:
            colors.append(measured_color[id(ungrouped_measured[0])])
        else:
            colors.append(NEUTRAL_COLOR if neutral_used == 0 else next_color())
            neutral_used += 1
    return colors


def note_hidden(ax: Axes, hidden: int, *, log: bool) -> None:
    """Write a small note in the lower right corner when points could not be shown."""
    if hidden <= 0:
        return
    what = "non-finite or ≤ 0 on a log axis" if log else "non-finite"
    plural = "s" if hidden != 1 else ""
    ax.text(
        0.99,
        0.01,
        f"{hidden} point{plural} not shown ({what})",
        transform=ax.transAxes,
        ha="right",
        va="bottom",
        fontsize=7,
        color=REFERENCE_COLOR,
    )


def _any_positive(values: Iterable[Any]) -> bool:
    return any(v is not None and math.isfinite(float(v)) and float(v) > 0 for v in values)


def figure_from_spec(
    spec: FigureSpec,
    *,
    title: str = "",
    figsize: tuple[float, float] = (6.0, 4.0),
    dpi: float = 110,
) -> Figure:
    """Draw a verdict's :class:`~fedtheory.plotting.model.FigureSpec`.

    Scales, labels and a legend as the spec says, every series with :func:`draw_series` in the
    colours of :func:`series_colors`, a legend entry for the confidence bands, and notes for
    points a log axis cannot show. With several groups, a label that does not name its group
    gets it appended (``"measured err (m=4)"``); repeated labels appear once in the legend.
    A log axis without a single positive value falls back to a linear scale (with a note)
    instead of failing.

    Parameters
    ----------
    spec
        What to draw.
    title
        First title line (the report passes the claim id); ``spec.title`` goes below it.
    figsize, dpi
        As for :func:`new_figure`.

    Returns
    -------
    matplotlib.figure.Figure
        With an Agg canvas; save it with :func:`png_bytes`.
    """
    fig, ax = new_figure(figsize, dpi=dpi)
    x_log = spec.x_log and _any_positive(v for s in spec.series for v in s.x)
    y_log = spec.y_log and _any_positive(v for s in spec.series for v in (*s.y, *(s.high or ())))
    if x_log:
        ax.set_xscale("log")
    if y_log:
        ax.set_yscale("log")
    hidden = 0
    groups = {s.group for s in spec.series if s.group}
    for series, color in zip(spec.series, series_colors(spec.series), strict=True):
        if len(groups) > 1 and series.role != "reference" and series.group not in series.label:
            series = dataclasses.replace(series, label=f"{series.label} ({series.group})")
        hidden += draw_series(ax, series, color, x_log=x_log, y_log=y_log)
    ax.set_xlabel(spec.x_label)
    ax.set_ylabel(spec.y_label)
    heading = "\n".join(t for t in (title, spec.title) if t)
    if heading:
        ax.set_title(heading, fontsize=10)
    ax.grid(True, which="major", alpha=0.3, linewidth=0.6)
    handles, labels = [], []
    for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
        if label not in labels:  # e.g. one reference curve drawn per group
            handles.append(handle)
            labels.append(label)
    if any(s.role == "measured" and s.low is not None and s.high is not None for s in spec.series):
        handles.append(Patch(color=REFERENCE_COLOR, alpha=0.3, linewidth=0))
        labels.append(getattr(spec, "band_label", "") or "confidence band")
    if len(handles) > LEGEND_INSIDE_MAX:
        # many curves: the legend goes below the axes, where it cannot hide data
        rows = -(-len(handles) // 2)
        width, height = fig.get_size_inches()
        fig.set_size_inches(width, height + 0.17 * rows)
        ax.legend(
            handles,
            labels,
            fontsize=7,
            ncols=2,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.14),
            frameon=False,
        )
    elif handles:
        ax.legend(handles, labels, fontsize=7, framealpha=0.8)
    if not ax.has_data():
        ax.text(0.5, 0.5, "no finite data to show", transform=ax.transAxes, ha="center")
    note_hidden(ax, hidden, log=x_log or y_log)
    asked = (("x", spec.x_log, x_log), ("y", spec.y_log, y_log))
    dropped = [axis for axis, wanted, used in asked if wanted and not used]
    if dropped:
        ax.text(
            0.01,
            0.01,
            f"linear {' and '.join(dropped)} axis: no positive values",
            transform=ax.transAxes,
            fontsize=7,
            color=REFERENCE_COLOR,
        )
    return fig
