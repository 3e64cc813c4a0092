"""The compiled PG21 policies give exactly the schedules of their literal definitions.

Every built-in policy of :mod:`policies.slotted` (BF-J, BF-S, BF-J/S, FIFO-FF strict and
skipping, VQS, VQS-BF, partition MaxWeight) is run next to the slow, literal plain-Python
version in ``reference_policies.py`` on many small random workloads (PG21 Sec. VII-A
laws, boundary sizes, light and heavy load, identical and heterogeneous servers); the
start slots, servers and queue series must be identical.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pytest

import policies as P
from tests.policies.slotted.reference_policies import (
    RefBFJ,
    RefBFJS,
    RefBFS,
    RefFIFOFF,
    RefPartitionMaxWeight,
    RefVQS,
    RefVQSBF,
)
from theory.distributions import Discrete, SizeDistribution, Uniform
from theory.numbers import FEASIBILITY_RTOL, fits
from theory.partitions import quantile_partition

# -- workloads --------------------------------------------------------------------------


@dataclass(frozen=True)
class Law:
    """A size law, the server capacity it is meant for, and a service rate mu."""

    dist: SizeDistribution
    cap: float
    mu: float


LAWS: dict[str, Law] = {
    # PG21 Sec. VII-A, Fig. 4
    "U(0.1,0.9)": Law(Uniform(0.1, 0.9), 1.0, 0.1),
    "U(0.01,0.19)": Law(Uniform(0.01, 0.19), 1.0, 0.02),
    # PG21 Sec. VII-A, Fig. 3a and Fig. 3b (capacity 10)
    "D(0.4,0.6)": Law(Discrete([0.4, 0.6]), 1.0, 0.1),
    "D(2,5)/10": Law(Discrete([2, 5], ["2/3", "1/3"]), 10.0, 0.05),
    # sizes exactly on the cells of the universal partition (eq. 18) and exact fits
    "boundary": Law(Discrete(["1/2", "1/4", "1/3", "2/3", "1/6", "1/8", "3/4", "1/12", "1",
                              "1/16"]), 1.0, 0.1),
    # sizes whose float sums are inexact (0.1 + 0.2 != 0.3)
    "floaty": Law(Discrete([0.1, 0.2, 0.3, 0.7, 0.5, 0.25]), 1.0, 0.1),
    # sizes within the feasibility tolerance of the cell limits and of perfect fits
    "near-eps": Law(Discrete([0.5 + 4e-10, 0.5 - 4e-10, 0.25 + 9e-10, 0.25, 1 / 3 + 5e-10,
                              2 / 3 - 5e-10]), 1.0, 0.1),
}

#: laws used only by some tests
EXTRA_LAWS: dict[str, Law] = {
    "small-boundary": Law(Discrete(["1/2", "1/4", "1/3", "2/3", "1/6"]), 1.0, 0.1),
}
ALL_LAWS = LAWS | EXTRA_LAWS

#: The built-ins type jobs with ``Partition.classify(sizes, cap, FEASIBILITY_RTOL)``: a
#: size within 1e-9 * cap of a cell limit counts as the limit. The equivalence tests of
#: the virtual-queue policies use the same reading (it only matters for the "near-eps"
#: law); ``test_vq_types_follow_eq18_exactly`` shows where it departs from eq. (18).
RTOL = FEASIBILITY_RTOL

#: traffic intensity alpha: rate = alpha * L * cap * mu / R-bar. No policy packs servers
#: perfectly, so at alpha = 1 the queues build up (to a few hundred jobs in 1500 slots).
LIGHT, HEAVY = 0.6, 1.0


@dataclass(frozen=True)
class Case:
    law: str
    servers: int
    alpha: float
    seed: int
    deterministic: bool = False
    hetero: bool = False
    slots: int = 0  # 0: 2000 slots at light load, 1500 at heavy load

    @property
    def id(self) -> str:
        svc = "det" if self.deterministic else "geo"
        kind = "het" if self.hetero else "id"
        return f"{self.law}-L{self.servers}{kind}-a{self.alpha}-{svc}-s{self.seed}"

    def workload(self) -> P.Workload:
        law = ALL_LAWS[self.law]
        rate = self.alpha * self.servers * law.cap * law.mu / float(law.dist.mean())
        service = (P.DeterministicService(round(1 / law.mu)) if self.deterministic
                   else P.GeometricService(law.mu))
        slots = self.slots or (1500 if self.alpha >= HEAVY else 2000)
        return P.slotted_workload(law.dist, P.PoissonArrivals(rate), service, slots,
                                  seed=self.seed)

    def cluster(self) -> P.Cluster:
        cap = ALL_LAWS[self.law].cap
        if not self.hetero:
            return P.Cluster.identical(self.servers, cap)
        # one server of every kind: full, small (not every job fits), large
        factors = [1.0, 0.7, 1.3, 1.0, 0.55][: self.servers]
        return P.Cluster(np.array(factors) * cap)


def _cases(seed0: int, *, hetero: bool = False) -> list[Case]:
    """L in {1, 2, 5} x {light, heavy} for every law, geometric and deterministic service."""
    out = []
    seed = seed0
    for law, L, alpha in itertools.product(LAWS, (1, 2, 5), (LIGHT, HEAVY)):
        if hetero and L == 1:
            continue
        seed += 1
        out.append(Case(law, L, alpha, seed, deterministic=seed % 3 == 0, hetero=hetero))
    return out


def assert_same(builtin, reference, case: Case) -> None:
    w, c = case.workload(), case.cluster()
    a = P.simulate(builtin, w, c)
    b = P.simulate(reference, w, c)
    assert a.invariants.ok and b.invariants.ok, (a.invariants, b.invariants)
    if not np.array_equal(a.start, b.start) or not np.array_equal(a.server, b.server):
        diff = np.flatnonzero((a.start != b.start) | (a.server != b.server))
        j = int(diff[0])
        raise AssertionError(
            f"{builtin!r} vs literal on {case.id}: first differing job {j} "
            f"(size {w.demand[j]!r}, arrival {w.arrival[j]}): builtin start/server "
            f"{a.start[j]}/{a.server[j]}, literal {b.start[j]}/{b.server[j]}")
    np.testing.assert_array_equal(a.queue_length, b.queue_length)
    np.testing.assert_allclose(a.queued_resource, b.queued_resource, rtol=0, atol=1e-9)
    # the case must exercise the policy: jobs start, and heavy load builds a queue
    assert np.count_nonzero(a.start >= 0) > 0
    if case.alpha == HEAVY and case.servers > 1 and not case.hetero:
        assert a.queue_length.max() >= 3


# -- the best-fit and FIFO policies (PG21 IV-A, VII-B), identical and heterogeneous ---------

SIMPLE = {
    "bf-j": (P.BFJ, RefBFJ),
    "bf-s": (P.BFS, RefBFS),
    "bf-js": (P.BFJS, RefBFJS),
    "fifo-ff": (P.FIFOFF, RefFIFOFF),
    "fifo-ff-skip": (lambda: P.FIFOFF(skip=True), lambda: RefFIFOFF(skip=True)),
}


@pytest.mark.parametrize("case", _cases(100) + _cases(200, hetero=True), ids=lambda c: c.id)
@pytest.mark.parametrize("policy", list(SIMPLE))
def test_best_fit_and_fifo(policy, case):
    builtin, ref = SIMPLE[policy]
    assert_same(builtin(), ref(), case)


# -- VQS and VQS-BF (PG21 V-B, VI) ----------------------------------------------------------


def _vq_cases(seed0: int) -> list[tuple[int | None, Case]]:
    """Every case with J cycling through {2, 3, 6}, plus J from the smallest job."""
    out: list[tuple[int | None, Case]] = []
    Js = itertools.cycle((2, 3, 6))
    for case in _cases(seed0):
        out.append((next(Js), case))
    for i, law in enumerate(LAWS):
        out.append((None, Case(law, 2, HEAVY, seed0 + 50 + i)))
    return out


@pytest.mark.parametrize(("J", "case"), _vq_cases(300), ids=lambda x: getattr(x, "id", f"J{x}"))
def test_vqs(J, case):
    assert_same(P.VQS(J=J), RefVQS(J, rtol=RTOL), case)


@pytest.mark.parametrize(("J", "case"), _vq_cases(400), ids=lambda x: getattr(x, "id", f"J{x}"))
def test_vqs_bf(J, case):
    assert_same(P.VQSBF(J=J), RefVQSBF(J, rtol=RTOL), case)


@pytest.mark.parametrize("J", [2, 3, 6])
@pytest.mark.parametrize("law", ["D(0.4,0.6)", "D(2,5)/10", "boundary", "near-eps"])
def test_vqs_every_J_on_discrete_laws(J, law):
    for k, L in enumerate((1, 2, 5)):
        case = Case(law, L, HEAVY, 500 + 10 * J + k, deterministic=k == 1)
        assert_same(P.VQS(J=J), RefVQS(J, rtol=RTOL), case)
        assert_same(P.VQSBF(J=J), RefVQSBF(J, rtol=RTOL), case)


# -- partition MaxWeight (PG21 Thm. 1) ------------------------------------------------------


def _maxweight_params():
    out = []
    seed = 600
    parts = {
        "U(0.1,0.9)": [("q0", quantile_partition(Uniform(0.1, 0.9), 0, tight=False)),
                       ("q1", quantile_partition(Uniform(0.1, 0.9), 1, tight=False))],
        "U(0.01,0.19)": [("q0", quantile_partition(Uniform(0.01, 0.19), 0, tight=False)),
                         ("q1", quantile_partition(Uniform(0.01, 0.19), 1, tight=False))],
        "D(0.4,0.6)": [("exact", P.PartitionMaxWeight.exact(LAWS["D(0.4,0.6)"].dist).partition),
                       ("q1", quantile_partition(LAWS["D(0.4,0.6)"].dist, 1, tight=False))],
        "floaty": [("exact", P.PartitionMaxWeight.exact(LAWS["floaty"].dist).partition)],
        "near-eps": [("exact", P.PartitionMaxWeight.exact(LAWS["near-eps"].dist).partition)],
        "small-boundary": [("exact", P.PartitionMaxWeight.exact(
            Discrete(["1/2", "1/4", "1/3", "2/3", "1/6"])).partition)],
    }
    for law, plist in parts.items():
        for (pname, part), L, alpha in itertools.product(plist, (1, 2, 5), (LIGHT, HEAVY)):
            seed += 1
            case = Case(law, L, alpha, seed, deterministic=seed % 3 == 0)
            out.append(pytest.param(part, case, id=f"{pname}-{case.id}"))
    return out


@pytest.mark.parametrize(("partition", "case"), _maxweight_params())
def test_partition_maxweight(partition, case):
    builtin = P.PartitionMaxWeight(partition)
    assert_same(builtin, RefPartitionMaxWeight(partition, rtol=RTOL), case)


def test_maxweight_on_capacity_ten():
    """Fig. 3b's law on a capacity-10 server: the partition is relative to the capacity."""
    dist = Discrete(["1/5", "1/2"], ["2/3", "1/3"])  # sizes 2 and 5 out of 10
    part = P.PartitionMaxWeight.exact(dist).partition
    for k, L in enumerate((1, 2, 5)):
        for alpha in (LIGHT, HEAVY):
            case = Case("D(2,5)/10", L, alpha, 700 + 2 * k + (alpha == HEAVY))
            assert_same(P.PartitionMaxWeight(part), RefPartitionMaxWeight(part, rtol=RTOL), case)


