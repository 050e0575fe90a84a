"""Finding claim files and loading the claims they define (DESIGN §5–§6).

A claim file is any ``*.py`` file under the given paths whose name (or folder) does not start
with ``_`` or ``.``. A claim file is self-contained: its experiments are defined in it and use the
library (``fedtheory.problems``, ``fedtheory.algorithms``, ``fedtheory.exact``); it is not
importable by other claim files. Every
module-level :class:`~fedtheory.verify.claim.Claim` — or list/tuple of claims — is collected, in
definition order (a :class:`~fedtheory.verify.claim.Measurement` is not collected itself: its
claims are). Like pytest, any folder works; the default is ``./verification``.

Files are imported under a private, path-derived module name, so the same file loaded by the
runner and by a worker process (local or Dask) defines the same experiment functions.
"""

from __future__ import annotations

import fnmatch
import hashlib
import importlib.util
import inspect
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from fedtheory.errors import FedTheoryError, ParameterError
from fedtheory.verify.claim import Claim

__all__ = ["DEFAULT_PATH", "LoadedClaim", "discover", "fingerprint", "load_claim_file", "select"]

#: Where ``fedtheory verify`` looks for claims when no path is given.
DEFAULT_PATH = Path("verification")

_MODULES: dict[Path, ModuleType] = {}


@dataclass(frozen=True)
class LoadedClaim:
    """A claim and the file that defines it."""

    claim: Claim
    file: Path
    fingerprint: str


def _module_name(path: Path) -> str:
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:10]
    stem = "".join(c if c.isalnum() else "_" for c in path.stem)
    return f"_fedtheory_claims.{stem}_{digest}"


def _import(path: Path) -> ModuleType:
    path = path.resolve()
    if path in _MODULES:
        return _MODULES[path]
    name = _module_name(path)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - only for non-.py paths
        raise ParameterError(parameter="path", value=str(path), rule="is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except FedTheoryError as exc:
        sys.modules.pop(name, None)
        raise ParameterError(f"{path}: malformed claim file: {exc}") from None
    except Exception as exc:
        sys.modules.pop(name, None)
        line = ""
        if isinstance(exc, SyntaxError) and exc.lineno:
            line = f" (line {exc.lineno})"
        raise ParameterError(
            f"{path}: cannot load claim file{line}: {type(exc).__name__}: {exc}"
        ) from None
    _MODULES[path] = module
    return module


def fingerprint(source_file: str | Path) -> str:
    """Code fingerprint of a module: sha256 of its source bytes (16 hex digits)."""
    return hashlib.sha256(Path(source_file).read_bytes()).hexdigest()[:16]


def load_claim_file(path: str | Path) -> list[LoadedClaim]:
    """Import one claim file and return its claims in definition order.

    Raises
    ------
    ParameterError
        The file does not exist, cannot be imported (the message names the file and the
        error) or defines the same claim id twice.
    """
    path = Path(path).resolve()
    if not path.is_file():
        raise ParameterError(parameter="path", value=str(path), rule="no such claim file")
    module = _import(path)
    found: list[Claim] = []
    for value in vars(module).values():
        if isinstance(value, Claim):
            found.append(value)
        elif (
            isinstance(value, (list, tuple)) and value and all(isinstance(v, Claim) for v in value)
        ):
            found.extend(value)
    out: list[LoadedClaim] = []
    seen: set[str] = set()
    for claim in found:
        if claim.id in seen:
            if any(c.claim is claim for c in out):
                continue  # the same object listed twice (e.g. in CLAIMS and at top level)
            raise ParameterError(f"{path}: claim id {claim.id!r} is defined twice")
        seen.add(claim.id)
        source = inspect.getsourcefile(claim.experiment) or str(path)
        out.append(LoadedClaim(claim, path, fingerprint(source)))
    return out


def _claim_files(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    files = []
    for file in sorted(root.rglob("*.py")):
        rel = file.relative_to(root).parts
        if any(part.startswith((".", "_")) for part in rel):
            continue
        files.append(file)
    return files


def discover(paths: Sequence[str | Path] = ()) -> list[LoadedClaim]:
    """Every claim defined under the paths (files or folders), sorted by file then definition.

    Raises
    ------
    ParameterError
        A path does not exist, a file cannot be loaded, or two files define the same claim id.
    """
    roots = [Path(p) for p in paths] or [DEFAULT_PATH]
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


def select(claims: Sequence[LoadedClaim], pattern: str | None) -> list[LoadedClaim]:
    """The claims whose id matches a glob (``*`` crosses ``/``); all of them without one.

    Raises
    ------
    ParameterError
        The glob matches no claim.
    """
    if pattern is None:
        return list(claims)
    chosen = [c for c in claims if fnmatch.fnmatchcase(c.claim.id, pattern)]
    if not chosen:
        raise ParameterError(
            parameter="--claims",
            value=pattern,
            rule=f"matches none of the {len(claims)} claims found",
        )
    return chosen
