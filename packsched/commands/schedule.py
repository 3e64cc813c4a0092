"""``packsched schedule``: one policy on a finite job set (XLL21 and FL24 families)."""

from __future__ import annotations

import argparse
from typing import Any

from packsched.arguments import (
    budget_help,
    budgets,
    byte_size,
    given_options,
    integer,
    real,
    route,
)
from packsched.commands import schedule_nonpreemptive
from packsched.errors import EXIT_OK, ComputationError, UsageError, require_invariants
from packsched.output import emit_json, fmt, inputs_checked, stdout_to_stderr

NAME = "schedule"

EPILOG = """\
files (docs/design.md, "Contracts"):
  jobs     CSV, header id,arrival,processing,weight,demand_0[,demand_1,...]: XLL21 reads
           demand_0 as cores d_j and demand_1 as memory m_j, every field an integer;
           FL24 reads the demands as fractions of a machine (R resources)
  cluster  CSV, header id,capacity_0[,capacity_1,...]: XLL21 cores C_i and memory M_i
           per machine; FL24 rows of ones (identical unit machines)

timing (XLL21 II-A): a job arriving at a_j is served from slot a_j + 1 on; completing
in slot c_j gives flowtime f_j = c_j - a_j. FL24 Sec. 3: continuous time, a job
released at r_j starts at S_j >= r_j and completes at C_j = S_j + p_j, never moved.

examples:
  packsched schedule --policy fair --jobs jobs.csv --cluster cluster.csv --k 1
  packsched schedule --policy ocorp-m --jobs jobs.csv --cluster cluster.csv --json
  packsched schedule --policy mris --eps 0.1 --jobs vms.csv --cluster unit20.csv --json
"""


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        NAME, help="run a policy on a finite job set (XLL21 preemptive, FL24 "
                   "non-preemptive)",
        description="Run a scheduling policy on the jobs of a file until all complete, "
                    "and report flowtimes (XLL21 Sec. II).", epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--policy", required=True, metavar="NAME",
                   help="a policy of the xll21-preemptive or fl24-nonpreemptive family "
                        "(packsched policies)")
    p.add_argument("--jobs", required=True, metavar="FILE", help="jobs CSV file")
    p.add_argument("--columns", type=column_mapping, metavar="FIELD=COLUMN,...",
                   help="read a trace's own jobs CSV: which of its columns hold the id, "
                        "arrival, processing, weight and demand (resources joined by '+', "
                        "in order), e.g. arrival=submit_time,processing=duration,"
                        "demand=cpu+mem,id=job; fields left out are read from the columns "
                        "of their own names, other columns are ignored; the values must "
                        "already be in the model's units (times: XLL21 slots, FL24 time "
                        "units; demands: the cluster's capacity units)")
    p.add_argument("--cluster", required=True, metavar="FILE", help="cluster CSV file")
    p.add_argument("--k", type=real(1),
                   help="exponent of the l_k norm, >= 1 (default 2)")
    mem = p.add_mutually_exclusive_group()
    mem.add_argument("--memory", dest="memory", action="store_true", default=None,
                     help="model memory (demand_1 against capacity_1)")
    mem.add_argument("--no-memory", dest="memory", action="store_false",
                     help="cores only (XLL21 IV: the single-resource setting)")
    p.add_argument("--gamma", type=real(0, low_open=True),
                   help="ocorp*: Gamma of eq. (7) (default eq. (27) over the job set)")
    p.add_argument("--mu", type=real(0, low_open=True),
                   help="ocorp*: a constant step size (default t^(k+0.5) in slot t)")
    p.add_argument("--alpha", type=real(0),
                   help="ocorp-plus: weight of the switching cost (default 10)")
    p.add_argument("--max-slots", type=integer(1), metavar="T",
                   help="stop a run after T slots (default: a generous cap, and runs that "
                        "must serve jobs in more than 10^7 slots are refused)")
    p.add_argument("--allow-unfinished", action="store_true", default=None,
                   help="report a run stopped at --max-slots with jobs unfinished (exit 0; "
                        "their completions are null, objectives given as *_lower bounds) "
                        "instead of failing with exit 3")
    p.add_argument("--max-memory", type=byte_size, metavar="BYTES",
                   help=f"memory budget for the files and the run's record, e.g. 16G "
                        f"(default {budget_help('MEMORY_BUDGET')})")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    p.add_argument("--dry-run", action="store_true",
                    help="check every input and build the policy; run nothing (a sweep "
                         "checks its points this way)")
    schedule_nonpreemptive.add_arguments(p)
    p.set_defaults(func=run)




