"""The one-round auction: order, what beats what, marks bids, minimum bid, all-pass policies.

Rule texts: 000 "Bidding", "Marks"; 001 ("Starting left of the dealer ... The dealer bids last.
The minimum bid is 30."); 002 "The Bidding" ('Each bid must be higher than the previous one';
'In the case nobody bids, the dominoes are drawn again'); 004 "Bidding" and "House rules in this
app" ('Minimum bid', 'If everyone passes -- Reshuffle ... Dealer stuck').
"""

from __future__ import annotations

import random

import pytest

from tablerules.engine.state import PLAY
from tablerules.errors import GameError

from .helpers import act, action, fill, game, legal_names, play, run

HANDS = fill(seed=1)


def bids_of(names, contract):
    """The levels of a contract's bids among action names ("bid 30", "bid 84", "bid nello 1")."""
    out = []
    for n in names:
        parts = n.split()
        if parts[0] != "bid":
            continue
        if len(parts) == 3 and parts[1] == contract:
            out.append(int(parts[2]))
        elif len(parts) == 2:  # point bids by their level, marks bids by their points
            v = int(parts[1])
            if contract == ("points" if v <= 42 else "marks"):
                out.append(v if v <= 42 else v // 42)
    return out


@pytest.mark.parametrize("dealer", range(4))
def test_first_speaker_is_left_of_the_dealer_and_one_round(dealer):
    """000: 'Starting with the player to the dealer's left, each player in turn either bids or
    passes -- there's only one round'; 001: 'The dealer bids last.'"""
    st = game().new_hand(HANDS, dealer)
    order = []
    for name in ["bid 30", "pass", "bid 31", "pass"]:
        order.append(st.current_player())
        act(st, name)
    assert order == [(dealer + k) % 4 for k in (1, 2, 3, 4)]
    # the auction is over after one round: the high bidder names trump
    assert legal_names(st)[0].startswith("trump ")
    assert st.current_player() == (dealer + 3) % 4


def test_high_bidder_wins_not_the_last_speaker():
    """000: 'Whoever wins the bidding names one of the seven suits'. Seat 1 bids 35, the rest
    pass: seat 1 names trump and leads."""
    st = play(game(), HANDS, 0, "bid 35, pass, pass, pass")
    assert st.current_player() == 1
    assert set(legal_names(st)) == {f"trump {t}" for t in range(7)} | {"trump doubles",
                                                                         "trump followme"}
    act(st, "trump 2")
    assert st.current_player() == 1 and st.phase == PLAY and st.tables is not None


def test_opening_bids():
    """000: 'Bids run from 30 up to 42 points'; marks bids of 2 and more, of which at most 2 may
    open by default; 004: Nello and Sevens 'one mark and up'."""
    names = legal_names(game().new_hand(HANDS, 0))
    assert "pass" in names
    assert bids_of(names, "points") == list(range(30, 43))
    assert bids_of(names, "marks") == [2]
    assert bids_of(names, "nello") == [1, 2]
    assert bids_of(names, "sevens") == [1, 2]


@pytest.mark.parametrize("high", [30, 33, 41])
def test_a_bid_must_beat_the_high_bid(high):
    """002: 'Each bid must be higher than the previous one.'"""
    st = play(game(), HANDS, 0, [f"bid {high}"])
    names = legal_names(st)
    assert bids_of(names, "points") == list(range(high + 1, 43))
    with pytest.raises(GameError):
        st.apply_action(action(st.game, f"bid {high}"))
    if high > 30:
        with pytest.raises(GameError):
            st.apply_action(action(st.game, f"bid {high - 1}"))


def test_marks_bid_beats_any_point_bid():
    """000: a marks bid 'always outranks a plain point bid' -- even 42."""
    st = play(game(), HANDS, 0, ["bid 42"])
    names = legal_names(st)
    assert bids_of(names, "points") == []
    assert bids_of(names, "marks") == [2]


def test_point_bid_never_beats_a_marks_bid():
    """000: marks bids outrank point bids; 'the only way to outbid it is to go exactly one mark
    higher'."""
    st = play(game(), HANDS, 0, ["pass", "bid 84"])
    names = legal_names(st)
    assert bids_of(names, "points") == [] and bids_of(names, "marks") == [3]


def test_marks_bids_go_up_exactly_one():
    """000: 'once a marks bid is on the table, the only way to outbid it is to go exactly one mark
    higher'. 2 -> 3 -> 4 -> 5 over one round."""
    st = game().new_hand(HANDS, 0)
    for level in (2, 3, 4, 5):
        assert bids_of(legal_names(st), "marks") == [level]
        act(st, f"bid {42 * (level)}")
    assert st.current_player() == 0  # the dealer's 5 marks won; it names trump


def test_opening_marks_bid_at_most_two_by_default():
    """000 / 004: bids of 'two marks (84) and three marks (168)' -- three only over a two."""
    st = game().new_hand(HANDS, 0)
    with pytest.raises(GameError):
        st.apply_action(action(st.game, "bid 126"))


@pytest.mark.parametrize("max_open", [2, 3, 4])
def test_option_max_opening_marks(max_open):
    """Option max_opening_marks (house rule): the largest marks bid that may open."""
    g = game(max_opening_marks=max_open)
    names = legal_names(g.new_hand(HANDS, 0))
    assert bids_of(names, "marks") == list(range(2, max_open + 1))
    st = play(g, HANDS, 0, ["bid 30"])
    assert bids_of(legal_names(st), "marks") == list(range(2, max_open + 1))


@pytest.mark.parametrize("step", [1, 2, 3])
def test_option_marks_step(step):
    """Option marks_step: over a standing marks bid the next is exactly this many marks more."""
    g = game(marks_step=step)
    st = play(g, HANDS, 0, ["bid 84"])
    assert bids_of(legal_names(st), "marks") == [2 + step]
    act(st, f"bid {42 * (2 + step)}")
    assert bids_of(legal_names(st), "marks") == [2 + 2 * step]


@pytest.mark.parametrize("min_bid", [30, 32, 34])
def test_option_min_bid(min_bid):
    """004 'Minimum bid -- the lowest opening bid allowed. Raising it to 32 or 34'."""
    g = game(min_bid=min_bid)
    names = legal_names(g.new_hand(HANDS, 0))
    assert bids_of(names, "points") == list(range(min_bid, 43))
    assert g.definition.string_to_action(f"bid {min_bid - 1}") is None


def test_options_as_strings():
    """Options may be given as command-line strings ('34', 'reshuffle', 'false')."""
    g = game(min_bid="34", all_pass="reshuffle", nello="false")
    opts = g.definition.options
    assert opts["min_bid"] == 34 and opts["all_pass"] == "reshuffle" and opts["nello"] is False


# -- everybody passes ---------------------------------------------------------------------------

@pytest.mark.parametrize("dealer", range(4))
def test_dealer_stuck_after_three_passes(dealer):
    """000: 'If the first three players all pass, the dealer is stuck with it and must bid -- the
    dealer can't pass'; 004: 'Dealer stuck forces whoever shook to take the bid at the minimum'."""
    st = play(game(), HANDS, dealer, "pass, pass, pass")
    assert st.current_player() == dealer
    assert legal_names(st) == ["bid 30"]
    with pytest.raises(GameError):
        st.apply_action(st.game.pass_action)
    act(st, "bid 30")
    assert st.current_player() == dealer  # the dealer names trump
    assert legal_names(st)[0].startswith("trump ")


def test_dealer_stuck_at_the_house_minimum():
    """004: 'Dealer stuck forces whoever shook to take the bid at the minimum' (min_bid 34)."""
    st = play(game(min_bid=34), HANDS, 2, "pass, pass, pass")
    assert legal_names(st) == ["bid 34"]


def test_dealer_not_stuck_when_someone_bid():
    """000: the dealer is stuck only 'If the first three players all pass'."""
    st = play(game(), HANDS, 0, "pass, bid 30, pass")
    names = legal_names(st)
    assert "pass" in names and bids_of(names, "points") == list(range(31, 43))


def test_only_the_dealer_is_stuck():
    """000: the first three seats may all pass; only the fourth, the dealer, is forced."""
    st = game().new_hand(HANDS, 1)
    for _ in range(3):
        assert "pass" in legal_names(st)
        act(st, "pass")


def test_reshuffle_dealer_may_pass():
    """004: 'If everyone passes -- Reshuffle throws the hand in and deals again.'"""
    st = play(game(all_pass="reshuffle"), HANDS, 0, "pass, pass, pass")
    assert "pass" in legal_names(st)


def test_reshuffle_four_passes_throw_the_hand_in():
    """002: 'In the case nobody bids, the dominoes are drawn again.' A single hand ends with no
    contract and no marks."""
    st = play(game(all_pass="reshuffle"), HANDS, 0, "pass, pass, pass, pass", record=True)
    assert st.is_terminal()
    assert st.score == [0, 0] and st.tricks_played == 0
    ev = [e for e in st.events if e["type"] == "hand"][-1]
    assert ev.get("thrown_in") is True


def test_reshuffle_in_a_match_passes_the_deal_left():
    """004: Reshuffle 'throws the hand in and deals again'; 000: 'The deal rotates to the left'.
    In a match, four passes bring a new deal by the next dealer and no marks."""
    g = game(all_pass="reshuffle")
    st = g.new_match(record=True, first_dealer=0)
    st.deal_random(random.Random(5))
    assert st.dealer == 0 and st.current_player() == 1
    run(st, "pass, pass, pass, pass")
    assert not st.is_terminal()
    assert st.is_chance_node()
    assert st.dealer == 1 and st.score == [0, 0]
    st.deal_random(random.Random(6))
    assert st.current_player() == 2  # left of the new dealer
    deals = [e for e in st.events if e["type"] == "deal"]
    assert [d["dealer"] for d in deals] == [0, 1]
