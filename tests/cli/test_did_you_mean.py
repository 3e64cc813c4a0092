"""A mistyped policy, claim, trace or figure name: exit 2, one line on stderr naming
the close names; and the ``packsched policies`` table's columns aligned."""

from __future__ import annotations

import re

import pytest

from packsched.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("argv", "pattern"), [
    (["simulate", "--policy", "bf-jss", "--sizes", "0.4", "--workload", "1"],
     r"unknown policy 'bf-jss'.*; did you mean bf-js\b"),
    (["simulate", "--policy", "BF-JS", "--sizes", "0.4", "--workload", "1"],
     r"unknown policy 'BF-JS'.*; did you mean bf-js\b"),
    (["verify", "--claim", "PG21.Lemma22", "--list"],
     r"no check 'PG21.Lemma22'; did you mean PG21\.Lemma2\b"),
    (["verify", "--claim", "PG21.Lemma22"],
     r"no check 'PG21.Lemma22'; did you mean PG21\.Lemma2\b"),
    (["simulate", "--policy", "fifo-ff", "--trace", "googel2011"],
     r"'googel2011'; did you mean google2011\?"),
    (["rho-star", "--trace", "googel2011"], r"'googel2011'.*; did you mean google2011\?"),
    (["rho-star", "--trace", "google2011:mem"], r"got 'mem'; did you mean memory\?"),
    (["reproduce", "pg21-fig33a", "--out", "{out}"],
     r"no figure 'pg21-fig33a'; did you mean pg21-fig3a\b"),
])
def test_mistyped_name_is_one_line_exit_2_with_a_suggestion(capsys, tmp_path, argv, pattern):
    code, out, err = run(capsys, *[a.format(out=tmp_path / "out") for a in argv])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert re.search(pattern, err), err


def test_nothing_close_suggests_nothing(capsys):
    code, _, err = run(capsys, "simulate", "--policy", "zzzzzz", "--sizes", "0.4",
                       "--workload", "1")
    assert code == 2 and "unknown policy 'zzzzzz'" in err and "did you mean" not in err


def test_policies_table_columns_start_at_the_same_offset(capsys):
    code, out, _ = run(capsys, "policies")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) > 10
    # where the family and the description columns start, line by line
    cols = []
    for ln in lines:
        name, rest = ln.split(" ", 1)
        family_at = len(name) + (len(rest) - len(rest.lstrip(" "))) + 1
        family = ln[family_at:].split(" ", 1)[0]
        after = ln[family_at + len(family):]
        desc_at = family_at + len(family) + (len(after) - len(after.lstrip(" ")))
        cols.append((family_at, desc_at))
    assert len(set(cols)) == 1, sorted(set(cols))
    family_at, desc_at = cols[0]
    assert all(ln[family_at - 2:family_at] == "  " for ln in lines)
    assert all(ln[desc_at - 2:desc_at] == "  " for ln in lines)
