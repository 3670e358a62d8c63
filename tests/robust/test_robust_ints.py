"""Integers have a bound (|value| <= 2**53): a value past it is a located error, never a hang
or an OverflowError."""

from __future__ import annotations

import pytest

from support import cli

BOUND = "beyond the integer bound: every int is between -2**53 and 2**53"


def overlay(tmp_path, hand: str, extra: str = "") -> str:
    f = tmp_path / "r.yaml"
    f.write_text(f"name: r\nextends: texas42\nscoring:\n  hand: \"{hand}\"\n{extra}",
                 encoding="utf-8")
    return str(f)


SQUARE = ("score(side) * score(side) + 2", "  match_over: \"false\"\nbounds:\n  max_hands: 100000\n")


@pytest.mark.parametrize("command", [("validate", "--hands", "20"), ("simulate", "--games", "1")],
                         ids=lambda c: c[0])
def test_a_score_that_squares_itself_is_stopped_at_the_expression(tmp_path, command):
    f = overlay(tmp_path, *SQUARE)
    r = cli(command[0], f, *command[1:])  # was: ran for ten minutes and more
    assert r.exit_code == 1
    assert f"r.yaml:4:10: error: " in r.stderr and BOUND in r.stderr
    assert "hand: \"score(side) * score(side) + 2\"\n" in r.stderr and "^^^^" in r.stderr


def test_a_score_past_1e308_no_longer_overflows_the_summary(tmp_path):
    f = overlay(tmp_path, "10" + "0" * 320 + " if made else 0")
    r = cli("simulate", f, "--games", "3")
    assert r.exit_code == 1 and "integer literal " + BOUND in r.stderr
    r = cli("validate", overlay(tmp_path, "9" * 5000 + " if made else 0"), "--hands", "0")
    assert r.exit_code == 1 and "integer literal " + BOUND in r.stderr


def test_the_bound_itself_is_fine_and_one_past_it_is_not(tmp_path):
    r = cli("validate", overlay(tmp_path, "9007199254740992 if made else 0"), "--hands", "5")
    assert r.exit_code == 0, r.stderr
    r = cli("validate", overlay(tmp_path, "9007199254740992 + 1 if made else 0"), "--hands", "5")
    assert r.exit_code == 1 and "the value (an integer of 54 bits) is " + BOUND in r.stderr


def test_a_constant_past_the_bound_is_a_load_error(tmp_path):
    r = cli("validate", overlay(tmp_path, "9007199254740992 * 2"), "--hands", "0")
    assert r.exit_code == 1 and BOUND in r.stderr


def test_an_option_past_the_bound(tmp_path):
    r = cli("validate", "allfives", "-o", "target=" + "9" * 30, "--hands", "0")
    assert r.exit_code == 2
    assert "option 'target' takes an int between -2**53 and 2**53" in r.stderr  # no max of its own
    # an option with a range says its range, whatever the size (it said the bound of 2**53)
    r = cli("validate", "texas42", "-o", "marks_to_win=" + "9" * 17, "--hands", "0")
    assert r.exit_code == 2 and "must be at most 21, got 99999999999999999\n" in r.stderr
    r = cli("validate", "texas42", "-o", "marks_to_win=" + "9" * 40, "--hands", "0")
    assert r.exit_code == 2 and "must be at most 21, got a number of 40 digits\n" in r.stderr
