"""`tablerules replay`: a record from `simulate --record` replays for every built-in ruleset, its
readable account, `--game N`, and the rejection of tampered records with the line and the reason.

Also `tablerules diff`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tablerules.errors import RecordError
from tablerules.load.ruleset import builtin_names
from tablerules.records.replay import replay

from support import cli

NAMES = builtin_names()
# Moon's uniformly random bidders never finish a match (the CLI says so and suggests cautious)
AGENTS = {"moon": "cautious"}
LOCATED = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.+)$", re.M)


def record(tmp: Path, name: str, games: int = 2, seed: int = 5, file: str = "game.jsonl") -> Path:
    path = tmp / file
    r = cli("simulate", name, "--games", str(games), "--seed", str(seed), "--record", str(path),
            "--record-detail", "full", "--agents", AGENTS.get(name, "random"), "--no-progress")
    assert r.exit_code == 0, r.output
    assert path.is_file()
    return path


def read(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def write(path: Path, lines: list[dict]) -> None:
    path.write_text("".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines),
                    encoding="utf-8")


# -- every built-in ruleset replays --------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_a_simulated_record_replays(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = record(tmp_path, name)
    r = cli("replay", "game.jsonl")
    assert r.exit_code == 0, r.output
    assert r.stderr == ""
    assert "Game 1" in r.stdout and "Game 2" in r.stdout
    q = cli("replay", "game.jsonl", "--quiet")
    assert q.exit_code == 0 and q.stdout.strip() == "game.jsonl: ok (2 games verified)"

    result = replay(str(path))
    lines = read(path)
    assert result.header == lines[0]
    matches = [x for x in lines if x["type"] == "match"]
    assert [g.number for g in result.games] == [1, 2]
    assert [(g.score, g.winner) for g in result.games] == [(m["score"], m["winner"]) for m in matches]


def test_replay_readable_output_snapshot(tmp_path, monkeypatch, snapshot):
    monkeypatch.chdir(tmp_path)
    record(tmp_path, "texas42", games=1, seed=7)
    r = cli("replay", "game.jsonl")
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.stdout and "error" not in r.stdout
    assert r.stdout == snapshot


def test_replay_game_option_selects_one_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    record(tmp_path, "texas42", games=3, seed=2)
    full = cli("replay", "game.jsonl").stdout
    for n in (1, 2, 3):
        r = cli("replay", "game.jsonl", "--game", str(n))
        assert r.exit_code == 0, r.output
        games = re.findall(r"^Game (\d+)$", r.stdout, re.M)
        assert games == [str(n)]
        # the selected game's account is the same as in the full replay
        body = r.stdout.split(f"Game {n}\n", 1)[1]
        assert body.strip() in full
    assert replay(str(tmp_path / "game.jsonl"), only_game=2).games[0].number == 2
    for quiet in ((), ("-q",)):  # a game the record does not hold: the asking is at fault
        r = cli("replay", "game.jsonl", "--game", "4", *quiet)  # (it was exit 1, as a record's)
        assert r.exit_code == 2 and r.stdout == "", r.output
        assert r.stderr == "error: --game 4: game.jsonl holds games 1 to 3\n"  # what to ask for


def test_replay_game_option_still_verifies_every_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = record(tmp_path, "texas42", games=2, seed=2)
    lines = read(path)
    # tamper with game 2 and ask for game 1 only
    i = max(i for i, x in enumerate(lines) if x["type"] == "trick")
    lines[i]["points"] += 1
    write(path, lines)
    r = cli("replay", "game.jsonl", "--game", "1")
    assert r.exit_code == 1
    assert f"game.jsonl:{i + 1}:1: error:" in r.stderr


# -- tampering -----------------------------------------------------------------------------------


def piece_suit(piece: str, trump) -> int | str:
    """The suit a piece leads in a trump contract of texas42 (rule text 000)."""
    a, b = (int(x) for x in piece.split("-"))
    if trump == "doubles":
        if a == b:
            return "doubles"
    elif trump in (a, b):
        return trump
    return max(a, b)


def walk(lines: list[dict]):
    """Yield (index, line, hands, contract) with each seat's hand before the line."""
    hands: dict[int, set[str]] = {}
    contract = None
    for i, x in enumerate(lines):
        yield i, x, hands, contract
        t = x["type"]
        if t == "deal":
            hands = {s: set(h) for s, h in enumerate(x["dealt"])}
            contract = None
        elif t == "contract":
            contract = x
        elif t == "decision" and x["action"] in hands.get(x["seat"], set()):
            hands[x["seat"]].discard(x["action"])


