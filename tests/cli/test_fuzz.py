"""Command lines built from the flags' grammar, extreme numbers and malformed files.

Whatever the command line, ``packsched`` ends with a documented exit status (0 ok, 1 a
violated check, 2 bad input or usage, 3 a failed computation, never an internal error),
never prints a traceback, prints exactly one JSON document on stdout when ``--json``
succeeds and nothing on stdout when it fails (then one ``packsched: error:`` line), and
returns within a wall-clock limit (a request too big must be refused by its budget, not
run). CI runs a small number of examples; ``--runslow`` runs many more.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from packsched.cli import main
from tests.wall_clock import within

#: seconds one command line may take (numba's first compile is excluded: see _warm)
LIMIT = 30.0


# -- files -----------------------------------------------------------------------------

FILES_DIR: Path | None = None

FILE_CONTENTS: dict[str, bytes] = {
    "bpp_ok": b"4\n10\n2\n5\n5\n3\n",
    "bpp_extra_token": b"3\n10\n2 2\n5\n5\n",
    "bpp_abc": b"2\n10\n10 abc\n5\n",
    "csp_layout": b"2\n10\n3 4\n5 2\n",
    "bpp_huge_capacity": b"2\n1e300\n2\n5\n",
    "bpp_huge_int": b"2\n" + b"1" + b"0" * 300 + b"\n2\n5\n",
    "bpp_count_mismatch": b"5\n10\n2\n5\n",
    "bpp_float_weight": b"2\n10\n2.5\n5\n",
    "bpp_negative": b"2\n10\n-2\n5\n",
    "bpp_over_capacity": b"2\n10\n12\n5\n",
    "empty": b"",
    "binary": bytes(range(256)) * 4,
    "latin1": "4\n10\n2\n5\xe9\n".encode("latin-1"),
    "sizes_ok": b"0.4\n0.6\n0.4\n",
    "sizes_vectors": b"0.4,0.1\n0.6,0.2\n",
    "sizes_bad": b"0.4\nabc\n",
    "sizes_nan": b"nan\n0.5\n",
    "sizes_huge": b"1e400\n",
    "sizes_tiny": b"1e-30\n0.5\n",
    "jobs_ok": b"id,arrival,processing,weight,demand_0,demand_1\nj1,0,1,1,2,1\nj2,1,2,1,3,1\n",
    "jobs_1d": b"id,arrival,processing,demand_0\nj1,0,2,1\nj2,0,1,2\n",
    "jobs_float": b"id,arrival,processing,demand_0\nj1,0,1.5,1\n",
    "jobs_big": b"id,arrival,processing,demand_0\nj1,0,1,500\n",
    "jobs_many": b"id,arrival,processing,demand_0\n" + b"".join(
        b"j%d,%d,%d,1\n" % (i, i % 7, 1 + i % 5) for i in range(40)),
    "jobs_dup": b"id,arrival,processing,demand_0\nj,0,1,1\nj,0,1,1\n",
    "jobs_header": b"id,arrival,proc,demand_0\nj,0,1,1\n",
    # times past float resolution, a third resource, a unit FL24 machine
    "jobs_far": b"id,arrival,processing,weight,demand_0\na,1e17,1,1,0.6\nb,1e17,1,1,0.6\n",
    "jobs_2p53": b"id,arrival,processing,weight,demand_0\na,9007199254740993,1,1,1\n",
    "jobs_tiny_p": b"id,arrival,processing,weight,demand_0\na,1e6,1e-12,1,0.5\n"
                   b"b,1e6,1,1,0.6\n",
    "jobs_three": b"id,arrival,processing,weight,demand_0,demand_1,demand_2\n"
                  b"a,0,2,1,1,1,3\nb,0,2,1,1,1,3\n",
    "jobs_late": b"id,arrival,processing,weight,demand_0\na,0,1,1,1\nb,100000000,1,1,1\n",
    "cluster_unit": b"id,capacity_0\nm1,1\n",
    "cluster_three": b"id,capacity_0,capacity_1,capacity_2\nm1,4,4,4\n",
    "cluster_ok": b"id,capacity_0,capacity_1\nm1,4,4\nm2,2,2\n",
    "cluster_1d": b"id,capacity_0\nm1,4\n",
    "cluster_zero": b"id,capacity_0\nm1,0\n",
    "cluster_huge": b"id,capacity_0\nm1,1e400\n",
}


def _file(name: str) -> str:
    assert FILES_DIR is not None
    return str(FILES_DIR / name)


# -- the grammar -----------------------------------------------------------------------

NUMBERS = ["0", "1", "-1", "2", "0.5", "1e-30", "1e-300", "1e300", "1e400", "nan", "inf",
           "-inf", "abc", "", "1/3", "1/0", "3.5", "10000000000", "100000000", "63", "64",
           "40", "30", "-0.3", "0x10", " 1 ", "1_000", "9" * 50]
SIZE_LISTS = ["0.4,0.6", "0.4", "-0.3,0.5", "0.4,1.2", "1e-30", "1e-30,0.5", "0.4,,0.6",
              ",", "", "0.4:0.2,0.6:0.1", "0.4:,0.6", "nan", "inf,0.5", "2,5", "0,0.5",
              "abc", "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,0.15,0.25,0.35,0.45,0.55,0.65,"
              "0.75,0.85,0.95,0.12,0.22", "1/2-1/1000,1/2+1/1000", "0.5,0.5,0.5"]
PROB_LISTS = ["0.5,0.5", "1", "0.5,0.6", "-0.5,1.5", "nan,1", "1/3,2/3", "0,1", ",", "abc"]
DISTS = ["uniform:0.1,0.9", "uniform:0.9,0.1", "uniform:", "point:0.5", "point:2",
         "beta:2,2", "beta:-1,2", "discrete:0.4@0.5,0.6@0.5", "discrete:0.4@", "mixture:",
         "mixture:1/2*point:0.5+1/2*uniform:0.1,0.9", "nope:1", "uniform:1e-30,1e-29", ""]

number = st.sampled_from(NUMBERS)
sizes = st.sampled_from(SIZE_LISTS)
probs = st.sampled_from(PROB_LISTS)
dist = st.sampled_from(DISTS)
files = st.sampled_from(sorted(FILE_CONTENTS)).map(_file)
trace = st.one_of(st.sampled_from(["google2011", "google2011:max", "google2011:cpu",
                                   "google2011:nope", "borg", "/no/such/file"]), files)

RHO_STAR = {
    "--sizes": sizes, "--probs": probs, "--counts": st.sampled_from(["3,1", "1", "0,1",
                                                                     "-1,2", "1.5,1"]),
    "--instance": files, "--instance-format": st.sampled_from(["bpp", "csp", "xyz"]),
    "--dist": dist, "--trace": trace, "--servers": number, "--capacity": number,
    "--levels": number, "--vqs": number, "--grid": number, "--method":
        st.sampled_from(["auto", "enumerate", "column-generation", "simplex"]),
    "--max-configurations": number, "--max-types": number,
}
SIMULATE = {
    "--policy": st.sampled_from(["bf-js", "bf-j", "bf-s", "vqs", "vqs-bf", "fifo-ff",
                                 "maxweight", "nope", "BF-JS", "rms", "rms-rf-ad-plus", "bf",
                                 "mws", "rms-jsq"]),
    "--sizes": st.one_of(sizes, st.sampled_from(["0.3;0.6", "2,5;3,,4", "2,5;;3,4", "1e-7;4",
                                                 "8,15;6.5,17.1", ";"])),
    "--probs": probs, "--dist": dist,
    # PG18's flags (empty entries, non-finite and fractional counts, every flag against
    # every family)
    "--rates": st.sampled_from(["1,1", "2,,1", "1", "nan,1", "", "1e300,1"]),
    "--time": st.sampled_from(["5", "0", "-1", "inf", "1e12", ""]),
    "--clock-rates": st.sampled_from(["2", "1,,2", "inf"]), "--epsilon": number,
    "--f": st.sampled_from(["log", "log-power", "x"]), "--b": number,
    "--stop-fraction": number, "--pareto-alpha": number, "--scv": number,
    "--service": st.sampled_from(["exponential", "deterministic", "hyperexponential",
                                  "pareto", "x"]),
    "--samples": st.sampled_from(["0", "", "inf", "1.7", "100", "1e12", "10000000000000"]),
    "--max-ticks": number, "--engine": st.sampled_from(["auto", "python", "compiled"]),
    "--trace": st.sampled_from(["google2011", "borg"]), "--servers": number,
    "--capacity": number, "--mu": number, "--deterministic": number, "--workload": number,
    "--intensity": number, "--slots": st.sampled_from(["1", "100", "5000", "0", "-5",
                                                       "10000000000", "1e6", "abc"]),
    "--warmup": number, "--seed": number, "--J": number, "--levels": number,
    "--arrivals": st.sampled_from(["poisson", "bernoulli", "x"]),
    "--traffic-scaling": number, "--max-memory": st.sampled_from(["8G", "1", "0", "abc",
                                                                  "1e30", "512M"]),
}
VERIFY = {"--list": None, "--claim": st.sampled_from(["Nope", "PG21.Prop2", "PG21", ""]),
          "--paper": st.sampled_from(["PG21", "PG18", "XLL21", "nope", ""]),
          "--quick": None}
jobs_files = st.one_of(st.sampled_from(sorted(n for n in FILE_CONTENTS if n.startswith(
    "jobs"))).map(_file), files, st.just("/no/such/file"))
cluster_files = st.one_of(st.sampled_from(sorted(n for n in FILE_CONTENTS if n.startswith(
    "cluster"))).map(_file), files)
SCHEDULE = {
    "--policy": st.sampled_from(["fair", "srpt", "svf", "srvf", "srf", "ocorp", "ocorp-m",
                                 "transient-svf", "ocorp-mapreduce", "bf-js", "nope",
                                 "mris", "mris-greedy", "pq-wsjf", "tetris", "bf-exec",
                                 "ca-pq"]),
    "--eps": st.sampled_from(["0.1", "0", "1", "1.5", "abc"]),
    "--sort": st.sampled_from(["wsjf", "erf", "nope"]),
    "--capacity-rule": st.sampled_from(["proof", "printed", "x"]),
    "--gamma0": st.sampled_from(["1", "0", "-2", "1e300", "0.25"]),
    "--max-dp-cells": st.sampled_from(["1", "100", "0"]), "--allow-unfinished": None,
    "--max-memory": st.sampled_from(["8G", "1", "600M"]),
    "--jobs": jobs_files, "--cluster": cluster_files, "--k": number, "--memory": None,
    "--no-memory": None, "--gamma": number, "--mu": number, "--alpha": number,
    "--max-slots": st.sampled_from(["1", "5", "0", "-1", "1e9", "abc"]),
}
OPTIMUM = {
    "--jobs": jobs_files, "--cluster": cluster_files, "--k": number,
    "--objective": st.sampled_from(["flowtime", "fractional-flowtime",
                                    "weighted-completion", "makespan", "nope"]),
    "--relax": None, "--memory": None, "--horizon": st.sampled_from(["1", "3", "50", "0"]),
    "--time-limit": st.sampled_from(["5", "0", "-1", "abc"]),
    "--max-variables": st.sampled_from(["10", "1000000", "0"]),
    "--no-memory": None, "--max-nonzeros": st.sampled_from(["10", "20000000"]),
    "--max-memory": st.sampled_from(["1", "8G"]),
}
GRAMMAR = {"rho-star": RHO_STAR, "simulate": SIMULATE, "verify": VERIFY, "errata": {},
           "policies": {}, "schedule": SCHEDULE, "optimum": OPTIMUM}


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from([*GRAMMAR, "nope", "--version", "--help"]))
    if command not in GRAMMAR:
        return [command]
    grammar = GRAMMAR[command]
    flags = draw(st.lists(st.sampled_from(sorted(grammar)), max_size=6, unique=True)) \
        if grammar else []
    argv = [command]
    for flag in flags:
        value_of = grammar[flag]
        if value_of is None:
            argv.append(flag)
            continue
        value = draw(value_of)
        argv += [f"{flag}={value}"] if draw(st.booleans()) else [flag, value]
    if command in ("schedule", "optimum"):  # the required files, usually good ones
        for flag, good in (("--jobs", "jobs_1d"), ("--cluster", "cluster_1d")):
            if flag not in argv:
                argv += [flag, _file(good)]
        if command == "optimum" and "--objective" not in argv:
            argv += ["--objective", "flowtime"]
        if command == "optimum" and not any(a.startswith("--time-limit") for a in argv):
            argv += ["--time-limit", "10"]  # the default 60 s is above the fuzz's limit
        if command == "schedule" and "--policy" not in argv:
            argv += ["--policy", "srpt"]
    if command == "verify" and "--list" not in argv and "--claim" not in argv:
        argv += ["--claim", "PG21.Prop2"]  # running the catalogue is minutes, not a fuzz case
    if draw(st.booleans()):
        argv.append("--json")
    if draw(st.integers(0, 20)) == 0:
        argv.append(draw(st.sampled_from(["--bogus", "extra", "--help"])))
    return argv


@pytest.fixture(scope="module", autouse=True)
def _files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    global FILES_DIR
    FILES_DIR = tmp_path_factory.mktemp("fuzzfiles")
    for name, content in FILE_CONTENTS.items():
        (FILES_DIR / name).write_bytes(content)
    _warm()
    yield


def _warm() -> None:
    """Compile the numba kernel before any timed call."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "1",
              "--slots", "100"])


