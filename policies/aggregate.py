"""Statistics over the replications of a sweep's points (:func:`aggregate`).

Per point (the rows sharing the ``by`` columns): the mean of each metric with a
two-sided Student-t confidence interval over the replications, and a **pooled
stability verdict**. The procedure: each replication's detector
(:func:`policies.judge_stability`) estimates the same relative drift rd (the fraction of
the arriving work that piles up) from an independent sample path; their mean has a
Student-t interval ``[lo, hi]`` at ``confidence`` (0.99, the detector's) with n - 1
degrees of freedom over the n replications that were judged (a run with a
``verdict_reason``, no evidence either way, is left out). The pooled verdict uses the
detector's rule on that interval: ``unstable`` if ``lo > 0`` and the mean exceeds
``threshold`` (0.01), ``stable`` if ``hi < threshold``, else ``inconclusive``; fewer
than two judged replications are ``inconclusive``. Where single runs straddle the
threshold, n replications narrow the interval by about sqrt(n). Where instead each run
is decided but their drifts differ widely (an unstable system whose queues grow at
different rates from run to run), the pooled interval can be too wide to decide: then,
when at least two judged replications each reached the same verdict at the detector's
own 99% level, that unanimous verdict stands (``unanimous``). It only ever decides a
pool that is otherwise inconclusive: n runs each above the threshold have a mean above
it, so the pool cannot call them stable, nor n runs below it unstable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["aggregate", "pooled_verdict", "DRIFT_COLUMN", "REASON_COLUMN", "VERDICT_COLUMN"]

#: the store's column of each run's relative drift (policies.sweep_store.load_results)
DRIFT_COLUMN = "result.stability.relative_drift"
#: why a run is no evidence either way (None when it was judged)
REASON_COLUMN = "result.verdict_reason"
#: each run's own verdict
VERDICT_COLUMN = "result.verdict"


def _t_halfwidth(x: np.ndarray, confidence: float) -> float:
    from scipy.stats import t

    n = x.size
    if n < 2:
        return math.nan
    return float(t.ppf(0.5 + confidence / 2, n - 1) * x.std(ddof=1) / math.sqrt(n))


def pooled_verdict(drifts: Sequence[float], *, threshold: float = 0.01,
                   confidence: float = 0.99,
                   verdicts: Sequence[str] | None = None) -> dict[str, Any]:
    """The pooled verdict of the replications' relative drifts (see the module): the
    verdict, the mean drift, its interval, the number of judged replications, and
    whether the replications' own ``verdicts`` (aligned with ``drifts``), unanimous,
    decided a pool the interval left inconclusive (``unanimous``)."""
    if verdicts is not None and len(verdicts) != len(drifts):
        raise ValueError(f"{len(verdicts)} verdicts for {len(drifts)} drifts")
    keep = [i for i, d in enumerate(drifts) if d is not None and math.isfinite(d)]
    x = np.asarray([drifts[i] for i in keep], dtype=float)
    if x.size < 2:
        return {"verdict": "inconclusive", "drift": float(x.mean()) if x.size else None,
                "drift_ci": None, "judged": int(x.size), "unanimous": False}
    mean, h = float(x.mean()), _t_halfwidth(x, confidence)
    lo, hi = mean - h, mean + h
    verdict = ("unstable" if lo > 0 and mean > threshold
               else "stable" if hi < threshold else "inconclusive")
    own = {verdicts[i] for i in keep} if verdicts is not None else set()
    unanimous = verdict == "inconclusive" and len(own) == 1 and own <= {"stable", "unstable"}
    return {"verdict": own.pop() if unanimous else verdict, "drift": mean,
            "drift_ci": [lo, hi], "judged": int(x.size), "unanimous": unanimous}


def aggregate(frame: Any, by: Sequence[str] | str, *, metrics: Sequence[str] | None = None,
              confidence: float = 0.95, threshold: float = 0.01):  # noqa: ANN201
    """One row per point: ``by`` values, ``runs``, ``failed``, for each metric its
    ``mean`` and ``ci`` (the t half-width at ``confidence``; NaN for one run), and, when
    the runs have a stability detector's drift, the pooled verdict (``verdict``,
    ``drift``, ``drift_lo``, ``drift_hi``, ``judged``, ``unanimous``; see the module).
    ``metrics`` default: every numeric ``result.*`` column."""
    import pandas as pd

    keys = [by] if isinstance(by, str) else list(by)
    missing = [k for k in keys if k not in frame.columns]
    if missing:
        raise ValueError(f"no column {missing[0]!r} to group by; columns: "
                         f"{', '.join(map(str, frame.columns))}")
    if metrics is None:
        metrics = [c for c in frame.columns if str(c).startswith("result.")
                   and pd.api.types.is_numeric_dtype(frame[c])
                   and not pd.api.types.is_bool_dtype(frame[c]) and c != DRIFT_COLUMN]
    rows = []
    for values, group in frame.groupby(keys, sort=False, dropna=False):
        ok = group[group["status"] != "failed"]
        row: dict[str, Any] = dict(zip(keys, values if isinstance(values, tuple)
                                       else (values,), strict=True))
        row["runs"], row["failed"] = len(group), int((group["status"] == "failed").sum())
        for m in metrics:
            x = pd.to_numeric(ok[m], errors="coerce").dropna().to_numpy(dtype=float)
            row[f"{m}.mean"] = float(x.mean()) if x.size else math.nan
            row[f"{m}.ci"] = _t_halfwidth(x, confidence)
        if DRIFT_COLUMN in frame.columns:
            # a run the detector calls no evidence (its verdict_reason: nothing arrived or
            # left after the warm-up) brings no drift to the pool
            judged = ok if REASON_COLUMN not in ok.columns else ok[ok[REASON_COLUMN].isna()]
            own = judged[VERDICT_COLUMN].tolist() if VERDICT_COLUMN in judged.columns else None
            p = pooled_verdict(judged[DRIFT_COLUMN].tolist(), threshold=threshold,
                               verdicts=own)
            ci = p["drift_ci"] or [math.nan, math.nan]
            row.update(verdict=p["verdict"], drift=p["drift"], drift_lo=ci[0],
                       drift_hi=ci[1], judged=p["judged"], unanimous=p["unanimous"])
        rows.append(row)
    return pd.DataFrame(rows)
