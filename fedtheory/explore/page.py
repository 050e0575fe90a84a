"""The bound explorer page: one self-contained HTML file with sliders and a log-log plot.

:func:`explorer_html` turns registered bounds into a page that works offline (no network, no
CDN): a slider and a number field per free symbol, with its meaning and domain; an axis
selector; a log-log SVG plot of every bound along the axis, with the crossovers between bounds
marked; each bound's statement (MathML) and hypotheses. Where a hypothesis fails the curve is
not drawn and a message names the hypothesis; values that are not positive finite numbers are
not drawn on the log scale either, with a note.

The formulas the page evaluates — each bound's expression, its hypotheses and the ties between
symbols — are generated from the sympy objects by :mod:`fedtheory.explore._jsprinter`; the page's
hand-written JavaScript (``explorer.js``: sliders, plot, crossovers by sign change and bisection,
numerical primitives such as the harmonic numbers) contains no formula of any bound.

The page has a test hook, ``window.fedtheoryExplorer`` (``evaluate``, ``hypotheses``,
``setValue``, ``drag``, ``setAxis``, ``plotted``, ``crossovers``, ``messages``), and a test mode:
a JSON request in the URL fragment (``#test=`` + base64url) or in a
``<script type="application/json" id="fedtheory-test">`` element is run on load and the answers
are written, as JSON, into ``<pre id="test-output">`` — so that a headless browser drives the
page with ``--dump-dom`` alone (see ``tests/test_explore_browser.py``).
"""

from __future__ import annotations

import difflib
import html
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import sympy as sp
from sympy.parsing.sympy_parser import parse_expr

from fedtheory import bounds as _bounds
from fedtheory.bounds import Bound
from fedtheory.bounds._expressions import lambdify_form, prepare_for_lambdify
from fedtheory.bounds._mathml import (
    GREEK_LETTERS as _GREEK_LETTERS,
)
from fedtheory.bounds._mathml import (
    TexError,
    bound_mathml,
    expression_mathml,
    statement_html,
    tex_to_mathml,
)
from fedtheory.errors import ParameterError
from fedtheory.explore._jsprinter import javascript_code

__all__ = ["AXIS_PREFERENCE", "explorer_html", "write_explorer"]

#: Default axis: the first of these that every bound has (else the first such symbol).
AXIS_PREFERENCE: tuple[str, ...] = ("T", "n", "N", "n_i", "K", "R", "m", "epsilon", "d")
#: Decades a positive slider spans on each side of its initial value.
DECADES = 3


@dataclass
class _Variable:
    """A slider of the page: a scalar symbol shared by name, or one bound's unknown constant."""

    key: str
    name: str
    latex: str | None
    positive: bool = False
    nonnegative: bool = False
    integer: bool = False
    constant_of: str | None = None
    meanings: dict[str, list[str]] = field(default_factory=dict)
    users: list[int] = field(default_factory=list)
    value: float | None = None
    low: float | None = None
    high: float | None = None
    tie: str | None = None
    tie_code: str | None = None
    tie_symbols: list[str] = field(default_factory=list)

    @property
    def domain(self) -> str:
        words = []
        if self.positive:
            words.append("positive")
        elif self.nonnegative:
            words.append("nonnegative")
        words.append("integer" if self.integer else "real")
        return " ".join(words)


def _resolve(items: Sequence[Bound | str]) -> list[Bound]:
    if isinstance(items, (str, Bound)) or not isinstance(items, Sequence):
        raise ParameterError(
            parameter="bounds", value=items, rule="must be a list of bounds or bound ids"
        )
    if not items:
        raise ParameterError(parameter="bounds", value=list(items), rule="must name a bound")
    resolved = []
    for item in items:
        if isinstance(item, Bound):
            resolved.append(item)
        elif isinstance(item, str):
            resolved.append(_bounds.get(item))
        else:
            raise ParameterError(
                parameter="bounds", value=item, rule="each entry must be a Bound or a bound id"
            )
    ids = [b.id for b in resolved]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise ParameterError(parameter="bounds", value=repeated, rule="each bound once")
    return resolved


def _key(bound: Bound, name: str) -> str:
    """The page's name of a symbol: its own name, or ``C@<bound id>`` for a bound's unknown
    constant (the constants of two order bounds are different unknowns)."""
    return f"{name}@{bound.id}" if bound.info[name].role == "constant" else name


