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


def test_a_match_that_never_ends_says_the_record_was_kept(tmp_path):
    """A match stopped by the bound on hands (its target cannot be reached) ended play with the
    error alone, exit 1: the error is said as simulate says it, at the ruleset's line, then where
    the game so far is kept and how to watch it; the record verifies."""
    from support import cli

    rules = tmp_path / "never.yaml"
    rules.write_text('name: never\nextends: texas42\nscoring:\n  match_over: "false"\n'
                     "bounds:\n  max_hands: 2\n", encoding="utf-8")
    rec = tmp_path / "n.jsonl"
    res = run(str(rules), "--seed", "1", "--record", str(rec), input="1\n" * 200)
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output
    lines = res.stderr.splitlines()
    assert lines[0] == (f"{rules}:4:15: error: the match did not end within 2 deals "
                        "(bounds.max_hands)"), res.stderr
    assert lines[-1] == (f"the game so far is kept in {rec}; replay it with: tablerules replay "
                         f"{rec}"), res.stderr
    q = cli("replay", "-q", str(rec))
    assert q.exit_code == 0 and "interrupted" in q.stdout, q.output


def test_a_declaration_asked_of_each_seat_is_shown_by_its_own_name(tmp_path):
    """Taroky asks each seat in turn for Pagat and contra, each seat's its own declaration
    (pagat_2, contra_3): play's choices, the moves it echoes and replay's account said those
    per-seat names; they say the name the ruleset gives people (display.declarations: pagat,
    contra), which the person may also answer with, and the record keeps the declarations'."""
    import json
    import re

    from support import cli

    rec = tmp_path / "t.jsonl"
    # seed 2: the person's 22nd and 23rd answers are hand 2's pagat_4 and contra_3, answered by
    # the names shown
    res = run("taroky", "--seed", "2", "--record", str(rec),
              input="1\n" * 21 + "pagat back\ncontra contra\n" + "1\n" * 30 + "quit\n")
    assert res.exit_code == 0, res.output
    assert "choices: 1) pagat silent  2) pagat back" in res.output
    assert "choices: 1) contra no  2) contra contra" in res.output
    assert "not allowed" not in res.output and "not a choice" not in res.output, res.output
    assert ">   North (you)  pagat back" in res.output
    assert ">   North (you)  contra contra" in res.output
    assert "pagat back, contra contra" in res.output  # the bar's declarations
    shown = cli("replay", str(rec)).stdout
    for text in (res.output, shown):
        assert not re.search(r"\b(pagat|contra)_\d", text), text
    assert re.search(r"^  West   pagat silent$", shown, re.M)
    assert '"pagat_4 back"' in rec.read_text(encoding="utf-8")  # the record's action
    page = tmp_path / "t.html"  # the HTML replay: its calls, words and bar alike
    assert cli("replay", str(rec), "--html", str(page)).exit_code == 0
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>',
                                page.read_text(encoding="utf-8"), re.S).group(1))
    assert data["meta"]["decl_names"]["pagat_4"] == "pagat"  # the bar's names for them
    hands = data["games"][0]["hands"]
    calls = [c[1] for h in hands for c in h["calls"]]
    assert "pagat back" in calls and not any(re.search(r"_\d", c) for c in calls), calls


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
    # as replay says it (the record is verified as replay verifies it before it is resumed)
    assert head == f'{rec}:3:1: error: "zzz" is not an action of this game'
    assert quoted.startswith('    {"type":"partial"') and caret == "    ^"
    from support import cli
    assert cli("replay", str(rec)).stderr.strip() == res.output.strip()


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


@pytest.mark.parametrize("ruleset, seed, answers", [("moon", "2", "pass\nquit\n"),
                                                     ("taroky", "2", "1\n" * 6 + "quit\n")])
def test_a_bots_bury_is_not_shown_to_the_person(tmp_path, ruleset, seed, answers):
    """A bot that takes the stock buries face down: the person saw which piece (`East bury
    3-1`), which no seat but the bot's may know; it is `bury (face down)`, as the agents'
    observations say it, and the record keeps the piece. The person's own bury is shown."""
    import json
    import re

    rec = tmp_path / "t.jsonl"
    res = run(ruleset, "--seed", seed, "--record", str(rec), input=answers)
    assert res.exit_code == 0, res.output
    bots = re.findall(r"^ +(\w+) +(bury .*)$", res.output, re.M)
    assert bots and all(said == "bury (face down)" for _, said in bots), bots
    buried = [a for line in rec.read_text().splitlines()
              for a in json.loads(line).get("actions", ()) if a.startswith("bury ")]
    assert len(buried) >= len(bots)


