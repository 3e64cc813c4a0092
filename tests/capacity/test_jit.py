"""``capacity._jit``: numba applied on first call."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from capacity._jit import LazyKernel, njit


@njit(cache=False)
def _add_one(a):  # pragma: no cover - compiled
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i] + 1
    return out


def test_lazy_kernel_compiles_on_call_and_matches_py_func():
    assert isinstance(_add_one, LazyKernel)
    a = np.arange(5.0)
    assert np.array_equal(_add_one.py_func(a), a + 1)
    assert np.array_equal(_add_one(a), a + 1)
    assert len(_add_one.signatures) == 1  # attributes of the numba dispatcher
    assert _add_one.__name__ == "_add_one" and "lazy numba kernel" in repr(_add_one)


def test_bare_decorator_and_bad_use():
    @njit
    def f(x):  # pragma: no cover - compiled
        return x + 1

    assert f(1) == 2 and f.options == {}
    with pytest.raises(TypeError, match="signature"):
        njit("int64(int64)")


def test_defining_kernels_does_not_import_numba():
    code = ("import sys\nfrom capacity._jit import njit\n"
            "@njit(cache=False)\ndef f(x):\n    return x + 1\n"
            "assert f.py_func(1) == 2\nassert 'numba' not in sys.modules\n"
            "assert f(1) == 2\nassert 'numba' in sys.modules\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
