"""theory.readers.bpplib: the BPPLIB bpp and csp layouts, read exactly as documented."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from theory.budgets import BudgetExceeded
from theory.readers.bpplib import MAX_INTEGER, read_bpplib, write_bpplib

INSTANCES = Path(__file__).resolve().parents[2] / "benchmarks" / "instances"


def write(tmp_path: Path, data: bytes | str, name: str = "inst.txt") -> Path:
    p = tmp_path / name
    p.write_bytes(data.encode() if isinstance(data, str) else data)
    return p


# -- what is accepted -----------------------------------------------------------------------


def test_reads_the_bpp_layout(tmp_path):
    assert read_bpplib(write(tmp_path, "4\n10\n2\n5\n5\n3\n")) == (10, [2, 5, 5, 3])


def test_reads_the_csp_layout_expanded(tmp_path):
    p = write(tmp_path, "2\n10\n3 4\n5 2\n")
    assert read_bpplib(p, layout="csp") == (10, [3, 3, 3, 3, 5, 5])
    # a weight may repeat: the multiplicities add
    assert read_bpplib(write(tmp_path, "2\n10\n3 1\n3 2\n"), "csp") == (10, [3, 3, 3])


def test_blank_lines_comment_lines_crlf_bom_tabs_and_gzip(tmp_path):
    text = "\ufeff# a comment\r\n2\r\n\r\n10\r\n\t3 \r\n# another\r\n4\r\n\r\n"
    assert read_bpplib(write(tmp_path, text)) == (10, [3, 4])
    gz = write(tmp_path, gzip.compress(b"2\n10\n3\n4\n"), "inst.txt.gz")
    assert read_bpplib(gz) == (10, [3, 4])


def test_every_packaged_benchmark_instance_reads():
    files = sorted(INSTANCES.glob("*.txt"))
    assert len(files) >= 20
    for f in files:
        cap, weights = read_bpplib(f)
        n = int(f.read_text().split()[0])
        assert len(weights) == n and all(0 < w <= cap for w in weights), f


def test_capacity_up_to_2_53_is_read(tmp_path):
    assert MAX_INTEGER == 2**53
    assert read_bpplib(write(tmp_path, f"1\n{2**53}\n5\n")) == (2**53, [5])


# -- extra tokens and the csp layout read as bpp ------------------------------------------


def test_csp_file_read_as_bpp_is_refused_naming_the_layout(tmp_path):
    p = write(tmp_path, "2\n10\n3 4\n5 2\n")
    with pytest.raises(ValueError, match=r"inst.txt:3: extra token '4' after '3'.*csp"):
        read_bpplib(p)


def test_a_token_after_the_weight_is_refused(tmp_path):
    p = write(tmp_path, "2\n10\n10 abc\n5\n")
    with pytest.raises(ValueError, match=r"inst.txt:3: extra token 'abc' after '10'"):
        read_bpplib(p)


@pytest.mark.parametrize(("text", "pattern"), [
    ("2 10\n3\n4\n", r":1: extra token '10' after '2' \(only the item count n"),
    ("2\n10 7\n3\n4\n", r":2: extra token '7'"),
    ("2\n10\n3 # note\n4\n", r":3: extra token '#'.*line of its own"),
])
def test_extra_tokens_anywhere(tmp_path, text, pattern):
    with pytest.raises(ValueError, match=pattern):
        read_bpplib(write(tmp_path, text))


def test_bpp_file_read_as_csp_is_refused(tmp_path):
    p = write(tmp_path, "2\n10\n3\n4\n")
    with pytest.raises(ValueError, match=r":3: expected a weight and its multiplicity, got "
                                         r"only '3'.*layout='bpp'"):
        read_bpplib(p, layout="csp")
    with pytest.raises(ValueError, match=r":3: extra token '1' after '3 1'"):
        read_bpplib(write(tmp_path, "1\n10\n3 1 1\n"), layout="csp")


@pytest.mark.parametrize("layout", ["CSP", "", None, 1, "cutting-stock"])
def test_unknown_layout(tmp_path, layout):
    with pytest.raises(ValueError, match="layout must be 'bpp'"):
        read_bpplib(write(tmp_path, "1\n10\n3\n"), layout=layout)


@pytest.mark.parametrize("tok", ["10.0", "2.5", "1e3", "0x10", "1_0", "\u0663", "ten", "--3"])
def test_integers_only_naming_the_token(tmp_path, tok):
    p = write(tmp_path, f"2\n10\n{tok}\n5\n")
    with pytest.raises(ValueError, match=rf"inst.txt:3: weight {tok!r} is not an integer"):
        read_bpplib(p)


def test_capacity_as_float_text_is_not_an_integer(tmp_path):
    with pytest.raises(ValueError, match=r":2: capacity C '1e300' is not an integer"):
        read_bpplib(write(tmp_path, "2\n1e300\n2\n5\n"))


@pytest.mark.parametrize("cap", [str(2**53 + 1), "1" + "0" * 300, "9" * 5000],
                         ids=["2**53+1", "10**300", "5000 digits"])
def test_capacity_above_2_53_is_refused_naming_the_limit(tmp_path, cap):
    p = write(tmp_path, f"1\n{cap}\n5\n")
    with pytest.raises(ValueError, match=r":2: capacity .* above 2\*\*53 = 9007199254740992"):
        read_bpplib(p)


@pytest.mark.parametrize(("text", "pattern"), [
    ("3\n10\n2\n11\n4\n", r":4: weight 11 is not in \(0, 10\]"),
    ("2\n10\n-2\n5\n", r":3: weight -2 is not in \(0, 10\]"),
    ("2\n10\n0\n5\n", r":3: weight 0 is not in"),
    ("5\n10\n2\n5\n", r"header says 5 weights \(line 1\) but 2 follow"),
    ("1\n10\n2\n5\n", r"header says 1 weights \(line 1\) but 2 follow"),
    ("0\n10\n", r":1: the item count n must be at least 1, got 0"),
    ("2\n0\n1\n1\n", r":2: the capacity C must be at least 1"),
    ("3\n", r"ends after the item count n"),
    ("3\n10\n", r"header says 3 weights .* but 0 follow"),
    ("", r"empty file .* item count n"),
    ("# only a comment\n\n", r"empty file"),
])
def test_malformed_bpp_files(tmp_path, text, pattern):
    with pytest.raises(ValueError, match=pattern):
        read_bpplib(write(tmp_path, text))


@pytest.mark.parametrize(("text", "pattern"), [
    ("1\n10\n3 0\n", r":3: multiplicity 0 must be at least 1"),
    ("1\n10\n3 -1\n", r":3: multiplicity -1 must be at least 1"),
    ("1\n10\n3 x\n", r":3: multiplicity 'x' is not an integer"),
    ("1\n10\n11 1\n", r":3: weight 11 is not in"),
    ("2\n10\n3 1\n", r"header says 2 'weight multiplicity' lines .* but 1 follow"),
    ("", r"empty file .* line count m"),
])
def test_malformed_csp_files(tmp_path, text, pattern):
    with pytest.raises(ValueError, match=pattern):
        read_bpplib(write(tmp_path, text), layout="csp")


def test_csp_expansion_is_budgeted(tmp_path):
    p = write(tmp_path, "1\n10\n3 9999999999999\n")
    with pytest.raises(BudgetExceeded, match="expanding .* 9,999,999,999,999 items") as err:
        read_bpplib(p, layout="csp")
    assert err.value.option == "memory_budget"
    with pytest.raises(BudgetExceeded):
        read_bpplib(write(tmp_path, "1\n10\n3 1000\n"), layout="csp", memory_budget=1000)


# -- files that are not instances --------------------------------------------------------


def test_non_utf8_file_names_the_file_and_says_it_in_words(tmp_path):
    p = write(tmp_path, b"3\n10\n\xdc\xff\n2\n5\n")
    with pytest.raises(ValueError) as err:
        read_bpplib(p)
    msg = str(err.value)
    assert str(p) in msg and "not UTF-8 text" in msg and "line 3" in msg
    assert "byte offset 5" in msg and "codec" not in msg


def test_binary_file(tmp_path):
    with pytest.raises(ValueError, match="not UTF-8 text"):
        read_bpplib(write(tmp_path, bytes(range(256)) * 4))
    with pytest.raises(ValueError, match="NUL character"):
        read_bpplib(write(tmp_path, b"1\n10\n\x003\n"))


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(ValueError, match=r"nope.txt: No such file"):
        read_bpplib(tmp_path / "nope.txt")
    with pytest.raises(ValueError, match="is a directory, not a file"):
        read_bpplib(tmp_path)
    with pytest.raises(ValueError, match="path must be a file name"):
        read_bpplib(None)  # type: ignore[arg-type]


def test_truncated_gzip(tmp_path):
    p = write(tmp_path, gzip.compress(b"2\n10\n3\n4\n" * 100)[:25], "inst.gz")
    with pytest.raises(ValueError, match="gzip"):
        read_bpplib(p)


# -- writers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["bpp", "csp"])
def test_write_then_read_round_trip(tmp_path, layout):
    p = tmp_path / "w.txt"
    weights = [5, 3, 3, 9, 5, 3]
    write_bpplib(p, 10, weights, layout=layout)
    cap, got = read_bpplib(p, layout=layout)
    assert cap == 10 and sorted(got) == sorted(weights)
    if layout == "bpp":
        assert got == weights
    else:
        assert p.read_text() == "3\n10\n9 1\n5 2\n3 3\n"


def test_writer_takes_numpy_integers(tmp_path):
    p = tmp_path / "w.txt"
    write_bpplib(p, np.int64(10), np.array([3, 3, 5]))
    assert read_bpplib(p) == (10, [3, 3, 5])


@pytest.mark.parametrize(("cap", "weights", "pattern"), [
    (10, [2.5], r"weights\[0\] must be an integer, got 2.5"),
    (10.0, [2], r"capacity must be an integer"),
    (True, [1], r"capacity must be an integer, got the bool"),
    (10, "123", r"weights must be a list of numbers, got the string"),
    (10, [], "at least one item"),
    (10, [11], r"weights\[0\] = 11 is not in \(0, 10\]"),
    (10, [0], r"weights\[0\] = 0 is not in"),
    (0, [1], r"capacity must be in \[1, 2\*\*53\]"),
    (2**53 + 1, [1], r"capacity must be in \[1, 2\*\*53\]"),
])
def test_writer_refuses_what_the_reader_would_refuse(tmp_path, cap, weights, pattern):
    with pytest.raises(ValueError, match=pattern):
        write_bpplib(tmp_path / "w.txt", cap, weights)
    assert not (tmp_path / "w.txt").exists()
