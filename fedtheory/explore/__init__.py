"""The bound explorer: a self-contained HTML page to explore bounds with sliders.

>>> from fedtheory.explore import explorer_html
>>> page = explorer_html(["minimax.gmq.plt", "minimax.gmq.fedavg"], axis="d")

:func:`explorer_html` builds the page and :func:`write_explorer` writes it; the command line is
``fedtheory explore ID [ID ...] [--axis SYMBOL] [-o FILE.html]``. Every formula the page
evaluates is printed from the bound's sympy expression by :func:`javascript_code` (a subclass of
sympy's JavaScript code printer); a bound it cannot express (a sum over a sequence) is refused
with a :class:`~fedtheory.errors.ParameterError` naming the construct. See ``docs/bounds.md``,
"Explore a bound in the browser".
"""

from __future__ import annotations

from fedtheory.explore._jsprinter import javascript_code
from fedtheory.explore.page import AXIS_PREFERENCE, explorer_html, write_explorer

__all__ = ["AXIS_PREFERENCE", "explorer_html", "javascript_code", "write_explorer"]
