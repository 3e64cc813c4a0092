"""Shared looks of the reproduced figures: one name and colour per policy, so that a
policy looks the same in every figure of every paper."""

from __future__ import annotations

from typing import Any

__all__ = ["LABELS", "color", "label", "verdict_marks"]

#: how the papers print the policies' names
LABELS = {
    "bf-js": "BF-J/S", "bf-j": "BF-J", "bf-s": "BF-S", "vqs": "VQS", "vqs-bf": "VQS-BF",
    "fifo-ff": "FIFO-FF", "maxweight": "MaxWeight", "rms": "RMS", "bf": "BF",
}
_CYCLE = ("tab:blue", "tab:red", "tab:green", "tab:orange", "tab:purple", "tab:brown",
          "tab:pink", "tab:gray", "tab:olive", "tab:cyan")
_COLORS = {"bf-js": "tab:blue", "vqs": "tab:red", "vqs-bf": "tab:green"}


def label(name: str) -> str:
    """The paper's name of a policy (the registry's name when the paper has none)."""
    return LABELS.get(name, name)


def color(name: str) -> str:
    """A policy's colour, the same in every figure and every run (a name without a
    fixed colour takes one from a hash of its name)."""
    import zlib

    return _COLORS.get(name) or _CYCLE[zlib.crc32(name.encode()) % len(_CYCLE)]


def verdict_marks(ax: Any, x: Any, y: Any, unstable: Any, *, first: bool) -> None:
    """A black cross on the points judged unstable (their time average grows with the
    horizon, so its height is the horizon's, not the system's)."""
    import numpy as np

    x, y, bad = np.asarray(x), np.asarray(y), np.asarray(unstable, dtype=bool)
    if bad.any():
        ax.scatter(x[bad], y[bad], marker="x", s=60, color="k", zorder=5,
                   label="judged unstable" if first else None)
