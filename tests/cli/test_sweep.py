"""``packsched sweep``: a spec's grid into an SQLite store that survives a kill (a real
SIGKILL to a real process), resumes without running anything twice, refuses another
spec's store, and gives the same rows whatever the executor."""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from packsched.cli import main

SPEC = """\
[sweep]
policies = ["bf-js", "fifo-ff"]
replications = 2
seed = 1
[options]
sizes = "0.4,0.6"
servers = 2
mu = 0.05
slots = {slots}
intensity = [0.5, 1.3]
"""


def _spec(tmp_path: Path, text: str | None = None, slots: int = 4000) -> Path:
    p = tmp_path / "spec.toml"
    p.write_text(SPEC.format(slots=slots) if text is None else text)
    return p


def _sweep(capsys, *argv: str) -> tuple[int, dict | None, str]:
    code = main(["sweep", *argv, "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None, err


def _rows(store: Path) -> list[tuple]:
    """The store's rows read with sqlite3 alone (no packsched), seconds left out."""
    db = sqlite3.connect(store)
    try:
        rows = db.execute("SELECT point, replication, grid, seed, status, exit, error, "
                          "summary FROM runs ORDER BY point, replication").fetchall()
    finally:
        db.close()
    out = []
    for *head, summary in rows:
        s = json.loads(summary) if summary else None
        if s is not None:
            s.pop("seconds", None)
        out.append((*head, json.dumps(s, sort_keys=True)))
    return out


def test_a_sweep_writes_a_row_per_run_and_resumes_without_rerunning(capsys, tmp_path):
    spec, store = _spec(tmp_path), tmp_path / "runs.db"
    code, out, _ = _sweep(capsys, str(spec), "--store", str(store))
    assert code == 0 and out == {"runs": 8, "done_before": 0, "failed_before": 0, "ran": 8,
                                 "failed": 0, "store": str(store)}
    rows = _rows(store)
    assert [(r[0], r[1]) for r in rows] == [(p, r) for p in range(4) for r in range(2)]
    assert [json.loads(r[2]) for r in rows][::2] == [
        {"policy": p, "intensity": i} for p in ("bf-js", "fifo-ff") for i in (0.5, 1.3)]
    assert len({r[3] for r in rows}) == 8  # a seed per (point, replication)
    code, out, _ = _sweep(capsys, str(spec), "--store", str(store))
    assert code == 0 and out["done_before"] == 8 and out["ran"] == 0
    assert _rows(store) == rows


def test_a_row_reruns_alone_from_its_seed(capsys, tmp_path):
    spec, store = _spec(tmp_path), tmp_path / "runs.db"
    _sweep(capsys, str(spec), "--store", str(store))
    point, rep, grid, seed, *_rest, summary = _rows(store)[3]
    g = json.loads(grid)
    assert main(["simulate", "--policy", g["policy"], "--sizes", "0.4,0.6", "--servers", "2",
                 "--mu", "0.05", "--slots", "4000", "--intensity", str(g["intensity"]),
                 "--seed", str(seed), "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    alone.pop("seconds")
    assert json.dumps(alone, sort_keys=True) == summary


@pytest.mark.parametrize("executor", ["processes", "dask"])
def test_parallel_executors_give_the_serial_rows(capsys, tmp_path, executor):
    """Processes, and a Dask LocalCluster (the distributed extra), row for row."""
    if executor == "dask":
        pytest.importorskip("dask.distributed", reason="the distributed extra is not installed")
    spec = _spec(tmp_path)
    serial, pooled = tmp_path / "serial.db", tmp_path / "pooled.db"
    assert _sweep(capsys, str(spec), "--store", str(serial))[0] == 0
    assert _sweep(capsys, str(spec), "--store", str(pooled), "--executor", executor,
                  "--workers", "2")[0] == 0
    assert _rows(pooled) == _rows(serial)


def test_a_killed_sweep_resumes_with_nothing_lost_or_run_twice(capsys, tmp_path):
    """SIGKILL a real ``packsched sweep`` process after its first rows, run it again:
    every run has exactly one row, equal to an uninterrupted sweep's."""
    text = SPEC.format(slots=400_000).replace("replications = 2", "replications = 10")
    spec = _spec(tmp_path, text)
    store, clean = tmp_path / "killed.db", tmp_path / "clean.db"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.Popen([sys.executable, "-m", "packsched", "sweep", str(spec),
                             "--store", str(store)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if store.exists() and proc.poll() is None:
                try:
                    db = sqlite3.connect(store, timeout=1)
                    n = db.execute("SELECT count(*) FROM runs").fetchone()[0]
                    db.close()
                except sqlite3.DatabaseError:
                    n = 0
                if n >= 2:
                    break
            time.sleep(0.05)
        assert proc.poll() is None, "the sweep ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    kept = _rows(store)
    assert 2 <= len(kept) < 40
    code, out, _ = _sweep(capsys, str(spec), "--store", str(store))
    assert code == 0 and out["done_before"] == len(kept) and out["ran"] == 40 - len(kept)
    assert _sweep(capsys, str(spec), "--store", str(clean))[0] == 0
    assert _rows(store) == _rows(clean)


def test_a_failed_run_is_recorded_and_the_sweep_goes_on(capsys, tmp_path):
    """A run can fail only at run time once the points passed the dry run: here the
    memory budget, which the drawn workload's estimate exceeds."""
    text = SPEC.format(slots=4000).replace("mu = 0.05", "mu = 0.05\nmax_memory = ['8G', '2K']")
    spec, store = _spec(tmp_path, text), tmp_path / "runs.db"
    code, out, err = _sweep(capsys, str(spec), "--store", str(store))
    assert code == 3 and out["failed"] == 8 and out["ran"] == 16
    assert "8 of 16 run(s) in the store failed" in err
    failed = [r for r in _rows(store) if r[4] == "failed"]
    assert len(failed) == 8 and all(r[5] == 2 and "--max-memory" in r[6] for r in failed)


def test_failed_runs_are_run_again_and_counted_from_the_store(capsys, tmp_path):
    """A second call runs the failed rows again (and says how many); runs that fail again
    are reported, and the exit status is 3, as long as the store holds failed rows."""
    text = SPEC.format(slots=4000).replace("mu = 0.05", "mu = 0.05\nmax_memory = ['8G', '2K']")
    spec, store = _spec(tmp_path, text), tmp_path / "runs.db"
    assert _sweep(capsys, str(spec), "--store", str(store))[0] == 3
    finished = [r for r in _rows(store) if r[4] != "failed"]
    code, out, err = _sweep(capsys, str(spec), "--store", str(store))
    assert code == 3 and out["failed"] == 8 and out["failed_before"] == 8
    assert out["done_before"] == 8 and out["ran"] == 8
    assert "8 failed run(s) in the store run again" in err
    assert "8 of 16 run(s) in the store failed" in err
    assert [r for r in _rows(store) if r[4] != "failed"] == finished
    code = main(["sweep", str(spec), "--store", str(store)])
    text_out, _ = capsys.readouterr()
    assert code == 3 and "8 failed" in text_out and "0 failed" not in text_out


def test_a_run_that_failed_once_and_then_succeeds_leaves_no_failed_row(capsys, tmp_path,
                                                                       monkeypatch):
    from packsched import sweep_runner

    real = sweep_runner.run_point

    def flaky(argv):
        if "1.3" in argv:
            return {"exit": 3, "summary": None, "status": "failed",
                    "error": "packsched: error: a passing failure", "seconds": 0.0}
        return real(argv)

    spec, store = _spec(tmp_path), tmp_path / "runs.db"
    monkeypatch.setattr(sweep_runner, "run_point", flaky)
    code, out, _ = _sweep(capsys, str(spec), "--store", str(store))
    assert code == 3 and out["failed"] == 4
    monkeypatch.setattr(sweep_runner, "run_point", real)
    code, out, err = _sweep(capsys, str(spec), "--store", str(store))
    assert code == 0 and out == {"runs": 8, "done_before": 4, "failed_before": 4, "ran": 4,
                                 "failed": 0, "store": str(store)}
    assert "4 failed run(s) in the store run again" in err
    clean = tmp_path / "clean.db"
    assert _sweep(capsys, str(spec), "--store", str(clean))[0] == 0
    assert _rows(store) == _rows(clean)


@pytest.mark.parametrize("text, words", [
    ("[sweep]\npolicy = 'bf-js'\nreplicas = 2\n", r"line 3: unknown key 'replicas'"),
    ("[sweep]\npolicy = 'bf-js'\n[options]\nsizes = '0.4'\nJ = 2\n",
     r"line 5: .*--J"),
    ("[sweep]\npolicy = 'bf-js'\n[options]\nservers = []\n", r"line 4: servers is an empty"),
    ("[sweep]\npolicy = 'ocorp'\n", r"line 2: 'ocorp' is not a policy of packsched simulate"),
    ("[sweep]\nseed = 1\npolicies = ['bf-js', 'mris']\n", r"line 3: 'mris' is not a policy"),
    ("[sweep]\npolicy = 'bf-js'\nseed = -1\n", r"line 3: seed must be an integer >= 0"),
    ("[sweep]\npolicy = 'bf-js'\n[options]\nseed = 3\n", r"line 4: seed is set by \[sweep\]"),
    ("[sweep]\npolicy = 'bf-js'\n[other]\n", r"\[sweep\] and \[options\] only"),
    ("[sweep\n", r"not a TOML spec"),
    # values only the run would have refused: the dry run refuses them first
    ("[sweep]\npolicy = 'bf-js'\n[options]\nsizes = '0.4,1.6'\nintensity = 0.5\n",
     r"a job size 1.6 exceeds the capacity 1"),
    ("[sweep]\npolicy = 'bf-js'\n[options]\nsizes = '0.4'\nintensity = 0.5\n"
     "mu = [0.05, 0]\n", r"line 6: --mu: must be > 0, got 0 \(at the point .*'mu': 0\}"),
    ("[sweep]\npolicy = 'bf-js'\n[options]\nsizes = '0.4,0.6'\nprobs = '0.3,0.3'\n"
     "intensity = 0.5\n", r"probabilities sum to 3/5, not 1"),
    ("[sweep]\npolicy = 'rms'\n[options]\nsizes = '2;15'\ncapacity = '10'\nrates = "
     "'1,1'\ntime = 5\n", r"demand \[15.0\] fits no server"),
    ("[sweep]\ncommand = 'schedule'\npolicy = 'mris'\n[options]\njobs = 'no/such.csv'\n"
     "cluster = 'no/such.csv'\n", r"no/such.csv: No such file"),
    ("[sweep]\npolicies = ['bf-js']\n[options]\nsizes = '0.4'\nservers = "
     + str(list(range(1, 200))) + "\nmu = " + str([0.01 * k for k in range(1, 60)]) + "\n",
     r"more than --max-points"),
])
def test_a_bad_spec_is_refused_before_anything_runs(capsys, tmp_path, text, words):
    import re

    spec, store = _spec(tmp_path, text), tmp_path / "runs.db"
    code, out, err = _sweep(capsys, str(spec), "--store", str(store), "--max-points", "10000")
    assert code == 2 and out is None and err.count("\n") == 1, err
    assert re.search(words, err), err
    assert not store.exists()


def test_another_specs_store_or_a_non_store_is_refused_untouched(capsys, tmp_path):
    spec, store = _spec(tmp_path), tmp_path / "runs.db"
    assert _sweep(capsys, str(spec), "--store", str(store))[0] == 0
    before = _rows(store)
    other = _spec(tmp_path, SPEC.format(slots=4000).replace("seed = 1", "seed = 2"))
    code, _, err = _sweep(capsys, str(other), "--store", str(store))
    assert code == 2 and "another spec" in err and _rows(store) == before
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n" * 100)
    code, _, err = _sweep(capsys, str(spec), "--store", str(notes))
    assert code == 2 and "not a sweep store" in err
    assert notes.read_text() == "not a database\n" * 100
    from policies import load_results
    from policies.sweep_store import StoreError

    with pytest.raises(StoreError, match="not a sweep store"):
        load_results(notes)
    odd = tmp_path / "a b#c"  # a path a URI would misread
    odd.mkdir()
    (odd / "runs.db").write_bytes(store.read_bytes())
    assert len(load_results(odd / "runs.db")) == 8


def test_load_results_and_the_pooled_verdict_decide_where_single_runs_do_not(capsys,
                                                                             tmp_path):
    """A known system: two servers of capacity 1, sizes 0.4 and 0.6 (rho* = 2 per PG21
    Fig. 3a): intensity 0.5 is stable and 1.3 unstable for both policies, and the
    pooled verdict of the replications says so."""
    import policies as P

    text = SPEC.format(slots=20_000).replace("replications = 2", "replications = 5")
    spec, store = _spec(tmp_path, text), tmp_path / "runs.db"
    _sweep(capsys, str(spec), "--store", str(store))
    frame = P.load_results(store)
    assert len(frame) == 20 and {"policy", "intensity", "seed", "result.mean_queue",
                                "result.stability.relative_drift"} <= set(frame.columns)
    table = P.aggregate(frame, by=["policy", "intensity"], metrics=["result.mean_queue"])
    verdict = {(r.policy, r.intensity): r.verdict for r in table.itertuples()}
    assert verdict == {("bf-js", 0.5): "stable", ("bf-js", 1.3): "unstable",
                       ("fifo-ff", 0.5): "stable", ("fifo-ff", 1.3): "unstable"}
    assert (table["runs"] == 5).all() and (table["judged"] == 5).all()



def test_a_run_without_evidence_is_left_out_of_the_pool(capsys, tmp_path):
    """A replication whose own verdict says "no evidence either way" (here: services far
    longer than the run, so no job leaves) brings no drift to the pooled verdict."""
    import policies as P

    text = SPEC.format(slots=4000).replace("mu = 0.05", "mu = 0.00001").replace(
        "replications = 2", "replications = 3")
    spec, store = _spec(tmp_path, text), tmp_path / "runs.db"
    assert _sweep(capsys, str(spec), "--store", str(store))[0] == 0
    frame = P.load_results(store)
    assert frame["result.verdict_reason"].notna().all()
    table = P.aggregate(frame, by=["policy", "intensity"])
    assert (table["judged"] == 0).all() and (table["verdict"] == "inconclusive").all()


def test_serial_takes_no_workers(capsys, tmp_path):
    code, out, err = _sweep(capsys, str(_spec(tmp_path)), "--store",
                            str(tmp_path / "runs.db"), "--workers", "4")
    assert code == 2 and "'serial' runs in this process" in err
    assert not (tmp_path / "runs.db").exists()


def test_the_pooled_verdict_rule():
    """The detector's rule on the replications' mean drift and its 99% t-interval."""
    from policies import pooled_verdict

    assert pooled_verdict([0.20, 0.22, 0.19, 0.21, 0.20])["verdict"] == "unstable"
    assert pooled_verdict([0.001, -0.002, 0.0005, 0.0, 0.001])["verdict"] == "stable"
    assert pooled_verdict([0.05, -0.01, 0.12, 0.0, 0.03])["verdict"] == "inconclusive"
    # significant but below the threshold of 1% of the arriving work: not unstable
    assert pooled_verdict([0.004, 0.005, 0.0045, 0.0048, 0.0052])["verdict"] == "stable"
    one = pooled_verdict([0.3, None, float("nan")])
    assert one == {"verdict": "inconclusive", "drift": 0.3, "drift_ci": None, "judged": 1,
                   "unanimous": False}
    # more replications narrow the interval: a drift single runs cannot place is placed
    few, many = [0.002, 0.02, -0.012], [0.002, 0.02, -0.012] * 12
    assert pooled_verdict(few)["verdict"] == "inconclusive"
    assert pooled_verdict(many)["verdict"] == "stable"


def test_unanimous_runs_decide_a_pool_their_spread_leaves_open():
    """Three runs each judged unstable at the detector's 99%, growing at very different
    rates: the pooled interval reaches below 0, the unanimous verdict decides; runs that
    disagree, or a missing verdict, leave it open; a decided pool is never overturned."""
    from policies import pooled_verdict

    drifts = [0.02, 0.2, 0.05]
    assert pooled_verdict(drifts)["verdict"] == "inconclusive"
    out = pooled_verdict(drifts, verdicts=["unstable"] * 3)
    assert out["verdict"] == "unstable" and out["unanimous"]
    assert pooled_verdict(drifts, verdicts=["unstable", "unstable", "inconclusive"]
                          )["verdict"] == "inconclusive"
    # a run without a drift is not judged, and its verdict does not count
    assert pooled_verdict([0.02, 0.2, None], verdicts=["unstable", "unstable", "stable"]
                          )["verdict"] == "unstable"
    calm = pooled_verdict([0.001, -0.002, 0.0005], verdicts=["stable"] * 3)
    assert calm["verdict"] == "stable" and not calm["unanimous"]
    with pytest.raises(ValueError, match="2 verdicts for 3 drifts"):
        pooled_verdict(drifts, verdicts=["unstable"] * 2)


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal, where tqdm draws its bar."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("setting, shown", [(None, True), ("1", True), ("0", False)])
def test_the_progress_bar_follows_packsched_progress(capsys, tmp_path, monkeypatch,
                                                     setting, shown):
    """``PACKSCHED_PROGRESS=0`` silences the bar as it silences every other reporter."""
    spec, store = _spec(tmp_path), tmp_path / "runs.db"
    if setting is None:
        monkeypatch.delenv("PACKSCHED_PROGRESS", raising=False)
    else:
        monkeypatch.setenv("PACKSCHED_PROGRESS", setting)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["sweep", str(spec), "--store", str(store)]) == 0
    assert (f"sweep {spec}" in terminal.getvalue()) == shown, terminal.getvalue()
