"""PG21 Sec. VII figures: each headline fails on a table that looks like a plausible wrong
result, and the scales are the paper's settings (Fig. 3b, 4a/4b, 5)."""

from __future__ import annotations

from proofs_checks.figures.pg21 import FIG4_SIZES, FIG5_POLICIES, Fig3b, Fig4, Fig5


def _holds(r, table, start):
    """Whether the headline starting with ``start`` holds on ``table``."""
    found = [h for h in r.figure.check(table, r.params) if h.statement.startswith(start)]
    assert len(found) == 1, [h.statement for h in r.figure.check(table, r.params)]
    return found[0].holds


def _swap(table, column, a, b):
    t = table.copy()
    t[column] = t[column].replace({a: b, b: a})
    return t


# -- Fig. 3b ------------------------------------------------------------------------------


def test_fig3b_fails_when_vqs_bf_is_judged_stable(quick):
    r = quick("pg21-fig3b")
    assert r.holds
    t = r.table.copy()
    t.loc[t["policy"] == "vqs-bf", "verdict"] = "stable"
    assert not _holds(r, t, "VQS-BF is unstable")
    assert _holds(r, t, "BF-J/S is unstable")


def test_fig3b_fails_when_vqs_and_bf_js_swap(quick):
    r = quick("pg21-fig3b")
    t = _swap(r.table, "policy", "vqs", "bf-js")
    assert not _holds(r, t, "VQS is stable")
    assert not _holds(r, t, "BF-J/S is unstable")


# -- Fig. 4 -------------------------------------------------------------------------------


def test_fig4_fails_when_vqs_is_not_the_worst(quick):
    r = quick("pg21-fig4")
    assert r.holds
    assert not _holds(r, _swap(r.table, "policy", "vqs", "bf-js"), "VQS has the largest")


def test_fig4a_comparable_fails_when_vqs_bf_is_raised_at_low_alpha(quick):
    r = quick("pg21-fig4")
    t = r.table.copy()
    rows = (t["panel"] == "4a") & (t["policy"] == "vqs-bf") & (t["alpha"] <= 0.95)
    t.loc[rows, "mean_queue"] *= 2
    assert not _holds(r, t, "Fig. 4a, alpha <= 0.95")
    assert _holds(r, t, "Fig. 4a above alpha = 0.95")


def test_fig4a_advantage_fails_when_the_top_point_is_level(quick):
    r = quick("pg21-fig4")
    t = r.table.copy()
    top = (t["panel"] == "4a") & (t["alpha"] == t["alpha"].max())
    bf = t.loc[top & (t["policy"] == "bf-js"), "mean_queue"].iloc[0]
    t.loc[top & (t["policy"] == "vqs-bf"), "mean_queue"] = 1.2 * bf
    assert not _holds(r, t, "Fig. 4a above alpha = 0.95")


def test_fig4b_advantage_fails_when_bf_js_and_vqs_bf_swap(quick):
    r = quick("pg21-fig4")
    t = r.table.copy()
    panel = t["panel"] == "4b"
    t.loc[panel, "policy"] = t.loc[panel, "policy"].replace({"bf-js": "vqs-bf",
                                                             "vqs-bf": "bf-js"})
    assert not _holds(r, t, "Fig. 4b")
    assert _holds(r, t, "Fig. 4a, alpha <= 0.95")


def test_fig4_table_has_pooled_verdicts_and_intervals(quick):
    r = quick("pg21-fig4")
    t = r.table
    assert set(t["policy"]) == {"bf-js", "vqs", "vqs-bf"}
    assert set(t["panel"]) == set(FIG4_SIZES)
    assert (t["runs"] == r.params["replications"]).all()
    assert t["verdict"].isin(["stable", "unstable", "inconclusive"]).all()
    assert (t["mean_queue_ci"] >= 0).all()
    # the library's pooled verdict: a pool the interval leaves open, with the runs' own
    # verdicts unanimous, takes that verdict (two replications: one degree of freedom)
    assert (t.loc[t["unanimous"], "verdict"] != "inconclusive").all()
    assert t["unanimous"].any()


# -- Fig. 5 -------------------------------------------------------------------------------


def test_fig5_fails_when_fifo_ff_and_bf_js_swap(quick):
    r = quick("pg21-fig5")
    assert r.holds
    t = _swap(r.table, "policy", "fifo-ff", "bf-js")
    assert not _holds(r, t, "above traffic scaling 1, BF-J/S and VQS-BF have the two smallest")
    assert not _holds(r, t, "at the largest traffic scaling")


def test_fig5_two_smallest_fails_when_fifo_ff_leads_at_one_scaling_above_1(quick):
    r = quick("pg21-fig5")
    t = r.table.copy()
    mid = t["traffic_scaling"] == sorted(set(t["traffic_scaling"]))[1]
    best = t.loc[mid & t["policy"].isin(["bf-js", "vqs-bf"]), "mean_queue"].max()
    t.loc[mid & (t["policy"] == "fifo-ff"), "mean_queue"] = best  # a tie is no advantage
    assert not _holds(r, t, "above traffic scaling 1, BF-J/S and VQS-BF have the two smallest")
    assert _holds(r, t, "at the largest traffic scaling")


def test_fig5_scaling_1_is_not_judged(quick):
    """The paper claims the advantage as traffic scaling increases: at scaling 1 the
    policies may be level, even all with empty queues (0 / 0), and nothing fails."""
    r = quick("pg21-fig5")
    t = r.table.copy()
    t.loc[t["traffic_scaling"] == 1, "mean_queue"] = 0.0
    assert all(h.holds for h in r.figure.check(t, r.params)), \
        [(h.statement, h.measured) for h in r.figure.check(t, r.params) if not h.holds]


