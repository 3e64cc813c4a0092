"""theory.distributions: job-size distributions F_R (PG21 Sec. II, III, VIII-A).

Checks: construction and validation, exact arithmetic for rational inputs, cdf vs
left-limit at atoms, the generalised-quantile property F(q(u)) >= u >= F(q(u)-),
means against seeded large samples, reproducibility of seeds, and the text grammar
of ``from_spec`` (the CLI's ``--dist``).
"""

import math
from fractions import Fraction as F

import numpy as np
import pytest
from dist_strategies import (
    exact_discretes,
    exact_mixtures,
    exact_uniforms,
    float_discretes,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

from theory.distributions import (
    Continuous,
    Discrete,
    Mixture,
    SizeDistribution,
    Uniform,
    beta,
    empirical,
    from_spec,
)
from theory.seeding import as_rng

# ------------------------------------------------------------------ strategies


exact_levels = st.fractions(min_value=0, max_value=1, max_denominator=10**6).filter(
    lambda u: u > 0)
float_levels = st.floats(min_value=1e-9, max_value=1.0)

#: hypothesis budget for the exact (Fraction-drawing) properties; more with --runslow
FAST = settings(max_examples=30, deadline=None)


def second_moment(d):
    """E[R^2], computed here independently of the module."""
    if isinstance(d, Discrete):
        return sum(p * s * s for s, p in zip(d.sizes, d.probs, strict=True))
    if isinstance(d, Uniform):
        return (d.a * d.a + d.a * d.b + d.b * d.b) / 3
    if isinstance(d, Mixture):
        return sum(w * second_moment(c) for w, c in zip(d.weights, d.components, strict=True))
    raise TypeError(d)


# --------------------------------------------------------------- Discrete


def test_discrete_scalar_basics_exact():
    d = Discrete(["0.6", "0.4"], ["1/4", "3/4"])
    assert d.sizes == [F(2, 5), F(3, 5)]  # sorted
    assert d.probs == [F(3, 4), F(1, 4)]
    assert d.exact and d.is_discrete and d.dim == 1 and len(d) == 2
    assert d.mean() == F(3, 4) * F(2, 5) + F(1, 4) * F(3, 5)
    assert type(d.mean()) is F
    assert d.support() == (F(2, 5), F(3, 5))
    assert d.atoms() == [(F(2, 5), F(3, 4)), (F(3, 5), F(1, 4))]
    # cdf and its left limit at the atoms
    assert d.cdf("0.4") == F(3, 4) and d.cdf_left("0.4") == 0
    assert d.cdf("0.5") == d.cdf_left("0.5") == F(3, 4)
    assert d.cdf("0.6") == 1 and d.cdf_left("0.6") == F(3, 4)
    assert d.cdf(F(1, 10)) == 0 and d.cdf(1) == 1
    assert type(d.cdf("0.5")) is F


def test_discrete_default_probs_are_equal_and_exact():
    d = Discrete(["0.1", "0.2", "0.3"])
    assert d.probs == [F(1, 3)] * 3
    assert d.mean() == F(1, 5)


def test_discrete_merges_duplicate_sizes():
    d = Discrete(["0.5", F(1, 2), "1/4", 1], ["1/8", "1/8", "1/2", "1/4"])
    assert d.sizes == [F(1, 4), F(1, 2), F(1)]
    assert d.probs == [F(1, 2), F(1, 4), F(1, 4)]
    assert d.prob(F(1, 2), F(1, 2), lo_closed=True) == F(1, 4)


def test_discrete_merges_float_duplicates_and_drops_zero_probability():
    d = Discrete([0.3, 0.3, 0.7, 0.9], [0.25, 0.25, 0.5, 0.0])
    assert d.sizes == [0.3, 0.7]
    assert d.probs == [0.5, 0.5]
    assert d.support() == (0.3, 0.7)  # a zero-probability size is not in the support
    assert not d.exact


def test_discrete_float_sizes_make_it_inexact():
    d = Discrete([0.4, "0.6"], ["1/2", "1/2"])
    assert not d.exact
    assert d.sizes == [0.4, 0.6]
    assert isinstance(d.mean(), float)
    assert d.mean() == pytest.approx(0.5)


def test_discrete_vector_sizes():
    d = Discrete([("0.5", "0.25"), (F(1, 2), F(1, 4)), ("0.1", "0.9")], ["1/4", "1/4", "1/2"])
    assert d.dim == 2 and len(d) == 2 and d.exact
    assert d.sizes == [(F(1, 10), F(9, 10)), (F(1, 2), F(1, 4))]
    assert d.probs == [F(1, 2), F(1, 2)]
    m = d.mean()
    assert list(m) == [F(3, 10), F(23, 40)]
    for op in (lambda: d.cdf("0.5"), lambda: d.cdf_left(1), lambda: d.quantile("1/2"),
               lambda: d.support(), lambda: d.atoms()):
        with pytest.raises(ValueError, match="scalar"):
            op()
    s = d.sample(500, seed=3)
    assert s.shape == (500, 2)
    rows = {tuple(r) for r in s.tolist()}
    assert rows <= {(0.1, 0.9), (0.5, 0.25)}
    assert len(rows) == 2


def test_discrete_vector_float_and_numpy_rows():
    d = Discrete(np.array([[0.2, 0.0], [0.0, 0.3]]), [0.5, 0.5])
    assert d.dim == 2 and not d.exact
    np.testing.assert_allclose(d.mean().astype(float), [0.1, 0.15])
    assert d.sample(4, seed=0).shape == (4, 2)


def test_discrete_from_counts():
    d = Discrete.from_counts(["0.4", "0.6", "0.8"], [3, 1, 0])
    assert d.sizes == [F(2, 5), F(3, 5)]
    assert d.probs == [F(3, 4), F(1, 4)]
    d2 = Discrete.from_counts([2, 5], [2.0, "6"])
    assert d2.probs == [F(1, 4), F(3, 4)]


@pytest.mark.parametrize(
    "counts, pattern",
    [([0, 0], "zero"), ([-1, 2], "non-negative"), ([1.5, 2], "integers"),
     ([float("nan"), 1], "integers"), ([float("inf"), 1], "integers")],
)
def test_discrete_from_counts_validation(counts, pattern):
    with pytest.raises(ValueError, match=pattern):
        Discrete.from_counts(["0.4", "0.6"], counts)


@pytest.mark.parametrize("bad", ["2.5", F(5, 2), True], ids=["str", "Fraction", "bool"])
def test_discrete_from_counts_rejects_non_integer_counts(bad):
    with pytest.raises(ValueError, match="integer"):
        Discrete.from_counts(["0.4", "0.6"], [bad, 1])


@pytest.mark.parametrize(
    "sizes, probs, pattern",
    [
        ([], None, "at least one"),
        (["0.4", "0.6"], ["1/2"], "2 sizes but 1"),
        (["0.4"], ["1/2", "1/2"], "1 sizes but 2"),
        (["0.4", "0.6"], ["3/2", "-1/2"], "non-negative"),
        (["0.4", "0.6"], ["1/2", "1/3"], "sum to 5/6"),
        (["0.4", "0.6"], [0.5, 0.4], "sum to"),
        (["0.4", "0.6"], [0.5, 0.5 + 1e-6], "sum to"),
        (["0.4", "0.6"], [0.5, float("nan")], "finite"),
        ([0.4, float("nan")], None, "finite"),
        ([0.4, float("inf")], None, "finite"),
        ([0, "0.5"], None, "positive"),
        (["-0.1", "0.5"], None, "positive"),
        ([True, "0.5"], None, "bool"),
        (["abc"], None, "not a number"),
        ([("0.1", "0.2"), "0.5"], None, "all scalars or all vectors"),
        ([("0.1", "0.2"), ("0.5",)], None, "same positive length"),
        ([(), ()], None, "same positive length"),
        ([("0", "0"), ("0.5", "0.1")], None, "not all zero"),
        ([("-0.1", "0.2"), ("0.5", "0.1")], None, "non-negative"),
    ],
)
def test_discrete_validation(sizes, probs, pattern):
    with pytest.raises(ValueError, match=pattern):
        Discrete(sizes, probs)


def test_discrete_float_probabilities_within_tolerance_are_accepted():
    d = Discrete([0.4, 0.6], [0.1 + 0.2, 0.7])  # 0.30000000000000004 + 0.7
    assert d.cdf(1.0) == pytest.approx(1.0)


def test_discrete_exact_probabilities_get_no_tolerance():
    with pytest.raises(ValueError, match="sum to"):
        Discrete(["0.4", "0.6"], ["1/2", F(1, 2) + F(1, 10**15)])


@given(exact_discretes())
@FAST
def test_discrete_probabilities_are_exact_and_sum_to_one(d):
    assert sum(d.probs) == 1
    assert all(p > 0 for p in d.probs)
    assert d.sizes == sorted(set(d.sizes))
    assert d.cdf(d.support()[1]) == 1
    assert d.cdf_left(d.support()[0]) == 0
    for s, p in d.atoms():
        assert d.cdf(s) - d.cdf_left(s) == p
        assert d.prob(s, s, lo_closed=True, hi_closed=True) == p


# ---------------------------------------------------------------- Uniform


def test_uniform_exact():
    u = Uniform("0.1", "0.9")
    assert u.exact and not u.is_discrete
    assert u.mean() == F(1, 2) and type(u.mean()) is F
    assert u.cdf("0.3") == F(1, 4) and type(u.cdf("0.3")) is F
    assert u.cdf(0) == 0 and u.cdf(1) == 1 and u.cdf("0.1") == 0 and u.cdf("0.9") == 1
    assert u.cdf_left("0.3") == u.cdf("0.3")
    assert u.quantile(F(1, 4)) == F(3, 10) and type(u.quantile(F(1, 4))) is F
    assert u.quantile(0) == F(1, 10) and u.quantile(1) == F(9, 10)
    assert u.support() == (F(1, 10), F(9, 10))
    assert u.atoms() == []
    assert u.prob("0.1", "0.5") == F(1, 2)
    assert u.prob("0.3", "0.3", lo_closed=True) == 0


def test_uniform_float():
    u = Uniform(0.01, 0.19)
    assert not u.exact
    assert u.mean() == pytest.approx(0.1)
    assert u.cdf(0.1) == pytest.approx(0.5)
    assert isinstance(u.quantile(F(1, 2)), float)
    assert u.quantile(0.5) == pytest.approx(0.1)


@pytest.mark.parametrize("a, b", [("1/2", "1/2"), ("0.6", "0.4"), (-1, 1), (0.5, float("nan"))])
def test_uniform_validation(a, b):
    with pytest.raises(ValueError):
        Uniform(a, b)


# ---------------------------------------------------------------- Mixture


def make_mixture():
    """1/2 * U[1/10, 3/10] + 1/2 * (atoms 1/5 w.p. 1/2, 7/10 w.p. 1/2)."""
    return Mixture([Uniform("0.1", "0.3"), Discrete(["0.2", "0.7"])], ["1/2", "1/2"])


def test_mixture_with_atoms_cdf_and_left_limit():
    m = make_mixture()
    assert m.exact
    assert m.atoms() == [(F(1, 5), F(1, 4)), (F(7, 10), F(1, 4))]
    # at the atom inside the continuous part: jump of 1/4 on top of the uniform's 1/4
    assert m.cdf_left("0.2") == F(1, 4)
    assert m.cdf("0.2") == F(1, 2)
    assert m.prob("0.2", "0.2", lo_closed=True, hi_closed=True) == F(1, 4)
    # isolated atom
    assert m.cdf_left("0.7") == F(3, 4) and m.cdf("0.7") == 1
    assert m.prob("0.7", "0.7", lo_closed=True, hi_closed=True) == F(1, 4)
    # no jump away from atoms
    assert m.cdf("0.25") == m.cdf_left("0.25") == F(1, 2) + F(1, 8)
    assert m.prob("0.3", "0.7", hi_closed=False) == 0
    assert m.mean() == F(1, 2) * F(1, 5) + F(1, 2) * F(9, 20)
    assert type(m.mean()) is F
    assert m.support() == (F(1, 10), F(7, 10))


def test_mixture_merges_atoms_across_components():
    m = Mixture([Discrete(["0.5"]), Discrete(["0.5", "0.25"])], ["1/2", "1/2"])
    assert m.atoms() == [(F(1, 4), F(1, 4)), (F(1, 2), F(3, 4))]


def test_mixture_zero_weight_component_is_ignored_in_support_and_atoms():
    m = Mixture([Uniform("0.2", "0.4"), Discrete(["0.9"])], [1, 0])
    assert m.support() == (F(1, 5), F(2, 5))
    assert m.atoms() == []


def test_mixture_with_continuous_part_is_float():
    m = Mixture([beta(2, 2), Discrete(["0.5"])], ["1/2", "1/2"])
    assert not m.exact
    assert m.cdf(0.5) - m.cdf_left(0.5) == pytest.approx(0.5)
    assert m.mean() == pytest.approx(0.5)


@pytest.mark.parametrize(
    "comps, weights, pattern",
    [
        ([], [], "at least one"),
        ([Uniform(0, 1)], [1, 0], "as many weights"),
        ([Uniform(0, 1)], ["1/2"], "sum to 1/2"),
        ([Uniform(0, 1), Uniform(0, 1)], [0.5, 0.6], "sum to"),
        ([Uniform(0, 1), Uniform(0, 1)], ["3/2", "-1/2"], "non-negative"),
        ([Discrete([("0.1", "0.2")])], [1], "scalar"),
        ([Uniform(0, 1)], [float("nan")], "finite"),
    ],
)
def test_mixture_validation(comps, weights, pattern):
    with pytest.raises(ValueError, match=pattern):
        Mixture(comps, weights)


@given(exact_mixtures())
@FAST
def test_mixture_atom_masses_are_exact(m):
    d = m.components[1]
    atoms = m.atoms()
    assert sum(p for _, p in atoms) == m.weights[1]
    for a, p in atoms:
        assert m.cdf(a) - m.cdf_left(a) == p
        assert m.prob(a, a, lo_closed=True, hi_closed=True) == p
    assert m.cdf(m.support()[1]) == 1
    assert m.mean() == m.weights[0] * m.components[0].mean() + m.weights[1] * d.mean()


# ---------------------------------------------------- Continuous and beta


def test_continuous_from_cdf_only():
    c = Continuous(lambda x: x * x, (0, 1), name="x^2")
    assert c.mean() == pytest.approx(2 / 3, abs=1e-9)
    assert c.quantile(0.25) == pytest.approx(0.5, abs=1e-12)
    assert c.quantile(0) == 0 and c.quantile(1) == 1
    assert c.cdf(-1) == 0 and c.cdf(2) == 1 and c.cdf(0.5) == 0.25
    assert c.cdf_left(0.5) == c.cdf(0.5)
    assert c.atoms() == [] and c.support() == (0.0, 1.0)
    assert not c.exact


def test_beta_matches_scipy():
    b = beta(2, 5)
    ref = stats.beta(2, 5)
    assert b.mean() == pytest.approx(2 / 7, abs=1e-10)
    for x in (0.05, 0.2, 0.5, 0.9):
        assert b.cdf(x) == pytest.approx(ref.cdf(x), abs=1e-14)
    for u in (0.01, 0.5, 0.99):
        assert b.quantile(u) == pytest.approx(ref.ppf(u), abs=1e-12)
    scaled = beta(2, 5, 0.1, 0.5)
    assert scaled.support() == (0.1, 0.5)
    assert scaled.mean() == pytest.approx(0.1 + 0.4 * 2 / 7, abs=1e-10)


@pytest.mark.parametrize(
    "make, pattern",
    [
        (lambda: Continuous(lambda x: x, (0.2, 1)), "cdf must be 0"),
        (lambda: Continuous(lambda x: x / 2, (0, 1)), "cdf must be 0"),
        (lambda: Continuous(lambda x: x, (1, 0.5)), "support"),
        (lambda: Continuous(lambda x: x, (-0.5, 1)), "support"),
        (lambda: Continuous(lambda x: x, (0, float("inf"))), "support"),
        (lambda: beta(0, 1), "positive"),
        (lambda: beta(1, -2), "positive"),
    ],
)
def test_continuous_validation(make, pattern):
    with pytest.raises(ValueError, match=pattern):
        make()


# -------------------------------------------------------------- empirical


def test_empirical_scalar():
    d = empirical([0.3, 0.1, 0.3, 0.3])
    assert d.sizes == [0.1, 0.3]
    assert d.probs == [F(1, 4), F(3, 4)]
    assert d.mean() == pytest.approx(0.25)


def test_empirical_vector():
    d = empirical(np.array([[0.1, 0.2], [0.3, 0.1], [0.1, 0.2]]))
    assert d.dim == 2
    assert d.sizes == [(0.1, 0.2), (0.3, 0.1)]
    assert d.probs == [F(2, 3), F(1, 3)]


def test_empirical_of_fractions_and_sample_roundtrip():
    d = empirical([F(1, 10), F(1, 10), F(3, 10)])
    assert d.probs == [F(2, 3), F(1, 3)]
    src = Discrete(["0.25", "0.5"], ["1/4", "3/4"])
    e = empirical(src.sample(40_000, seed=7))
    assert e.sizes == [0.25, 0.5]
    assert float(e.probs[0]) == pytest.approx(0.25, abs=5 * math.sqrt(0.25 * 0.75 / 40_000))


@pytest.mark.parametrize(
    "samples, pattern",
    [([], "no samples"), ([0.1, float("nan")], "NaN"), ([0.1, np.inf], "infinite"),
     (np.ones((2, 2, 2)), "1-D or 2-D"), ([0.0, 0.5], "positive")],
)
def test_empirical_validation(samples, pattern):
    with pytest.raises(ValueError, match=pattern):
        empirical(samples)


# ------------------------------------------------ generalised quantile


def check_quantile(d, u, tol):
    q = d.quantile(u)
    lo, hi = d.support()
    assert lo - tol <= q <= hi + tol
    assert d.cdf(q) >= u - tol, (q, d.cdf(q), u)
    assert d.cdf_left(q) <= u + tol, (q, d.cdf_left(q), u)
    return q


@given(exact_discretes(), exact_levels)
@FAST
def test_quantile_property_discrete_exact(d, u):
    q = check_quantile(d, u, tol=0)
    assert type(q) is F
    assert q in d.sizes
    # inf: every smaller atom has cdf < u
    assert all(d.cdf(s) < u for s in d.sizes if s < q)


@given(exact_uniforms(), exact_levels)
@FAST
def test_quantile_property_uniform_exact(d, u):
    q = check_quantile(d, u, tol=0)
    assert type(q) is F
    assert d.cdf(q) == u  # continuous and strictly increasing on the support


@given(float_discretes(), float_levels)
def test_quantile_property_discrete_float(d, u):
    q = check_quantile(d, u, tol=1e-12)
    assert q in d.sizes


@given(st.floats(0, 0.9), st.floats(0.01, 0.1), float_levels)
def test_quantile_property_uniform_float(a, w, u):
    check_quantile(Uniform(a, a + w), u, tol=1e-12)


@given(exact_mixtures(), exact_levels)
@FAST
def test_quantile_property_mixture_with_atoms(m, u):
    q = check_quantile(m, u, tol=1e-12)
    # when the level falls inside an atom's jump, the quantile is that atom exactly
    for a, _p in m.atoms():
        if m.cdf_left(a) < u <= m.cdf(a):
            assert q == a


@given(st.sampled_from([(2, 5), (0.5, 0.5), (1, 1), (5, 1)]), float_levels)
@settings(max_examples=40, deadline=None)
def test_quantile_property_beta(ab, u):
    check_quantile(beta(*ab), u, tol=1e-9)


@given(st.one_of(exact_discretes(), exact_uniforms(), exact_mixtures()),
       exact_levels, exact_levels)
@FAST
def test_quantile_is_monotone(d, u1, u2):
    u1, u2 = min(u1, u2), max(u1, u2)
    assert d.quantile(u1) <= d.quantile(u2)


def test_quantile_at_zero_is_the_bottom_of_the_support():
    for d in (make_mixture(), Uniform("0.2", "0.4"), Discrete(["0.3", "0.5"]), beta(2, 2)):
        assert d.quantile(0) == d.support()[0]


@pytest.mark.parametrize("u", [-0.1, 1.5, "2", float("nan"), "x"])
def test_quantile_rejects_levels_outside_unit_interval(u):
    for d in (make_mixture(), Uniform("0.2", "0.4"), Discrete(["0.3", "0.5"]), beta(2, 2)):
        with pytest.raises(ValueError):
            d.quantile(u)


def test_mixture_quantile_at_atoms_is_exact():
    m = make_mixture()
    assert m.quantile(F(1, 2)) == F(1, 5)  # top of the jump at 1/5
    assert m.quantile(F(3, 8)) == F(1, 5)  # inside the jump
    assert m.quantile(F(7, 8)) == F(7, 10)
    assert m.quantile(1) == F(7, 10)
    assert m.quantile(F(1, 8)) == pytest.approx(0.15, abs=1e-14)


def test_mixture_quantile_is_exact_for_exact_mixture():
    m = make_mixture()
    q = m.quantile(F(1, 8))
    assert type(q) is F and q == F(3, 20)


# -------------------------------------------------- means and sampling


SAMPLED = [
    pytest.param(Discrete(["0.1", "0.45", "0.9"], ["1/2", "1/3", "1/6"]), 200_000, id="discrete"),
    pytest.param(Discrete([0.05, 0.7], [0.9, 0.1]), 200_000, id="discrete-float"),
    pytest.param(Uniform("0.01", "0.19"), 200_000, id="uniform"),
    pytest.param(Uniform(0.1, 0.9), 200_000, id="uniform-float"),
    pytest.param(make_mixture(), 200_000, id="mixture"),
]


@pytest.mark.parametrize("d, n", SAMPLED)
def test_mean_matches_seeded_sample_mean(d, n):
    mean = float(d.mean())
    var = float(second_moment(d)) - mean**2
    assert var > 0
    s = d.sample(n, seed=20240601)
    assert s.shape == (n,)
    lo, hi = d.support()
    assert s.min() >= float(lo) and s.max() <= float(hi)
    # 5 standard errors: a wrong mean (or a wrong sampler) of this size would show
    assert abs(s.mean() - mean) <= 5 * math.sqrt(var / n)
    assert s.var() == pytest.approx(var, rel=0.05)


def test_beta_mean_matches_seeded_sample_mean():
    a, b = 2.0, 5.0
    d = beta(a, b, 0.1, 0.5)
    n = 2500  # Continuous.sample inverts one point at a time
    var = a * b / ((a + b) ** 2 * (a + b + 1)) * 0.4**2
    s = d.sample(n, seed=11)
    assert s.min() >= 0.1 and s.max() <= 0.5
    assert abs(s.mean() - d.mean()) <= 5 * math.sqrt(var / n)


def test_discrete_sample_frequencies_match_probabilities():
    d = Discrete(["0.2", "0.5", "0.8"], ["1/10", "3/5", "3/10"])
    n = 100_000
    s = d.sample(n, seed=5)
    assert set(np.unique(s)) == {0.2, 0.5, 0.8}
    for size, p in d.atoms():
        freq = np.mean(s == float(size))
        assert abs(freq - float(p)) <= 5 * math.sqrt(float(p * (1 - p)) / n)


def test_mixture_sample_hits_atoms_with_their_mass():
    m = make_mixture()
    n = 100_000
    s = m.sample(n, seed=8)
    for a, p in m.atoms():
        freq = np.mean(s == float(a))
        assert abs(freq - float(p)) <= 5 * math.sqrt(float(p * (1 - p)) / n)
    cont = s[(s != 0.2) & (s != 0.7)]
    assert cont.min() >= 0.1 and cont.max() <= 0.3


ALL_KINDS = [
    Discrete(["0.1", "0.45", "0.9"]),
    Discrete([("0.1", "0.2"), ("0.3", "0.4")]),
    Uniform("0.01", "0.19"),
    make_mixture(),
    beta(2, 5),
    Continuous(lambda x: x * x, (0, 1)),
]


@pytest.mark.parametrize("d", ALL_KINDS, ids=lambda d: type(d).__name__)
def test_same_seed_same_samples(d):
    a = d.sample(300, seed=123)
    b = d.sample(300, seed=123)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, d.sample(300, seed=np.random.default_rng(123)))
    assert not np.array_equal(a, d.sample(300, seed=124))
    rng = np.random.default_rng(9)
    first, second = d.sample(50, rng), d.sample(50, rng)
    assert not np.array_equal(first, second)  # a Generator's stream advances


