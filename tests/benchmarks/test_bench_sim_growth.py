"""``benchmarks/bench_sim_growth.py`` on a tiny configuration: the three tables, the JSON
rows and fits, the plot, the log-log slope and growth ratio on synthetic input, and bad
arguments refused (exit 2, nothing run). No timing is asserted."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import benchmarks.bench_sim_growth as bench

TINY = ["--policies", "bfjs,fifoff", "--queue-targets", "10,300", "--queue-jobs", "2000",
        "--servers", "5,20", "--server-jobs", "2000", "--memory-jobs", "20000"]

QUEUE_FIELDS = {"policy", "target_queue", "backlog", "jobs", "total_jobs", "slots",
                "intensity", "pilot", "mean_queue", "max_queue", "e2e", "kernel", "setup",
                "kernel_ns_per_job", "e2e_ns_per_job", "steady_ns_per_job",
                "kernel_ns_per_slot"}
SERVER_FIELDS = {"policy", "law", "servers", "jobs", "slots", "mean_queue", "e2e", "kernel",
                 "kernel_ns_per_job", "e2e_ns_per_job", "kernel_ns_per_slot"}
MEMORY_FIELDS = {"jobs", "servers", "slots", "workload_bytes", "estimate_bytes",
                 "baseline_rss_bytes", "simulate_peak_rss_bytes", "increment_bytes",
                 "peak_rss_bytes", "ru_maxrss_bytes", "e2e_s", "e2e_cpu_s", "kernel_s",
                 "memory_met", "time_met", "checked", "note"}


def test_tiny_run_prints_tables_and_writes_json_and_plot(tmp_path, capsys):
    out, png = tmp_path / "g.json", tmp_path / "g.png"
    assert bench.main([*TINY, "--json", str(out), "--plot", str(png)]) == 0
    text = capsys.readouterr().out
    assert "## growth-queue" in text and "## growth-servers" in text and "## memory" in text
    assert "| policy | target Q | intensity | mean queue |" in text
    assert "| policy | law | servers | jobs | slots | mean queue |" in text
    assert "| jobs | servers | slots | workload (MiB) | baseline RSS (MiB) |" in text
    assert "| policy | points | slope kernel |" in text
    assert png.stat().st_size > 0

    data = json.loads(out.read_text())["sections"]
    q = data["growth-queue"]
    assert [(r["policy"], r["target_queue"]) for r in q["rows"]] == [
        ("BF-J/S", 10), ("BF-J/S", 300), ("FIFO-FF", 10), ("FIFO-FF", 300)]
    for r in q["rows"]:
        assert QUEUE_FIELDS <= set(r), QUEUE_FIELDS - set(r)
        assert r["total_jobs"] == r["jobs"] + r["backlog"] and r["jobs"] > 1000
        assert 0 < r["intensity"] <= 1.2 and r["pilot"]["throughput"] > 0
        assert r["max_queue"] >= r["mean_queue"] >= 0
        assert r["kernel_ns_per_job"] == pytest.approx(
            1e9 * r["kernel"]["median_s"] / r["jobs"])
        assert r["steady_ns_per_job"] <= r["kernel_ns_per_job"]
    assert [f["policy"] for f in q["fits"]] == ["BF-J/S", "FIFO-FF"]
    assert all(f["points"] == 2 and f["x"] == "mean_queue" for f in q["fits"])

    s = data["growth-servers"]
    assert len(s["rows"]) == 2 * 2 * 2  # policies x laws x server counts
    for r in s["rows"]:
        assert SERVER_FIELDS <= set(r), SERVER_FIELDS - set(r)
        assert r["kernel_ns_per_slot"] == pytest.approx(
            1e9 * r["kernel"]["median_s"] / r["slots"])
    # rate proportional to L: five servers need about four times the slots of twenty
    by = {(r["policy"], r["law"], r["servers"]): r["slots"] for r in s["rows"]}
    assert by[("BF-J/S", "U(0.1, 0.9)", 5)] > 3 * by[("BF-J/S", "U(0.1, 0.9)", 20)]
    assert {(f["policy"], f["law"]) for f in s["fits"]} == {
        (p, law) for p in ("BF-J/S", "FIFO-FF") for law in ("U(0.1, 0.9)", "U(0.01, 0.19)")}
    for f in s["fits"]:
        assert f["slope_kernel"] is not None
        assert f["log_ratio"] == pytest.approx(math.log(20) / math.log(5))

    (m,) = data["memory"]["rows"]
    assert MEMORY_FIELDS <= set(m), MEMORY_FIELDS - set(m)
    assert 15_000 < m["jobs"] < 25_000 and m["servers"] == 1000 and m["checked"] is True
    assert m["workload_bytes"] == 32 * m["jobs"]  # arrival, demand, service, weight
    assert m["peak_rss_bytes"] >= m["baseline_rss_bytes"] > 0
    assert m["memory_met"] is None and m["time_met"] is None  # no target at this size
    assert m["note"] is None


def test_sections_and_fixed_intensity(tmp_path, capsys):
    out = tmp_path / "g.json"
    assert bench.main(["--sections", "growth-queue", "--policies", "bfj", "--queue-targets",
                       "50", "--queue-jobs", "1000", "--queue-intensity", "0.8",
                       "--json", str(out)]) == 0
    data = json.loads(out.read_text())["sections"]
    assert set(data) == {"growth-queue"}
    (r,) = data["growth-queue"]["rows"]
    assert r["intensity"] == 0.8 and r["pilot"] is None
    fit = data["growth-queue"]["fits"][0]
    assert fit["slope_kernel"] is None and fit["ratio"] is None  # one point: no fit
    assert "## growth-servers" not in capsys.readouterr().out


def test_loglog_slope_on_synthetic_input():
    x = np.array([1e2, 1e3, 1e4, 1e5, 1e6])
    assert bench.loglog_slope(x, 7 * x**0.5) == pytest.approx(0.5)
    assert bench.loglog_slope(x, 3 * x**-1.0) == pytest.approx(-1.0)
    assert bench.loglog_slope(x, np.full(5, 42.0)) == pytest.approx(0.0, abs=1e-12)
    # logarithmic growth: small positive slope, the least-squares fit of log log x on log x
    lx = np.log(x)
    expect = np.polyfit(lx, np.log(lx), 1)[0]
    assert bench.loglog_slope(x, np.log(x)) == pytest.approx(expect)
    assert 0 < expect < 0.2
    # noisy power law: close to the exponent
    rng = np.random.default_rng(0)
    y = 5 * x**0.25 * np.exp(rng.normal(0, 0.01, 5))
    assert bench.loglog_slope(x, y) == pytest.approx(0.25, abs=0.02)
    # no fit without two distinct positive x; non-positive points are dropped
    assert bench.loglog_slope([10], [1]) is None
    assert bench.loglog_slope([10, 10], [1, 2]) is None
    assert bench.loglog_slope([0, 10, 100], [5, 1, 10]) == pytest.approx(1.0)


def test_growth_ratio_against_the_log_ratio():
    g = bench.growth_ratio([100, 1e6, 1e4], [2.0, 8.0, 4.0])
    assert g["ratio"] == pytest.approx(4.0)
    assert g["log_ratio"] == pytest.approx(3.0)  # log(10^6) / log(10^2)
    assert bench.growth_ratio([1, 10], [1.0, 1.0])["log_ratio"] is None  # log(1) = 0
    assert bench.growth_ratio([5], [1.0]) == {"ratio": None, "log_ratio": None}


@pytest.mark.parametrize("argv", [
    ["--policies", "bfjs,nope"], ["--policies", ""], ["--sections", "growth-queue,speed"],
    ["--sections", ""], ["--repeats", "0"], ["--repeats", "-2"], ["--queue-targets", "0"],
    ["--queue-targets", "x"], ["--servers", "5,-1"], ["--memory-jobs", "0"],
    ["--queue-jobs", "0"], ["--server-jobs", "-1"], ["--queue-intensity", "fast"],
    ["--queue-intensity", "0"], ["--sections", "memory", "--memory-jobs", "100000000000"]])
def test_bad_arguments_exit_2_before_any_run(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        bench.main(argv)
    assert exc.value.code == 2
    assert "|" not in capsys.readouterr().out  # nothing ran
