"""`display.marks`: which pieces carry each mark, read through State.marks() (the Game/State API)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from support import cli
from tablerules.game import load_game

DEAL = [["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"],
        ["5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "4-4"],
        ["4-3", "4-2", "4-1", "4-0", "3-3", "3-2", "3-1"],
        ["3-0", "2-2", "2-1", "2-0", "1-1", "1-0", "0-0"]]


def _named(game, ids):
    return sorted(game.definition.pieces.names[i] for i in ids)


def _act(st, name):
    st.apply_action(next(a for a in st.legal_actions() if st.action_to_string(a) == name))


def test_texas42_count_always_trump_once_named():
    g = load_game("texas42")
    st = g.new_hand(DEAL, dealer=3)
    m = st.marks()
    assert list(m) == ["count", "trump"]  # the ruleset's order, the drawing order
    assert _named(g, m["count"]) == ["3-2", "4-1", "5-0", "5-5", "6-4"]
    assert m["trump"] == ()  # no trump before one is named
    _act(st, "bid 30")
    for _ in range(3):
        _act(st, "pass")
    _act(st, "trump 5")
    m = st.marks()
    assert _named(g, m["trump"]) == ["5-0", "5-1", "5-2", "5-3", "5-4", "5-5", "6-5"]
    assert _named(g, m["count"]) == ["3-2", "4-1", "5-0", "5-5", "6-4"]


def test_doubles_trump_marks_the_doubles():
    g = load_game("texas42")
    st = g.new_hand(DEAL, dealer=3)
    _act(st, "bid 30")
    for _ in range(3):
        _act(st, "pass")
    _act(st, "trump doubles")
    assert _named(g, st.marks()["trump"]) == [f"{i}-{i}" for i in range(7)]


@pytest.mark.parametrize("ruleset", ["texas42", "moon", "allfives", "taroky", "texas42-hall"])
def test_every_shipped_ruleset_has_marks_that_hold_over_random_play(ruleset):
    """Every mark names only pieces of the set, at every step of a random hand, and the marks
    over pieces (not the state) never change within a hand once the auction is over."""
    g = load_game(ruleset)
    assert g.definition.marks, "every shipped ruleset says how its pieces are marked"
    rng = random.Random(7)
    st = g.new_match()
    n = len(g.definition.pieces)
    seen_after_auction = None
    hands = 0
    while not st.is_terminal() and hands < 2:
        if st.is_chance_node():
            st.apply_action(rng.choice([a for a, _ in st.chance_outcomes()]))
            seen_after_auction = None
            continue
        m = st.marks()
        assert all(0 <= p < n for ids in m.values() for p in ids)
        if st.trick or st.layout_text():
            if seen_after_auction is None:
                seen_after_auction = m
            assert m == seen_after_auction
        before = st.hands_played
        st.apply_action(rng.choice(st.legal_actions()))
        hands += st.hands_played != before


def test_a_bad_mark_is_a_located_error(tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: texas42\nname: bad\ntitle: Bad\ndisplay:\n  marks:\n    count:\n"
                   "      when: \"tile.cout > 0\"\n      ring: dotted\n      symbol: \"*\"\n")
    r = cli("validate", str(bad))
    assert r.exit_code == 1
    assert "bad.yaml:8:" in r.output and "dotted" in r.output


def test_marks_are_not_part_of_the_game():
    """A ruleset that only changes how pieces look hashes as the same game."""
    from tablerules.load.ruleset import content_hash
    a = load_game("texas42").definition
    assert "display" in a.source
    plain = {k: v for k, v in a.source.items() if k != "display"}
    assert content_hash(plain) == a.content_hash


def test_a_mark_through_a_function_that_reads_tile_is_judged_per_piece(tmp_path: Path):
    """A mark's condition is worked out for each piece: a user function that reads `tile`
    without taking it as an argument gives the same pieces as the condition written inline."""
    def marked(when: str, funcs: str = "") -> list:
        f = tmp_path / "m.yaml"
        f.write_text("extends: texas42\nname: m\ntitle: M\n" + funcs + "display:\n  marks:\n"
                     f"    near:\n      when: \"{when}\"\n      ring: solid\n      symbol: \"*\"\n")
        return sorted(load_game(str(f)).new_hand(DEAL, dealer=3).marks()["near"])
    inline = marked("count(s in [0, 1] if holder(tile) == s) > 0")
    through = marked("held01()", "functions:\n  \"held01()\": "
                                 "\"count(s in [0, 1] if holder(tile) == s) > 0\"\n")
    assert len(inline) == 14 and through == inline
