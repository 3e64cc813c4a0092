"""rho* (PG21 eq. (4)) through every ``method`` of the configuration LP: one common suite
(STYLE anchor 11) asserting that the methods agree, that every answer carries a valid
certificate (anchor 4: primal mixture of feasible configurations, dual prices under
which no maximal configuration prices above 1), and a catalogue of known values (anchor
5): PG21 VII-A.1 (0.4/0.6), VII-A.2 (capacity 10, sizes 2 and 5), Prop. 2 (1/2 -+ e).
Also the Gilmore-Gomory bin-packing bound z_LP = n / rho*.
"""

import json
import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from capacity import CERT_RTOL, bin_packing_lp, rho_star
from theory.configurations import feasible_configurations, is_feasible, maximal_configurations
from theory.distributions import Discrete

METHODS = ("enumerate", "column-generation")
FAST = settings(max_examples=30, deadline=None)
#: methods agree to this relative tolerance
AGREE_RTOL = 1e-9
#: slack for float comparisons of LP quantities (feasibility, prices)
LP_TOL = 1e-9

# ------------------------------------------------------------------ instances


@st.composite
def discrete_instance(draw):
    """(sizes, probs, servers, capacity, kind): small finite-type instances.

    kind "decimal": sizes/probs as exact decimal strings, capacity 1;
    kind "float":   sizes/probs as Python floats, capacity 1;
    kind "integer": integer capacity with integer sizes (exact).
    """
    kind = draw(st.sampled_from(["decimal", "float", "integer"]))
    T = draw(st.integers(1, 5))
    servers = draw(st.integers(1, 5))
    weights = draw(st.lists(st.integers(1, 9), min_size=T, max_size=T))
    tot = sum(weights)
    if kind == "integer":
        cap = draw(st.integers(5, 40))
        sizes = draw(st.lists(st.integers(1, cap), min_size=T, max_size=T, unique=True))
        probs = [F(w, tot) for w in weights]
    elif kind == "decimal":
        cents = draw(st.lists(st.integers(5, 100), min_size=T, max_size=T, unique=True))
        sizes = [str(F(c, 100)) if c == 100 else f"0.{c:02d}" for c in cents]
        probs = [f"{w}/{tot}" for w in weights]
        cap = 1
    else:
        sizes = draw(st.lists(st.floats(0.05, 1.0), min_size=T, max_size=T, unique=True))
        probs = [w / tot for w in weights]
        cap = 1
    return sizes, probs, servers, cap, kind


def exact_sizes(sizes):
    return [F(s) if isinstance(s, str) else s for s in sizes]


# ------------------------------------------------------------------ the common suite


def check_result(res, sizes, probs, servers, cap):
    """Everything a rho* answer must satisfy on its own (certificate re-checked here)."""
    P = np.array([float(F(p)) if isinstance(p, str) else float(p) for p in probs])
    lo, hi, val = float(res.lower), float(res.upper), res.value
    assert res.certified, res.message
    assert res.status == "optimal"
    assert lo <= val * (1 + 1e-12) and val <= hi * (1 + 1e-12)
    assert (hi - lo) <= CERT_RTOL * max(1.0, hi)
    assert res.servers == servers
    # primal: feasible configurations, weights >= 0 summing to <= 1, covering value * P
    assert res.mixture
    wsum = sum(t.weight for t in res.mixture)
    assert wsum <= 1 + LP_TOL
    supply = np.zeros(len(res.sizes))
    for t in res.mixture:
        assert t.weight > 0 and t.server_class == 0
        assert is_feasible(t.config.tolist(), res.sizes, cap)
        supply += servers * t.weight * t.config
    # res.sizes are the distinct sorted sizes with res.demand their probabilities
    dem = np.array([float(d) for d in res.demand])
    assert np.all(supply >= val * dem * (1 - 1e-7) - 1e-12)
    # dual: no maximal configuration prices above its bound (1 after scaling)
    y = np.asarray(res.dual, dtype=float)
    assert np.all(y >= 0)
    bound = float(res.dual_bound[0])
    assert bound == pytest.approx(1.0, rel=1e-12)
    K = maximal_configurations(res.sizes, cap)
    assert np.max(K @ y) <= bound * (1 + LP_TOL)
    # and these prices give the reported upper bound: rho <= L * beta / <y, P>
    assert servers * bound / float(y @ dem) == pytest.approx(hi, rel=1e-9)
    # Lemma 2: rho* <= L C / R-bar
    mean = float(np.dot(dem, [float(s) for s in res.sizes]))
    assert val <= servers * float(cap) / mean * (1 + 1e-12)
    assert len(P) >= len(dem)


