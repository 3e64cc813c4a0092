"""What the trace readers share: the packaged text, CSV columns that remember their
lines, the request kinds, timed jobs for slotted simulation, and the XLL21 and FL24
job-set rules applied to timed records (docs/design.md, "Readers and loaders").

Private: the public names are re-exported by :mod:`theory.readers.trace_names`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from typing import Any

import numpy as np

from theory.budgets import MEMORY_BUDGET
from theory.names import did_you_mean
from theory.numbers import to_number
from theory.readers.text_files import PathLike, _as_path, decode_text, read_text_file

#: the request kinds of every trace: ``max`` of the CPU and memory fractions (PG21
#: Sec. VII-B's single resource), either one alone, or the (cpu, memory) vector
KINDS: tuple[str, ...] = ("max", "cpu", "memory", "vector")
#: XLL21 Sec. VI: "we choose the length of each time-slot to be ten seconds"
XLL21_SLOT_SECONDS = 10.0
#: FL24 Sec. 7.1: "we set M = 20 as the default"
FL24_MACHINES = 20


def packaged_text(name: str) -> tuple[str, str]:
    """The text of the packaged file ``theory/data/<name>`` (gzip), and its name."""
    where = f"theory/data/{name}"
    raw = resources.files("theory.data").joinpath(name).read_bytes()
    return decode_text(raw, where), where


def source_text(packaged: str, path: PathLike | None, memory_budget: float = MEMORY_BUDGET
                ) -> tuple[str, str]:
    """The packaged file, or a user's file in the same format (bounded reading)."""
    if path is None:
        return packaged_text(packaged)
    p = _as_path(path)
    return read_text_file(p, memory_budget=memory_budget), str(p)


@dataclass
class Columns:
    """The text columns of a CSV file and the line of each data row (for messages)."""

    where: str
    text: dict[str, tuple[str, ...]]
    lines: list[int]

    def at(self, row: int) -> str:
        return f"{self.where}:{self.lines[row]}"

    def __len__(self) -> int:
        return len(self.lines)


def read_columns(text: str, where: str, columns: Sequence[str], *,
                 header: bool = True) -> Columns:
    """The named columns of an unquoted CSV text.

    With ``header`` the first non-empty line names the columns (names stripped of
    spaces; ``columns`` must be among them, others are ignored); without, every row has
    exactly ``len(columns)`` fields in that order. Blank lines are skipped; a row with
    another number of fields is refused naming its line.
    """
    rows: list[list[str]] = []
    lines: list[int] = []
    names: list[str] | None = None if header else list(columns)
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        fields = line.split(",")
        if names is None:
            names = [f.strip() for f in fields]
            missing = [c for c in columns if c not in names]
            if missing:
                raise ValueError(f"{where}:{i}: the header lacks the column(s) "
                                 f"{', '.join(missing)}; it needs {', '.join(columns)}")
            continue
        if len(fields) != len(names):
            raise ValueError(f"{where}:{i}: {len(fields)} fields, expected {len(names)} "
                             f"({','.join(names)})")
        rows.append(fields)
        lines.append(i)
    if names is None:
        raise ValueError(f"{where}: empty file (a header line naming the columns "
                         f"{', '.join(columns)} is expected)")
    if not rows:
        raise ValueError(f"{where}: no data rows")
    out = {}
    for c in columns:
        k = names.index(c)
        out[c] = tuple(r[k].strip() for r in rows)
    return Columns(where, out, lines)


def int_column(cols: Columns, name: str, *, low: int | None = None) -> np.ndarray:
    """An integer column (every cell an integer, at least ``low``), refused naming the
    line of the first cell that is not."""
    texts = cols.text[name]
    try:
        arr = np.array([int(t) for t in texts], dtype=np.int64)
    except (ValueError, OverflowError):
        j = next(j for j, t in enumerate(texts) if not _is_int(t))
        raise ValueError(f"{cols.at(j)}: column {name!r}: {texts[j]!r} is not an integer"
                         ) from None
    if low is not None and arr.size and arr.min() < low:
        j = int(np.argmax(arr < low))
        raise ValueError(f"{cols.at(j)}: column {name!r}: {texts[j]} is below {low}")
    return arr


