"""theory.bounds: PG21 Lemma 2, Thm. 2 (eqs. (10), (15)-(17)), Thm. 3 / Cor. 1, the
Thm. 1 identity (40)-(41) and the Prop. 2 counterexample values (Sec. VIII-C)."""

import math
from fractions import Fraction as F

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from theory.bounds import (
    bfjs_guarantee,
    choose_J,
    lemma1_N1,
    lemma2_by_resource,
    lower_from_upper_quantile,
    mean_size_bound,
    prop2_rho_star,
    prop2_upper_rounded_limit,
    quantile_bracket_gap,
    theorem2_constants,
    universal_scheduled_size,
    vqs_fraction,
)
from theory.configurations import is_feasible, maximal_configurations, reduced_configurations
from theory.distributions import Discrete, Mixture, Uniform, beta
from theory.partitions import universal_partition

FAST = settings(max_examples=30, deadline=None)

# ---------------------------------------------------------- Lemma 2, Thm. 2


def test_mean_size_bound_lemma_2():
    assert mean_size_bound(1, Discrete(["0.4", "0.6"])) == 2
    assert mean_size_bound(3, Uniform("0.1", "0.9")) == 6
    assert mean_size_bound(5, "0.25") == 20
    assert mean_size_bound(2, F(1, 3)) == 6
    assert type(mean_size_bound(2, Uniform("0.1", "0.3"))) is F
    assert mean_size_bound(2, Uniform("0.1", "0.3")) == 10
    assert mean_size_bound(4, 0.2) == pytest.approx(20.0)
    assert mean_size_bound(1, beta(2, 5)) == pytest.approx(3.5)


@FAST
@given(st.integers(1, 50), st.fractions(F(1, 100), 1, max_denominator=1000))
def test_bfjs_guarantee_is_half_of_lemma_2(L, mean):
    up = mean_size_bound(L, mean)
    assert up * mean == L  # rho * R-bar = L exactly
    assert bfjs_guarantee(L, mean) * 2 == up
    assert type(bfjs_guarantee(L, mean)) is F


def test_lemma_2_is_attained_by_the_prop2_distribution():
    """Sizes 1/2 -+ e equally likely: R-bar = 1/2, so L / R-bar = 2L = rho* of Sec. VIII-C."""
    for e in (F(1, 10), F(1, 7), F(1, 1000)):
        d = Discrete([F(1, 2) - e, F(1, 2) + e])
        for L in (1, 2, 5):
            assert mean_size_bound(L, d) == prop2_rho_star(L) == 2 * L


@pytest.mark.parametrize(
    "L, mean, pattern",
    [
        (0, "0.5", "positive integer"),
        (-1, "0.5", "positive integer"),
        (1.5, "0.5", "positive integer"),
        ("2", "0.5", "positive integer"),
        (1, 0, "positive"),
        (1, "-0.5", "positive"),
        (1, float("nan"), "finite"),
        (1, "abc", "not a number"),
    ],
)
def test_lemma_2_and_thm_2_validation(L, mean, pattern):
    for f in (mean_size_bound, bfjs_guarantee):
        with pytest.raises(ValueError, match=pattern):
            f(L, mean)


def test_lemma_2_by_resource_is_the_one_closed_form():
    """room_r / load_r, the smallest over resources with load, the first on a tie; exact
    for Fractions; mean_size_bound is it with room L C and load R-bar."""
    assert lemma2_by_resource([F(2), F(2)], [F(3, 8), F(3, 20)]) == (F(16, 3), 0)
    assert lemma2_by_resource([F(1), F(2)], [F(1, 2), F(1)]) == (F(2), 0)  # tie: first
    assert lemma2_by_resource([F(1), F(3)], [F(0), F(1, 2)]) == (F(6), 1)  # no load in 0
    assert lemma2_by_resource([F(1)], [F(0)]) is None
    assert type(lemma2_by_resource([F(3)], [F(1, 7)])[0]) is F
    assert lemma2_by_resource([3.0], [0.25]) == (12.0, 0)
    with pytest.raises(ValueError):
        lemma2_by_resource([F(1)], [F(1), F(1)])
    d = Discrete([("0.1", "0.2"), ("0.3", "0")], ["1/4", "3/4"])
    mean = d.mean()
    assert mean_size_bound(3, d, ["1", "1/2"]) == lemma2_by_resource(
        [3 * F(1), 3 * F(1, 2)], list(mean))[0]


