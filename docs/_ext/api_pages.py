"""The API reference's sources, written from the public modules' ``__all__`` at build time.

The public API is what each public module (no part of its dotted name starts with ``_``)
exports in ``__all__`` — the same definition as ``tests/test_public_api.py``. ``docs/conf.py``
calls :func:`write_api_pages` before Sphinx reads the sources, so a new public name or module
appears in the reference without anyone editing a page:

- ``docs/api/index.rst``: the modules, grouped (the package, the core, verification, papers);
- ``docs/api/<module>.rst``: one page per public module — its docstring and an ``autosummary``
  table of every name of its ``__all__``;
- ``docs/api/generated/<name>.rst``: one page per object, written by autosummary.

An object exported by several modules (``fedtheory.verify.Claim`` is
``fedtheory.verify.claim.Claim``) is documented once, on the page of its *home* module — the
module that defines it if that module is public, else the most specific public module that
exports it — and the other modules' tables link to it. ``tests/test_docs_api.py`` checks that
the pages list exactly the names of ``tests/public_api.json``.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PACKAGE = "fedtheory"

#: The groups of the API index: (title, module prefixes). A module goes to the first group one
#: of whose prefixes it starts with.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "The package",
        ("fedtheory.errors", "fedtheory.cli", "fedtheory.figures", "fedtheory.scaffold"),
    ),
    ("Bounds", ("fedtheory.bounds",)),
    ("Worst cases", ("fedtheory.worstcase",)),
    ("Statistics", ("fedtheory.stats",)),
    ("Exact oracles", ("fedtheory.exact",)),
    ("Problems", ("fedtheory.problems",)),
    ("Algorithms", ("fedtheory.algorithms",)),
    ("Plotting", ("fedtheory.plotting",)),
    ("Verification", ("fedtheory.verify",)),
    ("Papers", ("fedtheory.papers",)),
    ("The package", ("fedtheory",)),
)

#: The rubric of each kind of object on a module page, in page order.
KINDS: tuple[tuple[str, str], ...] = (
    ("module", "Modules"),
    ("class", "Classes"),
    ("exception", "Exceptions"),
    ("function", "Functions"),
    ("data", "Constants"),
)


@dataclass(frozen=True)
class Entry:
    """One name of a module's ``__all__``: its kind and the full name it is documented under."""

    module: str
    name: str
    kind: str
    home: str

    @property
    def documented_here(self) -> bool:
        """Whether the object's page belongs to this module (else the table links to it).

        A module's page is its own module page, never an autosummary stub.
        """
        return self.kind != "module" and self.home.rpartition(".")[0] == self.module


