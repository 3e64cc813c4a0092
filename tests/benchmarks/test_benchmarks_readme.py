"""benchmarks/README.md is the current state, short enough to read: at most 400 lines,
and every script of benchmarks/ that a reader runs is named in it."""

from __future__ import annotations

from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def test_the_benchmarks_readme_is_short_and_names_every_script():
    text = (BENCH / "README.md").read_text()
    assert len(text.splitlines()) <= 400
    scripts = [p.name for p in BENCH.glob("*.py")
               if p.name.startswith(("bench_", "cold_start", "compare_"))]
    assert scripts and [s for s in scripts if f"`{s}`" not in text] == []