@pytest.mark.parametrize("method", METHODS)
@FAST
@given(discrete_instance())
def test_certificate_is_valid(method, inst):
    sizes, probs, servers, cap, kind = inst
    res = rho_star(sizes, probs, servers=servers, capacity=cap, method=method)
    assert res.method == method
    assert res.exact_check == (kind != "float")
    check_result(res, sizes, probs, servers, cap)


@FAST
@given(discrete_instance())
def test_methods_agree(inst):
    sizes, probs, servers, cap, _kind = inst
    vals = {m: rho_star(sizes, probs, servers=servers, capacity=cap, method=m) for m in METHODS}
    ref = vals["enumerate"]
    for m, r in vals.items():
        assert r.value == pytest.approx(ref.value, rel=AGREE_RTOL), m
        # certified intervals of different methods must overlap
        assert float(r.lower) <= float(ref.upper) * (1 + 1e-12)
        assert float(ref.lower) <= float(r.upper) * (1 + 1e-12)


@FAST
@given(discrete_instance())
def test_rho_star_scales_with_servers(inst):
    """Identical servers: rho*(L) = L rho*(1) (the region is L Conv(K))."""
    sizes, probs, servers, cap, _kind = inst
    one = rho_star(sizes, probs, servers=1, capacity=cap, method="enumerate").value
    many = rho_star(sizes, probs, servers=servers, capacity=cap,
                    method="column-generation").value
    assert many == pytest.approx(servers * one, rel=AGREE_RTOL)


@FAST
@given(discrete_instance())
def test_decimal_and_float_inputs_agree(inst):
    sizes, probs, servers, cap, kind = inst
    if kind != "decimal":
        return
    exact = rho_star(sizes, probs, servers=servers, method="enumerate")
    flt = rho_star([float(F(s)) for s in sizes], [float(F(p)) for p in probs],
                   servers=servers, method="enumerate")
    assert exact.exact_check and not flt.exact_check
    assert flt.value == pytest.approx(exact.value, rel=1e-8)


# ------------------------------------------------------------------ known values


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("servers", [1, 3])
def test_pg21_fig3a_rho_star_is_2L(method, servers):
    """PG21 VII-A.1: sizes 0.4 and 0.6 equally likely; (1, 1) fits, so rho* = 2 L."""
    res = rho_star(["0.4", "0.6"], ["1/2", "1/2"], servers=servers, method=method)
    assert res.exact_check and res.certified
    assert res.lower <= 2 * servers <= res.upper
    assert res.value == pytest.approx(2 * servers, rel=1e-12)
    top = max(res.mixture, key=lambda t: t.weight)
    assert top.config.tolist() == [1, 1] and top.weight == pytest.approx(1.0)


def test_capacity10_sizes_2_5_configurations_by_hand():
    """Capacity 10, sizes 2 and 5: maximal configurations are (5,0), (2,1), (0,2)."""
    K = {tuple(int(v) for v in k) for k in maximal_configurations([2, 5], 10)}
    assert K == {(5, 0), (2, 1), (0, 2)}


