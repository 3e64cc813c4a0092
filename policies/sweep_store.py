"""The results store of a sweep: one SQLite file, a row per finished run.

SQLite because it is one file in the Python standard library that any language (the
``sqlite3`` shell, pandas, DuckDB) opens without packsched, writes a row atomically and
survives a kill at any moment: a row is committed as its run finishes (journal mode
WAL), and a row half written when the process dies is rolled back on the next open. The
store holds data only (text, numbers, JSON), never pickles: opening a store someone
sent you executes nothing.

Tables: ``meta`` (``key``, ``value``): the spec's text, its hash (``spec_sha256``), the
package version that created it; ``runs``: one row per (point, replication) with
``grid`` (JSON of the point's swept values), ``seed`` (the ``--seed`` that reruns it
alone; null for a deterministic command), ``status`` (``finished``, ``stopped`` or
``failed``), ``exit`` (the command's exit status), ``error`` (its one line when it
failed), ``seconds``, ``version`` and ``summary`` (the command's JSON output).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["SweepStore", "StoreError", "SweepInterrupted", "StoredTask", "run_into_store",
           "load_results"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    point INTEGER NOT NULL, replication INTEGER NOT NULL, grid TEXT NOT NULL,
    seed INTEGER, status TEXT NOT NULL, exit INTEGER NOT NULL, error TEXT,
    seconds REAL NOT NULL, version TEXT NOT NULL, summary TEXT,
    PRIMARY KEY (point, replication)
);
"""
#: the store's format (``meta.store_format``)
STORE_FORMAT = "packsched-sweep-1"


class StoreError(ValueError):
    """A file that is not a sweep store, or a store made from another spec."""


class SweepInterrupted(KeyboardInterrupt):
    """An interrupt (SIGINT, Ctrl-C) that stopped :func:`run_into_store`, raised once its
    workers are stopped: ``done`` of the ``runs`` runs have a row in ``store`` (every
    run that finished before the interrupt), and the next call runs the rest.

    A ``KeyboardInterrupt``, so a caller that knows nothing of it still stops.

    Parameters
    ----------
    done : int
        The runs with a row in the store.
    runs : int
        The runs of the sweep.
    store : pathlib.Path
        The store's file.

    References
    ----------
    docs/design.md, section Commands (the ``sweep`` row; exit status 130, interrupted).

    Examples
    --------
    >>> from pathlib import Path
    >>> from policies.sweep_store import SweepInterrupted
    >>> err = SweepInterrupted(3, 8, Path("runs.db"))
    >>> isinstance(err, KeyboardInterrupt), str(err)
    (True, '3 of 8 run(s) in the store runs.db')
    """

    def __init__(self, done: int, runs: int, store: Path) -> None:
        super().__init__(f"{done} of {runs} run(s) in the store {store}")
        self.done, self.runs, self.store = done, runs, store


