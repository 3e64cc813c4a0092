"""An Azure-like FL24 workload from the packaged Azure 2017 VM trace (FL24 Sec. 7.1).

FL24 evaluates MRIS on the Azure 2020 VM packing trace, which cannot be downloaded here.
The packaged stand-in is the Azure Public Dataset V1 (2017) as processed by Bergsma et
al. (SOSP 2021): per 300-s bin, the VMs created, each with a flavour (cores, memory GB)
and a binned lifetime; files ``theory/data/azure2017_*`` (provenance in
``azure2017.PROVENANCE.md``). Rules, each a parameter:

* **jobs**: one per VM of the ``dev`` and/or ``test`` split (the splits whose lifetimes
  are packaged: 259,159 + 410,276 VMs). The ``train`` split (1,200,998 VMs, the trace's
  first 20.8 days) is packaged without lifetimes: it gives arrivals and flavours only,
  so it serves size laws (:func:`azure2017_distribution`, split ``"train"`` or ``"all"``
  for the three splits) and is refused wherever a lifetime is needed. VMs still
  running at the censoring time (``C`` tokens, about 5.5%) are dropped by default
  (``censored="drop"``: their lifetime is unknown); ``"lower-bound"`` keeps them with
  the observed bin as lifetime.
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

from theory.distributions import Discrete
from theory.job_sets import JobSet
from theory.readers._trace_tables import TimedJobs

__all__ = ["AzureVMs", "azure2017_vms", "azure2017_job_set", "augment_resources",
           "usable_vms", "downsample_every", "downsample_offsets", "AZURE_SPLITS",
           "AZURE_ALL_SPLITS", "AZURE_HOST", "azure2017_distribution", "azure2017_timed",
           "azure2017_xll21_job_set"]

#: splits whose lifetimes are packaged, with their censoring times (seconds)
AZURE_SPLITS = {"dev": 2_100_000, "test": 2_591_400}
#: every split name :func:`azure2017_vms` reads: ``both`` is dev + test, ``all`` is
#: train + dev + test (train has no lifetimes)
AZURE_ALL_SPLITS: tuple[str, ...] = ("both", "dev", "test", "train", "all")
#: the host a flavour is a fraction of: (cores, memory GB) of the largest flavour (the
#: 2017 trace has no machine shapes, so one is assumed)
AZURE_HOST: tuple[float, float] = (16.0, 112.0)
_BIN = 300.0


@dataclass(frozen=True)
class AzureVMs:
    """The VMs of the packaged trace, in file order.

    Parameters
    ----------
    arrival : numpy.ndarray
        Seconds from the trace's start (the VMs of a 300-s bin spread evenly over it).
    cores, memory_gb : numpy.ndarray
        The flavour's vCPU cores and memory (GB).
    low, high : numpy.ndarray
        The lifetime bin's bounds [low, high) in seconds; NaN for the train split.
    censored : numpy.ndarray
        Still running at the split's censoring time (the bin is a lower bound).
    batch : numpy.ndarray
        The tenant batch within its bin line.
    flavour : numpy.ndarray
        The flavour letter.

    References
    ----------
    FL24 Sec. 7.1 (the workload it stands in for); ``theory/data/azure2017.
    PROVENANCE.md``.

    Examples
    --------
    >>> v = azure2017_vms("dev")
    >>> v.n, str(v.flavour[0]), float(v.cores[0]), float(v.memory_gb[0])
    (259159, 'm', 8.0, 14.0)
    """

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
    once per process, the arrays are read-only. ``train`` and ``all`` (train + dev +
    test) read the train split too, whose VMs have no lifetime: ``low`` and ``high`` are
    NaN for them and ``censored`` is False.

    Parameters
    ----------
    split : str, default "both"
        ``dev``, ``test``, ``both`` (dev + test), ``train`` or ``all``.

    Returns
    -------
    AzureVMs
        The VMs in file order (= arrival order).

    Raises
    ------
    ValueError
        An unknown split (with a did-you-mean); a malformed packaged line.

    References
    ----------
    ``theory/data/azure2017.PROVENANCE.md`` (files and formats).

    Examples
    --------
    >>> azure2017_vms("both").n
    669435
    """
    _split(split)
    return _read(split)


