"""Bins filled exactly to capacity: a greedy packing heuristic for integer weights.

The largest item not yet placed opens a bin; a subset of the smaller unplaced items
whose weights sum to exactly the room left closes it (a 0/1 subset-sum dynamic program
on a bit set, traced back through the item that first reached each sum). When no
subset fills the bin exactly, the item is left unplaced. This is the exact-fill step
of the minimum bin slack heuristic (Gupta & Ho 1999; Fleszar & Hindi 2002) without its
fallback to the least slack.

Its bins are what :mod:`capacity.perfect_bin_decomposition` fixes: a perfect bin wastes
nothing, so it can belong to an LP optimum at the continuous bound sum w / C.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from capacity._jit import njit

__all__ = ["ExactFillPacking", "exact_fill_bins", "MAX_EXACT_FILL_CAPACITY"]

#: Largest capacity the heuristic accepts (its tables hold C + 1 cells).
MAX_EXACT_FILL_CAPACITY = 1 << 24


@dataclass(frozen=True)
class ExactFillPacking:
    """``bins``: item indices of each perfect bin (weights summing to the capacity);
    ``unplaced``: the indices of the items in no bin, heaviest first."""

    bins: list[np.ndarray]
    unplaced: np.ndarray


@njit(cache=True)
def _exact_fill_kernel(w, C, max_unplaced):  # pragma: no cover - compiled; py_func tested
    """Bin of each item (items sorted by non-increasing weight), -1 if unplaced; stops
    once more than ``max_unplaced`` items are left out."""
    n = w.shape[0]
    bin_of = np.full(n, -1, np.int64)
    placed = np.zeros(n, np.bool_)
    words = (C >> 6) + 1
    reach = np.zeros(words, np.uint64)
    who = np.full(C + 1, -1, np.int64)
    one = np.uint64(1)
    nbins = 0
    unplaced = 0
    for i0 in range(n):
        if placed[i0]:
            continue
        placed[i0] = True
        target = C - w[i0]
        if target == 0:
            bin_of[i0] = nbins
            nbins += 1
            continue
        top = target >> 6
        for k in range(top + 1):
            reach[k] = 0
        reach[0] = one
        found = False
        for j in range(i0 + 1, n):
            wj = w[j]
            if placed[j] or wj > target:
                continue
            s = wj >> 6
            b = np.uint64(wj & 63)
            # reach |= reach << wj over words top..s, high to low: the words read are
            # still the old ones, as a 0/1 program needs
            for k in range(top, s - 1, -1):
                src = reach[k - s] << b
                if b > 0 and k - s - 1 >= 0:
                    src |= reach[k - s - 1] >> (np.uint64(64) - b)
                if k == top:
                    src &= (one << np.uint64((target & 63) + 1)) - one \
                        if (target & 63) < 63 else ~np.uint64(0)
                new = src & ~reach[k]
                if new:
                    reach[k] |= new
                    base = k << 6
                    for bit in range(64):
                        if (new >> np.uint64(bit)) & one:
                            who[base + bit] = j
            if (reach[top] >> np.uint64(target & 63)) & one:
                found = True
                break
        if found:
            x = target
            while x > 0:
                j = who[x]
                bin_of[j] = nbins
                placed[j] = True
                x -= w[j]
            bin_of[i0] = nbins
            nbins += 1
        else:
            unplaced += 1
            if unplaced > max_unplaced:
                break
        # who need not be reset: a cell is read only after this bin's program set it
    return bin_of


def exact_fill_bins(weights: Sequence[int] | np.ndarray, capacity: int, *,
                    max_unplaced: int | None = None) -> ExactFillPacking:
    """Perfect bins of integer ``weights`` (each at most ``capacity``) found greedily.

    ``max_unplaced``: stop once more items than this are left out (the items not yet
    reached are then unplaced too).

    >>> p = exact_fill_bins([5, 4, 3, 3, 2, 2, 1], 10)
    >>> [sorted(int(i) for i in b) for b in p.bins], p.unplaced.tolist()
    ([[0, 2, 4], [1, 3, 5, 6]], [])
    """
    w = np.asarray(weights)
    if w.ndim != 1 or w.dtype.kind not in "iu":
        raise ValueError("exact_fill_bins needs a one-dimensional array of integer weights")
    C = int(capacity)
    if isinstance(capacity, bool) or C != capacity or C < 1:
        raise ValueError(f"capacity must be a positive integer, got {capacity!r}")
    if C > MAX_EXACT_FILL_CAPACITY:
        raise ValueError(f"capacity {C} above {MAX_EXACT_FILL_CAPACITY} (the heuristic "
                         "keeps C + 1 cells)")
    if w.size and (w.min() < 1 or w.max() > C):
        raise ValueError(f"weights must lie in 1..{C}")
    order = np.argsort(-w.astype(np.int64), kind="stable")
    ws = np.ascontiguousarray(w[order], dtype=np.int64)
    kernel = _exact_fill_kernel.py_func if ws.size * C < 20_000 else _exact_fill_kernel
    if max_unplaced is not None and (isinstance(max_unplaced, bool) or not isinstance(
            max_unplaced, int | np.integer) or max_unplaced < 0):
        raise ValueError(f"max_unplaced must be an integer >= 0, got {max_unplaced!r}")
    limit = ws.size if max_unplaced is None else int(max_unplaced)
    bin_of = kernel(ws, C, limit)
    nb = int(bin_of.max(initial=-1)) + 1
    bins = [order[bin_of == b] for b in range(nb)]
    return ExactFillPacking(bins, order[bin_of < 0])
