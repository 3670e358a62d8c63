"""House rules the Texas 42 rulesets switch with options (issue 8): each set, then a played position.

Rule texts: 000 "Ending a hand early", "No Trump / Follow Me", marks bids ("can only be topped by
exactly one mark"); 002 (early end; follow-me ranking); 004 (Nello "one mark and up", bids 30-41,
42, 84, 168).
"""

from __future__ import annotations

import pytest

from tablerules.errors import GameError

from .helpers import (act, action, auction, deal, fill, followers, game, hand_event, legal_names,
                      play, rank_of, run, suit_value, trump_state)

# Seat 0: the fives and 4-4; seat 1: every six; seat 2: fours and threes; seat 3: small pieces.
D1 = deal("5-5 5-4 5-3 5-2 5-1 5-0 4-4",
          "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
          "4-3 4-2 4-1 4-0 3-3 3-2 3-1",
          "3-0 2-2 2-1 2-0 1-1 1-0 0-0")
SIXES = ["6-6, 3-2, 1-0, 5-5", "6-4, 4-0, 2-0, 4-4", "6-5, 4-2, 2-1, 5-4", "6-3, 4-3, 1-1, 5-3",
         "6-2, 3-3, 0-0, 5-2", "6-1, 3-1, 3-0, 5-1", "6-0, 4-1, 2-2, 5-0"]


# -- early_end ------------------------------------------------------------------------------


@pytest.mark.parametrize("early_end", [True, False])
def test_early_end_option_point_bid(early_end):
    """000 'Ending a hand early: this app stops play the moment the outcome is no longer in
    doubt ... instead of always dealing out all 7 tricks'. Seat 1 bids 30 with every six: made
    after trick 5 with early_end, after all seven without; made and 1 mark either way."""
    st = play(game(early_end=early_end), D1, 0, auction("30", 1, 0) + ["trump 6"], record=True)
    for t in SIXES[:5]:
        run(st, t)
    assert st.is_terminal() is early_end
    if not early_end:
        for t in SIXES[5:]:
            run(st, t)
    assert st.is_terminal()
    assert st.tricks_played == (5 if early_end else 7)
    assert st.made is True and st.score == [0, 1]
    assert hand_event(st)["ended_after_trick"] == st.tricks_played


@pytest.mark.parametrize("early_end", [True, False])
def test_early_end_option_marks_bid_set(early_end):
    """000: a marks bid is set on the first trick lost; with early_end off the hand still plays
    out, and the set is the same: 2 marks to the defenders."""
    st = play(game(early_end=early_end), D1, 3, auction("84", 0, 3) + ["trump 5"], record=True)
    run(st, "5-4, 6-5, 4-0, 3-0")
    assert st.is_terminal() is early_end
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert st.tricks_played == (1 if early_end else 7)
    assert st.made is False and st.score == [0, 2]


# -- followme_doubles -----------------------------------------------------------------------


def test_followme_doubles_high_is_the_default():
    """000/002: in follow-me a double is the highest of its suit."""
    st = trump_state(game(), "followme")
    assert suit_value(st, "6-6") == 6
    assert rank_of(st, 6, "6-6") > rank_of(st, 6, "6-5") > rank_of(st, 6, "6-0")


def test_followme_doubles_low():
    """House rule (option followme_doubles: low): a double is the lowest of its suit."""
    st = trump_state(game(followme_doubles="low"), "followme")
    assert suit_value(st, "6-6") == 6
    assert rank_of(st, 6, "6-0") > rank_of(st, 6, "6-6") > rank_of(st, 6, "5-4")  # 5-4 cannot follow
    assert "6-6" in followers(st, 6)


def test_followme_doubles_own_suit():
    """House rule (followme_doubles: suit): the doubles are a suit of their own: a double leads
    doubles, only doubles follow it (highest wins), and a double does not follow its number."""
    st = trump_state(game(followme_doubles="suit"), "followme")
    assert suit_value(st, "6-6") == "doubles" and suit_value(st, "6-5") == 6
    assert followers(st, "doubles") == {f"{n}-{n}" for n in range(7)}
    assert "6-6" not in followers(st, 6)
    assert rank_of(st, "doubles", "6-6") > rank_of(st, "doubles", "0-0") > 0


