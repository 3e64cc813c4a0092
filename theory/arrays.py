"""Arrays of numbers taken from a user, validated (docs/design.md, "Inputs, budgets and
errors"): :func:`exact_float_array` refuses what float64 would round or overflow, naming
the argument and index; :func:`number_array` refuses anything but real numbers."""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from decimal import Decimal

import numpy as np

from theory.numbers import MAX_EXACT_INT, short_repr

__all__ = ["exact_float_array", "number_array", "unique_ids"]


def exact_float_array(x: object, name: str, ndim: int) -> np.ndarray:
    """``x`` as a read-only float64 array of ``ndim`` dimensions (a 1-D ``demand`` or
    ``capacity`` is one resource). Every entry must be a finite number that float64
    holds: an integer above 2^53 that float64 would round (2^53 + 1) and a number beyond
    its range (``10**400``) are refused naming ``name[index]``, not rounded or overflowed;
    other reals (``0.1``, ``Fraction(1, 3)``) are read as the nearest float64."""
    try:
        raw = np.asarray(x)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be a {ndim}-dimensional array of numbers (rows of "
                         f"equal length)") from None
    kind = raw.dtype.kind
    if kind in "fiu":
        a = raw.astype(np.float64)
        # an integer of at least 2^53 may have been rounded (by numpy, reading a list of
        # ints and floats as floats, or here): compare it with the integer given
        given_floats = kind == "f" and isinstance(x, np.ndarray)
        big = np.zeros(0, np.int64) if given_floats else np.flatnonzero(
            (np.abs(a) >= MAX_EXACT_INT).ravel())
        for k in big.tolist():
            v = raw.flat[k] if kind != "f" else _at(x, raw.shape, k)
            if isinstance(v, numbers.Integral) and int(v) != int(a.flat[k]):
                raise ValueError(f"{name}{_index(raw.shape, k)} is {int(v)}, an integer "
                                 f"above 2^53 that float64 cannot hold exactly (it would "
                                 f"read as {int(a.flat[k])}); give numbers float64 holds")
    elif kind == "O":
        a = np.empty(raw.shape, dtype=np.float64)
        for k, v in enumerate(raw.flat):
            a.flat[k] = _entry(v, f"{name}{_index(raw.shape, k)}")
    elif kind == "b":
        raise TypeError(f"{name} must be numbers, not true/false values")
    elif kind in "US":
        raise TypeError(f"{name} must be numbers, not text such as {raw.flat[0].item()!r}")
    else:
        raise TypeError(f"{name} must be an array of real numbers")
    if ndim == 2 and a.ndim == 1:
        a = a[:, None]
    if a.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-dimensional array, got shape {a.shape}")
    bad = np.flatnonzero(~np.isfinite(a).ravel())
    if bad.size:
        k = int(bad[0])
        raise ValueError(f"{name} must be finite: {name}{_index(a.shape, k)} is "
                         f"{a.flat[k]}")
    a.setflags(write=False)
    return a


def _index(shape: tuple[int, ...], k: int) -> str:
    """``[i]`` or ``[i, r]``: flat position ``k`` of an array of ``shape``."""
    if not shape:
        return ""
    return "[" + ", ".join(str(int(i)) for i in np.unravel_index(k, shape)) + "]"


def _at(x: object, shape: tuple[int, ...], k: int) -> object:
    """The entry of the nested sequence ``x`` at flat position ``k`` of ``shape``."""
    v = x
    for i in np.unravel_index(k, shape) if shape else ():
        v = v[int(i)]  # type: ignore[index]
    return v


def _entry(v: object, where: str) -> float:
    """One entry of an object array (Python ints, fractions, decimals) as float64."""
    if isinstance(v, bool | np.bool_):
        raise TypeError(f"{where} must be a number, not {v!r}")
    if isinstance(v, numbers.Integral):
        i = int(v)
        if abs(i) > 2**1023:
            raise ValueError(f"{where} is {_entry_repr(i)}, beyond the float64 range (1.8e308)")
        if float(i) != i:
            raise ValueError(f"{where} is {i}, an integer above 2^53 that float64 cannot "
                             f"hold exactly (it would read as {int(float(i))}); give "
                             f"numbers float64 holds")
        return float(i)
    if isinstance(v, numbers.Real | Decimal):
        try:
            f = float(v)
        except OverflowError:
            f = math.inf
        except ValueError:  # a signalling NaN
            f = math.nan
        if math.isinf(f) and not (isinstance(v, float) or (isinstance(v, Decimal)
                                                           and v.is_infinite())):
            raise ValueError(f"{where} is {_entry_repr(v)}, beyond the float64 range (1.8e308)")
        if f == 0 and v != 0:
            raise ValueError(f"{where} is {_entry_repr(v)}, nonzero but below the float64 range "
                             f"(it would read as 0)")
        return f
    raise TypeError(f"{where} must be a number, got {_entry_repr(v)}")


def _entry_repr(v: object) -> str:
    """An entry for a message: its digits cut to 40 characters, with its length."""
    return short_repr(v, 40, tail=8, length=True)


def number_array(x: object, name: str, what: str) -> np.ndarray:
    """``x`` as a new float64 array, every entry a real number: no bool, text, None or
    nested list of another length (the capacities here, the demands and rates of
    :mod:`policies.job_types`). ``what`` says what is allowed, for the message."""
    if isinstance(x, np.ndarray) and x.dtype.kind in "iuf":
        return np.array(x, dtype=np.float64)
    if isinstance(x, str | bytes):
        raise ValueError(f"{name} must be {what}, got the text {x!r}")
    try:
        obj = np.asarray(x, dtype=object)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be {what}") from None
    for v in obj.flat:
        if isinstance(v, list | tuple | np.ndarray):
            raise ValueError(f"{name} must be {what}, with rows of equal length")
        if isinstance(v, bool | np.bool_) or not isinstance(v, numbers.Real):
            raise ValueError(f"{name} must be {what}, got the entry {short_repr(v, 40)}")
    try:
        return obj.astype(np.float64)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be {what}; an entry is beyond the float range") \
            from None


def unique_ids(ids: Sequence[object] | None, n: int, what: str) -> tuple[str, ...]:
    """``ids`` as ``n`` distinct strings (default "0", "1", ...); ``what`` names them."""
    out = tuple(str(i) for i in (range(n) if ids is None else ids))
    if len(out) != n:
        raise ValueError(f"{len(out)} ids for {n} {what}")
    seen: set[str] = set()
    for i in out:
        if i in seen:
            raise ValueError(f"{what} id {i!r} appears twice")
        seen.add(i)
    return out