def public_modules() -> list[str]:
    """Every public module of the package, sorted (as ``tests/test_public_api.py`` finds them)."""
    package = importlib.import_module(PACKAGE)
    names = [PACKAGE]
    for info in pkgutil.walk_packages(package.__path__, f"{PACKAGE}."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return sorted(names)


def public_api() -> dict[str, list[str]]:
    """``{module: sorted __all__}`` for every public module."""
    return {name: sorted(importlib.import_module(name).__all__) for name in public_modules()}


def _kind(value: Any) -> str:
    if inspect.ismodule(value):
        return "module"
    if inspect.isclass(value):
        return "exception" if issubclass(value, BaseException) else "class"
    if inspect.isroutine(value):
        return "function"
    return "data"


def _defined_in(value: Any) -> str | None:
    if inspect.isclass(value) or inspect.isroutine(value):
        module = getattr(value, "__module__", None)
        return module if isinstance(module, str) else None
    return None


def entries(api: dict[str, list[str]] | None = None) -> dict[str, list[Entry]]:
    """The entries of every module page: each name of ``__all__`` with its kind and home."""
    api = public_api() if api is None else api
    values = {
        (module, name): getattr(importlib.import_module(module), name)
        for module, names in api.items()
        for name in names
    }
    pages: dict[str, list[Entry]] = {}
    for module, names in api.items():
        rows = []
        for name in names:
            value = values[(module, name)]
            kind = _kind(value)
            if kind == "module":
                home = value.__name__
            else:
                exporters = [m for (m, n), v in values.items() if n == name and v is value]
                defined = _defined_in(value)
                # the defining module if it exports the name; else the exporter sharing the
                # longest prefix with it (a private module's public parent); else the deepest
                best = max(
                    exporters,
                    key=lambda m, d=defined: (
                        m == d,
                        d is not None and (d + ".").startswith(m + "."),
                        m.count("."),
                        m,
                    ),
                )
                home = f"{best}.{name}"
            rows.append(Entry(module, name, kind, home))
        pages[module] = rows
    return pages


def _title(text: str, underline: str = "=") -> str:
    return f"{text}\n{underline * len(text)}\n"


def _relative(name: str, module: str) -> str:
    # autosummary resolves names relative to the current module and refuses a name that
    # repeats it (``autosummary.import_cycle``)
    return name[len(module) + 1 :] if name.startswith(module + ".") else name


def module_page(module: str, rows: list[Entry]) -> str:
    """The reST source of one module's page."""
    lines = [
        ".. This page is generated by docs/_ext/api_pages.py from the module's __all__.",
        "",
        _title(f"``{module}``"),
        f".. automodule:: {module}",
        "   :no-members:",
        "",
        f".. currentmodule:: {module}",
        "",
    ]
    for kind, rubric in KINDS:
        here = [r for r in rows if r.kind == kind and r.documented_here]
        there = [r for r in rows if r.kind == kind and not r.documented_here]
        if not here and not there:
            continue
        lines += [f".. rubric:: {rubric}", ""]
        if here:
            lines += [".. autosummary::", "   :toctree: generated/", "   :nosignatures:", ""]
            lines += [f"   {r.name}" for r in here] + [""]
        if there:
            lines += [".. autosummary::", "   :nosignatures:", ""]
            lines += [f"   ~{_relative(r.home, module)}" for r in there] + [""]
    if not rows:
        lines += ["This module exports no names of its own (``__all__`` is empty).", ""]
    return "\n".join(lines)


def listed_names(page: str) -> list[str]:
    """The names a module page's autosummary tables list (what the reader sees), sorted."""
    names = []
    in_table = False
    for line in page.splitlines():
        if line.startswith(".. autosummary::"):
            in_table = True
            continue
        if in_table and line.startswith("   ") and not line.strip().startswith(":"):
            names.append(line.strip().lstrip("~").rpartition(".")[2])
        elif in_table and line and not line.startswith("   "):
            in_table = False
    return sorted(names)


def index_page(modules: list[str]) -> str:
    """The reST source of the API index: the module pages, grouped."""
    grouped: dict[str, list[str]] = {}
    for module in modules:
        for title, prefixes in GROUPS:
            if any(module == p or module.startswith(p + ".") for p in prefixes):
                grouped.setdefault(title, []).append(module)
                break
    lines = [
        ".. This page is generated by docs/_ext/api_pages.py.",
        "",
        _title("API reference"),
        "Every public name of fedtheory, one page per public module. The public API is what each",
        "public module (no part of its dotted name starts with ``_``) exports in ``__all__``;",
        "``tests/test_public_api.py`` snapshots it, so it changes only on purpose (and",
        "``CHANGELOG.md`` says so). A name a package re-exports from one of its modules is",
        "documented once, on the page of that module.",
        "",
    ]
    order = list(dict.fromkeys(title for title, _ in GROUPS))
    for title in order:
        if title not in grouped:
            continue
        lines += [_title(title, "-"), ".. toctree::", "   :maxdepth: 1", ""]
        lines += [f"   {module}" for module in grouped[title]] + [""]
    return "\n".join(lines)


def _write(path: Path, text: str) -> None:
    # rewrite only what changed, so that an incremental build re-reads only changed pages
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def write_api_pages(outdir: Path) -> dict[str, list[str]]:
    """Write ``index.rst`` and one ``<module>.rst`` per public module into *outdir*.

    Pages of modules that no longer exist are removed. Returns ``{module: listed names}``.
    """
    outdir.mkdir(parents=True, exist_ok=True)
    pages = entries()
    listed = {}
    for module, rows in pages.items():
        text = module_page(module, rows)
        listed[module] = listed_names(text)
        _write(outdir / f"{module}.rst", text)
    for stale in outdir.glob("*.rst"):
        if stale.stem != "index" and stale.stem not in pages:
            stale.unlink()
    _write(outdir / "index.rst", index_page(sorted(pages)))
    return listed


# -- Sphinx: the description of a re-exported constant ------------------------------------------


def _assignment_comment(module: str, name: str) -> list[str] | None:
    from sphinx.pycode import ModuleAnalyzer, PycodeError

    try:
        comments = ModuleAnalyzer.for_module(module).find_attr_docs()
    except PycodeError:
        return None
    found = comments.get(("", name))
    return list(found) if found else None


def constant_description(name: str, value: Any) -> list[str]:
    """The description of the public constant *name* (full dotted name): its ``#:`` comment.

    autodoc reads the ``#:`` comment of an assignment in the module it documents the constant
    under; a constant assigned in a private module (``fedtheory.bounds._citation.PAPERS``) and
    documented under its public home has its comment there, so the modules of the package that
    hold the same object under the same name are searched. A click command describes itself
    with its help text; anything else without a comment gets no description (not the docstring
    of its type, which is what autodoc would show).
    """
    module, _, attr = name.rpartition(".")
    holders = [
        module,
        *sorted(
            m
            for m, mod in list(sys.modules.items())
            if m != module
            and (m == PACKAGE or m.startswith(PACKAGE + "."))
            and getattr(mod, attr, None) is value
        ),
    ]
    for holder in holders:
        comment = _assignment_comment(holder, attr)
        if comment is not None:
            return comment
    import click

    if isinstance(value, click.Command) and value.help:
        return [*inspect.cleandoc(value.help).splitlines(), ""]
    return []


def _describe_constant(
    app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    if what == "data" and name.startswith(PACKAGE + "."):
        lines[:] = constant_description(name, obj)


def setup(app: Any) -> dict[str, Any]:
    """Sphinx extension: describe re-exported constants by their ``#:`` comment."""
    # before numpydoc (priority 500), which then formats the description like any docstring
    app.connect("autodoc-process-docstring", _describe_constant, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
