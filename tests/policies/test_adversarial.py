"""The adversarial search over size laws (PG21 Sec. IX's open question)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from policies.adversarial import SearchSpace, SizeLaw, adversarial_search, evaluate_law, verify

FAST = {"slots": 60_000, "tol": 0.05, "mu": 0.05}


def test_size_law_validates():
    law = SizeLaw((40, 60), (1, 1), 100, 2, 1)
    assert law.key == "L=1;40/100:1/2,60/100:1/2"
    assert [str(s) for s in law.distribution().sizes] == ["2/5", "3/5"]
    for bad, match in (({"sizes": (60, 40)}, "increasing"), ({"sizes": (40, 101)}, "1..100"),
                       ({"masses": (0, 2)}, "sum to"), ({"masses": (1, 2)}, "sum to"),
                       ({"servers": 0}, "servers"), ({"sizes": (40,)}, "as many")):
        kw = {"sizes": (40, 60), "masses": (1, 1), "grid": 100, "mass": 2, "servers": 1, **bad}
        with pytest.raises(ValueError, match=match):
            SizeLaw(**kw)


def test_space_proposes_valid_laws_reproducibly():
    space = SearchSpace(max_atoms=3, grid=50, mass=6, servers=(1, 3))
    a = [space.random(np.random.default_rng(s)) for s in range(30)]
    b = [space.random(np.random.default_rng(s)) for s in range(30)]
    assert a == b
    rng = np.random.default_rng(0)
    for law in a:
        m = space.mutate(law, rng)
        assert m != law and 1 <= len(m.sizes) <= 3 and m.servers in (1, 3)
        assert min(m.sizes) >= space.k_min and sum(m.masses) == 6
    with pytest.raises(ValueError):
        SearchSpace(max_atoms=4, mass=3)


#: one server, sizes 0.16 (w.p. 11/12) and 0.99: a head-of-line job of 0.99 idles the
#: server until it drains, so FIFO-FF loses about a third of rho*; BF-J/S does not
HOL = SizeLaw((16, 99), (11, 1), 100, 12, 1)


def test_the_search_tells_a_weak_policy_from_a_strong_one():
    ff = evaluate_law("fifo-ff", HOL, **FAST)
    bf = evaluate_law("bf-js", HOL, **FAST)
    assert ff["unstable_seen"] and ff["upper"] <= 0.78
    assert bf["lower"] >= 0.8 > ff["upper"] - 0.05
    again = evaluate_law("fifo-ff", HOL, **FAST)  # same seed, same bracket
    assert (again["lower"], again["upper"]) == (ff["lower"], ff["upper"])
    assert 0.5 <= ff["thm2_fraction"] <= 1


def test_search_is_reproducible_resumable_and_parallel(tmp_path):
    space = SearchSpace(max_atoms=2, grid=20, mass=4, servers=(1,))
    kw = {"space": space, "per_round": 3, "seed": 5, **FAST}
    one = adversarial_search("fifo-ff", rounds=2, workers=1, **kw)
    two = adversarial_search("fifo-ff", rounds=2, workers=2, **kw)
    assert [b["key"] for b in one.best] == [b["key"] for b in two.best]
    assert [b["upper_or_hi"] for b in one.best] == [b["upper_or_hi"] for b in two.best]
    state = tmp_path / "search.json"
    adversarial_search("fifo-ff", rounds=1, workers=1, state=state, **kw)
    assert json.loads(state.read_text())["rounds"] == 1
    resumed = adversarial_search("fifo-ff", rounds=2, workers=1, state=state, **kw)
    assert sorted(resumed.evaluations) == sorted(one.evaluations)
    with pytest.raises(ValueError, match="other settings"):
        adversarial_search("fifo-ff", rounds=2, workers=1, state=state, **{**kw, "seed": 6})
    assert one.best == sorted(one.best, key=lambda b: (b["objective"], b["key"]))


def test_search_starts_from_given_laws_and_verifies():
    res = adversarial_search("fifo-ff", rounds=1, per_round=1, workers=1, start=[HOL],
                             space=SearchSpace(grid=100, mass=12, max_atoms=2), **FAST)
    assert res.best[0]["key"] == HOL.key
    v = verify("fifo-ff", HOL, repeats=2, workers=1, **FAST)
    assert len(v["brackets"]) == 2 and v["consistent"] and v["upper"] <= 0.8


def test_workers_are_honoured(monkeypatch):
    import policies.adversarial as A
    from policies import executors

    seen = []
    real = executors._processes

    def spy(fn, items, idx, workers):
        seen.append(workers)
        return real(fn, items, idx, workers)

    monkeypatch.setattr(executors, "_processes", spy)
    law = SizeLaw((40, 60), (1, 1), 100, 2, 1)
    one = A._evaluate_many("bf-js", [law], 1, FAST)  # one worker: no pool
    two = A._evaluate_many("bf-js", [law, law], 2, FAST)  # the shared pool, in order
    drop = lambda rows: [{k: v for k, v in r.items() if k != "seconds"} for r in rows]  # noqa: E731
    assert drop(two) == drop([one[0], one[0]])
    verify("bf-js", law, repeats=2, workers=1, **FAST)  # one worker: no pool
    adversarial_search("bf-js", rounds=1, per_round=2, workers=1,
                       space=SearchSpace(max_atoms=1, grid=10, mass=2, servers=(1,)), **FAST)
    assert seen == [2]


def test_bad_arguments():
    with pytest.raises(ValueError, match="relative_to"):
        adversarial_search("bf-js", relative_to="opt")
    with pytest.raises(ValueError, match="rounds"):
        adversarial_search("bf-js", rounds=0)
    with pytest.raises(ValueError, match="unknown policy|not a policy|policy"):
        adversarial_search("no-such-policy")


def test_a_search_space_too_small_is_refused():
    with pytest.raises(ValueError, match="exceeds the 2 sizes"):
        SearchSpace(max_atoms=3, grid=2, mass=12, servers=(1,))
    with pytest.raises(ValueError, match="too few distinct laws"):
        adversarial_search("bf-js", space=SearchSpace(max_atoms=1, grid=2, mass=1,
                                                      servers=(1,)),
                           per_round=8, rounds=1, workers=1)


@pytest.mark.parametrize("text", ["{garbage", "", "[]", "null", '{"config": {}}'])
def test_a_corrupt_state_file_is_one_clear_error(tmp_path, text):
    state = tmp_path / "state.json"
    state.write_text(text)
    with pytest.raises(ValueError, match="unreadable search state"):
        adversarial_search("bf-js", rounds=1, workers=1, state=state)
