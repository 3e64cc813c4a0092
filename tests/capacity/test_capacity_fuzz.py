"""Fuzz of the public API of ``capacity`` and the combinatorics of ``theory``.

rho_star, bin_packing_lp, CapacityRegion (contains, max_scaling), ServerClass, the
brackets, rho_vqs, the knapsacks and feasible_configurations are called with bad values
(strings, NaN, inf, negatives, 0, 1e-30, 1e300, None, bools, nested lists, empty lists,
wrong dimensions) mixed with good ones. Each call returns or raises ``ValueError`` /
``TypeError`` with a non-empty message within a few seconds; anything else fails.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from capacity import (
    CapacityRegion,
    ServerClass,
    bin_packing_lp,
    knapsack_bb,
    knapsack_dp,
    rho_star,
)
from capacity.brackets import grid_bracket, quantile_brackets
from capacity.reduced import rho_vqs
from theory import Discrete, Uniform
from theory.configurations import feasible_configurations

FAST = settings(max_examples=100, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
LONG = settings(max_examples=1500, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SECONDS = 10

ATOMS: list[Any] = [
    "0.4", "0.6", "1/2", "1", "0", "-1", "abc", "", "nan", "inf", "1e400", "1e-400", "1e-30",
    "1e300", 0.0, -0.0, 0.4, 0.5, 1.0, 2.0, 10.0, -1.0, 1e-30, 1e-300, 1e300,
    float("nan"), float("inf"), float("-inf"), 0, 1, 2, 3, 10, -1, 2**53 + 1, 10**30,
    10**300, 10**400, None, True, False, F(2, 5), F(1, 10**400), np.float64(0.3),
    np.int64(2), np.bool_(True), np.array(0.4), (), [], [[]], [[[0.4]]], {}, {0.4},
    b"0.4", object(),
]
atoms = st.sampled_from(ATOMS)
bad = st.recursive(atoms, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                  st.tuples(inner, inner)), max_leaves=8)
nice = st.sampled_from(["0.4", "0.6", "1/3", 0.25, 0.7, F(1, 5), 1])
sizes_like = st.one_of(bad, st.lists(nice, min_size=1, max_size=4),
                       st.lists(st.tuples(nice, nice), min_size=1, max_size=3))
number = st.one_of(atoms, nice)
DISTS = [Discrete(["0.4", "0.6"]), Discrete([0.25, 0.5], [0.5, 0.5]),
         Discrete([("0.1", "0.2"), ("0.3", "0.1")]), Uniform("0.1", "0.9")]
dists = st.one_of(st.sampled_from(DISTS), bad)
ints = st.one_of(st.integers(-3, 12), atoms)


class _TooSlow(Exception):
    pass


def _alarm(_sig: int, _frame: object) -> None:
    raise _TooSlow(f"a call ran longer than {SECONDS} s")


def check(fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    """Call ``fn``: success, or ValueError/TypeError with a message, within SECONDS."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SECONDS)
    try:
        return fn(*args, **kw)
    except (ValueError, TypeError) as e:
        assert str(e).strip(), f"{type(e).__name__} without a message"
        return None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _region(sizes: Any, servers: Any, w: Any) -> None:
    R = check(CapacityRegion, sizes, servers)
    if R is not None:
        check(R.contains, w)
        check(R.max_scaling, w)


CASES: dict[str, Callable[[st.DataObject], None]] = {
    "rho_star": lambda d: check(rho_star, d.draw(sizes_like), d.draw(st.one_of(
        st.just(None), bad)), servers=d.draw(ints), capacity=d.draw(st.one_of(number, bad)),
        method=d.draw(st.sampled_from(["auto", "enumerate", "column-generation", "x"]))),
    "bin_packing_lp": lambda d: check(bin_packing_lp, d.draw(sizes_like),
                                      d.draw(st.one_of(number, bad))),
    "region": lambda d: _region(d.draw(sizes_like), d.draw(st.one_of(
        bad, st.lists(st.one_of(number, st.tuples(number, ints)), min_size=1, max_size=3))),
        d.draw(st.one_of(bad, st.lists(number, min_size=1, max_size=3)))),
    "ServerClass": lambda d: check(ServerClass, d.draw(st.one_of(number, bad)),
                                   d.draw(ints)),
    "quantile_brackets": lambda d: check(quantile_brackets, d.draw(dists),
                                         d.draw(st.one_of(st.integers(-1, 4), atoms)),
                                         servers=d.draw(ints)),
    "grid_bracket": lambda d: check(grid_bracket, d.draw(dists), d.draw(st.one_of(
        st.sampled_from([1, 2, 10, 1000, 10**9, 10**400]), atoms)), servers=d.draw(ints)),
    "rho_vqs": lambda d: check(rho_vqs, d.draw(dists), d.draw(st.one_of(
        st.integers(-1, 70), atoms)), servers=d.draw(ints), levels=d.draw(st.one_of(
            st.integers(-1, 5), atoms))),
    "knapsack_bb": lambda d: check(knapsack_bb, d.draw(sizes_like), d.draw(sizes_like),
                                   d.draw(st.one_of(number, bad))),
    "knapsack_dp": lambda d: check(knapsack_dp, d.draw(sizes_like), d.draw(sizes_like),
                                   d.draw(st.one_of(number, bad))),
    "feasible_configurations": lambda d: check(feasible_configurations, d.draw(sizes_like),
                                               d.draw(st.one_of(number, bad)),
                                               maximal=d.draw(st.booleans())),
}


@pytest.mark.parametrize("name", sorted(CASES))
@FAST
@given(data=st.data())
def test_bad_values(name: str, data: st.DataObject) -> None:
    CASES[name](data)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
@LONG
@given(data=st.data())
def test_bad_values_long(name: str, data: st.DataObject) -> None:
    CASES[name](data)
