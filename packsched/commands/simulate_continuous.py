"""``packsched simulate`` for the PG18 continuous-time family (the policy name decides):
job types with vector sizes, Poisson arrivals per type, a horizon in time units."""

from __future__ import annotations

import argparse
import math
from typing import Any

from packsched.arguments import (
    budgets,
    flag,
    given_options,
    integer,
    parse_flag,
    real,
    split_list,
)
from packsched.errors import EXIT_OK, UsageError, require_invariants
from packsched.output import emit_json, fmt, inputs_checked, stdout_to_stderr

#: queue samples judged for stability unless --samples says otherwise
DEFAULT_SAMPLES = 4000


def add_arguments(sm: argparse.ArgumentParser) -> None:
    g = sm.add_argument_group(
        "PG18 continuous time (policies of family pg18-continuous: packsched policies)")
    g.add_argument("--rates", metavar="L1,L2,...",
                   help="Poisson arrival rate of each job type (or use --intensity)")
    g.add_argument("--time", metavar="T", help="simulated time (horizon)")
    g.add_argument("--clock-rates", metavar="R or R1,R2,...",
                   help="RMS clock rate per type (default: the number of servers)")
    g.add_argument("--epsilon", help="RMS epsilon of eq. (4), in (0, 1) (default 0.1)")
    g.add_argument("--f", choices=["log", "log-power"],
                   help="RMS weight function: log(1+x) (default) or log^(1-b)(1+x)")
    g.add_argument("--b", help="exponent of log-power, in (0, 1) (default 0.5)")
    g.add_argument("--stop-fraction", help="mws: beta in [0, 1) (default 0.9)")
    g.add_argument("--service", choices=["exponential", "deterministic", "hyperexponential",
                                         "pareto"], default=None,
                   help="service-time law of mean 1/mu (default exponential)")
    g.add_argument("--scv", help="hyperexponential: squared coefficient of variation > 1")
    g.add_argument("--pareto-alpha", help="pareto: shape alpha > 1")
    g.add_argument("--samples", help="queue samples judged for stability (default 4000)")
    g.add_argument("--max-ticks", metavar="N", type=real(1),
                   help="refuse a run expecting more clock ticks (rate x time; default 1e9)")
    g.add_argument("--engine", choices=["auto", "python", "compiled"],
                   help="auto (default): compiled for RMS and Best-Fit (the same trajectory "
                        "as the plain-Python reference), python otherwise")


def _numbers(text: str, flag: str) -> list[float]:
    """Finite numbers of a comma-separated list (every entry present)."""
    try:
        items = split_list(text)
    except argparse.ArgumentTypeError as e:
        raise UsageError(f"{flag}: {e}") from None
    return [_finite(t, f"{flag}: entry {i + 1}") for i, t in enumerate(items)]


