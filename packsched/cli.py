"""The ``packsched`` command line: a thin layer over the library packages.

Commands (``packsched COMMAND --help`` for each)::

    packsched rho-star   maximum supportable workload rho* (PG21 eq. (4)), its
                         certificate, Theorem 1 brackets and the VQS capacity
    packsched verify     run the registered checks of the papers' claims
    packsched errata     print the errata register
    packsched policies   list the registered scheduling policies
    packsched simulate   simulate a policy in the PG21 slotted model, judge stability

This module only parses arguments, calls the library and prints: every number is
computed in :mod:`capacity` / :mod:`theory` (DESIGN.md, "Contracts").

Output contract: with ``--json`` a command prints exactly one JSON document on stdout
(``verify`` prints a list, the others an object); progress and warnings go to stderr;
NaN and infinities become ``null``. Numbers given on the command line are kept as text
and read exactly by the library (decimal strings and ``p/q`` become Fractions).

Exit status: 0 success; 1 ``verify`` found a ``violated`` claim; 2 an error in the
input (bad numbers, unreadable files, unknown claim ids) or in the usage; 3 the
computation itself failed (solver failure, check catalogue not importable).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

__all__ = ["main", "build_parser"]

PROG = "packsched"
#: Quantile level used for a continuous ``--dist`` when ``--levels`` is not given.
DEFAULT_LEVELS = 6
#: grid of the default bracket for traces (thousands of distinct sizes)
DEFAULT_TRACE_GRID = 2000
DEFAULT_TRACE_GRID_2D = 200
#: a trace with more distinct sizes than this is bracketed on the grid by default
TRACE_EXACT_MAX_TYPES = 200
#: Mixture configurations shown by the text report of ``rho-star``.
TOP_CONFIGS = 5

EXIT_OK, EXIT_VIOLATED, EXIT_USAGE, EXIT_FAILED = 0, 1, 2, 3


class UsageError(Exception):
    """An error in the user's input: printed as ``packsched: error: ...``, exit 2."""


class ComputationError(Exception):
    """The library could not compute an answer (not the user's fault): exit 3."""


# -- output helpers --------------------------------------------------------------------


def _plain(x: Any) -> Any:
    """JSON-ready copy: Fractions and numpy scalars to floats, NaN/inf to None."""
    import numpy as np

    if x is None or isinstance(x, bool | str):
        return x
    if isinstance(x, int):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, Fraction):
        try:
            return _plain(float(x))
        except OverflowError:
            return None
    if isinstance(x, np.generic):
        return _plain(x.item())
    if isinstance(x, np.ndarray):
        return _plain(x.tolist())
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple | set | frozenset):
        return [_plain(v) for v in x]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return _plain(dataclasses.asdict(x))
    if hasattr(x, "as_dict"):
        return _plain(x.as_dict())
    return str(x)


def _emit_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(_plain(obj), allow_nan=False) + "\n")
    sys.stdout.flush()


def _warn(msg: str) -> None:
    print(f"{PROG}: warning: {msg}", file=sys.stderr)


def _note(msg: str) -> None:
    print(f"{PROG}: {msg}", file=sys.stderr)


@contextlib.contextmanager
def _stdout_to_stderr(active: bool) -> Iterator[None]:
    """Under ``--json`` anything the library prints goes to stderr, not into the JSON."""
    if not active:
        yield
        return
    with contextlib.redirect_stdout(sys.stderr):
        yield


def _exact(x: Any) -> str | None:
    """Exact text of a rational, else None."""
    return str(x) if isinstance(x, Fraction) else None


def _fmt(x: Any, digits: int = 10) -> str:
    """A number for the text report: small fractions as p/q, the rest to ``digits``."""
    if isinstance(x, Fraction):
        if x.denominator == 1 or (x.denominator <= 1000 and abs(x.numerator) <= 10**6):
            return str(x)
        x = float(x)
    if isinstance(x, tuple | list):
        return "(" + ", ".join(_fmt(v, digits) for v in x) + ")"
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return f"{v:.{digits}g}"


# -- parsing numbers (kept as text; the library reads them exactly) --------------------


def _split(text: str, option: str) -> list[str]:
    items = [t.strip() for t in text.split(",")]
    if not text.strip() or any(not t for t in items):
        raise UsageError(f"{option}: empty entry in {text!r} (use a comma-separated list)")
    return items


def _sizes_arg(text: str) -> list[str] | list[tuple[str, ...]]:
    """``0.4,0.6`` -> scalar sizes; ``15:8,17.1:6.5`` -> vector sizes (':' between resources)."""
    items = _split(text, "--sizes")
    if any(":" in t for t in items):
        vecs = [tuple(p.strip() for p in t.split(":")) for t in items]
        if any(not p for v in vecs for p in v):
            raise UsageError(f"--sizes: empty component in {text!r}")
        return vecs
    return items


def _capacity_arg(text: str) -> str | tuple[str, ...]:
    t = text.strip()
    if ":" in t:
        parts = tuple(p.strip() for p in t.split(":"))
        if any(not p for p in parts):
            raise UsageError(f"--capacity: empty component in {text!r}")
        return parts
    if not t:
        raise UsageError("--capacity is empty")
    return t


