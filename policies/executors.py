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
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

__all__ = ["EXECUTORS", "map_unordered", "check_executor"]

#: the executors :func:`map_unordered` offers
EXECUTORS = ("serial", "processes", "dask")


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


def _processes(fn: Callable[[Any], Any], items: Sequence[Any], idx: list[int],
               workers: int) -> Iterator[tuple[int, Any]]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=min(workers, len(items)),
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(fn, items[i]): i for i in idx}
        for fut in as_completed(futures):
            yield futures[fut], fut.result()


def _dask(fn: Callable[[Any], Any], items: Sequence[Any], idx: list[int], workers: int,
          scheduler: str | None) -> Iterator[tuple[int, Any]]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ImportError("executor 'dask' needs the distributed extra: pip install "
                          "'packsched[distributed]'") from None
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
    try:
        client = Client(cluster if cluster is not None else scheduler, timeout="5s")
    except (OSError, TimeoutError) as e:
        if cluster is not None:
            cluster.close()
        raise ConnectionError(f"no Dask scheduler at {scheduler}: {e}") from None
    try:
        futures = {client.submit(fn, items[i], pure=False, key=f"task-{i}-{id(items)}"): i
                   for i in idx}
        for fut in as_completed(futures):
            yield futures[fut], fut.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