def _split(split: object, *, lifetimes: bool = False) -> str:
    """``split`` if it names packaged VMs (with lifetimes, if asked); else one line."""
    from theory.names import did_you_mean

    known = ("both", "dev", "test") if lifetimes else AZURE_ALL_SPLITS
    if not isinstance(split, str) or split not in known:
        if lifetimes and split in AZURE_ALL_SPLITS:
            raise ValueError(f"split {split!r} has no lifetimes (the train split's lifetime "
                             f"file was not packaged): use split 'dev', 'test' or 'both'")
        hint = did_you_mean(split, known) if isinstance(split, str) else ""
        raise ValueError(f"split must be one of {', '.join(known)}, got {split!r}{hint}")
    return split


#: the packaged files of each split name
_SPLIT_PARTS = {"dev": ("dev",), "test": ("test",), "both": ("dev", "test"),
                "train": ("train",), "all": ("train", "dev", "test")}


def _no_lifetimes(line: str) -> str:
    """A lifetime line for a flavour line of the train split: ``N`` (none) per VM."""
    if not line.strip():
        return line
    t, toks = line.split(" ", 1)
    return t + " " + ",".join(x if x in ("|", "") else "N" for x in toks.split(","))


@functools.lru_cache(maxsize=3)
def _read(split: str) -> AzureVMs:
    flav = _flavours()
    low_b, high_b = _bins()
    cols: dict[str, list] = {k: [] for k in ("t", "f", "d", "c", "b")}
    for name in _SPLIT_PARTS[split]:
        sizes = _text(f"v1.{name}.txt").split("\n")
        if name == "train":  # no lifetime file: a NaN bin for every token
            lives = [_no_lifetimes(a) for a in sizes]
        else:
            lives = _text(f"v1.{name}.c{AZURE_SPLITS[name]}.txt").split("\n")
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
                if f not in flav or x[:1] not in ("U", "C", "N"):
                    raise ValueError(f"azure2017 {name}: line {ln}: bad token {f!r}/{x!r}")
                cols["t"].append(float(t) + _BIN * (k + 0.5) / len(vms))
                cols["f"].append(f)
                cols["d"].append(int(x[1:]) if x[0] != "N" else -1)
                cols["c"].append(x[0] == "C")
                cols["b"].append(batch)
                k += 1
    fl = np.array(cols["f"])
    cores = np.array([flav[f][0] for f in cols["f"]])
    mem = np.array([flav[f][1] for f in cols["f"]])
    d = np.array(cols["d"], dtype=np.int64)
    low_b, high_b = np.append(low_b, np.nan), np.append(high_b, np.nan)  # bin -1: none
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
    _split(split, lifetimes=True)
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
    """FL24's job set from the packaged trace (rules in the module docstring).

    Parameters
    ----------
    jobs : int, optional
        N: downsample by f = floor(usable / N) and keep the first N (FL24 Sec. 7.1);
        with ``resample``, N draws with replacement.
    every : int, optional
        f: every f-th VM in release order (instead of ``jobs``).
    offset : int, default 0
        Delta in [0, f): the first VM taken.
    split : str, default "both"
        ``dev``, ``test`` or ``both`` (train has no lifetimes).
    host : tuple of float, default (16.0, 112.0)
        The (cores, memory GB) demands are fractions of.
    censored : str, default "drop"
        ``"drop"`` the VMs still running at the split's end, or keep them with their
        bin as a ``"lower-bound"``.
    time_unit : str, default "min-processing"
        Times in units of the smallest processing time (FL24 Sec. 3), or ``"seconds"``.
    lifetime : str, default "midpoint"
        A lifetime bin's midpoint, or a ``"uniform"`` draw in it (with ``seed``).
    weights : numpy.ndarray, optional
        One weight per job (default 1).
    seed : int, default 0
        Seed of the uniform lifetimes and of the resampling.
    resample : bool, default False
        Draw ``jobs`` VMs with replacement (module docstring).

    Returns
    -------
    theory.job_sets.JobSet
        Releases from 0, processing times, demands (cores, memory) as fractions of
        ``host``, weights.

    Raises
    ------
    ValueError
        An option outside its values; a split without lifetimes; a host smaller than a
        flavour; too few usable VMs.

    References
    ----------
    FL24 Sec. 3 (units), Sec. 7.1 (workload, M = 20, downsampling) and Sec. 7.3
    (weights); ``theory/data/azure2017.PROVENANCE.md``.

    Examples
    --------
    >>> js = azure2017_job_set(jobs=1000)
    >>> js.n, js.resources, float(js.processing.min())
    (1000, 2, 1.0)
    """
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
    vms = azure2017_vms(_split(split, lifetimes=True))
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


