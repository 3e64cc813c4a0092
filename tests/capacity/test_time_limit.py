"""``capacity.time_limit``: a computation stopped at its limit keeps a proven interval and
says it stopped."""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np
import pytest

from capacity import expired, rho_star, time_limit
from capacity.brackets import quantile_brackets
from capacity.result import CapacityResult
from theory.distributions import Discrete, Uniform


def _many_sizes(n: int = 300, seed: int = 3) -> Discrete:
    rng = np.random.default_rng(seed)
    sizes = sorted({Fraction(int(x), 10_000) for x in rng.integers(500, 6000, n)})
    return Discrete(sizes, [Fraction(1, len(sizes))] * len(sizes))


def test_a_stopped_lp_keeps_a_proven_interval():
    dist = _many_sizes()
    exact = rho_star(dist)
    with time_limit(1e-9):
        cut = rho_star(dist)
    assert cut.status == "time_limit" and cut.extra["stopped_at_time_limit"]
    assert float(cut.lower) <= float(exact.value) * (1 + 1e-9)
    assert float(cut.upper) >= float(exact.value) * (1 - 1e-9)
    d = cut.to_dict("rho_star")
    assert d["status"] == "time_limit" and "time limit" in d["certificate"]["message"]


def test_a_stopped_bracket_is_shorter_and_still_proven():
    dist = Uniform(Fraction(1, 100), Fraction(19, 100))
    t0 = time.perf_counter()
    with time_limit(0.5):
        brs = quantile_brackets(dist, 12, servers=5)
    assert time.perf_counter() - t0 < 60
    assert len(brs) < 13  # X^(12) alone is 8,192 types: not reached in 0.5 s
    # each stopped level's interval holds rho*: it meets the same level solved in full
    full = quantile_brackets(dist, len(brs) - 1, servers=5)
    for cut, done in zip(brs, full, strict=True):
        assert float(cut.lo) <= float(done.hi) * (1 + 1e-9)
        assert float(cut.hi) >= float(done.lo) * (1 - 1e-9)
        assert float(cut.lo) <= float(cut.hi)


def test_limits_nest_and_are_validated():
    with time_limit(100):
        with time_limit(1e-9):
            assert expired()
        assert not expired()
    assert not expired()
    for bad in (0, -1, float("nan"), float("inf"), "5", True):
        with pytest.raises(ValueError, match="time_limit"), time_limit(bad):  # type: ignore[arg-type]
            pass


def test_an_uncertified_answer_never_says_optimal():
    res = rho_star(Discrete([Fraction(2, 5), Fraction(3, 5)], [Fraction(1, 2)] * 2))
    assert res.to_dict()["status"] == "optimal" and res.to_dict()["uncertified_reason"] is None
    fake = CapacityResult(**{**res.__dict__, "certified": False, "message": "prices fail"})
    d = fake.to_dict()
    assert d["status"] == "solved_uncertified" and d["uncertified_reason"] == "prices fail"


def test_an_enclosing_limit_bounds_the_offline_programs_too():
    from capacity import p1_optimum
    from theory.job_sets import JobSet, Machines

    jobs = JobSet(arrival=[0, 0, 1], processing=[2, 3, 1], demand=[[1], [2], [1]])
    assert p1_optimum(jobs, Machines([[2]]), 1).status == "optimal"
    with time_limit(1e-9):
        cut = p1_optimum(jobs, Machines([[2]]), 1)
    assert cut.status == "time_limit" and cut.lower <= cut.upper
