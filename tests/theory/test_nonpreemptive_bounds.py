"""FL24's closed-form bounds (theory.nonpreemptive_bounds): volumes (Sec. 5.1), the makespan
lower bound (Lemma 6.2), PQ's makespan bound (Lemma 6.3, with its one-machine proof and
a two-machine counterexample), the weighted-completion lower bound, and the inputs
refused."""

import doctest

import numpy as np
import pytest

import theory.nonpreemptive_bounds as nb
from theory.job_sets import JobSet, Machines
from theory.nonpreemptive_bounds import (
    check_identical_machines,
    job_volumes,
    makespan_lower_bound,
    normalised_demand,
    pq_makespan_bound,
    weighted_completion_lower_bound,
)


def unit(M, R):
    return Machines(np.ones((M, R)))


def offline_pq(p, d, M):
    """PRIORITY-QUEUE (FL24 Sec. 4) on jobs all released at 0, in index order: at every
    event (time 0, each completion) scan the queue and start each job on the first
    machine it fits now. Returns the makespan. Written here, apart from the policies."""
    p = np.asarray(p, dtype=float)
    d = np.asarray(d, dtype=float)
    queue = list(range(len(p)))
    running: list[tuple[float, int, int]] = []  # (end, machine, job)
    t, end = 0.0, 0.0
    while queue:
        for j in list(queue):
            for i in range(M):
                load = sum((d[k] for e, m, k in running if m == i), np.zeros(d.shape[1]))
                if np.all(load + d[j] <= 1 + 1e-12):
                    running.append((t + p[j], i, j))
                    end = max(end, t + p[j])
                    queue.remove(j)
                    break
        if queue:
            t = min(e for e, _, _ in running)
            running = [r for r in running if r[0] > t]
    return end


def test_doctests():
    assert doctest.testmod(nb).failed == 0


# ------------------------------------------------------------------------ volumes


def test_volumes_and_normalisation():
    jobs = JobSet([0, 1, 2], [2, 3, 1], [[0.5, 0.25], [1.0, 0.0], [0.1, 0.2]])
    assert job_volumes(jobs).tolist() == pytest.approx([1.5, 3.0, 0.3])
    assert job_volumes(jobs, unit(2, 2)).tolist() == pytest.approx([1.5, 3.0, 0.3])
    # identical machines of any capacity: demands are fractions of it
    cap = [8.0, 32.0]
    scaled = JobSet([0, 1, 2], [2, 3, 1], np.array([[0.5, 0.25], [1.0, 0.0], [0.1, 0.2]])
                    * cap)
    assert normalised_demand(scaled, Machines([cap, cap])) == pytest.approx(jobs.demand)
    assert job_volumes(scaled, Machines([cap] * 3)).tolist() == pytest.approx([1.5, 3.0, 0.3])
    assert check_identical_machines(Machines([cap, cap])).tolist() == cap


def test_refuses_what_fl24_does_not_model():
    with pytest.raises(ValueError, match="identical machines"):
        job_volumes(JobSet([0], [1], [[0.5]]), Machines([[1.0], [2.0]]))
    with pytest.raises(ValueError, match="fits no machine"):
        job_volumes(JobSet([0], [1], [[1.5]]))
    with pytest.raises(ValueError, match="fits no machine"):
        makespan_lower_bound(JobSet([0], [1], [[3.0, 1.0]]), Machines([[2.0, 2.0]]))
    with pytest.raises(ValueError, match="resource"):
        makespan_lower_bound(JobSet([0], [1], [[0.5]]), unit(1, 2))
    with pytest.raises(ValueError, match="JobSet"):
        weighted_completion_lower_bound([[0, 1]])
    with pytest.raises(ValueError, match="Machines"):
        makespan_lower_bound(JobSet([0], [1], [[0.5]]), [[1.0]])
    # a perfect fit is a fit
    assert job_volumes(JobSet([0], [2], [[1.0]]), unit(1, 1)).tolist() == [2.0]


# ----------------------------------------------------------------- makespan bounds


def test_makespan_lower_bound_parts():
    # V = 4 * 1 * (0.5 + 0.5) + 2 * 1 + 1 * 1 = 7 over R M = 4
    jobs = JobSet([0, 0, 0, 0, 3, 0], [1, 1, 1, 1, 2, 1],
                  [[0.5, 0.5]] * 4 + [[1.0, 0.0], [1.0, 0.0]])
    b = makespan_lower_bound(jobs, unit(2, 2))
    assert b.volume == pytest.approx((4 * 1.0 + 2 * 1.0 + 1.0) / 4)
    assert b.longest == 2 and b.release == 5
    assert b.value == 5 and b.binding == "release"
    # resource 0 alone: 4 * 0.5 + 2 + 1 = 5 over 2 machines
    assert b.resource_volume == pytest.approx(2.5)
    assert b.parts() == {"volume": b.volume, "longest": 2.0, "release": 5.0,
                         "resource_volume": b.resource_volume}
    heavy = JobSet(np.zeros(4), [3, 3, 3, 3], [[1.0, 0.0]] * 4)
    lemma = makespan_lower_bound(heavy, unit(1, 2))
    assert lemma.value == 6 and lemma.binding == "volume"  # V / (R M) = 12 / 2
    per = makespan_lower_bound(heavy, unit(1, 2), per_resource=True)
    assert per.value == 12 and per.binding == "resource_volume"