# -- the trace registry's uses (theory.readers.trace_names) ------------------------------


def _host(host: object) -> tuple[float, float]:
    if not (isinstance(host, tuple | list) and len(host) == 2
            and all(isinstance(h, int | float) and not isinstance(h, bool) and h > 0
                    for h in host)):
        raise ValueError(f"host must be (cores > 0, memory GB > 0), got {host!r}")
    return float(host[0]), float(host[1])


@functools.lru_cache(maxsize=8)
def _flavour_counts(split: str) -> tuple[tuple[str, int], ...]:
    """VMs of each flavour letter in the split's files, in file order of first use."""
    counts: dict[str, int] = {}
    for name in _SPLIT_PARTS[split]:
        for line in _text(f"v1.{name}.txt").split("\n"):
            if line.strip():
                for f in line.split(" ", 1)[1].split(","):
                    if f not in ("|", ""):
                        counts[f] = counts.get(f, 0) + 1
    return tuple(counts.items())


def azure2017_distribution(split: str = "both", kind: str = "max", *,
                           host: tuple[float, float] = AZURE_HOST, exact: bool = True,
                           first: int | None = None) -> Discrete:
    """The empirical flavour law of an Azure 2017 split, as fractions of a host.

    Each VM is one job of size (cores / host cores, memory GB / host GB); there are 16
    flavours, so the law has at most 16 types and rho* is exact and fast.

    Parameters
    ----------
    split : str, default "both"
        ``dev``, ``test``, ``both`` (dev + test), ``train`` or ``all`` (the three).
    kind : str, default "max"
        ``max`` (of the two fractions), ``cpu``, ``memory`` or ``vector``.
    host : tuple of float, default AZURE_HOST
        The (cores, memory GB) the sizes are fractions of: the largest flavour, 16 cores
        and 112 GB, by default (the trace has no machines).
    exact : bool, default True
        Fractions (the flavour map's decimals are exact), else floats.
    first : int, optional
        Only the first ``first`` VMs in arrival order.

    Returns
    -------
    theory.distributions.Discrete
        One type per distinct size, probability (VMs of that size) / (VMs).

    Raises
    ------
    ValueError
        An unknown split or kind (with a did-you-mean); a host smaller than a flavour;
        ``first`` not a positive integer.

    References
    ----------
    FL24 Sec. 7.1 (VM types as fractions of a machine); ``theory/data/azure2017.
    PROVENANCE.md``; the shared ``azure_v1_2017_flavor_arrivals/PROVENANCE.md``, "How
    to use it", (a).

    Examples
    --------
    >>> d = azure2017_distribution("dev", "vector")
    >>> len(d), d.sizes[-1]
    (16, (Fraction(1, 1), Fraction(1, 1)))
    """
    from fractions import Fraction

    from theory.numbers import to_number
    from theory.readers._trace_tables import check_kind, size_law

    _split(split)
    kind = check_kind(kind, "azure2017")
    cores_h, mem_h = _host(host)
    flav = _flavours()
    text = {}
    for line in _text("flav_map.txt").split("\n"):
        if line.strip():
            sizes, letter = line.split()
            text[letter] = tuple(sizes.split(","))
    if first is None:
        counts = dict(_flavour_counts(split))
    else:
        if isinstance(first, bool) or not isinstance(first, int) or first < 1:
            raise ValueError(f"first must be a positive integer, got {first!r}")
        vms = azure2017_vms(split)
        letters, n = np.unique(vms.flavour[:first], return_counts=True)
        counts = dict(zip(letters.tolist(), n.tolist(), strict=True))
    for f in counts:
        if flav[f][0] > cores_h or flav[f][1] > mem_h:
            raise ValueError(f"host {host} is smaller than flavour {f} ({flav[f][0]:g} cores, "
                             f"{flav[f][1]:g} GB)")
    if exact:
        hc, hm = Fraction(to_number(str(host[0]))), Fraction(to_number(str(host[1])))
        pairs = [(to_number(text[f][0]) / hc, to_number(text[f][1]) / hm) for f in counts]
    else:
        pairs = [(flav[f][0] / cores_h, flav[f][1] / mem_h) for f in counts]
    return size_law(pairs, kind, f"azure2017 {split} ({kind})", list(counts.values()))


