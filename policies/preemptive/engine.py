"""The slotted preemptive event loop of XLL21 (Sec. II-A), shared by its policies.

Each slot t = 1, 2, ... the policy sees the jobs present (arrived, a_j < t, and
unfinished) and returns, per job and machine, an integer number of cores u_j^i(t) and a
memory indicator z_j^i(t). The engine checks the allocation against (4b)-(4d) and (4f)
before applying it (cores and memory per machine, sum_i u_j^i <= d_j, integers, cores
only where the memory is held), processes min(sum_i u_j^i z_j^i, remaining volume) of
each job's volume d_j p_j (eq. (1)), and records the run. A job completing in slot c_j
has flowtime f_j = c_j - a_j.

A policy is a :class:`PreemptivePolicy`: ``reset(jobs, machines)`` once, then
``allocate(view)`` each slot, in plain Python (the built-in ones are vectorised).
"""

from __future__ import annotations

import time

import numpy as np

from policies.policy import require_family
from policies.preemptive.policy import Allocation, PreemptivePolicy
from policies.preemptive.result import ScheduleResult
from policies.preemptive.state import SlotView
from theory.budgets import MEMORY_BUDGET, check_budget
from theory.fractional_flowtime import check_k
from theory.job_sets import JobSet, Machines, check_fits, require_integers, require_resources
from theory.progress import Progress

__all__ = ["run_schedule", "slot_bound", "RECORD_BYTES", "MAX_SLOTS",
           "busy_slots_lower_bound"]

#: bytes per recorded (job, machine, slot) allocation
RECORD_BYTES = 24
#: bytes per present (job, machine) pair in one slot's arrays (allocation, memory,
#: the previous slot's cores, products): the peak when every job is present at once
PAIR_BYTES = 48
#: slots a run may step through unless ``max_slots`` says otherwise (about 75 us each in
#: plain Python: 10^7 slots are some 12 minutes); empty time between jobs is skipped
MAX_SLOTS = 10_000_000
#: the largest volume p_j d_j the engine's int64 counters hold with room for sums
MAX_VOLUME = 2**62


def slot_bound(jobs: JobSet, machines: Machines) -> int:
    """The default cap on the slots of a run: ten times max_j a_j + sum_j p_j d_j +
    max_j p_j (the horizon within which one core per slot finishes every job) plus
    10,000 slots, room for policies that wait on purpose (OCORP serves a job only once
    its multiplier passes its weight), and at most max_j a_j + :data:`MAX_SLOTS`. A run
    reaching it stops and says so.

    Parameters
    ----------
    jobs : theory.JobSet
        The jobs: integer arrival slots a_j, processing times p_j and cores d_j
        (``demand[:, 0]``).
    machines : theory.Machines
        The machines (not used by the bound; the signature matches the engine's).

    Returns
    -------
    int
        min(10 (max_j a_j + sum_j p_j d_j + max_j p_j) + 10,000, max_j a_j +
        :data:`MAX_SLOTS`).

    References
    ----------
    XLL21, Sec. II-A (volumes v_j = p_j d_j, a job served from slot a_j + 1);
    docs/design.md, section Inputs, budgets and errors (Budgets).

    Examples
    --------
    >>> from policies.preemptive import slot_bound
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 1, 1, 2], processing=[3, 1, 3, 2],
    ...               demand=[[3], [3], [1], [3]])
    >>> slot_bound(jobs, Machines([[3], [2]]))  # 10 (2 + 21 + 3) + 10,000
    10260
    """
    a, p, d = jobs.arrival, jobs.processing, jobs.demand[:, 0]
    generous = 10 * (int(a.max()) + int(np.sum(p * d)) + int(p.max())) + 10_000
    return min(generous, int(a.max()) + MAX_SLOTS)


