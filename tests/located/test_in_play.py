"""Faults found while a command plays (simulate, compare, show's sample deal) are said as
`validate` says them: at the line of the user's own file that caused them, with a note at the
base rule it broke, its line quoted, however far the user's folder is from the shipped rulesets.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from support import cli
from test_located import CASES, ROOT, heads

NEVER_ENDS = "name: e11\ntitle: t\nextends: texas42\nscoring:\n  hand: \"0\"\nbounds:\n  max_hands: 5\n"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A user's folder away from the checkout, holding the located cases."""
    for p in (ROOT / CASES).glob("*.yaml"):
        shutil.copy(p, tmp_path / p.name)
    (tmp_path / "e11.yaml").write_text(NEVER_ENDS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def where(stderr: str) -> list[tuple]:
    return [(d["file"], d["line"], d["col"], d["sev"]) for d in heads(stderr)]


def test_simulate_says_a_fault_where_validate_does(folder):
    v = cli("validate", "e11.yaml", "--hands", "10")
    s = cli("simulate", "e11.yaml", "-n", "1")
    assert s.exit_code == 1 and s.stdout == ""
    assert where(s.stderr) == where(v.stderr) == [("e11.yaml", 5, 3, "error"),
                                                  ("rulesets/texas42.yaml", 189, 15, "note")]
    lines = s.stderr.splitlines()
    assert lines[0] == ("e11.yaml:5:3: error: the match did not end within 5 deals "
                        "(bounds.max_hands) (in game 1, seed '0:0'; reproduce: tablerules "
                        "simulate e11.yaml --seed 0 --games 1 --agents rules)")
    assert lines[1].strip() == 'hand: "0"'
    # the base file's line is quoted, though no rulesets/ folder is here
    assert lines[3] == "rulesets/texas42.yaml:189:15: note: the base rule it broke: scoring.match_over"
    assert "match_over:" in lines[4] and lines[5].strip() == "^"
    assert not (folder / "rulesets").exists()


def test_compare_says_a_fault_where_simulate_does_and_whose_game(folder):
    s = cli("simulate", "e11.yaml", "-n", "1")
    r = cli("compare", "texas42-tournament", "--vs", "e11.yaml", "--games", "2")
    assert r.exit_code == 1 and r.stdout == ""
    assert where(r.stderr) == where(s.stderr)
    first = r.stderr.splitlines()[0]
    assert first == ("e11.yaml:5:3: error: the match did not end within 5 deals "
                     "(bounds.max_hands) (in B's game of deal 1, seed '0:0'; reproduce: "
                     "tablerules simulate e11.yaml --seed 0 --games 1 --first-dealer 0 "
                     "--agents rules)")
    assert r.stderr.splitlines()[1:] == s.stderr.splitlines()[1:]
    # A's side when the file is A's; the same with the deals on worker processes
    r = cli("compare", "e11.yaml", "--vs", "texas42-tournament", "--games", "2",
            "--workers", "2")
    assert r.exit_code == 1 and "(in A's game of deal 1, seed '0:0'; reproduce: " in r.stderr
    assert where(r.stderr) == where(s.stderr)


def test_compare_at_one_table_says_which_seating(folder):
    r = cli("compare", "e11.yaml", "--agents", "rules", "--vs", "--agents", "cautious",
            "--games", "2")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.splitlines()[0].endswith(
        "(in deal 1 with A's agents on side 0, seed '0:0'; reproduce: tablerules simulate "
        "e11.yaml --seed 0 --games 1 --first-dealer 0 --agents rules,cautious,rules,cautious)")
    assert where(r.stderr)[0] == ("e11.yaml", 5, 3, "error")


SHORT = "name: short\ntitle: t\nextends: texas42\nbounds:\n  max_hands: 8\n"


def _reproduced(r) -> tuple[str, list]:
    """The `simulate` command a compare fault names, run: (its first line, its stderr)."""
    first = r.stderr.splitlines()[0]
    assert r.exit_code == 1 and "; reproduce: tablerules simulate " in first, r.stderr
    words = shlex.split(first.split("; reproduce: ")[1][:-1])
    s = cli(*words[1:])
    return first, s


@pytest.mark.parametrize("args, game, alone", [
    # A's agents by seat, moved round: the second seating of deal 16, first dealt by West
    (["short.yaml", "--agents", "rules,random,rules,random", "--vs", "-o", "min_bid=31",
      "--agents", "random", "--games", "40"], "in A's game of deal 16, seed '0:15'",
     "in game 16, seed '0:15'"),
    # at one table, A's agents on side 1
    (["short.yaml", "--agents", "rules", "--vs", "--agents", "random", "--games", "40"],
     "in deal 16 with A's agents on side 1, seed '0:15'", "in game 16, seed '0:15'"),
    # B's game, B's options (those that are not the ruleset's own)
    (["texas42-tournament", "--vs", "e11.yaml", "-o", "min_bid=31", "--games", "2"],
     "in B's game of deal 1, seed '0:0'", "in game 1, seed '0:0'")],
    ids=["apart", "one-table", "b-options"])
def test_a_compare_fault_names_the_simulate_command_that_plays_its_game(folder, args, game,
                                                                        alone):
    """The command compare's fault names plays that game alone (its deal's seed, its first
    dealer, its seating, its options) and stops on the same fault, said at the same lines;
    the same from worker processes."""
    (folder / "short.yaml").write_text(SHORT, encoding="utf-8")
    r = cli("compare", *args, "--no-progress")
    first, s = _reproduced(r)
    assert f"({game}; reproduce: " in first
    assert s.exit_code == 1 and s.stdout == ""
    said = next(ln for ln in s.stderr.splitlines() if ": error: " in ln)  # (after a note
    # that random bidders may never finish a match)
    assert said.startswith(first.split(" (in ")[0] + f" ({alone}; reproduce: tablerules simulate ")
    assert where(s.stderr) == where(r.stderr)
    two = cli("compare", *args, "--no-progress", "--workers", "2")
    assert two.stderr.splitlines()[0] == first


@pytest.mark.parametrize("args, game", [
    (["--agents", "cautious"], "in game 9, seed '0:8'"),
    (["--agents", "cautious,rules,cautious,rules", "--first-dealer", "2", "--seed", "4"],
     "in game 36, seed '4:35'"),
    (["--agents", "cautious", "-o", "min_bid=31", "--first-dealer", "2", "--seed", "4"],
     "in game 3, seed '4:2'")], ids=["agents", "by-seat-and-dealer", "options"])
def test_a_simulate_fault_names_the_command_that_plays_its_game_alone(folder, args, game):
    """simulate's fault named its game and seed only: finding the game again meant playing
    every game before it. It names the command that plays that game alone (the last of as many
    one-game shards, the run's agents, first dealer and options that are not the ruleset's
    own), which stops on the same fault, said alike; the same from worker processes."""
    (folder / "short.yaml").write_text(SHORT.replace("max_hands: 8", "max_hands: 12"),
                                       encoding="utf-8")
    r = cli("simulate", "short.yaml", "-n", "60", "--no-progress", *args)
    first, s = _reproduced(r)
    assert f"({game}; reproduce: tablerules simulate short.yaml " in first
    assert s.exit_code == 1 and s.stderr.splitlines()[0] == first
    assert where(s.stderr) == where(r.stderr)
    two = cli("simulate", "short.yaml", "-n", "60", "--no-progress", "--workers", "2", *args)
    assert two.stderr.splitlines()[0] == first


def test_compare_json_prints_nothing_on_stdout_for_a_fault(folder):
    # an error is not a result: said on stderr as the text commands say it (as simulate -f
    # json does), stdout left empty for the tool reading it
    r = cli("compare", "texas42-tournament", "--vs", "e11.yaml", "--games", "2", "-f", "json")
    assert r.exit_code == 1 and r.stdout == ""
    assert where(r.stderr)[0] == ("e11.yaml", 5, 3, "error")


NOBODY_BIDS = ("name: e15b\ntitle: nobody can bid\nextends: texas42-tournament\nauction:\n"
               "  beats: \"false\"\n")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_show_describes_a_file_whose_sample_deal_stops(folder, fmt):
    (folder / "e15b.yaml").write_text(NOBODY_BIDS, encoding="utf-8")
    v = cli("validate", "e15b.yaml", "--hands", "10")
    r = cli("show", "e15b.yaml", "-f", fmt)
    assert r.exit_code == 0
    if fmt == "json":
        import json
        assert json.loads(r.stdout)["phases"]["pass_out"] is None
    else:
        assert r.stdout.startswith("e15b: nobody can bid\n")
        assert "all pass: not known: the sample deal stopped (the note says where)" in r.stdout
    # one located note, the seat validate names
    assert where(r.stderr) == [("e15b.yaml", 5, 3, "note")] == [
        (f, ln, c, "note") for f, ln, c, _ in where(v.stderr)]
    assert r.stderr.splitlines()[0] == (
        "e15b.yaml:5:3: note: show's sample deal stopped: South has no legal action in the "
        "auction (hand 1) (`tablerules validate e15b.yaml` plays more)")
    assert "South has no legal action" in v.stderr


PAIRS = "seats:\n  sides: [[0, 2], [1, 3]]\n"  # Taroky's seats made two partnerships


def club(tmp_path, name: str, body: str):
    """A Taroky club's house file NAME.yaml: its header (name, title, extends: taroky, lines 1
    to 3), then `body` from line 4."""
    p = tmp_path / f"{name}.yaml"
    p.write_text(f"name: {name}\ntitle: t\nextends: taroky\n{body}", encoding="utf-8")
    return p


def failed(*args: str):
    """The command's result, which must have failed on the ruleset (exit status 1)."""
    r = cli(*args)
    assert r.exit_code == 1, r.output
    return r


def test_a_fault_in_a_base_rule_calling_a_function_the_user_changed_is_said_at_the_function(
        tmp_path):
    # a Taroky club that lays nothing away but pips: the talon's exchange, written in the base,
    # calls may_lay_away(), which calls the barred() this file replaces; nobody can lay away,
    # and the fault was said at 'extends: taroky', not at the function that caused it
    p = club(tmp_path, "pips", "functions:\n"
             "  \"barred(t: tile)\": \"t.face == 'K' or t.trump or t.count > 1\"\n")
    for r in (failed("validate", str(p), "--hands", "20"), failed("simulate", str(p), "-n", "1")):
        assert where(r.stderr) == [(str(p), 5, 3, "error"),
                                   ("rulesets/taroky.yaml", 308, 7, "note")], r.stderr
        assert "has no legal action in the exchange" in r.stderr.splitlines()[0]


def test_a_fault_in_a_base_rule_reading_an_option_the_user_set_is_said_at_the_setting(tmp_path):
    # a club playing 60 hands a match with the deals bounded at 50: the base's match_over reads
    # `hands`, which this file sets; the fault was said at 'extends: taroky'
    p = club(tmp_path, "long", "set:\n  hands: 60\nbounds:\n  max_hands: 50\n")
    r = failed("validate", str(p), "--hands", "60")
    assert where(r.stderr) == [(str(p), 5, 10, "error"),
                               ("rulesets/taroky.yaml", 350, 15, "note")], r.stderr
    assert "the match did not end within 50 deals" in r.stderr.splitlines()[0]


def test_the_note_names_the_base_rule_it_broke_when_the_fault_is_in_a_function(tmp_path):
    # Taroky's seats made two partnerships: its count, in points(s) for each seat s, then reads
    # a side that is not there; the note said "the base rule it broke: a rule"
    p = club(tmp_path, "pairs", PAIRS)
    r = failed("validate", str(p), "--hands", "10")
    notes = [ln for ln in r.stderr.splitlines() if ": note: " in ln]
    assert notes == ["rulesets/taroky.yaml:177:23: note: the base rule it broke: "
                     "functions.counted(s: int)"], r.stderr


def test_a_fault_the_house_files_sides_caused_is_said_at_its_sides(tmp_path):
    # the same two partnerships: the fault was said at 'extends: taroky' (line 3), not at the
    # `seats.sides` that caused it, while a replaced function or a `set:` option is blamed
    p = club(tmp_path, "pairs", PAIRS)
    for r in (failed("validate", str(p), "--hands", "10"), failed("simulate", str(p), "-n", "1")):
        assert where(r.stderr)[0] == (str(p), 5, 3, "error"), r.stderr
        assert "there is no side 2 (sides are 0..1)" in r.stderr.splitlines()[0]
        assert r.stderr.splitlines()[1] == "      sides: [[0, 2], [1, 3]]"


def test_a_take_past_the_talon_is_said_at_the_part_that_placed_it(tmp_path):
    # a prever taking the second three from place 4 of a talon of six: said at the `from` that
    # placed the take, not at the exchange's first key
    p = club(tmp_path, "half", "contracts:\n  prever:\n    exchange:\n      by: bidder\n"
             "      take: 3\n      from: \"4 if half == 'second' else 0\"\n      bury: 3\n"
             "      order: 1\n")
    r = failed("simulate", str(p), "-n", "3", "--agents", "cautious")
    assert where(r.stderr) == [(str(p), 9, 13, "error")], r.stderr
    assert "an exchange takes 3 pieces from place 4 of a stock of 6" in r.stderr


def test_a_seat_out_of_pieces_while_others_hold_some_is_said_so(tmp_path):
    # a club's povinnost who takes four and lays three away plays on with a card more than the
    # others: "East has no legal action in the play" said nothing of why
    p = club(tmp_path, "bury3", "contracts:\n  game:\n    exchange:\n"
             "      - {by: bidder, take: 4, bury: 3, legal: \"may_lay_away(tile, hand)\", "
             "order: 1}\n      - {by: \"taker_after(bidder)\", take: 1, bury: 1}\n"
             "      - {by: \"taker_after(taker_after(bidder))\", take: 1, bury: 1}\n")
    r = failed("validate", str(p), "--hands", "10")
    first = r.stderr.splitlines()[0]
    assert re.search(r"error: seeded play: (North|East|South|West) has no legal action in the "
                     r"play \(hand \d+\): it has no piece left while (North|East|South|West) "
                     r"still holds 1 \(the hands were not of one size when play began\)", first), \
        first
    assert where(r.stderr)[0][:3] == (str(p), 6, 5)  # the file's exchange