def test_number_of_servers_rejects_bool():
    with pytest.raises(ValueError, match="positive integer"):
        mean_size_bound(True, F(1, 2))


# ------------------------------------------------------------ Lemma 1, eq. (10)


def satisfies_eq_10(N1, eps1, L, mu, K):
    """N1 > log(eps1/L) / log(1 - mu^K)  <=>  (1 - mu^K)^N1 < eps1/L, decided exactly."""
    base = 1 - F(mu) ** K
    return base**N1 < F(eps1) / L


@pytest.mark.parametrize(
    "eps1, L, mu, K, expected",
    [
        (0.1, 1, 0.5, 2, 9),  # log(0.1)/log(0.75) = 8.004
        (0.01, 1, 0.5, 1, 7),  # log2(100) = 6.64
        (0.1, 10, 0.5, 1, 7),
        (0.5, 1, 0.9, 1, 1),  # 0.1^1 < 0.5 already
        (0.3, 2, 1.0, 5, 1),  # mu = 1: every job leaves in one slot
    ],
)
def test_lemma1_N1_examples(eps1, L, mu, K, expected):
    N1 = lemma1_N1(eps1, L, mu, K)
    assert N1 == expected
    assert satisfies_eq_10(N1, eps1, L, mu, K)
    assert N1 == 1 or not satisfies_eq_10(N1 - 1, eps1, L, mu, K)


@settings(max_examples=80, deadline=None)
@given(
    st.floats(1e-6, 0.99),
    st.integers(1, 8),
    st.integers(16, 64).map(lambda i: i / 64),  # mu >= 1/4, dyadic so mu^K is exact
    st.integers(1, 3),
)
def test_lemma1_N1_satisfies_eq_10_strictly_and_is_minimal(eps1, L, mu, K):
    bound = math.log(eps1 / L) / math.log1p(-(mu**K)) if mu < 1 else 0.0
    # away from integer bounds (for those see the next test)
    assume(abs(bound - round(bound)) > 1e-6)
    N1 = lemma1_N1(eps1, L, mu, K)
    assert isinstance(N1, int) and N1 >= 1
    assert satisfies_eq_10(N1, eps1, L, mu, K)
    assert N1 == 1 or not satisfies_eq_10(N1 - 1, eps1, L, mu, K)


@pytest.mark.parametrize("n", [3, 5, 6])
def test_lemma1_N1_is_strict_when_the_bound_is_an_integer(n):
    eps1 = 0.625**n  # exactly (5/8)^n
    assert F(eps1) == F(5, 8) ** n
    N1 = lemma1_N1(eps1, 1, 0.375, 1)
    assert satisfies_eq_10(N1, eps1, 1, 0.375, 1)
    assert N1 == n + 1


@pytest.mark.parametrize("K", [155, 200])
def test_lemma1_N1_tiny_mu_power(K):
    try:
        N1 = lemma1_N1(0.1, 1, 0.01, K)
    except ValueError:
        return
    # N1 > log(10) / -log(1 - 10^(-2K)) ~ log(10) * 10^(2K)
    assert isinstance(N1, int) and N1 > 10 ** (2 * K)


@pytest.mark.parametrize(
    "args",
    [(0, 1, 0.5, 1), (1, 1, 0.5, 1), (-0.1, 1, 0.5, 1), (0.1, 1, 0, 1), (0.1, 1, 1.5, 1),
     (0.1, 1, 0.5, 0), (0.1, 0, 0.5, 1), (0.1, 2.0, 0.5, 1)],
)
def test_lemma1_N1_validation(args):
    with pytest.raises(ValueError):
        lemma1_N1(*args)


