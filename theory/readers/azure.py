"""An Azure-like FL24 workload from the packaged Azure 2017 VM trace (FL24 Sec. 7.1).

FL24 evaluates MRIS on the Azure 2020 VM packing trace, which cannot be downloaded here.
The packaged stand-in is the Azure Public Dataset V1 (2017) as processed by Bergsma et
al. (SOSP 2021): per 300-s bin, the VMs created, each with a flavour (cores, memory GB)
and a binned lifetime; files ``theory/data/azure2017_*`` (provenance in
``azure2017.PROVENANCE.md``). Rules, each a parameter:

* **jobs**: one per VM of the ``dev`` and/or ``test`` split (the splits whose lifetimes
  are packaged: 259,159 + 410,276 VMs). VMs still running at the censoring time
  (``C`` tokens, about 5.5%) are dropped by default (``censored="drop"``: their
  lifetime is unknown); ``"lower-bound"`` keeps them with the observed bin as lifetime.
* **release r_j**: the VMs of a bin line are spread evenly over its 300 s, in file order:
  r = t + 300 (i + 1/2) / n for the i-th of n VMs of the line (FL24 releases jobs one by
  one; the trace only resolves 300 s). Times start at the first release.
* **processing p_j**: a lifetime bin is an interval of seconds (bins 0-12 the single
  values 0, 300, ..., 3600, read as [v, v + 300); the hour and day bins their ranges);
  p_j is its midpoint (``lifetime="midpoint"``, so the shortest is 150 s) or a uniform
  draw in it with ``seed`` (``"uniform"``); the trace gives no finer value.
* **demand d_j**: (cores / host cores, memory / host memory) with a host of
  ``host = (16, 112)`` by default, the largest flavour (FL24 Sec. 7.1 maps VM types to
  fractions of a machine; the 2017 trace has no machine types, so one host shape is
  assumed). R = 2 (the 2020 trace's storage and network columns do not exist here).
* **weight w_j**: 1. The 2017 trace has no priority (FL24 uses the 2020 trace's integer
  priorities and reports a "negligible difference between weighted and unweighted
  variants ... due to the small range of priorities", Sec. 7.3); ``weights`` may be given.
* **time unit**: p is divided by the smallest processing time of the chosen jobs, as
  FL24 Sec. 3 normalises (p_j >= 1; MRIS's gamma_0 = 1 is then that time), or seconds
  (``time_unit="seconds"``).
* **downsampling** (FL24 Sec. 7.1): jobs sorted by release, every f-th one from offset
  Delta in [0, f) (``every=f``, ``offset=Delta``), or ``jobs=N`` for f = floor(total / N)
  and the first N of those. :func:`usable_vms` is the total (631,807 with the defaults),
  :func:`downsample_every` f, and :func:`downsample_offsets` draws the offsets Delta of
  the paper's sampled job sets without replacement from [0, f).
* **oversampling** (``resample=True`` with ``jobs=N``): N draws with replacement, with
  ``seed``, from the VMs kept (631,807 with the defaults), each draw taking a VM's
  flavour, lifetime and 300-s bin together and a release uniform in that bin. This
  reaches FL24's full scale (4,096,000 jobs, which it downsampled 64x) from a smaller
  trace: the mix of flavours and lifetimes and the daily shape of arrivals are the
  trace's, the arrival rate is N / 631,807 times the trace's.
"""

from __future__ import annotations

import functools
import gzip
import math
from dataclasses import dataclass
from importlib import resources

import numpy as np

from theory.job_sets import JobSet

__all__ = ["AzureVMs", "azure2017_vms", "azure2017_job_set", "augment_resources",
           "usable_vms", "downsample_every", "downsample_offsets", "AZURE_SPLITS"]

#: splits whose lifetimes are packaged, with their censoring times (seconds)
AZURE_SPLITS = {"dev": 2_100_000, "test": 2_591_400}
_BIN = 300.0