def test_as_rng():
    g = np.random.default_rng(1)
    assert as_rng(g) is g
    assert as_rng(5).random() == np.random.default_rng(5).random()
    assert isinstance(as_rng(None), np.random.Generator)


# --------------------------------------------------------------- from_spec


def test_from_spec_uniform_is_exact():
    d = from_spec("uniform:0.1,0.9")
    assert isinstance(d, Uniform) and d.exact
    assert d.mean() == F(1, 2)
    assert from_spec("Uniform: 0.01 , 0.19").support() == (F(1, 100), F(19, 100))


def test_from_spec_discrete_point_beta():
    d = from_spec("discrete:0.4@0.25,0.6@0.75")
    assert d.sizes == [F(2, 5), F(3, 5)] and d.probs == [F(1, 4), F(3, 4)]
    e = from_spec("discrete:0.2,0.4,0.6")
    assert e.probs == [F(1, 3)] * 3
    f = from_spec("discrete:1/3@1/2,2/3@1/2")
    assert f.sizes == [F(1, 3), F(2, 3)] and f.mean() == F(1, 2)
    p = from_spec("point:0.3")
    assert p.sizes == [F(3, 10)] and p.probs == [1]
    b = from_spec("beta:2,5")
    assert b.support() == (0.0, 1.0) and b.mean() == pytest.approx(2 / 7)
    b2 = from_spec("beta:2,5,0,0.5")
    assert b2.support() == (0.0, 0.5) and b2.mean() == pytest.approx(1 / 7)


