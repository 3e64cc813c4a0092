"""theory.distributions.from_scipy and the scipy-backed ``--dist`` kinds (issue 42).

Checks: a truncated normal and lognormal against scipy's ``truncnorm`` and the closed
form of the truncated lognormal mean (cdf, quantile and mean within 1e-9); Poisson
and binomial laws cut to (0, C] with their renormalised pmf; capacity scaling; every
refusal; ``from_spec`` for lognormal, gamma and empirical:FILE; and ``packsched
rho-star --dist lognormal:...`` returning a bracket.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction as F

import numpy as np
import pytest
from scipy import stats

from packsched.cli import main
from theory.budgets import BudgetExceeded
from theory.distributions import Continuous, Discrete, from_scipy, from_spec

GRID = np.linspace(0.0, 1.0, 41)


def truncated_normal(mu: float, sd: float, cap: float = 1.0):
    """N(mu, sd^2) conditioned on (0, cap], by scipy's own truncnorm (units of cap)."""
    return stats.truncnorm((0 - mu) / sd, (cap - mu) / sd, loc=mu, scale=sd)


# ------------------------------------------------------------------ continuous


@pytest.mark.parametrize("mu,sd", [(0.5, 0.1), (0.3, 0.4), (-0.5, 0.5), (1.4, 0.3),
                                   (-10.0, 1.0), (0.9, 2.0)])
def test_truncated_normal_matches_truncnorm(mu, sd):
    # N(-10, 1) keeps 7.6e-24 of its mass on (0, 1]: below the default min_mass
    d = from_scipy(stats.norm(mu, sd), min_mass=0)
    ref = truncated_normal(mu, sd)
    assert isinstance(d, Continuous)
    for x in GRID:
        assert d.cdf(x) == pytest.approx(ref.cdf(x), abs=1e-9)
    for u in np.linspace(0.01, 0.99, 25):
        assert d.quantile(u) == pytest.approx(ref.ppf(u), abs=1e-9)
    assert d.mean() == pytest.approx(ref.mean(), abs=1e-9)
    assert d.cdf(0) == 0 and d.cdf(1) == 1 and d.support() == (0.0, 1.0)


@pytest.mark.parametrize("mu,sigma", [(-1.5, 0.5), (0.0, 1.0), (-3.0, 2.0), (2.0, 0.7)])
def test_truncated_lognormal_against_closed_form(mu, sigma):
    d = from_scipy(stats.lognorm(sigma, scale=math.exp(mu)))
    phi = stats.norm.cdf
    mass = phi((0 - mu) / sigma)  # P(X <= 1), log 1 = 0
    for x in GRID[1:]:
        want = phi((math.log(x) - mu) / sigma) / mass
        assert d.cdf(x) == pytest.approx(want, abs=1e-9)
    # E[X | X <= 1] = exp(mu + sigma^2/2) Phi((0 - mu - sigma^2) / sigma) / Phi(-mu/sigma)
    want_mean = math.exp(mu + sigma**2 / 2) * phi((-mu - sigma**2) / sigma) / mass
    assert d.mean() == pytest.approx(want_mean, abs=1e-9)
    # and by a direct integral of the truncated density
    from scipy import integrate
    law = stats.lognorm(sigma, scale=math.exp(mu))
    direct, _ = integrate.quad(lambda x: x * law.pdf(x), 0, 1, limit=200, epsabs=1e-13)
    assert d.mean() == pytest.approx(direct / mass, abs=1e-9)


def test_support_is_the_truncated_support():
    d = from_scipy(stats.uniform(0.2, 0.5))  # U[0.2, 0.7]
    assert d.support() == pytest.approx((0.2, 0.7))
    assert d.mean() == pytest.approx(0.45, abs=1e-12)
    e = from_scipy(stats.uniform(0.5, 1.0))  # U[0.5, 1.5] cut at 1: U[0.5, 1]
    assert e.support() == pytest.approx((0.5, 1.0))
    assert e.cdf(0.75) == pytest.approx(0.5, abs=1e-12)


def test_capacity_scaling_continuous():
    a = from_scipy(stats.norm(5.0, 2.0), capacity=10)
    b = from_scipy(stats.norm(0.5, 0.2))
    for x in GRID:
        assert a.cdf(x) == pytest.approx(b.cdf(x), abs=1e-12)
    assert a.mean() == pytest.approx(b.mean(), abs=1e-10)
    ref = truncated_normal(5.0, 2.0, 10.0)
    assert a.mean() == pytest.approx(ref.mean() / 10, abs=1e-9)
    assert a.quantile(0.3) == pytest.approx(ref.ppf(0.3) / 10, abs=1e-9)


