"""The compiled profile backend (treaps), list scheduling and the online loops in numba
against the Python profiles and engine: the same answers, the same schedules."""

from __future__ import annotations

import numpy as np
import pytest

import policies as P
from policies.nonpreemptive import MachineProfiles, ScheduleState, run_nonpreemptive
from policies.nonpreemptive.timeline import TimelineProfiles, TimelineState
from theory.job_sets import JobSet, Machines
from theory.readers.azure import azure2017_job_set


@pytest.mark.parametrize("seed", range(6))
def test_timeline_answers_like_the_python_profiles(seed):
    """Random adds (integer times: many shared breakpoints, planned-ahead gaps) and every
    query in between: usage, window fits, next breakpoint, machines changing."""
    rng = np.random.default_rng(seed)
    M, R = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    cap = np.ones((M, R))
    ref, fast = MachineProfiles(cap), TimelineProfiles(cap, jobs=300)
    for _ in range(300):
        i = int(rng.integers(M))
        s, p = float(rng.integers(0, 40)), float(rng.integers(1, 10))
        d = rng.choice([0.05, 0.1, 0.25, 0.3], R)
        if ref.fits(i, s, p, d):
            assert fast.fits(i, s, p, d)
            ref.add(i, s, p, d)
            fast.add(i, s, p, d)
        else:
            assert not fast.fits(i, s, p, d)
        t = float(rng.integers(0, 50)) + rng.choice([0.0, 0.5])
        assert np.allclose(ref.usage_at(i, t), fast.usage_at(i, t), rtol=0, atol=1e-12)
        assert ref.next_breakpoint(t) == fast.next_breakpoint(t)
        assert ref.changes_at(t) == fast.changes_at(t)
        L = rng.integers(1, 12, 20).astype(float)
        D = rng.choice([0.05, 0.1, 0.25, 0.3, 0.6], (20, R))
        assert np.array_equal(ref.fits_many(i, t, L, D), fast.fits_many(i, t, L, D))


def test_timeline_refuses_a_full_pool():
    tl = TimelineProfiles(np.ones((1, 1)), jobs=2)
    with pytest.raises(RuntimeError, match="timeline full"):
        for k in range(10):
            tl.add(0, float(k), 0.5, np.array([0.5]))
    with pytest.raises(ValueError, match="before the profiles' start"):
        tl.usage_at(0, -1.0)


def _instance(rng: np.random.Generator, n: int, R: int, M: int, grid: bool) -> tuple:
    if grid:  # integer times and two-decimal demands: ties everywhere
        arrival = np.sort(rng.integers(0, 30, n)).astype(float)
        processing = rng.integers(1, 9, n).astype(float)
        demand = np.round(rng.uniform(0.02, 0.7, (n, R)), 2)
    else:
        arrival = np.sort(rng.uniform(0, 30, n))
        processing = rng.uniform(1, 9, n)
        demand = rng.uniform(0.02, 0.9, (n, R))
    jobs = JobSet(arrival=arrival, processing=processing, demand=demand,
                  weight=rng.integers(1, 5, n).astype(float))
    return jobs, Machines(np.ones((M, R)))


@pytest.mark.parametrize("policy", ["mris", "mris-greedy", "mris-split", "ca-pq"])
@pytest.mark.parametrize("seed", range(4))
def test_compiled_list_schedulers_give_the_python_schedule(policy, seed):
    rng = np.random.default_rng(100 + seed)
    for grid in (True, False):
        jobs, mach = _instance(rng, 150, int(rng.integers(1, 4)), int(rng.integers(1, 5)),
                               grid)
        ref = run_nonpreemptive(P.make_policy(policy), jobs, mach, engine="python")
        fast = run_nonpreemptive(P.make_policy(policy), jobs, mach, engine="compiled")
        assert fast.params["engine"] == "compiled" and fast.invariants_ok
        assert np.array_equal(ref.start, fast.start)
        assert np.array_equal(ref.machine, fast.machine)
        assert np.array_equal(ref.decided, fast.decided)
        if policy.startswith("mris"):
            assert [r["selected"] for r in ref.extra["iterations"]] == \
                [r["selected"] for r in fast.extra["iterations"]]


@pytest.mark.parametrize("policy", ["mris", "ca-pq", "tetris", "bf-exec", "pq-wsjf"])
def test_compiled_engines_on_the_azure_workload(policy):
    """2,000 VMs on 20 machines: MRIS's plans ahead over 10+ intervals; the flavours'
    shared demand vectors (TETRIS's groups) and dyadic and non-dyadic fractions."""
    jobs = azure2017_job_set(jobs=2000)
    mach = Machines(np.ones((20, 2)))
    ref = run_nonpreemptive(P.make_policy(policy), jobs, mach, engine="python")
    fast = run_nonpreemptive(P.make_policy(policy), jobs, mach, engine="compiled")
    assert np.array_equal(ref.start, fast.start) and np.array_equal(ref.machine, fast.machine)
    other = run_nonpreemptive(P.make_policy("mris-greedy" if policy == "ca-pq" else "ca-pq"),
                              jobs, mach, engine="compiled")
    assert not np.array_equal(other.start, fast.start)  # the comparison can fail


def test_timeline_state_runs_any_policy_on_the_event_loop():
    """Every method of ScheduleState works on the treap backend: an online policy through
    the full event loop gives the Python profiles' schedule."""
    import policies.nonpreemptive.engine as E

    rng = np.random.default_rng(5)
    jobs, mach = _instance(rng, 120, 2, 3, grid=True)
    for name in ("tetris", "bf-exec", "pq-wsjf"):
        ref = run_nonpreemptive(P.make_policy(name), jobs, mach, engine="python")
        orig = E.ScheduleState
        E.ScheduleState = TimelineState  # type: ignore[misc]
        try:
            fast = run_nonpreemptive(P.make_policy(name), jobs, mach, engine="python")
        finally:
            E.ScheduleState = orig  # type: ignore[misc]
        assert np.array_equal(ref.start, fast.start), name
        assert np.array_equal(ref.machine, fast.machine), name


def test_timeline_list_schedule_backfills_and_validates():
    jobs = JobSet(arrival=[0, 0, 0, 3], processing=[2, 3, 5, 1],
                  demand=[[1.0], [1.0], [1.0], [1.0]])
    st = TimelineState(jobs, Machines([[1.0]]))
    st.queue, st.t = [0, 1, 2], 0.0
    st.place(0, 0, 4.0)  # planned ahead: [0, 4) stays free for the 3-long job
    st.list_schedule([2, 1], 0.0)
    assert st.start[:3].tolist() == [4.0, 0.0, 6.0] and st.queue == []
    with pytest.raises(RuntimeError, match="already placed"):
        st.list_schedule([1], 0.0)
    with pytest.raises(RuntimeError, match="release"):
        st.list_schedule([3], 0.0)
    ref = ScheduleState(jobs, Machines([[1.0]]))
    ref.queue, ref.t = [0, 1, 2], 0.0
    ref.place(0, 0, 4.0)
    ref.list_schedule([2, 1], 0.0)
    assert np.array_equal(ref.start, st.start, equal_nan=True)