@dataclass(frozen=True)
class AzureVMs:
    """The VMs of the packaged trace, in file order: ``arrival`` (s, from the trace
    start), ``cores``, ``memory_gb``, lifetime bin bounds ``low``/``high`` (s),
    ``censored`` (still running at the split's censoring time), ``batch`` (tenant batch
    id within its line), ``flavour`` (letter)."""

    arrival: np.ndarray
    cores: np.ndarray
    memory_gb: np.ndarray
    low: np.ndarray
    high: np.ndarray
    censored: np.ndarray
    batch: np.ndarray
    flavour: np.ndarray

    @property
    def n(self) -> int:
        return int(self.arrival.size)


def _text(name: str) -> str:
    raw = resources.files("theory.data").joinpath(f"azure2017_{name}.gz").read_bytes()
    return gzip.decompress(raw).decode("ascii")


def _flavours() -> dict[str, tuple[float, float]]:
    out = {}
    for line in _text("flav_map.txt").split("\n"):
        if line.strip():
            sizes, letter = line.split()
            c, m = sizes.split(",")
            out[letter] = (float(c), float(m))
    return out


def _bins() -> tuple[np.ndarray, np.ndarray]:
    """Lifetime bin k -> [low_k, high_k) in seconds (single-value bins: [v, v + 300))."""
    lo: dict[int, float] = {}
    hi: dict[int, float] = {}
    for line in _text("v1.interval_map.txt").split("\n"):
        if line.strip():
            s, k = line.split()
            b, v = int(k), float(s)
            lo[b] = min(lo.get(b, math.inf), v)
            hi[b] = max(hi.get(b, -math.inf), v)
    K = max(lo) + 1
    low = np.array([lo[k] for k in range(K)])
    high = np.array([hi[k] for k in range(K)]) + _BIN  # a value v stands for [v, v + 300)
    return low, high


def azure2017_vms(split: str = "both") -> AzureVMs:
    """Read the packaged ``dev``, ``test`` or ``both`` splits (module docstring); parsed
    once per process, the arrays are read-only."""
    if split not in ("dev", "test", "both"):
        raise ValueError(f"split must be 'dev', 'test' or 'both', got {split!r}")
    return _read(split)


@functools.lru_cache(maxsize=3)
def _read(split: str) -> AzureVMs:
    flav = _flavours()
    low_b, high_b = _bins()
    cols: dict[str, list] = {k: [] for k in ("t", "f", "d", "c", "b")}
    for name in (("dev", "test") if split == "both" else (split,)):
        cut = AZURE_SPLITS[name]
        sizes = _text(f"v1.{name}.txt").split("\n")
        lives = _text(f"v1.{name}.c{cut}.txt").split("\n")
        if len(sizes) != len(lives):
            raise ValueError(f"azure2017 {name}: {len(sizes)} flavour lines but "
                             f"{len(lives)} lifetime lines")
        for ln, (a, b) in enumerate(zip(sizes, lives, strict=True), start=1):
            if not a.strip():
                continue
            t, ftoks = a.split(" ", 1)
            t2, ltoks = b.split(" ", 1)
            if t != t2:
                raise ValueError(f"azure2017 {name}: line {ln} times differ ({t}, {t2})")
            fs, ls = ftoks.split(","), ltoks.split(",")
            if len(fs) != len(ls):
                raise ValueError(f"azure2017 {name}: line {ln} has {len(fs)} flavours and "
                                 f"{len(ls)} lifetimes")
            vms = [(f, x) for f, x in zip(fs, ls, strict=True) if f not in ("|", "")]
            batch = 0
            k = 0
            for f, x in zip(fs, ls, strict=True):
                if f == "|":
                    batch += 1
                    continue
                if f == "":
                    continue
                if f not in flav or x[:1] not in ("U", "C"):
                    raise ValueError(f"azure2017 {name}: line {ln}: bad token {f!r}/{x!r}")
                cols["t"].append(float(t) + _BIN * (k + 0.5) / len(vms))
                cols["f"].append(f)
                cols["d"].append(int(x[1:]))
                cols["c"].append(x[0] == "C")
                cols["b"].append(batch)
                k += 1
    fl = np.array(cols["f"])
    cores = np.array([flav[f][0] for f in cols["f"]])
    mem = np.array([flav[f][1] for f in cols["f"]])
    d = np.array(cols["d"], dtype=np.int64)
    out = AzureVMs(arrival=np.array(cols["t"]), cores=cores, memory_gb=mem,
                   low=low_b[d], high=high_b[d], censored=np.array(cols["c"]),
                   batch=np.array(cols["b"], dtype=np.int64), flavour=fl)
    for a in vars(out).values():
        a.setflags(write=False)
    return out


