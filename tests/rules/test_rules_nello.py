"""Nello (001 calls it Low): the bidder alone against both opponents, no trump, must lose every trick.

Rule texts: 001 ("In a Low hand, the bidder's partner sits out ... It's a 3-player hand"; "Low
has no trump. Players must follow the led suit if they can. The highest bone of the led suit wins
each trick"; "If the bidder wins even one trick, the hand ends immediately and the other team gets
the mark"; "If doubles are high, the 4-4 beats every other four-suit bone. If doubles are low, the
4-4 loses to every other four-suit bone."); 004 ("Nello -- one mark and up. ... Your partner turns
their bones face down and sits the hand out, so it's you against both of them with no trumps. Take
a single trick and you're set."; "Nello doubles -- High ..., Low ..., or Own suit (doubles form a
suit of their own)"; "Every one of them is bid in marks, so it has to top whatever's on the table").
"""

from __future__ import annotations

import pytest

from tablerules.errors import GameError

from .helpers import (ALL_PIECES, act, auction, deal, ends, fill, followers, game, hand_event,
                      legal_names, norm, play, rank_of, run, suit_value, trick_events)

# Seat 0 (the bidder) holds only low pieces; seat 1 every six; seat 3 the fives and 4-4;
# seat 2, the bidder's partner, sits out.
N1 = deal("1-0 2-0 2-1 3-0 3-1 4-0 4-1",
          "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
          "4-3 4-2 3-3 3-2 2-2 1-1 0-0",
          "5-5 5-4 5-3 5-2 5-1 5-0 4-4")

# As N1 but the bidder holds the 6-6 (and seat 1 the 1-0).
N2 = deal("6-6 2-0 2-1 3-0 3-1 4-0 4-1",
          "1-0 6-5 6-4 6-3 6-2 6-1 6-0",
          "4-3 4-2 3-3 3-2 2-2 1-1 0-0",
          "5-5 5-4 5-3 5-2 5-1 5-0 4-4")


def nello(hands=N1, bidder=0, level=1, record=True, **opts):
    dealer = (bidder - 1) % 4
    return play(game(**opts), hands, dealer, auction(f"nello {level}", bidder, dealer),
                record=record)


@pytest.mark.parametrize("bidder", range(4))
def test_partner_sits_out(bidder):
    """001: 'the bidder's partner sits out -- their hand is put aside and they don't play. It's a
    3-player hand'. Each trick has three plays, in turn to the left, skipping the partner."""
    st = nello(fill(seed=bidder), bidder=bidder)
    partner = (bidder + 2) % 4
    assert tuple(st.active) == tuple(s for s in range(4) if s != partner)
    assert st.current_player() == bidder
    seen = []
    for _ in range(3):
        seen.append(st.current_player())
        st.apply_action(st.legal_actions()[0])
    assert seen == [bidder, (bidder + 1) % 4, (bidder + 3) % 4]
    ev = trick_events(st)[0]
    assert len(ev["plays"]) == 3 and partner not in [s for s, _ in ev["plays"]]
    assert st.observation(partner)["hand_sizes"][partner] == 7


def test_no_trump_is_named_and_the_bidder_leads():
    """004: 'it's you against both of them with no trumps'; 001: 'Low has no trump'. The auction
    goes straight to play with the bidder on lead; every piece leads its own higher end."""
    st = nello()
    assert st.current_player() == 0
    assert not any(n.startswith("trump") for n in legal_names(st))
    assert {p: suit_value(st, p) for p in ALL_PIECES} == {p: ends(p)[0] for p in ALL_PIECES}
    # nothing outranks the suit led: a piece that does not follow ranks below every follower
    for led in range(7):
        fol = followers(st, led)
        assert fol == {p for p in ALL_PIECES if led in ends(p)}
        assert max(rank_of(st, led, p) for p in ALL_PIECES if p not in fol) < \
            min(rank_of(st, led, p) for p in fol)


def test_must_follow_suit():
    """001: 'Players must follow the led suit if they can.' Seat 0 leads 1-0: seat 1 holds one
    one (6-1) and must play it; seat 3 must play its 5-1."""
    st = nello()
    act(st, "1-0")
    assert legal_names(st) == ["6-1"]
    act(st, "6-1")
    assert legal_names(st) == ["5-1"]


def test_bidder_losing_every_trick_makes_it():
    """004: 'You bid to lose every trick'. Seat 0 loses all seven: made, 1 mark to its side."""
    st = nello()
    run(st, "1-0, 6-1, 5-1")
    for six in ["6-6", "6-5", "6-4", "6-3", "6-2", "6-0"]:
        assert not st.is_terminal()
        act(st, six)
        for _ in range(2):
            st.apply_action(st.legal_actions()[0])
    assert st.is_terminal() and st.tricks_played == 7
    assert st.tricks == [0, 7] and st.made is True and st.score == [1, 0]


def test_nello_worth_its_marks():
    """004: Nello is bid at 'one mark and up'; a 2-mark Nello made scores 2."""
    st = nello(level=2)
    run(st, "1-0, 6-1, 5-1")
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert st.made is True and st.score == [2, 0]


def test_set_the_moment_the_bidder_takes_a_trick():
    """001: 'If the bidder wins even one trick, the hand ends immediately and the other team gets
    the mark.' N2, doubles high: the bidder loses trick 1, is forced to follow sixes with the 6-6
    on trick 2, takes it, and the hand is over with 1 mark to the opponents."""
    st = nello(N2)
    run(st, "2-0, 6-2, 5-2")
    assert not st.is_terminal() and trick_events(st)[0]["winner"] == 1
    act(st, "6-5")
    act(st, "4-4")  # seat 3 holds no six
    assert legal_names(st) == ["6-6"]
    act(st, "6-6")
    assert st.is_terminal()
    assert st.tricks_played == 2 and st.tricks == [1, 1]
    assert st.made is False and st.score == [0, 1]
    assert hand_event(st)["scored"] == [0, 1]