def _is_one(capacity: object) -> bool:
    from theory.numbers import to_number

    caps = capacity if isinstance(capacity, tuple) else (capacity,)
    return all(to_number(c, name="capacity") == 1 for c in caps)


# -- rho-star --------------------------------------------------------------------------


@dataclasses.dataclass
class _Input:
    dist: Any  # theory.distributions.SizeDistribution
    info: dict[str, Any]
    weights: list[int] | None = None  # a BPPLIB instance
    capacity: object = "1"


def _types_info(dist: Any, limit: int = 64) -> dict[str, Any]:
    """The finite types in the order the solvers index them (mixture configs, dual)."""
    out: dict[str, Any] = {"types": len(dist), "dim": dist.dim}
    if len(dist) <= limit:
        out["sizes"] = [_plain(s) for s in dist.sizes]
        out["probs"] = [_plain(p) for p in dist.probs]
        if dist.exact:
            out["sizes_exact"] = [
                ":".join(str(v) for v in s) if isinstance(s, tuple) else str(s)
                for s in dist.sizes]
            out["probs_exact"] = [str(p) for p in dist.probs]
    return out


def _discrete_from_args(args: argparse.Namespace) -> Any:
    """The Discrete law of ``--sizes`` with ``--probs`` or ``--counts`` (equally likely)."""
    from theory.distributions import Discrete

    sizes = _sizes_arg(args.sizes)
    if args.probs is not None and args.counts is not None:
        raise UsageError("give either --probs or --counts, not both")
    if args.counts is not None:
        return Discrete.from_counts(sizes, _split(args.counts, "--counts"))
    return Discrete(sizes, None if args.probs is None else _split(args.probs, "--probs"))


def _read_input(args: argparse.Namespace) -> _Input:
    from theory.distributions import Discrete, from_spec

    capacity = _capacity_arg(args.capacity) if args.capacity is not None else "1"
    dist: Any  # theory.distributions.SizeDistribution
    if args.instance is None and (args.probs is not None or args.counts is not None) \
            and args.sizes is None:
        raise UsageError("--probs and --counts go with --sizes")
    if args.sizes is not None:
        dist = _discrete_from_args(args)
        info = {"kind": "sizes", "capacity": _plain_capacity(capacity),
                "weights_from": "counts" if args.counts is not None
                else "probs" if args.probs is not None else "equally likely"}
        info.update(_types_info(dist))
        return _Input(dist, info, capacity=capacity)
    if args.instance is not None:
        from theory.bpplib import read_bpplib

        if args.capacity is not None:
            raise UsageError("--capacity does not apply to --instance (the file gives it)")
        cap, weights = read_bpplib(args.instance)
        counts = Counter(weights)
        dist = Discrete.from_counts(sorted(counts), [counts[w] for w in sorted(counts)])
        info = {"kind": "instance", "format": "BPPLIB", "path": str(args.instance),
                "capacity": cap, "items": len(weights)}
        info.update(_types_info(dist))
        return _Input(dist, info, weights=weights, capacity=cap)
    if args.dist is not None:
        if not _is_one(capacity):
            raise UsageError("--dist gives sizes on (0, 1], so --capacity must be 1")
        dist = from_spec(args.dist)
        info = {"kind": "dist", "spec": args.dist, "distribution": repr(dist),
                "discrete": isinstance(dist, Discrete), "capacity": 1}
        if isinstance(dist, Discrete):
            info.update(_types_info(dist))
        return _Input(dist, info, capacity=capacity)
    return _read_trace(args.trace, capacity, args.finished_only)


def _plain_capacity(capacity: object) -> Any:
    return list(capacity) if isinstance(capacity, tuple) else capacity


def _read_trace(spec: str, capacity: object, finished_only: bool) -> _Input:
    from theory.distributions import Discrete
    from theory.traces import read_size_file, trace_distribution

    name, _, kind = spec.partition(":")
    if name == "google2011":
        kind = kind or "max"
        dist = trace_distribution(kind, exact=True, finished_only=finished_only)
        info = {"kind": "trace", "source": "google2011", "resource": kind,
                "finished_only": finished_only, "capacity": _plain_capacity(capacity)}
        info.update(_types_info(dist))
        return _Input(dist, info, capacity=capacity)
    if finished_only:
        raise UsageError("--finished-only applies to the packaged google2011 trace only")
    path = Path(spec)
    if not path.is_file():
        raise UsageError(f"--trace: no file {spec!r} (or use google2011[:max|cpu|memory|vector])")
    sizes = read_size_file(path)
    kept = [s for s in sizes if not (all(v == 0 for v in s) if isinstance(s, tuple) else s == 0)]
    if len(kept) < len(sizes):
        _warn(f"{spec}: dropped {len(sizes) - len(kept)} jobs of size zero")
    if not kept:
        raise UsageError(f"{spec}: no job with a positive size")
    counts = Counter(kept)
    order = sorted(counts)
    dist = Discrete.from_counts(order, [counts[s] for s in order])
    info = {"kind": "trace", "source": "file", "path": spec, "jobs": len(kept),
            "dropped_zero": len(sizes) - len(kept), "capacity": _plain_capacity(capacity)}
    info.update(_types_info(dist))
    return _Input(dist, info, capacity=capacity)


