"""``packsched optimum``: the offline optimum of a small finite job set (XLL21 P1 / P2,
FL24's weighted completion time and makespan)."""

from __future__ import annotations

import argparse
from typing import Any

from packsched.arguments import budget_help, budgets, byte_size, integer, real
from packsched.errors import EXIT_OK, UsageError
from packsched.output import emit_json, fmt, note, stdout_to_stderr

NAME = "optimum"

#: seconds a solve may take unless --time-limit says otherwise (a crowded P1 MILP of 40
#: jobs is not proven in minutes; the answer then carries its proven bounds)
DEFAULT_TIME_LIMIT = 60.0

EPILOG = """\
objectives:
  flowtime             XLL21 P1, eq. (4): sum_j (c_j - a_j)^k, a MILP (small instances)
  fractional-flowtime  XLL21 P2: eq. (5)'s fractional flowtime; integer cores (MILP), or
                       the LP relaxation with --relax
  weighted-completion  FL24 Sec. 3: sum_j w_j C_j (AWCT = that / N), non-preemptive, a
                       time-indexed MILP (integer releases and processing times)
  makespan             FL24 Sec. 6.2: max_j C_j, the same program

timing (XLL21 II-A): a job arriving at a_j is served from slot a_j + 1 on; completing in
slot c_j gives flowtime f_j = c_j - a_j. The time-indexed programs run over a horizon
long enough for every optimum (capacity.flowtime_programs.offline_horizon).
timing (FL24 Sec. 3): a job released at r_j starts at S_j >= r_j on one machine, runs
uninterrupted and completes at C_j = S_j + p_j; demands are fractions of a machine.

examples:
  packsched optimum --jobs jobs.csv --cluster cluster.csv --objective flowtime --k 1
  packsched optimum --jobs jobs.csv --cluster cluster.csv --objective fractional-flowtime \\
      --relax --json
  packsched optimum --jobs vms.csv --cluster unit2.csv --objective weighted-completion
"""


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        NAME, help="offline optimum of a small job set (XLL21 P1, P2; FL24)",
        description="Compute the offline optimum of the l_k flowtime (P1) or of the "
                    "fractional flowtime (P2) of the jobs of a file (XLL21 Sec. II), or the "
                    "non-preemptive weighted completion time or makespan (FL24 Sec. 3).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jobs", required=True, metavar="FILE", help="jobs CSV file")
    p.add_argument("--cluster", required=True, metavar="FILE", help="cluster CSV file")
    p.add_argument("--objective", required=True,
                   choices=["flowtime", "fractional-flowtime", "weighted-completion",
                            "makespan"])
    p.add_argument("--k", type=real(1), default=2.0, help="exponent k >= 1 (default 2)")
    p.add_argument("--relax", action="store_true",
                   help="fractional-flowtime: the LP relaxation (cores continuous)")
    p.add_argument("--memory", action="store_true",
                   help="model memory (demand_1 against capacity_1; binary z, a MILP)")
    p.add_argument("--horizon", type=integer(1), metavar="H",
                   help="slots of the time-indexed program (default: one every optimum fits)")
    p.add_argument("--time-limit", type=real(0, low_open=True), metavar="SECONDS",
                   default=DEFAULT_TIME_LIMIT,
                   help=f"stop the solver after this long and report the bounds it proved "
                        f"(status time_limit; default {DEFAULT_TIME_LIMIT:g} s)")
    p.add_argument("--max-variables", type=integer(1), metavar="N",
                   help="budget of program variables (default 2,000,000)")
    p.add_argument("--max-memory", type=byte_size, metavar="BYTES",
                   help=f"memory budget for reading the files (default "
                        f"{budget_help('MEMORY_BUDGET')})")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from capacity.flowtime_programs import p1_optimum, p2_optimum
    from theory.job_files import read_instance

    if args.objective in ("weighted-completion", "makespan"):
        return _fl24(args)
    if args.relax and args.objective != "fractional-flowtime":
        raise UsageError("--relax goes with --objective fractional-flowtime (P1 has no "
                         "relaxation here)")
    jobs, machines = read_instance(args.jobs, args.cluster, integers=True,
                                   **budgets(args, memory_budget="max_memory"))
    kw: dict[str, Any] = {"memory": args.memory, "horizon": args.horizon,
                          "time_limit": args.time_limit,
                          **budgets(args, max_variables="max_variables")}
    from capacity import ProgramError

    exact = args.objective == "flowtime" or not args.relax
    note(f"solving {'P1' if args.objective == 'flowtime' else 'P2'} for {jobs.n} jobs"
         f"{' as a MILP' if exact else ''}; it stops after {args.time_limit:g} s with the "
         f"bounds it has (--time-limit)")
    with stdout_to_stderr(args.json):
        try:
            if args.objective == "flowtime":
                res = p1_optimum(jobs, machines, args.k, **kw)
            else:
                res = p2_optimum(jobs, machines, args.k, integer=not args.relax, **kw)
        except ProgramError as err:
            if args.horizon is not None and "too short" in str(err):
                raise UsageError(f"--horizon {args.horizon} is too short for these jobs: no "
                                 f"schedule completes them all (leave it out for a horizon "
                                 f"every optimum fits in)") from None
            raise
    certified = res.status == "optimal"
    out = {"objective": args.objective, "k": args.k, "relax": args.relax,
           "memory": args.memory, "value": res.value, "lower": res.lower, "upper": res.upper,
           "status": res.status, "certified": certified, "seconds": res.seconds,
           "horizon": res.extra.get("horizon"),
           "completion": [int(c) for c in res.extra.get("completion", [])],
           "method": res.method, "jobs": jobs.n, "machines": machines.m,
           "jobs_file": args.jobs, "cluster_file": args.cluster}
    if args.json:
        emit_json(out)
    else:
        what = {"flowtime": f"sum_j f_j^{fmt(args.k)} (P1)",
                "fractional-flowtime": "fractional flowtime (P2" +
                                       (", LP relaxation)" if args.relax else ")")}
        print(f"objective   {what[args.objective]} of {jobs.n} jobs on {machines.m} "
              f"machine(s), horizon {out['horizon']}")
        print(f"value       {fmt(res.value)}  [{fmt(res.lower)}, {fmt(res.upper)}] "
              f"({res.status}, {res.seconds:.3g} s)")
        if out["completion"]:
            print(f"completion  {out['completion']}")
    return EXIT_OK


