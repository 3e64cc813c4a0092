"""Checks of FL24's knapsack step (Sec. 5.1, Sec. 6.1): Lemma 6.1 (CADP) and Remark 1
(the greedy in twice the capacity).

Both are property tests on seeded random knapsacks against an independent optimum
(brute force over all subsets; in the full run also HiGHS for larger instances). The
volumes are dyadic (multiples of 2^-14 below 64), so every float sum of volumes is
exact and "fits in zeta" means what it says. Instances include capacities equal to the
volume of a random subset (an optimal set fills the knapsack exactly) and equal volumes
(ties everywhere).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from capacity.volume_knapsack import solve_volume_knapsack
from proofs_checks.claims import Verdict, register

EPSILONS = (0.5, 0.1, 0.01)
SEED = 20240812
#: weights are float sums (different orders round differently)
WEIGHT_RTOL = 1e-9
#: volume bounds are exact in the solver; the float bound (1 + eps) * zeta rounds once
VOLUME_RTOL = 1e-12
_DYADIC = 2.0 ** 14


def _instances(rng: np.random.Generator, count: int, n_range: tuple[int, int]
               ) -> Iterator[tuple[str, np.ndarray, np.ndarray, float]]:
    """(kind, weights, volumes, capacity): dyadic volumes, four kinds of capacity."""
    kinds = ("fraction of total", "subset fills capacity", "equal volumes", "few large")
    for t in range(count):
        kind = kinds[t % len(kinds)]
        n = int(rng.integers(n_range[0], n_range[1] + 1))
        w = 0.05 + rng.random(n)
        if kind == "equal volumes":
            v = np.full(n, float(rng.integers(1, 2**20)) / _DYADIC)
        elif kind == "few large":
            v = rng.integers(1, 2**16, n) / _DYADIC
            big = rng.random(n) < 0.3
            v[big] = rng.integers(2**19, 2**20, int(big.sum())) / _DYADIC
        else:
            v = rng.integers(1, 2**20, n) / _DYADIC
        if kind == "subset fills capacity":
            sub = rng.random(n) < 0.5
            sub[int(rng.integers(n))] = True
            zeta = float(v[sub].sum())
        elif kind == "equal volumes":
            zeta = float(v[0] * int(rng.integers(1, n + 1)))
        else:
            zeta = max(float(np.floor(v.sum() * rng.uniform(0.15, 0.8) * _DYADIC) / _DYADIC),
                       float(v.min()))
        yield kind, w, v, zeta


def _brute_opt(w: np.ndarray, v: np.ndarray, zeta: float) -> float:
    """max weight over all subsets of volume <= zeta (exact for dyadic volumes)."""
    n = len(w)
    masks = ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(float)
    vol = masks @ v
    wt = masks @ w
    return float(wt[vol <= zeta].max())


def _opt(w: np.ndarray, v: np.ndarray, zeta: float) -> tuple[float, str]:
    if len(w) <= 14:
        return _brute_opt(w, v, zeta), "brute force"
    r = solve_volume_knapsack(w, v, zeta, method="exact")
    if r.volume > zeta:
        raise RuntimeError(f"the exact optimum exceeds the capacity: {r.volume} > {zeta}")
    return r.weight, "HiGHS"


def _describe(kind: str, w: np.ndarray, v: np.ndarray, zeta: float) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": kind, "n": len(w), "capacity": zeta}
    if len(w) <= 8:
        out.update(weights=[round(float(x), 6) for x in w], volumes=v.tolist())
    return out


def _sample(quick: bool) -> list[tuple[str, np.ndarray, np.ndarray, float, float, str]]:
    rng = np.random.default_rng(SEED)
    inst = list(_instances(rng, 48 if quick else 240, (1, 12)))
    if not quick:
        inst += list(_instances(rng, 40, (20, 60)))
    return [(k, w, v, z, *_opt(w, v, z)) for k, w, v, z in inst]


@register("FL24.Lemma6.1", location="Sec. 5.1 (CADP) and Sec. 6.1, Lemma 6.1",
          statement="CADP with K = eps*zeta/n (v_hat = floor(v/K), exact DP in capacity "
                    "floor(zeta/K)) returns a set of at least the optimal knapsack weight "
                    "within volume (1 + eps) zeta; with K = zeta*n/eps as printed in "
                    "Sec. 5.1 the volume bound fails.",
          method="property")
def check_lemma61(quick: bool) -> Verdict:
    sample = _sample(quick)
    ok = True
    per_eps: dict[str, Any] = {}
    for eps in EPSILONS:
        worst_vol, min_ratio = 0.0, float("inf")
        failures: list[dict[str, Any]] = []
        for kind, w, v, zeta, opt, _ in sample:
            r = solve_volume_knapsack(w, v, zeta, method="cadp", eps=eps)
            vol_ok = r.volume <= (1 + eps) * zeta * (1 + VOLUME_RTOL)
            w_ok = r.weight >= opt * (1 - WEIGHT_RTOL)
            worst_vol = max(worst_vol, r.volume / zeta)
            min_ratio = min(min_ratio, r.weight / opt)
            if not (vol_ok and w_ok) and len(failures) < 3:
                failures.append({**_describe(kind, w, v, zeta), "opt_weight": opt,
                                 "cadp_weight": r.weight, "cadp_volume": r.volume})
            ok &= vol_ok and w_ok
        per_eps[f"eps={eps}"] = {"instances": len(sample), "worst_volume_over_zeta": worst_vol,
                                 "bound": 1 + eps, "min_weight_ratio_to_opt": min_ratio,
                                 "failures": failures}
    # the separating instance: n items of volume zeta and weight 1
    n, zeta, eps = 5, 1.0, 0.1
    w1, v1 = np.ones(n), np.full(n, zeta)
    printed = solve_volume_knapsack(w1, v1, zeta, method="cadp", eps=eps, scaling="printed")
    proof = solve_volume_knapsack(w1, v1, zeta, method="cadp", eps=eps)
    printed_fails = printed.volume > (1 + eps) * zeta
    proof_ok = proof.volume <= (1 + eps) * zeta and proof.weight >= 1.0
    separating = {
        "instance": f"{n} items of volume zeta = {zeta} and weight 1, eps = {eps}",
        "printed_K": zeta * n / eps, "printed_rounded_capacity": math.floor(eps / n),
        "printed_items_taken": int(printed.selected.size),
        "printed_volume_over_zeta": printed.volume / zeta,
        "proof_K": eps * zeta / n, "proof_items_taken": int(proof.selected.size),
        "proof_volume_over_zeta": proof.volume / zeta,
        "printed_violates_bound": printed_fails,
    }
    ok = ok and printed_fails and proof_ok
    sources = sorted({s for *_, s in sample})
    return Verdict(
        "holds" if ok else "violated",
        measured=tuple(r["worst_volume_over_zeta"] for r in per_eps.values()),
        bound=tuple(r["bound"] for r in per_eps.values()), relation="<=",
        quantity="largest CADP volume / zeta, per eps (weight >= OPT in details)",
        params={"epsilons": EPSILONS, "instances": len(sample)}, seed=SEED,
        details={"optimum_by": sources, "cadp_proof_scaling": per_eps,
                 "printed_scaling_separating_instance": separating})


def _literal_remark1(w: np.ndarray, v: np.ndarray, zeta: float) -> float:
    """Remark 1 word for word at capacity zeta: the better of {1..k-1} and {k}."""
    idx = np.flatnonzero(v <= zeta)
    order = idx[np.lexsort((idx, -(w[idx] / v[idx])))]
    P = np.cumsum(v[order])
    k = int(np.searchsorted(P, zeta, side="right"))
    if k == order.size:
        return float(w[order].sum())
    return max(float(w[order[:k]].sum()), float(w[order[k]]))


@register("FL24.Remark1", location="Sec. 6.1, Remark 1 (MRIS-GREEDY of Sec. 7.4)",
          statement="The density-ordered greedy that also takes the first item that does "
                    "not fit reaches at least the optimal knapsack weight within volume "
                    "2 zeta, and it needs that room: on some instance its volume exceeds "
                    "(1 + eps) zeta for every eps < 1.",
          method="property")
def check_remark1(quick: bool) -> Verdict:
    sample = _sample(quick)
    ok = True
    worst_vol, min_ratio, over_eps, literal_min = 0.0, float("inf"), 0, float("inf")
    failures: list[dict[str, Any]] = []
    for kind, w, v, zeta, opt, _ in sample:
        r = solve_volume_knapsack(w, v, zeta, method="greedy")
        vol_ok = r.volume <= 2 * zeta
        w_ok = r.weight >= opt * (1 - WEIGHT_RTOL)
        worst_vol = max(worst_vol, r.volume / zeta)
        min_ratio = min(min_ratio, r.weight / opt)
        over_eps += r.volume > (1 + max(EPSILONS)) * zeta
        literal_min = min(literal_min, _literal_remark1(w, v, zeta) / opt)
        if not (vol_ok and w_ok) and len(failures) < 3:
            failures.append({**_describe(kind, w, v, zeta), "opt_weight": opt,
                             "greedy_weight": r.weight, "greedy_volume": r.volume})
        ok &= vol_ok and w_ok
    # needs the room: the densest item fills zeta, the next one (volume zeta) overflows
    zeta = 1.0
    room = solve_volume_knapsack([2.0, 1.0], [zeta, zeta], zeta, method="greedy")
    needs_room = room.volume > (1 + max(EPSILONS)) * zeta and room.weight >= 2.0
    # the literal "better of" at capacity zeta falls short of OPT
    lw, lv = np.array([0.5, 0.5, 0.6, 0.6]), np.array([0.375, 0.375, 0.625, 0.625])
    ok = ok and needs_room
    details = {
        "min_weight_ratio_to_opt": min_ratio,
        f"instances_above_(1+{max(EPSILONS)})zeta": int(over_eps), "failures": failures,
        "needs_room_instance": {"weights": [2.0, 1.0], "volumes": [zeta, zeta],
                                "capacity": zeta, "selected": room.selected.tolist(),
                                "volume_over_zeta": room.volume / zeta,
                                "exceeds_(1+eps)zeta_for_eps": list(EPSILONS)},
        "literal_reading_better_of_at_capacity_zeta": {
            "min_weight_ratio_to_opt_on_sample": literal_min,
            "example": {"weights": lw.tolist(), "volumes": lv.tolist(), "capacity": 1.0,
                        "literal_weight": _literal_remark1(lw, lv, 1.0),
                        "opt_weight": _brute_opt(lw, lv, 1.0)},
            "note": "evidence only: the remark's conclusion needs {1..k}, not the better "
                    "of {1..k-1} and {k}"},
    }
    return Verdict("holds" if ok else "violated", measured=worst_vol, bound=2.0,
                   relation="<=",
                   quantity="largest greedy volume / zeta (weight >= OPT in details)",
                   params={"instances": len(sample)}, seed=SEED, details=details)