def test_from_spec_mixture():
    m = from_spec("mixture:1/2*uniform:0.1,0.3+1/2*point:0.7")
    assert isinstance(m, Mixture) and m.exact
    assert m.atoms() == [(F(7, 10), F(1, 2))]
    assert m.cdf_left("0.7") == F(1, 2) and m.cdf("0.7") == 1
    assert m.mean() == F(1, 2) * F(1, 5) + F(1, 2) * F(7, 10)
    m2 = from_spec("mixture: 0.25*discrete:0.2@0.5,0.4@0.5 + 0.75*beta:2,2")
    assert m2.weights == [F(1, 4), F(3, 4)]
    assert [a for a, _ in m2.atoms()] == [F(1, 5), F(2, 5)]
    assert m2.cdf("0.2") - m2.cdf_left("0.2") == pytest.approx(0.125)
    assert m2.prob("0.4", "0.4", lo_closed=True) == pytest.approx(0.125)


@pytest.mark.parametrize(
    "spec, pattern",
    [
        ("uniform", "must look like"),
        (3, "must look like"),
        (None, "must look like"),
        ("weibull:1,2", "unknown distribution kind 'weibull'"),
        ("uniform:0.1", "uniform needs two numbers"),
        ("uniform:0.1,0.2,0.3", "uniform needs two numbers"),
        ("uniform:0.9,0.1", "0 <= a < b"),
        ("uniform:a,b", "not a number"),
        ("point:", "point needs one size"),
        ("point:0.1,0.2", "point needs one size"),
        ("discrete:", "discrete needs sizes"),
        ("discrete:0.4@0.5,0.6", "every size or for none"),
        ("discrete:0.4@x,0.6@0.5", "not a number"),
        ("discrete:0.4@0.5,0.6@0.4", "sum to"),
        ("beta:2", "beta needs"),
        ("beta:1,2,3", "beta needs"),
        ("mixture:0.5uniform:0,1", "WEIGHT\\*SPEC"),
        ("mixture:0.5*uniform:0,1+0.4*point:0.5", "sum to 9/10"),
        ("mixture:0.5*foo:1+0.5*point:0.5", "unknown distribution kind"),
    ],
)
def test_from_spec_errors(spec, pattern):
    with pytest.raises(ValueError, match=pattern):
        from_spec(spec)