def _normalised(inp: _Input) -> Any:
    """The size distribution on capacity 1 (sizes / C, exact for rational C), for VQS."""
    from theory.distributions import Discrete
    from theory.numbers import to_number

    if inp.dist.dim != 1:
        raise UsageError("--vqs needs scalar sizes (VQS is a single-resource policy)")
    if isinstance(inp.capacity, tuple):
        raise UsageError("--vqs needs a scalar --capacity")
    if _is_one(inp.capacity):
        return inp.dist
    c = to_number(inp.capacity, name="capacity")
    return Discrete([s / c for s in inp.dist.sizes], inp.dist.probs)


def _finite(inp: _Input, args: argparse.Namespace) -> tuple[dict[str, Any], Any]:
    from capacity import bin_packing_lp, rho_star

    kw = {} if args.method is None else {"method": args.method}
    if inp.weights is not None:
        if args.servers != 1:
            raise UsageError("--servers does not apply to --instance (z_LP counts bins of "
                             "one server each)")
        res = bin_packing_lp(inp.weights, inp.capacity, **kw)
    else:
        res = rho_star(inp.dist, servers=args.servers, capacity=inp.capacity, **kw)
    out = res.to_dict("rho_star")
    out["lower"] = res.lower
    out["upper"] = res.upper
    out["lower_exact"] = _exact(res.lower)
    out["upper_exact"] = _exact(res.upper)
    out["bracket"] = False
    return out, res


def _bracket(inp: _Input, args: argparse.Namespace) -> dict[str, Any]:
    from capacity.brackets import quantile_brackets
    from theory.bounds import mean_size_bound

    if args.method not in (None, "auto"):
        _warn("--method is not passed to the bracket LPs (capacity.quantile_brackets "
              "chooses per level); ignoring it")
    levels = DEFAULT_LEVELS if args.levels is None else args.levels
    if args.levels is None:
        _note(f"continuous distribution: bracketing rho* over quantile partitions "
              f"X^(0..{levels}) (default; set --levels)")
    brs = quantile_brackets(inp.dist, levels, servers=args.servers)
    lo_b = max(brs, key=lambda b: float(b.lo))  # every level's bounds are certified
    hi_b = min(brs, key=lambda b: float(b.hi))
    return {
        "lower": lo_b.lo,
        "upper": hi_b.hi,
        "lower_exact": _exact(lo_b.lo),
        "upper_exact": _exact(hi_b.hi),
        "relative_gap": (float(hi_b.hi) - float(lo_b.lo)) / float(hi_b.hi),
        "bracket": True,
        "certified": lo_b.lower.certified and hi_b.upper.certified,
        "servers": args.servers,
        "method": "quantile-brackets",
        "lp_method": lo_b.lower.method,
        "level": levels,
        "levels_default": args.levels is None,
        "levels": [{"level": n, **b.as_dict()} for n, b in enumerate(brs)],
        # the lower bound is proven by a mixture of upper-rounded types, the upper one
        # by prices on the lower-rounded types (PG21 Thm. 1, first step of its proof)
        "mixture": [t.as_dict(lo_b.lower.sizes) for t in lo_b.lower.mixture],
        "mixture_of": f"upper-rounded types of {lo_b.name}",
        "dual": hi_b.upper.dual,
        "dual_sizes": hi_b.upper.sizes,
        "dual_of": f"lower-rounded types of {hi_b.name}",
        "lemma2_bound": mean_size_bound(args.servers, inp.dist),
    }


def _grid(inp: _Input, args: argparse.Namespace) -> dict[str, Any]:
    from capacity.brackets import grid_bracket

    if not _is_one(inp.capacity) and inp.capacity != ("1", "1"):
        raise UsageError("--grid brackets sizes normalised to capacity 1")
    b = grid_bracket(inp.dist, args.grid, servers=args.servers)
    return {
        "lower": b.lo,
        "upper": b.hi,
        "lower_exact": _exact(b.lo),
        "upper_exact": _exact(b.hi),
        "upper_from": "grid rounded down" if b.upper_from == "lower-rounded LP"
        else b.upper_from,
        "relative_gap": b.gap,
        "bracket": True,
        "certified": b.certified,
        "servers": args.servers,
        "method": f"grid-bracket (1/{args.grid})",
        "lp_method": b.lower.method,
        "grid": args.grid,
        "types_rounded_up": len(b.lower.sizes),
        "types_rounded_down": len(b.upper.sizes),
        # PG21 Thm. 1 with grid cells: sizes rounded up give the lower bound (mixture),
        # sizes rounded down give the upper bound (dual prices)
        "mixture": [t.as_dict(b.lower.sizes) for t in b.lower.mixture],
        "mixture_of": "sizes rounded up to the grid",
        "dual": b.upper.dual,
        "dual_sizes": b.upper.sizes,
        "dual_of": "sizes rounded down to the grid",
        "seconds": b.lower.seconds + b.upper.seconds,
        "lemma2_bound": b.lemma2,
    }


