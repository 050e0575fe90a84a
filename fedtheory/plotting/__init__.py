"""Figures: the figure data model and the matplotlib helpers that draw it (DESIGN §1, §6).

- :mod:`fedtheory.plotting.model` — :class:`FigureSpec` and :class:`Series`, plain frozen data
  that criteria fill and ``verdicts.json`` stores (no matplotlib);
- :mod:`fedtheory.plotting.draw` — :func:`figure_from_spec` and the small helpers behind it
  (:func:`new_figure`, :func:`draw_series`, :func:`ci_band`, :func:`png_bytes`, ...), used by the
  verification report and by the figure scripts.

This package sits below :mod:`fedtheory.verify`: it imports nothing from it.
"""

from __future__ import annotations

from fedtheory.plotting.draw import (
    BOUND_STYLE,
    FIT_STYLE,
    LEGEND_INSIDE_MAX,
    MEASURED_STYLE,
    NEUTRAL_COLOR,
    PALETTE,
    REFERENCE_COLOR,
    REFERENCE_STYLE,
    ci_band,
    draw_series,
    figure_from_spec,
    new_figure,
    note_hidden,
    png_bytes,
    series_colors,
    stamp,
    stamp_text,
)
from fedtheory.plotting.model import FigureSpec, Series, SeriesRole

__all__ = [
    "BOUND_STYLE",
    "FIT_STYLE",
    "LEGEND_INSIDE_MAX",
    "MEASURED_STYLE",
    "NEUTRAL_COLOR",
    "PALETTE",
    "REFERENCE_COLOR",
    "REFERENCE_STYLE",
    "FigureSpec",
    "Series",
    "SeriesRole",
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