def test_abstract_base_cannot_be_instantiated():
    with pytest.raises(TypeError):
        SizeDistribution()  # type: ignore[abstract]


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=25, deadline=None)
@given(exact_discretes())
def test_from_spec_discrete_roundtrip(d):
    spec = "discrete:" + ",".join(f"{s}@{p}" for s, p in d.atoms())
    e = from_spec(spec)
    assert e.atoms() == d.atoms()


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(st.one_of(exact_discretes(), exact_uniforms(), exact_mixtures()), exact_levels)
def test_quantile_property_exhaustive(d, u):
    tol = 1e-12 if isinstance(d, Mixture) else 0
    check_quantile(d, u, tol=tol)


# --------------------------------------------- a str where a list of sizes is expected


@pytest.mark.parametrize(("make", "pattern"), [
    (lambda: Discrete("0.4"),
     r"sizes must be a list of numbers, got the string '0.4' \(write \['0.4'\]\)"),
    (lambda: Discrete(["0.4", "0.6"], "1/2"), r"probs must be a list of numbers, got the "
                                              r"string '1/2'"),
    (lambda: Discrete(b"0.4"), "sizes must be a list of numbers, got the bytes"),
    (lambda: Discrete({"0.4": 1}), "sizes must be a list of numbers, got a dict"),
    (lambda: Discrete({"0.4"}), "got a set"),
    (lambda: Discrete(s for s in ["0.4"]), "got an iterator"),
    (lambda: Discrete(0.4), r"got the number 0.4 \(write \[0.4\]\)"),
    (lambda: Discrete(None), "got None"),
    (lambda: Discrete.from_counts("0.4", [1]), "sizes must be a list of numbers, got the string"),
    (lambda: Discrete.from_counts(["0.4"], 1), "counts must be a list of numbers, got the number"),
    (lambda: Discrete.from_counts(["0.4", "0.6"], [1]), "2 sizes but 1 counts"),
    (lambda: empirical("0.4"), "samples must be a list of numbers, got the string '0.4'"),
    (lambda: empirical({0.4: 2}), "samples must be a list of numbers, got a dict"),
    (lambda: empirical(np.array(0.4)), "1-D or 2-D"),
    (lambda: Mixture("ab", [1, 0]), "components must be a list of distributions"),
    (lambda: Mixture([0.5], [1]), r"components\[0\] must be a size distribution"),
    (lambda: Mixture([Uniform(0, 1)], 1), "weights must be a list of numbers, got the number"),
])
def test_sequences_of_numbers_refuse_a_bare_string_and_other_non_lists(make, pattern):
    with pytest.raises(ValueError, match=pattern):
        make()


