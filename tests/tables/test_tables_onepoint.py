"""texas42-onepoint: the auction and play of rule text 000 (/work/shared/rules/000_55430c4cb72388cd.txt).

Every case goes through the compiled ruleset (`load_game("texas42-onepoint", ...)`); the quoted
lines are the rule text's own words.
"""

from __future__ import annotations

import random

import pytest

from tkit import (act, bids_in, events, fill, game, hand, last, legal, option_rejected,
                  random_finish, speeches)

NAME = "texas42-onepoint"
G = game(NAME)
DEALER = 3  # seat 0 speaks first, the dealer (seat 3) last

# seat 0 bids; seat 1 holds sixes and fours, seat 2 fives, seat 3 the rest
LEAD_DEAL = fill("6-4 4-1 3-3 1-1 2-2 0-0 5-5",
                 "6-5 6-3 6-2 4-3 4-2 4-0 1-0",
                 "6-1 6-0 5-4 5-3 5-2 5-1 5-0")


def points(*levels: int) -> list[str]:
    return [f"bid {n}" for n in levels]


# -- "the dealer ... is restricted to raising the bid by exactly one point (or jumping straight
#     to a marks bid) rather than free-raising like the other three seats" ----------------------


@pytest.mark.parametrize("standing", [30, 33, 35, 41])
def test_dealer_may_only_raise_a_standing_point_bid_by_one_or_jump_to_marks(standing):
    st = hand(G, fill(seed=1), DEALER, f"bid {standing}", "pass", "pass")
    assert st.current_player() == DEALER
    assert legal(st) == ["pass", f"bid {standing + 1}", "bid 84"]


def test_dealer_over_a_42_bid_can_only_jump_to_marks():
    st = hand(G, fill(seed=1), DEALER, "bid 42", "pass", "pass")
    assert legal(st) == ["pass", "bid 84"]


def test_dealer_raises_the_latest_bid_not_the_first():
    st = hand(G, fill(seed=2), DEALER, "bid 30", "bid 34", "pass")
    assert legal(st) == ["pass", "bid 35", "bid 84"]


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_the_dealer_restriction_follows_the_deal(dealer):
    first = (dealer + 1) % 4
    st = hand(G, fill(seed=3), dealer, "bid 31", "pass", "pass")
    assert st.current_player() == dealer and first != dealer
    assert legal(st) == ["pass", "bid 32", "bid 84"]


def test_other_seats_free_raise():
    # "... rather than free-raising like the other three seats"
    st = hand(G, fill(seed=4), DEALER, "bid 30")
    assert legal(st) == ["pass"] + points(*range(31, 43)) + ["bid 84"]
    act(st, "bid 36")
    assert legal(st) == ["pass"] + points(*range(37, 43)) + ["bid 84"]


def test_dealer_raise_zero_lets_the_dealer_bid_like_anyone():
    g = game(NAME, dealer_raise=0)
    st = hand(g, fill(seed=1), DEALER, "bid 30", "pass", "pass")
    assert legal(st) == ["pass"] + points(*range(31, 43)) + ["bid 84"]


def test_dealer_raise_option_sets_the_raise():
    g = game(NAME, dealer_raise=2)
    st = hand(g, fill(seed=1), DEALER, "bid 30", "pass", "pass")
    assert legal(st) == ["pass", "bid 32", "bid 84"]


# -- "Bids run from 30 up to 42 points; a player can also bid in marks (see below), which always
#     outranks a plain point bid." ---------------------------------------------------------------


def test_opening_bids_run_from_30_to_42_and_two_marks():
    st = hand(G, fill(seed=5), DEALER)
    assert legal(st) == ["pass"] + points(*range(30, 43)) + ["bid 84"]


def test_a_marks_bid_outranks_a_42_bid():
    st = hand(G, fill(seed=5), DEALER, "bid 42")
    assert legal(st) == ["pass", "bid 84"]


# -- "Any player -- not just the dealer -- can open a marks bid, and once a marks bid is on the
#     table, the only way to outbid it is to go exactly one mark higher." --------------------------