def test_the_commands_it_suggests_run_as_printed_with_a_space_in_the_path(tmp_path):
    """A record in a folder with a space: `continue with: tablerules play --resume my
    games/t.jsonl` did not run as printed (the shell splits the path); the path is quoted for
    the shell in each command play suggests, and the command printed resumes the game."""
    import shlex

    rec = tmp_path / "my games" / "it's.jsonl"
    rec.parent.mkdir()
    quoted = shlex.quote(str(rec))
    assert quoted != str(rec)
    res = run("texas42", "-o", "marks_to_win=1", "--seed", "3", "--record", str(rec),
              input="1\nquit\n")
    said = f"game saved to {rec}; continue with: tablerules play --resume {quoted}"
    assert said in res.output
    again = run("texas42", "-o", "marks_to_win=1", "--seed", "3", "--record", str(rec))
    assert f"continue it with tablerules play --resume {quoted}, or" in again.output
    command = shlex.split(said.split("continue with: ")[1])
    assert command[:3] == ["tablerules", "play", "--resume"]
    done = run(*command[2:], input="1\n" * 60)
    assert done.exit_code == 0, done.output
    assert f"replay it with: tablerules replay {quoted}" in done.output


@pytest.mark.parametrize("given, said", [
    (("--seed", "4"), "--seed 4: {rec} is the game of seed 3"),
    (("--seat", "West"), "--seat West: in {rec} you are South"),
    (("--seat", "3"), "--seat 3: in {rec} you are South"),
    (("--agents", "random"), "--agents random: the bots of {rec} are North rules, East rules, "
                             "West rules"),
    (("-o", "min_bid=31"), "--option min_bid=31: {rec} is a game with min_bid=30"),
    (("texas42", "-o", "min_bid=31"), "--option min_bid=31: {rec} is a game with min_bid=30"),
])
def test_resume_refuses_a_choice_that_is_not_the_records(tmp_path, given, said):
    """--resume with another --seed, --seat, --agents or --option than the record's: they were
    ignored without a word (asked for West, the person sat South); a one-line error, exit 2,
    and the record is kept. The record's own ones, given again, are accepted."""
    rec = tmp_path / "t.jsonl"
    first = ("texas42", "--seed", "3", "--seat", "South", "--record", str(rec))
    assert run(*first, input="pass\nquit\n").exit_code == 0
    saved = rec.read_bytes()
    res = run(*given, "--resume", str(rec), input="quit\n")
    assert res.exit_code == 2, res.output
    assert res.output.strip() == (f"error: {said.format(rec=rec)}; --resume plays the game as "
                                  "its record has it (leave the option out)")
    assert rec.read_bytes() == saved
    again = run(*first[:-2], "--agents", "rules", "-o", "min_bid=30", "--seat", "2",
                "--resume", str(rec), input="quit\n")
    assert again.exit_code == 0, again.output
    assert "you are South" in again.output


