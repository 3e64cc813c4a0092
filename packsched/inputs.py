"""What a command computes on: the size law of ``--sizes``/``--dist``/``--trace``/
``--instance`` and the capacity, read once for every command that takes them."""

from __future__ import annotations

import argparse
import dataclasses
from collections import Counter
from pathlib import Path
from typing import Any

from packsched.arguments import budgets
from packsched.errors import UsageError
from packsched.output import plain, warn

__all__ = ["SizeInput", "discrete_from_args", "read_size_input", "types_info", "is_one",
           "plain_capacity", "normalised", "on_unit_capacity"]


@dataclasses.dataclass
class SizeInput:
    dist: Any  # theory.distributions.SizeDistribution
    info: dict[str, Any]
    weights: list[int] | None = None  # a BPPLIB instance
    capacity: object = "1"


def types_info(dist: Any, limit: int = 64) -> dict[str, Any]:
    """The finite types in the order the solvers index them (mixture configs, dual)."""
    out: dict[str, Any] = {"types": len(dist), "dim": dist.dim}
    if len(dist) <= limit:
        out["sizes"] = [plain(s) for s in dist.sizes]
        out["probs"] = [plain(p) for p in dist.probs]
        if dist.exact:
            out["sizes_exact"] = [
                ":".join(str(v) for v in s) if isinstance(s, tuple) else str(s)
                for s in dist.sizes]
            out["probs_exact"] = [str(p) for p in dist.probs]
    return out


def is_one(capacity: object) -> bool:
    from theory.numbers import to_number

    caps = capacity if isinstance(capacity, tuple) else (capacity,)
    return all(to_number(c, name="--capacity") == 1 for c in caps)


def plain_capacity(capacity: object) -> Any:
    return list(capacity) if isinstance(capacity, tuple) else capacity


def discrete_from_args(args: argparse.Namespace) -> Any:
    """The Discrete law of ``--sizes`` with ``--probs`` or ``--counts`` (equally likely)."""
    from theory.distributions import Discrete

    if args.probs is not None and args.counts is not None:
        raise UsageError("give either --probs or --counts, not both")
    if args.counts is not None:
        if len(args.counts) != len(args.sizes):
            raise UsageError(f"--counts gives {len(args.counts)} counts for "
                             f"{len(args.sizes)} sizes of --sizes")
        return Discrete.from_counts(args.sizes, args.counts)
    if args.probs is not None and len(args.probs) != len(args.sizes):
        raise UsageError(f"--probs gives {len(args.probs)} probabilities for "
                         f"{len(args.sizes)} sizes of --sizes")
    return Discrete(args.sizes, args.probs)


def read_size_input(args: argparse.Namespace) -> SizeInput:
    """The input of ``rho-star``: exactly one of --sizes, --instance, --dist, --trace."""
    from theory.distributions import Discrete, from_spec

    capacity = args.capacity if args.capacity is not None else "1"
    if args.sizes is None and (args.probs is not None or args.counts is not None):
        raise UsageError("--probs and --counts go with --sizes")
    if args.sizes is not None:
        dist = discrete_from_args(args)
        info = {"kind": "sizes", "capacity": plain_capacity(capacity),
                "weights_from": "counts" if args.counts is not None
                else "probs" if args.probs is not None else "equally likely"}
        info.update(types_info(dist))
        return on_unit_capacity(SizeInput(dist, info, capacity=capacity))
    if args.instance is not None:
        return _read_instance(args)
    if args.dist is not None:
        if not is_one(capacity):
            raise UsageError("--dist gives sizes on (0, 1], so --capacity must be 1")
        d = from_spec(args.dist)
        info = {"kind": "dist", "spec": args.dist, "distribution": repr(d),
                "discrete": isinstance(d, Discrete), "capacity": 1}
        if isinstance(d, Discrete):
            info.update(types_info(d))
        return SizeInput(d, info, capacity=capacity)
    return on_unit_capacity(_read_trace(args.trace, capacity, args.finished_only,
                                        budgets(args, memory_budget="max_memory")))