@pytest.mark.parametrize("method", METHODS)
def test_pg21_fig3b_rho_star_is_10_over_3(method):
    """PG21 VII-A.2: capacity 10, sizes 2, 5 with P = (2/3, 1/3), one server.

    By hand: with prices y = (1/5, 1/2) the maximal configurations price 1, 9/10, 1 and
    <y, P> = 3/10, so rho* <= 10/3; the mixture 4/9 (5,0) + 5/9 (0,2) supplies
    (20/9, 10/9) = (10/3) P, so rho* = 10/3 (the paper's "4/9 mu_1 + 5/9 mu_2").
    """
    res = rho_star([2, 5], ["2/3", "1/3"], capacity=10, method=method)
    assert res.exact_check and res.certified
    assert res.lower <= F(10, 3) <= res.upper
    assert res.value == pytest.approx(10 / 3, rel=1e-12)
    mix = {tuple(t.config.tolist()): t.weight for t in res.mixture}
    assert set(mix) == {(5, 0), (0, 2)}
    assert mix[(5, 0)] == pytest.approx(4 / 9) and mix[(0, 2)] == pytest.approx(5 / 9)
    assert np.allclose(res.dual, [0.2, 0.5], rtol=1e-9)


def test_pg21_fig3b_normalised_capacity_is_the_same():
    a = rho_star([2, 5], ["2/3", "1/3"], capacity=10)
    b = rho_star(["0.2", "0.5"], ["2/3", "1/3"], capacity=1)
    assert a.value == pytest.approx(b.value, rel=1e-12)


PROP2_E = [F(1, 3), F(1, 7), F(1, 10), F(3, 17), F(1, 1000), F(1, 10**9), F(49, 100),
           F(1, 2) - F(1, 1000)]


#: denominators beyond 2**50 / 2**62: used to lose the exact certificate (regression)
PROP2_E_BIG = [F(1, 10**17), F(1, 10**30), F(7, 2**70)]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("e", PROP2_E + PROP2_E_BIG, ids=str)
def test_prop2_rho_star_is_exactly_2(method, e):
    """PG21 Prop. 2 / VIII-C: sizes 1/2 - e and 1/2 + e fit together perfectly: rho* = 2."""
    res = rho_star([F(1, 2) - e, F(1, 2) + e], [F(1, 2), F(1, 2)], method=method)
    assert res.certified and res.exact_check
    assert isinstance(res.lower, F) and isinstance(res.upper, F)
    assert res.lower <= 2 <= res.upper
    assert res.value == pytest.approx(2.0, rel=1e-12)


@pytest.mark.parametrize(("method", "eps"), [
    ("enumerate", F(1, 10**17)),
    ("enumerate", F(1, 10**30)),
    ("column-generation", F(1, 10**17)),
    ("column-generation", F(1, 10**30)),
], ids=str)
def test_near_perfect_fit_with_big_denominator_stays_exact(method, eps):
    """2/5 + (3/5 + eps) > 1 for every eps > 0: (1, 1) never fits, rho* = 4/3 exactly.
    A result may be uncertified, but its value must be right and a certified interval
    must contain 4/3. Regression: with denominators beyond 2**50 column generation used
    to price in floats and return 2.0 (certified, beyond 2**62)."""
    res = rho_star([F(2, 5), F(3, 5) + eps], [F(1, 2), F(1, 2)], method=method)
    assert res.value == pytest.approx(4 / 3, rel=1e-9)
    assert all(t.config.tolist() != [1, 1] for t in res.mixture)
    if res.certified:
        assert float(res.lower) <= 4 / 3 * (1 + 1e-12) <= float(res.upper) * (1 + 1e-12)


@pytest.mark.parametrize("e", ["0.1", "0.0001", "0.3"])
def test_prop2_decimal_strings(e):
    res = rho_star([str(F(1, 2) - F(e)), str(F(1, 2) + F(e))], ["0.5", "0.5"])
    assert res.certified and res.exact_check and res.lower <= 2 <= res.upper


@pytest.mark.parametrize("e", [0.1, 0.2, 0.3, 1e-6, 0.123456789])
def test_prop2_floats_fit_within_tolerance(e):
    res = rho_star([0.5 - e, 0.5 + e], [0.5, 0.5])
    assert res.certified and not res.exact_check
    assert res.value == pytest.approx(2.0, rel=1e-9)


