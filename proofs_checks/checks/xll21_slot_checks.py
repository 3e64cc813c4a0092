"""XLL21's per-slot claims checked against exact per-slot programs
(capacity.slot_programs): Lemmas 1 and 2 numerically, and Theorem 2."""

from __future__ import annotations

from typing import Any

import numpy as np

from proofs_checks.claims import Verdict, register
from theory.fractional_flowtime import thm2_ratio
from theory.slot_allocation import lemma1_rates, lemma2_rates

__all__ = ["lemma1_optimum", "thm2_slot_ratio"]


def _lemma_instances(rng: np.random.Generator, count: int) -> list[tuple]:
    out = []
    for _ in range(count):
        n = int(rng.integers(1, 7))
        out.append((rng.integers(-30, 10, n).astype(float), rng.integers(1, 8, n).astype(float),
                    float(rng.integers(0, 25)), rng.integers(1, 9, n).astype(float)))
    return out


def lemma1_optimum(coeff: np.ndarray, d: np.ndarray, C: float) -> tuple[float, float]:
    """The optimum of P3 with z = 1 (XLL21 Sec. IV-A, Lemma 1) on the same pooled
    capacity C as the closed form: (LP value, integer-program value).

    C = 0 is a cluster without cores: the only feasible point of sum_j d_j y_j <= 0,
    y >= 0 is y = 0, so both optima are exactly 0. It is settled here and not handed
    to the solver, whose programs refuse machines without cores (as theory.Machines
    does; eq. (27) divides by sum_i C_i).
    """
    from capacity.slot_programs import p3_optimum

    if C < 0:
        raise ValueError(f"the capacity must be >= 0, got {C!r}")
    if C == 0:
        return 0.0, 0.0
    M, free = np.array([C]), np.array([np.inf])
    lp = p3_optimum(coeff, d, np.zeros_like(d), M, free, use_memory=False, integer=False)
    mip = p3_optimum(coeff, d, np.zeros_like(d), M, free, use_memory=False, integer=True)
    return float(lp.value), float(mip.value)


@register("XLL21.Lemma1.numeric", location="Sec. IV-A, Lemma 1, eq. (22)",
          statement="Lemma 1's closed form (corrected) attains the optimum of P3 with z = 1, "
                    "computed by the LP and by the integer program (cores integral), on the "
                    "same pooled capacity C (C = 0: no cores, the optimum is y = 0).",
          method="LP")
def check_lemma1_numeric(quick: bool) -> Verdict:
    rng = np.random.default_rng(1)
    worst, rows, empty, infeasible = 0.0, [], 0, 0
    for coeff, d, C, _p in _lemma_instances(rng, 20 if quick else 200):
        y = lemma1_rates(coeff, d, C)
        closed = float(coeff @ y)
        lp, mip = lemma1_optimum(coeff, d, C)
        empty += C == 0
        # the closed form's y itself must be feasible: C = 0 admits y = 0 only
        infeasible += not (np.all(y >= -1e-12) and np.all(y <= 1 + 1e-12)
                           and d @ y <= C + 1e-9)
        gap = max(abs(closed - lp), abs(closed - mip))
        worst = max(worst, gap / max(1.0, abs(lp)))
        rows.append({"C": C, "closed_form": closed, "lp": lp, "milp": mip})
    ok = worst <= 1e-7 and infeasible == 0
    return Verdict("holds" if ok else "violated", measured=worst, bound=1e-7, relation="<=",
                   quantity="largest relative gap of the closed form to the LP and MILP "
                            "optima (infeasible closed forms: details)",
                   params={"instances": len(rows)}, seed=1,
                   details={"examples": rows[:5], "zero_capacity_instances": empty,
                            "infeasible_closed_forms": infeasible})


@register("XLL21.Lemma2.numeric", location="Sec. IV-C, Lemma 2, eqs. (38)-(39)",
          statement="Lemma 2's closed form (corrected) attains the optimum of the transient "
                    "local program (38), computed by the LP.",
          method="LP")
