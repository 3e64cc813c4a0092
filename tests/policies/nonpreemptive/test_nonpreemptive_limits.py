"""FL24's non-preemptive family at the limits of float64 and of its defaults: times past
float resolution are refused, the invariant checker decides in exact arithmetic, the API
validates its arguments, MRIS's gamma_0 and knapsack and TETRIS's eps default to what the
paper sets up."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

import policies as P
from packsched.cli import main
from policies.invariants import check_nonpreemptive_run
from policies.nonpreemptive import MRIS, NonPreemptiveResult, Tetris, run_nonpreemptive
from policies.registry import policies_of
from theory.budgets import BudgetExceeded
from theory.job_sets import JobSet, Machines
from theory.numbers import FEASIBILITY_RTOL

FL24 = policies_of("fl24-nonpreemptive")
ONE = Machines([[1.0]])


def _pair(release: float, p: float = 1.0, demand: float = 0.6) -> JobSet:
    return JobSet(arrival=[release, release], processing=[p, p],
                  demand=[[demand], [demand]], ids=("a", "b"))


def _files(tmp_path, rows: str) -> tuple[str, str]:
    j, c = tmp_path / "j.csv", tmp_path / "c.csv"
    j.write_text("id,arrival,processing,weight,demand_0\n" + rows)
    c.write_text("id,capacity_0\nm,1\n")
    return str(j), str(c)


# -- times past float resolution ----------------------------------------------------------

@pytest.mark.parametrize("name", FL24)
def test_a_job_shorter_than_the_float_spacing_is_refused(name):
    """Released at 1e17 (floats 16 apart) with p = 1, a job would complete at its start;
    two such jobs of demand 0.6 'fit' one unit machine. Every FL24 policy refuses,
    naming the job and the field."""
    with pytest.raises(ValueError, match=r"job 'a': field 'processing': 1 is too short "
                                         r"for float64 times at its release, 1e\+17"):
        run_nonpreemptive(P.make_policy(name), _pair(1e17), ONE)


@pytest.mark.parametrize("release, p", [(2.0**53, 1.0), (1e6, 1e-12), (3e9, 1e-4)])
def test_other_unresolved_releases_are_refused(release, p):
    """2^53 (what 2^53 + 1 reads as; floats 2 apart), 1e-12 at 1e6 (floats 1.2e-10
    apart), and a variant: 1e-4 at 3e9, above the spacing (4.8e-7) but below 2^20 of
    it, where C_j - S_j would be off p_j by up to 0.24%."""
    for name in ("mris", "pq-wsjf", "tetris"):
        with pytest.raises(ValueError, match="job 'a'.*too short for float64 times"):
            run_nonpreemptive(P.make_policy(name), _pair(release, p), ONE)


def test_resolved_times_still_run():
    """At 1e6 floats are 1.16e-10 apart, 2^20 of them 1.2e-4: p = 1e-4 is refused,
    p = 1e-3 runs, and the second job starts after the first."""
    with pytest.raises(ValueError, match="too short"):
        run_nonpreemptive(P.make_policy("pq-wsjf"), _pair(1e6, 1e-4), ONE)
    r = run_nonpreemptive(P.make_policy("pq-wsjf"), _pair(1e6, 1e-3), ONE)
    assert r.invariants_ok and r.start[1] > r.start[0]


def test_the_cli_refuses_jobs_released_past_float_resolution(tmp_path, capsys):
    j, c = _files(tmp_path, "a,1e17,1,1,0.6\nb,1e17,1,1,0.6\n")
    for name in ("mris", "ca-pq", "bf-exec"):
        assert main(["schedule", "--policy", name, "--jobs", j, "--cluster", c,
                     "--json"]) == 2
        err = capsys.readouterr().err
        assert "job 'a' (" in err and "1e+17" in err
        assert "j.csv line 2): field 'processing'" in err
    j, c = _files(tmp_path, "a,9007199254740993,1,1,0.6\nb,9007199254740993,1,1,0.6\n")
    assert main(["schedule", "--policy", "pq-wsjf", "--jobs", j, "--cluster", c]) == 2
    assert "too short for float64" in capsys.readouterr().err


def test_mris_gamma0_past_float_resolution_is_refused(tmp_path, capsys):
    """gamma0 = 1e300: nothing starts before it, and there p_j = 1 is nothing."""
    j, c = _files(tmp_path, "a,0,1,1,0.7\nb,0,1,1,0.7\nc,0,1,1,0.7\n")
    assert main(["schedule", "--policy", "mris", "--gamma0", "1e300", "--jobs", j,
                 "--cluster", c, "--json"]) == 2
    err = capsys.readouterr().err
    assert "gamma0 = 1e+300" in err and "choose a smaller gamma0" in err
    with pytest.raises(ValueError, match="gamma0 = 1e\\+20"):  # a variant: 1e20
        run_nonpreemptive(MRIS(gamma0=1e20), _pair(0.0, 1.0, 0.7), ONE)


def test_a_job_run_past_float_resolution_is_refused_after_the_run():
    """Resolved at its release, job 'b' waits for a job of length 1e17 and would run at
    1e17 (floats 16 apart): the schedule found is refused, not returned."""
    jobs = JobSet(arrival=[0.0, 0.5], processing=[1e17, 1.0], demand=[[1.0], [1.0]],
                  ids=("a", "b"))
    for name in ("pq-erf", "pq-wsjf", "tetris", "bf-exec"):
        with pytest.raises(ValueError, match="job 'b'.*at its completion"):
            run_nonpreemptive(P.make_policy(name), jobs, ONE)


def test_mris_interval_ends_past_the_float_range_are_refused():
    """gamma_k = 2^k cannot reach p_j = 1e308 within float64: a refusal, not a stall."""
    jobs = JobSet(arrival=[0.0, 0.0], processing=[1.0, 1e308], demand=[[0.5], [0.5]])
    with pytest.raises(ValueError, match="float64 range"):
        run_nonpreemptive(MRIS(gamma0=1.0), jobs, ONE)


# -- the exact invariant checker ----------------------------------------------------------

def _result(jobs: JobSet, start, machines: Machines = ONE, decided=None,
            machine=None) -> NonPreemptiveResult:
    start = np.asarray(start, dtype=np.float64)
    return NonPreemptiveResult(
        policy="hand", jobs=jobs, machines=machines, start=start,
        machine=np.zeros(jobs.n, np.int64) if machine is None else np.asarray(machine),
        decided=start.copy() if decided is None else np.asarray(decided, np.float64),
        k=2.0, seconds=0.0)


def test_the_checker_flags_jobs_that_do_not_hold_their_machine():
    """The engine's old answer for two unit jobs released at 1e17 (both on one machine,
    C_j = S_j): the checker rebuilds C_j - S_j exactly and sees p_j lost."""
    rep = check_nonpreemptive_run(_result(_pair(1e17), [1e17, 1e17]))
    assert not rep.ok and "not for its processing time 1.0" in rep.violations[0]
    # a variant: 1e-12 long jobs started at 1e6
    rep = check_nonpreemptive_run(_result(_pair(1e6, 1e-12), [1e6, 1e6]))
    assert not rep.ok and "does not resolve" in rep.violations[0]


def test_the_checker_compares_starts_and_releases_exactly():
    """A start 1e-7 before its release at 1e6 passed the old tolerance (1e-12 of the
    largest start); float comparisons are exact, so it is flagged."""
    jobs = JobSet(arrival=[1e6], processing=[1.0], demand=[[0.5]])
    rep = check_nonpreemptive_run(_result(jobs, [1e6 - 1e-7]))
    assert not rep.ok and "need r_j <= decision <= S_j" in rep.violations[0]
    ok = check_nonpreemptive_run(_result(jobs, [1e6]))
    assert ok.ok, ok.violations


def test_the_checker_counts_demands_exactly():
    """Two overlapping jobs loading a unit machine to 1 + 3e-9 (three times the
    documented tolerance), after 2,000 short jobs: the old float sweep allowed 1e-12
    per event (4e-9 here) and passed it."""
    n = 2000
    jobs = JobSet(arrival=np.zeros(n + 2), processing=np.ones(n + 2),
                  demand=np.concatenate([np.full((n, 1), 0.1), [[0.5], [0.5 + 3e-9]]]))
    start = np.concatenate([np.arange(n, dtype=float), [n, n]])
    rep = check_nonpreemptive_run(_result(jobs, start))
    assert not rep.ok and "over capacity" in rep.violations[0]
    legal = np.concatenate([np.arange(n, dtype=float), [n, n + 1]])
    assert check_nonpreemptive_run(_result(jobs, legal)).ok


@pytest.mark.parametrize("over", [True, False])
def test_the_checker_decides_loads_at_the_limit_in_fractions(over):
    """Loads within the rounding band of the limit, capacity (1 + FEASIBILITY_RTOL)
    plus 2 2^-52 of it for two running jobs: the exact sum decides, to the last bit."""
    lim = Fraction(1.0 * (1.0 + FEASIBILITY_RTOL)) * (1 + Fraction(2, 2**52))
    rest = float(lim - Fraction(1, 2))  # nearest float to the room left
    d2 = rest if (Fraction(1, 2) + Fraction(rest) > lim) == over else np.nextafter(
        rest, np.inf if over else -np.inf)
    assert (Fraction(1, 2) + Fraction(d2) > lim) == over
    jobs = JobSet(arrival=[0.0, 0.0], processing=[1.0, 1.0], demand=[[0.5], [d2]])
    rep = check_nonpreemptive_run(_result(jobs, [0.0, 0.0]))
    assert rep.ok != over


def test_the_checker_stays_fast_and_right_on_engine_runs():
    rng = np.random.default_rng(3)
    n = 3000
    jobs = JobSet(arrival=np.sort(rng.uniform(0, 500, n)), processing=rng.uniform(1, 9, n),
                  demand=np.round(rng.uniform(0.05, 0.5, (n, 2)), 2))
    mach = Machines(np.ones((4, 2)))
    for name in ("mris", "pq-wsjf", "tetris"):
        r = run_nonpreemptive(P.make_policy(name), jobs, mach)
        assert r.invariants_ok, r.invariants
        stacked = dataclasses.replace(r, machine=np.zeros(n, np.int64))
        assert not check_nonpreemptive_run(stacked).ok


# -- the Python API validates like the CLI ------------------------------------------------

@pytest.mark.parametrize("k, words", [(0, "k must be"), (-3, "k must be"),
                                      (float("nan"), "k must be"), ("2", "k must be"),
                                      (float("inf"), "k must be")])
def test_run_nonpreemptive_refuses_a_bad_k(k, words):
    with pytest.raises(ValueError, match=words):
        run_nonpreemptive(P.make_policy("pq-wsjf"), _pair(0.0), ONE, k=k)


def test_run_nonpreemptive_refuses_other_bad_arguments():
    with pytest.raises(TypeError, match="check must be True or False"):
        run_nonpreemptive(P.make_policy("pq-wsjf"), _pair(0.0), ONE, check="no")
    with pytest.raises(ValueError, match="engine must be one of"):
        run_nonpreemptive(P.make_policy("pq-wsjf"), _pair(0.0), ONE, engine=["python"])
    r = run_nonpreemptive(P.make_policy("pq-wsjf"), _pair(0.0), ONE, k=1)
    assert r.k == 1.0 and r.flowtime_lk() == 3.0  # flowtimes 1 and 2


def test_flowtime_lk_of_huge_flowtimes_does_not_overflow():
    """Flowtimes of 1e200: F^2 overflows; the l_2 norm itself is 1e200 sqrt(2)."""
    jobs = JobSet(arrival=[0.0, 0.0], processing=[1e200, 1e200], demand=[[0.5], [0.5]])
    r = run_nonpreemptive(P.make_policy("pq-wsjf"), jobs, ONE)
    assert r.flowtime_lk() == pytest.approx(1e200 * np.sqrt(2), rel=1e-12)
    assert r.flowtime_lk(3) == pytest.approx(1e200 * 2 ** (1 / 3), rel=1e-12)
    assert r.summary()["flowtime_lk"] == pytest.approx(1e200 * np.sqrt(2), rel=1e-12)


# -- MRIS's gamma_0 and knapsack, TETRIS's eps --------------------------------------------

def _weighted(seed: int, n: int, scale: float = 1.0) -> JobSet:
    rng = np.random.default_rng(seed)
    return JobSet(arrival=np.sort(rng.integers(0, 40, n)) * scale,
                  processing=rng.integers(1, 9, n) * scale,
                  demand=np.round(rng.uniform(0.05, 0.6, (n, 2)), 2),
                  weight=rng.integers(1, 5, n).astype(float))


def test_mris_gamma0_defaults_to_the_smallest_processing_time():
    """FL24 Sec. 3 scales p by p_min and sets gamma_k = 2^k: in the input's units
    gamma_0 = p_min, so MRIS's schedule does not depend on the time unit. Scaling every
    time by 1/8 (exact) scales the schedule by 1/8; with gamma_0 = 1 it did not (every
    job would wait for gamma_0 = 1)."""
    mach = Machines(np.ones((2, 2)))
    base = run_nonpreemptive(MRIS(), _weighted(0, 60), mach)
    small = run_nonpreemptive(MRIS(), _weighted(0, 60, 1 / 8), mach)
    assert base.params["gamma0"] == 1.0 and small.params["gamma0"] == 0.125
    assert small.params["gamma0_from"] == "p_min"
    assert np.array_equal(small.start * 8, base.start)
    assert np.array_equal(small.machine, base.machine)
    # a variant on another instance and unit (times x 3/64: p_min = 3/64)
    other = run_nonpreemptive(P.make_policy("mris-greedy"), _weighted(5, 40), mach)
    scaled = run_nonpreemptive(P.make_policy("mris-greedy"), _weighted(5, 40, 3 / 64),
                               mach)
    assert scaled.params["gamma0"] == 3 / 64
    assert np.allclose(scaled.start * 64 / 3, other.start, rtol=1e-15)


def test_a_given_gamma0_is_kept_and_recorded():
    r = run_nonpreemptive(MRIS(gamma0=1.0), _weighted(0, 30, 1 / 8), Machines(np.ones((2,
                                                                                      2))))
    assert r.params["gamma0"] == 1.0 and r.params["gamma0_from"] == "given"
    assert r.start.min() >= 1.0  # nothing before gamma_0


def test_mris_picks_the_split_knapsack_above_cadps_budget(monkeypatch):
    """The default knapsack runs CADP while its table fits the budget and the split
    knapsack (CADP's guarantee) above it, recording which; knapsack='cadp', or an
    explicit max_dp_cells, keeps CADP and its refusal. (Budget lowered to 20,000 cells:
    the 64,000-job case is the slow test below.)"""
    import capacity.volume_knapsack as vk

    monkeypatch.setattr(vk, "MAX_DP_CELLS", 20_000)
    jobs, mach = _weighted(1, 120), Machines(np.ones((2, 2)))
    r = run_nonpreemptive(MRIS(), jobs, mach)
    assert r.invariants_ok and "split" in r.params["knapsack_used"]
    used = {it["knapsack"] for it in r.extra["iterations"]}
    assert used == set(r.params["knapsack_used"]) and r.params["knapsack"] == "auto"
    with pytest.raises(BudgetExceeded, match="mris-split"):
        run_nonpreemptive(MRIS(knapsack="cadp"), jobs, mach)
    with pytest.raises(BudgetExceeded, match="max_dp_cells"):
        run_nonpreemptive(MRIS(max_dp_cells=20_000), jobs, mach)
    # where every table fits, "auto" is CADP: the same schedule as knapsack="cadp"
    monkeypatch.setattr(vk, "MAX_DP_CELLS", 5_000_000_000)
    auto = run_nonpreemptive(MRIS(), jobs, mach)
    cadp = run_nonpreemptive(MRIS(knapsack="cadp"), jobs, mach)
    assert auto.params["knapsack_used"] == ["cadp"]
    assert np.array_equal(auto.start, cadp.start)


@pytest.mark.slow
def test_mris_runs_fl24s_downsampled_scale_by_default():
    """64,000 weighted Azure-like jobs on 20 machines: CADP's table at gamma_12 would
    be about 9.7e9 cells, above its 5e9 budget; the default switches that interval to
    the split knapsack (a few seconds in all)."""
    from theory.readers.azure import azure2017_job_set

    n = 64_000
    w = np.random.default_rng(0).integers(1, 4, n).astype(float)
    jobs = azure2017_job_set(jobs=n, weights=w)
    r = run_nonpreemptive(MRIS(), jobs, Machines(np.ones((20, 2))))
    assert r.invariants_ok and r.params["knapsack_used"] == ["cadp", "split"]


def test_tetris_prefers_small_volumes_by_default():
    """FL24 7.2: TETRIS's jobs are 'sorted by SVF, selected by the alignment scores'.
    A free unit machine, A (demand 0.6, p 10: volume 6) and B (demand 0.45, p 1): the
    default eps = 1 starts B first, as the paper's TETRIS; eps = 0.1 let A's larger
    alignment win."""
    jobs = JobSet(arrival=[0.0, 0.0], processing=[10.0, 1.0], demand=[[0.6], [0.45]])
    r = run_nonpreemptive(P.make_policy("tetris"), jobs, ONE)
    assert r.start.tolist() == [1.0, 0.0] and r.params["eps"] == 1.0
    old = run_nonpreemptive(Tetris(eps=0.1), jobs, ONE)
    assert old.start.tolist() == [0.0, 10.0]
    # a variant with two resources: A (0.6, 0.5) for 8 against B (0.45, 0.45) for 2
    two = JobSet(arrival=[0.0, 0.0], processing=[8.0, 2.0], demand=[[0.6, 0.5],
                                                                  [0.45, 0.45]])
    r = run_nonpreemptive(P.make_policy("tetris"), two, Machines([[1.0, 1.0]]))
    assert r.start.tolist() == [2.0, 0.0]
    with pytest.raises(ValueError, match="eps must be"):
        Tetris(eps=float("inf"))
