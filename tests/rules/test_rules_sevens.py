"""Sevens: every player plays the piece closest to 7 pips; closest wins; the bidders need all 7 tricks.

Rule texts: 001 ("In a Sevens hand, every player must play the bone in their hand whose pip total
is closest to 7. You don't get a choice ... The bone closest to 7 wins each trick. If two bones
tie, the one played first wins. The bidder must win all 7 tricks. If any trick goes to the other
team, the Sevens bid is immediately set -- the hand ends right there and the other team gets the
mark."); 004 ("Sevens -- one mark and up ... There are no trumps. Every player must play the
domino in their hand whose pips add up closest to seven, and the closest to seven takes the trick,
ties going to whoever played first ... All seven tricks.").
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from tablerules.errors import GameError

from .helpers import (ALL_PIECES, act, auction, deal, game, hand_event, legal_names, pips, play,
                      run, trick_events)
from support import examples

# Seat 0 holds the three sevens (6-1 5-2 4-3) and the four six-pip pieces; the three eight-pip
# pieces are spread over seats 1, 2 and 3 (6-2, 5-3, 4-4).
S1 = deal("6-1 5-2 4-3 6-0 5-1 4-2 3-3",
          "6-2 6-6 6-5 6-4 6-3 5-5 5-4",
          "5-3 5-0 4-1 4-0 3-2 3-1 3-0",
          "4-4 2-2 2-1 2-0 1-1 1-0 0-0")


def sevens(hands=S1, bidder=0, level=1, record=True, **opts):
    dealer = (bidder - 1) % 4
    return play(game(**opts), hands, dealer, auction(f"sevens {level}", bidder, dealer),
                record=record)


def closest(hand) -> set[str]:
    best = min(abs(pips(p) - 7) for p in hand)
    return {p for p in hand if abs(pips(p) - 7) == best}


def test_no_trump_and_the_bidder_leads():
    """004: 'There are no trumps.' No trump is named; the bidder leads the first trick."""
    st = sevens()
    assert st.current_player() == 0
    assert not any(n.startswith("trump") for n in legal_names(st))


def test_only_the_closest_to_seven_may_be_played():
    """001: 'every player must play the bone in their hand whose pip total is closest to 7. You
    don't get a choice'. Seat 0 holds three sevens: exactly those are legal."""
    st = sevens()
    assert sorted(legal_names(st)) == ["4-3", "5-2", "6-1"]
    with pytest.raises(GameError):
        st.apply_action(st.game.string_to_action("6-0"))


def test_closest_is_by_distance_either_side_of_seven():
    """001 'closest to 7': a 6-pip and an 8-pip piece are equally close. Seat 1 has the 6-2 (8)
    alone at distance 1, seat 2 the 5-3, and no suit need be followed."""
    st = sevens()
    act(st, "6-1")
    assert legal_names(st) == ["6-2"]
    act(st, "6-2")
    assert legal_names(st) == ["5-3"]
    act(st, "5-3")
    assert legal_names(st) == ["4-4"]


def test_all_four_play():
    """001/004 say nothing of anyone sitting out a Sevens hand: four plays to a trick."""
    st = sevens()
    run(st, "6-1, 6-2, 5-3, 4-4")
    assert len(trick_events(st)[0]["plays"]) == 4


# Nobody but seat 0 lacks a seven: seat 0 holds the 6-0 (one from seven) and blanks and ones;
# seats 1, 2, 3 hold the 5-2, 4-3 and 6-1.
S2 = deal("6-0 0-0 1-0 1-1 2-0 2-1 3-0",
          "5-2 6-6 6-5 6-4 5-5 5-4 4-4",
          "4-3 6-3 6-2 5-3 5-1 5-0 4-2",
          "6-1 4-1 4-0 3-3 3-2 3-1 2-2")
# As S2 with seat 0's 6-0 and seat 2's 4-3 swapped: three sevens, seat 0's first.
S3 = deal("4-3 0-0 1-0 1-1 2-0 2-1 3-0",
          "5-2 6-6 6-5 6-4 5-5 5-4 4-4",
          "6-0 6-3 6-2 5-3 5-1 5-0 4-2",
          "6-1 4-1 4-0 3-3 3-2 3-1 2-2")


def test_closest_to_seven_wins():
    """001: 'The bone closest to 7 wins each trick.' Seat 1 bids and leads its 6-2 (one from
    seven); seat 2's 5-3 and seat 3's 4-4 are as close; seat 0's seven is closer and wins."""
    st = sevens(bidder=1)
    run(st, "6-2, 5-3, 4-4")
    assert sorted(legal_names(st)) == ["4-3", "5-2", "6-1"]
    act(st, "5-2")
    assert trick_events(st)[0]["winner"] == 0


def test_tie_goes_to_the_first_played_not_the_leader():
    """001: 'If two bones tie, the one played first wins.' S2: seat 0 leads the 6-0; seats 1, 2, 3
    each play a seven: seat 1's, played first of the three, takes the trick (and sets seat 0)."""
    st = sevens(S2)
    for seat, piece in enumerate(["6-0", "5-2", "4-3", "6-1"]):
        assert legal_names(st) == [piece], seat
        act(st, piece)
    assert trick_events(st)[0]["winner"] == 1
    assert st.is_terminal() and st.score == [0, 1]


