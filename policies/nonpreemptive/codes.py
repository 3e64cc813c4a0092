"""Codes of the numba online loop of FL24 (:mod:`policies.nonpreemptive._kernel`),
kept apart from it so that describing a policy does not import numba."""

PQ, TETRIS, BF_EXEC = 0, 1, 2
