"""Exact checks of PG18 Sec. V: Lemma 1 (eq. (9)), the RMS + JSQ form (14), Lemma 2
(eqs. (10)-(13)) and Corollary 1, on small systems whose configurations are enumerated.

The chain RMS-bar (Definition 2, rates (7)-(8)) is built as a sparse generator and its
stationary law solved directly (:mod:`theory.rms_chain`); Lemma 1 is also confirmed
symbolically (every detailed-balance equation simplifies to 0). Lemma 2's program is
solved in cvxpy (:mod:`capacity.gibbs_program`). The simulation check of Lemma 1 is
``PG18.Lemma1.sim`` (:mod:`proofs_checks.checks.pg18_dynamics`).
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from capacity.gibbs_program import gibbs_objective, solve_gibbs_program
from proofs_checks.claims import Verdict, register
from theory.rms_chain import (
    configuration_weight,
    detailed_balance_symbolic,
    log_partition,
    log_phi0,
    product_form,
    rms_bar_generator,
    state_graph,
    stationary_distribution,
    system_configurations,
)

__all__ = ["SYSTEMS", "SYMBOLIC_SYSTEMS", "LEMMA1_TOL", "LEMMA2_REL_TOL", "LEMMA2_TV_TOL",
           "draw_parameters", "cor1_bound"]

#: (sizes, per-server capacities) of the small systems the checks enumerate
SYSTEMS: dict[str, tuple[list[Any], list[Any]]] = {
    "2 servers of capacity 10, sizes 2 and 5 (Sec. III)": ([[2], [5]], [10, 10]),
    "2 servers (6, 6), 2 resources, 3 types": ([[2, 1], [1, 3], [3, 2]], [[6, 6], [6, 6]]),
    "3 heterogeneous servers 10, 7, 5, sizes 2 and 5": ([[2], [5]], [10, 7, 5]),
}
#: systems whose detailed balance is checked symbolically (quick: the first only)
SYMBOLIC_SYSTEMS: dict[str, tuple[list[Any], list[Any]]] = {
    "2 servers of capacity 10, sizes 2 and 5 (Sec. III)": ([[2], [5]], [10, 10]),
    "heterogeneous pair 10, 5, sizes 2 and 5": ([[2], [5]], [10, 5]),
}
#: largest |pi - phi^w| accepted between the solved chain and the closed form
LEMMA1_TOL = 1e-10
#: |cvxpy optimum - (log Z^w - log Z^0)| / max(1, |log Z^w - log Z^0|) accepted
LEMMA2_REL_TOL = 1e-6
#: total variation accepted between the program's optimal p and phi^w
LEMMA2_TV_TOL = 1e-4
#: a wrong form (no 1/L, or an extra one) must differ from the chain's law by more
CONTROL_MIN_DIFF = 1e-6
#: Cor. 1 slack below 0 tolerated for rounding, times 1 + |bound|
COR1_TOL = 1e-9


def draw_parameters(rng: np.random.Generator, L: int, J: int, *, per_server: bool = False,
                    weight_scale: float = 4.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random positive clock rates r (J,) or (L, J), service rates mu (J,) and weights w
    (J,) or (L, J) uniform on (0, weight_scale] (Definition 2 takes w_j > 0)."""
    shape = (L, J) if per_server else (J,)
    r = rng.uniform(0.5, 3.0, shape)
    mu = rng.uniform(0.5, 2.0, J)
    w = weight_scale * (1.0 - rng.random(shape))
    return r, mu, w


def _max_diff(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a - b)))


@register("PG18.Lemma1", location="Sec. V, Definition 2, eqs. (7)-(9), Lemma 1 and its proof",
          statement="The stationary law of RMS-bar(L, r, w) (rates r_j/L up, k_j^l mu_j "
                    "exp(-w_j) down) is the product form (9): the solved sparse generator "
                    "matches (9) within 1e-10 on every system and draw, every detailed "
                    "balance equation holds symbolically, and the state graph is strongly "
                    "connected.",
          method="exact")
