"""theory.numbers: how sizes, capacities and probabilities are read and compared.

docs/design.md "Numbers and exactness": rationals (Fractions, ints, decimal strings) are
exact, floats stay floats and are compared with one documented tolerance; PG21 Prop. 2
needs (1/2 - e) + (1/2 + e) to fit a unit server exactly.
"""

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theory.numbers import (
    FEASIBILITY_RTOL,
    all_exact,
    as_float,
    common_denominator,
    fits,
    to_number,
    to_numbers,
)

# ---------------------------------------------------------------- to_number


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("0.4", F(2, 5)),
        (" 0.4 ", F(2, 5)),
        ("1/3", F(1, 3)),
        ("-2/6", F(-1, 3)),
        ("1e-3", F(1, 1000)),
        ("0.1", F(1, 10)),
        ("7", F(7)),
        (3, F(3)),
        (0, F(0)),
        (np.int64(5), F(5)),
        (np.int32(-2), F(-2)),
        (F(2, 7), F(2, 7)),
    ],
)
def test_rationals_become_exact_fractions(raw, expected):
    v = to_number(raw)
    assert type(v) is F
    assert v == expected


def test_decimal_string_is_exact_not_the_float():
    # the float 0.1 is not 1/10; the string "0.1" must be
    assert to_number("0.1") == F(1, 10)
    assert to_number("0.1") != F(0.1)
    assert to_number("0.1") + to_number("0.2") == to_number("0.3")


@pytest.mark.parametrize("raw", [0.1, 0.5, 1.0, 1e-300, np.float64(0.25), np.float32(0.5)])
def test_floats_stay_floats(raw):
    v = to_number(raw)
    assert type(v) is float
    assert v == float(raw)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_every_finite_float_is_kept_verbatim(x):
    v = to_number(x)
    assert type(v) is float and v == x


@given(st.fractions(max_denominator=10**9))
def test_fraction_roundtrip_through_string(q):
    assert to_number(str(q)) == q
    assert to_number(q) == q


@pytest.mark.parametrize(
    "raw, pattern",
    [
        (float("nan"), "finite"),
        (float("inf"), "finite"),
        (float("-inf"), "finite"),
        (np.nan, "finite"),
        (np.float64("inf"), "finite"),
        (True, "bool"),
        (False, "bool"),
        ("abc", "not a number"),
        ("", "not a number"),
        ("   ", "not a number"),
        ("nan", "not a number"),
        ("inf", "not a number"),
        ("1/0", "not a number"),
        ("0.4.5", "not a number"),
        (None, "cannot read"),
        ([0.5], "cannot read"),
        (complex(1, 0), "cannot read"),
        (object(), "cannot read"),
    ],
)
def test_garbage_raises_value_error_with_clear_message(raw, pattern):
    with pytest.raises(ValueError, match=pattern):
        to_number(raw)


def test_error_message_names_the_quantity():
    with pytest.raises(ValueError, match="capacity"):
        to_number("lots", name="capacity")
    with pytest.raises(ValueError, match="size"):
        to_number(float("nan"), name="size")
    with pytest.raises(ValueError, match="probability"):
        to_number(True, name="probability")


# --------------------------------------------------------------- to_numbers


def test_to_numbers_all_exact_stays_exact():
    vals = to_numbers(["0.4", 1, F(1, 3)])
    assert vals == [F(2, 5), F(1), F(1, 3)]
    assert all(type(v) is F for v in vals)
    assert all_exact(vals)


def test_to_numbers_any_float_makes_all_floats():
    vals = to_numbers(["0.4", 1, 0.25])
    assert vals == [0.4, 1.0, 0.25]
    assert all(type(v) is float for v in vals)
    assert not all_exact(vals)


def test_to_numbers_propagates_errors_with_name():
    with pytest.raises(ValueError, match="weights"):
        to_numbers(["0.5", "x"], name="weights")


def test_all_exact():
    assert all_exact([])
    assert all_exact([F(1, 2), F(3)])
    assert not all_exact([F(1, 2), 0.5])
    assert not all_exact([1])  # a bare int has not been read yet


