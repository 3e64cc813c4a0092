"""Shared looks of the reproduced figures: the papers' name and one fixed colour per
policy (and per FL24 sorting rule), so that a policy looks the same in every figure of
every paper; within a figure no two policies share a colour (tested)."""

from __future__ import annotations

from typing import Any

__all__ = ["LABELS", "COLORS", "color", "label", "verdict_marks"]

#: how the papers print the names (PG21, PG18, XLL21, FL24 and FL24's sorts)
LABELS = {
    "bf-js": "BF-J/S", "bf-j": "BF-J", "bf-s": "BF-S", "vqs": "VQS", "vqs-bf": "VQS-BF",
    "fifo-ff": "FIFO-FF", "maxweight": "MaxWeight",
    "rms": "RMS", "rms-rf": "RMS-RF", "rms-bf": "RMS-BF", "rms-ad": "RMS-AD",
    "rms-rf-ad": "RMS-RF-AD", "rms-bf-ad": "RMS-BF-AD", "rms-jsq": "RMS+JSQ",
    "rms-rf-ad-plus": "RMS-RF-AD+", "mwr": "MWR", "mws": "MWS", "bf": "BF",
    "bf-fifo": "BF (arrival order)",
    "ocorp": "OCORP", "ocorp-plus": "OCORP+", "ocorp-m": "OCORP+M", "srpt": "SRPT",
    "srvf": "SRVF", "svf": "SVF", "srf": "SRF",
    "mris": "MRIS", "mris-greedy": "MRIS-GREEDY", "mris-split": "MRIS-SPLIT",
    "pq-wsjf": "PQ-WSJF", "tetris": "TETRIS", "bf-exec": "BF-EXEC", "ca-pq": "CA-PQ",
    "wsvf": "WSVF", "sjf": "SJF", "wsjf": "WSJF", "sdf": "SDF", "wsdf": "WSDF", "erf": "ERF",
}
#: one colour per name, chosen so the names drawn together differ
COLORS = {
    "bf-js": "tab:blue", "vqs": "tab:red", "vqs-bf": "tab:green", "fifo-ff": "tab:orange",
    "rms": "tab:blue", "rms-rf": "tab:orange", "rms-bf": "tab:purple", "rms-ad": "tab:gray",
    "rms-rf-ad": "tab:brown", "rms-bf-ad": "tab:pink", "rms-jsq": "tab:cyan",
    "rms-rf-ad-plus": "tab:green", "mwr": "tab:olive", "mws": "tab:red", "bf": "black",
    "bf-fifo": "tab:cyan",
    "ocorp": "tab:blue", "ocorp-plus": "tab:blue", "ocorp-m": "tab:blue", "srpt": "tab:red",
    "srvf": "tab:orange", "svf": "tab:purple", "srf": "tab:green",
    "mris": "tab:red", "mris-greedy": "tab:purple", "mris-split": "tab:pink",
    "pq-wsjf": "tab:blue", "tetris": "tab:green", "bf-exec": "tab:orange", "ca-pq": "tab:gray",
    "wsvf": "tab:blue", "sjf": "tab:olive", "wsjf": "tab:green", "sdf": "tab:pink",
    "wsdf": "tab:cyan", "erf": "tab:red",
}
_CYCLE = ("tab:blue", "tab:red", "tab:green", "tab:orange", "tab:purple", "tab:brown",
          "tab:pink", "tab:gray", "tab:olive", "tab:cyan")


def label(name: str) -> str:
    """The paper's name of a policy (the registry's name when the paper has none)."""
    return LABELS.get(name, name)


def color(name: str) -> str:
    """A name's colour, the same in every figure and every run (a name without a fixed
    colour takes one from a hash of its name)."""
    import zlib

    return COLORS.get(name) or _CYCLE[zlib.crc32(name.encode()) % len(_CYCLE)]


def verdict_marks(ax: Any, x: Any, y: Any, unstable: Any, *, first: bool) -> None:
    """A black cross on the points judged unstable (their time average grows with the
    horizon, so its height is the horizon's, not the system's)."""
    import numpy as np

    x, y, bad = np.asarray(x), np.asarray(y), np.asarray(unstable, dtype=bool)
    if bad.any():
        ax.scatter(x[bad], y[bad], marker="x", s=60, color="k", zorder=5,
                   label="judged unstable" if first else None)
