"""FL24 Sec. 7 figures: each headline fails on a table that looks like a plausible wrong
result, and the scales and job sets are the paper's setting (Sec. 7.1) as far as the
packaged trace goes."""

from __future__ import annotations

import numpy as np
import pytest

from proofs_checks.figures import FIGURES
from proofs_checks.figures.fl24 import POLICIES, job_sets
from theory.readers.azure import augment_resources


@pytest.fixture
def quick_table(quick):
    """A figure, its quick parameters and a copy of its CSV's frame to perturb."""

    def get(key):
        r = quick(key)
        return FIGURES[key], r.params, r.table.copy()

    return get


def _failing(fig, table, params, words):
    """The headlines that do not hold and contain every one of ``words``."""
    return [h.statement for h in fig.check(table, params)
            if not h.holds and all(w in h.statement for w in words)]


def _swap(table, a, b, column):
    t = table.copy()
    ia, ib = t[column] == a, t[column] == b
    t.loc[ia, column], t.loc[ib, column] = b, a
    return t


def _scale(table, curve, factor, where=None, columns=("awct",), key="curve"):
    t = table.copy()
    rows = t[key] == curve
    if where is not None:
        rows &= where(t)
    for c in columns:
        t.loc[rows, c] = t.loc[rows, c] * factor
    return t


def test_quick_headlines_hold(quick_table):
    for key in (f"fl24-fig{i}" for i in range(1, 8)):
        fig, params, table = quick_table(key)
        assert all(h.holds for h in fig.check(table, params)), key


def test_fig1_fails_when_erf_sorts_best(quick_table):
    fig, params, table = quick_table("fl24-fig1")
    bad = _swap(table, "erf", "wsjf", "curve")
    assert _failing(fig, bad, params, ["ERF has the highest"])
    assert _failing(fig, bad, params, ["WSJF and WSVF"])
    bad = _swap(table, "wsdf", "wsvf", "curve")
    assert _failing(fig, bad, params, ["WSDF comes next"])
    # with unit weights a weighted sort is its unweighted twin: no headline claims it
    assert not any("weighted and unweighted" in h.statement
                   for h in fig.check(table, params))
    assert "not tested" in fig.differs


def test_fig2_fails_on_the_papers_threefold_gap(quick_table):
    fig, params, table = quick_table("fl24-fig2")
    last = max(table["jobs"])
    worse = _scale(table, "mris-greedy", 3.0, lambda t: t["jobs"] == last,
                   ("awct", "ratio_to_mris"))
    assert _failing(fig, worse, params, ["within 5%"])
    first = min(table["jobs"])
    worse = _scale(table, "mris-greedy", 1.02, lambda t: t["jobs"] == first,
                   ("awct", "ratio_to_mris"))
    assert _failing(fig, worse, params, ["smallest N"])


def test_fig3_fails_when_mris_and_tetris_trade_places(quick_table):
    fig, params, table = quick_table("fl24-fig3")
    bad = _swap(table, "mris", "tetris", "curve")
    assert _failing(fig, bad, params, ["few jobs"])
    assert _failing(fig, bad, params, ["many jobs"])
    assert _failing(fig, _scale(table, "bf-exec", 1.2), params, ["perform similarly"])


def test_fig4_fails_when_mris_loses_with_few_machines(quick_table):
    fig, params, table = quick_table("fl24-fig4")
    assert _failing(fig, _swap(table, "mris", "ca-pq", "curve"), params, ["fewest machines"])
    # MRIS ahead, but not by the paper's margin
    m1 = min(table["machines"])
    bad = _scale(table, "mris", 1.4, lambda t: t["machines"] == m1,
                 ("awct", "ratio_to_tetris"))
    assert _failing(fig, bad, params, ["fewest machines"])
    assert _failing(fig, _swap(table, "mris", "pq-wsjf", "curve"), params, ["most machines"])


