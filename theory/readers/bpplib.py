"""Bin-packing instances in the BPPLIB text formats (Delorme, Iori & Martello, 2018).

One bin is one server: the LP bound of the instance is z_LP = n / rho* for the
empirical distribution of its weights on one server of capacity C (PG21 eq. (4)).

Two layouts, chosen explicitly (nothing is guessed from the file):

``layout="bpp"`` (the Falkenauer, Scholl and Hard28 classes)::

    n           the number of items
    C           the bin capacity
    w_1         one item weight per line, n lines
    ...

``layout="csp"`` (the cutting-stock layout)::

    m           the number of weight lines
    C           the bin capacity
    w_1 d_1     a weight and its multiplicity (demand) per line, m lines
    ...

Accepted exactly: UTF-8 text (plain or gzip; a BOM and CRLF line ends are fine);
tokens separated by spaces or tabs; blank lines anywhere and whole-line comments
starting with ``#`` are skipped. Every token is a decimal integer (ASCII digits, an
optional sign): ``10.0``, ``1e3`` or ``0x10`` are refused. Each line holds exactly the
tokens its place requires (one for n, m, C and a bpp weight; two for a csp line).
1 <= w <= C <= :data:`MAX_INTEGER` (= 2**53, the integers float64 holds exactly, which
the float solvers of :mod:`capacity` use), n, m and every multiplicity >= 1; a weight
may repeat in the csp layout (the multiplicities add). Anything else raises
``ValueError`` naming the file, the line and the token.
"""

from __future__ import annotations

import operator
import os
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from theory.budgets import MEMORY_BUDGET, check_budget
from theory.numbers import MAX_EXACT_INT, as_list, short_repr
from theory.progress import Progress
from theory.readers.traces import read_text_file

__all__ = ["LAYOUTS", "MAX_INTEGER", "read_bpplib", "write_bpplib"]

#: The layouts of :func:`read_bpplib` and :func:`write_bpplib`.
LAYOUTS = ("bpp", "csp")
#: Largest capacity (hence weight) read or written: 2**53, exact in float64.
MAX_INTEGER = MAX_EXACT_INT
#: Bytes per item of the expanded weight list (one pointer; equal weights share an int).
_BYTES_PER_ITEM = 8

_INTEGER = re.compile(r"[-+]?[0-9]+", re.ASCII)


def _layout(layout: object) -> str:
    if not isinstance(layout, str) or layout not in LAYOUTS:
        raise ValueError(f"layout must be 'bpp' (n, C, n weights) or 'csp' (m, C, m lines "
                         f"'weight multiplicity'), got {layout!r}")
    return layout


