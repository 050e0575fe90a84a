"""Finding claim files and loading the claims they define (DESIGN §5–§6).

A claim file is any ``*.py`` file under the given paths whose name (or folder) does not start
with ``_`` or ``.``, and that no other file of its folder imports. Its experiments are defined in
it and use the library (``fedtheory.problems``, ``fedtheory.algorithms``, ``fedtheory.exact``).
It may import *helper modules* of its own folder by their plain name — the folder is appended to
``sys.path`` when the file is loaded (in the runner and in every worker) — e.g. the bounds module
of a paper of your own (``import mypaper_bounds``, which calls
:func:`fedtheory.bounds.register_paper`); a file another file of the folder imports is such a
helper and never a claim file itself. Helpers are covered by the code fingerprint like every
project module a claim file imports. Every
module-level :class:`~fedtheory.verify.claim.Claim` — or list/tuple of claims — is collected, in
definition order (a :class:`~fedtheory.verify.claim.Measurement` is not collected itself: its
claims are). Like pytest, any folder works; the default is ``./verification``.

Files are imported under a private, path-derived module name, so the same file loaded by the
runner and by a worker process (local or Dask) defines the same experiment functions.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from fedtheory.bounds import mutation
from fedtheory.bounds._usage import recording
from fedtheory.errors import FedTheoryError, ParameterError, StaleCodeError
from fedtheory.verify.claim import Claim
from fedtheory.verify.fingerprint import (
    PACKAGE_LABEL,
    CodeFingerprint,
    _import_statements,
    code_fingerprint,
    file_digest,
)
from fedtheory.verify.selection import id_matcher, keyword_matcher

__all__ = [
    "DEFAULT_PATH",
    "LoadedClaim",
    "claim_for_task",
    "discover",
    "fingerprint",
    "load_claim_file",
    "paths_argument",
    "select",
]

#: Where ``fedtheory verify`` looks for claims when no path is given.
DEFAULT_PATH = Path("verification")


@dataclass(frozen=True)
class _LoadedModule:
    """A claim file as this process executed it."""

    module: ModuleType
    #: the fingerprint of the code it ran
    code: CodeFingerprint
    #: the mutant (fedtheory.bounds.mutation) planted while it ran: (bound id, mutant id)
    planted: tuple[str, str] | None
    #: the registered bounds it evaluated while loading
    used: frozenset[str]

    def valid_now(self) -> bool:
        """Whether what the file computed at import is what it would compute now.

        Only the bounds it evaluated while loading matter: a mutant of another bound, planted
        then or now, changed nothing it computed (its claims read other bounds through the
        registry when they judge, and so see the registry as it is).
        """
        now = _planted()
        if now == self.planted:
            return True
        return all(p is None or p[0] not in self.used for p in (now, self.planted))


# claim files loaded by this process
_MODULES: dict[Path, _LoadedModule] = {}


def _planted() -> tuple[str, str] | None:
    mutant = mutation.active()
    return None if mutant is None else (mutant.bound, mutant.id)


@dataclass(frozen=True)
class LoadedClaim:
    """A claim, the file that defines it and the fingerprint of the code it runs."""

    claim: Claim
    file: Path
    code: CodeFingerprint
    #: Ids of the registered bounds the claim file evaluated while loading (the same for every
    #: claim of the file; e.g. an expected exponent computed at import).
    evaluated_at_load: frozenset[str] = frozenset()

    @property
    def fingerprint(self) -> str:
        """The code's overall digest (part of every cache key of the claim)."""
        return self.code.digest


def _module_name(path: Path) -> str:
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:10]
    stem = "".join(c if c.isalnum() else "_" for c in path.stem)
    return f"_fedtheory_claims.{stem}_{digest}"


