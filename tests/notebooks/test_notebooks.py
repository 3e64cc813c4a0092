"""Execute every notebook in ``notebooks/`` in quick mode and fail on any cell error.

Each notebook runs in a fresh ``python3`` kernel with ``PACKSCHED_NOTEBOOK_QUICK=1`` (the
figures' quick scale) and the notebooks directory as working directory, on the kernel's own
matplotlib backend (inline: figures become PNG outputs, which the test requires). The
notebooks call ``proofs_checks.figures.reproduce``; ``PACKSCHED_FIGURES_OUT`` points them at
the session's figure folder, so the runs the figure tests made are not made again. The
repository root is put on the kernel's ``PYTHONPATH`` so the notebooks import this checkout
of the packages.

Jupyter's own machinery (zmq sockets, asyncio loops, platform-dirs notices) emits warnings that
say nothing about the notebooks; the project's ``filterwarnings = error`` would turn them into
failures, so they are ignored inside this test only. Errors raised by notebook cells are not
warnings: nbclient re-raises them as ``CellExecutionError``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = REPO / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
CELL_TIMEOUT = 900  # seconds per cell; the quick mode needs well under a minute in total
STARTUP_TIMEOUT = 120


def _kernel_env(figure_out: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PACKSCHED_NOTEBOOK_QUICK"] = "1"
    env["PACKSCHED_FIGURES_OUT"] = str(figure_out)
    env.pop("MPLBACKEND", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    env.setdefault("JUPYTER_PLATFORM_DIRS", "1")
    return env


def test_notebooks_are_present():
    assert NOTEBOOKS, f"no notebooks found in {NOTEBOOK_DIR}"


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_executes(path: Path, monkeypatch: pytest.MonkeyPatch, figure_out: Path):
    # the test extra installs these; a missing one is an error, not a skip (CI must run this)
    import ipykernel  # noqa: F401
    import matplotlib  # noqa: F401
    import nbclient
    import nbformat

    # the kernel inherits the environment of this process
    env = _kernel_env(figure_out)
    monkeypatch.delenv("MPLBACKEND", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)

    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, kernel_name="python3", timeout=CELL_TIMEOUT, startup_timeout=STARTUP_TIMEOUT,
        resources={"metadata": {"path": str(NOTEBOOK_DIR)}},
    )
    client.execute()  # raises CellExecutionError on the first failing cell

    errors = [out for cell in nb.cells if cell.cell_type == "code"
              for out in cell.get("outputs", []) if out.get("output_type") == "error"]
    assert not errors, [f"{e['ename']}: {e['evalue']}" for e in errors]
    images = [out for cell in nb.cells if cell.cell_type == "code"
              for out in cell.get("outputs", []) if "image/png" in out.get("data", {})]
    assert images, f"{path.name} shows no figure"
