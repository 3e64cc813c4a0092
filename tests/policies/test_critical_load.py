"""critical_load and the stability verdict on systems whose threshold is known exactly.

One server and one job size s = 1/k: a server holds at most k jobs, every policy that
keeps the server full when jobs wait is throughput-optimal, and rho* = k exactly. With
geometric service (mu = 0.05) the system is stable below rho* and unstable above it;
the simulated verdicts and the bisection bracket must agree on both sides.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from capacity import rho_star
from policies import (
    BFJS,
    FIFOFF,
    Cluster,
    critical_load,
    pg21_workload,
    reference_rho_star,
    simulate,
)
from theory.distributions import Discrete, Uniform

MU = 0.05
SLOTS = 200_000
KNOWN = [(["1"], 1.0), (["1/3"], 3.0)]


@pytest.mark.parametrize(("sizes", "rho"), KNOWN)
def test_reference_rho_star_single_size(sizes, rho):
    assert reference_rho_star(Discrete(sizes), 1) == pytest.approx(rho, rel=1e-9)
    # never below the exact value (fractions of it are then never overstated)
    assert reference_rho_star(Discrete(sizes), 1) >= rho


@pytest.mark.parametrize(("sizes", "probs", "servers", "capacity"), [
    (["1"], None, 1, 1.0),
    (["1/3"], None, 2, 1.0),
    (["0.4", "0.6"], ["1/2", "1/2"], 1, 1.0),
    (["2", "5"], ["2/3", "1/3"], 1, 10.0),
    (["2", "5"], ["2/3", "1/3"], 3, 10.0),
])
def test_reference_rho_star_equals_capacity_rho_star(sizes, probs, servers, capacity):
    d = Discrete(sizes, probs)
    ref = reference_rho_star(d, servers, capacity)
    exact = rho_star(d, servers=servers, capacity=Fraction(capacity))
    assert exact.certified and exact.lower == exact.upper  # exact inputs: exact rho*
    assert ref == float(exact.upper)
    assert ref == pytest.approx(float(exact.value), rel=1e-9)


def test_reference_rho_star_fig3_values():
    assert reference_rho_star(Discrete(["0.4", "0.6"]), 1) == pytest.approx(2.0, rel=1e-9)
    assert reference_rho_star(Discrete(["2", "5"], ["2/3", "1/3"]), 1, 10) == \
        pytest.approx(10 / 3, rel=1e-9)


def test_reference_rho_star_continuous():
    u = Uniform("0.1", "0.9")
    ref = reference_rho_star(u, 5)
    # Thm. 1 upper end, capped by Lemma 2 (L / R-bar = 10)
    assert 0 < ref <= 10 + 1e-9
    with pytest.raises(ValueError, match="capacity 1"):
        reference_rho_star(u, 5, capacity=10)


# -- simulated verdicts on both sides of the threshold ---------------------------------------


@pytest.mark.parametrize(("sizes", "rho"), KNOWN)
@pytest.mark.parametrize("policy", [BFJS(), FIFOFF()])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_verdicts_on_both_sides(sizes, rho, policy, seed):
    d = Discrete(sizes)
    one = Cluster.identical(1)
    below = pg21_workload(d, servers=1, slots=SLOTS, mu=MU, workload=0.8 * rho, seed=seed)
    above = pg21_workload(d, servers=1, slots=SLOTS, mu=MU, workload=1.2 * rho, seed=seed)
    rb = simulate(policy, below, one)
    ra = simulate(policy, above, one)
    assert rb.verdict == "stable", rb.stability
    assert ra.verdict == "unstable", ra.stability
    assert rb.invariants_ok and ra.invariants_ok
    # above rho* the queue grows at about (1 - 1/1.2) of the arriving work
    assert ra.stability.relative_drift == pytest.approx(1 - 1 / 1.2, abs=0.06)
    assert rb.final_queue < ra.final_queue


def test_capacity_units_known_threshold():
    """Capacity 10, one size 5: two jobs per server, rho* = 2 (same as size 1/2)."""
    d = Discrete(["5"])
    assert reference_rho_star(d, 1, 10) == pytest.approx(2.0, rel=1e-9)
    ten = Cluster.identical(1, 10.0)
    for frac, verdict in ((0.8, "stable"), (1.2, "unstable")):
        w = pg21_workload(d, servers=1, slots=SLOTS, capacity=10, mu=MU, workload=frac * 2,
                          seed=4)
        assert simulate(BFJS(), w, ten).verdict == verdict


# -- the bisection -------------------------------------------------------------------------------


@pytest.mark.parametrize(("sizes", "rho"), KNOWN)
def test_critical_load_brackets_the_known_threshold(sizes, rho):
    c = critical_load(BFJS(), Discrete(sizes), servers=1, mu=MU, lo=0.9, hi=1.3, tol=0.25,
                      slots=SLOTS, seed=1)
    assert c.rho_star == pytest.approx(rho, rel=1e-9)
    assert c.policy == "bf-js"
    assert 0.85 <= c.lower <= c.upper <= 1.15, c.as_dict()
    assert c.complete
    assert c.estimate == pytest.approx(0.5 * (c.lower + c.upper))
    assert c.uncertainty == pytest.approx(0.5 * (c.upper - c.lower))
    # the evidence: the end points were judged as the bracket says
    verdicts = {r["load"]: r["verdict"] for r in c.runs}
    assert verdicts[c.lower] == "stable" and verdicts[c.upper] == "unstable"
    assert all(r["invariants_ok"] for r in c.runs)
    assert all(r["slots"] >= SLOTS for r in c.runs)
    d = c.as_dict()
    assert {"policy", "lower", "upper", "estimate", "uncertainty", "rho_star", "complete",
            "runs"} <= set(d)


def test_critical_load_is_reproducible():
    kw = {"servers": 1, "mu": MU, "lo": 0.9, "hi": 1.3, "tol": 0.25, "slots": 50_000,
          "seed": 3}
    a = critical_load(BFJS(), Discrete(["1/3"]), **kw)
    b = critical_load(BFJS(), Discrete(["1/3"]), **kw)
    assert a.runs == b.runs and len(a.runs) >= 2
    np.testing.assert_equal((a.lower, a.upper), (b.lower, b.upper))


def test_critical_load_all_stable_or_all_unstable():
    d = Discrete(["1"])
    c = critical_load(BFJS(), d, mu=MU, lo=0.3, hi=0.6, slots=SLOTS, seed=0)
    assert c.lower == 0.6 and math.isnan(c.upper) and not c.complete
    assert len(c.runs) == 1
    c = critical_load(BFJS(), d, mu=MU, lo=1.3, hi=1.6, slots=SLOTS, seed=0)
    assert math.isnan(c.lower) and c.upper == 1.3 and not c.complete


def test_critical_load_explicit_rho_star():
    # telling it rho* = 2 for size-1 jobs (true rho* = 1) moves the bracket to ~1/2
    c = critical_load(BFJS(), Discrete(["1"]), mu=MU, rho_star=2.0, lo=0.3, hi=0.8, tol=0.25,
                      slots=SLOTS, seed=5)
    assert c.rho_star == 2.0
    assert 0.3 <= c.lower < c.upper <= 0.8
    assert c.lower <= 0.55 and c.upper >= 0.45


@pytest.mark.parametrize(("kw", "match"), [
    ({"lo": 1.0, "hi": 1.0}, "lo < hi"),
    ({"lo": 1.2, "hi": 0.8}, "lo < hi"),
    ({"lo": 0.0, "hi": 1.0}, "lo < hi"),
    ({"lo": -0.5, "hi": 1.0}, "lo < hi"),
    ({"tol": 0.0}, "tol must be positive"),
    ({"tol": -0.1}, "tol must be positive"),
    ({"tol": float("nan")}, "tol must be positive"),
    ({"rho_star": 0.0}, "rho\\* must be positive"),
    ({"rho_star": float("nan")}, "rho\\* must be positive"),
    ({"rho_star": float("inf")}, "rho\\* must be positive"),
    ({"slots": 30}, "too short to judge"),
])
def test_critical_load_validation(kw, match):
    with pytest.raises(ValueError, match=match):
        critical_load(BFJS(), Discrete(["1"]), mu=MU, **kw)


def test_critical_load_deterministic_service():
    """Deterministic service (mu ignored): size 1/2, D = 20 slots, rho* = 2."""
    c = critical_load(BFJS(), Discrete(["1/2"]), mu=MU, deterministic=20, lo=0.9, hi=1.3,
                      tol=0.25, slots=SLOTS, seed=2)
    assert c.rho_star == pytest.approx(2.0, rel=1e-9)
    assert 0.85 <= c.lower <= c.upper <= 1.15, c.as_dict()
    assert np.isfinite(c.lower) and np.isfinite(c.upper)
