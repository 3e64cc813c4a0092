"""Instances the papers share, typed out once.

:data:`EC2_TABLE_I` is PG18 Table I, "Three representative instances in Amazon EC2"
(Sec. VII): the memory, CPU and storage of three job (VM) types, with the servers that
PG18 Sec. VII-A puts them on, "90 GB memory, 90 CPU Units and 5000 GB storage" (the
server type of its ref. [19]).

The numbers are kept as the paper prints them, in decimal text, so that an exact
reader gets 17.1 = 171/10 (``sizes(exact=True)``) and a simulator gets plain numbers
(``sizes()``: ``[[15, 8, 1690], [17.1, 6.5, 420], [7, 20, 1690]]``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

__all__ = ["InstanceTable", "EC2_TABLE_I"]


def _read(texts: tuple[str, ...], exact: bool) -> list[Fraction | int | float]:
    """Fractions if ``exact``; else numbers as printed: an int when whole (``"15"``),
    else a float (``"17.1"``)."""
    if exact:
        return [Fraction(t) for t in texts]
    return [int(t) if t.isdigit() else float(t) for t in texts]


@dataclass(frozen=True)
class InstanceTable:
    """Job types of a paper's table and the server they run on.

    ``types`` maps each type's name to its sizes, one decimal text per resource;
    ``server`` is the server's capacity per resource; ``resources`` names the resources
    and their units; ``source`` says where the paper gives them.
    """

    source: str
    resources: tuple[str, ...]
    types: Mapping[str, tuple[str, ...]]
    server: tuple[str, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The type names, in the table's order."""
        return tuple(self.types)

    def sizes(self, *, exact: bool = False) -> list[list[Fraction | int | float]]:
        """One row of sizes per type: Fractions if ``exact``, else numbers as printed."""
        return [_read(row, exact) for row in self.types.values()]

    def capacity(self, *, exact: bool = False) -> list[Fraction | int | float]:
        """The server capacity per resource: Fractions if ``exact``, else as printed."""
        return _read(self.server, exact)

    @property
    def sizes_text(self) -> str:
        """The sizes as the CLI's ``--sizes`` takes vectors: ``15,8,1690;17.1,6.5,420;...``."""
        return ";".join(",".join(row) for row in self.types.values())

    @property
    def capacity_text(self) -> str:
        """The server capacity as the CLI's ``--capacity`` takes it: ``90,90,5000``."""
        return ",".join(self.server)


#: PG18 Table I (Sec. VII), three EC2 instance types (memory GB, CPU units, storage GB),
#: on PG18 Sec. VII-A's servers of 90 GB memory, 90 CPU units and 5000 GB storage
EC2_TABLE_I = InstanceTable(
    source="PG18 Table I (Sec. VII); servers of Sec. VII-A",
    resources=("memory (GB)", "CPU (units)", "storage (GB)"),
    types=MappingProxyType({
        "Standard Extra Large": ("15", "8", "1690"),
        "High-Memory Extra Large": ("17.1", "6.5", "420"),
        "High-CPU Extra Large": ("7", "20", "1690"),
    }),
    server=("90", "90", "5000"),
)
