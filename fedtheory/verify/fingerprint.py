"""Code fingerprints: the code a cached result was computed by (DESIGN §6).

A stored replicate is reused only when the code that would compute it now is the code that
computed it. The fingerprint of a claim file therefore covers

- the claim file itself,
- every module it imports from the project or the working tree, transitively — any module found
  by an ``import`` statement anywhere in the file (also inside functions) whose file lies outside
  the Python installation (standard library, ``site-packages``), and the modules those import;
- the module that defines each experiment, when it is another file; and
- the installed ``fedtheory`` source: every ``.py`` file of the package (a library kernel is code
  that runs too).

It is a :class:`CodeFingerprint`: one hash per file (and one for the package), so that a
mismatch can name the file that differs. Computing it reads a handful of files and hashes them;
their import statements are parsed once per process and content (the parse is kept by the
file's bytes, so an edited file is parsed again), and the package is hashed once per process.

What it does not cover: data files an experiment reads, modules imported by name at run time
(``importlib.import_module(name)`` with a computed name), and third-party packages (their
versions are in the report's run information).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.machinery
import importlib.util
import json
import site
import sys
import sysconfig
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "PACKAGE_LABEL",
    "CodeFingerprint",
    "code_fingerprint",
    "file_digest",
    "package_digest",
    "tree_digest",
]

#: The label of the installed fedtheory source in a :class:`CodeFingerprint`.
PACKAGE_LABEL = "fedtheory"
_PACKAGE_DIR = Path(__file__).resolve().parents[1]  # fedtheory/
# claim files are loaded under this private package name (see discovery): never a dependency
_CLAIMS_PACKAGE = "_fedtheory_claims"


def file_digest(content: bytes) -> str:
    """sha256 of a file's bytes (16 hex digits)."""
    return hashlib.sha256(content).hexdigest()[:16]


def tree_digest(root: str | Path) -> str:
    """Digest of every ``.py`` file below ``root`` (relative path and bytes), 16 hex digits."""
    root = Path(root)
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


@functools.cache
def package_digest() -> str:
    """Digest of the installed fedtheory source (:func:`tree_digest` of the package folder).

    Computed once per process, when the first fingerprint is taken: the code a process runs
    is the code it imported, and a process never re-imports the library.
    """
    return tree_digest(_PACKAGE_DIR)


@dataclass(frozen=True)
class CodeFingerprint:
    """The code behind a claim file: a digest per file, and one overall digest.

    Attributes
    ----------
    files
        ``(label, digest)`` pairs sorted by label; the label is a file's absolute path, or
        :data:`PACKAGE_LABEL` for the installed fedtheory source.
    """

    files: tuple[tuple[str, str], ...]

    @classmethod
    def from_mapping(cls, files: Mapping[str, str]) -> CodeFingerprint:
        """The fingerprint with these ``label → digest`` entries (e.g. one sent to a worker)."""
        return cls(tuple(sorted((str(k), str(v)) for k, v in files.items())))

    @property
    def digest(self) -> str:
        """One hash of every entry (16 hex digits): the ``fingerprint`` of a stored row."""
        text = json.dumps(self.files, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def as_dict(self) -> dict[str, str]:
        """The entries as a plain dict (what a task carries)."""
        return dict(self.files)

    def differences(self, other: CodeFingerprint) -> list[str]:
        """Labels whose digests differ between the two fingerprints (or are in one only)."""
        mine, theirs = dict(self.files), dict(other.files)
        return sorted(k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))


