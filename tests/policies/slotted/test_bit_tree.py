"""The 64-ary bit tree of the slotted kernel (non-empty residual buckets, empty servers by
index) against a literal set: "smallest non-empty leaf >= lo" after random insertions
and removals."""

from __future__ import annotations

import numpy as np
import pytest

from policies.slotted._kernel import _bit_clear, _bit_levels, _bit_next, _bit_set, _hibit


def test_hibit_of_every_single_bit_and_mixed_words():
    for b in range(64):
        assert _hibit(np.int64(1) << np.int64(b)) == b
    rng = np.random.default_rng(0)
    for x in rng.integers(1, 2**62, 200):
        assert _hibit(np.int64(x)) == int(x).bit_length() - 1
    assert _hibit(np.int64(-1)) == 63


@pytest.mark.parametrize("R", [1, 2, 63, 64, 65, 4095, 4096, 4097, 70_000, 262_145])
def test_bit_next_matches_a_set(R):
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
        # queries at the edges too: lo itself present, past every leaf, past the end
        for lo in (int(rng.integers(0, R + 1)), r, 0, max(present, default=0) + 1, R):
            want = min((v for v in present if v >= lo), default=-1)
            assert _bit_next(bits, off, lo) == want, (R, step, lo)
    for r in list(present):
        _bit_clear(bits, off, r)
    assert not bits.any()
    assert _bit_next(bits, off, 0) == -1


def test_bit_next_top_bit_of_a_word():
    """Leaf 63 of a word is the int64 sign bit; leaves 64k + 63 at every level."""
    R = 64**3
    off = _bit_levels(R)
    bits = np.zeros(off[-1], np.int64)
    for leaf in (63, 64 * 63 + 63, R - 1):
        _bit_set(bits, off, leaf)
        assert _bit_next(bits, off, 0) == leaf
        assert _bit_next(bits, off, leaf) == leaf
        assert _bit_next(bits, off, leaf + 1) == -1
        _bit_clear(bits, off, leaf)
