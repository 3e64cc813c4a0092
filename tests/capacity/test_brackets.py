"""capacity.brackets: PG21 Theorem 1 brackets rho*_up-rounded(X) <= rho* <= rho*_down(X)
over the quantile partitions X^(n) (Sec. VIII-A), and identity (40)-(41).

Known facts used: Lemma 2 (rho* <= L / R-bar); for Uniform[0.1, 0.9] sizes x and 1 - x
pair up perfectly, so rho* = L / R-bar = 2 L; for a discrete F_R the atoms are singleton
cells, so both roundings are the identity and the bracket collapses onto rho*.
"""

from fractions import Fraction as F

import pytest

from capacity import rho_star
from capacity.brackets import grid_bracket, partition_bracket, quantile_brackets, rounded_rho_star
from theory import Discrete, Uniform, from_spec
from theory.bounds import lower_from_upper_quantile, quantile_bracket_gap
from theory.partitions import partition_from_cuts, quantile_partition

MIXTURE = "mixture:1/2*discrete:0.3@1/2,0.55@1/2+1/2*uniform:0.1,0.9"
LEVELS = 5
#: a bracket's bounds are certified LP bounds; comparisons across levels allow this slack
MONO_RTOL = 1e-9


def check_monotone(brackets, mean, servers=1):
    lo = [float(b.lo) for b in brackets]
    hi = [float(b.hi) for b in brackets]
    gaps = [b.gap for b in brackets]
    for b in brackets:
        assert b.certified
        assert float(b.lo) <= float(b.hi)
        assert float(b.lo) <= servers / float(mean) * (1 + 1e-12)  # Lemma 2
    for a, b in zip(lo, lo[1:], strict=False):
        assert b >= a * (1 - MONO_RTOL)
    for a, b in zip(hi, hi[1:], strict=False):
        assert b <= a * (1 + MONO_RTOL)
    for a, b in zip(gaps, gaps[1:], strict=False):
        assert b <= a + MONO_RTOL
    assert gaps[-1] < gaps[0]
    return lo, hi


def test_uniform_01_09_brackets():
    d = Uniform("0.1", "0.9")
    bs = quantile_brackets(d, LEVELS)
    assert len(bs) == LEVELS + 1
    lo, hi = check_monotone(bs, d.mean())
    # rho* = 2 (Lemma 2 bound attained by pairing x with 1 - x)
    assert all(a <= 2 * (1 + 1e-12) and b >= 2 * (1 - 1e-12) for a, b in zip(lo, hi, strict=True))
    assert bs[-1].gap < 0.05
    # the partitions refine each other
    for a, b in zip(bs, bs[1:], strict=False):
        assert b.partition.refines(a.partition)


def test_uniform_001_019_brackets():
    """Small sizes (PG21 VII-A.3, first experiment); column generation keeps it fast."""
    d = Uniform("0.01", "0.19")
    bs = [partition_bracket(d, quantile_partition(d, n), method="column-generation")
          for n in range(LEVELS + 1)]
    lo, hi = check_monotone(bs, d.mean())
    assert lo[-1] <= 10 * (1 + 1e-12)  # Lemma 2: L / R-bar = 10
    assert bs[-1].gap < 0.05


def test_mixture_with_atoms_brackets():
    d = from_spec(MIXTURE)
    bs = quantile_brackets(d, LEVELS)
    check_monotone(bs, d.mean())
    # the atoms are kept as singleton cells at every level
    for b in bs:
        cells = [c for c in b.partition.cells if c.lo == c.hi]
        assert {float(c.lo) for c in cells} >= {0.3, 0.55}


@pytest.mark.parametrize("servers", [1, 3])
def test_brackets_scale_with_servers(servers):
    d = Uniform("0.1", "0.9")
    one = quantile_brackets(d, 2)
    many = quantile_brackets(d, 2, servers=servers)
    for a, b in zip(one, many, strict=True):
        assert float(b.lo) == pytest.approx(servers * float(a.lo), rel=1e-9)
        assert float(b.hi) == pytest.approx(servers * float(a.hi), rel=1e-9)


