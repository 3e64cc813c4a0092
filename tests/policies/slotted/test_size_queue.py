"""The kernel's queue of jobs by size (policies.slotted._size_queue) against a literal
sorted list: "the earliest queued job of the largest size <= x" after random insertions
and removals, with blocks small enough that splits, freed blocks and pool growth happen
all the time."""

from __future__ import annotations

import bisect

import numpy as np
import pytest

from policies.slotted._size_queue import (
    QBLOCK,
    size_queue_insert,
    size_queue_last_le,
    size_queue_new,
    size_queue_remove,
)


def literal_last_le(present: dict[int, float], x: float) -> int:
    best = -1
    for j, s in present.items():
        if s <= x and (best < 0 or s > present[best] or (s == present[best] and j < best)):
            best = j
    return best


@pytest.mark.parametrize(("B", "law"), [(2, "ties"), (4, "ties"), (4, "continuous"),
                                        (16, "continuous"), (QBLOCK, "ties")])
def test_size_queue_matches_a_literal_queue(B, law):
    rng = np.random.default_rng(B)
    n = 3000
    sizes = (rng.integers(1, 12, n) / 8.0 if law == "ties" else rng.uniform(0.01, 1.0, n))
    Q = size_queue_new(np.int64(B))
    present: dict[int, float] = {}
    nxt = 0
    for step in range(6000):
        # grow to ~1000 keys, drain to empty, grow again: splits, frees and reuse
        grow = (step // 1500) % 2 == 0
        if nxt < n and (not present or rng.random() < (0.8 if grow else 0.2)):
            size_queue_insert(Q, float(sizes[nxt]), nxt)
            present[nxt] = float(sizes[nxt])
            nxt += 1
        elif present:
            # remove what BF-S would take (the answer of a query) or any queued job
            if rng.random() < 0.5:
                j = literal_last_le(present, float(rng.uniform(0, 1.5)))
                j = j if j >= 0 else next(iter(present))
            else:
                j = list(present)[int(rng.integers(0, len(present)))]
            size_queue_remove(Q, present.pop(j), j)
        xs = [float(rng.uniform(0, 1.2)), 0.0, 2.0]
        if present:
            v = list(present.values())[int(rng.integers(0, len(present)))]
            xs += [v, float(np.nextafter(v, 0))]
        for x in xs:
            assert size_queue_last_le(Q, x) == literal_last_le(present, x), (B, step, x)


def test_size_queue_keys_stay_sorted_across_blocks():
    """Inserting in decreasing order always writes at position 0 of the first block; the
    first keys of the blocks must follow, or later searches land in the wrong block."""
    Q = size_queue_new(np.int64(4))
    keys = []
    for j in range(40):
        s = 1.0 - j / 64
        size_queue_insert(Q, s, j)
        bisect.insort(keys, s)
    for j, s in zip(range(40), [1.0 - j / 64 for j in range(40)], strict=True):
        assert size_queue_last_le(Q, s) == j
    for j in range(0, 40, 2):
        size_queue_remove(Q, 1.0 - j / 64, j)
    for j in range(1, 40, 2):
        assert size_queue_last_le(Q, 1.0 - j / 64) == j
        assert size_queue_last_le(Q, 1.0 - (j - 1) / 64) == j
