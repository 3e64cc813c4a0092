"""PG21 Sec. VII, the simulation figures: Fig. 3a and 3b (which of BF-J/S, VQS and
VQS-BF is stable), Fig. 4 (average queue against traffic intensity) and Fig. 5 (the
Google trace).

Psychas & Ghaderi, "High-Throughput Bin Packing", IEEE/ACM ToN 2021, Sec. VII-A and
VII-B. The paper gives no horizon, warm-up or seed; the scales below choose them.
"""

from __future__ import annotations

from typing import Any

from proofs_checks.figures.drawing import color, label
from proofs_checks.figures.figure import Headline, PaperFigure, Run

__all__ = ["Fig3a", "FIGURES"]

#: points kept of a sample path for drawing
_PATH_POINTS = 1000


def _three_policies(sizes: Any, capacity: float = 1) -> list[Any]:
    """BF-J/S, and VQS and VQS-BF with J of PG21 Cor. 1 (sizes in capacity units)."""
    import policies as P

    return [P.BFJS(), P.VQS.for_distribution(sizes, capacity=capacity),
            P.VQSBF.for_distribution(sizes, capacity=capacity)]


def _paths(workload: Any, cluster: Any, pols: list[Any], series: str) -> dict[str, Any]:
    """Each policy's verdict, relative drift with its 99% interval and thinned path
    (PG21 Sec. VII-A: the three policies on the same jobs)."""
    import policies as P

    out: dict[str, Any] = {}
    for pol in pols:
        r = P.simulate(pol, workload, cluster)
        stride = max(1, r.slots // _PATH_POINTS)
        st = r.stability  # None: no evidence either way (nothing arrived after warm-up)
        lo, hi = st.relative_drift_ci if st is not None else (None, None)
        out[r.policy] = {"verdict": r.verdict,
                         "relative_drift": st.relative_drift if st is not None else None,
                         "drift_lo": lo, "drift_hi": hi, "warmup": r.summary()["warmup"],
                         "t": list(range(0, r.slots, stride)),
                         "value": getattr(r, series)[::stride].tolist()}
    return out


class _StabilityPaths(PaperFigure):
    """Fig. 3a and 3b: one sample path per replication of each policy on the same jobs,
    the CSV in long form (policy, replication, seed, t, value, the run's verdict)."""

    series: str
    ylabel: str
    expected: dict[str, str]

    def table(self, runs: list[Run], params: dict[str, Any]) -> Any:
        import pandas as pd

        rows = []
        for run in runs:
            for pol, res in run.result.items():
                for t, v in zip(res["t"], res["value"], strict=True):
                    rows.append({"policy": pol, "replication": run.replication,
                                 "seed": run.seed, "t": t, self.series: v,
                                 "verdict": res["verdict"],
                                 "relative_drift": res["relative_drift"],
                                 "drift_lo": res["drift_lo"], "drift_hi": res["drift_hi"],
                                 "warmup": res["warmup"]})
        return pd.DataFrame(rows)

    def draw(self, table: Any, params: dict[str, Any], fig: Any) -> None:
        ax = fig.subplots()
        first = table[table["replication"] == 0]
        for pol, g in first.groupby("policy", sort=False):
            ax.plot(g["t"], g[self.series], color=color(pol), lw=1,
                    ls="--" if pol == "vqs-bf" else "-",
                    label=f"{label(pol)} ({g['verdict'].iloc[0]})")
        ax.axvline(first["warmup"].iloc[0], color="0.6", ls=":", lw=1, label="end of warm-up")
        ax.set(xlabel="time slot", ylabel=self.ylabel,
               title=f"{self.title} (seed {first['seed'].iloc[0]})")
        ax.legend(loc="upper left")

    def check(self, table: Any, params: dict[str, Any]) -> list[Headline]:
        runs = table.drop_duplicates(["policy", "replication"])
        out = []
        for pol, claim in self.expected.items():
            got = runs.loc[runs["policy"] == pol, "verdict"].tolist()
            drifts = runs.loc[runs["policy"] == pol, "relative_drift"]
            out.append(Headline(f"{label(pol)} is {claim}",
                                bool(got) and all(v == claim for v in got),
                                f"verdicts {', '.join(got)}; relative drift "
                                f"{drifts.min():.4f} to {drifts.max():.4f}"))
        return out


class Fig3a(_StabilityPaths):
    """PG21 Sec. VII-A.1, Fig. 3a: one unit server, sizes 0.4 and 0.6 equally likely,
    Poisson arrivals at 0.014 per slot (rho = 1.4), geometric service of mean 100 slots.
    rho* = 2 (configuration {0.4, 0.6}); VQS packs only K_RED, so its capacity is
    2/3 rho* = 4/3 < 1.4: VQS is unstable, BF-J/S and VQS-BF are stable."""

    key = "pg21-fig3a"
    paper = "PG21"
    number = "Fig. 3a"
    shows = "total queued resource against time; VQS unstable, BF-J/S and VQS-BF stable"
    series = "queued_resource"
    ylabel = "total queued resource"
    expected = {"bf-js": "stable", "vqs": "unstable", "vqs-bf": "stable"}
    scales = {"quick": {"slots": 1_000_000, "replications": 1, "seed": 2021},
              "paper": {"slots": 10_000_000, "replications": 3, "seed": 2021}}
    paper_cost = "3 runs of 10^7 slots: about 15 s here (measured)"
    differs = ("the paper gives no horizon or seed; its path is one run of unknown length")

    def compute(self, point: dict[str, Any], params: dict[str, Any],
                seed: int | None) -> dict[str, Any]:
        import policies as P
        from theory.distributions import Discrete

        sizes = Discrete(["0.4", "0.6"])
        w = P.pg21_workload(sizes, servers=1, slots=params["slots"], mu=0.01, workload=1.4,
                            seed=seed)
        return _paths(w, P.Cluster.identical(1), _three_policies(sizes), self.series)


FIGURES = [Fig3a()]
