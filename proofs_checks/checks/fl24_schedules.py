"""Checks of FL24's schedules: PQ's lower bound (Lemma 4.1), PQ's makespan (Lemmas 6.3,
6.4), the summation lemma (6.7), MRIS's ratios (Thm. 6.8, Lemma 6.9) against exact
optima, and the patience example of Sec. 7.5.4 (Fig. 7)."""

from __future__ import annotations

from typing import Any

import numpy as np

from policies.nonpreemptive import CollectAllPQ, run_nonpreemptive
from policies.registry import make_policy
from proofs_checks.claims import Verdict, register
from theory.instances import PATIENCE_SEED, patience_instance
from theory.job_sets import JobSet, Machines

__all__ = ["lemma41_instance", "lemma41_opt", "lemma64_instance", "patience_instance",
           "offline_pq", "random_instance", "COMMITTING"]

#: the online policies Lemma 4.1 is about (they start what fits at every event)
COMMITTING = ("pq-wsjf", "pq-sjf", "pq-erf", "pq-svf", "tetris", "bf-exec")


def lemma41_instance(n: int, eps: float = 0.01, p: float | None = None) -> JobSet:
    """FL24 Lemma 4.1's proof: one machine; job 0 at time 0 with demand 1 in every
    resource and length p (default n); n - 1 unit-length jobs at eps of demand 1/(n-1)."""
    pp = float(n) if p is None else float(p)
    return JobSet(arrival=np.array([0.0] + [eps] * (n - 1)),
                  processing=np.array([pp] + [1.0] * (n - 1)),
                  demand=np.array([[1.0]] + [[1.0 / (n - 1)]] * (n - 1)))


def lemma41_opt(n: int, eps: float = 0.01, p: float | None = None) -> float:
    """The proof's offline schedule: the small jobs together at eps, the big one after:
    sum C* = (n - 1)(1 + eps) + 1 + eps + p."""
    pp = float(n) if p is None else float(p)
    return (n - 1) * (1 + eps) + 1 + eps + pp


def offline_pq(jobs: JobSet, machines: Machines, sort: str = "wsjf") -> Any:
    """PQ as FL24 Sec. 5.2 uses it: every job available at 0, list-scheduled."""
    zero = JobSet(np.zeros(jobs.n), jobs.processing, jobs.demand, jobs.weight, jobs.ids)
    return run_nonpreemptive(CollectAllPQ(sort=sort, name=f"pq-{sort}-offline"), zero,
                             machines)


@register("FL24.Lemma4.1", location="Sec. 4, Lemma 4.1 and its proof",
          statement="On Lemma 4.1's instance (p = N) every PRIORITY-QUEUE-type policy (PQ with "
                    "any sort, TETRIS, BF-EXEC) pays p + (N-1)(p+1) against the optimum "
                    "(N-1)(1+eps) + 1 + eps + p: the ratio grows linearly in N, while MRIS's "
                    "stays bounded.",
          method="counterexample")
