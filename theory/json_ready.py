"""The one converter of results to JSON-ready data (docs/design.md, "CLI contract").

Fractions and numpy scalars become floats, NaN and infinities ``None`` (JSON has
neither), arrays and tuples lists, dataclasses and objects with ``as_dict`` their
dictionaries; anything else its text.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any

__all__ = ["json_ready"]


def json_ready(x: Any) -> Any:
    """A copy of ``x`` that :func:`json.dumps` writes with ``allow_nan=False``."""
    import numpy as np  # here: the CLI's start-up imports no numpy

    if x is None or isinstance(x, bool | str | int):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, Fraction):
        try:
            return json_ready(float(x))
        except OverflowError:
            return None
    if isinstance(x, np.generic):
        return json_ready(x.item())
    if isinstance(x, np.ndarray):
        return json_ready(x.tolist())
    if isinstance(x, dict):
        return {str(k): json_ready(v) for k, v in x.items()}
    if isinstance(x, list | tuple | set | frozenset):
        return [json_ready(v) for v in x]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return json_ready(dataclasses.asdict(x))
    if hasattr(x, "as_dict"):
        return json_ready(x.as_dict())
    return str(x)
