"""The papers' model: distributions, partitions, configurations and closed-form bounds.

Pure and small; exact (``fractions.Fraction``) wherever the inputs are rational.
``theory`` never imports ``capacity`` or ``policies``.
"""

from theory.bounds import *  # noqa: F401,F403
from theory.bounds import __all__ as _b
from theory.budgets import *  # noqa: F401,F403
from theory.budgets import __all__ as _bu
from theory.configurations import *  # noqa: F401,F403
from theory.configurations import __all__ as _c
from theory.distributions import *  # noqa: F401,F403
from theory.distributions import __all__ as _d
from theory.job_files import *  # noqa: F401,F403
from theory.job_files import __all__ as _jf
from theory.job_sets import *  # noqa: F401,F403
from theory.job_sets import __all__ as _js
from theory.nonpreemptive_bounds import *  # noqa: F401,F403
from theory.nonpreemptive_bounds import __all__ as _nb
from theory.numbers import *  # noqa: F401,F403
from theory.numbers import __all__ as _n
from theory.partitions import *  # noqa: F401,F403
from theory.partitions import __all__ as _p
from theory.traces import *  # noqa: F401,F403
from theory.traces import __all__ as _t

__all__ = [*_b, *_bu, *_c, *_d, *_jf, *_js, *_nb, *_n, *_p, *_t]
