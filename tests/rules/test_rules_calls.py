"""Splash and Plunge as bids (texas42-hall, the 004 text) or as calls after winning at 84.

Rule text 004: "Splash -- two marks and up, only when holding three or more doubles; the partner
names trump and leads"; "Plunge -- four marks and up, holding four or more doubles; likewise".
As a house rule (option splash_plunge: call) they are calls: a declaration asked only of a bidder
who won the auction at 84 holding the doubles (`declare.*.when`), whose choices depend on the hand
(`declare.*.allow`), asked before trump (`declare.*.order`), and read by who names trump, who
leads and the marks scored.
"""

from __future__ import annotations

import functools

import pytest

from tablerules.game import load_game

from .helpers import act, fill, hand_event, legal_names, play

# seat 0 holds four doubles, seat 1 three, seat 2 two
FOUR = fill("6-6 5-5 4-4 3-3 6-5 6-4 6-3", "2-2 1-1 0-0 5-4 5-3 5-2 5-1")
THREE = fill("6-6 5-5 4-4 6-5 6-4 6-3 6-2")
TWO = fill("6-6 5-5 6-5 6-4 6-3 6-2 6-1")


@functools.lru_cache(maxsize=None)
def _hall(items: tuple):
    return load_game("texas42-hall", dict(items))


def hall(**options):
    return _hall(tuple(sorted(options.items())))


def won_at_84(hands, **options):
    """Seat 0 (first to speak, dealer 3) bids 84 and the others pass."""
    return play(hall(**options), hands, 3, ["bid 84", "pass", "pass", "pass"], record=True)


def test_as_bids_by_default():
    """004 as written: Splash and Plunge are bids; no call follows a won 84."""
    names = legal_names(hall().new_hand(FOUR, 3))
    assert "bid splash 2" in names and "bid plunge 4" in names
    st = won_at_84(FOUR)
    assert legal_names(st)[0].startswith("trump") and st.current_player() == 0


def test_as_calls_the_bids_are_gone_and_the_call_is_asked():
    """splash_plunge: call: no Splash or Plunge bids; the 84 bidder with four doubles is asked
    first for its call, with every choice its doubles allow."""
    names = legal_names(hall(splash_plunge="call").new_hand(FOUR, 3))
    assert not any("splash" in n or "plunge" in n for n in names)
    st = won_at_84(FOUR, splash_plunge="call")
    assert st.current_player() == 0
    assert legal_names(st) == ["call none", "call splash", "call plunge"]


def test_call_choices_depend_on_the_hand():
    """Three doubles allow Splash only; two doubles: the call is not asked at all."""
    st = won_at_84(THREE, splash_plunge="call")
    assert legal_names(st) == ["call none", "call splash"]
    st = won_at_84(TWO, splash_plunge="call")
    assert st.current_player() == 0 and legal_names(st)[0] == "trump 0"


def test_call_only_after_winning_at_84():
    """A point bid won is never followed by a call."""
    st = play(hall(splash_plunge="call"), FOUR, 3, ["bid 30", "pass", "pass", "pass"])
    assert legal_names(st)[0] == "trump 0"


@pytest.mark.parametrize("call, marks", [("splash", 2), ("plunge", 4)])
def test_called_partner_names_trump_and_leads_and_the_marks(call, marks):
    """After a call the partner (seat 2) names trump and leads; the hand is worth the call's
    marks: set on the first trick lost, they go to the other side."""
    st = won_at_84(FOUR, splash_plunge="call")
    act(st, f"call {call}")
    assert st.current_player() == 2
    act(st, "trump followme")
    assert st.current_player() == 2  # the partner leads
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    ev = hand_event(st)
    assert ev["declarations"]["call"] == call
    won = [marks, 0] if st.made else [0, marks]
    assert st.score == won and ev["scored"] == won


def test_call_marks_and_doubles_are_options():
    """plunge_marks and plunge_doubles: a table's Plunge at 5 marks with three doubles."""
    g = dict(splash_plunge="call", plunge_doubles=3, plunge_marks=5)
    st = won_at_84(THREE, **g)
    assert legal_names(st) == ["call none", "call splash", "call plunge"]
    act(st, "call plunge")
    act(st, "trump 6")
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert sorted(st.score) == [0, 5]


def test_no_call_is_an_ordinary_84():
    """'call none': the bidder names trump and leads; 2 marks."""
    st = won_at_84(FOUR, splash_plunge="call")
    act(st, "call none")
    assert st.current_player() == 0
    act(st, "trump 6")
    assert st.current_player() == 0
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert sorted(st.score) == [0, 2]


def test_bid_minimums_are_the_options_too():
    """In bid mode splash_marks / splash_doubles are the Splash bid's minimum and holding."""
    gd = hall(splash_marks=3).definition
    assert gd.string_to_action("bid splash 2") is None
    assert gd.string_to_action("bid splash 3") is not None
    names = legal_names(hall(splash_doubles=5, plunge_doubles=5).new_hand(FOUR, 3))
    assert not any("splash" in n or "plunge" in n for n in names)