def test_fig5_advantage_growth_fails_when_it_is_largest_at_scaling_1(quick):
    r = quick("pg21-fig5")
    t = r.table.copy()
    low = t["traffic_scaling"] == 1
    best = t.loc[low & t["policy"].isin(["bf-js", "vqs-bf"]), "mean_queue"].max()
    t.loc[low & t["policy"].isin(["vqs", "fifo-ff"]), "mean_queue"] = 3 * best
    assert not _holds(r, t, "BF-J/S's and VQS-BF's advantage grows")
    assert _holds(r, t, "at the largest traffic scaling")


def test_fig5_clear_advantage_fails_when_the_others_close_in(quick):
    r = quick("pg21-fig5")
    t = r.table.copy()
    top = t["traffic_scaling"] == t["traffic_scaling"].max()
    best = t.loc[top & t["policy"].isin(["bf-js", "vqs-bf"]), "mean_queue"].max()
    t.loc[top & t["policy"].isin(["vqs", "fifo-ff"]), "mean_queue"] = 1.2 * best
    assert _holds(r, t, "above traffic scaling 1, BF-J/S and VQS-BF have the two smallest")
    assert not _holds(r, t, "at the largest traffic scaling")


def test_fig5_small_advantage_fails_when_vqs_bf_is_behind(quick):
    r = quick("pg21-fig5")
    t = r.table.copy()
    rows = (t["policy"] == "vqs-bf") & (t["traffic_scaling"] > 1)
    t.loc[rows, "mean_queue"] *= 1.1
    assert not _holds(r, t, "VQS-BF has a small, consistent advantage")


def test_fig5_small_advantage_fails_on_a_tie(quick):
    r = quick("pg21-fig5")
    t = r.table.copy()
    top = t["traffic_scaling"] == t["traffic_scaling"].max()
    bf = t.loc[top & (t["policy"] == "bf-js"), "mean_queue"].iloc[0]
    t.loc[top & (t["policy"] == "vqs-bf"), "mean_queue"] = bf
    assert not _holds(r, t, "VQS-BF has a small, consistent advantage")


# -- drawn from the CSV alone --------------------------------------------------------------


def test_every_figure_draws_from_the_table_alone(quick):
    """draw() takes its titles and ticks from the CSV frame, not from the parameters."""
    from matplotlib.figure import Figure

    for key in ("pg21-fig3a", "pg21-fig3b", "pg21-fig4", "pg21-fig5"):
        r = quick(key)
        image = Figure()
        r.figure.draw(r.table, {}, image)
        titles = " ".join(ax.get_title() for ax in image.axes)
        assert titles and image.axes


def test_fig4_titles_come_from_the_table(quick):
    from matplotlib.figure import Figure

    r = quick("pg21-fig4")
    t = r.table.copy()
    t["servers"] = 7
    t.loc[t["panel"] == "4b", "size_low"] = 0.2
    image = Figure()
    r.figure.draw(t, {}, image)
    assert "L = 7" in image.get_suptitle()
    assert "U[0.2, 0.9]" in image.axes[1].get_title()


# -- scales -------------------------------------------------------------------------------


def test_fig3b_scales_are_the_paper_setting():
    fig = Fig3b()
    assert fig.expected == {"bf-js": "unstable", "vqs": "stable", "vqs-bf": "unstable"}
    assert fig.series == "queue_length"
    assert fig.scales["paper"]["slots"] > fig.scales["quick"]["slots"] >= 10_000_000
    assert fig.scales["paper"]["replications"] >= 3


def test_fig4_paper_scale_is_the_paper_setting():
    fig = Fig4()
    paper = fig.scales["paper"]
    assert paper["servers"] == 5 and paper["mu"] == 0.01
    assert min(paper["alphas"]) == 0.85 and max(paper["alphas"]) == 0.99
    assert FIG4_SIZES == {"4a": ("0.01", "0.19"), "4b": ("0.1", "0.9")}
    # a horizon of many relaxation times at alpha = 0.99: 1 / (1 - alpha)^2 service times
    assert all(s >= 10 * 100 / (1 - 0.99) ** 2 for s in paper["slots"].values())
    assert paper["replications"] >= 3
    pts = fig.points(paper)
    assert len(pts) == 2 * len(paper["alphas"])
    assert {p["panel"] for p in pts} == {"4a", "4b"}
    quick = fig.scales["quick"]
    assert quick["servers"] == 5 and quick["mu"] == 0.01 and quick["replications"] >= 2
    assert any(a <= 0.95 for a in quick["alphas"]) and max(quick["alphas"]) == 0.99


def test_fig5_scales_are_the_paper_traffic_scalings():
    fig = Fig5()
    assert not fig.seeded
    assert FIG5_POLICIES == ("bf-js", "vqs", "vqs-bf", "fifo-ff")
    for scale in ("quick", "paper"):
        p = fig.scales[scale]
        assert min(p["traffic_scalings"]) == 1.0 and max(p["traffic_scalings"]) == 1.6
        assert p["slot_seconds"] == 0.1  # decisions every 100 ms (Sec. VII-B)
        assert [x["traffic_scaling"] for x in fig.points(p)] == p["traffic_scalings"]
    assert len(fig.scales["paper"]["traffic_scalings"]) == 7
