"""The one converter of results to JSON-ready data (docs/design.md, "JSON output").

Fractions and numpy scalars become floats, NaN and infinities ``None`` (JSON has
neither), arrays and tuples lists, dataclasses and objects with ``as_dict`` their
dictionaries; anything else its text. With ``exact=True`` (the checks' evidence) a
Fraction keeps its exact text ``"p/q"`` (an integral one an int) and a non-finite float
its name (``"inf"``, ``"-inf"``, ``"nan"``): the decisive number is read as computed.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any

__all__ = ["json_ready"]


def json_ready(x: Any, *, exact: bool = False) -> Any:
    """A copy of ``x`` that :func:`json.dumps` writes with ``allow_nan=False``."""
    import numpy as np  # here: the CLI's start-up imports no numpy

    if x is None or isinstance(x, bool | str | int):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else (str(x) if exact else None)
    if isinstance(x, Fraction):
        if exact:
            return x.numerator if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
        try:
            return json_ready(float(x))
        except OverflowError:
            return None
    if isinstance(x, np.generic):
        return json_ready(x.item(), exact=exact)
    if isinstance(x, np.ndarray):
        return json_ready(x.tolist(), exact=exact)
    if isinstance(x, dict):
        return {str(k): json_ready(v, exact=exact) for k, v in x.items()}
    if isinstance(x, list | tuple | set | frozenset):
        return [json_ready(v, exact=exact) for v in x]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return json_ready(dataclasses.asdict(x), exact=exact)
    if hasattr(x, "as_dict"):
        return json_ready(x.as_dict(), exact=exact)
    return str(x)
