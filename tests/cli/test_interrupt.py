"""SIGINT sent to the main process alone (as ``timeout -s INT`` or a batch system sends
it, not a terminal's Ctrl-C to the whole process group) ends a parallel ``packsched
sweep`` within seconds: the chunks not started are cancelled, the workers are stopped
(none is left behind), every finished run keeps its row, the exit status is 130 with
one line naming the store; the same command then resumes and completes. On the processes
executor and on a Dask LocalCluster (which must be closed)."""

from __future__ import annotations

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

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="finds the workers through /proc (Linux)")

# two quick srpt runs (0.2 s), then two ocorp-plus runs of 14 s or more each (a convex
# QP per slot): the interrupt comes while the slow ones run
SPEC = """\
[sweep]
command = "schedule"
policies = ["srpt", "ocorp-plus"]
replications = 2
[options]
jobs = "{jobs}"
cluster = "{cluster}"
"""


def _spec(tmp_path: Path) -> Path:
    """200 jobs of 1 to 8 cores arriving over 400 slots on three 16-core machines."""
    import random

    rng = random.Random(1)
    jobs, cluster = tmp_path / "jobs.csv", tmp_path / "cluster.csv"
    jobs.write_text("id,arrival,processing,weight,demand_0\n" + "".join(
        f"j{i},{rng.randint(0, 400)},{rng.randint(10, 150)},1,{rng.randint(1, 8)}\n"
        for i in range(200)))
    cluster.write_text("id,capacity_0\n" + "".join(f"m{m},16\n" for m in range(3)))
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC.format(jobs=jobs, cluster=cluster))
    return spec


#: seconds from the SIGINT to the process's exit (measured: 0.1 s with processes, 0.6 s
#: with Dask); waiting for the slow runs fails (14 s), and so does Dask's graceful close
#: of a busy worker (4 s)
PROMPT = 3.0


def _count(store: Path) -> int:
    try:
        db = sqlite3.connect(store, timeout=1)
        try:
            return int(db.execute("SELECT count(*) FROM runs").fetchone()[0])
        finally:
            db.close()
    except sqlite3.DatabaseError:
        return 0


def _rows(store: Path) -> list[tuple]:
    db = sqlite3.connect(store)
    try:
        return db.execute("SELECT point, replication, status, exit FROM runs "
                          "ORDER BY point, replication").fetchall()
    finally:
        db.close()


def _descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (children, grandchildren...), read from /proc."""
    parent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    out, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, pp in parent.items() if pp in frontier} - out
        out |= frontier
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended (its parent has not reaped it yet)


@pytest.mark.parametrize("executor,stop", [("processes", signal.SIGINT),
                                           ("dask", signal.SIGINT),
                                           ("processes", signal.SIGTERM)])
def test_sigint_to_the_main_process_ends_a_parallel_sweep_promptly(capsys, tmp_path,
                                                                   executor, stop):
    """SIGINT (Ctrl-C, ``timeout -s INT``) or SIGTERM (what Slurm and ``kill`` send)."""
    if executor == "dask":
        pytest.importorskip("dask.distributed",
                            reason="the distributed extra is not installed")
    spec, store = _spec(tmp_path), tmp_path / "runs.db"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    cmd = [sys.executable, "-m", "packsched", "sweep", str(spec), "--store", str(store),
           "--executor", executor, "--workers", "2"]
    # its own session: the SIGINT below reaches the main process only, as a batch
    # system's does, never the workers
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while _count(store) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "the sweep ended before it could be interrupted"
        assert _count(store) == 2, "the quick runs took more than 3 minutes"
        workers = _descendants(proc.pid)
        assert workers, "no worker process was found"
        os.kill(proc.pid, stop)
        t0 = time.monotonic()
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail("the sweep hung for 60 s after SIGINT")
        latency = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert latency < PROMPT, f"{latency:.1f} s from SIGINT to exit"
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert lines[-1].startswith("packsched: interrupted"), err
    assert f"in the store {store}" in lines[-1] and "run" in lines[-1], err
    assert "Traceback" not in err, err
    # the workers are gone too (the resource tracker and Dask's nannies with them)
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in workers if _alive(p)], "worker processes were left running"
    # the finished runs kept their rows, each once; the resumed sweep runs the rest
    kept = _rows(store)
    assert (0, 0, "finished", 0) in kept and (0, 1, "finished", 0) in kept, kept
    assert 2 <= len(kept) < 4 and all(r[3] == 0 for r in kept)
    assert main(["sweep", str(spec), "--store", str(store), "--executor", executor,
                 "--workers", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["done_before"] == len(kept) and report["ran"] == 4 - len(kept)
    assert report["failed"] == 0 and len(_rows(store)) == 4 and set(kept) <= set(_rows(store))


def _pool_workers() -> set[int]:
    """This process's worker processes (not multiprocessing's resource tracker, which
    lives as long as the process)."""
    out = set()
    for pid in _descendants(os.getpid()):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"resource_tracker" not in cmdline:
            out.add(pid)
    return out


def _slow(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_closing_the_map_stops_the_pool_at_once():
    """A caller that stops reading (an interrupt in its loop body, a break) closes the
    generator: the pool's workers are stopped, the queued chunks never run."""
    from policies.executors import map_unordered

    items = [0.01, 0.01, 30.0, 30.0, 30.0, 30.0]
    it = map_unordered(_slow, items, executor="processes", workers=2)
    got = [next(it), next(it)]
    assert sorted(i for i, _ in got) == [0, 1]
    time.sleep(0.5)  # the slow ones are running
    workers = _pool_workers()
    assert len(workers) == 2
    t0 = time.monotonic()
    it.close()
    assert time.monotonic() - t0 < PROMPT
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in workers if _alive(p)], "worker processes were left running"


def test_an_interrupt_while_waiting_stops_the_pool_at_once():
    """KeyboardInterrupt raised in the main thread while it waits for a chunk (what
    SIGINT does) leaves ``map_unordered`` within seconds, not after the running chunks."""
    import threading

    from policies.executors import map_unordered

    main_thread = threading.main_thread().ident
    assert main_thread is not None
    timer = threading.Timer(3.0, signal.pthread_kill, (main_thread, signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            for _ in map_unordered(_slow, [30.0] * 4, executor="processes", workers=2):
                pass
    finally:
        timer.cancel()
    assert time.monotonic() - t0 < 3.0 + PROMPT
    assert not [p for p in _pool_workers() if _alive(p)]
