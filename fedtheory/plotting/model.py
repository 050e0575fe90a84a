"""The figure data model: what a verdict wants drawn, as plain frozen data (DESIGN §6).

A criterion of :mod:`fedtheory.verify.criteria` describes its figure with a :class:`FigureSpec`
(axes, scales, title) holding :class:`Series` (one curve each, with a role that decides its
style); :func:`fedtheory.plotting.figure_from_spec` draws it and ``verdicts.json`` stores it via
``to_dict``. Nothing here imports matplotlib or the verification engine: the model sits below
both.

Examples
--------
>>> spec = FigureSpec("T", "error", (Series("measured error", (10.0, 100.0), (0.1, 0.01)),))
>>> spec.to_dict()["series"][0]["role"]
'measured'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["FigureSpec", "Series", "SeriesRole"]

#: How a series is drawn: measured values (markers, CI band), the theorem's bound (dashed), a
#: fitted line (dotted) or a reference curve (thin, gray).
SeriesRole = Literal["measured", "bound", "fit", "reference"]


@dataclass(frozen=True)
class Series:
    """One curve of a verdict's figure.

    ``role`` is ``"measured"`` (markers, with a CI band from ``low``/``high``), ``"bound"``
    (the theorem, dashed), ``"fit"`` (a fitted line, dotted) or ``"reference"``.
    """

    label: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    role: SeriesRole = "measured"
    low: tuple[float, ...] | None = None
    high: tuple[float, ...] | None = None
    group: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain data (lists instead of tuples) for verdicts.json."""
        return {
            "label": self.label,
            "role": self.role,
            "group": self.group,
            "x": list(self.x),
            "y": list(self.y),
            "low": None if self.low is None else list(self.low),
            "high": None if self.high is None else list(self.high),
        }


@dataclass(frozen=True)
class FigureSpec:
    """What a criterion wants drawn: axes and curves (the report renders it)."""

    x_label: str
    y_label: str
    series: tuple[Series, ...]
    x_log: bool = False
    y_log: bool = False
    title: str = ""
    #: What the shaded bands around measured series are (legend text).
    band_label: str = "95% CI of the mean"

    def to_dict(self) -> dict[str, Any]:
        """Plain data for verdicts.json (non-finite numbers are left to the caller)."""
        return {
            "band_label": self.band_label,
            "x_label": self.x_label,
            "y_label": self.y_label,
            "x_log": self.x_log,
            "y_log": self.y_log,
            "title": self.title,
            "series": [s.to_dict() for s in self.series],
        }
