"""The exact rational knapsack obeys the time limit (the exact rho* path used to run past
``--time-limit`` for minutes inside one exponential search)."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from capacity import rho_star, time_limit
from capacity.knapsack import KnapsackTimeLimit, knapsack_exact


def _hard_instance(n: int = 30):
    """Values almost proportional to the sizes: the bound prunes almost nothing (more
    than 3 s of search here)."""
    import random

    rng = random.Random(1)
    sizes = [[Fraction(rng.randint(500, 3000), 100003), Fraction(rng.randint(500, 3000), 100019)]
             for _ in range(n)]
    values = [s[0] + s[1] + Fraction(rng.randint(0, 3), 10**7) for s in sizes]
    return values, sizes, [Fraction(1), Fraction(1)]


def test_knapsack_exact_stops_once_the_limit_has_passed():
    values, sizes, cap = _hard_instance()
    t0 = time.perf_counter()
    with time_limit(0.2), pytest.raises(KnapsackTimeLimit):
        knapsack_exact(values, sizes, cap)
    assert time.perf_counter() - t0 < 5


def test_knapsack_exact_without_a_limit_still_answers():
    v, k = knapsack_exact([Fraction(3), Fraction(2)], [[Fraction(1, 2)], [Fraction(1, 3)]],
                          [Fraction(1)])
    assert (v, k) == (Fraction(6), [2, 0])


def test_rho_star_on_many_small_vector_sizes_ends_at_its_time_limit():
    from theory.readers.trace_names import trace_size_law

    law = trace_size_law("google2019:c:vector:first=20").dist
    cap = (Fraction("0.25927734375"), Fraction("0.166748046875"))
    t0 = time.perf_counter()
    with time_limit(2.0):
        r = rho_star(law, capacity=cap)
    took = time.perf_counter() - t0
    assert took < 8, f"{took:.1f} s under a 2 s limit"
    assert r.status == "time_limit" and not r.certified
    assert r.lower <= r.upper
