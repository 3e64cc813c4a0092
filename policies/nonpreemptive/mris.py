"""MULTI-RESOURCE INTERVAL SCHEDULING, MRIS (FL24 Sec. 5.3, Algorithm 1).

At gamma_k = gamma_0 2^k (k = 0, 1, ...): J_k = released, unplaced jobs with
p_j <= gamma_k (line 3); a knapsack P1 (Sec. 5.1) picks B_k in J_k of maximum weight
with volume sum v_j <= zeta_k (lines 4-5); PRIORITY-QUEUE list-schedules B_k from
gamma_k on, backfilling into the gaps of earlier plans (line 6, Sec. 5.2).

gamma_0: FL24 Sec. 3 scales the processing times by the smallest one ("without loss of
generality ... p_j >= 1") and then sets gamma_k = 2^k (Thm. 6.8: "since p_j >= 1, no
job can be completed before gamma_0"). In the input's own units that is gamma_0 =
p_min, the default; a given ``gamma0`` is kept (with gamma0 > p_min the theorem's
hypothesis p_j >= gamma_0 fails, and the result's ``params`` say which was used).

Knapsack capacity (line 4): the paper prints zeta_k = R gamma_k, but Lemma 6.5's proof
needs the volume the optimum can complete on M machines by gamma_k, R M gamma_k
(Lemma 6.2): with R gamma_k and M > 1, a set of weight W that the optimum completes by
gamma_k need not fit the knapsack (erratum FL24.Alg1.line4). ``capacity_rule="proof"``
(default) uses R M gamma_k, ``"printed"`` R gamma_k. Volumes are v_j = p_j sum_l d_jl
with demands as fractions of a machine; the machines must be identical.

Knapsack (line 5): CADP (Sec. 5.1) is an O(n^2 / eps) table per interval, 5.2e9 cells
at FL24's own downsampled scale (64,000 weighted jobs). ``knapsack="auto"`` (default)
runs CADP while its table is within the budget (``max_dp_cells``, default
:data:`capacity.volume_knapsack.MAX_DP_CELLS`) and otherwise the split knapsack, which
gives CADP's guarantee (weight >= OPT(zeta_k), volume <= (1 + eps) zeta_k), so
Thm. 6.8's argument is unchanged; each interval records the knapsack it used and
``params["knapsack_used"]`` lists them. ``knapsack="cadp"`` insists on CADP and refuses
above the budget, as does ``"auto"`` given an explicit ``max_dp_cells`` (a budget for
CADP's table is a request for CADP).
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from policies.nonpreemptive.policy import NonPreemptivePolicy
from policies.nonpreemptive.priority import SORTS, ordered, sort_key
from policies.nonpreemptive.state import ScheduleState
from theory.budgets import BudgetExceeded

__all__ = ["MRIS", "KNAPSACKS", "CAPACITY_RULES"]

KNAPSACKS = ("auto", "cadp", "greedy", "split", "exact")
CAPACITY_RULES = ("proof", "printed")


class MRIS(NonPreemptivePolicy):
    """MRIS, FL24 Algorithm 1: knapsacks of volume on doubling intervals, then PQ.

    At gamma_k = gamma_0 2^k (k = 0, 1, ...) it collects the released, unplaced jobs
    with p_j <= gamma_k (line 3), picks a set of at least the maximum weight whose
    volume sum_j p_j u_j fits the capacity zeta_k (lines 4-5, a constraint-approximate
    knapsack), and list-schedules it with PRIORITY-QUEUE from gamma_k on, backfilling
    into the gaps of earlier plans (line 6). The module docstring gives the choices
    the paper leaves open (gamma_0, the knapsack, the capacity). The machines must be
    identical. The result's ``params`` record the gamma_0 and knapsacks used, its
    ``extra["iterations"]`` one record per interval.

    Parameters
    ----------
    eps : float, default 0.1
        The knapsack's error parameter, in (0, 1): volume at most (1 + eps) zeta_k.
    knapsack : {'auto', 'cadp', 'greedy', 'split', 'exact'}, default 'auto'
        ``'cadp'``: FL24 Sec. 5.1's CONSTRAINT-APPROXIMATE DYNAMIC PROGRAM;
        ``'greedy'``: Remark 1's MRIS-GREEDY (volume up to 2 zeta); ``'split'``: CADP's
        guarantee, faster; ``'exact'``: the optimum within zeta; ``'auto'``: CADP
        within its table budget, else split
        (:func:`capacity.volume_knapsack.solve_volume_knapsack`).
    sort : {'wsjf', 'svf', 'wsvf', 'sjf', 'sdf', 'wsdf', 'erf'}, default 'wsjf'
        The PQ order of line 6 (FL24 Sec. 7.3).
    gamma0 : float or None, default None
        gamma_0, positive; None: the smallest processing time, FL24 Sec. 3's unit, so
        that Thm. 6.8's p_j >= gamma_0 holds.
    capacity_rule : {'proof', 'printed'}, default 'proof'
        The knapsack capacity of line 4: R M gamma_k, as Lemma 6.5's proof needs
        (``'proof'``), or R gamma_k as printed (erratum ``FL24.Alg1.line4``).
    max_dp_cells : int or None, default None
        CADP's table budget per interval; given, CADP is kept strictly (refused above
        it) instead of falling back to split.
    name : str, default 'mris'
        The policy's name in results.

    Raises
    ------
    ValueError
        ``eps`` outside (0, 1); an unknown ``knapsack``, ``sort`` or ``capacity_rule``;
        ``gamma0`` not a positive number; ``max_dp_cells`` not a positive integer.
        During a run: machines that are not identical; times not resolved at a given
        ``gamma0``; gamma_k beyond the float range.
    theory.budgets.BudgetExceeded
        During a run, a knapsack beyond ``max_dp_cells``.

    References
    ----------
    FL24, Sec. 5.1 (P1, CADP), Sec. 5.2 (PQ for makespan), Sec. 5.3 and Algorithm 1,
    Lemma 6.5 and Theorem 6.8 (Sec. 6.3), Remark 1 and Sec. 7.4 (the knapsack choice).

    Examples
    --------
    FL24 Lemma 4.1's instance with N = 4: PQ starts the long job at once; MRIS waits
    until gamma_0 = 1, takes the three small jobs (p_j <= 1) first, and the long one
    at gamma_2 = 4:

    >>> from policies import MRIS, PriorityQueue, run_nonpreemptive
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0.5, 0.5, 0.5], processing=[4, 1, 1, 1],
    ...               demand=[[1.0], [1 / 3], [1 / 3], [1 / 3]])
    >>> for p in (PriorityQueue(), MRIS()):
    ...     r = run_nonpreemptive(p, jobs, Machines([[1.0]]))
    ...     print(r.policy, r.start.tolist(), r.awct)
    pq-wsjf [0.0, 4.0, 4.0, 4.0] 4.75
    mris [4.0, 1.0, 1.0, 1.0] 3.5
    >>> r.params["gamma0"], r.params["knapsack_used"]
    (1.0, ['cadp'])
    """

    wakeup_driven = True

    def __init__(self, *, eps: float = 0.1, knapsack: str = "auto", sort: str = "wsjf",
                 gamma0: float | None = None, capacity_rule: str = "proof",
                 max_dp_cells: int | None = None, name: str = "mris"):
        if isinstance(eps, bool) or not isinstance(eps, int | float) or not 0 < eps < 1:
            raise ValueError(f"eps must lie in (0, 1), got {eps!r}")
        if not isinstance(knapsack, str) or knapsack not in KNAPSACKS:
            raise ValueError(f"knapsack must be one of {', '.join(KNAPSACKS)}, got "
                             f"{knapsack!r}")
        if not isinstance(sort, str) or sort not in SORTS:
            raise ValueError(f"sort must be one of {', '.join(SORTS)}, got {sort!r}")
        if not isinstance(capacity_rule, str) or capacity_rule not in CAPACITY_RULES:
            raise ValueError(f"capacity_rule must be one of {', '.join(CAPACITY_RULES)}, "
                             f"got {capacity_rule!r}")
        if gamma0 is not None and (isinstance(gamma0, bool) or not isinstance(
                gamma0, int | float) or not (math.isfinite(gamma0) and gamma0 > 0)):
            raise ValueError(f"gamma0 must be a positive number, got {gamma0!r}")
        if max_dp_cells is not None and (isinstance(max_dp_cells, bool) or not isinstance(
                max_dp_cells, int) or max_dp_cells < 1):
            raise ValueError(f"max_dp_cells must be a positive integer, got {max_dp_cells!r}")
        self.max_dp_cells = max_dp_cells
        self.eps, self.knapsack, self.sort = float(eps), knapsack, sort
        self.capacity_rule, self.name = capacity_rule, name
        #: the gamma0 asked for (None: p_min) and the one the last run used
        self.gamma0_given = None if gamma0 is None else float(gamma0)
        self.gamma0 = self.gamma0_given
        self.iterations: list[dict[str, Any]] = []

    def parameters(self) -> dict[str, Any]:
        """The parameters, with ``gamma0`` the value the run used (``gamma0_from``: "given"
        or "p_min") and ``knapsack_used`` the knapsacks its intervals ran."""
        return {"eps": self.eps, "knapsack": self.knapsack, "sort": self.sort,
                "gamma0": self.gamma0,
                "gamma0_from": "p_min" if self.gamma0_given is None else "given",
                "capacity_rule": self.capacity_rule, "max_dp_cells": self.max_dp_cells,
                "knapsack_used": sorted({it["knapsack"] for it in self.iterations})}

    def reset(self, state: ScheduleState) -> None:
        from policies.nonpreemptive.times import require_resolved

        cap = state.machines.capacity
        if np.any(cap != cap[0]):
            raise ValueError("MRIS needs identical machines (FL24 Sec. 3): its knapsack "
                             "counts volume in units of one machine")
        self.gamma0 = (float(np.min(state.processing)) if self.gamma0_given is None
                       else self.gamma0_given)
        # nothing starts before gamma_0: every job must be resolved there
        if self.gamma0_given is not None:
            require_resolved(state.jobs, np.maximum(state.arrival, self.gamma0),
                             f"the later of its release and gamma0 = {self.gamma0:g}",
                             hint="choose a smaller gamma0 (default: the smallest "
                                  "processing time)")
        self._key = sort_key(state, self.sort)
        self._gamma = self._gamma0 = self.gamma0
        self.iterations = []

    def next_wakeup(self, state: ScheduleState) -> float:
        if not math.isfinite(self._gamma):
            raise ValueError(f"{self.name}: gamma_k = gamma0 2^k with gamma0 = "
                             f"{self.gamma0:g} passes the float64 range (1.8e308) before "
                             f"every job is placed ({state.N - state.placed} left); times "
                             f"this large are not schedulable in float64")
        return self._gamma

    def decide(self, state: ScheduleState) -> None:
        if state.t < self._gamma:
            return
        from capacity.volume_knapsack import MAX_DP_CELLS, solve_volume_knapsack

        gamma = self._gamma
        self._gamma = 2.0 * gamma  # gamma_{k+1} - gamma_k >= gamma_k with equality
        q = np.asarray(state.queue, dtype=np.int64)
        J = q[state.processing[q] <= gamma] if q.size else q
        if J.size == 0:
            return
        zeta = state.R * gamma * (state.M if self.capacity_rule == "proof" else 1)
        t0 = time.perf_counter()
        k = round(math.log2(gamma / self._gamma0))
        method = "cadp" if self.knapsack == "auto" else self.knapsack
        strict = self.knapsack == "cadp" or self.max_dp_cells is not None
        cells = MAX_DP_CELLS if self.max_dp_cells is None else self.max_dp_cells
        try:
            ks = solve_volume_knapsack(state.weight[J], state.volume[J], zeta,
                                       method=method, eps=self.eps, max_dp_cells=cells)
        except BudgetExceeded as e:
            if self.knapsack == "auto" and not strict:
                method = "split"  # CADP's guarantee without its table
                try:
                    ks = solve_volume_knapsack(state.weight[J], state.volume[J], zeta,
                                               method=method, eps=self.eps,
                                               max_dp_cells=cells)
                except BudgetExceeded as e2:
                    raise BudgetExceeded(
                        f"{self.name} at gamma_{k} = {gamma:g}: CADP's table and then "
                        f"{e2.what}", e2.need, e2.budget, "max_dp_cells",
                        "or a larger eps (the split knapsack's table grows like 1/eps^2)"
                    ) from None
            else:
                hint = ("or a larger eps" if method != "cadp" else
                        "or a larger eps, or the policy mris-split: the same guarantee, "
                        "weight >= OPT within (1 + eps) zeta, in O(n log n)")
                raise BudgetExceeded(
                    f"{self.name} at gamma_{k} = {gamma:g}: {e.what}", e.need, e.budget,
                    "max_dp_cells", hint) from None
        B = J[ks.selected]
        t1 = time.perf_counter()
        state.list_schedule(ordered(self._key, B), gamma)
        self.iterations.append({
            "k": k, "gamma": gamma, "candidates": int(J.size),
            "selected": int(B.size), "zeta": zeta, "volume": float(ks.volume),
            "weight": float(ks.weight), "knapsack": method, "knapsack_seconds": t1 - t0,
            "pq_seconds": time.perf_counter() - t1,
            "end": float(np.max(state.start[B] + state.processing[B])) if B.size else gamma})

    def extra(self) -> dict[str, Any]:
        """``iterations``: one record per gamma_k with candidates (k as in gamma_k =
        gamma_0 2^k; intervals with no candidate are not listed), with the knapsack
        it ran."""
        return {"iterations": self.iterations}
