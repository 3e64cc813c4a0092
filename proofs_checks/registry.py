"""The registry of checks: one registered function per claim of the papers.

A check has a claim id (``PG21.Thm1``), the paper's location, the statement in
words and its method (exact, LP, exhaustive, property test, simulation,
counterexample). Running it returns a :class:`CheckResult` with a verdict
(``holds``, ``violated`` or ``inconclusive``) and the evidence behind it. A check must
be able to fail: it compares measured numbers against the paper's bound.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Check", "CheckResult", "Verdict", "register", "all_checks", "get_check",
           "run_check", "run_checks", "iter_results", "select_checks", "submission_order",
           "VERDICTS", "METHODS", "ENGINES"]

VERDICTS = ("holds", "violated", "inconclusive")
METHODS = ("exact", "LP", "exhaustive", "property", "simulation", "counterexample")
#: Compiled simulators a check may run (numba kernels whose first compilation takes
#: tens of seconds): the PG21 slotted loop and the PG18 continuous-time one.
ENGINES = ("slotted", "continuous")


@dataclass(frozen=True)
class Verdict:
    """What a check function returns: the verdict and its evidence."""

    verdict: str
    evidence: dict[str, Any]

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")


@dataclass(frozen=True)
class Check:
    id: str
    paper: str
    location: str
    statement: str
    method: str
    func: Callable[[bool], Verdict] = field(repr=False)
    quick: bool = True  # part of ``verify --quick``
    engines: tuple[str, ...] = ()  # compiled simulators it runs (ENGINES)


@dataclass(frozen=True)
class CheckResult:
    id: str
    paper: str
    location: str
    statement: str
    method: str
    verdict: str
    evidence: dict[str, Any]
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "paper": self.paper,
            "location": self.location,
            "statement": self.statement,
            "method": self.method,
            "verdict": self.verdict,
            "evidence": self.evidence,
            "seconds": round(self.seconds, 4),
        }


_REGISTRY: dict[str, Check] = {}


def register(id: str, *, location: str, statement: str, method: str,
             quick: bool = True, engines: tuple[str, ...] = ()
             ) -> Callable[[Callable[[bool], Verdict]], Callable]:
    """Decorator: register ``func(quick: bool) -> Verdict`` under a claim id.

    ``engines``: the compiled simulators (:data:`ENGINES`) the check runs, so that
    parallel runs compile each once (:func:`iter_results`)."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}")
    if not isinstance(engines, tuple | list) or any(e not in ENGINES for e in engines):
        raise ValueError(f"engines must be a tuple of {ENGINES}, got {engines!r}")
    paper = id.split(".", 1)[0]

    def deco(func: Callable[[bool], Verdict]) -> Callable[[bool], Verdict]:
        if id in _REGISTRY:
            raise ValueError(f"check {id} registered twice")
        _REGISTRY[id] = Check(id, paper, location, statement, method, func, quick,
                              tuple(engines))
        return func

    return deco


def _load() -> None:
    # importing the modules registers their checks
    from proofs_checks import checks  # noqa: F401


def all_checks() -> list[Check]:
    _load()
    return list(_REGISTRY.values())


def get_check(id: str) -> Check:
    _load()
    if id not in _REGISTRY:
        raise KeyError(f"no check {id!r}; known: {', '.join(sorted(_REGISTRY))}")
    return _REGISTRY[id]


def run_check(check: Check, *, quick: bool = False) -> CheckResult:
    """Run one check; an exception becomes an ``inconclusive`` verdict with the error."""
    t0 = time.perf_counter()
    try:
        v = check.func(quick)
    except Exception as exc:  # noqa: BLE001 - a crashing check must still report
        v = Verdict("inconclusive", {"error": f"{type(exc).__name__}: {exc}",
                                     "traceback": traceback.format_exc(limit=3)})
    return CheckResult(check.id, check.paper, check.location, check.statement, check.method,
                       v.verdict, v.evidence, time.perf_counter() - t0)


def select_checks(*, paper: str | None = None, claim: str | None = None,
                  quick: bool = False) -> list[Check]:
    """The checks a filter selects; an unknown claim id or paper key is a ``KeyError``.

    One rule for listing and for running: ``--claim Nope`` is an error either way.
    """
    checks = all_checks()
    if claim is not None:
        checks = [c for c in checks if c.id == claim or c.id.startswith(claim + ".")]
        if not checks:
            raise KeyError(f"no check {claim!r}; known: {', '.join(c.id for c in all_checks())}")
    if paper is not None:
        papers = sorted({c.paper for c in all_checks()})
        if paper not in papers:
            raise KeyError(f"no checks for paper {paper!r}; papers with checks: "
                           f"{', '.join(papers)}")
        checks = [c for c in checks if c.paper == paper]
        if not checks:
            raise KeyError(f"claim {claim!r} is not a claim of paper {paper!r}")
    if quick and claim is None:
        checks = [c for c in checks if c.quick]
    return checks


def _run_by_id(id: str, quick: bool) -> CheckResult:
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
    own numba kernels)."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    if jobs == 1 or len(checks) <= 1:
        for c in checks:
            yield run_check(c, quick=quick)
        return
    known = {c.id for c in all_checks()}
    if any(c.id not in known for c in checks):
        raise ValueError("checks run in worker processes must be registered ones")
    with ProcessPoolExecutor(max_workers=min(jobs, len(checks)),
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        futures: dict[int, Any] = {}
        for i in submission_order(checks):
            futures[i] = pool.submit(_run_by_id, checks[i].id, quick)
        for i in range(len(checks)):
            yield futures[i].result()


def run_checks(*, paper: str | None = None, claim: str | None = None,
               quick: bool = False, jobs: int = 1) -> list[CheckResult]:
    """Run the catalogue, filtered by paper key or claim id (``--quick``: quick checks,
    each in its reduced form); the filter is :func:`select_checks`, ``jobs`` as in
    :func:`iter_results`."""
    return list(iter_results(select_checks(paper=paper, claim=claim, quick=quick),
                             quick=quick, jobs=jobs))
