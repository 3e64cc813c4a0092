"""Closed-form lower bounds on the optimal number of bins of a bin-packing instance.

Martello & Toth, *Knapsack Problems* (1990), ch. 8.3.1: the continuous bound L1 and
the bound L2, which no LP solve is needed for. Both are exact integers computed in
rational arithmetic. The LP bounds (Gilmore-Gomory) are in
:func:`capacity.supportable_workload.bin_packing_lp`.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from fractions import Fraction

from theory.numbers import Number, to_number, to_numbers

__all__ = ["continuous_bound", "martello_toth_l2"]


def _instance(weights: Sequence[object], capacity: object) -> tuple[list[Number], Number]:
    ws = to_numbers(weights, name="weights")
    if not ws:
        raise ValueError("a bin-packing instance needs at least one item")
    cap = to_number(capacity, name="capacity")
    if not cap > 0:
        raise ValueError(f"capacity must be positive, got {capacity!r}")
    bad = [w for w in ws if not 0 < w <= cap]
    if bad:
        raise ValueError(f"item weight {bad[0]} is not in (0, capacity = {cap}]")
    return ws, cap


def _ceil(x: Number) -> int:
    return math.ceil(x) if not isinstance(x, float) else math.ceil(x - 1e-9 * abs(x))


def continuous_bound(weights: Sequence[object], capacity: object) -> int:
    """L1 = ceil(sum_j w_j / C) (Martello & Toth 1990, eq. (8.9))."""
    ws, cap = _instance(weights, capacity)
    return _ceil(sum(ws, Fraction(0) if isinstance(cap, Fraction) else 0.0) / cap)


def martello_toth_l2(weights: Sequence[object], capacity: object) -> int:
    """L2 = max over 0 <= alpha <= C/2 of (Martello & Toth 1990, Thm. 8.3)

    .. math::
        |J_1| + |J_2| + \\max\\Big(0, \\Big\\lceil \\frac{\\sum_{J_3} w_j
        - (|J_2| C - \\sum_{J_2} w_j)}{C} \\Big\\rceil\\Big)

    with J_1 = {w > C - alpha}, J_2 = {C - alpha >= w > C/2}, J_3 = {C/2 >= w >= alpha}.
    L(alpha) changes only where alpha passes an item weight, so alpha runs over 0 and
    the distinct weights <= C/2; O(n log n). L2 >= L1 (alpha = 0).
    """
    ws, cap = _instance(weights, capacity)
    zero: Number = Fraction(0) if isinstance(cap, Fraction) else 0.0
    exact = [w for w in ws if isinstance(w, Fraction)]
    scale = (math.lcm(cap.denominator, *(w.denominator for w in exact))
             if isinstance(cap, Fraction) and len(exact) == len(ws) else 0)
    if 0 < scale < 2**64:
        # exact weights in integers over a common denominator: the same bound, without
        # the cost of Fraction arithmetic (0.3 s for 1,000 items); beyond 2^64 the
        # integers would cost more than the fractions
        ws = [int(w * scale) for w in exact]
        cap, zero = int(cap * scale), 0
    srt = sorted(ws)
    prefix = [zero]
    for w in srt:
        prefix.append(prefix[-1] + w)
    n = len(srt)

    def count_above(x: Number) -> int:  # items with w > x
        return n - bisect.bisect_right(srt, x)

    def sum_between(lo: Number, hi: Number) -> Number:  # of the w with lo <= w <= hi
        return prefix[bisect.bisect_right(srt, hi)] - prefix[bisect.bisect_left(srt, lo)]

    half = Fraction(cap, 2) if isinstance(cap, int) else cap / 2
    best = 0
    for alpha in [zero, *sorted({w for w in srt if w <= half})]:
        j1 = count_above(cap - alpha)
        above_half = count_above(half)
        j2 = above_half - j1
        s2 = (prefix[n - j1] - prefix[n - above_half]) if j2 else zero
        room = sum_between(alpha, half) - (j2 * cap - s2)
        extra = max(0, -(-room // cap) if isinstance(room, int) and isinstance(cap, int)
                    else _ceil(room / cap))
        best = max(best, j1 + j2 + extra)
    return best
