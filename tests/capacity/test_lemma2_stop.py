"""Column generation stops once its mixture meets PG21 Lemma 2's bound L C / R-bar, and
proves the answer with prices proportional to the sizes; the certificate, not the stop
rule, decides what is certified."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

import capacity.configuration_solver as configuration_solver
import capacity.supportable_workload as supportable_workload
from capacity import bin_packing_lp, rho_star
from capacity.configuration_lp import ConfigurationLP, lemma2_bound, solve_configuration_lp
from theory.bounds import mean_size_bound
from theory.distributions import Discrete


def perfect_packing_sizes(seed: int, bins: int = 4, cap: int = 60) -> list[int]:
    """Items cut from full bins (3 or 4 per bin): L C / R-bar is attained by the LP."""
    rng = np.random.default_rng(seed)
    out: list[int] = []
    for _ in range(bins):
        m = int(rng.integers(3, 5))
        cuts = np.sort(rng.choice(np.arange(1, cap), m - 1, replace=False))
        out.extend(int(x) for x in np.diff(np.concatenate([[0], cuts, [cap]])))
    return out


def test_lemma2_bound_is_the_mean_size_bound():
    dist = Discrete([F(1, 5), F(1, 2)], [F(1, 3), F(2, 3)])
    lp = ConfigurationLP.build(dist.sizes, dist.probs, [(1, 3)])
    bound, r = lemma2_bound(lp)
    assert r == 0 and bound == mean_size_bound(3, dist)
    # two resources: the smaller of the two bounds, and its resource
    lp2 = ConfigurationLP.build([(F(1, 2), F(1, 10)), (F(1, 4), F(1, 5))], [F(1, 2)] * 2,
                                [((1, 1), 2)])
    b2, r2 = lemma2_bound(lp2)
    assert (b2, r2) == (min(2 / (F(3, 8)), 2 / F(3, 20)), 0)


def test_lemma2_is_written_once(monkeypatch):
    """The LP's bound is theory.bounds' closed form on the LP's room and load: a change
    there reaches the solver's stop rule."""
    import capacity.configuration_model as model
    import theory.bounds

    assert model.lemma2_by_resource is theory.bounds.lemma2_by_resource
    seen = []
    monkeypatch.setattr(model, "lemma2_by_resource",
                        lambda room, load: seen.append((room, load)) or (F(7), 0))
    lp = ConfigurationLP.build([(F(1, 2), F(1, 10)), (F(1, 4), F(1, 5))], [F(1, 2)] * 2,
                               [((1, 1), 2), ((F(1, 2), 1), 3)])
    assert lemma2_bound(lp) == (F(7), 0)
    # room sum_c n_c C_cr and load sum_j d_j s_jr, exact
    assert seen == [([2 * 1 + 3 * F(1, 2), F(5)], [F(3, 8), F(3, 20)])]
    assert all(type(v) is F for v in seen[0][0] + seen[0][1])


def test_stop_at_lemma2_agrees_with_enumeration():
    stopped = 0
    for seed in range(12):
        ws = perfect_packing_sizes(seed, bins=3, cap=30)
        types = sorted(set(ws))
        probs = [F(ws.count(s), len(ws)) for s in types]
        sizes = [F(s, 30) for s in types]
        cg = rho_star(sizes, probs, method="column-generation")
        ref = rho_star(sizes, probs, method="enumerate")
        assert cg.certified and ref.certified
        assert float(cg.value) == pytest.approx(float(ref.value), rel=1e-9)
        # the instances are what the test needs: Lemma 2 is tight
        bound = mean_size_bound(1, Discrete(sizes, probs))
        assert float(ref.value) == pytest.approx(float(bound), rel=1e-12)
        if cg.extra.get("stopped_at_lemma2"):
            assert "Lemma 2" in cg.message and cg.upper == bound
            stopped += 1
    assert stopped > 0


def test_stop_happens_and_certifies_a_bin_packing_instance(monkeypatch):
    ws = [w for s in range(6) for w in perfect_packing_sizes(100 + s, bins=8, cap=1000)]
    # the whole-LP path (perfect bins and a residual LP would prove it first)
    monkeypatch.setattr(supportable_workload, "lp_at_continuous_bound", lambda *a, **k: None)
    res = bin_packing_lp(ws, 1000)
    assert res.certified and res.extra["unbounded_certified"]
    assert res.extra["stopped_at_lemma2"]
    assert float(res.extra["z_lp"]) == pytest.approx(sum(ws) / 1000, rel=1e-9)


def test_a_wrong_bound_stops_early_but_is_not_certified(monkeypatch):
    """A stop rule fed a bound below the optimum stops column generation too early; the
    certificate (prices proportional to the sizes prove only the true L C / R-bar)
    refuses the answer instead of reporting it."""
    ws = [w for s in range(6) for w in perfect_packing_sizes(100 + s, bins=8, cap=1000)]
    types = sorted(set(ws))
    lp = ConfigurationLP.build([F(s, 1000) for s in types],
                               [F(ws.count(s), len(ws)) for s in types], [(1, 1)])
    true_bound, r = lemma2_bound(lp)
    monkeypatch.setattr(configuration_solver, "lemma2_bound",
                        lambda lp: (true_bound * F(9, 10), r))
    res = solve_configuration_lp(lp)
    assert res.extra.get("stopped_at_lemma2")
    assert not res.certified
    assert float(res.lower) < float(true_bound) * (1 - 1e-7)