def test_rho_star_of_a_discrete_distribution_object():
    d = Discrete(["0.4", "0.6"], ["1/2", "1/2"])
    assert rho_star(d, servers=2).value == pytest.approx(4.0)


def test_uniform_default_probabilities():
    assert rho_star(["0.4", "0.6"]).value == pytest.approx(2.0)


# ------------------------------------------------------------------ serialisation


@pytest.mark.parametrize("method", METHODS)
def test_to_dict_is_json(method):
    res = rho_star([2, 5], ["2/3", "1/3"], capacity=10, servers=2, method=method)
    d = res.to_dict("rho_star")
    text = json.dumps(d)
    back = json.loads(text)
    for key in ("rho_star", "servers", "method", "mixture", "dual", "certified"):
        assert key in back, key
    assert back["rho_star"] == pytest.approx(20 / 3)
    assert back["servers"] == 2 and back["method"] == method and back["certified"] is True
    assert len(back["dual"]) == 2
    assert sum(t["weight"] for t in back["mixture"]) <= 1 + LP_TOL
    assert back["certificate"]["lower_exact"] is not None
    assert F(back["certificate"]["lower_exact"]) == res.lower


def test_to_dict_float_instance_is_json():
    res = rho_star([0.3, 0.45, 0.7], [0.2, 0.5, 0.3], servers=4)
    back = json.loads(json.dumps(res.to_dict("rho_star")))
    assert back["certificate"]["lower_exact"] is None
    assert math.isfinite(back["rho_star"])


# ------------------------------------------------------------------ bin packing LP


def test_bin_packing_lp_by_hand():
    """Weights 3,3,3,3,7,7, capacity 10: configurations (3,0) and (1,1) over (threes,
    sevens); two (1,1) bins and 2/3 of a (3,0) bin cover the items: z_LP = 8/3 > 2.6."""
    res = bin_packing_lp([3, 3, 3, 3, 7, 7], 10)
    z = res.extra["z_lp"]
    assert z == pytest.approx(8 / 3, rel=1e-9)
    lo, hi = res.extra["z_lp_bounds"]
    assert float(lo) <= 8 / 3 <= float(hi)
    assert res.extra["l1"] == 3 and res.extra["lp_bins"] == 3
    assert res.extra["items"] == 6 and res.extra["distinct_weights"] == 2


@pytest.mark.parametrize(("weights", "cap", "z"), [
    ([4, 4, 4], 10, F(3, 2)),
    ([6, 6, 6], 10, F(3)),
    (["0.4", "0.6"], 1, F(1)),
    (["0.5", "0.5", "0.5"], 1, F(3, 2)),
])
def test_bin_packing_lp_small_known(weights, cap, z):
    res = bin_packing_lp(weights, cap)
    assert res.extra["z_lp"] == pytest.approx(float(z), rel=1e-9)
    lo, hi = res.extra["z_lp_bounds"]
    assert lo <= z <= hi


@FAST
@given(st.lists(st.integers(1, 10), min_size=1, max_size=12), st.integers(10, 15))
def test_bin_packing_lp_identities(weights, cap):
    res = bin_packing_lp(weights, cap)
    n = len(weights)
    z = res.extra["z_lp"]
    assert z == pytest.approx(n / res.value, rel=1e-12)
    assert z >= sum(weights) / cap * (1 - 1e-9)
    # z_LP never exceeds the number of items (one bin each) and the bracket holds it
    assert z <= n * (1 + 1e-9)
    lo, hi = res.extra["z_lp_bounds"]
    assert float(lo) <= z * (1 + 1e-9) and z <= float(hi) * (1 + 1e-9)
    # rho* of the empirical distribution, computed independently, gives the unbounded z;
    # bounding each weight's copies by its multiplicity can only raise it
    K = feasible_configurations(weights, cap)
    assert len(K) > 0
    zu = res.extra["z_lp_unbounded"]
    assert zu <= z * (1 + 1e-9)
    ref = rho_star(weights, None, capacity=cap, method="enumerate") if len(set(weights)) == n \
        else None
    if ref is not None:
        assert zu == pytest.approx(n / ref.value, rel=1e-9)
