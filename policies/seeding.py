"""Seeds for simulations (docs/design.md, "Randomness and reproducibility").

Every stochastic function takes ``seed`` (an int, a ``numpy.random.Generator`` or
``None``); replications and sweep points draw independent streams from
``numpy.random.SeedSequence.spawn``, so the same seed gives the same numbers
whether the runs are done serially or in parallel.
"""

from __future__ import annotations

import numpy as np

from theory.distributions import as_rng

__all__ = ["as_rng", "spawn_seeds"]


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
