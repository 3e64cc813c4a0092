"""PG18's figures: each headline can fail (the quick table, perturbed the way a wrong
result would look, must turn it False), and the scales are the paper's setting."""

from __future__ import annotations

import pytest

from proofs_checks.figures import FIGURES


def _table(quick, key):
    r = quick(key)
    return FIGURES[key], r.params, r.table.copy()


def _holds(fig, table, params):
    return {h.statement: h.holds for h in fig.check(table, params)}


def _failing(fig, table, params, words):
    """The headlines that do not hold and contain every one of ``words``."""
    return [s for s, ok in _holds(fig, table, params).items()
            if not ok and all(w in s for w in words)]


def _swap(table, a, b, column="policy"):
    t = table.copy()
    ia, ib = t[column] == a, t[column] == b
    t.loc[ia, column], t.loc[ib, column] = b, a
    return t


# -- the headlines can fail -------------------------------------------------------------

def test_fig1b_fails_when_bf_is_stable_or_rms_unstable(quick):
    fig, params, t = _table(quick, "pg18-fig1b")
    assert all(_holds(fig, t, params).values())
    flipped = t.copy()
    flipped.loc[flipped["curve"] == "bf", "verdict"] = "stable"
    assert _failing(fig, flipped, params, ["Best-Fit (BF", "unstable"])
    swapped = _swap(t, "bf", "rms, clock 20", column="curve")
    assert _failing(fig, swapped, params, ["Best-Fit (BF"])
    assert _failing(fig, swapped, params, ["clock rate 20"])
    fifo = t.copy()
    fifo.loc[fifo["curve"] == "bf-fifo", "verdict"] = "inconclusive"
    assert _failing(fig, fifo, params, ["earliest-arrived"])


def test_fig2_fails_when_the_clock_does_not_help(quick):
    fig, params, t = _table(quick, "pg18-fig2")
    assert all(_holds(fig, t, params).values())
    fast = t["clock"] == t["clock"].max()
    one = fast & (t["panel"] == "a") & (t["servers"] == t["servers"].min())
    raised = t.copy()
    raised.loc[one, "mean_queue"] *= 100  # the fastest clock worse than the slowest
    assert _failing(fig, raised, params, ["faster clock reduces"])
    no_knee = t.copy()
    no_knee.loc[one, "mean_queue"] /= 1000  # the last step the largest gain
    assert _failing(fig, no_knee, params, ["saturation: on every curve"])


def _curve_swapped(t, panel, column):
    """The table with the curves of the smallest and largest ``column`` of a panel
    swapped (the figure drawn with the labels the wrong way round)."""
    t = t.copy()
    p = t["panel"] == panel
    lo, hi = t.loc[p, column].min(), t.loc[p, column].max()
    ilo, ihi = p & (t[column] == lo), p & (t[column] == hi)
    t.loc[ilo, column], t.loc[ihi, column] = hi, lo
    return t


def test_fig2_saturation_clock_is_the_curves_shape_not_its_level(quick):
    fig, params, t = _table(quick, "pg18-fig2")
    a = t["panel"] == "a"
    # the knee of the most servers' curve at the fewest servers' clock: (a) fails
    assert _failing(fig, _curve_swapped(t, "a", "servers"), params, ["(a) the clock has"])
    # a curve of many servers that saturates at once (its best from the third clock on)
    big = a & (t["servers"] == t.loc[a, "servers"].max())
    early = t.copy()
    clocks = sorted(t["clock"].unique())
    best = t.loc[big, "mean_queue"].min()
    early.loc[big & (t["clock"] >= clocks[2]), "mean_queue"] = best
    assert _failing(fig, early, params, ["(a) the clock has"])
    # a higher level alone (the same shape ten times higher) moves no saturation clock:
    # the headline does not test that the queue grows with the load
    level = t.copy()
    level.loc[big, "mean_queue"] *= 10
    assert _holds(fig, level, params) == _holds(fig, t, params)
    # (b) here: the saturation clock does not grow with the intensity; the curves of the
    # lowest and highest intensity swapped make it grow
    assert _failing(fig, _curve_swapped(t, "b", "intensity"), params,
                    ["here: (b) the saturation clock"])


def test_fig3_fails_when_a_variant_is_worse(quick):
    fig, params, t = _table(quick, "pg18-fig3")
    assert all(_holds(fig, t, params).values())
    assert _failing(fig, _swap(t, "rms", "rms-rf"), params, ["RMS-RF has a smaller"])
    assert _failing(fig, _swap(t, "rms-bf", "rms-bf-ad"), params, ["RMS-BF-AD has"])
    assert _failing(fig, _swap(t, "rms", "rms-ad"), params, ["RMS-AD has"])


