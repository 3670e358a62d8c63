"""A record is verified whole: every game its header promises, in order, each from its own seed
with the header's agents, and the header checked against what the games show."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from support import cli

LOCATED = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.+)$", re.M)


def record(tmp: Path, name: str = "texas42", games: int = 5, seed: int = 3,
           agents: str = "random") -> list[dict]:
    r = cli("simulate", name, "-n", str(games), "-s", str(seed), "-r", str(tmp / "rec.jsonl"),
            "--record-detail", "full", "--agents", agents, "--no-progress")
    assert r.exit_code == 0, r.output
    return [json.loads(x) for x in (tmp / "rec.jsonl").read_text(encoding="utf-8").splitlines()]


def write(tmp: Path, lines: list[dict]) -> None:
    (tmp / "rec.jsonl").write_text("".join(json.dumps(x, separators=(",", ":")) + "\n"
                                           for x in lines), encoding="utf-8")


def games_of(lines: list[dict]) -> list[list[dict]]:
    """Each game's lines, its game line first (the header and the end line left out)."""
    out: list[list[dict]] = []
    for x in lines[1:]:
        if x["type"] == "game":
            out.append([])
        if x["type"] != "end":
            out[-1].append(x)
    return out


def rejected(tmp: Path, lines: list[dict], *reasons: str, quiet: bool = True) -> tuple[int, str]:
    write(tmp, lines)
    r = cli("replay", "rec.jsonl", *(["-q"] if quiet else []))
    assert r.exit_code == 1, r.output
    assert "ok (" not in r.stdout
    m = LOCATED.search(r.stderr)
    assert m and m["file"] == "rec.jsonl", r.stderr
    for reason in reasons:
        assert re.search(reason, m["msg"]), (reason, m["msg"])
    return int(m["line"]), m["msg"]


@pytest.fixture
def tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_whole_record_verifies(tmp):
    lines = record(tmp)
    assert lines[-1] == {"type": "end", "games": 5}
    r = cli("replay", "rec.jsonl", "-q")
    assert r.exit_code == 0 and r.stdout.strip() == "rec.jsonl: ok (5 games verified)"


def test_a_record_cut_after_its_fourth_game_is_rejected(tmp):
    lines = record(tmp)
    head, games = lines[0], games_of(lines)
    for kept in ([head] + [x for g in games[:4] for x in g],
                 [head] + [x for g in games[:4] for x in g] + [{"type": "end", "games": 4}]):
        rejected(tmp, kept, r"4 .*games?|promises 5")


def test_a_header_alone_is_rejected(tmp):
    lines = record(tmp)
    n, msg = rejected(tmp, lines[:1], "0 of the 5 games|promises 5")
    assert n == 2


def test_swapped_games_are_rejected(tmp):
    lines = record(tmp)
    games = games_of(lines)
    games[1], games[2] = games[2], games[1]
    rejected(tmp, [lines[0]] + [x for g in games for x in g] + [lines[-1]], "game 3 where game 2")


def test_swapped_games_renumbered_are_rejected(tmp):
    lines = record(tmp)
    games = games_of(lines)
    games[1], games[2] = games[2], games[1]
    games[1][0] = dict(games[1][0], game=2)
    games[2][0] = dict(games[2][0], game=3)
    rejected(tmp, [lines[0]] + [x for g in games for x in g] + [lines[-1]], "seed")


def test_a_duplicated_game_is_rejected(tmp):
    lines = record(tmp)
    games = games_of(lines)
    games[2] = [dict(games[1][0], game=3, seed=games[2][0]["seed"])] + games[1][1:]
    rejected(tmp, [lines[0]] + [x for g in games for x in g] + [lines[-1]], "seed")


def test_a_changed_game_seed_is_rejected(tmp):
    lines = record(tmp)
    i = [i for i, x in enumerate(lines) if x["type"] == "game"][1]
    lines[i] = dict(lines[i], seed="3:7")
    n, _ = rejected(tmp, lines, "seed", "3:1")
    assert n == i + 1


@pytest.mark.parametrize("key, value, reason", [
    ("seed", 4, "seed"),
    ("games", 6, "promises 6"),
    ("games", 4, "promises 4"),
    ("agents", ["cautious"] * 4, "cautious"),
    ("agents", ["random"] * 3, "3 agents"),
    ("agents", ["nobody"] * 4, "unknown agent"),
    ("seats", ["N", "E", "S", "W"], "seats"),
    ("sides", [[0, 1], [2, 3]], "sides"),
    ("source", "nonsense", "nonsense"),
    ("source", "texas42-hall", "different|ruleset"),
    ("source", "", "source is \"\"; it must be at least 1 character long"),  # not: no source
    ("ruleset", "moon", "ruleset"),
])
def test_a_changed_header_is_rejected(tmp, key, value, reason):
    lines = record(tmp)
    lines[0] = dict(lines[0], **{key: value})
    rejected(tmp, lines, reason)


