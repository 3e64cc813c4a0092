"""A sweep: the command line of ``simulate`` or ``schedule`` written as a TOML spec, run
over the product of its lists, replicated, into a store that survives a kill.

The unit of work is a command line: every (point, replication) runs
``packsched COMMAND --policy P --opt value ... --seed S --json`` in-process (the same
parsing, validation and JSON as typing it), and the driver commits its JSON as a row
of the store (:mod:`policies.sweep_store`) as soon as it finishes. Seeds: the
(point, replication) pairs, in grid order, take the children of ``SeedSequence(seed)``
(:func:`theory.seeding.spawn_seeds`), each turned into the integer ``--seed`` that reruns
that run alone; so the rows are the same whatever the executor and whatever order the
runs finish in. A killed or interrupted sweep, run again with the same spec and store,
runs only what has no row, and the runs that failed.

Spec::

    [sweep]
    command = "simulate"          # or "schedule"; default "simulate"
    policies = ["bf-js", "fifo-ff"]   # or policy = "bf-js"
    replications = 5              # default 1
    seed = 1                      # default 0
    [options]                     # the command's flags, without "--"
    sizes = "0.4,0.6"
    servers = 2
    intensity = [0.5, 0.7, 0.9]   # a list is swept over
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from packsched.errors import UsageError

__all__ = ["SweepSpec", "read_spec", "run_sweep", "run_point", "MAX_POINTS"]

#: runs a spec may make unless ``max_points`` says otherwise
MAX_POINTS = 100_000
_SWEEP_KEYS = {"command", "policy", "policies", "replications", "seed"}
_COMMANDS = ("simulate", "schedule")


@dataclass(frozen=True)
class SweepSpec:
    """A parsed spec: the command, the points (each a dict of every option, the policy
    included), the swept names, replications and seed, and the spec's text and hash."""

    path: str
    text: str
    command: str
    points: tuple[dict[str, Any], ...]
    swept: tuple[str, ...]
    replications: int
    seed: int

    @property
    def sha256(self) -> str:
        """The hash of what the spec runs (not of its comments or layout)."""
        import hashlib

        doc = {"command": self.command, "points": list(self.points),
               "replications": self.replications, "seed": self.seed}
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()

    @property
    def runs(self) -> int:
        return len(self.points) * self.replications

    def argv(self, point: dict[str, Any]) -> list[str]:
        """The command line of a point (``--json`` and the seed added by the runner)."""
        out = [self.command]
        for key, value in point.items():
            flag = "--" + key.replace("_", "-")
            if value is True:
                out.append(flag)
            elif value is False:
                out.append("--no-" + key.replace("_", "-"))
            else:
                out += [flag, str(value)]
        return out


def _line(text: str, key: str) -> str:
    """Where ``key`` is set in the spec's text, for a message."""
    for i, line in enumerate(text.splitlines(), 1):
        if re.match(rf"\s*{re.escape(key)}\s*=", line):
            return f"line {i}"
    return "the spec"


