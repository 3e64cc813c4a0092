"""``from_scipy`` reports the mass its truncation keeps and refuses a law that keeps
almost none of it (issue 42 follow-up).

``--dist lognormal:3,0.1`` was accepted although P(X <= 1) = Phi(-30) ~ 4.9e-198: the
"law" on (0, 1] was the far tail of a law that lives around e^3 = 20. The kept mass
P(0 < X <= C) is now computed (from the lower or the upper tail, whichever keeps the
digits), recorded as ``kept_mass`` on the result and in ``packsched rho-star --json``,
and a truncation keeping less than ``MIN_KEPT_MASS`` is refused in one line.
"""

from __future__ import annotations

import json
import math

import pytest
from scipy import stats

from packsched.cli import main
from theory.distributions import MIN_KEPT_MASS, from_scipy, from_spec


def phi(z: float) -> float:
    """Standard normal cdf, accurate in the far lower tail (erfc)."""
    return 0.5 * math.erfc(-z / math.sqrt(2))


@pytest.mark.parametrize("law,mass", [
    # lognormal(mu, sigma) on (0, 1]: P(X <= 1) = Phi(-mu / sigma)
    (stats.lognorm(0.5, scale=math.exp(-1.5)), phi(3.0)),
    (stats.lognorm(1.0, scale=math.exp(5.0)), phi(-5.0)),
    # gamma(2, theta): P(X <= 1) = 1 - e^(-1/theta) (1 + 1/theta)
    (stats.gamma(2, scale=0.15), 1 - math.exp(-1 / 0.15) * (1 + 1 / 0.15)),
    # N(-3, 0.6) on (0, 1]: almost all mass below 0, kept from the upper tail
    (stats.norm(-3, 0.6), phi(-5.0) - phi(-4 / 0.6)),
    (stats.uniform(0.5, 1.0), 0.5),
])
def test_kept_mass_is_recorded_accurately(law, mass):
    d = from_scipy(law)
    assert d.kept_mass == pytest.approx(mass, rel=1e-9)


def test_kept_mass_of_a_discrete_law():
    d = from_scipy(stats.binom(4, 0.5), capacity=4)  # the point 0 (mass 1/16) is cut
    assert d.kept_mass == pytest.approx(15 / 16, rel=1e-12)


@pytest.mark.parametrize("law,where", [
    (stats.lognorm(0.1, scale=math.exp(3.0)), "4.9"),     # Phi(-30) ~ 4.9e-198
    (stats.norm(0.5, 0.1), None),                           # fine: kept mass ~ 1
    (stats.norm(-3, 0.6), None),                            # ~ 2.9e-7: kept
    (stats.norm(-3, 0.5), "9.9"),                           # ~ 9.9e-10: just below
    (stats.norm(-3, 0.4), "3.2"),                           # Phi(-7.5) ~ 3.2e-14
    (stats.poisson(40), "1.7"),                             # P(X = 1) ~ 1.7e-16
])
def test_a_truncation_that_keeps_almost_nothing_is_refused(law, where):
    if where is None:
        assert from_scipy(law).kept_mass >= MIN_KEPT_MASS
        return
    with pytest.raises(ValueError, match=r"keeps P\(0 < X <= capacity\) = ") as err:
        from_scipy(law, capacity=1)
    text = str(err.value)
    assert "\n" not in text and f"{MIN_KEPT_MASS:g}" in text
    assert f"= {where}" in text


def test_the_refusal_names_the_mass():
    with pytest.raises(ValueError) as err:
        from_scipy(stats.lognorm(0.1, scale=math.exp(3.0)))
    assert "4.9e-198" in str(err.value)


def test_threshold_is_documented():
    assert MIN_KEPT_MASS == 1e-9
    doc = from_scipy.__doc__ or ""
    assert "MIN_KEPT_MASS" in doc and "kept_mass" in doc


def test_spec_lognormal_far_from_the_server_is_refused():
    with pytest.raises(ValueError, match=r"'lognormal:3,0.1': .*keeps P\(0 < X <= capacity\)"):
        from_spec("lognormal:3,0.1")
    assert from_spec("gamma:2,0.15").kept_mass == pytest.approx(
        1 - math.exp(-1 / 0.15) * (1 + 1 / 0.15), rel=1e-12)


def test_a_numerically_meaningless_normalisation_is_refused():
    """A law whose cdf and survival function disagree on the kept mass (here sf is
    off by 1e-6) has no trustworthy normalisation: refused, not renormalised."""

    class skewed_gen(stats.rv_continuous):
        def _cdf(self, x):
            return stats.norm.cdf(x, 0.5, 0.2)

        def _sf(self, x):
            return stats.norm.sf(x, 0.5, 0.2) + 1e-6 * (x < 0.5)

    law = skewed_gen(name="skewed")()
    with pytest.raises(ValueError, match="numerically meaningless"):
        from_scipy(law)


def test_rho_star_cli_reports_the_kept_mass(capsys):
    assert main(["rho-star", "--dist", "gamma:2,0.15", "--levels", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["input"]["kept_mass"] == pytest.approx(
        1 - math.exp(-1 / 0.15) * (1 + 1 / 0.15), rel=1e-12)
    assert main(["rho-star", "--dist", "gamma:2,0.15", "--levels", "1"]) == 0
    text = capsys.readouterr().out
    assert "P(0 < X <= 1) = 0.990243" in text


def test_rho_star_cli_refuses_lognormal_3(capsys):
    assert main(["rho-star", "--dist", "lognormal:3,0.1"]) != 0
    err = capsys.readouterr().err
    assert "keeps P(0 < X <= capacity) = 4.9" in err


def test_min_mass_zero_keeps_a_far_tail_meant_as_such():
    """N(-10, 1) on (0, 1] keeps 7.6e-24: refused by default, accepted with
    ``min_mass=0``, and then still the truncated normal (scipy's truncnorm)."""
    with pytest.raises(ValueError, match="below the 1e-09"):
        from_scipy(stats.norm(-10.0, 1.0))
    d = from_scipy(stats.norm(-10.0, 1.0), min_mass=0)
    assert d.kept_mass == pytest.approx(phi(-10.0) - phi(-11.0), rel=1e-9)
    ref = stats.truncnorm(10.0, 11.0, loc=-10.0, scale=1.0)
    for x in (0.01, 0.1, 0.3, 0.9):
        assert d.cdf(x) == pytest.approx(ref.cdf(x), abs=1e-9)
    for bad in (-0.1, 1.5, float("nan"), "x"):
        with pytest.raises(ValueError, match="min_mass"):
            from_scipy(stats.norm(0.5, 0.1), min_mass=bad)
