"""One way to run independent tasks in parallel, for every caller: sweeps
(``packsched sweep``), the claims catalogue (``verify --jobs``), the adversarial search
and :func:`policies.sweep`.

:func:`map_unordered` yields ``(index, fn(item))`` as each task finishes, on an executor:

* ``"serial"``: in this process, in order;
* ``"processes"``: a pool of fresh (spawned) processes on this machine;
* ``"dask"``: a ``dask.distributed`` cluster, a ``LocalCluster`` of ``workers``
  processes by default or the scheduler at ``scheduler`` (``tcp://host:port``); a task
  whose worker dies is run again elsewhere. Dask is the ``distributed`` extra
  (``pip install 'packsched[distributed]'``).

``fn`` and the items must be picklable (``fn`` defined at a module's top level). Tasks
are submitted in ``order`` (default: as given), so a caller can start its most costly
ones first. Results carry no state of the worker: the caller writes what it keeps.

The parallel executors send tasks in **chunks** sized as they go, as joblib's automatic
batching does: the first chunks hold one task; then each chunk holds as many tasks as
the mean task time so far fits into ``CHUNK_SECONDS`` (0.05 s for processes, 0.2 s for
Dask, whose per-task cost is a few milliseconds), never more than a share of what is
left, so both workers stay busy to the end. Only ``2 * workers`` chunks are in flight
at a time, so a sweep of a million runs does not submit a million futures. A chunk's
results arrive when it finishes, its tasks at most ``CHUNK_SECONDS`` after they ended.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

__all__ = ["EXECUTORS", "map_unordered", "check_executor"]

#: the executors :func:`map_unordered` offers
EXECUTORS = ("serial", "processes", "dask")
#: the wall time a chunk of tasks aims at, per parallel executor
CHUNK_SECONDS = {"processes": 0.05, "dask": 0.2}


def check_executor(executor: object, workers: object = None,
                   scheduler: object = None) -> None:
    """A ``ValueError`` naming a bad executor, worker count or scheduler address."""
    if not isinstance(executor, str) or executor not in EXECUTORS:
        raise ValueError(f"executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if workers is not None and executor == "serial":
        raise ValueError("workers are for executor 'processes' or 'dask'; 'serial' runs "
                         "in this process")
    if scheduler is not None and executor != "dask":
        raise ValueError("a scheduler address is for executor 'dask'")
    if scheduler is not None and (not isinstance(scheduler, str) or "://" not in scheduler):
        raise ValueError(f"scheduler must be an address such as tcp://host:8786, got "
                         f"{scheduler!r}")


def map_unordered(fn: Callable[[Any], Any], items: Sequence[Any], *,
                  executor: str = "serial", workers: int | None = None,
                  scheduler: str | None = None,
                  order: Sequence[int] | None = None) -> Iterator[tuple[int, Any]]:
    """``(i, fn(items[i]))`` for every item, as each finishes (see the module)."""
    check_executor(executor, workers, scheduler)
    idx = list(range(len(items))) if order is None else list(order)
    if sorted(idx) != list(range(len(items))):
        raise ValueError("order must be a permutation of the items' positions")
    if executor == "serial" or (executor == "processes" and (workers or 2) < 2) \
            or len(items) == 0:
        for i in idx:
            yield i, fn(items[i])
        return
    if executor == "processes":
        yield from _processes(fn, items, idx, workers or 2)
    else:
        yield from _dask(fn, items, idx, workers or 2, scheduler)


def _restore_mmap_threshold() -> None:
    """Undo, once per worker process, what ``MALLOC_TRIM_THRESHOLD_`` does to glibc.

    Dask's nanny starts its workers with ``MALLOC_TRIM_THRESHOLD_=65536``. Setting any
    malloc tunable from the environment turns off glibc's dynamic mmap threshold, so every
    array above 128 KiB is mmapped and faulted in afresh at each allocation: a simulation
    ran 1.45x as long in such a worker as in a plain process (measured, 60 ms runs). This
    sets the mmap threshold to 32 MiB, the ceiling the dynamic threshold would reach; a
    worker given ``MALLOC_MMAP_THRESHOLD_`` explicitly, or a libc without ``mallopt``,
    is left alone."""
    import ctypes
    import os

    if "MALLOC_TRIM_THRESHOLD_" not in os.environ or "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return
    try:
        ctypes.CDLL(None).mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD
    except (OSError, AttributeError):  # not glibc
        pass


_MALLOC_TUNED = False


def _run_chunk(args: tuple[Callable[[Any], Any], list[Any]]) -> tuple[list[Any], float]:
    """A chunk of tasks in a worker: their results and the chunk's seconds."""
    import time

    global _MALLOC_TUNED
    if not _MALLOC_TUNED:
        _restore_mmap_threshold()
        _MALLOC_TUNED = True
    fn, chunk = args
    t0 = time.perf_counter()
    return [fn(x) for x in chunk], time.perf_counter() - t0