@pytest.mark.parametrize("stall", [0.0, 0.3])
@pytest.mark.parametrize("law", ["D(0.4,0.6)", "U(0.1,0.9)"])
def test_partition_maxweight_with_stalling(law, stall):
    """The stalling option of maxweight.py (PG21 Sec. IX)."""
    dist = ALL_LAWS[law].dist
    part = (P.PartitionMaxWeight.exact(dist).partition if isinstance(dist, Discrete)
            else quantile_partition(dist, 1, tight=False))
    for k, (L, alpha) in enumerate(itertools.product((1, 2, 5), (LIGHT, HEAVY))):
        case = Case(law, L, alpha, 800 + k, deterministic=k % 3 == 0)
        assert_same(P.PartitionMaxWeight(part, stall=stall),
                    RefPartitionMaxWeight(part, stall=stall, rtol=RTOL), case)


# -- regressions: minimal workloads on which the built-ins once departed from the contract --


def _require(condition: bool, what: str) -> None:
    """A precondition: the setting or the literal policy is what the test says."""
    if not condition:
        pytest.fail(f"precondition: {what}")


def _run_both(builtin, reference, arrival, sizes, service, cluster):
    w = P.Workload(np.asarray(arrival, np.int64), np.asarray(sizes, np.float64),
                   np.asarray(service, np.int64), float(max(arrival) + 2))
    return P.simulate(builtin, w, cluster), P.simulate(reference, w, cluster)


