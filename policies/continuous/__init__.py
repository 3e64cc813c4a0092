"""PG18's continuous-time multi-resource model: finite job types with vector demands,
Poisson arrivals, central or per-server queues, RMS and its variants, Best-Fit and
the MaxWeight baselines (PG18 Sec. II-VII)."""

from policies.continuous.bestfit import BestFit
from policies.continuous.engine import simulate_continuous
from policies.continuous.maxweight import MaxWeightServers
from policies.continuous.policy import ContinuousPolicy
from policies.continuous.result import ContinuousResult
from policies.continuous.rms import RMS, max_jobs_per_server, weight_function
from policies.continuous.state import ContinuousState
from theory.seeding import scheduling_rng

__all__ = ["BestFit", "simulate_continuous", "scheduling_rng", "MaxWeightServers",
           "ContinuousPolicy", "ContinuousResult", "RMS", "max_jobs_per_server",
           "weight_function", "ContinuousState"]