def check_lemma41(quick: bool) -> Verdict:
    sizes = [4, 8, 16, 32] if quick else [4, 8, 16, 32, 64, 128]
    one = Machines(np.ones((1, 1)))
    ev: dict[str, Any] = {"ratios": {}}
    slopes: dict[str, float] = {}
    ok = True
    for name in (*COMMITTING, "mris"):
        ratios = []
        for n in sizes:
            r = run_nonpreemptive(make_policy(name), lemma41_instance(n), one)
            ok &= bool(r.invariants_ok)
            ratios.append(r.weighted_completion / lemma41_opt(n))
        ev["ratios"][name] = [round(x, 4) for x in ratios]
        slope = float(np.polyfit(sizes, ratios, 1)[0])
        if name == "mris":
            ok &= max(ratios) <= 8 * 1 * 1.1  # Thm. 6.8 with R = 1, eps = 0.1
        else:  # Omega(N): about N p / (N + p) = N / 2
            ok &= slope > 0.3 and ratios[-1] >= 0.4 * sizes[-1]
        slopes[name] = slope
        ev[f"slope_{name}"] = round(slope, 4)
    # the closed-form optimum is the exact one on the smallest instances
    from capacity.completion_programs import completion_optimum

    exact = {}
    proven = True  # an optimum the MILP did not prove is no evidence either way
    for n in (3, 4):  # times x100: eps = 0.01 becomes 1
        inst = lemma41_instance(n)
        scaled = JobSet(inst.arrival * 100, inst.processing * 100, inst.demand)
        res = completion_optimum(scaled, one, objective="weighted-completion")
        exact[n] = {"milp": res.value / 100, "closed_form": lemma41_opt(n),
                    "status": res.status}
        if res.status == "optimal":
            ok &= abs(res.value / 100 - lemma41_opt(n)) < 1e-9
        else:
            proven = False
    ev["exact_optimum"] = exact
    ev["mris_largest_ratio"] = max(ev["ratios"]["mris"])
    ev["mris_bound_thm68"] = 8 * 1 * 1.1
    return Verdict("holds" if ok and proven else "violated" if not ok else "inconclusive",
                   measured=min(slopes[name] for name in COMMITTING), bound=0.3, relation=">",
                   quantity="smallest slope in N of the committing policies' ratio to OPT",
                   params={"eps": 0.01, "N": sizes}, details=ev)


def lemma64_instance(n: int, delta: float, p: float = 1.0) -> JobSet:
    """FL24 Lemma 6.4: n jobs of length p with demand 1/2 + delta, one machine."""
    return JobSet(arrival=np.zeros(n), processing=np.full(n, p),
                  demand=np.full((n, 1), 0.5 + delta))


@register("FL24.Lemma6.4", location="Sec. 6.2, Lemma 6.4",
          statement="PQ's bound C_max <= max(2 p_max, 2 V / M) is tight: one job of demand "
                    "1/2 meets it exactly, and n jobs of demand 1/2 + delta run one at a time "
                    "so C_max / (2V/M) = 1 / (1 + 2 delta) -> 1.",
          method="counterexample")
def check_lemma64(quick: bool) -> Verdict:
    one = Machines(np.ones((1, 1)))
    single = offline_pq(JobSet(np.zeros(1), np.array([3.0]), np.array([[0.5]])), one)
    ev: dict[str, Any] = {"single_job": {"makespan": single.makespan, "2V/M": 3.0}}
    ok = single.makespan == 3.0
    rows = []
    for delta in (0.1, 0.01, 0.001, 1e-4):
        r = offline_pq(lemma64_instance(10, delta), one)
        bound = 2 * 10 * (0.5 + delta)
        rows.append({"delta": delta, "makespan": r.makespan, "bound": bound,
                     "ratio": r.makespan / bound})
        ok &= r.makespan <= bound * (1 + 1e-12) and r.makespan == 10.0
    ok &= rows[-1]["ratio"] > 0.999
    ev["family"] = rows
    return Verdict("holds" if ok else "violated", measured=rows[-1]["ratio"], bound=0.999,
                   relation=">", quantity=f"C_max / (2V/M) at delta = {rows[-1]['delta']}",
                   params={"jobs": 10, "deltas": [r["delta"] for r in rows]}, details=ev)


def _lemma67_sequences(data: Any, K: int) -> tuple[np.ndarray, np.ndarray]:
    """x, y >= 0 with equal sums and prefix sums of x >= those of y (eqs. (2)-(3)):
    y is x with mass moved later."""
    x = np.array(data[:K], dtype=float)
    y = x.copy()
    for a, b, frac in data[K:]:
        lo, hi = sorted((int(a) % K, int(b) % K))
        move = y[lo] * frac
        y[lo] -= move
        y[hi] += move
    return x, y


@register("FL24.Lemma6.7", location="Sec. 6.3, Lemma 6.7, eqs. (2)-(4)",
          statement="Non-negative x, y with equal sums and sum_{k<=j} x_k >= sum_{k<=j} y_k "
                    "satisfy sum z_k x_k <= sum z_k y_k for every non-decreasing non-negative "
                    "z: a hypothesis search finds no counterexample, and finds one at once "
                    "when z may decrease.",
          method="property")