#: After job 0 the residual is r = 1 - 0.7500000000000011 = 0.2499999999999989, a few ulps
#: below 1/4; job 1 has size fl(r + eps), so it fits by the contract (size <= r + eps).
#: The kernel's server searches once tested r >= size - eps, which rounds the other way
#: across the power of two (BF-J then recorded a started job on server -1).
NEAR_POW2 = ([0, 1], [0.7500000000000011, 0.2500000009999989], [5, 5])


@pytest.mark.parametrize("policy", ["bf-j", "bf-s", "bf-js", "fifo-ff", "fifo-ff-skip",
                                    "vqs-bf"])
def test_fit_near_a_power_of_two(policy):
    eps = FEASIBILITY_RTOL
    r = 1.0 - NEAR_POW2[1][0]
    _require(NEAR_POW2[1][1] <= r + eps and not NEAR_POW2[1][1] - eps <= r, "the fit tests differ")
    if policy == "vqs-bf":
        builtin, ref = P.VQSBF(J=2), RefVQSBF(2, rtol=RTOL)
    else:
        builtin, ref = SIMPLE[policy][0](), SIMPLE[policy][1]()
    a, b = _run_both(builtin, ref, *NEAR_POW2, P.Cluster.identical(1))
    _require(b.start.tolist() == [0, 1] and b.server.tolist() == [0, 0], "literal serves both")
    assert a.start.tolist() == [0, 1] and a.server.tolist() == [0, 0]


