"""The four model families share one layout and no copied code: each subpackage of
``policies/`` has the same modules, and no block of six lines of logic is written twice
across them, even with other names (shared code lives in ``policies/``)."""

from __future__ import annotations

import io
import keyword
import tokenize
from collections import defaultdict
from pathlib import Path

import policies

FAMILIES = ("slotted", "continuous", "preemptive", "nonpreemptive")
ROOT = Path(policies.__file__).parent
BLOCK = 6


def _shape(line: str) -> str:
    """The line with its names, numbers and strings replaced by placeholders (a copy
    that renamed its variables has the same shape)."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(line).readline):
            if tok.type == tokenize.NAME and not keyword.iskeyword(tok.string):
                out.append("n")
            elif tok.type in (tokenize.NUMBER, tokenize.STRING):
                out.append("v")
            elif tok.type == tokenize.OP:
                out.append(tok.string)
            elif tok.type == tokenize.NAME:
                out.append(tok.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return line.strip()
    return " ".join(out)


def _code_lines(path: Path) -> list[str]:
    """The shapes of the file's lines of logic: no blanks, comments, imports,
    decorators, docstring lines, declarations or lines too thin to be a copy."""
    out = []
    in_doc = in_import = False
    for line in path.read_text().splitlines():
        t = line.strip()
        quotes = t.count('"""')
        if in_doc or t.startswith('"""'):
            in_doc = (quotes == 1) != in_doc
            continue
        if in_import or t.startswith(("import ", "from ")):
            in_import = t.endswith("(") or (in_import and not t.startswith(")"))
            continue
        if not t or t.startswith(("#", "@")):
            continue
        shape = _shape(t)
        # logic, not declarations: dataclass fields (``n : n . n``) and class statements
        # are what every result module has
        if shape.startswith(("n :", "class ")) or len(shape.split()) < 2:
            continue
        out.append(shape)
    return out


def shared_blocks(files: dict[str, list[Path]]) -> list[tuple[str, str, tuple[str, ...]]]:
    """Blocks of :data:`BLOCK` consecutive code lines found in two groups of files."""
    seen: dict[tuple[str, ...], set[str]] = defaultdict(set)
    where: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for group, paths in files.items():
        for path in paths:
            lines = _code_lines(path)
            for i in range(len(lines) - BLOCK + 1):
                block = tuple(lines[i:i + BLOCK])
                seen[block].add(group)
                where[block].append(f"{path.relative_to(ROOT)}")
    return [(w[0], w[-1], b) for b, g in seen.items() if len(g) > 1
            for w in [where[b]]]


def test_every_family_has_the_same_modules():
    for family in FAMILIES:
        names = {p.stem for p in (ROOT / family).glob("*.py")}
        assert {"__init__", "policy", "state", "engine", "result"} <= names, family
    for family in ("slotted", "continuous", "nonpreemptive"):  # the compiled ones
        assert {"_kernel", "codes"} <= {p.stem for p in (ROOT / family).glob("*.py")}


def test_no_block_is_copied_between_families():
    files = {f: sorted((ROOT / f).glob("*.py")) for f in FAMILIES}
    copies = shared_blocks(files)
    assert not copies, "\n".join(f"{a} ~ {b}:\n  " + "\n  ".join(blk)
                                 for a, b, blk in copies[:3])


def test_the_copy_finder_finds_copies(tmp_path):
    """A copy with other names (the PG18 and FL24 kernels' capacity test, before it was
    shared) is found; the same lines in one family are not a copy between families."""
    body = ("def _fits(load, cap_tol, sizes, server, j):\n"
            "    for r in range(sizes.shape[1]):\n"
            "        if not load[server, r] + sizes[j, r] <= cap_tol[server, r]:\n"
            "            return False\n"
            "    return True\n"
            "x = _fits(a, b, c, 0, 1)\n")
    (tmp_path / "a.py").write_text("import os\n" + body)
    renamed = body.replace("load", "usage").replace("sizes", "demand").replace("server", "i")
    (tmp_path / "b.py").write_text("# other\n\n" + renamed.replace("\n", "\n\n"))
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert len(shared_blocks({"a": [tmp_path / "a.py"], "b": [tmp_path / "b.py"]})) == 1
        assert shared_blocks({"a": [tmp_path / "a.py"]}) == []
    finally:
        ROOT = saved