# ------------------------------------------------------ Thm. 2, eqs. (15)-(17)


@pytest.mark.parametrize(
    "eps, L, mu, u, K_max",
    [(0.3, 2, 0.5, 0.25, 4), (0.1, 1, 0.9, 0.3, 4), (0.5, 3, 0.2, 1.0, 1),
     (0.2, 4, 0.5, F(1, 3), 3), (0.2, 4, 0.5, F(2, 7), 4)],
)
def test_theorem2_constants_follow_eqs_15_to_17(eps, L, mu, u, K_max):
    c = theorem2_constants(eps, L, mu, u)
    assert c["K_max"] == K_max  # ceil(1/u)
    assert c["eps1"] == pytest.approx(eps / 3)
    N1, N2 = c["N1"], c["N2"]
    # eq. (17): N1 > log(eps/(3L)) / log(1 - mu^K_max), smallest such integer
    assert N1 == lemma1_N1(eps / 3, L, mu, K_max)
    assert satisfies_eq_10(N1, F(eps) / 3, L, mu, K_max)
    # eq. (15): N2 = ceil(3 L N1 / eps); delta = h = L N2 eps / 6 (errata Thm2.eq15/16)
    assert N2 == math.ceil(3 * L * N1 / eps)
    assert N2 >= 3 * L * N1 / eps > N2 - 1
    assert L * N1 / N2 <= eps / 3 + 1e-15
    assert c["delta"] == c["h"] == pytest.approx(L * N2 * eps / 6)
    # the drift condition below eq. (14) holds with these constants
    e = F(eps)
    margin = ((1 - e / 3) * (1 - F(L * N1, N2)) - 2 * F(c["delta"]) / (L * N2) - (1 - e))
    assert margin > 0


@pytest.mark.parametrize("args", [(0, 1, 0.5, 0.1), (1, 1, 0.5, 0.1), (0.1, 1, 0.5, 0),
                                  (0.1, 1, 0.5, 1.5), (0.1, 0, 0.5, 0.1)])
def test_theorem2_constants_validation(args):
    with pytest.raises(ValueError):
        theorem2_constants(*args)


# ------------------------------------------------------ Thm. 3, Cor. 1: J and 2/3


def test_vqs_fraction():
    assert vqs_fraction() == F(2, 3) and type(vqs_fraction()) is F
    assert vqs_fraction("0.1") == F(3, 5)
    assert vqs_fraction(F(1, 4)) == F(1, 2)
    assert vqs_fraction(0.25) == pytest.approx(0.5)
    for bad in (-0.1, 1, "1", 1.5, float("nan"), "x", True):
        with pytest.raises(ValueError):
            vqs_fraction(bad)


@pytest.mark.parametrize(
    "dist, eps, J",
    [
        (Uniform("0.01", "0.19"), 0, 7),  # 1/2^7 = 0.0078 <= 0.01 < 1/2^6
        (Uniform(0.01, 0.19), 0, 7),
        (Uniform("0.01", "0.19"), "0.05", 6),  # F(1/64) = 1/32 < 0.05 <= F(1/32)
        (Uniform("0.01", "0.19"), F(1, 32), 7),  # strict: F(1/64) = 1/32 is not < 1/32
        (Uniform("0.01", "0.19"), F(1, 32) + F(1, 10**9), 6),
        (Uniform("0.1", "0.9"), 0, 4),
        (Uniform(0, 1), "0.1", 4),  # 1/16 < 0.1 <= 1/8
        (Discrete(["0.25"]), 0, 3),  # sizes must be > 1/2^J: 1/4 is not > 1/4
        (Discrete(["0.3"]), 0, 2),
        (Discrete(["1"]), 0, 2),  # J > 1 always
        (Discrete(["0.001", "0.5"], ["1/100", "99/100"]), "0.02", 2),
        (Discrete(["0.001", "0.5"], ["1/100", "99/100"]), "0.01", 10),
        # F(x) = x on [0, 0.1], then an atom 9/10 at 1/2
        (Mixture([Uniform(0, "0.1"), Discrete(["0.5"])], ["1/10", "9/10"]), "0.2", 2),
        (Mixture([Uniform(0, "0.1"), Discrete(["0.5"])], ["1/10", "9/10"]), "0.05", 5),
        (Mixture([Uniform(0, "0.1"), Discrete(["0.5"])], ["1/10", "9/10"]), "0.01", 7),
        (Mixture([Uniform(0, "0.1"), Discrete(["0.5"])], ["1/10", "9/10"]), F(1, 32), 6),
    ],
)
def test_choose_J_corollary_1_examples(dist, eps, J):
    assert choose_J(dist, eps) == J