@pytest.mark.parametrize(("y1", "y2", "fits"), [
    (0.17378291990408215, 0.1595504144292512, False),
    (0.3141483828242993, 0.019184951509034015, True),
])
def test_vqs_room_uses_the_non_type1_load(y1, y2, fits):
    """Five type-1 jobs (0.6) make e_1 + e_3 the max-weight row of K_RED^(2); the server
    takes 0.6, then y1 (type 3), then y2 iff y2 <= cap/3 - y1 + eps. The kernel once
    computed the non-type-1 load as fl(fl(0.6 + y1) - 0.6) != y1. y1 and y2 are below
    1/2^J = 1/4, so the real-size packing (``small_jobs="actual"``) is the one tested;
    rounded up to 1/4 (PG21 V-A, the default) neither y2 would fit."""
    _require((y2 <= 1.0 / 3.0 - y1 + FEASIBILITY_RTOL) == fits, "y2 on the room boundary")
    a, b = _run_both(P.VQS(J=2, small_jobs="actual"),
                     RefVQS(2, rtol=RTOL, small_jobs="actual"), [0] * 7, [0.6] * 5 + [y1, y2],
                     [5] * 7, P.Cluster.identical(1))
    _require(b.start[6] == (0 if fits else -1), "literal VQS follows the room test")
    assert a.start[6] == b.start[6]


