"""``packsched optimum``: the offline optimum of a small finite job set (XLL21 P1 / P2,
FL24's weighted completion time and makespan)."""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

from packsched.arguments import budget_help, budgets, byte_size, integer, real
from packsched.errors import EXIT_OK, UsageError
from packsched.output import emit_json, fmt, note, stdout_to_stderr

NAME = "optimum"

#: seconds the whole command may take unless --time-limit says otherwise; the library's
#: capacity.programs.DEFAULT_TIME_LIMIT (read at run time, this only for --help, which
#: must not import the solvers; tests/cli/test_optimum_limits.py checks they agree)
TIME_LIMIT_HELP = 60

#: the flags each objective reads (parser destinations); any other one given is refused.
#: --jobs, --cluster, --objective and --json go with every objective.
USES: dict[str, tuple[str, ...]] = {
    "flowtime": ("k", "memory", "horizon", "time_limit", "max_variables", "max_memory"),
    "fractional-flowtime": ("k", "relax", "memory", "horizon", "time_limit",
                            "max_variables", "max_memory"),
    "weighted-completion": ("horizon", "time_limit", "max_variables", "max_nonzeros",
                            "max_memory"),
    "makespan": ("horizon", "time_limit", "max_variables", "max_nonzeros", "max_memory"),
}
XLL21 = ("flowtime", "fractional-flowtime")
_WHAT = {"flowtime": "XLL21's P1 (a MILP)", "fractional-flowtime": "XLL21's P2",
         "weighted-completion": "FL24's time-indexed MILP (weighted-completion)",
         "makespan": "FL24's time-indexed MILP (makespan)"}