def on_unit_capacity(inp: SizeInput, *, scalar: bool = False) -> SizeInput:
    """Vector sizes divided componentwise by a vector capacity (exact for rational
    input; :func:`theory.distributions.unit_sizes`), so every computation runs on the
    unit capacity; ``info["normalised"]`` says so and ``info["capacity"]`` keeps the
    capacity given. A size above the capacity in some resource is refused, naming it.
    A scalar capacity is divided out only with ``scalar`` (the grid brackets need it;
    the exact LP takes the capacity as it is)."""
    from theory.distributions import unit_sizes, vector_text
    from theory.numbers import to_number

    capacity = inp.capacity
    vector = isinstance(capacity, tuple)
    if is_one(capacity) or not (vector or scalar):
        return inp
    dist = unit_sizes(inp.dist, capacity)
    cap = (vector_text([to_number(c, name="--capacity") for c in capacity])
           if isinstance(capacity, tuple) else str(to_number(capacity, name="--capacity")))
    said = f"normalised by capacity {cap}"
    info = dict(inp.info, normalised=said)
    if "types" in info:
        info.update(types_info(dist))
    return dataclasses.replace(inp, dist=dist, info=info,
                               capacity=tuple("1" for _ in capacity)
                               if isinstance(capacity, tuple) else "1")


def _read_instance(args: argparse.Namespace) -> SizeInput:
    from theory.distributions import Discrete
    from theory.readers.bpplib import read_bpplib

    if args.capacity is not None:
        raise UsageError("--capacity does not apply to --instance (the file gives it)")
    cap, weights = read_bpplib(args.instance, layout=args.instance_format,
                              **budgets(args, memory_budget="max_memory"))
    counts = Counter(weights)
    order = sorted(counts)
    dist = Discrete.from_counts(order, [counts[w] for w in order])
    info = {"kind": "instance", "format": f"BPPLIB ({args.instance_format})",
            "path": str(args.instance), "capacity": cap, "items": len(weights)}
    info.update(types_info(dist))
    return SizeInput(dist, info, weights=weights, capacity=cap)


def _read_trace(spec: str, capacity: object, finished_only: bool,
                budget: dict[str, Any]) -> SizeInput:
    from theory.distributions import Discrete
    from theory.readers.trace_names import TRACES, is_trace_name, trace_size_law
    from theory.readers.traces import read_size_file

    if is_trace_name(spec):
        if finished_only and not spec.startswith("google2011"):
            raise UsageError("--finished-only applies to the packaged google2011 trace only")
        law = trace_size_law(spec, exact=True, finished_only=finished_only, **budget)
        info = {"kind": "trace", **law.info, "capacity": plain_capacity(capacity)}
        info.update(types_info(law.dist))
        return SizeInput(law.dist, info, capacity=capacity)
    if finished_only:
        raise UsageError("--finished-only applies to the packaged google2011 trace only")
    path = Path(spec)
    if not path.is_file():
        from theory.names import did_you_mean

        raise UsageError(f"--trace: no file {spec!r} (or use a packaged trace "
                         f"NAME[:SELECTOR][:KIND][:first=N], NAME one of "
                         f"{', '.join(TRACES)})"
                         f"{did_you_mean(spec.partition(':')[0], TRACES, n=1)}")
    sizes = read_size_file(path, **budget)
    kept = [s for s in sizes if not (all(v == 0 for v in s) if isinstance(s, tuple) else s == 0)]
    if len(kept) < len(sizes):
        warn(f"{spec}: dropped {len(sizes) - len(kept)} jobs of size zero")
    if not kept:
        raise UsageError(f"{spec}: no job with a positive size")
    counts = Counter(kept)
    order = sorted(counts)
    dist = Discrete.from_counts(order, [counts[s] for s in order])
    info = {"kind": "trace", "source": "file", "path": spec, "jobs": len(kept),
            "dropped_zero": len(sizes) - len(kept), "capacity": plain_capacity(capacity)}
    info.update(types_info(dist))
    return SizeInput(dist, info, capacity=capacity)


def normalised(inp: SizeInput) -> Any:
    """The size distribution on capacity 1 (sizes / C, exact for rational C), for VQS."""
    from theory.distributions import Discrete
    from theory.numbers import to_number

    if inp.dist.dim != 1:
        raise UsageError("--vqs needs scalar sizes (VQS is a single-resource policy)")
    if isinstance(inp.capacity, tuple):
        raise UsageError("--vqs needs a scalar --capacity")
    if is_one(inp.capacity):
        return inp.dist
    c = to_number(inp.capacity, name="--capacity")
    return Discrete([s / c for s in inp.dist.sizes], inp.dist.probs)
