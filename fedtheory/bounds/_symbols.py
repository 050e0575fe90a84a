"""Symbols with meanings: the vocabulary bounds are written in.

A :class:`Vocabulary` maps a name to a sympy symbol (with its assumptions), a one-line meaning and
an optional LaTeX name. :data:`COMMON` holds the quantities the papers share, so that the same
physical quantity has the same symbol across papers (DESIGN §2): ``m`` clients, ``n`` samples per
client, ``N`` samples in total, ``d`` dimension, ``R`` heterogeneity radius, ``T`` rounds, ...

A paper module that needs more symbols makes its own vocabulary on top of :data:`COMMON`::

    V = Vocabulary("fedlrgd", parent=COMMON)
    eta = V.declare("eta", "Hölder smoothness of the loss in the data", latex=r"\\eta",
                    positive=True)

Three roles exist:

``parameter``
    an ordinary quantity the user supplies (``n``, ``mu``, ...);
``constant``
    the unknown absolute constant of an order bound (``C`` in ``≲ C·β/(μn)``). It must be supplied
    explicitly to evaluate the bound; scaling questions never need it;
``sequence``
    an indexed quantity (``e2[k]``: the measured squared gradient errors) given as a 1-D array.
"""

from __future__ import annotations

import keyword
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

import sympy as sp

from fedtheory.errors import ParameterError

__all__ = ["COMMON", "Role", "SymbolInfo", "Vocabulary"]

Role = Literal["parameter", "constant", "sequence"]
_ROLES: tuple[str, ...] = ("parameter", "constant", "sequence")


@dataclass(frozen=True)
class SymbolInfo:
    """A symbol of a bound with its meaning.

    Attributes
    ----------
    name : str
        Name used as keyword argument in :meth:`Bound.evaluate` (a Python identifier).
    symbol : sympy.Symbol or sympy.IndexedBase
        The sympy object; scalar symbols carry their assumptions (``positive``, ``integer``, ...).
    meaning : str
        One-line description, shown by ``fedtheory bounds show``.
    latex : str or None
        LaTeX name (``r"\\mu"``); ``None`` lets sympy choose.
    role : {"parameter", "constant", "sequence"}
        See the module docstring.
    """

    name: str
    symbol: Any
    meaning: str
    latex: str | None = None
    role: Role = "parameter"

    @property
    def domain(self) -> str:
        """Human-readable domain from the sympy assumptions, e.g. ``"positive integer"``."""
        if self.role == "sequence":
            label = self.symbol.label
            return "sequence of " + _domain_words(label)
        return _domain_words(self.symbol)


def _domain_words(symbol: sp.Symbol) -> str:
    words = []
    if symbol.is_positive:
        words.append("positive")
    elif symbol.is_nonnegative:
        words.append("nonnegative")
    elif symbol.is_negative:
        words.append("negative")
    if symbol.is_integer:
        words.append("integer")
    elif symbol.is_real:
        words.append("real")
    return " ".join(words) or "any value"


