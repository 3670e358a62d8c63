"""When a hand ends, and the marks it is worth.

Rule texts: 000 "Scoring a hand", "Marks", "Ending a hand early"; 001 (mark bids: 'If they lose
even one trick, they are set'; 'You don't always have to play all 7 tricks'); 002 'When a bid is
met by the team or the opposing team wins the points that the other team would require to meet
their bid, the hand ends'; 004 'A hand can end early'.
"""

from __future__ import annotations

import random

import pytest

from .helpers import act, auction, deal, game, hand_event, play, run

# Seat 0: the fives and 4-4; seat 1: every six; seat 2: fours and threes; seat 3: small pieces.
D1 = deal("5-5 5-4 5-3 5-2 5-1 5-0 4-4",
          "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
          "4-3 4-2 4-1 4-0 3-3 3-2 3-1",
          "3-0 2-2 2-1 2-0 1-1 1-0 0-0")


def test_point_bid_made_the_moment_the_bid_is_reached():
    """000 'Ending a hand early' / 002: the hand ends when the bid is met. Seat 1 bids 30 with
    every six; after 4 tricks it holds 29 points and play goes on; trick 5 brings 30: over, made."""
    st = play(game(), D1, 0, auction("30", 1, 0) + ["trump 6"], record=True)
    tricks = ["6-6, 3-2, 1-0, 5-5",   # 1 + 15 -> 16
              "6-4, 4-0, 2-0, 4-4",   # 1 + 10 -> 27
              "6-5, 4-2, 2-1, 5-4",   # 28
              "6-3, 4-3, 1-1, 5-3"]   # 29
    for t in tricks:
        run(st, t)
        assert not st.is_terminal()
    assert st.points == [0, 29]
    run(st, "6-2, 3-3, 0-0, 5-2")
    assert st.is_terminal()
    assert st.tricks_played == 5 and st.points == [0, 30]
    assert st.made is True
    assert st.score == [0, 1]  # 000: a plain bid 'is worth 1 mark if made'
    ev = hand_event(st)
    assert ev["made"] is True and ev["scored"] == [0, 1] and ev["ended_after_trick"] == 5


def test_point_bid_set_the_moment_defenders_pass_42_minus_bid():
    """002: the hand ends when 'the opposing team wins the points that the other team would
    require'. Seat 0 bids 30 (defenders need 13): at 12 play goes on, at 13 the bid is set."""
    st = play(game(), D1, 3, auction("30", 0, 3) + ["trump 6"], record=True)
    run(st, "5-5, 6-0, 3-1, 2-0")  # seat 1 ruffs: 11 to the defenders
    assert not st.is_terminal() and st.points == [0, 11]
    run(st, "6-6, 4-0, 1-0, 4-4")  # 12 = 42 - 30: the bid can still just be made
    assert not st.is_terminal() and st.points == [0, 12]
    run(st, "6-5, 4-2, 2-1, 5-4")  # 13: the bidders can reach at most 29
    assert st.is_terminal()
    assert st.tricks_played == 3 and st.made is False
    assert st.score == [0, 1]  # 000: 'the opposing team scores those marks instead'
    assert hand_event(st)["scored"] == [0, 1]


def _points_hand(level: int, bidder: int, seed: int):
    """Seat `bidder` bids `level` on D1 with sixes trump; random legal play."""
    dealer = (bidder - 1) % 4
    st = play(game(), D1, dealer, auction(f"{level}", bidder, dealer) + ["trump 6"],
              record=True)
    rng = random.Random(seed)
    side = bidder % 2
    while not st.is_terminal():
        before = st.tricks_played
        st.apply_action(rng.choice(st.legal_actions()))
        if st.tricks_played != before or st.is_terminal():
            ours, theirs = st.points[side], st.points[1 - side]
            decided = ours >= level or theirs > 42 - level
            assert st.is_terminal() == (decided or st.tricks_played == 7), (
                level, st.tricks_played, st.points)
    return st


@pytest.mark.parametrize("level", range(30, 43))
def test_point_bid_ends_exactly_when_decided_bidders_win(level):
    """000 'Ending a hand early': play stops the moment the bidders have 'mathematically locked up
    their bid' -- and not before. Seat 1 holds every six, so it takes every trick."""
    st = _points_hand(level, bidder=1, seed=level)
    assert st.made is True and st.points[1] >= level and st.score == [0, 1]


