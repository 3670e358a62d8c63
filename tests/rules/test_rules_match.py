"""Matches: the deal rotates left, marks add up, the match ends at marks_to_win.

Rule texts: 000 ("The deal rotates to the left after every hand"; "The first partnership to reach
7 marks wins the match"; "If the bidding team's total meets or beats their bid, they score the
marks that bid was worth ... the other team scores nothing for that hand. If the bidding team falls
short ... the opposing team scores those marks instead"); 001 ("The marks-to-win target can be
changed ... (7, 9, or 11)"; "The deal rotates clockwise each hand. The player to the left of the
dealer bids first."); 002 ("You can play Quick games, meaning you play a hand, or you can play for
3, 5, or 7 marks"); 004 ("Game to -- how many marks win. 7 is standard; 3 or 5").
"""

from __future__ import annotations

import random

import pytest

from .helpers import game, random_playout


def events(st, kind):
    return [e for e in st.events if e["type"] == kind]


def test_deal_rotates_left():
    """000: 'The deal rotates to the left after every hand'; the dealer of hand 2 is seat 1, and
    seat 2 speaks first (001: 'The player to the left of the dealer bids first')."""
    st = game().new_match(record=True, first_dealer=0)
    rng = random.Random(1)
    assert st.is_chance_node()
    st.deal_random(rng)
    assert st.dealer == 0 and st.current_player() == 1
    while not st.is_chance_node():
        st.apply_action(rng.choice(st.legal_actions()))
    assert st.dealer == 1
    st.deal_random(rng)
    assert st.current_player() == 2


@pytest.mark.parametrize("seed", range(4))
def test_dealers_over_a_whole_match(seed):
    """000: the deal rotates left after every hand: dealers run d, d+1, d+2, ... (mod 4) from
    the first dealer, drawn by lot."""
    st = random_playout(game().new_match(record=True), random.Random(seed))
    dealers = [e["dealer"] for e in events(st, "deal")]
    assert dealers == [(dealers[0] + i) % 4 for i in range(len(dealers))]


@pytest.mark.parametrize("seed", range(6))
def test_each_hand_marks_go_to_one_side(seed):
    """000: made -> the bidders score the bid's marks 'and the other team scores nothing'; set ->
    'the opposing team scores those marks instead'. Point bids are worth 1; marks, Nello and
    Sevens bids their level."""
    st = random_playout(game().new_match(record=True), random.Random(seed))
    score = [0, 0]
    for ev in events(st, "hand"):
        if ev.get("thrown_in"):
            continue
        level = int(ev["bid"].split()[-1])  # "30", "84" (two marks), "nello 1"
        worth = {"points": 1, "marks": level // 42}.get(ev["contract"], level)
        bidder_side = ev["bidder"] % 2
        winner = bidder_side if ev["made"] else 1 - bidder_side
        want = [0, 0]
        want[winner] = worth
        assert ev["scored"] == want, ev
        score = [a + b for a, b in zip(score, want)]
        assert ev["score"] == score
    assert st.score == score


@pytest.mark.parametrize("target", [1, 3, 7, 11])
def test_match_ends_at_marks_to_win(target):
    """000: 'The first partnership to reach 7 marks wins the match'; 001: 'The marks-to-win target
    can be changed'; 002: 'Quick games, meaning you play a hand'."""
    st = random_playout(game(marks_to_win=target).new_match(record=True), random.Random(target))
    assert st.is_terminal()
    hands = events(st, "hand")
    final = st.score
    assert max(final) >= target and min(final) < target
    # the match did not end earlier: before the last hand nobody had reached the target
    before = hands[-2]["score"] if len(hands) > 1 else [0, 0]
    assert max(before) < target
    winner = final.index(max(final))
    assert events(st, "match")[0]["winner"] == [winner]
    r = st.returns()
    assert [r[s] for s in range(4)] == [1.0 if s % 2 == winner else -1.0 for s in range(4)]
    if target == 1:
        assert len(hands) == 1


def test_default_match_is_to_seven():
    """000: 'The first partnership to reach 7 marks wins the match.'"""
    assert game().definition.options["marks_to_win"] == 7
    st = random_playout(game().new_match(record=True), random.Random(99))
    assert max(st.score) >= 7 and min(st.score) < 7


@pytest.mark.parametrize("seed", range(3))
def test_partner_sits_out_only_in_nello_hands(seed):
    """001: in a Low (Nello) hand 'the bidder's partner sits out'; every other hand is played by
    all four, also the hands that follow a Nello hand in the same match."""
    st = random_playout(game(marks_to_win=21).new_match(record=True), random.Random(seed))
    contract = None
    bidder = None
    for ev in st.events:
        if ev["type"] == "contract":
            contract, bidder = ev["contract"], ev["bidder"]
        elif ev["type"] == "trick":
            seats = [s for s, _ in ev["plays"]]
            if contract == "nello":
                assert len(seats) == 3 and (bidder + 2) % 4 not in seats
            else:
                assert sorted(seats) == [0, 1, 2, 3]


@pytest.mark.parametrize("opts", [{"nello_doubles": "middle"}, {"all_pass": "redeal"},
                                  {"min_bid": 43}, {"marks_to_win": 0}, {"nello": "maybe"}])
def test_bad_option_values_are_refused(opts):
    """The house-rule options (004 'House rules in this app') take only their listed values."""
    from tablerules.errors import TablerulesError
    from tablerules.game import load_game
    with pytest.raises(TablerulesError):
        load_game("texas42", opts)
