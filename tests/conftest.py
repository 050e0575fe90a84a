"""Test-suite hooks: the longest tests start first, on both workers.

``make test`` runs the suite on two pytest-xdist workers. The smoke runs over the catalog
(``tests/test_catalog.py``, one per paper, minutes on a fresh clone, where they also compile and
cache most numba kernels the other tests use) are the longest tests; in collection order they
sat two thirds down and were the tail of the run, with one worker idle. So:

- the tests named in :data:`EARLY` are moved to the front of the collection (a stable
  partition: every test still runs, in its usual order otherwise), and the tests marked
  ``early`` with them: longest-processing-time-first scheduling;
- xdist's load scheduler gives each worker, to begin with, a chunk of a quarter of its share of
  the suite — consecutive tests, so every early test went to the first worker. The scheduler
  below deals the early tests out in turn instead (each worker's first chunk begins with its
  share of them), and otherwise schedules as xdist does.
"""

from __future__ import annotations

from typing import Any

import pytest
from xdist.scheduler import LoadScheduling

#: Tests (node ids up to the parameters) that start first, dealt out in turn to the workers:
#: the catalog's smoke runs, one per paper, ordered in tests/test_catalog.py.
EARLY = ("tests/test_catalog.py::test_smoke_profile_over_the_catalog",)


def _is_early(nodeid: str) -> bool:
    return nodeid.partition("[")[0] in EARLY


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def early(item: pytest.Item) -> bool:
        return _is_early(item.nodeid) or item.get_closest_marker("early") is not None

    first = [item for item in items if early(item)]
    if first:
        items[:] = first + [item for item in items if not early(item)]


class EarlyOnEveryWorker(LoadScheduling):
    """xdist's load scheduling, but the first chunks share the :data:`EARLY` tests in turn."""

    _dealt = False

    def _send_tests(self, node: Any, num: int) -> None:
        if not self._dealt and self.collection is not None:
            self._dealt = True
            early = [i for i in self.pending if _is_early(self.collection[i])]
            if early:
                dealt = set(early)
                rest = [i for i in self.pending if i not in dealt]
                order: list[int] = []
                workers = len(self.nodes)
                for k in range(workers):
                    share = early[k::workers]
                    take = max(num - len(share), 0) if k < workers - 1 else 0
                    order += share + rest[:take]
                    rest = rest[take:]
                self.pending[:] = order + rest
        super()._send_tests(node, num)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> LoadScheduling:
    return EarlyOnEveryWorker(config, log)
