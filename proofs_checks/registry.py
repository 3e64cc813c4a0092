"""Loading, selecting and running the registered checks (one per claim of the papers).

A check has a claim id (``PG21.Thm1``), the paper's location, the statement in
words and its method (exact, LP, exhaustive, property test, simulation,
counterexample); the declarations (:func:`register`, :class:`Check`,
:class:`Verdict`) live in :mod:`proofs_checks.claims` and are re-exported here.
Running a check gives a :class:`CheckResult`: the verdict (``holds``, ``violated`` or
``inconclusive``) and its evidence, the measured value against the paper's bound, the
parameters, the seed and the details. A check must be able to fail: it compares
measured numbers against the paper's bound.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from proofs_checks.claims import (
    ENGINES,
    METHODS,
    REGISTRY,
    RELATIONS,
    VERDICTS,
    Check,
    Numbers,
    Seed,
    Verdict,
    register,
)
from theory.json_ready import json_ready
from theory.names import did_you_mean

__all__ = ["Check", "CheckResult", "Verdict", "register", "all_checks", "get_check",
           "run_check", "run_checks", "iter_results", "select_checks", "submission_order",
           "VERDICTS", "METHODS", "ENGINES", "RELATIONS"]


@dataclass(frozen=True)
class CheckResult:
    """One check's run: its declaration, the :class:`Verdict`'s fields and the seconds.

    Made by :func:`run_check` (frozen); ``as_dict`` is the JSON record that
    ``packsched verify --json`` writes.

    Parameters
    ----------
    id : str
        The claim id (``"PG21.Prop2"``).
    paper : str
        The paper key.
    location : str
        Where the paper states the claim.
    statement : str
        The claim in words, as checked.
    method : str
        How it was checked (one of ``METHODS``).
    verdict : {"holds", "violated", "inconclusive"}
        What the check found (``"inconclusive"`` also when it raised).
    measured : number or tuple of numbers or None
        The measured value(s) that decide the verdict.
    bound : number or tuple of numbers or None
        The paper's bound (None for a claim without a numeric bound).
    relation : str or None
        How ``measured`` compares with ``bound`` (one of ``RELATIONS``).
    quantity : str
        What ``measured`` is.
    params : dict
        The instance's parameters.
    seed : int or tuple of int or dict or None
        The seed(s) used.
    details : dict
        Everything else measured (for a check that raised: ``error`` and
        ``traceback``).
    seconds : float
        Wall-clock seconds of the run.

    References
    ----------
    docs/design.md, section Checks.

    Examples
    --------
    >>> from proofs_checks import get_check, run_check
    >>> res = run_check(get_check("XLL21.Alg1.line7"), quick=True)
    >>> res.id, res.paper, res.verdict, res.relation, res.bound
    ('XLL21.Alg1.line7', 'XLL21', 'holds', '==', Fraction(2, 7))
    >>> res.as_dict()["bound"]
    '2/7'
    """

    id: str
    paper: str
    location: str
    statement: str
    method: str
    verdict: str
    measured: Numbers | None
    bound: Numbers | None
    relation: str | None
    quantity: str
    params: dict[str, Any]
    seed: Seed | None
    details: dict[str, Any] = field(repr=False)
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        """``{id, paper, location, statement, method, verdict, measured, bound, relation,
        quantity, params, seed, details, seconds}``, JSON-ready
        (:func:`theory.json_ready.json_ready` with ``exact``: Fractions as ``"p/q"``)."""
        return {
            "id": self.id,
            "paper": self.paper,
            "location": self.location,
            "statement": self.statement,
            "method": self.method,
            "verdict": self.verdict,
            "measured": json_ready(self.measured, exact=True),
            "bound": json_ready(self.bound, exact=True),
            "relation": self.relation,
            "quantity": self.quantity,
            "params": json_ready(self.params, exact=True),
            "seed": json_ready(self.seed, exact=True),
            "details": json_ready(self.details, exact=True),
            "seconds": round(self.seconds, 4),
        }


def _load() -> None:
    # importing the modules registers their checks
    from proofs_checks import checks  # noqa: F401


def all_checks() -> list[Check]:
    """Every registered check, in registration order.

    Importing :mod:`proofs_checks.checks` (done here, once) registers the whole
    catalogue.

    Returns
    -------
    list of Check
        The checks of every paper.

    See Also
    --------
    get_check, run_checks

    References
    ----------
    docs/design.md, section Checks.

    Examples
    --------
    >>> from proofs_checks import all_checks
    >>> sorted({c.paper for c in all_checks()})
    ['FL24', 'PG18', 'PG21', 'XLL21']
    """
    _load()
    return list(REGISTRY.values())


def get_check(id: str) -> Check:
    """The registered check of a claim id.

    Parameters
    ----------
    id : str
        The claim id (``"PG21.Prop2"``), exactly as registered.

    Returns
    -------
    Check
        Its declaration and function.

    Raises
    ------
    KeyError
        If no check has that id; the message suggests close ids and lists the known
        ones.

    References
    ----------
    docs/design.md, section Checks.

    Examples
    --------
    >>> from proofs_checks import get_check
    >>> get_check("PG21.Prop2").location
    'Sec. V-C, Prop. 2; proof Sec. VIII-C, eq. (61)'
    >>> get_check("PG21.Prop3")
    Traceback (most recent call last):
    ...
    KeyError: "no check 'PG21.Prop3'; did you mean ...
    """
    _load()
    if id not in REGISTRY:
        raise KeyError(f"no check {id!r}{did_you_mean(id, REGISTRY)}; "
                       f"known: {', '.join(sorted(REGISTRY))}")
    return REGISTRY[id]


def run_check(check: Check, *, quick: bool = False) -> CheckResult:
    """Run one check; an exception becomes an ``inconclusive`` verdict with the error.

    Parameters
    ----------
    check : Check
        The check to run (registered or not).
    quick : bool, default False
        Run its reduced form (``verify --quick``).

    Returns
    -------
    CheckResult
        The declaration, the verdict and its evidence, and the seconds taken. A check
        that raises gives ``verdict="inconclusive"``, no bound, and the error in
        ``details["error"]`` and ``details["traceback"]``.

    References
    ----------
    docs/design.md, section Checks.

    Examples
    --------
    >>> from proofs_checks import Check, get_check, run_check
    >>> run_check(get_check("XLL21.Alg1.line7"), quick=True).verdict
    'holds'
    >>> def crashes(quick):
    ...     raise RuntimeError("boom")
    >>> res = run_check(Check("DEMO.Crash", "DEMO", "nowhere", "a check that crashes",
    ...                       "exact", crashes))
    >>> res.verdict, res.details["error"]
    ('inconclusive', 'RuntimeError: boom')
    """
    t0 = time.perf_counter()
    try:
        v = check.func(quick)
    except Exception as exc:  # noqa: BLE001 - a crashing check must still report
        v = Verdict("inconclusive", details={
            "no_bound": "the check raised an exception", "error": f"{type(exc).__name__}: {exc}",
            "traceback": traceback.format_exc(limit=3)})
    return CheckResult(check.id, check.paper, check.location, check.statement, check.method,
                       v.verdict, v.measured, v.bound, v.relation, v.quantity, v.params,
                       v.seed, v.details, time.perf_counter() - t0)


def _claim_names(ids: list[str]) -> list[str]:
    """What ``--claim`` accepts: the ids and their dotted prefixes below the paper
    (``PG21.Thm3`` for ``PG21.Thm3.dyadic``)."""
    names = dict.fromkeys(ids)
    for i in ids:
        parts = i.split(".")
        for k in range(2, len(parts)):
            names.setdefault(".".join(parts[:k]))
    return list(names)


def select_checks(*, paper: str | None = None, claim: str | None = None,
                  quick: bool = False) -> list[Check]:
    """The checks a filter selects; an unknown claim id or paper key is a ``KeyError``.

    One rule for listing and for running: ``--claim Nope`` is an error either way.
    """
    checks = all_checks()
    if claim is not None:
        checks = [c for c in checks if c.id == claim or c.id.startswith(claim + ".")]
        if not checks:
            ids = [c.id for c in all_checks()]
            raise KeyError(f"no check {claim!r}{did_you_mean(claim, _claim_names(ids))}; "
                           f"known: {', '.join(ids)}")
    if paper is not None:
        papers = sorted({c.paper for c in all_checks()})
        if paper not in papers:
            raise KeyError(f"no checks for paper {paper!r}{did_you_mean(paper, papers)}; "
                           f"papers with checks: "
                           f"{', '.join(papers)}")
        checks = [c for c in checks if c.paper == paper]
        if not checks:
            raise KeyError(f"claim {claim!r} is not a claim of paper {paper!r}")
    if quick and claim is None:
        checks = [c for c in checks if c.quick]
    return checks


def _run_task(task: tuple[str, bool]) -> CheckResult:
    """A worker's task: the registered check ``id``, run quick or not."""
    id, quick = task
    return run_check(get_check(id), quick=quick)


