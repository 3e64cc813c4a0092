"""The PG21 slotted single-resource model: engine and policies (PG21 Secs. II, IV-VII)."""

from policies.slotted.bestfit import BFJ, BFJS, BFS
from policies.slotted.engine import simulate
from policies.slotted.fifo import FIFOFF
from policies.slotted.maxweight import PartitionMaxWeight
from policies.slotted.policy import BuiltinPolicy, SlottedPolicy
from policies.slotted.state import SlotState
from policies.slotted.vqs import VQS, VQSBF

__all__ = ["BFJ", "BFS", "BFJS", "VQS", "VQSBF", "FIFOFF", "PartitionMaxWeight",
           "BuiltinPolicy", "SlottedPolicy", "SlotState", "simulate"]