def _variables(bounds: Sequence[Bound]) -> dict[str, _Variable]:
    variables: dict[str, _Variable] = {}
    for index, bound in enumerate(bounds):
        for name, info in bound.info.items():
            key = _key(bound, name)
            symbol = info.symbol
            variable = variables.setdefault(
                key,
                _Variable(
                    key=key,
                    name=name,
                    latex=info.latex,
                    constant_of=bound.id if info.role == "constant" else None,
                ),
            )
            variable.positive |= bool(symbol.is_positive)
            variable.nonnegative |= bool(symbol.is_nonnegative)
            variable.integer |= bool(symbol.is_integer)
            variable.meanings.setdefault(info.meaning, []).append(bound.id)
            variable.users.append(index)
            if variable.value is None and name in bound.example:
                variable.value = float(bound.example[name])
    return variables


def _check_value(variable: _Variable, value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ParameterError(parameter=what, value=value, rule="must be a real number")
    number = float(value)
    if not math.isfinite(number):
        raise ParameterError(parameter=what, value=value, rule="must be finite")
    if variable.positive and number <= 0:
        raise ParameterError(
            parameter=what,
            value=value,
            rule=f"must be positive ({variable.key} is {variable.domain})",
        )
    if variable.nonnegative and number < 0:
        raise ParameterError(
            parameter=what,
            value=value,
            rule=f"must be nonnegative ({variable.key} is {variable.domain})",
        )
    if variable.integer and not number.is_integer():
        raise ParameterError(
            parameter=what, value=value, rule=f"must be an integer ({variable.key} is integer)"
        )
    return number


def _targets(variables: Mapping[str, _Variable], name: str, what: str) -> list[_Variable]:
    """The variables a user's name refers to: a key, or a constant's plain name (``C``: every
    bound's ``C``)."""
    if name in variables:
        return [variables[name]]
    matches = [v for v in variables.values() if v.constant_of is not None and v.name == name]
    if matches:
        return matches
    close = difflib.get_close_matches(name, list(variables), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise ParameterError(
        f"{what} names {name!r}, which is not a symbol of these bounds{hint} "
        f"(symbols: {', '.join(variables)})"
    )


def _hypothesis_limits(bounds: Sequence[Bound], variable: _Variable) -> tuple[float, float]:
    """Simple hypotheses ``x ≤ c``, ``x < c``, ``x ≥ c``, ``x > c`` on one symbol with a number
    c: the interval they leave (the slider's range stays inside it)."""
    low, high = -math.inf, math.inf
    for index in variable.users:
        bound = bounds[index]
        if variable.constant_of is not None:
            continue
        symbol = bound.info[variable.name].symbol
        for relation in bound.conditions:
            if not isinstance(relation, sp.core.relational.Relational):
                continue
            lhs, rhs = relation.lhs, relation.rhs
            if lhs == symbol and rhs.is_number:
                number, upper = float(rhs), relation.rel_op in ("<", "<=")
            elif rhs == symbol and lhs.is_number:
                number, upper = float(lhs), relation.rel_op in (">", ">=")
            else:
                continue
            if upper:
                high = min(high, number)
            else:
                low = max(low, number)
    return low, high


def _default_range(variable: _Variable, limits: tuple[float, float]) -> tuple[float, float]:
    value = variable.value if variable.value is not None else 1.0
    low_limit, high_limit = limits
    if value > 0 and (variable.positive or variable.nonnegative):
        low, high = value / 10**DECADES, value * 10**DECADES
        if variable.integer:
            low, high = 1.0, max(10.0, math.ceil(high))
    else:
        spread = 10 * max(1.0, abs(value))
        low, high = value - spread, value + spread
        if variable.positive or variable.nonnegative:
            low = 0.0
    if math.isfinite(high_limit) and high_limit > low and high_limit >= value:
        high = min(high, high_limit)
    if math.isfinite(low_limit) and low_limit < high and low_limit <= value:
        low = max(low, low_limit)
    if variable.positive and low <= 0:
        low = value / 10**DECADES if value > 0 else 1e-3
    return low, high


def _tie_expression(text: str, variables: Mapping[str, _Variable], target: str) -> sp.Expr:
    allowed = {k: sp.Symbol(k) for k, v in variables.items() if v.constant_of is None}
    try:
        expr = parse_expr(text, local_dict=dict(allowed), evaluate=True)
    except Exception as exc:  # sympy's parser raises many kinds of errors
        raise ParameterError(
            parameter=f"tie[{target!r}]", value=text, rule=f"is not an expression ({exc})"
        ) from None
    if not isinstance(expr, sp.Expr):
        raise ParameterError(parameter=f"tie[{target!r}]", value=text, rule="is not an expression")
    unknown = sorted(str(s) for s in expr.free_symbols if str(s) not in allowed)
    if unknown:
        raise ParameterError(
            parameter=f"tie[{target!r}]",
            value=text,
            rule=f"uses {', '.join(unknown)}, not symbols of these bounds "
            f"(symbols: {', '.join(allowed)})",
        )
    return expr


def _apply_ties(variables: dict[str, _Variable], tie: Mapping[str, str]) -> None:
    for target, text in tie.items():
        if target not in variables or variables[target].constant_of is not None:
            _targets(variables, target, "tie")  # raises with close matches
            raise ParameterError(
                parameter="tie", value=target, rule="an unknown constant cannot be tied"
            )
        expr = _tie_expression(str(text), variables, target)
        used = sorted(str(s) for s in expr.free_symbols)
        chained = [u for u in used if u in tie or u == target]
        if chained:
            raise ParameterError(
                parameter=f"tie[{target!r}]",
                value=text,
                rule=f"uses tied symbol(s) {', '.join(chained)}: tie to free symbols only",
            )
        variable = variables[target]
        variable.tie = sp.sstr(expr)
        variable.tie_symbols = used
        variable.tie_code = javascript_code(
            expr,
            {s: f"v[{json.dumps(str(s))}]" for s in expr.free_symbols},
            bound_id=f"tie {target}",
        )


def _depends(bound: Bound, axis: str, variables: Mapping[str, _Variable]) -> bool:
    for name in bound.info:
        key = _key(bound, name)
        if key == axis or axis in variables[key].tie_symbols:
            return True
    return False


def _axis_candidates(
    bounds: Sequence[Bound], variables: Mapping[str, _Variable], flat: bool
) -> list[str]:
    candidates = []
    for key, variable in variables.items():
        if variable.constant_of is not None or variable.tie is not None:
            continue
        if not (variable.positive or variable.nonnegative):
            continue
        dependent = [_depends(b, key, variables) for b in bounds]
        if all(dependent) or (flat and any(dependent)):
            candidates.append(key)
    return candidates


def _choose_axis(
    axis: str | None,
    bounds: Sequence[Bound],
    variables: Mapping[str, _Variable],
    flat: bool,
) -> str:
    candidates = _axis_candidates(bounds, variables, flat)
    if axis is None:
        for name in AXIS_PREFERENCE:
            if name in candidates:
                return name
        if candidates:
            return candidates[0]
        raise ParameterError(
            "no symbol with a positive domain is shared by every bound ("
            + "; ".join(f"{b.id}: {', '.join(b.parameters)}" for b in bounds)
            + "); pass flat=True (--flat) to draw bounds that do not depend on the axis as "
            "horizontal lines"
        )
    if not isinstance(axis, str):
        raise ParameterError(parameter="axis", value=axis, rule="must be a symbol name")
    if axis not in variables and any(v.name == axis for v in variables.values()):
        raise ParameterError(
            parameter="axis", value=axis, rule="is an unknown constant, not a quantity to sweep"
        )
    if axis not in variables:
        close = difflib.get_close_matches(axis, list(variables), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ParameterError(
            f"axis {axis!r} is not a symbol of these bounds{hint} "
            f"(axis candidates: {', '.join(candidates) or 'none'})"
        )
    variable = variables[axis]
    if variable.constant_of is not None:
        raise ParameterError(
            parameter="axis", value=axis, rule="is an unknown constant, not a quantity to sweep"
        )
    if variable.tie is not None:
        raise ParameterError(
            parameter="axis",
            value=axis,
            rule=f"is tied ({axis} = {variable.tie}); sweep a free symbol",
        )
    if not (variable.positive or variable.nonnegative):
        raise ParameterError(
            parameter="axis",
            value=axis,
            rule=f"must have a positive domain for a log-log plot ({axis} is {variable.domain})",
        )
    missing = [b for b in bounds if not _depends(b, axis, variables)]
    if missing and (not flat or len(missing) == len(bounds)):
        first = missing[0]
        advice = (
            "pass flat=True (--flat) to draw such bounds as horizontal lines"
            if not flat
            else "no bound depends on it"
        )
        raise ParameterError(
            f"axis {axis!r} is not a symbol of {first.id} (its symbols: "
            f"{', '.join(first.parameters + first.constants)}); choose one of "
            f"{', '.join(candidates) or '(none)'}, or {advice}"
        )
    return axis


def _text(bound: Bound) -> str:
    return f"{bound.quantity} {bound.relation} {sp.sstr(bound.expr)}"


def _mathml(bound: Bound) -> str:
    try:
        return bound_mathml(bound)
    except Exception:  # a display problem never loses the page: the plain text instead
        return f"<code>{html.escape(_text(bound))}</code>"


def _relation_mathml(bound: Bound, relation: sp.Basic) -> str:
    try:
        inner = expression_mathml(relation, bound.symbol_names)
    except Exception:  # as above
        return f"<code>{html.escape(sp.sstr(relation))}</code>"
    return f"<math>{inner}</math>"


def _label_mathml(variable: _Variable) -> str:
    name = variable.name
    try:
        inner = tex_to_mathml(variable.latex) if variable.latex else f"<mi>{html.escape(name)}</mi>"
    except TexError:
        inner = f"<mi>{html.escape(name)}</mi>"
    return f"<math>{inner}</math>"


_SUPERSCRIPTS = str.maketrans("0123456789+-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻")
_SUBSCRIPTS = str.maketrans("0123456789aeijkmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉ₐₑᵢⱼₖₘₙₒₚᵣₛₜᵤᵥₓ")
_PLAIN_NAME = re.compile(r"^(\\[A-Za-z]+|[A-Za-z])(?:([_^])\{?([0-9A-Za-z+-]+)\}?)?$")


def _plain_name(variable: _Variable) -> str:
    """A one-line Unicode name for plain-text places (the plot): ``\\varepsilon`` → ε,
    ``s^{2}`` → s², ``n_i`` → nᵢ; the symbol's name where the LaTeX is more than that."""
    match = _PLAIN_NAME.match(variable.latex or "")
    if match is None:
        return variable.name
    head, script, text = match.groups()
    if head.startswith("\\"):
        letter = _GREEK_LETTERS.get(head[1:])
        if letter is None:
            return variable.name
        head = letter
    if not script:
        return head
    table = _SUPERSCRIPTS if script == "^" else _SUBSCRIPTS
    converted = text.translate(table)
    if converted == text or any(c.isascii() for c in converted):
        return variable.name
    return head + converted


def _bound_data(index: int, bound: Bound, variables: Mapping[str, _Variable]) -> dict[str, Any]:
    keys = [_key(bound, n) for n in bound.info]
    return {
        "id": bound.id,
        "kind": bound.kind,
        "status": bound.status,
        "relation": bound.relation,
        "quantity": bound.quantity,
        "source": str(bound.source),
        "statement": statement_html(bound.statement) if bound.statement else "",
        "mathml": _mathml(bound),
        "text": _text(bound),
        "args": keys,
        "hypotheses": [
            {"text": str(h), "note": h.note, "mathml": _relation_mathml(bound, h.relation)}
            for h in bound.hypotheses
        ],
    }


def _formulas(bounds: Sequence[Bound]) -> str:
    """The generated JavaScript: each bound's value and hypotheses as functions of ``x``, the
    array of its symbols' values (in the order of ``bound.info``).

    Each is printed in the form ``Bound.evaluate`` compiles
    (:func:`~fedtheory.bounds._expressions.lambdify_form`: the same placeholders, so the same
    order of the factors of every product), so that the page's float64 arithmetic is numpy's,
    rounding and overflow included. A construct the printer cannot express is refused in the
    bound's own terms (the expression is printed again with its symbols' names).
    """
    lines = ["const FORMULAS = ["]
    for bound in bounds:
        symbols = [info.symbol for info in bound.info.values()]
        names = {symbol: f"x[{i}]" for i, symbol in enumerate(symbols)}
        printed = []
        for expr in (bound.expr, *bound.conditions):
            if bound.sequences:  # refused, in the bound's own terms
                javascript_code(expr, names, bound_id=bound.id)
            form, placeholders = lambdify_form(symbols, prepare_for_lambdify(expr))
            slots = {p: f"x[{i}]" for i, p in enumerate(placeholders)}
            try:
                printed.append(javascript_code(form, slots, bound_id=bound.id))
            except ParameterError:
                javascript_code(expr, names, bound_id=bound.id)  # the refusal, named plainly
                raise
        value, *hypotheses = printed
        lines.append(f"  {{ // {bound.id}")
        lines.append(f"    value: (x) => {value},")
        lines.append("    hypotheses: [")
        lines.extend(f"      (x) => {h}," for h in hypotheses)
        lines.append("    ],")
        lines.append("  },")
    lines.append("];")
    return "\n".join(lines)


def _script_safe(text: str) -> str:
    return text.replace("</", "<\\/")


def _asset(name: str) -> str:
    return resources.files("fedtheory.explore").joinpath(name).read_text(encoding="utf-8")


def explorer_html(
    bounds: Sequence[Bound | str],
    axis: str | None = None,
    *,
    values: Mapping[str, float] | None = None,
    ranges: Mapping[str, tuple[float, float]] | None = None,
    tie: Mapping[str, str] | None = None,
    flat: bool = False,
    title: str | None = None,
    note: str | None = None,
) -> str:
    """A self-contained HTML page to explore ``bounds`` with sliders and a log-log plot.

    Parameters
    ----------
    bounds
        Bounds or registered bound ids, drawn in this order (one colour each).
    axis
        The symbol along the plot's x axis (log scale; it must have a positive or nonnegative
        domain). Default: the first of :data:`AXIS_PREFERENCE` shared by every bound, else the
        first shared symbol. The page's axis selector offers every eligible symbol.
    values
        Initial values by symbol name (default: the first bound's example that has the symbol;
        unknown constants 1). An unknown constant is keyed ``C@<bound id>``; its plain name
        (``"C"``) sets the constant of every bound.
    ranges
        ``(low, high)`` of a symbol's slider (and of the axis when it is the axis). Default:
        three decades either side of the initial value for a positive symbol (log slider),
        clipped to simple hypotheses such as ``tau ≤ 1``; integers from 1.
    tie
        Symbols computed from others instead of having a slider, e.g. ``{"N": "m*n"}`` (the
        expression is printed to JavaScript like the bounds; it may use untied symbols only).
    flat
        Allow an axis that some bounds do not depend on; they are drawn as horizontal lines.
        By default the axis must be a symbol of every bound.
    title, note
        Page title (default: the bound ids) and an optional paragraph under it.

    Returns
    -------
    str
        The HTML document.

    Raises
    ------
    ParameterError
        An unknown bound id (close matches listed), a bound the JavaScript printer cannot
        express (the construct named, e.g. a sum over a sequence), an axis that is not a symbol
        of every bound (without ``flat``) or has no positive domain, a value outside its
        symbol's domain, a malformed tie or range.

    Examples
    --------
    >>> page = explorer_html(["minimax.gmq.plt", "minimax.gmq.fedavg"], axis="d")
    >>> page.startswith("<!DOCTYPE html>") and "minimax.gmq.fedavg" in page
    True
    """
    resolved = _resolve(bounds)
    formulas = _formulas(resolved)  # first: a bound the printer cannot express fails here
    variables = _variables(resolved)
    if tie is not None:
        if not isinstance(tie, Mapping):
            raise ParameterError(
                parameter="tie", value=tie, rule="must map a symbol to an expression"
            )
        _apply_ties(variables, tie)
    for variable in variables.values():
        if variable.value is None:
            variable.value = 1.0
    for name, value in (values or {}).items():
        for variable in _targets(variables, name, "values"):
            if variable.tie is not None:
                raise ParameterError(
                    parameter="values", value=name, rule=f"is tied ({name} = {variable.tie})"
                )
            variable.value = _check_value(variable, value, f"values[{name!r}]")
    for variable in variables.values():
        limits = _hypothesis_limits(resolved, variable)
        variable.low, variable.high = _default_range(variable, limits)
    for name, interval in (ranges or {}).items():
        for variable in _targets(variables, name, "ranges"):
            if not isinstance(interval, (tuple, list)) or len(interval) != 2:
                raise ParameterError(
                    parameter=f"ranges[{name!r}]", value=interval, rule="must be (low, high)"
                )
            low = _check_value(variable, interval[0], f"ranges[{name!r}][0]")
            high = _check_value(variable, interval[1], f"ranges[{name!r}][1]")
            if not low < high:
                raise ParameterError(
                    parameter=f"ranges[{name!r}]", value=interval, rule="needs low < high"
                )
            variable.low, variable.high = low, high
    for variable in variables.values():
        assert variable.value is not None and variable.low is not None
        assert variable.high is not None
        variable.low = min(variable.low, variable.value)
        variable.high = max(variable.high, variable.value)
    chosen = _choose_axis(axis, resolved, variables, flat)
    candidates = _axis_candidates(resolved, variables, flat)
    axis_variable = variables[chosen]
    assert axis_variable.low is not None and axis_variable.value is not None
    if axis_variable.low <= 0:  # a nonnegative axis on a log scale starts above 0
        axis_variable.low = (axis_variable.value or 1.0) / 10**DECADES
    data = {
        "title": title or " vs ".join(b.id for b in resolved),
        "axis": chosen,
        "axes": candidates,
        "bounds": [_bound_data(i, b, variables) for i, b in enumerate(resolved)],
        "variables": [
            {
                "key": v.key,
                "name": v.name,
                "label": _label_mathml(v),
                "plain": _plain_name(v),
                "domain": v.domain,
                "positive": v.positive,
                "nonnegative": v.nonnegative,
                "integer": v.integer,
                "constantOf": v.constant_of,
                "meanings": [[m, ids] for m, ids in v.meanings.items()],
                "users": v.users,
                "value": v.value,
                "low": v.low,
                "high": v.high,
                "tie": v.tie,
                "tieSymbols": v.tie_symbols,
            }
            for v in variables.values()
        ],
    }
    ties = ["const TIES = {"]
    ties.extend(
        f"  {json.dumps(v.key)}: (v) => {v.tie_code},"
        for v in variables.values()
        if v.tie_code is not None
    )
    ties.append("};")
    page_title = html.escape(str(data["title"]))
    note_html = f'<p class="note">{statement_html(note)}</p>' if note else ""
    return _TEMPLATE.format(
        title=page_title,
        note=note_html,
        css=_asset("explorer.css"),
        data=_script_safe(json.dumps(data, ensure_ascii=False, allow_nan=False)),
        formulas=_script_safe(formulas + "\n" + "\n".join(ties)),
        runtime=_script_safe(_asset("explorer.js")),
    )


def write_explorer(
    path: str | Path, bounds: Sequence[Bound | str], axis: str | None = None, **options: Any
) -> Path:
    """Write :func:`explorer_html` of ``bounds`` to ``path`` (folders created) and return it.

    A path that cannot be written (no permission, a read-only file system) raises
    :class:`~fedtheory.errors.ParameterError`.

    Parameters
    ----------
    path
        The HTML file to write.
    bounds, axis, **options
        As for :func:`explorer_html`.
    """
    page = explorer_html(bounds, axis, **options)
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page, encoding="utf-8")
    except OSError as error:
        raise ParameterError(
            parameter="path",
            value=str(path),
            rule=f"must be a file that can be written ({error.strerror or error})",
        ) from None
    return target


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="fedtheory explore">
<title>{title} — fedtheory explorer</title>
<style>
{css}
</style>
</head>
<body>
<header>
<h1>{title}</h1>
{note}
</header>
<main>
<section id="controls" aria-label="symbols"></section>
<section id="figure" aria-label="plot">
<div id="plot"></div>
<div id="x-label"></div>
<div id="legend"></div>
<ul id="crossover-list"></ul>
<ul id="messages"></ul>
</section>
</main>
<section id="bounds" aria-label="bounds"></section>
<footer>Generated by <code>fedtheory explore</code>: every formula on this page is printed
from the bound's sympy expression; nothing is loaded from the network.</footer>
<pre id="test-output" hidden></pre>
<script type="application/json" id="explorer-data">{data}</script>
<script>
"use strict";
{formulas}
</script>
<script>
"use strict";
{runtime}
</script>
</body>
</html>
"""
