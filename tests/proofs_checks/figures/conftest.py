"""The figure tests' shared reproductions: ``quick(key)`` is ``reproduce(key)`` at quick
scale, made once per session into ``figure_out`` (whose stores the notebooks reuse)."""

from __future__ import annotations

import pytest

from proofs_checks.figures import reproduce


@pytest.fixture(scope="session")
def quick(figure_out):
    cache: dict[str, object] = {}

    def get(key):
        if key not in cache:
            cache[key] = reproduce(key, scale="quick", out=figure_out)
        return cache[key]

    return get
