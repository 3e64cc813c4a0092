"""MapReduce jobs of XLL21 Sec. V as pairs of dummy jobs.

Job j has n_j^m map tasks of d_j^m cores and p_j^m slots and n_j^r reduce tasks of d_j^r
cores and p_j^r slots; the reduce phase starts only after every map task is done (eq.
(43)). XLL21 V creates "for each job j two dummy jobs, i.e. one map job and one reduce
job. The reduce job is active only after the map job completes". Here the dummy job of
phase z demands n_j^z d_j^z cores for p_j^z slots: at rate y (cores / (n^z d^z)) every
task of the phase progresses at rate y, so sum_k x_j^{k,z} = n_j^z y.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from theory.fractional_flowtime import check_k
from theory.job_sets import JobSet

__all__ = ["MapReduceJobs"]


def _ints(x: object, name: str, n: int | None, minimum: int) -> np.ndarray:
    a = np.asarray(x, dtype=float)
    if a.ndim != 1 or (n is not None and len(a) != n) or len(a) == 0:
        raise ValueError(f"{name} must be a non-empty vector" + (f" of {n}" if n else ""))
    if not np.all(np.isfinite(a)) or np.any(a != np.round(a)) or np.any(a < minimum):
        raise ValueError(f"{name} must be integers >= {minimum} (XLL21 V)")
    return a.astype(np.int64)


@dataclass(frozen=True, eq=False)
class MapReduceJobs:
    """N MapReduce jobs (XLL21 V); every field a length-N integer vector."""

    arrival: np.ndarray
    map_tasks: np.ndarray
    map_cores: np.ndarray
    map_time: np.ndarray
    reduce_tasks: np.ndarray
    reduce_cores: np.ndarray
    reduce_time: np.ndarray

    def __post_init__(self) -> None:
        a = _ints(self.arrival, "arrival", None, 0)
        n = len(a)
        object.__setattr__(self, "arrival", a)
        for name in ("map_tasks", "map_cores", "map_time", "reduce_tasks", "reduce_cores",
                     "reduce_time"):
            object.__setattr__(self, name, _ints(getattr(self, name), name, n, 1))

    @property
    def n(self) -> int:
        return len(self.arrival)

    def dummy_jobs(self) -> tuple[JobSet, np.ndarray]:
        """The 2N dummy jobs (map of job j at 2j, reduce at 2j + 1) and ``after`` for
        :func:`policies.preemptive.run_schedule` (the reduce job waits for its map job)."""
        n = self.n
        arrival = np.repeat(self.arrival, 2)
        processing = np.empty(2 * n)
        processing[0::2], processing[1::2] = self.map_time, self.reduce_time
        cores = np.empty(2 * n)
        cores[0::2] = self.map_tasks * self.map_cores
        cores[1::2] = self.reduce_tasks * self.reduce_cores
        after = np.full(2 * n, -1, dtype=np.int64)
        after[1::2] = np.arange(0, 2 * n, 2)
        ids = tuple(f"{j}.{ph}" for j in range(n) for ph in ("map", "reduce"))
        return JobSet(arrival, processing, cores[:, None], ids=ids), after

    def gamma(self, total_cores: float) -> float:
        """Gamma of XLL21 V (below eq. (44)): max{max_j max(a_j + 2 p_j, 2 a_j),
        4 sum_j sum_z p_j^z d_j^z n_j^z / C}, with p_j = p_j^m + p_j^r."""
        p = self.map_time + self.reduce_time
        work = (self.map_time * self.map_cores * self.map_tasks
                + self.reduce_time * self.reduce_cores * self.reduce_tasks).sum()
        return float(max(np.max(np.maximum(self.arrival + 2 * p, 2 * self.arrival)),
                         4 * work / total_cores))

    def weights(self, t: int, k: float) -> np.ndarray:
        """P5's weight of each dummy job's rate y in slot t (2N,): P5 weighs
        sum_k x_j^{k,z} = n_j^z y by [2 (t - a_j)^k + (p_j^m + p_j^r)^k] / (2 n_j^z p_j^z),
        so y by [2 (t - a_j)^k + (p_j^m + p_j^r)^k] / (2 p_j^z) (0 before arrival)."""
        kf = check_k(k)
        age = np.maximum(t - self.arrival, 0).astype(float)
        total = (self.map_time + self.reduce_time).astype(float)
        num = 2 * age ** kf + total ** kf
        w = np.empty(2 * self.n)
        w[0::2] = num / (2 * self.map_time)
        w[1::2] = num / (2 * self.reduce_time)
        return np.where(np.repeat(age > 0, 2), w, 0.0)

    def targets(self, gamma: float) -> np.ndarray:
        """The per-task target rate of eq. (44) for each dummy job:
        (n^m p^m + n^r p^r) / (n^z (Gamma - a_j))."""
        if np.any(self.arrival >= gamma):
            raise ValueError(f"Gamma = {gamma:g} must exceed every arrival (eq. (44))")
        work = self.map_tasks * self.map_time + self.reduce_tasks * self.reduce_time
        out = np.empty(2 * self.n)
        out[0::2] = work / (self.map_tasks * (gamma - self.arrival))
        out[1::2] = work / (self.reduce_tasks * (gamma - self.arrival))
        return out
