"""The errata register: places where a paper's literal statement is wrong.

Each entry gives the statement as printed, the corrected statement, a minimal
instance that separates them, and the check that demonstrates it numerically.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Erratum", "ERRATA", "PROP2_WEIGHTS", "THM2_DELTA_DIVISOR", "THM2_H_DIVISOR"]


@dataclass(frozen=True)
class Erratum:
    """A place where a paper's literal statement is wrong, with the fix and the proof.

    The register ``ERRATA`` lists them; ``packsched errata`` prints it. Each entry
    names the registered check (``check``) that exhibits it numerically.

    Parameters
    ----------
    id : str
        Paper key, location and item (``"XLL21.Alg1.line7"``, ``"FL24.Sec5.1.CADP.K"``).
    location : str
        Where the paper prints it (section, equation, line).
    printed : str
        The statement as printed.
    corrected : str
        The corrected statement.
    instance : str
        A minimal instance that separates the two.
    check : str
        The claim id of the check that exhibits it (:func:`proofs_checks.get_check`).

    References
    ----------
    docs/design.md, section Errata.

    Examples
    --------
    >>> from proofs_checks import ERRATA, get_check
    >>> e = next(e for e in ERRATA if e.id == "XLL21.Alg1.line7")
    >>> e.location
    'XLL21 Sec. III-A, Algorithm 1, line 7'
    >>> get_check(e.check).method
    'counterexample'
    >>> list(e.as_dict())
    ['id', 'location', 'printed', 'corrected', 'instance', 'check']
    """

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
        location="PG21 Sec. VIII-C, first and third paragraphs (proof of Prop. 2)",
        printed="We choose an epsilon in (0, 1/3) such that each resource size, 1/2 - epsilon "
                "and 1/2 + epsilon, is in the interior of some subinterval of X ...; the "
                "possible maximal feasible configurations are (2, 0) and (0, 1).",
        corrected="epsilon in (0, 1/6], and the range is sharp. A size in the interior of its "
                  "cell rounds up to r > size, so for epsilon <= 1/6 the small jobs round to "
                  "r_1 > 1/2 - epsilon >= 1/3 and (3, 0) is infeasible (3 r_1 > 1): at "
                  "epsilon = 1/6 three actual jobs of size 1/3 fit, three upper-rounded ones "
                  "do not. For every epsilon in (1/6, 1/3) a cut at 1/3 puts 1/2 - epsilon "
                  "< 1/3 in the interior of a cell whose upper end is 1/3: (3, 0) is feasible "
                  "and the upper-rounded capacity is 3/2 > 4/3. Prop. 2 itself stands "
                  "(choose epsilon <= 1/6).",
        instance="epsilon = 1/6 (sizes 1/3, 2/3): cuts 1/4, 1/2, 3/4 hold both sizes in cell "
                 "interiors and support exactly 4/3; cuts 1/4, 1/3, 1/2, 3/4 support 3/2 but "
                 "put 1/3 on a cut (the upper end of (1/4, 1/3]), outside the construction. "
                 "epsilon = 1/5 (sizes 3/10, 7/10) with cuts 1/4, 1/3, 1/2, 3/4: both sizes "
                 "interior, upper-rounded sizes 1/3 and 3/4, capacity 3/2 > 4/3 (likewise "
                 "epsilon = 1/6 + 1/10^4).",
        check="PG21.Prop2",
    ),
    Erratum(
        id="PG21.Thm2.eq15",
        location="PG21 Sec. IV-B, eq. (15) (choice of constants in the proof of Thm. 2)",
        printed="epsilon_1 = epsilon/3, N_2 = ceil(3 L N_1/epsilon), delta = L N_2 epsilon/3 "
                "satisfy (1 - eps) < (1 - eps_1)(1 - L N_1/N_2) - 2 delta/(L N_2).",
        corrected="delta = L N_2 eps/6. With x = L N_1/N_2 in (0, eps/3] (N_2 >= 3 L N_1/eps, "
                  "N_1 >= 1) and delta = L N_2 eps/3 the right side is (1 - eps/3)(1 - x) - "
                  "2 eps/3 = (1 - eps) - x (1 - eps/3) < 1 - eps for every eps in (0, 1), L "
                  "and N_1: the printed constants never satisfy the condition. "
                  "(1 - eps/3)^2 - 2 eps/3 = 1 - 4 eps/3 + eps^2/9 is the right side's lower "
                  "bound (reached when 3 L N_1/eps is an integer), not an upper bound; with "
                  "delta = L N_2 eps/6 the same lower bound is 1 - eps + eps^2/9 > 1 - eps. "
                  "The theorem is unaffected (any smaller delta > 0 works).",
        instance="eps = 3/10, L = N_1 = 1 (N_2 = 10, x = 1/10): the printed constants give "
                 "61/100 < 7/10, delta = L N_2 eps/6 gives 71/100 > 7/10; eps = 2/7, "
                 "L = N_1 = 1 (N_2 = 11, x = 1/11 < eps/3): 146/231 < 165/231 = 1 - eps "
                 "against 168/231.",
        check="PG21.Thm2.constants",
    ),
    Erratum(
        id="PG21.Thm2.eq16",
        location="PG21 Sec. IV-B, eq. (16) (h of Subtheorem 1 in the proof of Thm. 2)",
        printed="h(S(t_0)) = L N_2 epsilon/3 if V(S(t_0)) > (2 L N_2 + L)/mu, "
                "-N_2 rho R-bar otherwise.",
        corrected="h(S(t_0)) = L N_2 eps/6 (the corrected delta of (15)) when V(S(t_0)) > "
                  "(2 L N_2 + L)/mu. Eq. (13) bounds the drift by -h_13 with h_13 = "
                  "(1 - eps_1)(N_2 - L N_1) L/2 - N_2 rho R-bar; over rho < (1 - eps) L/(2 "
                  "R-bar) its infimum is (L N_2/2)[(1 - eps/3)(1 - x) - (1 - eps)], x = "
                  "L N_1/N_2 in (0, eps/3], which is < L N_2 eps/3 for every eps, L, N_1 and "
                  ">= L N_2 (eps/6 + eps^2/18) > L N_2 eps/6. The theorem is unaffected.",
        instance="eps = 3/10, L = N_1 = 1 (N_2 = 10), rho R-bar = 17/50 < (1 - eps)/2 = 7/20: "
                 "(13) gives a drift <= -13/20, not <= -1 = -L N_2 eps/3 as (16) needs (as "
                 "rho R-bar -> 7/20 the bound tends to -11/20); -L N_2 eps/6 = -1/2 holds.",
        check="PG21.Thm2.constants",
    ),
    Erratum(
        id="PG21.Prop1.eq28",
        location="PG21 Sec. V-C, proof of Prop. 1, Case 2.2.2: the text between eqs. (28) "
                 "and (29)",
        printed="Similarly if Q_{2m+1} >= U'/(3 2^(m-1)) for some m in [1, ..., J-1], then "
                "(22) is true either for 2e_2 if Q_2 >= U/3, or otherwise for k = e_1 + "
                "2^(m-1) e_{2m+1}, as <k, Q> = Q_1 + 2^(m-1) Q_{2m+1} >= Q_1 + U' >= U - Q_2 "
                "> 2U/3. (29)",
        corrected="Q_{2m+1} >= U'/2^(m-1), the bound (28) establishes: only it gives "
                  "2^(m-1) Q_{2m+1} >= U' in (29); U'/(3 2^(m-1)), copied from (26) of Case "
                  "2.2.1, gives only 2^(m-1) Q_{2m+1} >= U'/3. Prop. 1 stands.",
        instance="J = 3, a refinement X of I with cells (1/2, 51/100], (1/3, 103/300], "
                 "(1/8, 13/100] and k^X one job of each (load 59/60 <= 1); Q_1 = 6, Q_2 = 3, "
                 "Q_3 = 1, Q_5 = 3 (the Q_5 jobs in (1/8, 13/100]): U = 12, Case 2.2.2 "
                 "(8 > Q_1 >= 6, Q_2 = 3 < 4), U' = 3. The printed hypothesis holds at m = 1 "
                 "(Q_3 = 1 >= U'/3) but e_1 + e_3 weighs 7 < 2U/3 = 8; the corrected one "
                 "fails at m = 1 (1 < 3) and holds at m = 2 (Q_5 = 3 >= 3/2): e_1 + 2 e_5 "
                 "weighs 12 >= 8.",
        check="PG21.Prop1.eq28",
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
        id="XLL21.Thm4",
        location="XLL21 Sec. IV-A, Theorem 4, eq. (30), and its proof sketch",
        printed="Under the same setting as Theorem 3 (Gamma of eq. (27), mu = T^(k - beta), "
                "0 <= beta < 1, T <= Gamma), Reg_T^d <= C OPT^(1-beta)/2 max_j p_j/d_j "
                "(C is not defined where (30) stands; Sec. IV-C later writes C = sum_i C_i).",
        corrected="The sketch's two steps give Reg_T <= (C/2) mu T (T-1)/Gamma max_j p_j/d_j "
                  "<= (C/2) T^(k+1-beta) max_j p_j/d_j with C = sum_i C_i: y(t) minimises "
                  "(9) and y = 0 is feasible, so f_t(y(t)) <= sum_j lambda_j(t) y_j(t); "
                  "g_j <= p_j/(Gamma - a_j) in (10), lambda_j(a_j + 1) = 0, gives lambda_j(t) <= "
                  "mu p_j (t-1)/Gamma; sum_j p_j y_j <= C max_j p_j/d_j. (30) would follow "
                  "only from a lower bound OPT^(1-beta) >= mu T (T-1)/Gamma, and on the "
                  "family below OPT grows like T, not like T^((k+1-beta)/(1-beta)) (n = 30: "
                  "it would need OPT >= 2.2e10, OPT <= 5252). For beta in (0, 1) no C fixed across "
                  "instances works: y* = 0 in (25) (every weight of (24) is positive), so "
                  "Reg_T is OCORP's own cost, which is >= OPT_P2 once OCORP has completed "
                  "every job by T; with OPT = OPT_P2, (30) then needs C >= 2 OPT_P2^beta / "
                  "max_j p_j/d_j, unbounded as jobs are added. The measured regret grows like "
                  "OPT^1, the rate of the paper's own remark after Theorem 4 (O(OPT), "
                  "beta = 0).",
        instance="k = 2, beta = 1/2, T = floor(Gamma); two machines of 8 cores (C = 16), n "
                 "jobs arriving uniformly over 2n slots, p_j in 1..11, d_j in 1..4 "
                 "(online_instance(0, n, 2n)); OCORP completes every job before T. n = 120: "
                 "Reg_T = 16762 > 16/2 * 26064^(1/2) * 11 = 14207, with OPT <= 26064 (OCORP's "
                 "own sum_j f_j^2, above its fractional cost: either reading of OPT); n = 480: "
                 "59104 > 26599. Over n = 30, 60, 120, 240, 480 the regret grows like OPT^e, "
                 "e = 0.997 [0.990, 1.004] (95%) against that upper bound on OPT and 0.998 "
                 "[0.986, 1.009] against OPT_P2^LP/2, a lower bound, not 1/2; C would have "
                 "to be at least 15.8, 15.4, 18.9, 25.6, 35.6.",
        check="XLL21.Thm4",
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
    Erratum(
        id="PG21.Lemma4.eq52",
        location="PG21 Sec. VIII-B, proof sketch of Lemma 4, eqs. (50)-(52)",
        printed="Term_2 >= 1 - 2(lambda + mu K_max L) N_2 / (B_gamma1 ||Q(t_0)||) (51), where "
                "B_gamma1 = min_{k' != k in K_RED} sin(angle(k' - k, k' - gamma k)) (52).",
        corrected="Reading of the sketch (the full proof is in a supplement we do not have): "
                  "(51) is Markov's inequality for the event that Q moves by B_gamma1 "
                  "||Q(t_e)|| >= B_gamma1 ||Q(t_0)|| / 2, so B_gamma1 must bound the distance "
                  "from Q(t_e) (where k' has the maximum weight) "
                  "to the half-space <k' - gamma k, x> < 0 of (50), relative to ||Q(t_e)||. "
                  "The sine of the angle between the two normals is that ratio only inside "
                  "their plane; in 2J >= 4 dimensions Q can be closer. A valid constant is "
                  "(1 - gamma) / (sqrt(2J) max_{k' != k} ||k' - gamma k||), since <k' - gamma "
                  "k, Q> >= (1 - gamma) <k', Q> >= (1 - gamma) ||Q|| / sqrt(2J). Lemma 4 stands "
                  "with it (B_gamma changes accordingly); (51) itself, a probability, is not "
                  "refuted here.",
        instance="J = 2, gamma = 1/2, B_gamma1 = 0.15596: Q = (300, 200, 100, 101), where 3 e_3 "
                 "is the unique max-weight row of K_RED^(2) (weights 300, 200, 303, 301); after "
                 "Delta = (1, 0, 0, -51) (one arrival to VQ_0, 51 jobs of VQ_3 scheduled), "
                 "<3 e_3, Q + Delta> = 150 < gamma <e_0, Q + Delta> = 150.5, so (48)/(50) fails, "
                 "yet ||Delta|| = 51.01 < B_gamma1 ||Q|| = 60.44. Exhaustively over {0..4}^4 the "
                 "smallest ratio is 0.1273 (Q = (3, 2, 1, 1)) < 0.1560.",
        check="PG21.Lemma4",
    ),
    Erratum(
        id="PG21.Lemma5.eq54",
        location="PG21 Sec. VIII-B, proof of Lemma 5, first line of eq. (54) and the lemma "
                 "statement",
        printed="sum_j tilde Q_j (rho_j - sum_l tilde k_j) = <rho - sum_l tilde k, Q> + B_2, "
                "with B_2 = L K_max sum_j rho_j (proof) and B_2 = L K_max ||rho|| (statement).",
        corrected="'<=': with K = sum_l tilde k^(l) and tilde Q = Q + K, the left side is <rho - "
                  "K, Q> + <rho - K, K>, and <rho - K, K> <= <rho, K> <= ||rho|| ||K||_1 <= L "
                  "K_max ||rho|| (<= L K_max sum_j rho_j). (53) holds with either B_2.",
        instance="J = 2, L = 1, rho = (891/2000, 0, 0, 0), Q = e_0, active configuration e_0, "
                 "tilde k = e_0: the left side is 2 (891/2000 - 1) = -1109/1000, the printed "
                 "right side (891/2000 - 1) + 4 (891/2000) = 2455/2000 (and with ||rho|| the "
                 "same); the exhaustive check finds no state with equality.",
        check="PG21.Lemma5",
    ),
    Erratum(
        id="PG21.Thm3.eq56",
        location="PG21 Sec. VIII-B, eq. (56) (after Lemma 5)",
        printed="E(||tilde Q(t)|| | S(t_0)) <= ||Q(t_0)|| + L K_max + N_2 ||lambda||, with "
                "||.|| the Euclidean norm.",
        corrected="... + N_2 ||lambda||_1 (the sum of the rates): arrivals add at most "
                  "||A||_1 to the norm, E||A||_1 = N_2 sum_j lambda_j, while E||A|| can exceed "
                  "||E A||. (58) is unaffected: it follows from linearity of <tilde Q, rho>.",
        instance="J = 2, L = 1, K_max = 4, N_2 = 1, Q(t_0) = 0, the server full with 4 small jobs "
                 "of VQ_3 rounded to 1/4 (active configuration 3 e_3); one arrival w.p. 1/2 of "
                 "type 3 w.p. 9/10 or type 0 w.p. 1/10, departures w.p. mu = 1e-4: "
                 "E||tilde Q(t_0 + 1)|| = 4.45571 > 4 + ||lambda|| = 4.45277 (<= 4 + "
                 "||lambda||_1 = 4.5).",
        check="PG21.Lemma5.drift",
    ),
    Erratum(
        id="PG21.Thm3.eq59",
        location="PG21 Sec. VIII-B, the drift chain (a)-(b) after eq. (58), and eqs. (59)-(60)",
        printed="(1 - P_1)(||Q(t_0)|| ||rho|| + B_2 + N_2 ||rho||^2 mu) in (a), and eps' "
                "||rho|| ||Q(t_0)|| + eps' B_2 + eps' N_2 ||rho||^2 mu in (b); hence (59): N_2 "
                "> (L N_1 (1 - eps')(B_1 + ||rho||) + eps' ||rho||) / ((1 - eps') B_1).",
        corrected="(58) bounds one slot; (45) sums N_2 of them, so the complement of E costs "
                  "N_2 (1 - P_1)(...): the coefficient of ||Q(t_0)|| is -N_2 (1 - eps') B_1 + "
                  "L N_1 (1 - eps')(B_1 + ||rho||) + eps' N_2 ||rho||, which needs eps' ||rho|| "
                  "< (1 - eps') B_1 and N_2 > L N_1 (1 - eps')(B_1 + ||rho||) / ((1 - eps') B_1 "
                  "- eps' ||rho||). Thm. 3 stands: Lemma 4 allows any eps' > 0.",
        instance="eps' = 1/2, L = N_1 = 1, B_1 = 1/10, ||rho|| = 1, mu = 1, L K_max = 4, B_2 = "
                 "4, B_3 = 1, delta = 1: (59) gives N_2 = 22, (60) ||Q(t_0)|| > 6356; at "
                 "||Q(t_0)|| = 63560 the printed bound is -14306/5 < -delta, the bound with the "
                 "N_2 slots of the complement of E is +3323287/5.",
        check="PG21.Lemma5.drift",
    ),
    Erratum(
        id="PG21.Cor1.eq62",
        location="PG21 Sec. VIII-D (proof of Cor. 1), the text before eq. (62) and the chain "
                 "after it",
        printed="in the latter [system 4] the arrival rate of the jobs is increased by a factor "
                "of 1/(1 - eps); ... rho_VQS* >= (2/3) rho_3* >= (2/3) rho_4* = (2/3)(1 - eps) "
                "rho_1*.",
        corrected="the factor is 1/(1 - F_R(1/2^J)), so rho_4* = (1 - F_R(1/2^J)) rho_1* >= (1 - "
                  "eps) rho_1*: '=' is '>=' (strict whenever rho_1* > 0, since J is chosen with "
                  "F_R(1/2^J) < eps), as (62) itself states. Cor. 1 stands.",
        instance="sizes 1/300, 9/20, 11/20 w.p. 9/20, 11/40, 11/40, one server, eps = 1/2: J = "
                 "2, F_R(1/4) = 9/20, rho_4* = rho*(F | R > 1/4) = 2 (pairs 9/20 + 11/20), "
                 "rho_1* = 2/(11/20) = 40/11, and (1 - eps) rho_1* = 20/11 < 2 = rho_4*.",
        check="PG21.Cor1",
    ),
]


#: PG21 Sec. VIII-C after eq. (61): weights of the configurations (2, 0) and (0, 1),
#: as printed and as corrected (erratum PG21.Prop2.eq61).
PROP2_WEIGHTS: dict[str, tuple[Fraction, Fraction]] = {
    "printed": (Fraction(1, 3), Fraction(1, 3)),
    "corrected": (Fraction(1, 3), Fraction(2, 3)),
}

#: PG21 eq. (15): delta = L N_2 eps / divisor (erratum PG21.Thm2.eq15).
THM2_DELTA_DIVISOR: dict[str, int] = {"printed": 3, "corrected": 6}
#: PG21 eq. (16): h(S(t_0)) = L N_2 eps / divisor for large V (erratum PG21.Thm2.eq16).
THM2_H_DIVISOR: dict[str, int] = {"printed": 3, "corrected": 6}