def _exec(path: Path) -> tuple[ModuleType, bytes, frozenset[str]]:
    """Execute a claim file: the module, the bytes executed and the bounds evaluated."""
    name = _module_name(path)
    try:
        source = path.read_bytes()
    except OSError as exc:
        raise ParameterError(f"{path}: cannot read claim file: {exc.strerror}") from None
    _allow_sibling_imports(path)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:  # pragma: no cover - only for non-.py paths
        raise ParameterError(parameter="path", value=str(path), rule="is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        code = compile(source, str(path), "exec", dont_inherit=True)
        with recording() as used:
            exec(code, module.__dict__)
        _check_declared(path, module, used)
    except FedTheoryError as exc:
        sys.modules.pop(name, None)
        raise ParameterError(f"{path}: malformed claim file: {exc}") from None
    except KeyboardInterrupt:
        sys.modules.pop(name, None)
        raise
    except BaseException as exc:  # SystemExit too: a claim file never ends the process
        sys.modules.pop(name, None)
        line = ""
        if isinstance(exc, SyntaxError) and exc.lineno:
            line = f" (line {exc.lineno})"
        raise ParameterError(
            f"{path}: cannot load claim file{line}: {type(exc).__name__}: {exc}"
        ) from None
    return module, source, frozenset(used)


def _allow_sibling_imports(path: Path) -> None:
    """Let the claim file import the helper modules of its folder by name.

    The folder is appended to ``sys.path`` (never prepended: a claim file named like a module of
    the standard library or of an installed package does not shadow it).
    """
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.append(folder)


def _helper_stems(folder: Path, candidates: Sequence[Path]) -> set[str]:
    """Names of the candidate claim files that a file of ``folder`` imports (helpers).

    Every ``*.py`` file of the folder counts as an importer (an ``_``-prefixed helper too).
    Only names the import would find in the folder count: a name the standard library or an
    installed package already provides is found there first (the folder is appended).
    """
    stems = {f.stem: f for f in candidates}
    imported: set[str] = set()
    for file in sorted(folder.glob("*.py")):
        try:
            statements = _import_statements(file.read_bytes())
        except OSError:
            statements = None
        if statements is None:
            continue  # reported when the file is loaded
        for node in statements:
            if not node.from_:
                imported.update(name.split(".")[0] for name in node.names)
            elif not node.level and node.module:
                imported.add(node.module.split(".")[0])
    return {stem for stem in imported & stems.keys() if not _found_elsewhere(stem, stems[stem])}


def _found_elsewhere(name: str, file: Path) -> bool:
    """Whether ``import name`` finds another module than ``file`` (earlier on ``sys.path``)."""
    module = sys.modules.get(name)
    if module is not None:
        found = getattr(module, "__file__", None)
        return found is None or Path(found).resolve() != file.resolve()
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    if spec is None or not spec.origin:
        return False
    return Path(spec.origin).resolve() != file.resolve()


def _check_declared(path: Path, module: ModuleType, used: set[str]) -> None:
    """Refuse a claim file that evaluates, while loading, a bound none of its claims declares.

    Such a bound shapes a claim (an expected value, a grid) without the claim saying so:
    ``fedtheory catalog --coverage`` would not list it and ``fedtheory mutate`` would not run
    the claim when it mutates that bound.
    """
    declared: set[str] = set()
    for claim in _claims_in(module):
        declared.update(claim.bounds)
    undeclared = sorted(used - declared)
    if undeclared:
        raise ParameterError(
            f"evaluates {', '.join(undeclared)} while loading, but no claim of the file "
            "declares it: give the claim that depends on it uses=[bounds.get(...)]"
        )


def _claims_in(module: ModuleType) -> list[Claim]:
    found: list[Claim] = []
    for value in vars(module).values():
        if isinstance(value, Claim):
            found.append(value)
        elif (
            isinstance(value, (list, tuple)) and value and all(isinstance(v, Claim) for v in value)
        ):
            found.extend(value)
    return found


def _experiment_files(module: ModuleType) -> set[str]:
    files = set()
    for claim in _claims_in(module):
        with contextlib.suppress(TypeError):
            source = inspect.getsourcefile(claim.experiment)
            if source:
                files.add(source)
    return files


def _forget_changed(old: CodeFingerprint, new: CodeFingerprint) -> None:
    """Drop the project modules whose files changed, so that re-executing imports them anew."""
    changed = {Path(label) for label in old.differences(new) if label != PACKAGE_LABEL}
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if file and not name.startswith("_fedtheory_claims.") and Path(file).resolve() in changed:
            del sys.modules[name]


def _load(path: Path) -> tuple[ModuleType, CodeFingerprint]:
    """The claim module at ``path`` and its fingerprint, executing it again if its code changed.

    A file loaded before is reused only when its fingerprint on disk is still the one it was
    loaded with; otherwise the changed project modules are forgotten and the file is executed
    again. A file that evaluated, while loading, a bound mutated then or now is executed again
    too: what it computed at import came from another registry. (The installed fedtheory is
    never reloaded: a process runs the library it imported, and its fingerprint is the one
    taken then.)
    """
    cached = _MODULES.get(path)
    if cached is not None:
        on_disk = code_fingerprint(path, also=_experiment_files(cached.module))
        if on_disk == cached.code and cached.valid_now():
            return cached.module, cached.code
        _forget_changed(cached.code, on_disk)
    module, source, used = _exec(path)
    fingerprint = code_fingerprint(path, source, also=_experiment_files(module))
    _MODULES[path] = _LoadedModule(module, fingerprint, _planted(), used)
    return module, fingerprint


def fingerprint(source_file: str | Path) -> str:
    """Digest of one file's bytes (16 hex digits); see :func:`code_fingerprint` for a claim's."""
    return file_digest(Path(source_file).read_bytes())


def load_claim_file(path: str | Path) -> list[LoadedClaim]:
    """Import one claim file and return its claims in definition order.

    Raises
    ------
    ParameterError
        The file does not exist, cannot be imported (the message names the file and the
        error; a ``SystemExit`` raised by the file is such an error) or defines the same claim
        id twice.
    """
    path = Path(path).resolve()
    if not path.is_file():
        raise ParameterError(parameter="path", value=str(path), rule="no such claim file")
    module, code = _load(path)
    used = _MODULES[path].used
    out: list[LoadedClaim] = []
    seen: set[str] = set()
    for claim in _claims_in(module):
        if claim.id in seen:
            if any(c.claim is claim for c in out):
                continue  # the same object listed twice (e.g. in CLAIMS and at top level)
            raise ParameterError(f"{path}: claim id {claim.id!r} is defined twice")
        seen.add(claim.id)
        out.append(LoadedClaim(claim, path, code, used))
    return out


def claim_for_task(path: str | Path, claim_id: str, expected: CodeFingerprint) -> Claim:
    """The claim ``claim_id`` of the file, loaded from exactly the code ``expected`` describes.

    What a worker calls before running a task. A module this process loaded with the same
    fingerprint is reused without reading anything; otherwise the file is loaded again from
    disk, and refused when its code is not the code the task was planned with — so no executor
    can store one code's results under another code's key.

    Raises
    ------
    StaleCodeError
        The code differs from the task's (the message names the files).
    ParameterError
        The file cannot be loaded or does not define the claim.
    """
    path = Path(path).resolve()
    cached = _MODULES.get(path)
    if cached is not None and cached.code == expected and cached.valid_now():
        module, code = cached.module, cached.code
    else:
        if not path.is_file():
            raise ParameterError(parameter="path", value=str(path), rule="no such claim file")
        module, code = _load(path)
    if code != expected:
        differing = code.differences(expected)
        names = ", ".join(
            "the installed fedtheory source" if label == PACKAGE_LABEL else label
            for label in differing
        )
        restart = (
            " (this worker imported another fedtheory: restart the workers)"
            if PACKAGE_LABEL in differing
            else ""
        )
        raise StaleCodeError(
            f"code changed since the run was planned: {names} differ(s) from the code the "
            f"run fingerprinted{restart}; the task was not run — rerun to compute it with the "
            "current code"
        )
    for claim in _claims_in(module):
        if claim.id == claim_id:
            return claim
    raise ParameterError(parameter="claim", value=claim_id, rule=f"is not defined in {path}")


def _claim_files(root: Path) -> list[Path]:
    """The claim files under ``root``, never leaving it.

    Symbolic links to folders are not followed, and a file (or link) whose real location is
    outside ``root`` is skipped: discovery imports code only from the paths it was given.
    """
    if root.is_file():
        return [root]
    real_root = root.resolve()
    files: list[Path] = []
    for folder, subfolders, names in os.walk(root, followlinks=False):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith((".", "_")))
        here: list[Path] = []
        for name in sorted(names):
            if not name.endswith(".py") or name.startswith((".", "_")):
                continue
            file = Path(folder) / name
            if file.resolve().is_relative_to(real_root) and file.is_file():
                here.append(file)
        helpers = _helper_stems(Path(folder), here) if here else set()
        files.extend(f for f in here if f.stem not in helpers)
    return sorted(files)


