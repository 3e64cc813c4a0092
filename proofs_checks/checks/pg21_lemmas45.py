"""Checks of PG21 Sec. VIII-B (proof of Thm. 3): Lemma 4 with eqs. (48)-(52), Lemma 5 with
eqs. (53)-(55), and the drift bounds (56)-(60) that close the proof.

Everything is exact (``fractions.Fraction``, integer arithmetic, squares instead of square
roots) or exhaustive over small cases (small J, small queue boxes, one or two servers).
The one exception is the expectation of a Euclidean norm in the (56) instance, a finite
sum of square roots evaluated in floats with a margin reported next to it.

Each check function takes keyword overrides (the configuration set, K_max, the constants)
so that tests can put a plausible wrong one in place of the paper's and see the verdict
turn ``violated``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from proofs_checks.claims import Verdict, register
from theory import reduced_configurations, universal_partition
from theory.bounds import lemma1_N1

F = Fraction
Vec = tuple[int, ...]


def _holds(ok: bool) -> str:
    return "holds" if ok else "violated"


def _kred(J: int) -> list[Vec]:
    """Rows of K_RED^(J) (PG21 Def. 6, eq. (19)) as integer tuples."""
    return [tuple(int(v) for v in r) for r in np.asarray(reduced_configurations(J).configs)]


def _dot(a: Sequence[Any], b: Sequence[Any]) -> Any:
    return sum((x * y for x, y in zip(a, b, strict=True)), 0)


# ============================================================================ K_max
def vqs_kmax(J: int, configs: Sequence[Vec] | None = None, *,
             small_jobs: str = "rounded") -> int | None:
    """Largest number of jobs VQS (PG21 Sec. V-B, steps (i)-(ii)) can hold in one unit
    server under the active configurations ``configs`` (default K_RED^(J)), exactly.

    A configuration e_1 + c e_j reserves 2/3 for one VQ_1 job and fills the other 1/3 from
    VQ_j; a one-queue configuration fills the whole server from its VQ_j. A job of VQ_j,
    j < 2J - 1, is larger than inf I_j (open cells of eq. (18)); VQ_{2J-1} also holds the
    jobs of size <= 1/2^J, which occupy 1/2^J when rounded (Sec. V-A) and can be
    arbitrarily small when packed at their real size (``small_jobs="actual"``: None, no
    bound)."""
    I = universal_partition(J)
    rows = _kred(J) if configs is None else list(configs)
    best = 0
    for k in rows:
        others = [j for j, c in enumerate(k) if c > 0 and not (j == 1 and k[1] == 1
                                                                  and sum(k) > 1)]
        reserved = 1 if (k[1] == 1 and sum(k) > 1) else 0
        cap = F(1, 3) if reserved else F(1)
        count = 0
        for j in others:
            if j == 2 * J - 1:
                if small_jobs != "rounded":
                    return None
                smallest, closed = F(1, 2**J), True
            else:
                smallest, closed = F(I.cells[j].lo), False
            q = cap / smallest
            n = math.floor(q) if closed or q.denominator != 1 else int(q) - 1
            count = max(count, n)
        best = max(best, reserved + count)
    return best


def _term1_worst(K: int, mu: Fraction, N1: int) -> list[Fraction]:
    """Largest probability, over every refilling rule, that a server holding n = 1..K jobs
    (each departing w.p. mu per slot, independently) has not been empty within N1 slots;
    the server may be refilled up to K jobs after each slot. Exact dynamic programme."""
    V = [F(1)] * (K + 1)  # V[n], n = 1..K (V[0] unused)
    for _ in range(N1):
        best_from = [F(0)] * (K + 2)
        for n in range(K, 0, -1):
            best_from[n] = max(best_from[n + 1], V[n])
        newV = [F(0)] * (K + 1)
        for n in range(1, K + 1):
            newV[n] = sum((math.comb(n, r) * (1 - mu) ** r * mu ** (n - r) * best_from[r]
                           for r in range(1, n + 1)), F(0))
        V = newV
    return V


def _sin2(a: Sequence[Any], b: Sequence[Any]) -> Fraction:
    ab, aa, bb = _dot(a, b), _dot(a, a), _dot(b, b)
    if aa * bb == 0:  # a zero vector: no angle, no positive constant
        return F(0)
    return 1 - F(ab * ab) / F(aa * bb)


def b_gamma1_squared(J: int, gamma: Fraction, configs: Sequence[Vec] | None = None) -> Fraction:
    """B_gamma1^2 of PG21 eq. (52): min over k' != k in K_RED of
    sin^2(angle(k' - k, k' - gamma k)), exactly."""
    rows = _kred(J) if configs is None else list(configs)
    return min(_sin2([a - b for a, b in zip(kp, k, strict=True)],
                     [a - gamma * b for a, b in zip(kp, k, strict=True)])
               for kp in rows for k in rows if kp != k)


def corrected_distance_constant_squared(J: int, gamma: Fraction,
                                        configs: Sequence[Vec] | None = None) -> Fraction:
    """c_gamma^2 with c_gamma = (1 - gamma) / (sqrt(2J) max_{k' != k} ||k' - gamma k||): if
    k' has the maximum weight at Q >= 0, the half-space <k' - gamma k, x> < 0 of (50) is at
    distance >= c_gamma ||Q|| from Q, since <k' - gamma k, Q> >= (1 - gamma) <k', Q> and
    <k', Q> >= max_j Q_j >= ||Q|| / sqrt(2J) (every VQ is in some row of K_RED)."""
    rows = _kred(J) if configs is None else list(configs)
    worst = max(_dot(d, d) for kp in rows for k in rows if kp != k
                for d in [[a - gamma * b for a, b in zip(kp, k, strict=True)]])
    return (1 - gamma) ** 2 / (2 * J * worst)


def _distance_search(J: int, gamma: Fraction, box: int,
                     configs: Sequence[Vec]) -> dict[str, Any]:
    """Over Q in {0..box}^(2J), Q != 0, every maximiser k' of <k, Q> and every k != k':
    the smallest (distance from Q to {<k' - gamma k, x> < 0}) / ||Q||, squared, exactly."""
    a, b = gamma.numerator, gamma.denominator
    pairs = [(i, [b * x - a * y for x, y in zip(kp, k, strict=True)])
             for i, kp in enumerate(configs) for k in configs if kp != k]
    nn = [_dot(n2, n2) for _, n2 in pairs]
    best: tuple[Fraction, Any] = (F(10**9), None)
    for Q in itertools.product(range(box + 1), repeat=2 * J):
        qq = _dot(Q, Q)
        if qq == 0:
            continue
        w = [_dot(k, Q) for k in configs]
        top = max(w)
        for (i, n2), n2n2 in zip(pairs, nn, strict=True):
            if w[i] != top:
                continue
            s = _dot(n2, Q)
            r = F(s * s, n2n2 * qq)
            if r < best[0]:
                best = (r, {"Q": list(Q), "k_prime": list(configs[i]), "n2_scaled": n2})
    return {"min_ratio_sq": best[0], "at": best[1]}


#: erratum PG21.Lemma4.eq52: an integer instance, J = 2, gamma = 1/2
EQ52_J = 2
EQ52_GAMMA = F(1, 2)
EQ52_INSTANCE: dict[str, Vec] = {"Q": (300, 200, 100, 101), "k_prime": (0, 0, 0, 3),
                                 "k": (1, 0, 0, 0), "delta": (1, 0, 0, -51)}


def _eq52_instance(configs_of: Callable[[int], list[Vec]]) -> dict[str, Any]:
    """Q with k' = 3 e_3 the unique max-weight row of K_RED^(2), and a change Delta with
    ||Delta|| < B_gamma1 ||Q|| after which (50) holds: <k', Q + Delta> < gamma <k, Q + Delta>."""
    d = EQ52_INSTANCE
    J, g = EQ52_J, EQ52_GAMMA
    Q, kp, k, D = d["Q"], d["k_prime"], d["k"], d["delta"]
    rows = configs_of(J)
    w = {r: _dot(r, Q) for r in rows}
    unique_max = kp in w and all(v < w[kp] for r, v in w.items() if r != kp)
    Qn = [q + x for q, x in zip(Q, D, strict=True)]
    viol50 = min(Qn) >= 0 and _dot(kp, Qn) < g * _dot(k, Qn)
    B2 = b_gamma1_squared(J, g, rows)
    closer = _dot(D, D) < B2 * _dot(Q, Q)
    c2 = corrected_distance_constant_squared(J, g, rows)
    respects_corrected = _dot(D, D) >= c2 * _dot(Q, Q)
    return {"J": J, "gamma": str(g), "Q": list(Q), "k_prime": list(kp), "k": list(k),
            "delta": list(D), "k_prime_unique_max": unique_max, "eq50_after_change": viol50,
            "norm_delta": math.sqrt(_dot(D, D)),
            "B_gamma1_times_norm_Q": math.sqrt(float(B2 * _dot(Q, Q))),
            "change_below_B_gamma1_norm_Q": closer,
            "corrected_constant_respected": respects_corrected,
            "separates": unique_max and viol50 and closer and respects_corrected}


def _lemma4(quick: bool, *, kmax_printed: Callable[[int], int] = lambda J: 2**J,
            small_jobs: str = "rounded", b_gamma_factor: int = 4,
            configs_of: Callable[[int], list[Vec]] = _kred) -> Verdict:
    ok = True
    # 1. K_max := 2^J bounds the jobs VQS holds in a server
    kmax_rows = []
    for J in range(2, 9 if quick else 13):
        true = vqs_kmax(J, configs_of(J), small_jobs=small_jobs)
        good = true is not None and true <= kmax_printed(J)
        ok &= good
        kmax_rows.append({"J": J, "vqs_max_jobs": true, "K_max": kmax_printed(J),
                          "attained": true == kmax_printed(J), "bound_ok": good})
    # 2. Term_1 >= 1 - (1 - mu^K_max)^N1, worst refilling rule, exact
    term1 = []
    mus = [F(1, 2), F(3, 4)] if quick else [F(1, 4), F(1, 2), F(3, 4), F(9, 10)]
    for J in (2, 3):
        K = vqs_kmax(J, configs_of(J), small_jobs=small_jobs)
        if K is None:
            ok = False
            term1.append({"J": J, "error": "no finite number of jobs per server"})
            continue
        Kp = kmax_printed(J)
        for mu in mus:
            for N1 in range(1, (5 if quick else 10) + 1):
                V = _term1_worst(K, mu, N1)
                bound = (1 - mu**Kp) ** N1
                worst = max(V[1:])
                good = worst <= bound
                ok &= good
                if N1 in (1, 5, 10) or not good:
                    term1.append({"J": J, "mu": str(mu), "N1": N1,
                                  "worst_not_empty": float(worst), "bound": float(bound),
                                  "tight": worst == bound, "ok": good})
    # 3. N1 > log(eps'/(2L)) / log(1 - mu^K_max) and ||Q(t0)|| > B_gamma N2/eps' give
    #    P(E) >= prod_l Term1 Term2 > 1 - eps'
    assembly = []
    for J, L, mu, eps in itertools.product((2, 3), (1, 2, 3), (F(1, 2), F(3, 4)),
                                           (F(1, 10), F(1, 2), F(9, 10))):
        Kp = kmax_printed(J)
        a = 1 - mu**Kp
        N1 = lemma1_N1(eps / 2, L, mu, Kp)  # smallest N1 with a^N1 < eps'/(2L), exactly
        x1 = a**N1
        term1_ok = x1 < eps / (2 * L)
        # at ||Q(t0)|| = B_gamma N2/eps' (the boundary), eq. (51)'s deficit is
        # 2 (lambda + mu K L) N2 / (B_gamma1 ||Q||) = 2 eps' / (factor L)
        x2 = 2 * eps / (b_gamma_factor * L)
        prob = ((1 - x1) * (1 - x2)) ** L
        good = term1_ok and prob >= 1 - eps
        ok &= good
        if not good or (J == 2 and mu == F(1, 2)):
            assembly.append({"J": J, "L": L, "mu": str(mu), "eps_prime": str(eps),
                             "N1": N1, "term1_deficit": float(x1), "term2_deficit": str(x2),
                             "prob_lower": float(prob), "ok": good})
    # 4. B_gamma1 of (52) is positive
    bpos = []
    gammas = [F(1, 2), F(9, 10), F(99, 100)]
    for J in range(2, 7 if quick else 9):
        rows = configs_of(J)
        for g in gammas:
            b2 = b_gamma1_squared(J, g, rows)
            ok &= b2 > 0
            bpos.append({"J": J, "gamma": str(g), "B_gamma1": math.sqrt(float(b2)),
                         "positive": b2 > 0})
    # 5. the distance reading of (52): erratum PG21.Lemma4.eq52 and the corrected constant
    geometry = []
    boxes = {2: 4, 3: 2} if quick else {2: 6, 3: 3}
    for J, box in boxes.items():
        rows = configs_of(J)
        for g in (F(1, 2), F(9, 10)):
            s = _distance_search(J, g, box, rows)
            b2 = b_gamma1_squared(J, g, rows)
            c2 = corrected_distance_constant_squared(J, g, rows)
            good = s["min_ratio_sq"] >= c2
            ok &= good
            geometry.append({"J": J, "gamma": str(g), "box": box,
                             "min_distance_over_norm": math.sqrt(float(s["min_ratio_sq"])),
                             "at": s["at"], "B_gamma1": math.sqrt(float(b2)),
                             "B_gamma1_bounds_it": s["min_ratio_sq"] >= b2,
                             "corrected_constant": math.sqrt(float(c2)),
                             "corrected_bounds_it": good})
    inst = _eq52_instance(configs_of)
    ok &= bool(inst["separates"])
    # the largest share of K_max that VQS fills (None: no finite number of jobs)
    kmax_share = max(F(r["vqs_max_jobs"], r["K_max"]) if r["vqs_max_jobs"] is not None
                     else math.inf for r in kmax_rows)
    details = {
        "kmax": kmax_rows, "term1": term1,
        "assembly_B_gamma_factor": b_gamma_factor, "assembly": assembly,
        "B_gamma1_positive": bpos, "distance_reading_of_eq52": geometry,
        "erratum": "PG21.Lemma4.eq52", "eq52_instance": inst,
    }
    return Verdict(_holds(ok), measured=kmax_share, bound=1, relation="<=",
                   quantity="largest (jobs VQS holds in a server) / K_max = 2^J over J "
                            "(Term_1, (51), B_gamma1 and (52): details)",
                   params={"J": [kmax_rows[0]["J"], kmax_rows[-1]["J"]],
                           "small_jobs": small_jobs, "mu": [str(m) for m in mus]},
                   details=details)


@register("PG21.Lemma4", location="Sec. VIII-B, Lemma 4 and its proof sketch, eqs. (48)-(52)",
          statement="K_max = 2^J bounds the jobs VQS holds in a server; Term_1 >= 1 - (1 - "
                    "mu^K_max)^N1; the N1 and ||Q(t0)|| > B_gamma N2/eps' conditions with "
                    "B_gamma = 4L(lambda + mu K_max L)/B_gamma1 give P(E) > 1 - eps'; B_gamma1 "
                    "of (52) is positive; the distance constant of the sketch (erratum "
                    "PG21.Lemma4.eq52: (1 - gamma)/(sqrt(2J) max||k' - gamma k||), not (52)).",
          method="exact")
def check_lemma4(quick: bool) -> Verdict:
    """PG21 Sec. VIII-B, Lemma 4 (proof sketch, eqs. (48)-(52)), exactly:

    1. K_max := 2^J: the largest number of jobs VQS holds in a unit server under any row of
       K_RED^(J), from the cells (18) and the rounding of small jobs (Sec. V-A), equals 2^J
       (J = 2..8 quick, 2..12 full);
    2. Term_1 >= 1 - (1 - mu^K_max)^N1: a dynamic programme over the worst refilling rule
       (servers with <= K_max jobs, geometric service) gives the largest probability of not
       emptying within N1 slots; it never exceeds (1 - mu^K_max)^N1 and equals it for the
       always-full server (the bound is tight);
    3. with N1 the least integer above log(eps'/(2L))/log(1 - mu^K_max) and ||Q(t0)|| at
       B_gamma N2/eps', B_gamma = 4L(lambda + mu K_max L)/B_gamma1, (51) gives Term_2 >
       1 - eps'/(2L), and (Term_1 Term_2)^L > 1 - eps' (exact, a grid of J, L, mu, eps');
    4. B_gamma1 of (52) is positive (sin^2 exact, J = 2..6 quick, 2..8 full);
    5. (52) as the distance constant of the sketch ((50) needs Q to move by B_gamma1
       ||Q(t_e)||): exhaustive over queue boxes it is not (erratum PG21.Lemma4.eq52, with an
       integer instance), and the corrected constant bounds every case.
    """
    return _lemma4(quick)


# ============================================================================ Lemma 5
def _fill_invariant(J: int, rows: Sequence[Vec]) -> list[dict[str, Any]]:
    """PG21 Lemma 5's 'tilde k_j >= k_j when Q_j > 0': under VQS steps (i)-(ii) a server
    holding fewer than k_j jobs of VQ_j has room for VQ_j's head-of-line job, for every job
    sizes in I_j, iff k_j sup I_j fits the capacity VQ_j may use (1, or 1/3 next to the
    2/3 reserved for VQ_1 when k_1 = 1); and sup I_1 fits the reservation. Exact."""
    ups = [F(u) for u in universal_partition(J).upper_sizes]
    bad = []
    for k in rows:
        paired = k[1] == 1 and sum(k) > 1
        if paired and ups[1] > F(2, 3):
            bad.append({"J": J, "k": list(k), "reason": "VQ_1 job exceeds the reservation"})
        cap = F(1, 3) if paired else F(1)
        for j, c in enumerate(k):
            if c == 0 or (paired and j == 1):
                continue
            # worst case: c - 1 jobs at sup I_j already in, head-of-line job of size sup I_j
            if cap - (c - 1) * ups[j] < ups[j]:
                bad.append({"J": J, "k": list(k), "j": j, "k_j": c,
                            "free_with_k_j_minus_1": str(cap - (c - 1) * ups[j]),
                            "sup_I_j": str(ups[j])})
    return bad


def _lemma5(quick: bool, *, configs_of: Callable[[int], list[Vec]] = _kred,
            deficit: int = 0, sqrt_den: Callable[[int], int] = lambda J: 2 * J) -> Verdict:
    ok = True
    # 1. the VQS fill invariant behind tilde k >= k
    fill_bad: list[dict[str, Any]] = []
    Js = range(2, 8 if quick else 13)
    for J in Js:
        fill_bad += _fill_invariant(J, configs_of(J))
    ok &= not fill_bad
    # 2. (55), second inequality: max_k <k,Q> >= ||Q||/sqrt(2J)
    cover = []
    eq55 = []
    for J in Js:
        rows = configs_of(J)
        missing = [j for j in range(2 * J) if not any(k[j] > 0 for k in rows)]
        cover.append({"J": J, "vqs_in_no_row": missing})
        ok &= not missing
    for J, box in ({2: 4, 3: 2} if quick else {2: 6, 3: 3, 4: 2}).items():
        rows = configs_of(J)
        den = sqrt_den(J)
        worst: tuple[Fraction, Any] = (F(10**9), None)
        for Q in itertools.product(range(box + 1), repeat=2 * J):
            qq = _dot(Q, Q)
            if qq == 0:
                continue
            top = max(_dot(k, Q) for k in rows)
            r = F(top * top, qq)
            if r < worst[0]:
                worst = (r, list(Q))
        good = worst[0] >= F(1, den)
        ok &= good
        eq55.append({"J": J, "box": box, "min_maxweight_over_norm": math.sqrt(float(worst[0])),
                     "at": worst[1], "bound": 1 / math.sqrt(den), "ok": good})
    # 3. (53)-(54), exhaustive: J = 2, L = 1, 2, every Q in a box, every choice of active
    #    configurations meeting (48), every VQS schedule tilde k consistent with them
    J = 2
    rows = configs_of(J)
    Kmax = 2**J
    eps = F(1, 10)
    box = 2 if quick else 3
    states = 0
    chain_bad: list[dict[str, Any]] = []
    eq54_strict = 0
    eq54_equal = 0
    eq54_example = None
    min_margin = math.inf
    bary = tuple(F(sum(k[j] for k in rows), len(rows)) for j in range(2 * J))
    xs = [tuple(F(v) for v in k) for k in rows] + [bary]
    for L, gamma in itertools.product((1, 2), (F(1, 2),) if quick else (F(1, 2), F(9, 10))):
        B1sq = (eps * gamma * L) ** 2 / sqrt_den(J)
        for x in xs:
            rho = tuple((1 - eps) * gamma * L * v * F(99, 100) for v in x)
            rr = _dot(rho, rho)
            for Q in itertools.product(range(box + 1), repeat=2 * J):
                qq = _dot(Q, Q)
                top = max(_dot(k, Q) for k in rows)
                active = [k for k in rows if _dot(k, Q) >= gamma * top]  # (48)
                per_row = {}
                for k in active:
                    ranges = [range(max(0, k[j] - deficit) if Q[j] > 0 else 0, k[j] + 2)
                              if k[j] > 0 else range(0, 1) for j in range(2 * J)]
                    per_row[k] = list(itertools.product(*ranges))
                for ks in itertools.combinations_with_replacement(active, L):
                    for tks in itertools.product(*(per_row[k] for k in ks)):
                        states += 1
                        Kt = [sum(t[j] for t in tks) for j in range(2 * J)]
                        lhs = sum((Q[j] + Kt[j]) * (rho[j] - Kt[j]) for j in range(2 * J))
                        r54 = _dot([rho[j] - Kt[j] for j in range(2 * J)], Q)
                        extra = lhs - r54  # = <rho - K, K>, printed as B_2
                        if extra < Kmax * L * sum(rho):
                            eq54_strict += 1
                            if (L, gamma, x, Q, Kt) == (1, F(1, 2), xs[0], (1, 0, 0, 0),
                                                        [1, 0, 0, 0]):
                                eq54_example = {"L": L, "rho": [str(v) for v in rho],
                                                "Q": list(Q), "tilde_k": Kt,
                                                "lhs": str(lhs), "printed_rhs": str(
                                                    r54 + Kmax * L * sum(rho))}
                        else:
                            eq54_equal += 1
                        # (a) <rho - K, K> <= B_2 = L K_max ||rho||
                        a_ok = extra <= 0 or extra * extra <= (L * Kmax) ** 2 * rr
                        # (b) <rho, Q> <= (1 - eps) <K, Q>
                        KQ = _dot(Kt, Q)
                        b_ok = _dot(rho, Q) <= (1 - eps) * KQ
                        # (c) <K, Q> >= gamma L <k*, Q>
                        c_ok = KQ >= gamma * L * top
                        # (53) homogeneous part: <K - rho, Q> >= B_1 ||Q||
                        h = KQ - _dot(rho, Q)
                        d_ok = h >= 0 and h * h >= B1sq * qq
                        if qq:
                            min_margin = min(min_margin, float(h) / math.sqrt(qq)
                                             - math.sqrt(float(B1sq)))
                        if not (a_ok and b_ok and c_ok and d_ok):
                            if len(chain_bad) < 5:
                                chain_bad.append({"L": L, "gamma": str(gamma), "Q": list(Q),
                                                  "active": [list(k) for k in ks],
                                                  "tilde_k": Kt, "B2": a_ok, "rho_le": b_ok,
                                                  "eq48": c_ok, "eq53": d_ok})
                            ok = False
    # the printed '=' of (54) is refuted (erratum PG21.Lemma5.eq54)
    ok &= eq54_strict > 0 and eq54_example is not None
    details = {
        "fill_invariant_failures": fill_bad[:5],
        "coverage": cover[:3], "eq55": eq55,
        "chain": {"J": J, "eps": str(eps), "box": box, "deficit": deficit, "states": states,
                  "failures": chain_bad,
                  "min_margin_eq53_homogeneous": min_margin},
        "eq54_equality": {"strict": eq54_strict, "equal": eq54_equal,
                          "example": eq54_example, "erratum": "PG21.Lemma5.eq54"},
    }
    return Verdict(_holds(ok), measured=min_margin, bound=0, relation=">=",
                   quantity="smallest <K - rho, Q>/||Q|| - B_1 of (53) over the exhaustive "
                            "states (the fill invariant, (55) and (54): details)",
                   params={"J": 2, "eps": eps, "box": box, "L": (1, 2),
                           "fill_invariant_J": [Js[0], Js[-1]]},
                   details=details)


@register("PG21.Lemma5", location="Sec. VIII-B, Lemma 5 and its proof, eqs. (53)-(55)",
          statement="Under (48) at every server and rho < (1 - eps) gamma L x, x in "
                    "Conv(K_RED): VQS schedules tilde k_j >= k_j where Q_j > 0; <rho, Q> <= "
                    "(1 - eps) sum_l <tilde k, Q>; max_k <k, Q> >= ||Q||/sqrt(2J); hence (53) "
                    "with B_1 = eps gamma L/sqrt(2J) and B_2 = L K_max ||rho|| (the '=' of "
                    "(54) is '<=', erratum PG21.Lemma5.eq54).",
          method="exhaustive")
def check_lemma5(quick: bool) -> Verdict:
    """PG21 Sec. VIII-B, Lemma 5, eqs. (53)-(55):

    1. 'tilde k_j >= k_j when Q_j > 0' (VQS steps (i)-(ii), Sec. V-B): for each row k of
       K_RED^(J), k_j - 1 jobs of VQ_j at sup I_j leave room for one more of any size in
       I_j, in the capacity VQ_j may use (1/3 next to the 2/3 reservation for VQ_1), exact,
       J = 2..7 quick, 2..12 full;
    2. (55), second inequality: every VQ appears in some row (so max_k <k,Q> >= max_j Q_j
       >= ||Q||/sqrt(2J) for every Q), and exhaustively over queue boxes (exact squares);
    3. (53)-(54) exhaustively for J = 2, L = 1, 2, gamma = 1/2 (and 9/10 in the full
       mode), eps = 1/10, rho = (99/100)(1 - eps) gamma L x for x each row of K_RED and
       their barycentre, every Q in
       {0..2}^4 ({0..3}^4 full), every choice of active configurations satisfying (48) and
       every tilde k with k_j <= tilde k_j <= k_j + 1 where Q_j > 0 (0..k_j + 1 elsewhere):
       (a) <rho - K, K> <= L K_max ||rho||, (b) <rho, Q> <= (1 - eps) <K, Q>, (c) <K, Q> >=
       gamma L <k*, Q>, and (53)'s homogeneous part <K - rho, Q> >= B_1 ||Q||, exact. The
       printed equality in (54) fails (erratum PG21.Lemma5.eq54).
    """
    return _lemma5(quick)


# ============================================================================ (56)-(60)
EQ56_MU = F(1, 10**4)


def eq56_instance(mu: Fraction = EQ56_MU) -> dict[str, Any]:
    """A one-slot instance against (56): J = 2, L = 1, K_max = 4, Q(t0) = 0, the server
    holds 4 jobs of VQ_3 (small jobs rounded to 1/4, active configuration 3 e_3); at most one
    arrival per slot, w.p. 1/2, of type 3 w.p. 9/10 and of type 0 w.p. 1/10; each job departs
    w.p. mu. E||tilde Q(t0 + 1)|| is a finite sum (floats for the square roots)."""
    lam = F(1, 2)
    probs = {3: F(9, 10), 0: F(1, 10)}
    K0 = [0, 0, 0, 4]
    arrivals: list[tuple[Fraction, list[int]]] = [(1 - lam, [0, 0, 0, 0])]
    for j, p in probs.items():
        a = [0, 0, 0, 0]
        a[j] = 1
        arrivals.append((lam * p, a))
    terms = []
    for pa, a in arrivals:
        start = [x + y for x, y in zip(K0, a, strict=True)]
        # every job present may depart (the arrival too: the lowest expectation)
        for dep in itertools.product(*(range(n + 1) for n in start)):
            p = pa
            for n, d in zip(start, dep, strict=True):
                p *= math.comb(n, d) * mu**d * (1 - mu) ** (n - d)
            v = [n - d for n, d in zip(start, dep, strict=True)]
            terms.append(float(p) * math.sqrt(_dot(v, v)))
    expect = math.fsum(terms)
    lam_vec = [float(lam * probs.get(j, 0)) for j in range(4)]
    printed = 0 + 4 + 1 * math.sqrt(sum(v * v for v in lam_vec))
    corrected = 0 + 4 + 1 * sum(lam_vec)
    # (58) on the same instance, exact: E<tilde Q, rho> <= ||Q(t0)|| ||rho|| + B_2 + N2 mu ||rho||^2
    rho = [F(lam * probs.get(j, 0)) / mu for j in range(4)]
    e_inner = sum((pa * _dot([x + y for x, y in zip(K0, a, strict=True)], rho)
                   for pa, a in arrivals), F(0))  # departures only lower it
    rr = _dot(rho, rho)  # B_2 = L K_max ||rho|| = 4 ||rho||, N2 ||rho||^2 mu = mu rr
    eq58 = e_inner - mu * rr <= 0 or (e_inner - mu * rr) ** 2 <= 16 * rr
    return {"lambda": str(lam), "type_probs": {str(k): str(v) for k, v in probs.items()},
            "mu": str(mu), "E_norm": expect, "printed_bound": printed,
            "corrected_bound_l1": corrected, "margin_over_printed": expect - printed,
            "eq56_fails": expect - printed > 1e-9, "corrected_holds": expect <= corrected,
            "eq58_holds": eq58}


def _drift_bound_printed(q: Fraction, p: dict[str, Fraction], *, n2_on_bad: bool) -> Fraction:
    """The bound (b) of PG21 Sec. VIII-B after (58), at ||Q(t0)|| = q. With ``n2_on_bad``
    the complement of E is charged (58) on each of its N2 slots (as (45) sums them)."""
    e, L, N1, N2 = p["eps"], p["L"], p["N1"], p["N2"]
    B1, B2, B3, r, mu, LK = p["B1"], p["B2"], p["B3"], p["r"], p["mu"], p["LK"]
    one = q * r + B2 + N2 * r * r * mu  # (58), one slot
    bad = (N2 if n2_on_bad else 1) * e * one
    return ((1 - e) * (N2 - L * N1) * (-B1 * (q - N2 * LK) + B2)
            + (1 - e) * L * N1 * one + bad + N2 * B3)


def _drift_final(q: Fraction, p: dict[str, Fraction]) -> Fraction:
    e, L, N1, N2 = p["eps"], p["L"], p["N1"], p["N2"]
    B1, B2, B3, r, mu, LK = p["B1"], p["B2"], p["B3"], p["r"], p["mu"], p["LK"]
    C = (N2 - L * N1) * (B1 * N2 * LK) + L * N1 * N2 * mu * r * r + N2 * (B2 + B3)
    return (-N2 * (1 - e) * B1 + L * N1 * (1 - e) * (B1 + r) + e * r) * q + C


def _n2_eq59(p: dict[str, Fraction], *, corrected: bool = False) -> int | None:
    e, L, N1, B1, r = p["eps"], p["L"], p["N1"], p["B1"], p["r"]
    if corrected:
        den = (1 - e) * B1 - e * r
        if den <= 0:
            return None
        thr = L * N1 * (1 - e) * (B1 + r) / den
    else:
        thr = (L * N1 * (1 - e) * (B1 + r) + e * r) / ((1 - e) * B1)
    return math.floor(thr) + 1


def _q_eq60(p: dict[str, Fraction], delta: Fraction) -> Fraction:
    e, L, N1, N2 = p["eps"], p["L"], p["N1"], p["N2"]
    B1, B2, B3, r, mu, LK = p["B1"], p["B2"], p["B3"], p["r"], p["mu"], p["LK"]
    C = (N2 - L * N1) * (B1 * N2 * LK) + L * N1 * N2 * mu * r * r + N2 * (B2 + B3)
    den = N2 * B1 * (1 - e) - L * N1 * (1 - e) * (B1 + r) - e * r
    return (delta + C) / den


#: erratum PG21.Thm3.eq59: parameters where (59)-(60) hold and the correctly summed bound
#: is positive
EQ59_INSTANCE = {"eps": F(1, 2), "L": F(1), "N1": F(1), "B1": F(1, 10), "B2": F(4),
                 "B3": F(1), "r": F(1), "mu": F(1), "LK": F(4)}


def _drift(quick: bool, *, sum_over_bad_slots: bool = False) -> Verdict:
    ok = True
    # 1. (56) and (58) on a one-slot instance
    inst = eq56_instance()
    ok &= bool(inst["eq56_fails"] and inst["corrected_holds"] and inst["eq58_holds"])
    # 2. (57) pathwise, exhaustive: ||Q(t0) + K - D|| >= ||Q(t0)|| - N2 L K_max
    box = 3 if quick else 4
    eq57_bad = 0
    cases57 = 0
    for Q in itertools.product(range(box + 1), repeat=4):
        for D in itertools.product(range(3), repeat=4):  # N2 = 1, L = 1, K_max = 4
            if sum(D) > 4:
                continue
            for K in ((0, 0, 0, 0), tuple(D)):
                cases57 += 1
                v = [max(q + k - d, 0) for q, k, d in zip(Q, K, D, strict=True)]
                lhs, base = _dot(v, v), _dot(Q, Q) ** 0.5 - 4
                if base > 0 and lhs < base * base - 1e-9:
                    eq57_bad += 1
    ok &= eq57_bad == 0
    # 3. the chain's last '<=' and the sufficiency of (59)-(60) for it, exact on a grid
    grid = itertools.product((F(1, 10), F(1, 2)), (1, 2), (1, 3), (F(1, 20), F(1, 2)),
                             (F(1, 2), F(2)), (F(1, 10),), (F(1, 5),))
    chain_bad, suff_bad, corrected_bad = [], [], []
    tested = 0
    for e, L, N1, B1, r, mu, eps_small in grid:
        base = {"eps": e, "L": F(L), "N1": F(N1), "B1": B1, "B2": F(3), "B3": F(2), "r": r,
                "mu": mu, "LK": F(4 * L)}
        N2 = _n2_eq59(base)
        assert N2 is not None
        p = {**base, "N2": F(N2)}
        tested += 1
        for q in (F(0), F(1), F(10**3)):
            if _drift_bound_printed(q, p, n2_on_bad=sum_over_bad_slots) > _drift_final(q, p):
                chain_bad.append({k: str(v) for k, v in p.items()} | {"q": str(q)})
        delta = F(1)
        qt = _q_eq60(p, delta)
        if not _drift_final(qt + F(1, 100), p) < -delta:
            suff_bad.append({k: str(v) for k, v in p.items()})
        # corrected (59') as the erratum states it: eps' r < (1 - eps') B1 and
        # N2 [(1 - eps') B1 - eps' r] > L N1 (1 - eps')(B1 + r): the correctly summed bound
        # then decreases in q, and at the N2 just below the threshold it does not
        pc = {**base, "eps": eps_small}
        N2c = _n2_eq59(pc, corrected=True)
        if N2c is not None:
            pc["N2"] = F(N2c)
            slope = (_drift_bound_printed(F(10**6), pc, n2_on_bad=True)
                     - _drift_bound_printed(F(0), pc, n2_on_bad=True))
            pb = {**pc, "N2": pc["N2"] - 1}
            slope_below = (_drift_bound_printed(F(10**6), pb, n2_on_bad=True)
                           - _drift_bound_printed(F(0), pb, n2_on_bad=True))
            if not slope < 0 or (pb["N2"] >= 1 and slope_below < 0):
                corrected_bad.append({k: str(v) for k, v in pc.items()})
    ok &= not chain_bad and not suff_bad and not corrected_bad
    # 4. erratum PG21.Thm3.eq59: (59)-(60) hold, the correctly summed bound is positive
    p = dict(EQ59_INSTANCE)
    N2 = _n2_eq59(p)
    assert N2 is not None
    p["N2"] = F(N2)
    qt = _q_eq60(p, F(1))
    q = 10 * qt
    printed_val = _drift_final(q, p)
    summed_val = _drift_bound_printed(q, p, n2_on_bad=True)
    sep = {"params": {k: str(v) for k, v in p.items()}, "N2_from_eq59": N2,
           "eq60_threshold": str(qt), "q": str(q), "printed_bound": str(printed_val),
           "bound_with_N2_bad_slots": str(summed_val),
           "separates": printed_val < -1 and summed_val > 0}
    ok &= bool(sep["separates"])
    details = {
        "eq56_instance": inst, "erratum_eq56": "PG21.Thm3.eq56",
        "eq57_pathwise": {"cases": cases57, "failures": eq57_bad, "box": box},
        "chain_grid": {"parameter_sets": tested, "last_step_failures": chain_bad[:3],
                       "eq59_60_insufficient": suff_bad[:3],
                       "corrected_eq59_failures": corrected_bad[:3]},
        "eq59_instance": sep, "erratum_eq59": "PG21.Thm3.eq59",
    }
    return Verdict(_holds(ok), measured=inst["E_norm"], bound=inst["printed_bound"],
                   relation=">",
                   quantity="E||tilde Q(t0 + 1)|| on the one-slot instance against (56)'s "
                            "printed bound ((57)-(60): details)",
                   params={"eq57_box": box, "eq56_mu": inst["mu"]}, details=details)


@register("PG21.Lemma5.drift", location="Sec. VIII-B after Lemma 5, eqs. (56)-(60)",
          statement="(57) and (58) hold; the chain (a)-(b) ends in the printed linear bound, "
                    "and (59)-(60) make that bound < -delta; but (56) needs ||lambda||_1 "
                    "(erratum PG21.Thm3.eq56) and (b) charges the complement of E for one "
                    "slot instead of N2, so (59)-(60) need eps' ||rho|| < (1 - eps') B_1 "
                    "(erratum PG21.Thm3.eq59).",
          method="exact")
def check_lemma5_drift(quick: bool) -> Verdict:
    """PG21 Sec. VIII-B, eqs. (56)-(60) (the end of the proof of Thm. 3):

    1. (56) fails on a one-slot instance (J = 2, one server full of 4 rounded small jobs of
       VQ_3, Q(t0) = 0): E||tilde Q|| > ||Q(t0)|| + L K_max + N2 ||lambda||, while the bound
       with ||lambda||_1 holds (erratum PG21.Thm3.eq56); (58) holds there (exact), since it
       follows from linearity without (56);
    2. (57) pathwise, exhaustive over small queues and departures (<= L K_max per slot);
    3. on a grid of rational constants: the last '<=' of the chain after (58) (needs N2 >=
       L N1 >= 1) and that (59)-(60) make the final bound < -delta, exactly; the corrected
       condition makes the bound with the complement charged N2 slots decrease in ||Q(t0)||;
    4. erratum PG21.Thm3.eq59: parameters where (59)-(60) hold but the bound that sums (58)
       over the N2 slots of the complement of E is positive.
    """
    return _drift(quick)