def check_lemma67(quick: bool) -> Verdict:
    from hypothesis import HealthCheck, find, settings
    from hypothesis import strategies as st
    from hypothesis.errors import NoSuchExample

    cfg = settings(max_examples=60 if quick else 3000, database=None, derandomize=True,
                   suppress_health_check=list(HealthCheck))
    pos = st.floats(0, 100, allow_nan=False)
    moves = st.lists(st.tuples(st.integers(0, 50), st.integers(0, 50), st.floats(0, 1)),
                     max_size=8)

    def case(monotone: bool) -> Any:
        return st.integers(1, 8).flatmap(lambda K: st.tuples(
            st.just(K), st.lists(pos, min_size=K, max_size=K), moves,
            st.lists(st.floats(0, 10, allow_nan=False), min_size=K, max_size=K)
            .map(lambda z: sorted(z) if monotone else z)))

    def violates(c: Any) -> bool:
        K, xs, mv, z = c
        x, y = _lemma67_sequences(list(xs) + list(mv), K)
        za = np.asarray(z)
        return float(za @ x) > float(za @ y) + 1e-9 * (1 + float(np.abs(za) @ (x + y)))

    found: dict[str, Any] = {}
    for label, monotone in (("non-decreasing z", True), ("any z", False)):
        try:
            found[label] = find(case(monotone), violates, settings=cfg)
        except NoSuchExample:
            found[label] = None
    ok = found["non-decreasing z"] is None and found["any z"] is not None
    details = {
        "no_bound": "existence claims: a search finds no counterexample for non-decreasing z "
                    "and finds one when z may decrease",
        "counterexample_non_decreasing_z": found["non-decreasing z"],
        "counterexample_when_z_may_decrease": str(found["any z"]),
        "note": "the proof writes z_k - z_{k+1} >= 0; for non-decreasing z it is <= 0, "
                "which is the sign the argument ('a >= b and c <= 0 give ac <= bc') uses",
    }
    return Verdict("holds" if ok else "violated", params={"examples": cfg.max_examples},
                   details=details)


@register("FL24.Patience", location="Sec. 7.5.4, Fig. 7 (and Sec. 4)",
          statement="One machine, a 14-long job taking the whole machine at 0 and many small "
                    "jobs just after: PQ, TETRIS and BF-EXEC start the big job at once and "
                    "delay every small job by 14; MRIS waits (p_j > gamma_k) and its AWCT is "
                    "several times lower (the paper: nearly three times).",
          method="counterexample")
def check_patience(quick: bool) -> Verdict:
    n = 300 if quick else 2500
    jobs = patience_instance(n)  # theory.instances, with its default seed PATIENCE_SEED
    one = Machines(np.ones((1, 2)))
    awct = {}
    ok = True
    for name in ("mris", "pq-wsjf", "tetris", "bf-exec"):
        r = run_nonpreemptive(make_policy(name), jobs, one)
        ok &= bool(r.invariants_ok)
        awct[name] = r.awct
        if name != "mris":
            ok &= r.start[0] == 0.0  # committed to the big job at once
    worst_other = min(v for k, v in awct.items() if k != "mris")
    ok &= awct["mris"] * 2 < worst_other
    return Verdict("holds" if ok else "violated", measured=worst_other / awct["mris"],
                   bound=2, relation=">",
                   quantity="best AWCT of PQ, TETRIS, BF-EXEC / MRIS's AWCT",
                   params={"jobs": n}, seed=PATIENCE_SEED,
                   details={"awct": {k: round(v, 4) for k, v in awct.items()}})


# -- against exact optima (capacity.completion_programs) --------------------------------

