"""Theorem 1 brackets: upper- and lower-rounded rho*(X) around rho* (PG21 Sec. III-B, VIII-A).

For any partition X of the size axis, rounding every type-j size up to sup X_j can
only make packing harder and rounding down to inf X_j only easier, so

.. math::  \\bar\\rho^*(X) \\le \\rho^* \\le \\underline\\rho^*(X)

(PG21 Thm. 1, first step of its proof). Along the quantile partitions X^(n)
(:func:`theory.partitions.quantile_partition`) the two sides converge monotonically;
for a continuous F_R and the paper's X^(n) they obey identity (40)-(41).
Lower-rounded types of size 0 (the cell at 0) take no room and are dropped, as in
PG21 eq. (32). Each side is a finite-type rho* with its own certificate; a bracket is
reported from the certified ends (``lower.lower`` and ``upper.upper``, or Lemma 2).

Each end is proven by its own re-checked half of a certificate, however the LP's solve
ended (at its optimum, a target, the time limit or the pricing budget): the lower end
by the mixture (any feasible mixture of the max-LP proves a lower bound), the upper end
by the dual prices (no feasible configuration worth more than its class bound) or by
Lemma 2. A bracket is certified when both ends are (:func:`lower_end_proven`,
:func:`upper_end_proven`); it does not say rho* is known, only that it lies between.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from capacity.configuration_lp import ConfigurationLP, solve_configuration_lp
from capacity.configuration_model import _num
from capacity.deadline import expired
from capacity.result import CapacityResult, _short_num, lemma2_cap
from theory.bounds import mean_size_bound
from theory.budgets import MAX_LP_TYPES, check_budget
from theory.distributions import Discrete, SizeDistribution
from theory.numbers import Number, positive_int, server_count, short_repr, to_float_checked
from theory.partitions import Partition, grid_partition, quantile_partition, type_probabilities
from theory.progress import Progress

__all__ = ["Bracket", "require_distribution", "rounded_rho_star", "partition_bracket",
           "quantile_brackets", "grid_bracket", "choose_grid", "grid_name",
           "lower_end_proven", "upper_end_proven", "ends_unproven", "LEMMA2"]

#: ``Bracket.upper_from`` when PG21 Lemma 2 (rho* <= L / R-bar) is the upper end.
LEMMA2 = "PG21 Lemma 2"


@dataclass(frozen=True, repr=False)
class Bracket:
    """``rho*`` bracketed for one partition X: the upper- and lower-rounded LPs of PG21 Thm. 1.

    The interval ``[lo, hi]`` holds ``rho*`` of the size law: ``lo`` is the proven
    lower end of the upper-rounded LP's optimum (sizes rounded up to ``sup X_j``, a
    lower bound on ``rho*``), ``hi`` the proven upper end of the lower-rounded LP's
    optimum (sizes rounded down to ``inf X_j``, an upper bound on ``rho*``), or PG21
    Lemma 2's ``L / R-bar`` when that is smaller. Returned by :func:`partition_bracket`,
    :func:`quantile_brackets` and :func:`grid_bracket`; frozen.

    Parameters
    ----------
    partition : Partition or str
        The partition X (a :class:`theory.Partition`), or for a grid of
        :func:`grid_bracket` over a discrete law its name, e.g. ``"grid(1/400)"``.
    lower : CapacityResult
        The upper-rounded LP (PG21 Def. 4): its ``lower`` end is the bracket's ``lo``.
    upper : CapacityResult
        The lower-rounded LP (PG21 Def. 4): its ``upper`` end is the bracket's ``hi``
        unless Lemma 2 is smaller.
    lemma2 : Fraction, float or None, default None
        PG21 Lemma 2's bound ``L / R-bar`` (servers over the mean size, sizes in
        fractions of a server; for vector sizes the smallest over the resources),
        another upper bound on ``rho*``; None: not used.

    See Also
    --------
    partition_bracket, quantile_brackets, grid_bracket

    Notes
    -----
    Properties (all read from the two LPs, nothing is solved again):

    - ``lo``, ``hi``: the ends of the bracket, workloads ``lambda / mu`` (Fractions for
      exact inputs). ``upper_from`` says where ``hi`` comes from:
      ``"lower-rounded LP"`` or ``"PG21 Lemma 2"`` (:data:`LEMMA2`).
    - ``gap``: the relative width ``(hi - lo) / hi``, a float.
    - ``certified``: True when both ends are proven, i.e. ``lo`` by the upper-rounded
      LP's re-checked mixture (:func:`lower_end_proven`: a check that failed leaves
      0) and ``hi`` either by PG21 Lemma 2 or by the lower-rounded LP's re-checked
      dual prices (:func:`upper_end_proven`: a check that failed leaves ``inf``).
      The ends stay proven however each solve ended (at its optimum, at a target
      set by ``rtol``, at the time limit or on the pricing budget), so a bracket can
      be certified while ``lower.certified`` or ``upper.certified`` is False. It
      certifies ``lo <= rho* <= hi``, not that ``rho*`` is known: the width is
      ``gap``, which only finer partitions close.
    - ``uncertified_reason``: which end is not proven and why, None when certified.
    - ``name``: the partition's name; ``as_dict()``: the numbers as plain values.

    References
    ----------
    PG21, Sec. III-B, Def. 4 (rounded VQs) and Thm. 1, whose proof (Sec. VIII-A)
    starts from ``rho-bar*(X) <= rho* <= rho-underbar*(X)`` for every partition X;
    PG21, Sec. IV-B, Lemma 2 (``rho* <= L / R-bar``).

    Examples
    --------
    >>> from capacity import partition_bracket
    >>> from theory import Uniform, quantile_partition
    >>> law = Uniform("1/5", "3/5")
    >>> b = partition_bracket(law, quantile_partition(law, 2))
    >>> b
    Bracket(quantile(n=2, tight), interval=[96/41, 5/2], certified=True,
            upper_from='PG21 Lemma 2', types=8/8, method='enumerate')
    >>> b.lo, b.hi, round(b.gap, 4)
    (Fraction(96, 41), Fraction(5, 2), 0.0634)
    >>> b.upper.upper, b.lemma2   # the lower-rounded LP's 8/3, capped by L / R-bar
    (Fraction(8, 3), Fraction(5, 2))
    """

    partition: Partition | str
    lower: CapacityResult  # upper-rounded VQs: a lower bound on rho*
    upper: CapacityResult  # lower-rounded VQs: an upper bound on rho*
    lemma2: Number | None = None  # L / R-bar (PG21 Lemma 2), another upper bound

    def __repr__(self) -> str:
        return (f"Bracket({self.name}, interval=[{_short_num(self.lo)}, {_short_num(self.hi)}], "
                f"certified={self.certified}, upper_from={self.upper_from!r}, "
                f"types={len(self.lower.sizes)}/{len(self.upper.sizes)}, "
                f"method={self.lower.method!r})")

    @property
    def name(self) -> str:
        return self.partition if isinstance(self.partition, str) else self.partition.name

    @property
    def upper_from(self) -> str:
        capped = lemma2_cap(self.lo, self.upper.upper, self.lemma2)[1]
        return LEMMA2 if capped else "lower-rounded LP"

    @property
    def lo(self) -> Number:
        """Certified lower bound on rho*."""
        return self.lower.lower

    @property
    def hi(self) -> Number:
        """Certified upper bound on rho*: the lower-rounded LP, or Lemma 2 if smaller."""
        return lemma2_cap(self.lo, self.upper.upper, self.lemma2)[0]

    @property
    def gap(self) -> float:
        """Relative width (hi - lo) / hi."""
        return (float(self.hi) - float(self.lo)) / float(self.hi)

    @property
    def certified(self) -> bool:
        """Both ends are proven: ``lo`` by the upper-rounded LP's re-checked mixture,
        ``hi`` by the lower-rounded LP's re-checked prices or by Lemma 2, however each
        solve ended (a target, the time limit or the pricing budget leave a proven,
        only untightened, end)."""
        return self.uncertified_reason is None

    @property
    def uncertified_reason(self) -> str | None:
        """Which end is not proven and why (:func:`ends_unproven`); None if certified."""
        return ends_unproven(self.lower, self.upper, self.upper_from)

    def as_dict(self) -> dict:
        return {
            "partition": self.name,
            "cells": None if isinstance(self.partition, str) else len(self.partition),
            "lower": float(self.lo),
            "upper": float(self.hi),
            "rho_upper_rounded": self.lower.value,
            "rho_lower_rounded": self.upper.value,
            "upper_from": self.upper_from,
            "relative_gap": self.gap,
            "certified": self.certified,
            "uncertified_reason": self.uncertified_reason,
            "seconds": self.lower.seconds + self.upper.seconds,
        }


def require_distribution(dist: object, name: str = "dist", *,
                         discrete: bool = False) -> SizeDistribution:
    """``dist`` if it is a size distribution (a :class:`Discrete` when ``discrete``),
    else ``TypeError`` saying how to write one."""
    want = Discrete if discrete else SizeDistribution
    if isinstance(dist, want):
        return dist
    kind = "a Discrete distribution" if discrete else "a size distribution"
    if isinstance(dist, list | tuple | np.ndarray):
        got = f"a {type(dist).__name__} of numbers"
        write = f"Discrete({short_repr(list(dist))})"
    else:
        got, write = f"{short_repr(dist)} ({type(dist).__name__})", "Discrete([0.4, 0.6])"
    raise TypeError(f"{name} must be {kind}, got {got}; pass {write}"
                    + ("" if discrete else " or Uniform(\"0.1\", \"0.9\")"))


def rounded_rho_star(
    dist: SizeDistribution,
    partition: Partition,
    rounding: str,
    *,
    servers: int = 1,
    method: str = "auto",
    max_types: int = MAX_LP_TYPES,
    warm_start: CapacityResult | None = None,
    target: float | None = None,
) -> CapacityResult:
    """rho* of the upper- (``"up"``) or lower-rounded (``"down"``) VQs of X (Def. 4).

    ``warm_start``: the same side on a partition X refines (its columns and prices
    start column generation); ``target``: stop once a checked mixture reaches it (see
    :func:`capacity.configuration_lp.solve_configuration_lp`).
    """
    if rounding not in ("up", "down"):
        raise ValueError("rounding must be 'up' or 'down'")
    server_count(servers)
    require_distribution(dist)
    if not isinstance(partition, Partition):
        raise TypeError(f"partition must be a Partition, got {type(partition).__name__}")
    keys, probs = _rounded_law(dist, partition, rounding)
    lp = ConfigurationLP.build(keys, probs, [(1, servers)])
    warm = warm_start if warm_start is not None and _coarser(warm_start, keys) else None
    return solve_configuration_lp(lp, method=method, max_types=max_types, warm_start=warm,
                                  target=target)


def _rounded_law(dist: SizeDistribution, partition: Partition, rounding: str
                 ) -> tuple[list[Number], list[Number]]:
    """Sizes and probabilities of the upper- or lower-rounded VQs (types of size 0
    dropped, PG21 eq. (32))."""
    probs = type_probabilities(dist, partition)
    sizes = partition.upper_sizes if rounding == "up" else partition.lower_sizes
    merged: dict[Number, Number] = {}
    for s, p in zip(sizes, probs, strict=True):
        if p > 0 and s > 0:
            merged[s] = merged.get(s, 0) + p
    if not merged:
        raise ValueError("every type rounds to size 0: rho* is unbounded for this partition")
    keys = sorted(merged)
    return keys, [merged[k] for k in keys]


def _coarser(res: CapacityResult, sizes: list[Number]) -> bool:
    """Every type of ``res`` is among ``sizes`` (it solved a coarser partition)."""
    have = set(sizes)
    return all(s in have for s in res.sizes)


def partition_bracket(dist: SizeDistribution, partition: Partition, *, servers: int = 1,
                      method: str = "auto", max_types: int = MAX_LP_TYPES,
                      warm_start: Bracket | None = None,
                      rtol: float | None = None) -> Bracket:
    """Both sides of PG21 Thm. 1 for one partition X: ``rho*`` between two finite-type LPs.

    The upper-rounded LP (every size of cell X_j taken as ``sup X_j``) gives the lower
    end, the lower-rounded LP (``inf X_j``; cells that round to 0 take no room and are
    dropped, PG21 eq. (32)) the upper end. The upper end is also capped by Lemma 2,
    ``rho* <= L / R-bar``, which is exact for distributions that pack perfectly. Each
    LP is certified on its own (:func:`capacity.certify`); exact laws and cut points
    (Fractions) give Fraction ends.

    Parameters
    ----------
    dist : SizeDistribution
        The size law (:class:`theory.Discrete`, :class:`theory.Uniform`, a density...),
        scalar sizes as fractions of a server (in (0, 1]).
    partition : Partition
        The partition X of the sizes (e.g. :func:`theory.quantile_partition`,
        :func:`theory.grid_partition`); its cells must hold all of the probability.
    servers : int, default 1
        Number L of identical unit servers.
    method : {"auto", "enumerate", "column-generation"}, default "auto"
        How each LP is solved, as in :func:`capacity.solve_configuration_lp`.
    max_types : int, default MAX_LP_TYPES
        Budget on the job types (cells with probability) of each LP
        (:mod:`theory.budgets`).
    warm_start : Bracket or None, default None
        The bracket of a partition this one refines; each side starts from the same
        side there (same optimum, fewer column-generation rounds).
    rtol : float or None, default None
        The bracket is wanted only to this relative gap, in [0, 1), so each LP is
        solved only as far as that needs; both ends stay proven. None: both LPs are
        solved to their optimum. See Notes.

    Returns
    -------
    Bracket
        ``lo <= rho* <= hi``, with ``certified`` True when both ends are proven (the
        upper end possibly by Lemma 2; see :class:`Bracket`).

    Raises
    ------
    TypeError
        If ``dist`` is not a size distribution or ``partition`` not a
        :class:`theory.Partition`.
    ValueError
        If ``servers`` is not a positive integer, ``method`` is unknown, ``rtol`` is
        not a finite number in [0, 1), the sizes are vectors, the cells miss some of
        the probability, or every cell rounds down to size 0 (the lower-rounded
        ``rho*`` is then unbounded).
    theory.budgets.BudgetExceeded
        (a ``ValueError``) If a side has more than ``max_types`` job types; nothing is
        solved.
    capacity.LPSolveError
        When HiGHS fails on a master LP.

    See Also
    --------
    quantile_brackets : the brackets over the quantile partitions X^(n).
    grid_bracket : the brackets on a grid of 1/G, also for vector sizes.

    Notes
    -----
    With ``rtol`` the lower-rounded LP (solved first) stops once a checked mixture
    supports Lemma 2, which then is the upper end ``hi``. The upper-rounded LP stops
    once its mixture reaches ``(1 - rtol) hi``; if even its own Lemma 2 bound b (L over
    the rounded mean, which bounds it) is short of that, this partition cannot close the
    bracket (a finer one is needed), and it stops within ``max(rtol, g / 10) / 2`` of
    b, where ``g = 1 - b / hi`` is the gap that rounding alone leaves: the bracket is
    then at most about g / 20 wider than the best this partition can give.

    References
    ----------
    PG21, Sec. III-B, Def. 4 (upper- and lower-rounded VQs) and Thm. 1: the first
    step of its proof (Sec. VIII-A) is ``rho-bar*(X) <= rho* <= rho-underbar*(X)``
    for every partition X; Sec. VIII-A, eq. (32) (types rounded to 0 dropped);
    Sec. IV-B, Lemma 2 (``rho* <= L / R-bar``).

    Examples
    --------
    Sizes uniform on [1/5, 3/5] (mean 2/5, so Lemma 2 gives ``rho* <= 5/2``), first on
    X^(1), then on X^(2), which refines it:

    >>> from capacity import partition_bracket
    >>> from theory import Uniform, quantile_partition
    >>> law = Uniform("1/5", "3/5")
    >>> coarse = partition_bracket(law, quantile_partition(law, 1))
    >>> coarse.lo, coarse.hi, coarse.upper_from, coarse.certified
    (Fraction(24, 11), Fraction(5, 2), 'PG21 Lemma 2', True)
    >>> fine = partition_bracket(law, quantile_partition(law, 2), warm_start=coarse)
    >>> fine.lo, fine.hi, round(fine.gap, 4)
    (Fraction(96, 41), Fraction(5, 2), 0.0634)
    >>> partition_bracket(law, quantile_partition(law, 2), rtol=1)
    Traceback (most recent call last):
    ...
    ValueError: rtol must be in [0, 1), got 1
    """
    up_warm = None if warm_start is None else warm_start.lower
    down_warm = None if warm_start is None else warm_start.upper

    def side(rounding: str, target: float | None, warm: CapacityResult | None
             ) -> CapacityResult:
        return rounded_rho_star(dist, partition, rounding, servers=servers, method=method,
                                max_types=max_types, target=target, warm_start=warm)

    def up_mean() -> Number:
        keys, probs = _rounded_law(dist, partition, "up")
        return sum(k * p for k, p in zip(keys, probs, strict=True))

    lemma2 = mean_size_bound(servers, dist)
    lower, upper = _two_sides(
        lambda target, warm: side("up", target, warm if warm is not None else up_warm),
        lambda target: side("down", target, down_warm),
        lemma2, lambda: mean_size_bound(servers, up_mean()), rtol)
    return Bracket(partition, lower, upper, lemma2)


def _two_sides(up: Callable[[float | None, CapacityResult | None], CapacityResult],
               down: Callable[[float | None], CapacityResult], lemma2: Number,
               reach: Callable[[], Number], rtol: float | None
               ) -> tuple[CapacityResult, CapacityResult]:
    """The upper- and lower-rounded LPs of a bracket, each solved only as far as
    ``rtol`` needs (see :func:`partition_bracket`); ``up(target, warm)`` and
    ``down(target)`` solve a side, ``reach()`` is Lemma 2 of the upper-rounded law."""
    if rtol is None:
        return up(None, None), down(None)
    tol = _rtol(rtol)
    upper = down(float(lemma2))
    hi = min(float(upper.upper), float(lemma2))
    target = (1 - tol) * hi
    bound = float(reach())
    closes = bound >= target
    # rounding alone leaves a gap of at least 1 - bound / hi here: the LP's own error
    # is kept to a twentieth of that (and to rtol / 2)
    slack = max(tol, (1 - bound / hi) / 10) / 2
    lower = up(target if closes else bound * (1 - slack), None)
    if closes and lower.extra.get("stopped_at_target") and float(lower.lower) < target:
        # the exactly checked mixture fell short of the float one: solve to the optimum
        lower = up(None, lower)
    return lower, upper


def _rtol(rtol: object) -> float:
    tol = to_float_checked(rtol, "rtol")
    if not 0 <= tol < 1:
        raise ValueError(f"rtol must be in [0, 1), got {rtol}")
    return tol


def _checked(side: CapacityResult) -> bool:
    """The certificate was run on this answer (``certify_result=False`` leaves the
    solver's value as both ends, proven of nothing)."""
    return side.certified or "certificate not requested" not in side.message


def lower_end_proven(side: CapacityResult) -> bool:
    """``side.lower`` is a proven lower bound above 0 on the side's LP optimum.

    Any mixture of feasible configurations with weights summing to at most one per
    server class proves a lower bound of the max-LP, however the solve that found it
    ended: at its optimum, a target, the time limit or the pricing budget. The
    certificate re-checks the mixture (:func:`capacity.certificate.certify`); a failed
    check leaves ``lower = 0``, which proves nothing.
    """
    return _checked(side) and float(side.lower) > 0


def upper_end_proven(side: CapacityResult) -> bool:
    """``side.upper`` is a proven (finite) upper bound on the side's LP optimum.

    Weak duality: prices ``y >= 0`` under which no feasible configuration of class c is
    worth more than ``beta_c`` prove ``t* <= sum_c n_c beta_c / <y, d>``, whatever the
    prices are and however the solve that produced them ended; the certificate proves
    each ``beta_c`` by an exact knapsack of its own. A failed or incomplete dual check
    leaves ``upper = inf``.
    """
    return _checked(side) and math.isfinite(float(side.upper))


def ends_unproven(lower: CapacityResult, upper: CapacityResult,
                  upper_from: str = "lower-rounded LP") -> str | None:
    """Why the bracket ``[lower.lower, hi]`` is not certified (None when it is):
    ``lower`` is the upper-rounded LP, ``upper`` the lower-rounded one, ``upper_from``
    :data:`LEMMA2` when Lemma 2, not ``upper``'s prices, is the upper end ``hi``."""
    why = []
    if not lower_end_proven(lower):
        why.append(f"the lower end {_short_num(lower.lower)} (upper-rounded LP) is not "
                   f"proven: {lower.message or 'no certificate'}")
    if upper_from != LEMMA2 and not upper_end_proven(upper):
        why.append(f"the upper end {_short_num(upper.upper)} (lower-rounded LP) is not "
                   f"proven: {upper.message or 'no certificate'}")
    return "; ".join(why) or None


def side_proven(side: CapacityResult) -> bool:
    """Both ends of a bracket side's interval are proven (:func:`lower_end_proven`,
    :func:`upper_end_proven`), however its solve ended."""
    return lower_end_proven(side) and upper_end_proven(side)


def quantile_brackets(
    dist: SizeDistribution,
    levels: int,
    *,
    servers: int = 1,
    tight: bool = True,
    start: int = 0,
    rtol: float | None = None,
    max_types: int = MAX_LP_TYPES,
) -> list[Bracket]:
    """Brackets over the quantile partitions X^(start), ..., X^(levels) (PG21 VIII-A).

    Level n is :func:`partition_bracket` on :func:`theory.quantile_partition` X^(n),
    warm-started from level n - 1. X^(n+1) refines X^(n), so the upper-rounded optimum
    (the lower end) never decreases with n and the lower-rounded one never increases;
    for a continuous F_R both converge to ``rho*`` (PG21 Thm. 1), and on the paper's
    X^(n) (``tight=False``) they obey eq. (40)-(41). An atom is a singleton cell that
    is never rounded, so for a discrete law both sides are the LP of ``rho*`` itself
    (:func:`capacity.rho_star`). Stops early
    once a bracket's relative gap is at most ``rtol`` (if given), or when the time
    limit (:func:`capacity.time_limit`) has passed.

    Parameters
    ----------
    dist : SizeDistribution
        The size law, scalar sizes as fractions of a server (support within [0, 1]).
    levels : int
        The last level n >= ``start``. X^(n) has ``2^(n+1)`` cells (plus one per atom),
        each a job type of the level's LPs.
    servers : int, default 1
        Number L of identical unit servers.
    tight : bool, default True
        True: the outer cut points are the ends of the support (a much narrower
        bracket for laws that do not reach 0 or 1); False: 0 and 1, as in the paper.
    start : int, default 0
        The first level, a non-negative integer.
    rtol : float or None, default None
        Stop at the first level whose relative gap ``(hi - lo) / hi`` is at most this,
        in [0, 1); each LP is then solved only as far as that needs
        (:func:`partition_bracket`). None: every level to ``levels``, each LP to its
        optimum.
    max_types : int, default MAX_LP_TYPES
        Budget on the cells of X^(levels) and on the job types of each LP
        (:mod:`theory.budgets`).

    Returns
    -------
    list of Bracket
        One :class:`Bracket` per level solved, from X^(start) on; the last is the
        narrowest. Each ``certified`` when both its ends are proven (see
        :class:`Bracket`).

    Raises
    ------
    TypeError
        If ``dist`` is not a size distribution.
    ValueError
        If ``levels`` or ``start`` is not a non-negative integer, ``levels < start``,
        ``servers`` is not a positive integer, ``rtol`` is not a finite number in
        [0, 1), or the sizes are vectors or not within [0, 1].
    theory.budgets.BudgetExceeded
        (a ``ValueError``) If ``2^(levels+1)`` exceeds ``max_types``, before any work;
        also when a level's LP (atoms add cells) has more than ``max_types`` types.
    capacity.LPSolveError
        When HiGHS fails on a master LP.

    See Also
    --------
    partition_bracket : one partition.
    theory.quantile_partition : the partitions X^(n).
    theory.lower_from_upper_quantile : PG21 eq. (40).

    References
    ----------
    PG21, Sec. III-B, Thm. 1 and its proof in Sec. VIII-A: the partitions X^(n),
    ``rho-bar*(X) <= rho* <= rho-underbar*(X)``, eqs. (40)-(41) and the monotone
    convergence of both sides; Sec. IV-B, Lemma 2 (the cap ``L / R-bar``).

    Examples
    --------
    >>> from capacity import quantile_brackets
    >>> from theory import Uniform, lower_from_upper_quantile
    >>> law = Uniform("1/5", "3/5")
    >>> for b in quantile_brackets(law, 2):
    ...     print(b.name, b.lo, b.hi, b.upper_from, b.certified)
    quantile(n=0, tight) 2 5/2 PG21 Lemma 2 True
    quantile(n=1, tight) 24/11 5/2 PG21 Lemma 2 True
    quantile(n=2, tight) 96/41 5/2 PG21 Lemma 2 True

    With ``rtol`` the levels stop at the first gap of at most 5 %:

    >>> [(b.name, round(float(b.lo), 4), round(b.gap, 4))
    ...  for b in quantile_brackets(law, 6, rtol=0.05)][-1]
    ('quantile(n=3, tight)', 2.4189, 0.0324)

    On the paper's X^(n) (``tight=False``) the lower-rounded LP is eq. (40) of the
    upper-rounded one (here the lower-rounded 20/7 is above Lemma 2's 5/2):

    >>> b = quantile_brackets(law, 2, tight=False)[-1]
    >>> b.lower.lower, b.upper.upper, lower_from_upper_quantile(b.lower.lower, 1, 2**3)
    (Fraction(40, 19), Fraction(20, 7), Fraction(20, 7))
    """
    require_distribution(dist)
    for name, v in (("start", start), ("levels", levels)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {short_repr(v)}")
    if levels < start:
        raise ValueError(f"levels must be an integer >= start ({start}), got {levels!r}")
    server_count(servers)
    budget = positive_int(max_types, name="max_types")
    if rtol is not None:
        _rtol(rtol)
    cells = 2 ** (levels + 1) if levels < 1100 else math.inf
    check_budget(cells, budget, what=f"the quantile partition X^({levels})",
                 option="max_types", unit="cells",
                 hint=f"levels <= {max(0, budget.bit_length() - 2)} stays within it")
    out: list[Bracket] = []
    with Progress("quantile brackets", total=levels - start + 1, unit="levels") as prog:
        for i, n in enumerate(range(start, levels + 1)):
            b = partition_bracket(dist, quantile_partition(dist, n, tight=tight),
                                  servers=servers, max_types=budget, rtol=rtol,
                                  warm_start=out[-1] if out else None)
            out.append(b)
            prog.update(i + 1, note=f"X^({n}): [{float(b.lo):.6g}, {float(b.hi):.6g}]")
            if rtol is not None and b.gap <= rtol or expired():
                break
    return out


def grid_bracket(dist: SizeDistribution, grid: int | Sequence[int], *, servers: int = 1,
                 method: str = "auto", max_types: int = MAX_LP_TYPES,
                 rtol: float | None = None) -> Bracket:
    """``rho*`` bracketed on a grid of ``1/grid`` (capacity 1): PG21 Thm. 1 on grid cells.

    Every size (every resource of a vector size) is rounded up, resp. down, to a
    multiple of 1/grid: the partition of PG21 Thm. 1 into grid cells, which keeps each
    side a valid bound (rounding up only removes configurations, rounding down only adds
    them). Many types merge, and pricing becomes an exact dynamic program over the grid,
    so the two LPs are fast even for a trace with hundreds of distinct sizes. The upper
    end is also capped by Lemma 2 (in every resource). A side with more than
    ``max_types`` distinct rounded sizes is refused before its LP is built. ``rtol``:
    each LP is solved only as far as that relative gap needs (:func:`partition_bracket`).

    For vector sizes ``grid`` may give one resolution per resource, e.g. ``(800, 50)``:
    the resource that binds Lemma 2 needs a fine grid, the others far less
    (:func:`choose_grid` picks one for a budget of grid points).

    A scalar law with a density is bracketed on the grid cells ``((i-1)/G, i/G]`` over
    its support (:func:`partition_bracket` with :func:`theory.partitions.grid_partition`),
    refused before the cells are built when they exceed ``max_types``.

    Parameters
    ----------
    dist : SizeDistribution
        A :class:`theory.Discrete` law (scalar or vector sizes, each resource a
        fraction of a server), or a scalar law with a density.
    grid : int or sequence of int
        The resolution G (cells of width 1/G), or for vector sizes one resolution per
        resource, each a positive integer.
    servers : int, default 1
        Number L of identical unit servers.
    method : {"auto", "enumerate", "column-generation"}, default "auto"
        How each LP is solved, as in :func:`capacity.solve_configuration_lp`.
    max_types : int, default MAX_LP_TYPES
        Budget on the grid cells (a law with a density) or the distinct rounded sizes
        (a discrete law) of each side (:mod:`theory.budgets`).
    rtol : float or None, default None
        The bracket is wanted only to this relative gap, in [0, 1); None: both LPs
        are solved to their optimum.

    Returns
    -------
    Bracket
        ``lo <= rho* <= hi``; its ``partition`` is the name ``"grid(1/G)"`` (or
        ``"grid(1/G_1 x 1/G_2)"``) for a discrete law, the grid's
        :class:`theory.Partition` for a density. ``certified`` is True when both ends
        are proven, the upper one possibly by Lemma 2 (see :class:`Bracket`).

    Raises
    ------
    TypeError
        If ``dist`` is not a size distribution.
    ValueError
        If a resolution is not a positive integer or ``grid`` gives a number of them
        other than the sizes' resources; the grid is so coarse that every size rounds
        down to 0; a law with a density has vector sizes; ``servers`` is not a
        positive integer; ``method`` is unknown; or ``rtol`` is not a finite number
        in [0, 1).
    theory.budgets.BudgetExceeded
        (a ``ValueError``) If a side has more than ``max_types`` grid cells or
        distinct rounded sizes; refused before its LP is built.
    capacity.LPSolveError
        When HiGHS fails on a master LP.

    See Also
    --------
    choose_grid : per-resource resolutions for a budget of grid points.
    partition_bracket, quantile_brackets

    References
    ----------
    PG21, Sec. III-B, Thm. 1, first step of its proof (Sec. VIII-A): rounding every
    size of a cell up, resp. down, bounds ``rho*`` from below, resp. above, for any
    partition; Sec. IV-B, Lemma 2 (``rho* <= L / R-bar``, in every resource for vector
    sizes); PG18, Sec. II (vector sizes, one capacity per resource).

    Examples
    --------
    Sizes 0.31, 0.45 and 0.62: on the grid 1/10 they round to 0.4, 0.5, 0.7 and
    0.3, 0.4, 0.6; every size is a multiple of 1/100, so that grid gives ``rho*``:

    >>> from capacity import grid_bracket
    >>> from theory import Discrete
    >>> law = Discrete(["0.31", "0.45", "0.62"], ["1/2", "1/4", "1/4"])
    >>> grid_bracket(law, 10)
    Bracket(grid(1/10), interval=[8/5, 400/169], certified=True,
            upper_from='PG21 Lemma 2', types=3/3, method='enumerate')
    >>> b = grid_bracket(law, 100)
    >>> b.lo, b.hi, b.upper_from
    (Fraction(24, 11), Fraction(24, 11), 'lower-rounded LP')

    Two resources, a resolution for each:

    >>> two = Discrete([("0.5", "0.2"), ("0.3", "0.6")])
    >>> b = grid_bracket(two, (10, 20))
    >>> b.name, b.lo, b.hi
    ('grid(1/10 x 1/20)', Fraction(2, 1), Fraction(2, 1))
    """
    require_distribution(dist)
    gs = _resolutions(grid, dist.dim)
    if rtol is not None:
        _rtol(rtol)
    server_count(servers)
    budget = positive_int(max_types, name="max_types")
    if not isinstance(dist, Discrete):
        if dist.dim != 1:
            raise ValueError("grid_bracket of a law with a density needs scalar sizes")
        g = gs[0]
        lo, hi = (Fraction(v) for v in dist.support())
        check_budget(math.ceil(hi * g) - math.floor(lo * g), budget,
                     what=f"the grid 1/{g} over the support [{_num(lo)}, {_num(hi)}]",
                     option="max_types", unit="cells", hint="a coarser grid has fewer cells")
        return partition_bracket(dist, grid_partition(g, lo, hi), servers=servers,
                                 method=method, max_types=budget, rtol=rtol)
    sizes = dist.sizes if dist.dim > 1 else [(s,) for s in dist.sizes]
    caps = [1] * dist.dim if dist.dim > 1 else 1
    name = grid_name(gs)
    lps = []
    for up in (True, False):
        merged: dict[tuple, Number] = {}
        for s, p in zip(sizes, dist.probs, strict=True):
            r = tuple(_round_to_grid(v, g, up) for v, g in zip(s, gs, strict=True))
            if any(v > 0 for v in r):
                merged[r] = merged.get(r, 0) + p
        if not merged:
            big = max(max(s) for s in sizes)
            raise ValueError(f"grid {name} is too coarse for these sizes: every size rounds "
                             f"down to 0 (the largest is {_num(big)}); use a grid >= "
                             f"{math.ceil(1 / Fraction(big))}")
        check_budget(len(merged), budget, what=f"the grid {name} bracket (sizes rounded "
                     f"{'up' if up else 'down'})", option="max_types", unit="types",
                     hint="a coarser grid merges more sizes")
        keys = sorted(merged)
        lps.append(ConfigurationLP.build([list(k) for k in keys], [merged[k] for k in keys],
                                         [(1, servers)]))

    def up_mean() -> Number | list[Number]:
        mean = [sum(r[i] * p for r, p in zip(lps[0].rows, lps[0].demand, strict=True))
                for i in range(dist.dim)]
        return mean if dist.dim > 1 else mean[0]

    lemma2 = mean_size_bound(servers, dist, caps)
    lower, upper = _two_sides(
        lambda target, warm: solve_configuration_lp(lps[0], method=method, max_types=budget,
                                                    target=target, warm_start=warm),
        lambda target: solve_configuration_lp(lps[1], method=method, max_types=budget,
                                              target=target),
        lemma2, lambda: mean_size_bound(servers, up_mean(), caps), rtol)
    return Bracket(f"grid({name})", lower, upper, lemma2)


def grid_name(grid: Sequence[int]) -> str:
    """``1/400``, or ``1/800 x 1/50`` for one resolution per resource."""
    if len(set(grid)) == 1:
        return f"1/{grid[0]}"
    return " x ".join(f"1/{g}" for g in grid)


def _resolutions(grid: object, dim: int) -> tuple[int, ...]:
    """One grid resolution per resource from an int or a sequence of ``dim`` ints."""
    if isinstance(grid, Sequence | np.ndarray) and not isinstance(grid, str):
        if len(grid) != dim:
            raise ValueError(f"grid gives {len(grid)} resolutions for sizes with {dim} "
                             f"resource{'s' if dim > 1 else ''}")
        return tuple(positive_int(g, name="grid") for g in grid)
    return (positive_int(grid, name="grid"),) * dim


#: Resolutions :func:`choose_grid` considers in each resource (a 1-2-5 series, powers of
#: 2 and their multiples by 25: trace sizes are often k/2^j or round decimals).
_GRID_CANDIDATES = tuple(sorted({m * 10**e for e in range(1, 6) for m in (1, 2, 5)}
                                | {2**j for j in range(3, 17)}
                                | {25 * 2**j for j in range(0, 12)}))


def choose_grid(dist: Discrete, cells: int) -> tuple[int, ...]:
    """Per-resource grid resolutions with at most ``cells`` points ``(G_1+1)...(G_D+1)``
    whose sizes rounded up keep PG21 Lemma 2's bound ``1 / max_r E[ceil(S_r G_r) / G_r]``
    highest (fewest points on ties).

    That bound caps the rounded-up LP, the lower end of :func:`grid_bracket`, so a grid
    is worth its cells in the resource that binds it. On the Google 2011 two-resource
    trace, 40,851 points as 1/800 (CPU) x 1/50 (memory) keep the bound 0.3 % below the
    unrounded one; the square grid 1/200 of as many points loses 4.3 %.
    """
    require_distribution(dist, discrete=True)
    budget = positive_int(cells, name="cells")
    D = dist.dim
    if D > 4:
        raise ValueError(f"choose_grid searches at most 4 resources, the sizes have {D}")
    rows = dist.sizes if D > 1 else [(s,) for s in dist.sizes]
    S = np.array([[float(v) for v in s] for s in rows]).reshape(len(dist), D)
    P = np.array([float(p) for p in dist.probs])
    coarsest = _GRID_CANDIDATES[0] + 1
    fits = [g for g in _GRID_CANDIDATES if (g + 1) * coarsest ** (D - 1) <= budget]
    if not fits:
        raise ValueError(f"cells must be at least {coarsest ** D} for {D} resource(s) (a "
                         f"grid of 1/{coarsest - 1} in each), got {budget}")
    G = np.array(fits, dtype=float)
    # mean[r, i]: E[S_r] rounded up to the grid 1/G_i (a relative 1e-12 keeps exact
    # multiples of 1/G from rounding up in floating point)
    mean = np.stack([(np.ceil(np.outer(S[:, r], G) * (1 - 1e-12)) / G * P[:, None]).sum(0)
                     for r in range(D)])
    grids = np.stack(np.meshgrid(*([np.arange(len(fits))] * D), indexing="ij"), -1)
    grids = grids.reshape(-1, D)
    points = np.prod(G[grids] + 1, axis=1)
    # a budget beyond every candidate grid is no budget (and may not fit in a float)
    ok = points <= min(budget, (_GRID_CANDIDATES[-1] + 1) ** D)
    grids, points = grids[ok], points[ok]
    worst = np.max(mean[np.arange(D), grids], axis=1)
    best = np.lexsort((points, worst))[0]
    return tuple(int(fits[i]) for i in grids[best])


def _round_to_grid(v: Number, grid: int, up: bool) -> Fraction:
    x = Fraction(v) * grid
    n = math.ceil(x) if up else math.floor(x)
    return Fraction(n, grid)