def test_fig5_fails_on_swapped_delays(quick_table):
    fig, params, table = quick_table("fl24-fig5")
    assert _failing(fig, _swap(table, "mris", "tetris", "policy"), params, ["far sooner"])
    # MRIS waits longer, but not ten times longer than BF-EXEC at the median
    bf = float(table.loc[table["policy"] == "bf-exec", "median_delay"].iloc[0])
    t = table.copy()
    t.loc[t["policy"] == "mris", "median_delay"] = 5 * bf
    assert _failing(fig, t, params, ["far sooner", "below a tenth"])
    assert _failing(fig, _swap(table, "mris", "ca-pq", "policy"), params, ["CA-PQ has the worst"])
    t = table.copy()
    t.loc[t["policy"] == "tetris", "cdf"] = np.maximum(t.loc[t["policy"] == "tetris", "cdf"], 0.6)
    assert _failing(fig, t, params, ["at their release"])


def test_fig6_fails_when_mris_suffers_most(quick_table):
    fig, params, table = quick_table("fl24-fig6")
    assert _failing(fig, _swap(table, "mris", "tetris", "curve"), params, ["TETRIS's AWCT rises"])
    top = max(table["resources"])
    bad = _scale(table, "pq-wsjf", 1.5, lambda t: t["resources"] == top)
    assert _failing(fig, bad, params, ["PQ-WSJF and BF-EXEC rise less"])


def test_fig7_fails_without_patience(quick_table):
    fig, params, table = quick_table("fl24-fig7")
    t = table.copy()
    t.loc[(t["policy"] == "mris") & (t["job"] == 0), "start"] = 0.0
    assert _failing(fig, t, params, ["commit to the long job"])
    t = table.copy()
    t.loc[t["policy"] == "tetris", "start"] = t.loc[t["policy"] == "tetris", "start"] + 1.0
    t.loc[(t["policy"] == "tetris") & (t["job"] == 0), "start"] = 1.0
    assert _failing(fig, t, params, ["commit to the long job"])
    assert _failing(fig, _scale(table, "mris", 6.0, key="policy"), params, ["twice lower"])


def test_paper_scales_are_the_papers_setting():
    for key in ("fl24-fig1", "fl24-fig2", "fl24-fig3"):
        p = FIGURES[key].scales["paper"]
        assert p["machines"] == 20 and p["sets"] == 10  # Sec. 7.1: M = 20, ten job sets
        assert p["jobs"][0] == 4000 and 64000 in p["jobs"] and p["jobs"][-1] == 4_096_000
    p = FIGURES["fl24-fig4"].scales["paper"]
    assert p["jobs"] == 64000 and 20 in p["machines"] and min(p["machines"]) == 1
    p = FIGURES["fl24-fig5"].scales["paper"]
    assert (p["jobs"], p["machines"]) == (64000, 20)
    p = FIGURES["fl24-fig6"].scales["paper"]
    assert (p["jobs"], p["machines"]) == (64000, 20)
    assert 4 in p["resources"] and max(p["resources"]) == 20  # "from 4 to 20"
    assert FIGURES["fl24-fig7"].scales["paper"]["jobs"] == 2500  # "N = 2500 jobs"
    for fig in (FIGURES[f"fl24-fig{i}"] for i in range(1, 8)):
        assert fig.paper_cost and fig.differs and not fig.unavailable


def test_job_sets_downsample_then_resample():
    params = FIGURES["fl24-fig3"].scales["paper"]
    at64k = job_sets(64000, params)  # f = floor(631,807 / 64,000) = 9 offsets at most
    offsets = [s["offset"] for s in at64k]
    assert len(offsets) == 9 and sorted(offsets) == list(range(9))
    at4k = job_sets(4000, params)
    assert len({s["offset"] for s in at4k}) == 10
    assert all(0 <= s["offset"] < 157 for s in at4k)
    big = job_sets(4_096_000, params)
    assert len(big) == 10 and all(s["offset"] is None for s in big)
    pts = FIGURES["fl24-fig3"].points(params)
    assert len(pts) == 10 + 10 + 9 + 3 * 10