def _finite(text: str, where: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise UsageError(f"{where} {text!r} is not a number") from None
    if not math.isfinite(v):
        raise UsageError(f"{where} must be a finite number, got {text}")
    return v


def _number(text: str | None, flag: str) -> float | None:
    return None if text is None else _finite(text.strip(), flag)


def parse_vector_sizes(text: str) -> list[list[float]]:
    """``8,15;6.5,17.1`` (types split by ';', resources by ','), ``8:15,6.5:17.1``
    (resources split by ':'), or ``2,5`` (one resource, one size per type)."""
    if ";" in text:
        rows = [x.strip() for x in text.split(";")]
        if not all(rows):
            raise UsageError(f"--sizes: empty job type in {text!r} (types split by ';')")
        out = [_numbers(r, "--sizes") for r in rows]
    elif ":" in text:
        out = [_numbers(v.replace(":", ","), "--sizes") for v in split_list(text)]
    else:
        out = [[v] for v in _numbers(text, "--sizes")]
    if len({len(r) for r in out}) != 1:
        raise UsageError(f"--sizes: every type needs the same number of resources: {text!r}")
    return out


def _keyword(option: str, text: str) -> Any:
    """A policy keyword's flag text as the policy takes it."""
    if option == "clock_rates":
        return _numbers(text, flag(option))
    if option == "f":
        return text
    return _number(text, flag(option))


def _capacity(text: Any) -> list[float]:
    if text is None:
        return [1.0]
    if isinstance(text, tuple):
        return [float(x) for x in text]
    return _numbers(str(text), "--capacity")


def run(args: argparse.Namespace) -> int:
    import policies as P

    if args.sizes is None:
        raise UsageError("give the job types' sizes: --sizes 8,15;6.5,17.1 (types split by "
                         "';', resources by ',')")
    if args.time is None:
        raise UsageError("give the simulated time: --time T")
    horizon = float(_number(args.time, "--time") or 0.0)
    samples = (DEFAULT_SAMPLES if args.samples is None
               else parse_flag("samples", integer(2), args.samples))
    sizes = parse_vector_sizes(args.sizes)
    J = len(sizes)
    service = args.service or "exponential"
    mu = _numbers(args.mu, "--mu") if args.mu is not None else [1.0]
    if len(mu) not in (1, J):
        raise UsageError(f"--mu gives {len(mu)} rates for {J} job types")
    if any(not m > 0 for m in mu):
        raise UsageError(f"--mu: service rates must be positive, got {args.mu}")
    if any(not math.isfinite(1.0 / m) or 1.0 / m == 0 for m in mu):
        raise UsageError(f"--mu: a rate of {args.mu} gives a mean service time beyond the "
                         f"float range")
    extra: dict[str, float] = {}
    if args.scv is not None:
        extra["scv"] = float(_number(args.scv, "--scv") or 0.0)
    if args.pareto_alpha is not None:
        extra["alpha"] = float(_number(args.pareto_alpha, "--pareto-alpha") or 0.0)
    try:
        laws = [P.ServiceTime(service, 1.0 / m, **extra)
                for m in (mu * J if len(mu) == 1 else mu)]
    except ValueError as e:  # name the flag, not the keyword of the law
        flag_of = {"scv": "--scv", "alpha": "--pareto-alpha", "mean": "--mu"}
        raise UsageError(f"{flag_of.get(str(e).split()[0], '--service')}: {e}") from None
    types = P.JobTypes(sizes, service=laws)
    cluster = P.Cluster.identical(args.servers, _capacity(args.capacity))
    types.check_cluster(cluster)
    if (args.rates is None) == (args.intensity is None):
        raise UsageError("give exactly one of --rates L1,L2,... and --intensity ZETA")
    rates = (_numbers(args.rates, "--rates") if args.rates is not None
             else P.rates_for_intensity(types, cluster, args.intensity,
                                        **budgets(args, max_configurations="max_configurations")
                                        ).tolist())
    mem = budgets(args, memory_budget="max_memory")
    given = given_options(args)
    params = {k: _keyword(k, given[k]) for k in P.POLICIES[args.policy].keywords
              if k in given}
    policy = P.make_policy(args.policy, **params)
    if args.dry_run:
        from policies.job_types import check_poisson_type_inputs

        check_poisson_type_inputs(types, rates, horizon, servers=args.servers, **mem)
        return inputs_checked(args)
    w = P.poisson_type_workload(types, rates, horizon, seed=args.seed, servers=args.servers,
                                **mem)
    with stdout_to_stderr(args.json):
        res = P.simulate_continuous(policy, w, cluster, types, warmup=args.warmup,
                                    seed=args.seed, samples=samples,
                                    engine=args.engine or "auto", **mem,
                                    **({} if args.max_ticks is None else
                                       {"max_ticks": args.max_ticks}))
    out = res.summary()
    out["input"] = {"sizes": sizes, "servers": args.servers, "capacity": _capacity(
        args.capacity), "rates": list(rates), "mean_service": [x.mean for x in laws],
        "service": service, "intensity": args.intensity, "seed": args.seed}
    if args.json:
        emit_json(out)
    else:
        _print(out)
    require_invariants(res, args.policy)
    return EXIT_OK


def _print(out: dict[str, Any]) -> None:
    st = out["stability"]
    print(f"policy {out['policy']} on {out['input']['servers']} server(s), time "
          f"{out['time']:g}, {out['jobs']} jobs, {out['events']} events "
          f"({out['seconds']:.3f} s)")
    if out["verdict_reason"] or st is None:
        print(f"  verdict: {out['verdict']}  ({out['verdict_reason']})")
    else:
        print(f"  verdict: {out['verdict']}  (relative drift {fmt(st['relative_drift'], 3)}, "
              f"{int(100 * st['confidence'])}% CI [{fmt(st['relative_drift_ci'][0], 3)}, "
              f"{fmt(st['relative_drift_ci'][1], 3)}], threshold {st['threshold']})")
    print(f"  mean queue {out['mean_queue']:.4g} jobs (per type "
          f"{', '.join(f'{q:.3g}' for q in out['mean_queue_by_type'])}), final queue "
          f"{out['final_queue']}")
    print(f"  clock ticks {out['ticks']}, dummy placements {out['dummy_placements']}, "
          f"resources held by dummies {', '.join(f'{d:.3g}' for d in out['dummy_fraction'])}")
    print(f"  invariants {'ok' if out['invariants_ok'] else 'VIOLATED'}")
