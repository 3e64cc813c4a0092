"""``packsched simulate``: one policy in the PG21 slotted model, with its stability
verdict (``policies.judge_stability``) and re-checked invariants."""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from packsched.arguments import (
    budget_help,
    budgets,
    byte_size,
    given_options,
    integer,
    number_list,
    number_text,
    parse_flag,
    real,
    route,
)
from packsched.commands import simulate_continuous
from packsched.errors import EXIT_OK, UsageError, require_invariants
from packsched.inputs import discrete_from_args
from packsched.output import emit_json, fmt, inputs_checked, stdout_to_stderr
from theory.instances import EC2_TABLE_I

NAME = "simulate"

EPILOG = f"""\
examples:
  packsched simulate --policy vqs --sizes 0.4,0.6 --mu 0.01 --workload 1.4
  packsched simulate --policy bf-js --capacity 10 --sizes 2,5 --probs 2/3,1/3 \\
      --deterministic 100 --workload 3.06 --slots 400000
  packsched simulate --policy vqs-bf --dist uniform:0.1,0.9 --servers 5 --intensity 0.9
  packsched simulate --policy fifo-ff --trace google2011 --servers 1000 --traffic-scaling 1.2
  packsched simulate --policy bf-js --trace azure2017:dev --servers 2000 --slots 500
  packsched simulate --policy bf-js --trace google2019:c --servers 10 --intensity 0.9
  packsched simulate --policy rms --sizes 2,5 --capacity 10 --servers 10 \
      --rates 20.8,10.4 --time 2000
  packsched simulate --policy rms-rf-ad-plus --sizes "{EC2_TABLE_I.sizes_text}" \
      --capacity {EC2_TABLE_I.capacity_text} --servers 20 --intensity 0.9 --time 500
"""


