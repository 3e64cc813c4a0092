"""What a check declares and returns: :func:`register`, :class:`Check` and :class:`Verdict`.

A check module imports its declarations from here; this module imports nothing from
``proofs_checks``, so the check modules and :mod:`proofs_checks.registry` (which loads,
selects and runs them) depend on it and never on each other.

A :class:`Verdict` carries structured evidence (DESIGN.md, "Checks"): ``measured`` and
``bound`` are the one or two numbers that decide the verdict, ``relation`` says how they
compare (``measured <= bound``), ``params`` are the instance parameters, ``seed`` the
seed(s) used and ``details`` everything else the check measured. A claim with no
numeric bound (an existence claim, a symbolic identity) has ``bound=None`` and says why
in ``details["no_bound"]``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import KW_ONLY, dataclass, field
from fractions import Fraction
from typing import Any

__all__ = ["Check", "Verdict", "register", "REGISTRY", "VERDICTS", "METHODS", "ENGINES",
           "RELATIONS", "Numbers", "Seed"]

VERDICTS = ("holds", "violated", "inconclusive")
METHODS = ("exact", "LP", "exhaustive", "property", "simulation", "counterexample")
#: Compiled simulators a check may run (numba kernels whose first compilation takes
#: tens of seconds): the PG21 slotted loop and the PG18 continuous-time one.
ENGINES = ("slotted", "continuous")
#: How ``measured`` compares with ``bound``. The order relations compare numbers, or
#: tuples element by element (a number bound applies to every element); ``in``: the
#: number ``measured`` lies in the closed interval ``bound = (lo, hi)``; ``contains``:
#: the interval ``measured`` contains the number ``bound``; ``overlaps``: the intervals
#: ``measured`` and ``bound`` meet.
RELATIONS = ("<=", "<", ">=", ">", "==", "!=", "in", "contains", "overlaps")

#: a number (int, float, Fraction) or a tuple of them
Numbers = int | float | Fraction | tuple[int | float | Fraction, ...]
#: a seed, several (a tuple), or seeds by role ({"workload": 1, "policy": 3})
Seed = int | tuple[int, ...] | dict[str, int | tuple[int, ...]]


def _number(x: Any, what: str) -> int | float | Fraction:
    """x as a Python number (numpy scalars converted); bools and the rest refused."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TypeError(f"{what} must be a number, got {x!r}")
    if isinstance(x, Fraction):
        return x
    return int(x) if isinstance(x, numbers.Integral) else float(x)  # numpy scalars too


def _numbers(x: Any, what: str) -> Numbers | None:
    if x is None:
        return None
    if isinstance(x, tuple | list):
        if not x:
            raise ValueError(f"{what} must not be an empty sequence")
        return tuple(_number(v, what) for v in x)
    if hasattr(x, "tolist") and getattr(x, "ndim", 0) == 1:  # a 1-d numpy array
        return _numbers(x.tolist(), what)
    return _number(x, what)


