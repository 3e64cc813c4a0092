"""Checks of PG18's capacity region (eqs. (2)-(3)): the Sec. III example and Table I."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np

from capacity import CapacityRegion
from proofs_checks.claims import Verdict, register
from theory.instances import EC2_TABLE_I

F = Fraction

#: PG18 Table I (memory GB, CPU units, storage GB) on Sec. VII-A's servers (theory.instances)
EC2_TYPES = dict(EC2_TABLE_I.types)
EC2_SERVER = EC2_TABLE_I.server


def _verdict(ok: bool, proven: bool) -> str:
    """"violated" only on proven evidence; "inconclusive" when an LP's interval is not
    certified and does not decide the claim (a false "violated" is as wrong as a false
    "holds")."""
    if not ok and proven:
        return "violated"
    return "holds" if ok and proven else "inconclusive"


@register("PG18.Region", location="Sec. III (example of Fig. 1b), eqs. (2)-(3)",
          statement="Ten servers of capacity 10, sizes 2 and 5: the workload (20.8, 10.4) lies "
                    "in the interior C^o, and the boundary of C in direction (2, 1) is "
                    "(200/9, 100/9) = (22.22, 11.11).",
          method="LP")
def check_region(quick: bool) -> Verdict:
    R = CapacityRegion([2, 5], [(10, 10)])
    inside = R.contains(["20.8", "10.4"], interior=True)
    res = R.max_scaling([2, 1])
    point = [res.value * 2, res.value * 1]
    exact_point = [F(200, 9), F(100, 9)]
    # the proven interval holds 200/9; it is the boundary only when certified (tight),
    # and it is off the boundary whenever the proven ends exclude 200/9
    on_boundary = (float(res.lower) * 2 <= 200 / 9 * (1 + 1e-9)
                   and float(res.upper) * 2 >= 200 / 9 * (1 - 1e-9))
    outside = not R.contains(["22.3", "11.15"])
    mix = sorted((tuple(int(v) for v in t.config), round(t.weight, 9)) for t in res.mixture)
    ok = inside and on_boundary and outside
    # the boundary's first coordinate, exact when the LP's certified ends meet
    exact = res.lower == res.upper
    return Verdict(
        _verdict(ok, res.certified or exact or not ok),
        measured=2 * res.lower if exact else (2 * res.lower, 2 * res.upper),
        bound=exact_point[0], relation="==" if exact else "contains",
        quantity="first coordinate of the boundary point in direction (2, 1) (certified LP)",
        params={"sizes": (2, 5), "servers": 10, "capacity": 10, "workload": (20.8, 10.4)},
        details={"workload_in_interior": inside, "boundary_point": point,
                 "paper_boundary_point": [float(v) for v in exact_point],
                 "certified_scaling": [str(res.lower), str(res.upper)],
                 "optimal_mixture_per_server": mix, "just_outside_is_outside": outside})


def _brute_maximal(sizes: list[tuple[Fraction, ...]], cap: tuple[Fraction, ...]) -> set:
    """Independent enumeration: nested loops over counts, keep the non-extendable ones."""
    bounds = [min(int(c // s) if s > 0 else 10**9 for s, c in zip(sz, cap, strict=True))
              for sz in sizes]

    def feasible(k):
        return all(sum(k[j] * sizes[j][d] for j in range(len(sizes))) <= cap[d]
                   for d in range(len(cap)))

    out = set()
    for k in itertools.product(*[range(b + 1) for b in bounds]):
        if any(k) and feasible(k):
            ext = any(feasible(tuple(k[i] + (i == j) for i in range(len(k))))
                      for j in range(len(k)))
            if not ext:
                out.add(k)
    return out


def _average_of_maximal(K: np.ndarray) -> list[Fraction]:
    """V^l of PG18 Sec. VII-A (text after Table I): the average of server l's maximal
    configurations, in exact rationals (one server, so V = V^l)."""
    if len(K) == 0:
        return []
    return [sum((F(int(k[j])) for k in K), F(0)) / len(K) for j in range(K.shape[1])]


#: tolerance on the largest scaling t* of V when the LP answer is not exact
TABLE1_SCALING_TOL = 1e-9


@register("PG18.TableI", location="Sec. VII-A, Table I",
          statement="Maximal configurations of the three EC2 instance types of Table I in a "
                    "(90 GB, 90 CPU units, 5000 GB) server; their average V^l is a point of "
                    "the boundary of C used for the traffic intensities: V in C and "
                    "(1 + delta) V not in C for every delta > 0, i.e. max{t : t V in C} = 1.",
          method="exhaustive")
def check_table1(quick: bool) -> Verdict:
    """PG18 Sec. VII-A, Table I and the text after it ("V is a point on the boundary of the
    supportable workload region", C of eq. (2)).

    The maximal configurations are enumerated and compared with an independent brute
    force; V is their exact average, and the configuration LP of eq. (2) gives the largest
    scaling t* = max{t : t V in C}. On the boundary means t* = 1: t* >= 1 is V in C, and
    t* <= 1 is (1 + delta) V outside C for every delta > 0. With rational inputs the LP
    optimum is recovered exactly and t* = 1 is asserted exactly; otherwise within
    ``TABLE1_SCALING_TOL`` (relative) on both ends of the certified interval.
    """
    names = list(EC2_TYPES)
    sizes = [tuple(F(v) for v in EC2_TYPES[n]) for n in names]
    cap = tuple(F(v) for v in EC2_SERVER)
    R = CapacityRegion([list(s) for s in sizes], [(list(cap), 1)])
    K = R.maximal_configurations()
    mine = {tuple(int(v) for v in k) for k in K}
    brute = _brute_maximal(sizes, cap)
    V = _average_of_maximal(K)
    in_C = not_scalable = False
    exact = False
    decided = True  # the interval of t* decides on-the-boundary either way
    lo = hi = None
    if V and any(v > 0 for v in V):
        # t* = max{t : t V in C}; V is on the boundary of C iff t* = 1
        scale = R.max_scaling(V)
        lo, hi = scale.lower, scale.upper
        exact = isinstance(lo, Fraction) and isinstance(hi, Fraction) and lo == hi
        if exact:
            in_C, not_scalable = lo >= 1, lo <= 1
        elif scale.certified:
            in_C = float(hi) >= 1 - TABLE1_SCALING_TOL
            not_scalable = float(lo) <= 1 + TABLE1_SCALING_TOL
        else:  # not certified: proven off the boundary only if [lo, hi] excludes 1
            decided = float(hi) < 1 - TABLE1_SCALING_TOL or float(lo) > 1 + TABLE1_SCALING_TOL
    on_boundary = in_C and not_scalable
    ok = mine == brute and len(mine) > 0 and on_boundary
    proven = decided or mine != brute or not mine
    if lo is None or hi is None:  # no V to scale: t* undefined, the verdict is violated
        measured: Any = float("nan")
    else:
        measured = lo if exact else (lo, hi)
    details = {
        "maximal_configurations": sorted(mine),
        "count": len(mine),
        "agrees_with_brute_force": mine == brute,
        "V_average_of_maximal": [str(v) for v in V],
        "max_scaling_of_V": {"lower": str(lo), "upper": str(hi), "exact": exact,
                             "tolerance": None if exact else TABLE1_SCALING_TOL},
        "V_in_C": in_C, "scaled_V_outside_C_for_every_delta": not_scalable,
        "V_on_boundary": on_boundary,
        "evidence_complete": proven,
    }
    return Verdict(_verdict(ok, proven), measured=measured, bound=1,
                   relation="==" if exact or lo is None else "contains",
                   quantity="largest scaling t* of V inside C (configuration LP, eq. (2))",
                   params={"types": {n: list(EC2_TYPES[n]) for n in names},
                           "server": list(EC2_SERVER)},
                   details=details)


@register("PG18.SecVIIA.V", location="Sec. VII-A (definition of V and of the traffic "
          "intensity)",
          statement="V = sum_l V^l, V^l the average of server l's maximal configurations, is "
                    "a point of the boundary of C only in some systems: for Table I's EC2 "
                    "types it is (largest scaling t* = 1), for sizes 2 and 5 in capacity 10 "
                    "it lies inside C (t* = 30/29, exact LP).",
          method="LP")
def check_v_boundary(quick: bool) -> Verdict:
    cases: dict[str, tuple[list[Any], list[Any]]] = {
        "sizes 2, 5 in capacity 10 (Fig. 1b)": ([[2], [5]], [((10,), 10)]),
             "EC2 Table I, (90, 90, 5000)": ([[F(v) for v in EC2_TYPES[n]] for n in EC2_TYPES],
                                             [(tuple(F(v) for v in EC2_SERVER), 20)])}
    ev, scalings = {}, []
    cases_ok: list[tuple[bool, bool]] = []
    for label, want in zip(cases, (F(30, 29), F(1)), strict=True):
        sizes, servers = cases[label]
        R = CapacityRegion(sizes, servers)
        K = [[F(int(x)) for x in k] for k in R.maximal_configurations()]
        n = servers[0][1]
        V = [n * sum(k[j] for k in K) / len(K) for j in range(len(sizes))]
        res = R.max_scaling(V)
        t = res.lower if res.lower == res.upper else None
        scalings.append(t)
        ev[label] = {"V": [str(v) for v in V], "largest_scaling": str(t),
                     "certified": res.certified,
                     "interval": [str(res.lower), str(res.upper)]}
        # an exact t* decides; otherwise only an interval that excludes the value does
        inside = res.lower <= want <= res.upper
        cases_ok.append((t == want, t is not None or not inside))
    ok = all(good for good, _ in cases_ok)
    proven = all(p for _, p in cases_ok) or any(p and not g for g, p in cases_ok)
    return Verdict(_verdict(ok, proven),
                   measured=tuple(float("nan") if t is None else t for t in scalings),
                   bound=(F(30, 29), F(1)), relation="==",
                   quantity="largest scaling t* of V inside C: Fig. 1b system, EC2 Table I",
                   params={"systems": list(cases)}, details=ev)