def cmd_rho_star(args: argparse.Namespace) -> int:
    from capacity import METHODS, LPSolveError
    from theory.distributions import Discrete

    if args.method is not None and args.method not in METHODS:
        raise UsageError(f"--method must be one of {', '.join(METHODS)}, got {args.method!r}")
    if args.servers < 1:
        raise UsageError(f"--servers must be a positive integer, got {args.servers}")
    if args.levels is not None and args.levels < 0:
        raise UsageError(f"--levels must be a non-negative integer, got {args.levels}")
    if args.grid is not None and args.grid < 0:
        raise UsageError(f"--grid must be a non-negative integer, got {args.grid}")
    if args.vqs is not None and args.vqs < 2:
        raise UsageError(f"--vqs J needs J >= 2, got {args.vqs}")
    if args.finished_only and args.trace is None:
        raise UsageError("--finished-only goes with --trace google2011")
    inp = _read_input(args)
    try:
        with _stdout_to_stderr(args.json):
            res = None
            many = isinstance(inp.dist, Discrete) and len(inp.dist) > TRACE_EXACT_MAX_TYPES
            grid = args.grid if args.grid is not None else (
                0 if inp.info["kind"] != "trace" or not many
                else DEFAULT_TRACE_GRID if inp.dist.dim == 1 else DEFAULT_TRACE_GRID_2D)
            args.grid = grid
            if isinstance(inp.dist, Discrete) and grid > 0:
                out = _grid(inp, args)
            elif isinstance(inp.dist, Discrete):
                if args.levels is not None:
                    _warn("--levels ignored: the input has finitely many types, rho* is exact")
                out, res = _finite(inp, args)
            else:
                out = _bracket(inp, args)
            out["input"] = inp.info
            if args.vqs is not None:
                from capacity.reduced import rho_vqs

                kw = {} if args.levels is None or isinstance(inp.dist, Discrete) \
                    else {"levels": args.levels}
                v = rho_vqs(_normalised(inp), args.vqs, servers=args.servers, **kw)
                out["rho_vqs"] = v.value
                out["vqs"] = v.as_dict()
    except (LPSolveError, RuntimeError) as exc:
        raise ComputationError(f"the solver failed: {exc}") from exc
    if args.json:
        _emit_json(out)
    else:
        _print_rho_star(out, res)
    return EXIT_OK


def _print_rho_star(out: dict[str, Any], res: Any) -> None:
    inp = out["input"]
    desc = {"sizes": f"{inp.get('types')} job types", "instance": f"BPPLIB {inp.get('path')}",
            "dist": f"distribution {inp.get('spec')}",
            "trace": f"trace {inp.get('path', inp.get('source'))}"}[inp["kind"]]
    print(f"input       {desc} (capacity {_fmt(inp.get('capacity'))}), "
          f"servers L = {out['servers']}")
    if "rho_star" in out:
        exact = out["lower_exact"] if out["lower_exact"] == out["upper_exact"] else None
        print(f"rho*        {_fmt(out['rho_star'], 12)}" + (f"  (= {exact})" if exact else ""))
        cert = out["certificate"]
        status = "certified" if out["certified"] else "NOT certified"
        print(f"certificate {status}: {_fmt(res.lower, 12)} <= rho* <= {_fmt(res.upper, 12)} "
              f"({cert['message'] or 'no message'})")
        print(f"method      {out['method']} ({out['columns']} columns, "
              f"{out['iterations']} iterations, {_fmt(out['seconds'], 3)} s)")
    else:
        status = "certified" if out["certified"] else "NOT certified"
        print(f"rho*        in [{_fmt(out['lower'], 12)}, {_fmt(out['upper'], 12)}] "
              f"({status}; relative gap {_fmt(out['relative_gap'], 3)})")
        if "grid" in out:
            print(f"bracket     sizes rounded up / down to multiples of 1/{out['grid']} "
                  f"({out['types_rounded_up']} / {out['types_rounded_down']} types, "
                  f"{_fmt(out['seconds'], 3)} s)")
        else:
            dflt = " (default)" if out["levels_default"] else ""
            print(f"brackets    quantile partitions X^(0..{out['level']}){dflt}:")
        for lv in out.get("levels", []):
            print(f"   n={lv['level']:<3d} cells {lv['cells']:<5d} "
                  f"[{_fmt(lv['lower'], 10)}, {_fmt(lv['upper'], 10)}]  "
                  f"gap {_fmt(lv['relative_gap'], 3)}")
    lemma2 = out.get("lemma2_bound")
    if lemma2 is not None:
        print(f"lemma 2     rho* <= L / R-bar = {_fmt(lemma2, 12)}")
    if "z_lp" in out:
        zl, zh = out["z_lp_bounds"]
        print(f"z_LP        {_fmt(out['z_lp'], 12)}  (certified [{_fmt(zl, 12)}, {_fmt(zh, 12)}]; "
              f"L1 = {out['l1']}, ceil(z_LP) = {out['lp_bins']}, items {out['items']})")
    mix = sorted(out["mixture"], key=lambda t: -t["weight"])
    if mix:
        label = "mixture" if "rho_star" in out else f"mixture ({out['mixture_of']})"
        print(f"{label}: {len(mix)} configuration(s), top {min(len(mix), TOP_CONFIGS)}:")
        for term in mix[:TOP_CONFIGS]:
            parts = [f"{_fmt(s, 6)} x{k}" for s, k in term.get("sizes", [])]
            cls = f"class {term['server_class']} " if term["server_class"] else ""
            print(f"   weight {term['weight']:.6f}  {cls}{{{', '.join(parts)}}}")
    if "vqs" in out:
        v = out["vqs"]
        lo, hi = v["ratio_bounds"]
        print(f"rho_VQS     {_fmt(out['rho_vqs'], 12)} with J = {v['J']}  "
              f"(rho_VQS / rho* in [{_fmt(lo, 6)}, {_fmt(hi, 6)}]; PG21 Thm. 3 "
              f"guarantees >= 2/3 when all sizes exceed 1/2^J)")


