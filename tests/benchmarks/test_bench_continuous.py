"""``benchmarks/bench_continuous.py`` on a tiny grid: one row per case, the JSON written,
and an unknown policy refused."""

from __future__ import annotations

import json
import re

import pytest

import benchmarks.bench_continuous as bench


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
    assert re.search(r"\b\d of 4 cases within 2 s end to end", capsys.readouterr().out)


@pytest.mark.parametrize("argv", [
    ["--policies", "bfjs,nope"], ["--laws", "wide,flat"], ["--servers", "0"],
    ["--servers", "x"], ["--intensities", "-1"], ["--jobs", "-5"], ["--repeats", "0"]])
def test_bad_arguments_exit_2_before_any_run(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        bench.main([*argv, "--jobs", "100"] if "--jobs" not in argv else argv)
    assert exc.value.code == 2
    assert "|" not in capsys.readouterr().out  # no case ran
