"""XLL21 claims checked against exact offline optima (capacity.flowtime_programs):
eq. (6), Thm. 6 (a counterexample) and Cor. 2."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from proofs_checks.claims import Verdict, register
from theory.job_sets import JobSet, Machines

__all__ = ["tiny_instance", "eq6_ratio", "search_worst", "transient_ratios",
           "THM6_INSTANCE"]


def tiny_instance(rng: np.random.Generator, *, transient: bool = False, jobs: int = 3,
                  max_p: int = 3, max_d: int = 3, cores: tuple[int, ...] = (3,)
                  ) -> tuple[JobSet, Machines]:
    """A small integer instance: ``jobs`` jobs, p_j <= max_p, d_j <= min(max_d, largest
    machine), arrivals in 0..2 (all 0 when ``transient``)."""
    n = int(jobs)
    a = np.zeros(n) if transient else rng.integers(0, 3, n)
    p = rng.integers(1, max_p + 1, n)
    d = rng.integers(1, min(max_d, max(cores)) + 1, n)
    return JobSet(a, p, d[:, None]), Machines(np.array(cores, dtype=float)[:, None])


def eq6_ratio(jobs: JobSet, machines: Machines, k: float) -> dict[str, Any]:
    """OPT_P2 / OPT_P1, both exact (P2 with integer cores as (4f) requires)."""
    from capacity.flowtime_programs import p1_optimum, p2_optimum

    p1 = p1_optimum(jobs, machines, k)
    p2 = p2_optimum(jobs, machines, k, integer=True)
    if p1.status != "optimal" or p2.status != "optimal":
        raise RuntimeError(f"not solved to optimality: P1 {p1.status}, P2 {p2.status}")
    return {"p1": p1.value, "p2": p2.value, "ratio": p2.value / p1.value}


def search_worst(score: Callable[[dict], float], start: dict, neighbours: Callable,
                 rng: np.random.Generator, steps: int) -> tuple[dict, float]:
    """Hill climbing on instance parameters: keep a neighbour when it scores higher."""
    best, best_score = start, score(start)
    for _ in range(steps):
        cand = neighbours(best, rng)
        s = score(cand)
        if s > best_score:
            best, best_score = cand, s
    return best, best_score


def _instance_from(params: dict) -> tuple[JobSet, Machines]:
    return (JobSet(np.array(params["a"]), np.array(params["p"]), np.array(params["d"])[:, None]),
            Machines(np.array(params["C"], dtype=float)[:, None]))


def _neighbour(params: dict, rng: np.random.Generator) -> dict:
    """One job's arrival, processing time or cores moved by one (arrivals stay 0 in a
    transient instance); the other parameters kept."""
    new = {k: (list(v) if isinstance(v, list) else v) for k, v in params.items()}
    keys = ["p", "d"] if params.get("transient") else ["a", "p", "d"]
    key = str(rng.choice(keys))
    j = int(rng.integers(len(new[key])))
    lo, hi = {"a": (0, 3), "p": (1, 4), "d": (1, int(max(new["C"])))}[key]
    new[key][j] = int(np.clip(new[key][j] + rng.choice([-1, 1]), lo, hi))
    return new


@register("XLL21.Eq6", location="Sec. II-C, eq. (6)",
          statement="OPT_P2 <= 2 OPT_P1: the optimal fractional flowtime is at most twice the "
                    "optimal l_k flowtime (sum_j f_j^k).",
          method="exhaustive")
def check_eq6(quick: bool) -> Verdict:
    rng = np.random.default_rng(6)
    rows, worst = [], 0.0
    for i in range(8 if quick else 40):
        k = 1.0 if i % 2 == 0 else 2.0
        jobs, machines = tiny_instance(rng, jobs=int(rng.integers(1, 4)),
                                       cores=(int(rng.integers(2, 5)),))
        r = eq6_ratio(jobs, machines, k)
        worst = max(worst, r["ratio"])
        rows.append({"k": k, "a": jobs.arrival.tolist(), "p": jobs.processing.tolist(),
                     "d": jobs.demand[:, 0].tolist(), "C": machines.capacity[:, 0].tolist(),
                     **r})

    def score(params: dict) -> float:
        jobs, machines = _instance_from(params)
        return eq6_ratio(jobs, machines, params["k"])["ratio"]

    start = {"a": [0, 0], "p": [1, 3], "d": [2, 2], "C": [2], "k": 1.0}
    searched, s = search_worst(score, start, _neighbour, rng, 6 if quick else 60)
    worst = max(worst, s)
    ok = worst <= 2 + 1e-9
    details = {
        "instances": rows, "largest_ratio_random": max(r["ratio"] for r in rows),
        "search": {"instance": searched, "ratio": s},
    }
    return Verdict("holds" if ok else "violated", measured=worst, bound=2, relation="<=",
                   quantity="largest OPT_P2 / OPT_P1 over random and searched instances",
                   params={"instances": len(rows), "search_steps": 6 if quick else 60},
                   seed=6, details=details)


def transient_ratios(jobs: JobSet, machines: Machines, k: float) -> dict[str, Any]:
    """The transient SVF scheme against OPT_P2 (fractional) and OPT_P1 (flowtime)."""
    from capacity.flowtime_programs import p1_optimum, p2_optimum
    from policies.preemptive import TransientSVF, run_schedule

    run = run_schedule(TransientSVF(), jobs, machines, k=k)
    p1 = p1_optimum(jobs, machines, k).value
    p2 = p2_optimum(jobs, machines, k, integer=True).value
    flow = float(np.sum(run.flowtime ** k))
    return {"fractional": float(run.fractional.sum()), "opt_p2": p2,
            "fractional_ratio": float(run.fractional.sum()) / p2, "flowtime": flow,
            "opt_p1": p1, "flowtime_ratio": flow / p1,
            "cor2_bound": p1 + float(jobs.processing.sum()) / 2}


#: the instance that separates Thm. 6 from the truth (errata register, XLL21.Thm6)
THM6_INSTANCE = {"a": [0, 0], "p": [1, 3], "d": [2, 1], "C": [2], "k": 1.0, "transient": True}


@register("XLL21.Thm6", location="Sec. IV-C, Theorem 6 (and Lemma 2)",
          statement="Theorem 6 as printed fails: the SVF scheme solves each slot's local "
                    "program (38) optimally (Lemma 2), but it is not optimal for the "
                    "fractional flowtime over the horizon in the transient case: with "
                    "p = (1, 3), d = (2, 1), C = 2 it scores 8 against OPT_P2 = 7.5.",
          method="counterexample")
def check_thm6(quick: bool) -> Verdict:
    jobs, machines = _instance_from(THM6_INSTANCE)
    sep = transient_ratios(jobs, machines, 1.0)
    rng = np.random.default_rng(7)
    rows = []
    for _ in range(6 if quick else 40):
        j, m = tiny_instance(rng, transient=True, jobs=int(rng.integers(2, 4)),
                             cores=(int(rng.integers(2, 5)),))
        rows.append({"p": j.processing.tolist(), "d": j.demand[:, 0].tolist(),
                     "C": m.capacity[:, 0].tolist(), **transient_ratios(j, m, 1.0)})

    def score(params: dict) -> float:
        jj, mm = _instance_from(params)
        return transient_ratios(jj, mm, 1.0)["fractional_ratio"]

    worst_inst, worst = search_worst(score, THM6_INSTANCE, _neighbour, rng,
                                     4 if quick else 60)
    separated = sep["fractional"] > sep["opt_p2"] * (1 + 1e-9)
    details = {
        "separating_instance": {**THM6_INSTANCE, **sep}, "random_instances": rows,
        "random_share_not_optimal": float(np.mean([r["fractional_ratio"] > 1 + 1e-9
                                                   for r in rows])),
        "search": {"instance": worst_inst, "fractional_ratio": worst},
    }
    return Verdict("holds" if separated else "violated", measured=sep["fractional"],
                   bound=sep["opt_p2"], relation=">",
                   quantity="SVF's fractional flowtime on the separating instance against "
                            "OPT_P2",
                   params={"instance": THM6_INSTANCE, "random_instances": len(rows)}, seed=7,
                   details=details)


@register("XLL21.Cor2", location="Sec. IV-C, Corollary 2",
          statement="In the transient case (a_j = 0, single resource, k = 1) the SVF scheme's "
                    "flowtime is at most OPT_P1 + sum_j p_j / 2 <= 3/2 OPT_P1.",
          method="exhaustive")
def check_cor2(quick: bool) -> Verdict:
    rng = np.random.default_rng(8)
    rows = []
    for _ in range(6 if quick else 40):
        jobs, machines = tiny_instance(rng, transient=True, jobs=int(rng.integers(2, 4)),
                                       cores=(int(rng.integers(2, 5)),))
        rows.append({"p": jobs.processing.tolist(), "d": jobs.demand[:, 0].tolist(),
                     "C": machines.capacity[:, 0].tolist(),
                     **transient_ratios(jobs, machines, 1.0)})

    def score(params: dict) -> float:
        jj, mm = _instance_from(params)
        return transient_ratios(jj, mm, 1.0)["flowtime_ratio"]

    start = {"a": [0, 0, 0], "p": [2, 1, 3], "d": [1, 2, 1], "C": [2], "k": 1.0,
             "transient": True}
    worst_inst, worst = search_worst(score, start, _neighbour, rng, 4 if quick else 60)
    within = all(r["flowtime"] <= r["cor2_bound"] + 1e-9 for r in rows)
    flow_worst = max(max(r["flowtime_ratio"] for r in rows), worst)
    ok = within and flow_worst <= 1.5 + 1e-9
    details = {
        "instances": rows, "within_opt_plus_half_sum_p": within,
        "search": {"instance": worst_inst, "flowtime_ratio": worst},
        "note": "Cor. 2 is derived from Thm. 6, which fails (XLL21.Thm6); the bound is "
                "checked here on its own",
    }
    return Verdict("holds" if ok else "violated", measured=flow_worst, bound=1.5,
                   relation="<=",
                   quantity="largest SVF flowtime / OPT_P1 (each <= OPT_P1 + sum p_j / 2: "
                            "details)",
                   params={"instances": len(rows), "search_steps": 4 if quick else 60},
                   seed=8, details=details)
