"""Where a bound comes from: the papers fedtheory encodes and citations into them."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from fedtheory.errors import ParameterError

__all__ = ["BUILTIN_PAPERS", "PAPERS", "Citation", "Paper", "register_paper"]


@dataclass(frozen=True)
class Paper:
    """A source of bounds.

    Attributes
    ----------
    key : str
        Short key used in bound ids (``"minimax"`` in ``minimax.thm4``) and claim ids.
    authors, title : str
        Bibliographic data.
    reference : str
        Venue / arXiv identifier, or the textbooks a collection draws on.
    seed : str or None
        File name of the paper's text in ``shared/seeds/`` (the specification), if any.
    """

    key: str
    authors: str
    title: str
    reference: str
    seed: str | None = None

    def __str__(self) -> str:
        return f"{self.authors}, “{self.title}”, {self.reference}"


#: The papers fedtheory encodes, by key (README lists them).
PAPERS: dict[str, Paper] = {
    paper.key: paper
    for paper in (
        Paper(
            "classic",
            "various",
            "Textbook results the papers build on",
            "Nesterov (2004); Friedlander & Schmidt (2012); Rakhlin, Shamir & Sridharan (2012); "
            "Bousquet & Elisseeff (2002); Shalev-Shwartz & Ben-David (2014)",
        ),
        Paper(
            "minimax",
            "S. Chen, Q. Zheng, Q. Long, W. J. Su",
            "Minimax Estimation for Personalized Federated Learning: An Alternative between "
            "FedAvg and Local Training?",
            "arXiv:2103.01901",
            "001_8bc70684d3e09a4e.txt",
        ),
        Paper(
            "fedlrgd",
            "A. Jadbabaie, A. Makur, D. Shah",
            "Federated Optimization of Smooth Loss Functions",
            "arXiv:2201.01954v2",
            "004_0743544e855a05d4.txt",
        ),
        Paper(
            "ffgb",
            "Z. Shen, H. Hassani, S. Kale, A. Karbasi",
            "Federated Functional Gradient Boosting",
            "text in shared/seeds/000_2745f12fde90459c.txt",
            "000_2745f12fde90459c.txt",
        ),
        Paper(
            "gifair",
            "X. Yue, M. Nouiehed, R. Al Kontar",
            "GIFAIR-FL: A Framework for Group and Individual Fairness in Federated Learning",
            "text in shared/seeds/002_3bbb9946c5fd9088.txt",
            "002_3bbb9946c5fd9088.txt",
        ),
        Paper(
            "fzoos",
            "Y. Shu, X. Lin, Z. Dai, B. K. H. Low",
            "Federated Zeroth-Order Optimization using Trajectory-Informed Surrogate Gradients",
            "text in shared/seeds/003_a5695f45357e90c0.txt",
            "003_a5695f45357e90c0.txt",
        ),
    )
}


#: The keys of the papers fedtheory ships; :func:`register_paper` refuses them.
BUILTIN_PAPERS: frozenset[str] = frozenset(PAPERS)
#: A paper key: a lowercase letter, then lowercase letters and digits (it is the first
#: component of bound ids ``<key>.<item>`` and claim ids ``<key>/<theorem>/<slug>``).
PAPER_KEY = re.compile(r"^[a-z][a-z0-9]*$")
# the file of the module that declared each user paper (see declaring_file)
_DECLARED_IN: dict[str, str | None] = {}


def declaring_file() -> str | None:
    """The file of the module that called into ``fedtheory.bounds`` (the first frame outside it).

    A user's bounds module is executed again when it changed (``fedtheory verify`` forgets a
    changed module and imports it anew): its declarations then replace its own earlier ones.
    """
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if not (name == "fedtheory.bounds" or name.startswith("fedtheory.bounds.")):
            file = frame.f_globals.get("__file__")
            return str(Path(file).resolve()) if file else None
        frame = frame.f_back  # type: ignore[assignment]
    return None  # pragma: no cover - there is always a caller outside the package


def check_paper_key(key: object, parameter: str = "key") -> str:
    """``key`` if it is a well-formed paper key that is not a built-in paper's, else raise."""
    if not isinstance(key, str) or not PAPER_KEY.match(key):
        raise ParameterError(
            parameter=parameter,
            value=key,
            rule="a paper key is a lowercase letter followed by lowercase letters or digits "
            "(e.g. 'mypaper', 'smith2024')",
        )
    if key in BUILTIN_PAPERS:
        raise ParameterError(
            parameter=parameter,
            value=key,
            rule=f"is a built-in paper of fedtheory ({', '.join(sorted(BUILTIN_PAPERS))}); "
            "choose another key",
        )
    return key


