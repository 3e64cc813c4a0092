"""Exact and floating numbers: how sizes, capacities and probabilities are read.

The papers' counterexamples depend on perfect fits (PG21 Prop. 2: ``(1/2 - e) +
(1/2 + e) = 1``), so inputs given as :class:`fractions.Fraction`, ``int`` or decimal
strings (``"0.4"``) are kept as exact rationals. Python floats are kept as floats and
compared with the one documented tolerance :data:`FEASIBILITY_RTOL`.

Range. Every solver of the package works in float64. Text is read only when its value
converts to a finite float64 that is nonzero when the value is: magnitude at most
:data:`FLOAT_MAX` (about 1.8e308) and, if nonzero, at least :data:`FLOAT_TINY` (about
4.9e-324); ``"1e400"`` and ``"1e-400"`` are refused with a ``ValueError`` naming the
text, and so is text longer than :data:`MAX_TEXT_LENGTH` characters, before it is
parsed (``"1e999999999"`` never builds 10**999999999). Exact objects (``10**400``,
``Fraction(1, 10**400)``) are kept: exact comparisons handle them. Whatever converts a
number to float uses :func:`to_float_checked`, which applies the same range and names
the value; the distributions apply it to their sizes.
"""

from __future__ import annotations

import math
import numbers
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence, Set, ValuesView
from decimal import Decimal
from fractions import Fraction
from numbers import Rational
from typing import Any

import numpy as np

__all__ = [
    "FEASIBILITY_RTOL",
    "FLOAT_MAX",
    "FLOAT_TINY",
    "MAX_EXACT_INT",
    "MAX_TEXT_LENGTH",
    "Number",
    "to_number",
    "written",
    "to_numbers",
    "to_float_checked",
    "real_float",
    "as_list",
    "all_exact",
    "fits",
    "common_denominator",
    "as_float",
    "positive_int",
    "server_count",
    "short_repr",
]

#: Relative tolerance for deciding ``sum(k_i * s_i) <= capacity`` with float inputs:
#: a load ``x`` fits a capacity ``c`` when ``x <= c * (1 + FEASIBILITY_RTOL)``.
#: With exact (rational) inputs the comparison is exact and no tolerance is used.
FEASIBILITY_RTOL = 1e-9

#: Largest magnitude a number may have (the largest finite float64).
FLOAT_MAX = sys.float_info.max
#: Smallest nonzero magnitude (the smallest subnormal float64); below it float() gives 0.
FLOAT_TINY = 5e-324
#: Integers up to ``2**53`` are exact in float64 (the largest integer weight or capacity
#: the float solvers represent exactly).
MAX_EXACT_INT = 2**53
#: Longest decimal text read as a number (below Python's 4300-digit int conversion limit).
MAX_TEXT_LENGTH = 4000

Number = Fraction | float

_EXPONENT = re.compile(r"[eE]\s*([-+]?[0-9_]+)\s*\Z")
_ZERO_MANTISSA = re.compile(r"\s*[-+]?0*\.?0*\s*\Z")


