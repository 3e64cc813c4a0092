"""A folder named like one of packsched's packages, in the working directory, is refused
on import with one line naming it (theory/installation.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("folder, package_file, code", [
    ("policies", True, "import theory"),       # a package of the user's, importing ours
    ("policies", False, "import capacity"),    # a plain folder (a namespace package)
    ("theory", False, "import policies"),      # the package the others import first
    ("capacity", True, "import packsched.cli"),
])
def test_a_shadowing_folder_is_named(tmp_path, folder, package_file, code):
    (tmp_path / folder).mkdir()
    if package_file:
        (tmp_path / folder / "__init__.py").write_text("")
    r = _python(code, tmp_path)
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: the folder ") and folder in last
    assert f"shadows packsched's package '{folder}'" in last


def test_no_folder_no_error(tmp_path):
    (tmp_path / "data").mkdir()  # an unrelated folder changes nothing
    r = _python("import theory, capacity, policies, proofs_checks, packsched; "
                "print(policies.run.__name__)", tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "run"
