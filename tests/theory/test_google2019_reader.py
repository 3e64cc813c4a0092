"""theory.readers.google2019: the packaged cells against their PROVENANCE file, units,
refusals naming the line, and rho* of a small sub-sample against an independent LP."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from theory.readers.google2019 import (
    GOOGLE2019_CELLS,
    google2019_distribution,
    google2019_machines,
    google2019_requests,
    google2019_sizes,
)

#: cell -> (shapes, machines, most common shape and count, largest, max cpus, max ram,
#: distinct (cpus, ram), rows with cpus 0, collections): theory/data/google2019.PROVENANCE.md
PROVENANCE = {
    "a": (13, 10_002, (0.591796875, 0.33349609375, 3346), (1, 1), 0.28759765625,
          0.05859375, 6184, 32, 742),
    "b": (11, 10_047, (0.591796875, 0.33349609375, 3300), (1, 1), 0.0810546875,
          0.130126953125, 1120, 19, 323),
    "c": (13, 13_245, (0.25927734375, 0.166748046875, 3389), (1, 1), 0.2578125,
          0.189697265625, 1643, 4, 598),
    "d": (11, 12_578, (0.591796875, 0.33349609375, 5668), (1, 0.6669921875), 0.1943359375,
          0.18798828125, 722, 3, 399),
    "e": (13, 14_123, (0.25927734375, 0.166748046875, 6699), (1, 1), 0.294921875,
          0.05987548828125, 523, 0, 157),
    "f": (11, 12_204, (1.0, 0.5, 8262), (1, 1), 0.591796875, 0.28564453125, 3442, 4, 364),
    "g": (16, 12_800, (0.25927734375, 0.166748046875, 2643), (1, 1), 0.145263671875,
          0.18896484375, 563, 5, 309),
    "h": (11, 11_592, (1.0, 0.5, 7206), (1, 1), 0.28173828125, 0.25537109375, 735, 19, 282),
}


@pytest.mark.parametrize("cell", GOOGLE2019_CELLS)
def test_counts_match_the_provenance(cell):
    shapes, machines, common, largest, cpu, ram, pairs, zero_cpu, collections = PROVENANCE[cell]
    m = google2019_machines(cell)
    assert (len(m.cpus), m.machines, m.most_common(), m.largest()) == (
        shapes, machines, common, largest)
    r = google2019_requests(cell)
    assert r.n == 10_000
    assert (float(r.cpus.max()), float(r.ram.max())) == (cpu, ram)
    assert len(set(zip(r.cpus_text, r.ram_text, strict=True))) == pairs
    assert int((r.cpus == 0).sum()) == zero_cpu and int((r.ram == 0).sum()) == 0
    assert len(set(r.collection_id.tolist())) == collections
    assert r.time_us.max() < 70_000_000  # the caveat: no arrival process


def test_a_known_row():
    r = google2019_requests("a")
    assert (int(r.time_us[0]), int(r.collection_id[0]), int(r.instance_index[0])) == (
        17887, 374471491589, 307)
    assert (r.cpus_text[0], r.ram_text[0]) == ("0.0081024169921875", "0.0035820007324218")
    assert google2019_sizes("a", "vector", exact=True, first=1) == [
        (F(531, 65536), F(35820007324218, 10**16))]
    assert google2019_sizes("a", "max", first=1).tolist() == [0.0081024169921875]


def test_units_are_fractions_of_the_unit_machine():
    for cell in GOOGLE2019_CELLS:
        v = google2019_sizes(cell, "vector")
        assert v.shape[1] == 2 and np.all(v <= 1) and np.all(v >= 0)
    # cell d's unit has no machine of its own: no shape has both capacities 1
    m = google2019_machines("d")
    assert not np.any((m.cpus == 1) & (m.ram == 1))


def test_distribution_is_the_counts_over_n():
    d = google2019_distribution("e", "cpu")
    sizes = google2019_sizes("e", "cpu", exact=True)
    assert d.exact and sum(d.probs) == 1 and len(d) == len(set(sizes))
    s0 = d.sizes[0]
    assert d.probs[0] == F(sizes.count(s0), len(sizes))
    # zero CPU requests are dropped from the cpu law, kept (non-zero vectors) in vector
    assert len(google2019_sizes("a", "cpu")) == 10_000 - 32
    assert len(google2019_sizes("a", "vector")) == 10_000


@pytest.mark.parametrize("call, fragment", [
    (lambda: google2019_requests("z"), "cell must be one of a, b"),
    (lambda: google2019_requests("A"), "did you mean a?"),
    (lambda: google2019_sizes("a", "mem"), "did you mean memory?"),
    (lambda: google2019_sizes("a", first=0), "first must be a positive integer"),
])
def test_refusals(call, fragment):
    with pytest.raises(ValueError) as e:
        call()
    assert fragment in str(e.value)


@pytest.mark.parametrize("line3, fragment", [
    ("5,u,1,2,0.1\n", "3: 5 fields, expected 7"),
    ("5,u,1,2,abc,0.1,0\n", "3: column 'cpus': 'abc' is not a number"),
    ("5,u,1,2,-0.1,0.1,0\n", "3: column 'cpus': '-0.1' is not a finite number"),
    ("x,u,1,2,0.1,0.1,0\n", "3: column 'time': 'x' is not an integer"),
    ("5,u,1,2,0.1,0.1,7\n", "3: collection_type must be 0 (job) or 1"),
])
def test_a_malformed_line_is_named(tmp_path, line3, fragment):
    f = tmp_path / "req.csv"
    f.write_text("time,user,collection_id,instance_index,cpus,ram,collection_type\n"
                 "1,u,1,1,0.5,0.25,0\n" + line3)
    with pytest.raises(ValueError) as e:
        google2019_requests("a", path=f)
    assert str(e.value).startswith(f"{f}:") and fragment in str(e.value), str(e.value)


def test_a_user_file_in_the_format(tmp_path):
    f = tmp_path / "req.csv"
    f.write_text("time,user,collection_id,instance_index,cpus,ram,collection_type\n"
                 "1,u,1,1,0.5,0.25,0\n2,u,1,2,0.25,0.5,0\n")
    assert google2019_sizes("a", "max", exact=True, path=f) == [F(1, 2), F(1, 2)]


def _configurations(sizes: list[F]) -> list[tuple[int, ...]]:
    """Every non-empty multiset of the sizes that fits in 1 (depth-first, exact)."""
    out: list[tuple[int, ...]] = []

    def grow(j: int, counts: list[int], room: F) -> None:
        if j == len(sizes):
            if any(counts):
                out.append(tuple(counts))
            return
        for c in range(int(room / sizes[j]) + 1):
            grow(j + 1, [*counts, c], room - c * sizes[j])

    grow(0, [], F(1))
    return out


def test_rho_star_of_a_sub_sample_against_an_independent_lp():
    """Cell a's CPU requests of at least 1/8 among its first 2,000 rows (38 instances, 12
    sizes): rho* from the package (exact, certified) against scipy's linprog over a
    brute-force enumeration of the configurations (PG21 eq. (4): max rho s.t.
    rho P_j <= sum_k x_k k_j, sum x = 1)."""
    from scipy.optimize import linprog

    from capacity import rho_star
    from theory.distributions import Discrete

    sizes = [s for s in google2019_sizes("a", "cpu", exact=True, first=2000) if s >= F(1, 8)]
    counts = {s: sizes.count(s) for s in sorted(set(sizes))}
    assert (len(sizes), len(counts)) == (38, 12)
    law = Discrete.from_counts(list(counts), list(counts.values()))
    res = rho_star(law)
    assert res.certified
    configs = _configurations(law.sizes)
    n, k = len(law.sizes), len(configs)
    # variables (rho, x_1..x_k): maximise rho
    a_ub = np.zeros((n, k + 1))
    a_ub[:, 0] = [float(p) for p in law.probs]
    a_ub[:, 1:] = -np.array(configs, dtype=float).T
    lp = linprog(np.r_[-1.0, np.zeros(k)], A_ub=a_ub, b_ub=np.zeros(n),
                 A_eq=np.r_[0.0, np.ones(k)][None, :], b_eq=[1.0],
                 bounds=[(0, None)] * (k + 1), method="highs")
    assert lp.status == 0
    assert float(res.value) == pytest.approx(-lp.fun, rel=1e-9)