def to_number(x: object, *, name: str = "value") -> Number:
    """Read one number: ``Fraction``/``int``/decimal string -> Fraction, float -> float.

    Text is a decimal (``"0.4"``, ``"1e-3"``) or a ratio of integers (``"1/3"``).
    Exact inputs stay exact: a ``Fraction``, an ``int`` (Python or numpy), a foreign
    ``numbers.Rational``, a ``Decimal`` and text all become a ``Fraction``; a Python or
    numpy float stays a float.

    Parameters
    ----------
    x : object
        The number: ``Fraction``, ``int``, ``numpy.integer``, ``Decimal``, ``float``,
        ``numpy.floating``, a 0-d array of one of these, or text.
    name : str, default "value"
        What the number is, for the error message (``"size"``, ``"capacity"``).

    Returns
    -------
    Fraction or float
        The exact rational, or the float as given.

    Raises
    ------
    ValueError
        Naming ``name``: for NaN and infinities, a bool, bytes, a list or any other
        non-number, text that is not a number or is longer than
        :data:`MAX_TEXT_LENGTH` characters, text outside the float64 range
        (magnitude above :data:`FLOAT_MAX`, or nonzero below :data:`FLOAT_TINY`), and a
        nonzero long double that rounds to 0 in float64.

    References
    ----------
    docs/design.md, section Rationals and floats. Exact reading is what the perfect
    fit of PG21, Sec. VIII-C (proof of Prop. 2) needs.

    Examples
    --------
    >>> from theory import to_number
    >>> to_number("0.4"), to_number("1/3"), to_number(2)
    (Fraction(2, 5), Fraction(1, 3), Fraction(2, 1))
    >>> to_number(0.4)
    0.4
    >>> to_number(float("nan"), name="size")
    Traceback (most recent call last):
    ...
    ValueError: size must be finite, got nan
    >>> to_number("1e400", name="size")
    Traceback (most recent call last):
    ...
    ValueError: size: '1e400' is too large (numbers are read up to 1.8e+308, ...)
    """
    if type(x) is str:  # the common case first (files, the CLI)
        return _read_text(x, name)
    if isinstance(x, bool | np.bool_):
        raise ValueError(f"{name} must be a number, got the bool {x!r}")
    if isinstance(x, np.ndarray) and x.ndim == 0:
        return to_number(x.item(), name=name)
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int | np.integer):
        return Fraction(int(x))
    if isinstance(x, Rational):
        # numerator/denominator of a foreign Rational (e.g. gmpy2.mpq) may be
        # integer-like objects rather than ints: normalise them to int
        return Fraction(int(x.numerator), int(x.denominator))
    if isinstance(x, str):
        return _read_text(str(x), name)
    if isinstance(x, Decimal):
        if not x.is_finite():
            raise ValueError(f"{name} must be finite, got {x}")
        return to_number(str(x), name=name)
    if isinstance(x, float | np.floating):
        v = float(x)
        if not math.isfinite(v):
            raise ValueError(f"{name} must be finite, got {x}")
        if v == 0 and x != 0:  # a long double below the float64 range
            raise ValueError(f"{name}: {x!r} is nonzero but rounds to 0 in float64")
        return v
    if isinstance(x, bytes | bytearray):
        raise ValueError(f"{name}: cannot read the bytes {short_repr(x)} as a number (decode "
                         "them to str)")
    what = "a list" if isinstance(x, list | tuple | np.ndarray) else type(x).__name__
    raise ValueError(f"{name}: cannot read {short_repr(x)} ({what}) as a number")


def _read_text(x: str, name: str) -> Fraction:
    q = _parse_text(x, name)
    # without an exponent, fewer than 300 characters cannot leave the float64 range
    if len(x) >= 300 or "e" in x or "E" in x:
        _check_range(q, x, name)
    return q


def _parse_text(x: str, name: str) -> Fraction:
    if len(x) > MAX_TEXT_LENGTH:
        raise ValueError(f"{name}: a number of {len(x)} characters is too long (numbers "
                         f"are read up to {MAX_TEXT_LENGTH} characters)")
    s = x.strip()
    m = _EXPONENT.search(s) if "e" in s or "E" in s else None
    if m is not None:
        try:
            exp = int(m.group(1))
        except ValueError:
            raise ValueError(f"{name}: {x!r} is not a number") from None
        if abs(exp) > 2 * MAX_TEXT_LENGTH:
            # 10**exp would be built before any range check: decide from the text
            mantissa = s[: m.start()]
            try:
                Fraction(mantissa)
            except (ValueError, ZeroDivisionError):
                raise ValueError(f"{name}: {x!r} is not a number") from None
            if _ZERO_MANTISSA.match(mantissa):
                return Fraction(0)
            raise ValueError(_range_message(name, x, exp > 0))
    try:
        return Fraction(s)
    except (ValueError, ZeroDivisionError):
        hint = (" (write a finite number)" if s.lower().lstrip("+-") in
                ("nan", "inf", "infinity") else "")
        raise ValueError(f"{name}: {x!r} is not a number{hint}") from None


def _range_message(name: str, x: object, too_large: bool) -> str:
    if too_large:
        return (f"{name}: {short_repr(x)} is too large (numbers are read up to {FLOAT_MAX:.2g}, "
                "the float64 range every solver works in)")
    return (f"{name}: {short_repr(x)} is too small (nonzero but below {FLOAT_TINY:.2g}, it "
            "rounds to 0 in float64, the range every solver works in)")


def _check_range(v: Number, given: object, name: str) -> float:
    """``float(v)``, or ``ValueError`` when it overflows or a nonzero ``v`` becomes 0."""
    try:
        f = float(v)
    except OverflowError:
        raise ValueError(_range_message(name, given, True)) from None
    if math.isinf(f):
        raise ValueError(_range_message(name, given, True))
    if f == 0.0 and v != 0:
        raise ValueError(_range_message(name, given, False))
    return f


