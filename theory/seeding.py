"""Seeds and random streams (docs/design.md, "Randomness and reproducibility").

Every stochastic function takes ``seed`` (an int >= 0, a ``numpy.random.Generator`` or
``None``):

* :func:`as_rng` turns it into the Generator a sampler or workload draws from
  (``default_rng(seed)``; a Generator passed in is used as it is);
* :func:`scheduling_rng` gives the scheduling stream of a PG18 continuous run,
  ``default_rng(SeedSequence(seed).spawn(1)[0])``, independent of a workload drawn with
  the same integer seed;
* :func:`spawn_seeds` gives the independent child streams of replications and sweep
  points (``SeedSequence.spawn``), so the same seed gives the same numbers whether the
  runs are done serially or in parallel.
"""

from __future__ import annotations

import numpy as np

__all__ = ["as_rng", "scheduling_rng", "spawn_seeds"]


def as_rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    """Normalise ``seed`` (int, Generator or None) to a ``numpy.random.Generator``."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and (isinstance(seed, bool | np.bool_)
                             or not isinstance(seed, int | np.integer) or seed < 0):
        raise ValueError(f"seed must be None, a non-negative integer or a numpy Generator, "
                         f"got {seed!r}")
    return np.random.default_rng(seed)


def scheduling_rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    """The scheduling stream of a run: ``seed`` itself if it is a Generator, else
    ``default_rng(SeedSequence(seed).spawn(1)[0])`` (independent of a workload drawn
    with the same integer seed)."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and (isinstance(seed, bool | np.bool_)
                             or not isinstance(seed, int | np.integer) or seed < 0):
        raise ValueError(f"seed must be None, a non-negative integer or a Generator, got "
                         f"{seed!r}")
    return np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])


def spawn_seeds(seed: int | np.random.SeedSequence | None, n: int) -> list[np.random.SeedSequence]:
    """``n`` independent child seed sequences of ``seed`` (``SeedSequence.spawn``)."""
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
        raise ValueError(f"the number of streams must be a non-negative integer, got {n!r}")
    if not (seed is None or isinstance(seed, np.random.SeedSequence)
            or (isinstance(seed, int | np.integer) and not isinstance(seed, bool)
                and seed >= 0)):
        raise ValueError(f"seed must be None, a non-negative integer or a "
                         f"numpy.random.SeedSequence, got {seed!r}")
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return list(root.spawn(int(n)))
