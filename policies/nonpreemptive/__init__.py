"""The non-preemptive family of FL24: the event loop with per-machine resource-over-time
profiles, its result, and the policies (PRIORITY-QUEUE with the Sec. 7.3 sorts, MRIS,
CA-PQ, TETRIS, BF-EXEC)."""

from policies.nonpreemptive.engine import list_schedule, run_nonpreemptive
from policies.nonpreemptive.mris import MRIS
from policies.nonpreemptive.packing import BFExec, Tetris
from policies.nonpreemptive.policy import NonPreemptivePolicy
from policies.nonpreemptive.priority import SORTS, CollectAllPQ, PriorityQueue
from policies.nonpreemptive.profile import MachineProfiles
from policies.nonpreemptive.result import NonPreemptiveResult
from policies.nonpreemptive.state import ScheduleState

__all__ = ["NonPreemptivePolicy", "ScheduleState", "list_schedule", "run_nonpreemptive",
           "MRIS", "BFExec", "Tetris", "SORTS", "CollectAllPQ", "PriorityQueue",
           "MachineProfiles", "NonPreemptiveResult"]
