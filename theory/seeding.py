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
    """Normalise ``seed`` (int, Generator or None) to a ``numpy.random.Generator``.

    Parameters
    ----------
    seed : int, numpy.random.Generator or None
        An integer at least 0 (``default_rng(seed)``), a Generator (used as it is, so
        its state advances), or None (fresh entropy: not reproducible).

    Returns
    -------
    numpy.random.Generator
        The generator a sampler or a workload draws from.

    Raises
    ------
    ValueError
        When ``seed`` is negative, a bool, a float or anything else.

    References
    ----------
    docs/design.md, section Randomness and reproducibility.

    Examples
    --------
    >>> from theory import as_rng
    >>> as_rng(0).integers(10, size=3)
    array([8, 6, 5])
    >>> g = as_rng(0)
    >>> as_rng(g) is g
    True
    >>> as_rng(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be None, a non-negative integer or a numpy Generator, got -1
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and (isinstance(seed, bool | np.bool_)
                             or not isinstance(seed, int | np.integer) or seed < 0):
        raise ValueError(f"seed must be None, a non-negative integer or a numpy Generator, "
                         f"got {seed!r}")
    return np.random.default_rng(seed)


def scheduling_rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    """The scheduling stream of a run: ``seed`` itself if it is a Generator, else a child.

    The child is ``default_rng(SeedSequence(seed).spawn(1)[0])``, independent of a
    workload drawn with the same integer seed (:func:`as_rng`). A PG18 continuous run
    (``policies.continuous.simulate_continuous``) draws its random scheduling choices
    from it, in event order.

    Parameters
    ----------
    seed : int, numpy.random.Generator or None
        The run's seed: an integer at least 0, a Generator (used as it is), or None
        (fresh entropy: not reproducible).

    Returns
    -------
    numpy.random.Generator
        The scheduling stream.

    Raises
    ------
    ValueError
        When ``seed`` is negative, a bool, a float or anything else.

    References
    ----------
    docs/design.md, section Randomness and reproducibility (the scheduling stream of
    PG18 runs).

    Examples
    --------
    >>> from theory import as_rng, scheduling_rng
    >>> scheduling_rng(0).integers(10, size=3)  # not the workload stream as_rng(0)
    array([8, 9, 0])
    >>> as_rng(0).integers(10, size=3)
    array([8, 6, 5])
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and (isinstance(seed, bool | np.bool_)
                             or not isinstance(seed, int | np.integer) or seed < 0):
        raise ValueError(f"seed must be None, a non-negative integer or a Generator, got "
                         f"{seed!r}")
    return np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])


def spawn_seeds(seed: int | np.random.SeedSequence | None, n: int) -> list[np.random.SeedSequence]:
    """``n`` independent child seed sequences of ``seed`` (``SeedSequence.spawn``).

    Replications and sweep points each take one child, so the same seed gives the same
    numbers whether the runs are done serially or in parallel.

    Parameters
    ----------
    seed : int, numpy.random.SeedSequence or None
        The root: an integer at least 0, a SeedSequence (its children are spawned, so
        a second call gives new ones), or None (fresh entropy: not reproducible).
    n : int
        How many children, at least 0.

    Returns
    -------
    list of numpy.random.SeedSequence
        The ``n`` children, in spawn order.

    Raises
    ------
    ValueError
        When ``n`` is not a non-negative integer, or ``seed`` is negative, a bool, a
        float or anything else.

    References
    ----------
    docs/design.md, section Randomness and reproducibility (replications).

    Examples
    --------
    >>> import numpy as np
    >>> from theory import spawn_seeds
    >>> children = spawn_seeds(0, 2)
    >>> [c.spawn_key for c in children]
    [(0,), (1,)]
    >>> [int(np.random.default_rng(c).integers(10)) for c in children]
    [8, 6]
    """
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
        raise ValueError(f"the number of streams must be a non-negative integer, got {n!r}")
    if not (seed is None or isinstance(seed, np.random.SeedSequence)
            or (isinstance(seed, int | np.integer) and not isinstance(seed, bool)
                and seed >= 0)):
        raise ValueError(f"seed must be None, a non-negative integer or a "
                         f"numpy.random.SeedSequence, got {seed!r}")
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return list(root.spawn(int(n)))