@pytest.mark.parametrize("position", [0, 1, 2, 3])
def test_any_seat_may_open_a_marks_bid(position):
    st = hand(G, fill(seed=6), DEALER, *(["pass"] * position))
    seat = st.current_player()
    assert seat == position  # seat 0 speaks first, the dealer (seat 3) last
    assert "bid 84" in legal(st)
    act(st, "bid 84", *(["pass"] * (3 - position)))
    assert st.bidder == seat and G.definition.bids[st.bid].label == "84"


@pytest.mark.parametrize("position", [0, 1, 2])
def test_any_seat_may_open_marks_over_a_point_bid(position):
    st = hand(G, fill(seed=6), DEALER, *(["pass"] * position), "bid 35")
    assert "bid 84" in legal(st)


@pytest.mark.parametrize("standing", [2, 3, 4])
def test_over_a_marks_bid_only_exactly_one_mark_more(standing):
    script = ["bid 84"] + [f"bid {42 * (m)}" for m in range(3, standing + 1)]
    st = hand(G, fill(seed=7), DEALER, *script)
    assert legal(st) == ["pass", f"bid {42 * (standing + 1)}"]


def test_the_dealer_over_a_marks_bid_also_goes_one_mark_higher():
    st = hand(G, fill(seed=7), DEALER, "pass", "bid 84", "pass")
    assert st.current_player() == DEALER
    assert legal(st) == ["pass", "bid 126"]


# -- "If the first three players all pass, the dealer is stuck with it and must bid -- the dealer
#     can't pass, so every hand gets played." ------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_first_three_pass_the_dealer_cannot_pass(dealer):
    st = hand(G, fill(seed=8), dealer, "pass", "pass", "pass")
    assert st.current_player() == dealer
    assert "pass" not in legal(st)
    # the dealer is still held to the one-point rule: the minimum or a marks bid
    assert legal(st) == ["bid 30", "bid 84"]


def test_all_pass_stuck_holds_the_dealer_to_the_minimum():
    for min_bid in (30, 32):
        g = game(NAME, all_pass="stuck", min_bid=min_bid)
        st = hand(g, fill(seed=8), DEALER, "pass", "pass", "pass")
        assert legal(st) == [f"bid {min_bid}"]


def test_all_pass_reshuffle_throws_the_hand_in():
    g = game(NAME, all_pass="reshuffle")
    st = hand(g, fill(seed=8), DEALER, "pass", "pass", "pass")
    assert "pass" in legal(st)
    act(st, "pass")
    assert st.is_terminal()
    assert last(st, "hand").get("thrown_in") is True


def test_every_hand_gets_played():
    # a whole match: no deal is ever thrown in under the default dealer_bids
    rng = random.Random(0)
    st = random_finish(G.new_match(record=True), rng)
    assert not [e for e in events(st, "hand") if e.get("thrown_in")]
    assert len(events(st, "deal")) == len(events(st, "hand"))


# -- the overlay has no Nello and no Sevens ---------------------------------------------------


def test_no_nello_or_sevens_bids():
    gd = G.definition
    assert {b.contract_name for b in gd.bids[1:]} == {"points", "marks"}
    assert gd.string_to_action("bid nello 1") is None
    assert gd.string_to_action("bid sevens 1") is None
    assert not [b for b in bids_in(gd) if "nello" in b or "sevens" in b]
    rng = random.Random(1)
    for _ in range(20):
        st = G.new_match()
        st.deal_random(rng)
        while st.phase == 1:
            assert not [a for a in legal(st) if "nello" in a or "sevens" in a]
            st.apply_action(rng.choice(st.legal_actions()))


# -- "A trump domino always leads trump, regardless of its other number. A non-trump double leads
#     its own suit. A non-trump, non-double domino leads whichever of its two numbers is higher." -


def _trump_one():
    return hand(G, LEAD_DEAL, DEALER, *speeches(0, "bid 30", DEALER), "trump 1")