@functools.cache
def _installation_roots() -> tuple[Path, ...]:
    """Folders of the Python installation: what is found there is not project code."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    paths = sysconfig.get_paths()
    roots.update(paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths)
    try:
        roots.update(site.getsitepackages())
        roots.add(site.getusersitepackages())
    except AttributeError:  # pragma: no cover - site without these functions (virtualenv < 20)
        pass
    return tuple(Path(r).resolve() for r in roots if r)


def _is_project_file(path: Path) -> bool:
    """A source file of the project or working tree (not fedtheory, not the installation)."""
    if path.is_relative_to(_PACKAGE_DIR):
        return False  # covered by the package digest
    return not any(path.is_relative_to(root) for root in _installation_roots())


@dataclass(frozen=True)
class _ImportStatement:
    """One ``import`` statement of a source file, wherever it stands (inside functions too).

    ``import a.b, c`` is ``_ImportStatement(("a.b", "c"))``; ``from ..m import x, y`` is
    ``_ImportStatement(("x", "y"), module="m", level=2, from_=True)``.
    """

    names: tuple[str, ...]
    module: str | None = None
    level: int = 0
    from_: bool = False


#: Import statements by source bytes (the bytes are the key, so a changed file never hits).
_IMPORTS: dict[bytes, tuple[_ImportStatement, ...] | None] = {}
_IMPORTS_MAX = 1024


def _import_statements(source: bytes) -> tuple[_ImportStatement, ...] | None:
    """The import statements of a Python source, in the order ``ast.walk`` meets them, or
    None when it does not parse.

    Parsing and walking the tree is what discovery and fingerprints spend their time on, and
    a run asks again for the same files (every ``verify`` call of a process, the folder scan
    and the fingerprint of each claim file); so the answer is kept per process, keyed by the
    source bytes themselves: a file whose content changed is parsed anew, whatever its
    modification time says.
    """
    try:
        return _IMPORTS[source]
    except KeyError:
        pass
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        found = None
    else:
        found = tuple(
            _ImportStatement(
                tuple(alias.name for alias in node.names),
                node.module if isinstance(node, ast.ImportFrom) else None,
                node.level if isinstance(node, ast.ImportFrom) else 0,
                isinstance(node, ast.ImportFrom),
            )
            for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom))
        )
    if len(_IMPORTS) >= _IMPORTS_MAX:
        _IMPORTS.clear()
    _IMPORTS[source] = found
    return found


def _imported_names(statements: Iterable[_ImportStatement], package: str | None) -> set[str]:
    """Every module name the import statements may load, parents included."""
    names: set[str] = set()

    def add(name: str) -> None:
        parts = name.split(".")
        names.update(".".join(parts[: i + 1]) for i in range(len(parts)))

    for node in statements:
        if not node.from_:
            for alias in node.names:
                add(alias)
        else:
            base = node.module or ""
            if node.level:
                if not package:
                    continue  # a relative import outside a package fails at run time anyway
                anchor = package.split(".")
                if node.level - 1 >= len(anchor):
                    continue
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            if not base:
                continue
            add(base)
            for alias in node.names:
                if alias != "*":
                    names.add(f"{base}.{alias}")  # may be a submodule (checked below)
    return names


def _locate(name: str) -> tuple[Path, bool] | None:
    """The file of module ``name`` and whether it is a package, without importing anything new.

    Only the project's own packages are searched for submodules; a name under a package of
    the installation (or fedtheory) is skipped at its first component.
    """
    top, _, _rest = name.partition(".")
    if top in ("fedtheory", _CLAIMS_PACKAGE):
        return None
    module = sys.modules.get(name)
    if module is not None:
        file = getattr(module, "__file__", None)
        if not file:
            return None
        return Path(file).resolve(), hasattr(module, "__path__")
    parts = name.split(".")
    try:
        top_module = sys.modules.get(parts[0])
        spec = (
            top_module.__spec__
            if top_module is not None and top_module.__spec__ is not None
            else importlib.util.find_spec(parts[0])
        )
        for depth in range(1, len(parts)):
            if spec is None or not spec.submodule_search_locations:
                return None
            if spec.origin and spec.has_location and not _is_project_file(Path(spec.origin)):
                return None  # a submodule of an installed package: not project code
            spec = importlib.machinery.PathFinder.find_spec(
                ".".join(parts[: depth + 1]), list(spec.submodule_search_locations)
            )
    except (ImportError, ValueError, AttributeError):  # not importable: fails when it runs
        return None
    if spec is None or not spec.origin or not spec.has_location:
        return None
    return Path(spec.origin).resolve(), spec.submodule_search_locations is not None


def _dependencies(path: Path, source: bytes, package: str | None) -> dict[Path, bytes]:
    """The project files ``path`` imports, transitively, with their contents."""
    found: dict[Path, bytes] = {}
    todo: list[tuple[bytes, str | None]] = [(source, package)]
    while todo:
        text, pkg = todo.pop()
        statements = _import_statements(text)
        if statements is None:
            continue  # a file that does not parse fails when it is imported
        for name in sorted(_imported_names(statements, pkg)):
            located = _locate(name)
            if located is None:
                continue
            file, is_package = located
            if file in found or file == path or not _is_project_file(file):
                continue
            found[file] = file.read_bytes()
            if file.suffix == ".py":  # an extension module has no imports to follow
                package = name if is_package else name.rpartition(".")[0] or None
                todo.append((found[file], package))
    return found


def code_fingerprint(
    path: str | Path, source: bytes | None = None, *, also: Iterable[str | Path] = ()
) -> CodeFingerprint:
    """The fingerprint of a claim file (see the module docstring for what it covers).

    Parameters
    ----------
    path
        The claim file.
    source
        Its bytes, when they are already read (the bytes that were executed).
    also
        Other files whose code runs (the modules defining the experiments); files of the
        installation or of fedtheory are ignored.
    """
    path = Path(path).resolve()
    if source is None:
        source = path.read_bytes()
    files = {str(path): file_digest(source), PACKAGE_LABEL: package_digest()}
    deps = _dependencies(path, source, None)
    for extra in also:
        extra_path = Path(extra).resolve()
        if extra_path != path and extra_path not in deps and _is_project_file(extra_path):
            content = extra_path.read_bytes()
            deps[extra_path] = content
            deps.update(_dependencies(extra_path, content, None))
    files.update((str(dep), file_digest(content)) for dep, content in deps.items())
    return CodeFingerprint.from_mapping(files)
