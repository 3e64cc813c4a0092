"""Sphinx extension: the claims catalogue as the HTML report of ``verify --quick``.

At ``builder-inited`` it runs ``packsched verify --quick --report DIR`` (the command a
user runs) unless ``DIR/index.html`` exists already (``PACKSCHED_REPORT_DIR``, default
``docs/_build/extra/report``); the report is copied into the site as ``report/index.html``.
A claim that does not hold fails the build.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any


def build_report(app: Any) -> None:
    extra = Path(app.srcdir) / "_build" / "extra"
    out = Path(os.environ.get("PACKSCHED_REPORT_DIR", extra / "report"))
    if not (out / "index.html").exists():
        done = subprocess.run([sys.executable, "-m", "packsched", "verify", "--quick",
                               "--report", str(out)], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"report: packsched verify --quick exited {done.returncode}:\n"
                               f"{done.stdout[-3000:]}{done.stderr[-3000:]}")
    if out != extra / "report":
        shutil.copytree(out, extra / "report", dirs_exist_ok=True)
    app.config.html_extra_path.append(str(extra))


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", build_report)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