def _chunks(fn: Callable[[Any], Any], items: Sequence[Any], idx: list[int], workers: int,
            target: float, submit: Callable[[Any], Any],
            wait_first: Callable[[set[Any]], set[Any]]) -> Iterator[tuple[int, Any]]:
    """Feed chunks of tasks to a pool (``submit(args) -> future``; ``wait_first(futures)``
    returns the finished ones), sized so a chunk takes about ``target`` seconds."""
    pending: dict[Any, list[int]] = {}
    position, tasks_done, busy = 0, 0, 0.0

    def next_size() -> int:
        left = len(idx) - position
        if tasks_done == 0:
            return 1
        fit = max(1, int(target / max(busy / tasks_done, 1e-9)))
        return max(1, min(fit, left // (2 * workers) or 1))

    while position < len(idx) or pending:
        while position < len(idx) and len(pending) < 2 * workers:
            size = next_size()
            chunk = idx[position:position + size]
            position += size
            pending[submit((fn, [items[i] for i in chunk]))] = chunk
        for fut in wait_first(set(pending)):
            chunk = pending.pop(fut)
            results, seconds = fut.result()
            tasks_done, busy = tasks_done + len(chunk), busy + seconds
            yield from zip(chunk, results, strict=True)


def _processes(fn: Callable[[Any], Any], items: Sequence[Any], idx: list[int],
               workers: int) -> Iterator[tuple[int, Any]]:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    with ProcessPoolExecutor(max_workers=min(workers, len(items)),
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        yield from _chunks(fn, items, idx, workers, CHUNK_SECONDS["processes"],
                           lambda args: pool.submit(_run_chunk, args),
                           lambda futs: wait(futs, return_when=FIRST_COMPLETED).done)


def _dask(fn: Callable[[Any], Any], items: Sequence[Any], idx: list[int], workers: int,
          scheduler: str | None) -> Iterator[tuple[int, Any]]:
    try:
        from dask.distributed import Client, LocalCluster, wait
    except ImportError:
        raise ImportError("executor 'dask' needs the distributed extra: pip install "
                          "'packsched[distributed]'") from None
    cluster = None
    if scheduler is None:
        import dask

        # no dashboard, so no use for the workers' statistical profiler, which samples
        # every task's stack each 10 ms (about 5% of a run's time here)
        with dask.config.set({"distributed.worker.profile.enabled": False}):
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
    try:
        client = Client(cluster if cluster is not None else scheduler, timeout="5s")
    except (OSError, TimeoutError) as e:
        if cluster is not None:
            cluster.close()
        raise ConnectionError(f"no Dask scheduler at {scheduler}: {e}") from None
    try:
        if scheduler is not None:  # a real cluster: as many chunks in flight as it has
            workers = max(workers, sum(w.get("nthreads", 1) for w in
                                       client.scheduler_info()["workers"].values()))
        yield from _chunks(fn, items, idx, workers, CHUNK_SECONDS["dask"],
                           lambda args: client.submit(_run_chunk, args, pure=False),
                           lambda futs: set(wait(futs, return_when="FIRST_COMPLETED").done))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