def check_lemma1(quick: bool) -> Verdict:
    rng = np.random.default_rng(20180821)
    draws = 2 if quick else 8
    ev: dict[str, Any] = {"systems": {}}
    ok = True
    largest = 0.0
    for name, (sizes, caps) in SYSTEMS.items():
        c = system_configurations(sizes, caps)
        S, L, J = c.shape
        worst, control, big = 0.0, np.inf, 0.0
        for d in range(draws + 1):
            # the last draw has large weights (log-space evaluation of (9))
            r, mu, w = draw_parameters(rng, L, J, weight_scale=4.0 if d < draws else 20.0)
            pi = stationary_distribution(rms_bar_generator(c, r, mu, w))
            diff = _max_diff(pi, product_form(c, r, mu, w))
            if d < draws:
                worst = max(worst, diff)
                control = min(control, _max_diff(pi, product_form(c, r, mu, w, servers=1)))
            else:
                big = diff
        g = state_graph(c)
        connected = bool(nx.is_strongly_connected(g))
        sys_ok = max(worst, big) <= LEMMA1_TOL and connected and control > CONTROL_MIN_DIFF
        ok &= sys_ok
        largest = max(largest, worst, big)
        ev["systems"][name] = {
            "states": S, "servers": L, "types": J, "transitions": g.number_of_edges(),
            "draws": draws + 1, "max_abs_diff": worst, "max_abs_diff_large_weights": big,
            "strongly_connected": connected,
            "min_diff_to_9_without_1_over_L": control, "holds": sys_ok}
    symbolic = dict(list(SYMBOLIC_SYSTEMS.items())[:1 if quick else None])
    ev["symbolic"] = {}
    for name, (sizes, caps) in symbolic.items():
        n, failures = detailed_balance_symbolic(sizes, caps)
        ok &= n > 0 and not failures
        ev["symbolic"][name] = {"equations": n, "failing": len(failures),
                                "first_failures": [str(f[:3]) for f in failures[:3]]}
    return Verdict("holds" if ok else "violated", measured=largest, bound=LEMMA1_TOL,
                   relation="<=",
                   quantity="largest |pi - phi^w| between the solved chain and (9)",
                   params={"systems": list(SYSTEMS), "draws_per_system": draws + 1,
                           "symbolic_systems": list(symbolic)},
                   seed=20180821, details=ev)


def _single_server_product(sizes: list[Any], caps: list[Any], c: np.ndarray, r: np.ndarray,
                           mu: np.ndarray, w: np.ndarray) -> np.ndarray:
    """prod_l phi_l(k^l), each phi_l of (14) computed on server l's own configurations."""
    out = np.ones(c.shape[0])
    for l, cap in enumerate(caps):
        cl = system_configurations(sizes, [cap])  # L = 1: (9) is (14) for one server
        phil = product_form(cl, r[l], mu, w[l])
        index = {tuple(k.ravel().tolist()): i for i, k in enumerate(cl)}
        out *= phil[[index[tuple(k.tolist())] for k in c[:, l, :]]]
    return out


@register("PG18.Lemma1.JSQ", location="Sec. V-B, eq. (14) (RMS + JSQ, Algorithm 2)",
          statement="With a clock of rate r_j^l for each server and type and weights "
                    "w_j^l, the configuration chain has the product law psi^w = prod_l "
                    "phi_l of eq. (14) (no 1/L): the solved generator matches it and the "
                    "product of independently computed single-server laws within 1e-10; "
                    "with r_j^l = r_j/L and w^l = w it coincides with (9).",
          method="exact")
def check_lemma1_jsq(quick: bool) -> Verdict:
    rng = np.random.default_rng(14)
    draws = 2 if quick else 8
    ev: dict[str, Any] = {"systems": {}}
    ok = True
    largest = 0.0
    for name, (sizes, caps) in SYSTEMS.items():
        c = system_configurations(sizes, caps)
        S, L, J = c.shape
        worst, worst_indep, control, same9 = 0.0, 0.0, np.inf, 0.0
        for _ in range(draws):
            r, mu, w = draw_parameters(rng, L, J, per_server=True)
            pi = stationary_distribution(rms_bar_generator(c, r, mu, w, per_server_rates=True))
            worst = max(worst, _max_diff(pi, product_form(c, r, mu, w, per_server_rates=True)))
            worst_indep = max(worst_indep,
                              _max_diff(pi, _single_server_product(sizes, caps, c, r, mu, w)))
            control = min(control, _max_diff(pi, product_form(c, r / L, mu, w,
                                                              per_server_rates=True)))
            # (14) with r_j^l = r_j / L and common weights is (9)
            r0, w0 = r[0], w[0]
            same9 = max(same9, _max_diff(
                product_form(c, np.tile(r0 / L, (L, 1)), mu, np.tile(w0, (L, 1)),
                             per_server_rates=True), product_form(c, r0, mu, w0)))
        sys_ok = (max(worst, worst_indep) <= LEMMA1_TOL and same9 <= LEMMA1_TOL
                  and control > CONTROL_MIN_DIFF)
        ok &= sys_ok
        largest = max(largest, worst, worst_indep, same9)
        ev["systems"][name] = {
            "states": S, "servers": L, "types": J, "draws": draws,
            "max_abs_diff_to_14": worst, "max_abs_diff_to_product_of_servers": worst_indep,
            "max_abs_diff_14_vs_9_at_r_over_L": same9,
            "min_diff_to_14_with_an_extra_1_over_L": control, "holds": sys_ok}
    return Verdict("holds" if ok else "violated", measured=largest, bound=LEMMA1_TOL,
                   relation="<=",
                   quantity="largest |difference| among the chain, (14), the product of "
                            "single servers and (9)",
                   params={"systems": list(SYSTEMS), "draws_per_system": draws},
                   seed=14, details=ev)


@register("PG18.Lemma2", location="Sec. V, Lemma 2, eqs. (10)-(13)",
          statement="phi^w maximises F(p) = E_p[sum w_j k_j^l] - D_KL(p || phi^0) over "
                    "distributions on K: the exponential-cone program (12) solved in cvxpy "
                    "has optimum log Z^w - log Z^0 = F(phi^w) (relative error <= 1e-6) and "
                    "optimal p within total variation 1e-4 of phi^w.",
          method="property")
