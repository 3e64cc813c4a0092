"""``benchmarks/bench_growth.py`` on its smallest points: the JSON rows, the CPU split
(master + pricing + certificate never above the total) and the refused ``--repeats 0``.
"""

from __future__ import annotations

import json

import pytest

import benchmarks.bench_growth as bench

FIELDS = {"series", "param", "entry", "items", "distinct", "capacity", "wall_s", "cpu_s",
          "wall", "cpu", "split", "calls", "rounds", "columns", "certified", "value"}


def test_smallest_points_write_rows_with_a_consistent_split(tmp_path, capsys):
    out, png = tmp_path / "growth.json", tmp_path / "growth.png"
    code = bench.main(["--quick", "--max-points", "1", "--repeats", "1",
                       "--json", str(out), "--png", str(png)])
    assert code == 0
    data = json.loads(out.read_text())
    rows = data["rows"]
    assert [(r["series"], r["param"]) for r in rows] == [
        ("items", 125), ("capacity", 1_000), ("types", 125)]
    for r in rows:
        assert FIELDS <= set(r), FIELDS - set(r)
        assert r["certified"] is True
        assert r["rounds"] >= 1 and r["columns"] >= 1
        assert r["cpu"]["repeats"] == 1 and r["wall_s"] > 0
        s = r["split"]
        parts = [s["master_s"], s["pricing_s"], s["certificate_s"]]
        assert min(parts) >= 0
        assert sum(parts) <= s["total_s"] + 1e-9
        assert s["other_s"] == pytest.approx(s["total_s"] - sum(parts), abs=1e-9)
        assert r["calls"]["master_solves"] >= r["rounds"]
        assert r["calls"]["certify_calls"] >= 1
    assert rows[0]["entry"] == "bin_packing_lp" and rows[0]["capacity"] == 100_000
    assert rows[1]["items"] == 500 and rows[2]["entry"] == "rho_star"
    assert png.stat().st_size > 0
    table = capsys.readouterr().out
    assert "| series | parameter |" in table and "| types | T = 125 |" in table


def test_instrumentation_is_removed_afterwards():
    import capacity._lp_highs as lp_highs
    import capacity.configuration_lp as configuration_lp
    import capacity.configuration_solver as configuration_solver

    solve, dp, cert = (lp_highs.MasterLP.solve, configuration_solver.knapsack_dp,
                       configuration_lp.certify)
    with bench.instrumented(bench.Split()):
        assert configuration_solver.knapsack_dp is not dp
    assert lp_highs.MasterLP.solve is solve
    assert configuration_solver.knapsack_dp is dp and configuration_lp.certify is cert


@pytest.mark.parametrize("argv", [["--repeats", "0"], ["--repeats", "-1"],
                                  ["--series", "nope"]])
def test_bad_arguments_exit_2(argv, tmp_path):
    with pytest.raises(SystemExit) as exc:
        bench.main([*argv, "--json", str(tmp_path / "x.json"), "--png", ""])
    assert exc.value.code == 2
    assert not (tmp_path / "x.json").exists()
