"""Policy codes of the compiled PG21 kernel (:mod:`policies.slotted._kernel`).

Kept apart from the kernel so that describing a policy (``compiled_spec``) or listing the
registry does not import numba.
"""

BFJ, BFS, BFJS, VQS, VQSBF, FIFOFF, FIFOFF_SKIP, MAXWEIGHT = range(8)

#: Option bits OR-ed into the policy code of VQS / VQS-BF (``code & POLICY_MASK`` is the
#: policy). ``VQ_ROUND_SMALL``: jobs of size <= cap / 2^J occupy cap / 2^J while in
#: service (PG21 Sec. V-A; 2J = ntypes, servers identical). ``VQ_HOL_SKIP``: VQS step
#: (ii) passes over a VQ_j job that does not fit and tries the next one (PG21 V-B).
VQ_ROUND_SMALL = 1 << 8
VQ_HOL_SKIP = 1 << 9
POLICY_MASK = (1 << 8) - 1
