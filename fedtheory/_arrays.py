"""Array hygiene shared by every result type and kernel wrapper (DESIGN §3, §4).

- :func:`readonly`: results are immutable, arrays included — a read-only C-contiguous array
  (a copy by default, so that a result never aliases its caller's input);
- :func:`kernel_array`: a writable C-contiguous array of one dtype, so that every call of a numba
  kernel has the same signature (numba types read-only and non-contiguous arrays apart and would
  compile the kernel again).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["kernel_array", "readonly"]


def readonly(array: Any, dtype: Any = np.float64, *, copy: bool = True) -> np.ndarray:
    """A read-only C-contiguous array of ``dtype`` (``None``: keep the array's dtype).

    With ``copy=False`` an array that already has the layout is marked read-only in place (for
    arrays the caller has just created and owns).

    Examples
    --------
    >>> a = readonly([1, 2])
    >>> a.dtype, a.flags.writeable
    (dtype('float64'), False)
    """
    if copy:
        out = np.array(array, dtype=dtype, copy=True, order="C")
    else:
        out = np.ascontiguousarray(array, dtype=dtype)
    out.setflags(write=False)
    return out


def kernel_array(array: Any, dtype: Any = np.float64) -> np.ndarray:
    """``array`` as a writable C-contiguous array of ``dtype`` (no copy when it already is one)."""
    given: np.ndarray = np.asarray(array)
    if given.dtype == dtype and given.flags.c_contiguous and given.flags.writeable:
        return given
    converted: np.ndarray = np.array(given, dtype=dtype, order="C")
    return converted
