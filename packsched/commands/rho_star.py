"""``packsched rho-star``: rho* (PG21 eq. (4)) with its certificate, Theorem 1
brackets over quantile partitions or a grid, z_LP of an instance, and rho_VQS."""

from __future__ import annotations

import argparse
import time
from typing import Any

from packsched.arguments import (
    budget_help,
    budgets,
    byte_size,
    grid_resolutions,
    integer,
    number_list,
    number_text,
    real,
)
from packsched.commands.rho_star_text import print_rho_star
from packsched.errors import EXIT_OK, UsageError
from packsched.inputs import (
    SizeInput,
    is_one,
    normalised,
    on_unit_capacity,
    read_size_input,
)
from packsched.output import emit_json, exact_text, note, stdout_to_stderr

NAME = "rho-star"
#: quantile level used for a continuous ``--dist`` when ``--levels`` is not given
DEFAULT_LEVELS = 6
#: with --rtol: how far the refinement may go when --levels is not given
RTOL_LEVELS = 14  # X^(14) has 2^15 cells, within the default --max-types
#: grid of the default bracket for traces (hundreds of distinct sizes)
DEFAULT_TRACE_GRID = 2000
#: grid points of the default bracket for vector traces, spent per resource by
#: :func:`capacity.brackets.choose_grid` (Google 2011 CPU and memory: 1/800 x 1/50)
DEFAULT_TRACE_GRID_POINTS = 50_000
#: a trace with more distinct sizes than this is bracketed on the grid by default
TRACE_EXACT_MAX_TYPES = 200

EPILOG = f"""\
examples:
  packsched rho-star --sizes 0.4,0.6 --probs 0.5,0.5
  packsched rho-star --capacity 10 --sizes 2,5 --counts 2,1 --servers 4
  packsched rho-star --capacity 64:32 --sizes "15:8,17.1:6.5"
  packsched rho-star --instance Falkenauer_u120_00.txt --json
  packsched rho-star --instance-format csp --instance cutting_stock.txt
  packsched rho-star --dist uniform:0.1,0.9 --levels 5 --vqs 3
  packsched rho-star --dist "mixture:1/2*point:0.5+1/2*uniform:0.1,0.9"
  packsched rho-star --trace google2011:cpu
  packsched rho-star --trace google2011:max --grid 10000
  packsched rho-star --trace google2019:c:vector --capacity 0.25927734375:0.166748046875
  packsched rho-star --trace azure2017:all:vector
  packsched rho-star --sizes 0.5:0.25,0.25:0.5 --capacity 1:0.5

A vector --capacity divides every size componentwise (exactly) and rho* is computed on
capacity 1 (input.normalised says so).

Numbers are read exactly: decimals and p/q become fractions. A trace with more than
{TRACE_EXACT_MAX_TYPES} distinct sizes is bracketed on a grid of {DEFAULT_TRACE_GRID} by default
(vectors: one grid per resource, {DEFAULT_TRACE_GRID_POINTS:,} points in all); --grid 0 asks for
the exact answer.
"""