# --------------------------------------------------------------------- fits


@settings(max_examples=80)
@given(st.fractions(min_value=0, max_value=F(1, 2), max_denominator=10**15))
def test_prop2_pair_fits_exactly_for_every_rational_e(e):
    load = (F(1, 2) - e) + (F(1, 2) + e)
    assert fits(load, F(1))
    assert fits(F(1, 2) - e, F(1)) and fits(F(1, 2) + e, F(1))


@settings(max_examples=100)
@given(
    st.fractions(min_value=0, max_value=F(1, 2), max_denominator=10**15),
    st.integers(min_value=1, max_value=10**40),
)
def test_an_epsilon_over_never_fits_for_fractions(e, big):
    over = F(1, big)
    assert not fits((F(1, 2) - e) + (F(1, 2) + e) + over, F(1))
    # and exactness also holds for other capacities
    assert fits(F(3, 7), F(3, 7))
    assert not fits(F(3, 7) + over, F(3, 7))


def test_fractions_are_compared_without_tolerance():
    # 1 + 1e-12 is within the float tolerance, but not for exact inputs
    assert not fits(F(1) + F(1, 10**12), F(1))
    assert fits(1.0 + 1e-12, 1.0)


def test_floats_use_the_documented_relative_tolerance():
    assert FEASIBILITY_RTOL == pytest.approx(1e-9)
    assert fits(0.1 + 0.2, 0.3)  # 0.30000000000000004
    assert 0.1 + 0.2 > 0.3  # (the reason the tolerance exists)
    assert fits(sum([0.1] * 10), 1.0)
    assert fits(0.7 + 0.1 + 0.2, 1.0)
    assert fits(1.0 + 0.5e-9, 1.0)
    assert not fits(1.0 + 2e-9, 1.0)
    assert not fits(0.3 * (1 + 1e-6), 0.3)
    # relative: scales with the capacity
    assert fits(1000.0 + 0.5e-6, 1000.0)
    assert not fits(1000.0 + 2e-6, 1000.0)


@settings(max_examples=100)
@given(st.floats(min_value=1e-6, max_value=0.5), st.floats(min_value=1e-3, max_value=100))
def test_float_prop2_pair_fits_and_clear_excess_does_not(e, cap):
    assert fits((cap / 2 - e * cap) + (cap / 2 + e * cap), cap)
    assert not fits(cap * (1 + 1e-7), cap)


def test_mixed_fraction_and_float_compare_as_floats():
    assert fits(F(1, 3), 1 / 3)
    assert fits(1 / 3, F(1, 3))
    assert not fits(F(1, 2), 0.49)


# ------------------------------------------------------- other helpers


def test_common_denominator():
    assert common_denominator([F(1, 4), F(1, 6)]) == 12
    assert common_denominator([F(1, 2), F(2, 3), F(3, 5)]) == 30
    assert common_denominator([F(3)]) == 1
    assert common_denominator([]) == 1