def test_resume_never_writes_over_another_saved_game(tmp_path):
    """--resume A --record B, B a record there already (another game, a finished one): B was
    written over without a word; it is refused as a new game's --record is, and B is kept.
    --record naming A itself (another spelling of its path) is A."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert run("texas42", "--seed", "3", "--record", str(a), input="quit\n").exit_code == 0
    assert run("texas42", "--seed", "4", "--record", str(b), input="quit\n").exit_code == 0
    kept = b.read_bytes()
    res = run("--resume", str(a), "--record", str(b), input="quit\n")
    assert res.exit_code == 2, res.output
    assert res.output.strip() == (f"error: {b} holds a game already: give --record a new "
                                  f"file, or leave it out to continue in {a}")
    assert b.read_bytes() == kept
    same = run("--resume", str(a), "--record", str(tmp_path / "." / "a.jsonl"), input="quit\n")
    assert same.exit_code == 0, same.output
    moved = run("--resume", str(a), "--record", str(tmp_path / "c.jsonl"), input="quit\n")
    assert moved.exit_code == 0 and (tmp_path / "c.jsonl").is_file()


@pytest.mark.parametrize("ruleset, answers", [("texas42", "quit\n"), ("texas42", "pass\n1\nquit\n"),
                                              ("moon", "pass\n1\nquit\n")])
def test_resume_shows_the_hand_so_far(tmp_path, ruleset, answers):
    """Resumed, the person saw the turn's screen and nothing of the hand before it: not the bid
    to beat nor who made it (the bar names no bidder while the auction is on), nor the trump's
    caller, nor the bots' plays; the hand in progress is told again as it was the first time,
    so the resumed game reads as the game left off."""
    import re

    def told(text: str) -> list[str]:  # the hand's story: its deal line and each move's line
        lines = [re.sub(r"^(> )+", "", ln) for ln in text.splitlines()]
        return [ln for ln in lines if re.match(r"(Hand \d|  \S)", ln)]

    rec = tmp_path / "t.jsonl"
    first = run(ruleset, "--seed", "5", "--seat", "2", "--record", str(rec), input=answers)
    assert first.exit_code == 0, first.output
    story = told(first.output)
    story = story[max(i for i, ln in enumerate(story) if ln.startswith("Hand ")):]
    assert len(story) > 1
    res = run("--resume", str(rec), input="quit\n")
    assert res.exit_code == 0, res.output
    before, screen = res.output.split("\n--- hand ", 1)
    assert told(before.split("you are", 1)[1]) == story


def test_resume_keeps_the_records_ruleset_path_relative(tmp_path, monkeypatch):
    """A game of a ruleset file beside its record names it from the record's folder (`our
    hall.yaml`), so the folder can move. Resumed by the record's full path, the header was
    rewritten with the ruleset's full path: the record changed with nothing played, and the
    moved folder's record no longer found its ruleset. The header is kept as it was."""
    import json

    from support import cli

    games = tmp_path / "games"
    games.mkdir()
    (games / "our hall.yaml").write_text(
        "name: ourhall\ntitle: Our hall\nextends: texas42-tournament\nset:\n  min_bid: 31\n",
        encoding="utf-8")
    monkeypatch.chdir(games)
    assert run("our hall.yaml", "--seed", "3", "--record", "t.jsonl",
               input="1\nquit\n").exit_code == 0
    saved = (games / "t.jsonl").read_bytes()
    assert json.loads(saved.splitlines()[0])["source"] == "our hall.yaml"
    monkeypatch.chdir(tmp_path)
    res = run("--resume", str(games / "t.jsonl"), input="quit\n")
    assert res.exit_code == 0, res.output
    assert (games / "t.jsonl").read_bytes() == saved
    elsewhere = tmp_path / "moved" / "b.jsonl"  # --record in another folder: named from there
    elsewhere.parent.mkdir()
    res = run("--resume", str(games / "t.jsonl"), "--record", str(elsewhere), input="quit\n")
    assert res.exit_code == 0, res.output
    head = json.loads(elsewhere.read_text(encoding="utf-8").splitlines()[0])
    assert head["source"] == "../games/our hall.yaml"
    (tmp_path / "games").rename(tmp_path / "kept")
    r = cli("replay", "-q", str(tmp_path / "kept" / "t.jsonl"))
    assert r.exit_code == 0, r.output


def test_the_contract_line_is_said_as_replay_says_it(tmp_path):
    """A game with no auction (All Fives) told its contract as `contract: layout (none)` and
    replay as `contract: layout (no auction)`; Taroky's `contract: game (game) by North`: the
    person sees the line replay prints for the same hand."""
    import re

    from support import cli

    for ruleset, answers in (("allfives", "quit\n"), ("taroky", "1\n" * 7 + "quit\n"),
                             ("texas42", "pass\nquit\n")):
        rec = tmp_path / f"{ruleset}.jsonl"
        res = run(ruleset, "--seed", "2", "--record", str(rec), input=answers)
        assert res.exit_code == 0, res.output
        said = re.findall(r"^(?:> )*(  contract: .*)$", res.output, re.M)
        printed = re.findall(r"^(  contract: .*)$", cli("replay", str(rec)).stdout, re.M)
        assert said and said == printed[:len(said)], (ruleset, said, printed)


def test_the_suit_led_is_said_as_replay_says_it(tmp_path):
    """play said `trick 2, deuces led` (the ruleset's display.suits) where replay said `trick 2,
    2 led`: both say it by the suit's name (one function), so each trick the person saw led is
    said so in the record's replay, in the same order. Taroky's suits have no names but
    taroks': said by their value in both."""
    import re

    from support import cli

    for ruleset in ("texas42", "taroky"):
        rec = tmp_path / f"{ruleset}.jsonl"
        res = run(ruleset, "--seed", "3", "--record", str(rec), input="1\n" * 60 + "quit\n")
        assert res.exit_code == 0, res.output
        screens = re.findall(r"(trick \d+, .+? led)", res.output)  # a trick on each turn in it
        seen = [m for i, m in enumerate(screens) if i == 0 or m != screens[i - 1]]
        printed = re.findall(r"^  (trick \d+, .+? led)", cli("replay", str(rec)).stdout, re.M)
        assert len(seen) >= 5, (ruleset, seen)
        rest = iter(printed)
        assert all(m in rest for m in seen), (ruleset, seen, printed)  # in order
        if ruleset == "texas42":
            assert not any(re.search(r", \d led", m) for m in printed), printed


def test_help_says_seats_are_numbered_from_0(tmp_path):
    """`--seat 1` seats a person in the second seat (East), as records number seats; --help
    said only `by name or number (default the first)`, and a person who took 1 for the first
    seat found themselves East."""
    res = CliRunner().invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    assert "by number from 0" in " ".join(res.output.split())
    assert "you are East" in run("texas42", "--seat", "1", "--seed", "1", "--record",
                                 str(tmp_path / "t.jsonl"), input="quit\n").output


def test_the_bar_shows_the_standing_bid_at_an_auction_turn(tmp_path):
    """East bid 36 before the person's turn in the auction: the bar showed no bid (README: it
    shows the bid and bidder); it shows the highest bid so far and who made it."""
    res = run("texas42", "--seed", "5", "--seat", "South", "--record", str(tmp_path / "t.jsonl"),
              input="quit\n")
    assert res.exit_code == 0, res.output
    bar = res.output.split("--- hand 1, auction: your turn, South ---\n", 1)[1].splitlines()[0]
    assert bar.endswith(" | bid 36 by East"), bar


def test_a_record_path_that_holds_another_file_is_not_called_a_game(tmp_path):
    """--record notes.txt, a file that is no record: refused (never written over), but the line
    said `notes.txt holds a game already: continue it with tablerules play --resume notes.txt`,
    which then failed; it says the file is there and is not a game play wrote."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    res = run("texas42", "--seed", "1", "--record", str(notes), input="quit\n")
    assert res.exit_code == 2, res.output
    assert res.output.strip() == (f"error: {notes} is there already and is not a game play "
                                  "wrote: give --record FILE for a new game")
    assert notes.read_text(encoding="utf-8") == "my notes\n"


def test_a_new_game_over_a_finished_one_says_to_replay_it(tmp_path):
    """The same command again after a game was played to its end: refused, as any saved game,
    but the line said `continue it with tablerules play --resume FILE`, which then says the
    game is over; it says to replay it."""
    rec = tmp_path / "t.jsonl"
    game = ("texas42", "-o", "marks_to_win=1", "--seed", "3", "--record", str(rec))
    assert "record written to" in run(*game, input="1\n" * 60).output
    res = run(*game, input="quit\n")
    assert res.exit_code == 2, res.output
    assert res.output.strip() == (f"error: {rec} holds a finished game: replay it with "
                                  f"tablerules replay {rec}, or give --record FILE for a new one")


def test_resume_of_a_finished_game_says_how_to_watch_it(tmp_path):
    """--resume of a game played to its end: said at its end line, exit 1, untested before; the
    line says the command that shows it (replay), quoted for the shell."""
    import shlex

    rec = tmp_path / "a game.jsonl"
    assert "record written to" in run("texas42", "-o", "marks_to_win=1", "--seed", "3",
                                      "--record", str(rec), input="1\n" * 60).output
    res = run("--resume", str(rec))
    assert res.exit_code == 1, res.output
    first = res.output.splitlines()[0]
    assert first == (f"{rec}:{len(rec.read_text().splitlines())}:1: error: the game in this "
                     "record is over: nothing to resume (watch it with tablerules replay "
                     f"{shlex.quote(str(rec))})")


@pytest.mark.parametrize("cut", ["end", "partial and end"])
def test_resume_of_a_cut_off_record_says_so_as_replay_does(tmp_path, cut):
    """A record that lost its last lines (play writes it whole: it was damaged after): resume
    started the game again from where the lines stopped without a word, the moves after lost;
    it says what replay says, at the line, exit 1, and the record is kept."""
    from support import cli

    rec = tmp_path / "t.jsonl"
    run("texas42", "--seed", "3", "--seat", "South", "--record", str(rec),
        input="pass\n1\nquit\n")
    lines = rec.read_text().splitlines()
    rec.write_text("\n".join(lines[:-1] if cut == "end" else lines[:-2]) + "\n")
    damaged = rec.read_bytes()
    r = cli("replay", str(rec))
    said = r.stderr.strip()
    assert r.exit_code == 1 and said.startswith(f"{rec}:"), said
    res = run("--resume", str(rec), input="quit\n")
    assert res.exit_code == 1, res.output
    assert res.output.strip() == said
    assert rec.read_bytes() == damaged


def test_the_persons_own_agents_entry_is_ignored_as_documented(tmp_path):
    """README and --help: `--agents` one per seat, `your seat's entry ignored`; it was read,
    so the record header's own list (`rules,random,person,random`) was refused as an unknown
    agent `person`, new game or --resume. It is ignored; the bots' entries are read as ever."""
    rec = tmp_path / "t.jsonl"
    res = run("texas42", "--seat", "South", "--seed", "3", "--agents", "rules,random,person,random",
              "--record", str(rec), input="quit\n")
    assert res.exit_code == 0, res.output
    assert "the others are North (rules), East (random), West (random)" in res.output
    again = run("--resume", str(rec), "--agents", "rules,random,person,random", input="quit\n")
    assert again.exit_code == 0, again.output
    bad = run("texas42", "--seat", "South", "--agents", "rules,random,person,bogus",
              "--record", str(tmp_path / "u.jsonl"))
    assert bad.exit_code == 2
    assert bad.output.splitlines()[1:] == ["    rules,random,person,bogus",
                                           "                        ^"]