def test_entries_are_named_by_position():
    with pytest.raises(ValueError, match=r"sizes\[1\]: 'abc' is not a number"):
        Discrete(["0.4", "abc"])
    with pytest.raises(ValueError, match=r"sizes\[0\]\[1\]: cannot read \[0.2\]"):
        Discrete([[0.1, [0.2]]])
    with pytest.raises(ValueError, match=r"counts\[1\]: counts must be integers"):
        Discrete.from_counts(["0.4", "0.6"], [1, 1.5])
    with pytest.raises(ValueError, match=r"samples\[1\]: 'x' is not a number"):
        empirical(["0.4", "x"])


# ------------------------------------------------- sizes outside the float64 range


@pytest.mark.parametrize(("sizes", "pattern"), [
    (["1e400"], r"sizes\[0\]: '1e400' is too large"),
    (["1e-400"], r"sizes\[0\]: '1e-400' is too small"),
    ([10**400], r"sizes\[0\]: an integer of about 401 digits is too large"),
    ([F(1, 10**400)], r"sizes\[0\]: a fraction of about 1/401 digits is too small"),
    ([("0.5", "1e400")], r"sizes\[0\]\[1\]: '1e400' is too large"),
])
def test_sizes_beyond_float64_are_refused(sizes, pattern):
    with pytest.raises(ValueError, match=pattern):
        Discrete(sizes)


