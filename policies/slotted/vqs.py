"""VQS and VQS-BF: virtual queues on the universal partition (PG21 Sec. V-B, VI).

Jobs are typed by the universal partition I of eq. (18) (sizes in (0, 1/2^J] join
VQ_{2J-1}); every server holds an *active configuration* from K_RED^(J) (Def. 6),
renewed only when the server is empty, to the max-weight one argmax <k, Q(t)>
(eq. (20); Q counts jobs per VQ; ties go to the first row in the order of eq. (19)).
The renewal uses the VQ lengths of the slot in which the server is found empty,
after that slot's arrivals.

* VQS (V-B step 2): if k_1 = 1, 2/3 of the capacity is reserved for one VQ_1 job,
  scheduled head-of-line when the server holds none; the other VQ_j of k is served
  from its head-of-line job in the remaining capacity (``hol``, below).
  Guarantee: 2/3 rho* when sizes exceed 1/2^J (Thm. 3); (1 - eps) 2/3 rho* when
  F_R(1/2^J) < eps (Cor. 1).
* VQS-BF (Sec. VI): (i) if k_1 = 1, the largest VQ_1 job that fits; (ii) the largest
  fitting VQ_j jobs until the server holds k_j of them; (iii) BF-S over the whole
  queue. Same guarantee (Thm. 4).

Small jobs (``small_jobs``). PG21 Sec. V-A: "jobs whose resource sizes fall in
(0, 1/2^J] are placed in the last virtual queue VQ_{2J-1}, and their resource sizes
are rounded up to 1/2^J", in contrast with the jobs of I_0..I_{2J-1}, placed in their VQ
"*without rounding its resource size*". The rounding is of the job's resource
requirement, i.e. of what it occupies in a server: the proof of Cor. 1 (Sec. VIII-D)
runs VQS on "system 3", where such jobs "join the queue and have their resource
requirement rounded to 1/2^J" ("Theorem 3 is valid for the third system"), and
Lemma 4 uses K_max := 2^J as "an upper bound on the maximum number of jobs that can
fit in a server", which holds only if no job occupies less than 1/2^J. It does not
touch the configurations: Q_j counts jobs (Sec. V-A, eq. (20)), so a small job counts
once in Q_{2J-1} under either reading, and K_RED (Def. 6) is the same.

* ``small_jobs="rounded"`` (default, the paper): while in service a job of size at most
  cap/2^J occupies cap/2^J; every fit test, load and size comparison of the policy
  uses max(size, cap/2^J). Hence a server never holds more than 2^J jobs (K_max of
  Lemma 4), and sum over its jobs of max(size, cap/2^J) <= cap (within the tolerance);
  the real load is below that. The queued-resource and busy series and the occupancy
  metrics still add real sizes.
* ``small_jobs="actual"``: such jobs are packed at their real size (the behaviour of
  this module before PG21 V-A's rounding was implemented); a server may then hold more
  than 2^J jobs, and Thm. 3 / Cor. 1 say nothing about this variant.

VQS-BF rounds too, by default: Sec. VI keeps the virtual queues of V-A (its steps
(i)-(ii) serve "the corresponding VQ_j") and sets configurations "exactly the same" as
VQS; the only departure it states is that VQ_1 jobs "reserve exactly the amount of
resource that they require" instead of 2/3 of the capacity. Its Thm. 4 repeats Cor. 1
for a general F_R (the proof is in the paper's supplement, which we do not have), and
Cor. 1's argument is the rounded system 3. So under ``"rounded"`` a VQ_{2J-1} job of
size <= cap/2^J counts as cap/2^J in all three steps of VQS-BF, including the BF-S
fill (iii) and its "largest job" order (all such jobs tie at cap/2^J; ties go to the
earliest arrival); ``"actual"`` packs and orders them by real size.

Head-of-line in VQS step (ii) (``hol``; VQS only). PG21 V-B step 2 (ii): "The server
will schedule jobs from the corresponding VQ_j, starting from the head-of-the-line job
in VQ_j, until no more jobs can fit in the server." Two readings:

* ``hol="skip"`` (default, the paper's wording): go through VQ_j in arrival order,
  starting from its head-of-line job; place each job that fits (in the capacity left
  for VQ_j: cap, or cap/3 when k_1 = 1, minus the sizes of the server's non-VQ_1 jobs,
  and in the server), pass over each that does not, and stop when no job of VQ_j fits
  the server (or VQ_j is exhausted). "Until no more jobs can fit" is the stopping
  state the paper uses for BF-S (Sec. IV-A: each server is filled "until no more jobs
  can fit", after which "no further job from the queue can be added"); only then is
  it literally true that no more VQ_j jobs fit.
* ``hol="stop"``: place the head-of-line job of VQ_j while it fits; the first head
  that does not fit ends step (ii), even if a later VQ_j job would fit (the behaviour
  of this module before the option existed).

The two coincide while the server holds fewer than k_j VQ_j jobs (k is feasible for
the upper-rounded VQs, so any VQ_j job fits then), which is all the proof of Thm. 3
uses (k~_j >= k_j, Sec. VIII-B); they differ only beyond k_j, e.g. J = 3, active row
4 e_4, VQ_4 = (1/6, 1/4] holding 0.24, 0.24, 0.17, 0.17, 0.24, 0.17 in arrival order:
"stop" places the first four (load 0.82; the head 0.24 does not fit) and "skip" also
places the last 0.17 (load 0.99).

Servers must be identical (the partition is relative to the capacity; PG21 Sec. IX).

Slow transients. Q counts jobs, so on one server with sizes {0.01, 1} w.p. 10/11, 1/11
(J = 7) a renewal picks the size-1 row e_0 only while Q_0 exceeds 96 Q_13 (0.01 is in
VQ_13, whose row is 3*2^5 e_13): at 0.6 and 0.633 rho* (mu = 0.05) the queue climbs for
6M-12M slots and then stays at about 34,000 and 50,000 jobs, as Thm. 3 allows; a
3M-slot run looks unstable.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from policies.slotted import codes as K
from policies.slotted.policy import BuiltinPolicy, KernelSpec
from theory.bounds import choose_J
from theory.configurations import reduced_configurations
from theory.distributions import Discrete, SizeDistribution
from theory.numbers import FEASIBILITY_RTOL, to_number
from theory.partitions import universal_partition

__all__ = ["VQS", "VQSBF", "observed_J", "MAX_J", "SMALL_JOBS", "HOL"]

#: Largest J the policies accept (sizes below 2^-MAX_J all share VQ_{2J-1}).
MAX_J = 40

#: Readings of PG21 V-A for jobs of size <= cap/2^J (module docstring); first = default.
SMALL_JOBS = ("rounded", "actual")
#: Readings of PG21 V-B step 2 (ii) (module docstring); first = default.
HOL = ("skip", "stop")


def observed_J(sizes: np.ndarray, capacity: float) -> int:
    """Smallest J > 1 with every size above capacity / 2^J (Thm. 3), capped at MAX_J."""
    if sizes.size == 0:
        return 2
    u = float(np.min(sizes)) / capacity
    J = 2
    while J < MAX_J and u <= 2.0**-J:
        J += 1
    return J


def _identical_capacity(capacities: np.ndarray, name: str) -> float:
    if not np.all(capacities == capacities[0]):
        raise ValueError(
            f"{name} needs identical servers: its universal partition is relative to the "
            "server capacity (PG21 Sec. IX)"
        )
    return float(capacities[0])


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))} "
                         f"(see policies.slotted.vqs), got {value!r}")


@dataclass(frozen=True)
class _VirtualQueueScheduler(BuiltinPolicy):
    J: int | None = None
    small_jobs: str = SMALL_JOBS[0]
    _code = -1

    def __post_init__(self) -> None:
        if self.J is not None and (
            isinstance(self.J, bool) or not isinstance(self.J, int) or not 2 <= self.J <= MAX_J
        ):
            raise ValueError(f"J must be an integer in [2, {MAX_J}] (PG21 eq. 18), got {self.J!r}")
        _check_choice("small_jobs", self.small_jobs, SMALL_JOBS)

    @classmethod
    def for_distribution(cls, dist: SizeDistribution, eps: float = 0.0,
                         capacity: object = 1, **options: str):  # noqa: ANN206
        """J per PG21 Cor. 1: the smallest J with F_R(1/2^J) < eps (eps=0: Thm. 3).

        ``capacity``: the server capacity when ``dist`` gives sizes in its units
        (then ``dist`` must be a :class:`~theory.distributions.Discrete`).
        ``options``: the other constructor parameters (``small_jobs``, VQS's ``hol``).
        """
        cap = to_number(capacity, name="capacity")
        if cap != 1:
            if not isinstance(dist, Discrete):
                raise ValueError("a continuous size law lives on (0, 1]: use capacity 1")
            dist = dist.scaled(1 / Fraction(cap))
        return cls(J=min(choose_J(dist, eps), MAX_J), **options)

    def parameters(self) -> dict[str, object]:
        """The policy's parameters (J None: chosen from the smallest job at run time)."""
        return {"J": self.J, "small_jobs": self.small_jobs}

    def _options(self) -> int:
        """Option bits of the kernel code (policies.slotted._kernel)."""
        return K.VQ_ROUND_SMALL if self.small_jobs == "rounded" else 0

    def compiled_spec(self, sizes: np.ndarray, capacities: np.ndarray) -> KernelSpec:
        cap = _identical_capacity(capacities, self.name)
        if np.any(sizes > cap * (1 + 1e-9)):
            raise ValueError("a job is larger than the server capacity")
        J = self.J if self.J is not None else observed_J(sizes, cap)
        jtype = universal_partition(J).classify(np.minimum(sizes, cap), cap, FEASIBILITY_RTOL)
        red = reduced_configurations(J)
        cfg = red.configs.astype(np.int64)
        k1 = cfg[:, 1] == 1
        main = np.full(cfg.shape[0], -1, np.int64)
        for c, row in enumerate(cfg):
            others = [j for j in np.flatnonzero(row) if j != 1]
            if others:
                main[c] = others[0]
        return KernelSpec(self._code | self._options(), jtype, 2 * J, cfg, main, k1)


@dataclass(frozen=True)
class VQS(_VirtualQueueScheduler):
    """VQS (PG21 V-B): virtual queues on the universal partition, K_RED configurations.

    Jobs join the virtual queue VQ_j of their interval I_j of the universal partition
    (eq. (18); sizes at most cap/2^J join VQ_{2J-1}). Each server holds an active
    configuration of K_RED (Def. 6, eq. (19)), renewed only when it is empty to the
    max-weight one (eq. (20)-(21)), and schedules by it (V-B step 2). It supports at
    least 2/3 of ``rho*`` when every size exceeds cap/2^J (Thm. 3), and at least
    (1 - eps) 2/3 of it when F_R(1/2^J) < eps (Cor. 1). Servers must be identical. See the module
    docstring for the paper's words behind each option.

    Parameters
    ----------
    J : int or None, optional
        Depth of the universal partition, an integer in [2, ``MAX_J``] = [2, 40]. None
        (default): at run time, the smallest J with every size above cap/2^J (Thm. 3);
        :meth:`for_distribution` picks it from the size law (Cor. 1).
    small_jobs : {"rounded", "actual"}, optional
        ``"rounded"`` (default; PG21 V-A): a job of size at most cap/2^J occupies
        cap/2^J. ``"actual"``: it is packed at its real size.
    hol : {"skip", "stop"}, optional
        Step (ii). ``"skip"`` (default, the paper's wording): every VQ_j job that fits,
        in arrival order from the head. ``"stop"``: step (ii) ends at the first
        head-of-line job that does not fit.

    Raises
    ------
    ValueError
        ``J`` not an integer in [2, MAX_J]; ``small_jobs`` or ``hol`` not one of its
        choices. At run time: servers of different capacities, or a job larger than
        the capacity.

    References
    ----------
    PG21, Sec. V-A, eq. (18) (universal partition); Sec. V-B, Def. 6, eqs. (19)-(21)
    (VQS); Sec. V-C, Thm. 3 and Cor. 1 (2/3 of ``rho*``).

    Examples
    --------
    >>> import policies, theory
    >>> policies.VQS(J=3).parameters()
    {'J': 3, 'small_jobs': 'rounded', 'hol': 'skip'}

    Cor. 1's J for sizes uniform on [0.01, 0.19] (1/2^7 < 0.01 < 1/2^6):

    >>> policies.VQS.for_distribution(theory.Uniform(0.01, 0.19), 0.01)
    VQS(J=7, small_jobs='rounded', hol='skip')
    >>> policies.VQS(J=1)
    Traceback (most recent call last):
    ...
    ValueError: J must be an integer in [2, 40] (PG21 eq. 18), got 1
    """

    hol: str = HOL[0]
    name = "vqs"
    _code = K.VQS

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_choice("hol", self.hol, HOL)

    def parameters(self) -> dict[str, object]:
        return {**super().parameters(), "hol": self.hol}

    def _options(self) -> int:
        return super()._options() | (K.VQ_HOL_SKIP if self.hol == "skip" else 0)


@dataclass(frozen=True)
class VQSBF(_VirtualQueueScheduler):
    """VQS-BF (PG21 Sec. VI): VQS's active configurations, filled by largest fit and BF-S.

    The active configuration k is set as in :class:`VQS`; then (i) if k_1 = 1, the
    largest VQ_1 job that fits; (ii) the largest fitting VQ_j jobs until the server
    holds k_j of them; (iii) BF-S over the whole queue. Same guarantee as VQS
    (Thm. 4). Step (ii) picks the largest fitting job, so VQS's ``hol`` does not apply.
    Servers must be identical.

    Parameters
    ----------
    J : int or None, optional
        Depth of the universal partition, as for :class:`VQS` (None: from the smallest
        job at run time).
    small_jobs : {"rounded", "actual"}, optional
        As for :class:`VQS` (default ``"rounded"``: V-A's rounding applies to the
        virtual queues VQS-BF shares with VQS, in its steps (i)-(iii); see the module
        docstring).

    Raises
    ------
    ValueError
        ``J`` not an integer in [2, MAX_J]; ``small_jobs`` not one of its choices. At
        run time: servers of different capacities, or a job larger than the capacity.

    References
    ----------
    PG21, Sec. VI (VQS-BF steps (i)-(iii)) and Thm. 4; Sec. V-B, Def. 6 and eq. (20)
    (the active configuration).

    Examples
    --------
    >>> import policies
    >>> p = policies.VQSBF(J=3)
    >>> p.name, p.parameters()
    ('vqs-bf', {'J': 3, 'small_jobs': 'rounded'})
    >>> policies.make_policy("vqs-bf", J=3, small_jobs="actual")
    VQSBF(J=3, small_jobs='actual')
    """

    name = "vqs-bf"
    _code = K.VQSBF