@pytest.mark.parametrize("spec", ["discrete:0.3@1/2,0.55@1/2", "discrete:0.4,0.6",
                                  "discrete:0.2@1/3,0.35@1/3,0.7@1/3", "point:0.45"])
def test_discrete_bracket_collapses_to_rho_star(spec):
    d = from_spec(spec)
    ref = rho_star(d)
    for b in quantile_brackets(d, 3):
        assert b.lower.value == pytest.approx(ref.value, rel=1e-12)
        assert b.upper.value == pytest.approx(ref.value, rel=1e-12)
        assert b.lo <= ref.upper and ref.lower <= b.hi
        assert b.gap <= 1e-7
        assert b.lower.exact_check and b.upper.exact_check


def test_rounding_sides_on_a_coarse_partition():
    """Cuts 0, 1/2, 1 on Uniform[0.1, 0.9]: up-rounded sizes 1/2 and 1 (prob 1/2 each),
    down-rounded size 1/2 only (the cell at 0 is dropped): rho = 4/3 and 4 on one server."""
    d = Uniform("0.1", "0.9")
    X = partition_from_cuts([0, "1/2", 1])
    up = rounded_rho_star(d, X, "up")
    down = rounded_rho_star(d, X, "down")
    assert up.lower <= F(4, 3) <= up.upper
    assert down.lower <= 4 <= down.upper
    b = partition_bracket(d, X)
    assert b.lo == up.lower
    # the upper end is the lower-rounded LP, capped by Lemma 2 (L / R-bar = 2 here)
    assert b.hi == min(down.upper, 2)
    assert b.lo <= 2 <= b.hi  # rho* = 2


# ------------------------------------------------------------------ identity (40)-(41)


@pytest.mark.parametrize("servers", [1, 5])
@pytest.mark.parametrize("spec", ["uniform:0.1,0.9", "uniform:0.01,0.19", "beta:2,3"])
def test_identity_40_41_for_continuous_distributions(spec, servers):
    """PG21 (40): rho_low(X^(n)) = rho_up / (1 - rho_up / (L m)), m = 2^(n+1), for the
    paper's X^(n) with outer cut points 0 and 1 (tight=False); (41) follows."""
    d = from_spec(spec)
    levels = 3 if spec == "uniform:0.01,0.19" else 4
    for n in range(levels + 1):
        X = quantile_partition(d, n, tight=False)
        assert len(X) == 2 ** (n + 1)
        b = partition_bracket(d, X, servers=servers, method="column-generation")
        m = 2 ** (n + 1)
        r_up, r_low = b.lower.value, b.upper.value
        assert r_low == pytest.approx(float(lower_from_upper_quantile(r_up, servers, m)),
                                      rel=1e-9)
        assert r_low - r_up == pytest.approx(float(quantile_bracket_gap(r_low, servers, m)),
                                             rel=1e-7, abs=1e-9)


def test_tight_partitions_give_narrower_brackets():
    d = Uniform("0.1", "0.9")
    for n in range(3):
        loose = partition_bracket(d, quantile_partition(d, n, tight=False))
        tight = partition_bracket(d, quantile_partition(d, n, tight=True))
        assert float(tight.lo) >= float(loose.lo) * (1 - 1e-12)
        assert float(tight.hi) <= float(loose.hi) * (1 + 1e-12)


def test_early_stop_with_rtol():
    bs = quantile_brackets(Uniform("0.1", "0.9"), 8, rtol=0.2)
    assert bs[-1].gap <= 0.2
    assert all(b.gap > 0.2 for b in bs[:-1])


def test_as_dict_fields():
    b = quantile_brackets(Uniform("0.1", "0.9"), 1)[-1]
    d = b.as_dict()
    assert d["lower"] <= d["upper"] and d["certified"] is True and d["cells"] == 4


@pytest.mark.slow
def test_auto_method_is_not_slower_than_column_generation():
    import time

    d = Uniform("0.01", "0.19")
    X = quantile_partition(d, 2)
    t0 = time.perf_counter()
    auto = rounded_rho_star(d, X, "down", method="auto")
    t_auto = time.perf_counter() - t0
    t0 = time.perf_counter()
    cg = rounded_rho_star(d, X, "down", method="column-generation")
    t_cg = time.perf_counter() - t0
    assert auto.value == pytest.approx(cg.value, rel=1e-9)
    assert t_auto < 5.0 + 50 * t_cg


