"""Adversarial search for size laws on which a slotted policy loses throughput.

PG21 Sec. IX leaves open where BF-J/S's throughput lies between the 1/2 rho* of Thm. 2
and rho*. This module searches discrete size laws (a few atoms on a grid of the server
capacity, probabilities on a grid, one or several servers) for the one that minimises
a policy's critical load (:func:`policies.critical_load`), as a fraction of rho* or of
the guarantee ``L / (2 R-bar)`` of Thm. 2 (to find cases that separate policies).

* **Uncertainty.** Every evaluation is a bracket [lower, upper] of the critical load
  (the largest load judged stable, the smallest judged unstable, by the toolkit's one
  stability detector). The search minimises ``upper``, the load at which instability
  was *observed*, so a low objective is evidence, not an artefact of a short run; the
  best laws are re-measured on a longer horizon with fresh seeds (:func:`verify`).
* **Reproducible.** A law's evaluation seed is derived from the search seed and the
  law itself, and round r's proposals from (seed, r) and the evaluations so far, so a
  search gives the same result however it is split, resumed or parallelised.
* **Resumable.** With ``state`` (a JSON file) every evaluation is saved after each
  round, and a rerun with the same settings continues where it stopped.
* **Parallel.** Each round's proposals are evaluated in ``workers`` processes.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from policies.executors import map_unordered
from theory.progress import Progress

__all__ = ["SearchSpace", "SizeLaw", "SearchResult", "adversarial_search", "evaluate_law",
           "verify", "OBJECTIVES"]

#: what the critical load is divided by: rho* itself, or Thm. 2's L / (2 R-bar) over rho*
OBJECTIVES = ("rho_star", "thm2")


@dataclass(frozen=True)
class SizeLaw:
    """A discrete size law on a grid: sizes ``k_i / grid`` with probabilities
    ``m_i / mass`` (each m_i >= 1, summing to ``mass``), on ``servers`` unit servers."""

    sizes: tuple[int, ...]
    masses: tuple[int, ...]
    grid: int
    mass: int
    servers: int

    def __post_init__(self) -> None:
        if len(self.sizes) != len(self.masses) or not self.sizes:
            raise ValueError("a size law needs as many masses as sizes, at least one")
        if len(set(self.sizes)) != len(self.sizes) or list(self.sizes) != sorted(self.sizes):
            raise ValueError(f"sizes must be distinct and increasing, got {self.sizes}")
        if not all(1 <= k <= self.grid for k in self.sizes):
            raise ValueError(f"sizes must lie in 1..{self.grid} (fractions of the capacity)")
        if any(m < 1 for m in self.masses) or sum(self.masses) != self.mass:
            raise ValueError(f"masses must be >= 1 and sum to {self.mass}, got {self.masses}")
        if self.servers < 1:
            raise ValueError(f"servers must be >= 1, got {self.servers}")

    @property
    def key(self) -> str:
        atoms = ",".join(f"{k}/{self.grid}:{m}/{self.mass}"
                         for k, m in zip(self.sizes, self.masses, strict=True))
        return f"L={self.servers};{atoms}"

    def distribution(self) -> Any:
        from theory.distributions import Discrete

        return Discrete([Fraction(k, self.grid) for k in self.sizes],
                        [Fraction(m, self.mass) for m in self.masses])

    def describe(self) -> dict[str, Any]:
        return {"servers": self.servers,
                "sizes": [str(Fraction(k, self.grid)) for k in self.sizes],
                "probs": [str(Fraction(m, self.mass)) for m in self.masses]}


@dataclass(frozen=True)
class SearchSpace:
    """Discrete laws with 1..``max_atoms`` atoms, sizes in [``min_size``, 1] on a grid of
    1/``grid``, probabilities on a grid of 1/``mass``, servers from ``servers``."""

    max_atoms: int = 3
    grid: int = 100
    mass: int = 12
    min_size: Fraction = Fraction(1, 20)
    servers: tuple[int, ...] = (1, 2)

    def __post_init__(self) -> None:
        if self.max_atoms < 1 or self.grid < 2 or self.mass < self.max_atoms:
            raise ValueError("need max_atoms >= 1, grid >= 2 and mass >= max_atoms")
        if not 0 < self.min_size <= 1:
            raise ValueError(f"min_size must lie in (0, 1], got {self.min_size}")
        if not self.servers or any(s < 1 for s in self.servers):
            raise ValueError(f"servers must be positive integers, got {self.servers}")
        if self.max_atoms > self.grid - self.k_min + 1:
            raise ValueError(f"max_atoms={self.max_atoms} exceeds the "
                             f"{self.grid - self.k_min + 1} sizes of the grid")

    @property
    def k_min(self) -> int:
        return max(1, math.ceil(self.min_size * self.grid))

    def random(self, rng: np.random.Generator) -> SizeLaw:
        n = int(rng.integers(1, self.max_atoms + 1))
        ks = sorted(rng.choice(np.arange(self.k_min, self.grid + 1), n, replace=False).tolist())
        cuts = sorted(rng.choice(np.arange(1, self.mass), n - 1, replace=False).tolist())
        masses = np.diff([0, *cuts, self.mass]).tolist()
        return SizeLaw(tuple(ks), tuple(masses), self.grid, self.mass,
                       int(rng.choice(self.servers)))

    def mutate(self, law: SizeLaw, rng: np.random.Generator) -> SizeLaw:
        """One local move: shift an atom, move probability between atoms, add or drop an
        atom, or change the number of servers (retried until the law is valid and new)."""
        for _ in range(100):
            ks, ms, L = list(law.sizes), list(law.masses), law.servers
            move = int(rng.integers(5))
            i = int(rng.integers(len(ks)))
            if move == 0:
                ks[i] += int(rng.choice([-1, 1])) * int(rng.integers(1, 6))
            elif move == 1 and len(ks) > 1:
                j = int(rng.choice([x for x in range(len(ks)) if x != i]))
                ms[i], ms[j] = ms[i] - 1, ms[j] + 1
            elif move == 2 and len(ks) < self.max_atoms:
                k = int(rng.integers(self.k_min, self.grid + 1))
                if k in ks or ms[i] < 2:
                    continue
                ks.append(k)
                ms.append(1)
                ms[i] -= 1
            elif move == 3 and len(ks) > 1:
                j = (i + 1) % len(ks)
                ms[j] += ms[i]
                del ks[i], ms[i]
            elif move == 4 and len(self.servers) > 1:
                L = int(rng.choice([s for s in self.servers if s != law.servers]))
            else:
                continue
            if any(not self.k_min <= k <= self.grid for k in ks) or len(set(ks)) != len(ks) \
                    or any(m < 1 for m in ms):
                continue
            order = np.argsort(ks)
            new = SizeLaw(tuple(int(ks[o]) for o in order), tuple(int(ms[o]) for o in order),
                          self.grid, self.mass, L)
            if new != law:
                return new
        return self.random(rng)


def _law_seed(seed: int, key: str, salt: str = "") -> int:
    h = hashlib.sha256(f"{seed}|{salt}|{key}".encode()).digest()
    return int.from_bytes(h[:8], "little") >> 1


def evaluate_law(policy: str, law: SizeLaw, *, mu: float = 0.05, slots: int = 200_000,
                 tol: float = 0.02, lo: float = 0.2, hi: float = 1.05, seed: int = 0,
                 salt: str = "") -> dict[str, Any]:
    """The critical-load bracket of ``policy`` on ``law`` (PG21 workload: Poisson
    arrivals, geometric service of rate ``mu``), with rho* (exact) and Thm. 2's
    guarantee L / (2 R-bar) as fractions of rho*."""
    from policies.critical_load import critical_load
    from policies.registry import make_policy
    from theory.bounds import mean_size_bound

    t0 = time.perf_counter()
    dist = law.distribution()
    c = critical_load(make_policy(policy, dist=dist), dist, servers=law.servers, mu=mu,
                      lo=lo, hi=hi,
                      tol=tol, slots=slots, seed=_law_seed(seed, law.key, salt))
    thm2 = float(mean_size_bound(law.servers, dist)) / 2 / c.rho_star
    upper = c.upper if math.isfinite(c.upper) else hi
    return {"key": law.key, **law.describe(), "policy": policy, "rho_star": c.rho_star,
            "lower": c.lower, "upper": c.upper, "complete": c.complete,
            "thm2_fraction": thm2, "upper_or_hi": upper,
            "unstable_seen": math.isfinite(c.upper), "runs": len(c.runs),
            "seconds": time.perf_counter() - t0}


def _objective(row: dict[str, Any], relative_to: str) -> float:
    return row["upper_or_hi"] / (row["thm2_fraction"] if relative_to == "thm2" else 1.0)


@dataclass
class SearchResult:
    """``best``: the evaluations sorted by objective (lowest first), with ``objective``;
    ``evaluations``: every law evaluated, by key; ``rounds``: rounds run in total."""

    policy: str
    relative_to: str
    best: list[dict[str, Any]]
    evaluations: dict[str, dict[str, Any]]
    rounds: int
    config: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"policy": self.policy, "relative_to": self.relative_to, "rounds": self.rounds,
                "config": self.config, "best": self.best[:10],
                "evaluated": len(self.evaluations)}


def _evaluate_many(policy: str, laws: Sequence[SizeLaw], workers: int,
                   kw: dict[str, Any]) -> list[dict[str, Any]]:
    return _in_order([(policy, law, kw) for law in laws], workers)


def _in_order(tasks: list[tuple[str, SizeLaw, dict[str, Any]]],
              workers: int) -> list[dict[str, Any]]:
    """:func:`evaluate_law` of every (policy, law, keywords), in ``workers`` processes
    (:func:`policies.executors.map_unordered`), in the tasks' order."""
    out: list[dict[str, Any]] = [{} for _ in tasks]
    for i, row in map_unordered(_evaluate_kw, tasks,
                                executor="processes" if workers > 1 else "serial",
                                workers=workers if workers > 1 else None):
        out[i] = row
    return out


