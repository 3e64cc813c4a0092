"""``reproduce``'s contract on a small figure defined here: the store resumes (nothing
run twice), another parameter set's store is refused, a failed run is recorded and run
again on the next call, the executors give the same CSV, the picture and the verdicts
come from the CSV, and bad names say what exists."""

from __future__ import annotations

import json
import sqlite3
from typing import Any, ClassVar

import pytest

from proofs_checks.figures import (
    FIGURES,
    FigureError,
    FigureRunsFailed,
    Headline,
    PaperFigure,
    Run,
    figure,
    reproduce,
)
from proofs_checks.figures import registry as figure_registry


class Toy(PaperFigure):
    """The mean of a few normal draws per point, against the point's location."""

    key = "toy-fig1"
    paper = "TOY"
    number = "Fig. 1"
    shows = "sample means against their location"
    scales: ClassVar[dict[str, dict[str, Any]]] = {
        "quick": {"locations": [0, 1, 2], "replications": 2, "seed": 7},
        "paper": {"locations": [0, 1, 2, 3], "replications": 4, "seed": 7}}
    calls: ClassVar[list[Any]] = []
    fail: ClassVar[bool] = False

    def points(self, params):
        return [{"loc": loc} for loc in params["locations"]]

    def compute(self, point, params, seed):
        import numpy as np

        Toy.calls.append((point["loc"], seed))
        if Toy.fail and point["loc"] == 1:
            raise RuntimeError("the toy failed")
        return {"mean": float(np.random.default_rng(seed).normal(point["loc"], 0.1, 50).mean())}

    def table(self, runs: list[Run], params):
        import pandas as pd

        return pd.DataFrame([{"loc": r.point["loc"], "replication": r.replication,
                              "seed": r.seed, "mean": r.result["mean"]} for r in runs])

    def draw(self, table, params, fig):
        ax = fig.subplots()
        ax.plot(table["loc"], table["mean"], "o")
        ax.set(xlabel="location", ylabel="sample mean", title=self.title)

    def check(self, table, params):
        err = (table["mean"] - table["loc"]).abs().max()
        return [Headline("the sample means sit on their locations", bool(err < 0.1),
                         f"largest error {err:.3f}")]


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(FIGURES, "toy-fig1", Toy())
    monkeypatch.setattr(Toy, "calls", [])
    monkeypatch.setattr(Toy, "fail", False)
    return FIGURES["toy-fig1"]


def _store_rows(path):
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT point, replication, seed, status FROM runs "
                          "ORDER BY point, replication").fetchall()
    finally:
        db.close()