def read_spec(path: str, *, max_points: int = MAX_POINTS) -> SweepSpec:
    """Parse and check a spec; every error is a :class:`UsageError` naming the key and
    its line, raised before anything runs."""
    import tomllib

    try:
        with open(path, "rb") as f:
            raw = f.read()
        text = raw.decode("utf-8")
        doc = tomllib.loads(text)
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise UsageError(f"{path}: not a TOML spec ({e})") from None
    where = f"{path}"
    extra = set(doc) - {"sweep", "options"}
    if extra or not isinstance(doc.get("sweep", {}), dict) \
            or not isinstance(doc.get("options", {}), dict):
        raise UsageError(f"{where}: a spec has the tables [sweep] and [options] only"
                         + (f", not {', '.join(sorted(extra))}" if extra else ""))
    sweep, options = doc.get("sweep", {}), doc.get("options", {})
    unknown = set(sweep) - _SWEEP_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise UsageError(f"{where} {_line(text, key)}: unknown key {key!r} in [sweep] "
                         f"(known: {', '.join(sorted(_SWEEP_KEYS))})")
    command = sweep.get("command", "simulate")
    if command not in _COMMANDS:
        raise UsageError(f"{where} {_line(text, 'command')}: command must be one of "
                         f"{', '.join(_COMMANDS)}, got {command!r}")
    if ("policy" in sweep) == ("policies" in sweep):
        raise UsageError(f"{where}: give the policy (policy = \"bf-js\") or a list "
                         f"(policies = [...]) in [sweep], once")
    policies = sweep.get("policies", sweep.get("policy"))
    policies = policies if isinstance(policies, list) else [policies]
    replications, seed = sweep.get("replications", 1), sweep.get("seed", 0)
    for key, v, low in (("replications", replications, 1), ("seed", seed, 0)):
        if isinstance(v, bool) or not isinstance(v, int) or v < low:
            raise UsageError(f"{where} {_line(text, key)}: {key} must be an integer >= "
                             f"{low}, got {v!r}")
    if "seed" in options or "policy" in options or "json" in options:
        key = next(k for k in ("seed", "policy", "json") if k in options)
        raise UsageError(f"{where} {_line(text, key)}: {key} is set by [sweep], not "
                         f"[options]")
    grid: dict[str, list[Any]] = {"policy": policies}
    for key, value in options.items():
        values = value if isinstance(value, list) else [value]
        if not values:
            raise UsageError(f"{where} {_line(text, key)}: {key} is an empty list: the "
                             f"grid would have no point")
        if any(isinstance(v, dict | list) for v in values):
            raise UsageError(f"{where} {_line(text, key)}: {key} must be a value or a list "
                             f"of values")
        grid[key] = values
    count = 1
    for values in grid.values():
        count *= len(values)
    if count * replications > max_points:
        raise UsageError(f"{where}: the grid has {count:,} points x {replications} "
                         f"replication(s), more than --max-points {max_points:,}")
    names = list(grid)
    points = tuple(dict(zip(names, combo, strict=True))
                   for combo in itertools.product(*grid.values()))
    spec = SweepSpec(str(path), text, command, points,
                     tuple(k for k, v in grid.items() if len(v) > 1 or k == "policy"),
                     replications, seed)
    for policy in policies:  # every policy named before any point's inputs are checked
        _check_policy(spec, str(policy), text, where)
    for point in points:
        _check_point(spec, point, text, where)
    return spec


def _check_policy(spec: SweepSpec, policy: str, text: str, where: str) -> None:
    """The policy is one of the spec's command."""
    from policies.registry import FAMILIES, POLICIES

    info = POLICIES.get(policy)
    if info is None or FAMILIES[info.family].command != spec.command:
        named = "policies" if re.search(r"(?m)^\s*policies\s*=", text) else "policy"
        raise UsageError(f"{where} {_line(text, named)}: {policy!r} is not a policy of "
                         f"packsched {spec.command}")


def _check_point(spec: SweepSpec, point: dict[str, Any], text: str, where: str) -> None:
    """The point's command line parses, names only flags its policy reads, and passes
    the command's ``--dry-run`` (every input checked, the policy built, nothing run), so
    a bad value is refused before any run, not recorded as failed runs."""
    from packsched.arguments import check_policy_options

    try:
        args = _parser().parse_args([*spec.argv(point), "--json", "--dry-run"])
        check_policy_options(args)
        with contextlib.redirect_stdout(io.StringIO()):
            args.func(args)
    except (UsageError, ValueError, TypeError, OSError) as e:
        message = str(e) if not isinstance(e, OSError) or e.filename is None \
            else f"{e.filename}: {e.strerror or e}"
        flags = re.findall(r"--([A-Za-z][A-Za-z0-9-]*)", message)
        key = next((f.replace("-", "_") for f in flags
                    if f.replace("-", "_") in point), None)
        at = f"{where} {_line(text, key)}" if key else where
        swept = {k: point[k] for k in spec.swept}
        raise UsageError(f"{at}: {message} (at the point {swept})" if len(spec.points) > 1
                         else f"{at}: {message}") from None