@FAST
@given(st.lists(st.fractions(F(1, 10**4), 1, max_denominator=10**4), min_size=1, max_size=5))
def test_choose_J_with_eps_zero_is_the_smallest_J_with_sizes_above_1_over_2J(sizes):
    d = Discrete(sizes)
    smallest = min(sizes)
    J = 2
    while 2**J * smallest <= 1:  # independent: sizes > 1/2^J  <=>  2^J * min > 1
        J += 1
    assert choose_J(d, 0) == J
    # and Thm. 3 applies: every size lands above the absorbed range (0, 1/2^J]
    p = universal_partition(J)
    assert all(p.type_of(s) != 2 * J - 1 or s > F(1, 2**J) for s in sizes)


@FAST
@given(
    st.lists(st.tuples(st.fractions(F(1, 10**4), 1, max_denominator=10**4),
                       st.integers(1, 9)), min_size=1, max_size=5),
    st.fractions(F(1, 100), F(99, 100), max_denominator=100),
)
def test_choose_J_is_minimal_per_corollary_1(atoms, eps):
    tot = sum(w for _, w in atoms)
    d = Discrete([s for s, _ in atoms], [F(w, tot) for _, w in atoms])

    def cdf(x):  # independent of Discrete.cdf
        return sum((F(w, tot) for s, w in atoms if s <= x), F(0))

    J = choose_J(d, eps)
    assert cdf(F(1, 2**J)) < eps
    assert J == 2 or cdf(F(1, 2 ** (J - 1))) >= eps


def test_choose_J_raises_when_mass_accumulates_at_zero():
    with pytest.raises(ValueError, match="no J"):
        choose_J(Uniform(0, 1), 0)
    with pytest.raises(ValueError, match="no J"):
        choose_J(beta(2, 2), 0)


@pytest.mark.parametrize("eps", [-0.1, 1, "1", 2, float("nan"), "x"])
def test_choose_J_validation(eps):
    with pytest.raises(ValueError):
        choose_J(Uniform("0.1", "0.9"), eps)


@pytest.mark.parametrize("J", [2, 3, 6])
def test_universal_scheduled_size(J):
    t = F(1, 2**J)
    assert universal_scheduled_size(t, J) == t
    assert universal_scheduled_size(t / 3, J) == t
    assert universal_scheduled_size(str(t / 7), J) == t
    assert universal_scheduled_size(1e-9, J) == t
    assert universal_scheduled_size(t + F(1, 10**12), J) == t + F(1, 10**12)
    assert universal_scheduled_size("0.9", J) == F(9, 10)
    assert universal_scheduled_size(0.9, J) == 0.9
    # rounded jobs of VQ_{2J-1} still fill the K_RED row 3*2^(J-2) e_{2J-1} within capacity
    red = reduced_configurations(J)
    row = [int(v) for v in red.configs[red.labels.index(f"3*2^{J - 2} e_{2 * J - 1}")]]
    sizes = universal_partition(J).upper_sizes
    assert sizes[-1] >= t and is_feasible(row, sizes)