def check_command_line(argv: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), within(LIMIT):
        code = main(argv)
    seconds = time.perf_counter() - t0
    out_s, err_s = out.getvalue(), err.getvalue()
    where = f"packsched {' '.join(argv)!r}: exit {code}, {seconds:.1f} s\nstderr: {err_s}"
    assert code in (0, 1, 2, 3), where
    assert "Traceback" not in err_s, where
    assert "internal error" not in err_s, where
    errors = [ln for ln in err_s.splitlines() if ln.startswith("packsched: error:")]
    if "--help" in argv or "--version" in argv:
        return
    if code in (2, 3):
        assert out_s == "", where
        assert len(errors) == 1 and err_s.rstrip("\n").endswith(errors[0]), where
    else:
        assert not errors, where
        if "--json" in argv:
            assert out_s.endswith("\n") and out_s.count("\n") == 1, where
            d = json.loads(out_s)
            if argv[0] == "schedule" and "--allow-unfinished" not in argv:
                # a stopped run is never printed as an answer
                assert d.get("status", "finished") == "finished", where
                assert None not in d["completion"] and d["invariants_ok"] is True, where


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(command_lines())
def test_fuzz_command_lines(argv: list[str]) -> None:
    check_command_line(argv)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(command_lines())
def test_fuzz_command_lines_long(argv: list[str]) -> None:
    check_command_line(argv)