def test_grid_bracket_contains_the_exact_rho_star():
    from capacity import rho_star
    from capacity.brackets import grid_bracket
    from theory import Discrete

    d = Discrete(["0.123", "0.3457", "0.61"], ["1/3", "1/3", "1/3"])
    exact = rho_star(d).value
    for G in (10, 100, 1000):
        b = grid_bracket(d, G, servers=2)
        lo, hi = b.lower, b.upper
        assert lo.certified and hi.certified and b.certified
        assert float(lo.lower) <= 2 * exact * (1 + 1e-9)
        assert float(hi.upper) >= 2 * exact * (1 - 1e-9)
        assert float(b.lo) <= 2 * exact * (1 + 1e-9) <= float(b.hi) * (1 + 2e-9)


def test_grid_partition_bracket_of_a_uniform():
    from capacity.brackets import partition_bracket
    from theory.partitions import grid_partition

    d = Uniform("0.1", "0.9")
    b = partition_bracket(d, grid_partition(50, *d.support()), servers=5)
    assert b.certified and float(b.lo) <= 10 <= float(b.hi) + 1e-12


def test_grid_bracket_of_a_law_with_a_density_is_the_grid_partition_bracket():
    from capacity.brackets import grid_bracket, partition_bracket
    from theory.budgets import BudgetExceeded
    from theory.partitions import grid_partition

    d = Uniform("0.15", "0.85")
    b = grid_bracket(d, 40, servers=2)
    ref = partition_bracket(d, grid_partition(40, *d.support()), servers=2)
    assert (b.lo, b.hi) == (ref.lo, ref.hi) and float(b.lo) <= 4 <= float(b.hi)
    # 28 cells cover (0.15, 0.85] on the grid 1/40; one fewer is over budget
    grid_bracket(d, 40, max_types=28)
    with pytest.raises(BudgetExceeded, match="28 cells"):
        grid_bracket(d, 40, max_types=27)


@pytest.mark.parametrize("rounding", ["up", "down"])
def test_beta_level5_is_certified(rounding):
    """Regression: on Beta(2, 5)'s X^(5) warm-started HiGHS duals let a column already in
    the master price above them, column generation stopped and the certificate showed a
    3.6e-4 gap (PG21.Thm1 full mode was violated); the master is now re-solved from
    scratch with tight tolerances before stopping."""
    from theory.distributions import beta

    res = rounded_rho_star(beta(2, 5), quantile_partition(beta(2, 5), 5), rounding, servers=2)
    assert res.certified, res.message


@pytest.mark.parametrize("spec,servers", [("uniform:0.1,0.9", 1), ("uniform:0.01,0.19", 5),
                                          (MIXTURE, 2), ("beta:2,5", 1)])
def test_warm_started_levels_agree_with_cold_ones(spec, servers):
    """quantile_brackets starts each level from the one before (columns, prices); the
    reference is each level solved on its own: same LP optima to 1e-9, both certified."""
    dist = from_spec(spec)
    warm = quantile_brackets(dist, 4, servers=servers)
    for n, b in enumerate(warm):
        cold = partition_bracket(dist, quantile_partition(dist, n), servers=servers,
                                 method="column-generation")
        assert b.certified and cold.certified
        assert b.lower.value == pytest.approx(cold.lower.value, rel=1e-9)
        assert b.upper.value == pytest.approx(cold.upper.value, rel=1e-9)