class Vocabulary:
    """A table of named symbols with meanings, optionally on top of a parent table.

    Parameters
    ----------
    name
        Name of the vocabulary (``"common"``, a paper key, ...), used in error messages.
    parent
        A vocabulary whose entries are visible from this one (looked up after this one's own).

    Examples
    --------
    >>> V = Vocabulary("demo", parent=COMMON)
    >>> rho = V.declare("rho", "Lipschitz constant of the loss", latex=r"\\rho", positive=True)
    >>> V["rho"].meaning
    'Lipschitz constant of the loss'
    >>> V["n"].meaning  # inherited from COMMON
    'number of samples on a client'
    """

    def __init__(self, name: str, parent: Vocabulary | None = None) -> None:
        self.name = name
        self.parent = parent
        self._entries: dict[str, SymbolInfo] = {}

    def declare(
        self,
        name: str,
        meaning: str,
        *,
        latex: str | None = None,
        role: Role = "parameter",
        **assumptions: bool,
    ) -> Any:
        """Declare a symbol and return the sympy object (``Symbol`` or ``IndexedBase``).

        Parameters
        ----------
        name
            Python identifier (keyword arguments of ``evaluate`` use it), not a Python keyword:
            write ``lam`` with ``latex=r"\\lambda"``.
        meaning
            One-line description.
        latex
            LaTeX name; default lets sympy render the name.
        role
            ``"parameter"``, ``"constant"`` (unknown constant of an order bound) or
            ``"sequence"`` (an indexed array; the assumptions apply to its entries).
        **assumptions
            sympy assumptions, e.g. ``positive=True, integer=True``.

        Raises
        ------
        ParameterError
            If the name is not an identifier, the role is unknown, the meaning is empty, or the
            name is already declared in this vocabulary with different assumptions or meaning.
        """
        if not name.isidentifier() or keyword.iskeyword(name):
            raise ParameterError(
                parameter="name", value=name, rule="must be a Python identifier and not a keyword"
            )
        if role not in _ROLES:
            raise ParameterError(parameter="role", value=role, rule=f"must be one of {_ROLES}")
        if not meaning.strip():
            raise ParameterError(parameter="meaning", value=meaning, rule="must not be empty")
        if role == "sequence":
            symbol: Any = sp.IndexedBase(sp.Symbol(name, **assumptions))
        else:
            symbol = sp.Symbol(name, **assumptions)
        info = SymbolInfo(name=name, symbol=symbol, meaning=meaning, latex=latex, role=role)
        existing = self._entries.get(name)
        if existing is not None and existing != info:
            raise ParameterError(
                f"symbol {name!r} is already declared in vocabulary {self.name!r} as "
                f"{existing.domain} {existing.role} ({existing.meaning!r}); use another name"
            )
        self._entries[name] = info
        return symbol

    def get(self, name: str) -> SymbolInfo | None:
        """Entry for ``name`` in this vocabulary or its parents, or ``None``."""
        if name in self._entries:
            return self._entries[name]
        return self.parent.get(name) if self.parent is not None else None

    def __getitem__(self, name: str) -> SymbolInfo:
        info = self.get(name)
        if info is None:
            raise ParameterError(
                parameter="name", value=name, rule=f"is not declared in vocabulary {self.name!r}"
            )
        return info

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def names(self) -> list[str]:
        """All names visible from this vocabulary, own entries first."""
        seen = dict.fromkeys(self._entries)
        if self.parent is not None:
            seen.update(dict.fromkeys(self.parent.names()))
        return list(seen)

    def __iter__(self) -> Iterator[SymbolInfo]:
        return (self[name] for name in self.names())

    def symbol(self, name: str) -> Any:
        """The sympy object of ``name``."""
        return self[name].symbol

    def __repr__(self) -> str:
        return f"Vocabulary({self.name!r}, {len(self._entries)} own symbols)"


#: Quantities shared by the papers. Integer counts are ``positive, integer``; rates and
#: constants are ``positive``.
COMMON = Vocabulary("common")
_declare = COMMON.declare
# federation
_declare("m", "number of clients", positive=True, integer=True)
_declare("n", "number of samples on a client", positive=True, integer=True)
_declare("n_i", "number of samples on client i", latex="n_i", positive=True, integer=True)
_declare("N", "total number of samples over all clients", positive=True, integer=True)
_declare("d", "dimension of the model (number of parameters)", positive=True, integer=True)
_declare(
    "R",
    "heterogeneity radius: distance of client optima to their average",
    latex="R",
    nonnegative=True,
)
# iterations
_declare("T", "number of (communication) rounds or iterations", nonnegative=True, integer=True)
_declare("t", "iteration counter", positive=True, integer=True)
_declare("K", "number of local steps per round", positive=True, integer=True)
_declare("S", "number of iterations of an inner solver", nonnegative=True, integer=True)
# regularity
_declare("L", "smoothness constant: Lipschitz constant of the gradient", positive=True)
_declare("mu", "strong-convexity constant", latex=r"\mu", positive=True)
_declare("beta", "smoothness constant of the loss (β-smooth)", latex=r"\beta", positive=True)
_declare("kappa", "condition number L/μ", latex=r"\kappa", positive=True)
_declare("rho", "Lipschitz constant of the loss", latex=r"\rho", positive=True)
# noise, losses, distances
_declare(
    "sigma2",
    "variance bound of the stochastic gradients / noise",
    latex=r"\sigma^{2}",
    positive=True,
)
_declare(
    "G2",
    "bound on the second moment of the stochastic gradients, E‖g‖² ≤ G²",
    latex="G^{2}",
    positive=True,
)
_declare("M", "bound on the loss values, 0 ≤ ℓ ≤ M", positive=True)
_declare("Delta0", "initial optimality gap f(x_0) − f*", latex=r"\Delta_0", nonnegative=True)
_declare("D0", "initial squared distance ‖x_0 − x*‖²", latex="D_0", nonnegative=True)
_declare("delta", "failure probability", latex=r"\delta", positive=True)
_declare("epsilon", "target accuracy", latex=r"\varepsilon", positive=True)
_declare("gamma", "stability constant of an algorithm", latex=r"\gamma", nonnegative=True)
# unknown absolute constants of order bounds (≲, ≳)
_declare("C", "unknown absolute constant hidden by ≲ / ≳", role="constant", positive=True)
for _k in range(1, 5):
    _declare(
        f"C{_k}",
        f"unknown absolute constant no. {_k} hidden by ≲ / ≳",
        latex=f"C_{_k}",
        role="constant",
        positive=True,
    )
del _declare, _k
