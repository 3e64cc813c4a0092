"""capacity.certify: weak-duality certificates of the configuration LP (STYLE anchor 4).

Whatever mixture and prices it is handed, ``certify`` must return an interval that
contains the true optimum: ``lower <= rho* <= upper`` (the primal side is re-checked
configuration by configuration, the dual bound beta is recomputed by an exact
knapsack). Tampered inputs may only widen the interval and must not be ``certified``.
"""

import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from capacity import ConfigurationLP, MixtureTerm, certify, solve_configuration_lp
from theory.configurations import feasible_configurations

FAST = settings(max_examples=40, deadline=None)

# ------------------------------------------------------------------ helpers


def build(sizes, demand, cap=1, servers=1):
    return ConfigurationLP.build(sizes, demand, [(cap, servers)])


def true_interval(lp):
    """Certified rho* of the instance by enumeration (the reference)."""
    res = solve_configuration_lp(lp, method="enumerate")
    assert res.certified, res.message
    return res


def assert_contains(cert, ref):
    """cert's interval must contain the true optimum, which lies in [ref.lower, ref.upper]."""
    if cert.exact:
        assert isinstance(cert.lower, F)
        assert cert.lower <= ref.upper
        assert math.isinf(float(cert.upper)) or cert.upper >= ref.lower
    else:
        assert float(cert.lower) <= float(ref.upper) * (1 + 1e-9)
        assert float(cert.upper) >= float(ref.lower) * (1 - 1e-9)


@st.composite
def instance(draw):
    exact = draw(st.booleans())
    T = draw(st.integers(1, 4))
    cents = draw(st.lists(st.integers(4, 100), min_size=T, max_size=T, unique=True))
    w = draw(st.lists(st.integers(0, 9), min_size=T, max_size=T).filter(lambda v: any(v)))
    servers = draw(st.integers(1, 4))
    if exact:
        sizes, dem = [F(c, 100) for c in cents], [F(x, sum(w)) for x in w]
    else:
        sizes, dem = [c / 100 for c in cents], [x / sum(w) for x in w]
    return build(sizes, dem, servers=servers), sizes


@st.composite
def mixture_and_prices(draw, sizes):
    K = feasible_configurations(sizes, 1)
    n = draw(st.integers(0, min(4, len(K))))
    idx = draw(st.lists(st.integers(0, len(K) - 1), min_size=n, max_size=n))
    weights = draw(st.lists(st.floats(0.0, 2.0), min_size=n, max_size=n))
    mix = [MixtureTerm(0, K[i].copy(), w) for i, w in zip(idx, weights, strict=True)]
    y = draw(st.lists(st.floats(0.0, 5.0) | st.just(0.0), min_size=len(sizes),
                      max_size=len(sizes)))
    return mix, np.array(y)


# ------------------------------------------------------------------ the guarantee


@FAST
@given(st.data())
def test_any_mixture_and_prices_give_a_valid_interval(data):
    lp, sizes = data.draw(instance())
    mix, y = data.draw(mixture_and_prices(sizes))
    ref = true_interval(lp)
    cert = certify(lp, mix, y)
    assert cert.exact == lp.exact
    assert_contains(cert, ref)
    if cert.certified:
        # a certified interval is narrow, so it pins the true value
        assert float(cert.upper) - float(cert.lower) <= 1e-7 * max(1.0, float(cert.upper))


@FAST
@given(st.data())
def test_lp_solution_certifies_and_perturbations_keep_validity(data):
    lp, sizes = data.draw(instance())
    ref = true_interval(lp)
    # the solver's own certificate
    cert = certify(lp, ref.mixture, np.asarray(ref.dual))
    assert cert.certified, cert.message
    assert_contains(cert, ref)
    # perturbed prices: still valid, and scale-invariant
    noise = np.array(data.draw(st.lists(st.floats(0.0, 1.0), min_size=lp.T, max_size=lp.T)))
    y2 = np.asarray(ref.dual) + noise
    c2 = certify(lp, ref.mixture, y2)
    assert_contains(c2, ref)
    c3 = certify(lp, ref.mixture, 8.0 * y2)  # powers of two: identical dyadic rounding
    if math.isfinite(float(c2.upper)) and math.isfinite(float(c3.upper)):
        assert float(c3.upper) == pytest.approx(float(c2.upper), rel=1e-9)