def test_a_non_trump_non_double_leads_its_higher_end():
    st = _trump_one()
    act(st, "6-4")
    # seat 1 holds 6-5 6-3 6-2 and 4-3 4-2 4-0: only the sixes follow
    assert legal(st) == ["6-2", "6-3", "6-5"]
    act(st, "6-5")
    assert legal(st) == ["6-0"]  # seat 2's 6-1 is a trump (ones), not a six
    act(st, "6-0")
    assert legal(st) == ["6-6"]  # seat 3 follows sixes with the double, the top six
    act(st, "6-6")
    tr = last(st, "trick")
    assert tr["led"] == 6
    assert tr["winner"] == 3


def test_a_trump_domino_leads_trump():
    st = _trump_one()
    act(st, "4-1")
    assert legal(st) == ["1-0"]  # seat 1's only trump; its fours do not follow
    act(st, "1-0")
    act(st, legal(st)[0])
    act(st, legal(st)[0])
    assert last(st, "trick")["led"] == 1


def test_a_non_trump_double_leads_its_own_suit():
    st = _trump_one()
    act(st, "3-3")
    assert legal(st) == ["4-3", "6-3"]


def test_follow_me_leads_the_higher_end_and_nothing_is_trump():
    # "Under a No Trump contract ... every lead is just a double leading its own suit or a
    #  non-double leading its higher number"
    st = hand(G, LEAD_DEAL, DEALER, *speeches(0, "bid 30", DEALER), "trump followme", "4-1")
    assert legal(st) == ["4-0", "4-2", "4-3"]
    act(st, "4-3")
    act(st, legal(st)[0])
    act(st, legal(st)[0])
    tr = last(st, "trick")
    assert tr["led"] == 4


def test_a_trump_bone_is_trump_only():
    # "A domino that contains the trump number is trump only -- it doesn't count as belonging to
    #  its other number for follow-suit purposes."
    deal = fill("6-6 5-5 4-4 3-3 2-2 1-1 0-0", "6-4 5-3 5-2 5-1 3-2 3-1 2-1")
    st = hand(G, deal, DEALER, *speeches(0, "bid 30", DEALER), "trump 4", "6-6")
    # 6-4 is seat 1's only six, but it is a four (trump): seat 1 may play anything
    assert sorted(legal(st)) == sorted(["6-4", "5-3", "5-2", "5-1", "3-2", "3-1", "2-1"])


# -- "A plain bid of 30-42 is worth 1 mark if made ... fall one trick short and the opposing team
#     scores that many marks instead." and "this app stops play the moment the outcome is no
#     longer in doubt" -------------------------------------------------------------------------


def test_a_marks_bid_is_set_by_the_first_lost_trick():
    deal = fill("6-5 5-4 4-3 3-2 2-1 1-0 6-0", "6-6 5-5 4-4 3-3 2-2 1-1 0-0")
    st = hand(G, deal, DEALER, *speeches(0, "bid 84", DEALER), "trump 0", "6-5")
    act(st, "6-6")  # the double six takes the trick
    act(st, legal(st)[0])
    act(st, legal(st)[0])
    assert st.is_terminal()
    h = last(st, "hand")
    assert h["made"] is False and h["scored"] == [0, 2] and h["ended_after_trick"] == 1


def test_a_made_point_bid_scores_one_mark_and_ends_early():
    deal = fill("6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 4-4 3-3 2-2 1-1 0-0 5-4")
    st = hand(G, deal, DEALER, *speeches(0, "bid 30", DEALER), "trump 6")
    rng = random.Random(2)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    h = last(st, "hand")
    assert h["made"] is True and h["scored"] == [1, 0]
    assert h["points"][0] >= 30 and h["ended_after_trick"] < 7


def test_a_match_is_won_at_seven_marks():
    # "The first partnership to reach 7 marks wins the match."
    st = random_finish(G.new_match(record=True), random.Random(3))
    m = last(st, "match")
    assert max(m["score"]) >= 7
    assert sorted(m["score"])[0] < 7
    # the hand before the last left both sides short of 7
    hands = events(st, "hand")
    assert len(hands) < 2 or max(hands[-2]["score"]) < 7


def test_an_unknown_all_pass_policy_is_rejected():
    assert "dealer_bids, stuck, reshuffle" in option_rejected(NAME, all_pass="redeal")