@pytest.mark.parametrize("policy", ["vqs", "vqs-bf"])
def test_vq_types_read_a_size_within_tolerance_of_a_limit_as_the_limit(policy):
    """A documented reading, not eq. (18) to the last bit: a float within FEASIBILITY_RTOL
    * cap of a cell limit is typed as that limit (``Partition.classify(..., rtol)``), as
    the fit test treats it. a = 1/3 + 5e-10 lies in I_2 = (1/3, 1/2] (eq. 18); the
    built-ins read it as 1/3, in VQ_3, so they differ from exact eq. (18) typing here.
    VQS, J = 2: a then 1/2 - 4e-10 (also VQ_2) make 2 e_2 the active row and
    both are served, but with a in VQ_3 the row is 3 e_3 and the second job waits.
    VQS-BF, J = 2: two jobs of 0.7 (VQ_0) and a: <e_0, Q> = 2 ties <2 e_2, Q> = 2, so the
    first row e_0 wins and 0.7 is served; with a in VQ_3, <3 e_3, Q> = 3 wins and a is."""
    a = 1 / 3 + 5e-10
    if policy == "vqs":
        builtin, ref, arrival, sizes, want = P.VQS(J=2), RefVQS(2), [0, 1], [a, 0.5 - 4e-10], \
            [0, 1]
    else:
        builtin, ref, arrival, sizes, want = P.VQSBF(J=2), RefVQSBF(2), [0, 0, 0], \
            [0.7, 0.7, a], [0, -1, -1]
    res, lit = _run_both(builtin, ref, arrival, sizes, [10] * len(sizes),
                         P.Cluster.identical(1))
    _require(lit.start.tolist() == want, "literal schedule as described")
    assert res.start.tolist() != lit.start.tolist()
    snapped = RefVQS(2, rtol=RTOL) if policy == "vqs" else RefVQSBF(2, rtol=RTOL)
    res, lit = _run_both(builtin, snapped, arrival, sizes, [10] * len(sizes),
                         P.Cluster.identical(1))
    assert res.start.tolist() == lit.start.tolist()


def test_vqs_never_exceeds_capacity():
    """2/3 + 9e-10 is read as 2/3 (VQ_1) and 1/3 + 9e-10 as 1/3 (VQ_3); three VQ_1 jobs make
    e_1 + e_3 the max-weight row and VQS puts 2/3 + 9e-10 and 1/3 + 9e-10 together:
    load 1 + 1.8e-9 > 1 + eps, unless every placement also passes the server's fit test
    (with eq. (18) typing the first job is in VQ_0 and nothing overflows)."""
    w = P.Workload(np.zeros(4, np.int64), np.array([2 / 3 + 9e-10] * 3 + [1 / 3 + 9e-10]),
                   np.full(4, 5), 2.0)
    c = P.Cluster.identical(1)
    _require(P.simulate(RefVQS(2), w, c).invariants.ok, "eq. (18) typing does not overflow")
    res = P.simulate(P.VQS(J=2), w, c)
    assert res.invariants.ok, res.invariants.violations
    assert res.start.tolist() == P.simulate(RefVQS(2, rtol=RTOL), w, c).start.tolist()


# -- user policies that misbehave ------------------------------------------------------------


def _tiny_workload() -> P.Workload:
    return P.Workload(np.array([0, 0, 1]), np.array([0.6, 0.6, 0.3]), np.array([3, 3, 3]), 4.0)


class _Overfill(P.SlottedPolicy):
    name = "overfill"

    def schedule(self, state):
        for j in list(state.queue):
            state.place(j, 0)  # the second 0.6 job does not fit next to the first


class _Twice(P.SlottedPolicy):
    name = "twice"

    def schedule(self, state):
        for j in list(state.queue):
            state.place(j, 0)
            state.place(j, 0)


class _NoServer(P.SlottedPolicy):
    name = "no-server"

    def schedule(self, state):
        for j in list(state.queue):
            state.place(j, state.servers)