def _usable_order(split: str) -> tuple[AzureVMs, np.ndarray]:
    """The split's VMs and the indices of those not censored, in release order."""
    vms = azure2017_vms(_split(split, lifetimes=True))
    idx = np.flatnonzero(~vms.censored)
    return vms, idx[np.argsort(vms.arrival[idx], kind="stable")]


def _host_info(host: tuple[float, float]) -> dict[str, object]:
    return {"unit": f"an assumed host of {host[0]:g} cores and {host[1]:g} GB (the largest "
                    f"flavour; the 2017 trace has no machine shapes)"}


def azure2017_timed(split: str = "both", *, host: tuple[float, float] = AZURE_HOST,
                    until_seconds: float | None = None, first: int | None = None
                    ) -> TimedJobs:
    """The VMs of an Azure 2017 split as timed jobs, for trace-driven slotted simulation
    (PG21 Sec. VII-B's preprocessing, applied to this trace).

    The VMs not censored, in release order: arrival the start of their 300-s bin (the
    trace's resolution: the slot is 300 s, so the VMs of a bin arrive in one slot),
    run time the midpoint of their lifetime bin (the trace gives no finer value), size
    (cores, GB) as fractions of ``host``.

    Parameters
    ----------
    split : str, default "both"
        ``dev``, ``test`` or ``both`` (train has no lifetimes and is refused).
    host : tuple of float, default AZURE_HOST
        The (cores, memory GB) the sizes are fractions of.
    until_seconds : float, optional
        Only the VMs arriving before this many seconds after the first one.
    first : int, optional
        Only the first ``first`` VMs in arrival order.

    Returns
    -------
    TimedJobs
        Arrival and run times in seconds, sizes, ``slot_seconds`` 300, and an ``info``
        dict stating these rules.

    Raises
    ------
    ValueError
        An unknown split, or ``train``/``all`` (no lifetimes); a host smaller than a
        flavour; ``until_seconds`` not above 0 or ``first`` not a positive integer.

    References
    ----------
    PG21 Sec. VII-B; ``theory/data/azure2017.PROVENANCE.md``.

    Examples
    --------
    >>> j = azure2017_timed("dev", first=3)
    >>> j.arrival.tolist(), j.service.tolist(), j.slot_seconds
    ([1800000.0, 1800000.0, 1800000.0], [450.0, 1350.0, 1050.0], 300.0)
    """
    cores_h, mem_h = _host(host)
    vms, idx = _usable_order(split)
    start = np.floor(vms.arrival[idx] / _BIN) * _BIN
    beyond = 0
    if until_seconds is not None:
        if not until_seconds > 0:
            raise ValueError(f"until_seconds must be above 0, got {until_seconds!r}")
        late = start - start[0] >= until_seconds
        beyond = int(np.count_nonzero(late))
        idx = idx[~late]
    if first is not None:
        if isinstance(first, bool) or not isinstance(first, int) or first < 1:
            raise ValueError(f"first must be a positive integer, got {first!r}")
        idx = idx[:first]
    if np.any((vms.cores[idx] > cores_h) | (vms.memory_gb[idx] > mem_h)):
        raise ValueError(f"host {host} is smaller than a flavour of the trace")
    info = {"trace": "azure2017", "split": split, **_host_info((cores_h, mem_h)),
            "rule": "one per VM not censored (still running at the split's end)",
            "vms": int(idx.size), "censored_dropped": int(np.count_nonzero(vms.censored)),
            "beyond_until": beyond,
            "arrival": "the start of the VM's 300-s bin (s)",
            "service": "the midpoint of the VM's lifetime bin (s)", "slot_seconds": _BIN}
    return TimedJobs(np.floor(vms.arrival[idx] / _BIN) * _BIN,
                     (vms.low[idx] + vms.high[idx]) / 2, vms.cores[idx] / cores_h,
                     vms.memory_gb[idx] / mem_h, _BIN, info)