def random_instance(rng: np.random.Generator, n: int, R: int, *, r_max: int = 6,
                    p_max: int = 4) -> JobSet:
    """Integer releases in [0, r_max], lengths in [1, p_max] (p_j >= gamma_0 = 1, as Thm.
    6.8 assumes), demands in [0.05, 1], weights in 1..5."""
    return JobSet(arrival=rng.integers(0, r_max + 1, n).astype(float),
                  processing=rng.integers(1, p_max + 1, n).astype(float),
                  demand=np.round(rng.uniform(0.05, 1.0, (n, R)), 3),
                  weight=rng.integers(1, 6, n).astype(float))


def _optimum(jobs: JobSet, machines: Machines, objective: str) -> float:
    from capacity.completion_programs import completion_optimum

    res = completion_optimum(jobs, machines, objective=objective, time_limit=60.0)
    if res.status != "optimal":
        raise RuntimeError(f"the exact {objective} optimum was not proven ({res.status})")
    return float(res.value)


def _mris_ratio(jobs: JobSet, machines: Machines, policy: str = "mris") -> tuple[float, Any]:
    r = run_nonpreemptive(make_policy(policy), jobs, machines)
    return r.weighted_completion / _optimum(jobs, machines, "weighted-completion"), r


def _perturb(rng: np.random.Generator, jobs: JobSet) -> JobSet:
    """One local move: change one job's release, length, weight or one demand."""
    a, p = jobs.arrival.copy(), jobs.processing.copy()
    w, d = jobs.weight.copy(), jobs.demand.copy()
    j = int(rng.integers(jobs.n))
    move = int(rng.integers(4))
    if move == 0:
        a[j] = float(rng.integers(0, 7))
    elif move == 1:
        p[j] = float(rng.integers(1, 5))
    elif move == 2:
        w[j] = float(rng.integers(1, 6))
    else:
        d[j, int(rng.integers(jobs.resources))] = round(float(rng.uniform(0.05, 1.0)), 3)
    return JobSet(a, p, d, w)


@register("FL24.Thm6.8", location="Sec. 6.3, Theorem 6.8 (with Lemmas 6.5, 6.6)",
          statement="MRIS's sum w_j C_j is at most 8R(1 + eps) times the exact offline optimum "
                    "(time-indexed MILP) on random small instances with R = 1, 2, 3 and "
                    "M = 1, 2, 4, on the instances a local search grows to push the ratio up, "
                    "and on Lemma 4.1's instance. (For M >= 2 the proof rests on Lemma 6.3, "
                    "which fails there: erratum FL24.Lemma6.3; this is evidence, not proof.)",
          method="property")
def check_thm68(quick: bool) -> Verdict:
    rng = np.random.default_rng(68)
    eps = 0.1
    grid = [(1, 1), (2, 2), (3, 4)] if quick else [(R, M) for R in (1, 2, 3) for M in (1, 2, 4)]
    per = 2 if quick else 6
    steps = 6 if quick else 60
    ok = True
    ev: dict[str, Any] = {"cases": {}}
    worst_all, late = 0.0, 0
    for R, M in grid:
        mach = Machines(np.ones((M, R)))
        bound = 8 * R * (1 + eps)
        ratios, worst = [], 0.0
        worst_jobs = random_instance(rng, 4, R)
        for _ in range(per):
            jobs = random_instance(rng, int(rng.integers(4, 7)), R)
            ratio, res = _mris_ratio(jobs, mach)
            ok &= bool(res.invariants_ok)
            late += _late_intervals(res, R, eps)
            ratios.append(ratio)
            if ratio > worst:
                worst, worst_jobs = ratio, jobs
        found = worst
        cur = worst_jobs
        for _ in range(steps):  # hill climbing on the worst instance
            cand = _perturb(rng, cur)
            ratio, res = _mris_ratio(cand, mach)
            ok &= bool(res.invariants_ok)
            late += _late_intervals(res, R, eps)
            if ratio >= found:
                found, cur = ratio, cand
        ok &= max(worst, found) <= bound
        worst_all = max(worst_all, found / bound)
        ev["cases"][f"R={R}, M={M}"] = {"bound": bound, "random_ratios": [round(x, 4) for x in
                                                                          ratios],
                                        "search_best": round(found, 4), "search_steps": steps}
    n = 40  # Lemma 4.1's instance: where PQ pays about N / 2
    r = run_nonpreemptive(make_policy("mris"), lemma41_instance(n), Machines(np.ones((1, 1))))
    lemma41 = r.weighted_completion / lemma41_opt(n)
    ok &= lemma41 <= 8 * (1 + eps)
    ev["lemma41_instance_N40_ratio"] = round(lemma41, 4)
    ev["lemma41_bound"] = 8 * (1 + eps)
    ev["intervals_ending_after_4R(1+eps)gamma_k"] = late
    return Verdict("holds" if ok else "violated", measured=worst_all, bound=1, relation="<=",
                   quantity="largest MRIS sum w_j C_j / OPT over 8R(1 + eps), random and "
                            "searched instances",
                   params={"eps": eps, "R_M": [f"R={R}, M={M}" for R, M in grid],
                           "instances_per_case": per, "search_steps": steps},
                   seed=68, details=ev)


