"""Fuzz of the public API of the readers and numbers of ``theory``.

Every public function of theory.numbers, theory.distributions, theory.seeding,
theory.readers.traces and theory.readers.bpplib is called with arguments drawn from a
pool of bad values (strings, NaN, inf, negatives, huge, tiny, None, bools, nested lists,
bytes, dicts, sets, iterators, empty containers) mixed with good ones. Each call either
returns or raises ``ValueError``/``TypeError`` with a non-empty message; any other
exception type (an AttributeError, IndexError, OverflowError, ZeroDivisionError, a numpy
error, a RecursionError, a UnicodeDecodeError without the file name) fails the test.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterator
from decimal import Decimal
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from theory import distributions, numbers, seeding
from theory.distributions import Continuous, Discrete, Mixture, Uniform, beta, empirical
from theory.readers import bpplib, traces

FAST = settings(max_examples=200, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
LONG = settings(max_examples=3000, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

# -- the pool of values ---------------------------------------------------------------------

TEXTS = ["0.4", "0.6", "1/2", "1", "0", "-1", "-0.3", "abc", "", " ", "nan", "inf", "-inf",
         "1e400", "1e-400", "1e-30", "1e300", "1e999999999", "-1e-999999999", "0e99999",
         "1/0", "0x10", "1_000", "10.0", "0.4.5", "\x00", "\udcdc", "9" * 5000, "١٢",
         "uniform:0.1,0.9", "max"]
FLOATS = [0.0, -0.0, 0.4, 1.0, 2.0, -1.0, 1e-30, 1e-300, 5e-324, 1e300, 1.7976931348623157e308,
          float("nan"), float("inf"), float("-inf")]
INTS = [0, 1, 2, 3, -1, 2**53, 2**53 + 1, 10**30, 10**400, -(10**400)]
OTHERS: list[Any] = [None, True, False, b"0.4", bytearray(b"1"), {}, {"a": 1}, {0.4: 1},
                     set(), {0.4}, frozenset({1}), (), [], [[]], [[[0.4]]], object(),
                     complex(1, 1), Decimal("0.4"), Decimal("nan"), F(1, 10**400), F(10**400),
                     F(2, 5), np.float64("nan"), np.float32(0.5), np.int64(3), np.bool_(True),
                     np.array(0.4), np.array([0.4, 0.6]), np.array([[0.1, 0.2]]),
                     np.array(["a", "b"]), np.zeros((2, 2, 2)), np.array([], dtype=float),
                     range(3), slice(1), Ellipsis, type, print]

atoms = st.one_of(st.sampled_from(TEXTS), st.sampled_from(FLOATS), st.sampled_from(INTS),
                  st.sampled_from(OTHERS), st.floats(), st.integers(),
                  st.text(max_size=12), st.fractions())


def iterators(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Iterator[Any]]:
    return st.lists(inner, max_size=4).map(iter)


bad = st.recursive(
    atoms,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.tuples(inner, inner),
                            st.dictionaries(st.sampled_from(TEXTS), inner, max_size=3),
                            iterators(inner)),
    max_leaves=12,
)
good_sizes = st.lists(st.sampled_from(["0.4", "0.6", "1/2", 0.25, F(1, 3), 1]), min_size=1,
                      max_size=4)
sizes_like = st.one_of(bad, good_sizes)
probs_like = st.one_of(bad, st.just(None), st.lists(st.sampled_from(["1/2", 0.5, 1, "1/4"]),
                                                    min_size=1, max_size=4))
DISTS = [Discrete(["0.4", "0.6"]), Discrete([0.25, 0.5], [0.5, 0.5]),
         Discrete([("0.1", "0.2"), ("0.3", "0.1")]), Uniform("0.1", "0.9"), Uniform(0.1, 0.9),
         beta(2, 5), Mixture([Uniform("0.1", "0.3"), Discrete(["0.7"])], ["1/2", "1/2"])]
dists = st.sampled_from(DISTS)
SPEC_TOKENS = ["uniform", "discrete", "point", "beta", "mixture", ":", ",", "@", "*", "+",
               "0.4", "0.6", "1/2", "nan", "1e400", "1e-400", "-1", "2", "", " ", "0", "1"]
specs = st.one_of(st.lists(st.sampled_from(SPEC_TOKENS), max_size=12).map("".join),
                  st.text(max_size=30), bad)


def check(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """``fn`` returns, or raises ValueError/TypeError with a message; nothing else."""
    try:
        fn(*args, **kwargs)
    except (ValueError, TypeError) as err:
        assert str(err).strip(), f"{type(err).__name__} without a message from {fn}"
        assert not isinstance(err, UnicodeError), f"raw {type(err).__name__}: {err}"


# -- numbers --------------------------------------------------------------------------------


def _numbers_cases(x: Any, y: Any) -> None:
    check(numbers.to_number, x, name="x")
    check(numbers.to_numbers, x, name="xs")
    check(numbers.to_float_checked, x, "x")
    check(numbers.as_list, x, name="xs")
    check(numbers.all_exact, x)
    check(numbers.as_float, x)
    check(numbers.common_denominator, x)
    check(numbers.positive_int, x, name="n")
    check(numbers.fits, x, y)


@FAST
@given(bad, st.one_of(bad, st.sampled_from([F(1), 1.0])))
def test_numbers(x, y):
    _numbers_cases(x, y)


# -- distributions ---------------------------------------------------------------------------


def _distribution_cases(s: Any, p: Any, x: Any, d: Any) -> None:
    check(Discrete, s, p)
    check(Discrete.from_counts, s, p)
    check(Discrete(["0.4", "0.6"]).scaled, x)
    check(empirical, s)
    check(Uniform, x, p)
    check(Uniform, "0.1", x)
    check(beta, x, 2)
    check(beta, 2, 2, x, p)
    check(Continuous, lambda t: t, x)
    check(Continuous, x, (0, 1))
    check(Mixture, s, p)
    check(Mixture, [Uniform(0, 1), Discrete(["0.5"])], s)
    check(seeding.as_rng, x)
    check(seeding.scheduling_rng, x)
    check(seeding.spawn_seeds, x, 2)
    check(d.cdf, x)
    check(d.cdf_left, x)
    check(d.quantile, x)
    check(d.prob, x, "0.5")
    check(d.sample, x if not isinstance(x, int) or x < 10**6 else 10**400)
    check(d.sample, 3, x)


@FAST
@given(sizes_like, probs_like, bad, dists)
def test_distributions(s, p, x, d):
    _distribution_cases(s, p, x, d)


@FAST
@given(specs)
def test_from_spec(spec):
    check(distributions.from_spec, spec)


# -- readers ---------------------------------------------------------------------------------

LINES = ["4", "10", "2", "5", "3 4", "10 abc", "1e300", "10.0", "-2", "0", "# c", "", "  ",
         "\t7", str(2**53), str(2**53 + 1), "9" * 30, "0.4", "0.5,0.25", "nan", "1e400",
         "cpu_request", "a,b", '"0.1', "\x00", "3 # x"]
file_texts = st.one_of(
    st.lists(st.sampled_from(LINES), max_size=8).map(lambda ls: "\n".join(ls).encode()),
    st.binary(max_size=64),
    st.lists(st.sampled_from(LINES), max_size=6).map(
        lambda ls: ("\n".join(ls) + "\n").encode("utf-16")),
)


@pytest.fixture(scope="module")
def files_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzzfiles")


def _file(root: Path, data: bytes, gz: bool) -> Path:
    import gzip

    body = gzip.compress(data) if gz else data
    p = root / (hashlib.sha1(body).hexdigest() + (".gz" if gz else ".txt"))
    if not p.exists():
        p.write_bytes(body)
    return p


paths_bad = st.sampled_from([None, 3, b"x", "", ".", "/nonexistent/file.txt", ["a"], True])
_COUNTER = itertools.count()


def _reader_cases(root: Path, data: bytes, gz: bool, layout: Any, column: Any,
                  kind: Any, path_bad: Any) -> None:
    p = _file(root, data, gz)
    for path in (p, root, path_bad):
        check(bpplib.read_bpplib, path)
        check(bpplib.read_bpplib, path, layout="csp")
        check(traces.read_size_file, path)
        check(traces.read_size_file, path, column="cpu_request")
        check(traces.load_google2011, path)
    check(bpplib.read_bpplib, p, layout=layout)
    check(traces.read_size_file, p, column=column)
    check(traces.read_size_file, p, memory_budget=10)
    check(traces.trace_distribution, kind)
    check(traces.trace_distribution, "max", exact=kind)
    check(traces.google2011_sizes, kind, path=p)
    out = root / f"w{next(_COUNTER)}.txt"
    check(bpplib.write_bpplib, out, layout if isinstance(layout, int) else 10, column)
    check(bpplib.write_bpplib, out, 10, [3, 5], layout=layout)


bad_kinds = st.one_of(st.sampled_from(["MAX", "", "disk", None, 1, ["max"], b"max", True]),
                      bad)


@FAST
@given(file_texts, st.booleans(), st.one_of(st.sampled_from(["bpp", "csp"]), bad),
       st.one_of(st.just("cpu_request"), bad), bad_kinds, paths_bad)
def test_readers(files_dir, data, gz, layout, column, kind, path_bad):
    _reader_cases(files_dir, data, gz, layout, column, kind, path_bad)


# -- the long runs -----------------------------------------------------------------------------


@pytest.mark.slow
@LONG
@given(bad, st.one_of(bad, st.sampled_from([F(1), 1.0])))
def test_numbers_long(x, y):
    _numbers_cases(x, y)


@pytest.mark.slow
@LONG
@given(sizes_like, probs_like, bad, dists)
def test_distributions_long(s, p, x, d):
    _distribution_cases(s, p, x, d)


@pytest.mark.slow
@LONG
@given(specs)
def test_from_spec_long(spec):
    check(distributions.from_spec, spec)


@pytest.mark.slow
@LONG
@given(file_texts, st.booleans(), st.one_of(st.sampled_from(["bpp", "csp"]), bad),
       st.one_of(st.just("cpu_request"), bad), bad_kinds, paths_bad)
def test_readers_long(files_dir, data, gz, layout, column, kind, path_bad):
    _reader_cases(files_dir, data, gz, layout, column, kind, path_bad)
