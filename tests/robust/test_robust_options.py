"""Option text and agents on the command line: one convention, errors in the command line exit 2."""

from __future__ import annotations

import pytest

from support import cli

COMMANDS = [("validate", "texas42", "--hands", "0"), ("show", "texas42"),
            ("simulate", "texas42", "--games", "1"), ("diff", "texas42", "texas42-quick"),
            ("batch", "texas42", "--hands", "1")]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("options, message", [
    (["min_bid=3_1"], "error: --option min_bid=3_1: option 'min_bid' takes an int, got '3_1'"),
    (["min_bid=\uff13\uff11"], "error: --option min_bid=\uff13\uff11: option 'min_bid' takes an int, "
                             "got '\uff13\uff11'"),
    (["min_bid=0x1f"], "takes an int, got '0x1f'"),
    (["min_bid=31", "min_bid=32"], "error: --option min_bid=32: option 'min_bid' is given twice"),
    (["min_bid"], "error: --option takes name=value, got 'min_bid'"),
    (["min_bd=31"], "unknown option 'min_bd'"),
    (["min_bid=99"], "must be at most 42, got 99"),
], ids=["underscore", "full-width", "hex", "twice", "malformed", "unknown", "range"])
def test_a_bad_option_is_a_usage_error(command, options, message):
    args = [a for o in options for a in ("--option", o)]
    r = cli(*command, *args)
    assert r.exit_code == 2, r.output
    assert message in r.stderr and r.stdout == ""


@pytest.mark.parametrize("text, value", [("31", 31), ("+31", 31), (" 31 ", 31), ("031", 31)])
def test_plain_ascii_ints_are_accepted(text, value):
    r = cli("show", "texas42", "--option", f"min_bid={text}")
    assert r.exit_code == 0 and f"texas42(min_bid={value})" in r.stdout


@pytest.mark.parametrize("command", [("simulate", "texas42", "--games", "1"),
                                     ("validate", "texas42", "--hands", "5")], ids=lambda c: c[0])
def test_more_agents_than_seats_is_a_usage_error(command):
    r = cli(*command, "--agents", "random,random,random,random,cautious")
    assert r.exit_code == 2
    assert r.stderr == "error: --agents names 5 agents; texas42 has 4 seats\n"


@pytest.mark.parametrize("command", [("simulate", "texas42", "--games", "1"),
                                     ("validate", "texas42", "--hands", "5")], ids=lambda c: c[0])
def test_agents_are_one_for_every_seat_or_one_per_seat(command):
    r = cli(*command, "--agents", "random,cautious")  # the agent contract: no repeating by seat
    assert r.exit_code == 2
    assert r.stderr == ("error: --agents names 2 agents; texas42 has 4 seats (one agent plays "
                        "every seat, or name one per seat)\n")
    assert cli(*command, "--agents", "cautious").exit_code == 0


def test_other_usage_errors_exit_2_and_ruleset_errors_exit_1():
    assert cli("simulate", "texas42", "--agents", "greedy").exit_code == 2
    assert cli("validate", "texas42", "--format", "xml").exit_code == 2
    assert cli("simulate", "texas42", "--games", "0").exit_code == 2
    assert cli("validate", "no-such-ruleset").exit_code == 1
    assert cli("simulate", "no/such/file.yaml").exit_code == 1


def test_a_house_files_option_values_say_what_yaml_read(tmp_path):
    # a number in quotes is text, and YAML 1.1 reads an unquoted yes as true: each says so
    house = tmp_path / "house.yaml"
    house.write_text("name: house\ntitle: t\nextends: texas42\nset:\n  min_bid: \"32\"\n"
                     "  all_pass: yes\n", encoding="utf-8")
    r = cli("validate", str(house), "--hands", "0")
    assert r.exit_code == 1, r.output
    assert ("house.yaml:5:12: error: option 'min_bid' takes an int, got '32' "
            "(in quotes: without them it is a number)") in r.stdout + r.stderr
    assert ("house.yaml:6:13: error: option 'all_pass' takes one of stuck, reshuffle, got true "
            "(YAML reads yes, no, on and off unquoted as true or false: quote the word)"
            ) in r.stdout + r.stderr