def test_tiny_sizes_the_library_can_represent_are_kept():
    d = Discrete(["1e-30", "0.5"])
    assert d.sizes[0] == F(1, 10**30) and float(d.sizes[0]) == 1e-30


def test_scaled_refuses_a_factor_that_leaves_float64():
    d = Discrete([0.1])
    with pytest.raises(ValueError, match=r"size 0.1 times the factor 5e-324 rounds to 0"):
        d.scaled(5e-324)
    with pytest.raises(ValueError, match="too large"):
        Discrete(["0.5"]).scaled(10**400)
    with pytest.raises(ValueError, match="factor: 'abc' is not a number"):
        d.scaled("abc")


def test_empirical_keeps_exact_sizes_and_names_nan():
    d = empirical(["0.4", F(2, 5), "0.6"])
    assert d.exact and d.sizes == [F(2, 5), F(3, 5)] and d.probs == [F(2, 3), F(1, 3)]
    with pytest.raises(ValueError, match=r"samples\[1\] is nan: samples must be finite"):
        empirical([0.1, float("nan")])
    with pytest.raises(ValueError, match=r"samples\[\(1, 0\)\] is inf"):
        empirical(np.array([[0.1, 0.2], [np.inf, 0.1]]))
    with pytest.raises(ValueError, match="all scalars or all vectors"):
        empirical([0.1, (0.1, 0.2)])
    with pytest.raises(ValueError, match="same positive length"):
        empirical([[0.1], [0.1, 0.2]])
    with pytest.raises(ValueError, match="bool"):
        empirical([True, 0.5])