@pytest.mark.parametrize("J", [0, 1, -1, 2.5, "3"])
def test_universal_scheduled_size_rejects_invalid_J(J):
    with pytest.raises(ValueError, match="J"):
        universal_scheduled_size("0.3", J)


@pytest.mark.parametrize("x", [0, "-0.5", -1e-9])
def test_universal_scheduled_size_rejects_non_positive_sizes(x):
    with pytest.raises(ValueError):
        universal_scheduled_size(x, 3)


# ----------------------------------------------------- Thm. 1, eqs. (40)-(41)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.integers(0, 6), st.fractions(0, 1, max_denominator=10**6))
def test_identity_40_41_is_consistent(L, n, frac):
    m = 2 ** (n + 1)
    upper = frac * L * m * F(999, 1000)  # any value in [0, L m)
    lower = lower_from_upper_quantile(upper, L, m)
    assert type(lower) is F
    assert lower >= upper
    # (41) is (40) rearranged: lower - upper = lower^2 / (L m + lower), exactly
    assert lower - upper == quantile_bracket_gap(lower, L, m)
    # and back: upper = lower - gap(lower)
    assert lower - quantile_bracket_gap(lower, L, m) == upper


@FAST
@given(st.integers(1, 8), st.integers(0, 6), st.fractions(0, 1, max_denominator=1000)
       .filter(lambda p: 0 < p < 1))
def test_eq_40_from_eqs_37_and_39(L, n, p_e):
    """Sec. VIII-A: rho_up = 2^(n+1) L p_e (37) and rho_up = (1 - p_e) rho_low (39)."""
    m = 2 ** (n + 1)
    upper = m * L * p_e
    lower = upper / (1 - p_e)
    assert lower_from_upper_quantile(upper, L, m) == lower
    assert quantile_bracket_gap(lower, L, m) == lower - upper


def test_bracket_examples_and_floats():
    assert lower_from_upper_quantile(1, 1, 2) == 2
    assert quantile_bracket_gap(2, 1, 2) == 1
    assert lower_from_upper_quantile("1.5", 2, 4) == F(3, 2) / (1 - F(3, 16))
    assert lower_from_upper_quantile(0, 3, 8) == 0 and quantile_bracket_gap(0, 3, 8) == 0
    lo = lower_from_upper_quantile(1.2, 2, 4)
    assert isinstance(lo, float)
    assert lo - 1.2 == pytest.approx(quantile_bracket_gap(lo, 2, 4), rel=1e-12)


def test_bracket_gap_vanishes_as_partitions_refine():
    """The Thm. 1 argument: with rho_low bounded, the gap is O(1/2^n)."""
    lower = F(7, 2)
    gaps = [quantile_bracket_gap(lower, 3, 2 ** (n + 1)) for n in range(12)]
    assert all(a > b > 0 for a, b in zip(gaps, gaps[1:], strict=False))
    assert all(g * 3 * 2 ** (n + 1) < lower**2 for n, g in enumerate(gaps))


@pytest.mark.parametrize(
    "f, args, pattern",
    [
        (lower_from_upper_quantile, (4, 1, 4), "below L \\* m"),
        (lower_from_upper_quantile, (5, 1, 4), "below L \\* m"),
        (lower_from_upper_quantile, (1, 0, 4), "positive integer"),
        (lower_from_upper_quantile, ("x", 1, 4), "not a number"),
        (quantile_bracket_gap, (1, 0, 4), "positive integer"),
        (quantile_bracket_gap, (float("nan"), 1, 4), "finite"),
    ],
)
def test_bracket_validation(f, args, pattern):
    with pytest.raises(ValueError, match=pattern):
        f(*args)


@pytest.mark.parametrize("f", [lower_from_upper_quantile, quantile_bracket_gap])
@pytest.mark.parametrize("m", [0, -1, -4])
def test_bracket_rejects_non_positive_m(f, m):
    with pytest.raises(ValueError):
        f(1, 1, m)


@pytest.mark.parametrize("f, args", [(lower_from_upper_quantile, (-1, 1, 2)),
                                     (quantile_bracket_gap, (-1, 1, 2)),
                                     (quantile_bracket_gap, (-2, 1, 2))])
