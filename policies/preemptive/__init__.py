"""The slotted preemptive family of XLL21: the event loop, its result, and the policies
(OCORP, OCORP+, OCORP+M, the transient SVF scheme, SRPT, SRVF, SVF, SRF, Fair)."""

from policies.preemptive.engine import (
    Allocation,
    PreemptivePolicy,
    SlotView,
    run_schedule,
    slot_bound,
)
from policies.preemptive.ocorp import OCORP, OCORPM, OCORPMapReduce, OCORPPlus
from policies.preemptive.priority import SRF, SRPT, SRVF, SVF, Fair, PriorityPolicy, TransientSVF
from policies.preemptive.result import ScheduleResult

__all__ = ["Allocation", "PreemptivePolicy", "SlotView", "run_schedule", "slot_bound",
           "OCORP", "OCORPM", "OCORPMapReduce", "OCORPPlus", "SRF", "SRPT", "SRVF", "SVF", "Fair",
           "PriorityPolicy", "TransientSVF", "ScheduleResult"]
