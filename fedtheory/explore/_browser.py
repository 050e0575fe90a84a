"""Headless Chromium for the explorer: load a page, read its DOM and console, take a screenshot.

No DevTools client is needed: the page runs its test request on load (the URL fragment
``#test=`` or an inline ``<script id="fedtheory-test">``, see :mod:`fedtheory.explore.page`) and
writes the answers into ``<pre id="test-output">``, which ``--dump-dom`` prints; the console
(``--enable-logging=stderr``) shows every ``console.*`` message and uncaught error as a line
``…:INFO:CONSOLE:…] "message", source: …``. Used by the browser tests and by the script that
makes the documentation's explorer pages and screenshots (``docs/explorer/pages.py``).
"""

from __future__ import annotations

import base64
import html
import json
import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fedtheory.errors import FedTheoryError

__all__ = ["BROWSER_NAMES", "PageRun", "find_chromium", "fragment", "run_page", "screenshot"]

#: Executables tried, in order, by :func:`find_chromium`.
BROWSER_NAMES: tuple[str, ...] = ("chromium", "chromium-browser", "google-chrome")
#: Flags of every headless run: no sandbox (containers run as root), no GPU, nothing that
#: reaches the network (updates, sync, QUIC), a fresh profile each time.
_FLAGS: tuple[str, ...] = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--enable-logging=stderr",
    "--v=0",
)
_CONSOLE = re.compile(r":INFO:CONSOLE[^\]]*\] (.*)$")
_OUTPUT = re.compile(r'<pre id="test-output"[^>]*>(.*?)</pre>', re.S)


@dataclass(frozen=True)
class PageRun:
    """What one headless load of a page produced.

    Attributes
    ----------
    dom : str
        The serialized DOM after the page ran (empty for a screenshot run).
    console : list of str
        Every console message and uncaught error the browser logged, in order.
    output : dict or None
        The JSON the page wrote into ``<pre id="test-output">`` (``None`` if it wrote nothing).
    """

    dom: str
    console: list[str]
    output: dict[str, Any] | None


def find_chromium() -> str | None:
    """Path of a Chromium executable on ``PATH`` (:data:`BROWSER_NAMES`), or ``None``."""
    for name in BROWSER_NAMES:
        path = shutil.which(name)
        if path is not None:
            return path
    return None


def fragment(request: Mapping[str, Any]) -> str:
    """The URL fragment ``#test=<base64url JSON>`` carrying a test request."""
    data = json.dumps(request, separators=(",", ":")).encode()
    return "#test=" + base64.urlsafe_b64encode(data).decode().rstrip("=")


def _run(arguments: Sequence[str], *, timeout: float) -> tuple[str, list[str]]:
    browser = find_chromium()
    if browser is None:
        raise FedTheoryError(
            f"no Chromium found (tried {', '.join(BROWSER_NAMES)} on PATH); install it, e.g. "
            "apt-get install chromium"
        )
    with tempfile.TemporaryDirectory(prefix="fedtheory-chromium-") as profile:
        completed = subprocess.run(
            [browser, *_FLAGS, f"--user-data-dir={profile}", *arguments],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    console = [m[1] for m in map(_CONSOLE.search, completed.stderr.splitlines()) if m]
    if completed.returncode != 0:
        raise FedTheoryError(
            f"chromium exited with status {completed.returncode}: "
            f"{completed.stderr.strip().splitlines()[-1:] or ''}"
        )
    return completed.stdout, console


def run_page(
    page: str | Path,
    *,
    request: Mapping[str, Any] | None = None,
    budget_ms: int = 5000,
    timeout: float = 120.0,
) -> PageRun:
    """Load ``page`` (a file) in headless Chromium, optionally with a test request in the URL
    fragment, and return its DOM, console and test output.

    Parameters
    ----------
    page
        The HTML file.
    request
        A test request (``{"steps": [...]}``, see :mod:`fedtheory.explore.page`), sent as the
        fragment ``#test=…``. Large requests belong inline in the page instead (a command line
        argument holds at most 128 kB).
    budget_ms
        Chromium's virtual time budget: how long (virtual) the page may run before the dump.
    timeout
        Seconds before the browser process is killed.
    """
    url = Path(page).resolve().as_uri() + (fragment(request) if request is not None else "")
    dom, console = _run([f"--virtual-time-budget={budget_ms}", "--dump-dom", url], timeout=timeout)
    found = _OUTPUT.search(dom)
    output = json.loads(html.unescape(found[1])) if found and found[1].strip() else None
    return PageRun(dom=dom, console=console, output=output)


def screenshot(
    page: str | Path,
    out: str | Path,
    *,
    size: tuple[int, int] = (1400, 1000),
    budget_ms: int = 5000,
    timeout: float = 120.0,
) -> list[str]:
    """Save a PNG of ``page`` as headless Chromium renders it at ``size``; returns the console
    messages of the load (a clean page logs none)."""
    target = Path(out).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    _, console = _run(
        [
            f"--screenshot={target}",
            f"--window-size={size[0]},{size[1]}",
            f"--virtual-time-budget={budget_ms}",
            Path(page).resolve().as_uri(),
        ],
        timeout=timeout,
    )
    return console
