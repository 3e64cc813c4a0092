"""``packsched schedule`` for FL24's non-preemptive family (parses, runs, prints)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from packsched.arguments import budgets, given_options, integer, real
from packsched.errors import EXIT_OK, UsageError, require_invariants
from packsched.output import emit_json, fmt, inputs_checked, stdout_to_stderr


def add_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("FL24 non-preemptive policies (mris, pq-*, tetris, bf-exec, "
                             "ca-pq)")
    g.add_argument("--eps", type=real(0, low_open=True),
                   help="mris: knapsack slack epsilon in (0, 1) (default 0.1); tetris: "
                        "weight of the volume term (default 1)")
    g.add_argument("--sort", choices=["svf", "wsvf", "sjf", "wsjf", "sdf", "wsdf", "erf"],
                   help="mris, ca-pq: the PQ order (default wsjf)")
    g.add_argument("--gamma0", type=real(0, low_open=True),
                   help="mris: the first interval end gamma_0 (default: the smallest "
                        "processing time, FL24's normalisation p_min = 1)")
    g.add_argument("--capacity-rule", choices=["proof", "printed"],
                   help="mris: knapsack capacity R M gamma_k (proof, default) or R gamma_k "
                        "(as printed in Algorithm 1)")
    g.add_argument("--max-dp-cells", type=integer(1), metavar="N",
                   help="mris: budget of CADP's table cells per interval (default 5e9, "
                        "above which mris uses the split knapsack; given, mris keeps CADP "
                        "and refuses above it)")


def run(args: argparse.Namespace,
        trace_instance: Callable[[], tuple[Any, Any, dict[str, Any]]] | None = None) -> int:
    """Run ``--policy`` on the ``--jobs``/``--cluster`` files, or on what
    ``trace_instance()`` loads (a packaged trace's jobs, machines and description)."""
    from policies.nonpreemptive import NonPreemptivePolicy, run_nonpreemptive
    from policies.registry import POLICIES, make_policy
    from theory.readers.job_files import read_instance

    given = given_options(args)  # checked by the caller against the policy's declaration
    params: dict[str, Any] = {k: given[k] for k in POLICIES[args.policy].keywords
                              if k in given}
    try:
        policy = make_policy(args.policy, **params)
    except ValueError as e:
        raise UsageError(str(e)) from None
    assert isinstance(policy, NonPreemptivePolicy)
    trace: dict[str, Any] | None = None
    if trace_instance is None:
        jobs, machines = read_instance(args.jobs, args.cluster, columns=args.columns,
                                       **budgets(args, memory_budget="max_memory"))
    else:
        jobs, machines, trace = trace_instance()
    if args.dry_run:
        return inputs_checked(args)
    with stdout_to_stderr(args.json):
        res = run_nonpreemptive(policy, jobs, machines, k=2.0 if args.k is None else args.k)
    out = res.summary()
    out.update(jobs_file=None if trace else args.jobs, cluster_file=args.cluster)
    if trace:
        out["trace"] = trace
    if args.json:
        emit_json(out)
    else:
        source = f" of {trace['trace']}" if trace else ""
        print(f"policy      {out['policy']} on {out['jobs']} jobs{source}, "
              f"{out['machines']} machine(s)")
        print(f"AWCT        {fmt(out['awct'])} (sum_j w_j C_j = "
              f"{fmt(out['weighted_completion'])}); makespan {fmt(out['makespan'])}"
              + (f" ({trace['time']})" if trace else ""))
        print(f"delay       mean queueing delay {fmt(out['mean_queueing_delay'])}, "
              f"{100 * out['share_not_delayed']:.1f}% of jobs started on release")
        print(f"invariants  {'ok' if out['invariants_ok'] else 'VIOLATED'} "
              f"({out['seconds']:.3g} s)")
    require_invariants(res, args.policy)
    return EXIT_OK
