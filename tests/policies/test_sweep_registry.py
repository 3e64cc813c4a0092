"""The sweep runner (reproducible serially and in a process pool), seeding, and the
policy registry (docs/design.md names, factory defaults, clear errors)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from policies import (
    BFJ,
    BFJS,
    BFS,
    FIFOFF,
    POLICIES,
    VQS,
    VQSBF,
    Cluster,
    PartitionMaxWeight,
    available_policies,
    make_policy,
    pg21_workload,
    simulate,
    slotted_parameters,
    spawn_seeds,
    sweep,
)
from policies.slotted.policy import BuiltinPolicy
from theory.distributions import Discrete, Uniform
from theory.numbers import FEASIBILITY_RTOL
from theory.partitions import partition_from_cuts

# -- module-level functions (picklable for the process pool) ------------------------------


def draw(point, rng):
    return {"point": point, "x": rng.random(4).tolist()}


def run_bfjs(point, rng):
    """A small simulation: BF-J/S at intensity ``point`` on two unit servers."""
    w = pg21_workload(Uniform("0.1", "0.9"), servers=2, slots=3000, mu=0.05, intensity=point,
                      seed=rng)
    r = simulate(BFJS(), w, Cluster.identical(2))
    s = r.summary()
    s.pop("seconds")
    return s


# -- sweep -------------------------------------------------------------------------------------


def test_sweep_grid_order_and_shape():
    out = sweep(draw, ["a", "b", "c"], replications=2, seed=1)
    assert [(o["point"], o["replication"]) for o in out] == [
        ("a", 0), ("a", 1), ("b", 0), ("b", 1), ("c", 0), ("c", 1)]
    assert all(o["result"]["point"] == o["point"] for o in out)


def test_sweep_seeds_are_spawned_in_task_order():
    out = sweep(draw, [10, 20], replications=3, seed=7)
    children = spawn_seeds(7, 6)
    for k, o in enumerate(out):
        assert o["result"]["x"] == np.random.default_rng(children[k]).random(4).tolist()


def test_sweep_reproducible_and_seed_dependent():
    a = sweep(draw, [0, 1], replications=2, seed=5)
    b = sweep(draw, [0, 1], replications=2, seed=5)
    c = sweep(draw, [0, 1], replications=2, seed=6)
    assert a == b
    assert all(x["result"] != y["result"] for x, y in zip(a, c, strict=True))


def test_replications_and_points_get_different_streams():
    out = sweep(draw, [0, 0], replications=3, seed=0)
    xs = [tuple(o["result"]["x"]) for o in out]
    assert len(set(xs)) == 6  # same point twice still gets new streams


def test_sweep_serial_equals_process_pool():
    pts = [0.5, 0.9]
    serial = sweep(run_bfjs, pts, replications=2, seed=123)
    pool = sweep(run_bfjs, pts, replications=2, seed=123, processes=2)
    assert serial == pool
    # replications of one point saw different workloads
    assert serial[0]["result"]["jobs"] != serial[1]["result"]["jobs"] or \
        serial[0]["result"]["mean_queue"] != serial[1]["result"]["mean_queue"]
    assert all(o["result"]["invariants_ok"] for o in serial)
    assert sweep(run_bfjs, pts, replications=2, seed=123, processes=1) == serial


@pytest.mark.parametrize("replications", [0, -1, 1.5, True])
def test_sweep_validation(replications):
    with pytest.raises(ValueError, match="replications must be a positive integer"):
        sweep(draw, [1], replications=replications)


def test_sweep_empty_grid():
    assert sweep(draw, [], replications=3, seed=0) == []


def test_spawn_seeds():
    a = spawn_seeds(3, 4)
    b = spawn_seeds(np.random.SeedSequence(3), 4)
    assert [s.generate_state(2).tolist() for s in a] == [s.generate_state(2).tolist()
                                                          for s in b]
    assert len({tuple(s.generate_state(2)) for s in a}) == 4
    assert spawn_seeds(0, 0) == []
    for bad in (-1, 2.0, True):
        with pytest.raises(ValueError, match="non-negative integer"):
            spawn_seeds(0, bad)


# -- registry ----------------------------------------------------------------------------------


DESIGN_NAMES = ["bf-j", "bf-s", "bf-js", "vqs", "vqs-bf", "fifo-ff"]


def test_registry_names():
    names = available_policies()
    assert set(DESIGN_NAMES) <= set(names)
    assert names == list(POLICIES)
    for n in names:
        assert n == n.lower() and " " not in n and "_" not in n
        info = POLICIES[n]
        assert info.name == n and info.description and info.reference


@pytest.mark.parametrize(("name", "cls"), [
    ("bf-j", BFJ), ("bf-s", BFS), ("bf-js", BFJS), ("vqs", VQS), ("vqs-bf", VQSBF),
    ("fifo-ff", FIFOFF), ("fifo-ff-skip", FIFOFF),
])
def test_make_policy_types_and_names(name, cls):
    p = make_policy(name)
    assert isinstance(p, cls) and isinstance(p, BuiltinPolicy)
    assert p.name == name  # fifo-ff-skip results are labelled fifo-ff-skip
    if name.startswith("fifo"):
        assert p.skip == name.endswith("-skip")


@pytest.mark.parametrize("name", ["BF-JS", "bfjs", "bf_js", "", "maxweight2", "vqs "])
def test_make_policy_unknown(name):
    with pytest.raises(ValueError, match=r"unknown policy .*; known: bf-j, bf-s, bf-js"):
        make_policy(name)


def test_make_policy_refuses_parameters_the_policy_does_not_take():
    assert isinstance(make_policy("bf-js", dist=Uniform("0.1", "0.9")), BFJS)
    with pytest.raises(ValueError, match=r"bf-js takes no parameter 'J', 'levels'"):
        make_policy("bf-js", J=3, dist=Uniform("0.1", "0.9"), levels=4)
    with pytest.raises(ValueError, match=r"vqs takes no parameter 'smalljobs' \(parameters: "
                                         r"J, eps, small_jobs, hol\)"):
        make_policy("vqs", J=3, smalljobs="actual")
    with pytest.raises(ValueError, match="vqs-bf takes no parameter 'hol'"):
        make_policy("vqs-bf", J=3, hol="stop")
    assert slotted_parameters("maxweight") == ("partition", "levels", "max_configurations")
    with pytest.raises(ValueError, match="not a PG21 slotted"):
        slotted_parameters("mris")


def test_vqs_defaults():
    assert make_policy("vqs").J is None
    assert make_policy("vqs", J=3).J == 3
    assert make_policy("vqs-bf", J=5).J == 5
    # discrete law: Thm. 3 (eps = 0), the smallest J with every size above 1/2^J
    assert make_policy("vqs", dist=Discrete(["0.4", "0.6"])).J == 2
    assert make_policy("vqs", dist=Discrete(["0.2", "0.5"])).J == 3
    # continuous law: Cor. 1 with eps = 0.01: F(1/2^J) < 0.01 -> J = 4 for U(0.1, 0.9)
    assert make_policy("vqs-bf", dist=Uniform("0.1", "0.9")).J == 4
    assert make_policy("vqs", dist=Uniform("0.1", "0.9"), eps=0.05).J == 3
    with pytest.raises(ValueError, match="J must be an integer"):
        make_policy("vqs", J=1)


def test_maxweight_defaults_exact_partition_for_discrete():
    d = Discrete(["0.4", "0.6"])
    p = make_policy("maxweight", dist=d)
    assert isinstance(p, PartitionMaxWeight) and p.stall is None
    cells = p.partition.cells
    # singleton cells at the atoms: no rounding loss
    singles = [c.lo for c in cells if c.lo == c.hi]
    assert [str(x) for x in singles] == ["2/5", "3/5"]
    t4, t6 = p.partition.type_of(Fraction(2, 5)), p.partition.type_of(Fraction(3, 5))
    assert t4 != t6
    # the float sizes 0.4 and 0.6 land in the singleton cells at the kernel's tolerance
    np.testing.assert_array_equal(
        p.partition.classify([0.4, 0.6], 1, FEASIBILITY_RTOL), [t4, t6])
    # the configurations are those of the atoms themselves: (2, 0) and (1, 1) are there
    rows = {tuple(r) for r in p.configurations.tolist()}
    two = [0] * len(cells)
    two[t4] = 2
    pair = [0] * len(cells)
    pair[t4] = pair[t6] = 1
    assert tuple(two) in rows and tuple(pair) in rows
    assert PartitionMaxWeight.exact(d).configurations.tolist() == p.configurations.tolist()


def test_maxweight_defaults_otherwise():
    p = make_policy("maxweight", dist=Uniform("0.1", "0.9"))
    assert len(p.partition) == 8  # quantile partition X^(2): 2^(2+1) cells
    assert len(make_policy("maxweight", dist=Uniform("0.1", "0.9"), levels=1).partition) == 4
    part = partition_from_cuts([0, "1/2", 1])
    assert make_policy("maxweight", partition=part).partition is part
    with pytest.raises(ValueError, match="maxweight needs a partition or the size distribution"):
        make_policy("maxweight")


@pytest.mark.parametrize("name", ["bf-j", "bf-s", "bf-js", "vqs", "vqs-bf", "fifo-ff",
                                  "fifo-ff-skip", "maxweight"])
def test_every_registered_policy_runs(name):
    d = Discrete(["0.3", "0.5", "0.7"])
    w = pg21_workload(d, servers=2, slots=2000, mu=0.05, intensity=0.7, seed=3)
    r = simulate(make_policy(name, dist=d), w, Cluster.identical(2))
    assert r.policy == name
    assert r.invariants_ok and r.started > 0


def test_the_skipping_fifo_is_labelled_by_its_registry_name():
    import policies as P
    from theory import Cluster, Discrete

    w = P.pg21_workload(Discrete(["0.4", "0.6"]), servers=1, slots=2_000, mu=0.05,
                        workload=1.0, seed=1)
    for name in ("fifo-ff", "fifo-ff-skip"):
        res = P.run(name, w, Cluster.identical(1))
        assert res.summary()["policy"] == name
