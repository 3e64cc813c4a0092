"""Every example of the README runs, and the values it states are asserted.

Python blocks are doctests (``>>>`` lines and their printed values), run in order in
one namespace. Every ``packsched ...`` line of a ``bash`` block is run through the CLI
with ``--json`` added; its comment is a list of assertions on that JSON:

* ``key=value``: the value at ``key`` (dots index into objects, digits into lists) equals
  ``value`` (a JSON literal; numbers to 1e-9 relative);
* ``key~value``: equal to the digits shown (``18.16`` means within 0.005);
* ``exit=N``: the exit status (then no JSON is read when N is not 0).

Free text in a command's comment is an error of this test: a value a reader is told
must be a value the test checks. Commands that take minutes run shortened here
(``SHORTENED``) and as written under ``--runslow`` or ``PACKSCHED_README_FULL=1``.
"""

from __future__ import annotations

import doctest
import json
import math
import os
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from packsched.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FULL = os.environ.get("PACKSCHED_README_FULL") == "1"

#: command text as written -> how CI runs it (the full form runs under --runslow)
SHORTENED = {
    # CI runs the whole quick catalogue as its own last step (.ci/run)
    "packsched verify --quick": "packsched verify --quick --claim PG21.Prop2",
    "packsched verify --paper PG21 --json": "packsched verify --paper PG21 --quick --claim "
                                            "PG21.Lemma2 --json",
}


def _blocks(lang: str) -> list[tuple[int, str]]:
    text = README.read_text()
    out = []
    for m in re.finditer(rf"^```{lang}\n(.*?)^```", text, re.S | re.M):
        out.append((text[: m.start()].count("\n") + 2, m.group(1)))
    return out


# -- Python blocks: doctests ----------------------------------------------------------


def test_python_blocks_are_doctests() -> None:
    blocks = _blocks("python")
    assert blocks, "the README has no Python examples"
    for line, body in blocks:
        first = next(ln for ln in body.splitlines() if ln.strip())
        assert first.startswith(">>> "), f"README.md:{line}: a Python block must be a doctest"


def test_python_examples() -> None:
    globs: dict[str, Any] = {}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for line, body in _blocks("python"):
        test = parser.get_doctest(body, globs, f"README.md:{line}", str(README), line - 1)
        runner.run(test, clear_globs=False)
        globs = test.globs  # a DocTest runs on a copy: carry the names to the next block
    res = runner.summarize(verbose=False)
    assert res.failed == 0, f"{res.failed} README doctest example(s) failed (see stdout)"


# -- commands --------------------------------------------------------------------------


def _commands() -> list[tuple[int, str, str]]:
    """``(line, command, comment)`` for every ``packsched`` line of the bash blocks."""
    out = []
    for start, body in _blocks("bash"):
        lines = body.splitlines()
        i = 0
        while i < len(lines):
            lineno, text = start + i, lines[i]
            while text.rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text.rstrip()[:-1] + " " + lines[i].strip()
            i += 1
            for part in re.split(r"\s*&&\s*", text.split("  #")[0]):
                if part.strip().startswith("packsched "):
                    comment = text.split("  #", 1)[1].strip() if "  #" in text else ""
                    out.append((lineno, part.strip(), comment))
    return out


_ASSERT = re.compile(r"^(?P<key>[\w][\w.]*)(?P<op>[=~])(?P<value>\S+)$")


def _assertions(comment: str) -> list[tuple[str, str, str]]:
    out = []
    for tok in comment.split():
        m = _ASSERT.match(tok)
        if not m:
            raise AssertionError(f"README command comment {comment!r}: {tok!r} is not "
                                 "key=value, key~value or exit=N")
        out.append((m["key"], m["op"], m["value"]))
    return out


def _at(doc: Any, key: str) -> Any:
    for part in key.split("."):
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def _check(doc: Any, key: str, op: str, text: str, where: str) -> None:
    got = _at(doc, key)
    want = json.loads(text)
    if op == "~":
        decimals = len(text.split(".")[1]) if "." in text else 0
        assert abs(got - want) <= 0.5 * 10.0**-decimals + 1e-12, \
            f"{where}: {key} = {got}, README says ~{text}"
    elif isinstance(want, float) or (isinstance(want, int) and not isinstance(want, bool)
                                     and isinstance(got, float)):
        assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12), \
            f"{where}: {key} = {got}, README says {text}"
    else:
        assert got == want, f"{where}: {key} = {got!r}, README says {text}"


COMMANDS = _commands()


def test_readme_has_commands() -> None:
    assert len(COMMANDS) >= 10
    assert any(c == "packsched verify --quick" for _l, c, _m in COMMANDS), \
        "the first screen must show `packsched verify --quick`"


def _run(line: int, command: str, comment: str, capsys: pytest.CaptureFixture[str],
         full: bool) -> None:
    checks = _assertions(comment)
    if not full:
        command = SHORTENED.get(command, command)
    argv = shlex.split(command)[1:]
    expected_exit = next((int(v) for k, _o, v in checks if k == "exit"), 0)
    if "--json" not in argv and argv[0] not in ("--help", "--version") \
            and "--help" not in argv:
        argv.append("--json")
    code = main(argv)
    out, err = capsys.readouterr()
    where = f"README.md:{line} `{command}`"
    assert code == expected_exit, f"{where}: exit {code}, stderr: {err}"
    assert "Traceback" not in err, f"{where}: {err}"
    if expected_exit != 0:
        assert out == "" and err.startswith("packsched: error: "), where
        return
    doc = json.loads(out)
    for key, op, value in checks:
        if key != "exit":
            _check(doc, key, op, value, where)


@pytest.mark.parametrize(("line", "command", "comment"), COMMANDS,
                         ids=[f"line{ln}" for ln, _c, _m in COMMANDS])
def test_command(line: int, command: str, comment: str,
                 capsys: pytest.CaptureFixture[str]) -> None:
    _run(line, command, comment, capsys, full=FULL)


@pytest.mark.slow
@pytest.mark.parametrize(("line", "command", "comment"),
                         [c for c in COMMANDS if c[1] in SHORTENED],
                         ids=[f"line{c[0]}" for c in COMMANDS if c[1] in SHORTENED])
def test_command_as_written(line: int, command: str, comment: str,
                            capsys: pytest.CaptureFixture[str]) -> None:
    _run(line, command, comment, capsys, full=True)
