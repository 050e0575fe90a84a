"""Choosing claims by id: globs (``--claims``) and pytest-style keyword expressions (``-k``).

A keyword expression combines words with ``and``, ``or``, ``not`` and parentheses, as
``pytest -k`` does. A word matches a claim id it is a substring of (case-insensitive); a word
with a glob character (``*``, ``?``, ``[``) matches as a glob on the whole id instead (``*``
crosses ``/``)::

    -k sgd                         ids containing "sgd"
    -k "minimax and not worstcase" minimax ids outside the worst-case claims
    -k "classic/*/rate or erratum"
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Sequence

from fedtheory.errors import ParameterError

__all__ = ["escape_glob", "id_matcher", "keyword_matcher"]

_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")
_GLOB_CHARS = frozenset("*?[")
_OPERATORS = frozenset({"and", "or", "not"})

Matcher = Callable[[str], bool]


def escape_glob(claim_id: str) -> str:
    """A glob matching exactly ``claim_id`` (brackets escaped).

    >>> escape_glob("a/[b]")
    'a/[[]b]'
    """
    return re.sub(r"([\[*?])", r"[\1]", claim_id)


def id_matcher(patterns: Sequence[str]) -> Matcher:
    """True for ids matching any of the globs."""
    return lambda claim_id: any(fnmatch.fnmatchcase(claim_id, p) for p in patterns)


def _word(word: str) -> Matcher:
    if _GLOB_CHARS & set(word):
        return lambda claim_id: fnmatch.fnmatchcase(claim_id, word)
    lowered = word.lower()
    return lambda claim_id: lowered in claim_id.lower()


class _Parser:
    """Recursive descent: ``expr := term (or term)*``, ``term := factor (and factor)*``,
    ``factor := not factor | ( expr ) | word``."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _TOKEN.findall(text)
        self.position = 0

    def fail(self, rule: str) -> ParameterError:
        return ParameterError(parameter="-k", value=self.text, rule=rule)

    def peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise self.fail("ends where a word or '(' was expected")
        self.position += 1
        return token

    def expression(self) -> Matcher:
        parts = [self.term()]
        while self.peek() == "or":
            self.take()
            parts.append(self.term())
        if len(parts) == 1:
            return parts[0]
        return lambda claim_id: any(part(claim_id) for part in parts)

    def term(self) -> Matcher:
        parts = [self.factor()]
        while self.peek() == "and":
            self.take()
            parts.append(self.factor())
        if len(parts) == 1:
            return parts[0]
        return lambda claim_id: all(part(claim_id) for part in parts)

    def factor(self) -> Matcher:
        token = self.take()
        if token == "not":
            inner = self.factor()
            return lambda claim_id: not inner(claim_id)
        if token == "(":
            inner = self.expression()
            if self.peek() != ")":
                raise self.fail("has a '(' without its ')'")
            self.take()
            return inner
        if token == ")" or token in _OPERATORS:
            raise self.fail(f"has {token!r} where a word or '(' was expected")
        return _word(token)


def keyword_matcher(expression: str) -> Matcher:
    """A predicate on claim ids from a ``-k`` expression (see the module docstring).

    >>> match = keyword_matcher("minimax and not worstcase")
    >>> match("minimax/thm4/local-rate"), match("minimax/worstcase/prop16")
    (True, False)

    Raises
    ------
    ParameterError
        An empty or malformed expression (an operator without its operand, unbalanced
        parentheses).
    """
    if not isinstance(expression, str) or not expression.strip():
        raise ParameterError(
            parameter="-k", value=expression, rule="must be a non-empty expression"
        )
    parser = _Parser(expression)
    matcher = parser.expression()
    if parser.peek() is not None:
        raise parser.fail(f"has {parser.peek()!r} after a complete expression")
    return matcher
