"""Where a bound comes from: the papers fedtheory encodes and citations into them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from fedtheory.errors import ParameterError

__all__ = ["PAPERS", "Citation", "Paper"]


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
        Key in :data:`PAPERS`.
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
