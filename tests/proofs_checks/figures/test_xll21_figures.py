"""XLL21 Sec. VI figures: each headline fails on a table that looks like a plausible wrong
result, the scales are the paper's setting, and Fig. 12 says why it cannot be made."""

from __future__ import annotations

import pytest

from proofs_checks.figures import FigureError, figure, reproduce


def _holds(r, table, part):
    """Whether the one headline whose statement contains ``part`` holds on ``table``."""
    heads = r.figure.check(table, r.params)
    found = [h for h in heads if part in h.statement]
    assert len(found) == 1, [h.statement for h in heads]
    return found[0].holds


def _swap(table, column, a, b, rows=None):
    t = table.copy()
    sel = slice(None) if rows is None else rows(t)
    t.loc[sel, column] = t.loc[sel, column].replace({a: b, b: a})
    return t


# -- Figs. 2 and 8: l2 flowtime over time ---------------------------------------------------


@pytest.mark.parametrize("key,ours", [("xll21-fig2", "ocorp"), ("xll21-fig8", "ocorp-m")])
def test_flowtime_headline_fails_when_ours_and_srvf_swap(quick, key, ours):
    r = quick(key)
    assert r.holds
    t = _swap(r.table, "policy", ours, "srvf", rows=lambda t: t["curve"] == "actual")
    assert not _holds(r, t, "ends above the mean of SVF, SRVF and SRPT")
    assert _holds(r, t, "at or above the lower bound")


@pytest.mark.parametrize("key", ["xll21-fig2", "xll21-fig8"])
def test_flowtime_lower_bound_fails_when_raised_over_a_curve(quick, key):
    r = quick(key)
    t = r.table.copy()
    t["lower_bound"] = 1.5 * t.loc[t["policy"] == "srf", "l2_flowtime"].max()
    assert not _holds(r, t, "at or above the lower bound")


@pytest.mark.parametrize("key", ["xll21-fig2", "xll21-fig8"])
def test_fractional_headline_fails_when_the_curve_is_raised(quick, key):
    r = quick(key)
    t = r.table.copy()
    t.loc[t["curve"] == "fractional", "l2_flowtime"] *= 1.5
    assert not _holds(r, t, "fractional curve ends below")


# -- Figs. 3 and 9: unfinished work ---------------------------------------------------------


@pytest.mark.parametrize("key,ours", [("xll21-fig3", "ocorp"), ("xll21-fig9", "ocorp-m")])
def test_unfinished_headline_fails_when_ours_and_srf_swap(quick, key, ours):
    r = quick(key)
    assert r.holds
    t = _swap(r.table, "policy", ours, "srf")
    assert not _holds(r, t, "carries the most unfinished work")


@pytest.mark.parametrize("key,ours", [("xll21-fig3", "ocorp"), ("xll21-fig9", "ocorp-m")])
def test_gamma_headline_fails_when_jobs_finish_late(quick, key, ours):
    r = quick(key)
    t = r.table.copy()
    t.loc[t["policy"] == ours, "done_by_gamma"] = 0.6
    assert not _holds(r, t, "most jobs complete by Gamma")


def test_fig3_srf_makespan_fails_when_srf_finishes_last(quick):
    r = quick("xll21-fig3")
    t = r.table.copy()
    t.loc[t["policy"] == "srf", "makespan"] = t["makespan"].max() + 1
    assert not _holds(r, t, "SRF has the shortest makespan")


# -- Figs. 4 and 10: waiting time by size ---------------------------------------------------


@pytest.mark.parametrize("key,ours", [("xll21-fig4", "ocorp"), ("xll21-fig10", "ocorp-m")])
def test_waiting_headline_fails_when_ours_and_srpt_swap(quick, key, ours):
    r = quick(key)
    assert r.holds
    assert not _holds(r, _swap(r.table, "policy", ours, "srpt"), "longest 10% of jobs")


def test_fig4_srf_spread_fails_when_srf_waits_like_svf(quick):
    r = quick("xll21-fig4")
    t = r.table.copy()
    svf = t.loc[t["policy"] == "svf", "waiting"].to_numpy()
    t.loc[t["policy"] == "srf", "waiting"] = svf
    assert not _holds(r, t, "SRF's waiting times vary more")


# -- Figs. 5-7: OCORP+ ----------------------------------------------------------------------


def test_fig5_fails_when_alpha_100_is_much_slower(quick):
    r = quick("xll21-fig5")
    assert r.holds
    t = r.table.copy()
    t.loc[t["alpha"] == 100, "l2_flowtime"] *= 1.3
    assert not _holds(r, t, "hardly depends on alpha")
    assert _holds(r, t, "is OCORP")


def test_fig5_fails_when_alpha_0_departs_from_ocorp(quick):
    r = quick("xll21-fig5")
    t = r.table.copy()
    t.loc[t["policy"] == "ocorp", "l2_flowtime"] *= 1.1
    assert not _holds(r, t, "is OCORP")