# ---------------------------------------------- every constructor says what is wrong


@pytest.mark.parametrize(("make", "pattern"), [
    (lambda: Uniform("0.9", "0.1"), "0 <= a < b"),
    (lambda: Uniform(None, 1), "uniform bound a: cannot read None"),
    (lambda: Uniform(0, "1e400"), "uniform bound b: '1e400' is too large"),
    (lambda: Uniform(0, float("inf")), "finite"),
    (lambda: Continuous("x", (0, 1)), "cdf must be a function"),
    (lambda: Continuous(lambda x: x, (0, 1), quantile=3), "quantile must be a function"),
    (lambda: Continuous(lambda x: x, "01"), r"support must be a pair \(lo, hi\)"),
    (lambda: Continuous(lambda x: x, (0, 1, 2)), r"support must be a pair"),
    (lambda: Continuous(lambda x: x, (0, float("nan"))), "support must be finite"),
    (lambda: Continuous(lambda x: float("nan"), (0, 1)), r"cdf\(0.0\) returned nan"),
    (lambda: Continuous(lambda x: "a", (0, 1)), "not a number"),
    (lambda: Continuous(lambda x: 1 / 0, (0, 1)), r"cdf\(0.0\) raised ZeroDivisionError"),
    (lambda: Continuous(lambda x: 0.0 if x == 0 else 1.0 if x == 1 else 1 - x, (0, 1)),
     "non-decreasing"),
    (lambda: Continuous(lambda x: 0.0 if x == 0 else 1.0 if x == 1 else 2 * x, (0, 1)),
     r"outside \[0, 1\]"),
    (lambda: Continuous(lambda x: x, (0, 1), quantile=lambda u: 0.5), "does not invert"),
    (lambda: beta(float("nan"), 1), "beta parameter a must be finite"),
    (lambda: beta("a", 1), "beta parameter a: 'a' is not a number"),
    (lambda: beta(2, 2, 0.5, 0.5), "0 <= lo < hi"),
    (lambda: beta(2, 2, -1, 1), "0 <= lo < hi"),
    (lambda: Mixture([Uniform(0, 1)], [0]), "sum to 0"),
    (lambda: Mixture([Uniform(0, 1), Uniform(0, 1)], [F(1, 2), "x"]), "not a number"),
])
def test_constructors_say_what_is_wrong(make, pattern):
    with pytest.raises(ValueError, match=pattern):
        make()


def test_beta_takes_numbers_as_text_and_samples_vectorised():
    b = beta("2", "5")
    assert b.mean() == pytest.approx(2 / 7)
    s = b.sample(200_000, seed=1)  # the vectorised quantile: well under a second
    assert s.shape == (200_000,) and 0 <= s.min() and s.max() <= 1


