"""Bad input to the capacity solvers: every case raises ``ValueError`` whose message
names the problem (the CLI turns these into one-line errors)."""

import numpy as np
import pytest

from capacity import (
    CapacityRegion,
    ConfigurationLP,
    bin_packing_lp,
    knapsack_bb,
    knapsack_dp,
    rho_star,
    solve_configuration_lp,
)
from capacity.brackets import partition_bracket, quantile_brackets, rounded_rho_star
from capacity.reduced import rho_vqs
from theory import Discrete, Uniform
from theory.partitions import quantile_partition

NAN, INF = float("nan"), float("inf")
U = Uniform("0.1", "0.9")

RHO_STAR_CASES = [
    # (id, kwargs for rho_star, word expected in the message)
    ("size-above-capacity", dict(sizes=[0.5, 1.5], probs=[0.5, 0.5]), "exceeds"),
    ("size-above-int-capacity", dict(sizes=[2, 12], capacity=10), "exceeds"),
    ("size-above-capacity-str", dict(sizes=["0.5", "1.01"]), "exceeds"),
    ("size-above-vector-capacity", dict(sizes=[(1, 2), (2, 3)], capacity=(2, 2)), "exceeds"),
    ("zero-size", dict(sizes=[0, 0.5]), "positive"),
    ("zero-size-str", dict(sizes=["0", "0.5"]), "positive"),
    ("negative-size", dict(sizes=[-0.1, 0.5]), "positive"),
    ("zero-vector-size", dict(sizes=[(0, 0), (1, 1)], capacity=(2, 2)), "zero"),
    ("negative-probability", dict(sizes=[0.2, 0.5], probs=[-0.5, 1.5]), "negative"),
    ("probabilities-sum-float", dict(sizes=[0.2, 0.5], probs=[0.5, 0.6]), "sum"),
    ("probabilities-sum-exact", dict(sizes=[0.2, 0.5], probs=["1/2", "1/3"]), "sum"),
    ("probabilities-all-zero", dict(sizes=[0.2, 0.5], probs=[0, 0]), "sum"),
    ("nan-size", dict(sizes=[NAN, 0.5]), "finite"),
    ("inf-size", dict(sizes=[INF, 0.5]), "finite"),
    ("nan-probability", dict(sizes=[0.2, 0.5], probs=[NAN, 0.5]), "finite"),
    ("nan-capacity", dict(sizes=[0.2], capacity=NAN), "finite"),
    ("zero-capacity", dict(sizes=[0.2], capacity=0), "positive"),
    ("negative-capacity", dict(sizes=[0.2], capacity=-1), "positive"),
    ("capacity-wrong-length", dict(sizes=[(1, 1)], capacity=(2, 2, 2)), "resources"),
    ("text-size", dict(sizes=["abc"]), "not a number"),
    ("bool-size", dict(sizes=[True]), "bool"),
    ("empty-sizes", dict(sizes=[]), "at least one"),
    ("empty-probabilities", dict(sizes=[0.2], probs=[]), "probabilities"),
    ("mismatched-lengths", dict(sizes=[0.2, 0.5], probs=[1.0]), "probabilities"),
    ("mixed-scalar-vector", dict(sizes=[0.2, (0.1, 0.1)]), "vector"),
    ("servers-zero", dict(sizes=[0.2], servers=0), "servers"),
    ("servers-negative", dict(sizes=[0.2], servers=-2), "servers"),
    ("servers-bool", dict(sizes=[0.2], servers=True), "servers"),
    ("servers-float", dict(sizes=[0.2], servers=2.5), "servers"),
    ("unknown-method", dict(sizes=[0.2], method="simplex"), "method"),
    ("distribution-and-probs", dict(sizes=Discrete(["0.2"]), probs=["1"]), "probabilities"),
]


@pytest.mark.parametrize(("kwargs", "word"), [c[1:] for c in RHO_STAR_CASES],
                         ids=[c[0] for c in RHO_STAR_CASES])
def test_rho_star_rejects(kwargs, word):
    with pytest.raises(ValueError, match=word):
        rho_star(**kwargs)


@pytest.mark.parametrize("method", ["enumerate", "column-generation", "auto"])
def test_every_method_validates_the_same_way(method):
    with pytest.raises(ValueError, match="exceeds"):
        rho_star([0.5, 1.5], [0.5, 0.5], method=method)
    with pytest.raises(ValueError, match="servers"):
        rho_star([0.5], servers=0, method=method)


BIN_PACKING_CASES = [
    ("empty", [], 10, "at least one item"),
    ("item-above-capacity", [5, 11], 10, "exceeds"),
    ("zero-item", [0, 5], 10, "positive"),
    ("nan-item", [NAN, 5], 10, "finite"),
    ("zero-capacity", [1, 2], 0, "positive"),
]


@pytest.mark.parametrize(("weights", "cap", "word"), [c[1:] for c in BIN_PACKING_CASES],
                         ids=[c[0] for c in BIN_PACKING_CASES])
def test_bin_packing_lp_rejects(weights, cap, word):
    with pytest.raises(ValueError, match=word):
        bin_packing_lp(weights, cap)