def _digits(n: int) -> int:
    return max(1, math.ceil(abs(n).bit_length() * math.log10(2)))


def short_repr(x: object, limit: int = 60, *, tail: int = 0, length: bool = False) -> str:
    """``x`` for a message, cut to about ``limit`` characters.

    Anything longer keeps its first ``limit - tail - 3`` characters, ``...`` and its last
    ``tail`` characters, and with ``length`` its full length: ``(5000 characters)``. A
    string is cut before it is quoted (the quotes stay); anything else is its ``repr``,
    cut (``<type>`` when the ``repr`` fails). Without ``length``, an integer or a
    fraction of more than ``limit`` digits is named by its digit count (``an integer of
    about 401 digits``) and never written out.

    Parameters
    ----------
    x : object
        What to show: a string is quoted, anything else is its ``repr``.
    limit : int, default 60
        About how many characters the result may have.
    tail : int, default 0
        How many of the last characters a cut text keeps after ``...``.
    length : bool, default False
        Append the full length of a cut text (``(5000 characters)``), and write long
        integers and fractions as text instead of naming their digit count.

    Returns
    -------
    str
        The text for an error message; it never raises.

    References
    ----------
    docs/design.md, section Errors (messages name the offending value).

    Examples
    --------
    >>> from theory import short_repr
    >>> short_repr("x" * 100, 20)
    "'xxxxxxxxxxxxxxxxx...'"
    >>> short_repr("abcdefghij" * 3, 20, tail=4)
    "'abcdefghijabc...ghij'"
    >>> short_repr(10**500)
    'an integer of about 501 digits'
    >>> short_repr([1] * 50, 20, length=True)
    '[1, 1, 1, 1, 1, 1... (150 characters)'
    """
    if not length:
        if isinstance(x, Fraction) and x.denominator == 1:
            x = x.numerator
        if isinstance(x, int) and not isinstance(x, bool) and _digits(x) > limit:
            return f"an integer of about {_digits(x)} digits"
        if isinstance(x, Fraction) and _digits(x.numerator) + _digits(x.denominator) > limit:
            return (f"a fraction of about {_digits(x.numerator)}/{_digits(x.denominator)} "
                    "digits")
    if isinstance(x, str):
        text = x
    else:
        try:
            text = repr(x)
        except Exception:  # a foreign object whose repr fails must not hide the real error
            text = f"<{type(x).__name__}>"
    if len(text) > limit:
        cut = text[: max(limit - tail - 3, 0)] + "..." + (text[-tail:] if tail > 0 else "")
        note = f" ({len(text)} characters)" if length else ""
        return (repr(cut) if isinstance(x, str) else cut) + note
    return repr(x) if isinstance(x, str) else text


def written(x: object) -> str:
    """A number as the user wrote it (text as is, never ``Fraction(0, 1)``).

    Parameters
    ----------
    x : object
        A number or its text; anything else is shown by :func:`short_repr`.

    Returns
    -------
    str
        ``str(x)`` for text, ints, floats, Fractions and numpy numbers, else
        ``short_repr(x)``.

    References
    ----------
    docs/design.md, section Errors (messages quote the input as given).

    Examples
    --------
    >>> from fractions import Fraction
    >>> from theory import written
    >>> written("0.40"), written(Fraction(0)), written(Fraction(1, 3)), written(0.5)
    ('0.40', '0', '1/3', '0.5')
    """
    return str(x) if isinstance(x, str | int | float | Fraction | np.number) else short_repr(x)


def to_float_checked(x: object, name: str = "value") -> float:
    """``float(x)`` for a number, refusing what float64 cannot hold (``ValueError``).

    Raises when ``x`` is not a number, is NaN or infinite, overflows float64, or is
    nonzero and underflows to ``0.0`` (module docstring, "Range").

    Parameters
    ----------
    x : object
        Anything :func:`to_number` reads (an exact rational, a float, text).
    name : str, default "value"
        What the number is, for the error message.

    Returns
    -------
    float
        The nearest float64 (an exact rational is rounded once).

    Raises
    ------
    ValueError
        Naming ``name``: what :func:`to_number` refuses, and an exact value of
        magnitude above :data:`FLOAT_MAX` or nonzero below :data:`FLOAT_TINY`.

    References
    ----------
    docs/design.md, section Rationals and floats.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from theory import to_float_checked
    >>> to_float_checked(Fraction(1, 4)), to_float_checked("0.5")
    (0.25, 0.5)
    >>> to_float_checked(Fraction(10**400), "capacity")
    Traceback (most recent call last):
    ...
    ValueError: capacity: an integer of about 401 digits is too large (...)
    """
    return _check_range(to_number(x, name=name), x, name)