def _late_intervals(res: Any, R: int, eps: float) -> int:
    """Intervals whose jobs end after 4R(1 + eps) gamma_k, the proof's t_k bound (it
    rests on Lemma 6.3, which fails for M >= 2: evidence, not part of the verdict)."""
    return sum(it["end"] > 4 * R * (1 + eps) * it["gamma"] * (1 + 1e-12)
               for it in res.extra.get("iterations", []))


#: FL24 Lemma 6.3 fails on two machines: (p, d) of six jobs released at 0, R = 1
LEMMA63_COUNTEREXAMPLE = [(1, 0.2), (1, 0.6), (1, 0.6), (3, 0.55), (3, 0.5), (3, 0.55)]


@register("FL24.Lemma6.3", location="Sec. 6.2, Lemmas 6.2 and 6.3",
          statement="On one machine offline PQ has makespan at most max(2 p_max, 2V) <= 2R "
                    "C*_max (C*_max exact, MILP) and V/R <= C*_max (Lemma 6.2), on random "
                    "instances. On two machines the printed bound max(2 p_max, 2V/M) fails: "
                    "six jobs, PQ makespan 7 > 6.2 (erratum FL24.Lemma6.3); the weaker C_max "
                    "<= 2R C*_max is only observed there (evidence), not proven.",
          method="counterexample")
def check_lemma63(quick: bool) -> Verdict:
    rng = np.random.default_rng(63)
    count = 8 if quick else 40
    ok, worst, rows = True, 0.0, []
    for c in range(count):
        R = 1 + c % 3
        jobs = random_instance(rng, int(rng.integers(4, 7)), R, r_max=0)
        one = Machines(np.ones((1, R)))
        pq = offline_pq(jobs, one)
        V = float(np.sum(jobs.processing * jobs.demand.sum(axis=1)))
        bound = max(2 * float(jobs.processing.max()), 2 * V)
        cstar = _optimum(jobs, one, "makespan")
        ok &= bool(pq.invariants_ok) and pq.makespan <= bound * (1 + 1e-12)
        ok &= bound <= 2 * R * cstar * (1 + 1e-12) and V / R <= cstar * (1 + 1e-12)
        worst = max(worst, pq.makespan / bound)
        rows.append({"R": R, "makespan": pq.makespan, "bound": bound, "opt_makespan": cstar})
    # M >= 2: the printed bound fails on the counterexample; 2R C* observed on random ones
    p, d = np.array(LEMMA63_COUNTEREXAMPLE).T
    cx = JobSet(np.zeros(p.size), p, d[:, None])
    two = Machines(np.ones((2, 1)))
    pq2 = offline_pq(cx, two)
    printed = max(2 * float(p.max()), 2 * float(np.sum(p * d)) / 2)
    cx_opt = _optimum(cx, two, "makespan")
    fails = pq2.makespan > printed * (1 + 1e-9)
    ok &= fails and bool(pq2.invariants_ok)
    multi = []
    for c in range(count):
        R, M = 1 + c % 3, (2, 3)[c % 2]
        jobs = random_instance(rng, int(rng.integers(4, 7)), R, r_max=0)
        mach = Machines(np.ones((M, R)))
        multi.append(offline_pq(jobs, mach).makespan / (2 * R * _optimum(jobs, mach,
                                                                          "makespan")))
    details = {
        "one_machine": {"instances": count, "largest_makespan_over_bound": round(worst, 4),
                        "examples": rows[:4]},
        "two_machines_counterexample": {"optimal_makespan": cx_opt,
                                        "printed_bound_fails": bool(fails)},
        "several_machines_largest_makespan_over_2R_opt": round(max(multi), 4),
    }
    return Verdict("holds" if ok else "violated", measured=pq2.makespan, bound=printed,
                   relation=">",
                   quantity="PQ makespan on the two-machine counterexample vs the printed "
                            "max(2 p_max, 2V/M)",
                   params={"instances": count, "counterexample_p_d": LEMMA63_COUNTEREXAMPLE},
                   seed=63, details=details)


