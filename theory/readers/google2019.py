"""Google cluster trace 2019 (``clusterdata-2019``, Borg v3): machine shapes and
instance resource requests of the eight cells ``a`` to ``h``.

The packaged files (``theory/data/google2019_<cell>_*.csv.gz``; source, licence and
counts in ``google2019.PROVENANCE.md``) are BigQuery outputs over Google's public
tables: per cell, the histogram of machine shapes (``cpus,ram,machine_count``) and
10,000 instances with their averaged request (``time,user,collection_id,
instance_index,cpus,ram,collection_type``).

Units: Google normalises every capacity and request so that the largest capacity of
each resource in the cell is 1. A size here is a fraction of that **unit machine**
(cpus 1, ram 1), which is a real machine shape in cells a, b, c, e, f, g and h; in cell
d no machine has both (its largest memory is 0.667). :func:`google2019_machines` gives
the cell's machine shapes: divide by one of them (``rho-star --capacity``) to pack on
it instead.

**There are no durations, and the times are not an arrival process**: every ``time``
is below 70 s (the instances existed at the trace's start), and the 10,000 rows are a
``LIMIT`` without ``ORDER BY``, so neither random nor contiguous. The cell gives a
size *law* (for rho* and for simulation with synthetic arrivals), never a workload.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from theory.budgets import MEMORY_BUDGET
from theory.distributions import Discrete
from theory.names import did_you_mean
from theory.readers._trace_tables import (
    check_kind,
    combine,
    exact,
    float_column,
    int_column,
    read_columns,
    size_law,
    source_text,
)
from theory.readers.text_files import PathLike

__all__ = ["GOOGLE2019_CELLS", "Google2019Requests", "Google2019Machines",
           "google2019_requests", "google2019_machines", "google2019_sizes",
           "google2019_distribution"]

#: the eight cells of the 2019 trace
GOOGLE2019_CELLS: tuple[str, ...] = tuple("abcdefgh")
_REQUEST_COLUMNS = ("time", "collection_id", "instance_index", "cpus", "ram",
                    "collection_type")
_MACHINE_COLUMNS = ("cpus", "ram", "machine_count")


def _cell(cell: object) -> str:
    if not isinstance(cell, str) or cell not in GOOGLE2019_CELLS:
        hint = did_you_mean(cell, GOOGLE2019_CELLS) if isinstance(cell, str) else ""
        raise ValueError(f"google2019: cell must be one of {', '.join(GOOGLE2019_CELLS)}, "
                         f"got {cell!r}{hint}")
    return cell


@dataclass(frozen=True)
class Google2019Requests:
    """The instance requests of one cell, in file order.

    Parameters
    ----------
    cell : str
        The cell, ``a`` to ``h``.
    time_us : numpy.ndarray
        The instance's first event time (microseconds; all below 70 s: not arrivals).
    collection_id, instance_index : numpy.ndarray
        The instance (a collection is a job).
    cpus, ram : numpy.ndarray
        Requests as fractions of the cell's unit machine (module docstring).
    cpus_text, ram_text : tuple of str
        The same cells as written, for exact sizes.
    where : str
        The file read.

    References
    ----------
    ``theory/data/google2019.PROVENANCE.md``; docs/design.md, "Readers and loaders".

    Examples
    --------
    >>> r = google2019_requests("b")
    >>> r.n, r.cell
    (10000, 'b')
    """

    cell: str
    time_us: np.ndarray
    collection_id: np.ndarray
    instance_index: np.ndarray
    cpus: np.ndarray
    ram: np.ndarray
    cpus_text: tuple[str, ...]
    ram_text: tuple[str, ...]
    where: str

    @property
    def n(self) -> int:
        """The number of instances."""
        return int(self.cpus.size)


@dataclass(frozen=True)
class Google2019Machines:
    """The machine shapes of one cell (a histogram: one row per distinct shape).

    Parameters
    ----------
    cell : str
        The cell, ``a`` to ``h``.
    cpus, ram : numpy.ndarray
        The shapes' capacities, as fractions of the unit machine (the cell's largest
        capacity of each resource is 1).
    count : numpy.ndarray
        Machines of each shape (a machine that changed shape counts once per shape).
    where : str
        The file read.

    References
    ----------
    ``theory/data/google2019.PROVENANCE.md``; docs/design.md, "Readers and loaders".

    Examples
    --------
    >>> m = google2019_machines("a")
    >>> m.machines, m.most_common()
    (10002, (0.591796875, 0.33349609375, 3346))
    """

    cell: str
    cpus: np.ndarray
    ram: np.ndarray
    count: np.ndarray
    where: str

    @property
    def machines(self) -> int:
        """The number of machines (with repeats for those that changed shape)."""
        return int(self.count.sum())

    def most_common(self) -> tuple[float, float, int]:
        """The shape the most machines have.

        Returns
        -------
        tuple
            ``(cpus, ram, machine_count)`` of that shape (the first in file order on
            ties).
        """
        k = int(np.argmax(self.count))
        return float(self.cpus[k]), float(self.ram[k]), int(self.count[k])

    def largest(self) -> tuple[float, float]:
        """The largest capacity of each resource, ``(1.0, 1.0)`` by the normalisation.

        Returns
        -------
        tuple
            ``(max cpus, max ram)`` over the shapes.
        """
        return float(self.cpus.max()), float(self.ram.max())


@functools.lru_cache(maxsize=8)
def _requests(cell: str) -> Google2019Requests:
    return _parse_requests(cell, None, MEMORY_BUDGET)


def _parse_requests(cell: str, path: PathLike | None, budget: float) -> Google2019Requests:
    text, where = source_text(f"google2019_{cell}_user_requests.csv.gz", path, budget)
    cols = read_columns(text, where, _REQUEST_COLUMNS)
    out = Google2019Requests(
        cell, int_column(cols, "time", low=0), int_column(cols, "collection_id", low=0),
        int_column(cols, "instance_index", low=0), float_column(cols, "cpus"),
        float_column(cols, "ram"), cols.text["cpus"], cols.text["ram"], where)
    kinds = int_column(cols, "collection_type", low=0)
    if kinds.size and kinds.max() > 1:
        j = int(np.argmax(kinds > 1))
        raise ValueError(f"{cols.at(j)}: collection_type must be 0 (job) or 1 (alloc set), "
                         f"got {kinds[j]}")
    for a in (out.time_us, out.collection_id, out.instance_index):
        a.setflags(write=False)
    return out


def google2019_requests(cell: str = "a", *, path: PathLike | None = None,
                        memory_budget: float = MEMORY_BUDGET) -> Google2019Requests:
    """The 10,000 instance requests of one cell of the 2019 trace.

    Parameters
    ----------
    cell : str, default "a"
        The cell, ``a`` to ``h``.
    path : str or os.PathLike, optional
        A file in the same format (header ``time,user,collection_id,instance_index,
        cpus,ram,collection_type``; plain or gzip) instead of the packaged one.
    memory_budget : float, default MEMORY_BUDGET
        Bytes the reading of ``path`` may use.

    Returns
    -------
    Google2019Requests
        The rows in file order; the packaged cells are read once per process.

    Raises
    ------
    ValueError
        An unknown cell (with a did-you-mean); a row with the wrong number of fields, a
        cell that is not a number, negative, or infinite: the message names the file
        and line.

    References
    ----------
    ``theory/data/google2019.PROVENANCE.md`` (the query, columns and caveats).

    Examples
    --------
    >>> r = google2019_requests("a")
    >>> r.n, float(r.cpus.max()), float(r.ram.max())
    (10000, 0.28759765625, 0.05859375)
    """
    cell = _cell(cell)
    if path is None:
        return _requests(cell)
    return _parse_requests(cell, path, memory_budget)


def google2019_machines(cell: str = "a", *, path: PathLike | None = None
                        ) -> Google2019Machines:
    """The machine-shape histogram of one cell of the 2019 trace.

    Parameters
    ----------
    cell : str, default "a"
        The cell, ``a`` to ``h``.
    path : str or os.PathLike, optional
        A file in the same format (header ``cpus,ram,machine_count``).

    Returns
    -------
    Google2019Machines
        One row per distinct shape, in file order.

    Raises
    ------
    ValueError
        An unknown cell; a malformed row (named by file and line).

    References
    ----------
    ``theory/data/google2019.PROVENANCE.md``.

    Examples
    --------
    >>> m = google2019_machines("d")
    >>> m.largest()  # no machine of cell d has both
    (1.0, 0.6669921875)
    """
    cell = _cell(cell)
    text, where = source_text(f"google2019_{cell}_host_resource.csv.gz", path)
    cols = read_columns(text, where, _MACHINE_COLUMNS)
    return Google2019Machines(cell, float_column(cols, "cpus"), float_column(cols, "ram"),
                              int_column(cols, "machine_count", low=1), where)


def _first(first: int | None, n: int) -> int:
    if first is None:
        return n
    if isinstance(first, bool) or not isinstance(first, int | np.integer) or first < 1:
        raise ValueError(f"first must be a positive integer, got {first!r}")
    return min(int(first), n)


def google2019_sizes(cell: str = "a", kind: str = "max", *, exact: bool = False,
                     first: int | None = None, path: PathLike | None = None
                     ) -> np.ndarray | list:
    """Per-instance job sizes of one cell, in file order, as fractions of the unit
    machine (module docstring).

    Parameters
    ----------
    cell : str, default "a"
        The cell, ``a`` to ``h``.
    kind : str, default "max"
        ``max`` (max of the CPU and memory requests, PG21 Sec. VII-B's single
        resource), ``cpu``, ``memory``, or ``vector`` (the pair).
    exact : bool, default False
        Fractions parsed from the decimal text instead of floats.
    first : int, optional
        Only the first ``first`` rows of the file.
    path : str or os.PathLike, optional
        A requests file in the packaged format.

    Returns
    -------
    numpy.ndarray or list
        Shape ``(n,)`` (``(n, 2)`` for ``vector``), or a list of Fractions (pairs for
        ``vector``) with ``exact``; zero sizes (the zero vector) are dropped.

    Raises
    ------
    ValueError
        An unknown cell or kind; ``first`` not a positive integer; a malformed file.

    References
    ----------
    PG21 Sec. VII-B (the size of a task); ``theory/data/google2019.PROVENANCE.md``.

    Examples
    --------
    The first instance of cell a, its memory written as ``0.0035820007324218``:

    >>> google2019_sizes("a", "vector", exact=True, first=1)
    [(Fraction(531, 65536), Fraction(17910003662109, 5000000000000000))]
    """
    kind = check_kind(kind, "google2019")
    r = google2019_requests(cell, path=path)
    n = _first(first, r.n)
    if exact:
        sizes = [combine(_exact_cached(c), _exact_cached(m), kind)
                 for c, m in zip(r.cpus_text[:n], r.ram_text[:n], strict=True)]
        return [s for s in sizes if not ((s == (0, 0)) if kind == "vector" else s == 0)]
    s = combine(r.cpus[:n], r.ram[:n], kind)
    if kind == "vector":
        mat = np.column_stack(s)
        return mat[np.any(mat > 0, axis=1)]
    return s[s > 0]


@functools.lru_cache(maxsize=65536)
def _exact_cached(text: str) -> object:
    return exact(text)


def google2019_distribution(cell: str = "a", kind: str = "max", *, exact: bool = True,
                            first: int | None = None, path: PathLike | None = None
                            ) -> Discrete:
    """The empirical size law of one cell (one type per distinct size, probability
    count / n), as fractions of the unit machine.

    Parameters
    ----------
    cell : str, default "a"
        The cell, ``a`` to ``h``.
    kind : str, default "max"
        ``max``, ``cpu``, ``memory`` or ``vector`` (:func:`google2019_sizes`).
    exact : bool, default True
        Fractions parsed from the decimal text (the exact configuration LPs need
        them), else floats.
    first : int, optional
        Only the first ``first`` rows of the file.
    path : str or os.PathLike, optional
        A requests file in the packaged format.

    Returns
    -------
    theory.distributions.Discrete
        The law; zero sizes are dropped (a job requesting nothing occupies nothing).

    Raises
    ------
    ValueError
        An unknown cell or kind; ``first`` not a positive integer; no positive size; a
        malformed file.

    References
    ----------
    PG21 Sec. III (rho* of a size law) and Sec. VII-B; ``theory/data/google2019.
    PROVENANCE.md`` ("How to use it", (a)).

    Examples
    --------
    >>> d = google2019_distribution("e", "cpu")
    >>> len(d), d.exact
    (489, True)
    """
    kind = check_kind(kind, "google2019")
    r = google2019_requests(cell, path=path)
    n = _first(first, r.n)
    pairs: Iterable[tuple[Any, Any]]
    if exact:
        pairs = ((_exact_cached(c), _exact_cached(m))
                 for c, m in zip(r.cpus_text[:n], r.ram_text[:n], strict=True))
    else:
        pairs = zip(r.cpus[:n].tolist(), r.ram[:n].tolist(), strict=True)
    return size_law(pairs, kind, f"{r.where} ({kind})")
