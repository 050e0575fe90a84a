"""Mathematics for HTML pages without network: MathML for bounds, sub/superscripts for
statements.

Shared by the verification report (``report/index.html``, :mod:`fedtheory.verify.report`), the
notebook displays (``_repr_html_``, :mod:`fedtheory.verify._display`) and the bound explorer
(:mod:`fedtheory.explore`); it lives with the bounds because it renders them and needs sympy
alone, so that all of them import it downward.

A bound is shown as presentation MathML (rendered natively by current browsers, MathML Core):
its expression through sympy's presentation printer, the symbols by their LaTeX names and the
bounded quantity (``quantity_latex``) through :func:`tex_to_mathml`, a converter of the small
subset of TeX the catalogue's names use (letters, digits, groups, ``^``/``_``, ``\\frac``,
``\\sqrt``, Greek letters, ``\\mathbf``-style alphabets, accents, norms, big operators, a few
relations). Anything outside the subset raises :class:`TexError` and the caller falls back to
plain text, so a display problem never loses the report.

Claim statements are plain Unicode text with TeX-like scripts (``e^{−a/2}``, ``x_0``,
``θ̄^(0)``, ``Σ_{k≤τ}``): :func:`statement_html` turns those into ``<sup>``/``<sub>`` and
escapes everything else; `` `code` `` spans become ``<code>``.
"""

from __future__ import annotations

import contextlib
import html
import re
import unicodedata
from typing import Any

import sympy as sp
from sympy.printing.mathml import MathMLPresentationPrinter

__all__ = [
    "GREEK_LETTERS",
    "TexError",
    "bound_mathml",
    "expression_mathml",
    "statement_html",
    "tex_to_mathml",
]


class TexError(ValueError):
    """A TeX fragment outside the subset :func:`tex_to_mathml` converts."""


def _t(text: str) -> str:
    return html.escape(text, quote=True)