def test_bracket_rejects_negative_workload(f, args):
    with pytest.raises(ValueError):
        f(*args)


# --------------------------------------------------------------- Prop. 2


def best_rho(configs, probs, L):
    """max rho with rho * P <= L * (a convex combination of configs), two types, exactly."""
    best = F(0)
    for a in configs:
        for b in configs:
            cands = {F(0), F(1)}
            den = F(a[0] - b[0]) / probs[0] - F(a[1] - b[1]) / probs[1]
            if den != 0:
                lam = (F(b[1]) / probs[1] - F(b[0]) / probs[0]) / den
                if 0 <= lam <= 1:
                    cands.add(lam)
            for lam in cands:
                val = L * min((lam * a[j] + (1 - lam) * b[j]) / probs[j] for j in (0, 1))
                best = max(best, val)
    return best


@pytest.mark.parametrize("L", [1, 2, 5])
@pytest.mark.parametrize("e", [F(1, 10), F(1, 7), F(3, 10)])
def test_prop2_values_against_a_two_type_lp(L, e):
    probs = (F(1, 2), F(1, 2))
    actual = [tuple(int(v) for v in r) for r in maximal_configurations([F(1, 2) - e,
                                                                         F(1, 2) + e])]
    # upper rounding: 1/2 - e to a cell end in (1/2 - e, 1/2], 1/2 + e to one above it
    r_big = F(1, 2) + e + (F(1, 2) - e) / 2
    rounded = [tuple(int(v) for v in r) for r in maximal_configurations([F(1, 2), r_big])]
    assert set(rounded) == {(2, 0), (0, 1)}
    assert best_rho(actual, probs, L) == prop2_rho_star(L) == 2 * L
    assert best_rho(rounded, probs, L) == prop2_upper_rounded_limit(L) == F(4 * L, 3)
    assert prop2_upper_rounded_limit(L) == F(2, 3) * prop2_rho_star(L)  # Prop. 2: 2/3
    assert F(2, 3) * prop2_rho_star(L) == vqs_fraction() * prop2_rho_star(L)


def test_prop2_optimal_mixture_is_one_third_two_thirds():
    """Eq. (61): p1 (2,0) + p2 (0,1) >= rho (1/2,1/2) is best at p1 = 1/3, p2 = 2/3
    (the paper prints p2 = 1/3, which does not sum to one)."""
    rho = prop2_upper_rounded_limit(1)
    p1, p2 = F(1, 3), F(2, 3)
    assert 2 * p1 >= rho / 2 and p2 >= rho / 2 and p1 + p2 == 1
    for p in (F(1, 3) - F(1, 100), F(1, 3) + F(1, 100), F(1, 3), F(1, 2)):
        assert min(4 * p, 2 * (1 - p)) <= rho


@pytest.mark.parametrize("L", [0, -1, 1.5])
def test_prop2_validation(L):
    for f in (prop2_rho_star, prop2_upper_rounded_limit):
        with pytest.raises(ValueError):
            f(L)


def test_lemma_2_in_every_resource_for_vector_sizes():
    """PG18 generalisation: rho* <= min_d L C_d / R-bar_d."""
    d = Discrete([("0.1", "0.2")])
    assert mean_size_bound(1, d) == 5
    assert mean_size_bound(2, d, ["1", "0.5"]) == F(5, 1)
    with pytest.raises(ValueError, match="capacity"):
        mean_size_bound(1, d, ["1", "1", "1"])


@pytest.mark.parametrize("capacity", [0, -1, [1, -1], [1, 0]])
def test_mean_size_bound_refuses_a_capacity_that_is_not_positive(capacity):
    from theory import mean_size_bound

    mean = [0.5, 0.5] if isinstance(capacity, list) else 0.5
    with pytest.raises(ValueError, match="capacity must be positive"):
        mean_size_bound(1, mean, capacity=capacity)
