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

traces (--trace NAME instead of --jobs; the rules and units are in the JSON's "trace"):
  google2011[:first=N]   XLL21 VI's job set (one task per job, 1,508 jobs, 10-s slots)
  alibaba2017[:first=N]  one Terminated task per job (its run time is an upper bound)
  azure2017[:both|dev|test][:first=N]  one job per VM (FL24 Sec. 7.1's stand-in)
  google2019 is refused: it has no times. Default cluster: servers of 64, 32 and 16
  cores (XLL21) or 20 unit machines (FL24); --cluster FILE replaces it.

examples:
  packsched schedule --policy fair --jobs jobs.csv --cluster cluster.csv --k 1
  packsched schedule --policy srpt --trace google2011:first=300
  packsched schedule --policy mris --trace azure2017:dev:first=2000 --json
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
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--jobs", metavar="FILE", help="jobs CSV file")
    # stored where --jobs is (a job set from elsewhere): the families declare "jobs"
    src.add_argument("--trace", dest="jobs", type=trace_argument, metavar="NAME",
                     help="a packaged trace's job set instead of a file: google2011, "
                          "alibaba2017 or azure2017[:both|dev|test], with :first=N for the "
                          "first N jobs (see 'traces' below)")
    p.add_argument("--columns", type=column_mapping, metavar="FIELD=COLUMN,...",
                   help="read a trace's own jobs CSV: which of its columns hold the id, "
                        "arrival, processing, weight and demand (resources joined by '+', "
                        "in order), e.g. arrival=submit_time,processing=duration,"
                        "demand=cpu+mem,id=job; fields left out are read from the columns "
                        "of their own names, other columns are ignored; the values must "
                        "already be in the model's units (times: XLL21 slots, FL24 time "
                        "units; demands: the cluster's capacity units)")
    p.add_argument("--cluster", metavar="FILE",
                   help="cluster CSV file (required with --jobs; with --trace, replaces the "
                        "default cluster)")
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




class TraceArgument(str):
    """A ``--trace NAME`` value (a packaged trace's job set), kept apart from a file name
    in ``args.jobs``."""


def trace_argument(text: str) -> TraceArgument:
    """``--trace``: a packaged trace name (:mod:`theory.readers.trace_names`), its
    grammar checked at once; a malformed name is refused in one line."""
    from theory.readers.trace_names import parse_trace_name

    try:
        parse_trace_name(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return TraceArgument(text)


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
    if isinstance(args.jobs, TraceArgument):
        if args.columns is not None:
            raise UsageError("--columns maps the columns of a --jobs file; --trace reads a "
                             "packaged trace in its own format (leave --columns out)")
    elif args.cluster is None:
        raise UsageError("--cluster FILE is required with --jobs")
    return route(args, NAME, {"xll21-preemptive": _run_preemptive,
                              "fl24-nonpreemptive": _run_nonpreemptive})


def _trace_instance(args: argparse.Namespace, family: str, mem: dict[str, Any]
                    ) -> tuple[Any, Any, dict[str, Any]]:
    """The job set of ``--trace`` in ``family``'s units, on its default cluster or on
    ``--cluster``; every job must fit a machine."""
    from theory.job_sets import check_fits, require_integers
    from theory.readers.job_files import read_cluster
    from theory.readers.trace_names import trace_job_set

    s = trace_job_set(str(args.jobs), family)
    info, machines = dict(s.info), s.machines
    if args.cluster is not None:
        xll21 = family == "xll21-preemptive"
        machines = read_cluster(args.cluster, integers=xll21, **mem)
        if machines.resources != s.jobs.resources:
            raise UsageError(f"{args.cluster} has {machines.resources} capacity column(s); "
                             f"the trace's jobs demand {s.jobs.resources} resources (cpu, "
                             f"memory)")
        if xll21:
            require_integers(s.jobs, machines)
        info["cluster"] = str(args.cluster)
    check_fits(s.jobs, machines)
    return s.jobs, machines, info


def _run_nonpreemptive(args: argparse.Namespace) -> int:
    """FL24's family (:mod:`packsched.commands.schedule_nonpreemptive`) on a jobs file or
    on a packaged trace's job set."""
    if not isinstance(args.jobs, TraceArgument):
        return schedule_nonpreemptive.run(args)
    if args.max_memory is not None and args.cluster is None:
        raise UsageError("--max-memory budgets reading the --jobs and --cluster files; "
                         "--trace reads packaged data (leave it out)")
    return schedule_nonpreemptive.run(args, lambda: _trace_instance(
        args, "fl24-nonpreemptive", budgets(args, memory_budget="max_memory")))


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
    trace = None
    if isinstance(args.jobs, TraceArgument):
        jobs, machines, trace = _trace_instance(args, "xll21-preemptive", mem)
    else:
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
    if trace is not None:
        out.update(jobs_file=None, trace=trace)
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