def test_makespan_lower_bound_below_feasible_schedules():
    """Every schedule's makespan is at least the bound: PQ's and the serial one."""
    rng = np.random.default_rng(62)
    for _ in range(200):
        n, R, M = int(rng.integers(1, 8)), int(rng.integers(1, 4)), int(rng.integers(1, 4))
        p = rng.integers(1, 6, n)
        d = rng.uniform(0.0, 1.0, (n, R)).round(2)
        d[d.max(axis=1) == 0, 0] = 0.3
        jobs = JobSet(np.zeros(n), p, d)
        b = makespan_lower_bound(jobs, unit(M, R), per_resource=True)
        assert b.value <= offline_pq(p, d, M) + 1e-9
        assert b.value <= p.sum()
        assert b.volume <= b.resource_volume + 1e-12


def test_pq_bound_formula_and_releases():
    jobs = JobSet(np.zeros(3), [3, 1, 2], [[0.5, 0.5], [1.0, 0.2], [0.25, 0.0]])
    b = pq_makespan_bound(jobs, unit(2, 2))
    V = 3 * 1.0 + 1 * 1.2 + 2 * 0.25
    assert b.longest == 6 and b.volume == pytest.approx(2 * V / 2)
    assert b.value == max(6, 2 * V / 2) and not b.proven
    assert pq_makespan_bound(jobs, unit(1, 2)).proven
    late = JobSet([0, 2], [1, 1], [[0.5], [0.5]])
    with pytest.raises(ValueError, match="released at 0.*ignore_release=True"):
        pq_makespan_bound(late, unit(1, 1))
    assert pq_makespan_bound(late, unit(1, 1), ignore_release=True).value == 2


@pytest.mark.parametrize("R", [1, 2, 3])
def test_lemma64_tight_family(R):
    """One machine, N jobs of length p, demand 1/2 + delta in resource 0: PQ runs them one
    at a time (makespan N p), and 2 V / M = N p (1 + 2 delta) -> N p."""
    n, p = 5, 3
    for delta in (0.1, 0.01, 1e-6):
        d = np.zeros((n, R))
        d[:, 0] = 0.5 + delta
        b = pq_makespan_bound(JobSet(np.zeros(n), np.full(n, p), d), unit(1, R))
        assert offline_pq(np.full(n, p), d, 1) == n * p
        assert b.volume == pytest.approx(n * p * (1 + 2 * delta))
        assert n * p <= b.value <= n * p * (1 + 2 * delta) + 1e-9
    # the trivial case: one job of demand 1/2, makespan p = 2 V / M
    one = pq_makespan_bound(JobSet([0], [p], [[0.5] + [0.0] * (R - 1)]), unit(1, R))
    assert one.volume == p and one.value == 2 * p


def test_lemma63_holds_on_one_machine():
    """The proof is sound for M = 1: PQ (any order) never exceeds max(2 p_max, 2 V)."""
    rng = np.random.default_rng(63)
    for _ in range(400):
        n, R = int(rng.integers(1, 9)), int(rng.integers(1, 4))
        p = rng.integers(1, 6, n)
        d = rng.choice([0.0, 0.1, 0.3, 0.45, 0.5, 0.55, 0.6, 0.9, 1.0], size=(n, R))
        d[d.max(axis=1) == 0, 0] = 0.5
        b = pq_makespan_bound(JobSet(np.zeros(n), p, d), unit(1, R))
        assert b.proven
        assert offline_pq(p, d, 1) <= b.value + 1e-9


def test_lemma63_fails_on_two_machines():
    """Erratum: with M = 2 PQ (shortest first, WSJF's order here) can exceed
    max(2 p_max, 2 V / M): makespan 7 > 6.2 (the optimum is 6, so 2 R C* still holds)."""
    p = [1, 1, 1, 3, 3, 3]
    d = [[0.2], [0.6], [0.6], [0.55], [0.5], [0.55]]
    b = pq_makespan_bound(JobSet(np.zeros(6), p, d), unit(2, 1))
    assert b.value == pytest.approx(6.2) and not b.proven
    assert offline_pq(p, d, 2) == 7
    # the optimum is 6 (machine 0: the 0.2 and 0.5 jobs at 0, a 0.55 one at 3; machine 1:
    # a 0.6 job at 0 and at 2, the other 0.55 at 3): PQ stays within 2 R C*_max = 12
    assert offline_pq(p, d, 2) <= 2 * 1 * 6


def test_weighted_completion_lower_bound():
    jobs = JobSet([0, 1, 4], [2, 3, 1], [[1.0], [1.0], [1.0]], [1, 2, 0.5])
    assert weighted_completion_lower_bound(jobs) == 2 + 8 + 2.5
    # FL24 Lemma 4.1's optimum (N = 4, eps = 1, p = 4) is 12 >= 4 + 3 * 2 = 10
    l41 = JobSet([0, 1, 1, 1], [4, 1, 1, 1], [[1.0]] + [[1 / 3]] * 3)
    assert weighted_completion_lower_bound(l41) == 10
