"""Budgets on work and memory that grow with the input (docs/design.md, "Inputs,
budgets and errors").

Every computation whose cost grows with its input (slots, jobs, servers,
configurations, levels, grid points) estimates that cost *before* it allocates or
loops, and refuses above a documented budget with :class:`BudgetExceeded`: what was
asked, what it would take, the budget, and the keyword that raises it. The CLI maps
the keyword to its flag (``max_configurations`` -> ``--max-configurations``).

The defaults below are the documented budgets; each is a keyword argument of the
functions that use it, so a caller who knows better raises it for one call.
"""

from __future__ import annotations

__all__ = [
    "BudgetExceeded",
    "MEMORY_BUDGET",
    "MAX_CONFIGURATIONS",
    "MAX_LP_TYPES",
    "check_budget",
    "format_bytes",
]

#: Bytes a single simulation or solve may allocate (8 GiB; the machines have 24 GiB).
MEMORY_BUDGET = 8 * 2**30
#: Feasible configurations an enumeration may produce before it refuses.
MAX_CONFIGURATIONS = 2_000_000
#: Job types one configuration LP may have (column generation is seconds at 10^4).
MAX_LP_TYPES = 50_000


class BudgetExceeded(ValueError):
    """A computation would exceed a documented budget; nothing was allocated.

    A ``ValueError``: the CLI reports it with status 2 and names the flag of ``option``
    (``render`` spells the option as that flag). Each parameter is kept as the
    attribute of the same name.

    Parameters
    ----------
    what : str
        The request in words (``"simulating 10^10 slots on 5 servers"``).
    need : str
        The estimate (``"about 224 GiB"``, ``"more than 2,000,000 configurations"``).
    budget : str
        The budget in the same unit (``"8 GiB"``).
    option : str
        The keyword argument that raises the budget (``"memory_budget"``).
    hint : str, default ""
        Another way out, appended to the message in parentheses (empty: none).

    References
    ----------
    docs/design.md, section Budgets.

    Examples
    --------
    >>> from theory import BudgetExceeded
    >>> e = BudgetExceeded("simulating 10^10 slots", "about 224 GiB", "8 GiB",
    ...                    "memory_budget", hint="use fewer slots")
    >>> print(e)
    simulating 10^10 slots would need about 224 GiB, above the budget of 8 GiB; raise it
    with memory_budget= (use fewer slots)
    >>> print(e.render("--max-memory"))
    simulating 10^10 slots would need about 224 GiB, above the budget of 8 GiB; raise it
    with --max-memory (use fewer slots)
    >>> isinstance(e, ValueError)
    True
    """

    def __init__(self, what: str, need: str, budget: str, option: str, hint: str = ""):
        self.what, self.need, self.budget, self.option, self.hint = (
            what, need, budget, option, hint)
        super().__init__(self.render(f"{option}="))

    def render(self, option_text: str) -> str:
        """The message with the budget option spelled as ``option_text`` (a flag, a kwarg)."""
        msg = (f"{self.what} would need {self.need}, above the budget of {self.budget}; "
               f"raise it with {option_text}")
        return f"{msg} ({self.hint})" if self.hint else msg


def check_budget(need: float, budget: float, *, what: str, option: str, unit: str = "",
                 hint: str = "") -> None:
    """Raise :class:`BudgetExceeded` when ``need > budget`` (``unit="bytes"`` formats sizes).

    Called *before* the work is allocated, with an estimate of its cost.

    Parameters
    ----------
    need : float
        The estimated cost, in ``unit``.
    budget : float
        The largest cost allowed, in the same unit.
    what : str
        The request in words, for the message.
    option : str
        The keyword argument that raises the budget (``"max_configurations"``).
    unit : str, default ""
        The unit of ``need`` and ``budget``: ``"bytes"`` writes them with
        :func:`format_bytes`; any other text follows the count (``"configurations"``);
        empty: a bare count.
    hint : str, default ""
        Another way out, appended to the message (empty: none).

    Raises
    ------
    BudgetExceeded
        When ``need > budget``.

    References
    ----------
    docs/design.md, section Budgets.

    Examples
    --------
    >>> from theory import MAX_CONFIGURATIONS, check_budget
    >>> check_budget(10, MAX_CONFIGURATIONS, what="enumerating", option="max_configurations")
    >>> check_budget(3_000_000, MAX_CONFIGURATIONS, what="enumerating the configurations",
    ...              option="max_configurations", unit="configurations")
    Traceback (most recent call last):
    ...
    theory.budgets.BudgetExceeded: enumerating the configurations would need 3,000,000
    configurations, above the budget of 2,000,000 configurations; raise it with
    max_configurations=
    """
    if need <= budget:
        return
    if unit == "bytes":
        text = format_bytes(need)
        need_text = text if text.startswith(("about", "more")) else f"about {text}"
        raise BudgetExceeded(what, need_text, format_bytes(budget), option, hint)
    suffix = f" {unit}" if unit else ""
    raise BudgetExceeded(what, f"{_count(need)}{suffix}", f"{_count(budget)}{suffix}", option,
                         hint)


def format_bytes(n: float) -> str:
    """``1536 -> '1.5 KiB'`` (binary units, three significant digits).

    Parameters
    ----------
    n : float
        A number of bytes (at least 0).

    Returns
    -------
    str
        Whole bytes below 1 KiB, then KiB to PiB with three significant digits; from
        2^70 bytes on, the power of two below ``n`` (``"2^80 bytes"``), and above
        10^300 ``"more than 10^300 bytes"``.

    References
    ----------
    docs/design.md, section Budgets.

    Examples
    --------
    >>> from theory import format_bytes
    >>> format_bytes(100), format_bytes(1536), format_bytes(3 * 2**30), format_bytes(2**80)
    ('100 bytes', '1.5 KiB', '3 GiB', '2^80 bytes')
    """
    if n >= 2**70:
        return (f"2^{int(n).bit_length() - 1} bytes" if n < 10**300
                else "more than 10^300 bytes")
    v = float(n)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if v < 1024 or unit == "PiB":
            return f"{v:.0f} bytes" if unit == "bytes" else f"{v:.3g} {unit}"
        v /= 1024
    raise AssertionError("unreachable")


def _count(x: float) -> str:
    if x < 1e15:
        return f"{int(x):,}"
    return f"{float(x):.3g}" if x < 10**300 else "more than 10^300"