# ------------------------------------------------------------------ tampering

SIZES = [F(2, 5), F(3, 5)]  # PG21 Fig. 3a, rho* = 2 on one server
DEM = [F(1, 2), F(1, 2)]


@pytest.fixture(params=[True, False], ids=["exact", "float"])
def fig3a(request):
    if request.param:
        lp = build(SIZES, DEM)
    else:
        lp = build([0.4, 0.6], [0.5, 0.5])
    return lp, true_interval(lp)


def test_solver_certificate_is_exact_for_fractions(fig3a):
    lp, ref = fig3a
    cert = certify(lp, ref.mixture, np.asarray(ref.dual))
    assert cert.certified
    assert cert.exact == lp.exact
    if lp.exact:
        assert isinstance(cert.lower, F) and isinstance(cert.upper, F)
        assert cert.lower <= 2 <= cert.upper
        assert "exact" in cert.message
    else:
        assert isinstance(cert.lower, float)


def test_infeasible_configuration_is_rejected(fig3a):
    lp, ref = fig3a
    bad = [MixtureTerm(0, np.array([2, 1]), 1.0)]  # 0.8 + 0.6 > 1
    cert = certify(lp, bad, np.asarray(ref.dual))
    assert not cert.certified
    assert "infeasible" in cert.message
    assert cert.lower == 0
    assert_contains(cert, ref)


@pytest.mark.parametrize("eps", [F(1, 10**6), F(1, 10**12), F(1, 2**40)], ids=str)
def test_barely_infeasible_configuration_is_rejected_exactly(eps):
    """Exact mode: 2/5 + (3/5 + eps) > 1, so (1, 1) is infeasible however small eps is;
    the true rho* is 4/3 (maximal configurations (2, 0) and (0, 1))."""
    lp = build([F(2, 5), F(3, 5) + eps], DEM)
    ref = true_interval(lp)
    assert ref.lower <= F(4, 3) <= ref.upper
    cert = certify(lp, [MixtureTerm(0, np.array([1, 1]), 1.0)], np.array([1.0, 1.0]))
    assert not cert.certified and "infeasible" in cert.message
    assert_contains(cert, ref)


def test_big_denominators_keep_exact_feasibility_in_certify():
    """Regression: with a common denominator beyond 2**62 certify used to fall back to
    float feasibility and certify the infeasible (1, 1) of sizes 2/5, 3/5 + 1/10**30."""
    lp = build([F(2, 5), F(3, 5) + F(1, 10**30)], DEM)
    cert = certify(lp, [MixtureTerm(0, np.array([1, 1]), 1.0)], np.array([1.0, 1.0]))
    assert float(cert.lower) <= 4 / 3 * (1 + 1e-12)
    assert not cert.certified


def test_weights_above_one_are_normalised(fig3a):
    lp, ref = fig3a
    doubled = [MixtureTerm(t.server_class, t.config, 2 * t.weight) for t in ref.mixture]
    cert = certify(lp, doubled, np.asarray(ref.dual))
    assert_contains(cert, ref)
    assert float(cert.lower) == pytest.approx(float(ref.lower), rel=1e-12)
    # two (1, 1) servers' worth of weight on one server would claim rho* = 4
    assert float(cert.lower) <= 2 * (1 + 1e-12)


def test_mixture_missing_a_type_gives_lower_zero(fig3a):
    lp, ref = fig3a
    cert = certify(lp, [MixtureTerm(0, np.array([2, 0]), 1.0)], np.asarray(ref.dual))
    assert cert.lower == 0
    assert not cert.certified
    assert_contains(cert, ref)


def test_empty_mixture_and_zero_prices(fig3a):
    lp, ref = fig3a
    cert = certify(lp, [], np.zeros(2))
    assert cert.lower == 0 and math.isinf(float(cert.upper))
    assert not cert.certified and "zero" in cert.message