def real_float(x: object, name: str, what: str = "a number") -> float:
    """``x`` as a float: a real number (no bool, text or array) within the float range.

    NaN and infinities pass: the caller's range check decides them.

    Parameters
    ----------
    x : object
        A real number (``int``, ``float``, ``Fraction``, numpy scalar).
    name : str
        What the number is, for the error message (``"rate"``).
    what : str, default "a number"
        What ``x`` must be, for the error message (``"a positive number"``).

    Returns
    -------
    float
        ``float(x)``.

    Raises
    ------
    ValueError
        ``name must be {what}`` for a bool, text, an array or any non-real; ``... within
        the float range`` when ``float(x)`` overflows.

    References
    ----------
    docs/design.md, section Validation.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from theory import real_float
    >>> real_float(3, "rate"), real_float(Fraction(1, 4), "rate")
    (3.0, 0.25)
    >>> real_float("3", "rate", "a positive number")
    Traceback (most recent call last):
    ...
    ValueError: rate must be a positive number, got '3'
    """
    if isinstance(x, bool | np.bool_) or not isinstance(x, numbers.Real):
        raise ValueError(f"{name} must be {what}, got {short_repr(x, 40)}")
    try:
        return float(x)
    except (OverflowError, ValueError):
        raise ValueError(f"{name} must be {what} within the float range, got "
                         f"{short_repr(x, 40)}") from None


def as_list(xs: object, *, name: str = "values", example: str = "[0.4, 0.6]",
            of: str = "numbers") -> list[Any]:
    """The items of a list, tuple, range or array as a list; anything else is refused.

    A str, bytes, dict, set, iterator/generator, number or None where a list of ``of``
    is expected raises ``ValueError`` saying what was given and what to write instead.

    Parameters
    ----------
    xs : object
        A list (returned as it is), tuple, range, dict values view, array of at least
        one dimension, other ``Sequence``, or an object with ``__array__`` (a pandas
        Series).
    name : str, default "values"
        What the list is, for the error message.
    example : str, default "[0.4, 0.6]"
        A correct spelling, suggested in the error message.
    of : str, default "numbers"
        What the entries are, for the error message (``"server classes"``).

    Returns
    -------
    list
        The items, in order (the same object when ``xs`` is a list).

    Raises
    ------
    ValueError
        For a str, bytes, a dict, a set, an iterator or generator, a single number,
        None, a 0-d array or any other non-sequence.

    References
    ----------
    docs/design.md, section Validation.

    Examples
    --------
    >>> from theory import as_list
    >>> as_list((1, 2)), as_list(range(3))
    ([1, 2], [0, 1, 2])
    >>> as_list("0.4", name="sizes")
    Traceback (most recent call last):
    ...
    ValueError: sizes must be a list of numbers, got the string '0.4' (write ['0.4'])
    """
    if isinstance(xs, list):
        return xs
    if isinstance(xs, tuple | range | ValuesView):
        return list(xs)
    if isinstance(xs, np.ndarray):
        if xs.ndim == 0:
            raise ValueError(f"{name} must be a list of {of}, got the 0-d array {xs!r} "
                             f"(write [{xs.item()!r}])")
        return list(xs)
    if isinstance(xs, str):
        return _refuse(name, of, f"the string {short_repr(xs)}",
                       f"[{short_repr(xs)}]" if of == "numbers" else example)
    if isinstance(xs, bytes | bytearray):
        return _refuse(name, of, f"the bytes {short_repr(xs)}", example)
    if isinstance(xs, Mapping):
        return _refuse(name, of, "a dict", f"a list such as {example}")
    if isinstance(xs, Set):
        return _refuse(name, of, "a set (unordered)", "a list, e.g. sorted(...)")
    if isinstance(xs, Iterator):
        return _refuse(name, of, f"an iterator ({type(xs).__name__})", "a list, e.g. list(...)")
    if xs is None:
        return _refuse(name, of, "None", example)
    if isinstance(xs, int | float | Fraction | Decimal | np.number | np.bool_):
        return _refuse(name, of, f"the number {short_repr(xs)}", f"[{short_repr(xs)}]")
    if isinstance(xs, Sequence):
        return list(xs)
    if hasattr(xs, "__array__"):  # a pandas Series, an xarray DataArray
        return as_list(np.asarray(xs), name=name, example=example, of=of)
    return _refuse(name, of, f"{short_repr(xs)} ({type(xs).__name__})", example)


