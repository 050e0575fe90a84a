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
- ``reassoc`` makes a reduction's order LLVM's choice, and LLVM may choose per call: numba does
  not mark array arguments ``noalias``, so a loop that stores into one array while it reads
  another is vectorised behind a run-time check that the two do not overlap, with the scalar
  loop as fallback. If that loop also sums, the two versions sum in different orders, and
  which one runs depends on where the arrays happen to be allocated: the same seed, results
  1 ulp apart (found in TERM's server step, see the CHANGELOG). Rule: **a loop that stores
  into an array does not also carry a floating-point sum**; sum in a loop of its own.
- Kernels are single-threaded (no ``parallel=True``): parallelism comes from the executor running
  blocks of replicates, so two cores are never oversubscribed.
- Kernels are private, pure and deterministic: arrays in, arrays out; randomness is drawn by the
  Python wrapper (or passed as an explicit integer seed).

Pluggable kernels
-----------------
The federated round loop takes its client step, its server step and its problem as *values*
(DESIGN §3), and must still compile once, cache on disk and inline the step into the loop. A
jitted function passed as an argument does none of that: numba types each dispatcher by its
address, so a loop specialised for it can be neither cached nor shared between processes. The
idiom here is static dispatch on a type instead:

- a pluggable part is a :class:`typing.NamedTuple` of its parameters (arrays and numbers),
  subclassed by a class that names its kernels as plain class attributes, e.g.
  ``client_update = _sgd_update`` (the subclass keeps type checkers from reading the kernels as
  fields; numba types an instance by the subclass);
- :func:`dispatch` makes a generic kernel-callable function ``f(obj, *args)`` that runs
  ``type(obj).<name>(obj, *args)``. Inside a kernel numba resolves it at compile time from the
  NamedTuple type (a stable type: the caller caches and inlines); in plain Python (and with
  ``NUMBA_DISABLE_JIT=1``) it is an ordinary attribute lookup.

Cache freshness and hygiene
---------------------------
numba invalidates a cached kernel when *its own file* changes, not when a kernel it calls from
another file does — and with pluggable kernels the round loop inlines steps written elsewhere.
For every function defined inside ``fedtheory/`` the cache stamp therefore also covers the
content of every kernel module of the package (:func:`kernel_sources_digest`): editing any
kernel recompiles them all, and a stale binary is never run. (A user who sets
``NUMBA_CACHE_LOCATOR_CLASSES`` replaces numba's locators, this one included.)

Processes that compile the same kernel at once (the workers of a first ``fedtheory verify``,
the test suite's processes) do not compile it twice: a specialisation that will be cached is
compiled under an exclusive file lock next to its cache entry (:func:`_compile_lock`), so a
second process waits for the first and then loads the kernel from the cache. (Cold, the two
workers of the smoke profile compiled every kernel side by side: 7 min 36 s of CPU against
4 min 43 s for one worker.)

A kernel specialised for a type defined *outside* the package (a client step written in a
notebook, a test or a claim file) is compiled but not written to the package's cache: the cache
index is shared by every process, and an entry naming a class another process cannot import
would break its loading. An index that cannot be read is treated as empty.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar, cast, overload

import numba
from numba.core import caching as _numba_caching
from numba.core import sigutils as _numba_sigutils
from numba.core.compiler_lock import global_compiler_lock as _global_compiler_lock
from numba.extending import overload as _numba_overload

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: kernels are compiled without the lock
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "FASTMATH_FLAGS",
    "JIT_OPTIONS",
    "dispatch",
    "jit_disabled",
    "kernel_sources_digest",
    "njit",
]

#: Fast-math flags allowed in kernels. ``nnan`` and ``ninf`` are deliberately absent.
FASTMATH_FLAGS: frozenset[str] = frozenset({"reassoc", "contract"})

#: Options passed to :func:`numba.njit` for every kernel.
JIT_OPTIONS: dict[str, Any] = {
    "cache": True,
    "nogil": True,
    "fastmath": set(FASTMATH_FLAGS),
}

_F = TypeVar("_F", bound=Callable[..., Any])

#: The package folder: functions defined below it get the package-wide cache stamp.
_PACKAGE = Path(__file__).resolve().parent
#: A module whose source contains this marker defines kernels (it imports this module).
_KERNEL_MARKER = b"fedtheory._jit import"
#: numba's cache machinery (untyped: a private API, used in this module only).
caching: Any = _numba_caching
_sigutils: Any = _numba_sigutils


class _PackageCacheIndex(caching.IndexDataCacheFile):  # type: ignore[misc]
    """numba's cache index, read tolerantly: an index naming a class this process cannot
    import (or otherwise unreadable) counts as empty, so the kernel is compiled again."""

    def _load_index(self) -> dict[Any, Any]:
        try:
            return dict(super()._load_index())
        except Exception:
            return {}


class _PackageFunctionCache(caching.FunctionCache):  # type: ignore[misc]
    """The disk cache of fedtheory's kernels: saves only specialisations whose types all come
    from numba or from this package, and reads its index tolerantly."""

    def __init__(self, py_func: Any) -> None:
        super().__init__(py_func)
        self._cache_file = _PackageCacheIndex(
            cache_path=self._cache_path,
            filename_base=self._impl.filename_base,
            source_stamp=self._impl.locator.get_source_stamp(),
        )

    def save_overload(self, sig: Any, data: Any) -> None:
        if all(_cacheable(argument) for argument in sig):
            super().save_overload(sig, data)

    def lock_path(self, args: tuple[Any, ...]) -> str:
        """The lock file of one specialisation: next to the cache index, named by its
        signature."""
        digest = hashlib.sha256(str(args).encode()).hexdigest()[:16]
        return os.path.join(self._cache_path, f"{self._impl.filename_base}.{digest}.lock")


#: Longest wait (seconds) for another process's compilation of the same kernel; past it the
#: kernel is compiled here as well (a process stopped in a debugger must not stall the others).
COMPILE_LOCK_WAIT = 600.0


@contextlib.contextmanager
def _compile_lock(path: str) -> Iterator[None]:
    """Hold an exclusive lock on the file ``path`` (``flock``), waiting for another process
    that holds it, at most :data:`COMPILE_LOCK_WAIT` seconds; without ``fcntl`` (Windows) or
    when the file cannot be opened, nothing is locked."""
    if fcntl is None:  # pragma: no cover - not POSIX
        yield
        return
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        yield
        return
    locked = False
    try:
        deadline = time.monotonic() + COMPILE_LOCK_WAIT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                locked = True
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.02)
            except OSError:
                break  # a file system without locks
        yield
    finally:
        if locked:
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _locked_compile(dispatcher: Any) -> Callable[[Any], Any]:
    """``dispatcher.compile`` under the file lock of the specialisation, for the
    specialisations the package's cache saves (see the module docstring).

    The lock is taken inside numba's compiler lock, so one thread per process waits for it,
    and locks nest from a caller to its callees only: no two processes wait for each other.
    Once it holds the lock, numba's own ``compile`` looks in the disk cache first, where it
    finds the kernel another process has just compiled.
    """
    compile_here = dispatcher.compile
    cache = dispatcher._cache

    def compile(sig: Any) -> Any:
        args, _ = _sigutils.normalize_signature(sig)  # untyped in numba
        args = tuple(args)
        if args in dispatcher.overloads or not all(_cacheable(a) for a in args):
            return compile_here(sig)
        with _global_compiler_lock, _compile_lock(cache.lock_path(args)):
            return compile_here(sig)

    return compile


def _cacheable(numba_type: Any) -> bool:
    """Whether a numba type names only classes that every process can import: numba's own
    types, made of such types, and NamedTuples defined in this package."""
    instance_class = getattr(numba_type, "instance_class", None)
    if instance_class is not None:
        module = getattr(instance_class, "__module__", "")
        if module != "fedtheory" and not module.startswith("fedtheory."):
            return False
    if not type(numba_type).__module__.startswith("numba."):
        return False
    if isinstance(numba_type, numba.types.Dispatcher):
        return False  # typed by the address of a function object
    inner = getattr(numba_type, "types", None)
    if isinstance(inner, tuple):
        return all(_cacheable(member) for member in inner)
    dtype = getattr(numba_type, "dtype", None)
    if isinstance(dtype, numba.types.Type) and dtype is not numba_type:
        return _cacheable(dtype)
    return True


@overload
def njit(function: _F, /) -> _F: ...
@overload
def njit(**options: Any) -> Callable[[_F], _F]: ...
def njit(function: Any = None, /, **options: Any) -> Any:
    """The decorator every kernel uses: ``@njit`` or ``@njit(...)`` with extra options.

    It is :func:`numba.njit` with :data:`JIT_OPTIONS` (per-kernel options are added on top).
    Typed so that a decorated kernel keeps its own signature for mypy.
    """
    settings = {**JIT_OPTIONS, **options}
    compile_with = cast(Any, numba.njit)(**settings)

    def compile_one(kernel: Any) -> Any:
        dispatcher = compile_with(kernel)
        if settings.get("cache") and isinstance(dispatcher, numba.core.dispatcher.Dispatcher):
            cast(Any, dispatcher)._cache = _PackageFunctionCache(dispatcher.py_func)
            cast(Any, dispatcher).compile = _locked_compile(dispatcher)
        return dispatcher

    return compile_one if function is None else compile_one(function)


def jit_disabled() -> bool:
    """Return True when numba compilation is switched off (``NUMBA_DISABLE_JIT=1``).

    With the JIT off, kernels run as plain Python: useful for coverage and for pdb.
    """
    return os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


def dispatch(
    name: str, *parameters: str, default: Callable[..., Any] | None = None
) -> Callable[..., Any]:
    """A generic kernel ``f(obj, *parameters)`` that runs ``type(obj).<name>(obj, ...)``.

    ``obj`` is an instance of a :class:`typing.NamedTuple` subclass that has the kernel as class
    attribute ``name`` (see the module docstring). Callable from kernels and from Python alike.
    Inside a kernel, numba compiles the kernel's own Python function in place of the generic
    call: no wrapper and no argument tuple in between, so a small kernel costs what a direct call
    costs (a wrapper made the FedAvg round loop ~20% slower).

    Parameters
    ----------
    name
        The class attribute that holds the kernel.
    *parameters
        The names of the kernel's arguments after ``obj`` (the generic function has exactly
        these; the kernels may name them otherwise).
    default
        A kernel used when the class has no such attribute (``None``: the attribute is required
        and its absence is a typing error naming the class and the attribute).

    Examples
    --------
    >>> from typing import NamedTuple
    >>> @njit(cache=False)  # defined in a doctest: no file to cache it next to
    ... def _scaled(rule, x):
    ...     return rule.factor * x
    >>> class _ScaleFields(NamedTuple):
    ...     factor: float
    >>> class Scale(_ScaleFields):
    ...     __slots__ = ()
    ...     apply = _scaled
    >>> apply = dispatch("apply", "x")
    >>> @njit(cache=False)
    ... def twice(rule, x):
    ...     return apply(rule, apply(rule, x))
    >>> twice(Scale(3.0), 2.0)
    18.0
    """
    if not all(p.isidentifier() for p in (name, *parameters)):
        raise ValueError(f"dispatch: {name!r} and {parameters!r} must be Python identifiers")

    def lookup(obj: Any) -> Callable[..., Any]:
        kernel = getattr(type(obj), name, default)
        if kernel is None:
            raise TypeError(f"{type(obj).__name__} has no kernel {name!r}")
        return cast(Callable[..., Any], kernel)

    arguments = ", ".join(("obj", *parameters))
    namespace: dict[str, Any] = {"lookup": lookup}
    exec(  # a function with the kernel's exact signature, for numba's overload machinery
        f"def {name}({arguments}):\n    return lookup(obj)({arguments})\n", namespace
    )
    generic = namespace[name]
    generic.__doc__ = f"Run ``type(obj).{name}({arguments})`` (static dispatch in kernels)."

    def resolve(obj: Any, *args: Any) -> Any:
        owner = getattr(obj, "instance_class", None)
        kernel = getattr(owner, name, default) if owner is not None else None
        if kernel is None:
            raise numba.core.errors.TypingError(
                f"{getattr(owner, '__name__', obj)} has no kernel {name!r} "
                "(a pluggable kernel is a class attribute of a NamedTuple subclass)"
            )
        return getattr(kernel, "py_func", kernel)

    # Not cached on its own: the kernel is compiled into (and cached with) its caller.
    register = cast(Any, _numba_overload)(
        generic, jit_options={**JIT_OPTIONS, "cache": False}, strict=False
    )
    register(resolve)
    return cast(Callable[..., Any], generic)


def kernel_sources_digest(root: Path = _PACKAGE) -> bytes:
    """sha256 over the content of every kernel module below ``root`` (path and bytes).

    A kernel module is a ``.py`` file that imports :mod:`fedtheory._jit` (and this file itself).
    Computed once per process for the package (files edited while a process runs are seen by
    the next process, as with numba's own stamp).
    """
    if root == _PACKAGE:
        return _package_digest()
    return _digest(root)


def _digest(root: Path) -> bytes:
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        content = path.read_bytes()
        if _KERNEL_MARKER in content or path.name == "_jit.py":
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(hashlib.sha256(content).digest())
    return digest.digest()


@functools.cache
def _package_digest() -> bytes:
    return _digest(_PACKAGE)


class _PackageKernelLocator(caching._CacheLocator):  # type: ignore[misc]
    """numba cache locator for functions defined in ``fedtheory/``: numba's own choice of cache
    folder, with a stamp that also covers every kernel module of the package."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def ensure_cache_path(self) -> None:
        self._inner.ensure_cache_path()

    def get_cache_path(self) -> str:
        return str(self._inner.get_cache_path())

    def get_source_stamp(self) -> Any:
        return (self._inner.get_source_stamp(), _package_digest())

    def get_disambiguator(self) -> str:
        return str(self._inner.get_disambiguator())

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> _PackageKernelLocator | None:
        try:
            inside = Path(py_file).resolve().is_relative_to(_PACKAGE)
        except (OSError, ValueError):
            inside = False
        if not inside:
            return None
        for locator_class in _NUMBA_LOCATORS:
            inner = locator_class.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner)
        return None


_CACHE_IMPL = caching.CacheImpl
_NUMBA_LOCATORS: tuple[Any, ...] = tuple(
    klass for klass in _CACHE_IMPL._locator_classes if klass is not _PackageKernelLocator
)
if _PackageKernelLocator not in _CACHE_IMPL._locator_classes:
    _CACHE_IMPL._locator_classes.insert(0, _PackageKernelLocator)
