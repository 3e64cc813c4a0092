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
    """The pooled stability verdict of the replications' relative drifts.

    The mean of the finite drifts gets a two-sided Student-t interval ``[lo, hi]``
    (n - 1 degrees of freedom); the verdict is ``unstable`` if ``lo > 0`` and the mean
    exceeds ``threshold``, ``stable`` if ``hi < threshold``, else ``inconclusive``
    (the detector's rule, :func:`policies.judge_stability`, applied to the pool). Fewer
    than two finite drifts are ``inconclusive``. An inconclusive pool whose judged
    replications all reached the same decided verdict takes that verdict
    (``unanimous``; see the module docstring for why this never contradicts the
    interval).

    Parameters
    ----------
    drifts : sequence of float
        Each replication's relative drift (``StabilityVerdict.relative_drift``: the
        fraction of the arriving work that piles up). None, NaN and infinite entries
        are left out (not judged).
    threshold : float, optional
        The relative-drift threshold eps of the verdict (default 0.01, the detector's).
    confidence : float, optional
        Two-sided confidence level of the interval (default 0.99, the detector's).
    verdicts : sequence of str, optional
        Each replication's own verdict, aligned with ``drifts``; only used to decide a
        pool the interval leaves inconclusive.

    Returns
    -------
    dict
        ``verdict`` (``stable``, ``unstable`` or ``inconclusive``), ``drift`` (the mean,
        None with no finite drift), ``drift_ci`` (``[lo, hi]``, None with fewer than two),
        ``judged`` (the number of finite drifts) and ``unanimous`` (whether the
        replications' own verdicts decided the pool).

    Raises
    ------
    ValueError
        ``verdicts`` and ``drifts`` differ in length.

    References
    ----------
    docs/design.md, section Warm-up and the stability verdict (the detector whose rule
    is pooled); the stability notion is PG21, Sec. II (limsup of E[Q(t)] finite).

    Examples
    --------
    >>> from policies import pooled_verdict
    >>> p = pooled_verdict([0.001, -0.002, 0.0005])
    >>> p["verdict"], p["judged"], p["drift_ci"]
    ('stable', 3, [-0.00937..., 0.00904...])
    >>> pooled_verdict([0.2, 0.25, 0.22])["verdict"]
    'unstable'

    Three unstable runs whose queues grow at very different rates: the interval is too
    wide to decide, the unanimous verdicts decide.

    >>> pooled_verdict([0.02, 0.5, 1.5])["verdict"]
    'inconclusive'
    >>> p = pooled_verdict([0.02, 0.5, 1.5], verdicts=["unstable"] * 3)
    >>> p["verdict"], p["unanimous"]
    ('unstable', True)
    """
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
    """Statistics per point of a sweep's runs: means, confidence intervals, pooled verdict.

    A point is the group of rows sharing the ``by`` values. Failed runs (``status``
    ``failed``) are counted but bring no metric; runs with a ``verdict_reason`` (no
    evidence either way) bring no drift to the pooled verdict.

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per run, as :func:`policies.load_results` gives it: a ``status``
        column and the runs' results as ``result.<key>`` columns.
    by : str or sequence of str
        The column(s) naming a point (usually the swept grid values).
    metrics : sequence of str, optional
        The columns to average. Default: every numeric, non-boolean ``result.*``
        column except the relative drift.
    confidence : float, optional
        Two-sided confidence level of the metrics' Student-t intervals (default 0.95).
    threshold : float, optional
        The relative-drift threshold of the pooled verdict (default 0.01; the pooled
        interval is at the detector's 0.99, :func:`pooled_verdict`).

    Returns
    -------
    pandas.DataFrame
        One row per point, in order of first appearance: the ``by`` values, ``runs``,
        ``failed``, for each metric ``<metric>.mean`` and ``<metric>.ci`` (the t
        half-width; NaN for fewer than two runs) and, when the frame has the column
        ``result.stability.relative_drift``, the pooled verdict: ``verdict``, ``drift``,
        ``drift_lo``, ``drift_hi``, ``judged``, ``unanimous``.

    Raises
    ------
    ValueError
        A ``by`` column is not in the frame.

    References
    ----------
    docs/design.md, sections Randomness and reproducibility (replications) and Warm-up
    and the stability verdict; the pooling is described in the module docstring.

    Examples
    --------
    >>> import pandas as pd
    >>> from policies import aggregate
    >>> runs = pd.DataFrame({
    ...     "rho": [0.5, 0.5, 0.5, 0.9, 0.9, 0.9], "status": ["finished"] * 6,
    ...     "result.mean_queue": [1.0, 2.0, 3.0, 40.0, 50.0, 60.0],
    ...     "result.stability.relative_drift": [0.001, -0.002, 0.0005, 0.2, 0.25, 0.22]})
    >>> a = aggregate(runs, "rho")
    >>> a[["rho", "runs", "result.mean_queue.mean", "verdict", "judged"]]
       rho  runs  result.mean_queue.mean   verdict  judged
    0  0.5     3                     2.0    stable       3
    1  0.9     3                    50.0  unstable       3
    >>> round(float(a["result.mean_queue.ci"][0]), 3)
    2.484
    """
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