def _is_int(t: str) -> bool:
    try:
        int(t)
    except ValueError:
        return False
    return -2**63 <= int(t) < 2**63


def float_column(cols: Columns, name: str, *, empty: bool = False) -> np.ndarray:
    """A column of finite numbers at least 0 (NaN where empty, if ``empty`` allows it),
    refused naming the line of the first bad cell."""
    texts = cols.text[name]
    out = np.empty(len(texts))
    for j, t in enumerate(texts):
        if not t:
            if not empty:
                raise ValueError(f"{cols.at(j)}: column {name!r} is empty")
            out[j] = math.nan
            continue
        try:
            v = float(t)
        except ValueError:
            raise ValueError(f"{cols.at(j)}: column {name!r}: {t!r} is not a number"
                             ) from None
        if not math.isfinite(v) or v < 0:
            raise ValueError(f"{cols.at(j)}: column {name!r}: {t!r} is not a finite "
                             "number at least 0")
        out[j] = v
    out.setflags(write=False)
    return out


def exact(text: str) -> Fraction:
    """The exact value of a decimal cell already checked by :func:`float_column`."""
    return Fraction(to_number(text))


def check_kind(kind: object, trace: str) -> str:
    """``kind`` if it is one of :data:`KINDS`, else a one-line refusal."""
    if not isinstance(kind, str) or kind not in KINDS:
        hint = did_you_mean(kind, KINDS) if isinstance(kind, str) else ""
        raise ValueError(f"{trace}: kind must be one of {', '.join(KINDS)}, got "
                         f"{kind!r}{hint}")
    return kind


def combine(cpu: Any, memory: Any, kind: str) -> Any:
    """The size of one job (or of arrays of jobs) of this kind."""
    if kind == "cpu":
        return cpu
    if kind == "memory":
        return memory
    if kind == "vector":
        return (cpu, memory)
    if isinstance(cpu, np.ndarray):
        return np.fmax(cpu, memory)
    return max(cpu, memory)


def size_law(pairs: Iterable[tuple[Any, Any]], kind: str, where: str,
             weights: Iterable[int] | None = None) -> Any:
    """The empirical law (a :class:`theory.distributions.Discrete`) of the sizes of the
    ``(cpu, memory)`` pairs, each counted ``weights`` times (once by default); sizes
    equal to zero (the zero vector for ``vector``) are dropped."""
    from theory.distributions import Discrete

    counts: dict[Any, int] = {}
    ws = weights if weights is not None else iter(lambda: 1, None)
    for (c, m), w in zip(pairs, ws, strict=False):
        s = combine(c, m, kind)
        if (s == (0, 0)) if kind == "vector" else s == 0:
            continue
        counts[s] = counts.get(s, 0) + int(w)
    if not counts:
        raise ValueError(f"{where}: no job with a positive size")
    sizes = sorted(counts)
    return Discrete.from_counts(sizes, [counts[s] for s in sizes])


# -- timed jobs and job sets -------------------------------------------------------------


