"""The XLL21 slotted preemptive family: engine, invariants, policies."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.invariants import check_preemptive_run
from policies.preemptive import (
    OCORP,
    OCORPM,
    SRF,
    SRPT,
    SRVF,
    SVF,
    Allocation,
    Fair,
    PreemptivePolicy,
    TransientSVF,
    run_schedule,
)
from theory.budgets import BudgetExceeded
from theory.fractional_flowtime import flowtimes, fractional_flowtimes
from theory.job_sets import JobSet, Machines
from theory.slot_allocation import lemma1_rates, lemma2_rates

#: XLL21 Example 1 in integers: demand 0.9 of a machine = 18 of 20 cores
EXAMPLE1 = JobSet([0, 0, 0], [1, 2, 3], [[18, 1], [18, 1], [18, 1]])
ONE_MACHINE = Machines([[20, 4]])
ALL = [Fair, SRPT, SRVF, SVF, SRF, TransientSVF, OCORP, OCORPM]


def test_fair_reproduces_example1_and_table1():
    r = run_schedule(Fair(), EXAMPLE1, ONE_MACHINE, k=1)
    assert r.flowtime.tolist() == [3, 5, 6]
    assert r.fractional == pytest.approx([3, 5.25, 7 + 1 / 6])
    y = r.rates()
    assert y[:, :3] == pytest.approx(np.full((3, 3), 1 / 3))  # Table I, slots 1-3
    assert y[1:, 3:5] == pytest.approx(np.full((2, 2), 1 / 2))
    # the engine's running sums agree with the formulas on its rates
    assert fractional_flowtimes(y, [0, 0, 0], [1, 2, 3], 1) == pytest.approx(r.fractional)
    assert flowtimes(y, [0, 0, 0], [1, 2, 3]).tolist() == [3, 5, 6]


def small_instances(memory: bool):
    n = st.integers(1, 6)
    return n.flatmap(lambda k: st.tuples(
        st.lists(st.integers(0, 4), min_size=k, max_size=k),
        st.lists(st.integers(1, 4), min_size=k, max_size=k),
        st.lists(st.integers(1, 5), min_size=k, max_size=k),
        st.lists(st.integers(0, 3 if memory else 0), min_size=k, max_size=k),
        st.lists(st.tuples(st.integers(5, 8), st.integers(3, 6)), min_size=1, max_size=3)))


@settings(max_examples=40, deadline=None)
@given(small_instances(memory=True), st.sampled_from(ALL), st.booleans())
def test_every_policy_finishes_with_its_invariants(inst, policy, memory):
    a, p, d, m, machines = inst
    jobs = JobSet(a, p, np.column_stack([d, m]))
    r = run_schedule(policy(), jobs, Machines(machines), k=2,
                     memory=memory and policy.uses_memory)
    assert r.invariants_ok, r.invariants
    assert not r.stopped and np.all(r.completion > jobs.arrival)
    assert np.all(r.flowtime >= jobs.processing)  # nobody beats full rate


def test_invariant_checker_catches_a_tampered_record():
    r = run_schedule(SRPT(), EXAMPLE1, ONE_MACHINE)
    job, machine, cores, slot = r.record
    for tampered in ((job, machine, cores * 2, slot), (job, machine, cores, slot + 1),
                     (job, machine, cores, slot - 1), (job[1:], machine[1:], cores[1:], slot[1:])):
        bad = dataclasses.replace(r, record=tampered)
        assert not check_preemptive_run(bad).ok


class _Broken(PreemptivePolicy):
    name = "broken"
    uses_memory = True

    def __init__(self, how: str):
        self.how = how

    def allocate(self, view):
        u = np.zeros((view.n, len(view.machine_cores)), dtype=np.int64)
        if self.how == "over":
            u[:, 0] = view.cores
            return Allocation(u * 10)
        if self.how == "float":
            return Allocation(u + 0.5)
        if self.how == "shape":
            return Allocation(u[:, :0])
        if self.how == "nomem":
            u[0, 0] = 1
            return Allocation(u, np.zeros_like(u))
        if self.how == "memory":
            return Allocation(u, np.ones_like(u))
        return u  # not an Allocation


@pytest.mark.parametrize(("how", "words"), [
    ("over", "(4b)"), ("float", "integers"), ("shape", "shape"), ("nomem", "memory"),
    ("memory", "(4c)"), ("raw", "Allocation")])
def test_a_broken_policy_is_named_with_the_slot(how, words):
    jobs = JobSet([0, 0], [1, 1], [[2, 3], [2, 3]])
    with pytest.raises((ValueError, TypeError), match=r"broken, slot 1") as e:
        run_schedule(_Broken(how), jobs, Machines([[4, 4]]), memory=True)
    assert words in str(e.value)


def test_ocorp_slot_is_lemma1_and_transient_slot_is_lemma2():
    jobs = JobSet([0, 0, 0, 0], [5, 6, 7, 8], [[3, 0], [4, 0], [2, 0], [4, 0]])
    mach = Machines([[4, 9], [3, 9]])

    class Spy(OCORP):
        def allocate(self, view):
            alloc = super().allocate(view)
            if view.remaining.min() >= 1:
                coeff = view.weights() - self._before
                y = lemma1_rates(coeff, view.cores, view.machine_cores.sum())
                assert alloc.cores.sum(axis=1) == pytest.approx(y * view.cores)
            return alloc

        def coefficients(self, view):
            self._before = self.lam[view.index].copy()
            return super().coefficients(view)

    run_schedule(Spy(), jobs, mach, memory=False)

    class Spy2(TransientSVF):
        def allocate(self, view):
            alloc = super().allocate(view)
            y = lemma2_rates(view.processing, view.remaining, view.cores,
                             view.machine_cores.sum())
            assert alloc.cores.sum(axis=1) == pytest.approx(y * view.cores)
            return alloc

    run_schedule(Spy2(), jobs, mach, memory=False)


def test_ocorp_m_without_binding_memory_serves_like_ocorp():
    rng = np.random.default_rng(4)
    jobs = JobSet(rng.integers(0, 5, 12), rng.integers(1, 6, 12),
                  np.column_stack([rng.integers(1, 6, 12), np.ones(12)]))
    mach = Machines([[8, 100], [6, 100]])
    a = run_schedule(OCORP(), jobs, mach, memory=False)
    b = run_schedule(OCORPM(), jobs, mach, memory=True)
    assert a.completion.tolist() == b.completion.tolist()


def test_srpt_on_one_machine_that_holds_one_job():
    jobs = JobSet([0, 0, 1], [3, 1, 1], [[2], [2], [2]])
    r = run_schedule(SRPT(), jobs, Machines([[2]]))
    # slot 1: job 1 (p=1); slot 2: job 2 arrived at 1 (p=1); then job 0
    assert r.completion.tolist() == [5, 1, 2] and r.preemptions.sum() == 0


def test_stopped_run_and_budget():
    jobs = JobSet([0], [5], [[1]])
    r = run_schedule(SRPT(), jobs, Machines([[1]]), max_slots=2)
    assert r.stopped and r.summary()["unfinished"] == 1
    with pytest.raises(BudgetExceeded, match="memory_budget"):
        run_schedule(SRPT(), jobs, Machines([[1]]), memory_budget=10)


@pytest.mark.parametrize(("policy", "resources", "kw", "words"), [
    (SRPT(), 1, {"k": 0.5}, "k must be"),
    (SRPT(), 1, {"memory": True}, "second resource"),
    (TransientSVF(), 2, {"memory": True}, "memory=False"),
    (SRPT(), 1, {"max_slots": 0}, "max_slots")])
def test_bad_arguments(policy, resources, kw, words):
    jobs = JobSet([0], [1], [[1] * resources])
    with pytest.raises(ValueError, match=words):
        run_schedule(policy, jobs, Machines([[1] * resources]), **kw)


def test_non_integer_jobs_and_oversized_jobs_are_refused():
    with pytest.raises(ValueError, match="integer"):
        run_schedule(SRPT(), JobSet([0], [1.5], [[1]]), Machines([[1]]))
    with pytest.raises(ValueError, match="fits no machine"):
        run_schedule(SRPT(), JobSet([0], [1], [[3]]), Machines([[2]]))
    with pytest.raises(TypeError, match="PreemptivePolicy"):
        run_schedule("srpt", JobSet([0], [1], [[1]]), Machines([[1]]))  # type: ignore[arg-type]


def test_mapreduce_reduce_phase_waits_for_its_map_phase():
    from policies.preemptive import OCORPMapReduce
    from theory.mapreduce import MapReduceJobs

    rng = np.random.default_rng(1)
    n = 12
    mr = MapReduceJobs(np.sort(rng.integers(0, 20, n)), rng.integers(1, 4, n),
                       rng.integers(1, 3, n), rng.integers(1, 5, n), rng.integers(1, 3, n),
                       rng.integers(1, 3, n), rng.integers(1, 4, n))
    jobs, after = mr.dummy_jobs()
    for policy in (OCORPMapReduce(mr), SRVF()):
        r = run_schedule(policy, jobs, Machines([[12], [6]]), after=after)
        c = r.completion.reshape(-1, 2)
        assert r.invariants_ok and np.all(c[:, 1] >= c[:, 0] + mr.reduce_time)
    # the record checker catches a reduce slot moved before its map completed
    job, machine, cores, slot = r.record
    moved = slot.copy()
    first_reduce = np.flatnonzero(job % 2 == 1)[0]
    moved[first_reduce] = r.completion[job[first_reduce] - 1]
    tampered = dataclasses.replace(r, record=(job, machine, cores, moved))
    assert not check_preemptive_run(tampered).ok


@pytest.mark.parametrize(("after", "words"), [
    ([1, 0], "cycle"), ([0, -1], "another job"), ([5, -1], "another job"), ([0.5, 1], "integers")])
def test_bad_precedence(after, words):
    with pytest.raises(ValueError, match=words):
        run_schedule(SRPT(), JobSet([0, 0], [1, 1], [[1], [1]]), Machines([[2]]),
                     after=np.array(after))


def test_mapreduce_jobs_validate():
    from theory.mapreduce import MapReduceJobs

    with pytest.raises(ValueError, match="integers >= 1"):
        MapReduceJobs([0], [0], [1], [1], [1], [1], [1])
    with pytest.raises(ValueError, match="of 1"):
        MapReduceJobs([0], [1, 2], [1], [1], [1], [1], [1])
    with pytest.raises(TypeError, match="MapReduceJobs"):
        from policies.preemptive import OCORPMapReduce
        OCORPMapReduce("jobs")  # type: ignore[arg-type]


def test_declared_demands_drive_allocation_true_demands_drive_progress():
    jobs = JobSet([0], [4], [[4]])
    # told 2 cores: 2 of its 4 per slot; after 7 slots half a slot of work is left,
    # which the scheduler believes needs 2 x 0.5 = 1 core: it finishes in slot 9
    r = run_schedule(SRPT(), jobs, Machines([[8]]), declared=np.array([[2]]))
    assert r.completion.tolist() == [9] and r.invariants_ok
    # told 8: it gets 8 cores, uses 4, finishes in 4 slots
    r = run_schedule(SRPT(), jobs, Machines([[8]]), declared=np.array([[8]]))
    assert r.completion.tolist() == [4] and r.invariants_ok
    with pytest.raises(ValueError, match="fits no machine"):
        run_schedule(SRPT(), jobs, Machines([[8]]), declared=np.array([[9]]))
    with pytest.raises(ValueError, match="at least one core"):
        run_schedule(SRPT(), jobs, Machines([[8]]), declared=np.array([[0]]))


def test_ocorp_plus_completes_and_switches_less_with_alpha():
    from policies.preemptive import OCORPPlus

    rng = np.random.default_rng(5)
    jobs = JobSet(np.sort(rng.integers(0, 10, 10)), rng.integers(1, 6, 10),
                  rng.integers(1, 4, 10)[:, None])
    mach = Machines([[4], [3]])
    runs = {a: run_schedule(OCORPPlus(alpha=a), jobs, mach) for a in (0.0, 1e6)}
    assert all(r.invariants_ok and not r.stopped for r in runs.values())
    assert runs[1e6].preemptions.sum() + runs[1e6].migrations.sum() <= \
        runs[0.0].preemptions.sum() + runs[0.0].migrations.sum()
    with pytest.raises(ValueError, match="alpha"):
        OCORPPlus(alpha=-1)


def test_frames():
    pd = pytest.importorskip("pandas")
    r = run_schedule(Fair(), EXAMPLE1, ONE_MACHINE, k=1)
    jobs, slots = r.to_frame("jobs"), r.to_frame("steps")
    assert isinstance(jobs, pd.DataFrame) and jobs["flowtime"].tolist() == [3, 5, 6]
    assert len(slots) == r.slots


def test_ocorp_records_the_gamma_and_step_it_ran_with():
    import policies as P
    from theory import JobSet, Machines

    jobs = JobSet(arrival=[0, 0, 0], processing=[1, 2, 3], demand=[[18], [18], [18]])
    default = P.run("ocorp", jobs, Machines([[20]]), k=2)
    assert default.params["step"] == "t^(k+0.5)"
    assert default.params["gamma"] > max(jobs.arrival)  # eq. (27)'s value, not a label
    given = P.run(P.preemptive.OCORPPlus(gamma=50.0, alpha=3.0), jobs, Machines([[20]]), k=2)
    assert (given.params["gamma"], given.params["alpha"]) == (50.0, 3.0)


def test_the_memory_refusal_names_only_real_policies():
    import policies as P
    from theory import JobSet, Machines

    jobs = JobSet(arrival=[0], processing=[1], demand=[[1, 1]])
    with pytest.raises(ValueError, match="models memory") as err:
        P.run("ocorp", jobs, Machines([[2, 2]]), k=2)
    assert "(fair, " in str(err.value) and "policy," not in str(err.value)