class _Future(P.SlottedPolicy):
    name = "future"

    def schedule(self, state):
        if state.t == 0:
            state.place(2, 0)  # job 2 arrives in slot 1


class _Restart(P.SlottedPolicy):
    name = "restart"

    def schedule(self, state):
        if state.t == 0:
            state.place(0, 0)
        if state.t == 1:
            state.place(0, 1)  # job 0 is already in service


@pytest.mark.parametrize(("policy", "message"), [
    (_Overfill(), "does not fit"),
    (_Twice(), "is not waiting"),
    (_NoServer(), "no server"),
    (_Future(), "is not waiting"),
    (_Restart(), "is not waiting"),
])
def test_misbehaving_user_policy_gets_a_clear_error(policy, message):
    with pytest.raises(ValueError, match=message):
        P.simulate(policy, _tiny_workload(), P.Cluster.identical(2))


def test_non_policy_is_rejected():
    with pytest.raises(TypeError, match="policy"):
        P.simulate(object(), _tiny_workload(), P.Cluster.identical(2))  # type: ignore[arg-type]


@pytest.mark.parametrize("partition", [
    quantile_partition(Uniform(0.1, 0.9), 1, tight=False),
    P.PartitionMaxWeight.exact(Discrete([0.4, 0.6])).partition,
    P.PartitionMaxWeight.exact(Discrete(["1/2", "1/5"])).partition,
], ids=str)
def test_maxweight_configurations_are_all_maximal_feasible_ones(partition):
    """Brute force over every vector: feasible (Def. 1, upper-rounded sizes, Def. 4) and
    no job of any type can be added."""
    r = partition.upper_sizes
    bound = [int(1 / float(x)) + 1 for x in r]

    def feasible(k):
        return fits(sum(ki * ri for ki, ri in zip(k, r, strict=True) if ki), 1)

    want = set()
    for k in itertools.product(*(range(b + 1) for b in bound)):
        if any(k) and feasible(k) and not any(
                feasible(k[:i] + (k[i] + 1,) + k[i + 1:]) for i in range(len(k))):
            want.add(k)
    got = {tuple(int(v) for v in row) for row in P.PartitionMaxWeight(partition).configurations}
    assert got == want


# -- the best-fit order on many servers (bucketed residuals) ---------------------------


@pytest.mark.parametrize("policy", ["bf-j", "bf-js"])
@pytest.mark.parametrize(("law", "servers", "hetero"), [
    ("D(0.4,0.6)", 300, False),     # long runs of equal residuals in one bucket
    ("near-eps", 200, False),       # residuals within eps of the sizes, exact fits
    ("floaty", 150, True),          # three capacities: empty servers tie only per capacity
    ("U(0.01,0.19)", 200, False),   # residuals crowded near 0
])
def test_best_fit_on_many_servers(policy, law, servers, hetero):
    """The compiled best fit keeps servers bucketed by residual; with hundreds of servers
    buckets hold several servers and runs of ties, which the 1-5 server cases above never
    build. The schedule must still be the literal one: the least residual that fits,
    ties to the lowest index."""
    lw = ALL_LAWS[law]
    cap = lw.cap * (np.resize([1.0, 0.8, 1.25], servers) if hetero else np.ones(servers))
    rate = 1.05 * float(cap.sum()) * lw.mu / float(lw.dist.mean())
    w = P.slotted_workload(lw.dist, P.PoissonArrivals(rate), P.GeometricService(lw.mu),
                           max(120, round(6 / lw.mu)), seed=servers)
    builtin, ref = SIMPLE[policy]
    a, b = P.simulate(builtin(), w, P.Cluster(cap)), P.simulate(ref(), w, P.Cluster(cap))
    assert a.invariants.ok
    np.testing.assert_array_equal(a.start, b.start)
    np.testing.assert_array_equal(a.server, b.server)
    np.testing.assert_array_equal(a.queue_length, b.queue_length)
    assert a.queue_length.max() > 0 and np.unique(a.server[a.start >= 0]).size > servers // 2