def test_agents_changed_are_caught_where_the_game_differs(tmp):
    # the games were played by cautious agents: with random named instead, the first decision
    # random agents would not make is rejected, naming both actions
    lines = record(tmp, "moon", games=2, agents="cautious")
    lines[0] = dict(lines[0], agents=["random"] * 3)
    n, msg = rejected(tmp, lines, "random", "here they")
    assert lines[n - 1]["type"] == "decision"


def test_a_changed_decision_that_is_still_legal_is_caught(tmp):
    # a different legal bid replays through the engine, but is not what the seed's agents chose
    lines = record(tmp)
    i = next(i for i, x in enumerate(lines) if x["type"] == "decision"
             and x["action"] == "pass" and len(x["legal"]) > 1)
    other = next(a for a in lines[i]["legal"] if a != "pass")
    lines[i] = dict(lines[i], action=other)
    rejected(tmp, lines)


def record_of(tmp: Path, detail: str) -> list[dict]:
    r = cli("simulate", "allfives", "-n", "2", "-s", "0", "-r", str(tmp / "rec.jsonl"),
            "--record-detail", detail, "--no-progress")
    assert r.exit_code == 0, r.output
    return [json.loads(x) for x in (tmp / "rec.jsonl").read_text(encoding="utf-8").splitlines()]


def where(lines: list[dict], t: str, hand: int, game: int = 1) -> int:
    """The index in `lines` of game `game`'s first line of type `t` of hand `hand`."""
    g = 0
    for i, x in enumerate(lines):
        g += x["type"] == "game"
        if g == game and x["type"] == t and x.get("hand") == hand:
            return i
    raise AssertionError((t, hand, game))


@pytest.mark.parametrize("detail, t", [("compact", "hand"), ("full", "deal")])
def test_hands_out_of_order_are_said_so(tmp, detail, t):
    """Two hands' lines swapped: said at the first, as the order they are out of (it was 'the
    deal line does not match the pieces dealt')."""
    lines = record_of(tmp, detail)
    a, b = where(lines, t, 1), where(lines, t, 2)
    lines[a], lines[b] = lines[b], lines[a]
    n, msg = rejected(tmp, lines)
    assert n == a + 1
    assert msg == ("hand 2's deal where game 1's hand 1 comes: a game's hands are in order, each "
                   "once (the record's lines out of order?)")


def test_a_game_line_after_its_first_hand_is_said_so(tmp):
    """Game 2's line moved below its first hand: that hand's line comes after game 1 is over
    (it was 'a deal where the engine expects the end of the game')."""
    lines = record_of(tmp, "compact")
    g = next(i for i, x in enumerate(lines) if x["type"] == "game" and x["game"] == 2)
    lines[g], lines[g + 1] = lines[g + 1], lines[g]
    n, msg = rejected(tmp, lines)
    assert n == g + 1
    assert msg == ("hand 1's deal after game 1 is over: a 'game' line or the 'end' line comes "
                   "here (the record's lines out of order?)")


def test_a_hand_of_another_game_is_said_so(tmp):
    """Game 1's hand 2 and game 2's swapped: the same hand number, another game's deal: said as
    the deal the seed does not deal (it was a score the engine computes otherwise)."""
    lines = record_of(tmp, "compact")
    a, b = where(lines, "hand", 2, 1), where(lines, "hand", 2, 2)
    lines[a], lines[b] = lines[b], lines[a]
    n, msg = rejected(tmp, lines)
    assert n == a + 1
    assert msg.startswith('hand 2 of game 1 is not the one its seed "0:0" deals: the seed deals '
                          "North ") and msg.endswith(" (a line of another game?)"), msg


def test_a_deal_that_differs_from_the_seeds_in_its_dealer_names_the_dealer(tmp):
    """All Fives draws its first dealer by lot, so the engine deals as the line says; the seed's
    deal differs in the dealer alone: said as that field (it said 'the seed deals the stock',
    naming none)."""
    lines = record_of(tmp, "full")
    i = where(lines, "deal", 1)
    dealer = lines[i]["dealer"]
    lines[i] = dict(lines[i], dealer=(dealer + 1) % 4)
    n, msg = rejected(tmp, lines)
    assert n == i + 1
    assert msg.endswith(f"the deal line's dealer is {dealer} there, {(dealer + 1) % 4} here"), msg