@settings(max_examples=50)
@given(st.lists(st.fractions(max_denominator=1000), max_size=6))
def test_common_denominator_clears_every_denominator(xs):
    d = common_denominator(xs)
    assert all((x * d).denominator == 1 for x in xs)
    # and it is the least such: no proper divisor works
    for p in (2, 3, 5, 7):
        if d % p == 0:
            assert not all((x * (d // p)).denominator == 1 for x in xs)


def test_as_float():
    arr = as_float([F(1, 4), 0.5, F(3)])
    assert arr.dtype == np.float64
    np.testing.assert_array_equal(arr, [0.25, 0.5, 3.0])
    assert as_float([]).shape == (0,)


# --------------------------------------------------- the representable range


def test_text_beyond_float64_is_refused_naming_the_value():
    from theory.numbers import to_float_checked

    with pytest.raises(ValueError, match=r"size: '1e400' is too large .*1.8e\+308"):
        to_number("1e400", name="size")
    with pytest.raises(ValueError, match=r"size: '-1e-400' is too small .*rounds to 0"):
        to_number("-1e-400", name="size")
    # checked before 10**999999999 is built: this returns at once
    with pytest.raises(ValueError, match="too large"):
        to_number("1e999999999")
    with pytest.raises(ValueError, match="too small"):
        to_number("1e-999999999")
    assert to_number("0e999999999") == 0
    with pytest.raises(ValueError, match="5000 characters is too long"):
        to_number("9" * 5000)
    # the extremes of float64 are read
    assert float(to_number("1.7976931348623157e308")) == 1.7976931348623157e308
    assert float(to_number("5e-324")) == 5e-324
    assert to_float_checked("1e-30", "size") == 1e-30


def test_exact_objects_outside_float64_are_kept_and_refused_at_float_conversion():
    from theory.numbers import to_float_checked

    assert to_number(10**400) == 10**400  # exact comparisons handle it
    assert to_number(F(1, 10**400)) == F(1, 10**400)
    with pytest.raises(ValueError, match=r"capacity: an integer of about 401 digits is too "
                                         r"large"):
        to_float_checked(10**400, "capacity")
    with pytest.raises(ValueError, match=r"size: a fraction of about 1/401 digits is too small"):
        to_float_checked(F(1, 10**400), "size")
    with pytest.raises(ValueError, match="finite"):
        to_float_checked(float("nan"), "x")
    assert to_float_checked(0, "x") == 0.0
    assert to_float_checked(F(10**400 + 1, 10**400), "x") == 1.0
    with pytest.raises(ValueError, match="too large"):
        as_float([F(1, 2), 10**400])


@pytest.mark.parametrize("raw", [np.longdouble("1e-4000"), np.longdouble(10) ** 400])
def test_long_doubles_outside_float64(raw):
    if np.finfo(np.longdouble).max == np.finfo(np.float64).max:
        pytest.skip("long double is float64 here")
    with pytest.raises(ValueError, match="float64|finite"):
        to_number(raw)


def test_decimal_and_zero_d_arrays_are_numbers():
    from decimal import Decimal

    assert to_number(Decimal("0.4")) == F(2, 5)
    with pytest.raises(ValueError, match="finite"):
        to_number(Decimal("nan"))
    assert to_number(np.array(0.5)) == 0.5
    with pytest.raises(ValueError, match="bytes"):
        to_number(b"0.4")


# ------------------------------------------------ a str where a list is expected


@pytest.mark.parametrize(("raw", "pattern"), [
    ("0.4", r"sizes must be a list of numbers, got the string '0.4' \(write \['0.4'\]\)"),
    (b"0.4", "got the bytes"),
    ({"0.4": 1}, "got a dict"),
    ({0.4}, r"got a set \(unordered\)"),
    ((x for x in [0.4]), r"got an iterator \(generator\).*list\(\.\.\.\)"),
    (iter([0.4]), "got an iterator"),
    (0.4, r"got the number 0.4 \(write \[0.4\]\)"),
    (None, "got None"),
    (np.array(0.4), "0-d array"),
])
def test_to_numbers_refuses_what_is_not_a_list(raw, pattern):
    with pytest.raises(ValueError, match=pattern):
        to_numbers(raw, name="sizes")


def test_to_numbers_takes_sequences_and_arrays():
    assert to_numbers((1, "1/2")) == [F(1), F(1, 2)]
    assert to_numbers(np.array([0.5, 0.25])) == [0.5, 0.25]
    assert to_numbers(range(1, 3)) == [F(1), F(2)]
    assert to_numbers({"a": "0.5"}.values()) == [F(1, 2)]
    with pytest.raises(ValueError, match="got the string"):
        all_exact("0.4")


def test_common_denominator_and_fits_validate():
    with pytest.raises(ValueError, match="exact rationals"):
        common_denominator([0.5])
    with pytest.raises(ValueError, match="got the string"):
        common_denominator("12")
    assert common_denominator([F(1, 2), 3]) == 2
    with pytest.raises(ValueError, match="load: cannot read None"):
        fits(None, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="NaN"):
        fits(float("nan"), 1.0)
    assert not fits(F(10**400), 1.0)  # beyond float64: compared exactly
