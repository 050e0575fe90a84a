"""Test-suite hooks: the longest tests start first.

``make test`` runs the suite on two pytest-xdist workers, which hand tests out in collection
order. The smoke run over the whole catalog (``tests/test_catalog.py``, minutes on a fresh clone,
where it also compiles and caches most numba kernels the other tests use) sat two thirds down
that order: it started late and was the tail of the run, with one worker idle. Tests marked
``early`` are moved to the front of the collection (a stable partition: every test still runs,
in its usual order otherwise), so the longest job starts first (longest-processing-time-first
scheduling) and the other worker runs everything else meanwhile.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    early = [item for item in items if item.get_closest_marker("early") is not None]
    if early:
        rest = [item for item in items if item.get_closest_marker("early") is None]
        items[:] = early + rest
