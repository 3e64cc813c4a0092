"""The CLI's argument parser and its argument types, shared by every command.

Every flag's text is checked here for its syntax (an integer, a number, a list of
numbers, a byte size); numbers are kept as text so that the library reads them exactly
(decimal strings and ``p/q`` become Fractions). Ranges that depend on the model (a size
above the capacity, probabilities that do not sum to one) are the library's to check.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any, NoReturn

from packsched.errors import UsageError

__all__ = ["Parser", "integer", "grid_resolutions", "real", "number_text", "number_list",
           "byte_size", "split_list", "budget_help", "budgets", "flag", "parse_flag",
           "given_options", "check_policy_options"]

#: the defaults of theory.budgets as the help texts show them (importing theory would
#: make ``--help`` slow; tests/cli/test_errors.py checks that the two agree)
BUDGET_DEFAULTS = {"MEMORY_BUDGET": "8 GiB", "MAX_CONFIGURATIONS": "2,000,000",
                   "MAX_LP_TYPES": "50,000"}


class Parser(argparse.ArgumentParser):
    """argparse with the project's error line and negative numbers as values.

    ``--sizes -0.3,0.5`` reaches the type check of ``--sizes`` (and is refused there
    with a message about the size) instead of argparse's "expected one argument".
    """

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # argparse treats a token as a value, not an option, when this matches it
        self._negative_number_matcher = re.compile(r"^-\.?\d")

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _fail(msg: str) -> NoReturn:
    raise argparse.ArgumentTypeError(msg)


def integer(minimum: int | None = None, maximum: int | None = None) -> Callable[[str], int]:
    """An integer flag in ``[minimum, maximum]`` (digits only: ``1e6`` is not an integer)."""

    def parse(text: str) -> int:
        t = text.strip().replace("_", "")
        if not re.fullmatch(r"[+-]?\d+", t):
            _fail(f"{text!r} is not an integer")
        if len(t) > 40:
            _fail(f"{text[:20]}... has {len(t)} digits; it is far beyond any budget")
        v = int(t)
        if minimum is not None and v < minimum:
            _fail(f"must be at least {minimum}, got {text}" if minimum != 1
                  else f"must be a positive integer, got {text}")
        if maximum is not None and v > maximum:
            _fail(f"must be at most {maximum}, got {text}")
        return v

    parse.__name__ = "integer"
    return parse


def grid_resolutions(text: str) -> int | tuple[int, ...]:
    """``--grid``: ``G`` (0 = none), or one resolution per resource ``G1:G2`` (each >= 1)."""
    if ":" not in text:
        return integer(0)(text)
    parts = text.split(":")
    if any(not p.strip() for p in parts):
        _fail(f"empty resolution in {text!r} (write one per resource, e.g. 800:50)")
    return tuple(integer(1)(p) for p in parts)


def real(low: float | None = None, high: float | None = None, *, low_open: bool = False,
         high_open: bool = False) -> Callable[[str], float]:
    """A finite float flag in the interval given (``low_open``: excluded)."""

    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            _fail(f"{text!r} is not a number")
        if not math.isfinite(v):
            _fail(f"must be a finite number, got {text}")
        if low is not None and (v < low or (low_open and v == low)):
            _fail(f"must be {'>' if low_open else '>='} {low:g}, got {text}")
        if high is not None and (v > high or (high_open and v == high)):
            _fail(f"must be {'<' if high_open else '<='} {high:g}, got {text}")
        return v

    parse.__name__ = "number"
    return parse


def _check_number(text: str, where: str) -> str:
    t = text.strip()
    try:
        Fraction(t)
    except (ValueError, ZeroDivisionError):
        _fail(f"{where}{t!r} is not a number (write decimals like 0.4 or fractions like 2/5)")
    return t


def split_list(text: str) -> list[str]:
    """Comma-separated entries; an empty entry is an error."""
    items = [t.strip() for t in text.split(",")]
    if not text.strip() or any(not t for t in items):
        _fail(f"empty entry in {text!r} (give a comma-separated list such as 0.4,0.6)")
    return items


def number_text(text: str) -> str | tuple[str, ...]:
    """One number kept as text, or a vector ``a:b`` (one entry per resource)."""
    if ":" in text:
        parts = tuple(p.strip() for p in text.split(":"))
        if any(not p for p in parts):
            _fail(f"empty component in {text!r} (write a vector as a:b)")
        return tuple(_check_number(p, "component ") for p in parts)
    if not text.strip():
        _fail("empty value")
    return _check_number(text, "")


def number_list(vectors: bool = False) -> Callable[[str], list[Any]]:
    """``0.4,0.6`` -> ``['0.4', '0.6']``; with ``vectors``, ``15:8,17.1:6.5`` -> tuples."""

    def parse(text: str) -> list[Any]:
        items = split_list(text)
        if any(":" in t for t in items):
            if not vectors:
                _fail(f"vectors (a:b) are not accepted here, the model is single-resource: "
                      f"{text!r}")
            vecs = [number_text(t) for t in items]
            dims = {len(v) if isinstance(v, tuple) else 1 for v in vecs}
            if len(dims) > 1:
                _fail(f"every vector needs the same number of resources: {text!r}")
            return vecs
        return [_check_number(t, f"entry {i + 1}: ") for i, t in enumerate(items)]

    parse.__name__ = "list"
    return parse


_UNITS = {"": 1, "b": 1, "k": 2**10, "kb": 10**3, "kib": 2**10, "m": 2**20, "mb": 10**6,
          "mib": 2**20, "g": 2**30, "gb": 10**9, "gib": 2**30, "t": 2**40, "tb": 10**12,
          "tib": 2**40}


def byte_size(text: str) -> int:
    """``8G``, ``512MiB``, ``1.5GB`` or a number of bytes."""
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?\d+)?)\s*([A-Za-z]*)\s*", text)
    if not m or m.group(2).lower() not in _UNITS:
        _fail(f"{text!r} is not a size (write e.g. 8G, 512M or 16GiB)")
    v = float(m.group(1)) * _UNITS[m.group(2).lower()]
    if not math.isfinite(v) or v < 1:
        _fail(f"must be at least one byte, got {text}")
    return int(min(v, 2.0**62))


def budget_help(name: str) -> str:
    """The default of budget ``name`` of :mod:`theory.budgets`, as the help shows it."""
    return BUDGET_DEFAULTS[name]


def budgets(args: argparse.Namespace, **keywords: str) -> dict[str, Any]:
    """Library budget keywords for the budget flags the user gave (``keyword="dest"``);
    a flag left out keeps the library's documented default."""
    return {kw: getattr(args, dest) for kw, dest in keywords.items()
            if getattr(args, dest) is not None}


