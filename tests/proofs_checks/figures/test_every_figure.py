"""Every figure of ``packsched reproduce --list`` at quick scale: it writes a PNG that
shows something, an SVG and a CSV, and the CSV bears out every headline statement (so a
figure that silently changes its conclusion fails here)."""

from __future__ import annotations

import pytest

from proofs_checks.figures import FIGURES, FigureError, reproduce

AVAILABLE = [k for k, f in FIGURES.items() if not f.unavailable]
UNAVAILABLE = [k for k, f in FIGURES.items() if f.unavailable]


@pytest.mark.parametrize("key", AVAILABLE)
def test_figure_reproduces_at_quick_scale(key, figure_out):
    import numpy as np
    from matplotlib.image import imread

    r = reproduce(key, scale="quick", out=figure_out)
    png = imread(r.files["png"])
    assert png.shape[0] > 200 and png.shape[1] > 300
    # not one flat colour: something is drawn
    assert np.ptp(png[..., :3]) > 0.5 and (png[..., :3] < 0.9).mean() > 0.002
    assert r.files["svg"].stat().st_size > 5_000
    assert len(r.table) > 0 and r.files["csv"].stat().st_size > 0
    failing = [f"{h.statement} ({h.measured})" for h in r.headlines if not h.holds]
    assert r.headlines and not failing, f"{key}: headline not borne out: {failing}"


@pytest.mark.parametrize("key", UNAVAILABLE or ["none"])
def test_unavailable_figure_says_why(key, tmp_path):
    if key == "none":
        pytest.skip("every figure is reproducible")
    with pytest.raises(FigureError, match="cannot be reproduced here"):
        reproduce(key, out=tmp_path)
    assert not list(tmp_path.iterdir())
