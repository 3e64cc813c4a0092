"""theory.readers.azure for the trace registry: the train split (arrivals and flavours
only), the flavour laws, timed VMs and XLL21 job sets; refusals where a lifetime is
needed."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from theory.readers.azure import (
    azure2017_distribution,
    azure2017_timed,
    azure2017_vms,
    azure2017_xll21_job_set,
    usable_vms,
)


def test_train_split_counts_and_no_lifetimes():
    v = azure2017_vms("train")
    assert v.n == 1_200_998  # the PROVENANCE's count
    assert np.all(np.isnan(v.low)) and not v.censored.any()
    assert 300 <= v.arrival.min() and v.arrival.max() < 1_800_000
    letters, counts = np.unique(v.flavour, return_counts=True)
    assert dict(zip(letters.tolist(), counts.tolist(), strict=True))["b"] == 512_172


def test_flavour_law_units_and_counts():
    d = azure2017_distribution("all", "vector")
    assert len(d) == 16 and d.exact
    # fractions of the assumed host (16 cores, 112 GB): flavour d is the host itself
    assert (F(1), F(1)) in d.sizes and (F(1, 16), F(3, 448)) in d.sizes  # a: 1 core, 0.75 GB
    b = d.probs[d.sizes.index((F(1, 16), F(1, 64)))]  # b: 1 core, 1.75 GB
    both = azure2017_vms("both")
    n_b = 512_172 + int((both.flavour == "b").sum())
    assert b == F(n_b, 1_200_998 + both.n)
    # first=N counts the first N VMs in arrival order
    small = azure2017_distribution("dev", "vector", first=3)
    assert sum(small.probs) == 1 and len(small) <= 3


def test_rho_star_of_the_cpu_law_is_lemma2():
    """Cores are 1, 2, 4, 8 or 16: as fractions of 16 cores they divide each other and 1,
    so bins fill exactly and rho* = 1 / E[S] (PG21 Lemma 2 with equality)."""
    from capacity import rho_star

    d = azure2017_distribution("test", "cpu")
    assert set(d.sizes) == {F(1, 16), F(1, 8), F(1, 4), F(1, 2), F(1)}
    res = rho_star(d)
    assert res.certified and res.lower <= 1 / d.mean() <= res.upper


def test_timed_vms():
    j = azure2017_timed("dev", until_seconds=3000)
    assert j.slot_seconds == 300.0 and np.all(j.arrival % 300 == 0)
    assert j.arrival[-1] - j.arrival[0] < 3000
    assert j.n + j.info["beyond_until"] == usable_vms("dev")
    assert np.all(j.service >= 150) and np.all(j.cpu <= 1) and np.all(j.memory <= 1)


def test_xll21_units():
    js = azure2017_xll21_job_set("dev", first=200)
    v = azure2017_vms("dev")
    assert js.n == 200 and np.all(js.demand == np.ceil(js.demand))
    assert set(js.demand[:, 0].tolist()) <= {1.0, 2.0, 4.0, 8.0, 16.0}  # cores as in the trace
    i = int(js.ids[0][2:])
    assert js.demand[0].tolist() == [v.cores[i], np.ceil(v.memory_gb[i] / 7)]


@pytest.mark.parametrize("call, fragment", [
    (lambda: azure2017_timed("train"), "split 'train' has no lifetimes"),
    (lambda: azure2017_xll21_job_set("all"), "split 'all' has no lifetimes"),
    (lambda: usable_vms("train"), "split 'train' has no lifetimes"),
    (lambda: azure2017_vms("tset"), "did you mean test?"),
    (lambda: azure2017_distribution("dev", "mem"), "did you mean memory?"),
    (lambda: azure2017_distribution("dev", host=(8, 64)), "smaller than flavour"),
])
def test_refusals(call, fragment):
    with pytest.raises(ValueError) as e:
        call()
    assert fragment in str(e.value)
