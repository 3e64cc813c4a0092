"""Bounded reading of users' text files: any UTF-8 text (plain or gzip) within a memory
budget (:func:`read_text_file`), and job sizes, one per line or a CSV column, read
exactly (:func:`read_size_file`). Nothing here knows a distribution, so the size laws
(:func:`theory.distributions.from_spec`'s ``empirical:FILE``) and the trace readers
(:mod:`theory.readers.traces`) both use it."""

from __future__ import annotations

import csv
import functools
import os
import re
import stat
import zlib
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from theory.budgets import MEMORY_BUDGET, check_budget, format_bytes
from theory.numbers import to_number
from theory.progress import Progress

__all__ = ["PathLike", "TEXT_MEMORY_FACTOR", "read_text_file", "decode_text",
           "read_size_file"]

#: Bytes of memory a reader may use per byte of (decompressed) text: the text, its
#: lines and the parsed numbers (measured: about 25 for one short decimal per line).
TEXT_MEMORY_FACTOR = 40

PathLike = str | os.PathLike[str]


# -- reading ---------------------------------------------------------------------------


def _as_path(path: object) -> Path:
    if isinstance(path, bool) or not isinstance(path, str | os.PathLike):
        raise ValueError(f"path must be a file name (str or pathlib.Path), got {path!r}")
    p = Path(path)
    if str(p) == "." or not str(path).strip():
        raise ValueError(f"path must name a file, got {path!r}")
    return p