EPILOG = """\
objectives:
  flowtime             XLL21 P1, eq. (4): sum_j (c_j - a_j)^k, a MILP (small instances)
  fractional-flowtime  XLL21 P2: eq. (5)'s fractional flowtime; integer cores (MILP), or
                       the LP relaxation with --relax
  weighted-completion  FL24 Sec. 3: sum_j w_j C_j (AWCT = that / N), non-preemptive, a
                       time-indexed MILP (integer releases and processing times)
  makespan             FL24 Sec. 6.2: max_j C_j, the same program
  --k, --relax, --memory and --no-memory go with the XLL21 objectives only, and
  --max-nonzeros with the FL24 ones; a flag an objective does not read is refused.

resources: XLL21 reads demand_0 as cores and demand_1 as memory; memory is modelled
whenever both files have a second resource (--no-memory drops it); a third resource is
refused, and so is a weight other than 1 (P1 and P2 are unweighted). FL24 reads every
demand column as a fraction of a machine, and the weights.

timing (XLL21 II-A): a job arriving at a_j is served from slot a_j + 1 on; completing in
slot c_j gives flowtime f_j = c_j - a_j. The time-indexed programs run over a horizon
long enough for every optimum (capacity.flowtime_programs.offline_horizon).
timing (FL24 Sec. 3): a job released at r_j starts at S_j >= r_j on one machine, runs
uninterrupted and completes at C_j = S_j + p_j; demands are fractions of a machine.

status: optimal (proven: certified true); time_limit (value is the best schedule found,
null if none; lower and upper bound the optimum); horizon_limit (--horizon is shorter
than a horizon every optimum fits in: value is optimal among the schedules ending by it
only, an upper bound); solver_tolerance (FL24: weights finer than HiGHS's proofs
resolve, the optimum is within [lower, upper]). Only optimal is certified.
--time-limit bounds the whole command, reading and building included.

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
    p.add_argument("--k", type=real(1), help="XLL21: exponent k >= 1 (default 2)")
    p.add_argument("--relax", action="store_true",
                   help="fractional-flowtime: the LP relaxation (cores continuous)")
    mem = p.add_mutually_exclusive_group()
    mem.add_argument("--memory", dest="memory", action="store_true", default=None,
                     help="XLL21: model memory (demand_1 against capacity_1; binary z, a "
                          "MILP); the default when both files have a second resource")
    mem.add_argument("--no-memory", dest="memory", action="store_false",
                     help="XLL21: drop demand_1/capacity_1 and pool the cores")
    p.add_argument("--horizon", type=integer(1), metavar="H",
                   help="slots of the time-indexed program (default: one every optimum "
                        "fits in; a shorter one answers with status horizon_limit)")
    p.add_argument("--time-limit", type=real(0, low_open=True), metavar="SECONDS",
                   help=f"seconds for the whole command (reading, building, solving); then "
                        f"it reports the bounds it has (status time_limit; default "
                        f"{TIME_LIMIT_HELP} s)")
    p.add_argument("--max-variables", type=integer(1), metavar="N",
                   help="budget of program variables (default 2,000,000)")
    p.add_argument("--max-nonzeros", type=integer(1), metavar="N",
                   help="FL24: budget of constraint-matrix nonzeros (default 20,000,000)")
    p.add_argument("--max-memory", type=byte_size, metavar="BYTES",
                   help=f"memory budget for reading the files and building the program "
                        f"(default {budget_help('MEMORY_BUDGET')})")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    p.set_defaults(func=run)


def _spelling(dest: str, value: object) -> str:
    if dest == "memory":
        return "--no-memory" if value is False else "--memory"
    return "--" + dest.replace("_", "-")


def _check_flags(args: argparse.Namespace) -> None:
    """Refuse a flag the objective does not read (the declaration :data:`USES`)."""
    used = USES[args.objective]
    known = {d for dests in USES.values() for d in dests}
    for dest in sorted(known - set(used)):
        value = getattr(args, dest)
        if value is None or (value is False and dest != "memory"):
            continue  # not given
        family = "XLL21" if args.objective in XLL21 else "FL24"
        reads = ", ".join("--memory/--no-memory" if d == "memory" else _spelling(d, True)
                          for d in used)
        raise UsageError(f"{_spelling(dest, value)} does not apply to --objective "
                         f"{args.objective} ({family}; it reads {reads})")


def run(args: argparse.Namespace) -> int:
    from capacity.programs import DEFAULT_TIME_LIMIT
    from theory.readers.job_files import read_instance

    t0 = time.perf_counter()
    _check_flags(args)
    limit = DEFAULT_TIME_LIMIT if args.time_limit is None else args.time_limit
    jobs, machines = read_instance(args.jobs, args.cluster,
                                   integers=args.objective in XLL21,
                                   **budgets(args, memory_budget="max_memory"))
    # --time-limit covers the reading too; a few microseconds stay for the bounds
    left = max(limit - (time.perf_counter() - t0), 1e-6)
    note(f"solving {_WHAT[args.objective]} for {jobs.n} jobs; it stops after {limit:g} s "
         f"with the bounds it has (--time-limit)")
    if args.objective in XLL21:
        res, out = _xll21(args, jobs, machines, left)
    else:
        res, out = _fl24(args, jobs, machines, left)
    out.update(value=res.value, lower=res.lower, upper=res.upper, status=res.status,
               certified=res.status == "optimal", source=res.extra.get("source"),
               stopped=res.extra.get("stopped"),
               seconds=time.perf_counter() - t0, horizon=res.extra.get("horizon"),
               time_limit=limit, max_variables=_in_force(args, "max_variables"),
               max_memory=_in_force(args, "max_memory"), method=res.method, jobs=jobs.n,
               machines=machines.m, jobs_file=args.jobs, cluster_file=args.cluster)
    if args.json:
        emit_json(out)
    else:
        _print(args, res, out)
    return EXIT_OK


def _in_force(args: argparse.Namespace, dest: str) -> int:
    """The budget in force: the flag's value, else the library's default."""
    given = getattr(args, dest)
    if given is not None:
        return int(given)
    if dest == "max_memory":
        from theory.budgets import MEMORY_BUDGET
        return MEMORY_BUDGET
    if dest == "max_nonzeros":
        from capacity.completion_programs import MAX_NONZEROS
        return MAX_NONZEROS
    from capacity.flowtime_programs import MAX_VARIABLES
    return MAX_VARIABLES


def _horizon_error(args: argparse.Namespace, err: Exception) -> None:
    """A ``--horizon`` too short for the jobs, in the flag's words."""
    if args.horizon is None or "too short" not in str(err):
        return
    if isinstance(err, ValueError):
        raise UsageError(f"--horizon {args.horizon}: {err}") from None
    raise UsageError(f"--horizon {args.horizon} is too short for these jobs: no schedule "
                     f"completes them all by it (leave it out for a horizon every optimum "
                     f"fits in)") from None