#: command lines that once gave a wrong answer, a traceback or a runaway computation, each
#: a regression case
REGRESSIONS = [
    ["rho-star", "--instance", "@csp_layout"],
    ["rho-star", "--instance", "@bpp_abc"],
    ["rho-star", "--instance", "@bpp_huge_capacity"],
    ["rho-star", "--instance", "@binary"],
    ["rho-star", "--sizes", "0.4,0.6", "--vqs", "63"],
    ["rho-star", "--sizes", "1e-30"],
    ["rho-star", "--sizes", "0.5", "--capacity", "1e400"],
    ["rho-star", "--dist", "uniform:0.1,0.9", "--levels", "40"],
    ["rho-star", "--trace", "@sizes_ok", "--grid", "1000000000"],
    ["rho-star", "--trace", "@sizes_ok", "--grid", "1"],
    ["rho-star", "--sizes", "0.4", "--capacity", "0"],
    ["rho-star", "--sizes", "-0.3,0.5"],
    ["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "1e9"],
    ["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "1",
     "--slots", "10000000000"],
    ["simulate", "--policy", "bf-js", "--dist", "uniform:0.1,0.9", "--intensity", "1e9"],
    ["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "1",
     "--servers", "100000000"],
    ["simulate", "--policy", "maxweight", "--sizes", SIZE_LISTS[16], "--workload", "1"],
    ["simulate", "--policy", "maxweight", "--dist", "uniform:0.1,0.9", "--levels", "30",
     "--workload", "1"],
    ["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "1", "--seed=-1"],
    ["verify", "--list", "--claim", "Nope"],
]


@pytest.mark.parametrize("argv", REGRESSIONS, ids=lambda a: " ".join(a)[:60])
def test_regression_command_lines_end_cleanly(argv: list[str]) -> None:
    check_command_line([_file(a[1:]) if a.startswith("@") else a for a in argv])


def test_console_script_has_no_traceback_on_bad_input() -> None:
    """The same contract through a real process (import errors, the exit status)."""
    for argv in (["rho-star", "--sizes", "-0.3,0.5", "--json"],
                 ["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "1",
                  "--seed=-1"],
                 ["rho-star", "--bogus"]):
        proc = subprocess.run([sys.executable, "-m", "packsched", *argv], capture_output=True,
                              text=True, timeout=120, check=False)
        assert proc.returncode == 2 and proc.stdout == "", proc.stderr
        assert proc.stderr.startswith("packsched: error: ") and proc.stderr.count("\n") == 1, \
            proc.stderr
