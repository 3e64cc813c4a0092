"""One executor implementation for sweeps, the catalogue and the adversarial search
(policies/executors.py): every executor gives every task's result once, the same
results, and refuses bad arguments with one line."""

from __future__ import annotations

import pytest

from policies.executors import EXECUTORS, check_executor, map_unordered


def square(x: int) -> int:
    return x * x


def _dask_or_skip() -> None:
    pytest.importorskip("dask.distributed", reason="the distributed extra is not installed")


@pytest.mark.parametrize("executor", EXECUTORS)
def test_every_executor_gives_every_result_once(executor):
    if executor == "dask":
        _dask_or_skip()
    items = list(range(12))
    got = list(map_unordered(square, items, executor=executor,
                             workers=None if executor == "serial" else 2))
    assert sorted(got) == [(i, i * i) for i in items]


def test_serial_follows_the_submission_order():
    order = [3, 0, 2, 1]
    assert [i for i, _ in map_unordered(square, [5, 6, 7, 8], order=order)] == order


@pytest.mark.parametrize("kw, words", [
    ({"executor": "threads"}, "executor must be one of"),
    ({"executor": "processes", "workers": 0}, "workers must be a positive integer"),
    ({"executor": "serial", "scheduler": "tcp://x:1"}, "for executor 'dask'"),
    ({"executor": "serial", "workers": 2}, "'serial' runs in this process"),
    ({"executor": "dask", "scheduler": "localhost"}, "an address such as"),
])
def test_bad_arguments_are_refused(kw, words):
    with pytest.raises(ValueError, match=words):
        check_executor(kw.pop("executor"), **kw)


def test_an_order_must_list_every_item():
    with pytest.raises(ValueError, match="permutation"):
        list(map_unordered(square, [1, 2], order=[0, 0]))


def test_an_unreachable_scheduler_is_named():
    _dask_or_skip()
    with pytest.raises(ConnectionError, match="no Dask scheduler at tcp://127.0.0.1:9"):
        list(map_unordered(square, [1, 2], executor="dask", scheduler="tcp://127.0.0.1:9"))


class _Done:
    """A finished future of a pool that runs at once (for the chunking logic alone)."""

    def __init__(self, value):
        self.value = value

    def result(self):
        return self.value


def _fake_pool(seconds_per_task: float):
    from policies import executors

    sizes: list[int] = []

    def submit(args):
        fn, chunk = args
        sizes.append(len(chunk))
        results, _ = executors._run_chunk((fn, chunk))
        return _Done((results, seconds_per_task * len(chunk)))

    return sizes, submit, lambda futs: {next(iter(futs))}


@pytest.mark.parametrize("seconds, fewest, most", [
    (1e-4, 2, 40),    # short tasks: after the first one, chunks of about 0.05 s
    (1.0, 200, 200),  # long tasks: one per chunk
])
def test_chunks_grow_with_short_tasks_and_every_result_comes_once(seconds, fewest, most):
    from policies.executors import _chunks

    sizes, submit, wait_first = _fake_pool(seconds)
    items = list(range(200))
    got = list(_chunks(square, items, list(range(200)), 2, 0.05, submit, wait_first))
    assert sorted(got) == [(i, i * i) for i in items]
    assert sizes[0] == 1 and fewest <= len(sizes) <= most
    # the end is shared: no chunk larger than a quarter of what was left when it was cut
    left = 200
    for size in sizes:
        assert size == 1 or size <= left // 4
        left -= size