def test_rtol_stops_each_side_once_the_tolerance_is_met():
    """Uniform(0.1, 0.9) packs perfectly (rho* = Lemma 2 = 2 L): with rtol the
    lower-rounded LP stops once it supports Lemma 2, the upper-rounded one at
    (1 - rtol) Lemma 2; both intervals are proven and hold the full solve's optima."""
    dist = Uniform("0.1", "0.9")
    part = quantile_partition(dist, 8)
    b = partition_bracket(dist, part, rtol=1e-2)
    assert b.upper_from == "PG21 Lemma 2" and b.certified
    for side in (b.lower, b.upper):
        assert side.extra.get("stopped_at_target") and not side.certified
    assert b.hi == 2 and 2 * (1 - 1e-2) <= float(b.lo) <= 2 and b.gap <= 1e-2
    full = partition_bracket(dist, part)
    assert full.lower.certified and full.upper.certified
    for stopped, solved in ((b.lower, full.lower), (b.upper, full.upper)):
        assert float(stopped.lower) <= solved.value * (1 + 1e-12)
        assert solved.value <= float(stopped.upper) * (1 + 1e-12)
    # a gap Lemma 2 cannot close (the law does not pack perfectly): both sides solved
    mix = from_spec(MIXTURE)
    both = partition_bracket(mix, quantile_partition(mix, 3), rtol=1e-9)
    assert both.lower.certified and both.upper.certified


def test_a_partition_that_cannot_close_the_bracket_stops_near_its_own_bound():
    """X^(6) of Uniform(0.01, 0.19) on 5 servers: rounding up alone costs more than
    rtol = 1e-3 (L / R-bar of the rounded law is below (1 - rtol) 50), so its LP stops
    within rtol / 2 of that bound instead of solving to the optimum."""
    dist = Uniform("0.01", "0.19")
    part = quantile_partition(dist, 6)
    b = partition_bracket(dist, part, servers=5, rtol=1e-3)
    reach = 5 / (dist.mean() + F(18, 100) / 2 ** 8)  # cells of width 0.18 / 2^7
    assert reach < F(4995, 100)
    assert b.lower.status == "target reached" and b.certified
    full = partition_bracket(dist, part, servers=5)
    assert float(reach) * (1 - 5e-4) <= float(b.lo) <= full.lower.value * (1 + 1e-12)
    assert full.lower.value <= float(reach) * (1 + 1e-12)


def test_quantile_brackets_with_rtol_stop_at_the_first_level_that_closes():
    dist = Uniform("0.1", "0.9")
    brs = quantile_brackets(dist, 12, rtol=1e-3)
    assert brs[-1].gap <= 1e-3 and all(b.gap > 1e-3 for b in brs[:-1])
    assert all(b.certified and float(b.lo) <= 2 <= float(b.hi) for b in brs)


def test_a_target_stop_is_a_proven_lower_bound():
    from capacity.configuration_lp import ConfigurationLP, solve_configuration_lp

    sizes = [F(i, 97) for i in range(9, 40)]
    lp = ConfigurationLP.build(sizes, [1] * len(sizes), [(1, 3)])
    full = solve_configuration_lp(lp, method="column-generation")
    part = solve_configuration_lp(lp, method="column-generation", target=0.9 * full.value)
    assert part.status == "target reached" and not part.certified
    assert 0.9 * full.value <= float(part.lower) <= full.value * (1 + 1e-12)
    assert float(part.upper) >= full.value * (1 - 1e-12)
    for bad in (float("nan"), -1.0):
        with pytest.raises(ValueError):
            solve_configuration_lp(lp, method="column-generation", target=bad)


def test_grid_bracket_with_rtol_is_proven_and_no_wider_than_asked():
    """Two resources on a grid of 1/40: with rtol each LP stops early, yet the bracket
    holds the full one's ends and, when the grid can close it, meets the tolerance."""
    d = Discrete([("0.31", "0.12"), ("0.22", "0.34"), ("0.13", "0.27"), ("0.4", "0.05")],
                 ["1/4", "1/4", "1/4", "1/4"])
    cg = "column-generation"  # enumeration would solve every LP whole
    full = grid_bracket(d, 40, method=cg)
    for rtol in (0.2, 0.05):
        fast = grid_bracket(d, 40, rtol=rtol, method=cg)
        assert fast.certified
        assert float(fast.lo) <= float(full.lo) * (1 + 1e-12)
        assert float(fast.hi) >= float(full.hi) * (1 - 1e-12)
        if full.gap <= rtol / 2:
            assert fast.gap <= rtol
    # a loose tolerance stops both LPs early, and the bracket is still within it
    loose = grid_bracket(d, 40, rtol=0.2, method=cg)
    assert loose.lower.status == loose.upper.status == "target reached"
    assert full.gap < loose.gap <= 0.2