def add_parser(sub: Any) -> None:
    sm = sub.add_parser(
        NAME, help="simulate a queueing policy (PG21 slotted, PG18 continuous time)",
        description="Simulate a scheduling policy and judge stability: the PG21 Sec. II "
                    "slotted model, or the PG18 Sec. II continuous-time model with job "
                    "types (the policy name decides).", epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sm.add_argument("--policy", required=True, metavar="NAME",
                    help="policy name (packsched policies)")
    src = sm.add_argument_group("job sizes").add_mutually_exclusive_group()
    src.add_argument("--sizes", metavar="S1,S2,...",
                     help="job sizes in capacity units; PG18 policies: vectors, types split "
                          "by ';' and resources by ',' (8,15;6.5,17.1)")
    src.add_argument("--dist", metavar="SPEC",
                     help="named distribution on (0, 1], as rho-star --dist: uniform, "
                          "discrete, point, beta, lognormal, gamma, empirical:FILE, mixture")
    src.add_argument("--trace", metavar="NAME",
                     help="a packaged trace NAME[:SELECTOR][:KIND][:first=N] (KIND max|cpu|"
                          "memory, default max): google2011, alibaba2017, azure2017[:both|"
                          "dev|test] replay their arrivals, sizes and runtimes (with "
                          "--traffic-scaling); google2019[:a..h] has no times and is a size "
                          "law with synthetic arrivals (--workload or --intensity)")
    sm.add_argument("--probs", type=number_list(), metavar="P1,P2,...",
                    help="type probabilities of --sizes")
    sm.add_argument("--counts", type=number_list(), metavar="N1,N2,...",
                    help="type multiplicities of --sizes")
    sm.add_argument("--servers", "-L", type=integer(1), default=1, metavar="L")
    sm.add_argument("--capacity", "-C", metavar="C",
                    help="server capacity (default 1); PG18: one per resource, "
                         f"{EC2_TABLE_I.capacity_text}")
    sm.add_argument("--mu", metavar="MU",
                    help="geometric service: departure probability per slot, in (0, 1] "
                         "(default 0.01); PG18: service rate per type (default 1)")
    sm.add_argument("--deterministic", type=integer(1), metavar="D",
                    help="deterministic service of D slots instead (PG21 Fig. 3b)")
    load = sm.add_mutually_exclusive_group()
    load.add_argument("--workload", type=real(0, low_open=True), metavar="RHO",
                      help="rho = lambda / mu")
    load.add_argument("--intensity", type=real(0, low_open=True), metavar="ALPHA",
                      help="rho = ALPHA * L / R-bar (PG21 VII-A)")
    sm.add_argument("--arrivals", choices=["poisson", "bernoulli"],
                    help="PG21: arrivals per slot (default poisson)")
    sm.add_argument("--traffic-scaling", type=real(0, low_open=True),
                    help="--trace: arrival-rate multiplier 1/beta (PG21 VII-B; default 1)")
    sm.add_argument("--slots", type=integer(1), help="PG21: slots simulated (default 100000)")
    sm.add_argument("--warmup", type=real(0),
                    help="slots (PG18: time) excluded from averages (default a fifth)")
    sm.add_argument("--seed", type=integer(0), default=0, help="non-negative integer")
    sm.add_argument("--J", type=integer(1), help="vqs, vqs-bf: universal partition depth")
    sm.add_argument("--small-jobs", choices=("rounded", "actual"),
                    help="vqs, vqs-bf: jobs <= 1/2^J occupy 1/2^J (rounded, PG21 V-A; "
                         "default) or their size (actual)")
    sm.add_argument("--hol", choices=("skip", "stop"),
                    help="vqs: step (ii) passes over a VQ_j job that does not fit (skip; "
                         "default) or stops at it (stop)")
    sm.add_argument("--levels", type=integer(0),
                    help="maxweight on a continuous law: quantile partition X^(levels) "
                         "(default 2)")
    sm.add_argument("--max-memory", type=byte_size, metavar="BYTES",
                    help=f"memory budget of the run, e.g. 16G (default "
                         f"{budget_help('MEMORY_BUDGET')})")
    sm.add_argument("--max-configurations", type=integer(1), metavar="N",
                    help=f"maxweight: budget of configurations to enumerate "
                         f"(default {budget_help('MAX_CONFIGURATIONS')})")
    sm.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    sm.add_argument("--dry-run", action="store_true",
                    help="check every input and build the policy; run nothing (a sweep "
                         "checks its points this way)")
    simulate_continuous.add_arguments(sm)
    sm.set_defaults(func=run)


def _simulation_input(args: argparse.Namespace) -> tuple[Any, float, dict[str, Any]]:
    """The size distribution (in capacity units), the capacity, and a description."""
    from theory.distributions import from_spec
    from theory.numbers import to_number

    if isinstance(args.capacity, tuple):
        raise UsageError("--capacity: simulate is single-resource (PG21); give one number")
    cap = to_number(args.capacity, name="--capacity") if args.capacity else 1
    if not cap > 0:
        raise UsageError(f"--capacity must be positive, got {args.capacity}")
    try:
        capf = float(cap)
    except OverflowError:
        raise UsageError(f"--capacity {args.capacity} is beyond the float range") from None
    if args.sizes is not None:
        dist = discrete_from_args(args)
        return dist, capf, {"kind": "sizes", "distribution": repr(dist)}
    if args.probs is not None or args.counts is not None:
        raise UsageError("--probs and --counts go with --sizes")
    if args.trace is not None:  # a trace without times: its sizes, synthetic arrivals
        from theory.readers.trace_names import trace_size_law

        law = trace_size_law(args.trace)
        if law.dist.dim != 1:
            raise UsageError("--trace: simulate is single-resource (PG21): give the kind "
                             "max, cpu or memory, not vector")
        return law.dist, capf, {"kind": "trace", **law.info,
                                "arrivals": "synthetic (trace has no times)",
                                "types": len(law.dist)}
    if cap != 1:
        raise UsageError("--dist gives sizes on (0, 1], so --capacity must be 1")
    dist = from_spec(args.dist)
    return dist, capf, {"kind": "dist", "spec": args.dist, "distribution": repr(dist)}


def _timed_trace(args: argparse.Namespace) -> Any:
    """The parsed ``--trace`` name when the trace has times, None when it is a size law
    (google2019); a name that is no packaged trace is refused with a did-you-mean."""
    from theory.names import did_you_mean
    from theory.readers.trace_names import TRACES, is_trace_name, parse_trace_name

    if not is_trace_name(args.trace):
        raise UsageError(f"--trace supports {', '.join(TRACES)} (NAME[:SELECTOR][:KIND]"
                         f"[:first=N]; PG21 VII-B), got {args.trace!r}"
                         f"{did_you_mean(args.trace.partition(':')[0], TRACES, n=1)}")
    name = parse_trace_name(args.trace)
    if name.lacks_times and name.trace == "google2019":
        if args.traffic_scaling is not None:
            raise UsageError(f"--traffic-scaling scales a trace's arrival times, and "
                             f"{name.trace} has none ({name.lacks_times}): its sizes come "
                             f"with synthetic arrivals, give --workload or --intensity")
        return None
    return name


def _workload(args: argparse.Namespace) -> tuple[Any, Any, float, int, dict[str, Any]]:
    import policies as P

    if args.trace is not None and (name := _timed_trace(args)) is not None:
        if args.sizes or args.dist or args.workload or args.intensity:
            raise UsageError("--trace brings its own sizes and arrivals; use --traffic-scaling")
        if args.capacity is not None:
            raise UsageError(f"--capacity: --trace {name.trace} gives sizes as fractions of "
                             f"its unit machine and replays them on servers of capacity 1 "
                             f"(PG21 VII-B); leave --capacity out")
        from theory.readers.trace_names import TRACE_SLOT_SECONDS, trace_timed_jobs

        scaling = 1.0 if args.traffic_scaling is None else args.traffic_scaling
        slot = TRACE_SLOT_SECONDS[name.trace]
        # the jobs that arrive within the simulated slots (the rest never enter)
        t = trace_timed_jobs(name, until_seconds=args.slots * slot * scaling)
        w = P.trace_workload(t.arrival, t.sizes(name.size_kind), t.service,
                             slot_length=t.slot_seconds, traffic_scaling=scaling)
        if t.info.get("beyond_until"):  # the trace goes on past the simulated slots
            w = dataclasses.replace(w, horizon=float(args.slots))
        info = {**t.info, "kind": "trace", "trace": str(name), "traffic_scaling": scaling,
                "jobs": w.jobs, "arrivals": f"trace: {t.info['arrival']}",
                "service": f"trace: {t.info['service']}"}
        info["jobs_after_the_slots"] = info.pop("beyond_until", 0)  # never built
        info.pop("arrival", None)
        return w, None, 1.0, min(args.slots, int(w.horizon)), info
    if args.sizes is None and args.dist is None and args.trace is None:
        raise UsageError("give the sizes: --sizes (with --probs/--counts) or --dist")
    if (args.workload is None) == (args.intensity is None):
        raise UsageError("give exactly one of --workload RHO and --intensity ALPHA")
    dist, cap, info = _simulation_input(args)
    w = P.pg21_workload(
        dist, servers=args.servers, slots=args.slots, capacity=cap,
        mu=None if args.deterministic is not None else args.mu,
        deterministic=args.deterministic, workload=args.workload, intensity=args.intensity,
        arrivals=args.arrivals, seed=args.seed, **budgets(args, memory_budget="max_memory"))
    return w, dist, cap, args.slots, info


def _slotted_flags(args: argparse.Namespace) -> None:
    """Parse the flags the two families spell alike into the PG21 slotted meaning, and
    apply the defaults of the flags whose use depends on the family."""
    if args.sizes is not None:
        args.sizes = parse_flag("sizes", number_list(), args.sizes)
    if args.capacity is not None:
        args.capacity = parse_flag("capacity", number_text, args.capacity)
    args.mu = 0.01 if args.mu is None else parse_flag("mu", real(0, 1, low_open=True), args.mu)
    args.slots = 100_000 if args.slots is None else args.slots
    args.arrivals = args.arrivals or "poisson"
    if args.warmup is not None:
        if args.warmup != int(args.warmup):
            raise UsageError(f"--warmup counts slots: give an integer, got {args.warmup}")
        args.warmup = int(args.warmup)


def run(args: argparse.Namespace) -> int:
    return route(args, NAME, {"pg21-slotted": _run_slotted,
                              "pg18-continuous": simulate_continuous.run})


def _run_slotted(args: argparse.Namespace) -> int:
    import policies as P

    given = given_options(args)
    _slotted_flags(args)
    if args.warmup is not None and args.warmup >= args.slots:
        raise UsageError(f"--warmup {args.warmup} must be below --slots {args.slots}")
    flags = {k: given[k] for k in P.POLICIES[args.policy].keywords if k in given}
    if args.dry_run:
        return _dry_run(args, flags)
    w, dist, cap, slots, info = _workload(args)
    policy = P.make_policy(args.policy, dist=dist, capacity=cap, **flags)
    cluster = P.Cluster.identical(args.servers, cap)
    with stdout_to_stderr(args.json):
        res = P.simulate(policy, w, cluster, slots=slots, warmup=args.warmup,
                         **budgets(args, memory_budget="max_memory"))
    out = res.summary()
    timed = info["kind"] == "trace" and dist is None
    rate = None if timed else w.arrival_rate
    mean_service = float(args.deterministic) if args.deterministic is not None else 1 / args.mu
    out["input"] = dict(info, servers=args.servers, capacity=cap, seed=args.seed,
                        arrival_rate=rate, mean_service=None if timed else mean_service,
                        workload=None if rate is None else rate * mean_service,
                        intensity=args.intensity, service=info["service"] if timed
                        else "geometric" if args.deterministic is None else "deterministic",
                        arrivals=info["arrivals"] if "arrivals" in info else args.arrivals)
    if info.get("arrivals") == "synthetic (trace has no times)":
        out["input"]["arrival_process"] = args.arrivals
    if args.json:
        emit_json(out)
    else:
        _print(out, args.servers)
    require_invariants(res, args.policy)
    return EXIT_OK


def _dry_run(args: argparse.Namespace, flags: dict[str, Any]) -> int:
    """The inputs of :func:`_workload` checked and the policy built, nothing drawn."""
    import policies as P
    from policies.workload import pg21_laws

    if args.trace is not None and _timed_trace(args) is not None:
        _workload(args)  # the packaged trace: its reading is the check
        dist, cap = None, 1.0
    else:
        if args.sizes is None and args.dist is None and args.trace is None:
            raise UsageError("give the sizes: --sizes (with --probs/--counts) or --dist")
        if (args.workload is None) == (args.intensity is None):
            raise UsageError("give exactly one of --workload RHO and --intensity ALPHA")
        dist, cap, _ = _simulation_input(args)
        pg21_laws(dist, servers=args.servers, capacity=cap,
                  mu=None if args.deterministic is not None else args.mu,
                  deterministic=args.deterministic, workload=args.workload,
                  intensity=args.intensity, arrivals=args.arrivals)
    P.make_policy(args.policy, dist=dist, capacity=cap, **flags)
    return inputs_checked(args)


def _print(out: dict[str, Any], servers: int) -> None:
    st = out["stability"]
    print(f"policy {out['policy']} on {servers} server(s), {out['slots']} slots, "
          f"{out['jobs']} jobs ({out['seconds']:.3f} s)")
    if out["verdict_reason"] or st is None:
        print(f"  verdict: {out['verdict']}  ({out['verdict_reason']})")
    else:
        print(f"  verdict: {out['verdict']}  (relative drift "
              f"{fmt(st['relative_drift'], 3)}, {int(100 * st['confidence'])}% CI "
              f"[{fmt(st['relative_drift_ci'][0], 3)}, "
              f"{fmt(st['relative_drift_ci'][1], 3)}], threshold {st['threshold']})")
    print(f"  mean queue {out['mean_queue']:.4g} jobs, mean queued resource "
          f"{out['mean_queued_resource']:.4g}, final queue {out['final_queue']}")
    print(f"  mean occupancy {out['mean_occupancy']:.4f}, invariants "
          f"{'ok' if out['invariants_ok'] else 'VIOLATED'}")