@dataclass(frozen=True)
class TimedJobs:
    """Jobs of a trace with arrival and service times, for trace-driven slotted
    simulation (PG21 Sec. VII-B).

    Parameters
    ----------
    arrival : numpy.ndarray
        Arrival times in seconds from the trace's start, nondecreasing.
    service : numpy.ndarray
        Service (run) times in seconds, at least 0.
    cpu, memory : numpy.ndarray
        Requests as fractions of the trace's unit machine (``info["unit"]``).
    slot_seconds : float
        The slot length the slotted model uses for this trace.
    info : dict
        What the numbers are: the trace, its unit machine, the rules that chose the
        jobs and what each time means.

    References
    ----------
    PG21 Sec. VII-B (trace preprocessing); docs/design.md, "Readers and loaders".

    Examples
    --------
    >>> import numpy as np
    >>> t = TimedJobs(np.array([0.0, 1.5]), np.array([3.0, 1.0]), np.array([0.1, 0.5]),
    ...               np.array([0.2, 0.1]), 1.0, {"trace": "example"})
    >>> t.n, t.sizes("max").tolist()
    (2, [0.2, 0.5])
    """

    arrival: np.ndarray
    service: np.ndarray
    cpu: np.ndarray
    memory: np.ndarray
    slot_seconds: float
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def n(self) -> int:
        """The number of jobs."""
        return int(self.arrival.size)

    def sizes(self, kind: str = "max") -> np.ndarray:
        """Scalar sizes of one kind (``max``, ``cpu`` or ``memory``), shape ``(n,)``.

        Parameters
        ----------
        kind : str, default "max"
            The request kind (``vector`` is refused: slotted simulation is PG21's
            single-resource model).

        Returns
        -------
        numpy.ndarray
            One size per job.
        """
        if kind == "vector":
            raise ValueError("the slotted model is single-resource (PG21): choose the "
                             "kind max, cpu or memory")
        return np.asarray(combine(self.cpu, self.memory, check_kind(kind, "trace")))


def first_jobs(order: np.ndarray, first: int | None) -> np.ndarray:
    """The first ``first`` of the indices ``order`` (all when None)."""
    return order if first is None else order[:first]


def xll21_job_set(arrival_s: np.ndarray, runtime_s: np.ndarray, cpu: np.ndarray,
                  memory: np.ndarray, ids: Sequence[str], *, cores_per_unit: int,
                  memory_per_unit: int, slot_seconds: float = XLL21_SLOT_SECONDS) -> Any:
    """XLL21 Sec. VI's units (the rules of :func:`theory.readers.trace_job_sets.
    google2011_job_set`): arrival a_j = floor((t - first t) / slot), processing
    p_j = max(1, ceil(runtime / slot)), cores max(1, ceil(cpu x cores_per_unit)) and
    memory max(1, ceil(memory x memory_per_unit)), cpu and memory being fractions of the
    trace's unit machine."""
    from theory.job_sets import JobSet

    arrival = np.floor((arrival_s - arrival_s.min()) / slot_seconds)
    processing = np.maximum(1, np.ceil(runtime_s / slot_seconds))
    cores = np.maximum(1, np.ceil(cpu * cores_per_unit - 1e-9))
    mem = np.maximum(1, np.ceil(memory * memory_per_unit - 1e-9))
    order = np.argsort(arrival, kind="stable")
    return JobSet(arrival[order], processing[order],
                  np.column_stack([cores, mem])[order], ids=tuple(ids[i] for i in order))


def fl24_job_set(release_s: np.ndarray, processing_s: np.ndarray, cpu: np.ndarray,
                 memory: np.ndarray, ids: Sequence[str]) -> Any:
    """FL24 Sec. 3's units: releases from the first one and processing times, both in
    units of the smallest processing time (p_j >= 1), demands (cpu, memory) as
    fractions of the unit machine, weights 1."""
    from theory.job_sets import JobSet

    if not np.all(processing_s > 0):
        raise ValueError("FL24 needs processing times above 0")
    unit = float(processing_s.min())
    order = np.argsort(release_s, kind="stable")
    return JobSet((release_s[order] - release_s.min()) / unit, processing_s[order] / unit,
                  np.column_stack([cpu, memory])[order], ids=tuple(ids[i] for i in order))


def fl24_machines(count: int = FL24_MACHINES) -> Any:
    """``count`` identical unit machines with two resources (FL24 Sec. 7.1, M = 20)."""
    from theory.job_sets import Machines

    return Machines(np.ones((count, 2)), ids=tuple(f"m{i}" for i in range(count)))