_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ",
    "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "ϕ",
    "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "ell": "ℓ", "nabla": "∇",
    "partial": "∂", "infty": "∞", "hbar": "ℏ", "emptyset": "∅",
}  # fmt: skip
_UPRIGHT = {
    "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
    "Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}  # fmt: skip
_OPERATORS = {
    "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "lesssim": "≲",
    "gtrsim": "≳", "sim": "∼", "approx": "≈", "propto": "∝", "to": "→", "rightarrow": "→",
    "leftarrow": "←", "mapsto": "↦", "in": "∈", "notin": "∉", "subset": "⊂", "subseteq": "⊆",
    "setminus": "∖", "cup": "∪", "cap": "∩", "times": "×", "cdot": "⋅", "pm": "±", "mp": "∓",
    "star": "⋆", "ast": "∗", "circ": "∘", "top": "⊤", "perp": "⊥", "mid": "∣", "Vert": "‖",
    "|": "‖", "vert": "|", "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋",
    "lceil": "⌈", "rceil": "⌉", "{": "{", "}": "}", "ldots": "…", "cdots": "⋯", "dots": "…",
    "forall": "∀", "exists": "∃", "wedge": "∧", "vee": "∨", "ll": "≪", "gg": "≫",
    "equiv": "≡", "coloneqq": "≔", "prime": "′", "%": "%", "_": "_", "&": "&", "#": "#",
}  # fmt: skip
#: Letters by LaTeX command (``alpha`` → α, ``Gamma`` → Γ), for plain-text names.
GREEK_LETTERS: dict[str, str] = {**_GREEK, **_UPRIGHT}
_BIG = {"sum": "∑", "prod": "∏", "int": "∫", "bigcup": "⋃", "bigcap": "⋂"}
_LIMIT_FUNCTIONS = frozenset(
    {"max", "min", "sup", "inf", "lim", "limsup", "liminf", "argmax", "argmin", "Pr"}
)
_FUNCTIONS = _LIMIT_FUNCTIONS | {
    "log", "ln", "exp", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh",
    "tanh", "det", "dim", "ker", "deg", "gcd", "arg",
}  # fmt: skip
_SPACES = {",": "0.1667em", ":": "0.2222em", ";": "0.2778em", " ": "0.3333em",
           "quad": "1em", "qquad": "2em", "!": "0em"}  # fmt: skip
_ACCENTS = {"bar": "¯", "overline": "¯", "hat": "^", "widehat": "^", "tilde": "~",
            "widetilde": "~", "vec": "→", "dot": "˙", "ddot": "¨", "check": "ˇ"}  # fmt: skip
_ALPHABETS = {  # \mathbf & co. as Unicode mathematical alphanumerics (MathML Core has no
    # mathvariant but "normal"): (style in the Unicode names, style of the older letters)
    "mathbf": ("BOLD", None),
    "boldsymbol": ("BOLD ITALIC", None),
    "mathcal": ("SCRIPT", "SCRIPT"),
    "mathscr": ("SCRIPT", "SCRIPT"),
    "mathbb": ("DOUBLE-STRUCK", "DOUBLE-STRUCK"),
    "mathfrak": ("FRAKTUR", "BLACK-LETTER"),
    "mathsf": ("SANS-SERIF", None),
    "mathtt": ("MONOSPACE", None),
}
_IGNORED = frozenset({"displaystyle", "textstyle", "limits", "nolimits", "left", "right",
                      "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr"})  # fmt: skip
_THIN = '<mspace width="0.1667em"/>'
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\d+(?:\.\d+)?|\s+|.", re.DOTALL)


def _styled(char: str, style: str, older: str | None) -> str:
    if not char.isascii() or not char.isalpha():
        return char
    case = "CAPITAL" if char.isupper() else "SMALL"
    for name in (f"MATHEMATICAL {style} {case} {char.upper()}", f"{older} {case} {char.upper()}"):
        try:
            return unicodedata.lookup(name)
        except KeyError:
            continue
    return char


class _Parser:
    def __init__(self, tex: str) -> None:
        self.tokens = [t for t in _TOKEN.findall(tex) if not t.isspace() or t == "\\ "]
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise TexError("unexpected end")
        self.pos += 1
        return token

    def group_text(self) -> str:
        """The raw text of a ``{...}`` argument (for ``\\text``, ``\\mathrm``)."""
        if self.take() != "{":
            raise TexError("expected {")
        depth, parts = 1, list[str]()
        while True:
            token = self.take()
            if token == "{":
                depth += 1
            elif token == "}":
                depth -= 1
                if depth == 0:
                    return "".join(parts)
            parts.append(token)

    def sequence(self, stop: str | None = None) -> str:
        out = []
        while True:
            token = self.peek()
            if token is None:
                if stop is not None:
                    raise TexError(f"missing {stop}")
                break
            if token == stop:
                self.pos += 1
                break
            if token == "}":
                raise TexError("unbalanced }")
            out.append(self.scripted())
        return "".join(out)

    def scripted(self) -> str:
        function = self.peek() in {f"\\{name}" for name in _FUNCTIONS}
        base, big = self.atom()
        # an operator name (log, max, ...) is followed by a thin space, as in TeX
        after = _THIN if function else ""
        subs: list[str] = []
        sups: list[str] = []
        while self.peek() in ("^", "_", "'"):
            token = self.take()
            if token == "'":
                sups.append("<mo>′</mo>")
            elif token == "_" and not subs:
                subs.append(self.argument())
            elif token == "^" and not any(not p.startswith("<mo>′") for p in sups):
                sups.append(self.argument())
            else:
                raise TexError("double script")
        if not subs and not sups:
            return base + after
        base = base or "<mrow></mrow>"
        sub, sup = _element(subs), _element(sups)
        under, over = ("munder", "mover") if big else ("msub", "msup")
        if subs and sups:
            both = "munderover" if big else "msubsup"
            return f"<{both}>{base}{sub}{sup}</{both}>{after}"
        if subs:
            return f"<{under}>{base}{sub}</{under}>{after}"
        return f"<{over}>{base}{sup}</{over}>{after}"

    def argument(self) -> str:
        """One argument: a group or a single token (``x^2``, ``\\frac12``)."""
        if self.peek() == "{":
            self.pos += 1
            return "<mrow>" + self.sequence("}") + "</mrow>"
        token = self.peek()
        if token is not None and token[0].isdigit():
            self.tokens[self.pos : self.pos + 1] = list(token)  # \frac12: one digit each
        return self.atom()[0]

    def atom(self) -> tuple[str, bool]:
        """One element and whether it takes limits under/over (big operators, max, ...)."""
        token = self.take()
        if token == "{":
            return "<mrow>" + self.sequence("}") + "</mrow>", False
        if token[0].isdigit():
            return f"<mn>{token}</mn>", False
        if len(token) == 1:
            if token.isalpha():
                return f"<mi>{_t(token)}</mi>", False
            if token in "^_}":
                raise TexError(f"unexpected {token}")
            char = {"-": "−", "*": "∗"}.get(token, token)
            return f"<mo>{_t(char)}</mo>", False
        name = token[1:]
        if name in ("left", "right"):
            fence = self.take()
            if fence == ".":
                return "", False
            if fence.startswith("\\") and fence[1:] in _OPERATORS:
                fence = _OPERATORS[fence[1:]]
            return f"<mo>{_t(fence)}</mo>", False
        if name in _IGNORED:
            return "", False
        if name in _GREEK:
            return f"<mi>{_GREEK[name]}</mi>", False
        if name in _UPRIGHT:
            return f'<mi mathvariant="normal">{_UPRIGHT[name]}</mi>', False
        if name in _OPERATORS:
            return f"<mo>{_t(_OPERATORS[name])}</mo>", False
        if name in _BIG:
            return f'<mo largeop="true">{_BIG[name]}</mo>', True
        if name in _FUNCTIONS:
            return f"<mi>{name}</mi>", name in _LIMIT_FUNCTIONS
        if name in _SPACES:
            return f'<mspace width="{_SPACES[name]}"/>', False
        if name == "frac":
            num, den = self.argument(), self.argument()
            return f"<mfrac>{num}{den}</mfrac>", False
        if name == "sqrt":
            if self.peek() == "[":
                self.pos += 1
                index = self.sequence("]")
                return f"<mroot>{self.argument()}<mrow>{index}</mrow></mroot>", False
            return f"<msqrt>{self.argument()}</msqrt>", False
        if name in _ACCENTS:
            return (
                f'<mover accent="true">{self.argument()}<mo>{_ACCENTS[name]}</mo></mover>',
                False,
            )
        if name in _ALPHABETS:
            style, older = _ALPHABETS[name]
            inner = self.argument()
            return re.sub(
                r"(<mi[^>]*>)([^<]*)(</mi>)",
                lambda m: m[1] + "".join(_styled(c, style, older) for c in m[2]) + m[3],
                inner,
            ), False
        if name in ("mathrm", "operatorname", "mathit"):
            text = _plain(self.group_text())
            variant = ' mathvariant="normal"' if name != "mathit" and len(text) == 1 else ""
            return f"<mi{variant}>{_t(text)}</mi>", name == "operatorname"
        if name in ("text", "textrm", "mbox", "textit"):
            return f"<mtext>{_t(_plain(self.group_text()))}</mtext>", False
        if name == "textbackslash":
            if self.peek() == "{" and self.tokens[self.pos + 1 : self.pos + 2] == ["}"]:
                self.pos += 2
            return "<mo>\\</mo>", False
        raise TexError(f"unsupported command {token}")


def _element(parts: list[str]) -> str:
    """One MathML element of a script's parts (an argument is one element already)."""
    if len(parts) == 1 and parts[0]:
        return parts[0]
    return "<mrow>" + "".join(parts) + "</mrow>"


def _plain(text: str) -> str:
    """Text of a ``\\text{}`` argument: TeX escapes undone."""
    return (
        text.replace(r"\textbackslash{}", "\\")
        .replace(r"\_", "_")
        .replace(r"\%", "%")
        .replace(r"\&", "&")
        .replace(r"\ ", " ")
        .replace(r"\#", "#")
    )


def tex_to_mathml(tex: str) -> str:
    """MathML elements (no ``<math>`` wrapper) of a TeX fragment of the supported subset.

    >>> tex_to_mathml(r"\\Vert x_0\\Vert^{2}")
    '<mo>‖</mo><msub><mi>x</mi><mn>0</mn></msub><msup><mo>‖</mo><mrow><mn>2</mn></mrow></msup>'

    Raises
    ------
    TexError
        A command or construct outside the subset, or unbalanced braces.
    """
    return _Parser(tex).sequence()


# --------------------------------------------------------------------------- bounds


class _NamedPrinter(MathMLPresentationPrinter):  # type: ignore[misc]  # sympy is untyped
    """sympy's presentation printer, with given symbols printed as placeholders."""

    def __init__(self, placeholders: dict[Any, str]) -> None:
        super().__init__({})
        self._placeholders = placeholders

    def _print_Symbol(self, sym: Any, style: str = "plain") -> Any:
        if sym in self._placeholders:
            mi = self.dom.createElement("mi")
            mi.appendChild(self.dom.createTextNode(self._placeholders[sym]))
            return mi
        return super()._print_Symbol(sym, style)


def expression_mathml(expr: sp.Basic, names: dict[Any, str] | None = None) -> str:
    """Presentation MathML (no wrapper) of a sympy expression, symbols shown by their LaTeX
    names (``{symbol: LaTeX}``) where :func:`tex_to_mathml` converts them."""
    placeholders: dict[Any, str] = {}
    fragments: dict[str, str] = {}
    for i, (symbol, tex) in enumerate((names or {}).items()):
        try:
            fragment = tex_to_mathml(tex)
        except TexError:
            continue  # sympy's own rendering of the symbol's name
        key = f"fedtheoryplaceholder{chr(97 + i % 26)}{i}x"
        placeholders[symbol] = key
        fragments[f"<mi>{key}</mi>"] = f"<mrow>{fragment}</mrow>"
    printer = _NamedPrinter(placeholders)
    text: str = printer.doprint(expr)
    for key, fragment in fragments.items():
        text = text.replace(key, fragment)
    return text.replace("<mo>-</mo>", "<mo>−</mo>")


def bound_mathml(bound: Any, relation: str | None = None) -> str:
    """``<math display="block">`` of a bound's statement: quantity, relation, expression.

    The quantity comes from its ``quantity_latex`` (or its plain name as ``<mtext>``), the
    expression from its sympy expression; both name symbols by their LaTeX names.

    Raises
    ------
    Exception
        Whatever sympy raises on an expression it cannot print (the caller falls back).
    """
    lhs = f"<mtext>{_t(bound.quantity)}</mtext>"
    if bound.quantity_latex:
        with contextlib.suppress(TexError):
            lhs = tex_to_mathml(bound.quantity_latex)
    rhs = expression_mathml(bound.expr, bound.symbol_names)
    rel = relation if relation is not None else bound.relation
    return (
        f'<math display="block"><mrow><mrow>{lhs}</mrow><mo>{_t(rel)}</mo>'
        f"<mrow>{rhs}</mrow></mrow></math>"
    )


# --------------------------------------------------------------------------- statements

# unbraced subscripts that are words, not a letter followed by text (ρ_max^n, ‖f‖_lip)
_SCRIPT_WORDS = ("max", "min", "lip", "eff", "fix", "op", "data", "sup", "inf", "opt", "tot")
_IDENTIFIER = re.compile(r"[A-Za-z]+_[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*")


def _braced(text: str, start: int, open_: str, close: str) -> int:
    """Index just after the bracket closing the one at ``start``, or -1 when unbalanced."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_:
            depth += 1
        elif text[i] == close:
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def _script_end(text: str, start: int) -> int:
    """End of an unbraced script starting at ``start`` (just after ``^`` or ``_``)."""
    for word in _SCRIPT_WORDS:
        end = start + len(word)
        if text.startswith(word, start) and (end == len(text) or not text[end].isalpha()):
            return end
    char = text[start]
    if char in "0123456789−-+":
        end = start + 1
        while end < len(text) and text[end] in "0123456789":
            end += 1
        return end if text[end - 1] in "0123456789" else -1
    if char.isalpha() or char in "*∗′⋆∞":
        end = start + 1
        while end < len(text) and text[end] in "0123456789":
            end += 1
        # combining marks (θ̄) belong to their letter
        while end < len(text) and unicodedata.combining(text[end]):
            end += 1
        return end
    return -1


def _scripts_html(text: str) -> str:
    """Escaped text with ``^{…}``/``_{…}``/``^(…)``/``^x``/``_x`` as ``<sup>``/``<sub>``.

    An unbalanced brace is kept as it is, inside ``<code>`` (never an error).
    """
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char not in "^_" or i == 0 or i + 1 >= len(text) or text[i - 1].isspace():
            match = (
                _IDENTIFIER.match(text, i)
                if char.isalpha() and (i == 0 or not text[i - 1].isalpha())
                else None
            )
            if match and not _is_math_word(match[0]):
                out.append(_t(match[0]))  # a code identifier (sum_largest): left alone
                i = match.end()
                continue
            out.append(_t(char))
            i += 1
            continue
        tag = "sup" if char == "^" else "sub"
        nxt = text[i + 1]
        if nxt in "{(":
            end = _braced(text, i + 1, nxt, "}" if nxt == "{" else ")")
            if end < 0:
                out.append(f"<code>{_t(text[i:])}</code>")
                break
            inner = text[i + 2 : end - 1] if nxt == "{" else text[i + 1 : end]
            out.append(f"<{tag}>{_scripts_html(inner)}</{tag}>")
            i = end
            continue
        end = _script_end(text, i + 1)
        if end < 0:
            out.append(_t(char))
            i += 1
            continue
        out.append(f"<{tag}>{_t(text[i + 1 : end])}</{tag}>")
        i = end
    return "".join(out)


def _is_math_word(word: str) -> bool:
    """``x_0``, ``ρ_max``, ``L_data``: subscripts; ``sum_largest``, ``bound_ratio``: code."""
    head, _, tail = word.partition("_")
    return "_" not in tail and (len(tail) <= 2 or tail in _SCRIPT_WORDS or len(head) == 1)


def statement_html(text: str) -> str:
    """HTML of a claim statement: escaped, TeX-like scripts as ``<sup>``/``<sub>``, `` `x` ``
    as ``<code>``.

    >>> statement_html("(1 − μ/L)^{2T} D0 ≤ e^{−a/2} for x_0 < `y_max`")
    '(1 − μ/L)<sup>2T</sup> D0 ≤ e<sup>−a/2</sup> for x<sub>0</sub> &lt; <code>y_max</code>'
    """
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(
        f"<code>{_t(part[1:-1])}</code>"
        if len(part) >= 2 and part.startswith("`") and part.endswith("`")
        else _scripts_html(part)
        for part in parts
    )