def column_mapping(text: str) -> dict[str, Any]:
    """``--columns``: ``arrival=submit_time,demand=cpu+mem`` -> ``{"arrival":
    "submit_time", "demand": ["cpu", "mem"]}`` (names stripped, as the reader strips the
    header's); a malformed mapping is refused in one line."""
    from theory.job_sets import JOB_FIELDS

    out: dict[str, Any] = {}
    for part in text.split(","):
        field, eq, name = (x.strip() for x in part.partition("="))
        if not eq:
            raise argparse.ArgumentTypeError(
                f"{part.strip()!r} is not FIELD=COLUMN (e.g. arrival=submit_time)")
        if field not in JOB_FIELDS:
            raise argparse.ArgumentTypeError(
                f"unknown field {field!r}; the fields are {', '.join(JOB_FIELDS)}")
        if field in out:
            raise argparse.ArgumentTypeError(f"field {field!r} is mapped twice")
        names = [n.strip() for n in name.split("+")] if field == "demand" else [name]
        if any(not n for n in names):
            raise argparse.ArgumentTypeError(
                f"{field}= names an empty column ({part.strip()!r})")
        out[field] = names if field == "demand" else name
    return out


def run(args: argparse.Namespace) -> int:
    return route(args, NAME, {"xll21-preemptive": _run_preemptive,
                              "fl24-nonpreemptive": schedule_nonpreemptive.run})


def _run_preemptive(args: argparse.Namespace) -> int:
    from policies.preemptive import PreemptivePolicy, run_schedule
    from policies.registry import POLICIES, make_policy
    from theory.readers.job_files import read_instance

    info = POLICIES[args.policy]
    given = given_options(args)
    if args.policy == "ocorp-mapreduce":
        raise UsageError("ocorp-mapreduce schedules MapReduce jobs (two phases per job), "
                         "which the jobs file cannot describe: use the Python API "
                         "(theory.mapreduce.MapReduceJobs, policies.preemptive.OCORPMapReduce)")
    policy = make_policy(args.policy, **{k: given[k] for k in info.keywords if k in given})
    assert isinstance(policy, PreemptivePolicy)
    mem = budgets(args, memory_budget="max_memory")
    jobs, machines = read_instance(args.jobs, args.cluster, integers=True,
                                   columns=args.columns, **mem)
    if args.memory is None and not policy.uses_memory and \
            max(jobs.resources, machines.resources) >= 2:
        raise UsageError(f"{args.policy} allocates cores only, and the files have a memory "
                         f"column (demand_1/capacity_1) it would not read: add --no-memory "
                         f"to schedule by cores alone, or use a policy that models memory")
    if args.memory and not policy.uses_memory:
        raise UsageError(f"--memory: {args.policy} allocates cores only (use --no-memory, "
                         f"or a policy that models memory)")
    if args.memory and min(jobs.resources, machines.resources) < 2:
        raise UsageError("--memory needs a memory column in both files (demand_1 in the "
                         "jobs, capacity_1 in the cluster)")
    if args.dry_run:
        return inputs_checked(args)
    with stdout_to_stderr(args.json):
        res = run_schedule(policy, jobs, machines, k=2.0 if args.k is None else args.k,
                           memory=args.memory, max_slots=args.max_slots, **mem)
    out = res.summary()
    out.update(jobs_file=args.jobs, cluster_file=args.cluster)
    if res.stopped and not args.allow_unfinished:
        raise ComputationError(f"{args.policy} stopped: {res.stop_reason}; no completion or "
                               f"objective is reported for a stopped run (raise --max-slots, "
                               f"or add --allow-unfinished to see it with lower bounds)")
    if args.json:
        emit_json(out)
    else:
        _print(out)
    require_invariants(res, args.policy)
    return EXIT_OK


def _print(out: dict[str, Any]) -> None:
    k = out["k"]
    print(f"policy      {out['policy']} on {out['jobs']} jobs, {out['machines']} machine(s)"
          f"{', memory modelled' if out['memory'] else ''}")
    if out["status"] == "stopped":
        print(f"STOPPED     {out['stop_reason']}: objectives are lower bounds")
        print(f"flowtime    l_{fmt(k)} norm >= {fmt(out['flowtime_lk_lower'])}, fractional "
              f"(eq. (5)) >= {fmt(out['fractional_flowtime_lk_lower'])}")
        print(f"makespan    >= {out['makespan_lower']} slots; {out['preemptions']} "
              f"preemptions, {out['migrations']} migrations")
    else:
        print(f"flowtime    l_{fmt(k)} norm {fmt(out['flowtime_lk'])}, fractional (eq. (5)) "
              f"{fmt(out['fractional_flowtime_lk'])}")
        print(f"makespan    {out['makespan']} slots; {out['preemptions']} preemptions, "
              f"{out['migrations']} migrations")
    print(f"invariants  {'ok' if out['invariants_ok'] else 'VIOLATED'} "
          f"({out['seconds']:.3g} s)")