@pytest.mark.parametrize("level", range(30, 43))
def test_point_bid_ends_exactly_when_decided_bidders_set(level):
    """002: the hand ends when the defenders hold more than 42 - bid. Seat 0 names sixes trump
    but seat 1 holds all of them, so the defenders take every trick."""
    st = _points_hand(level, bidder=0, seed=level)
    assert st.made is False and st.points[1] > 42 - level and st.score == [0, 1]
    if level == 42:
        assert st.tricks_played == 1  # 001: 'a bid of 42 means you're claiming every single point'


def test_marks_bid_set_on_the_first_trick_lost():
    """000: 'fall one trick short and the opposing team scores that many marks instead'; 001: 'If
    they lose even one trick, they are set'. Seat 0 bids 2 marks, fives trump; seat 1's 6-5 beats
    the 5-4 on trick 1 and the hand is over with 2 marks to the defenders."""
    st = play(game(), D1, 3, auction("84", 0, 3) + ["trump 5"], record=True)
    act(st, "5-4")
    act(st, "6-5")  # seat 1 must follow trump with its only five
    run(st, "4-0, 3-0")
    assert st.is_terminal()
    assert st.tricks_played == 1 and st.made is False
    assert st.score == [0, 2]
    assert hand_event(st)["scored"] == [0, 2]


def test_marks_bid_set_on_a_bare_later_trick():
    """001: 'For mark bids, the bidding team must win all 7 tricks ... If they lose even one
    trick, they are set'. Seat 0 bids 2 marks in blanks, takes trick 1, then loses trick 2 --
    worth a single point -- and the hand ends there with 2 marks to the defenders."""
    hands = deal("0-0 6-0 5-0 4-0 3-0 2-0 2-1",
                 "1-0 6-5 6-4 6-3 6-2 6-1 5-5",
                 "5-4 5-3 5-2 5-1 4-4 4-3 4-2",
                 "4-1 3-3 3-2 3-1 2-2 1-1 6-6")
    st = play(game(), hands, 3, auction("84", 0, 3) + ["trump 0"], record=True)
    run(st, "0-0, 1-0, 5-4, 4-1")  # trick 1 to the bidder (1 + the 4-1)
    assert not st.is_terminal() and st.points == [6, 0]
    run(st, "2-1, 6-2, 4-2, 2-2")  # the 2-2 tops the twos: a one-point trick to the defenders
    assert st.is_terminal()
    assert st.tricks_played == 2 and st.tricks == [1, 1] and st.points == [6, 1]
    assert st.made is False and st.score == [0, 2]


def test_marks_bid_made_needs_all_seven_tricks():
    """000: a marks bid means 'committing to win every single trick in the hand. Pull it off and
    you score that many marks'. Seat 1 bids 2 marks with every six and plays all seven tricks."""
    st = play(game(), D1, 0, auction("84", 1, 0) + ["trump 6"], record=True)
    rng = random.Random(7)
    for six in ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"]:
        assert not st.is_terminal()
        act(st, six)
        for _ in range(3):
            st.apply_action(rng.choice(st.legal_actions()))
    assert st.is_terminal()
    assert st.tricks_played == 7 and st.tricks == [0, 7] and st.made is True
    assert st.score == [0, 2]


def test_three_mark_bid_made_scores_three():
    """000: 'Pull it off and you score that many marks'. Seat 0 opens 2 marks, seat 1 raises to 3
    and takes all seven tricks with every six: 3 marks to seat 1's side."""
    st = play(game(), D1, 3, ["bid 84", "bid 126", "pass", "pass", "trump 6"])
    assert st.current_player() == 1
    rng = random.Random(11)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    assert st.tricks == [0, 7] and st.made is True and st.score == [0, 3]


def test_three_mark_bid_set_gives_three():
    """000: 'fall one trick short and the opposing team scores that many marks instead'. Seat 1
    opens 2 marks, the dealer (seat 0) raises to 3, names fives and loses trick 1 to the 6-5."""
    st = play(game(), D1, 0, ["bid 84", "pass", "pass", "bid 126", "trump 5"])
    run(st, "5-4, 6-5, 4-0, 3-0")
    assert st.is_terminal() and st.made is False and st.score == [0, 3]


def test_point_bid_made_with_some_tricks_lost():
    """000: 'If the bidding team's total meets or beats their bid, they score the marks': losing
    a trick does not set a point bid. Seat 1 bids 30, loses a trick worth 1 early, still makes."""
    st = play(game(), D1, 0, auction("30", 1, 0) + ["trump 6"], record=True)
    run(st, "6-6, 3-2, 1-0, 5-5")  # 16 to seat 1's side
    assert st.points == [0, 16]
    rng = random.Random(3)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    assert st.made and st.score == [0, 1]
