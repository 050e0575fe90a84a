"""Version of fedtheory (single source for pyproject and --version)."""

from __future__ import annotations

__version__ = "0.1.0"