def _seed(x: Any) -> Seed | None:
    def one(v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise TypeError(f"a seed must be an integer, got {v!r}")
        return int(v)

    if x is None:
        return None
    if isinstance(x, Mapping):
        return {str(k): (tuple(one(u) for u in v) if isinstance(v, tuple | list) else one(v))
                for k, v in x.items()}
    if isinstance(x, tuple | list):
        return tuple(one(v) for v in x)
    return one(x)


def _pair(x: Any) -> bool:
    return isinstance(x, tuple) and len(x) == 2


def _compare(m: Any, rel: str, b: Any, rtol: float) -> bool:
    if rel == "in":
        return _compare(m, ">=", b[0], rtol) and _compare(m, "<=", b[1], rtol)
    if rel == "contains":
        return _compare(m[0], "<=", b, rtol) and _compare(m[1], ">=", b, rtol)
    if rel == "overlaps":
        return _compare(m[0], "<=", b[1], rtol) and _compare(b[0], "<=", m[1], rtol)
    if isinstance(m, tuple):
        bs = b if isinstance(b, tuple) else (b,) * len(m)
        return all(_compare(x, rel, y, rtol) for x, y in zip(m, bs, strict=True))
    if not rtol or not math.isfinite(float(b)) or not math.isfinite(float(m)):
        # exact: Python compares ints, floats and Fractions without rounding
        return {"<=": m <= b, "<": m < b, ">=": m >= b, ">": m > b, "==": m == b,
                "!=": m != b}[rel]
    slack = rtol * max(1.0, abs(float(b)))
    d = float(m) - float(b)
    return {"<=": d <= slack, "<": d < slack, ">=": d >= -slack, ">": d > -slack,
            "==": abs(d) <= slack, "!=": abs(d) > slack}[rel]


@dataclass(frozen=True)
class Verdict:
    """What a check function returns: the verdict and its structured evidence.

    ``Verdict("holds", measured=0.4999, bound=0.5, relation="<=", params={...},
    seed=7, details={...})``; with ``bound=None`` (no numeric bound) ``relation`` is
    None and ``details["no_bound"]`` gives the reason in one line. ``quantity`` names
    what ``measured`` is, in a few words. Numbers are Python numbers after construction
    (numpy scalars converted, lists made tuples); seeds are integers.

    Parameters
    ----------
    verdict : {"holds", "violated", "inconclusive"}
        What the check found (positional; the rest are keyword-only).
    measured : number or tuple of numbers or None, default None
        The measured value(s) that decide the verdict (an interval as a pair for
        ``contains`` and ``overlaps``).
    bound : number or tuple of numbers or None, default None
        The paper's bound (a pair ``(lo, hi)`` for ``in`` and ``overlaps``); None for
        a claim without a numeric bound.
    relation : str or None, default None
        How ``measured`` compares with ``bound``, one of :data:`RELATIONS`
        (``"<="``, ``"<"``, ``">="``, ``">"``, ``"=="``, ``"!="``, ``"in"``,
        ``"contains"``, ``"overlaps"``); None exactly when ``bound`` is None.
    quantity : str, default ""
        What ``measured`` is, in a few words.
    params : dict, default {}
        The instance's parameters.
    seed : int or tuple of int or dict or None, default None
        The seed, several, or seeds by role (``{"workload": 1, "policy": 3}``).
    details : dict, default {}
        Everything else the check measured; ``details["no_bound"]`` (one line) says
        why when ``bound`` is None.

    Raises
    ------
    ValueError
        If ``verdict`` is unknown; a bound comes without a measured value or a known
        relation, or with one whose shape does not fit it; there is no bound but a
        relation is given or ``details["no_bound"]`` is missing; a number sequence is
        empty.
    TypeError
        If ``measured`` or ``bound`` holds something that is not a real number (a bool,
        a text), a seed is not an integer, or ``params`` or ``details`` is not a dict.

    References
    ----------
    docs/design.md, section Checks.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from proofs_checks import Verdict
    >>> v = Verdict("holds", measured=0.2857142857142857, bound=Fraction(2, 7),
    ...             relation="==", quantity="lambda_j after one slot", seed=7)
    >>> v.relation_holds(), v.relation_holds(rtol=1e-12)   # exact, then within 1e-12
    (False, True)
    >>> Verdict("holds", details={"no_bound": "an existence claim"}).relation_holds() is None
    True
    >>> Verdict("probably")
    Traceback (most recent call last):
    ...
    ValueError: verdict must be one of ('holds', 'violated', 'inconclusive'), got 'probably'
    """

    verdict: str
    _: KW_ONLY
    measured: Numbers | None = None
    bound: Numbers | None = None
    relation: str | None = None
    quantity: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    seed: Seed | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        m = _numbers(self.measured, "measured")
        b = _numbers(self.bound, "bound")
        object.__setattr__(self, "measured", m)
        object.__setattr__(self, "bound", b)
        object.__setattr__(self, "seed", _seed(self.seed))
        if not isinstance(self.params, dict) or not isinstance(self.details, dict):
            raise TypeError("params and details must be dicts")
        if b is None:
            reason = self.details.get("no_bound")
            if self.relation is not None or not isinstance(reason, str) or not reason:
                raise ValueError("without a bound, relation is None and details['no_bound'] "
                                 "says why in one line")
            return
        if m is None or self.relation not in RELATIONS:
            raise ValueError(f"a bound needs a measured value and a relation in {RELATIONS}, "
                             f"got measured={m!r}, relation={self.relation!r}")
        shapes = {"in": (not _pair(m), _pair(b)), "contains": (_pair(m), not _pair(b)),
                  "overlaps": (_pair(m), _pair(b))}
        if self.relation in shapes:
            if not all(shapes[self.relation]):
                raise ValueError(f"relation {self.relation!r} does not fit measured={m!r}, "
                                 f"bound={b!r}")
        elif isinstance(b, tuple) and (not isinstance(m, tuple) or len(m) != len(b)):
            raise ValueError(f"a tuple bound needs a measured tuple of its length, got "
                             f"measured={m!r}, bound={b!r}")

    def relation_holds(self, rtol: float = 0.0) -> bool | None:
        """Whether ``measured relation bound`` is true (None without a bound), each
        comparison with a slack of ``rtol * max(1, |bound|)`` (floats rounding)."""
        if self.bound is None or self.relation is None:
            return None
        return _compare(self.measured, self.relation, self.bound, rtol)


@dataclass(frozen=True)
class Check:
    """A registered check: the claim it tests, where the paper states it, and the
    function that tests it.

    Made by :func:`register` (and kept in ``REGISTRY`` under ``id``); run by
    :func:`proofs_checks.run_check`, which turns what ``func`` returns into a
    :class:`proofs_checks.CheckResult`.

    Parameters
    ----------
    id : str
        The claim id, paper key first (``"PG21.Prop2"``, ``"XLL21.Alg1.line7"``).
    paper : str
        The paper key (``"PG21"``, ``"PG18"``, ``"XLL21"``, ``"FL24"``).
    location : str
        Where the paper states the claim (section, equation, line).
    statement : str
        The claim in words, as checked.
    method : str
        How it is checked, one of :data:`METHODS` (``"exact"``, ``"LP"``,
        ``"exhaustive"``, ``"property"``, ``"simulation"``, ``"counterexample"``).
    func : callable
        ``func(quick) -> Verdict``; ``quick=True`` runs the reduced form.
    quick : bool, default True
        Part of ``verify --quick``.
    engines : tuple of str, default ()
        The compiled simulators the check runs (:data:`ENGINES`).

    References
    ----------
    docs/design.md, section Checks.

    Examples
    --------
    >>> from proofs_checks import get_check
    >>> check = get_check("XLL21.Alg1.line7")
    >>> check.paper, check.method, check.quick, check.engines
    ('XLL21', 'counterexample', True, ())
    >>> check.func(True).verdict
    'holds'
    """

    id: str
    paper: str
    location: str
    statement: str
    method: str
    func: Callable[[bool], Verdict] = field(repr=False)
    quick: bool = True  # part of ``verify --quick``
    engines: tuple[str, ...] = ()  # compiled simulators it runs (ENGINES)


#: every registered check by claim id, in registration order
REGISTRY: dict[str, Check] = {}


def register(id: str, *, location: str, statement: str, method: str,
             quick: bool = True, engines: tuple[str, ...] = ()
             ) -> Callable[[Callable[[bool], Verdict]], Callable]:
    """Decorator: register ``func(quick: bool) -> Verdict`` under a claim id.

    ``engines``: the compiled simulators (:data:`ENGINES`) the check runs, so that
    parallel runs compile each once (:func:`proofs_checks.registry.iter_results`).

    The check modules under ``proofs_checks/checks/`` register theirs when imported
    (:func:`proofs_checks.all_checks` imports them); the decorated function is
    returned unchanged.

    Parameters
    ----------
    id : str
        The claim id, paper key first (``"PG21.Lemma2"``); the text before the first
        dot becomes :attr:`Check.paper`.
    location : str
        Where the paper states the claim.
    statement : str
        The claim in words, as checked.
    method : str
        One of :data:`METHODS`.
    quick : bool, default True
        Part of ``verify --quick``.
    engines : tuple of str, default ()
        The compiled simulators the check runs, each in :data:`ENGINES`.

    Returns
    -------
    callable
        The decorator: it stores a :class:`Check` in ``REGISTRY`` and returns the
        function itself.

    Raises
    ------
    ValueError
        If ``method`` is not in :data:`METHODS` or ``engines`` is not a tuple (or
        list) of :data:`ENGINES`; when the decorator is applied, if ``id`` is already
        registered.

    References
    ----------
    docs/design.md, section Checks.

    Examples
    --------
    >>> from proofs_checks import Verdict, register
    >>> from proofs_checks.claims import REGISTRY
    >>> @register("DEMO.Sum", location="nowhere", statement="1/2 + 1/2 = 1",
    ...           method="exact")
    ... def check_sum(quick):
    ...     return Verdict("holds", measured=0.5 + 0.5, bound=1, relation="==")
    >>> REGISTRY["DEMO.Sum"].paper, check_sum(True).verdict
    ('DEMO', 'holds')
    >>> del REGISTRY["DEMO.Sum"]   # keep the catalogue as it was
    >>> register("DEMO.Sum", location="", statement="", method="guess")
    Traceback (most recent call last):
    ...
    ValueError: method must be one of ('exact', 'LP', 'exhaustive', ...)
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}")
    if not isinstance(engines, tuple | list) or any(e not in ENGINES for e in engines):
        raise ValueError(f"engines must be a tuple of {ENGINES}, got {engines!r}")
    paper = id.split(".", 1)[0]

    def deco(func: Callable[[bool], Verdict]) -> Callable[[bool], Verdict]:
        if id in REGISTRY:
            raise ValueError(f"check {id} registered twice")
        REGISTRY[id] = Check(id, paper, location, statement, method, func, quick,
                             tuple(engines))
        return func

    return deco
