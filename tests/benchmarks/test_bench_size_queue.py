"""``benchmarks/bench_size_queue.py`` on tiny queues: one row per block size, bad
arguments refused with exit 2."""

from __future__ import annotations

import pytest

import benchmarks.bench_size_queue as bench


def test_one_row_per_block_size(capsys):
    assert bench.main(["--blocks", "2,16", "--lengths", "10,300", "--ops", "500",
                       "--repeats", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "| keys per block | Q = 10 | Q = 300 |"
    assert [ln.split("|")[1].strip() for ln in lines[2:]] == ["2", "16"]
    assert all(ln.count(" ns") == 2 for ln in lines[2:])


@pytest.mark.parametrize("argv", [["--blocks", "1"], ["--blocks", "x"], ["--lengths", "0"],
                                  ["--ops", "0"], ["--repeats", "0"],
                                  ["--lengths", "1000000000"], ["--ops", "10000000000"]])
def test_bad_arguments_exit_2(argv):
    with pytest.raises(SystemExit) as e:
        bench.main(argv)
    assert e.value.code == 2