def test_quick_points_and_augmentation():
    q = FIGURES["fl24-fig4"].scales["quick"]
    pts = FIGURES["fl24-fig4"].points(q)
    assert len(pts) == len(q["machines"]) * q["sets"]
    from theory.instances import patience_instance

    jobs = patience_instance(50, seed=3)
    more = augment_resources(jobs, 6, seed=1)
    assert more.resources == 6 and np.array_equal(more.demand[:, :2], jobs.demand)
    assert set(more.demand[:, 2:].ravel()) <= set(jobs.demand[:, 0])
    assert augment_resources(jobs, 2, seed=1).resources == 2
    with pytest.raises(ValueError):
        augment_resources(jobs, 1, seed=1)
    assert set(POLICIES) == {"mris", "pq-wsjf", "tetris", "bf-exec", "ca-pq"}


def test_job_sets_are_the_librarys_sec71_offsets():
    from theory.readers.azure import downsample_offsets

    for scale in ("quick", "paper"):
        params = FIGURES["fl24-fig1"].scales[scale]
        for n in params["jobs"]:
            if n <= params["downsample_max"]:
                got = [s["offset"] for s in job_sets(n, params)]
                assert got == downsample_offsets(n, params["sets"], seed=params["seed"])


def test_fig7_is_the_instance_of_check_fl24_patience(quick_table):
    """The figure's instance is patience_instance(n) with its default seed, the one the
    check FL24.Patience runs at the same n (300 quick, 2,500 in full), so the ratio the
    figure reports is the check's."""
    from proofs_checks.checks.fl24_schedules import check_patience
    from theory.instances import PATIENCE_SEED, patience_instance

    fig, params, table = quick_table("fl24-fig7")
    assert not fig.seeded
    for scale, n in (("quick", 300), ("paper", 2500)):
        assert fig.scales[scale] == {"jobs": n, "instance_seed": PATIENCE_SEED}
    assert set(table["instance_seed"]) == {PATIENCE_SEED}
    jobs = patience_instance(params["jobs"])
    mris = table[table["policy"] == "mris"].sort_values("job")
    assert np.allclose(mris["release"], jobs.arrival)
    assert np.allclose(mris["processing"], jobs.processing)
    v = check_patience(True)
    assert v.params == {"jobs": params["jobs"]} and v.seed == PATIENCE_SEED
    runs = table.drop_duplicates("policy").set_index("policy")
    best_other = min(runs.loc[p, "awct"] for p in ("pq-wsjf", "tetris", "bf-exec"))
    assert best_other / runs.loc["mris", "awct"] == pytest.approx(v.measured, rel=1e-9)
    assert f"{v.measured:.2f}" in fig.differs  # the ratio the text gives is this one


def test_the_csvs_record_the_knapsack_each_run_used(quick_table):
    for key, expect in (("fl24-fig2", {"mris": "cadp", "mris-greedy": "greedy",
                                       "mris-split": "split"}),
                        ("fl24-fig3", {"mris": "cadp", "tetris": "none"})):
        _, _, table = quick_table(key)
        used = table.groupby("curve")["knapsack_used"].agg(set).to_dict()
        for curve, k in expect.items():
            assert used[curve] == {k}, (key, curve)
        assert "cadp_fallbacks" not in table


@pytest.mark.parametrize("key", [f"fl24-fig{i}" for i in range(1, 8)])
def test_draw_reads_the_csv_alone(quick_table, key):
    """Titles and ticks come from the CSV: drawing with no parameters gives the same
    titles as with them."""
    from matplotlib.figure import Figure

    fig, params, table = quick_table(key)
    with_params, without = Figure(), Figure()
    fig.draw(table, params, with_params)
    fig.draw(table, {}, without)
    assert [a.get_title() for a in without.axes] == [a.get_title() for a in with_params.axes]
    assert [[t.get_text() for t in a.get_xticklabels()] for a in without.axes] == \
        [[t.get_text() for t in a.get_xticklabels()] for a in with_params.axes]
