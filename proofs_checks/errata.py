"""The errata register: places where a paper's literal statement is wrong.

Each entry gives the statement as printed, the corrected statement, a minimal
instance that separates them, and the check that demonstrates it numerically.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Erratum", "ERRATA", "prop2_mixture_weights", "theorem2_margin"]


@dataclass(frozen=True)
class Erratum:
    id: str
    location: str
    printed: str
    corrected: str
    instance: str
    check: str  # claim id of the check that exhibits it

    def as_dict(self) -> dict[str, str]:
        return dict(self.__dict__)


ERRATA: list[Erratum] = [
    Erratum(
        id="PG21.Prop2.eq61",
        location="PG21 Sec. VIII-C, text after eq. (61)",
        printed="The maximum rho is achieved by choosing p_1 = 1/3 and p_2 = 1/3.",
        corrected="p_1 = 1/3 and p_2 = 2/3 (they must sum to one): 2 p_1 = rho/2 and "
                  "p_2 = rho/2 give rho = 4/3.",
        instance="sizes 1/2 - e, 1/2 + e equally likely, one server, maximal upper-rounded "
                 "configurations (2, 0) and (0, 1): the LP optimum has weights (1/3, 2/3); "
                 "with the printed (1/3, 1/3) the constraint p_1 + p_2 = 1 fails and the "
                 "workload supported is only 2/3.",
        check="PG21.Prop2",
    ),
    Erratum(
        id="PG21.Prop2.eps",
        location="PG21 Sec. VIII-C, first paragraph",
        printed="We choose an epsilon in (0, 1/3) ...; the possible maximal feasible "
                "configurations are (2, 0) and (0, 1).",
        corrected="epsilon in (0, 1/6): for epsilon >= 1/6 three jobs of size 1/2 - epsilon "
                  "fit in a server, (3, 0) can be feasible under upper rounding and the "
                  "bound 4/3 fails (Prop. 2 itself stands: choose epsilon < 1/6).",
        instance="epsilon = 1/5 (sizes 3/10, 7/10) and cuts at 1/4, 1/3, 1/2, 3/4: both "
                 "sizes are interior, the upper-rounded sizes are 1/3 and 3/4, and the "
                 "upper-rounded capacity is 3/2 > 4/3.",
        check="PG21.Prop2",
    ),
    Erratum(
        id="PG21.Thm2.eq15",
        location="PG21 Sec. IV-B, eq. (15) (choice of constants in the proof of Thm. 2)",
        printed="epsilon_1 = epsilon/3, N_2 = ceil(3 L N_1/epsilon), delta = L N_2 epsilon/3 "
                "satisfy (1 - eps) < (1 - eps_1)(1 - L N_1/N_2) - 2 delta/(L N_2).",
        corrected="With delta = L N_2 eps/3 the right side is at most (1 - eps/3)^2 - 2 eps/3 "
                  "= 1 - 4 eps/3 + eps^2/9 < 1 - eps for every eps in (0, 1); "
                  "delta = L N_2 eps/6 makes it at least 1 - eps + eps^2/9 > 1 - eps. "
                  "The theorem is unaffected (any smaller delta > 0 works).",
        instance="eps = 0.3: printed constants give 0.61 < 0.7; with delta = L N_2 eps/6 "
                 "the right side is 0.71 > 0.7.",
        check="PG21.Thm2.constants",
    ),
    Erratum(
        id="XLL21.Example1.job3",
        location="XLL21 Sec. II-C, Example 1 (fractional flowtime of Job 3)",
        printed="(1+2+3)/3 * 1/3 + (4+5)/3 * 1/2 + 6/3 + 2 = 7 1/6",
        corrected="(1+2+3)/3 * 1/3 + (4+5)/3 * 1/2 + 6/3 + 3 = 7 1/6: the last term is "
                  "p_3^(k-1) * sum_t x_3(t) = 1 * 3 = 3 (eq. (5) with k = 1); as printed the "
                  "terms add up to 6 1/6. The stated value 7 1/6 is right.",
        instance="Example 1 itself: Fair's rates of Table I give Job 3 the fractional flowtime "
                 "43/6 (the simulator and eq. (5) agree); the printed sum is 37/6.",
        check="XLL21.Example1",
    ),
    Erratum(
        id="XLL21.Thm6",
        location="XLL21 Sec. IV-C, Theorem 6",
        printed="The transient scheduling scheme produces an optimal solution to P3 (the "
                "fractional objective (35) over the horizon, all a_j = 0).",
        corrected="The scheme solves each slot's local program (38) optimally (Lemma 2, "
                  "corrected), which does not make it optimal over the horizon: the "
                  "rearrangement argument (37) shows the optimum's per-slot sums are "
                  "non-increasing, not that maximising each slot's sum is optimal.",
        instance="two jobs at time 0, p = (1, 3), d = (2, 1) cores, C = 2, k = 1: SVF runs "
                 "job 1 alone in slot 1, then job 2, fractional flowtime 2 + 6 = 8; sharing "
                 "slots 1-2 (job 1 on one core for two slots, job 2 on the other from slot "
                 "1) gives 2.5 + 5 = 7.5 = OPT_P2.",
        check="XLL21.Thm6",
    ),
    Erratum(
        id="XLL21.Alg1.line7",
        location="XLL21 Sec. III-A, Algorithm 1, line 7",
        printed="lambda_j(t+1) = max{0, lambda_j(t) + mu (p_j/(1 - a_j) - sum_i x_j^i z_j^i)}",
        corrected="p_j/(Gamma - a_j), the target rate of the soft constraint (7) that the "
                  "dual update (10) uses.",
        instance="a job with a_j = 3, p_j = 2 that is never served (Gamma = 10, mu = 1): "
                 "the printed target -1 keeps lambda_j at 0 for ever; eq. (7)'s 2/7 makes "
                 "it grow by 2/7 per slot. At a_j = 1 the printed target divides by zero.",
        check="XLL21.Alg1.line7",
    ),
    Erratum(
        id="XLL21.Lemma1.eq22",
        location="XLL21 Sec. IV-A, Lemma 1, eq. (22)",
        printed="y_j = 1 if sum_{n<=j} d_n <= C; 0 if sum_{n<=j} d_n >= C; "
                "(C - sum_{n<j} d_n)/d_j otherwise",
        corrected="0 if sum_{n<j} d_n >= C: as printed the first two cases overlap and the "
                  "second swallows the third, so the job that only partly fits gets 0.",
        instance="one job with omega < 0, d_1 = 4 cores, C = 3: printed y_1 = 0, the "
                 "optimum of P3 (z = 1) is y_1 = 3/4.",
        check="XLL21.Lemma1",
    ),
    Erratum(
        id="XLL21.Lemma2.eq39",
        location="XLL21 Sec. IV-C, Lemma 2, eq. (39)",
        printed="y_j = max{1, p_j(t)} if gamma_j >= d_j; max{gamma_j/d_j, p_j(t)} if "
                "0 < gamma_j < d_j",
        corrected="min{1, p_j(t)} and min{gamma_j/d_j, p_j(t)}: (38c) y_j <= p_j(t) and "
                  "(38d) y_j <= 1 bound every rate from above.",
        instance="one job, p_1 = p_1(t) = 3, d_1 = 1, C = 1: printed y_1 = 3 breaks (38d); "
                 "p_1(t) = 1/4, d_1 = 4, C = 2: printed y_1 = 1/2 breaks (38c); the "
                 "optima are 1 and 1/4.",
        check="XLL21.Lemma2",
    ),
    Erratum(
        id="PG18.SecVIIA.V",
        location="PG18 Sec. VII-A, definition of V",
        printed="V = sum_l V^l, V^l obtained by averaging the maximal configurations of "
                "server l; thus V is a point on the boundary of the supportable workload "
                "region.",
        corrected="V is on the boundary only when no average of maximal configurations lies "
                  "inside C; in general the boundary point in V's direction is t* V with "
                  "t* = max{t : t V in C} (an LP), and traffic intensities should be taken "
                  "relative to it (policies.rates_for_intensity does, by default).",
        instance="ten servers of capacity 10, sizes 2 and 5: maximal configurations (5, 0), "
                 "(2, 1), (0, 2), V = (70/3, 10); (30/29) V is in C: 14/29 of each "
                 "server's time in (5, 0) and 15/29 in (0, 2) give (70/29, 30/29) per "
                 "server, (30/29) V / 10. For Table I's EC2 types, t* = 1.",
        check="PG18.SecVIIA.V",
    ),
    Erratum(
        id="FL24.Sec5.1.CADP.K",
        location="FL24 Sec. 5.1 (CADP) and the proof of Lemma 6.1 (Sec. 6.1)",
        printed="For some small error parameter eps > 0, and knapsack capacity zeta, set "
                "K = zeta n / eps.",
        corrected="K = eps zeta / n: the proof of Lemma 6.1 bounds the rounding loss by n K "
                  "and needs n K = eps zeta. The proof's chain also lacks the step that "
                  "closes it: sum_J v < K sum_J v_hat + n K <= K floor(zeta/K) + n K <= "
                  "(1 + eps) zeta (as printed, its third line bounds sum_J v by n K + sum_J v "
                  "itself). The runtime O(n floor(zeta/K)) = O(n^2/eps) holds for this K.",
        instance="n >= 2 items of volume zeta and weight 1, eps = 0.1: with K = zeta n/eps "
                 "every v_hat = floor(eps/n) = 0 and the rounded capacity floor(eps/n) = 0, "
                 "so CADP takes all n items, volume n zeta > (1 + eps) zeta (n = 5: 5 zeta); "
                 "with K = eps zeta/n every v_hat equals the rounded capacity floor(n/eps) "
                 "and it takes one item, volume zeta.",
        check="FL24.Lemma6.1",
    ),
    Erratum(
        id="FL24.Remark1",
        location="FL24 Sec. 6.1, Remark 1",
        printed="The output selects the better of the items {1, ..., k-1} or {k}. ... Thus, "
                "by allowing a knapsack with capacity 2 zeta, we can obtain the optimal weight.",
        corrected="Take both, {1, ..., k} (items with v_j > zeta left out): weight >= the "
                  "fractional optimum >= OPT(zeta), volume <= zeta + v_k <= 2 zeta. The better "
                  "of {1..k-1} and {k} fits in zeta, so it never exceeds OPT(zeta) and is only "
                  "guaranteed OPT(zeta)/2.",
        instance="capacity 1, volumes (3/8, 3/8, 5/8, 5/8), weights (0.5, 0.5, 0.6, 0.6): "
                 "OPT = 1.1; the greedy stops at k = 3; the better of {1, 2} (1.0) and {3} "
                 "(0.6) is 1.0 < 1.1; {1, 2, 3} has weight 1.6 and volume 11/8 <= 2.",
        check="FL24.Remark1",
    ),
    Erratum(
        id="FL24.Alg1.line4",
        location="FL24 Sec. 5.3, Algorithm 1 line 4 (and the text of Sec. 5.3)",
        printed="zeta_k <- R gamma_k",
        corrected="zeta_k <- R M gamma_k: Lemma 6.5 bounds the volume of the jobs the "
                  "optimum completes on M machines by gamma_k by R M gamma_k (Lemma 6.2) and "
                  "needs the knapsack to admit it; the PQ bound max(2 p_max, 2V/M) then "
                  "gives 2R(1 + eps) gamma_k as the lemma states. For M = 1 the two agree.",
        instance="two machines, R = 1, two jobs released at 0 with p = 1, d = 1, w = 1: the "
                 "optimum completes both by gamma_0 = 1 (weight 2), but with zeta_0 = R "
                 "gamma_0 = 1 the knapsack (even with CADP's (1 + eps) slack) picks one job, "
                 "contradicting Lemma 6.5 at k = 0; with R M gamma_0 = 2 it picks both.",
        check="FL24.Alg1.line4",
    ),
    Erratum(
        id="FL24.Lemma6.3",
        location="FL24 Sec. 6.2, Lemma 6.3 and its proof (used by Lemma 6.5, Theorem 6.8)",
        printed="C_max <= max{2 p_max, 2 V_I / M} <= 2R C*_max; proof: 'There exists some l "
                "on every machine i such that U_ilt + U_il tau > 1.'",
        corrected="Holds for M = 1. For M >= 2 the step does not follow: a job active at tau "
                  "on machine i did not fit at t on any machine, which bounds each machine's "
                  "load at t against that job's demand, not against machine i's load at tau; "
                  "the bound fails. Lemma 6.5 and Theorem 6.8 (8R(1 + eps)) inherit the gap "
                  "for M >= 2 (FL24.Thm6.8 finds no instance above the bound).",
        instance="two unit machines, R = 1, six jobs at time 0 with (p, d) = (1, .2), (1, .6), "
                 "(1, .6), (3, .55), (3, .5), (3, .55) in WSJF order: PQ runs the three short "
                 "jobs in [0, 1), two long ones in [1, 4) and the last in [4, 7): makespan 7 > "
                 "max(2 p_max, 2V/M) = max(6, 6.2) = 6.2 (optimum 6).",
        check="FL24.Lemma6.3",
    ),
]


def prop2_mixture_weights(p1: float, p2: float) -> float | None:
    """Workload supported by weights (p1, p2) on configurations (2, 0) and (0, 1)
    for demand (1/2, 1/2) (PG21 eq. (61)); None if they are not a probability vector."""
    if abs(p1 + p2 - 1) > 1e-12 or p1 < 0 or p2 < 0:
        return None
    return min(2 * p1 / 0.5, p2 / 0.5)


def theorem2_margin(eps: float, delta_divisor: float) -> float:
    """(1 - eps_1)(1 - L N_1/N_2) - 2 delta/(L N_2) - (1 - eps) in the worst case
    L N_1/N_2 = eps/3 of eq. (15), for delta = L N_2 eps / delta_divisor.
    Positive means the sufficient condition below eq. (14) holds."""
    return (1 - eps / 3) * (1 - eps / 3) - 2 * eps / delta_divisor - (1 - eps)
