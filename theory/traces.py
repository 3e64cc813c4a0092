"""Job sizes from traces: the packaged Google 2011 task table and user size files.

PG21 Sec. VII-B ("Google Trace Simulations") turns each task of the Google cluster
trace [Wilkes 2011] into a single-resource job: size = max of normalised CPU and
memory request (both already on a [0, 1] scale where 1 is the largest machine).
PG21 also keeps only the tasks "completed without interruptions/errors"; here that is
``finished_only=True`` (``end_event == "FINISH"``).

The package ships a small derived copy of the first two ``task_events`` shards of
Google ``clusterdata-2011-2`` (CC BY 4.0; one row per task, first incarnation, 208,329
rows) as ``theory/data/google2011_tasks.csv.gz``; ``theory/data/PROVENANCE.md`` gives
the source, the derivation script and the checksums. It is read with
:mod:`importlib.resources`, never from outside the package.

Columns (:data:`GOOGLE2011_COLUMNS`): ``submit_time_us`` (0 = present before the trace
window), ``runtime_s`` (empty unless the task was scheduled and ended in the window),
``end_event`` (``FINISH``, ``KILL``, ``EVICT``, ``FAIL``, ``LOST`` or empty),
``censored`` (1 = no end event in the window), ``cpu_request``, ``memory_request``.

The file keeps every row. The size functions filter:

* a row whose needed request (CPU, memory, or both for ``"max"``/``"vector"``) is
  empty is dropped (missing data; none in the packaged file);
* a row whose size is zero (a zero vector for ``"vector"``) is dropped when
  ``drop_zero`` (the default): a job that requests nothing occupies no capacity and is
  meaningless for packing. The packaged file has 847 tasks with CPU request 0, 3 with
  memory request 0 and 2 with both 0.

Exact mode (``exact=True``) parses the decimal *text* of the file, so ``"0.02499"``
becomes ``Fraction(2499, 100000)`` (and ``"6.199e-05"`` becomes
``Fraction(6199, 100000000)``), as the exact configuration LPs need.
"""

from __future__ import annotations

import csv
import functools
import gzip
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from theory.distributions import Discrete

__all__ = [
    "GOOGLE2011_COLUMNS",
    "load_google2011",
    "google2011_sizes",
    "trace_distribution",
    "read_size_file",
]

#: Columns of the packaged Google 2011 task table (a user file may have more).
GOOGLE2011_COLUMNS: tuple[str, ...] = (
    "submit_time_us",
    "runtime_s",
    "end_event",
    "censored",
    "cpu_request",
    "memory_request",
)
_STRING_COLUMNS = frozenset({"end_event"})
_RESOURCE = ("data", "google2011_tasks.csv.gz")
_KINDS = ("max", "cpu", "memory", "vector")

PathLike = str | os.PathLike[str]


# -- reading ---------------------------------------------------------------------------


def _decode(raw: bytes) -> str:
    if raw[:2] == b"\x1f\x8b":  # gzip magic
        raw = gzip.decompress(raw)
    return raw.decode("utf-8-sig")


