"""Test-suite hooks: the longest tests start first.

``make test`` runs the suite on two pytest-xdist workers, which hand tests out in collection
order. The smoke runs over the catalog (``tests/test_catalog.py``, one per paper, minutes on a
fresh clone, where they also compile and cache most numba kernels the other tests use) sat two
thirds down that order: they started late and were the tail of the run, with one worker idle.
Tests marked ``early`` are moved to the front of the collection (a stable partition: every test
still runs, in its usual order otherwise), so the longest jobs start first
(longest-processing-time-first scheduling), shared by both workers: ``make test`` passes
``--maxschedchunk 1``, without which xdist gives each worker a first chunk of a quarter of the
suite, all the early tests to the first.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    early = [item for item in items if item.get_closest_marker("early") is not None]
    if early:
        rest = [item for item in items if item.get_closest_marker("early") is None]
        items[:] = early + rest
