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


def _lookalikes(image) -> list[str]:
    """Pairs of legend entries of one panel drawn alike (colour, line style, marker)."""
    from matplotlib.colors import to_hex

    def look(handle):
        line = getattr(handle, "lines", [handle])[0]  # an error bar: its data line
        if hasattr(line, "get_linestyle") and hasattr(line, "get_marker"):
            return (to_hex(line.get_color()), line.get_linestyle(), line.get_marker())
        colours = line.get_facecolor() if hasattr(line, "get_facecolor") else ()
        return (tuple(to_hex(c) for c in colours), type(line).__name__)

    out = []
    for ax in image.axes:
        seen: dict[tuple, str] = {}
        for handle, name in zip(*ax.get_legend_handles_labels(), strict=True):
            first = seen.setdefault(look(handle), name)
            if first != name:
                out.append(f"{first!r} and {name!r} in {ax.get_title()!r}")
    return out


@pytest.mark.parametrize("key", AVAILABLE)
def test_no_two_curves_of_a_panel_look_alike(key, figure_out):
    """In every panel, the legend's entries differ in colour, line style or marker, so
    an entry names one curve (lines, error bars, markers)."""
    r = reproduce(key, scale="quick", out=figure_out)
    assert not _lookalikes(r.image), f"{key}: drawn alike: {_lookalikes(r.image)}"


def test_lookalikes_are_found_when_every_policy_gets_one_colour(figure_out, monkeypatch,
                                                                tmp_path):
    import shutil

    from proofs_checks.figures import pg21

    store = reproduce("pg21-fig4", scale="quick", out=figure_out).files["store"]
    shutil.copy(store, tmp_path / store.name)  # redrawn apart, from the same runs
    monkeypatch.setattr(pg21, "color", lambda name: "tab:blue")
    r = reproduce("pg21-fig4", scale="quick", out=tmp_path)
    assert r.runs["ran"] == 0
    assert any("BF-J/S" in pair for pair in _lookalikes(r.image))


@pytest.mark.slow
@pytest.mark.parametrize("key", AVAILABLE)
def test_a_process_pool_gives_the_serial_csv(key, figure_out, tmp_path):
    """Runs in fresh worker processes (no memo of this process) give the same CSV."""
    serial = reproduce(key, scale="quick", out=figure_out)
    pool = reproduce(key, scale="quick", out=tmp_path, executor="processes", workers=2)
    assert pool.files["csv"].read_text() == serial.files["csv"].read_text()


@pytest.mark.parametrize("key", UNAVAILABLE or ["none"])
def test_unavailable_figure_says_why(key, tmp_path):
    if key == "none":
        pytest.skip("every figure is reproducible")
    with pytest.raises(FigureError, match="cannot be reproduced here"):
        reproduce(key, out=tmp_path)
    assert not list(tmp_path.iterdir())