def test_followme_doubles_own_suit_in_play():
    """The same as played: seat 0 leads the 3-3; seat 1 holds the 6-6 and must follow with it
    although it holds sixes; the 6-6 takes the trick."""
    hands = fill("3-3 5-4 5-3 5-2 5-1 5-0 4-4", "6-6 6-5 6-4 6-3 6-2 6-1 6-0")
    st = trump_state(game(followme_doubles="suit"), "followme", hands, record=True)
    act(st, "3-3")
    assert legal_names(st) == ["6-6"]
    act(st, "6-6")
    for _ in range(2):
        act(st, legal_names(st)[0])
    assert [e for e in st.events if e["type"] == "trick"][0]["winner"] == 1


def test_followme_doubles_leaves_named_trumps_alone():
    """The option is about follow-me only: with sixes trump, the 3-3 still leads threes."""
    st = trump_state(game(followme_doubles="suit"), 6)
    assert suit_value(st, "3-3") == 3 and suit_value(st, "6-6") == 6


# -- nello_min_marks ------------------------------------------------------------------------


def test_nello_min_marks():
    """004: Nello is 'one mark and up' (the default); a table that plays it from 2 marks sets
    nello_min_marks: 2 and the 1-mark Nello is gone."""
    names = legal_names(game().new_hand(D1, 3))
    assert "bid nello 1" in names
    g = game(nello_min_marks=2)
    names = legal_names(g.new_hand(D1, 3))
    assert "bid nello 1" not in names and "bid nello 2" in names
    assert g.definition.string_to_action("bid nello 1") is None
    assert "bid sevens 1" in names  # Sevens keeps its own minimum


# -- marks_raise ----------------------------------------------------------------------------


def marks_over(g, standing: int) -> list[int]:
    """The marks bids the next seat may make over a standing `standing`-mark bid."""
    st = play(g, D1, 3, [f"bid {42 * standing}"])
    return [int(n.split()[1]) // 42 for n in legal_names(st)
            if n.startswith("bid ") and n[4:].isdigit() and int(n[4:]) > 42]


def test_marks_raise_exactly_is_the_default():
    """000: 'marks bids that can only be topped by exactly one mark'."""
    assert marks_over(game(), 2) == [3]


def test_marks_raise_at_most():
    """House rule (marks_raise: at_most, marks_step: 2): raise by one or two marks."""
    assert marks_over(game(marks_raise="at_most", marks_step=2), 2) == [3, 4]
    assert marks_over(game(marks_step=2), 2) == [4]


def test_marks_raise_any():
    """House rule (marks_raise: any): any higher marks bid, up to the marks that win the match."""
    g = game(marks_raise="any")
    assert marks_over(g, 2) == [3, 4, 5, 6, 7]
    st = play(g, D1, 3, ["bid 84", "bid 294"])  # 7 marks over 2
    assert "bid 294" in [n for n in legal_names(play(g, D1, 3, ["bid 84"]))]
    assert st.current_player() == 2 and legal_names(st) == ["pass"]


def test_marks_raise_opening_cap_kept():
    """The opening marks bid is still capped by max_opening_marks with every raise rule."""
    st = game(marks_raise="any").new_hand(D1, 3)
    with pytest.raises(GameError):
        st.apply_action(action(st.game, "bid 126"))


# -- bid labels ------------------------------------------------------------------------------


def test_bid_labels_as_a_table_says_them():
    """004: 'bids 30-41, 42, 84, 168': point bids by their points, marks bids by their points
    (42 a mark); Nello and Sevens by their marks."""
    names = legal_names(game().new_hand(D1, 3))
    assert names[:14] == ["pass"] + [f"bid {n}" for n in range(30, 43)]
    assert "bid 84" in names and "bid nello 1" in names and "bid sevens 1" in names
    st = play(game(), D1, 3, ["bid 84"])
    assert "bid 126" in legal_names(st)
