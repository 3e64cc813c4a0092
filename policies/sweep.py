"""Run a simulation function over a grid of points and replications, reproducibly.

Each (point, replication) task gets its own child of ``SeedSequence(seed)`` (spawned
in task order), so results are identical whether tasks run serially or in a process
pool (docs/design.md, "Randomness and reproducibility").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from policies.executors import map_unordered
from theory.seeding import spawn_seeds

__all__ = ["sweep"]

P = TypeVar("P")


def _call(args: tuple[Callable[..., Any], Any, np.random.SeedSequence]) -> Any:
    fn, point, ss = args
    return fn(point, np.random.default_rng(ss))


def sweep(
    fn: Callable[[P, np.random.Generator], Any],
    points: Sequence[P],
    *,
    replications: int = 1,
    seed: int | None = None,
    processes: int | None = None,
) -> list[dict[str, Any]]:
    """``fn(point, rng)`` for every point and replication.

    Returns ``[{"point": p, "replication": r, "result": fn(p, rng)}, ...]`` in grid order.
    ``processes`` > 1 uses a process pool (:func:`policies.executors.map_unordered`;
    ``fn`` must then be picklable, i.e. defined at module level).

    Task k = i R + r (point i, replication r of R) draws from the k-th child of
    ``SeedSequence(seed)`` (:func:`policies.spawn_seeds`), so the results are the same
    serially and in a pool, whatever the order the tasks finish in.

    Parameters
    ----------
    fn : callable
        ``fn(point, rng)``, with ``rng`` a :class:`numpy.random.Generator` of its own;
        its return value is the task's result.
    points : sequence
        The grid points.
    replications : int, optional
        Independent runs per point (a positive integer; default 1).
    seed : int or None, optional
        The root seed (None: fresh entropy, not reproducible).
    processes : int or None, optional
        Worker processes; None or 1 runs serially.

    Returns
    -------
    list of dict
        ``{"point": p, "replication": r, "result": fn(p, rng)}`` for every point and
        replication, points in order, replications within a point in order.

    Raises
    ------
    ValueError
        ``replications`` not a positive integer.

    References
    ----------
    docs/design.md, section Randomness and reproducibility (replications, spawned
    seeds).

    Examples
    --------
    >>> from policies import sweep
    >>> def draw(point, rng):
    ...     return round(float(rng.uniform()) * point, 3)
    >>> sweep(draw, [1, 10], replications=2, seed=0)
    [{'point': 1, 'replication': 0, 'result': 0.943},
     {'point': 1, 'replication': 1, 'result': 0.677},
     {'point': 10, 'replication': 0, 'result': 8.383},
     {'point': 10, 'replication': 1, 'result': 3.644}]
    """
    if isinstance(replications, bool) or not isinstance(replications, int) or replications < 1:
        raise ValueError(f"replications must be a positive integer, got {replications!r}")
    pts = list(points)
    seeds = spawn_seeds(seed, len(pts) * replications)
    tasks = [(fn, p, seeds[i * replications + r]) for i, p in enumerate(pts)
             for r in range(replications)]
    results: list[Any] = [None] * len(tasks)
    parallel = processes is not None and processes > 1
    for k, res in map_unordered(_call, tasks, executor="processes" if parallel else "serial",
                                workers=processes if parallel else None):
        results[k] = res
    return [{"point": t[1], "replication": k % replications, "result": res}
            for k, (t, res) in enumerate(zip(tasks, results, strict=True))]