# -- verify / errata / policies --------------------------------------------------------


def _registry() -> Any:
    try:
        from proofs_checks import registry
    except ImportError as exc:
        raise ComputationError(f"the check catalogue cannot be imported ({type(exc).__name__}: "
                               f"{exc})") from exc
    return registry


def _short(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, int | float | Fraction):
        return _fmt(v, 6)
    if isinstance(v, str):
        return v if len(v) <= 30 else v[:27] + "..."
    if isinstance(v, dict):
        return "{" + f"{len(v)} keys" + "}"
    try:
        n = len(v)
    except TypeError:
        return _short(str(v))
    if n <= 3:
        return "[" + ", ".join(_short(x) for x in v) + "]"
    return f"[{n} items]"


def _evidence_line(evidence: dict[str, Any], width: int = 70) -> str:
    if "error" in evidence:
        text = f"error: {evidence['error']}"
    else:
        text = ", ".join(f"{k}={_short(v)}" for k, v in evidence.items() if k != "traceback")
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def cmd_verify(args: argparse.Namespace) -> int:
    reg = _registry()
    if args.list:
        try:
            checks = reg.all_checks()
        except ImportError as exc:
            raise ComputationError(f"the checks cannot be loaded ({exc})") from exc
        if args.claim is not None:
            checks = [c for c in checks
                      if c.id == args.claim or c.id.startswith(args.claim + ".")]
        if args.paper is not None:
            checks = [c for c in checks if c.paper == args.paper]
        if args.quick:
            checks = [c for c in checks if c.quick]
        rows = [{"id": c.id, "paper": c.paper, "location": c.location,
                 "statement": c.statement, "method": c.method, "quick": c.quick}
                for c in checks]
        if args.json:
            _emit_json(rows)
        else:
            for r in rows:
                q = "" if r["quick"] else "  [not in --quick]"
                print(f"{r['id']:<22} {r['location']}  ({r['method']}){q}")
                print(f"{'':<22} {r['statement']}")
            print(f"{len(rows)} check(s)")
        return EXIT_OK
    if not args.json:
        _note("running checks ...")
    try:
        with _stdout_to_stderr(args.json):
            results = reg.run_checks(paper=args.paper, claim=args.claim, quick=args.quick)
    except KeyError as exc:
        raise UsageError(exc.args[0] if exc.args else str(exc)) from exc
    except ImportError as exc:
        raise ComputationError(f"the checks cannot be loaded ({exc})") from exc
    rows = [r.as_dict() for r in results]
    counts = Counter(r["verdict"] for r in rows)
    if args.json:
        _emit_json(rows)
    else:
        width = max([len(r["id"]) for r in rows] + [5])
        print(f"{'claim':<{width}}  {'verdict':<12} {'seconds':>8}  evidence")
        for r in rows:
            print(f"{r['id']:<{width}}  {r['verdict']:<12} {r['seconds']:>8.2f}  "
                  f"{_evidence_line(r['evidence'])}")
        total = sum(r["seconds"] for r in rows)
        print(f"{len(rows)} check(s): {counts['holds']} holds, {counts['violated']} violated, "
              f"{counts['inconclusive']} inconclusive ({total:.1f} s)")
    return EXIT_VIOLATED if counts["violated"] else EXIT_OK


def _errata() -> list[Any]:
    try:
        from proofs_checks.errata import ERRATA
    except ModuleNotFoundError as exc:
        if exc.name not in ("proofs_checks.errata", "proofs_checks"):
            raise ComputationError(f"the errata register cannot be imported ({exc})") from exc
        _note("no errata register yet (proofs_checks.errata does not exist)")
        return []
    except ImportError as exc:
        raise ComputationError(f"the errata register cannot be imported ({exc})") from exc
    return list(ERRATA)


