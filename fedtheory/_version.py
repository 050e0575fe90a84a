"""Version of fedtheory (single source for pyproject and --version)."""

from __future__ import annotations

#: The version of fedtheory.
__version__ = "0.1.0"
