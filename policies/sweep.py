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
