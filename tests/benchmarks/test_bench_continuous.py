"""``benchmarks/bench_continuous.py`` on a tiny grid: one row per case, the JSON written,
the SimPy comparison (identical trajectories; a mutant model makes the exit code 1; a
case over the cap is skipped), and bad arguments refused."""

from __future__ import annotations

import json
import re

import pytest

import benchmarks.baseline_slotted as bs
import benchmarks.bench_continuous as bench

TINY = ["--laws", "small", "--servers", "5", "--jobs", "2000"]


def test_tiny_grid_writes_one_row_per_case(tmp_path, capsys):
    out = tmp_path / "c.json"
    assert bench.main(["--policies", "bfjs,fifoff", "--laws", "small", "--servers", "5",
                       "--intensities", "0.5,1.1", "--jobs", "2000", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [(r["policy"], r["intensity"]) for r in rows] == [
        ("BF-J/S", 0.5), ("BF-J/S", 1.1), ("FIFO-FF", 0.5), ("FIFO-FF", 1.1)]
    assert all(r["law"] == "U(0.01, 0.19)" and r["servers"] == 5 for r in rows)
    assert all(1500 < r["jobs"] < 2500 and r["e2e"]["median_s"] > 0 for r in rows)
    # the summary line counts the cases (how many met 2 s is a benchmark, not a test)
    text = capsys.readouterr().out
    assert re.search(r"\b\d of 4 cases within 2 s end to end", text)
    # the SimPy model ran on the same case (--jobs caps --simpy-jobs) and agreed
    assert "| SimPy jobs | SimPy (s) | ours same (s) | SimPy/ours |" in text
    assert "all 4 compared trajectories identical to the SimPy model" in text
    for r in rows:
        b = r["simpy"]
        assert b["identical"] is True and b["jobs"] == r["jobs"] and b["note"] is None
        assert b["identical_arrays"] == {"queue_length": True, "start": True, "server": True}
        assert b["ratio"] > 0 and b["simpy_jobs_per_s"] > 0 and b["ours_jobs_per_s_full"] > 0
        assert b["meets_30x"] == (b["ratio"] >= 30)


def test_simpy_jobs_zero_keeps_the_old_table(tmp_path, capsys):
    out = tmp_path / "c.json"
    assert bench.main(["--policies", "bfj", *TINY, "--intensities", "0.9", "--simpy-jobs", "0",
                       "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "SimPy" not in text
    assert text.splitlines()[0] == ("| policy | law | servers | intensity | max queue | "
                                    "e2e (s) | kernel (s) | <= 2 s |")
    assert "simpy" not in json.loads(out.read_text())["rows"][0]


def test_split_adds_the_checker_and_the_rest(tmp_path, capsys):
    out = tmp_path / "c.json"
    assert bench.main(["--policies", "bfs", *TINY, "--intensities", "0.9", "--simpy-jobs", "0",
                       "--split", "--repeats", "2", "--json", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("| checker (s) | rest (s) |")
    r = json.loads(out.read_text())["rows"][0]
    assert r["unchecked"]["repeats"] == 2
    assert r["checker_s"] == pytest.approx(r["e2e"]["median_s"] - r["unchecked"]["median_s"])
    assert r["rest_s"] == pytest.approx(r["unchecked"]["median_s"] - r["kernel"]["median_s"])


class _FIFOBestFit(bs._FIFOFF):
    """A wrong model: FIFO with best fit instead of first fit."""

    def schedule(self, t, new_jobs):
        self.in_arrival_order(t, self.tightest_server, block=not self.skip)


def test_a_trajectory_mismatch_is_loud_and_fails(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(bs._POLICIES, "fifoff", _FIFOBestFit)
    out = tmp_path / "c.json"
    assert bench.main(["--policies", "fifoff", *TINY, "--intensities", "1.1",
                       "--json", str(out)]) == 1
    cap = capsys.readouterr()
    assert "TRAJECTORY MISMATCH" in cap.err and "FIFO-FF U(0.01, 0.19) L=5" in cap.err
    assert "**NO**" in cap.out and "FAILED: 1 trajectories differ" in cap.out
    assert json.loads(out.read_text())["rows"][0]["simpy"]["identical"] is False


def test_simpy_over_the_cap_is_skipped_with_a_note(capsys):
    assert bench.main(["--policies", "bfjs", *TINY, "--intensities", "1.1",
                       "--simpy-cap", "0.001"]) == 0
    cap = capsys.readouterr()
    assert "SimPy skipped: over the 0.001 s cap" in cap.err
    assert "| skipped |" in cap.out and "0 of 0 compared cases" in cap.out


@pytest.mark.parametrize("argv", [
    ["--policies", "bfjs,nope"], ["--laws", "wide,flat"], ["--servers", "0"],
    ["--servers", "x"], ["--intensities", "-1"], ["--jobs", "-5"], ["--repeats", "0"],
    ["--simpy-jobs", "-1"], ["--simpy-repeats", "0"], ["--simpy-cap", "0"]])
def test_bad_arguments_exit_2_before_any_run(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        bench.main([*argv, "--jobs", "100"] if "--jobs" not in argv else argv)
    assert exc.value.code == 2
    assert "|" not in capsys.readouterr().out  # no case ran