@functools.cache
def _parser() -> Any:
    """The parser of the commands a sweep runs (built once per process)."""
    from packsched.arguments import Parser
    from packsched.commands import schedule, simulate
    from packsched.output import PROG

    p = Parser(prog=PROG)
    sub = p.add_subparsers(dest="command", required=True)
    for command in (simulate, schedule):
        command.add_parser(sub)
    return p


def run_point(argv: list[str]) -> dict[str, Any]:
    """Run one command line in this process (the parser built once per process): its
    exit status, its status and JSON text (None when it failed), its error line and the
    seconds (the row :func:`policies.sweep_store.run_into_store` writes)."""
    from packsched.errors import report

    out, err = io.StringIO(), io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:  # as packsched's main does: every error is one line and an exit status
            args = _parser().parse_args([*argv, "--json"])
            code = int(args.func(args))
        except Exception as exc:  # noqa: BLE001
            code = report(exc)
    seconds = time.perf_counter() - t0
    text = out.getvalue().strip()
    lines = [ln for ln in err.getvalue().splitlines() if ln.startswith("packsched: ")
             and "running" not in ln]
    ok = code == 0 and bool(text)
    return {"exit": code, "summary": text if ok else None,
            "status": str(json.loads(text).get("status", "finished")) if ok else "failed",
            "error": None if code == 0 else (lines[-1] if lines else f"exit {code}"),
            "seconds": seconds}


def _tasks(spec: SweepSpec) -> list[Any]:
    """A :class:`policies.sweep_store.StoredTask` per run, in grid order; the payload
    is the run's command line."""
    from policies.sweep_store import StoredTask
    from theory.seeding import spawn_seeds

    seeded = spec.command == "simulate"
    children = spawn_seeds(spec.seed, spec.runs)
    out = []
    for i, point in enumerate(spec.points):
        grid = {k: point[k] for k in spec.swept}
        for r in range(spec.replications):
            seed = int(children[i * spec.replications + r].generate_state(1)[0]) \
                if seeded else None
            argv = spec.argv(point) + ([] if seed is None else ["--seed", str(seed)])
            out.append(StoredTask(i, r, seed, grid, argv))
    return out


def run_sweep(spec: SweepSpec, store_path: str, *, executor: str = "serial",
              workers: int | None = None, scheduler: str | None = None,
              progress: Callable[[int, int, int], None] | None = None,
              notice: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Run every (point, replication) of ``spec`` that has no row in the store, on the
    executor (:func:`policies.sweep_store.run_into_store`: the workers only compute, this
    process writes every row). The rows of failed runs are dropped first, so that they
    run again (as ``packsched reproduce`` does). Return the counts: ``runs``,
    ``done_before`` (rows kept from before), ``failed_before`` (failed rows run again),
    ``ran``, ``failed`` (the failed rows in the store when the call ends) and ``store``.
    ``notice(line)`` is told, before anything runs, how many failed runs run again;
    ``progress(done, total, failed)`` is called after each run. An interrupt is raised as
    :class:`policies.sweep_store.SweepInterrupted` once the workers are stopped."""
    from packsched import __version__
    from policies.executors import check_executor
    from policies.sweep_store import SweepStore, run_into_store

    try:
        check_executor(executor, workers, scheduler)
    except ValueError as e:
        raise UsageError(str(e)) from None
    store = SweepStore(store_path, spec_text=spec.text, spec_sha256=spec.sha256,
                       version=__version__)
    try:
        failed_before = store.drop_failed()
        if failed_before and notice is not None:
            notice(f"{failed_before} failed run(s) in the store run again")
        out = run_into_store(store, _tasks(spec), run_point, version=__version__,
                             executor=executor, workers=workers, scheduler=scheduler,
                             progress=progress)
        failed = store.failed()
    finally:
        store.close()
    return {"runs": out["runs"], "done_before": out["done_before"],
            "failed_before": failed_before, "ran": out["ran"], "failed": failed,
            "store": str(store_path)}