def test_sampling_is_seeded_and_inside_the_support():
    d = from_scipy(stats.gamma(2.0, scale=0.3))
    x = d.sample(2000, seed=7)
    assert np.array_equal(x, d.sample(2000, seed=7))
    assert x.min() > 0 and x.max() <= 1
    assert x.mean() == pytest.approx(d.mean(), abs=0.02)


def test_name_labels_a_continuous_law():
    assert from_scipy(stats.norm(0.5, 0.1), name="mine").name == "mine"
    assert "norm" in repr(from_scipy(stats.norm(0.5, 0.1)))


# ------------------------------------------------------------------ discrete


def test_poisson_cut_to_capacity():
    lam, cap = 3.0, 6
    d = from_scipy(stats.poisson(lam), capacity=cap)
    assert isinstance(d, Discrete)
    assert d.sizes == [F(k, cap) for k in range(1, cap + 1)]  # 0 is cut off, exact sizes
    pmf = stats.poisson(lam).pmf(np.arange(1, cap + 1))
    assert d.probs == pytest.approx(list(pmf / pmf.sum()), abs=1e-12)
    mean = sum(k * p for k, p in zip(range(1, cap + 1), pmf, strict=True)) / pmf.sum()
    assert float(d.mean()) == pytest.approx(mean / cap, abs=1e-12)


def test_binomial_and_float_capacity():
    d = from_scipy(stats.binom(4, 0.5), capacity=4)
    assert d.sizes == [F(1, 4), F(1, 2), F(3, 4), F(1)]
    assert d.probs == pytest.approx([4 / 15, 6 / 15, 4 / 15, 1 / 15], abs=1e-12)
    e = from_scipy(stats.binom(4, 0.5), capacity=4.0)  # a float capacity: float sizes
    assert e.sizes == [0.25, 0.5, 0.75, 1.0]
    f = from_scipy(stats.binom(10, 0.3), capacity=5)  # capacity below the support top
    assert f.sizes == [F(k, 5) for k in range(1, 6)]
    assert sum(f.probs) == pytest.approx(1.0, abs=1e-12)


def test_shifted_lattice_and_listed_points():
    d = from_scipy(stats.poisson(3, loc=0.5), capacity=5)
    assert d.sizes == pytest.approx([0.1, 0.3, 0.5, 0.7, 0.9])
    law = stats.rv_discrete(values=([0.1, 0.5, 2.0], [0.25, 0.25, 0.5]))
    e = from_scipy(law())
    assert e.sizes == pytest.approx([0.1, 0.5]) and e.probs == pytest.approx([0.5, 0.5])


def test_capacity_scaling_discrete():
    a = from_scipy(stats.binom(20, 0.2), capacity=20)
    b = from_scipy(stats.binom(20, 0.2), capacity="20")
    assert a.sizes == b.sizes and a.probs == pytest.approx(b.probs)
    assert a.cdf(F(1, 4)) == pytest.approx(
        (stats.binom(20, 0.2).cdf(5) - stats.binom(20, 0.2).cdf(0))
        / (1 - stats.binom(20, 0.2).cdf(0)), abs=1e-12)


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize("bad", [stats.norm, stats.poisson, 0.5, "norm", None,
                                 [stats.norm(0, 1)]])
def test_refuses_what_is_not_a_frozen_law(bad):
    with pytest.raises(ValueError, match="frozen scipy.stats distribution"):
        from_scipy(bad)


@pytest.mark.parametrize("law", [stats.norm(5.0, 0.1), stats.uniform(2, 1),
                                 stats.poisson(3, loc=4), stats.lognorm(0.5, scale=1e30),
                                 stats.norm(-3.0, 0.001)])
def test_refuses_a_law_with_no_mass(law):
    with pytest.raises(ValueError, match=r"no mass there, P\(0 < X <= capacity\) = 0\.0$"):
        from_scipy(law)


def test_no_mass_is_one_line():
    with pytest.raises(ValueError) as err:
        from_scipy(stats.poisson(3, loc=4))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("law", [stats.norm(float("nan"), 1), stats.norm(0.5, float("nan")),
                                 stats.gamma(-1.0), stats.poisson(float("nan")),
                                 stats.binom(4, 2.0)])
def test_refuses_nan(law):
    with pytest.raises(ValueError, match="NaN"):
        from_scipy(law)


@pytest.mark.parametrize("cap", [0, -1, float("nan"), float("inf"), "x", True, [1, 2]])
def test_refuses_a_bad_capacity(cap):
    with pytest.raises(ValueError, match="capacity"):
        from_scipy(stats.norm(0.5, 0.1), capacity=cap)


def test_refuses_a_bad_name():
    with pytest.raises(ValueError, match="name"):
        from_scipy(stats.norm(0.5, 0.1), name=3)