def cmd_errata(args: argparse.Namespace) -> int:
    rows = [_plain(e) for e in _errata()]
    if args.json:
        _emit_json(rows)
        return EXIT_OK
    for i, r in enumerate(rows, 1):
        if not isinstance(r, dict):
            print(f"[{i}] {r}")
            continue
        head = r.get("id") or r.get("claim") or f"erratum {i}"
        print(f"[{i}] {head}")
        for k, v in r.items():
            if v is None or (k in ("id",) and v == head):
                continue
            text = json.dumps(v) if isinstance(v, dict | list) else str(v)
            print(f"    {k}: {text}")
    print(f"{len(rows)} erratum/errata in the register")
    return EXIT_OK


def cmd_policies(args: argparse.Namespace) -> int:
    from policies.registry import POLICIES

    rows = [{"name": i.name, "description": i.description, "reference": i.reference,
             "parameters": i.parameters} for i in POLICIES.values()]
    if args.json:
        _emit_json({"policies": [r["name"] for r in rows], "details": rows})
    else:
        for r in rows:
            print(f"{r['name']:<13} {r['description']} ({r['reference']})")
    return EXIT_OK


# -- simulate --------------------------------------------------------------------------


def _simulation_input(args: argparse.Namespace) -> tuple[Any, float, dict[str, Any]]:
    """The size distribution (in capacity units), the capacity, and a description."""
    from theory.distributions import from_spec
    from theory.numbers import to_number

    cap = float(to_number(args.capacity, name="--capacity")) if args.capacity else 1.0
    if not (math.isfinite(cap) and cap > 0):
        raise UsageError(f"--capacity must be positive, got {args.capacity}")
    if args.sizes is not None:
        dist = _discrete_from_args(args)
        if dist.dim != 1:
            raise UsageError("simulate is single-resource (PG21): give scalar --sizes")
        if any(x > cap for x in dist.sizes):
            raise UsageError(f"a size exceeds the capacity {cap:g}")
        return dist, cap, {"kind": "sizes", "distribution": repr(dist)}
    if args.probs is not None or args.counts is not None:
        raise UsageError("--probs and --counts go with --sizes")
    if cap != 1:
        raise UsageError("--dist gives sizes on (0, 1], so --capacity must be 1")
    dist = from_spec(args.dist)
    return dist, cap, {"kind": "dist", "spec": args.dist, "distribution": repr(dist)}


def cmd_simulate(args: argparse.Namespace) -> int:
    import policies as P

    if args.servers < 1:
        raise UsageError(f"--servers must be a positive integer, got {args.servers}")
    if args.slots < 1:
        raise UsageError(f"--slots must be a positive integer, got {args.slots}")
    if args.policy not in P.POLICIES:
        raise UsageError(f"unknown policy {args.policy!r}; known: {', '.join(P.POLICIES)}")
    if args.trace is not None:
        if args.trace != "google2011":
            raise UsageError("--trace supports google2011 (PG21 VII-B)")
        if args.sizes or args.dist or args.workload or args.intensity:
            raise UsageError("--trace brings its own sizes and arrivals; use --traffic-scaling")
        w = P.google2011_workload(traffic_scaling=args.traffic_scaling)
        dist, cap = None, 1.0
        info: dict[str, Any] = {"kind": "trace", "trace": "google2011",
                                "traffic_scaling": args.traffic_scaling, "jobs": w.jobs}
        slots = min(args.slots, int(w.horizon))
        rate = None
    else:
        if args.sizes is None and args.dist is None:
            raise UsageError("give the sizes: --sizes (with --probs/--counts) or --dist")
        if (args.workload is None) == (args.intensity is None):
            raise UsageError("give exactly one of --workload RHO and --intensity ALPHA")
        dist, cap, info = _simulation_input(args)
        slots = args.slots
        w = P.pg21_workload(
            dist, servers=args.servers, slots=slots, capacity=cap,
            mu=None if args.deterministic is not None else args.mu,
            deterministic=args.deterministic,
            workload=args.workload, intensity=args.intensity, arrivals=args.arrivals,
            seed=args.seed)
        rate = w.arrival_rate
    policy = P.make_policy(args.policy, J=args.J, dist=dist, capacity=cap, levels=args.levels)
    cluster = P.Cluster.identical(args.servers, cap)
    with _stdout_to_stderr(args.json):
        res = P.simulate(policy, w, cluster, slots=slots, warmup=args.warmup)
    out = res.summary()
    mean_service = (float(args.deterministic) if args.deterministic is not None
                    else 1.0 / args.mu)
    out["input"] = dict(info, servers=args.servers, capacity=cap, seed=args.seed,
                        arrival_rate=rate, mean_service=mean_service,
                        workload=None if rate is None else rate * mean_service,
                        intensity=args.intensity, service="geometric"
                        if args.deterministic is None else "deterministic",
                        arrivals=args.arrivals)
    if args.json:
        _emit_json(out)
    else:
        st = out["stability"]
        print(f"policy {out['policy']} on {args.servers} server(s), {out['slots']} slots, "
              f"{out['jobs']} jobs ({out['seconds']:.3f} s)")
        if st is None:
            print(f"  verdict: {out['verdict']}  (too few slots after warm-up to judge)")
        else:
            print(f"  verdict: {out['verdict']}  (relative drift "
                  f"{_fmt(st['relative_drift'], 3)}, {int(100 * st['confidence'])}% CI "
                  f"[{_fmt(st['relative_drift_ci'][0], 3)}, "
                  f"{_fmt(st['relative_drift_ci'][1], 3)}], threshold {st['threshold']})")
        print(f"  mean queue {out['mean_queue']:.4g} jobs, mean queued resource "
              f"{out['mean_queued_resource']:.4g}, final queue {out['final_queue']}")
        print(f"  mean occupancy {out['mean_occupancy']:.4f}, invariants "
              f"{'ok' if out['invariants_ok'] else 'VIOLATED'}")
    if not res.invariants_ok:
        raise ComputationError("the run violated an invariant: "
                               + "; ".join(res.invariants.violations if res.invariants else []))
    return EXIT_OK