def read_text_file(path: PathLike, *, memory_budget: float = MEMORY_BUDGET) -> str:
    """The text of a UTF-8 file, plain or gzip-compressed (a leading BOM is dropped).

    Every problem is a ``ValueError`` that names the file: no such file, a directory,
    not readable, not a valid gzip stream, not UTF-8 text (with the line and byte
    offset), a NUL character (a binary file). A file whose text would need more than
    ``memory_budget`` bytes to read (:data:`TEXT_MEMORY_FACTOR` per byte of text) is
    refused with :class:`theory.budgets.BudgetExceeded` before it is read, or, for a
    gzip file or a pipe, as soon as it grows past that.

    Parameters
    ----------
    path : str or os.PathLike
        The file (a regular file, a pipe or a device); gzip is recognised by its magic
        bytes, not by its name.
    memory_budget : float, default MEMORY_BUDGET
        Bytes the reading may use (8 GiB by default), counted as
        ``TEXT_MEMORY_FACTOR`` (40) per byte of (decompressed) text.

    Returns
    -------
    str
        The whole text, line ends as in the file.

    Raises
    ------
    ValueError
        Naming the file: ``path`` is not a file name; no such file; a directory; not
        readable; not a valid or a truncated gzip stream; not UTF-8 (with the line and
        byte offset); a NUL character.
    BudgetExceeded
        When the text needs more than ``memory_budget`` bytes to read.

    References
    ----------
    docs/design.md, section Budgets (the memory budget) and section Validation (a
    reader accepts exactly the format it documents).

    Examples
    --------
    >>> import gzip, pathlib, tempfile
    >>> from theory import read_text_file
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = pathlib.Path(tmp.name) / "sizes.txt.gz"
    >>> _ = path.write_bytes(gzip.compress("\\ufeff0.25\\n1/3\\n".encode()))
    >>> read_text_file(path)
    '0.25\\n1/3\\n'
    >>> read_text_file(path, memory_budget=100)
    Traceback (most recent call last):
    ...
    theory.budgets.BudgetExceeded: reading ...sizes.txt.gz (... bytes of text) would need
    about ..., above the budget of 100 bytes; raise it with memory_budget=
    >>> read_text_file(pathlib.Path(tmp.name) / "missing.txt")
    Traceback (most recent call last):
    ...
    ValueError: ...missing.txt: No such file or directory
    >>> tmp.cleanup()
    """
    p = _as_path(path)
    try:
        st = p.stat()
    except OSError as err:
        raise ValueError(f"{p}: {err.strerror or err}") from None
    if stat.S_ISDIR(st.st_mode):
        raise ValueError(f"{p} is a directory, not a file")
    limit = int(memory_budget // TEXT_MEMORY_FACTOR)
    if stat.S_ISREG(st.st_mode):
        _check_text_budget(p, st.st_size, memory_budget)
    try:
        with open(p, "rb") as f:
            if stat.S_ISREG(st.st_mode):
                raw = f.read()
            else:  # a pipe or a device: read in chunks up to the limit
                chunks: list[bytes] = []
                total = 0
                while total <= limit and (chunk := f.read(1 << 20)):
                    chunks.append(chunk)
                    total += len(chunk)
                raw = b"".join(chunks)
    except OSError as err:
        raise ValueError(f"{p}: cannot read ({err.strerror or err})") from None
    if len(raw) > limit:
        _check_text_budget(p, len(raw), memory_budget, more=True)
    return decode_text(raw, str(p), memory_budget=memory_budget)


def _check_text_budget(p: object, nbytes: int, memory_budget: float, more: bool = False,
                       gz: bool = False) -> None:
    size = ("more than " if more else "") + format_bytes(nbytes)
    what = f"reading {p} ({size} of text{' after gzip decompression' if gz else ''})"
    check_budget(nbytes * TEXT_MEMORY_FACTOR, memory_budget, what=what,
                 option="memory_budget", unit="bytes")


def decode_text(raw: bytes, where: str, *, memory_budget: float = MEMORY_BUDGET) -> str:
    """Bytes (plain or gzip) as text, with the errors of :func:`read_text_file`."""
    gz = raw[:2] == b"\x1f\x8b"  # gzip magic
    if gz:
        raw = _gunzip(raw, where, memory_budget)
    if raw[:3] == b"\xef\xbb\xbf":
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        after = " after gzip decompression" if gz else ""
        raise ValueError(f"{where}: not UTF-8 text: byte 0x{raw[err.start]:02x} on line "
                         f"{line} (byte offset {err.start}{after}) is not valid UTF-8; "
                         "give a text file") from None
    nul = text.find("\0")
    if nul >= 0:
        raise ValueError(f"{where}: line {text.count(chr(10), 0, nul) + 1} contains a NUL "
                         "character: a binary file, not text")
    return text


def _gunzip(raw: bytes, where: str, memory_budget: float) -> bytes:
    """Decompress every gzip member, stopping as soon as the text exceeds the budget."""
    limit = int(memory_budget // TEXT_MEMORY_FACTOR)
    out: list[bytes] = []
    total = 0
    data = raw
    try:
        while data:
            d = zlib.decompressobj(wbits=31)
            while True:
                chunk = d.decompress(data, max(1, limit + 1 - total))
                out.append(chunk)
                total += len(chunk)
                if total > limit:
                    _check_text_budget(where, total, memory_budget, more=True, gz=True)
                if not d.unconsumed_tail:
                    break
                data = d.unconsumed_tail
            if not d.eof:
                raise ValueError(f"{where}: the gzip stream is truncated (the file ends "
                                 "before the end of the compressed data)")
            data = d.unused_data.lstrip(b"\0")
    except zlib.error as err:
        raise ValueError(f"{where}: not a valid gzip file ({err})") from None
    return b"".join(out)


@functools.lru_cache(maxsize=65536)
def _frac_or_none(text: str) -> Fraction | None:
    try:
        return to_number(text)  # type: ignore[return-value]  # a str gives a Fraction
    except ValueError:
        return None



def _parse_exact(tok: str, where: str) -> Fraction:
    v = _frac_or_none(tok)
    if v is None:
        to_number(tok, name=where)  # raises with the reason (not a number, too large, ...)
        raise ValueError(f"{where}: {tok!r} is not a number")
    if v.numerator < 0:
        raise ValueError(f"{where}: size {tok!r} is negative")
    return v


def _column_names(column: object) -> list[str] | None:
    if column is None:
        return None
    names = [column] if isinstance(column, str) else column
    if not isinstance(names, list | tuple) or not names or \
            not all(isinstance(c, str) and c.strip() for c in names):
        raise ValueError(f"column must be a column name or a non-empty list of names, got "
                         f"{column!r}")
    return [c.strip() for c in names]


def read_size_file(
    path: PathLike, column: str | Sequence[str] | None = None, *,
    memory_budget: float = MEMORY_BUDGET,
) -> list:
    """Read job sizes from a text file (UTF-8, plain or gzip), exactly.

    Without ``column``: one job per line -- a single number (scalar size) or a
    comma- or whitespace-separated vector (all lines the same length); ``#`` starts a
    comment; blank lines are skipped.

    With ``column``: a CSV file whose first non-comment line is a header; ``column``
    names the size column (a sequence of names gives vectors). Rows where a named cell
    is empty are skipped (missing value); lines starting with ``#`` are skipped.

    Numbers are decimal text or ``p/q``, kept exact as :class:`fractions.Fraction`, in
    the float64 range (:mod:`theory.numbers`). Zero sizes are returned (the caller
    decides whether to drop them).

    Parameters
    ----------
    path : str or os.PathLike
        The file (UTF-8 text, plain or gzip).
    column : str or sequence of str, optional
        The CSV column of the sizes (a list of names: one vector per row, in that
        order); None reads one size per line.
    memory_budget : float, default MEMORY_BUDGET
        Bytes the reading may use (8 GiB by default).

    Returns
    -------
    list
        Fractions (scalar sizes, also for a one-name ``column`` given as a string) or
        tuples of Fractions (vectors), in file order.

    Raises
    ------
    ValueError
        Naming the file (and the line): a file that is missing, a directory, not UTF-8
        text or not valid gzip; a bad ``column`` argument; a line that is not a number
        or vector (an empty field, NaN, text, a number outside the float64 range); a
        negative number; vectors of different lengths; a CSV line that is not valid or
        has the wrong number of fields; an unknown column; a file with no sizes.
    BudgetExceeded
        For a file above ``memory_budget``.

    References
    ----------
    docs/design.md, section Layout (``readers/text_files.py``: users' size files, the
    ``empirical:FILE`` of ``--dist``) and section Rationals and floats (exact reading);
    empirical size distributions as in PG21, Sec. VII-B.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from theory import read_size_file
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = pathlib.Path(tmp.name) / "sizes.txt"
    >>> _ = path.write_text("0.25\\n1/3  # a comment\\n\\n0.5\\n")
    >>> read_size_file(path)
    [Fraction(1, 4), Fraction(1, 3), Fraction(1, 2)]
    >>> _ = path.write_text("task,cpu,mem\\n1,0.5,0.25\\n2,,0.1\\n3,0.125,0.5\\n")
    >>> read_size_file(path, "cpu")  # the empty cell of task 2 is skipped
    [Fraction(1, 2), Fraction(1, 8)]
    >>> read_size_file(path, ["cpu", "mem"])
    [(Fraction(1, 2), Fraction(1, 4)), (Fraction(1, 8), Fraction(1, 2))]
    >>> _ = path.write_text("0.5\\n-1\\n")
    >>> read_size_file(path)
    Traceback (most recent call last):
    ...
    ValueError: ...sizes.txt:2: size '-1' is negative
    >>> tmp.cleanup()
    """
    names = _column_names(column)
    name = str(_as_path(path))
    lines = read_text_file(path, memory_budget=memory_budget).splitlines()
    if names is not None:
        return _read_csv_column(lines, names, isinstance(column, str), name)
    out: list = []
    width: int | None = None
    with Progress(f"reading {name}", total=len(lines), unit="lines", eta=True) as prog:
        for lineno, line in enumerate(lines, 1):
            if not lineno & 0xFFFF:
                prog.update(lineno)
            body = line.split("#", 1)[0].strip()
            if not body:
                continue
            where = f"{name}:{lineno}"
            toks = [t.strip() for t in body.split(",")] if "," in body else body.split()
            if any(not t for t in toks):
                raise ValueError(f"{where}: empty field in {line!r}")
            vals = [_parse_exact(t, where) for t in toks]
            if width is None:
                width = len(vals)
            elif len(vals) != width:
                raise ValueError(f"{where}: {len(vals)} numbers, earlier lines have {width}")
            out.append(vals[0] if width == 1 else tuple(vals))
    if not out:
        what = "empty" if not any(ln.strip() for ln in lines) else \
            "only comments and blank lines"
        raise ValueError(f"{name}: no sizes (the file is {what}; one size per line is "
                         "expected)")
    return out


_COMMENT = re.compile(r"^\s*#")


def _read_csv_column(lines: list[str], names: list[str], scalar: bool, name: str) -> list:
    numbered = [(i, ln) for i, ln in enumerate(lines, 1) if ln.strip() and not _COMMENT.match(ln)]
    if not numbered:
        raise ValueError(f"{name}: no header line (the file is empty or only comments)")

    def fields(lineno: int, line: str) -> list[str]:
        try:
            return next(csv.reader([line], strict=True))
        except csv.Error as err:
            raise ValueError(f"{name}:{lineno}: not a CSV line ({err})") from None

    header = [h.strip() for h in fields(*numbered[0])]
    unknown = [c for c in names if c not in header]
    if unknown:
        raise ValueError(f"{name}: no column {unknown} in header {header}")
    if len(numbered) == 1:
        raise ValueError(f"{name}: a header but no data rows")
    idx = [header.index(c) for c in names]
    out: list = []
    with Progress(f"reading {name}", total=len(numbered), unit="rows", eta=True) as prog:
        for k, (lineno, line) in enumerate(numbered[1:]):
            if not k & 0xFFFF:
                prog.update(k)
            where = f"{name}:{lineno}"
            row = fields(lineno, line) if '"' in line else line.split(",")
            if len(row) != len(header):
                raise ValueError(f"{where}: {len(row)} fields, header has {len(header)}")
            cells = [row[i].strip() for i in idx]
            if any(not c for c in cells):
                continue
            vals = [_parse_exact(c, where) for c in cells]
            out.append(vals[0] if scalar else tuple(vals))
    if not out:
        raise ValueError(f"{name}: no sizes in column(s) {names} (every cell is empty)")
    return out
