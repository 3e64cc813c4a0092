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

A caller that stops early (an interrupt such as SIGINT to the main process alone, an
error, or closing the generator) stops the pool at once: the chunks not started are
cancelled, the pool's workers are terminated (killed if they linger), a ``LocalCluster``
is closed without waiting for its running tasks; a remote Dask cluster has our queued
tasks cancelled. Nothing waits for the chunks in flight, whose results are dropped.
The process pool's workers ignore SIGINT: the main process decides.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
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
                  order: Sequence[int] | None = None
                  ) -> Generator[tuple[int, Any], None, None]:
    """``(i, fn(items[i]))`` for every item, as each finishes (see the module); closing
    the generator early stops the executor's workers at once."""
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


def _ignore_sigint() -> None:
    """A pool worker's initializer: SIGINT (a terminal's Ctrl-C reaches the whole
    process group) is the main process's to handle; it stops the workers."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunks(fn: Callable[[Any], Any], items: Sequence[Any], idx: list[int], workers: int,
            target: float, submit: Callable[[Any], Any],
            wait_first: Callable[[set[Any]], set[Any]], *,
            pending: dict[Any, list[int]] | None = None) -> Iterator[tuple[int, Any]]:
    """Feed chunks of tasks to a pool (``submit(args) -> future``; ``wait_first(futures)``
    returns the finished ones), sized so a chunk takes about ``target`` seconds.
    ``pending`` (the futures in flight -> their tasks) is the caller's to cancel when
    it stops early."""
    pending = {} if pending is None else pending
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

    pool = ProcessPoolExecutor(max_workers=min(workers, len(items)),
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=_ignore_sigint)
    try:
        yield from _chunks(fn, items, idx, workers, CHUNK_SECONDS["processes"],
                           lambda args: pool.submit(_run_chunk, args),
                           lambda futs: wait(futs, return_when=FIRST_COMPLETED).done)
    except BaseException:  # an interrupt, the caller closing us, an error: stop now
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def _stop_pool(pool: Any, grace: float = 1.0) -> None:
    """Stop a ``ProcessPoolExecutor`` without waiting for its chunks: cancel those not
    started, terminate the workers (SIGTERM; SIGKILL after ``grace`` seconds) and
    reap them. (``shutdown(wait=True)``, what a ``with`` block does, waits for every
    chunk submitted: minutes of runs after an interrupt.)"""
    import time

    # shutdown() forgets the processes: take them first (ProcessPoolExecutor has kept
    # them in _processes since 3.2; 3.14's terminate_workers does the same)
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    deadline = time.monotonic() + grace
    for proc in procs:
        proc.join(max(0.0, deadline - time.monotonic()))
        if proc.is_alive():
            proc.kill()
            proc.join(grace)


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
    client = None
    pending: dict[Any, list[int]] = {}
    early = False
    try:
        try:
            client = Client(cluster if cluster is not None else scheduler, timeout="5s")
        except (OSError, TimeoutError) as e:
            raise ConnectionError(f"no Dask scheduler at {scheduler}: {e}") from None
        if scheduler is not None:  # a real cluster: as many chunks in flight as it has
            workers = max(workers, sum(w.get("nthreads", 1) for w in
                                       client.scheduler_info()["workers"].values()))
        yield from _chunks(fn, items, idx, workers, CHUNK_SECONDS["dask"],
                           lambda args: client.submit(_run_chunk, args, pure=False),
                           lambda futs: set(wait(futs, return_when="FIRST_COMPLETED").done),
                           pending=pending)
    except BaseException:  # an interrupt, the caller closing us, an error: stop now
        early = True
        raise
    finally:
        _close_dask(client, cluster, list(pending) if early else [])


def _close_dask(client: Any, cluster: Any, cancel: list[Any]) -> None:
    """Close the client and our ``LocalCluster``. After an early stop, the chunks in
    ``cancel`` are cancelled on a remote cluster (those queued never start; a running
    one ends there unheard), and the local workers are closed within half a second:
    their nannies would otherwise give a running task 4 s before killing it."""
    import asyncio
    import logging

    quiet = logging.getLogger("distributed")
    level = quiet.level
    try:
        if cancel:
            quiet.setLevel(logging.ERROR)  # the cancelled and killed tasks are expected
            if client is not None and cluster is None:  # ours are closed below
                try:
                    client.cancel(cancel, force=True)
                except Exception:  # noqa: BLE001 - closing regardless
                    pass
            if cluster is not None:
                nannies = list(cluster.workers.values())

                async def close_now() -> None:
                    await asyncio.gather(*(n.close(timeout=0.5) for n in nannies),
                                         return_exceptions=True)

                try:
                    cluster.sync(close_now)
                except Exception:  # noqa: BLE001 - cluster.close() below still closes
                    pass
        if client is not None:
            client.close()
    finally:
        try:
            if cluster is not None:
                cluster.close()
        finally:
            quiet.setLevel(level)
