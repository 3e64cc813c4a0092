"""The README's simulation examples run as written (they are the documented API)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_simulation_examples_run() -> None:
    blocks = [b for b in _python_blocks() if "import policies as P" in b or "SlottedPolicy" in b]
    assert len(blocks) == 2, "the README's two simulation examples moved"
    ns: dict = {}
    exec(compile("\n".join(blocks), str(README), "exec"), ns)
    assert ns["r"].verdict == "unstable"  # VQS on PG21 Fig. 3a
    assert ns["c"].lower <= ns["c"].upper
    summary = ns["P"].simulate(ns["FirstFit"](), ns["w"].head(5_000),
                               ns["P"].Cluster.identical(5)).summary()
    assert summary["invariants_ok"]
