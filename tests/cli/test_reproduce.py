"""``packsched reproduce``: --list names every figure with its cost or why it cannot be
drawn here; a figure is written with its headline verdicts (exit 1 when one is not borne
out, 3 when runs failed); bad input is one line, exit 2, nothing written."""

from __future__ import annotations

import io
import json
import sys

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
    for kind in ("png", "svg", "csv", "json"):
        assert report["files"][kind] == str(tmp_path / f"pg21-fig3a.quick.{kind}")
        assert (tmp_path / f"pg21-fig3a.quick.{kind}").is_file()
    assert report["files"]["store"] == str(tmp_path / "pg21-fig3a.quick.sqlite")
    code, out, _ = _run(capsys, "pg21-fig3a", "--out", str(tmp_path))
    assert code == 0 and "1 in the store before" in out and "holds  VQS is unstable" in out
    assert f"wrote {tmp_path / 'pg21-fig3a.quick.png'}, .svg, .csv, .json" in out


def test_quick_and_paper_figures_in_one_folder_are_both_kept(capsys, tmp_path, monkeypatch):
    """The outputs are named by scale, as the stores are: a paper run does not replace
    the quick figure (the paper scale is made as cheap as the quick one here)."""
    fig = FIGURES["pg21-fig3a"]
    quick = dict(fig.scales["quick"])
    monkeypatch.setattr(type(fig), "scales", {**fig.scales, "paper": {**quick, "seed": 5}})
    assert _run(capsys, "pg21-fig3a", "--out", str(tmp_path))[0] == 0
    drawn = {kind: (tmp_path / f"pg21-fig3a.quick.{kind}").read_bytes()
             for kind in ("png", "svg", "csv")}
    code, out, _ = _run(capsys, "pg21-fig3a", "--scale", "paper", "--out", str(tmp_path),
                        "--json")
    assert code == 0
    files = json.loads(out)["figures"][0]["files"]
    assert {k: v.rsplit("/", 1)[-1] for k, v in files.items()} == {
        "csv": "pg21-fig3a.paper.csv", "png": "pg21-fig3a.paper.png",
        "svg": "pg21-fig3a.paper.svg", "json": "pg21-fig3a.paper.json",
        "store": "pg21-fig3a.paper.sqlite"}
    assert {kind: (tmp_path / f"pg21-fig3a.quick.{kind}").read_bytes()
            for kind in drawn} == drawn
    assert json.loads((tmp_path / "pg21-fig3a.quick.json").read_text())["scale"] == "quick"
    assert json.loads((tmp_path / "pg21-fig3a.paper.json").read_text())["scale"] == "paper"


def test_an_interrupt_keeps_the_finished_runs_and_the_next_call_resumes(capsys, tmp_path,
                                                                        monkeypatch):
    """Ctrl-C during the third run: exit 130, one line naming the store, the two
    finished runs kept; the same command then runs the rest only."""
    fig = FIGURES["pg21-fig5"]
    real = type(fig).compute
    calls: list[int] = []

    def interrupted(self, point, params, seed):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, point, params, seed)

    monkeypatch.setattr(type(fig), "compute", interrupted)
    code, out, err = _run(capsys, "pg21-fig5", "--out", str(tmp_path))
    store = tmp_path / "pg21-fig5.quick.sqlite"
    assert code == 130 and out == ""
    assert err.strip() == (f"packsched: interrupted: 2 of 3 run(s) in the store {store}; "
                           f"the same command runs the rest")
    assert not (tmp_path / "pg21-fig5.quick.png").exists()
    monkeypatch.setattr(type(fig), "compute", real)
    code, out, _ = _run(capsys, "pg21-fig5", "--out", str(tmp_path), "--json")
    report = json.loads(out)["figures"][0]
    assert code == 0 and report["runs"] == {"runs": 3, "done_before": 2, "ran": 1,
                                            "failed": 0}


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal, where tqdm draws its bar."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("setting, shown", [(None, True), ("0", False)])
def test_the_progress_bar_follows_packsched_progress(tmp_path, monkeypatch, setting, shown):
    if setting is None:
        monkeypatch.delenv("PACKSCHED_PROGRESS", raising=False)
    else:
        monkeypatch.setenv("PACKSCHED_PROGRESS", setting)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["reproduce", "pg21-fig3a", "--out", str(tmp_path)]) == 0
    assert ("reproduce pg21-fig3a" in terminal.getvalue()) == shown, terminal.getvalue()


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
