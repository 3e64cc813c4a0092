"""Names of the built-in policies (docs/design.md: lower-case, hyphenated) and a factory."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from policies.slotted import BFJ, BFJS, BFS, FIFOFF, VQS, VQSBF, PartitionMaxWeight
from policies.slotted.policy import BuiltinPolicy
from theory.budgets import MAX_CONFIGURATIONS, check_budget
from theory.distributions import Discrete, SizeDistribution
from theory.names import did_you_mean
from theory.numbers import to_number
from theory.partitions import Partition, quantile_partition

__all__ = ["Family", "PolicyInfo", "POLICIES", "FAMILIES", "families_of",
           "available_policies", "make_policy",
           "policies_of", "slotted_parameters"]


@dataclass(frozen=True)
class Family:
    """A model family: what it models and the ``packsched`` command that runs it."""

    description: str
    command: str


#: model families (docs/design.md, "Simulation"); the policy name decides the family,
#: the family the command (the CLI routes by this table)
FAMILIES = {
    "pg21-slotted": Family("PG21 slotted single-resource queueing", "simulate"),
    "xll21-preemptive": Family("XLL21 slotted preemptive scheduling of a finite job set",
                               "schedule"),
    "pg18-continuous": Family("PG18 continuous-time multi-resource queueing with job "
                              "types", "simulate"),
    "fl24-nonpreemptive": Family("FL24 non-preemptive scheduling of a finite job set for "
                                 "weighted completion time", "schedule"),
}


def families_of(command: str) -> list[str]:
    """The families the ``packsched`` command ``command`` runs."""
    return [f for f, info in FAMILIES.items() if info.command == command]


@dataclass(frozen=True)
class PolicyInfo:
    """A registered policy. ``keywords`` are the parameters :func:`make_policy` passes
    to it (the one declaration the CLI and sweep specs derive their flags from; for
    PG21 policies, the factory's signature); ``parameters`` describes them."""

    name: str
    description: str
    reference: str
    parameters: str
    factory: Callable[..., Any]
    family: str = "pg21-slotted"
    keywords: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.family == "pg21-slotted" and not self.keywords:
            object.__setattr__(self, "keywords", tuple(
                p for p in inspect.signature(self.factory).parameters if p != "dist"))


def _law_free(cls: type, **fixed: Any) -> Callable[..., BuiltinPolicy]:
    """Factory of a policy that needs nothing from the size law (it is accepted, unused)."""
    def make(*, dist: SizeDistribution | None = None) -> BuiltinPolicy:
        return cls(**fixed)
    return make


def _virtual_queues(cls: type[VQS] | type[VQSBF], J: int | None,
                    dist: SizeDistribution | None, eps: float, **opts: Any) -> BuiltinPolicy:
    opts = {k: v for k, v in opts.items() if v is not None}
    if J is None and dist is not None:
        return cls.for_distribution(dist, eps if not isinstance(dist, Discrete) else 0.0,
                                    **opts)
    return cls(J=J, **opts)


def _vqs(*, J: int | None = None, dist: SizeDistribution | None = None, eps: float = 0.01,
         small_jobs: str | None = None, hol: str | None = None) -> BuiltinPolicy:
    return _virtual_queues(VQS, J, dist, eps, small_jobs=small_jobs, hol=hol)


def _vqsbf(*, J: int | None = None, dist: SizeDistribution | None = None, eps: float = 0.01,
           small_jobs: str | None = None) -> BuiltinPolicy:
    return _virtual_queues(VQSBF, J, dist, eps, small_jobs=small_jobs)


def _maxweight(*, partition: Partition | None = None, dist: SizeDistribution | None = None,
               levels: int = 2, max_configurations: int = MAX_CONFIGURATIONS
               ) -> BuiltinPolicy:
    if partition is not None:
        return PartitionMaxWeight(partition, max_configurations=max_configurations)
    if isinstance(dist, Discrete):
        return PartitionMaxWeight.exact(dist, max_configurations=max_configurations)
    if dist is None:
        raise ValueError("maxweight needs a partition or the size distribution")
    if isinstance(levels, bool) or not isinstance(levels, int) or levels < 0:
        raise ValueError(f"levels must be a non-negative integer, got {levels!r}")
    # X^(levels) has 2^(levels+1) cells, each a feasible configuration on its own: refuse
    # before building the partition
    check_budget(2 ** (levels + 1), max_configurations,
                 what=f"maxweight on the quantile partition X^({levels})",
                 option="max_configurations", unit="configurations")
    return PartitionMaxWeight(quantile_partition(dist, levels, tight=False),
                              max_configurations=max_configurations)


def _xll21(cls: type, **fixed: Any) -> Callable[..., Any]:
    def make(**params: Any) -> Any:
        return cls(**fixed, **params)
    return make


def _xll21_policies() -> list[PolicyInfo]:
    from policies.preemptive import (
        OCORP,
        OCORPM,
        SRF,
        SRPT,
        SRVF,
        SVF,
        Fair,
        OCORPMapReduce,
        OCORPPlus,
    )
    from policies.preemptive import TransientSVF as TSVF

    fam = "xll21-preemptive"
    dual = "gamma (default eq. (27)), mu (default t^(k+0.5))"
    DUAL = ("gamma", "mu")
    return [
        PolicyInfo("ocorp", "online dual algorithm, Lemma 1 on pooled cores, packed largest "
                   "first", "XLL21 III-A, IV-A", dual, _xll21(OCORP), fam, DUAL),
        PolicyInfo("ocorp-plus", "OCORP with switching cost alpha (convex QP per slot)",
                   "XLL21 IV-B, eqs. (31)-(32)", "alpha (default 10), " + dual,
                   _xll21(OCORPPlus), fam, ("alpha", *DUAL)),
        PolicyInfo("ocorp-m", "OCORP+M: Algorithm 1, cores and memory (knapsack per "
                   "machine)", "XLL21 III-A, Algorithm 1, Thm. 2", dual + ", max_rounds (10)",
                   _xll21(OCORPM), fam, (*DUAL, "max_rounds")),
        PolicyInfo("transient-svf", "smallest volume first with Lemma 2's rates",
                   "XLL21 IV-C, Lemma 2, Thm. 6", "", _xll21(TSVF), fam),
        PolicyInfo("srpt", "shortest remaining processing time first", "XLL21 VI-2", "",
                   _xll21(SRPT), fam),
        PolicyInfo("srvf", "smallest residual volume first", "XLL21 VI-2", "",
                   _xll21(SRVF), fam),
        PolicyInfo("svf", "smallest volume first", "XLL21 VI-2", "", _xll21(SVF), fam),
        PolicyInfo("srf", "smallest resource (cores) first", "XLL21 VI-2", "",
                   _xll21(SRF), fam),
        PolicyInfo("fair", "equal rates for every present job (round robin)",
                   "XLL21 II-C, Example 1, Table I", "", _xll21(Fair), fam),
        PolicyInfo("ocorp-mapreduce", "OCORP on dummy map and reduce jobs (P5 weights, "
                   "eq. (44) targets); Python API: needs theory.mapreduce.MapReduceJobs",
                   "XLL21 V", "jobs (MapReduceJobs), " + dual, _xll21(OCORPMapReduce), fam,
                   ("jobs", *DUAL)),
    ]


def _pg18(cls_name: str, **fixed: Any) -> Callable[..., Any]:
    def make(**params: Any) -> Any:
        from policies import continuous

        return getattr(continuous, cls_name)(**{**fixed, **params})
    return make


def _pg18_policies() -> list[PolicyInfo]:
    fam = "pg18-continuous"
    rms = ("clock_rates (default L per type), epsilon (0.1), f ('log' or 'log-power'), "
           "b (0.5)")
    RMS = ("clock_rates", "clock_scale", "epsilon", "f", "b", "weights")
    out = [
        PolicyInfo("rms", "RMS: uniform server sampling at clock ticks, probabilistic "
                   "replacement 1 - exp(-w_j), dummy jobs", "PG18 Algorithm 1, Thm. 1",
                   rms, _pg18("RMS", name="rms"), fam, RMS),
        PolicyInfo("rms-plus", "RMS whose arrivals replace dummy jobs (less wasteful)",
                   "PG18 Remark 2", rms, _pg18("RMS", replace_dummies=True,
                                                name="rms-plus"), fam, RMS),
        PolicyInfo("rms-jsq", "RMS with per-server queues, join-the-shortest-queue routing",
                   "PG18 Algorithm 2, Thm. 2", rms, _pg18("RMS", routing="jsq",
                                                         name="rms-jsq"), fam, RMS),
        PolicyInfo("rms-po2", "RMS with per-server queues, power-of-two-choices routing",
                   "PG18 Remark 4", rms, _pg18("RMS", routing="power-of-two",
                                               name="rms-po2"), fam, RMS),
    ]
    for pick, tag in (("uniform", ""), ("random-fit", "-rf"), ("best-fit", "-bf")):
        for ad in (False, True):
            for plus in (False, True):
                name = "rms" + tag + ("-ad" if ad else "") + ("-plus" if plus else "")
                if name in ("rms", "rms-plus"):
                    continue
                scale = 5.0 if plus and ad and pick == "random-fit" else 1.0
                what = ", ".join(x for x in (
                    {"random-fit": "Random-Fit server choice", "best-fit": "Best-Fit server "
                     "choice", "uniform": ""}[pick], "adaptive clocks" if ad else "",
                    "arrivals replace dummies" if plus else "",
                    "clocks 5x faster" if scale != 1 else "") if x)
                out.append(PolicyInfo(
                    name, "RMS with " + what, "PG18 Sec. VI" + (", Remark 2" if plus else "")
                    + (", Sec. VII-A.3 (RMS-RF-AD+)" if scale != 1 else ""),
                    rms + ", clock_scale" + (" (5)" if scale != 1 else " (1)"),
                    _pg18("RMS", sampling=pick, adaptive=ad, replace_dummies=plus,
                          clock_scale=scale, name=name), fam, RMS))
    out += [
        PolicyInfo("bf", "work-conserving Best-Fit: tightest server; freed resources go to "
                   "the queues in type order", "PG18 Sec. III, Def. 1, Fig. 1b", "",
                   _pg18("BestFit", order="type", name="bf"), fam),
        PolicyInfo("bf-fifo", "work-conserving Best-Fit, freed resources to the earliest "
                   "queued job", "PG18 Sec. III, Def. 1", "",
                   _pg18("BestFit", order="arrival", name="bf-fifo"), fam),
        PolicyInfo("bf-largest", "work-conserving Best-Fit, freed resources to the largest "
                   "queued job", "PG18 Sec. III, Def. 1", "",
                   _pg18("BestFit", order="largest", name="bf-largest"), fam),
        PolicyInfo("mwr", "MaxWeight per server, target renewed when the server empties",
                   "PG18 Sec. I-A, VII-A.3 ([18])", "", _pg18("MaxWeightServers",
                                                              stop_fraction=0.0), fam),
        PolicyInfo("mws", "MaxWeight per server, stopped while its target is worth less than "
                   "beta of the max weight", "PG18 Sec. I-A, VII-A.3 ([19])",
                   "stop_fraction (beta, default 0.9)", _pg18("MaxWeightServers"), fam,
                   ("stop_fraction", "cache_size")),
    ]
    return out


def _fl24(cls_name: str, **fixed: Any) -> Callable[..., Any]:
    def make(**params: Any) -> Any:
        from policies import nonpreemptive

        return getattr(nonpreemptive, cls_name)(**fixed, **params)
    return make


def _fl24_policies() -> list[PolicyInfo]:
    fam = "fl24-nonpreemptive"
    mris = ("eps (0.1), sort (wsjf), gamma0 (the smallest processing time), capacity_rule "
            "('proof': R M gamma_k, or 'printed': R gamma_k), max_dp_cells (CADP's budget; "
            "given, CADP is kept strictly)")
    MRIS = ("eps", "sort", "gamma0", "capacity_rule", "max_dp_cells")
    sorts = {"svf": "smallest volume p_j u_j first", "sjf": "shortest job first",
             "sdf": "smallest total demand u_j first"}
    out = [
        PolicyInfo("mris", "MRIS: geometric intervals gamma_k = p_min 2^k, CADP knapsack of "
                   "the volumes (the split knapsack above CADP's table budget), PQ with "
                   "backfilling", "FL24 Algorithm 1, Thm. 6.8", mris,
                   _fl24("MRIS", knapsack="auto", name="mris"), fam, MRIS),
        PolicyInfo("mris-greedy", "MRIS with the greedy knapsack (2 zeta)",
                   "FL24 Remark 1, Sec. 7.4", mris, _fl24("MRIS", knapsack="greedy",
                                                          name="mris-greedy"), fam, MRIS[1:-1]),
        PolicyInfo("mris-split", "MRIS with a large/small split knapsack, CADP's guarantee "
                   "in O(n log n) when M >= 2/eps (then the same as mris-greedy)",
                   "FL24 Sec. 5.1 (any constraint "
                   "approximation)", mris, _fl24("MRIS", knapsack="split",
                                                  name="mris-split"), fam, MRIS),
    ]
    for sort in ("svf", "wsvf", "sjf", "wsjf", "sdf", "wsdf", "erf"):
        base = sorts.get(sort.removeprefix("w"), "earliest release first")
        what = (f"weighted {base} (divided by w_j)" if sort.startswith("w") else base)
        out.append(PolicyInfo(f"pq-{sort}", f"PRIORITY-QUEUE, {what}: start what fits at "
                              f"every event", "FL24 Sec. 4, Sec. 7.3", "",
                              _fl24("PriorityQueue", sort=sort, name=f"pq-{sort}"), fam))
    out += [
        PolicyInfo("tetris", "TETRIS, non-preemptive: alignment score minus eps times "
                   "volume", "FL24 Sec. 7.2 ([11])", "eps (1)", _fl24("Tetris"), fam,
                   ("eps",)),
        PolicyInfo("bf-exec", "BF-EXEC: arrivals to the best-fit machine (L2 norm), "
                   "departures backfilled shortest first", "FL24 Sec. 7.2 ([21])", "",
                   _fl24("BFExec"), fam),
        PolicyInfo("ca-pq", "COLLECT-ALL-PQ: wait for the last release, then PQ (WSJF)",
                   "FL24 Sec. 7.2", "sort (wsjf)", _fl24("CollectAllPQ"), fam, ("sort",)),
    ]
    return out


POLICIES: dict[str, PolicyInfo] = {p.name: p for p in [
    PolicyInfo("bf-j", "Best-Fit, job's perspective, every slot", "PG21 IV-A", "",
               _law_free(BFJ)),
    PolicyInfo("bf-s", "Best-Fit, server's perspective, every slot", "PG21 IV-A", "",
               _law_free(BFS)),
    PolicyInfo("bf-js", "BF-S on servers with a departure, then BF-J on new jobs",
               "PG21 IV-A, Thm. 2", "", _law_free(BFJS)),
    PolicyInfo("vqs", "virtual queues on the universal partition, K_RED configurations",
               "PG21 V-B, Thm. 3, Cor. 1", "J (default: Cor. 1 with eps=0.01, or the "
               "smallest job), small_jobs ('rounded' per V-A, or 'actual'), hol ('skip' "
               "or 'stop')", _vqs),
    PolicyInfo("vqs-bf", "VQS with largest-fit and BF-S fill", "PG21 VI, Thm. 4",
               "J, small_jobs (as vqs)", _vqsbf),
    PolicyInfo("fifo-ff", "FIFO with First-Fit, strict head-of-line blocking",
               "PG21 VII-B", "", _law_free(FIFOFF)),
    PolicyInfo("fifo-ff-skip", "FIFO with First-Fit, skipping jobs that fit nowhere",
               "PG21 VII-B (variant)", "", _law_free(FIFOFF, skip=True)),
    PolicyInfo("maxweight", "MaxWeight over all configurations of a partition, renewed "
               "when a server empties", "PG21 III, Thm. 1", "partition (default: atoms of a "
               "discrete law, else the quantile partition X^(levels))", _maxweight),
    *_xll21_policies(),
    *_pg18_policies(),
    *_fl24_policies(),
]}


def available_policies() -> list[str]:
    """Registered policy names, the four families' in registry order.

    Returns
    -------
    list of str
        Every name :func:`make_policy` accepts (lower-case, hyphenated): PG21 slotted,
        XLL21 preemptive, PG18 continuous, then FL24 non-preemptive policies.

    References
    ----------
    docs/design.md, section The four families (``POLICIES``).

    Examples
    --------
    >>> import policies
    >>> names = policies.available_policies()
    >>> len(names), names[:4]
    (50, ['bf-j', 'bf-s', 'bf-js', 'vqs'])
    """
    return list(POLICIES)


def policies_of(family: str) -> list[str]:
    """The names of one family's policies.

    Parameters
    ----------
    family : str
        A key of :data:`FAMILIES`: ``"pg21-slotted"``, ``"pg18-continuous"``,
        ``"xll21-preemptive"`` or ``"fl24-nonpreemptive"``.

    Returns
    -------
    list of str
        The family's registered names, in registry order.

    Raises
    ------
    ValueError
        An unknown family.

    References
    ----------
    docs/design.md, section The four families.

    Examples
    --------
    >>> import policies
    >>> policies.policies_of("pg21-slotted")
    ['bf-j', 'bf-s', 'bf-js', 'vqs', 'vqs-bf', 'fifo-ff', 'fifo-ff-skip', 'maxweight']
    >>> len(policies.policies_of("pg18-continuous"))
    19
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; known: {', '.join(FAMILIES)}")
    return [n for n, p in POLICIES.items() if p.family == family]


def slotted_parameters(name: str) -> tuple[str, ...]:
    """The keyword parameters :func:`make_policy` accepts for a PG21 slotted policy.

    Besides ``dist`` and ``capacity``; other families' constructors check their own
    keywords.

    Parameters
    ----------
    name : str
        A registered PG21 slotted policy name (``policies_of("pg21-slotted")``).

    Returns
    -------
    tuple of str
        The keywords of the policy's factory (empty for a policy without parameters).

    Raises
    ------
    ValueError
        An unknown name, or a policy of another family.

    References
    ----------
    docs/design.md, section Policies and options.

    Examples
    --------
    >>> import policies
    >>> policies.slotted_parameters("vqs"), policies.slotted_parameters("bf-js")
    (('J', 'eps', 'small_jobs', 'hol'), ())
    >>> policies.slotted_parameters("rms")
    Traceback (most recent call last):
    ...
    ValueError: rms is a pg18-continuous policy, not a PG21 slotted one
    """
    try:
        info = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}{did_you_mean(name, POLICIES)}; "
                         f"known: {', '.join(POLICIES)}") from None
    if info.family != "pg21-slotted":
        raise ValueError(f"{name} is a {info.family} policy, not a PG21 slotted one")
    return info.keywords


def make_policy(name: str, *, dist: SizeDistribution | None = None, capacity: object = 1,
                **params: Any) -> Any:
    """The built-in policy called ``name`` (see :data:`POLICIES` for parameters).

    ``dist`` is the size law in the units of ``capacity`` (identical servers); policies
    that derive a partition from it (vqs, vqs-bf, maxweight) see it on a unit server.
    A parameter the policy does not take is an error, not silently dropped.

    Parameters
    ----------
    name : str
        A registered name (:func:`available_policies`); the name decides the family.
    dist : theory.SizeDistribution, optional
        PG21 only: the size law, from which vqs and vqs-bf choose J (Cor. 1, eps
        from ``eps``, 0 for a discrete law) and maxweight its partition (the atoms of
        a discrete law, else the quantile partition of ``levels`` levels). Ignored by
        the other PG21 policies; refused by the other families.
    capacity : int, float or Fraction, optional
        PG21 only (ignored by the other families): the capacity of the identical
        servers, in the units of ``dist`` (default 1; a law with a density needs 1).
    **params
        The policy's own keywords (:func:`slotted_parameters` for PG21,
        ``POLICIES[name].keywords`` for every family).

    Returns
    -------
    Policy
        The policy object, of its family's base class.

    Raises
    ------
    ValueError
        An unknown name; a keyword the policy does not take; a ``dist`` for a policy
        of another family; a ``capacity`` that is not a positive number, or not 1 with
        a law that is not discrete; maxweight with neither ``partition`` nor ``dist``,
        or a negative ``levels``; parameter values the policy's constructor refuses.
    theory.budgets.BudgetExceeded
        (a ``ValueError``) maxweight's configurations exceed ``max_configurations``.

    References
    ----------
    docs/design.md, sections The four families and Policies and options; each
    policy's reference is in ``POLICIES[name].reference``.

    Examples
    --------
    The sizes of PG21 Fig. 3b on servers of capacity 10: 0.2 and 0.5 of a server, so
    VQS takes J = 3 (every size above 1/2^3, Thm. 3).

    >>> from fractions import Fraction
    >>> import policies, theory
    >>> sizes = theory.Discrete([Fraction(2), Fraction(5)], [Fraction(2, 3), Fraction(1, 3)])
    >>> policies.make_policy("vqs", dist=sizes, capacity=10)
    VQS(J=3, small_jobs='rounded', hol='skip')
    >>> policies.make_policy("bf-js", J=3)
    Traceback (most recent call last):
    ...
    ValueError: bf-js takes no parameter 'J' (parameters: none)
    >>> policies.make_policy("mris", eps=0.2).family
    'fl24-nonpreemptive'
    """
    try:
        info = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}{did_you_mean(name, POLICIES)}; "
                         f"known: {', '.join(POLICIES)}") from None
    if info.family != "pg21-slotted":
        if dist is not None:
            what = ("its jobs come in finite types (policies.JobTypes), not from a size law"
                    if info.family == "pg18-continuous" else
                    "it schedules a finite job set (packsched schedule), not jobs drawn "
                    "from a size law")
            raise ValueError(f"{name} is a {info.family} policy: {what}")
    unknown = sorted(set(params) - set(info.keywords))
    if unknown:
        raise ValueError(f"{name} takes no parameter {', '.join(map(repr, unknown))} "
                         f"(parameters: {', '.join(info.keywords) or 'none'})")
    if info.family != "pg21-slotted":
        return info.factory(**params)
    cap = to_number(capacity, name="capacity")
    if not cap > 0:
        raise ValueError(f"capacity must be positive, got {capacity!r}")
    if dist is not None and cap != 1:
        if not isinstance(dist, Discrete):
            raise ValueError("a continuous size law lives on (0, 1]: use capacity 1")
        dist = dist.scaled(1 / Fraction(cap))
    return info.factory(dist=dist, **params)