def _refuse(name: str, of: str, got: str, write: str) -> list[Any]:
    raise ValueError(f"{name} must be a list of {of}, got {got} (write {write})")


def to_numbers(xs: Iterable[object], *, name: str = "values") -> list[Number]:
    """Read a list of numbers (:func:`as_list`, then :func:`to_number` on each entry).

    If any entry is a float, all become floats (an exact entry beyond float64 is then
    refused, as by :func:`to_float_checked`); otherwise all stay exact Fractions.

    Parameters
    ----------
    xs : list, tuple, range or array
        The numbers, each anything :func:`to_number` reads.
    name : str, default "values"
        What the list is, for the error messages.

    Returns
    -------
    list of Fraction or list of float
        All exact, or all floats.

    Raises
    ------
    ValueError
        What :func:`as_list` refuses (a string, a set, ...), an entry
        :func:`to_number` refuses, and, in a list with a float, an exact entry outside
        the float64 range.

    References
    ----------
    docs/design.md, section Rationals and floats.

    Examples
    --------
    >>> from theory import to_numbers
    >>> to_numbers(["1/2", 3])
    [Fraction(1, 2), Fraction(3, 1)]
    >>> to_numbers(["1/2", 0.25])
    [0.5, 0.25]
    """
    vals = [to_number(x, name=name) for x in as_list(xs, name=name)]
    if any(isinstance(v, float) for v in vals):
        return [v if isinstance(v, float) else _check_range(v, v, name) for v in vals]
    return vals


def all_exact(xs: Iterable[object]) -> bool:
    """True when every entry is an exact rational (Fraction).

    Parameters
    ----------
    xs : list, tuple, range or array
        Numbers as read by :func:`to_number` (an ``int`` is not a Fraction here).

    Returns
    -------
    bool
        True when all entries are Fractions (also for an empty list).

    Raises
    ------
    ValueError
        What :func:`as_list` refuses (a string, a set, an iterator, ...).

    References
    ----------
    docs/design.md, section Rationals and floats.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from theory import all_exact
    >>> all_exact([Fraction(1, 2), Fraction(1)]), all_exact([Fraction(1, 2), 0.5])
    (True, False)
    """
    return all(isinstance(x, Fraction) for x in as_list(xs, name="values"))


def fits(load: Number, capacity: Number) -> bool:
    """``load <= capacity``: exact for Fractions, within :data:`FEASIBILITY_RTOL` otherwise.

    With a float on either side, ``load`` fits when ``load <= capacity * (1 +
    FEASIBILITY_RTOL)`` in float64 (compared exactly, with the same tolerance, when a
    Fraction is beyond the float range).

    Parameters
    ----------
    load : Fraction or float
        The summed demand on one resource of one server.
    capacity : Fraction or float
        That resource's capacity, in the same unit.

    Returns
    -------
    bool
        Whether the load fits.

    Raises
    ------
    ValueError
        When ``load`` or ``capacity`` is NaN, or is not a number.

    References
    ----------
    docs/design.md, section Rationals and floats; the perfect fit of PG21, Sec. VIII-C
    (proof of Prop. 2): ``(1/2 - e) + (1/2 + e)`` fits a unit server.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from theory import fits
    >>> e = Fraction(1, 10**6)
    >>> fits((Fraction(1, 2) - e) + (Fraction(1, 2) + e), Fraction(1))
    True
    >>> fits(Fraction(301, 1000), Fraction(3, 10))
    False
    >>> fits(0.1 + 0.2, 0.3)  # 0.30000000000000004, within the tolerance
    True
    """
    if isinstance(load, Fraction) and isinstance(capacity, Fraction):
        return load <= capacity
    try:
        lf, cf = float(load), float(capacity)
    except OverflowError:  # a Fraction beyond float64 against a float: compare exactly
        return Fraction(load) <= Fraction(capacity) * (1 + Fraction(FEASIBILITY_RTOL))
    except (TypeError, ValueError):
        to_number(load, name="load")
        to_number(capacity, name="capacity")
        raise
    if math.isnan(lf) or math.isnan(cf):
        raise ValueError(f"fits: load {load!r} and capacity {capacity!r} must not be NaN")
    return lf <= cf * (1.0 + FEASIBILITY_RTOL)


