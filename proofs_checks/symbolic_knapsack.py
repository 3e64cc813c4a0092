"""Symbolic optimality certificates for one-constraint LPs (fractional knapsacks).

XLL21's Lemma 1 (eq. (22)) and Lemma 2 (eq. (39)) both state the optimum of

    min sum_j c_j y_j   s.t.   sum_j d_j y_j <= C,   0 <= y_j <= u_j,

in closed form. :func:`kkt_certificate` proves such a y optimal for a symbolic instance
(sympy symbols with sign assumptions) by exhibiting the capacity price pi >= 0 and
checking every KKT condition as a sign of a simplified expression; an undecidable sign
is reported, never assumed. :func:`evaluate_cases` runs a closed form written as ordered
cases on a symbolic instance, deciding each case condition by its sign.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sympy as sp

__all__ = ["Undecided", "sign", "kkt_certificate", "Case", "evaluate_cases"]


class Undecided(ValueError):
    """sympy could not decide the sign of an expression under the assumptions."""


def sign(expr: sp.Expr) -> int:
    """-1, 0 or 1 for a simplified expression whose sign the assumptions decide."""
    e = sp.factor(sp.simplify(expr))
    if e == 0:
        return 0
    if e.is_positive:
        return 1
    if e.is_negative:
        return -1
    raise Undecided(f"sign of {e} is not decided by the assumptions")


def kkt_certificate(c: Sequence[sp.Expr], d: Sequence[sp.Expr], u: Sequence[sp.Expr],
                    C: sp.Expr, y: Sequence[sp.Expr]) -> dict[str, object]:
    """Check that ``y`` is optimal for min c.y, d.y <= C, 0 <= y <= u (all d_j > 0).

    The price is pi = -c_j/d_j of a job strictly between its bounds, else of the last
    job at its upper bound when the capacity is tight, else 0. Returns
    ``{"optimal": bool, "pi": pi, "failed": [conditions that fail]}``.
    """
    failed: list[str] = []
    n = len(c)
    states = []
    for j in range(n):
        lo, hi = sign(y[j]), sign(u[j] - y[j])
        if lo < 0 or hi < 0:
            failed.append(f"y_{j + 1} = {y[j]} outside [0, {u[j]}]")
        states.append("zero" if lo == 0 else "full" if hi == 0 else "part")
    slack = C - sum(d[j] * y[j] for j in range(n))
    if sign(slack) < 0:
        failed.append(f"capacity exceeded by {sp.simplify(-slack)}")
    part = [j for j in range(n) if states[j] == "part"]
    full = [j for j in range(n) if states[j] == "full"]
    if part:
        pi = -c[part[0]] / d[part[0]]
    elif sign(slack) == 0 and full:
        # the smallest -c_j/d_j over the full jobs keeps their reduced costs <= 0
        pi = -c[full[0]] / d[full[0]]
        for j in full[1:]:
            if sign(-c[j] / d[j] - pi) < 0:
                pi = -c[j] / d[j]
    else:
        pi = sp.Integer(0)
    if sign(pi) < 0:
        failed.append(f"price {pi} < 0")
    if sign(slack) > 0 and sign(pi) != 0:
        failed.append("positive price on a slack capacity")
    for j in range(n):
        rc = c[j] + pi * d[j]  # reduced cost
        s = sign(rc)
        if states[j] == "part" and s != 0:
            failed.append(f"job {j + 1} strictly between its bounds with reduced cost {rc}")
        if states[j] == "full" and s > 0:
            failed.append(f"job {j + 1} at its upper bound with reduced cost {rc} > 0")
        if states[j] == "zero" and s < 0:
            failed.append(f"job {j + 1} at 0 with reduced cost {rc} < 0")
    return {"optimal": not failed, "pi": pi, "states": states, "failed": failed}


@dataclass(frozen=True)
class Case:
    """One case of a closed form: ``applies(state, j)`` is an expression that must be
    >= 0 (``strict``: > 0) for the case to apply; ``value(state, j)`` the rate."""

    name: str
    applies: Callable[[dict, int], sp.Expr]
    value: Callable[[dict, int], sp.Expr]
    strict: bool = False


def evaluate_cases(cases: Sequence[Case], order: Sequence[int], n: int, state: dict,
                   update: Callable[[dict, int, sp.Expr], None]) -> tuple[list, list[str]]:
    """Rates of ``n`` jobs from ordered cases (the first case whose condition holds
    applies) for the jobs in ``order`` (the others get 0); ``update(state, j, y_j)``
    advances the running quantities. Returns the rates and, per job, the case used."""
    y: list = [sp.Integer(0)] * n
    used = [""] * n
    for j in order:
        for case in cases:
            s = sign(case.applies(state, j))
            if s > 0 or (s == 0 and not case.strict):
                y[j] = sp.simplify(case.value(state, j))
                used[j] = case.name
                break
        else:
            raise Undecided(f"no case applies to job {j + 1}")
        update(state, j, y[j])
    return y, used
