"""MULTI-RESOURCE INTERVAL SCHEDULING, MRIS (FL24 Sec. 5.3, Algorithm 1).

At gamma_k = gamma_0 2^k (k = 0, 1, ...): J_k = released, unplaced jobs with
p_j <= gamma_k (line 3); a knapsack P1 (Sec. 5.1) picks B_k in J_k of maximum weight
with volume sum v_j <= zeta_k (lines 4-5); PRIORITY-QUEUE list-schedules B_k from
gamma_k on, backfilling into the gaps of earlier plans (line 6, Sec. 5.2).

Knapsack capacity (line 4): the paper prints zeta_k = R gamma_k, but Lemma 6.5's proof
needs the volume the optimum can complete on M machines by gamma_k, R M gamma_k
(Lemma 6.2): with R gamma_k and M > 1, a set of weight W that the optimum completes by
gamma_k need not fit the knapsack (erratum FL24.Alg1.line4). ``capacity_rule="proof"``
(default) uses R M gamma_k, ``"printed"`` R gamma_k. Volumes are v_j = p_j sum_l d_jl
with demands as fractions of a machine; the machines must be identical.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from policies.nonpreemptive.engine import NonPreemptivePolicy, ScheduleState
from policies.nonpreemptive.priority import SORTS, ordered, sort_key
from theory.budgets import BudgetExceeded

__all__ = ["MRIS", "KNAPSACKS", "CAPACITY_RULES"]

KNAPSACKS = ("cadp", "greedy", "split", "exact")
CAPACITY_RULES = ("proof", "printed")


class MRIS(NonPreemptivePolicy):
    """FL24 Algorithm 1. ``knapsack``: ``cadp`` (Sec. 5.1, (1 + eps) zeta), ``greedy``
    (Remark 1, MRIS-GREEDY, 2 zeta), ``split`` (same guarantee as CADP, faster) or
    ``exact``; ``sort``: the PQ order (WSJF, Sec. 7.3); ``gamma0``: gamma_0 (1, the
    paper's unit: Thm. 6.8 assumes p_j >= gamma_0)."""

    wakeup_driven = True

    def __init__(self, *, eps: float = 0.1, knapsack: str = "cadp", sort: str = "wsjf",
                 gamma0: float = 1.0, capacity_rule: str = "proof",
                 max_dp_cells: int | None = None, name: str = "mris"):
        if isinstance(eps, bool) or not isinstance(eps, int | float) or not 0 < eps < 1:
            raise ValueError(f"eps must lie in (0, 1), got {eps!r}")
        if knapsack not in KNAPSACKS:
            raise ValueError(f"knapsack must be one of {', '.join(KNAPSACKS)}, got "
                             f"{knapsack!r}")
        if sort not in SORTS:
            raise ValueError(f"sort must be one of {', '.join(SORTS)}, got {sort!r}")
        if capacity_rule not in CAPACITY_RULES:
            raise ValueError(f"capacity_rule must be one of {', '.join(CAPACITY_RULES)}, "
                             f"got {capacity_rule!r}")
        if isinstance(gamma0, bool) or not isinstance(gamma0, int | float) or not (
                math.isfinite(gamma0) and gamma0 > 0):
            raise ValueError(f"gamma0 must be a positive number, got {gamma0!r}")
        if max_dp_cells is not None and (isinstance(max_dp_cells, bool) or not isinstance(
                max_dp_cells, int) or max_dp_cells < 1):
            raise ValueError(f"max_dp_cells must be a positive integer, got {max_dp_cells!r}")
        self.max_dp_cells = max_dp_cells
        self.eps, self.knapsack, self.sort = float(eps), knapsack, sort
        self.gamma0, self.capacity_rule, self.name = float(gamma0), capacity_rule, name

    def parameters(self) -> dict[str, Any]:
        return {"eps": self.eps, "knapsack": self.knapsack, "sort": self.sort,
                "gamma0": self.gamma0, "capacity_rule": self.capacity_rule,
                "max_dp_cells": self.max_dp_cells}

    def reset(self, state: ScheduleState) -> None:
        cap = state.machines.capacity
        if np.any(cap != cap[0]):
            raise ValueError("MRIS needs identical machines (FL24 Sec. 3): its knapsack "
                             "counts volume in units of one machine")
        self._key = sort_key(state, self.sort)
        self._gamma = self.gamma0
        self.iterations: list[dict[str, Any]] = []

    def next_wakeup(self, state: ScheduleState) -> float:
        return self._gamma

    def decide(self, state: ScheduleState) -> None:
        if state.t < self._gamma:
            return
        from capacity.volume_knapsack import solve_volume_knapsack

        gamma = self._gamma
        self._gamma = 2.0 * gamma  # gamma_{k+1} - gamma_k >= gamma_k with equality
        q = np.asarray(state.queue, dtype=np.int64)
        J = q[state.processing[q] <= gamma] if q.size else q
        if J.size == 0:
            return
        zeta = state.R * gamma * (state.M if self.capacity_rule == "proof" else 1)
        t0 = time.perf_counter()
        extra: dict[str, Any] = ({} if self.max_dp_cells is None
                                 else {"max_dp_cells": self.max_dp_cells})
        try:
            ks = solve_volume_knapsack(state.weight[J], state.volume[J], zeta,
                                       method=self.knapsack, eps=self.eps, **extra)
        except BudgetExceeded as e:
            raise BudgetExceeded(
                f"{self.name} at gamma_{round(math.log2(gamma / self.gamma0))} = {gamma:g}: "
                f"{e.what}", e.need,
                e.budget, "max_dp_cells", "or use knapsack='split' (mris-split): the same "
                "guarantee, weight >= OPT within (1 + eps) zeta, in O(n log n)") from None
        B = J[ks.selected]
        t1 = time.perf_counter()
        state.list_schedule(ordered(self._key, B), gamma)
        self.iterations.append({
            "k": round(math.log2(gamma / self.gamma0)), "gamma": gamma,
            "candidates": int(J.size),
            "selected": int(B.size), "zeta": zeta, "volume": float(ks.volume),
            "weight": float(ks.weight), "knapsack_seconds": t1 - t0,
            "pq_seconds": time.perf_counter() - t1,
            "end": float(np.max(state.start[B] + state.processing[B])) if B.size else gamma})

    def extra(self) -> dict[str, Any]:
        """``iterations``: one record per gamma_k with candidates (k as in gamma_k =
        gamma_0 2^k; intervals with no candidate are not listed)."""
        return {"iterations": self.iterations}