def _check_censored(censored: str) -> None:
    if censored not in ("drop", "lower-bound"):
        raise ValueError(f"censored must be 'drop' or 'lower-bound', got {censored!r}")


def _positive_int(name: str, v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 1:
        raise ValueError(f"{name} must be a positive integer, got {v!r}")
    return int(v)


def usable_vms(split: str = "both", censored: str = "drop") -> int:
    """The VMs :func:`azure2017_job_set` samples from with these options: every VM of the
    split, less the censored ones with ``censored="drop"`` (631,807 of the 669,435 VMs of
    ``"both"``). FL24 Sec. 7.1 downsamples its trace's VMs by f = floor(usable / N)."""
    _check_censored(censored)
    vms = azure2017_vms(split)
    return int(np.count_nonzero(~vms.censored)) if censored == "drop" else vms.n


def downsample_every(jobs: int, split: str = "both", censored: str = "drop") -> int:
    """FL24 Sec. 7.1's step f = floor(usable / N) for a job set of N = ``jobs`` VMs: every
    f-th VM in release order from an offset Delta in [0, f) (:func:`azure2017_job_set`
    with ``jobs=N``, ``offset=Delta``). Raises ValueError when the trace holds fewer than N
    usable VMs (draw with replacement instead: ``resample=True``)."""
    n = _positive_int("jobs", jobs)
    usable = usable_vms(split, censored)
    if n > usable:
        raise ValueError(f"the trace has {usable:,} usable VMs, fewer than jobs={n:,}: "
                         f"downsampling cannot give that many (resample=True draws them "
                         f"with replacement)")
    return usable // n


def downsample_offsets(jobs: int, sets: int, *, seed: int, split: str = "both",
                       censored: str = "drop") -> list[int]:
    """The offsets Delta of FL24 Sec. 7.1's sampled job sets of N = ``jobs`` VMs: drawn
    without replacement from [0, f), f = :func:`downsample_every` (the paper samples ten
    job sets so), so ``min(sets, f)`` of them (9 at N = 64,000 here), in increasing order.
    Drawn with ``np.random.default_rng([seed, jobs])``, so each N has its own offsets and
    the same ``seed`` gives the same ones. Each offset's job set is
    ``azure2017_job_set(jobs=N, offset=Delta, split=split, censored=censored)``.

    >>> downsample_offsets(64000, 10, seed=2024)
    [0, 1, 2, 3, 4, 5, 6, 7, 8]
    """
    n, k = _positive_int("jobs", jobs), _positive_int("sets", sets)
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    f = downsample_every(n, split, censored)
    rng = np.random.default_rng([int(seed), n])
    return sorted(int(x) for x in rng.choice(f, size=min(k, f), replace=False))


def azure2017_job_set(*, jobs: int | None = None, every: int | None = None, offset: int = 0,
                      split: str = "both", host: tuple[float, float] = (16.0, 112.0),
                      censored: str = "drop", time_unit: str = "min-processing",
                      lifetime: str = "midpoint", weights: np.ndarray | None = None,
                      seed: int = 0, resample: bool = False) -> JobSet:
    """FL24's job set from the packaged trace (rules in the module docstring)."""
    if censored not in ("drop", "lower-bound"):
        raise ValueError(f"censored must be 'drop' or 'lower-bound', got {censored!r}")
    if lifetime not in ("midpoint", "uniform"):
        raise ValueError(f"lifetime must be 'midpoint' or 'uniform', got {lifetime!r}")
    if time_unit not in ("min-processing", "seconds"):
        raise ValueError(f"time_unit must be 'min-processing' or 'seconds', got "
                         f"{time_unit!r}")
    if len(host) != 2 or not all(isinstance(h, int | float) and h > 0 for h in host):
        raise ValueError(f"host must be (cores > 0, memory GB > 0), got {host!r}")
    if jobs is not None and every is not None:
        raise ValueError("give jobs=N or every=f, not both")
    for name, v in (("jobs", jobs), ("every", every)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    vms = azure2017_vms(split)
    keep = ~vms.censored if censored == "drop" else np.ones(vms.n, dtype=bool)
    if np.any((vms.cores > host[0]) | (vms.memory_gb > host[1])):
        big = int(np.argmax((vms.cores > host[0]) | (vms.memory_gb > host[1])))
        raise ValueError(f"host {host} is smaller than flavour {vms.flavour[big]} "
                         f"({vms.cores[big]:g} cores, {vms.memory_gb[big]:g} GB)")
    u = np.random.default_rng(seed).random(vms.n) if lifetime == "uniform" else 0.5
    life = vms.low + u * (vms.high - vms.low)  # one draw per VM, all VMs: same per seed
    idx = np.flatnonzero(keep)
    idx = idx[np.argsort(vms.arrival[idx], kind="stable")]
    f = every if every is not None else (max(1, idx.size // jobs) if jobs else 1)
    if not 0 <= offset < f:
        raise ValueError(f"offset must lie in [0, {f}) for every={f}, got {offset!r}")
    if resample:
        if jobs is None or every is not None or offset:
            raise ValueError("resample=True draws jobs=N VMs with replacement; every and "
                             "offset do not apply")
        rng = np.random.default_rng([seed, 1])
        src = idx[rng.integers(0, idx.size, jobs)]
        release = np.floor(vms.arrival[src] / _BIN) * _BIN + _BIN * rng.random(jobs)
        by_release = np.argsort(release, kind="stable")
        src, release = src[by_release], release[by_release]
        return _job_set(vms, src, release - release.min(), life[src], host, time_unit,
                        weights, ids=())
    idx = idx[offset::f]
    if jobs is not None:
        if idx.size < jobs:
            raise ValueError(f"the trace has {idx.size:,} usable VMs at this sampling, "
                             f"fewer than jobs={jobs:,}")
        idx = idx[:jobs]
    return _job_set(vms, idx, vms.arrival[idx] - vms.arrival[idx].min(), life[idx], host,
                    time_unit, weights, ids=tuple(f"vm{i}" for i in idx))


def _job_set(vms: AzureVMs, idx: np.ndarray, arrival: np.ndarray, p: np.ndarray,
             host: tuple[float, float], time_unit: str, weights: np.ndarray | None,
             ids: tuple[str, ...]) -> JobSet:
    unit = float(p.min()) if time_unit == "min-processing" else 1.0
    demand = np.column_stack([vms.cores[idx] / host[0], vms.memory_gb[idx] / host[1]])
    w = np.ones(idx.size) if weights is None else np.asarray(weights, dtype=float)
    if w.shape != (idx.size,):
        raise ValueError(f"weights must have one entry per job ({idx.size}), got shape "
                         f"{w.shape}")
    return JobSet(arrival / unit, p / unit, demand, w, ids)


def augment_resources(jobs: JobSet, resources: int, *,
                      seed: int | np.random.Generator | None = None) -> JobSet:
    """FL24 Sec. 7.5.3's synthetic resource types: for every new resource and every job
    j, a job j' is drawn uniformly from the set, and j's demand for the new resource is
    j''s CPU demand (resource 0). The paper's sentence gives it the other way round (j'
    takes j's), which leaves j's own row without the new resource; this reading gives
    every job one. Returns the job set with ``resources`` columns (its own first)."""
    from theory.seeding import as_rng

    if isinstance(resources, bool) or not isinstance(resources, int | np.integer) \
            or resources < jobs.resources:
        raise ValueError(f"resources must be an integer >= the job set's {jobs.resources}, "
                         f"got {resources!r}")
    drawn = jobs.demand[as_rng(seed).integers(0, jobs.n, (jobs.n, resources - jobs.resources)),
                        0]
    return JobSet(jobs.arrival, jobs.processing, np.column_stack([jobs.demand, drawn]),
                  jobs.weight, jobs.ids)
