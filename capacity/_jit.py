"""``numba.njit`` applied on first call, so that importing a module of kernels does not
import numba (about 0.3 s, and 0.5 s more to load the first kernel from numba's cache).

``@njit(cache=True)`` here returns a :class:`LazyKernel`: calling it imports numba,
compiles the function (or loads it from numba's on-disk cache: the cache key is the
same as with ``numba.njit`` at import) and calls it. ``.py_func`` is the plain Python
function, usable without numba: a small input can run it directly and skip numba
altogether (the tests compare kernels with their ``py_func``).

Limitation: a lazy kernel is not a numba dispatcher until its first call, so another
numba function must not call it (use ``numba.njit`` for kernels that call each other).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["njit", "LazyKernel"]


class LazyKernel:
    """A function compiled with ``numba.njit(**options)`` on its first call."""

    def __init__(self, py_func: Callable[..., Any], options: dict[str, Any]):
        self.py_func = py_func
        self.options = options
        self._dispatcher: Any = None
        self._lock = threading.Lock()
        functools.update_wrapper(self, py_func)

    @property
    def dispatcher(self) -> Any:
        """The numba dispatcher (imports numba and creates it on first use)."""
        if self._dispatcher is None:
            with self._lock:
                if self._dispatcher is None:
                    from numba import njit as numba_njit

                    self._dispatcher = numba_njit(**self.options)(self.py_func)
        return self._dispatcher

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.dispatcher(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:  # signatures, stats, inspect_types, ...
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.dispatcher, name)

    def __repr__(self) -> str:
        return f"<lazy numba kernel {self.py_func.__module__}.{self.py_func.__qualname__}>"


def njit(*args: Any, **options: Any) -> Any:
    """Like ``numba.njit`` (``@njit``, ``@njit(cache=True, ...)``), compiled lazily."""
    if args and callable(args[0]) and len(args) == 1 and not options:
        return LazyKernel(args[0], {})
    if args:
        raise TypeError("njit takes the function or keyword options only (no signatures: "
                        "an explicit signature compiles eagerly)")

    def decorate(fn: Callable[..., Any]) -> LazyKernel:
        return LazyKernel(fn, options)

    return decorate