def test_set_nello_gives_its_marks():
    """004: 'Take a single trick and you're set' -- a 2-mark Nello set gives the opponents 2."""
    st = nello(N2, level=2)
    run(st, "6-6, 6-5, 5-5")  # the bidder leads the 6-6 and takes the trick
    assert st.is_terminal() and st.score == [0, 2]


# -- nello_doubles --------------------------------------------------------------------------------

def test_doubles_high_tops_its_suit():
    """001: 'If doubles are high, the 4-4 beats every other four-suit bone.'"""
    st = nello(nello_doubles="high")
    order = ["4-4", "6-4", "5-4", "4-3", "4-2", "4-1", "4-0"]
    ranks = [rank_of(st, 4, p) for p in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 7
    assert suit_value(st, "4-4") == 4


def test_doubles_low_bottoms_its_suit():
    """001: 'If doubles are low, the 4-4 loses to every other four-suit bone.'; 004: 'Low (the
    double becomes the worst of its suit, which makes it a useful escape)'."""
    st = nello(nello_doubles="low")
    order = ["6-4", "5-4", "4-3", "4-2", "4-1", "4-0", "4-4"]
    ranks = [rank_of(st, 4, p) for p in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 7
    assert suit_value(st, "4-4") == 4 and 4 in ends("4-4")
    assert "4-4" in followers(st, 4)


@pytest.mark.parametrize("nd,winner,over", [("high", 0, True), ("low", 1, False)])
def test_doubles_high_or_low_in_play(nd, winner, over):
    """001: doubles high or low decides who takes a trick: on N2's trick 2 the bidder's forced 6-6
    takes the trick when doubles are high and loses it to the 6-5 when they are low."""
    st = nello(N2, nello_doubles=nd)
    run(st, "2-0, 6-2, 5-2, 6-5, 4-4, 6-6")
    assert trick_events(st)[1]["winner"] == winner
    assert st.is_terminal() is over


@pytest.mark.parametrize("nd", ["high", "low"])
def test_every_double_is_at_an_end_of_its_suit(nd):
    """001: 'This applies to all doubles -- you can't mix.'"""
    st = nello(nello_doubles=nd)
    for n in range(7):
        double = f"{n}-{n}"
        others = [rank_of(st, n, norm(f"{n}-{o}")) for o in range(7) if o != n]
        r = rank_of(st, n, double)
        assert (r > max(others)) if nd == "high" else (r < min(others)), n
        assert r > 0  # it still follows its suit


def test_doubles_own_suit_lead_and_follow():
    """004: 'Own suit (doubles form a suit of their own)': a double leads doubles, the doubles
    follow only doubles, and a non-double never follows a double lead."""
    st = nello(nello_doubles="suit")
    doubles = {f"{n}-{n}" for n in range(7)}
    for d in doubles:
        assert suit_value(st, d) == "doubles"
    assert followers(st, "doubles") == doubles
    for n in range(7):
        assert followers(st, n) == {p for p in ALL_PIECES if n in ends(p) and p not in doubles}
    # among the doubles, the higher double wins
    ranks = [rank_of(st, "doubles", f"{n}-{n}") for n in range(6, -1, -1)]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 7


def test_doubles_own_suit_in_play():
    """004 'Own suit': the bidder leads the 6-6; seat 1 (no double) may play anything and cannot
    win; seat 3 must play a double (5-5 or 4-4) -- the higher double, 6-6, takes the trick."""
    st = nello(N2, nello_doubles="suit")
    act(st, "6-6")
    assert sorted(legal_names(st)) == sorted(N2[1])
    act(st, "1-0")
    assert legal_names(st) == ["4-4", "5-5"]
    act(st, "5-5")
    assert st.is_terminal() and trick_events(st)[0]["winner"] == 0 and st.score == [0, 1]


def test_doubles_own_suit_a_double_does_not_follow_its_number():
    """004 'Own suit': with fours led the 4-4 is no four: seat 3 (5-4 and 4-4) must play the 5-4."""
    st = nello(N1, nello_doubles="suit")
    act(st, "4-0")
    act(st, "6-4")  # seat 1's only four
    assert legal_names(st) == ["5-4"]


# -- bidding nello ----------------------------------------------------------------------------------

def test_nello_option_off_removes_the_bids():
    """004 'House rules in this app -- Nello': the table may play without it (option nello)."""
    g = game(nello=False)
    gd = g.definition
    assert gd.string_to_action("bid nello 1") is None
    names = legal_names(g.new_hand(N1, 3))
    assert not any(n.startswith("bid nello") for n in names)
    assert "bid sevens 1" in names and "bid 30" in names


@pytest.mark.parametrize("high", [30, 35, 41])
def test_nello_one_mark_tops_a_point_bid(high):
    """004: Nello is 'one mark and up' and 'has to top whatever's on the table': 1 mark is above
    any point bid below 42."""
    st = play(game(), N1, 3, [f"bid {high}"])
    assert "bid nello 1" in legal_names(st)


def test_nello_over_a_marks_bid_goes_one_mark_higher():
    """000: over a marks bid 'the only way to outbid it is to go exactly one mark higher'; 004:
    Nello is bid in marks."""
    st = play(game(), N1, 3, ["bid 84"])
    names = legal_names(st)
    assert "bid nello 3" in names and "bid nello 2" not in names
    with pytest.raises(GameError):
        st.apply_action(st.game.string_to_action("bid nello 2"))
