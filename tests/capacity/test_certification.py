"""One rule decides whether a configuration-LP answer is certified
(:func:`capacity.certification.is_certified`): the certificate, the
solver's stops and the Lemma 2 cap all apply it."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

import capacity
import capacity.certificate
import capacity.result
from capacity.certification import CERT_RTOL, is_certified
from capacity.configuration_lp import ConfigurationLP, result_of_mixture, solve_configuration_lp


def test_the_rule():
    assert is_certified(F(2), F(2), checks_passed=True)
    assert not is_certified(F(2), F(2), checks_passed=False)
    assert not is_certified(F(2), F(2), checks_passed=True, stopped="target")
    assert not is_certified(1.0, math.inf, checks_passed=True)
    # relative to max(1, upper) ...
    assert is_certified(0.5, 0.5 + 0.8e-7, checks_passed=True)
    assert not is_certified(0.5, 0.5 + 1.2e-7, checks_passed=True)
    assert is_certified(1e3, 1e3 * (1 + 0.9e-7), checks_passed=True)
    # ... and to upper itself once the solve stopped short of its optimality test
    for stop in ("time_limit", "pricing_budget"):
        assert not is_certified(0.5, 0.5 + 0.8e-7, checks_passed=True, stopped=stop)
        assert is_certified(0.5, 0.5 + 0.4e-7, checks_passed=True, stopped=stop)
        assert is_certified(F(1, 3), F(1, 3), checks_passed=True, stopped=stop)


def test_one_tolerance_everywhere():
    assert capacity.CERT_RTOL is capacity.certificate.CERT_RTOL is CERT_RTOL
    assert capacity.result.CERT_RTOL is CERT_RTOL


@pytest.mark.parametrize("y", [None, [1.0, 0.0], [1.0, 1.0]])
def test_certificate_and_results_follow_the_rule(y):
    """The certificate's verdict is the rule on its interval and checks; an answer
    built from it (``result_of_mixture``) says the same."""
    lp = ConfigurationLP.build(["0.4", "0.6"], ["1/2", "1/2"], [(1, 1)])
    ref = solve_configuration_lp(lp, method="enumerate")
    prices = np.asarray(ref.dual if y is None else y, dtype=float)
    cert = capacity.certify(lp, ref.mixture, prices)
    assert cert.certified == is_certified(cert.lower, cert.upper,
                                          checks_passed=cert.checks_passed)
    res = result_of_mixture(lp, ref.mixture, prices, how="test")
    assert res.certified == is_certified(res.lower, res.upper, checks_passed=True)


def test_a_target_stop_is_never_certified_and_an_uncertified_request_neither():
    lp = ConfigurationLP.build([F(k, 40) for k in range(5, 25)], [F(1, 20)] * 20, [(1, 2)])
    full = solve_configuration_lp(lp, method="column-generation")
    assert full.certified
    part = solve_configuration_lp(lp, method="column-generation", target=0.5 * full.value)
    assert part.extra["stopped_at_target"] and not part.certified
    assert part.status == "target reached"
    bare = solve_configuration_lp(lp, certify_result=False)
    assert not bare.certified and bare.message.endswith("certificate not requested")
    assert bare.to_dict()["status"] == "solved_uncertified"
