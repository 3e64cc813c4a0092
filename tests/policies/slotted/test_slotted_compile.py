"""The slotted kernel compiles once per policy: one numba specialisation per function
whatever the flags of the inputs, and only the loop of the policy that runs."""

from __future__ import annotations

import numpy as np
import pytest

import policies as P
from policies.slotted import _kernel as K
from policies.slotted import codes
from theory.distributions import Discrete
from theory.numbers import FEASIBILITY_RTOL

LAW = Discrete([0.2, 0.35, 0.45, 0.6], [0.25, 0.25, 0.25, 0.25])
NAMES = ["bf-j", "bf-s", "bf-js", "fifo-ff", "fifo-ff-skip", "vqs", "vqs-bf", "maxweight"]


def _policy(name):
    return P.make_policy(name, **({"dist": LAW} if name in ("vqs", "vqs-bf", "maxweight")
                                  else {}))


def _dispatchers():
    """The compiled functions of the kernel and of the invariant checker's sweeps."""
    from policies import _invariant_sweeps
    from policies.slotted import _size_queue

    return {n: f for mod in (K, _size_queue, _invariant_sweeps) for n, f in vars(mod).items()
            if hasattr(f, "signatures")}


def test_one_specialisation_per_function():
    for seed, servers in ((1, 1), (2, 3)):
        w = P.pg21_workload(LAW, servers=servers, slots=300, mu=0.1, workload=servers,
                            seed=seed)
        for name in NAMES:
            P.simulate(_policy(name), w, P.Cluster.identical(servers))
    many = {n: f.signatures for n, f in _dispatchers().items() if len(f.signatures) > 1}
    assert many == {}


@pytest.mark.parametrize("module", ["policies/slotted/_kernel.py",
                                    "policies/slotted/_size_queue.py",
                                    "policies/_invariant_sweeps.py",
                                    "policies/continuous/_kernel.py"])
def test_compiled_code_has_no_slice_assignment(module):
    """``a[i:j] = b`` in numba code compiles the formatting of its shape-mismatch error:
    the size queue's eight of them cost 10 s of a first simulation."""
    import ast
    from pathlib import Path

    src = Path(P.__file__).resolve().parents[1] / module  # the repository root
    found = [f"{module}:{node.lineno}" for node in ast.walk(ast.parse(src.read_text()))
             if isinstance(node, ast.Assign | ast.AugAssign)
             for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
             if isinstance(t, ast.Subscript) and any(
                 isinstance(s, ast.Slice) for s in ast.walk(t.slice))]
    assert found == []


def test_every_code_has_a_loop():
    loops = {K.loop_of(c)[0] for c in (codes.BFJ, codes.BFS, codes.BFJS, codes.FIFOFF,
                                      codes.FIFOFF_SKIP, codes.VQS, codes.VQSBF,
                                      codes.MAXWEIGHT)}
    assert len(loops) == 6
    assert K.loop_of(codes.VQS | codes.VQ_HOL_SKIP | codes.VQ_ROUND_SMALL)[0] is K.run_vqs
    with pytest.raises(ValueError, match="unknown policy code"):
        K.loop_of(99)


def test_inputs_of_any_layout_give_the_same_run():
    """Read-only, Fortran-ordered or int32 inputs are copied to the state's types."""
    w = P.pg21_workload(LAW, servers=2, slots=400, mu=0.1, workload=2.0, seed=3)
    pol = _policy("maxweight")
    ref = P.simulate(pol, w, P.Cluster.identical(2))
    ref_size = np.asarray(w.sizes()[:ref.start.size], float)
    spec = pol.compiled_spec(ref_size, np.ones(2))
    arrival = np.array(w.arrival[:ref.start.size], dtype=np.int32)
    size = ref_size.copy()
    size.flags.writeable = False
    outs = [np.full(size.size, -1, np.int64), np.full(size.size, -1, np.int64),
            np.zeros(400, np.int64), np.zeros(400, np.int64), np.zeros(400), np.zeros(400),
            np.zeros(2, np.int64), np.zeros(2)]
    k = K.run(spec.code, arrival, size, np.array(w.service[:size.size]), np.ones(2), 400,
              FEASIBILITY_RTOL, spec.jtype, spec.ntypes, np.asfortranarray(spec.cfg_k),
              spec.cfg_main, spec.cfg_k1, spec.track_jobs, spec.stall, *outs)
    assert np.array_equal(outs[0], ref.start) and np.array_equal(outs[1], ref.server)
    steps = ref.queue_length_steps
    assert np.array_equal(outs[2][:k], steps.at) and np.array_equal(outs[3][:k], steps.values)
    assert len(K.run_maxweight.signatures) == 1