@register("FL24.Lemma6.9", location="Sec. 6.4, Lemma 6.9",
          statement="MRIS's makespan is at most 8R(1 + eps) times the exact optimal makespan "
                    "(MILP) on random small instances.",
          method="property")
def check_lemma69(quick: bool) -> Verdict:
    rng = np.random.default_rng(69)
    count = 6 if quick else 30
    eps, ok, worst = 0.1, True, 0.0
    for c in range(count):
        R, M = 1 + c % 3, (1, 2, 4)[c % 3]
        jobs = random_instance(rng, int(rng.integers(4, 7)), R)
        mach = Machines(np.ones((M, R)))
        res = run_nonpreemptive(make_policy("mris"), jobs, mach)
        ratio = res.makespan / _optimum(jobs, mach, "makespan")
        ok &= bool(res.invariants_ok) and ratio <= 8 * R * (1 + eps)
        worst = max(worst, ratio / (8 * R * (1 + eps)))
    return Verdict("holds" if ok else "violated", measured=worst, bound=1, relation="<=",
                   quantity="largest MRIS makespan / optimal makespan over 8R(1 + eps)",
                   params={"instances": count, "eps": eps}, seed=69)


@register("FL24.Alg1.line4", location="Sec. 5.3, Algorithm 1 line 4, against Lemma 6.5",
          statement="Lemma 6.5 needs the knapsack capacity R M gamma_k (the volume the optimum "
                    "can complete on M machines by gamma_k, Lemma 6.2), not R gamma_k as "
                    "printed: on two machines, two unit jobs that the optimum completes by "
                    "gamma_0 = 1 are both picked at gamma_0 with R M gamma_k, only one with R "
                    "gamma_k (erratum FL24.Alg1.line4).",
          method="counterexample")
def check_alg1_line4(quick: bool) -> Verdict:
    jobs = JobSet(arrival=np.zeros(2), processing=np.ones(2), demand=np.ones((2, 1)))
    two = Machines(np.ones((2, 1)))
    opt = _optimum(jobs, two, "weighted-completion")  # both complete at 1
    ev: dict[str, Any] = {"optimum_sum_wC": opt}
    picked = {}
    for rule in ("proof", "printed"):
        res = run_nonpreemptive(make_policy("mris", capacity_rule=rule), jobs, two)
        first = res.extra["iterations"][0]
        picked[rule] = first["weight"]
        ev[rule] = {"zeta_0": first["zeta"], "weight_picked_at_gamma0": first["weight"],
                    "sum_wC": res.weighted_completion}
    ok = opt == 2.0 and picked["proof"] >= 2.0 and picked["printed"] < 2.0
    return Verdict("holds" if ok else "violated", measured=picked["printed"], bound=2.0,
                   relation="<",
                   quantity="weight picked at gamma_0 with the printed capacity R gamma_k vs "
                            "the weight the optimum completes by gamma_0 (R M gamma_k: "
                            "in details)",
                   params={"jobs": "two unit jobs, demand 1, released at 0", "machines": 2},
                   details=ev)
