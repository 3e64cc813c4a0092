"""``packsched reproduce``: --list names every figure with its cost or why it cannot be
drawn here; a figure is written with its headline verdicts (exit 1 when one is not borne
out, 3 when runs failed); bad input is one line, exit 2, nothing written."""

from __future__ import annotations

import json

import pytest

from packsched.cli import main
from proofs_checks.figures import FIGURES, Headline


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["reproduce", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_names_every_figure_with_its_cost_or_why_not(capsys):
    code, out, _ = _run(capsys, "--list")
    assert code == 0
    for key, fig in FIGURES.items():
        assert key in out and fig.title in out
        assert (f"not reproducible here: {fig.unavailable}" if fig.unavailable
                else "paper scale: ") in out
    code, out, _ = _run(capsys, "--list", "--json")
    listed = json.loads(out)["figures"]
    assert code == 0 and [r["figure"] for r in listed] == list(FIGURES)
    assert all(r["paper_cost"] or r["unavailable"] for r in listed)


def test_a_figure_is_written_and_its_headlines_printed(capsys, tmp_path):
    code, out, _ = _run(capsys, "pg21-fig3a", "--out", str(tmp_path), "--json")
    report = json.loads(out)["figures"][0]
    assert code == 0 and report["holds"] and report["scale"] == "quick"
    assert {h["statement"] for h in report["headlines"]} >= {"VQS is unstable"}
    for kind in ("png", "svg", "csv", "json", "store"):
        assert (tmp_path / report["files"][kind].split("/")[-1]).is_file()
    code, out, _ = _run(capsys, "pg21-fig3a", "--out", str(tmp_path))
    assert code == 0 and "1 in the store before" in out and "holds  VQS is unstable" in out


def test_a_headline_not_borne_out_exits_1(capsys, tmp_path, monkeypatch):
    fig = FIGURES["pg21-fig3a"]
    monkeypatch.setattr(type(fig), "check", lambda self, table, params: [
        Headline("VQS is stable", False, "verdicts unstable")])
    code, out, err = _run(capsys, "pg21-fig3a", "--out", str(tmp_path))
    assert code == 1 and "FAILS  VQS is stable" in out and "not borne out" in err


def test_failed_runs_exit_3(capsys, tmp_path, monkeypatch):
    fig = FIGURES["pg21-fig3a"]

    def broken(self, point, params, seed):
        raise ZeroDivisionError("broken on purpose")

    monkeypatch.setattr(type(fig), "compute", broken)
    code, _, err = _run(capsys, "pg21-fig3a", "--out", str(tmp_path))
    assert code == 3 and "1 of 1 run(s) of pg21-fig3a failed" in err
    assert "ZeroDivisionError: broken on purpose" in err


@pytest.mark.parametrize("argv, message", [
    (["pg21-fig9", "--out", "{out}"], "no figure 'pg21-fig9'; did you mean"),
    (["pg21-fig3a"], "--out DIR is required"),
    ([], "name a FIGURE"),
    (["--list", "pg21-fig3a"], "--list takes no FIGURE"),
    (["pg21-fig3a", "--out", "{out}", "--workers", "2"], "workers are for executor"),
    (["pg21-fig3a", "--out", "{out}", "--scheduler", "tcp://127.0.0.1:1"],
     "scheduler address is for executor 'dask'"),
    (["pg21-fig3a", "--out", "{out}", "--scale", "huge"], "invalid choice: 'huge'"),
])
def test_bad_input_is_one_line_exit_2_nothing_written(capsys, tmp_path, argv, message):
    out_dir = tmp_path / "out"
    code, out, err = _run(capsys, *[a.format(out=out_dir) for a in argv])
    assert code == 2 and out == "" and message in err
    assert len(err.strip().splitlines()) == 1 or "usage:" in err
    assert not out_dir.exists()