def test_fig6_fails_when_alphas_swap(quick):
    r = quick("xll21-fig6")
    assert r.holds
    t = _swap(r.table, "alpha", 0.0, 100.0)
    assert not _holds(r, t, "preemptions fall as alpha grows")
    assert not _holds(r, t, "cuts the preemptions of short jobs")


def test_fig6_long_jobs_fail_when_their_preemptions_vanish(quick):
    r = quick("xll21-fig6")
    t = r.table.copy()
    t.loc[(t["alpha"] == 100) & (t["processing"] >= 100), "preemptions"] = 0
    assert not _holds(r, t, "keep their preemptions")


def test_fig7_fails_when_migrations_outnumber_preemptions(quick):
    r = quick("xll21-fig7")
    assert r.holds
    t = r.table.copy()
    t["migrations"] = t["preemptions"] + 1
    assert not _holds(r, t, "migrations are rarer than preemptions")


def test_fig7_fails_when_alphas_swap(quick):
    r = quick("xll21-fig7")
    assert not _holds(r, _swap(r.table, "alpha", 0.0, 100.0), "trades preemptions for migrations")


# -- Fig. 11: misestimation -----------------------------------------------------------------


@pytest.mark.parametrize("panel,ours", [("1D", "ocorp"), ("2D", "ocorp-m")])
def test_fig11_fails_when_ours_and_srf_swap(quick, panel, ours):
    r = quick("xll21-fig11")
    assert r.holds
    t = _swap(r.table, "policy", ours, "srf", rows=lambda t: t["panel"] == panel)
    assert not _holds(r, t, f"here ({panel})")
    other = "2D" if panel == "1D" else "1D"
    assert _holds(r, t, f"here ({other})")


def test_fig11_fails_when_noise_helps_a_policy(quick):
    r = quick("xll21-fig11")
    t = r.table.copy()
    top = (t["panel"] == "1D") & (t["policy"] == "svf") & (t["sigma2"] == t["sigma2"].max())
    t.loc[top, "flowtime_lk.mean"] = 0.5 * t.loc[top, "flowtime_lk.mean"]
    assert not _holds(r, t, "(1D) misestimation costs every policy")
    assert _holds(r, t, "(2D) misestimation costs every policy")


# -- Fig. 12 and the scales ----------------------------------------------------------------


def test_fig12_is_unavailable_with_its_reason(tmp_path):
    with pytest.raises(FigureError, match="map and reduce phases.*xll21-fig2"):
        reproduce("xll21-fig12", out=tmp_path)


KEYS = [f"xll21-fig{n}" for n in range(2, 12)]


@pytest.mark.parametrize("key", KEYS)
def test_paper_scale_is_the_papers_setting(key):
    from theory.readers.trace_job_sets import xll21_cluster

    p = figure(key).scales["paper"]
    assert p["max_jobs"] is None  # every packaged job (the paper: 6,487, not packaged)
    assert p["slot_seconds"] == 10 and p["k"] == 2  # VI-1: 10 s slots, the l_2 norm
    cores = sorted(xll21_cluster(*p["machines"]).capacity[:, 0].tolist())
    assert set(cores) == {16.0, 32.0, 64.0}  # VI: servers of 64, 32 and 16 cores
    # the quick scale: the first 250 jobs, the rest as the paper's (Fig. 11: fewer draws)
    q = figure(key).scales["quick"]
    assert q["max_jobs"] == 250
    same = set(p) - {"max_jobs", "sigma2", "replications"}
    assert {k: q[k] for k in same} == {k: p[k] for k in same}


def test_points_are_the_papers_policies_and_alphas():
    fig2 = figure("xll21-fig2")
    pols = [pt["policy"] for pt in fig2.points(fig2.scales["paper"])]
    assert pols == ["ocorp", "srpt", "srvf", "svf", "srf"]  # VI-A: OCORP and four baselines
    assert [pt["policy"] for pt in figure("xll21-fig8").points({})][0] == "ocorp-m"
    for key in ("xll21-fig6", "xll21-fig7"):
        assert [pt["alpha"] for pt in figure(key).points({})] == [0, 10, 100]
    assert [pt["alpha"] for pt in figure("xll21-fig5").points({})] == [None, 0, 10, 100]
    assert all(not figure(k).seeded for k in KEYS if k != "xll21-fig11")


def test_fig11_paper_scale_is_five_draws_of_each_variance():
    fig = figure("xll21-fig11")
    p = fig.scales["paper"]
    assert fig.seeded and p["replications"] == 5  # VI-D: "repeat the experiment five times"
    assert p["sigma2"] == [0.2, 0.4, 0.6, 0.8, 1.0]  # "we tune sigma^2 from 0.2 to 1"
    assert [pt["sigma2"] for pt in fig.points(p)] == p["sigma2"]