def check_lemma2_numeric(quick: bool) -> Verdict:
    from capacity.slot_programs import transient_local_program

    rng = np.random.default_rng(2)
    worst, rows = 0.0, []
    for _c, d, C, p in _lemma_instances(rng, 20 if quick else 200):
        rem = np.array([rng.integers(0, pi * di + 1) / di for pi, di in zip(p, d, strict=True)])
        y = lemma2_rates(p, rem, d, C)
        closed = float(np.sum(y / p))
        lp = transient_local_program(p, rem, d, C)
        worst = max(worst, abs(closed - lp.value) / max(1.0, abs(lp.value)))
        rows.append({"closed_form": closed, "lp": lp.value})
    ok = worst <= 1e-7
    return Verdict("holds" if ok else "violated", measured=worst, bound=1e-7, relation="<=",
                   quantity="largest relative gap of the closed form to the LP optimum",
                   params={"instances": len(rows)}, seed=2, details={"examples": rows[:5]})


def thm2_slot_ratio(rng: np.random.Generator) -> dict[str, Any]:
    """One random slot with memory: OCORP+M's allocation value sum_j pi_j sum_i x z
    against the exact P3 optimum (MILP), and Thm. 2's ratio for the instance."""
    from capacity.slot_programs import p3_optimum
    from policies.preemptive import OCORPM
    from policies.preemptive.engine import SlotView

    n, M = int(rng.integers(2, 7)), int(rng.integers(1, 3))
    d = rng.integers(1, 4, n).astype(float)
    mem = rng.integers(1, 4, n).astype(float)
    C = rng.integers(4, 9, M).astype(float)
    Mm = rng.integers(4, 9, M).astype(float)
    coeff = -rng.integers(1, 20, n).astype(float)  # every job wants service
    view = SlotView(1, np.arange(n), np.zeros(n), np.full(n, 100.0), d, mem,
                    np.full(n, 100.0), (100 * d).astype(np.int64), C, Mm,
                    np.zeros((n, M), np.int64), 1.0)

    class Fixed(OCORPM):
        def coefficients(self, v: SlotView) -> np.ndarray:
            return coeff

        def update(self, v: SlotView, cores: np.ndarray) -> None:
            pass

    alloc = Fixed().allocate(view)
    x = alloc.cores / d[:, None]
    z = alloc.memory if alloc.memory is not None else (alloc.cores > 0)
    ours = float(np.sum(-coeff * (x * z).sum(axis=1)))
    exact = p3_optimum(coeff, d, mem, C, Mm, use_memory=True, integer=True)
    best = -exact.value
    return {"n": n, "machines": M, "ocorp_m": ours, "optimum": best,
            "ratio": ours / best if best > 0 else 1.0,
            "thm2_bound": thm2_ratio(d, mem, C, Mm)}


@register("XLL21.Thm2", location="Sec. III-B, Theorem 2, eqs. (13)-(20)",
          statement="OCORP+M's per-slot allocation attains at least min_i (M_i - m_max)/"
                    "(C_i + 2 d_min) * d_min/m_max of the exact P3 optimum.",
          method="property")
def check_thm2(quick: bool) -> Verdict:
    rng = np.random.default_rng(22)
    rows = [thm2_slot_ratio(rng) for _ in range(15 if quick else 150)]
    bad = [r for r in rows if r["ratio"] < r["thm2_bound"] - 1e-9]
    tight = min(rows, key=lambda r: r["ratio"] - r["thm2_bound"])
    details = {
        "smallest_ratio": min(r["ratio"] for r in rows),
        "largest_bound": max(r["thm2_bound"] for r in rows),
        "vacuous_bounds": sum(r["thm2_bound"] <= 0 for r in rows),
        "below_bound": bad[:5], "examples": rows[:5],
    }
    return Verdict("holds" if not bad else "violated", measured=tight["ratio"],
                   bound=tight["thm2_bound"], relation=">=",
                   quantity="OCORP+M's value / the P3 optimum against Thm. 2's ratio, on the "
                            "instance closest to it",
                   params={"instances": len(rows)}, seed=22, details=details)