def test_writes_csv_png_svg_json_and_a_store(toy, tmp_path):
    r = reproduce("toy-fig1", out=tmp_path)
    assert {p.name for p in tmp_path.iterdir()} == {
        "toy-fig1.quick.csv", "toy-fig1.quick.png", "toy-fig1.quick.svg",
        "toy-fig1.quick.json", "toy-fig1.quick.sqlite"}
    assert r.files == {**{kind: tmp_path / f"toy-fig1.quick.{kind}"
                          for kind in ("csv", "png", "svg", "json")},
                       "store": tmp_path / "toy-fig1.quick.sqlite"}
    assert r.holds and r.runs == {"runs": 6, "done_before": 0, "ran": 6, "failed": 0}
    assert len(_store_rows(r.files["store"])) == 6
    side = json.loads(r.files["json"].read_text())
    assert side["holds"] and side["scale"] == "quick" and side["params"]["seed"] == 7
    assert r.files["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "sits" not in r.markdown() and "holds: the sample means" in r.markdown()


def test_second_call_runs_nothing_and_redraws_the_same(toy, tmp_path):
    first = reproduce("toy-fig1", out=tmp_path)
    csv = first.files["csv"].read_text()
    Toy.calls.clear()
    again = reproduce("toy-fig1", out=tmp_path)
    assert Toy.calls == [] and again.runs["ran"] == 0 and again.runs["done_before"] == 6
    assert again.files["csv"].read_text() == csv


def test_seeds_are_spawned_per_point_and_replication(toy, tmp_path):
    from theory.seeding import spawn_seeds

    r = reproduce("toy-fig1", out=tmp_path)
    expected = [int(s.generate_state(1)[0]) for s in spawn_seeds(7, 6)]
    assert [row[2] for row in _store_rows(r.files["store"])] == expected


def test_a_store_of_other_parameters_is_refused_and_left_alone(toy, tmp_path, monkeypatch):
    reproduce("toy-fig1", out=tmp_path)
    before = _store_rows(tmp_path / "toy-fig1.quick.sqlite")
    monkeypatch.setattr(Toy, "scales", {**Toy.scales,
                                        "quick": {**Toy.scales["quick"], "seed": 8}})
    with pytest.raises(FigureError, match="another spec.*other parameters of toy-fig1"):
        reproduce("toy-fig1", out=tmp_path)
    assert _store_rows(tmp_path / "toy-fig1.quick.sqlite") == before


def test_the_scales_have_their_own_stores_and_files(toy, tmp_path):
    """A paper run into the folder of a quick one leaves the quick figure as it was."""
    quick = reproduce("toy-fig1", out=tmp_path)
    drawn = {kind: quick.files[kind].read_bytes() for kind in ("csv", "png", "svg")}
    r = reproduce("toy-fig1", scale="paper", out=tmp_path)
    assert r.runs["ran"] == 16 and (tmp_path / "toy-fig1.paper.sqlite").exists()
    assert {kind: r.files[kind].name for kind in ("csv", "png", "svg", "json", "store")} == {
        "csv": "toy-fig1.paper.csv", "png": "toy-fig1.paper.png",
        "svg": "toy-fig1.paper.svg", "json": "toy-fig1.paper.json",
        "store": "toy-fig1.paper.sqlite"}
    assert {kind: quick.files[kind].read_bytes() for kind in drawn} == drawn
    assert json.loads(quick.files["json"].read_text())["scale"] == "quick"
    assert json.loads(r.files["json"].read_text())["scale"] == "paper"
    assert len(r.files["csv"].read_text().splitlines()) == 17  # 16 runs and a header


def test_a_failed_run_is_recorded_then_run_again(toy, tmp_path, monkeypatch):
    monkeypatch.setattr(Toy, "fail", True)
    with pytest.raises(FigureRunsFailed, match="2 of 6 run.*the toy failed"):
        reproduce("toy-fig1", out=tmp_path)
    statuses = [row[3] for row in _store_rows(tmp_path / "toy-fig1.quick.sqlite")]
    assert statuses.count("failed") == 2 and statuses.count("finished") == 4
    assert not (tmp_path / "toy-fig1.quick.csv").exists()
    monkeypatch.setattr(Toy, "fail", False)
    Toy.calls.clear()
    r = reproduce("toy-fig1", out=tmp_path)
    assert sorted(loc for loc, _ in Toy.calls) == [1, 1] and r.runs["ran"] == 2 and r.holds


def test_the_verdicts_read_the_csv(toy, tmp_path, monkeypatch):
    """A table whose CSV changes the numbers (here: rounded to integers by a bad
    ``to_csv``) is judged on what the CSV says, not on the frame in memory."""
    import pandas as pd

    real = pd.DataFrame.to_csv

    def shifted(self, path, **kw):
        frame = self.copy()
        if "mean" in frame:
            frame["mean"] = frame["mean"] + 1
        return real(frame, path, **kw)

    monkeypatch.setattr(pd.DataFrame, "to_csv", shifted)
    r = reproduce("toy-fig1", out=tmp_path)
    assert not r.holds and "largest error 1.0" in r.headlines[0].measured


def test_processes_give_the_serial_csv(tmp_path):
    """A registered figure (a spawned worker imports the registry, not this test)."""
    serial = reproduce("pg21-fig3a", out=tmp_path / "serial")
    pool = reproduce("pg21-fig3a", out=tmp_path / "pool", executor="processes", workers=2)
    assert pool.files["csv"].read_text() == serial.files["csv"].read_text()


@pytest.mark.parametrize("name, message", [
    ("pg21-fig3", "no figure 'pg21-fig3'; did you mean .*pg21-fig3a"),
    ("nothing-like-it", "packsched reproduce --list shows them"),
    (4, "named by a string"),
])
def test_unknown_figures_are_refused_with_what_exists(name, message, tmp_path):
    with pytest.raises(FigureError, match=message):
        reproduce(name, out=tmp_path)
    assert not list(tmp_path.iterdir())


def test_names_are_forgiving_about_case_and_separators():
    assert figure("PG21.Fig3a") is figure("pg21_fig3a") is FIGURES["pg21-fig3a"]


def test_a_bad_scale_or_executor_writes_nothing(tmp_path):
    with pytest.raises(FigureError, match="scale must be one of quick, paper"):
        reproduce("pg21-fig3a", scale="huge", out=tmp_path)
    with pytest.raises(ValueError, match="workers are for executor"):
        reproduce("pg21-fig3a", executor="serial", workers=2, out=tmp_path)
    assert not list(tmp_path.iterdir())


def test_the_registry_refuses_a_figure_without_both_scales(monkeypatch):
    class Half(Toy):
        key = "toy-half"
        scales: ClassVar[dict[str, dict[str, Any]]] = {"quick": {}}

    class Module:
        FIGURES = [Half()]

    monkeypatch.setattr(figure_registry.importlib, "import_module", lambda name: Module)
    with pytest.raises(RuntimeError, match="toy-half must define the scales quick and paper"):
        figure_registry._collect()
