"""XLL21 claims checked by running its policies: Example 1 (Fair, Table I)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from policies.preemptive import Fair, PreemptivePolicy, run_schedule
from proofs_checks.registry import Verdict, register
from theory.fractional_flowtime import flowtimes, fractional_flowtimes
from theory.job_sets import JobSet, Machines

__all__ = ["EXAMPLE1_JOBS", "EXAMPLE1_CLUSTER", "example1"]

#: XLL21 Example 1 in integers: three jobs at time 0 with p = 1, 2, 3, each demanding
#: 0.9 of a machine (18 of its 20 cores); memory negligible (1 of 4)
EXAMPLE1_JOBS = JobSet(np.array([0, 0, 0]), np.array([1, 2, 3]), np.array([[18, 1]] * 3))
EXAMPLE1_CLUSTER = Machines(np.array([[20, 4]]))
#: the values printed in Example 1
PRINTED_FRACTIONAL = [Fraction(3), Fraction(21, 4), Fraction(43, 6)]
PRINTED_FLOWTIME = [3, 5, 6]


def example1(policy: PreemptivePolicy | None = None) -> dict:
    """Run ``policy`` (Fair) on Example 1; fractional flowtimes from the run and from
    eq. (5) on its rates, flowtimes, and the approximation ratio."""
    res = run_schedule(policy or Fair(), EXAMPLE1_JOBS, EXAMPLE1_CLUSTER, k=1)
    y = res.rates()
    formula = fractional_flowtimes(y, EXAMPLE1_JOBS.arrival, EXAMPLE1_JOBS.processing, 1)
    flow = flowtimes(y, EXAMPLE1_JOBS.arrival, EXAMPLE1_JOBS.processing)
    return {"policy": res.policy, "rates": np.round(y, 12).tolist(),
            "fractional_run": res.fractional.tolist(), "fractional_eq5": formula.tolist(),
            "flowtime": flow.tolist(), "ratio": float(formula.sum() / flow.sum()),
            "invariants_ok": res.invariants_ok}


@register("XLL21.Example1", location="Sec. II-C, Example 1 and Table I",
          statement="Under the Fair scheduler, three jobs with p = 1, 2, 3 and demand 0.9 "
                    "have fractional flowtimes 3, 5.25, 7 1/6 and flowtimes 3, 5, 6: the "
                    "fractional flowtime approximates the flowtime within a ratio of 1.1.",
          method="simulation")
def check_example1(quick: bool) -> Verdict:
    ev = example1()
    frac_ok = (np.allclose(ev["fractional_run"], [float(v) for v in PRINTED_FRACTIONAL],
                           rtol=0, atol=1e-9)
               and np.allclose(ev["fractional_eq5"], ev["fractional_run"], atol=1e-9))
    ok = (frac_ok and ev["flowtime"] == PRINTED_FLOWTIME and round(ev["ratio"], 1) == 1.1
          and ev["invariants_ok"])
    ev.update(printed_fractional=[str(v) for v in PRINTED_FRACTIONAL],
              printed_flowtime=PRINTED_FLOWTIME, printed_ratio=1.1,
              instance="d_j = 18 of C = 20 cores (0.9), memory 1 of 4; Fair gives each "
                       "present job the rate 1/n (Table I)")
    return Verdict("holds" if ok else "violated", ev)