REGION_CASES = [
    ("no-servers", lambda: CapacityRegion([2, 5], []), "at least one server"),
    ("no-types", lambda: CapacityRegion([], [(10, 1)]), "no job types"),
    ("zero-count", lambda: CapacityRegion([2, 5], [(10, 0)]), "positive"),
    ("negative-count", lambda: CapacityRegion([2, 5], [(10, -3)]), "positive"),
    ("dimension-mismatch", lambda: CapacityRegion([(1, 2), (2, 1)], [((10,), 1)]),
     "resources"),
    ("direction-length", lambda: CapacityRegion([2, 5], [(10, 1)]).max_scaling([1]),
     "entries"),
    ("negative-workload", lambda: CapacityRegion([2, 5], [(10, 1)]).contains([-1, 1]),
     "non-negative"),
    ("nan-workload", lambda: CapacityRegion([2, 5], [(10, 1)]).contains([NAN, 1]), "finite"),
    ("zero-direction", lambda: CapacityRegion([2, 5], [(10, 1)]).max_scaling([0, 0]), "zero"),
    ("type-fits-no-server", lambda: CapacityRegion([2, 15], [(10, 2)]).max_scaling([1, 1]),
     "exceeds"),
    ("unknown-method",
     lambda: CapacityRegion([2, 5], [(10, 1)]).max_scaling([1, 1], method="x"), "method"),
    ("boundary-three-types", lambda: CapacityRegion([1, 2, 3], [(10, 1)]).boundary_2d(),
     "two"),
    ("boundary-one-point", lambda: CapacityRegion([1, 2], [(10, 1)]).boundary_2d(1), "two"),
]


@pytest.mark.parametrize(("call", "word"), [c[1:] for c in REGION_CASES],
                         ids=[c[0] for c in REGION_CASES])
def test_region_rejects(call, word):
    with pytest.raises(ValueError, match=word):
        call()


LP_CASES = [
    ("no-classes", lambda: ConfigurationLP.build([0.2], [1], []), "no servers"),
    ("zero-count", lambda: ConfigurationLP.build([0.2], [1], [(1, 0)]), "positive"),
    ("float-count", lambda: ConfigurationLP.build([0.2], [1], [(1, 1.5)]), "integer"),
    ("demand-length", lambda: ConfigurationLP.build([0.2, 0.3], [1], [(1, 1)]), "demand"),
    ("negative-demand", lambda: ConfigurationLP.build([0.2, 0.3], [1, -1], [(1, 1)]),
     "non-negative"),
    ("zero-demand", lambda: ConfigurationLP.build([0.2, 0.3], [0, 0], [(1, 1)]), "zero"),
    ("unknown-method",
     lambda: solve_configuration_lp(ConfigurationLP.build([0.2], [1], [(1, 1)]), method="x"),
     "method"),
]


@pytest.mark.parametrize(("call", "word"), [c[1:] for c in LP_CASES],
                         ids=[c[0] for c in LP_CASES])
def test_configuration_lp_rejects(call, word):
    with pytest.raises(ValueError, match=word):
        call()


def test_configuration_lp_rejects_bool_count():
    """Regression: a bool server count used to be accepted as one server."""
    with pytest.raises(ValueError, match="server"):
        ConfigurationLP.build([0.2], [1], [(1, True)])


OTHER_CASES = [
    ("brackets-servers-zero", lambda: quantile_brackets(U, 1, servers=0), "servers"),
    ("brackets-levels-negative", lambda: quantile_brackets(U, -1), "levels"),
    ("brackets-levels-float", lambda: quantile_brackets(U, 1.5), "levels"),
    ("rounding-unknown",
     lambda: rounded_rho_star(U, quantile_partition(U, 1), "sideways"), "rounding"),
    ("bracket-method",
     lambda: partition_bracket(U, quantile_partition(U, 1), method="x"), "method"),
    ("vqs-servers-zero", lambda: rho_vqs(Discrete(["0.4", "0.6"]), 3, servers=0), "servers"),
    ("vqs-J-one", lambda: rho_vqs(Discrete(["0.4", "0.6"]), 1), "J"),
    ("vqs-J-float", lambda: rho_vqs(Discrete(["0.4", "0.6"]), 3.0), "J"),
    ("vqs-J-bool", lambda: rho_vqs(Discrete(["0.4", "0.6"]), True), "J"),
    ("knapsack-shapes",
     lambda: knapsack_bb(np.array([1.0]), np.array([1.0, 2.0]), np.array([3.0])), "shape"),
    ("knapsack-exact-floats",
     lambda: knapsack_bb(np.array([1.0]), np.array([1]), np.array([3]), exact=True),
     "integer"),
    ("dp-float-sizes", lambda: knapsack_dp(np.array([1.0]), np.array([0.5]), 1), "integer"),
    ("dp-huge-capacity", lambda: knapsack_dp(np.array([1.0]), np.array([1]), 10**9),
     "too large"),
]


@pytest.mark.parametrize(("call", "word"), [c[1:] for c in OTHER_CASES],
                         ids=[c[0] for c in OTHER_CASES])
def test_other_entry_points_reject(call, word):
    with pytest.raises(ValueError, match=word):
        call()


@pytest.mark.parametrize("call", [
    pytest.param(lambda: quantile_brackets(U, 1, servers=True), id="quantile_brackets"),
    pytest.param(lambda: partition_bracket(U, quantile_partition(U, 0), servers=True),
                 id="partition_bracket"),
    pytest.param(lambda: rounded_rho_star(U, quantile_partition(U, 0), "up", servers=True),
                 id="rounded_rho_star"),
    pytest.param(lambda: rho_vqs(Discrete(["0.4", "0.6"]), 3, servers=True), id="rho_vqs"),
    pytest.param(lambda: rho_star([0.4, 0.6], servers=True), id="rho_star"),
])
def test_bool_servers_rejected_everywhere(call):
    """Regression: the bracket functions used to accept servers=True as one server."""
    with pytest.raises(ValueError, match="servers"):
        call()
