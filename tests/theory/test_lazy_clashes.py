"""A package's re-exported function named like its submodule stays the function after
that submodule is imported (``policies.aggregate`` was the module once anything had run
``from policies.aggregate import ...``, so the README's ``policies.aggregate(frame)``
failed depending on what ran before)."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import policies.aggregate, policies.critical_load, policies.sweep
from policies.aggregate import pooled_verdict
import policies as P
assert callable(P.aggregate) and P.aggregate.__name__ == "aggregate", P.aggregate
assert P.critical_load.__name__ == "critical_load" and P.sweep.__name__ == "sweep"
assert sys.modules["policies.aggregate"].pooled_verdict is pooled_verdict
P.other = 1  # other attributes are set as usual
print("ok")
"""


def test_a_function_keeps_its_name_after_its_submodule_is_imported():
    out = subprocess.run([sys.executable, "-c", "import sys\n" + CODE], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