def test_fig4_fails_when_jsq_is_better(quick):
    fig, params, t = _table(quick, "pg18-fig4")
    assert all(_holds(fig, t, params).values())
    assert _failing(fig, _swap(t, "rms", "rms-jsq"), params, ["RMS+JSQ"])


def test_fig5_fails_on_a_wrong_ranking_or_verdict(quick):
    fig, params, t = _table(quick, "pg18-fig5")
    assert all(_holds(fig, t, params).values())
    assert _failing(fig, _swap(t, "rms-rf-ad-plus", "mws"), params, ["RMS-RF-AD+ has"])
    assert _failing(fig, _swap(t, "bf", "rms-rf-ad-plus"), params, ["BF has the smallest"])
    assert _failing(fig, _swap(t, "rms", "mws"), params, ["RMS has a smaller", "MWS"])
    top = t["intensity"] == t["intensity"].max()
    stable = t.copy()
    stable.loc[top & (t["policy"] == "mwr"), ["verdict", "run_verdicts"]] = ["stable", "s"]
    assert _failing(fig, stable, params, ["MWR becomes unstable"])
    bad = t.copy()
    bad.loc[top & (t["policy"] == "rms-rf-ad"), "run_verdicts"] = "u"
    assert _failing(fig, bad, params, ["no run of theirs"])


def test_fig6_fails_when_the_trends_are_wrong(quick):
    fig, params, t = _table(quick, "pg18-fig6")
    assert all(_holds(fig, t, params).values())
    big = t["servers"] == t["servers"].max()
    grown = t.copy()
    grown.loc[big & (t["policy"] == "rms"), "mean_queue"] *= 2
    assert _failing(fig, grown, params, ["about constant"])
    grown.loc[big & (t["policy"] == "bf"), "mean_queue"] *= 10
    assert _failing(fig, grown, params, ["BF's queue decreases"])
    grown.loc[big & (t["policy"] == "mws"), "mean_queue"] /= 100
    assert _failing(fig, grown, params, ["MWS's queue grows"])
    v = t.copy()
    v.loc[big & (t["policy"] == "mwr"), ["verdict", "run_verdicts"]] = ["inconclusive", "i"]
    assert _failing(fig, v, params, ["MWR is unstable"])
    # the verdict column decides, not the runs' letters (the library settles a wide pool
    # of unanimous runs itself, in ``verdict``)
    v.loc[big & (t["policy"] == "mwr"), "run_verdicts"] = "uuu"
    assert _failing(fig, v, params, ["MWR is unstable"])


def test_fig7_fails_on_flat_arrivals_or_work(quick):
    fig, params, t = _table(quick, "pg18-fig7")
    assert all(_holds(fig, t, params).values())
    flat = t.copy()
    flat["arrivals"] = int(t["arrivals"].mean())
    assert _failing(fig, flat, params, ["here: the trace used is bursty"])
    even = t.copy()
    even["offered_load"] = t["offered_load"].mean()
    assert _failing(fig, even, params, ["here: the trace used is bursty"])


def test_fig8_fails_when_the_ranking_changes(quick):
    fig, params, t = _table(quick, "pg18-fig8")
    assert all(_holds(fig, t, params).values())
    assert _failing(fig, _swap(t, "rms", "rms-ad"), params, ["adaptive variants"])
    assert _failing(fig, _swap(t, "rms-rf-ad", "rms-rf-ad-plus"), params,
                    ["here: RMS-RF-AD+ has the smallest"])
    assert _failing(fig, _swap(t, "mwr", "rms-rf-ad-plus"), params, ["MWR and BF"])


# -- verdicts: the library's rule, one run its own ------------------------------------

def _run(drift, verdict):
    return {"mean_queue": 1.0, "ticks_per_time": 1.0, "dummy": 0.0, "relative_drift": drift,
            "verdict": verdict, "verdict_reason": None}


def test_verdicts_are_the_librarys_pool_and_one_run_its_own():
    from proofs_checks.figures.pg18 import _aggregate

    rows = ([{"x": 1, **_run(d, "unstable")} for d in (0.01, 0.3, 0.15)]  # wide, unanimous
            + [{"x": 2, **_run(d, v)} for d, v in ((0.01, "inconclusive"), (0.3, "unstable"),
                                                   (0.15, "unstable"))]  # wide, not unanimous
            + [{"x": 3, **_run(0.2, "unstable")}]  # one run
            + [{"x": 4, **_run(d, "unstable")} for d in (0.20, 0.21, 0.19)])  # narrow
    t = _aggregate(rows, ["x"]).set_index("x")
    assert t.loc[1, ["verdict", "verdict_by"]].tolist() == ["unstable", "unanimous"]
    assert t.loc[2, ["verdict", "verdict_by"]].tolist() == ["inconclusive", "pooled"]
    assert t.loc[3, ["verdict", "verdict_by"]].tolist() == ["unstable", "one run"]
    assert t.loc[4, ["verdict", "verdict_by"]].tolist() == ["unstable", "pooled"]
    assert t.loc[2, "run_verdicts"] == "iuu"


