"""One turn's screen without colour (a snapshot), and the command's one-line errors."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tablerules.cli.main import app


def run(*args: str, input: str = ""):
    res = CliRunner().invoke(app, ["play", *args], input=input)
    assert "Traceback" not in res.output, res.output
    return res


def test_one_turn_screen_without_colour(tmp_path, snapshot):
    rec = tmp_path / "t.jsonl"
    res = run("texas42", "--seed", "5", "--seat", "South", "--record", str(rec),
              input="pass\n1\n1\nquit\n")
    assert res.exit_code == 0, res.output
    assert "\x1b[" not in res.output
    assert res.output.replace(str(rec), "GAME.jsonl") == snapshot


def test_names_and_refusals_are_read_generously(tmp_path):
    rec = tmp_path / "t.jsonl"
    res = run("texas42", "--seed", "3", "--seat", "South", "--record", str(rec),
              input="help\nBID   29\nfrobnicate\n99\n\u00b2\npass\nquit\n")
    assert "choose by number or by name: 1) pass" in res.output
    assert "not allowed: " in res.output
    assert "'frobnicate' is not a choice" in res.output
    assert "there is no choice 99" in res.output
    assert "'\u00b2' is not a choice" in res.output  # a digit to isdigit(), not to int()
    assert "South (you)  pass" in res.output


@pytest.mark.parametrize("seat", ["Nobody", "\u00b2"])  # ²: a digit to isdigit(), not to int()
def test_unknown_seat_is_a_one_line_error(seat):
    res = run("texas42", "--seat", seat)
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == [
        f"error: no seat '{seat}' in texas42: the seats are 0 North, 1 East, 2 South, 3 West"]


def test_a_misspelt_seat_gets_a_did_you_mean():
    res = run("taroky", "--seat", "Weast")
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == [
        "error: no seat 'Weast' in taroky: the seats are 0 North, 1 East, 2 South, 3 West "
        "(did you mean 'West'?)"]


def test_resume_of_another_ruleset_is_a_one_line_error(tmp_path):
    rec = tmp_path / "t.jsonl"
    run("texas42", "--seed", "3", "--record", str(rec), input="quit\n")
    res = run("allfives", "--resume", str(rec))
    assert res.exit_code == 2
    assert res.output.strip() == f"error: {rec} is a game of texas42, not of allfives"
    missing = run("--resume", str(tmp_path / "none.jsonl"))
    assert missing.exit_code == 2 and missing.output.startswith("error: no record")


def test_end_of_input_quits_with_the_record_kept(tmp_path):
    rec = tmp_path / "t.jsonl"
    res = run("moon", "--seed", "1", "--record", str(rec), input="1\n")
    assert res.exit_code == 0
    assert f"game saved to {rec}; continue with: tablerules play --resume {rec}" in res.output


def test_pieces_are_read_in_sensible_spellings():
    import random

    from tablerules.game import load_game
    from tablerules.play.choose import resolve
    g = load_game("texas42")
    st = g.new_hand([["6-4", "5-5", "5-0", "4-4", "3-3", "2-2", "1-1"],
                     ["5-3", "6-6", "6-2", "4-1", "3-2", "2-0", "1-0"],
                     ["6-5", "6-3", "6-1", "4-3", "4-2", "3-1", "0-0"],
                     ["5-4", "5-2", "5-1", "6-0", "4-0", "3-0", "2-1"]], dealer=3)
    legal = st.legal_actions()
    assert resolve(st, "  BID   31 ", legal) == (g.definition.string_to_action("bid 31"), None)
    for a in ("bid 30", "pass", "pass", "pass", "trump 6"):
        st.apply_action(g.definition.string_to_action(a))
    legal = st.legal_actions()
    assert resolve(st, "4-6", legal) == (g.definition.string_to_action("6-4"), None)
    assert resolve(st, "5-3", legal) == (None, "you do not hold the 5-3")
    cards = load_game("taroky")
    st = cards.new_match()
    st.deal_random(random.Random(1))
    gd = cards.definition
    held = gd.mask_pieces(st.hands[st.actor])
    card = next(p for p in held if not gd.pieces.attrs["trump"][p])
    face, suit = gd.pieces.attrs["face"][card], gd.pieces.attrs["suit"][card]
    for text in (gd.pieces.names[card], f"{face} {suit}", f"{face}{suit[0]}".upper()):
        a, why = resolve(st, text, st.legal_actions())
        assert a is None and why is not None and "is not a choice" not in why, text


def test_every_shipped_ruleset_plays_from_the_ruleset_alone(tmp_path):
    from tablerules.load.ruleset import builtin_names
    for name in builtin_names():
        rec = tmp_path / f"{name}.jsonl"
        res = run(name, "--seed", "1", "--record", str(rec), input="1\n1\nquit\n")
        assert res.exit_code == 0, (name, res.output)
        assert "your pieces: " in res.output and "choices: 1) " in res.output, name
        assert f"game saved to {rec}" in res.output, name


def test_a_record_through_a_link_or_gzipped_is_written_whole_there(tmp_path):
    """The record is replaced whole after every decision (a part file moved over it): through a
    link, the link's target is written and the link stays (it was replaced by a file); named
    .gz, it is gzip (the part file had no .gz name, so it was plain text under a .gz name).
    Either replays."""
    from support import cli

    (tmp_path / "link.jsonl").symlink_to("target.jsonl")
    for name in ("link.jsonl", "t.jsonl.gz"):
        res = run("texas42", "--seed", "3", "--record", str(tmp_path / name), input="1\nquit\n")
        assert res.exit_code == 0, res.output
        r = cli("replay", str(tmp_path / name), "-q")
        assert r.exit_code == 0, r.output
    assert (tmp_path / "link.jsonl").is_symlink() and (tmp_path / "target.jsonl").is_file()
    assert (tmp_path / "t.jsonl.gz").read_bytes()[:2] == b"\x1f\x8b"
    assert not [p.name for p in tmp_path.iterdir() if ".part" in p.name or ".tmp" in p.name]


def test_a_new_game_never_writes_over_a_saved_one(tmp_path):
    """The same command again (the default record is RULESET-SEED.play.jsonl) was a new game
    written over the saved one: it is refused, naming --resume, and the record is kept."""
    rec = tmp_path / "t.jsonl"
    assert run("texas42", "--seed", "3", "--record", str(rec), input="1\nquit\n").exit_code == 0
    saved = rec.read_bytes()
    res = run("texas42", "--seed", "3", "--record", str(rec), input="quit\n")
    assert res.exit_code == 2
    assert res.output.strip() == (f"error: {rec} holds a game already: continue it with "
                                  f"tablerules play --resume {rec}, or give --record FILE for "
                                  "a new one")
    assert rec.read_bytes() == saved


@pytest.mark.parametrize("people", [2, 4])
def test_resume_of_a_game_that_is_not_one_persons_is_a_one_line_error(tmp_path, people):
    """A header whose agents name `person` on two seats or four (it was a traceback; on none,
    the record is not one `play` wrote, as before)."""
    import json

    rec = tmp_path / "t.jsonl"
    run("texas42", "--seed", "3", "--record", str(rec), input="quit\n")
    lines = rec.read_text().splitlines()
    head = json.loads(lines[0])
    head["agents"] = ["person"] * people + ["rules"] * (4 - people)
    rec.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    res = run("--resume", str(rec))
    assert res.exit_code == 2, res.output
    assert res.output.strip() == (f"error: {rec} is not a game one person played: its header "
                                  f"names the agent person on {people} seats, not one")


def test_resume_of_a_damaged_record_says_where_as_replay_does(tmp_path):
    """A line of the record that is not JSON: the file, line and column with the line quoted,
    exit 1 (a record's error), as replay says it; it was the message alone, exit 2."""
    from support import cli

    rec = tmp_path / "t.jsonl"
    run("texas42", "--seed", "3", "--record", str(rec), input="1\nquit\n")
    lines = rec.read_text().splitlines()
    lines[1] = "garbage"
    rec.write_text("\n".join(lines) + "\n")
    res = run("--resume", str(rec))
    assert res.exit_code == 1, res.output
    said = f"{rec}:2:1: error: not JSON: Expecting value\n    garbage\n    ^"
    assert res.output.strip() == said
    assert cli("replay", str(rec)).stderr.strip() == said


@pytest.mark.parametrize("was, now", [('"games":1,', '"games":1.5,'),
                                      ('"seed":3,', '"seed":"3",'),
                                      ('"type":"header",', '"type":"header","extra":1,')])
def test_resume_reads_the_header_as_replay_does(tmp_path, was, now):
    """A header replay refuses (a count that is no integer, a field it does not know) is
    refused by resume too, with replay's words, and the record is kept: resume took it and wrote
    it back changed."""
    from support import cli

    rec = tmp_path / "t.jsonl"
    run("texas42", "--seed", "3", "--record", str(rec), input="1\nquit\n")
    text = rec.read_text()
    assert text.count(was) == 1
    rec.write_text(text.replace(was, now))
    damaged = rec.read_bytes()
    said = cli("replay", str(rec)).stderr.strip()
    assert said.startswith(f"{rec}:1:1: error: the header line")
    res = run("--resume", str(rec), input="quit\n")
    assert res.exit_code == 1, res.output
    assert res.output.strip() == said
    assert rec.read_bytes() == damaged


def test_resume_says_the_line_of_an_action_that_does_not_play(tmp_path):
    """An action of the record that is not legal where it comes: file:line of its hand line,
    the line quoted, exit 1 (it was the message alone, with no place)."""
    import json

    rec = tmp_path / "t.jsonl"
    run("texas42", "--seed", "3", "--seat", "South", "--record", str(rec),
        input="pass\n1\nquit\n")
    lines = rec.read_text().splitlines()
    partial = json.loads(lines[2])
    assert partial["type"] == "partial" and len(partial["actions"]) > 2
    partial["actions"][1] = "zzz"
    lines[2] = json.dumps(partial, separators=(",", ":"))
    rec.write_text("\n".join(lines) + "\n")
    res = run("--resume", str(rec), input="quit\n")
    assert res.exit_code == 1, res.output
    head, quoted, caret = res.output.strip().splitlines()
    assert head == f"{rec}:3:1: error: the record's action 'zzz' is not legal there"
    assert quoted.startswith('    {"type":"partial"') and caret == "    ^"


@pytest.mark.parametrize("where", ["nowhere/t.jsonl", "folder"])
def test_a_record_that_cannot_be_written_is_said_before_the_game(tmp_path, where):
    """--record in a folder that is not there, or a folder: README's line for a failed write,
    `error: cannot write PATH: reason`, exit 1, as simulate --record says it, before the game
    (it was another wording, exit 2, and after the game's first line)."""
    (tmp_path / "folder").mkdir()
    rec = tmp_path / where
    res = run("allfives", "--seed", "1", "--record", str(rec), input="1\nquit\n")
    assert res.exit_code == 1, res.output
    why = "No such file or directory" if where != "folder" else "Is a directory"
    assert res.output == f"error: cannot write {rec}: {why}\n"
