"""The slotted preemptive family of XLL21: the event loop, its result, and the policies
(OCORP, OCORP+, OCORP+M, the transient SVF scheme, SRPT, SRVF, SVF, SRF, Fair)."""

from policies.preemptive.engine import run_schedule, slot_bound
from policies.preemptive.misestimation import misestimated_demands
from policies.preemptive.ocorp import OCORP, OCORPM, OCORPMapReduce, OCORPPlus
from policies.preemptive.policy import Allocation, PreemptivePolicy
from policies.preemptive.priority import SRF, SRPT, SRVF, SVF, Fair, PriorityPolicy, TransientSVF
from policies.preemptive.result import ScheduleResult
from policies.preemptive.state import SlotView

__all__ = ["Allocation", "PreemptivePolicy", "SlotView", "run_schedule", "slot_bound",
           "OCORP", "OCORPM", "OCORPMapReduce", "OCORPPlus", "SRF", "SRPT", "SRVF", "SVF", "Fair",
           "PriorityPolicy", "TransientSVF", "ScheduleResult", "misestimated_demands"]