def paths_argument(paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[Path]:
    """The claim paths of ``verify``/``discover``: one path, or a sequence of paths.

    Raises
    ------
    ParameterError
        Anything else (a number, a mapping, a sequence holding something that is not a path).
    """
    if isinstance(paths, (str, os.PathLike)):
        return [Path(paths)]
    if isinstance(paths, (bytes, Mapping)) or not isinstance(paths, Sequence):
        raise ParameterError(
            parameter="paths",
            value=repr(paths),
            rule="must be a path (str or os.PathLike) or a sequence of paths",
        )
    for item in paths:
        if not isinstance(item, (str, os.PathLike)):
            raise ParameterError(
                parameter="paths",
                value=repr(item),
                rule=f"every path must be a str or os.PathLike, got {type(item).__name__}",
            )
    return [Path(p) for p in paths]


def discover(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] = (),
) -> list[LoadedClaim]:
    """Every claim defined under the paths (files or folders), sorted by file then definition.

    Raises
    ------
    ParameterError
        ``paths`` is not a path or a sequence of paths, a path does not exist, a file cannot
        be loaded, or two files define the same claim id.
    """
    roots = paths_argument(paths) or [DEFAULT_PATH]
    claims: list[LoadedClaim] = []
    owner: dict[str, Path] = {}
    for root in roots:
        if not root.exists():
            raise ParameterError(parameter="path", value=str(root), rule="does not exist")
        for file in _claim_files(root):
            for loaded in load_claim_file(file):
                other = owner.get(loaded.claim.id)
                if other is not None:
                    if other == loaded.file:
                        continue
                    raise ParameterError(
                        f"claim id {loaded.claim.id!r} is defined in both {other} and {loaded.file}"
                    )
                owner[loaded.claim.id] = loaded.file
                claims.append(loaded)
    return claims


def select(
    claims: Sequence[LoadedClaim],
    pattern: str | Sequence[str] | None,
    keyword: str | None = None,
) -> list[LoadedClaim]:
    """The claims whose id matches a glob, or any of several (``*`` crosses ``/``), and the
    ``-k`` keyword expression (:func:`fedtheory.verify.selection.keyword_matcher`); all of
    them without either.

    Raises
    ------
    ParameterError
        A glob or the expression matches no claim, or the expression is malformed.
    """
    chosen = list(claims)
    if pattern is not None:
        patterns = [pattern] if isinstance(pattern, str) else list(pattern)
        matches = id_matcher(patterns)
        chosen = [c for c in chosen if matches(c.claim.id)]
        if not chosen:
            raise ParameterError(
                parameter="--claims",
                value=pattern if isinstance(pattern, str) else " ".join(patterns),
                rule=f"matches none of the {len(claims)} claims found",
            )
    if keyword is not None:
        keep = keyword_matcher(keyword)
        before = len(chosen)
        chosen = [c for c in chosen if keep(c.claim.id)]
        if not chosen:
            raise ParameterError(
                parameter="-k", value=keyword, rule=f"matches none of the {before} claims selected"
            )
    return chosen