def test_negative_weight_or_count_is_rejected(fig3a):
    lp, ref = fig3a
    for term in (MixtureTerm(0, np.array([1, 1]), -0.5), MixtureTerm(0, np.array([-1, 1]), 1.0)):
        cert = certify(lp, [term], np.asarray(ref.dual))
        assert not cert.certified and "negative" in cert.message
        assert_contains(cert, ref)


def test_wrong_claimed_value_cannot_be_certified(fig3a):
    """Prices that would claim rho* = 4/3 (only (2,0) and (0,1) count) are re-checked:
    beta is recomputed over *all* feasible configurations, so (1,1) raises the bound."""
    lp, ref = fig3a
    y = np.array([0.5, 1.0])  # (2,0) and (0,1) price 1, but (1,1) prices 1.5
    cert = certify(lp, ref.mixture, y)
    assert float(cert.upper) >= 2 * (1 - 1e-12)  # not 4/3
    assert float(cert.upper) == pytest.approx(1.5 / 0.75)
    assert cert.certified  # the honest interval [2, 2]
    # with a mixture that misses (1, 1), the lower side is 4/3 and nothing is certified
    mix = [MixtureTerm(0, np.array([2, 0]), 1 / 3), MixtureTerm(0, np.array([0, 1]), 2 / 3)]
    cert = certify(lp, mix, y)
    assert float(cert.lower) == pytest.approx(4 / 3)
    assert not cert.certified
    assert_contains(cert, ref)


def test_scaled_prices_give_the_same_bound(fig3a):
    lp, ref = fig3a
    y = np.array([0.3, 0.9])
    a, b = certify(lp, ref.mixture, y), certify(lp, ref.mixture, 1000 * y)
    assert float(a.upper) == pytest.approx(float(b.upper), rel=1e-9)
    assert_contains(a, ref)


def test_negative_prices_are_clipped(fig3a):
    lp, ref = fig3a
    cert = certify(lp, ref.mixture, np.array([-5.0, 1.0]))
    assert np.all(np.asarray(cert.dual) >= 0)
    assert_contains(cert, ref)


def test_heterogeneous_classes_certificate():
    """Two server classes (capacities 1 and 2): the bound sums n_c beta_c over classes."""
    lp = ConfigurationLP.build([F(2, 5), F(3, 5)], DEM, [(1, 2), (2, 1)])
    res = solve_configuration_lp(lp, method="column-generation")
    assert res.certified and res.exact_check
    cert = certify(lp, res.mixture, np.asarray(res.dual))
    assert cert.certified
    # two unit servers hold (1,1) each, the double server (2,2): rho* = 4 + 4 = 8
    assert cert.lower <= 8 <= cert.upper
    assert len(cert.dual_bound) == 2


def test_exact_dual_check_accepts_valid_prices_outside_the_mixture():
    lp = build([F(1, 100), F(1, 20)], DEM)
    ref = true_interval(lp)
    cert = certify(lp, [], np.array([0.1, 0.3]))
    assert_contains(cert, ref)
    assert math.isfinite(float(cert.upper)), cert.message
    assert float(cert.upper) == pytest.approx(50.0, rel=1e-9)


def test_large_price_on_a_type_that_fits_nowhere():
    lp = ConfigurationLP.build([F(2, 5), F(3, 5), F(3, 2)], [F(1, 2), F(1, 2), 0], [(1, 1)])
    res = solve_configuration_lp(lp, method="column-generation")
    cert = certify(lp, res.mixture, np.array([1.0, 1.0, 1e6]))
    assert np.all(np.asarray(cert.dual) >= 0)
    assert cert.lower <= 2 <= cert.upper


_NONFINITE_BUG = ()  # fixed: certify() rejects non-finite input with ValueError