def register_paper(
    key: str | Paper,
    *,
    authors: str | None = None,
    title: str | None = None,
    reference: str = "unpublished",
) -> Paper:
    """Declare a paper of your own, so that its bounds and claims can cite it.

    After ``register_paper("mypaper", ...)``, ``Citation("mypaper", "Theorem 1")``,
    ``Bound("mypaper.thm1", ...)`` and claims ``mypaper/thm1/...`` work exactly as for the
    papers fedtheory ships. Call it at the top of your bounds module, next to your claims
    (``fedtheory init KEY`` writes one; docs/verification.md, "Your own paper").

    Parameters
    ----------
    key
        The paper's key — a lowercase letter then lowercase letters or digits, not a built-in
        key (:data:`BUILTIN_PAPERS`) — or a whole :class:`Paper`.
    authors, title
        Bibliographic data (required with a key).
    reference
        Venue, arXiv identifier or year.

    Returns
    -------
    Paper
        The registered paper (the one already registered, when the declaration is the same).

    Raises
    ------
    ParameterError
        A malformed or built-in key, a missing author list or title, or a key another module
        already declared differently. Declaring the same paper again is allowed (a claim file
        may be loaded more than once, in workers too), and the module that declared a paper
        may change its declaration (it is imported again after an edit).
    """
    if isinstance(key, Paper):
        if authors is not None or title is not None:
            raise ParameterError(
                "register_paper: give either a Paper or a key with authors= and title=, not both"
            )
        paper = key
        check_paper_key(paper.key)
    else:
        check_paper_key(key)
        for name, value in (("authors", authors), ("title", title), ("reference", reference)):
            if not isinstance(value, str) or not value.strip():
                raise ParameterError(parameter=name, value=value, rule="must be a non-empty string")
        assert authors is not None and title is not None  # checked above (for mypy)
        paper = Paper(key, authors, title, reference)
    origin = declaring_file()
    existing = PAPERS.get(paper.key)
    if existing is not None and existing != paper and _DECLARED_IN.get(paper.key) != origin:
        raise ParameterError(
            parameter="key",
            value=paper.key,
            rule=f"is already declared as {existing} (by {_DECLARED_IN.get(paper.key)}); "
            "a paper is declared in one module",
        )
    if existing == paper:
        return existing
    PAPERS[paper.key] = paper
    _DECLARED_IN[paper.key] = origin
    return paper


def check_paper(key: str, parameter: str = "paper") -> Paper:
    """Return the :class:`Paper` for ``key`` or raise :class:`ParameterError` listing the keys."""
    try:
        return PAPERS[key]
    except KeyError:
        raise ParameterError(
            parameter=parameter, value=key, rule=f"unknown paper; known: {', '.join(PAPERS)}"
        ) from None


@dataclass(frozen=True)
class Citation:
    """A precise place in a paper.

    Parameters
    ----------
    paper
        Key in :data:`PAPERS`: a built-in paper or one declared with :func:`register_paper`.
    where
        Theorem, lemma or equation, e.g. ``"Theorem 6, eq. (9)"``.
    reference
        The original source when the statement is quoted from another work (e.g. a textbook
        result restated in a paper), or a full reference for ``paper="classic"``.

    Examples
    --------
    >>> str(Citation("minimax", "Theorem 4"))
    'minimax — Theorem 4'
    """

    paper: str
    where: str
    reference: str | None = None

    def __post_init__(self) -> None:
        check_paper(self.paper)
        if not self.where.strip():
            raise ParameterError(parameter="where", value=self.where, rule="must not be empty")

    def __str__(self) -> str:
        text = f"{self.paper} — {self.where}"
        return f"{text} [{self.reference}]" if self.reference else text

    @property
    def short(self) -> str:
        """Compact form for tables: ``minimax — Theorem 4``; for a textbook result the authors
        and year of the original work, e.g. ``Bousquet & Elisseeff (2002) — Theorem 12``."""
        if self.paper == "classic" and self.reference:
            match = re.match(r"[^()]*\(\d{4}\)", self.reference)
            if match:
                return f"{match.group(0)} — {self.where}"
        return f"{self.paper} — {self.where}"

    @property
    def full(self) -> str:
        """The citation with the paper's full bibliographic entry.

        For ``paper="classic"`` (a collection of textbook results) the entry is the original
        work in ``reference``; without one, only ``where``:

        >>> Citation("classic", "a statement of our own").full
        'a statement of our own'
        """
        if self.paper == "classic":  # a collection: the source is the work itself
            return f"{self.reference} ({self.where})" if self.reference else self.where
        text = f"{PAPERS[self.paper]}, {self.where}"
        return f"{text}; {self.reference}" if self.reference else text