def _fl24(args: argparse.Namespace) -> int:
    """FL24's objectives: capacity.completion_programs.completion_optimum."""
    from capacity import ProgramError
    from capacity.completion_programs import completion_optimum
    from theory.job_files import read_instance

    for flag, bad in (("--relax", args.relax), ("--memory", args.memory)):
        if bad:
            raise UsageError(f"{flag} belongs to the XLL21 objectives, not to "
                             f"--objective {args.objective} (FL24)")
    jobs, machines = read_instance(args.jobs, args.cluster,
                                   **budgets(args, memory_budget="max_memory"))
    note(f"solving FL24's time-indexed MILP ({args.objective}) for {jobs.n} jobs; it stops "
         f"after {args.time_limit:g} s with the bounds it has (--time-limit)")
    with stdout_to_stderr(args.json):
        try:
            res = completion_optimum(jobs, machines, objective=args.objective,
                                     horizon=args.horizon, time_limit=args.time_limit,
                                     **budgets(args, max_variables="max_variables"))
        except ProgramError as err:
            if args.horizon is not None and "horizon" in str(err):
                raise UsageError(f"--horizon {args.horizon}: {err}") from None
            raise
    ex = res.extra
    out = {"objective": args.objective, "value": res.value, "lower": res.lower,
           "upper": res.upper, "status": res.status, "certified": res.status == "optimal",
           "seconds": res.seconds, "horizon": ex.get("horizon"),
           "weighted_completion": ex.get("weighted_completion"), "awct": ex.get("awct"),
           "makespan": ex.get("makespan"),
           "start": [float(x) for x in ex.get("start", [])],
           "machine": [int(x) for x in ex.get("machine", [])],
           "completion": [float(x) for x in ex.get("completion", [])],
           "method": res.method, "jobs": jobs.n, "machines": machines.m,
           "jobs_file": args.jobs, "cluster_file": args.cluster}
    if args.json:
        emit_json(out)
    else:
        what = {"weighted-completion": "sum_j w_j C_j", "makespan": "max_j C_j"}
        print(f"objective   {what[args.objective]} (FL24) of {jobs.n} jobs on {machines.m} "
              f"machine(s), horizon {out['horizon']}")
        print(f"value       {fmt(res.value)}  [{fmt(res.lower)}, {fmt(res.upper)}] "
              f"({res.status}, {res.seconds:.3g} s); AWCT {fmt(out['awct'])}")
        print(f"completion  {out['completion']}")
    return EXIT_OK
