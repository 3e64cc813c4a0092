"""The capacity test of the compiled kernels (PG18 and FL24): one numba function, so
that both loops decide "fits" with the same float operations as their Python engines."""

from __future__ import annotations

from numba import njit

__all__ = ["fits"]


@njit(cache=True)
def fits(load, cap_tol, demand, i, j):  # noqa: ANN001, ANN201 - numba infers the types
    """Row ``j`` of ``demand`` fits beside ``load[i]`` within ``cap_tol[i]``, resource by
    resource (``load + demand <= capacity (1 + FEASIBILITY_RTOL)``)."""
    for r in range(demand.shape[1]):
        if not load[i, r] + demand[j, r] <= cap_tol[i, r]:
            return False
    return True