def azure2017_xll21_job_set(split: str = "both", *, first: int | None = None,
                            slot_seconds: float = 10.0) -> JobSet:
    """An XLL21 job set (integer slots, cores and memory units) from an Azure 2017
    split.

    The VMs not censored, in release order (the first ``first``): arrival
    a_j = floor((r_j - first r) / slot), processing p_j = max(1, ceil(life / slot)) with
    life the midpoint of the lifetime bin, cores d_j the flavour's cores, memory
    m_j = ceil(GB / 7): one unit per core of the assumed 16-core, 112-GB host, so a
    server of c cores (XLL21 Sec. VI: 64, 32, 16) has 7c GB.

    Parameters
    ----------
    split : str, default "both"
        ``dev``, ``test`` or ``both``.
    first : int, optional
        Only the first ``first`` VMs by release.
    slot_seconds : float, default 10.0
        The slot (XLL21 Sec. VI: ten seconds).

    Returns
    -------
    theory.job_sets.JobSet
        Integer arrivals, processing times, cores and memory; ids ``vm<i>``.

    Raises
    ------
    ValueError
        An unknown split or one without lifetimes; ``first`` not a positive integer.

    References
    ----------
    XLL21 Sec. VI (slots, servers of 64, 32 and 16 cores); ``theory/data/azure2017.
    PROVENANCE.md``.

    Examples
    --------
    >>> js = azure2017_xll21_job_set("dev", first=3)
    >>> js.arrival.tolist(), js.processing.tolist(), js.demand.tolist()
    ([0.0, 0.0, 0.0], [45.0, 135.0, 105.0], [[8.0, 2.0], [1.0, 1.0], [2.0, 1.0]])
    """
    from theory.readers._trace_tables import xll21_job_set

    vms, idx = _usable_order(split)
    if first is not None:
        if isinstance(first, bool) or not isinstance(first, int) or first < 1:
            raise ValueError(f"first must be a positive integer, got {first!r}")
        idx = idx[:first]
    cores_h, mem_h = AZURE_HOST
    return xll21_job_set(vms.arrival[idx], (vms.low[idx] + vms.high[idx]) / 2,
                         vms.cores[idx] / cores_h, vms.memory_gb[idx] / mem_h,
                         [f"vm{i}" for i in idx], cores_per_unit=16, memory_per_unit=16,
                         slot_seconds=slot_seconds)