def submission_order(checks: list[Check]) -> list[int]:
    """The order in which a worker pool should take ``checks`` (their positions): the
    first check of each compiled engine first, so that the workers compile different
    engines at the same time; then the checks that run none; then the other checks of
    each engine, which by then load it from numba's cache. In the catalogue's order, a
    first ``verify --quick`` on an empty cache had both workers compile the slotted
    kernels at once (PG21.Fig3a and PG21.Fig3b, 27 s each)."""
    first: list[int] = []
    plain: list[int] = []
    rest: list[int] = []
    seen: set[str] = set()
    for i, c in enumerate(checks):
        if not c.engines:
            plain.append(i)
        elif set(c.engines) - seen:
            first.append(i)
            seen.update(c.engines)
        else:
            rest.append(i)
    return first + plain + rest


def iter_results(checks: list[Check], *, quick: bool = False,
                 jobs: int = 1) -> Iterator[CheckResult]:
    """The results of ``checks``, in their order, as they become available.

    ``jobs > 1`` runs them in that many fresh worker processes (spawned, so a worker
    starts from the registered catalogue, not from this process's state), submitted
    in :func:`submission_order`. Every check seeds its own randomness, so the verdicts
    and evidence do not depend on ``jobs``; only the seconds do (workers compile their
    own numba kernels).

    Parameters
    ----------
    checks : list of Check
        The checks to run (registered ones when ``jobs > 1``).
    quick : bool, default False
        Run each in its reduced form.
    jobs : int, default 1
        Worker processes (1: run here, one after the other).

    Yields
    ------
    CheckResult
        One per check, in the order of ``checks``.

    Raises
    ------
    ValueError
        If ``jobs`` is not a positive integer, or a check run in workers is not a
        registered one.

    References
    ----------
    docs/design.md, section Checks.

    Examples
    --------
    >>> from proofs_checks import get_check, iter_results
    >>> checks = [get_check("XLL21.Alg1.line7"), get_check("FL24.Alg1.line4")]
    >>> [(r.id, r.verdict) for r in iter_results(checks, quick=True)]
    [('XLL21.Alg1.line7', 'holds'), ('FL24.Alg1.line4', 'holds')]
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    if jobs == 1 or len(checks) <= 1:
        for c in checks:
            yield run_check(c, quick=quick)
        return
    known = {c.id for c in all_checks()}
    if any(c.id not in known for c in checks):
        raise ValueError("checks run in worker processes must be registered ones")
    from policies.executors import map_unordered

    done: dict[int, CheckResult] = {}
    nxt = 0
    for i, res in map_unordered(_run_task, [(c.id, quick) for c in checks],
                                executor="processes", workers=min(jobs, len(checks)),
                                order=submission_order(checks)):
        done[i] = res
        while nxt in done:
            yield done.pop(nxt)
            nxt += 1


def run_checks(*, paper: str | None = None, claim: str | None = None,
               quick: bool = False, jobs: int = 1) -> list[CheckResult]:
    """Run the catalogue, filtered by paper key or claim id (``--quick``: quick checks,
    each in its reduced form); the filter is :func:`select_checks`, ``jobs`` as in
    :func:`iter_results`.

    Parameters
    ----------
    paper : str or None, default None
        Only the checks of this paper key (``"PG21"``).
    claim : str or None, default None
        Only this claim id and the ids below it (``"PG21.Thm3"`` selects
        ``"PG21.Thm3.dyadic"`` too).
    quick : bool, default False
        Only the quick checks (unless ``claim`` is given), each in its reduced form.
    jobs : int, default 1
        Worker processes.

    Returns
    -------
    list of CheckResult
        One per selected check, in catalogue order.

    Raises
    ------
    KeyError
        For an unknown claim id or paper key, or a claim of another paper.
    ValueError
        If ``jobs`` is not a positive integer.

    References
    ----------
    docs/design.md, section Checks.

    Examples
    --------
    >>> from proofs_checks import run_checks
    >>> [(r.id, r.verdict) for r in run_checks(claim="XLL21.Alg1.line7", quick=True)]
    [('XLL21.Alg1.line7', 'holds')]
    """
    return list(iter_results(select_checks(paper=paper, claim=claim, quick=quick),
                             quick=quick, jobs=jobs))
