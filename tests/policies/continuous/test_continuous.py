"""The PG18 continuous-time family: model, policies, invariants, bad input."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest

import policies as P
from packsched.cli import main
from policies.continuous import ContinuousPolicy, ContinuousState, weight_function
from policies.workload import Workload
from theory.instances import EC2_TABLE_I

FIG1B = P.JobTypes([[2.0], [5.0]], mu=[1.0, 1.0])
EC2 = P.JobTypes(EC2_TABLE_I.sizes())  # PG18 Table I
EC2_SERVER = EC2_TABLE_I.capacity()


def _fig1b(horizon: float = 50.0, seed: int = 1) -> tuple[Workload, P.Cluster]:
    return (P.poisson_type_workload(FIG1B, [20.8, 10.4], horizon, seed=seed),
            P.Cluster.identical(10, 10.0))


# -- model ------------------------------------------------------------------------------


def test_service_laws_have_their_means() -> None:
    u = (np.arange(200_000) + 0.5) / 200_000
    for law in (P.ServiceTime("exponential", 2.0), P.ServiceTime("deterministic", 2.0),
                P.ServiceTime("hyperexponential", 2.0, scv=4.0),
                P.ServiceTime("pareto", 2.0, alpha=3.0)):
        x = law.from_uniform(u)
        assert abs(x.mean() - 2.0) < 0.02 * 2.0, law
    h = P.ServiceTime("hyperexponential", 1.0, scv=4.0).from_uniform(u)
    assert abs(h.var() / h.mean() ** 2 - 4.0) < 0.2


def test_poisson_type_workload_rates_and_types() -> None:
    w = P.poisson_type_workload(EC2, [6.0, 33.0, 6.0], 2000.0, seed=4)
    counts = np.bincount(w.job_type, minlength=3) / 2000.0
    assert np.allclose(counts, [6, 33, 6], rtol=0.05)
    assert np.array_equal(w.demand, EC2.sizes[w.job_type])
    assert abs(w.service.mean() - 1.0) < 0.02
    again = P.poisson_type_workload(EC2, [6.0, 33.0, 6.0], 2000.0, seed=4)
    assert np.array_equal(w.arrival, again.arrival)


def test_mean_maximal_point_and_boundary() -> None:
    C = P.Cluster.identical(10, 10.0)
    # PG18 calls V a boundary point; for sizes 2 and 5 it is inside C (scaling 30/29)
    assert np.allclose(P.mean_maximal_point(FIG1B, C), [70 / 3, 10])
    assert np.allclose(P.rates_for_intensity(FIG1B, C, 1.0), np.array([70 / 3, 10]) * 30 / 29)
    assert np.allclose(P.rates_for_intensity(FIG1B, C, 1.0, reference="paper"), [70 / 3, 10])
    assert np.allclose(P.rates_for_intensity(EC2, P.Cluster.identical(20, EC2_SERVER), 0.9),
                       [12, 66, 12])


def test_weight_functions_and_M() -> None:
    assert weight_function("log")(np.e - 1) == pytest.approx(1.0)
    assert weight_function("log-power", 0.75)(np.e ** 16 - 1) == pytest.approx(2.0)
    from policies.continuous import max_jobs_per_server

    assert max_jobs_per_server(FIG1B.sizes, np.array([[10.0]])) == 5
    assert max_jobs_per_server(EC2.sizes, np.array([EC2_SERVER], dtype=float)) == 5


# -- runs -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", P.policies_of("pg18-continuous"))
def test_every_policy_runs_with_invariants(name: str) -> None:
    w, C = _fig1b(30.0)
    r = P.simulate_continuous(P.make_policy(name), w, C, FIG1B, seed=2, samples=200)
    assert r.invariants_ok, r.invariants
    assert r.started > 0.8 * r.jobs
    s = r.summary()
    json.dumps(s)
    assert s["policy"] == name
    again = P.simulate_continuous(P.make_policy(name), w, C, FIG1B, seed=2, samples=200)
    assert np.array_equal(r.server, again.server) and r.ticks == again.ticks


def test_clocks_and_dummies_are_counted() -> None:
    w, C = _fig1b(40.0)
    rms = P.simulate_continuous(P.make_policy("rms"), w, C, FIG1B, seed=0)
    bf = P.simulate_continuous(P.make_policy("bf"), w, C, FIG1B, seed=0)
    assert rms.ticks == pytest.approx(20 * 40, rel=0.1)  # clocks of rate L per type
    assert bf.ticks == 0 and bf.dummy_placements == 0 and not bf.dummy_fraction.any()
    assert rms.dummy_placements > 0 and rms.dummy_log.shape == (rms.dummy_placements, 4)
    assert 0 < rms.busy_fraction[0] < 1


def test_work_conserving_bf_leaves_no_fitting_job_waiting() -> None:
    """Definition 1, checked on the state after every event of a run."""

    class Watched(P.BestFit):
        def on_departure(self, st, server, j, job, row):  # noqa: ANN001
            super().on_departure(st, server, j, job, row)
            for jj in np.flatnonzero(st.Q[0] > 0):
                assert st.fitting_servers(int(jj)).size == 0

    w, C = _fig1b(20.0)
    P.simulate_continuous(Watched(), w, C, FIG1B, seed=0)


def test_user_policy_plain_python() -> None:
    class FirstFit(ContinuousPolicy):
        name = "first-fit"

        def on_arrival(self, st: ContinuousState, job: int, j: int, row: int) -> None:
            fit = st.fitting_servers(j)
            if fit.size and st.Q[0, j] == 1:
                st.start_job(int(fit[0]), j)

        def on_departure(self, st, server, j, job, row):  # noqa: ANN001
            for jj in range(st.J):
                while st.Q[0, jj] and st.fits(server, jj):
                    st.start_job(server, jj)

    w, C = _fig1b(20.0)
    r = P.simulate_continuous(FirstFit(), w, C, FIG1B, seed=0)
    assert r.invariants_ok and r.policy == "first-fit"


def test_fixed_weights_give_rms_bar_without_queues() -> None:
    """No arrivals: only dummies, the chain of Definition 2 (rates (7)-(8))."""
    empty = Workload(np.zeros(0), np.zeros((0, 1)), np.zeros(0), 500.0,
                     job_type=np.zeros(0, np.int64))
    C = P.Cluster.identical(2, 10.0)
    r = P.simulate_continuous(P.RMS(weights=[0.5, 1.0]), empty, C, FIG1B, seed=0)
    assert r.jobs == 0 and r.dummy_placements > 100 and r.invariants_ok
    assert r.verdict == "inconclusive"  # no arrivals: no evidence


# -- invariants can fail ----------------------------------------------------------------


def _tampered(r: P.ContinuousResult, **changes: object) -> P.ContinuousResult:
    return dataclasses.replace(r, **changes)


def test_invariant_checker_catches_broken_records() -> None:
    from policies.invariants import check_continuous_run

    w, C = _fig1b(30.0)
    r = P.simulate_continuous(P.make_policy("bf"), w, C, FIG1B, seed=0)
    service = w.service[: r.jobs]
    assert check_continuous_run(r, FIG1B, C, service, served=r.started).ok
    # every started job moved to server 0: over capacity
    srv = np.where(r.server >= 0, 0, -1)
    rep = check_continuous_run(_tampered(r, server=srv), FIG1B, C, service, served=r.started)
    assert not rep.ok and "over capacity" in " ".join(rep.violations)
    # dummies counted as served work
    rep = check_continuous_run(r, FIG1B, C, service, served=r.started + 3)
    assert not rep.ok and "dummy" in " ".join(rep.violations)
    # a job started before it arrived
    st = r.start.copy()
    st[np.flatnonzero(r.server >= 0)[5]] -= 1.0
    rep = check_continuous_run(_tampered(r, start=st), FIG1B, C, service, served=r.started)
    assert not rep.ok
    # a queue series that disagrees with the record
    q = r.queue.copy()
    q[len(q) // 2] += 1
    rep = check_continuous_run(_tampered(r, queue=q), FIG1B, C, service, served=r.started)
    assert not rep.ok and "queue" in " ".join(rep.violations)


def test_invariant_checker_sees_dummy_overload() -> None:
    from policies.invariants import check_continuous_run

    w = P.poisson_type_workload(FIG1B, [2.0, 1.0], 30.0, seed=1)  # light: queues empty
    C = P.Cluster.identical(10, 10.0)
    r = P.simulate_continuous(P.make_policy("rms"), w, C, FIG1B, seed=0)
    service = w.service[: r.jobs]
    assert r.invariants_ok
    log = r.dummy_log.copy()
    assert log.shape[0] >= 3
    log[:, 0], log[:, 1], log[:, 2], log[:, 3] = 0.0, r.horizon, 0, 1  # size-5 dummies, one server
    rep = check_continuous_run(_tampered(r, dummy_log=log), FIG1B, C, service,
                               served=r.started)
    assert not rep.ok


# -- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, match", [
    ({"sizes": [[2.0], [12.0]]}, "fits no server"),
    ({"sizes": [[2.0], [float("nan")]]}, "finite"),
    ({"sizes": [[2.0], [-1.0]]}, "non-negative"),
    ({"sizes": [[0.0], [1.0]]}, "no resource"),
    ({"mu": [1.0, 0.0]}, "positive"),
    ({"mu": [1.0, -2.0]}, "positive"),
    ({"mu": [1.0, float("inf")]}, "positive"),
])
def test_bad_types(kwargs: dict, match: str) -> None:
    args = {"sizes": [[2.0], [5.0]], "mu": [1.0, 1.0], **kwargs}
    with pytest.raises(ValueError, match=match):
        T = P.JobTypes(**args)
        T.check_cluster(P.Cluster.identical(2, 10.0))


@pytest.mark.parametrize("rates", [[1.0, 0.0], [1.0, -1.0], [1.0, float("nan")], [1.0]
                                   * 3, "1,2"])
def test_bad_rates(rates: object) -> None:
    with pytest.raises(ValueError):
        P.poisson_type_workload(FIG1B, rates, 10.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("params, match", [
    ({"clock_rates": 0.0}, "rate 0"),
    ({"clock_rates": [1.0, -1.0]}, "positive"),
    ({"epsilon": 1.0}, "epsilon"),
    ({"epsilon": 0.0}, "epsilon"),
    ({"b": 1.5}, "b must"),
    ({"f": "sqrt"}, "f must"),
    ({"routing": "jsq2"}, "unknown routing rule"),
    ({"sampling": "worst-fit"}, "sampling"),
])
def test_bad_rms_parameters(params: dict, match: str) -> None:
    w, C = _fig1b(5.0)
    with pytest.raises(ValueError, match=match):
        P.simulate_continuous(P.RMS(**params), w, C, FIG1B)


def test_mismatched_inputs() -> None:
    w, C = _fig1b(5.0)
    with pytest.raises(ValueError, match="resource"):
        P.simulate_continuous(P.RMS(), w, P.Cluster.identical(2, [10.0, 10.0]), FIG1B)
    with pytest.raises(ValueError, match="horizon"):
        P.simulate_continuous(P.RMS(), w, C, FIG1B, horizon=10.0)
    with pytest.raises(ValueError, match="warmup"):
        P.simulate_continuous(P.RMS(), w, C, FIG1B, warmup=5.0)
    with pytest.raises(TypeError, match="ContinuousPolicy"):
        P.simulate_continuous(P.make_policy("bf-js"), w, C, FIG1B)  # type: ignore[arg-type]
    untyped = Workload(np.array([0.5]), np.array([2.0]), np.array([1.0]), 5.0)
    with pytest.raises(ValueError, match="job types"):
        P.simulate_continuous(P.RMS(), untyped, C, FIG1B)
    with pytest.raises(ValueError, match="unknown policy"):
        P.make_policy("rms-xx")
    with pytest.raises(ValueError, match="stop_fraction"):
        P.make_policy("mws", stop_fraction=1.0)


CLI = ["simulate", "--sizes", "2,5", "--capacity", "10", "--servers", "10"]


@pytest.mark.parametrize("extra, match", [
    (["--policy", "rms", "--rates", "1,0", "--time", "10"], "positive"),
    (["--policy", "rms", "--rates", "1,1", "--mu", "1,-1", "--time", "10"], "positive"),
    (["--policy", "rms", "--rates", "1,1", "--time", "10", "--clock-rates", "0"], "rate 0"),
    (["--policy", "rms", "--rates", "1,1", "--time", "0"], "horizon"),
    (["--policy", "rms", "--rates", "1,1"], "--time"),
    (["--policy", "rms", "--rates", "1,1,1", "--time", "5"], "3 entries for 2"),
    (["--policy", "rms", "--rates", "1,1", "--time", "5", "--slots", "9"], "--slots"),
    (["--policy", "bf-js", "--workload", "1", "--time", "5"], "--time"),
    (["--policy", "rms", "--rates", "1,1", "--time", "5", "--epsilon", "2"], "epsilon"),
])
def test_cli_bad_input_exit_2(extra: list[str], match: str,
                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(CLI + extra) == 2
    assert match in capsys.readouterr().err


def test_cli_type_fitting_no_server(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--policy", "rms", "--sizes", "2,12", "--capacity", "10",
                 "--rates", "1,1", "--time", "5"]) == 2
    assert "fits no server" in capsys.readouterr().err


def test_cli_vector_sizes_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--policy", "rms-rf-ad-plus", "--sizes",
                 EC2_TABLE_I.sizes_text, "--capacity", EC2_TABLE_I.capacity_text,
                 "--servers", "5", "--intensity", "0.9", "--time", "60", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["policy"] == "rms-rf-ad-plus" and out["invariants_ok"] is True
    assert out["input"]["sizes"][1] == [17.1, 6.5, 420.0]
    assert out["params"]["clock_rates"] == [25.0, 25.0, 25.0]  # 5 servers, x5 clock
    assert math.isfinite(out["mean_queue"]) and out["ticks"] > 0


def test_cli_engine_choice(capsys: pytest.CaptureFixture[str]) -> None:
    """--engine picks the engine (recorded in params); both give the same run; the
    compiled engine refuses MaxWeight; a slotted policy refuses the flag."""
    args = ["simulate", "--sizes", "2,5", "--capacity", "10", "--servers", "4",
            "--rates", "8,4", "--time", "100", "--json"]
    outs = {}
    for engine in ("python", "compiled"):
        assert main([*args, "--policy", "rms-bf", "--engine", engine]) == 0
        outs[engine] = json.loads(capsys.readouterr().out)
        assert outs[engine]["params"]["engine"] == engine
    same = ("mean_queue", "ticks", "dummy_placements", "events", "started")
    assert [outs["python"][k] for k in same] == [outs["compiled"][k] for k in same]
    assert main([*args, "--policy", "mws", "--engine", "compiled"]) == 2
    assert "compiled engine runs the built-in RMS and Best-Fit" in capsys.readouterr().err
    assert main(["simulate", "--policy", "vqs", "--engine", "python"]) == 2
    assert "--engine" in capsys.readouterr().err


def test_lemma1_simulation_check_rejects_a_wrong_simulator() -> None:
    """The chi-square check of (9) fails when the simulated chain is not RMS-bar: here
    departures are replaced with probability exp(-w) instead of 1 - exp(-w)."""
    from proofs_checks.checks import pg18_dynamics as D

    class Swapped(D._Recording):
        def on_departure(self, state, server, j, job, row):  # noqa: ANN001
            if state.random() < math.exp(-float(self.weights(state, row)[j])):
                state.place(server, j, row)
            self._record(state)

    types = P.JobTypes([[2.0], [5.0]], mu=[1.0, 0.5])
    caps, rates, weights = [10.0, 10.0], [2.0, 1.0], [0.5, 1.2]
    cluster = P.Cluster(np.array([caps]).T)
    law = D.product_form_9(types, caps, rates, weights)
    good = D.rms_bar_samples(types, cluster, rates, weights, 8000.0, 4.0, seed=1)
    bad = D.rms_bar_samples(types, cluster, rates, weights, 8000.0, 4.0, seed=1,
                            recorder=Swapped)
    assert D.chi_square_lemma1(good, law)[1] > 1e-3
    assert D.chi_square_lemma1(bad, law)[1] < 1e-6


def test_cli_clock_ticks_budget(capsys: pytest.CaptureFixture[str]) -> None:
    """Clock rates that would tick 10^14 times are refused before the run, naming
    --max-ticks; a non-positive --max-ticks is a usage error."""
    args = ["simulate", "--policy", "rms", "--sizes", "2,5", "--capacity", "10",
            "--servers", "10", "--rates", "20.8,10.4", "--time", "100"]
    assert main([*args, "--clock-rates", "1e12"]) == 2
    assert "--max-ticks" in capsys.readouterr().err
    assert main([*args, "--max-ticks", "-3"]) == 2
    assert "--max-ticks" in capsys.readouterr().err
