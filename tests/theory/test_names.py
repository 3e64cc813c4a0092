"""theory.names: the "did you mean" hint shared by every layer."""

from __future__ import annotations

from theory.names import close_names, did_you_mean

POLICIES = ["bf-j", "bf-s", "bf-js", "vqs", "vqs-bf", "fifo-ff"]


def test_close_name_is_suggested_closest_first():
    hint = did_you_mean("bf-jss", POLICIES)
    assert hint.startswith("; did you mean bf-js") and hint.endswith("?")
    assert close_names("bf-jss", POLICIES)[0] == "bf-js"


def test_several_close_names_are_joined_with_or():
    assert did_you_mean("vqs-b", POLICIES) == "; did you mean vqs-bf or vqs?"


def test_nothing_close_gives_empty_text():
    assert did_you_mean("completely-different", POLICIES) == ""
    assert did_you_mean("x", []) == ""


def test_case_does_not_matter_and_the_known_spelling_is_given():
    assert close_names("BF-JS", POLICIES)[0] == "bf-js"
    assert close_names("pg21.lemma2", ["PG21.Lemma2", "XLL21.Eq5"]) == ["PG21.Lemma2"]
    assert "PG21.Lemma2" in did_you_mean("pg21.LEMMA22", ["PG21.Lemma2", "XLL21.Eq5"])


def test_at_most_n_names_and_never_the_name_itself():
    known = ["ab1", "ab2", "ab3", "ab4", "ab5"]
    assert len(close_names("ab", known)) == 3
    assert len(close_names("ab", known, n=1)) == 1
    assert "ab1" not in close_names("ab1", known)


def test_non_string_name_or_entries_are_ignored():
    assert did_you_mean(None, POLICIES) == ""  # type: ignore[arg-type]
    assert close_names("bf-js", [None, "bf-j"]) == ["bf-j"]  # type: ignore[list-item]
