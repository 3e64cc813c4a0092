"""When a configuration-LP answer counts as certified: the one rule every path applies.

A certificate proves an interval ``lower <= t* <= upper`` (weak duality,
:mod:`capacity.certificate`; PG21 Lemma 2 for an upper end, :mod:`capacity.result`).
The answer is *certified*, i.e. its optimum proven, when both ends were proven and the
interval is narrower than :data:`CERT_RTOL`. How the solver stopped matters: stopped at
a caller's target it sought a lower bound, not the optimum; stopped at the time limit
or with the pricing search over its budget, the width is measured against ``upper``
itself, not ``max(1, upper)``. (STYLE anchor 4: don't trust the solver; check its
answer again.)
"""

from __future__ import annotations

import math
from typing import Literal

from theory.numbers import Number

__all__ = ["CERT_RTOL", "Stop", "is_certified"]

#: Relative width below which a certified interval [lower, upper] counts as a proof
#: of the optimum (re-exported by :mod:`capacity.result` and :mod:`capacity.certificate`).
CERT_RTOL = 1e-7

#: Why a solve ended before its own optimality test: at the caller's target, at the
#: time limit (:func:`capacity.deadline.time_limit`), or with the exact pricing search
#: over its budget.
Stop = Literal["target", "time_limit", "pricing_budget"]


def is_certified(lower: Number, upper: Number, *, checks_passed: bool,
                 stopped: Stop | None = None) -> bool:
    """Is the optimum proven by the interval ``[lower, upper]``?

    ``checks_passed``: both ends were re-checked (the primal mixture and the dual
    prices, in exact arithmetic for rational data, or the exact rational optimum). Then
    the answer is certified when ``upper`` is finite and ``upper - lower`` is at most
    ``CERT_RTOL * max(1, upper)``; ``CERT_RTOL * upper`` when the solve ``stopped`` at
    the time limit or the pricing budget; never when it stopped at a target.
    """
    if not checks_passed or stopped == "target":
        return False
    hi = float(upper)
    if not math.isfinite(hi):
        return False
    scale = hi if stopped is not None else max(1.0, hi)
    return hi - float(lower) <= CERT_RTOL * scale
