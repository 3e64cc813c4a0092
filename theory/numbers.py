"""Exact and floating numbers: how sizes, capacities and probabilities are read.

The papers' counterexamples depend on perfect fits (PG21 Prop. 2: ``(1/2 - e) +
(1/2 + e) = 1``), so inputs given as :class:`fractions.Fraction`, ``int`` or decimal
strings (``"0.4"``) are kept as exact rationals. Python floats are kept as floats and
compared with the one documented tolerance :data:`FEASIBILITY_RTOL`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from numbers import Rational

import numpy as np

__all__ = [
    "FEASIBILITY_RTOL",
    "Number",
    "to_number",
    "to_numbers",
    "all_exact",
    "fits",
    "common_denominator",
    "as_float",
    "positive_int",
]

#: Relative tolerance for deciding ``sum(k_i * s_i) <= capacity`` with float inputs:
#: a load ``x`` fits a capacity ``c`` when ``x <= c * (1 + FEASIBILITY_RTOL)``.
#: With exact (rational) inputs the comparison is exact and no tolerance is used.
FEASIBILITY_RTOL = 1e-9

Number = Fraction | float


def to_number(x: object, *, name: str = "value") -> Number:
    """Read one number: ``Fraction``/``int``/decimal string -> Fraction, float -> float.

    Raises ``ValueError`` for NaN, infinities and text that is not a number.
    """
    if isinstance(x, bool):
        raise ValueError(f"{name} must be a number, got a bool")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int | np.integer):
        return Fraction(int(x))
    if isinstance(x, Rational):
        # numerator/denominator of a foreign Rational (e.g. gmpy2.mpq) may be
        # integer-like objects rather than ints: normalise them to int
        return Fraction(int(x.numerator), int(x.denominator))
    if isinstance(x, str):
        s = x.strip()
        try:
            return Fraction(s)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{name}: {x!r} is not a number") from None
    if isinstance(x, float | np.floating):
        v = float(x)
        if not math.isfinite(v):
            raise ValueError(f"{name} must be finite, got {v}")
        return v
    raise ValueError(f"{name}: cannot read {x!r} ({type(x).__name__}) as a number")


def to_numbers(xs: Iterable[object], *, name: str = "values") -> list[Number]:
    """Read a sequence; if any entry is a float, all are converted to float."""
    vals = [to_number(x, name=name) for x in xs]
    if any(isinstance(v, float) for v in vals):
        return [float(v) for v in vals]
    return vals


def all_exact(xs: Iterable[object]) -> bool:
    """True when every entry is an exact rational (Fraction)."""
    return all(isinstance(x, Fraction) for x in xs)


def fits(load: Number, capacity: Number) -> bool:
    """``load <= capacity``: exact for Fractions, within :data:`FEASIBILITY_RTOL` otherwise."""
    if isinstance(load, Fraction) and isinstance(capacity, Fraction):
        return load <= capacity
    return float(load) <= float(capacity) * (1.0 + FEASIBILITY_RTOL)


def common_denominator(xs: Sequence[Fraction]) -> int:
    """Least common multiple of the denominators of exact rationals."""
    d = 1
    for x in xs:
        d = math.lcm(d, x.denominator)
    return d


def as_float(xs: Iterable[Number]) -> np.ndarray:
    """Float64 array of numbers (Fractions converted)."""
    return np.array([float(x) for x in xs], dtype=float)


def positive_int(x: object, *, name: str = "value") -> int:
    """A positive integer (a server count, a level): bools and floats are rejected."""
    if isinstance(x, bool) or not isinstance(x, int | np.integer) or x < 1:
        raise ValueError(f"{name} must be a positive integer, got {x!r}")
    return int(x)