# -- parser ----------------------------------------------------------------------------

_RHO_EPILOG = """\
examples:
  packsched rho-star --sizes 0.4,0.6 --probs 0.5,0.5
  packsched rho-star --capacity 10 --sizes 2,5 --counts 2,1 --servers 4
  packsched rho-star --capacity 64:32 --sizes "15:8,17.1:6.5"
  packsched rho-star --instance Falkenauer_u120_00.txt --json
  packsched rho-star --dist uniform:0.1,0.9 --levels 5 --vqs 3
  packsched rho-star --dist "mixture:1/2*point:0.5+1/2*uniform:0.1,0.9"
  packsched rho-star --trace google2011:cpu
  packsched rho-star --trace google2011:max --grid 10000

Numbers are read exactly: decimals and p/q become fractions.
"""


_SIM_EPILOG = """\
examples:
  packsched simulate --policy vqs --sizes 0.4,0.6 --mu 0.01 --workload 1.4
  packsched simulate --policy bf-js --capacity 10 --sizes 2,5 --probs 2/3,1/3 \\
      --deterministic 100 --workload 3.06 --slots 400000
  packsched simulate --policy vqs-bf --dist uniform:0.1,0.9 --servers 5 --intensity 0.9
  packsched simulate --policy fifo-ff --trace google2011 --servers 1000 --traffic-scaling 1.2
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (imports nothing heavy, so ``--help`` is instant)."""
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Compute and check the claims of the resource-packing scheduling papers "
                    "(PG21, PG18, XLL21, FL24).",
        epilog="exit status: 0 ok, 1 a check is violated, 2 bad input or usage, "
               "3 the computation failed")
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    r = sub.add_parser(
        "rho-star", help="maximum supportable workload rho* with its certificate",
        description="Maximum supportable workload rho* = lambda/mu (PG21 eq. (4)) of L\n"
                    "identical servers, with its LP certificate; a Theorem 1 bracket over\n"
                    "quantile partitions for a general distribution; the VQS capacity.",
        epilog=_RHO_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = r.add_argument_group("input (exactly one)").add_mutually_exclusive_group(required=True)
    src.add_argument("--sizes", metavar="S1,S2,...",
                     help="job sizes in capacity units; vectors as 'a:b,c:d' (':' separates "
                          "resources)")
    src.add_argument("--instance", metavar="FILE",
                     help="bin-packing instance in BPPLIB format (n, C, n weights); adds z_LP")
    src.add_argument("--dist", metavar="SPEC",
                     help="distribution on (0,1]: uniform:A,B | discrete:S@P,... | point:S | "
                          "beta:A,B[,LO,HI] | mixture:W*SPEC+W*SPEC")
    src.add_argument("--trace", metavar="SOURCE",
                     help="google2011[:max|cpu|memory|vector] (packaged Google trace, default "
                          "max) or a FILE with one size (or vector) per line")
    w = r.add_argument_group("weights of --sizes (default: equally likely)")
    w.add_argument("--probs", metavar="P1,P2,...", help="type probabilities (sum to one)")
    w.add_argument("--counts", metavar="N1,N2,...", help="type multiplicities")
    o = r.add_argument_group("computation")
    o.add_argument("--servers", "-L", type=int, default=1, metavar="L",
                   help="number of identical servers (default 1)")
    o.add_argument("--capacity", "-C", metavar="C",
                   help="server capacity, 'a:b' for several resources (default 1)")
    o.add_argument("--method", default=None, metavar="METHOD",
                   help="configuration-LP method: auto | enumerate | column-generation "
                        "(default auto; column-generation for --instance)")
    o.add_argument("--levels", type=int, metavar="N",
                   help=f"bracket over quantile partitions X^(0..N) (continuous --dist; "
                        f"default {DEFAULT_LEVELS})")
    o.add_argument("--vqs", type=int, metavar="J",
                   help="also the reduced-set capacity rho_VQS(F, J) (PG21 Lemma 3)")
    o.add_argument("--grid", type=int, metavar="G",
                   help=f"bracket rho* by rounding sizes up and down to multiples of 1/G "
                        f"(PG21 Thm. 1 with grid cells; default for a --trace with more than "
                        f"{TRACE_EXACT_MAX_TYPES} sizes: {DEFAULT_TRACE_GRID}, or "
                        f"{DEFAULT_TRACE_GRID_2D} for vectors; 0 = exact)")
    o.add_argument("--finished-only", action="store_true",
                   help="google2011: keep only tasks that finished (PG21 VII-B)")
    o.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    r.set_defaults(func=cmd_rho_star)

    v = sub.add_parser(
        "verify", help="run the checks of the papers' claims",
        description="Run the registered checks (one per claim). Exit status 1 if any check "
                    "is violated; inconclusive checks do not fail.")
    v.add_argument("--paper", metavar="KEY", help="only this paper (PG21, PG18, XLL21, FL24)")
    v.add_argument("--claim", metavar="ID",
                   help="only this claim id (e.g. PG21.Thm3) and its sub-claims")
    v.add_argument("--quick", action="store_true", help="quick checks in their reduced form")
    v.add_argument("--list", action="store_true",
                   help="list the checks (id, location, statement) without running them")
    v.add_argument("--json", action="store_true",
                   help="print a JSON list of {id, paper, location, statement, method, "
                        "verdict, evidence, seconds}")
    v.set_defaults(func=cmd_verify)

    e = sub.add_parser("errata", help="print the errata register",
                       description="Where a paper's literal statement is wrong: the statement, "
                                   "the corrected one and a separating instance.")
    e.add_argument("--json", action="store_true", help="print a JSON list")
    e.set_defaults(func=cmd_errata)

    pol = sub.add_parser("policies", help="list the registered scheduling policies",
                         description="List the built-in policies (names for --policy).")
    pol.add_argument("--json", action="store_true",
                     help='print {"policies": [names], "details": [...]}')
    pol.set_defaults(func=cmd_policies)

    sm = sub.add_parser(
        "simulate", help="simulate a policy in the PG21 slotted model",
        description="Simulate a scheduling policy (PG21 Sec. II slotted model) and judge "
                    "stability.", epilog=_SIM_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sm.add_argument("--policy", required=True, metavar="NAME",
                    help="policy name (packsched policies)")
    ssrc = sm.add_argument_group("job sizes").add_mutually_exclusive_group()
    ssrc.add_argument("--sizes", metavar="S1,S2,...", help="job sizes in capacity units")
    ssrc.add_argument("--dist", metavar="SPEC", help="named distribution on (0, 1]")
    ssrc.add_argument("--trace", metavar="NAME",
                      help="google2011: the packaged trace's arrivals, sizes and runtimes")
    sm.add_argument("--probs", metavar="P1,P2,...", help="type probabilities of --sizes")
    sm.add_argument("--counts", metavar="N1,N2,...", help="type multiplicities of --sizes")
    sm.add_argument("--servers", "-L", type=int, default=1, metavar="L")
    sm.add_argument("--capacity", "-C", metavar="C", help="server capacity (default 1)")
    sm.add_argument("--mu", type=float, default=0.01,
                    help="geometric service: departure probability per slot (default 0.01)")
    sm.add_argument("--deterministic", type=int, metavar="D",
                    help="deterministic service of D slots instead (PG21 Fig. 3b)")
    load = sm.add_mutually_exclusive_group()
    load.add_argument("--workload", type=float, metavar="RHO", help="rho = lambda / mu")
    load.add_argument("--intensity", type=float, metavar="ALPHA",
                      help="rho = ALPHA * L / R-bar (PG21 VII-A)")
    sm.add_argument("--arrivals", choices=["poisson", "bernoulli"], default="poisson")
    sm.add_argument("--traffic-scaling", type=float, default=1.0,
                    help="--trace: arrival-rate multiplier 1/beta (PG21 VII-B)")
    sm.add_argument("--slots", type=int, default=100_000)
    sm.add_argument("--warmup", type=int, help="slots excluded from averages (default slots/5)")
    sm.add_argument("--seed", type=int, default=0)
    sm.add_argument("--J", type=int, help="vqs, vqs-bf: universal partition depth")
    sm.add_argument("--levels", type=int, default=2,
                    help="maxweight on a continuous law: quantile partition X^(levels)")
    sm.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    sm.set_defaults(func=cmd_simulate)
    return p


def _version() -> str:
    from packsched import __version__

    return __version__


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``packsched`` console script; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, usage errors (argparse exits 2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    try:
        return int(args.func(args))
    except (UsageError, ValueError, OSError) as exc:
        msg = str(exc)
        if isinstance(exc, OSError) and exc.filename is not None:
            msg = f"{exc.filename}: {exc.strerror or exc}"
        print(f"{PROG}: error: {msg}", file=sys.stderr)
        return EXIT_USAGE
    except ComputationError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return EXIT_FAILED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