def test_tie_goes_to_the_leader_when_it_played_first():
    """004: 'ties going to whoever played first'. S3: seat 0 leads the 4-3, seat 1 and seat 3 play
    sevens too: seat 0 keeps the trick."""
    st = sevens(S3)
    run(st, "4-3, 5-2")
    assert sorted(legal_names(st)) == ["4-2", "5-1", "5-3", "6-0", "6-2"]  # all one from seven
    run(st, "5-3, 6-1")
    assert trick_events(st)[0]["winner"] == 0
    assert not st.is_terminal()


def test_bidders_take_all_seven_make_it():
    """004: 'All seven tricks.' Seat 0 takes every trick with S1: made, 1 mark."""
    st = sevens()
    rng = random.Random(0)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    assert st.tricks_played == 7 and st.tricks == [7, 0]
    assert st.made is True and st.score == [1, 0]


def test_sevens_worth_its_marks():
    """004: Sevens is 'one mark and up'; a 2-mark Sevens made scores 2."""
    st = sevens(level=2)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert st.made is True and st.score == [2, 0]


@pytest.mark.parametrize("level", [1, 2])
def test_set_and_over_when_a_trick_goes_to_the_other_side(level):
    """001: 'If any trick goes to the other team, the Sevens bid is immediately set -- the hand
    ends right there and the other team gets the mark.' Seat 1 bids with S1; seat 0's seven takes
    trick 1."""
    st = sevens(bidder=1, level=level)
    run(st, "6-2, 5-3, 4-4, 6-1")
    assert st.is_terminal()
    assert st.tricks_played == 1 and st.made is False
    assert st.score == [level, 0]
    assert hand_event(st)["scored"] == [level, 0]


def test_trick_to_the_bidders_partner_is_fine():
    """001: the bid is set only if 'any trick goes to the other team': a trick won by the bidder's
    partner keeps it alive. Seat 2 bids; seat 0 (the partner) wins trick 1 with a seven."""
    st = sevens(bidder=2)
    run(st, "5-3, 4-4, 6-1, 6-2")
    assert trick_events(st)[0]["winner"] == 0
    assert not st.is_terminal() and st.tricks == [1, 0]


def test_sevens_option_off_removes_the_bids():
    """004 lists Sevens among house games (option sevens)."""
    g = game(sevens=False)
    assert g.definition.string_to_action("bid sevens 1") is None
    names = legal_names(g.new_hand(S1, 3))
    assert not any(n.startswith("bid sevens") for n in names) and "bid nello 1" in names


def test_sevens_bid_levels():
    """004: 'Sevens -- one mark and up', bid in marks: it tops a point bid, and over a marks bid
    it goes exactly one mark higher (000)."""
    st = play(game(), S1, 3, ["bid 35"])
    assert "bid sevens 1" in legal_names(st)
    st = play(game(), S1, 3, ["bid 84"])
    names = legal_names(st)
    assert "bid sevens 3" in names and "bid sevens 2" not in names


@settings(max_examples=examples(80), deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 10**9), bidder=st_.integers(0, 3))
def test_sevens_random_hands_follow_the_rules(seed, bidder):
    """001/004 as a property over random deals and random choices among the legal plays: the
    legal plays are exactly the closest to 7; the closest wins, ties to the first played; the hand
    ends the first time the other side takes a trick, else after seven."""
    rng = random.Random(seed)
    pieces = list(ALL_PIECES)
    rng.shuffle(pieces)
    hands = [pieces[i * 7:(i + 1) * 7] for i in range(4)]
    st = sevens(hands, bidder=bidder)
    held = [set(h) for h in hands]
    side = bidder % 2
    n_tricks = 0
    while not st.is_terminal():
        seat = st.current_player()
        assert set(legal_names(st)) == closest(held[seat])
        name = rng.choice(legal_names(st))
        held[seat].discard(name)
        act(st, name)
        evs = trick_events(st)
        if len(evs) > n_tricks:
            n_tricks = len(evs)
            ev = evs[-1]
            dists = [abs(pips(p) - 7) for _, p in ev["plays"]]
            first_best = dists.index(min(dists))
            assert ev["winner"] == ev["plays"][first_best][0]
            lost = ev["winner"] % 2 != side
            assert st.is_terminal() == (lost or n_tricks == 7)
    made = st.tricks[1 - side] == 0
    assert st.made is made
    assert st.score[side if made else 1 - side] == 1 and sum(st.score) == 1


def test_sevens_ties_to_the_bidding_side_option():
    """House rule (option sevens_ties: bidder): equally close pieces tie to the bidding side, not
    to the first played. S2 as above: seat 0 bids and leads the 6-0; seats 1, 2, 3 each play a
    seven; seat 2 (the bidder's partner) takes the trick, and the hand goes on."""
    st = sevens(S2, sevens_ties="bidder")
    run(st, "6-0, 5-2, 4-3, 6-1")
    assert trick_events(st)[0]["winner"] == 2
    assert not st.is_terminal() and st.tricks == [1, 0]


def test_sevens_ties_among_the_defenders_go_to_the_first_played():
    """With sevens_ties: bidder, a tie with no bidding-side piece at the top still goes to the
    first played: S2 with seat 2's 4-3 and seat 3's 2-2 swapped; seat 0 bids and leads the 6-0,
    seat 2 has no seven, and the sevens of seats 1 and 3 tie: seat 1's, played first, wins."""
    hands = deal(S2[0], S2[1], [p if p != "4-3" else "2-2" for p in S2[2]],
                 [p if p != "2-2" else "4-3" for p in S2[3]])
    st = sevens(hands, sevens_ties="bidder")
    run(st, "6-0, 5-2")
    act(st, legal_names(st)[0])
    act(st, "6-1")
    assert trick_events(st)[0]["winner"] == 1