def test_refuses_a_support_above_the_budget():
    with pytest.raises(BudgetExceeded, match="max_points") as err:
        from_scipy(stats.poisson(3), capacity=10**6)
    assert "1,000,000 points" in str(err.value)
    d = from_scipy(stats.poisson(3), capacity=50, max_points=50)
    assert len(d) <= 50
    with pytest.raises(ValueError, match="max_points"):
        from_scipy(stats.poisson(3), capacity=5, max_points=0)


# ------------------------------------------------------------------ from_spec


def test_spec_lognormal():
    d = from_spec("lognormal:-1.5,0.5")
    ref = from_scipy(stats.lognorm(0.5, scale=math.exp(-1.5)))
    for x in GRID:
        assert d.cdf(x) == pytest.approx(ref.cdf(x), abs=1e-15)
    assert d.support()[1] <= 1
    assert "lognormal(-1.5,0.5)" in repr(d)


def test_spec_gamma():
    d = from_spec("gamma:2,0.25")
    law = stats.gamma(2, scale=0.25)
    for x in GRID:
        assert d.cdf(x) == pytest.approx(law.cdf(x) / law.cdf(1), abs=1e-12)


def test_spec_empirical_file(tmp_path):
    f = tmp_path / "sizes, v1.txt"  # a comma in the name: FILE is the rest of the spec
    f.write_text("# sizes\n0.4\n0.6\n0.4\n1/5\n")
    d = from_spec(f"empirical:{f}")
    assert d.sizes == [F(1, 5), F(2, 5), F(3, 5)]
    assert d.probs == [F(1, 4), F(1, 2), F(1, 4)] and d.exact


def test_spec_in_a_mixture():
    d = from_spec("mixture:1/2*lognormal:-1.5,0.5+1/2*point:0.5")
    assert d.cdf(0.5) - d.cdf_left(0.5) == pytest.approx(0.5)


@pytest.mark.parametrize("spec,words", [
    ("lognormal:-1.5,0", "lognormal SIGMA must be positive"),
    ("lognormal:-1.5,-2", "lognormal SIGMA must be positive"),
    ("lognormal:-1.5", "lognormal needs two numbers"),
    ("lognormal:abc,0.5", "lognormal MU"),
    ("lognormal:nan,0.5", "lognormal MU"),
    ("lognormal:800,0.5", "lognormal MU"),
    ("lognormal:40,0.5", "no mass there"),
    ("gamma:0,1", "gamma K must be positive"),
    ("gamma:-1,1", "gamma K must be positive"),
    ("gamma:2,0", "gamma THETA must be positive"),
    ("gamma:2,inf", "gamma THETA"),
    ("gamma:2,1,3", "gamma needs two numbers"),
    ("empirical:", "empirical needs a file"),
    ("empirical:/no/such/file.txt", "No such file"),
    ("frobnicate:1", "lognormal, gamma, empirical"),
])
def test_spec_refusals(spec, words):
    with pytest.raises(ValueError, match=words) as err:
        from_spec(spec)
    if not spec.startswith("frobnicate"):
        assert spec in str(err.value)


def test_spec_empirical_refusals(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("0.5\n1.5\n")
    with pytest.raises(ValueError, match="above 1"):
        from_spec(f"empirical:{big}")
    zero = tmp_path / "zero.txt"
    zero.write_text("0.5\n0\n")
    with pytest.raises(ValueError, match="1 of the 2 sizes .* are zero"):
        from_spec(f"empirical:{zero}")
    vec = tmp_path / "vec.txt"
    vec.write_text("0.5,0.2\n0.1,0.3\n")
    with pytest.raises(ValueError, match="vector sizes"):
        from_spec(f"empirical:{vec}")
    text = tmp_path / "text.txt"
    text.write_text("0.5\nlarge\n")
    with pytest.raises(ValueError, match="text.txt:2"):
        from_spec(f"empirical:{text}")


# ------------------------------------------------------------------ CLI


def test_cli_rho_star_lognormal_bracket(capsys):
    code = main(["rho-star", "--dist", "lognormal:-1.5,0.5", "--servers", "2",
                 "--levels", "2", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    d = json.loads(out)
    assert d["bracket"] is True and d["servers"] == 2
    assert 0 < d["lower"] <= d["upper"]
    assert d["input"]["kind"] == "dist" and d["input"]["spec"] == "lognormal:-1.5,0.5"


def test_cli_bad_lognormal_is_one_line(capsys):
    code = main(["rho-star", "--dist", "lognormal:-1.5,0", "--servers", "2"])
    _out, err = capsys.readouterr()
    assert code == 2
    assert err.startswith("packsched: error:") and "SIGMA" in err