def read_bpplib(path: str | os.PathLike[str], layout: str = "bpp", *,
                memory_budget: float = MEMORY_BUDGET) -> tuple[int, list[int]]:
    """Read ``(capacity, weights)``, weights expanded to one entry per item.

    Parameters
    ----------
    path : str or os.PathLike
        The instance file (UTF-8, plain or gzip).
    layout : str, default "bpp"
        ``"bpp"`` (n, C, then n weights) or ``"csp"`` (m, C, then m lines ``weight
        multiplicity``); the module docstring gives both formats and what is accepted.
    memory_budget : float, default MEMORY_BUDGET
        Bytes the file and the expanded item list may use.

    Returns
    -------
    tuple
        ``(capacity, weights)``: the bin capacity C and one integer weight per item,
        in file order (a csp line's weight repeated by its multiplicity).

    Raises
    ------
    ValueError
        An unknown layout; anything the format does not accept, naming the file, line
        and token.
    theory.budgets.BudgetExceeded
        The file or the expanded item list would need more than ``memory_budget``
        bytes.

    References
    ----------
    Delorme, Iori & Martello, "BPPLIB: a library for bin packing and cutting stock
    problems", Optim. Lett. 2018; PG21 eq. (4) (z_LP = n / rho* on one server).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "inst.txt"
    >>> _ = f.write_text("3 10 4 6 5".replace(" ", chr(10)))
    >>> read_bpplib(f)
    (10, [4, 6, 5])
    """
    layout = _layout(layout)
    text = read_text_file(path, memory_budget=memory_budget)
    name = str(path)
    all_lines = text.splitlines()
    lines: list[tuple[int, list[str]]] = []  # (line number, tokens) of content lines
    k = 0
    while len(lines) < 2 and k < len(all_lines):  # the header; the body is read below
        k += 1
        toks = all_lines[k - 1].split()
        if toks and toks[0][0] != "#":
            lines.append((k, toks))
    count_name = "item count n" if layout == "bpp" else "line count m"
    if not lines:
        raise ValueError(f"{name}: empty file (a BPPLIB instance, {layout} layout, starts "
                         f"with the {count_name})")

    def integer(lineno: int, tok: str, what: str) -> int:
        if not _INTEGER.fullmatch(tok):
            raise ValueError(f"{name}:{lineno}: {what} {short_repr(tok, 24, tail=4)} is not "
                             "an integer (a BPPLIB file holds decimal integers only)")
        digits = tok.lstrip("+-").lstrip("0")
        if len(digits) > len(str(MAX_INTEGER)):
            raise ValueError(f"{name}:{lineno}: {what} {short_repr(tok, 24, tail=4)} "
                             f"({len(digits)} digits) is above 2**53 = {MAX_INTEGER}, the "
                             "largest integer float64 holds exactly")
        return int(tok)

    def tokens(k: int, want: int, what: str) -> list[str]:
        lineno, toks = lines[k]
        if len(toks) == want:
            return toks
        where = f"{name}:{lineno}"
        if len(toks) > want:
            hint = ""
            if "#" in toks:
                hint = "; a comment must be on a line of its own"
            elif k >= 2 and layout == "bpp" and len(toks) == 2:
                hint = "; lines 'weight multiplicity' are the csp layout (layout='csp')"
            raise ValueError(f"{where}: extra token {short_repr(toks[want], 24, tail=4)} after "
                             f"{' '.join(toks[:want])!r} ({what} on this line){hint}")
        hint = ("; one weight per line is the bpp layout (layout='bpp')"
                if k >= 2 and layout == "csp" else "")
        raise ValueError(f"{where}: expected {what}, got only {' '.join(toks)!r}{hint}")

    def header(k: int, what: str) -> int:
        lineno, _ = lines[k]
        v = integer(lineno, tokens(k, 1, f"only the {what}")[0], what)
        if v < 1:
            raise ValueError(f"{name}:{lineno}: the {what} must be at least 1, got {v}")
        return v

    n = header(0, count_name)
    if len(lines) < 2:
        raise ValueError(f"{name}: the file ends after the {count_name}; the capacity C "
                         "follows it")
    cap = header(1, "capacity C")
    if cap > MAX_INTEGER:
        raise ValueError(f"{name}:{lines[1][0]}: capacity {cap} is above 2**53 = "
                         f"{MAX_INTEGER}, the largest integer float64 holds exactly")
    if layout == "bpp":
        fast = _fast_weights("\n".join(all_lines[k:]), n, cap)
        if fast is not None:
            return cap, fast
    lines += [(i, t) for i, t in enumerate(map(str.split, all_lines[k:]), k + 1)
              if t and t[0][0] != "#"]
    body = range(2, len(lines))
    if len(body) != n:
        unit = "weights" if layout == "bpp" else "'weight multiplicity' lines"
        raise ValueError(f"{name}: the header says {n} {unit} (line {lines[0][0]}) but "
                         f"{len(body)} follow")

    def weight(k: int, tok: str) -> int:
        lineno = lines[k][0]
        w = integer(lineno, tok, "weight")
        if not 0 < w <= cap:
            raise ValueError(f"{name}:{lineno}: weight {w} is not in (0, {cap}] (a weight "
                             "must be positive and at most the capacity)")
        return w

    if layout == "bpp":
        out: list[int] = []
        with Progress(f"reading {name}", total=len(body), unit="weights") as prog:
            for k in body:
                if not k & 0xFFFF:
                    prog.update(k)
                out.append(weight(k, tokens(k, 1, "one weight")[0]))
        return cap, out
    pairs: list[tuple[int, int]] = []
    with Progress(f"reading {name}", total=len(body), unit="lines") as prog:
        for k in body:
            if not k & 0xFFFF:
                prog.update(k)
            wt, dt = tokens(k, 2, "a weight and its multiplicity")
            d = integer(lines[k][0], dt, "multiplicity")
            if d < 1:
                raise ValueError(f"{name}:{lines[k][0]}: multiplicity {d} must be at least 1")
            pairs.append((weight(k, wt), d))
    items = sum(d for _, d in pairs)
    check_budget(items * _BYTES_PER_ITEM, memory_budget,
                 what=f"expanding {name} to {items:,} items", option="memory_budget",
                 unit="bytes")
    weights: list[int] = []
    for w, d in pairs:
        weights.extend([w] * d)
    return cap, weights


_DIGITS = re.compile(r"[0-9]{1,16}(?:\n[0-9]{1,16})*", re.ASCII)
_TWO_TOKENS = re.compile(r"\S[^\S\n]+\S")


def _fast_weights(body: str, n: int, cap: int) -> list[int] | None:
    """The n weights when every content line of ``body`` is one unsigned integer in
    [1, cap] and there is no comment, else None: the line-by-line reading then names
    the first problem (this path only makes large valid files fast)."""
    if "#" in body or _TWO_TOKENS.search(body):
        return None
    toks = body.split()
    if len(toks) != n or not _DIGITS.fullmatch("\n".join(toks)):
        return None
    ws = list(map(int, toks))
    return ws if 1 <= min(ws) and max(ws) <= cap else None


def write_bpplib(path: str | os.PathLike[str], capacity: int, weights: Sequence[int],
                 layout: str = "bpp") -> None:
    """Write an instance that :func:`read_bpplib` reads back with the same ``layout``.

    ``"csp"`` writes each distinct weight once with its multiplicity, heaviest first
    (as BPPLIB does). Integers only (ints or numpy integers): 1 <= w <= capacity <=
    2**53, at least one weight; anything else raises ``ValueError``.
    """
    layout = _layout(layout)
    cap = _int(capacity, "capacity")
    if not 1 <= cap <= MAX_INTEGER:
        raise ValueError(f"capacity must be in [1, 2**53], got {cap}")
    ws = [_int(w, f"weights[{i}]") for i, w in
          enumerate(as_list(weights, name="weights", example="[3, 5, 5]"))]
    if not ws:
        raise ValueError("weights must hold at least one item")
    for i, w in enumerate(ws):
        if not 0 < w <= cap:
            raise ValueError(f"weights[{i}] = {w} is not in (0, {cap}]")
    if layout == "bpp":
        rows = [str(len(ws)), str(cap), *(str(w) for w in ws)]
    else:
        counts = sorted(Counter(ws).items(), reverse=True)
        rows = [str(len(counts)), str(cap), *(f"{w} {d}" for w, d in counts)]
    Path(path).write_text("\n".join(rows) + "\n", encoding="utf-8")


def _int(x: object, name: str) -> int:
    if isinstance(x, bool):
        raise ValueError(f"{name} must be an integer, got the bool {x!r}")
    try:
        return operator.index(x)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{name} must be an integer, got {x!r} ({type(x).__name__})"
                         ) from None
