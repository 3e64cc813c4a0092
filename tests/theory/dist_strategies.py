"""Hypothesis strategies for size distributions, shared by the theory tests."""

from fractions import Fraction as F

from hypothesis import strategies as st

from theory.distributions import Discrete, Mixture, Uniform


def fracs(lo, hi, den=64):
    return st.fractions(min_value=lo, max_value=hi, max_denominator=den)


@st.composite
def exact_discretes(draw, max_types=5):
    sizes = draw(st.lists(fracs(F(1, 64), 1), min_size=1, max_size=max_types))
    ws = draw(st.lists(st.integers(1, 9), min_size=len(sizes), max_size=len(sizes)))
    t = sum(ws)
    return Discrete(sizes, [F(w, t) for w in ws])


@st.composite
def float_discretes(draw, max_types=5):
    sizes = draw(st.lists(st.floats(0.01, 1.0), min_size=1, max_size=max_types))
    ws = draw(st.lists(st.floats(0.05, 1.0), min_size=len(sizes), max_size=len(sizes)))
    t = sum(ws)
    return Discrete(sizes, [w / t for w in ws])


@st.composite
def exact_uniforms(draw):
    a = draw(fracs(0, F(15, 16)))
    b = a + (1 - a) * draw(fracs(F(1, 16), 1))
    return Uniform(a, b)


@st.composite
def exact_mixtures(draw):
    """Uniform part plus atoms (a discontinuous cdf), all exact."""
    u = draw(exact_uniforms())
    d = draw(exact_discretes(max_types=3))
    w = draw(st.integers(1, 7))
    return Mixture([u, d], [F(w, 8), F(8 - w, 8)])
