"""Turning per-job core counts into per-machine allocations (XLL21 IV-A packing)."""

from __future__ import annotations

import numpy as np

from theory.slot_allocation import pack_largest_first

__all__ = ["fill_in_order", "place", "place_with_memory"]


def fill_in_order(order: np.ndarray, want: np.ndarray, total: float) -> np.ndarray:
    """Pooled integer cores: jobs in ``order`` each take min(want_j, cores left)
    (the greedy of Lemma 1's eq. (22) for any ranking)."""
    u = np.zeros(len(want), dtype=np.int64)
    left = int(total)
    for j in order:
        if left <= 0:
            break
        take = min(int(want[j]), left)
        u[j] = take
        left -= take
    return u


def place(u: np.ndarray, machine_cores: np.ndarray) -> np.ndarray:
    """Pooled cores onto machines, largest machine and largest job first (XLL21 IV-A)."""
    return pack_largest_first(u, machine_cores)


def place_with_memory(order: np.ndarray, want: np.ndarray, cores: np.ndarray,
                      memory: np.ndarray, machine_cores: np.ndarray,
                      machine_memory: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Jobs in ``order`` take up to want_j cores on machines where their memory m_j
    still fits, machines with the most free cores first; a job holds its memory on
    every machine it gets cores on (z = 1 there). Returns cores (n, M) and z (n, M)."""
    n, M = len(want), len(machine_cores)
    u = np.zeros((n, M), dtype=np.int64)
    z = np.zeros((n, M), dtype=np.int64)
    free_c = machine_cores.astype(np.int64).copy()
    free_m = machine_memory.astype(float).copy()
    for j in order:
        need = int(want[j])
        if need <= 0:
            continue
        for i in np.argsort(-free_c, kind="stable"):
            if free_c[i] <= 0:
                break
            if memory[j] > free_m[i]:
                continue
            take = min(need, int(free_c[i]))
            u[j, i], z[j, i] = take, 1
            free_c[i] -= take
            free_m[i] -= memory[j]
            need -= take
            if need == 0:
                break
    return u, z