def test_fig1b_pools_replications_with_the_library():
    from proofs_checks.figures.pg18 import _pooled

    assert _pooled([0.01, 0.3, 0.15], ["unstable"] * 3) == ("unstable", "unanimous")
    assert _pooled([0.01, 0.3, 0.15], ["stable", "unstable", "unstable"])[0] == "inconclusive"
    assert _pooled([0.0, 0.001, -0.001], ["stable"] * 3) == ("stable", "pooled")
    assert _pooled([None], ["inconclusive"]) == ("inconclusive", "one run")


@pytest.mark.parametrize("key", ["pg18-fig1b", "pg18-fig2", "pg18-fig3", "pg18-fig4",
                                 "pg18-fig5", "pg18-fig6", "pg18-fig7", "pg18-fig8"])
def test_drawn_from_the_csv_alone(quick, key):
    """draw() needs no parameter: titles and ticks come from the table."""
    from matplotlib.figure import Figure

    fig, _, t = _table(quick, key)
    fig.draw(t, {}, Figure())


# -- points and scales -----------------------------------------------------------------

PG18 = [k for k in FIGURES if k.startswith("pg18-")]


def test_every_pg18_figure_is_registered_with_both_scales():
    assert sorted(PG18) == sorted(["pg18-fig1b", "pg18-fig2", "pg18-fig3", "pg18-fig4",
                                   "pg18-fig5", "pg18-fig6", "pg18-fig7", "pg18-fig8"])
    for key in PG18:
        fig = FIGURES[key]
        assert fig.unavailable is None and set(fig.scales) == {"quick", "paper"}
        assert fig.paper == "PG18" and fig.paper_cost and fig.__doc__


def test_fig2_points_share_the_point_of_both_panels():
    fig = FIGURES["pg18-fig2"]
    p = fig.scales["paper"]
    assert p["servers_b"] == 20 and p["intensity_a"] == 0.9 and p["replications"] == 3
    pts = fig.points(p)
    # (a) L = 10..40 at 0.9 and (b) 20 servers at 0.8..0.95 share (20, 0.9)
    assert len(pts) == len(p["servers_a"]) + len(p["intensities_b"]) - 1
    shared = [q for q in pts if len(q["panels"]) == 2]
    assert shared == [{"servers": 20, "intensity": 0.9, "panels": ["a", "b"]}]


@pytest.mark.parametrize("key", ["pg18-fig3", "pg18-fig4", "pg18-fig5"])
def test_synthetic_sweeps_are_sec_vii_a(key):
    fig = FIGURES[key]
    p = fig.scales["paper"]
    # 20 servers, intensity 0.8 to 0.95, clocks summing to 30 ticks per time unit, 3 runs
    assert p["servers"] == 20 and p["total_clock"] == 30.0 and p["replications"] == 3
    assert min(p["intensities"]) == 0.8 and max(p["intensities"]) == 0.95
    pts = fig.points(p)
    assert [q["intensity"] for q in pts] == p["intensities"]
    assert all(fig.clock(q, p) * 3 == 30.0 for q in pts)
    assert p["f"] == "log"  # Sec. VII-A: f(x) = log(1 + x)


def test_fig6_clock_is_the_number_of_servers():
    fig = FIGURES["pg18-fig6"]
    p = fig.scales["paper"]
    assert p["servers"] == [20, 30, 40, 50] and p["intensity"] == 0.9
    assert [fig.clock(q, p) for q in fig.points(p)] == [20.0, 30.0, 40.0, 50.0]


def test_trace_figures_use_the_whole_packaged_trace_at_paper_scale():
    f7, f8 = FIGURES["pg18-fig7"], FIGURES["pg18-fig8"]
    assert f7.scales["paper"]["max_arrivals"] is None and f7.scales["paper"]["window"] == 1200
    assert f8.scales["paper"]["max_arrivals"] is None and not f7.seeded
    assert f7.scales["quick"]["max_arrivals"] == f8.scales["quick"]["max_arrivals"]
    assert [q["traffic_scaling"] for q in f8.points(f8.scales["paper"])] == \
        f8.scales["paper"]["scalings"]


def test_fig1b_runs_best_fit_and_rms():
    fig = FIGURES["pg18-fig1b"]
    names = [name for name, _ in fig.curves]
    assert "bf" in names and "rms" in names
    assert fig.scales["paper"]["horizon"] > fig.scales["quick"]["horizon"]
    assert fig.points(fig.scales["paper"]) == [{}]
