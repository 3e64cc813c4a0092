"""Result objects of the capacity solvers (one frozen dataclass, normalised statuses)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from capacity.certification import CERT_RTOL, is_certified
from theory.json_ready import json_ready
from theory.numbers import Number

__all__ = ["MixtureTerm", "CapacityResult", "lemma2_cap", "cap_by_lemma2"]


@dataclass(frozen=True)
class MixtureTerm:
    """One configuration of the optimal mixture: ``weight`` of server class ``server_class``.

    The configuration LP's optimum is a mixture of feasible configurations (PG21
    Def. 1): a class-``c`` server holds ``config`` (jobs per type) a fraction ``weight``
    of the time, and the weights of one class sum to at most 1.

    Parameters
    ----------
    server_class : int
        Index of the server class (0 for identical servers; the order of
        :attr:`capacity.CapacityRegion.classes`).
    config : numpy.ndarray
        The configuration k, int64, one count of jobs per type.
    weight : float or Fraction
        Its weight p_ck in [0, 1]: a float from the LP solver, a Fraction when
        snapped to a rational.

    References
    ----------
    PG21, Sec. III-A, Def. 1 and eq. (4); PG18, Sec. II, eq. (2).

    Examples
    --------
    >>> from capacity import rho_star
    >>> term = rho_star(["0.4", "0.6"], ["1/2", "1/2"]).mixture[0]
    >>> term.server_class, term.config.tolist(), term.weight
    (0, [1, 1], 1.0)
    >>> term.as_dict()
    {'server_class': 0, 'weight': 1.0, 'config': {0: 1, 1: 1}}
    """

    server_class: int
    config: np.ndarray  # int64 count per type
    weight: Number  # float from the LP solver; a Fraction when snapped to a rational

    def as_dict(self, sizes: list | None = None) -> dict[str, Any]:
        nz = np.flatnonzero(self.config)
        d: dict[str, Any] = {
            "server_class": self.server_class,
            "weight": self.weight,
            "config": {int(j): int(self.config[j]) for j in nz},
        }
        if sizes is not None:
            d["sizes"] = [[json_ready(sizes[j]), int(self.config[j])] for j in nz]
        return d


def _short_num(x: Any) -> str:
    if isinstance(x, Fraction):
        if x.denominator == 1 and abs(x.numerator) < 10**15:
            return str(x.numerator)
        text = str(x)
        return text if len(text) <= 24 else f"~{float(x):.10g}"
    try:
        return f"{float(x):.10g}"
    except (TypeError, ValueError, OverflowError):
        return repr(x)[:24]


@dataclass(frozen=True, repr=False)
class CapacityResult:
    """Optimum of a configuration LP with its certificate.

    ``value`` is the LP optimum ``t*`` (for :func:`capacity.rho_star`, ``rho*`` itself);
    ``lower <= t* <= upper`` is proven by the certificate: ``lower`` from the primal
    ``mixture`` (feasible configurations whose weights sum to at most 1 per server
    class), ``upper`` from the ``dual`` prices (no feasible configuration prices above
    ``dual_bound`` of its class). ``certified`` is True when both checks passed and
    the bounds agree to ``CERT_RTOL``; ``exact_check`` says they were done in rational
    arithmetic. Frozen; built by the solvers, not by users.

    Parameters
    ----------
    value : float
        The LP optimum found by the solver (the workload ``t*``, in jobs per unit of
        service time for ``rho*``).
    lower, upper : float or Fraction
        The proven interval ``lower <= t* <= upper``: Fractions when the inputs were
        exact and the check was done in rational arithmetic; ``upper`` is ``inf`` when
        the dual check failed.
    certified : bool
        Both ends were re-checked and ``upper - lower <= CERT_RTOL * max(1, upper)``
        (:func:`capacity.certification.is_certified`).
    exact_check : bool
        The checks were done in rational arithmetic.
    status : str
        ``"optimal"``, ``"time_limit"`` (stopped by :func:`capacity.time_limit`) or
        ``"target reached"`` (stopped at a caller's target; never certified).
    method : str
        ``"enumerate"`` or ``"column-generation"``, the method that ran.
    servers : int
        Total number of servers over all classes.
    sizes : list
        The job sizes, one per type (a number for one resource, a tuple for several).
    demand : list
        The demand direction ``d`` (the type probabilities P for ``rho*``).
    mixture : list of MixtureTerm
        The primal mixture that proves ``lower``.
    dual : numpy.ndarray
        Prices ``y >= 0`` per type, scaled so that the largest class bound is 1.
    dual_bound : list of float or Fraction
        Per server class, the proven largest price of a feasible configuration.
    iterations : int
        Column-generation rounds (1 for enumeration).
    columns : int
        Configurations in the final master LP.
    seconds : float
        Wall-clock seconds of the solve and its certificate.
    message : str, default ""
        What the certificate checked, or why the answer is not certified.
    extra : dict, default {}
        Solver-specific facts, e.g. ``lemma2_bound`` and ``upper_from`` (PG21
        Lemma 2) from :func:`capacity.rho_star`, ``z_lp`` from
        :func:`capacity.bin_packing_lp`, ``stopped_at_target``.

    See Also
    --------
    rho_star, solve_configuration_lp, certify

    References
    ----------
    PG21, Sec. III-A, eq. (4) and Sec. IV-B, Lemma 2; PG18, Sec. II, eqs. (2)-(3);
    docs/design.md, section Certificates.

    Examples
    --------
    >>> from capacity import rho_star
    >>> res = rho_star(["1/3", "1/2"], ["1/2", "1/2"], servers=2)
    >>> res
    CapacityResult(value=4.8, interval=[24/5, 24/5], certified=True, method='enumerate',
    types=2, servers=2)
    >>> res.lower, res.upper, res.exact_check, res.status
    (Fraction(24, 5), Fraction(24, 5), True, 'optimal')
    >>> float(res), res.gap
    (4.8, 0.0)
    >>> res.to_dict("rho_star")["certificate"]["lower_exact"]
    '24/5'
    """

    value: float
    lower: Number
    upper: Number
    certified: bool
    exact_check: bool
    status: str
    method: str
    servers: int
    sizes: list
    demand: list
    mixture: list[MixtureTerm]
    dual: np.ndarray
    dual_bound: list[Number]
    iterations: int
    columns: int
    seconds: float
    message: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def __float__(self) -> float:
        return self.value

    def __repr__(self) -> str:
        return (f"CapacityResult(value={self.value:.10g}, interval=[{_short_num(self.lower)}, "
                f"{_short_num(self.upper)}], certified={self.certified}, "
                f"method={self.method!r}, types={len(self.sizes)}, servers={self.servers})")

    @property
    def gap(self) -> float:
        """Relative width of the certified interval, (upper - lower) / upper."""
        u = float(self.upper)
        return (u - float(self.lower)) / u if u > 0 else 0.0

    def to_dict(self, key: str = "value") -> dict[str, Any]:
        """JSON-ready dict; ``key`` names the optimum (e.g. ``"rho_star"``). An
        uncertified answer says why (``uncertified_reason``), and its ``status`` is
        ``"solved_uncertified"`` where the solver said ``"optimal"``: the optimum is not
        proven until the certificate is."""
        out = {
            key: self.value,
            "certified": self.certified,
            "uncertified_reason": None if self.certified else (
                self.message or f"the certificate's bounds [{_short_num(self.lower)}, "
                f"{_short_num(self.upper)}] do not agree"),
            "certificate": {
                "lower": json_ready(self.lower),
                "upper": json_ready(self.upper),
                "lower_exact": str(self.lower) if isinstance(self.lower, Fraction) else None,
                "upper_exact": str(self.upper) if isinstance(self.upper, Fraction) else None,
                "exact_arithmetic": self.exact_check,
                "relative_gap": self.gap,
                "message": self.message,
            },
            "servers": self.servers,
            "method": self.method,
            "status": self.status if self.certified or self.status != "optimal"
            else "solved_uncertified",
            "types": len(self.sizes),
            "mixture": [t.as_dict(self.sizes) for t in self.mixture],
            "dual": json_ready(self.dual),
            "dual_bound": json_ready(self.dual_bound),
            "iterations": self.iterations,
            "columns": self.columns,
            "seconds": self.seconds,
        }
        out.update(json_ready(self.extra))
        return out


def lemma2_cap(lower: Number, upper: Number, bound: Number | None) -> tuple[Number, bool]:
    """The upper end ``min(upper, bound)`` with ``bound`` = L C / R-bar (PG21 Lemma 2),
    and whether Lemma 2 was the smaller (never below the proven ``lower``)."""
    if bound is not None and lower <= bound < upper:
        return bound, True
    return upper, False


def cap_by_lemma2(res: CapacityResult, bound: Number) -> CapacityResult:
    """``res`` with its upper end capped by Lemma 2; ``extra`` records ``lemma2_bound``
    and ``upper_from`` (``"Lemma 2"`` or ``"LP dual"``).

    Lemma 2 is a proof on its own, so a cap that brings the proven interval within
    ``CERT_RTOL`` certifies the answer even when the LP prices alone did not (an LP
    whose optimum sits at L C / R-bar, where the dual search stops a hair short)."""
    upper, capped = lemma2_cap(res.lower, res.upper, bound)
    extra = {**res.extra, "lemma2_bound": bound,
             "upper_from": "Lemma 2" if capped else "LP dual"}
    certified, message = res.certified, res.message
    # Lemma 2 proves the upper end; the lower end is proven whatever the certificate
    # said, unless its primal check failed (which leaves 0)
    if capped and not certified and is_certified(res.lower, upper,
                                                 checks_passed=float(res.lower) > 0):
        certified = True
        message = (f"certified by PG21 Lemma 2: the primal lower end is within {CERT_RTOL:g} "
                   f"(relative) of L C / R-bar; the LP prices alone: " + message)
    return replace(res, upper=upper, certified=certified, message=message, extra=extra)