def adversarial_search(policy: str, *, rounds: int = 5, per_round: int = 8,
                       relative_to: str = "rho_star", space: SearchSpace | None = None,
                       seed: int = 0, mu: float = 0.05, slots: int = 200_000,
                       tol: float = 0.02, workers: int | None = None,
                       state: str | Path | None = None,
                       start: Sequence[SizeLaw] = ()) -> SearchResult:
    """Minimise ``policy``'s observed-unstable load (``upper`` of the critical-load
    bracket) over discrete size laws, as a fraction of rho* (``relative_to="rho_star"``)
    or of Thm. 2's guarantee (``"thm2"``).

    Each round proposes ``per_round`` laws: mutations of the best laws so far (half,
    more once the search has a foothold) and fresh random ones, plus the ``start`` laws
    in round 0. ``workers`` processes evaluate them (default: the CPU count)."""
    from policies.registry import make_policy

    make_policy(policy)  # fail early on a bad name
    if relative_to not in OBJECTIVES:
        raise ValueError(f"relative_to must be one of {OBJECTIVES}, got {relative_to!r}")
    for name, v in (("rounds", rounds), ("per_round", per_round)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    if not (isinstance(mu, int | float) and 0 < mu <= 1):
        raise ValueError(f"mu must lie in (0, 1], got {mu!r}")
    space = space or SearchSpace()
    workers = (os.cpu_count() or 1) if workers is None else int(workers)
    kw = {"mu": float(mu), "slots": int(slots), "tol": float(tol), "seed": int(seed)}
    config = {"policy": policy, "relative_to": relative_to, "per_round": per_round,
              "space": {k: str(v) for k, v in asdict(space).items()}, **kw,
              "start": [law.key for law in start]}
    evaluations: dict[str, dict[str, Any]] = {}
    done = 0
    path = Path(state) if state is not None else None
    if path is not None and path.exists():
        try:
            saved = json.loads(path.read_text())
            if not (isinstance(saved, dict) and isinstance(saved.get("evaluations"), dict)
                    and isinstance(saved.get("rounds"), int) and saved["rounds"] >= 0):
                raise ValueError("not a search state (config, rounds, evaluations)")
        except ValueError as e:  # json.JSONDecodeError is a ValueError
            raise ValueError(f"{path}: unreadable search state: {e}") from None
        if saved.get("config") != config:
            raise ValueError(f"{path} holds a search with other settings: "
                             f"{saved.get('config')}; use another state file")
        evaluations, done = saved["evaluations"], int(saved["rounds"])
    laws_by_key: dict[str, SizeLaw] = {law.key: law for law in start}
    prog = Progress(f"adversarial search ({policy})", rounds, unit="rounds")
    for r in range(rounds):
        rng = np.random.default_rng([seed, r])
        ranked = sorted(evaluations.values(), key=lambda e: (_objective(e, relative_to),
                                                              e["key"]))
        parents = [laws_by_key.get(e["key"]) or _law_of(e, space) for e in ranked[:4]]
        props: list[SizeLaw] = list(start) if r == 0 else []
        n_mut = per_round // 2 if parents else 0
        attempts = 0
        while len(props) < per_round:
            attempts += 1
            if attempts > 1000 * per_round:
                raise ValueError(f"the search space holds too few distinct laws for "
                                 f"per_round={per_round}: widen it or propose fewer")
            if parents and len(props) < n_mut + (len(start) if r == 0 else 0):
                law = space.mutate(parents[int(rng.integers(len(parents)))], rng)
            else:
                law = space.random(rng)
            if law.key not in {p.key for p in props}:
                props.append(law)
        for law in props:
            laws_by_key[law.key] = law
        if r < done:
            continue  # replayed from the state file
        todo = [law for law in props if law.key not in evaluations]
        for row in _evaluate_many(policy, todo, workers, kw):
            evaluations[row["key"]] = row
        if path is not None:
            tmp = path.with_suffix(path.suffix + ".tmp")
            tmp.write_text(json.dumps({"config": config, "rounds": r + 1,
                                       "evaluations": evaluations}, indent=1,
                                      default=_json_default))
            tmp.replace(path)
        prog.update(r + 1, note=f"{len(evaluations)} laws")
    prog.__exit__(None, None, None)
    best = sorted(({**e, "objective": _objective(e, relative_to)}
                   for e in evaluations.values()), key=lambda e: (e["objective"], e["key"]))
    return SearchResult(policy, relative_to, best, evaluations, max(rounds, done), config)


def _json_default(o: object) -> object:
    if isinstance(o, float) and not math.isfinite(o):
        return None
    return str(o)


def _law_of(row: dict[str, Any], space: SearchSpace) -> SizeLaw:
    sizes = [Fraction(s) for s in row["sizes"]]
    probs = [Fraction(p) for p in row["probs"]]
    return SizeLaw(tuple(int(s * space.grid) for s in sizes),
                   tuple(int(p * space.mass) for p in probs), space.grid, space.mass,
                   int(row["servers"]))


def verify(policy: str, law: SizeLaw, *, repeats: int = 3, slots: int = 1_000_000,
           mu: float = 0.05, tol: float = 0.02, seed: int = 0,
           workers: int | None = None) -> dict[str, Any]:
    """Re-measure ``law``'s critical load on a longer horizon with ``repeats`` fresh
    seeds: the bracket [max lower, min upper] over the repeats is the evidence (each
    repeat's bracket is in ``brackets``); ``consistent`` says the brackets overlap."""
    workers = (os.cpu_count() or 1) if workers is None else int(workers)
    kws: list[dict[str, Any]] = [{"mu": mu, "slots": slots, "tol": tol, "seed": seed,
                                  "salt": f"verify{i}"} for i in range(repeats)]
    rows = _in_order([(policy, law, kw) for kw in kws], workers)
    lows = [r["lower"] for r in rows if math.isfinite(r["lower"])]
    ups = [r["upper"] for r in rows if math.isfinite(r["upper"])]
    lo = max(lows) if lows else float("nan")
    hi = min(ups) if ups else float("nan")
    return {"key": law.key, **law.describe(), "policy": policy, "slots": slots,
            "rho_star": rows[0]["rho_star"], "thm2_fraction": rows[0]["thm2_fraction"],
            "brackets": [[r["lower"], r["upper"]] for r in rows],
            "lower": lo, "upper": hi,
            "consistent": not (math.isfinite(lo) and math.isfinite(hi)) or lo <= hi + tol}


def _evaluate_kw(args: tuple[str, SizeLaw, dict[str, Any]]) -> dict[str, Any]:
    policy, law, kw = args
    return evaluate_law(policy, law, **kw)
