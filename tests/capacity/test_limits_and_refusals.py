"""capacity/ and theory's combinatorics at their limits: bad input is a ValueError /
TypeError naming the problem (server-class spellings, numbers that overflow, wrong
containers), runaway work a BudgetExceeded, every reported upper end capped by Lemma 2,
and reprs short."""

import pytest

from capacity import CapacityRegion, ServerClass

# -- 1. server classes of CapacityRegion -------------------------------------------

def test_server_class_spellings():
    assert CapacityRegion([(2, 3), (5, 1)], [ServerClass((10, 10))]).servers == 1
    assert CapacityRegion([2, 5], [ServerClass(capacity=10, count=10)]).servers == 10
    assert CapacityRegion([2, 5], [(10, 10)]).servers == 10  # PG18 example, D = 1
    assert CapacityRegion([(2, 3), (5, 1)], [((10, 10), 3)]).servers == 3
    assert CapacityRegion([(2, 3, 1)], [(10, 10, 10)]).servers == 1
    assert CapacityRegion([(2, 3, 1)], [(10, 4)]).servers == 4
    assert CapacityRegion([2, 5], [10, 10]).servers == 2


@pytest.mark.parametrize("servers", [[(10, 10)], [[10, 10]]])
def test_flat_pair_for_two_resources_is_ambiguous(servers):
    with pytest.raises(ValueError, match=r"ambiguous.*ServerClass\(capacity=\(10, 10\), "
                       r"count=1\).*ServerClass\(capacity=10, count=10\)"):
        CapacityRegion([(2, 3), (5, 1)], servers)


@pytest.mark.parametrize("args, word", [
    (((10, 10), 0), "positive integer"), (((10, 10), True), "positive integer"),
    ((0,), "positive, got 0"), ((("1", "-2"),), "positive, got -2"),
    (([],), "flat list"), ((((1, 2), 3),), "flat list"), (("x",), "not a number"),
])
def test_server_class_validates(args, word):
    with pytest.raises(ValueError, match=word):
        ServerClass(*args)


@pytest.mark.parametrize("servers, word", [
    ([(10, 2.5)], "not a positive integer"), ([(10, 10, 3)], "neither"),
    (10, "write"), ("10", "write"), ([ServerClass((1, 2, 3))], "3 resources"),
])
def test_bad_server_entries(servers, word):
    with pytest.raises(ValueError, match=word):
        CapacityRegion([2, 5], servers)


# -- 2. Lemma 2 caps every reported upper end ---------------------------------------

def test_cap_by_lemma2_is_recorded_and_exact():
    from dataclasses import replace
    from fractions import Fraction

    from capacity import rho_star
    from capacity.result import cap_by_lemma2

    res = rho_star(["0.4", "0.6"])
    assert res.extra["lemma2_bound"] == 2 and res.extra["upper_from"] == "LP dual"
    loose = replace(res, lower=Fraction(1), upper=Fraction(5))
    capped = cap_by_lemma2(loose, Fraction(2))
    assert capped.upper == Fraction(2) and isinstance(capped.upper, Fraction)
    assert capped.extra["upper_from"] == "Lemma 2"
    assert cap_by_lemma2(loose, Fraction(1, 2)).upper == 5  # never below the lower end


def test_lemma2_cap_certifies_only_a_closed_interval():
    from dataclasses import replace
    from fractions import Fraction

    from capacity import rho_star
    from capacity.result import CERT_RTOL, cap_by_lemma2

    res = rho_star(["0.4", "0.6"])
    bound = Fraction(2)
    near = bound * (1 - Fraction(CERT_RTOL) / 2)
    loose = replace(res, lower=near, upper=Fraction(3), certified=False, message="wide")
    capped = cap_by_lemma2(loose, bound)
    assert capped.certified and capped.upper == bound
    assert "Lemma 2" in capped.message and capped.message.endswith("wide")
    # a lower end further than CERT_RTOL from the cap proves nothing more
    far = replace(loose, lower=bound * (1 - 3 * Fraction(CERT_RTOL)))
    assert not cap_by_lemma2(far, bound).certified
    # a failed primal check (lower end 0) is never certified by the cap
    assert not cap_by_lemma2(replace(loose, lower=Fraction(0)), Fraction(0)).certified
    # the cap does not apply when the dual end is already below it
    assert not cap_by_lemma2(loose, Fraction(4)).certified


