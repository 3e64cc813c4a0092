"""FL24's non-preemptive family: profiles, list scheduling, the policies, invariants."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import policies as P
from packsched.cli import main
from policies.invariants import check_nonpreemptive_run
from policies.nonpreemptive import (
    MachineProfiles,
    NonPreemptivePolicy,
    PriorityQueue,
    ScheduleState,
    list_schedule,
    run_nonpreemptive,
)
from policies.nonpreemptive import engine as np_engine
from policies.registry import policies_of
from theory.job_sets import JobSet, Machines

FL24 = policies_of("fl24-nonpreemptive")
ONLINE = [n for n in FL24 if n.startswith("pq-") or n in ("tetris", "bf-exec")]


def _random(seed: int, n: int = 40, R: int = 2, M: int = 3) -> tuple[JobSet, Machines]:
    rng = np.random.default_rng(seed)
    jobs = JobSet(arrival=np.sort(rng.uniform(0, 20, n)), processing=rng.uniform(1, 8, n),
                  demand=rng.uniform(0.05, 0.8, (n, R)), weight=rng.integers(1, 5, n))
    return jobs, Machines(np.ones((M, R)))


def _lemma41(n: int, eps: float = 0.01) -> JobSet:
    """FL24 Lemma 4.1: a full-machine job of length p = n at 0, then n - 1 unit jobs of
    demand 1/(n - 1) at eps."""
    return JobSet(arrival=[0.0] + [eps] * (n - 1), processing=[float(n)] + [1.0] * (n - 1),
                  demand=[[1.0]] + [[1.0 / (n - 1)]] * (n - 1))


# -- profiles ---------------------------------------------------------------------------

def test_profile_fits_adds_and_prunes():
    pr = MachineProfiles(np.ones((2, 1)))
    pr.add(0, 2.0, 3.0, np.array([0.6]))  # [2, 5)
    assert pr.fits(0, 0.0, 2.0, np.array([1.0]))  # ends exactly when it starts
    assert not pr.fits(0, 0.0, 2.5, np.array([0.5]))
    assert pr.fits(0, 0.0, 10.0, np.array([0.4]))
    assert pr.fits(0, 5.0, 1.0, np.array([1.0]))
    assert pr.breakpoints(0).tolist() == [0.0, 2.0, 5.0]
    assert pr.next_breakpoint(2.0) == 5.0 and pr.changes_at(5.0) == [0]
    pr.prune(3.0)
    assert pr.breakpoints(0).tolist() == [3.0, 5.0]
    assert pr.usage_at(0, 3.0).tolist() == [0.6]
    with pytest.raises(ValueError, match="before"):
        pr.fits(0, 1.0, 1.0, np.array([0.1]))


def test_profile_grows_past_its_room():
    pr = MachineProfiles(np.ones((1, 2)), room=2)
    for k in range(50):
        pr.add(0, float(k), 0.5, np.array([0.5, 0.1]))
    assert pr.breakpoints(0).size == 100  # 0, 0.5, ..., 49.5
    assert not pr.fits(0, 10.0, 1.0, np.array([0.6, 0.0]))
    assert pr.fits(0, 10.5, 0.5, np.array([1.0, 1.0]))


def test_list_schedule_backfills_into_a_gap():
    """A planned job at [4, 6) leaves [0, 4) free: a 3-long job fits before it; a 5-long
    full job must wait until 6."""
    jobs = JobSet(arrival=[0, 0, 0], processing=[2, 3, 5], demand=[[1.0], [1.0], [1.0]])
    st = ScheduleState(jobs, Machines([[1.0]]))
    st.queue = [0, 1, 2]
    st.t = 0.0
    st.place(0, 0, 4.0)  # planned ahead
    list_schedule(st, [2, 1], 0.0)
    assert st.start.tolist() == [4.0, 0.0, 6.0]


# -- policies ---------------------------------------------------------------------------

def test_pq_by_hand():
    """Machine (1, 1); a (0.5, 0.2) at 0 for 3; b (0.6, 0.6) at 0.5; c (0.3, 0.9) at 1.
    WSJF: b waits for a (3), c for b (4): sum w C = 3 + 2 * 4 + 6 = 17."""
    jobs = JobSet(arrival=[0, 0.5, 1], processing=[3, 1, 2], weight=[1, 2, 1],
                  demand=[[0.5, 0.2], [0.6, 0.6], [0.3, 0.9]])
    r = run_nonpreemptive(P.make_policy("pq-wsjf"), jobs, Machines([[1.0, 1.0]]))
    assert r.start.tolist() == [0.0, 3.0, 4.0]
    assert r.weighted_completion == 17.0 and r.awct == pytest.approx(17 / 3)
    assert r.makespan == 6.0 and r.invariants_ok


@pytest.mark.parametrize("n", [5, 10, 20])
def test_lemma41_pq_pays_its_bound(n):
    """PQ starts the big job at 0: sum C = p + (n - 1)(p + 1) exactly (FL24 Lemma 4.1)."""
    for name in ("pq-wsjf", "pq-erf", "tetris", "bf-exec"):
        r = run_nonpreemptive(P.make_policy(name), _lemma41(n), Machines([[1.0]]))
        assert r.weighted_completion == n + (n - 1) * (n + 1), name


@pytest.mark.parametrize("name", FL24)
@pytest.mark.parametrize("seed", [0, 1])
def test_every_policy_gives_a_valid_schedule(name, seed):
    jobs, mach = _random(seed)
    r = run_nonpreemptive(P.make_policy(name), jobs, mach)
    assert r.invariants_ok, r.invariants
    assert np.all(r.start >= jobs.arrival) and np.all(r.decided <= r.start)
    if name in ONLINE:  # no planning ahead: every job starts when it is decided
        assert np.array_equal(r.start, r.decided)
    s = r.summary()
    assert s["awct"] == pytest.approx(np.sum(jobs.weight * r.completion) / jobs.n)
    assert s["preemptions"] == 0 and s["jobs"] == jobs.n


def test_ca_pq_waits_for_the_last_release():
    jobs, mach = _random(3)
    r = run_nonpreemptive(P.make_policy("ca-pq"), jobs, mach)
    assert r.start.min() >= jobs.arrival.max()


def test_sorts_order_the_queue():
    """One machine, all released at 0, each job needs the whole machine: PQ runs them
    one at a time in its sort order."""
    jobs = JobSet(arrival=[0, 0, 0], processing=[3, 1, 2], weight=[1, 1, 6],
                  demand=[[1.0], [1.0], [1.0]])
    order = {}
    for sort in ("sjf", "wsjf", "erf"):
        r = run_nonpreemptive(P.make_policy(f"pq-{sort}"), jobs, Machines([[1.0]]))
        order[sort] = np.argsort(r.start).tolist()
    assert order == {"sjf": [1, 2, 0], "wsjf": [2, 1, 0], "erf": [0, 1, 2]}


# -- invariants -------------------------------------------------------------------------

def _tampered(r, **fields):
    import dataclasses

    return dataclasses.replace(r, **fields)


def test_invariants_catch_broken_schedules():
    jobs, mach = _random(4, n=20)
    r = run_nonpreemptive(P.make_policy("pq-wsjf"), jobs, mach)
    assert check_nonpreemptive_run(r).ok
    early = r.start.copy()
    early[5] = jobs.arrival[5] - 1.0
    assert not check_nonpreemptive_run(_tampered(r, start=early)).ok
    stacked = np.zeros(jobs.n, dtype=np.int64)  # everything on machine 0
    rep = check_nonpreemptive_run(_tampered(r, machine=stacked))
    assert not rep.ok and "over capacity" in rep.violations[0]
    lost = r.machine.copy()
    lost[0] = -1
    assert not check_nonpreemptive_run(_tampered(r, machine=lost)).ok
    late = r.decided.copy()
    late[3] = r.start[3] + 1.0  # decided after it started: a job started in the past
    assert not check_nonpreemptive_run(_tampered(r, decided=late)).ok


def test_invariants_accept_the_rounding_of_late_short_jobs():
    """C_j = S_j + p_j in floats: a 0.3-long job starting near 1e5 has C_j - S_j off p_j
    by 1e-11 relative (found at 256,000 Azure jobs under pq-erf)."""
    jobs = JobSet(arrival=[123456.7, 123456.7], processing=[0.3, 0.1], demand=[[1.0], [1.0]])
    r = run_nonpreemptive(P.make_policy("pq-erf"), jobs, Machines([[1.0]]))
    assert abs((r.completion[0] - r.start[0]) - 0.3) > 1e-12 * 0.3
    assert r.invariants_ok


def test_a_policy_cannot_break_the_rules():
    class Cheat(NonPreemptivePolicy):
        def decide(self, state):  # noqa: ANN001
            for j in list(state.queue):
                state.place(j, 0)  # ignores capacity

    jobs = JobSet(arrival=[0, 0], processing=[1, 1], demand=[[0.7], [0.7]])
    with pytest.raises(RuntimeError, match="does not fit"):
        run_nonpreemptive(Cheat(), jobs, Machines([[1.0]]))

    class Lazy(NonPreemptivePolicy):
        name = "lazy"

    with pytest.raises(RuntimeError, match="lazy stalled"):
        run_nonpreemptive(Lazy(), jobs, Machines([[1.0]]))


# -- bad input and CLI ------------------------------------------------------------------

def test_bad_input():
    jobs = JobSet(arrival=[0], processing=[1], demand=[[0.5, 0.5]])
    with pytest.raises(ValueError, match="resource"):
        run_nonpreemptive(P.make_policy("pq-wsjf"), jobs, Machines([[1.0]]))
    with pytest.raises(ValueError, match="fits no machine"):
        run_nonpreemptive(P.make_policy("pq-wsjf"), JobSet(arrival=[0], processing=[1],
                                                          demand=[[1.5]]), Machines([[1.0]]))
    with pytest.raises(ValueError, match="eps"):
        P.make_policy("mris", eps=1.5)
    with pytest.raises(ValueError, match="sort"):
        P.make_policy("ca-pq", sort="random")
    with pytest.raises(ValueError):
        JobSet(arrival=[0], processing=[0], demand=[[0.5]])
    with pytest.raises(ValueError):
        JobSet(arrival=[0], processing=[1], weight=[-1], demand=[[0.5]])


def _files(tmp_path, jobs_text: str, cluster_text: str):
    j, c = tmp_path / "jobs.csv", tmp_path / "cluster.csv"
    j.write_text(jobs_text)
    c.write_text(cluster_text)
    return str(j), str(c)


def test_cli_schedule(tmp_path, capsys):
    j, c = _files(tmp_path, "id,arrival,processing,weight,demand_0,demand_1\n"
                  "a,0,3,1,0.5,0.2\nb,0.5,1,2,0.6,0.6\nc,1,2,1,0.3,0.9\n",
                  "id,capacity_0,capacity_1\nm0,1,1\n")
    assert main(["schedule", "--policy", "pq-wsjf", "--jobs", j, "--cluster", c,
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["weighted_completion"] == 17.0 and out["completion"] == [3.0, 4.0, 6.0]
    assert math.isclose(out["awct"], 17 / 3) and out["invariants_ok"] is True
    assert main(["schedule", "--policy", "tetris", "--jobs", j, "--cluster", c,
                 "--memory"]) == 2
    assert "--memory" in capsys.readouterr().err
    assert main(["schedule", "--policy", "fair", "--jobs", j, "--cluster", c,
                 "--eps", "0.2"]) == 2
    assert "--eps" in capsys.readouterr().err
    j2, _ = _files(tmp_path, "id,arrival,processing,weight,demand_0,demand_1\n"
                   "a,0,3,1,1.5,0.2\n", "id,capacity_0,capacity_1\nm0,1,1\n")
    assert main(["schedule", "--policy", "bf-exec", "--jobs", j2, "--cluster", c]) == 2
    assert "fits no machine" in capsys.readouterr().err


def test_cli_optimum_fl24(tmp_path, capsys):
    """The optimum delays the long job a (patience): b, c, a completes at 2, 4, 7."""
    j, c = _files(tmp_path, "id,arrival,processing,weight,demand_0,demand_1\n"
                  "a,0,3,1,0.5,0.2\nb,1,1,2,0.6,0.6\nc,1,2,1,0.3,0.9\n",
                  "id,capacity_0,capacity_1\nm0,1,1\n")
    assert main(["optimum", "--jobs", j, "--cluster", c, "--objective",
                 "weighted-completion", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"] == 15.0 and out["status"] == "optimal" and out["certified"]
    assert out["completion"] == [7.0, 2.0, 4.0] and out["awct"] == 5.0
    assert main(["optimum", "--jobs", j, "--cluster", c, "--objective", "makespan",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == 6.0
    assert main(["optimum", "--jobs", j, "--cluster", c, "--objective", "makespan",
                 "--memory"]) == 2
    j2, _ = _files(tmp_path, "id,arrival,processing,weight,demand_0,demand_1\n"
                   "a,0.5,3,1,0.5,0.2\n", "id,capacity_0,capacity_1\nm0,1,1\n")
    assert main(["optimum", "--jobs", j2, "--cluster", c, "--objective",
                 "weighted-completion"]) == 2
    assert "integer release" in capsys.readouterr().err


@pytest.mark.parametrize("rows, words", [
    ("", "no jobs"),
    ("a,0,0,1,0.5,0.2\n", "processing"),
    ("a,0,1,-1,0.5,0.2\n", "weight"),
    ("a,0,1,1,1.2,0.2\n", "fits no machine"),
    ("a,0,1,1,-0.1,0.2\n", "demand"),
])
def test_cli_bad_fl24_files_exit_2(tmp_path, capsys, rows, words):
    j, c = _files(tmp_path, "id,arrival,processing,weight,demand_0,demand_1\n" + rows,
                  "id,capacity_0,capacity_1\nm0,1,1\n")
    assert main(["schedule", "--policy", "mris", "--jobs", j, "--cluster", c]) == 2
    assert words in capsys.readouterr().err


def test_cli_wrong_dimension_and_eps(tmp_path, capsys):
    j, c = _files(tmp_path, "id,arrival,processing,weight,demand_0\na,0,1,1,0.5\n",
                  "id,capacity_0,capacity_1\nm0,1,1\n")
    assert main(["schedule", "--policy", "pq-wsjf", "--jobs", j, "--cluster", c]) == 2
    assert "same resources" in capsys.readouterr().err
    j, c = _files(tmp_path, "id,arrival,processing,weight,demand_0\na,0,1,1,0.5\n",
                  "id,capacity_0\nm0,1\n")
    assert main(["schedule", "--policy", "mris", "--eps", "1.5", "--jobs", j,
                 "--cluster", c]) == 2
    assert "eps must lie in (0, 1)" in capsys.readouterr().err


def test_mris_cadp_budget_names_the_way_out(tmp_path, capsys):
    """Literal CADP is O(n^2/eps) per interval: above its budget MRIS refuses, naming the
    budget and mris-split (same guarantee); the CLI names --max-dp-cells, exit 2."""
    jobs, mach = _random(5, n=60)
    with pytest.raises(ValueError, match="mris-split"):
        run_nonpreemptive(P.make_policy("mris", max_dp_cells=10), jobs, mach)
    assert run_nonpreemptive(P.make_policy("mris-split"), jobs, mach).invariants_ok
    j, c = _files(tmp_path, "id,arrival,processing,weight,demand_0\n"
                  + "".join(f"j{i},0,1,{1 + i % 3},0.3\n" for i in range(30)),
                  "id,capacity_0\nm,1\n")
    assert main(["schedule", "--policy", "mris", "--max-dp-cells", "5", "--jobs", j,
                 "--cluster", c]) == 2
    assert "--max-dp-cells" in capsys.readouterr().err


@pytest.mark.parametrize("sort", ["wsjf", "erf", "svf", "wsdf"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_compiled_pq_gives_the_same_schedule(sort, seed):
    """The numba loop of online PQ against the Python engine: equal starts and machines
    (integer times: many ties between releases and completions)."""
    _compare_engines(f"pq-{sort}", "pq-erf" if sort != "erf" else "pq-wsjf", seed)


@pytest.mark.parametrize("name", ["tetris", "bf-exec"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_compiled_packing_baselines_give_the_same_schedule(name, seed):
    """TETRIS and BF-EXEC in numba against the Python engine; demands on a 0.05 grid, so
    many jobs share a demand vector (TETRIS scores only each group's best)."""
    _compare_engines(name, "pq-wsjf", seed)


def _compare_engines(name: str, other_name: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 400
    jobs = JobSet(arrival=np.sort(rng.integers(0, 60, n)).astype(float),
                  processing=rng.integers(1, 6, n).astype(float),
                  demand=np.round(rng.uniform(0.02, 0.7, (n, 3)), 2),
                  weight=rng.integers(1, 4, n).astype(float))
    if name in ("tetris", "bf-exec"):
        jobs = JobSet(arrival=jobs.arrival, processing=jobs.processing, weight=jobs.weight,
                      demand=np.round(jobs.demand * 20) / 20 + 0.05)
    mach = Machines(np.ones((3, 3)))
    ref = run_nonpreemptive(P.make_policy(name), jobs, mach, engine="python")
    fast = run_nonpreemptive(P.make_policy(name), jobs, mach, engine="compiled")
    assert np.array_equal(ref.start, fast.start) and np.array_equal(ref.machine, fast.machine)
    assert fast.invariants_ok and fast.params["engine"] == "compiled"
    other = run_nonpreemptive(P.make_policy(other_name), jobs, mach, engine="compiled")
    assert not np.array_equal(other.start, fast.start)  # the comparison can fail


def test_engine_choice(monkeypatch):
    jobs, mach = _random(7, n=30)
    # a small job set runs on the Python loop under "auto" (nothing to compile) ...
    assert np_engine.PYTHON_MAX_JOBS >= 30
    for name in ("pq-wsjf", "tetris", "bf-exec", "mris", "ca-pq"):
        assert run_nonpreemptive(P.make_policy(name), jobs, mach).params["engine"] == \
            "python"
    # ... a larger one on the compiled paths
    monkeypatch.setattr(np_engine, "PYTHON_MAX_JOBS", 29)
    assert run_nonpreemptive(P.make_policy("pq-wsjf"), jobs, mach).params["engine"] == \
        "compiled"
    for name in ("tetris", "bf-exec", "mris", "ca-pq"):
        assert run_nonpreemptive(P.make_policy(name), jobs, mach).params["engine"] == \
            "compiled"
    assert run_nonpreemptive(P.make_policy("mris"), jobs, mach,
                             engine="python").params["engine"] == "python"

    class SamePQ(PriorityQueue):  # redefines no hook: the numba loop runs it
        pass

    same = run_nonpreemptive(SamePQ(), jobs, mach)
    assert same.params["engine"] == "compiled"
    assert np.array_equal(same.start, run_nonpreemptive(SamePQ(), jobs, mach,
                                                        engine="python").start)

    class MyPQ(PriorityQueue):  # its own decide: only the Python loop calls it
        calls = 0

        def decide(self, state):
            type(self).calls += 1
            super().decide(state)

    assert run_nonpreemptive(MyPQ(), jobs, mach).params["engine"] == "python"
    assert MyPQ.calls > 0
    with pytest.raises(ValueError, match="compiled engine runs online PRIORITY-QUEUE"):
        run_nonpreemptive(MyPQ(), jobs, mach, engine="compiled")
    with pytest.raises(ValueError, match="engine must be one of"):
        run_nonpreemptive(P.make_policy("pq-wsjf"), jobs, mach, engine="numba")
