"""The "did you mean" hint for a mistyped name (a policy, claim, figure or trace).

One helper for every layer (``theory`` imports nothing of the others)::

    >>> did_you_mean("bf-jss", ["bf-j", "bf-s", "bf-js", "vqs"])
    '; did you mean bf-js or bf-s or bf-j?'
    >>> did_you_mean("zzz", ["bf-j", "bf-s"])
    ''
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["close_names", "did_you_mean"]


def close_names(name: str, known: Iterable[str], *, n: int = 3,
                cutoff: float = 0.6) -> list[str]:
    """Up to ``n`` names of ``known`` close to ``name``, closest first, spelled as in
    ``known``. Case does not matter: a name equal to ``name`` but for case comes first."""
    if not isinstance(name, str):
        return []
    names = list(dict.fromkeys(k for k in known if isinstance(k, str)))
    folded: dict[str, str] = {}
    for k in names:
        folded.setdefault(k.casefold(), k)
    target = name.strip().casefold()
    out: list[str] = []
    if target in folded and folded[target] != name:
        out.append(folded[target])
    for m in difflib.get_close_matches(target, list(folded), n=n + 1, cutoff=cutoff):
        if folded[m] not in out and folded[m] != name:
            out.append(folded[m])
    return out[:n]


def did_you_mean(name: str, known: Iterable[str], *, n: int = 3,
                 cutoff: float = 0.6) -> str:
    """``"; did you mean X or Y?"`` naming the names of ``known`` close to ``name``
    (:func:`close_names`), or ``""`` when none is close: append it to an error message."""
    close = close_names(name, known, n=n, cutoff=cutoff)
    return f"; did you mean {' or '.join(close)}?" if close else ""