def check_lemma2(quick: bool) -> Verdict:
    rng = np.random.default_rng(12)
    draws = 2 if quick else 10
    ev: dict[str, Any] = {"systems": {}}
    ok = True
    solver = ""
    worst_rel, worst_tv = 0.0, 0.0
    for name, (sizes, caps) in SYSTEMS.items():
        c = system_configurations(sizes, caps)
        S, L, J = c.shape
        rel, tv, closed_gap, alt_margin = 0.0, 0.0, 0.0, np.inf
        for _ in range(draws):
            r, mu, w = draw_parameters(rng, L, J)
            W = configuration_weight(c, w)
            ref = log_phi0(c, r, mu)
            res = solve_gibbs_program(W, ref)
            solver = res.solver
            phi = product_form(c, r, mu, w)
            closed = (log_partition(c, r, mu, w)
                      - log_partition(c, r, mu, np.zeros(J)))
            rel = max(rel, abs(res.value - closed) / max(1.0, abs(closed)))
            tv = max(tv, res.tv_distance(phi))
            closed_gap = max(closed_gap, abs(gibbs_objective(phi, W, ref) - closed)
                             / max(1.0, abs(closed)))
            # F is lower at other distributions: phi^0, the max-weight point mass, uniform
            star = np.zeros(S)
            star[int(np.argmax(W))] = 1.0
            for q in (np.exp(ref), star, np.full(S, 1.0 / S)):
                alt_margin = min(alt_margin, closed - gibbs_objective(q, W, ref))
        sys_ok = (rel <= LEMMA2_REL_TOL and tv <= LEMMA2_TV_TOL and closed_gap <= 1e-10
                  and alt_margin >= 0)
        ok &= sys_ok
        worst_rel, worst_tv = max(worst_rel, rel), max(worst_tv, tv)
        ev["systems"][name] = {
            "states": S, "draws": draws, "max_rel_error_value": rel, "max_tv_to_phi_w": tv,
            "F_at_phi_w_vs_logZ_difference": closed_gap,
            "min_margin_over_other_distributions": alt_margin, "holds": sys_ok}
    ev["solver"] = solver
    return Verdict("holds" if ok else "violated", measured=(worst_rel, worst_tv),
                   bound=(LEMMA2_REL_TOL, LEMMA2_TV_TOL), relation="<=",
                   quantity="largest relative error of the program's optimum, largest total "
                            "variation of its p to phi^w",
                   params={"systems": list(SYSTEMS), "draws_per_system": draws},
                   seed=12, details=ev)


def cor1_bound(W: np.ndarray, log_reference: np.ndarray) -> float:
    """Corollary 1's lower bound ``max_k W(k) + min_k log phi^0(k)``."""
    return float(np.max(W) + np.min(log_reference))


@register("PG18.Cor1", location="Sec. V, Corollary 1 and its proof",
          statement="E_{phi^w}[sum_j sum_l k_j^l w_j] >= max_k sum k_j^l w_j + min_k log "
                    "phi^0(k) for every weight vector: holds on every random draw (weights "
                    "of scales 0.01 to 100, random r and mu), and the bound is not vacuous "
                    "(positive on a share of the draws).",
          method="property")
def check_cor1(quick: bool) -> Verdict:
    rng = np.random.default_rng(1)
    draws = 300 if quick else 3000
    ev: dict[str, Any] = {"systems": {}}
    ok = True
    least = np.inf
    for name, (sizes, caps) in SYSTEMS.items():
        c = system_configurations(sizes, caps)
        _, L, J = c.shape
        slack, pos, factor2, used = np.inf, 0, 0, 0.0
        for _ in range(draws):
            r, mu, w = draw_parameters(rng, L, J, weight_scale=10 ** rng.uniform(-2, 2))
            W = configuration_weight(c, w)
            ref = log_phi0(c, r, mu)
            mean = float(product_form(c, r, mu, w) @ W)
            bound = cor1_bound(W, ref)
            s = mean - bound
            slack = min(slack, s / (1.0 + abs(bound)))
            pos += bound > 0
            factor2 += bound >= mean / 2
            # the share of the constant -min log phi^0 that the gap max W - E W uses
            used = max(used, (float(np.max(W)) - mean) / -float(np.min(ref)))
        sys_ok = slack >= -COR1_TOL
        ok &= sys_ok
        least = min(least, slack)
        ev["systems"][name] = {
            "states": c.shape[0], "min_relative_slack": slack,
            "share_bound_positive": pos / draws, "share_bound_within_factor_2": factor2 / draws,
            "max_share_of_constant_used": used, "holds": sys_ok}
    nonvacuous = all(s["share_bound_positive"] > 0 for s in ev["systems"].values())
    ev["bound_not_vacuous"] = nonvacuous
    return Verdict("holds" if ok and nonvacuous else "violated", measured=least,
                   bound=-COR1_TOL, relation=">=",
                   quantity="smallest (E W - bound) / (1 + |bound|) over the draws",
                   params={"systems": list(SYSTEMS), "draws_per_system": draws},
                   seed=1, details=ev)
