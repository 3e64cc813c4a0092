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
import dataclasses
import functools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from importlib import resources
from typing import Any

import numpy as np

from theory.budgets import MEMORY_BUDGET
from theory.distributions import Discrete
from theory.names import did_you_mean
from theory.numbers import to_number
from theory.readers.text_files import (
    TEXT_MEMORY_FACTOR,
    PathLike,
    _as_path,
    _frac_or_none,
    decode_text,
    read_size_file,
    read_text_file,
)

__all__ = [
    "GOOGLE2011_COLUMNS",
    "TEXT_MEMORY_FACTOR",
    "load_google2011",
    "google2011_sizes",
    "trace_distribution",
    "read_size_file",
    "read_text_file",
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

@dataclasses.dataclass
class _Table:
    """The text columns of a CSV file and where each data row is (for error messages)."""

    where: str
    text: dict[str, tuple[str, ...]]
    lines: list[int] | None  # physical line of each data row; None: row i is on line i + 2
    floats: dict[str, np.ndarray] = dataclasses.field(default_factory=dict)

    def at(self, row: int) -> str:
        line = self.lines[row] if self.lines is not None else row + 2
        return f"{self.where}:{line}"

    def column(self, name: str) -> np.ndarray:
        """The float column ``name`` (NaN where empty), validated once and cached (read-only)."""
        if name not in self.floats:
            arr = _float_column(self, name)
            arr.setflags(write=False)
            self.floats[name] = arr
        return self.floats[name]


def _split_columns(text: str, where: str) -> _Table:
    """Header and columns (not rows) of a CSV text; a fast path for unquoted files."""
    all_lines = text.splitlines()
    lines = [ln for ln in all_lines if ln.strip()]
    if not lines:
        raise ValueError(f"{where}: empty file (a header line naming the columns "
                         f"{', '.join(GOOGLE2011_COLUMNS)} is expected)")
    numbers = None
    if len(lines) != len(all_lines) or not all_lines[0].strip():
        numbers = [i for i, ln in enumerate(all_lines, 1) if ln.strip()]
    quoted = '"' in text
    if quoted:
        rows = []
        for k, ln in enumerate(lines):
            try:
                rows.append(next(csv.reader([ln], strict=True)))
            except csv.Error as err:
                line = numbers[k] if numbers is not None else k + 1
                raise ValueError(f"{where}:{line}: not a CSV line ({err})") from None
    header = rows[0] if quoted else lines[0].split(",")
    n = len(header)
    widths = [len(r) for r in rows[1:]] if quoted else [ln.count(",") + 1 for ln in lines[1:]]
    bad = next((i for i, w in enumerate(widths) if w != n), None)
    row_lines = numbers[1:] if numbers is not None else None
    table = _Table(where, {}, row_lines)
    if bad is not None:
        raise ValueError(f"{table.at(bad)}: data row {bad + 1} has {widths[bad]} fields, "
                         f"header has {n}")
    if quoted:
        columns: list[Sequence[str]] = [[r[i] for r in rows[1:]] for i in range(n)]
    else:
        flat = ",".join(lines[1:]).split(",") if len(lines) > 1 else []
        columns = [flat[i::n] for i in range(n)]
    names = [h.strip() for h in header]
    missing = [c for c in GOOGLE2011_COLUMNS if c not in names]
    if missing:
        raise ValueError(f"{where}: header lacks column(s) {missing}; need {GOOGLE2011_COLUMNS}")
    if len(lines) == 1:
        raise ValueError(f"{where}: a header but no data rows")
    needs_strip = " " in text or "\t" in text
    for c in GOOGLE2011_COLUMNS:
        col = columns[names.index(c)]
        table.text[c] = tuple(s.strip() for s in col) if needs_strip else tuple(col)
    return table


@functools.lru_cache(maxsize=4)
def _text_columns_cached(key: tuple[object, ...], memory_budget: float = MEMORY_BUDGET
                         ) -> _Table:
    if key[0] == "package":
        raw = resources.files("theory").joinpath(*_RESOURCE).read_bytes()
        where = "theory/" + "/".join(_RESOURCE)
        return _split_columns(decode_text(raw, where), where)
    where = str(key[1])
    return _split_columns(read_text_file(where, memory_budget=memory_budget), where)


def _table(path: PathLike | None, memory_budget: float = MEMORY_BUDGET) -> _Table:
    """The table, cached (by path, mtime and size for user files)."""
    if path is None:
        return _text_columns_cached(("package",))
    p = _as_path(path)
    try:
        st = p.resolve().stat()
    except OSError as err:
        raise ValueError(f"{p}: {err.strerror or err}") from None
    return _text_columns_cached(("file", str(p), st.st_mtime_ns, st.st_size), memory_budget)


def _text_columns(path: PathLike | None) -> dict[str, tuple[str, ...]]:
    """The six columns as tuples of text."""
    return _table(path).text


_ZERO_TEXT = re.compile(r"[-+]?(0+\.?0*|\.0+)([eE][-+]?[0-9]+)?")


def _float_column(table: _Table, name: str) -> np.ndarray:
    """Float64 column (NaN where the cell is empty); every other cell a finite number."""
    texts = table.text[name]
    nan = float("nan")
    try:
        arr = np.array([float(t) if t else nan for t in texts], dtype=float)
    except ValueError:
        j = next(j for j, t in enumerate(texts) if t and not _is_float(t))
        raise ValueError(f"{table.at(j)}: column {name!r}: {texts[j]!r} is not a number"
                         ) from None
    finite = np.isfinite(arr)
    if np.count_nonzero(~finite) != texts.count(""):
        j = next(int(j) for j in np.flatnonzero(~finite) if texts[j])
        raise ValueError(f"{table.at(j)}: column {name!r}: {texts[j]!r} is not a finite "
                         "number in the float64 range")
    for z in np.flatnonzero(arr == 0):
        if not _ZERO_TEXT.fullmatch(texts[z]):
            raise ValueError(f"{table.at(int(z))}: column {name!r}: {texts[z]!r} is nonzero "
                             "but rounds to 0 in float64")
    return arr


def _is_float(t: str) -> bool:
    try:
        float(t)
    except ValueError:
        return False
    return True


def load_google2011(path: PathLike | None = None, *,
                    memory_budget: float = MEMORY_BUDGET) -> dict[str, np.ndarray]:
    """The Google 2011 task table as column arrays.

    Parameters
    ----------
    path : str or os.PathLike, optional
        A CSV file (plain or gzip) with a header containing at least
        :data:`GOOGLE2011_COLUMNS` (extra columns are ignored, so the full
        ``tasks_first_incarnation.csv.gz`` works too). Default: the packaged file.
    memory_budget : float, default MEMORY_BUDGET
        Bytes the reading may use (see :func:`read_text_file`).

    Returns
    -------
    dict
        Each name of :data:`GOOGLE2011_COLUMNS` mapped to a 1-D array: float64 with NaN
        where the cell is empty, except ``end_event``, a ``str`` array with ``""``
        where the task has no end event in the window. Arrays are fresh copies.

    Raises
    ------
    ValueError
        Naming the file and line of a malformed row or cell (a cell that is not a
        number, NaN, infinite, or nonzero but below the float64 range); an empty file
        or a header without data rows.

    References
    ----------
    PG21 Sec. VII-B (the trace it simulates); ``theory/data/PROVENANCE.md`` (the
    derivation and counts).

    Examples
    --------
    >>> cols = load_google2011()
    >>> cols["cpu_request"].size, int((cols["end_event"] == "FINISH").sum())
    (208329, 56824)
    """
    table = _table(path, memory_budget)
    out: dict[str, np.ndarray] = {}
    for name in GOOGLE2011_COLUMNS:
        if name in _STRING_COLUMNS:
            text = table.text[name]
            out[name] = np.asarray(text, dtype=str) if text else np.zeros(0, str)
        else:
            out[name] = table.column(name).copy()
    return out


# -- sizes -----------------------------------------------------------------------------


def _check_kind(kind: object) -> str:
    if not isinstance(kind, str) or kind not in _KINDS:
        hint = did_you_mean(kind, _KINDS) if isinstance(kind, str) else ""
        raise ValueError(f"kind must be one of {_KINDS}, got {kind!r}{hint}")
    return str(kind)


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _needed(kind: str) -> tuple[str, ...]:
    return {"cpu": ("cpu_request",), "memory": ("memory_request",)}.get(
        kind, ("cpu_request", "memory_request")
    )


def _checked_table(kind: str, path: PathLike | None, memory_budget: float) -> _Table:
    """The table, its needed request columns validated (numbers, finite, non-negative)."""
    table = _table(path, memory_budget)
    for c in _needed(kind):
        neg = np.flatnonzero(table.column(c) < 0)
        if neg.size:
            j = int(neg[0])
            raise ValueError(f"{table.at(j)}: negative {c} {table.text[c][j]!r} in the trace")
    return table


def _exact_cell(table: _Table, column: str, text: str) -> Fraction:
    v = _frac_or_none(text)
    if v is None:
        j = table.text[column].index(text)
        to_number(text, name=f"{table.at(j)}: column {column!r}")
        raise ValueError(f"{table.at(j)}: column {column!r}: {text!r} is not a number")
    return v


def _selected_text(table: _Table, kind: str, finished_only: bool) -> list[tuple[str, ...]]:
    """Text of the needed request(s) for each row with no missing request."""
    cols = table.text
    needed = [cols[c] for c in _needed(kind)]
    rows: Iterable[tuple[str, ...]] = zip(*needed, strict=True)
    if finished_only:
        rows = (r for r, e in zip(rows, cols["end_event"], strict=True) if e == "FINISH")
    return [r for r in rows if all(r)]


def _text_size(t: tuple[str, ...], kind: str, conv: Callable[[str, str], Any]) -> Any:
    vals = tuple(conv(c, s) for c, s in zip(_needed(kind), t, strict=True))
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
    memory_budget: float = MEMORY_BUDGET,
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
    memory_budget : bytes the reading of ``path`` may use (:func:`read_text_file`).

    Returns
    -------
    numpy.ndarray or list
        Float array of shape ``(n,)`` (``(n, 2)`` for ``"vector"``), or a list when
        ``exact``.

    Raises
    ------
    ValueError
        An unknown kind (with a did-you-mean); a flag that is not True or False; a
        negative or malformed request (naming its line).

    References
    ----------
    PG21 Sec. VII-B (size = max of the CPU and memory requests; tasks "completed
    without interruptions/errors"); ``theory/data/PROVENANCE.md``.

    Examples
    --------
    >>> google2011_sizes("cpu", exact=True)[:2]
    [Fraction(1, 8), Fraction(1, 8)]
    """
    kind = _check_kind(kind)
    exact, drop_zero = _flag(exact, "exact"), _flag(drop_zero, "drop_zero")
    finished_only = _flag(finished_only, "finished_only")
    table = _checked_table(kind, path, memory_budget)
    if exact:
        rows = _selected_text(table, kind, finished_only)
        conv = functools.partial(_exact_cell, table)
        cache = {t: _text_size(t, kind, conv) for t in set(rows)}  # parse distinct texts once
        sizes = [cache[t] for t in rows]
        if drop_zero:
            sizes = [s for s in sizes if not _is_zero(s)]
        return sizes
    parts = [table.column(c) for c in _needed(kind)]
    keep = np.ones(parts[0].shape, dtype=bool)
    for a in parts:
        keep &= ~np.isnan(a)
    if finished_only:
        keep &= np.asarray(table.text["end_event"], dtype=str) == "FINISH"
    mat = np.column_stack([a[keep] for a in parts])
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
    memory_budget: float = MEMORY_BUDGET,
) -> Discrete:
    """The empirical job-size distribution of the Google 2011 trace as a :class:`Discrete`.

    One type per distinct size (distinct (cpu, memory) pair for ``"vector"``), with
    probability count / n. Zero sizes are always dropped (a :class:`Discrete` needs
    positive sizes, or non-zero vectors); other filters as in :func:`google2011_sizes`.
    Sizes are Fractions when ``exact`` (probabilities are exact in both modes).

    Aggregation is done on the text of the distinct cells, so building it is fast.

    Parameters
    ----------
    kind : str, default "max"
        ``"max"``, ``"cpu"``, ``"memory"`` or ``"vector"`` (:func:`google2011_sizes`).
    exact : bool, default False
        Sizes as Fractions parsed from the decimal text.
    finished_only : bool, default False
        Keep only the tasks whose end event is ``FINISH`` (PG21 VII-B).
    path : str or os.PathLike, optional
        A file in the packaged format (see :func:`load_google2011`).
    memory_budget : float, default MEMORY_BUDGET
        Bytes the reading of ``path`` may use.

    Returns
    -------
    theory.distributions.Discrete
        The law, sizes as fractions of the largest machine.

    Raises
    ------
    ValueError
        An unknown kind; a malformed file; no task of positive size.

    References
    ----------
    PG21 Sec. III (rho* of a size law) and Sec. VII-B; ``theory/data/PROVENANCE.md``.

    Examples
    --------
    >>> d = trace_distribution("cpu", exact=True)
    >>> len(d), d.exact
    (238, True)
    """
    kind = _check_kind(kind)
    exact, finished_only = _flag(exact, "exact"), _flag(finished_only, "finished_only")
    table = _checked_table(kind, path, memory_budget)
    conv: Callable[[str, str], Any] = (
        functools.partial(_exact_cell, table) if exact else (lambda _c, s: float(s)))
    counts: dict[Any, int] = {}
    for t, c in Counter(_selected_text(table, kind, finished_only)).items():
        s = _text_size(t, kind, conv)
        if not _is_zero(s):
            counts[s] = counts.get(s, 0) + c  # merges texts of equal value ("0.5", "0.50")
    if not counts:
        raise ValueError(f"{table.where}: no task with a positive size in the trace")
    sizes = sorted(counts)
    return Discrete.from_counts(sizes, [counts[s] for s in sizes])