def _split_columns(text: str, where: str) -> tuple[list[str], list[Sequence[str]]]:
    """Header and columns (not rows) of a CSV text; a fast path for unquoted files."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise ValueError(f"{where}: empty file")
    quoted = '"' in text
    rows = list(csv.reader(lines)) if quoted else []
    header = rows[0] if quoted else lines[0].split(",")
    n = len(header)
    widths = [len(r) for r in rows[1:]] if quoted else [ln.count(",") + 1 for ln in lines[1:]]
    bad = next((i for i, w in enumerate(widths) if w != n), None)
    if bad is not None:
        raise ValueError(f"{where}: data row {bad + 1} has {widths[bad]} fields, header has {n}")
    if quoted:
        columns: list[Sequence[str]] = [[r[i] for r in rows[1:]] for i in range(n)]
    else:
        flat = ",".join(lines[1:]).split(",") if len(lines) > 1 else []
        columns = [flat[i::n] for i in range(n)]
    return [h.strip() for h in header], columns


@functools.lru_cache(maxsize=4)
def _text_columns_cached(key: tuple[object, ...]) -> dict[str, tuple[str, ...]]:
    if key[0] == "package":
        raw = resources.files("theory").joinpath(*_RESOURCE).read_bytes()
        where = "theory/" + "/".join(_RESOURCE)
    else:
        where = str(key[1])
        raw = Path(where).read_bytes()
    text = _decode(raw)
    header, columns = _split_columns(text, where)
    missing = [c for c in GOOGLE2011_COLUMNS if c not in header]
    if missing:
        raise ValueError(f"{where}: header lacks column(s) {missing}; need {GOOGLE2011_COLUMNS}")
    out = {}
    needs_strip = " " in text or "\t" in text
    for c in GOOGLE2011_COLUMNS:
        col = columns[header.index(c)]
        out[c] = tuple(s.strip() for s in col) if needs_strip else tuple(col)
    return out


def _text_columns(path: PathLike | None) -> dict[str, tuple[str, ...]]:
    """The six columns as tuples of text, cached (by path, mtime and size for user files)."""
    if path is None:
        return _text_columns_cached(("package",))
    p = Path(path).resolve()
    st = p.stat()
    return _text_columns_cached(("file", str(p), st.st_mtime_ns, st.st_size))


def _float_column(texts: Sequence[str], name: str) -> np.ndarray:
    nan = float("nan")
    try:
        return np.array([float(t) if t else nan for t in texts], dtype=float)
    except ValueError as err:
        raise ValueError(f"column {name!r}: {err}") from None


def load_google2011(path: PathLike | None = None) -> dict[str, np.ndarray]:
    """The Google 2011 task table as column arrays.

    Parameters
    ----------
    path : optional CSV (plain or gzip) with a header containing at least
        :data:`GOOGLE2011_COLUMNS` (extra columns are ignored, so the full
        ``tasks_first_incarnation.csv.gz`` works too). Default: the packaged file.

    Returns
    -------
    dict mapping each name of :data:`GOOGLE2011_COLUMNS` to a 1-D array: float64 with
    NaN where the cell is empty, except ``end_event``, a ``str`` array with ``""``
    where the task has no end event in the window. Arrays are fresh copies.
    """
    text = _text_columns(path)
    out: dict[str, np.ndarray] = {}
    for name in GOOGLE2011_COLUMNS:
        if name in _STRING_COLUMNS:
            out[name] = np.asarray(text[name], dtype=str) if text[name] else np.zeros(0, str)
        else:
            out[name] = _float_column(text[name], name)
    return out


# -- sizes -----------------------------------------------------------------------------


def _check_kind(kind: str) -> None:
    if kind not in _KINDS:
        raise ValueError(f"kind must be one of {_KINDS}, got {kind!r}")


def _needed(kind: str) -> tuple[str, ...]:
    return {"cpu": ("cpu_request",), "memory": ("memory_request",)}.get(
        kind, ("cpu_request", "memory_request")
    )


@functools.lru_cache(maxsize=65536)
def _frac(text: str) -> Fraction:
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{text!r} is not a number") from None


def _selected_text(
    kind: str, finished_only: bool, path: PathLike | None
) -> list[tuple[str, ...]]:
    """Text of the needed request(s) for each row with no missing request."""
    cols = _text_columns(path)
    needed = [cols[c] for c in _needed(kind)]
    rows: Iterable[tuple[str, ...]] = zip(*needed, strict=True)
    if finished_only:
        rows = (r for r, e in zip(rows, cols["end_event"], strict=True) if e == "FINISH")
    return [r for r in rows if all(r)]


def _text_size(t: tuple[str, ...], kind: str, conv: Callable[[str], Any]) -> Any:
    vals = tuple(conv(s) for s in t)
    if any(v < 0 for v in vals):
        raise ValueError(f"negative request {t} in the trace")
    if kind == "vector":
        return vals
    return max(vals)


def _is_zero(size: object) -> bool:
    if isinstance(size, tuple):
        return all(v == 0 for v in size)
    return size == 0


def google2011_sizes(
    kind: str = "max",
    *,
    exact: bool = False,
    drop_zero: bool = True,
    finished_only: bool = False,
    path: PathLike | None = None,
) -> np.ndarray | list:
    """Per-task job sizes of the Google 2011 trace, in file order.

    Parameters
    ----------
    kind : ``"max"`` -- max(cpu_request, memory_request), the single-resource size of
        PG21 Sec. VII-B; ``"cpu"`` or ``"memory"`` -- that request; ``"vector"`` --
        the (cpu, memory) demand vector.
    exact : return Python lists of :class:`fractions.Fraction` parsed from the decimal
        text (tuples of two Fractions for ``"vector"``) instead of float arrays.
    drop_zero : drop tasks of size zero (zero vector for ``"vector"``; a vector with one
        zero component is kept). Rows with a missing needed request are always dropped.
    finished_only : keep only tasks whose end event is ``FINISH`` (PG21 VII-B keeps the
        tasks "completed without interruptions/errors").
    path : a file in the packaged format (see :func:`load_google2011`).

    Returns
    -------
    float array of shape ``(n,)`` (``(n, 2)`` for ``"vector"``), or a list when
    ``exact``.
    """
    _check_kind(kind)
    if exact:
        rows = _selected_text(kind, finished_only, path)
        table = {t: _text_size(t, kind, _frac) for t in set(rows)}  # parse distinct texts once
        sizes = [table[t] for t in rows]
        if drop_zero:
            sizes = [s for s in sizes if not _is_zero(s)]
        return sizes
    text = _text_columns(path)
    parts = [_float_column(text[c], c) for c in _needed(kind)]
    keep = np.ones(parts[0].shape, dtype=bool)
    for a in parts:
        keep &= ~np.isnan(a)
    if finished_only:
        keep &= np.asarray(text["end_event"], dtype=str) == "FINISH"
    mat = np.column_stack([a[keep] for a in parts])
    if np.any(mat < 0):
        raise ValueError("negative request in the trace")
    if drop_zero:
        mat = mat[np.any(mat > 0, axis=1)]
    if kind == "vector":
        return mat
    return mat.max(axis=1)


def trace_distribution(
    kind: str = "max",
    *,
    exact: bool = False,
    finished_only: bool = False,
    path: PathLike | None = None,
) -> Discrete:
    """The empirical job-size distribution of the Google 2011 trace as a :class:`Discrete`.

    One type per distinct size (distinct (cpu, memory) pair for ``"vector"``), with
    probability count / n. Zero sizes are always dropped (a :class:`Discrete` needs
    positive sizes, or non-zero vectors); other filters as in :func:`google2011_sizes`.
    Sizes are Fractions when ``exact`` (probabilities are exact in both modes).

    Aggregation is done on the text of the distinct cells, so building it is fast.
    """
    _check_kind(kind)
    conv = _frac if exact else float
    counts: dict[Any, int] = {}
    for t, c in Counter(_selected_text(kind, finished_only, path)).items():
        s = _text_size(t, kind, conv)
        if not _is_zero(s):
            counts[s] = counts.get(s, 0) + c  # merges texts of equal value ("0.5", "0.50")
    if not counts:
        raise ValueError("no task with a positive size in the trace")
    sizes = sorted(counts)
    return Discrete.from_counts(sizes, [counts[s] for s in sizes])


# -- user size files -------------------------------------------------------------------


def _parse_exact(tok: str, where: str) -> Fraction:
    try:
        v = _frac(tok)
    except ValueError:
        raise ValueError(f"{where}: {tok!r} is not a number") from None
    if v < 0:
        raise ValueError(f"{where}: size {tok!r} is negative")
    return v


def read_size_file(
    path: PathLike, column: str | Sequence[str] | None = None
) -> list:
    """Read job sizes from a text file (plain or gzip), exactly.

    Without ``column``: one job per line -- a single number (scalar size) or a
    comma- or whitespace-separated vector (all lines the same length); ``#`` starts a
    comment; blank lines are skipped.

    With ``column``: a CSV file whose first non-comment line is a header; ``column``
    names the size column (a sequence of names gives vectors). Rows where a named cell
    is empty are skipped (missing value); lines starting with ``#`` are skipped.

    Numbers are kept exact: decimal text (or ``p/q``) becomes :class:`fractions.Fraction`.

    Returns
    -------
    list of Fractions (scalar sizes) or of tuples of Fractions (vectors).

    Raises
    ------
    ValueError on a line that is not a number / vector, a negative number, vectors of
    different lengths, or an unknown column.
    """
    name = str(path)
    lines = _decode(Path(path).read_bytes()).splitlines()
    if column is not None:
        return _read_csv_column(lines, column, name)
    out: list = []
    width: int | None = None
    for lineno, line in enumerate(lines, 1):
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
    return out


_COMMENT = re.compile(r"^\s*#")


def _read_csv_column(lines: list[str], column: str | Sequence[str], name: str) -> list:
    names = [column] if isinstance(column, str) else list(column)
    if not names:
        raise ValueError("column must name at least one column")
    numbered = [(i, ln) for i, ln in enumerate(lines, 1) if ln.strip() and not _COMMENT.match(ln)]
    if not numbered:
        raise ValueError(f"{name}: no header line")
    reader = csv.reader(ln for _, ln in numbered)
    header = [h.strip() for h in next(reader)]
    unknown = [c for c in names if c not in header]
    if unknown:
        raise ValueError(f"{name}: no column {unknown} in header {header}")
    idx = [header.index(c) for c in names]
    out: list = []
    for (lineno, _), row in zip(numbered[1:], reader, strict=True):
        where = f"{name}:{lineno}"
        if len(row) != len(header):
            raise ValueError(f"{where}: {len(row)} fields, header has {len(header)}")
        cells = [row[i].strip() for i in idx]
        if any(not c for c in cells):
            continue
        vals = [_parse_exact(c, where) for c in cells]
        out.append(vals[0] if isinstance(column, str) else tuple(vals))
    return out
