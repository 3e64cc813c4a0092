"""Codes of the compiled PG18 kernel (:mod:`policies.continuous._kernel`).

Kept apart from the kernel so that describing a policy (``compiled_spec``) does not
import numba.
"""

KIND_RMS, KIND_BESTFIT = 0, 1
SAMPLE_UNIFORM, SAMPLE_RANDOM_FIT, SAMPLE_BEST_FIT = 0, 1, 2
ROUTE_CENTRAL, ROUTE_JSQ, ROUTE_PO2 = 0, 1, 2
ORDER_TYPE, ORDER_ARRIVAL, ORDER_LARGEST = 0, 1, 2
#: kernel status codes: finished; more jobs in service than ``slots``; more dummy
#: placements than ``max_dummies`` (the run stops before the one that passes)
OK, OUT_OF_SLOTS, TOO_MANY_DUMMIES = 0, 1, 2

SAMPLING_CODES = {"uniform": SAMPLE_UNIFORM, "random-fit": SAMPLE_RANDOM_FIT,
                  "best-fit": SAMPLE_BEST_FIT}
ROUTING_CODES = {None: ROUTE_CENTRAL, "jsq": ROUTE_JSQ, "power-of-two": ROUTE_PO2}
ORDER_CODES = {"type": ORDER_TYPE, "arrival": ORDER_ARRIVAL, "largest": ORDER_LARGEST}
