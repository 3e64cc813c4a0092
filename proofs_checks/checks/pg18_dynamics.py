"""Simulation checks of PG18's dynamic claims: Lemma 1 on the simulator, Prop. 1,
Fig. 1b, Thms. 1-2, Remark 1.

Every check runs the policies of :mod:`policies.continuous` on the paper's setting and
judges queues with the toolkit's detector (:func:`policies.judge_stability`); a check
holds only if the policy the paper calls stable is judged stable (or, for Prop. 1,
serves the starved type) *and* the one it calls unstable is judged unstable.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import policies as P
from policies.workload import Workload
from proofs_checks.checks.pg18_region import EC2_SERVER, EC2_TYPES
from proofs_checks.claims import Verdict, register

__all__ = ["prop1_system", "ec2_types", "run_policy", "WORK_CONSERVING",
           "rms_bar_samples", "product_form_9", "chi_square_lemma1"]

#: the work-conserving greedy policies of the family (PG18 Definition 1)
WORK_CONSERVING = ("bf", "bf-fifo", "bf-largest")


def ec2_types() -> P.JobTypes:
    """PG18 Table I (memory GB, CPU units, storage GB), unit mean service (Sec. VII-A)."""
    return P.JobTypes([[float(x) for x in v] for v in EC2_TYPES.values()],
                      names=tuple(EC2_TYPES))


def ec2_cluster(servers: int) -> P.Cluster:
    return P.Cluster.identical(servers, [float(x) for x in EC2_SERVER])


def prop1_system(k: int, a: float, b: float, rho2: float, horizon: float,
                 seed: int = 0) -> tuple[P.JobTypes, Workload]:
    """The proof of PG18 Prop. 1: one unit server, sizes 1/(1+k) and 1; a type-1 job
    every b time units (the first at 0) served for a > b; a type-2 job w.p. rho2 at
    each time n + 1/2, served for 1 time unit. Dummy jobs get the same deterministic
    service."""
    if not (k >= 2 and a > b > 0 and a / b < (k + 1) / k and 0 < rho2):
        raise ValueError("Prop. 1 needs k >= 2, a > b > 0, a/b < (k+1)/k and rho2 > 0")
    if rho2 >= 1 / k - (a / b) / (k + 1):
        raise ValueError("(rho1, rho2) must lie inside C/k: rho1/(k+1) + rho2 < 1/k")
    types = P.JobTypes([[1.0 / (1 + k)], [1.0]],
                       service=[P.ServiceTime("deterministic", a),
                                P.ServiceTime("deterministic", 1.0)])
    t1 = np.arange(0.0, horizon, b)
    t2 = np.arange(int(horizon)) + 0.5
    t2 = t2[np.random.default_rng(seed).random(t2.size) < rho2]
    t = np.concatenate([t1, t2])
    jt = np.concatenate([np.zeros(t1.size, np.int64), np.ones(t2.size, np.int64)])
    order = np.argsort(t, kind="stable")
    t, jt = t[order], jt[order]
    w = Workload(t, types.sizes[jt], np.where(jt == 0, a, 1.0), float(horizon),
                 arrival_rate=1.0 / b + rho2, job_type=jt,
                 meta={"model": "pg18-prop1", "k": k, "a": a, "b": b, "rho2": rho2})
    return types, w


def run_policy(name: str, workload: Workload, cluster: P.Cluster, types: P.JobTypes, *,
               seed: int, **params: Any) -> P.ContinuousResult:
    return P.simulate_continuous(P.make_policy(name, **params), workload, cluster, types,
                                 seed=seed)


#: the quantity of the checks decided by the stability detector's verdicts
_AS_EXPECTED = "runs the detector judged as the paper says (stable / unstable)"


def _brief(r: P.ContinuousResult) -> dict[str, Any]:
    st = r.stability
    return {"verdict": r.verdict, "mean_queue": round(r.mean_queue, 3),
            "final_queue": r.final_queue,
            "relative_drift": None if st is None else round(st.relative_drift, 5),
            "relative_drift_ci": None if st is None else [round(x, 5)
                                                          for x in st.relative_drift_ci],
            "invariants_ok": r.invariants_ok}


@register("PG18.Prop1", location="Sec. III, Proposition 1 (proof's counterexample)",
          statement="On one unit server with sizes 1/(1+k) and 1, type-1 jobs every b time "
                    "units served for a > b, and a workload inside C/k, every "
                    "work-conserving policy never serves a type-2 job; RMS does.",
          method="counterexample", engines=("continuous",))
def check_prop1(quick: bool) -> Verdict:
    cases = [(2, 5.0, 4.0, 0.05), (3, 5.0, 4.0, 0.01), (4, 6.0, 5.0, 0.005)]
    horizon = 20_000.0 if quick else 80_000.0
    cluster = P.Cluster.identical(1, 1.0)
    ok, ev = True, {}
    wc_served = 0
    for k, a, b, rho2 in cases:
        types, w = prop1_system(k, a, b, rho2, horizon)
        arrived2 = int(np.sum(w.job_type == 1))
        row: dict[str, Any] = {"rho": [a / b, rho2], "type2_arrivals": arrived2}
        for name in (*WORK_CONSERVING, "rms"):
            r = run_policy(name, w, cluster, types, seed=1)
            served2 = int(np.sum((r.job_type == 1) & (r.server >= 0)))
            row[name] = {"type2_served": served2, "mean_queue_type2":
                         round(float(r.mean_queue_by_type[1]), 3), "verdict": r.verdict}
            if name == "rms":
                ok &= served2 >= 0.9 * arrived2 and r.verdict != "unstable"
            else:
                ok &= served2 == 0 and r.verdict == "unstable"
                wc_served = max(wc_served, served2)
            ok &= bool(r.invariants_ok)
        ev[f"k={k}"] = row
    return Verdict("holds" if ok else "violated", measured=wc_served, bound=0, relation="==",
                   quantity="most type-2 jobs a work-conserving policy served (RMS serves "
                            ">= 90%: details)",
                   params={"horizon": horizon, "k_a_b_rho2": cases,
                           "policies": (*WORK_CONSERVING, "rms")},
                   seed={"workload": 0, "policy": 1}, details=ev)


@register("PG18.Fig1b", location="Sec. III, Fig. 1b",
          statement="Ten servers of capacity 10, sizes 2 and 5, Poisson rates (20.8, 10.4), "
                    "unit mean exponential service (inside C^o): work-conserving Best-Fit is "
                    "unstable, RMS is stable.",
          method="simulation", engines=("continuous",))
def check_fig1b(quick: bool) -> Verdict:
    types = P.JobTypes([[2.0], [5.0]], mu=[1.0, 1.0])
    cluster = P.Cluster.identical(10, 10.0)
    horizon = 20_000.0 if quick else 60_000.0
    w = P.poisson_type_workload(types, [20.8, 10.4], horizon, seed=1)
    bf = run_policy("bf", w, cluster, types, seed=3)
    rms = run_policy("rms", w, cluster, types, seed=3)
    ok = bf.verdict == "unstable" and rms.verdict == "stable"
    return Verdict("holds" if ok else ("violated" if bf.verdict == "stable"
                                       or rms.verdict == "unstable" else "inconclusive"),
                   measured=(bf.verdict == "unstable") + (rms.verdict == "stable"), bound=2,
                   relation="==", quantity=_AS_EXPECTED,
                   params={"horizon": horizon, "servers": 10, "capacity": 10.0,
                           "sizes": (2.0, 5.0), "rates": (20.8, 10.4)},
                   seed={"workload": 1, "policy": 3},
                   details={"expected": {"bf": "unstable", "rms": "stable"},
                            "bf": _brief(bf), "rms": _brief(rms),
                            "bf_fifo_note": "bf-fifo (jobs in arrival order) is stable "
                                            "here; see policies.continuous.bestfit"})


def _region_check(name: str, quick: bool) -> Verdict:
    types = ec2_types()
    servers = 10 if quick else 20
    cluster = ec2_cluster(servers)
    horizon = 10_000.0 if quick else 50_000.0
    ev: dict[str, Any] = {"expected": {"intensity 0.9": "stable", "intensity 1.1": "unstable"}}
    verdicts = {}
    for zeta in (0.9, 1.1):
        lam = P.rates_for_intensity(types, cluster, zeta)
        w = P.poisson_type_workload(types, lam, horizon, seed=2)
        r = run_policy(name, w, cluster, types, seed=5, f="log-power")
        verdicts[zeta] = r.verdict
        ev[f"intensity {zeta}"] = dict(_brief(r), rates=[round(float(x), 4) for x in lam])
    ok = verdicts[0.9] == "stable" and verdicts[1.1] == "unstable"
    bad = verdicts[0.9] == "unstable" or verdicts[1.1] == "stable"
    return Verdict("holds" if ok else ("violated" if bad else "inconclusive"),
                   measured=(verdicts[0.9] == "stable") + (verdicts[1.1] == "unstable"),
                   bound=2, relation="==", quantity=_AS_EXPECTED,
                   params={"policy": name, "servers": servers, "horizon": horizon,
                           "intensities": (0.9, 1.1), "f": "log-power (b=0.5)"},
                   seed={"workload": 2, "policy": 5}, details=ev)


@register("PG18.Thm1", location="Sec. IV-A, Theorem 1",
          statement="RMS (Algorithm 1, f = log^(1-b)(1+x)) keeps the EC2 system of Table I "
                    "stable at 0.9 of the boundary point in V's direction; at 1.1 (outside "
                    "C) the detector finds the queue growing.",
          method="simulation", engines=("continuous",))
def check_thm1(quick: bool) -> Verdict:
    return _region_check("rms", quick)


@register("PG18.Thm2", location="Sec. IV-B, Theorem 2, Algorithm 2",
          statement="RMS+JSQ (distributed queues) keeps the EC2 system of Table I stable at "
                    "0.9 of the boundary point; at 1.1 the queue grows.",
          method="simulation", engines=("continuous",))
def check_thm2(quick: bool) -> Verdict:
    return _region_check("rms-jsq", quick)


@register("PG18.Remark1", location="Sec. II Remark 1, Sec. VII-A.2, Fig. 4",
          statement="With the same total clock rate (30 per unit time on 20 servers), "
                    "central queues (RMS) have a smaller mean queue than distributed queues "
                    "(RMS+JSQ) on the EC2 setting.",
          method="simulation", engines=("continuous",))
def check_remark1(quick: bool) -> Verdict:
    types = ec2_types()
    cluster = ec2_cluster(20)
    horizon = 2_000.0 if quick else 5_000.0
    seeds = range(2 if quick else 4)
    ev: dict[str, Any] = {}
    ok = True
    worst = 0.0
    for zeta in ((0.9,) if quick else (0.8, 0.9, 0.95)):
        lam = P.rates_for_intensity(types, cluster, zeta)
        row = {}
        for s in seeds:
            w = P.poisson_type_workload(types, lam, horizon, seed=10 + s)
            central = run_policy("rms", w, cluster, types, seed=s, clock_rates=10.0)
            dist = run_policy("rms-jsq", w, cluster, types, seed=s, clock_rates=10.0)
            row[f"seed {s}"] = [round(central.mean_queue, 2), round(dist.mean_queue, 2)]
            ok &= central.mean_queue < dist.mean_queue
            worst = max(worst, central.mean_queue / dist.mean_queue if dist.mean_queue > 0
                        else np.inf)
        ev[f"intensity {zeta}: mean queue [central, jsq]"] = row
    return Verdict("holds" if ok else "violated", measured=worst, bound=1, relation="<",
                   quantity="largest mean queue of RMS (central) / RMS+JSQ (distributed)",
                   params={"horizon": horizon, "servers": 20, "clock_rates": 10.0,
                           "intensities": (0.9,) if quick else (0.8, 0.9, 0.95)},
                   seed={"workload": tuple(10 + s for s in seeds), "policy": tuple(seeds)},
                   details=ev)


# -- Lemma 1 on the simulator: RMS-bar's configurations follow the product form (9) ---------


class _Recording(P.RMS):
    """RMS with fixed weights that records the system configuration after every event."""

    def bind(self, state):  # noqa: ANN001
        super().bind(state)
        self.times: list[float] = [0.0]
        self.configs: list[bytes] = [state.count.tobytes()]

    def _record(self, state) -> None:  # noqa: ANN001
        self.times.append(state.t)
        self.configs.append(state.count.tobytes())

    def on_tick(self, state) -> None:  # noqa: ANN001
        super().on_tick(state)
        self._record(state)

    def on_departure(self, state, server, j, job, row) -> None:  # noqa: ANN001
        super().on_departure(state, server, j, job, row)
        self._record(state)


def rms_bar_samples(types: P.JobTypes, cluster: P.Cluster, rates: list[float],
                    weights: list[float], horizon: float, spacing: float,
                    seed: int = 0, recorder: type = _Recording) -> list[tuple[int, ...]]:
    """Configurations of the simulated RMS-bar (Definition 2: fixed weights, no queues,
    every placement a dummy) at times spacing, 2 spacing, ... (flattened L x J)."""
    empty = Workload(np.zeros(0), np.zeros((0, types.resources)), np.zeros(0), horizon,
                     job_type=np.zeros(0, np.int64))
    pol = recorder(clock_rates=rates, weights=weights, name="rms-bar")
    P.simulate_continuous(pol, empty, cluster, types, seed=seed, warmup=0.0)
    at = np.searchsorted(np.array(pol.times), np.arange(spacing, horizon, spacing),
                         side="right") - 1
    return [tuple(np.frombuffer(pol.configs[i], dtype=np.int64).tolist()) for i in at]


def product_form_9(types: P.JobTypes, capacities: list[float], rates: list[float],
                   weights: list[float], *, with_L: bool = True) -> dict[tuple[int, ...], float]:
    """phi^w of PG18 eq. (9) on the system configurations of one-resource servers:
    exp(sum w_j k_j^l) prod (r_j / (L mu_j))^k / k! normalised (``with_L=False`` drops
    the 1/L: a plausible wrong form the chi-square test must reject)."""
    import itertools
    import math

    from theory.configurations import feasible_configurations

    L = len(capacities)
    mu = types.mu
    per = [[tuple(int(x) for x in k) for k in feasible_configurations(
        types.sizes.tolist(), [c])] + [(0,) * types.J] for c in capacities]
    out = {}
    for combo in itertools.product(*per):
        logp = 0.0
        for k in combo:
            for j, kj in enumerate(k):
                base = rates[j] / ((L if with_L else 1) * mu[j])
                logp += weights[j] * kj + kj * math.log(base) - math.lgamma(kj + 1)
        out[tuple(x for k in combo for x in k)] = logp
    m = max(out.values())
    z = sum(math.exp(v - m) for v in out.values())
    return {k: math.exp(v - m) / z for k, v in out.items()}


def chi_square_lemma1(samples: list[tuple[int, ...]],
                      law: dict[tuple[int, ...], float]) -> tuple[float, float, int]:
    """Pearson's chi-square of sampled configurations against ``law`` (cells with an
    expected count below 5 pooled into one); returns (statistic, p-value, cells)."""
    from collections import Counter

    from scipy import stats

    n = len(samples)
    seen = Counter(samples)
    if any(k not in law for k in seen):
        return float("inf"), 0.0, 0
    obs: list[float] = []
    exp: list[float] = []
    pool_o, pool_e = 0.0, 0.0
    for k, p in law.items():
        if n * p >= 5:
            obs.append(seen.get(k, 0))
            exp.append(n * p)
        else:
            pool_o += seen.get(k, 0)
            pool_e += n * p
    if pool_e > 0:
        obs.append(pool_o)
        exp.append(pool_e)
    res = stats.chisquare(obs, exp)
    return float(res.statistic), float(res.pvalue), len(obs)


@register("PG18.Lemma1.sim", location="Sec. V, Definition 2, Lemma 1, eq. (9)",
          statement="The simulator's RMS-bar (RMS with fixed weights and no queues) visits "
                    "configurations with the frequencies of the product form (9): a "
                    "chi-square test on well-spaced samples does not reject (9), and does "
                    "reject (9) without its 1/L.",
          method="simulation", engines=("continuous",))
def check_lemma1_sim(quick: bool) -> Verdict:
    types = P.JobTypes([[2.0], [5.0]], mu=[1.0, 0.5])
    caps = [10.0, 10.0]
    rates, weights = [2.0, 1.0], [0.5, 1.2]
    horizon = 40_000.0 if quick else 200_000.0
    samples = rms_bar_samples(types, P.Cluster(np.array([caps]).T), rates, weights,
                              horizon, spacing=4.0, seed=7)
    stat, p, cells = chi_square_lemma1(samples, product_form_9(types, caps, rates, weights))
    stat_w, p_w, _ = chi_square_lemma1(
        samples, product_form_9(types, caps, rates, weights, with_L=False))
    ok = p > 1e-3 and p_w < 1e-6
    return Verdict("holds" if ok else "violated", measured=p, bound=1e-3, relation=">",
                   quantity="chi-square p-value of the samples against (9) (the control "
                            "without 1/L must fall below 1e-6: details)",
                   params={"horizon": horizon, "spacing": 4.0, "capacities": caps,
                           "rates": rates, "weights": weights},
                   seed=7, details={"samples": len(samples), "cells": cells,
                                    "chi2": round(stat, 3),
                                    "p_value_without_1_over_L": p_w,
                                    "control_bound": 1e-6})
