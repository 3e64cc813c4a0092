"""Shared pytest configuration: ``--runslow`` enables tests marked ``@pytest.mark.slow``."""

import pytest


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run tests marked @pytest.mark.slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


def pytest_configure(config):
    # Hypothesis' failure report touches mypy_extensions.TypedDict; under the project's
    # ``filterwarnings = error`` that DeprecationWarning becomes an INTERNALERROR that
    # hides the real falsifying example.
    config.addinivalue_line(
        "filterwarnings", "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning")


@pytest.fixture(scope="session")
def figure_out(tmp_path_factory):
    """One output folder for every reproduced figure of the session: the figure tests
    and the notebooks (which call the same ``reproduce``) share its stores, so a figure's
    runs are made once. ``PACKSCHED_FIGURES_OUT`` names a folder to keep between runs."""
    import os
    from pathlib import Path

    kept = os.environ.get("PACKSCHED_FIGURES_OUT")
    return Path(kept) if kept else tmp_path_factory.mktemp("figures")