def test_every_interval_is_within_lemma2():
    import random

    from capacity import bin_packing_lp, rho_star
    from capacity.reduced import rho_vqs
    from theory import Discrete

    rng = random.Random(3)
    sizes = [rng.uniform(0.3, 0.7) for _ in range(40)]
    res = rho_star(sizes, servers=2)
    assert res.upper <= res.extra["lemma2_bound"]
    bp = bin_packing_lp(sizes, 1)
    assert bp.upper <= bp.extra["lemma2_bound"] and "upper_from" in bp.extra
    v = rho_vqs(Discrete(["0.4", "0.6"]), 3)
    assert v.upper <= 2 and v.upper_from in ("Lemma 2", "LP dual")


# -- 3. numbers that overflow, wrong containers ---------------------------------------

def _vqs63():
    from capacity.reduced import rho_vqs
    from theory import Discrete
    return rho_vqs(Discrete(["0.4", "0.6"]), J=63)


def _call(name):
    from capacity import bin_packing_lp, rho_star
    from capacity.brackets import grid_bracket, quantile_brackets
    from theory import Discrete
    return {
        "vqs63": _vqs63,
        "tiny": lambda: rho_star([1e-30, 0.5]),
        "tiny-exact": lambda: rho_star(["1e-30", "0.5"]),
        "cap-1e400": lambda: rho_star(["0.4"], capacity="1e400"),
        "cap-10**400": lambda: rho_star(["0.4"], capacity=10**400),
        "bp-10**300": lambda: bin_packing_lp([3, 5, 7], 10**300),
        "cap0": lambda: rho_star(["0.4"], capacity=0),
        "bare-str": lambda: rho_star("0.4"),
        "bp-bare-str": lambda: bin_packing_lp("0.4", 1),
        "grid1": lambda: grid_bracket(Discrete(["0.4", "0.6"]), 1),
        "probs-str": lambda: rho_star(["0.4", "0.6"], "0.5"),
        "qb-list": lambda: quantile_brackets([0.4, 0.6], 2),
        "grid-list": lambda: grid_bracket([0.4, 0.6], 2),
    }[name]()


@pytest.mark.parametrize("name, exc, pattern", [
    ("vqs63", ValueError, r"J = 63 puts 2\^62 jobs.*at most 50"),
    ("tiny", ValueError, r"would hold about 1e\+30 jobs of size 1e-30.*at most 2\^36"),
    ("tiny-exact", ValueError, r"about 1e\+30 jobs of size 1e-30"),
    ("cap-1e400", ValueError, "capacity: '1e400' is too large"),
    ("cap-10**400", ValueError, r"capacity 10\^400 would hold"),
    ("bp-10**300", ValueError, r"capacity 10\^300 would hold"),
    ("cap0", ValueError, r"^capacity must be positive, got 0$"),
    ("bare-str", ValueError, r"write \['0.4'\]"),
    ("bp-bare-str", ValueError, r"weights must be a list.*write \['0.4'\]"),
    ("grid1", ValueError, "too coarse.*grid >= 2"),
    ("probs-str", ValueError, "probs must be a list"),
    ("qb-list", TypeError, r"pass Discrete\(\[0.4, 0.6\]\)"),
    ("grid-list", TypeError, r"size distribution.*pass Discrete"),
])
def test_overflow_and_wrong_containers(name, exc, pattern):
    with pytest.raises(exc, match=pattern):
        _call(name)


def test_small_sizes_within_the_limit_still_solve():
    from capacity import rho_star
    assert abs(rho_star([1e-9, 0.5, 0.3]).value - 3.6) < 1e-9


# -- 4. budgets before runaway work ---------------------------------------------------

