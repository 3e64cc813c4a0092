"""The 64-ary bit tree of the slotted kernel (queued sizes by rank) against a literal
set: "largest non-empty rank <= hi" after random insertions and removals."""

from __future__ import annotations

import numpy as np
import pytest

from policies.slotted._kernel import _bit_clear, _bit_levels, _bit_prev, _bit_set, _hibit


def test_hibit_of_every_single_bit_and_mixed_words():
    for b in range(64):
        assert _hibit(np.int64(1) << np.int64(b)) == b
    rng = np.random.default_rng(0)
    for x in rng.integers(1, 2**62, 200):
        assert _hibit(np.int64(x)) == int(x).bit_length() - 1
    assert _hibit(np.int64(-1)) == 63


@pytest.mark.parametrize("R", [1, 2, 63, 64, 65, 4095, 4096, 4097, 70_000, 262_145])
def test_bit_prev_matches_a_set(R):
    rng = np.random.default_rng(R)
    off = _bit_levels(R)
    bits = np.zeros(off[-1], np.int64)
    present: set[int] = set()
    for step in range(3000):
        r = int(rng.integers(0, R))
        if r in present and rng.random() < 0.5:
            present.discard(r)
            _bit_clear(bits, off, r)
        elif r not in present:
            present.add(r)
            _bit_set(bits, off, r)
        # queries at the edges too: hi itself present, below every leaf, past the end
        for hi in (int(rng.integers(-1, R)), r, R - 1, min(present, default=0) - 1):
            want = max((v for v in present if v <= hi), default=-1)
            assert _bit_prev(bits, off, hi) == want, (R, step, hi)
    for r in list(present):
        _bit_clear(bits, off, r)
    assert not bits.any()
