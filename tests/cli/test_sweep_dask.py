"""``packsched sweep --executor dask`` on a real ``dask scheduler`` with two ``dask
worker`` processes (on 127.0.0.1): a worker killed mid-sweep changes nothing, every row
is present once and equal to the serial run's (the driver writes the store; the workers
only compute); an unreachable scheduler is one line. (A LocalCluster against the serial
rows: tests/cli/test_sweep.py.)"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("dask.distributed", reason="the distributed extra is not installed")

from tests.cli.test_sweep import SPEC, _rows, _spec, _sweep  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _count(store: Path) -> int:
    try:
        db = sqlite3.connect(store, timeout=1)
        try:
            return int(db.execute("SELECT count(*) FROM runs").fetchone()[0])
        finally:
            db.close()
    except sqlite3.DatabaseError:
        return 0


def _differing_keys(got: tuple, want: tuple) -> dict:
    """The summary keys where two rows differ (a worker's BLAS once rounded a mean
    differently from this process's: the numbers must not depend on where they run)."""
    a, b = json.loads(got[-1]), json.loads(want[-1])
    return {k: (a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k)}


def test_an_unreachable_scheduler_is_one_line_and_writes_nothing(capsys, tmp_path):
    spec, store = _spec(tmp_path), tmp_path / "runs.db"
    assert _sweep(capsys, str(spec), "--store", str(store))[0] == 0
    before = _rows(store)
    code, out, err = _sweep(capsys, str(spec), "--store", str(store), "--executor", "dask",
                            "--scheduler", f"tcp://127.0.0.1:{_free_port()}")
    # a complete store has nothing to run: the scheduler is not even needed
    assert code == 0 and out["ran"] == 0 and _rows(store) == before
    other = tmp_path / "other.db"
    code, out, err = _sweep(capsys, str(spec), "--store", str(other), "--executor", "dask",
                            "--scheduler", f"tcp://127.0.0.1:{_free_port()}")
    assert code == 2 and out is None and err.count("\n") == 1 and "no Dask scheduler" in err
    assert _count(other) == 0


def test_a_killed_worker_loses_nothing(capsys, tmp_path):
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    dask = [sys.executable, "-m", "distributed.cli"]
    procs = []
    try:
        procs.append(subprocess.Popen(
            [*dask[:2], "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
             str(port), "--no-dashboard"], env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL))
        time.sleep(2)
        workers = [subprocess.Popen(
            [*dask[:2], "distributed.cli.dask_worker", address, "--nthreads", "1",
             "--no-nanny", "--no-dashboard"], env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL) for _ in range(2)]
        procs += workers
        text = SPEC.format(slots=400_000).replace("replications = 2", "replications = 10")
        spec = _spec(tmp_path, text)
        store, serial = tmp_path / "cluster.db", tmp_path / "serial.db"
        sweep = subprocess.Popen([sys.executable, "-m", "packsched", "sweep", str(spec),
                                  "--store", str(store), "--executor", "dask",
                                  "--scheduler", address, "--json"], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        procs.append(sweep)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and sweep.poll() is None:
            if store.exists() and _count(store) >= 4:
                break
            time.sleep(0.05)
        assert sweep.poll() is None, sweep.communicate()
        os.kill(workers[0].pid, signal.SIGKILL)
        out, err = sweep.communicate(timeout=180)
        assert sweep.returncode == 0, err
        assert '"ran": 40' in out and '"failed": 0' in out
        assert _sweep(capsys, str(spec), "--store", str(serial))[0] == 0
        got, want = _rows(store), _rows(serial)  # every (point, replication) once
        assert len(got) == len(want) == 40
        bad = next(((g, w) for g, w in zip(got, want, strict=True) if g != w), None)
        assert bad is None, _differing_keys(*bad)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=30)