def test_quantile_levels_refused_before_any_partition(monkeypatch):
    import capacity.brackets as br
    from theory import Uniform
    from theory.budgets import BudgetExceeded

    def boom(*a, **k):
        raise AssertionError("partition built")
    monkeypatch.setattr(br, "quantile_partition", boom)
    with pytest.raises(BudgetExceeded, match=r"X\^\(40\).*max_types=.*levels <= 14") as e:
        br.quantile_brackets(Uniform("0.1", "0.9"), 40)
    assert e.value.option == "max_types"
    with pytest.raises(BudgetExceeded, match="budget of 4 cells"):
        br.quantile_brackets(Uniform("0.1", "0.9"), 2, max_types=4)


def test_grid_bracket_counts_rounded_types():
    from capacity.brackets import grid_bracket
    from theory import Discrete
    from theory.budgets import BudgetExceeded

    d = Discrete([str(i / 1000) for i in range(1, 1000)])
    with pytest.raises(BudgetExceeded, match="grid 1/1000000.*max_types="):
        grid_bracket(d, 10**6, max_types=100)
    b = grid_bracket(Discrete(["0.4", "0.6", "0.33", "0.123"]), 10**9)
    assert b.lo <= b.hi


@pytest.mark.parametrize("sizes", [["1e-9"], ["0.01"] * 3000])
def test_configurations_refused_from_a_lower_bound(sizes):
    import time

    from theory.budgets import BudgetExceeded
    from theory.configurations import feasible_configurations, maximal_configurations

    t = time.perf_counter()
    with pytest.raises(BudgetExceeded, match="at least .* max_configurations="):
        feasible_configurations(sizes)
    with pytest.raises(BudgetExceeded, match="max_configurations="):
        maximal_configurations(sizes, max_configurations=10)
    assert time.perf_counter() - t < 2


def test_configurations_budget_counts_visited_and_is_lazy():
    from theory.budgets import BudgetExceeded
    from theory.configurations import feasible_configurations, iter_configurations

    n = len(feasible_configurations(["0.1", "0.15", "0.2"]))
    with pytest.raises(BudgetExceeded, match=f"more than {n - 1:,}"):
        feasible_configurations(["0.1", "0.15", "0.2"], max_configurations=n - 1)
    it = iter_configurations(["1e-6"])
    assert next(it) == [1] and next(it) == [2]


def test_budget_keywords_pass_through():
    from capacity import CapacityRegion, bin_packing_lp, rho_star
    from capacity.reduced import rho_vqs
    from theory import Discrete, Uniform
    from theory.budgets import BudgetExceeded

    with pytest.raises(BudgetExceeded, match="3 job types.*max_types="):
        rho_star(["0.2", "0.3", "0.4"], max_types=2)
    with pytest.raises(BudgetExceeded, match="max_configurations="):
        rho_star(["0.01", "0.02"], method="enumerate", max_configurations=5)
    assert rho_star(["0.01", "0.02"], max_configurations=5).certified  # auto falls back
    with pytest.raises(BudgetExceeded, match="max_types="):
        bin_packing_lp([3, 4, 5], 10, max_types=1)
    with pytest.raises(BudgetExceeded, match="max_types="):
        rho_vqs(Discrete(["0.4", "0.6"]), 3, max_types=1)
    with pytest.raises(BudgetExceeded, match="max_types="):
        rho_vqs(Uniform("0.1", "0.9"), 3, levels=20)
    with pytest.raises(BudgetExceeded, match="max_configurations="):
        CapacityRegion([1, 2], [100]).maximal_configurations(max_configurations=3)
    with pytest.raises(BudgetExceeded, match="max_types="):
        CapacityRegion([1, 2], [100]).max_scaling([1, 1], max_types=1)


# -- 5. short reprs -------------------------------------------------------------------

def test_reprs_are_short():
    import random

    from capacity import rho_star
    from capacity.brackets import grid_bracket
    from theory import Discrete

    rng = random.Random(5)
    sizes = [rng.uniform(0.05, 0.95) for _ in range(300)]
    r = repr(rho_star(sizes))
    assert r.startswith("CapacityResult(value=") and "types=300" in r and len(r) < 200
    b = repr(grid_bracket(Discrete(sizes), 100))
    assert b.startswith("Bracket(grid(1/100), interval=[") and len(b) < 250