def busy_slots_lower_bound(jobs: JobSet, machines: Machines) -> int:
    """Slots in which some job must be served, in any schedule: at least max_j p_j
    (a job gets at most d_j cores a slot, eq. (2)) and at least sum_j p_j d_j / sum_i
    C_i (no slot serves more than every core, eq. (4b))."""
    vol = sum(int(p) * int(d) for p, d in zip(jobs.processing, jobs.demand[:, 0],
                                                strict=True))
    cores = int(machines.capacity[:, 0].sum())
    return max(int(jobs.processing.max()), -(-vol // cores))


def _check_arguments(memory: object, max_slots: object, memory_budget: object) -> None:
    if memory is not None and not isinstance(memory, bool | np.bool_):
        raise TypeError(f"memory must be True, False or None (the policy decides), got "
                        f"{memory!r}")
    if max_slots is not None and (isinstance(max_slots, bool | np.bool_)
                                  or not isinstance(max_slots, int | np.integer)
                                  or max_slots < 1):
        raise ValueError(f"max_slots must be an integer >= 1, got {max_slots!r}")
    if isinstance(memory_budget, bool) or not isinstance(memory_budget, int | float) \
            or not memory_budget > 0:
        raise ValueError(f"memory_budget must be a positive number of bytes, got "
                         f"{memory_budget!r}")


def _memory_policies() -> list[str]:
    """The names of the XLL21 policies defined so far that model memory."""
    found: list[str] = []
    todo = [PreemptivePolicy]
    while todo:
        cls = todo.pop(0)
        todo += cls.__subclasses__()
        # a class's own name only: an abstract base inherits the generic "policy"
        if cls.uses_memory and "name" in vars(cls) and cls.name not in found:
            found.append(cls.name)
    return found


def _check_size(jobs: JobSet, machines: Machines, max_slots: int | None,
                memory_budget: float, name: str) -> None:
    """Refuse, before anything is allocated, a run whose volumes overflow the counters,
    whose arrays pass ``memory_budget`` or whose busy slots pass :data:`MAX_SLOTS`."""
    volume = [int(p) * int(d) for p, d in zip(jobs.processing, jobs.demand[:, 0],
                                              strict=True)]
    if sum(volume) > MAX_VOLUME:
        big = max(range(jobs.n), key=volume.__getitem__)
        raise ValueError(f"the jobs' volume sum_j p_j d_j = {float(sum(volume)):.3g} "
                         f"core-slots (job {jobs.ids[big]!r}: {float(volume[big]):.3g}) is "
                         f"beyond 2^62, which the engine's counters do not hold (XLL21 II-A "
                         f"counts volume in core-slots)")
    check_budget(PAIR_BYTES * jobs.n * machines.m, memory_budget,
                 what=f"{name} on {jobs.n:,} jobs x {machines.m:,} machines",
                 option="memory_budget", unit="bytes",
                 hint="each slot holds a cores array over the present jobs x machines")
    need = busy_slots_lower_bound(jobs, machines)
    if max_slots is None:
        check_budget(need, MAX_SLOTS, what=f"{name} on these jobs", option="max_slots",
                     unit="busy slots",
                     hint="every schedule serves some job in that many slots; a run "
                          "stops at max_slots")
    # the per-slot series (unfinished work, the l_k series) span every slot to the end
    slots = int(jobs.arrival.max()) + 1 + (need if max_slots is None else
                                           min(need, int(max_slots)))
    check_budget(16 * slots, memory_budget, what=f"the per-slot series of {name} over "
                 f"{slots:,} slots", option="memory_budget", unit="bytes",
                 hint="a series holds one value per slot up to the last arrival and beyond")


def run_schedule(policy: PreemptivePolicy, jobs: JobSet, machines: Machines, *,
                 k: float = 2, memory: bool | None = None, max_slots: int | None = None,
                 after: np.ndarray | None = None, declared: object = None,
                 memory_budget: float = MEMORY_BUDGET, check: bool = True) -> ScheduleResult:
    """Run ``policy`` on a finite job set until every job completes (XLL21 II-A).

    ``memory``: model memory (demand_1 against capacity_1, z of eq. (4c)); default:
    when the policy uses memory and the jobs have a second resource. ``max_slots``
    (default :func:`slot_bound`) stops a run that starves jobs; the result then lists
    them as unfinished. ``after[j]`` (optional, -1 for none) is a job that must complete
    before j is served (XLL21 V, eq. (43): a reduce phase after its map phase); j is then
    present from the slot after that completion. ``declared`` (optional, (N, R)
    integers >= 1 in cores) are the demands the policy is told (XLL21 VI-D, demand
    misestimation): it allocates and reserves memory by them, while a job progresses by
    min(its cores, its true d_j) / d_j per slot. Recording needs RECORD_BYTES per
    (job, machine) pair served in a slot; a run whose record would pass
    ``memory_budget`` stops with :class:`theory.budgets.BudgetExceeded`.

    Resources: XLL21 models cores (``demand_0``) and memory (``demand_1``, for the
    policies that allocate it, or with ``memory=True``); a third resource is refused
    (the result's ``memory`` says whether memory was modelled). Size: a run whose
    (jobs x machines) arrays pass ``memory_budget``, or that must serve jobs in more
    than :data:`MAX_SLOTS` slots (:func:`busy_slots_lower_bound`) while ``max_slots``
    is left out, is refused before it starts; slots in which no job is present are
    skipped, not stepped through. A run that reaches ``max_slots`` returns with
    ``status == "stopped"`` and its unfinished jobs without completion. ``check``:
    rebuild the invariants from the record (:func:`policies.invariants.check_preemptive_run`;
    without it ``invariants`` is None).

    Parameters
    ----------
    policy : PreemptivePolicy
        The policy (:func:`policies.make_policy` ``('ocorp')``, a built-in class or a
        user's subclass).
    jobs : theory.JobSet
        The jobs: integer arrival slots, processing times and demands (cores in
        ``demand_0``, memory in ``demand_1``).
    machines : theory.Machines
        The machines: integer cores (``capacity_0``) and memory (``capacity_1``).
    k : float, default 2
        The exponent of the l_k flowtime norm and of the weights (5); a finite number
        >= 1.
    memory : bool or None, default None
        Model memory; None: when the policy uses memory and the jobs have a second
        resource.
    max_slots : int or None, default None
        The slot cap (None: :func:`slot_bound`).
    after : numpy.ndarray or None, default None
        ``after[j]``: a job that must complete before j is served, or -1 (integers, no
        cycle).
    declared : array_like or None, default None
        Declared demands, shape (N, R), integers >= 0 with at least one core.
    memory_budget : float, default :data:`theory.budgets.MEMORY_BUDGET`
        Bytes the run's arrays and record may use.
    check : bool, default True
        Re-check the invariants from the record.

    Returns
    -------
    ScheduleResult
        Completions, flowtimes, fractional flowtimes (eq. (5)), preemptions,
        migrations, the unfinished-work series and the record, with the invariant
        report; ``status`` is ``"stopped"`` when the slot cap was reached.

    Raises
    ------
    TypeError
        ``policy`` not an XLL21-family policy; ``jobs`` not a JobSet or ``machines``
        not a Machines; ``memory`` or ``check`` not a bool; ``allocate`` returning
        something other than an :class:`Allocation`.
    ValueError
        ``k`` not a finite number >= 1; ``max_slots`` not an integer >= 1;
        ``memory_budget`` not positive; times, demands or capacities that are not
        integers; a third resource; memory (de)selected inconsistently with the policy
        or the data; a job that fits no machine or demands no core; a volume beyond
        2^62; bad ``declared`` or ``after``; an allocation that breaks eq. (4) (the
        message names the policy, slot and equation).
    theory.budgets.BudgetExceeded
        The arrays or the record pass ``memory_budget``, or, with ``max_slots`` left
        out, every schedule needs more than :data:`MAX_SLOTS` busy slots.

    References
    ----------
    XLL21, Sec. II-A (the slotted model, eqs. (1)-(2)), Sec. II-B (P1, eq. (4)),
    Sec. II-C (eq. (5)), Sec. V (eq. (43)) and Sec. VI-D (misestimation);
    docs/design.md, section Simulation (The four families).

    Examples
    --------
    >>> import numpy as np
    >>> from policies.preemptive import SRPT, run_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 1, 1, 2], processing=[3, 1, 3, 2],
    ...               demand=[[3], [3], [1], [3]])
    >>> machines = Machines([[3], [2]])
    >>> r = run_schedule(SRPT(), jobs, machines)
    >>> r.completion.tolist(), r.flowtime.tolist(), r.unfinished_work.tolist()
    ([4.0, 2.0, 6.0, 5.0], [4.0, 1.0, 5.0, 3.0], [6, 7, 8, 3, 1, 0])
    >>> run_schedule(SRPT(), jobs, machines, after=np.array([-1, -1, 0, -1])).completion
    array([4., 2., 7., 5.])
    >>> stopped = run_schedule(SRPT(), jobs, machines, max_slots=3)
    >>> stopped.status, stopped.stop_reason
    ('stopped', 'the slot cap of 3 was reached with 3 job(s) unfinished')
    """
    require_family(policy, "xll21-preemptive", "policies.make_policy('ocorp') or a "
                   "policies.preemptive.PreemptivePolicy subclass")
    assert isinstance(policy, PreemptivePolicy)
    if not isinstance(jobs, JobSet) or not isinstance(machines, Machines):
        raise TypeError("jobs must be a theory.JobSet and machines a theory.Machines")
    kf = check_k(k)
    if not isinstance(check, bool | np.bool_):
        raise TypeError(f"check must be True or False, got {check!r}")
    _check_arguments(memory, max_slots, memory_budget)
    require_integers(jobs, machines)
    require_resources(jobs, machines, 2, model="XLL21 (cores demand_0, memory demand_1)",
                      hint="; drop the column")
    use_mem = (policy.uses_memory and jobs.resources >= 2) if memory is None else bool(memory)
    if memory is None and not use_mem and max(jobs.resources, machines.resources) >= 2:
        # the offline optima model memory here by default: a cores-only run beside them
        # would compare two different problems
        raise ValueError(f"{policy.name} allocates cores only, and the jobs or machines have "
                         f"memory (demand_1, capacity_1) it would not read: pass "
                         f"memory=False to schedule by cores alone, or use a policy that "
                         f"models memory ({', '.join(_memory_policies())})")
    if use_mem and (jobs.resources < 2 or machines.resources < 2):
        raise ValueError("memory=True needs a second resource (demand_1, capacity_1)")
    if use_mem and not policy.uses_memory:
        raise ValueError(f"{policy.name} allocates cores only (single resource): run it "
                         f"with memory=False")
    check_fits(jobs, machines, resources=2 if use_mem else 1)
    _check_size(jobs, machines, max_slots, memory_budget, policy.name)
    d = jobs.demand[:, 0].astype(np.int64)
    if np.any(d < 1):
        raise ValueError("XLL21 jobs demand at least one core (demand_0 >= 1)")
    C = machines.capacity[:, 0].astype(np.int64)
    dec = _declared(declared, jobs)
    if declared is not None:
        check_fits(JobSet(jobs.arrival, jobs.processing, dec, jobs.weight, jobs.ids),
                   machines, resources=2 if use_mem else 1)
    d_dec = dec[:, 0].astype(np.int64)
    mem = dec[:, 1].astype(np.int64) if use_mem else np.zeros(jobs.n, np.int64)
    Mi = machines.capacity[:, 1].astype(float) if use_mem else np.full(machines.m, np.inf)
    bound = slot_bound(jobs, machines) if max_slots is None else int(max_slots)
    a = jobs.arrival.astype(np.int64)
    pred = _predecessors(after, jobs.n)
    successors: dict[int, list[int]] = {}
    released: list[int] = []  # successors whose predecessor completed last slot
    p = jobs.processing
    volume = np.array([int(x) * int(y) for x, y in zip(jobs.processing, d, strict=True)],
                      dtype=np.int64)
    left = volume.copy()
    n, M = jobs.n, machines.m
    order = np.argsort(a, kind="stable")
    nxt = 0
    present = np.zeros(0, dtype=np.int64)
    prev_cores = np.zeros((0, M), dtype=np.int64)
    completion = np.full(n, np.nan)
    frac = np.zeros(n)
    preempt = np.zeros(n, dtype=np.int64)
    migrate = np.zeros(n, dtype=np.int64)
    served_before = np.zeros(n, dtype=bool)  # served in the previous slot
    last_set: list[frozenset[int] | None] = [None] * n
    rec_job: list[np.ndarray] = []
    rec_machine: list[np.ndarray] = []
    rec_cores: list[np.ndarray] = []
    rec_slot: list[np.ndarray] = []
    records = 0
    # core-slots of arrived jobs left after each slot, as steps: (first slot, value)
    work_steps: list[tuple[int, int]] = []
    arrived_volume = done_volume = 0
    policy.reset(jobs, machines)
    t0 = time.perf_counter()
    t = 0
    progress = Progress(f"{policy.name} on {n:,} jobs", unit="slots")
    while t < bound:
        t += 1
        progress.update(t, note=f"{n - nxt + present.size:,} jobs left")
        # arrivals: a job arriving at a_j is present from slot a_j + 1 on
        new, released = released, []
        while nxt < n and a[order[nxt]] < t:
            j = int(order[nxt])
            nxt += 1
            arrived_volume += int(volume[j])
            if pred[j] >= 0 and not completion[pred[j]] < t:
                successors.setdefault(int(pred[j]), []).append(j)
            else:
                new.append(j)
        if new:
            grown = np.concatenate([present, np.array(new, dtype=np.int64)])
            srt = np.argsort(grown, kind="stable")
            prev_cores = np.concatenate([prev_cores, np.zeros((len(new), M), np.int64)])[srt]
            present = grown[srt]
        if present.size == 0:
            work_steps.append((t, arrived_volume - done_volume))
            if nxt == n and not successors:
                break
            if nxt < n and not released:  # skip to the slot after the next arrival
                t = min(max(t, int(a[order[nxt]])), bound)
            continue
        rem = left[present] / d[present]
        view = SlotView(t, present, a[present].astype(float), p[present],
                        d_dec[present].astype(float), mem[present].astype(float), rem,
                        np.ceil(rem * d_dec[present] - 1e-9).astype(np.int64),
                        C.astype(float), Mi, prev_cores, kf)
        alloc = policy.allocate(view)
        u, z = _checked(alloc, view, policy.name, use_mem)
        done_cores = (u * z).sum(axis=1)
        processed = np.minimum(np.minimum(done_cores, d[present]), left[present])
        rates = processed / d[present]
        frac[present] += view.weights() * rates
        left[present] -= processed
        done_volume += int(processed.sum())
        served = done_cores > 0
        # preemption: served in t - 1, unfinished, not served in t; migration: a
        # service slot on another set of machines than the job's previous one
        preempt[present] += (served_before[present] & ~served)
        for row in np.flatnonzero(served):
            j = int(present[row])
            s = frozenset(np.flatnonzero(u[row] * z[row]).tolist())
            if last_set[j] is not None and s != last_set[j]:
                migrate[j] += 1
            last_set[j] = s
        served_before[present] = served
        rows, cols = np.nonzero(u)
        if rows.size:
            records += rows.size
            check_budget(records * RECORD_BYTES, memory_budget,
                         what=f"the record of {policy.name} up to slot {t:,}",
                         option="memory_budget", unit="bytes",
                         hint="fewer jobs or machines")
            rec_job.append(present[rows])
            rec_machine.append(cols)
            rec_cores.append(u[rows, cols])
            rec_slot.append(np.full(rows.size, t, dtype=np.int64))
        finished = left[present] == 0
        completion[present[finished]] = t
        for j in present[finished]:
            released.extend(successors.pop(int(j), []))
        keep = ~finished
        present = present[keep]
        prev_cores = u[keep]
        work_steps.append((t, arrived_volume - done_volume))
        if present.size == 0 and nxt == n and not released and not successors:
            break
    progress.__exit__(None, None, None)
    seconds = time.perf_counter() - t0
    left_jobs = int(np.sum(left > 0))
    reason = None if left_jobs == 0 else (
        f"the slot cap of {bound:,}{' (the default)' if max_slots is None else ''} was "
        f"reached with {left_jobs} job(s) unfinished")
    return ScheduleResult.build(
        policy=policy.name, jobs=jobs, machines=machines, k=kf, memory=use_mem,
        completion=completion, fractional=frac, preemptions=preempt, migrations=migrate,
        record=(_cat(rec_job), _cat(rec_machine), _cat(rec_cores), _cat(rec_slot)),
        unfinished_work=_dense_steps(work_steps, t, memory_budget), seconds=seconds,
        slots=t, stop_reason=reason, after=pred if after is not None else None,
        declared=dec if declared is not None else None, check=check,
        params={**policy.parameters(), "engine": "python"})


def _dense_steps(steps: list[tuple[int, int]], slots: int, memory_budget: float
                 ) -> np.ndarray:
    """One value per slot 1..slots from (first slot, value) steps (skipped slots keep
    the value before them)."""
    check_budget(8 * slots, memory_budget, what=f"the unfinished-work series of {slots:,} "
                 "slots", option="memory_budget", unit="bytes")
    if not steps:
        return np.zeros(0, dtype=np.int64)
    at = np.array([s for s, _ in steps] + [slots + 1], dtype=np.int64)
    return np.repeat(np.array([v for _, v in steps], dtype=np.int64), np.diff(at))


def _declared(declared: object, jobs: JobSet) -> np.ndarray:
    """The declared demands: the true ones by default, else (N, R) integers with at
    least one core each."""
    if declared is None:
        return jobs.demand
    dec = np.asarray(declared, dtype=float)
    if dec.shape != jobs.demand.shape:
        raise ValueError(f"declared demands must have shape {jobs.demand.shape}, got "
                         f"{dec.shape}")
    if not np.all(np.isfinite(dec)) or np.any(dec != np.round(dec)) or np.any(dec < 0) \
            or np.any(dec[:, 0] < 1):
        raise ValueError("declared demands must be integers >= 0 with at least one core")
    return dec


def _predecessors(after: object, n: int) -> np.ndarray:
    """The ``after`` array checked: integers in -1..n-1, none pointing at itself, and no
    cycle (a job's predecessor chain ends)."""
    if after is None:
        return np.full(n, -1, dtype=np.int64)
    pr = np.asarray(after)
    if pr.shape != (n,) or pr.dtype.kind not in "iu":
        raise ValueError(f"after must be {n} integers (-1 for none)")
    if np.any(pr < -1) or np.any(pr >= n) or np.any(pr == np.arange(n)):
        raise ValueError("after[j] must be -1 or another job's index")
    for j in range(n):
        seen, i = 0, j
        while pr[i] >= 0:
            i, seen = int(pr[i]), seen + 1
            if seen > n:
                raise ValueError(f"after has a cycle through job {j}")
    return pr.astype(np.int64)


def _cat(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, np.int64)


def _checked(alloc: object, view: SlotView, name: str, use_mem: bool
             ) -> tuple[np.ndarray, np.ndarray]:
    """The allocation as integer cores u and 0/1 memory z, or a ValueError naming the
    policy, the slot and the constraint of XLL21 eq. (4) it breaks."""
    where = f"{name}, slot {view.t}"
    if not isinstance(alloc, Allocation):
        raise TypeError(f"{where}: allocate() must return an Allocation, got "
                        f"{type(alloc).__name__}")
    shape = (view.n, len(view.machine_cores))
    u = np.asarray(alloc.cores)
    if u.shape != shape:
        raise ValueError(f"{where}: cores must have shape {shape}, got {u.shape}")
    if u.dtype.kind == "f":
        if not np.all(np.isfinite(u)) or np.any(u != np.round(u)):
            raise ValueError(f"{where}: cores must be integers (eq. (4f))")
    elif u.dtype.kind not in "iu":
        raise ValueError(f"{where}: cores must be integers, got dtype {u.dtype}")
    u = u.astype(np.int64)
    if np.any(u < 0):
        raise ValueError(f"{where}: negative cores")
    if np.any(u.sum(axis=0) > view.machine_cores):
        i = int(np.argmax(u.sum(axis=0) - view.machine_cores))
        raise ValueError(f"{where}: machine {i} given {u[:, i].sum()} cores of "
                         f"{int(view.machine_cores[i])} (eq. (4b))")
    if np.any(u.sum(axis=1) > view.cores):
        r = int(np.argmax(u.sum(axis=1) - view.cores))
        raise ValueError(f"{where}: job {int(view.index[r])} given {u[r].sum()} cores, it "
                         f"demands {int(view.cores[r])} (eq. (2), (4d))")
    if alloc.memory is None:
        z = (u > 0).astype(np.int64)
    else:
        zz = np.asarray(alloc.memory)
        if zz.shape != shape:
            raise ValueError(f"{where}: memory must have shape {shape}, got {zz.shape}")
        if not np.all((zz == 0) | (zz == 1)):
            raise ValueError(f"{where}: memory indicators must be 0 or 1 (eq. (4f))")
        z = zz.astype(np.int64)
        if np.any((u > 0) & (z == 0)):
            raise ValueError(f"{where}: cores given on a machine without the job's memory "
                             f"(z = 0; eq. (1) counts x z)")
    if use_mem:
        used = (view.memory[:, None] * z).sum(axis=0)
        if np.any(used > view.machine_memory):
            i = int(np.argmax(used - view.machine_memory))
            raise ValueError(f"{where}: machine {i} holds memory {used[i]:g} of "
                             f"{view.machine_memory[i]:g} (eq. (4c))")
    return u, z
