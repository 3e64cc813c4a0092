"""Bin-packing instances in the BPPLIB text format (Delorme, Iori & Martello, 2018).

Format: the number of items n, the bin capacity C, then one integer item weight per
line (the Falkenauer, Scholl and Hard28 classes use it). One bin is one server: the
LP bound of the instance is z_LP = n / rho* for the empirical distribution of its
weights on one server of capacity C (PG21 eq. (4)).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

__all__ = ["read_bpplib", "write_bpplib"]


def read_bpplib(path: str | Path) -> tuple[int, list[int]]:
    """Read ``(capacity, weights)``; raises ``ValueError`` naming the bad line."""
    lines = [ln.split("#", 1)[0].strip() for ln in Path(path).read_text().splitlines()]
    vals: list[tuple[int, str]] = [(i + 1, ln) for i, ln in enumerate(lines) if ln]
    if len(vals) < 2:
        raise ValueError(f"{path}: a BPPLIB file needs n, C and n weights")

    def integer(lineno: int, text: str, what: str) -> int:
        tok = text.split()
        try:
            v = float(tok[0])
        except ValueError:
            raise ValueError(f"{path}:{lineno}: {what} {text!r} is not a number") from None
        if not v.is_integer():
            raise ValueError(f"{path}:{lineno}: {what} {text!r} is not an integer")
        return int(v)

    n = integer(*vals[0], "item count")
    cap = integer(*vals[1], "capacity")
    if n < 1 or cap < 1:
        raise ValueError(f"{path}: item count and capacity must be positive")
    body = vals[2:]
    if len(body) != n:
        raise ValueError(f"{path}: header says {n} items but {len(body)} weights follow")
    weights = []
    for lineno, text in body:
        w = integer(lineno, text, "weight")
        if not 0 < w <= cap:
            raise ValueError(f"{path}:{lineno}: weight {w} is not in (0, {cap}]")
        weights.append(w)
    return cap, weights


def write_bpplib(path: str | Path, capacity: int, weights: Sequence[int]) -> None:
    """Write an instance in the same format."""
    Path(path).write_text("\n".join([str(len(weights)), str(int(capacity)),
                                     *(str(int(w)) for w in weights)]) + "\n")