# ------------------------------------------------------------ one grid per resource

VEC = Discrete([("0.3125", "0.0713"), ("0.0625", "0.1189"), ("0.4375", "0.0057"),
                ("0.1875", "0.2311"), ("0.0125", "0.0309")],
               ["3/10", "1/5", "1/10", "1/5", "1/5"])


def test_a_grid_per_resource_brackets_the_exact_rho_star():
    """Rounding each resource to its own grid keeps both sides valid bounds (PG21 Thm. 1),
    and one resolution repeated is the square grid."""
    exact = float(rho_star(VEC).value)
    for grid in ((16, 10), (80, 20), (160, 1000), (7, 3)):
        b = grid_bracket(VEC, grid)
        assert b.certified and b.name == f"grid(1/{grid[0]} x 1/{grid[1]})"
        assert float(b.lo) <= exact * (1 + 1e-9) and exact <= float(b.hi) * (1 + 1e-9)
    same, square = grid_bracket(VEC, (40, 40)), grid_bracket(VEC, 40)
    assert (same.lo, same.hi, same.name) == (square.lo, square.hi, square.name)


@pytest.mark.parametrize("grid, match", [
    ((10,), "1 resolutions for sizes with 2 resources"),
    ((10, 10, 10), "3 resolutions"),
    ((10, 0), "grid must be a positive integer"),
    ((10, True), "grid must be a positive integer"),
    ((10, 2.5), "grid must be a positive integer"),
    ("40", "grid must be a positive integer"),
])
def test_a_bad_grid_is_refused(grid, match):
    with pytest.raises(ValueError, match=match):
        grid_bracket(VEC, grid)
    with pytest.raises(ValueError, match="2 resolutions for sizes with 1 resource"):
        grid_bracket(Uniform("0.1", "0.9"), (10, 10))


def _rounded_lemma2(dist, grid):
    """1 / max_r E[ceil(S_r G_r) / G_r] in exact arithmetic."""
    law = list(zip(dist.sizes, dist.probs, strict=True))
    worst = max(sum(F(-(-F(s[r]) * g // 1), g) * F(p) for s, p in law)
                for r, g in enumerate(grid))
    return 1 / worst


@pytest.mark.parametrize("cells", [100, 1_000, 5_000, 41_000])
def test_choose_grid_keeps_lemma2_highest(cells):
    """Against every pair of candidate resolutions in the budget, in exact arithmetic:
    nothing keeps Lemma 2 of the rounded-up sizes higher, nothing as high has fewer
    points; a square grid (the plausible wrong choice) does worse here."""
    from capacity.brackets import _GRID_CANDIDATES, choose_grid

    got = choose_grid(VEC, cells)
    assert (got[0] + 1) * (got[1] + 1) <= cells
    pairs = [(a, b) for a in _GRID_CANDIDATES for b in _GRID_CANDIDATES
             if (a + 1) * (b + 1) <= cells]
    best = max(_rounded_lemma2(VEC, g) for g in pairs)
    assert _rounded_lemma2(VEC, got) == best
    fewest = min((a + 1) * (b + 1) for a, b in pairs if _rounded_lemma2(VEC, (a, b)) == best)
    assert (got[0] + 1) * (got[1] + 1) == fewest
    squares = [g for g in _GRID_CANDIDATES if (g + 1) ** 2 <= cells]
    assert best > max(_rounded_lemma2(VEC, (g, g)) for g in squares)


def test_choose_grid_refuses_bad_input():
    from capacity.brackets import choose_grid

    with pytest.raises(ValueError, match="cells must be at least 81"):
        choose_grid(VEC, 80)
    with pytest.raises(ValueError, match="cells must be a positive integer"):
        choose_grid(VEC, 0)
    with pytest.raises(TypeError, match="Discrete"):
        choose_grid(Uniform("0.1", "0.9"), 100)
    assert choose_grid(Discrete(["0.3", "0.45"]), 100) == (20,)
    # a budget far beyond every candidate grid (no float holds it) is no budget
    assert choose_grid(VEC, 10**400) == choose_grid(VEC, 10**30)
