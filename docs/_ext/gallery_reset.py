"""Run around every gallery example (``sphinx_gallery_conf["reset_modules"]``, by name).

While an example runs, a Python warning it raises is an error: the example fails, and so does
``make docs`` (``sphinx-build -W``). After it, Sphinx's own warning filters are restored. The
function lives in a module, not in ``conf.py``, so that Sphinx can pickle the configuration.
"""

from __future__ import annotations

import warnings

_contexts: list[warnings.catch_warnings] = []


def warnings_are_errors(gallery_conf: dict[str, object], fname: str | None, when: str) -> None:
    """Before an example: warnings are errors (numba's cache notices excepted); after: restore."""
    if when == "before":
        context = warnings.catch_warnings()
        context.__enter__()
        _contexts.append(context)
        warnings.simplefilter("error")
        # numba warns when its on-disk cache directory is not writable; the cache is safe to
        # reuse (the same filter as pytest's in pyproject.toml)
        warnings.filterwarnings("ignore", category=Warning, module="numba")
    elif _contexts:
        _contexts.pop().__exit__(None, None, None)
