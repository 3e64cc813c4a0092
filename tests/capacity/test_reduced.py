"""capacity.reduced: the capacity rho_VQS of the reduced configuration set K_RED^(J)
(PG21 Def. 6, Lemma 3, Thm. 3, Cor. 1) against rho* of the full configuration set.

Facts checked: Fig. 3a (sizes 0.4, 0.6 equally likely: rho_VQS = 4/3 = (2/3) rho*, the
2/3 of Thm. 3 is tight); rho_VQS <= rho* always (K_RED configurations are feasible);
rho_VQS >= (2/3) rho* when every size exceeds 1/2^J (Lemma 3 / Thm. 3) and
rho_VQS >= (1 - eps)(2/3) rho* with eps = F_R(1/2^J) otherwise (Cor. 1).
"""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from capacity.reduced import rho_vqs
from theory import Discrete, Uniform
from theory.configurations import reduced_configurations
from theory.partitions import universal_partition

FAST = settings(max_examples=30, deadline=None)
TOL = 1e-9


def test_fig3a_rho_vqs_is_4_over_3():
    """PG21 VII-A.1: K_RED^(3) can only use (2 e_2) or (e_1 + ...): rho_VQS = 4/3."""
    r = rho_vqs(Discrete(["0.4", "0.6"], ["1/2", "1/2"]), 3)
    assert r.J == 3 and r.servers == 1
    assert r.value == pytest.approx(4 / 3, rel=1e-12)
    assert r.lower <= F(4, 3) <= r.upper
    assert isinstance(r.lower, F) and isinstance(r.upper, F)
    assert r.rho_star_lower <= 2 <= r.rho_star_upper
    lo, hi = r.ratio_bounds
    assert lo <= 2 / 3 <= hi * (1 + 1e-15)
    assert r.ratio == pytest.approx(2 / 3, rel=1e-9)
    # P^(I): 0.6 in I_1 = (1/2, 2/3], 0.4 in I_2 = (1/3, 1/2]
    assert r.probabilities == [0, F(1, 2), F(1, 2), 0, 0, 0]
    labels = dict(r.mixture)
    assert labels["2^1 e_2"] == pytest.approx(1 / 3)
    assert sum(labels.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("servers", [1, 4])
@pytest.mark.parametrize("J", [2, 3, 5])
def test_fig3a_scales_with_servers_and_any_J(J, servers):
    r = rho_vqs(Discrete(["0.4", "0.6"], ["1/2", "1/2"]), J, servers=servers)
    assert r.lower <= F(4 * servers, 3) <= r.upper


def test_fig3b_rho_vqs():
    """PG21 VII-A.2 in capacity units of 10: sizes 0.2 (I_4, four per server in K_RED)
    and 0.5 (I_2, two per server), P = (2/3, 1/3): rho_VQS = 3 (4a = 2/3 rho,
    2(1 - a) = 1/3 rho), while rho* = 10/3."""
    r = rho_vqs(Discrete(["0.2", "0.5"], ["2/3", "1/3"]), 3)
    assert r.lower <= 3 <= r.upper
    assert r.rho_star_lower <= 10 / 3 <= r.rho_star_upper


def test_reduced_set_size_and_feasibility():
    """K_RED^(J) has 4J - 4 configurations, all feasible for the upper-rounded VQs."""
    for J in range(2, 7):
        red = reduced_configurations(J)
        assert len(red) == 4 * J - 4
        ups = universal_partition(J).upper_sizes
        for k in red.configs:
            assert sum(int(k[j]) * ups[j] for j in range(2 * J)) <= 1


@st.composite
def discrete_above(draw, allow_small=False):
    """Discrete F_R with exact sizes in (1/2^J, 1] (or anywhere in (0, 1])."""
    J = draw(st.integers(2, 4))
    T = draw(st.integers(1, 4))
    # small sizes down to 0.02 (tinier ones make rho* enumeration needlessly slow)
    lo = 19 if allow_small else 1000 // 2**J
    nums = draw(st.lists(st.integers(lo + 1, 1000), min_size=T, max_size=T, unique=True))
    w = draw(st.lists(st.integers(1, 9), min_size=T, max_size=T))
    servers = draw(st.integers(1, 3))
    d = Discrete([F(n, 1000) for n in nums], [F(x, sum(w)) for x in w])
    return d, J, servers


@FAST
@given(discrete_above())
def test_theorem3_two_thirds(inst):
    d, J, servers = inst
    assert all(s > F(1, 2**J) for s in d.sizes)
    r = rho_vqs(d, J, servers=servers)
    assert float(r.lower) <= r.value * (1 + 1e-12) and r.value <= float(r.upper) * (1 + 1e-12)
    # Lemma 3 / Thm. 3: rho_VQS >= (2/3) rho*
    assert float(r.upper) >= 2 / 3 * r.rho_star_lower * (1 - TOL)
    # K_RED is a subset of the feasible configurations: rho_VQS <= rho*
    assert float(r.lower) <= r.rho_star_upper * (1 + TOL)


@FAST
@given(discrete_above(allow_small=True))
def test_corollary1_with_small_sizes(inst):
    """Cor. 1: with eps = F_R(1/2^J), rho_VQS >= (1 - eps) (2/3) rho*; and <= rho*."""
    d, J, servers = inst
    eps = d.cdf(F(1, 2**J))
    r = rho_vqs(d, J, servers=servers)
    assert float(r.upper) >= float(1 - eps) * 2 / 3 * r.rho_star_lower * (1 - TOL)
    assert float(r.lower) <= r.rho_star_upper * (1 + TOL)


def test_prop2_pair_under_the_universal_partition():
    """PG21 Prop. 2's pair 1/2 -+ e: K_RED never pairs them, rho_VQS = 4/3 = (2/3) rho*."""
    for e in (F(1, 10), F(1, 100), F(1, 7)):
        r = rho_vqs(Discrete([F(1, 2) - e, F(1, 2) + e], [F(1, 2), F(1, 2)]), 4)
        assert r.lower <= F(4, 3) <= r.upper
        assert r.rho_star_lower <= 2 <= r.rho_star_upper


def test_continuous_uniform_ratio():
    """Uniform[0.1, 0.9] with J = 4 (sizes > 1/16): the certified ratio interval stays
    above 2/3 and below 1."""
    r = rho_vqs(Uniform("0.1", "0.9"), 4, levels=5, rtol=1e-2)
    lo, hi = r.ratio_bounds
    assert hi >= 2 / 3 and lo <= 1
    assert r.rho_star_lower <= 2 * (1 + 1e-12) <= r.rho_star_upper * (1 + 2e-12)
    d = r.as_dict()
    assert d["rho_vqs"] == r.value and d["J"] == 4


def test_bad_J_is_rejected():
    with pytest.raises(ValueError, match="J"):
        rho_vqs(Discrete(["0.4", "0.6"]), 1)


@pytest.mark.parametrize(("dist", "capacity", "unit"), [
    (Uniform("10", "90"), 100, Uniform("0.1", "0.9")),
    (Discrete([4, 6]), 10, Discrete(["0.4", "0.6"])),
])
def test_capacity_is_the_unit_of_the_sizes(dist, capacity, unit):
    """rho_vqs(F, J, capacity=C) is rho_vqs of F / C on unit servers, not of F itself."""
    got = rho_vqs(dist, 3, levels=3, capacity=capacity)
    want = rho_vqs(unit, 3, levels=3)
    assert (got.lower, got.upper) == (want.lower, want.upper)
    assert (got.rho_star_lower, got.rho_star_upper) == (want.rho_star_lower,
                                                         want.rho_star_upper)
    other = rho_vqs(dist.scaled(F(1, 2 * capacity)), 3, levels=3)
    assert other.value > 1.5 * got.value


def test_capacity_below_the_largest_size_is_refused():
    with pytest.raises(ValueError, match="sizes up to 9/10 exceed the server capacity 0.8"):
        rho_vqs(Uniform("0.1", "0.9"), 3, capacity="0.8")


def test_ratio_bounds_when_nothing_proves_rho_star_from_below():
    import dataclasses

    from capacity.reduced import rho_vqs
    from theory import Discrete

    v = rho_vqs(Discrete(["0.4", "0.6"]), J=3)
    failed = dataclasses.replace(v, rho_star_lower=0.0)  # what a failed check leaves
    lo, hi = failed.ratio_bounds
    assert lo == v.ratio_bounds[0] and hi == float("inf")
