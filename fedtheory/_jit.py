"""The one numba policy of fedtheory (DESIGN §4).

Every kernel in the package is compiled with :func:`njit` from this module; no other spelling of
``numba.njit`` appears in ``fedtheory/`` (a test enforces it).

Policy
------
- ``cache=True``: compiled kernels are cached on disk, so a second run skips compilation.
- ``nogil=True``: kernels release the GIL (threaded executors can overlap them).
- ``fastmath={"reassoc", "contract"}``: lets LLVM vectorise reductions and fuse multiply-adds
  (about 1.6x on the FedAvg kernel) but never ``nnan``/``ninf``: divergence detection relies on
  NaN and inf propagating, so those flags are excluded on purpose.
- Kernels are single-threaded (no ``parallel=True``): parallelism comes from the executor running
  blocks of replicates, so two cores are never oversubscribed.
- Kernels are private, pure and deterministic: arrays in, arrays out; randomness is drawn by the
  Python wrapper (or passed as an explicit integer seed).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, overload

import numba

__all__ = ["FASTMATH_FLAGS", "JIT_OPTIONS", "jit_disabled", "njit"]

#: Fast-math flags allowed in kernels. ``nnan`` and ``ninf`` are deliberately absent.
FASTMATH_FLAGS: frozenset[str] = frozenset({"reassoc", "contract"})

#: Options passed to :func:`numba.njit` for every kernel.
JIT_OPTIONS: dict[str, Any] = {
    "cache": True,
    "nogil": True,
    "fastmath": set(FASTMATH_FLAGS),
}

_F = TypeVar("_F", bound=Callable[..., Any])


@overload
def njit(function: _F, /) -> _F: ...
@overload
def njit(**options: Any) -> Callable[[_F], _F]: ...
def njit(function: Any = None, /, **options: Any) -> Any:
    """The decorator every kernel uses: ``@njit`` or ``@njit(...)`` with extra options.

    It is :func:`numba.njit` with :data:`JIT_OPTIONS` (per-kernel options are added on top).
    Typed so that a decorated kernel keeps its own signature for mypy.
    """
    compile_with = numba.njit(**{**JIT_OPTIONS, **options})
    return compile_with if function is None else compile_with(function)


def jit_disabled() -> bool:
    """Return True when numba compilation is switched off (``NUMBA_DISABLE_JIT=1``).

    With the JIT off, kernels run as plain Python: useful for coverage and for pdb.
    """
    return os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")