class SweepStore:
    """A sweep's SQLite store, opened (or created) for the spec whose hash is given."""

    def __init__(self, path: str | Path, *, spec_text: str, spec_sha256: str,
                 version: str) -> None:
        self.path = Path(path)
        existed = self.path.exists() and self.path.stat().st_size > 0
        try:
            self._db = sqlite3.connect(self.path, timeout=30)
            if existed:
                _check_store(self._db, self.path)
            self._db.execute("PRAGMA journal_mode=WAL")
            # a commit survives the process's death (a kill); only a power cut may lose
            # the last rows, never corrupt the file (SQLite's WAL guarantee)
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path} is not a sweep store ({e})") from None
        meta = dict(self._db.execute("SELECT key, value FROM meta"))
        if not meta:
            with self._db:
                self._db.executemany("INSERT INTO meta VALUES (?, ?)", [
                    ("store_format", STORE_FORMAT), ("spec", spec_text),
                    ("spec_sha256", spec_sha256), ("created_by", version)])
        elif meta.get("spec_sha256") != spec_sha256:
            raise StoreError(f"{self.path} holds the runs of another spec: give a new "
                             f"--store, or the spec it was made from")

    def done(self) -> set[tuple[int, int]]:
        """The (point, replication) pairs with a row."""
        return {(p, r) for p, r in self._db.execute("SELECT point, replication FROM runs")}

    def write(self, row: dict[str, Any]) -> None:
        """Commit one run's row (a duplicate pair is an error: nothing runs twice); its
        ``summary`` is JSON text, or None."""
        with self._db:
            self._db.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row["point"], row["replication"], json.dumps(row["grid"]), row["seed"],
                 row["status"], row["exit"], row["error"], row["seconds"], row["version"],
                 row["summary"]))

    def rows(self) -> list[dict[str, Any]]:
        """Every row in (point, replication) order, its grid and summary decoded."""
        cur = self._db.execute("SELECT * FROM runs ORDER BY point, replication")
        cols = [c[0] for c in cur.description]
        out = []
        for values in cur:
            row = dict(zip(cols, values, strict=True))
            row["grid"] = json.loads(row["grid"])
            row["summary"] = json.loads(row["summary"]) if row["summary"] else None
            out.append(row)
        return out

    def drop_failed(self) -> int:
        """Remove the rows of failed runs (so that they run again); their number."""
        with self._db:
            return self._db.execute("DELETE FROM runs WHERE status = 'failed'").rowcount

    def failed(self) -> int:
        """The number of rows of failed runs in the store."""
        return int(self._db.execute(
            "SELECT count(*) FROM runs WHERE status = 'failed'").fetchone()[0])

    def close(self) -> None:
        self._db.close()


@dataclass(frozen=True)
class StoredTask:
    """One run of a sweep: its (point, replication) key, the seed that reruns it alone
    (None when deterministic), its swept values and what the worker function is given."""

    point: int
    replication: int
    seed: int | None
    grid: dict[str, Any]
    payload: Any


def run_into_store(store: SweepStore, tasks: Sequence[StoredTask],
                   fn: Callable[[Any], dict[str, Any]], *, version: str,
                   executor: str = "serial", workers: int | None = None,
                   scheduler: str | None = None,
                   progress: Callable[[int, int, int], None] | None = None) -> dict[str, Any]:
    """Run every task without a row in ``store`` on the executor
    (:func:`policies.executors.map_unordered`; the workers only compute) and commit each
    row here, as its run finishes. ``fn(payload)`` returns ``exit`` (0 when it ran),
    ``status`` (``finished``, ``stopped``; ``failed`` when ``exit`` is not 0),
    ``summary`` (its result as JSON text, made in the worker; None when it failed),
    ``error`` (one line) and ``seconds``. ``progress(done, total, failed)`` follows
    every row. Returns the counts ``runs``, ``done_before``, ``ran`` and ``failed`` (in
    this call). An interrupt (``KeyboardInterrupt``) stops the workers at once and is
    raised again as :class:`SweepInterrupted`; every row committed before it is kept."""
    from policies.executors import map_unordered

    done = store.done()
    todo = [t for t in tasks if (t.point, t.replication) not in done]
    finished, failed = len(done), 0
    results = map_unordered(fn, [t.payload for t in todo], executor=executor,
                            workers=workers, scheduler=scheduler)
    try:
        for k, res in results:
            task = todo[k]
            status = "failed" if res["exit"] != 0 else res["status"]
            store.write({"point": task.point, "replication": task.replication,
                         "seed": task.seed, "grid": task.grid, "status": status,
                         "exit": res["exit"], "error": res["error"],
                         "seconds": res["seconds"], "version": version,
                         "summary": res["summary"]})
            failed += status == "failed"
            finished += 1
            if progress is not None:
                progress(finished, len(tasks), failed)
    except KeyboardInterrupt as e:
        results.close()  # an interrupt here, between two rows: stop the workers first
        if isinstance(e, SweepInterrupted):
            raise
        try:  # what the store holds (an interrupt may fall between a row and a count)
            finished = len(store.done())
        except sqlite3.Error:  # pragma: no cover - the count above is then the answer
            pass
        raise SweepInterrupted(finished, len(tasks), store.path) from None
    finally:
        results.close()  # the pool is stopped, not left to the garbage collector
    return {"runs": len(tasks), "done_before": len(done), "ran": len(todo), "failed": failed}