def flag(option: str) -> str:
    """The CLI spelling of a library keyword: ``traffic_scaling`` -> ``--traffic-scaling``."""
    return "--" + option.replace("_", "-")


def parse_flag(option: str, parse: Callable[[str], Any], text: str) -> Any:
    """``parse(text)`` for a flag whose text is parsed after argparse (its meaning depends
    on the policy's family); a bad value is a UsageError naming the flag."""
    try:
        return parse(text)
    except (argparse.ArgumentTypeError, ValueError) as e:
        raise UsageError(f"{flag(option)}: {e}") from None


#: destinations of the parser that are not options of a run
_COMMAND_LEVEL = frozenset({"command", "func", "policy", "json", "dry_run", "columns"})


def given_options(args: argparse.Namespace) -> dict[str, Any]:
    """The run options the user set: every parser destination not None (flags whose
    use depends on the policy default to None; the command applies the default)."""
    return {k: v for k, v in vars(args).items() if k not in _COMMAND_LEVEL and v is not None}


def check_policy_options(args: argparse.Namespace) -> dict[str, Any]:
    """Refuse a flag that the chosen ``--policy`` would not use (one declaration:
    :mod:`policies.options`); return the options given."""
    from policies.options import check_options

    given = given_options(args)
    try:
        check_options(args.policy, given, spell=flag)
    except ValueError as e:
        raise UsageError(str(e)) from None
    return given


def route(args: argparse.Namespace, command: str,
          runners: dict[str, Callable[[argparse.Namespace], int]]) -> int:
    """Run ``args.policy`` with the runner of its family. The families a command runs,
    and the command a family belongs to, come from the registry
    (:data:`policies.registry.FAMILIES`): a policy of another command's family is refused
    naming that command, a flag the policy would not read is refused
    (:func:`check_policy_options`)."""
    from policies.registry import FAMILIES, POLICIES, families_of, policies_of
    from theory.names import did_you_mean

    if set(runners) != set(families_of(command)):  # pragma: no cover - a wiring error
        raise RuntimeError(f"packsched {command} runs the families {families_of(command)} "
                           f"but has runners for {sorted(runners)}")
    info = POLICIES.get(args.policy)
    known = ", ".join(p for f in families_of(command) for p in policies_of(f))
    if info is None:
        raise UsageError(f"unknown policy {args.policy!r}: --policy must be one of {known}"
                         f"{did_you_mean(args.policy, POLICIES)}")
    if info.family not in runners:
        raise UsageError(f"{args.policy} is a {info.family} policy: run it with packsched "
                         f"{FAMILIES[info.family].command} (--policy here must be one of "
                         f"{known})")
    check_policy_options(args)
    return runners[info.family](args)


def add_executor_arguments(p: Any) -> None:
    """``--executor``, ``--workers`` and ``--scheduler`` of the commands that run many
    tasks (``sweep``, ``reproduce``; :mod:`policies.executors`)."""
    from policies.executors import EXECUTORS

    p.add_argument("--executor", choices=EXECUTORS, default="serial",
                   help="serial (default), processes (a pool of --workers on this machine) "
                        "or dask (a LocalCluster of --workers, or --scheduler; needs "
                        "pip install 'packsched[distributed]')")
    p.add_argument("--workers", type=integer(1, 1024), default=None, metavar="N",
                   help="worker processes of --executor processes or dask (default 2)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="a running Dask scheduler, tcp://host:port (--executor dask)")