@pytest.mark.parametrize(("exact", "weight", "price"), [
    pytest.param(False, float("nan"), 1.0, marks=_NONFINITE_BUG, id="float-nan-weight"),
    pytest.param(False, float("inf"), 1.0, marks=_NONFINITE_BUG, id="float-inf-weight"),
    pytest.param(False, 1.0, float("nan"), marks=_NONFINITE_BUG, id="float-nan-price"),
    pytest.param(False, 1.0, float("inf"), marks=_NONFINITE_BUG, id="float-inf-price"),
    pytest.param(True, float("inf"), 1.0, marks=_NONFINITE_BUG, id="exact-inf-weight"),
    pytest.param(True, 1.0, float("nan"), marks=_NONFINITE_BUG, id="exact-nan-price"),
    pytest.param(True, 1.0, float("inf"), marks=_NONFINITE_BUG, id="exact-inf-price"),
])
def test_nonfinite_inputs_never_give_an_invalid_interval(exact, weight, price):
    lp = build(SIZES, DEM) if exact else build([0.4, 0.6], [0.5, 0.5])
    mix = [MixtureTerm(0, np.array([1, 1]), weight)]
    try:
        cert = certify(lp, mix, np.array([price, 1.0]))
    except ValueError as e:
        assert "finite" in str(e).lower() or "nan" in str(e).lower()
        return
    assert float(cert.lower) <= 2  # NaN fails here
    assert float(cert.upper) >= 2
    assert not (math.isnan(float(weight)) or math.isnan(price)) or not cert.certified


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("bounded", [False, True], ids=["free", "bounded"])
def test_the_exact_dual_bound_is_the_best_configuration_at_the_reported_prices(seed, bounded):
    """Any prices, even poor ones: the exact bound is sum_c n_c max_k <y, k> / <y, d> at
    the prices the certificate reports (its integer program found the true maximum,
    checked by enumerating every configuration in rationals), and it never falls
    below the LP's optimum."""
    rng = np.random.default_rng(seed)
    sizes = [F(int(v), 60) for v in rng.choice(np.arange(7, 45), 4, replace=False)]
    demand = [F(int(v), 10) for v in rng.integers(1, 5, 4)]
    total = sum(demand)
    demand = [d / total for d in demand]
    lp = ConfigurationLP.build(sizes, demand, [(1, 2)],
                               max_copies=[2, 1, 3, 2] if bounded else None)
    ref = solve_configuration_lp(lp, method="enumerate")
    y = rng.random(4)
    cert = certify(lp, ref.mixture, y)
    assert cert.exact and isinstance(cert.upper, F)
    ye = [F(float(v)) for v in cert.dual]
    most = [2, 1, 3, 2] if bounded else [None] * 4
    best = max(sum(int(c) * v for c, v in zip(k, ye, strict=True))
               for k in feasible_configurations(sizes, 1)
               if all(m is None or c <= m for c, m in zip(k, most, strict=True)))
    # the reported prices are the exact ones divided by a float: equal to rounding
    assert float(cert.upper) == pytest.approx(
        float(2 * best / sum(v * d for v, d in zip(ye, demand, strict=True))), rel=1e-12)
    assert cert.upper >= ref.lower


def test_a_bounded_dual_bound_from_the_unbounded_program_only_when_tight(monkeypatch):
    """Under copy bounds the unbounded program's maximum bounds the 0/1 one: the
    certificate uses it alone when that already meets the primal bound (the 0/1
    program is not run), and runs the 0/1 program when copies bind (a bound from the
    relaxation alone would not certify)."""
    import capacity.certificate as cm

    calls = []
    real = cm.knapsack_dp_bounded
    monkeypatch.setattr(cm, "knapsack_dp_bounded",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    # perfect pairs at prices proportional to the weights: no pattern, bounded or
    # not, is worth more than a full bin
    ws = [20, 80, 30, 70, 40, 60]
    loose = ConfigurationLP.of_instance(ws, 100)
    ref = solve_configuration_lp(loose, method="enumerate")
    calls.clear()
    cert = certify(loose, ref.mixture, np.array(ws, dtype=float))
    assert cert.certified and cert.exact and cert.upper == 2 and not calls
    # three jobs of weight 25 and one of 10: copies bind (4 x 25 would fill a bin)
    tight = ConfigurationLP.of_instance([25, 25, 25, 10], 100)
    ref = solve_configuration_lp(tight, method="enumerate")
    calls.clear()
    cert = certify(tight, ref.mixture, np.asarray(ref.dual))
    assert cert.certified and cert.exact and calls
