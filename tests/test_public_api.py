"""The public API changes only on purpose: a snapshot of every public module's ``__all__``.

Every public module (no part of its dotted name starts with ``_``) defines ``__all__``; every
name in it exists; every subpackage is reachable as documented (``fedtheory.exact``). The names
are compared with ``tests/public_api.json``: a change to the API is a change to that file (and a
line in ``CHANGELOG.md``). To update the snapshot on purpose::

    FEDTHEORY_UPDATE_API=1 .venv/bin/python -m pytest tests/test_public_api.py
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
from pathlib import Path

import pytest

import fedtheory

SNAPSHOT = Path(__file__).with_name("public_api.json")


def _public_modules() -> list[str]:
    names = ["fedtheory"]
    for info in pkgutil.walk_packages(fedtheory.__path__, "fedtheory."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return sorted(names)


def _api() -> dict[str, list[str]]:
    api = {}
    for name in _public_modules():
        module = importlib.import_module(name)
        exported = getattr(module, "__all__", None)
        assert exported is not None, f"{name} has no __all__"
        api[name] = sorted(exported)
    return api


def test_every_public_name_exists() -> None:
    for name, exported in _api().items():
        module = importlib.import_module(name)
        missing = [n for n in exported if not hasattr(module, n)]
        assert missing == [], f"{name}.__all__ names missing attributes: {missing}"


@pytest.mark.parametrize(
    "subpackage",
    [
        "algorithms",
        "bounds",
        "errors",
        "exact",
        "papers",
        "plotting",
        "problems",
        "stats",
        "verify",
    ],
)
def test_subpackages_are_reachable_from_the_top(subpackage: str) -> None:
    assert getattr(fedtheory, subpackage).__name__ == f"fedtheory.{subpackage}"


def test_papers_are_reachable_from_the_papers_index() -> None:
    from fedtheory import papers

    assert papers.minimax.__name__ == "fedtheory.papers.minimax"
    assert papers.fedlrgd.__name__ == "fedtheory.papers.fedlrgd"
    with pytest.raises(AttributeError):
        _ = papers.nonexistent


def test_public_api_matches_the_snapshot() -> None:
    api = _api()
    if os.environ.get("FEDTHEORY_UPDATE_API"):
        SNAPSHOT.write_text(json.dumps(api, indent=1, sort_keys=True) + "\n")
    snapshot = json.loads(SNAPSHOT.read_text())
    changes = []
    for module in sorted(set(api) | set(snapshot)):
        now, then = set(api.get(module, [])), set(snapshot.get(module, []))
        if module not in snapshot:
            changes.append(f"new module {module}: {sorted(now)}")
        elif module not in api:
            changes.append(f"module {module} is gone")
        elif now != then:
            changes.append(f"{module}: added {sorted(now - then)}, removed {sorted(then - now)}")
    assert changes == [], (
        "the public API changed; if on purpose, update the snapshot "
        "(FEDTHEORY_UPDATE_API=1 pytest tests/test_public_api.py) and CHANGELOG.md:\n"
        + "\n".join(changes)
    )
