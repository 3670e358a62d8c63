"""Who takes a trick, who leads, and what a trick is worth (count).

Rule texts: 000 "The dominoes", "Playing a trick"; 002 "Points", "The Play"; 004 "Playing a
trick", "Trumps", "Count: where the 42 comes from".
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from .helpers import (ALL_PIECES, COUNT, TRUMPS, act, auction, deal, game, legal_names, play, run,
                      trick_events, trump_state)
from support import examples

# A deal used by several cases. Seat 0: the fives and 4-4; seat 1: every six;
# seat 2: fours and threes; seat 3: the small pieces.
D1 = deal("5-5 5-4 5-3 5-2 5-1 5-0 4-4",
          "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
          "4-3 4-2 4-1 4-0 3-3 3-2 3-1",
          "3-0 2-2 2-1 2-0 1-1 1-0 0-0")


def one_trick(trump, hands, plays, bidder=0):
    """Seat `bidder` wins a 30 bid, names `trump`, and the four plays are made; the trick event."""
    st = trump_state(game(), trump, hands, bidder=bidder, record=True)
    run(st, plays)
    evs = trick_events(st)
    assert len(evs) == 1
    return st, evs[0]


# -- count ---------------------------------------------------------------------------------------

def test_count_of_every_piece():
    """000 table: '5-5 and 6-4 10 points each; 5-0, 4-1, and 3-2 5 points each'; others carry none."""
    gd = game().definition
    count = gd.pieces.attrs["count"]
    got = {gd.pieces.names[i]: count[i] for i in range(len(gd.pieces))}
    assert got == {p: COUNT.get(p, 0) for p in ALL_PIECES}
    assert sum(got.values()) == 35  # 000: 'That's 35 count points'


def test_hand_points_is_42():
    """000: '35 count points, plus 1 point for each of the 7 tricks in a hand -- 42 points total'."""
    assert game().definition.constants["hand_points"] == 42


def test_trick_worth_one_plus_count_to_the_winner():
    """004: 'Count belongs to whoever wins the trick it lands in, not whoever played it.'
    Ones trump; seat 0 leads 5-5, seat 1 follows with 6-5, seat 2 (an opponent of seat 1, the
    bidder's partner) drops the 3-2: 1 + 10 + 5 = 16 points go to seat 0's side."""
    st, ev = one_trick(1, D1, "5-5, 6-5, 3-2, 2-0")
    assert ev["winner"] == 0 and ev["points"] == 16
    assert st.points == [16, 0] and st.tricks == [1, 0]


def test_count_played_by_the_loser_goes_to_the_winner():
    """004: 'Dropping it into one your opponents are winning hands it to them.' Sixes trump:
    seat 0 leads 5-5, seat 1 ruffs with 6-0 and takes the 10 count and seat 2's 3-2."""
    st, ev = one_trick(6, D1, "5-5, 6-0, 3-2, 2-0")
    assert ev["winner"] == 1 and ev["points"] == 16
    assert st.points == [0, 16] and st.tricks == [0, 1]


# -- trick winners ---------------------------------------------------------------------------------

def test_highest_trump_wins():
    """000: 'The trick is won by the highest trump played'. Blanks trump; 5-4 led (fives):
    seat 1 has no fives and trumps with 6-0, seat 3 has no fives and overtrumps with 0-0."""
    hands = deal("5-4 5-3 5-2 5-1 4-4 3-3 2-2",
                 "6-0 6-6 4-3 6-4 6-3 6-2 6-1",
                 "5-5 5-0 6-5 4-2 4-1 3-2 3-1",
                 "0-0 1-0 2-0 3-0 4-0 1-1 2-1")
    st, ev = one_trick(0, hands, "5-4, 6-0, 5-5, 0-0")
    assert ev["led"] == 5 and ev["winner"] == 3
    assert ev["points"] == 11 and st.points == [0, 11]


# Fours led by seat 0; seat 1 and seat 2 hold one four each; seat 3 holds no four and no five.
D_FOURS = deal("4-2 4-4 4-0 6-4 5-5 5-0 5-1",
               "4-3 5-4 5-3 5-2 3-3 3-2 3-1",
               "4-1 6-5 2-2 2-1 2-0 1-1 1-0",
               "6-6 6-3 6-2 6-1 6-0 3-0 0-0")


def test_highest_of_suit_led_wins_without_trump():
    """000: 'if no trump was played, the highest domino of the suit that was led'. Fives trump,
    4-2 led: 4-3 and 4-1 follow, the 6-6 is thrown off: the 4-3 wins."""
    st = trump_state(game(), 5, D_FOURS)
    act(st, "4-2")
    assert legal_names(st) == ["4-3"]
    act(st, "4-3")
    assert legal_names(st) == ["4-1"]
    act(st, "4-1")
    assert len(legal_names(st)) == 7  # seat 3 is void in fours
    st, ev = one_trick(5, D_FOURS, "4-2, 4-3, 4-1, 6-6")
    assert ev["led"] == 4 and ev["winner"] == 1


def test_void_player_may_trump_and_win():
    """000: 'If you have nothing of the suit led, you may play anything, including a trump to try
    to win the trick'. Blanks trump, same deal: seat 3 plays the 6-0 and takes the trick."""
    st, ev = one_trick(0, D_FOURS, "4-2, 4-3, 4-1, 6-0")
    assert ev["winner"] == 3


def test_off_suit_never_wins():
    """004: 'a domino that doesn't follow suit cannot win the trick. It's just discarded into it.'
    Follow-me, 2-0 led and nobody else holds a two: the 2-0 beats the 6-6, 5-5 and 4-4."""
    hands = deal("2-0 2-1 2-2 3-2 4-2 5-2 6-2",
                 "6-6 6-5 6-4 6-3 6-1 6-0 5-4",
                 "5-5 5-3 5-1 5-0 4-3 4-1 4-0",
                 "4-4 3-3 3-1 3-0 1-1 1-0 0-0")
    st, ev = one_trick("followme", hands, "2-0, 6-6, 5-5, 4-4")
    assert ev["led"] == 2 and ev["winner"] == 0 and ev["points"] == 11
    # the same with ones trump: none of the four pieces played is a trump
    st, ev = one_trick(1, hands, "2-0, 6-6, 5-5, 4-4")
    assert ev["winner"] == 0


def test_trump_beats_the_double_of_the_suit_led():
    """004: 'If trumps are treys ... Even the 6-6 loses to the lowly 3-0.'"""
    hands = deal("6-6 5-5 5-4 5-2 5-1 4-4 2-2",
                 "3-0 4-0 4-1 4-2 2-1 2-0 1-1",
                 "6-5 6-4 6-2 6-1 6-0 5-0 1-0",
                 "3-3 3-2 3-1 4-3 5-3 6-3 0-0")
    st, ev = one_trick(3, hands, "6-6, 3-0, 6-5, 0-0")
    assert ev["winner"] == 1


def test_first_trump_overtrumped():
    """000: 'the highest trump played' -- a later, higher trump beats an earlier one."""
    hands = deal("6-6 5-5 5-4 5-2 5-1 4-4 2-2",
                 "3-0 4-0 4-1 4-2 2-1 2-0 1-1",
                 "6-5 6-4 6-2 6-1 6-0 5-0 1-0",
                 "3-3 3-2 3-1 4-3 5-3 6-3 0-0")
    # seat 3 holds no six either (6-3 is trump): it overtrumps with the 3-3
    st, ev = one_trick(3, hands, "6-6, 3-0, 6-5, 3-3")
    assert ev["winner"] == 3


@pytest.mark.parametrize("trump", TRUMPS, ids=lambda v: f"trump={v}")
def test_no_ties_among_pieces_that_can_win(trump):
    """000/002: within trump and within a suit every piece has its own place, so (outside
    Sevens) a trick can never be a tie: ranks of followers and trumps are all distinct."""
    st = trump_state(game(), trump)
    t = st.tables
    for i, led in enumerate(t.suits):
        ranks = [r for r in t.rank[i] if r > 0]
        assert len(ranks) == len(set(ranks)), f"led {led}"


# -- who leads ---------------------------------------------------------------------------------

def test_bidder_leads_first_and_winner_leads_next():
    """000: 'The bid winner leads the first trick' and 'The winner collects the trick and leads
    the next one.' Seat 2 bids; seat 1 takes trick 1 with a trump and must lead trick 2."""
    st = trump_state(game(), 6, D1, bidder=2, record=True)
    assert st.current_player() == 2
    run(st, "4-3, 3-0, 5-4, 6-0")  # seat 0 must follow fours; seat 1's 6-4 is a trump
    ev = trick_events(st)[0]
    assert ev["winner"] == 1
    assert st.current_player() == 1


def test_play_goes_to_the_left():
    """001: 'Starting left of the dealer and going clockwise'; seats are numbered to the left."""
    st = trump_state(game(), 6, D1, bidder=1)
    order = []
    for name in ["6-6", "4-3", "3-0", "5-5"]:
        order.append(st.current_player())
        act(st, name)
    assert order == [1, 2, 3, 0]


# -- a full hand holds 42 points -------------------------------------------------------------------

def test_all_seven_tricks_make_42():
    """000: '42 points total'. Seat 1 bids 42 with every six and takes all seven tricks."""
    st = play(game(), D1, 0, auction("42", 1, 0) + ["trump 6"], record=True)
    sixes = ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"]
    rng = random.Random(4)
    for six in sixes:
        act(st, six)
        for _ in range(3):
            st.apply_action(rng.choice(st.legal_actions()))
    assert st.is_terminal()
    assert st.tricks_played == 7 and st.tricks == [0, 7]
    assert st.points == [0, 42] and sum(e["points"] for e in trick_events(st)) == 42
    assert st.made and st.score == [0, 1]


@settings(max_examples=examples(60), deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 10**9), trump=st_.sampled_from(TRUMPS))
def test_points_taken_plus_points_left_is_always_42(seed, trump):
    """000: every hand holds 42 points: at any moment, points taken + count still in hands +
    one per trick not yet played = 42 (property over random deals and random legal play)."""
    rng = random.Random(seed)
    pieces = list(ALL_PIECES)
    rng.shuffle(pieces)
    hands = [pieces[i * 7:(i + 1) * 7] for i in range(4)]
    bidder = rng.randrange(4)
    st = trump_state(game(), trump, hands, bidder=bidder, record=True)
    gd = st.game
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
        played = {p for e in trick_events(st) for _, p in e["plays"]}
        left = sum(COUNT.get(p, 0) for p in ALL_PIECES if p not in played)
        assert sum(st.points) + left + (7 - st.tricks_played) == 42
    for e in trick_events(st):
        assert e["points"] == 1 + sum(COUNT.get(p, 0) for _, p in e["plays"])