@pytest.fixture
def texas(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = record(tmp_path, "texas42", games=3, seed=21)
    return path, read(path)


def rejected(path: Path, lines: list[dict], line_no: int, *reasons: str):
    write(path, lines)
    r = cli("replay", path.name)
    assert r.exit_code == 1, r.output
    m = LOCATED.search(r.stderr)
    assert m, r.stderr
    assert m["file"] == path.name
    assert int(m["line"]) == line_no and m["col"] == "1", r.stderr
    for reason in reasons:
        assert re.search(reason, m["msg"]), (reason, m["msg"])
    with pytest.raises(RecordError) as e:
        replay(str(path))
    assert e.value.span.line == line_no
    return m["msg"]


def test_an_illegal_play_names_the_suit_of_the_piece_and_the_suit_led(texas):
    path, lines = texas
    found = None
    for i, x, hands, contract in walk(lines):
        if (x["type"] == "decision" and contract and contract["contract"] in ("points", "marks")
                and x["action"] in hands.get(x["seat"], ())):
            others = sorted(hands[x["seat"]] - set(x["legal"]))
            if others:
                found = (i, x, others[0], contract)
                break
    assert found, "no forced follow in the record"
    i, x, piece, contract = found
    trump = contract["declarations"]["trump"]
    led = next(t for t in lines[i:] if t["type"] == "trick")["led"]
    lines[i] = dict(x, action=piece)
    # the suits by texas42's names for them (display.suits), as play says them: it said "2 was led"
    said = dict(enumerate(["blanks", "aces", "deuces", "treys", "fours", "fives", "sixes"]),
                doubles="doubles")
    msg = rejected(path, lines, i + 1, re.escape(piece),
                   rf"belongs to suit {said[piece_suit(piece, trump)]}\b", rf"\b{said[led]} was led")
    for follower in x["legal"]:
        assert follower in msg  # it names the pieces that would have followed


def test_a_piece_not_in_hand(texas):
    path, lines = texas
    for i, x, hands, contract in walk(lines):
        if x["type"] == "decision" and x["action"] in hands.get(x["seat"], ()):
            other = sorted(hands[(x["seat"] + 1) % 4])[0]
            lines[i] = dict(x, action=other)
            rejected(path, lines, i + 1, re.escape(other), "does not hold")
            return
    raise AssertionError("no play in the record")


def test_a_wrong_trick_winner(texas):
    path, lines = texas
    i = next(i for i, x in enumerate(lines) if x["type"] == "trick")
    right = lines[i]["winner"]
    wrong = next(s for s, _ in lines[i]["plays"] if s != right)
    lines[i] = dict(lines[i], winner=wrong)
    rejected(path, lines, i + 1, "winner", rf"\b{wrong}\b", rf"\b{right}\b")


def test_a_changed_trick_points_value(texas):
    path, lines = texas
    i = [i for i, x in enumerate(lines) if x["type"] == "trick"][2]
    lines[i] = dict(lines[i], points=lines[i]["points"] + 10)
    rejected(path, lines, i + 1, "points")


@pytest.mark.parametrize("key", ["score", "scored"])
def test_a_changed_hand_score_or_scored(texas, key):
    path, lines = texas
    i = next(i for i, x in enumerate(lines) if x["type"] == "hand" and not x.get("thrown_in"))
    lines[i] = dict(lines[i], **{key: [v + 1 for v in lines[i][key]]})
    rejected(path, lines, i + 1, key)


def test_a_changed_match_result(texas):
    path, lines = texas
    i = next(i for i, x in enumerate(lines) if x["type"] == "match")
    lines[i] = dict(lines[i], winner=[1 - lines[i]["winner"][0]])
    rejected(path, lines, i + 1, "winner")


def test_a_changed_legal_list(texas):
    path, lines = texas
    i = next(i for i, x in enumerate(lines) if x["type"] == "decision" and len(x["legal"]) > 2)
    x = lines[i]
    dropped = next(a for a in x["legal"] if a != x["action"])
    lines[i] = dict(x, legal=[a for a in x["legal"] if a != dropped])
    rejected(path, lines, i + 1, "legal actions offered", re.escape(dropped))


def test_a_decision_by_the_wrong_seat(texas):
    path, lines = texas
    i = next(i for i, x in enumerate(lines) if x["type"] == "decision")
    x = lines[i]
    wrong = (x["seat"] + 1) % 4
    seats = read(path)[0]["seats"]
    lines[i] = dict(x, seat=wrong)
    rejected(path, lines, i + 1, seats[wrong], seats[x["seat"]], "turn")


def test_a_decision_that_is_no_action_of_the_game(texas):
    path, lines = texas
    i = next(i for i, x in enumerate(lines) if x["type"] == "decision")
    lines[i] = dict(lines[i], action="bid 99")
    rejected(path, lines, i + 1, "bid 99")


@pytest.mark.parametrize("keep", [0.3, 0.6, -1])
def test_a_truncated_record(texas, keep):
    path, lines = texas
    n = len(lines) - 1 if keep == -1 else int(len(lines) * keep)
    # the error is at the end of the record: the line after the last one
    rejected(path, lines[:n], n + 1, "end|ends")


def test_a_changed_deal_is_caught_at_the_deal_line(texas):
    # a deal line is the chance outcome the engine replays, and the game's seed deals it: swapping
    # two pieces between North and East is caught at the deal line, naming the seat's pieces
    path, lines = texas
    i = next(i for i, x in enumerate(lines) if x["type"] == "deal")
    hands = [list(h) for h in lines[i]["dealt"]]
    a, b = hands[0][0], hands[1][0]
    hands[0][0], hands[1][0] = b, a
    lines[i] = dict(lines[i], dealt=hands)
    msg = rejected(path, lines, i + 1, "seed", "North")
    assert a in msg and b in msg


def test_a_changed_ruleset_hash(texas):
    path, lines = texas
    lines[0] = dict(lines[0], ruleset_hash="sha256:0123456789abcdef")
    rejected(path, lines, 1, "different", "sha256:0123456789abcdef")


@pytest.mark.parametrize("option, value", [("min_bid", 32), ("nello_doubles", "low"),
                                           ("marks_to_win", 21)])
def test_changed_header_options_are_rejected_at_the_header(texas, option, value):
    # The header names the options the games were played with (and its canonical name lists
    # those that differ from the defaults); options the games were not played with are a
    # tampered header, to be reported at the header line and not as some later line's mistake.
    path, lines = texas
    lines[0] = dict(lines[0], options=dict(lines[0]["options"], **{option: value}))
    rejected(path, lines, 1, option)


def test_a_record_that_is_not_json(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = record(tmp_path, "texas42", games=1, seed=3)
    text = path.read_text().splitlines()
    text[4] = text[4][:-5]
    path.write_text("\n".join(text) + "\n")
    r = cli("replay", path.name)
    assert r.exit_code == 1
    assert re.search(r"^game\.jsonl:5:\d+: error: not JSON", r.stderr, re.M)


# -- diff ----------------------------------------------------------------------------------------


def test_diff_tournament_and_hall(snapshot, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    r = cli("diff", "texas42-tournament", "texas42-hall")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert out.startswith("--- texas42-tournament\n+++ texas42-hall\n")
    # options: the hall's own and the ones whose values or allowed values differ
    for opt in ("splash", "plunge", "marks_to_win", "min_bid", "all_pass", "nello", "sevens"):
        assert re.search(rf"^  {opt}: ", out, re.M), opt
    # rules: the contracts the hall adds and the parts it changes
    assert re.search(r"^  contracts\.splash \(added\)$", out, re.M)
    assert re.search(r"^  contracts\.plunge \(added\)$", out, re.M)
    assert re.search(r"^  auction\.beats \(changed\)$", out, re.M)
    assert re.search(r"^  contracts\.points\.play\.lead \(changed\)$", out, re.M)
    assert "Traceback" not in out
    assert out == snapshot
    j = cli("diff", "texas42-tournament", "texas42-hall", "--format", "json")
    d = json.loads(j.stdout)
    assert d["same"] is False and {o["option"] for o in d["options"]} >= {"splash", "plunge"}


def test_diff_of_a_ruleset_with_itself():
    r = cli("diff", "texas42", "texas42")
    assert r.exit_code == 0
    assert r.stdout.strip() == "texas42 and texas42 play the same rules"
    j = json.loads(cli("diff", "texas42", "texas42", "--format", "json").stdout)
    assert j["same"] is True and j["options"] == [] and j["parts"] == []


def test_diff_options_apply_to_both_sides():
    r = cli("diff", "texas42", "texas42", "--option", "min_bid=32")
    assert r.exit_code == 0
    assert "play the same rules" in r.stdout