def _xll21(args: argparse.Namespace, jobs: Any, machines: Any, left: float
           ) -> tuple[Any, dict[str, Any]]:
    """XLL21's objectives: capacity.flowtime_programs.p1_optimum / p2_optimum."""
    from capacity import ProgramError
    from capacity.flowtime_programs import p1_optimum, p2_optimum

    if args.memory and jobs.resources < 2:
        raise UsageError(f"--memory needs a second resource (demand_1 in {args.jobs}, "
                         f"capacity_1 in {args.cluster}); these files have one")
    k = 2.0 if args.k is None else args.k
    kw: dict[str, Any] = {"memory": args.memory, "horizon": args.horizon,
                          "time_limit": left,
                          **budgets(args, max_variables="max_variables",
                                    memory_budget="max_memory")}
    with stdout_to_stderr(args.json):
        try:
            if args.objective == "flowtime":
                res = p1_optimum(jobs, machines, k, **kw)
            else:
                res = p2_optimum(jobs, machines, k, integer=not args.relax, **kw)
        except (ProgramError, ValueError) as err:
            _horizon_error(args, err)
            raise
    c = res.extra.get("completion")
    return res, {"objective": args.objective, "k": k, "relax": args.relax,
                 "memory": bool(res.extra["memory"]),
                 "safe_horizon": res.extra.get("safe_horizon"),
                 "completion": [] if c is None else [int(x) for x in c]}


def _fl24(args: argparse.Namespace, jobs: Any, machines: Any, left: float
          ) -> tuple[Any, dict[str, Any]]:
    """FL24's objectives: capacity.completion_programs.completion_optimum."""
    from capacity import ProgramError
    from capacity.completion_programs import completion_optimum

    with stdout_to_stderr(args.json):
        try:
            res = completion_optimum(
                jobs, machines, objective=args.objective, horizon=args.horizon,
                time_limit=left, **budgets(args, max_variables="max_variables",
                                           max_nonzeros="max_nonzeros",
                                           memory_budget="max_memory"))
        except (ProgramError, ValueError) as err:
            _horizon_error(args, err)
            raise
    ex = res.extra
    return res, {
        "objective": args.objective, "max_nonzeros": _in_force(args, "max_nonzeros"),
        "free_horizon": ex.get("free_horizon"),
        "weighted_completion": ex.get("weighted_completion"), "awct": ex.get("awct"),
        "makespan": ex.get("makespan"), "start": [float(x) for x in ex.get("start", [])],
        "machine": [int(x) for x in ex.get("machine", [])],
        "completion": [float(x) for x in ex.get("completion", [])]}


def _print(args: argparse.Namespace, res: Any, out: dict[str, Any]) -> None:
    what = {"flowtime": f"sum_j f_j^{fmt(out.get('k'))} (P1)",
            "fractional-flowtime": "fractional flowtime (P2" +
                                   (", LP relaxation)" if args.relax else ")"),
            "weighted-completion": "sum_j w_j C_j (FL24)", "makespan": "max_j C_j (FL24)"}
    memory = ", memory modelled" if out.get("memory") else ""
    horizon = "" if out["horizon"] is None else f", horizon {out['horizon']}"
    print(f"objective   {what[args.objective]} of {out['jobs']} jobs on {out['machines']} "
          f"machine(s){horizon}{memory}")
    value = "none found" if math.isnan(res.value) else fmt(res.value)
    print(f"value       {value}  [{fmt(res.lower)}, {fmt(res.upper)}] "
          f"({res.status}, {out['seconds']:.3g} s)"
          + (f"; AWCT {fmt(out['awct'])}" if out.get("awct") is not None else ""))
    if res.status == "time_limit":
        why = out.get("stopped") or "the solver stopped at the limit"
        print(f"            not proven within --time-limit {out['time_limit']:g} ({why}); "
              f"the optimum lies in [lower, upper]")
    elif res.status == "solver_tolerance":
        print("            the weights are finer than HiGHS's proof resolves: the optimum "
              "lies in [lower, upper]")
    elif res.status == "horizon_limit":
        safe = out.get("safe_horizon", out.get("free_horizon"))
        print(f"            optimal among the schedules ending by {out['horizon']} only "
              f"(a horizon of {safe} or more would prove the optimum)")
    if out["completion"]:
        print(f"completion  {out['completion']}")
