"""Command-line argument parsing shared by the benchmark scripts."""

from __future__ import annotations

import argparse

__all__ = ["int_list"]


def int_list(text: str, what: str, ap: argparse.ArgumentParser) -> list[int]:
    """Comma-separated integers >= 1; anything else exits 2 through ``ap.error``."""
    try:
        vals = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        ap.error(f"{what} takes comma-separated integers, got {text!r}")
    if not vals or min(vals) < 1:
        ap.error(f"{what} must be integers >= 1, got {text!r}")
    return vals