def add_parser(sub: Any) -> None:
    r = sub.add_parser(
        NAME, help="maximum supportable workload rho* with its certificate",
        description="Maximum supportable workload rho* = lambda/mu (PG21 eq. (4)) of L\n"
                    "identical servers, with its LP certificate; a Theorem 1 bracket over\n"
                    "quantile partitions for a general distribution; the VQS capacity.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = r.add_argument_group("input (exactly one)").add_mutually_exclusive_group(required=True)
    src.add_argument("--sizes", type=number_list(vectors=True), metavar="S1,S2,...",
                     help="job sizes in capacity units; vectors as 'a:b,c:d' (':' separates "
                          "resources)")
    src.add_argument("--instance", metavar="FILE",
                     help="bin-packing instance in a BPPLIB layout (see --instance-format); "
                          "adds z_LP")
    src.add_argument("--dist", metavar="SPEC",
                     help="distribution on (0,1]: uniform:A,B | discrete:S@P,... | point:S | "
                          "beta:A,B[,LO,HI] | lognormal:MU,SIGMA | gamma:K,THETA (both "
                          "truncated to (0,1] and normalised) | empirical:FILE | "
                          "mixture:W*SPEC+W*SPEC")
    src.add_argument("--trace", metavar="SOURCE",
                     help="a packaged trace NAME[:SELECTOR][:KIND][:first=N]: google2011, "
                          "google2019[:a..h], alibaba2017, azure2017[:both|dev|test|train|"
                          "all], KIND max|cpu|memory|vector (default max); sizes are "
                          "fractions of the trace's unit machine (input.unit says which); "
                          "or a FILE with one size (or vector) per line")
    w = r.add_argument_group("weights of --sizes (default: equally likely)")
    w.add_argument("--probs", type=number_list(), metavar="P1,P2,...",
                   help="type probabilities (sum to one)")
    w.add_argument("--counts", type=number_list(), metavar="N1,N2,...",
                   help="type multiplicities")
    o = r.add_argument_group("computation")
    o.add_argument("--instance-format", choices=["bpp", "csp"], default="bpp",
                   help="bpp: n, C, then n weights (default); csp: m, C, then m lines "
                        "'weight multiplicity' (BPPLIB cutting-stock layout)")
    o.add_argument("--servers", "-L", type=integer(1), default=1, metavar="L",
                   help="number of identical servers (default 1)")
    o.add_argument("--capacity", "-C", type=number_text, metavar="C",
                   help="server capacity, 'a:b' for several resources (default 1)")
    o.add_argument("--method", default=None, metavar="METHOD",
                   help="configuration-LP method: auto | enumerate | column-generation "
                        "(default auto; column-generation for --instance)")
    o.add_argument("--levels", type=integer(0), metavar="N",
                   help=f"bracket over quantile partitions X^(0..N) (continuous --dist; "
                        f"default {DEFAULT_LEVELS})")
    o.add_argument("--rtol", type=real(0, 1, low_open=True, high_open=True), metavar="R",
                   help=f"continuous --dist: refine the Thm. 1 bracket level by level until "
                        f"its certified relative gap is at most R, then stop (up to --levels, "
                        f"default {RTOL_LEVELS} with --rtol)")
    o.add_argument("--vqs", type=integer(2), metavar="J",
                   help="also the reduced-set capacity rho_VQS(F, J) (PG21 Lemma 3)")
    o.add_argument("--grid", type=grid_resolutions, metavar="G",
                   help="bracket rho* by rounding sizes up and down to multiples of 1/G "
                        "(PG21 Thm. 1 with grid cells; also for a continuous --dist; 0 = exact "
                        "for finitely many sizes; G1:G2 = one grid per resource)")
    o.add_argument("--finished-only", action="store_true",
                   help="google2011: keep only tasks that finished (PG21 VII-B)")
    o.add_argument("--max-configurations", type=integer(1), metavar="N",
                   help=f"budget of configurations an enumeration may list "
                        f"(default {budget_help('MAX_CONFIGURATIONS')})")
    o.add_argument("--max-types", type=integer(1), metavar="N",
                   help=f"budget of job types (cells, grid points) in one LP "
                        f"(default {budget_help('MAX_LP_TYPES')})")
    o.add_argument("--max-memory", type=byte_size, metavar="BYTES",
                   help=f"memory budget for reading --instance / --trace files, e.g. 16G "
                        f"(default {budget_help('MEMORY_BUDGET')})")
    o.add_argument("--time-limit", type=real(0, low_open=True), metavar="SECONDS",
                   help="stop refining after this long and report the certified interval "
                        "reached (status time_limit; rho_star is then null unless proven)")
    o.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    r.set_defaults(func=run)


def _finite(inp: SizeInput, args: argparse.Namespace) -> tuple[dict[str, Any], Any]:
    from capacity import bin_packing_lp_pair, rho_star
    from capacity.supportable_workload import fractional_bins

    kw = budgets(args, max_types="max_types", max_configurations="max_configurations")
    if args.method is not None:
        kw["method"] = args.method
    if inp.weights is not None:
        if args.servers != 1:
            raise UsageError("--servers does not apply to --instance (z_LP counts bins of "
                             "one server each)")
        # the instance's bin bounds; the LP over all patterns is rho* of its weight
        # distribution on one server
        bins, res = bin_packing_lp_pair(inp.weights, inp.capacity, **kw)
        z_free, z_free_bounds = fractional_bins(len(inp.weights), res)
        extra = {k: bins.extra[k] for k in ("z_lp", "z_lp_bounds", "items",
                                            "distinct_weights", "l1", "l2", "lp_bins")}
        extra.update(z_lp_certified=bins.certified, z_lp_unbounded=z_free,
                     z_lp_unbounded_bounds=list(z_free_bounds))
    else:
        res = rho_star(inp.dist, servers=args.servers, capacity=inp.capacity, **kw)
        extra = {}
    out = res.to_dict("rho_star")
    out.update(extra)
    out.update(lower=res.lower, upper=res.upper, lower_exact=exact_text(res.lower),
               upper_exact=exact_text(res.upper), bracket=False)
    if out.get("upper_from") == "Lemma 2":  # the prices do not prove this upper end
        out["dual_of"] = ("the LP's types: these prices prove only an upper bound above "
                          "upper, which is PG21 Lemma 2's L / R-bar (lemma2_bound)")
    return out, res


def _bracket(inp: SizeInput, args: argparse.Namespace) -> dict[str, Any]:
    from capacity.brackets import LEMMA2, ends_unproven, quantile_brackets
    from theory.bounds import mean_size_bound

    default = DEFAULT_LEVELS if args.rtol is None else RTOL_LEVELS
    levels = default if args.levels is None else args.levels
    if args.levels is None:
        goal = "" if args.rtol is None else f" until the relative gap is <= {args.rtol:g}"
        note(f"continuous distribution: bracketing rho* over quantile partitions "
             f"X^(0..{levels}){goal} (default; set --levels)")
    brs = quantile_brackets(inp.dist, levels, servers=args.servers, rtol=args.rtol,
                            **budgets(args, max_types="max_types"))
    lo_b = max(brs, key=lambda b: float(b.lo))  # every level's bounds are certified
    hi_b = min(brs, key=lambda b: float(b.hi))
    gap = (float(hi_b.hi) - float(lo_b.lo)) / float(hi_b.hi)
    rtol_met = args.rtol is not None and gap <= args.rtol
    stopped = (len(brs) < levels + 1 and not rtol_met) or any(
        _cut(s) for b in brs for s in (b.lower, b.upper))
    reason = ends_unproven(lo_b.lower, hi_b.upper, hi_b.upper_from)
    return {
        "lower": lo_b.lo, "upper": hi_b.hi,
        "lower_exact": exact_text(lo_b.lo), "upper_exact": exact_text(hi_b.hi),
        "relative_gap": gap, "rtol": args.rtol, "rtol_met": rtol_met,
        "bracket": True,
        "certified": reason is None, "uncertified_reason": reason,
        "upper_from": LEMMA2 if hi_b.upper_from == LEMMA2
        else f"lower-rounded LP of {hi_b.name}",
        "servers": args.servers, "method": "quantile-brackets",
        "lp_method": lo_b.lower.method, "level": len(brs) - 1, "levels_requested": levels,
        "levels_default": args.levels is None, "stopped_at_time_limit": stopped,
        "levels": [{"level": n, **b.as_dict()} for n, b in enumerate(brs)],
        # the lower bound is proven by a mixture of upper-rounded types, the upper one
        # by prices on the lower-rounded types (PG21 Thm. 1, first step of its proof)
        "mixture": [t.as_dict(lo_b.lower.sizes) for t in lo_b.lower.mixture],
        "mixture_of": f"upper-rounded types of {lo_b.name}",
        **_dual(hi_b, f"lower-rounded types of {hi_b.name}"),
        "lemma2_bound": mean_size_bound(args.servers, inp.dist),
    }


def _grid(inp: SizeInput, args: argparse.Namespace, grid: int | tuple[int, ...]
          ) -> dict[str, Any]:
    from capacity.brackets import grid_bracket, grid_name

    if not is_one(inp.capacity):  # pragma: no cover - run() normalises first
        raise RuntimeError("grid_bracket needs sizes normalised to capacity 1")
    per_resource = grid if isinstance(grid, tuple) else (grid,)
    b = grid_bracket(inp.dist, grid, servers=args.servers,
                     **budgets(args, max_types="max_types"))
    return {
        "lower": b.lo, "upper": b.hi,
        "lower_exact": exact_text(b.lo), "upper_exact": exact_text(b.hi),
        "upper_from": "grid rounded down" if b.upper_from == "lower-rounded LP"
        else b.upper_from,
        "relative_gap": b.gap, "bracket": True, "certified": b.certified,
        "uncertified_reason": b.uncertified_reason,
        "servers": args.servers, "method": f"grid-bracket ({grid_name(per_resource)})",
        "lp_method": b.lower.method, "grid": list(grid) if isinstance(grid, tuple) else grid,
        "types_rounded_up": len(b.lower.sizes), "types_rounded_down": len(b.upper.sizes),
        "lemma2_bound": b.lemma2,
        # PG21 Thm. 1 with grid cells: sizes rounded up give the lower bound (mixture),
        # sizes rounded down give the upper bound (dual prices)
        "mixture": [t.as_dict(b.lower.sizes) for t in b.lower.mixture],
        "mixture_of": "sizes rounded up to the grid",
        **_dual(b, "sizes rounded down to the grid"),
        "seconds": b.lower.seconds + b.upper.seconds,
        "stopped_at_time_limit": _cut(b.lower) or _cut(b.upper),
    }


def _dual(b: Any, of: str) -> dict[str, Any]:
    """The prices that prove a bracket's upper end; none when Lemma 2 is that end (the
    lower-rounded LP's prices then prove only a weaker bound)."""
    from capacity.brackets import LEMMA2

    if b.upper_from == LEMMA2:
        return {"dual": None, "dual_sizes": None,
                "dual_of": "none: the upper end is PG21 Lemma 2's L / R-bar (lemma2_bound), "
                           "proven without prices"}
    return {"dual": b.upper.dual, "dual_sizes": b.upper.sizes, "dual_of": of}


def _cut(side: Any) -> bool:
    """Did this LP stop at the time limit (capacity.time_limit)?"""
    return side.status == "time_limit"


def _default_grid(inp: SizeInput, args: argparse.Namespace) -> int | tuple[int, ...]:
    """``--grid``, else 0 (exact) unless a trace has many sizes: a grid for them."""

    if args.grid is not None:
        return args.grid
    if not _many_trace_sizes(inp):
        return 0
    if inp.dist.dim == 1:
        return DEFAULT_TRACE_GRID
    from capacity.brackets import choose_grid

    return choose_grid(inp.dist, DEFAULT_TRACE_GRID_POINTS)


def _refuse_unused(inp: SizeInput, args: argparse.Namespace) -> None:
    """Flags the chosen computation would not read are refused (issue 39: no flag is
    silently ignored)."""
    from theory.distributions import Discrete

    finite = isinstance(inp.dist, Discrete)
    if args.levels is not None and finite and args.grid is None:
        raise UsageError("--levels brackets a continuous distribution; this input has "
                         "finitely many sizes and rho* is computed exactly (leave --levels "
                         "out, or use --grid to bracket on a grid)")
    if args.rtol is not None and (finite or args.grid is not None):
        raise UsageError("--rtol refines the quantile brackets of a continuous --dist; this "
                         "input is computed exactly or on --grid (leave --rtol out)")
    exact = finite and (args.grid == 0 or args.grid is None and not _many_trace_sizes(inp))
    if args.method not in (None, "auto") and not exact:
        raise UsageError("--method chooses the method of the exact configuration LP; the "
                         "brackets choose theirs per level (leave --method out)")
    if args.max_configurations is not None and not exact and args.vqs is None:
        raise UsageError("--max-configurations budgets the enumeration of the exact LP or "
                         "of --vqs; the brackets do not enumerate (leave it out, or use "
                         "--max-types for their size)")
    if args.max_memory is not None and inp.info["kind"] not in ("instance", "trace"):
        raise UsageError("--max-memory budgets reading an --instance or --trace file; "
                         "this input reads none (leave it out)")


def _many_trace_sizes(inp: SizeInput) -> bool:
    """A trace bracketed on the default grid (more distinct sizes than an exact solve
    takes in seconds)."""
    from theory.distributions import Discrete

    return (inp.info["kind"] == "trace" and isinstance(inp.dist, Discrete)
            and len(inp.dist) > TRACE_EXACT_MAX_TYPES)


def _kept_mass(dist: Any) -> float | list[float | None] | None:
    """P(0 < X <= 1) a law truncated by :func:`theory.distributions.from_scipy` kept
    (``--dist lognormal``, ``gamma``); per component for a mixture; None otherwise."""
    from theory.distributions import Mixture

    if isinstance(dist, Mixture):
        parts = [getattr(c, "kept_mass", None) for c in dist.components]
        return parts if any(m is not None for m in parts) else None
    return getattr(dist, "kept_mass", None)


def _label_stop(out: dict[str, Any], stopped: bool, args: argparse.Namespace) -> None:
    """``status`` of the answer: a run cut short by --time-limit says so. A value its
    certificate does not prove is never reported as the value, whatever stopped the
    solve (time limit, pricing budget, a failed check): ``rho_star`` and
    ``z_lp_unbounded`` (items / rho*) are null unless certified, ``z_lp`` unless
    ``z_lp_certified``; their proven bounds stay."""
    if "rho_star" in out and not out.get("certified"):
        for key in ("rho_star", "z_lp_unbounded"):
            if key in out:
                out[key] = None
    if "z_lp" in out and not out.get("z_lp_certified"):
        out["z_lp"] = None
    if not stopped:
        out.setdefault("status", "finished")
        return
    out["status"] = "time_limit"
    out["time_limit"] = args.time_limit
    if "rho_star" in out and not out.get("certified"):
        out["uncertified_reason"] = (out.get("uncertified_reason") or "") + \
            " (stopped at --time-limit: [lower, upper] is what is proven)"


def run(args: argparse.Namespace) -> int:
    from capacity import METHODS
    from capacity.deadline import time_limit
    from theory.distributions import Discrete

    if args.method is not None and args.method not in METHODS:
        raise UsageError(f"--method must be one of {', '.join(METHODS)}, got {args.method!r}")
    if args.finished_only and args.trace is None:
        raise UsageError("--finished-only goes with --trace google2011")
    if args.instance_format != "bpp" and args.instance is None:
        raise UsageError("--instance-format goes with --instance")
    t0 = time.perf_counter()
    inp = read_size_input(args)
    kept = _kept_mass(inp.dist)
    _refuse_unused(inp, args)
    res = None
    with stdout_to_stderr(args.json), time_limit(args.time_limit):
        grid = _default_grid(inp, args)
        if grid != 0:
            if args.levels is not None and args.grid is not None:
                raise UsageError("--grid and --levels are two partitions: give one")
            # the grid is one of multiples of 1/G of the capacity: sizes as fractions
            # of it (vectors were already divided componentwise when read)
            inp = on_unit_capacity(inp, scalar=True)
            out = _grid(inp, args, grid)
        elif isinstance(inp.dist, Discrete):
            out, res = _finite(inp, args)
        else:
            out = _bracket(inp, args)
        out["input"] = inp.info if kept is None else {**inp.info, "kept_mass": kept}
        if args.vqs is not None:
            from capacity.reduced import rho_vqs

            kw = budgets(args, max_types="max_types", max_configurations="max_configurations")
            if args.levels is not None and not isinstance(inp.dist, Discrete):
                kw["levels"] = args.levels
            v = rho_vqs(normalised(inp), args.vqs, servers=args.servers, **kw)
            out["rho_vqs"] = v.value
            out["vqs"] = v.as_dict()
    # what stopped early, not whether the clock passed once all was done
    stopped = bool(out.pop("stopped_at_time_limit", False)) or out.get("status") == "time_limit"
    _label_stop(out, stopped, args)
    # the whole command, reading included (the LP's own share stays as solver_seconds)
    out["solver_seconds"] = out.get("seconds")
    out["seconds"] = time.perf_counter() - t0
    if "normalised" in out["input"]:
        note(f"sizes {out['input']['normalised']}: rho* computed on capacity 1")
    if args.json:
        emit_json(out)
    else:
        print_rho_star(out, res)
    return EXIT_OK