@pytest.mark.parametrize(("spec", "pattern"), [
    ("uniform:", "uniform needs two numbers"),
    ("uniform:0.9,0.1", "0 <= a < b"),
    ("uniform:0.5,2", r"uniform needs 0 <= a < b <= 1 .*\(0, 1\]"),
    ("uniform:0.1,,0.9", "empty field between commas"),
    ("uniform:0.1,0.9,", "empty field between commas"),
    ("uniform:0,1e999999999", "too large"),
    ("discrete:0.4@", r"no probability after '@' in '0.4@'"),
    ("discrete:@0.5", r"no size before '@'"),
    ("discrete:0.4@0.5@0.5", "not a number"),
    ("discrete:nan", "not a number"),
    ("point:2", r"size 2 is above 1"),
    ("point:0", "positive"),
    ("beta:a,2", "beta parameter A: 'a' is not a number"),
    ("beta:2,2,0,2", r"0 <= LO < HI <= 1"),
    ("beta:nan,2", "not a number"),
    ("mixture:", "must be 'WEIGHT\\*SPEC'"),
    ("mixture:*point:0.5", "has no weight before"),
    ("mixture:1*mixture:1*point:0.5", "cannot itself be a mixture"),
    ("mixture:" + "1*mixture:" * 2000 + "1*point:0.5", "cannot itself be a mixture"),
    ("mixture:1/2*point:0.5+1/2*nope:1", "unknown distribution kind 'nope'"),
    ("mixture:x*point:0.5", "mixture weight: 'x' is not a number"),
    (":", "unknown distribution kind ''"),
    ("Nope:1", "unknown distribution kind 'nope'"),
    (b"uniform:0.1,0.9", "must look like"),
])
def test_from_spec_every_malformed_spec(spec, pattern):
    with pytest.raises(ValueError, match=pattern):
        from_spec(spec)


def test_from_spec_mixture_with_an_exponent_sign():
    m = from_spec("mixture:1/2*point:5e-1+1/2*uniform:1e-1,9e-1")
    assert m.weights == [F(1, 2), F(1, 2)] and m.atoms() == [(F(1, 2), F(1, 2))]


# ------------------------------------------------------------ sample() and seeds


@pytest.mark.parametrize("n", [-1, 1.5, "3", True, None])
def test_sample_size_must_be_a_non_negative_int(n):
    with pytest.raises(ValueError, match="sample size n must be a non-negative integer"):
        Uniform(0, 1).sample(n)


@pytest.mark.parametrize("seed", [-1, "a", 1.5, True])
def test_seed_is_checked(seed):
    with pytest.raises(ValueError, match="seed must be None, a non-negative integer"):
        Discrete(["0.5"]).sample(3, seed=seed)


@pytest.mark.parametrize("d", [Uniform(0, 1), Discrete([("0.1", "0.2")]),
                               Mixture([Uniform(0, 1)], [1]), beta(2, 2)])
def test_sample_is_budgeted_before_allocating(d):
    from theory.budgets import BudgetExceeded

    with pytest.raises(BudgetExceeded, match=r"sampling 1,000,000,000,000 sizes") as err:
        d.sample(10**12)
    assert err.value.option == "memory_budget"
    assert d.sample(0).shape[0] == 0
    with pytest.raises(BudgetExceeded):
        d.sample(1000, memory_budget=1000)


@pytest.mark.parametrize("dist", [
    Uniform("10", "90"),
    Uniform(10.0, 90.0),
    Mixture([Uniform("20", "40"), Discrete(["50", "70"])], ["1/2", "1/2"]),
    beta(2, 5, 0, 100),
])
def test_scaled_law_is_the_law_of_the_scaled_size(dist):
    """R' = f R: F'(f x) = F(x), q'(u) = f q(u), E[R'] = f E[R]; exact laws stay exact."""
    f = F(1, 100)
    s = dist.scaled(f)
    assert s.exact == dist.exact
    for x in ["15", "30", "50", "60", "70", "89"]:
        assert float(s.cdf(F(x) * f)) == pytest.approx(float(dist.cdf(F(x))), abs=1e-12)
    for u in ["1/4", "1/2", "9/10"]:
        assert float(s.quantile(F(u))) == pytest.approx(float(dist.quantile(F(u))) / 100,
                                                        rel=1e-9)
    assert float(s.mean()) == pytest.approx(float(dist.mean()) / 100, rel=1e-9)
    lo, hi = s.support()
    assert (float(lo), float(hi)) == pytest.approx(tuple(float(v) / 100
                                                         for v in dist.support()))
    assert np.all(s.sample(50, seed=3) <= float(hi))
    with pytest.raises(ValueError, match="scale factor must be positive"):
        dist.scaled(0)


def test_unit_sizes_refuses_a_size_above_the_capacity():
    from theory.distributions import unit_sizes

    assert unit_sizes(Uniform("10", "90"), 100).support() == (F(1, 10), F(9, 10))
    with pytest.raises(ValueError, match=r"sizes up to 90 exceed the server capacity 80"):
        unit_sizes(Uniform("10", "90"), 80)
    with pytest.raises(ValueError, match="one number for scalar sizes"):
        unit_sizes(Uniform("10", "90"), [100, 100])
    for bad in (0, -5, float("inf"), 10**400):
        with pytest.raises(ValueError, match="capacity"):
            unit_sizes(Uniform("10", "90"), bad)