def test_resume_to_a_record_that_is_a_folder_or_another_file_is_said_as_it_is(tmp_path):
    """--resume A --record B: B a folder was called `B holds a game already` (README: a record
    that cannot be written, a folder, is `error: cannot write B: reason`, exit 1), and B a file
    that is no record was said to hold a game too."""
    a = tmp_path / "a.jsonl"
    assert run("texas42", "--seed", "3", "--record", str(a), input="quit\n").exit_code == 0
    folder = tmp_path / "folder"
    folder.mkdir()
    res = run("--resume", str(a), "--record", str(folder), input="quit\n")
    assert res.exit_code == 1, res.output
    assert res.output == f"error: cannot write {folder}: Is a directory\n"  # and nothing else
    notes = tmp_path / "notes.txt"
    notes.write_text("mine\n", encoding="utf-8")
    res = run("--resume", str(a), "--record", str(notes), input="quit\n")
    assert res.exit_code == 2, res.output
    assert res.output.strip() == (f"error: {notes} is there already and is not a game play "
                                  f"wrote: give --record a new file, or leave it out to "
                                  f"continue in {a}")
    assert notes.read_text(encoding="utf-8") == "mine\n"


def test_resume_of_a_ruleset_says_it_is_one(tmp_path):
    """`play --resume our-hall.yaml`, the ruleset where the saved game goes: `not JSON: Expecting
    value`; it is said to be a ruleset, and that `play RULESET` starts a game of it (exit 1,
    as a record that cannot be read)."""
    import shlex

    ours = tmp_path / "our hall.yaml"
    ours.write_text("name: ourhall\ntitle: Our hall\nextends: texas42\n", encoding="utf-8")
    res = run("--resume", str(ours))
    assert res.exit_code == 1, res.output
    assert res.output == (f"{ours}: error: {ours} is a ruleset, not a saved game: `tablerules "
                          f"play {shlex.quote(str(ours))}` starts a game of it\n")


@pytest.mark.parametrize("ruleset, options", [("moon", ["-o", "target=7"]),
                                              ("allfives", ["-o", "target=61"])])
def test_a_game_quit_and_resumed_is_the_record_of_the_game_played_straight(tmp_path, ruleset,
                                                                           options):
    """Deterministic records: the same ruleset, options, agents, seed and answers give the same
    bytes whether the game was played straight through or quit twice and resumed (the bots'
    buries said face down, the hand retold, the header's ruleset kept as it was)."""
    straight, cut = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    game = (ruleset, *options, "--seed", "7", "--seat", "1")
    done = run(*game, "--record", str(straight), input="1\n" * 400)
    assert "record written to" in done.output, done.output
    assert run(*game, "--record", str(cut), input="1\n1\n1\nquit\n").exit_code == 0
    assert run("--resume", str(cut), input="1\n" * 5 + "quit\n").exit_code == 0
    assert "record written to" in run("--resume", str(cut), input="1\n" * 400).output
    assert cut.read_bytes() == straight.read_bytes()