def _check_store(db: sqlite3.Connection, path: Path) -> None:
    tables = {t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not {"meta", "runs"} <= tables:
        raise StoreError(f"{path} is not a sweep store (no meta and runs tables)")
    fmt = db.execute("SELECT value FROM meta WHERE key='store_format'").fetchone()
    if fmt is None or fmt[0] != STORE_FORMAT:
        raise StoreError(f"{path} is not a sweep store of this format ({STORE_FORMAT})")


def _rows(path: Path) -> Iterator[dict[str, Any]]:
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)  # read only
    try:
        _check_store(db, path)
        cols = [c[1] for c in db.execute("PRAGMA table_info(runs)")]
        for values in db.execute("SELECT * FROM runs ORDER BY point, replication"):
            row = dict(zip(cols, values, strict=True))
            grid = json.loads(row.pop("grid"))
            summary = json.loads(row.pop("summary") or "null") or {}
            yield {**{k: row[k] for k in ("point", "replication", "seed")}, **grid,
                   **{k: v for k, v in row.items() if k not in ("point", "replication",
                                                                "seed")},
                   **{f"result.{k}": v for k, v in _flat(summary).items()}}
    except sqlite3.DatabaseError as e:
        raise StoreError(f"{path} is not a sweep store ({e})") from None
    finally:
        db.close()


def _flat(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested dictionaries flattened to dotted keys; lists kept as they are."""
    out: dict[str, Any] = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def load_results(store: str | Path):  # noqa: ANN201 - pandas is optional
    """The store as a tidy pandas DataFrame: a row per run.

    The file is opened read only; rows come in (point, replication) order.

    Parameters
    ----------
    store : str or pathlib.Path
        The SQLite file a sweep wrote (``packsched sweep --store``, or a
        :class:`SweepStore`).

    Returns
    -------
    pandas.DataFrame
        One row per run, with the columns ``point``, ``replication``, ``seed``, the
        grid values (one column per swept name), ``status``, ``exit``, ``error``,
        ``seconds``, ``version`` and the run's summary as ``result.<key>`` columns
        (nested keys dotted: ``result.stability.verdict``).

    Raises
    ------
    StoreError
        (a ``ValueError``) No such file, or a file that is not a sweep store of this
        format.
    ImportError
        pandas is not installed.

    References
    ----------
    docs/design.md, section Commands (the ``sweep`` row: a row per run in an SQLite
    store) and section Reproducing the figures; the store's tables are described in
    the module docstring.

    Examples
    --------
    >>> import json, os, tempfile
    >>> import policies
    >>> from policies.sweep_store import SweepStore
    >>> d = tempfile.mkdtemp()
    >>> path = os.path.join(d, "runs.sqlite")
    >>> s = SweepStore(path, spec_text="rho: [0.5]", spec_sha256="abc", version="0")
    >>> for r, q in enumerate([1.5, 2.5]):
    ...     s.write({"point": 0, "replication": r, "grid": {"rho": 0.5}, "seed": r,
    ...              "status": "finished", "exit": 0, "error": None, "seconds": 0.1,
    ...              "version": "0", "summary": json.dumps(
    ...                  {"mean_queue": q, "stability": {"verdict": "stable"}})})
    >>> s.close()
    >>> df = policies.load_results(path)
    >>> list(df.columns)
    ['point', 'replication', 'seed', 'rho', 'status', 'exit', 'error', 'seconds',
     'version', 'result.mean_queue', 'result.stability.verdict']
    >>> df["result.mean_queue"].tolist(), df["result.stability.verdict"].tolist()
    ([1.5, 2.5], ['stable', 'stable'])
    >>> import shutil; shutil.rmtree(d)
    """
    path = Path(store)
    if not path.is_file():
        raise StoreError(f"{path}: no such store")
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("load_results needs pandas: pip install pandas") from e
    return pd.DataFrame(list(_rows(path)))