def common_denominator(xs: Sequence[Fraction]) -> int:
    """Least common multiple of the denominators of exact rationals (Fractions or ints).

    Parameters
    ----------
    xs : sequence of Fraction or int
        Exact rationals (numpy integers too).

    Returns
    -------
    int
        The least common denominator (1 for integers or an empty list).

    Raises
    ------
    ValueError
        For an entry that is not a Fraction or an integer (a float, a bool), and what
        :func:`as_list` refuses.

    References
    ----------
    docs/design.md, section Certificates (configurations are checked with integer
    sizes).

    Examples
    --------
    >>> from fractions import Fraction
    >>> from theory import common_denominator
    >>> common_denominator([Fraction(1, 4), Fraction(1, 6), 2])
    12
    """
    d = 1
    for x in as_list(xs, name="values"):
        if isinstance(x, bool) or not isinstance(x, Fraction | int | np.integer):
            raise ValueError(f"common_denominator needs exact rationals (Fractions or ints), "
                             f"got {short_repr(x)} ({type(x).__name__})")
        d = math.lcm(d, x.denominator if isinstance(x, Fraction) else 1)
    return d


def as_float(xs: Iterable[Number], *, name: str = "values") -> np.ndarray:
    """Float64 array of numbers (Fractions converted; overflow refused, see the docstring).

    Parameters
    ----------
    xs : list, tuple, range or array
        Numbers, each converted by :func:`to_float_checked`.
    name : str, default "values"
        What the list is, for the error messages.

    Returns
    -------
    numpy.ndarray
        A 1-d float64 array, one entry per number.

    Raises
    ------
    ValueError
        What :func:`as_list` or :func:`to_float_checked` refuses (NaN, infinities,
        values outside the float64 range, non-numbers).

    References
    ----------
    docs/design.md, section Rationals and floats.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from theory import as_float
    >>> as_float([Fraction(1, 4), 1, "0.5"])
    array([0.25, 1.  , 0.5 ])
    """
    return np.array([to_float_checked(x, name) for x in as_list(xs, name=name)], dtype=float)


def positive_int(x: object, *, name: str = "value", at_most: int | None = None) -> int:
    """A positive integer (a server count, a level), at most ``at_most`` if given.

    Bools and floats (even ``2.0``) are rejected.

    Parameters
    ----------
    x : object
        A Python or numpy integer.
    name : str, default "value"
        What the integer is, for the error message.
    at_most : int or None, default None
        The largest value allowed (no limit when None).

    Returns
    -------
    int
        ``x`` as a Python int.

    Raises
    ------
    ValueError
        When ``x`` is not an integer (a bool, a float, text), is below 1, or is above
        ``at_most``.

    References
    ----------
    docs/design.md, section Validation.

    Examples
    --------
    >>> from theory import positive_int
    >>> positive_int(3, name="servers")
    3
    >>> positive_int(2.0, name="servers")
    Traceback (most recent call last):
    ...
    ValueError: servers must be a positive integer, got 2.0
    >>> positive_int(5, name="level", at_most=4)
    Traceback (most recent call last):
    ...
    ValueError: level is 5, above the limit 4
    """
    if isinstance(x, bool | np.bool_) or not isinstance(x, int | np.integer) or x < 1:
        raise ValueError(f"{name} must be a positive integer, got {short_repr(x)}")
    if at_most is not None and x > at_most:
        raise ValueError(f"{name} is {short_repr(x)}, above the limit {at_most:,}")
    return int(x)


def server_count(x: object, *, name: str = "servers") -> int:
    """A number of servers: a positive integer up to 2^53.

    2^53 (:data:`MAX_EXACT_INT`) is the largest count exact in float64, which the LPs
    and simulators count in.

    Parameters
    ----------
    x : object
        A Python or numpy integer.
    name : str, default "servers"
        What the count is, for the error message.

    Returns
    -------
    int
        ``x`` as a Python int.

    Raises
    ------
    ValueError
        When ``x`` is not an integer (a bool, a float), is below 1, or is above 2^53.

    References
    ----------
    docs/design.md, section Rationals and floats (integers stay exact up to
    ``MAX_EXACT_INT``).

    Examples
    --------
    >>> from theory import server_count
    >>> server_count(10)
    10
    >>> server_count(2**53 + 1)
    Traceback (most recent call last):
    ...
    ValueError: servers is 9007199254740993, above the limit 9,007,199,254,740,992
    """
    return positive_int(x, name=name, at_most=MAX_EXACT_INT)
