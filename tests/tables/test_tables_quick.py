"""texas42-quick: the rules of rule text 002 (/work/shared/rules/002_f7d680fdbea366ed.txt).

Every case goes through the compiled ruleset (`load_game("texas42-quick", ...)`); the quoted
lines are the rule text's own words.
"""

from __future__ import annotations

import random

import pytest

from tkit import (act, bids_in, events, fill, game, hand, last, legal, option_rejected,
                  random_finish, speeches)

NAME = "texas42-quick"
G = game(NAME)
DEALER = 3  # seat 0 speaks first

SIXES = "6-6 6-5 6-4 6-3 6-2 6-1 6-0"


# -- "In the case nobody bids, the dominoes are drawn again." --------------------------------


def test_four_passes_throw_the_hand_in():
    st = hand(G, fill(seed=1), DEALER, "pass", "pass", "pass")
    assert "pass" in legal(st)  # the dealer is not stuck
    act(st, "pass")
    assert st.is_terminal()
    h = last(st, "hand")
    assert h["thrown_in"] is True and h["score"] == [0, 0]
    assert not events(st, "contract") and not events(st, "trick")


def test_a_thrown_in_deal_is_dealt_again_by_the_next_dealer():
    st = G.new_match(record=True)
    st.deal_random(random.Random(1))
    first_dealer = st.dealer
    act(st, "pass", "pass", "pass", "pass")
    assert not st.is_terminal()
    assert st.phase == 0  # a new deal is due
    st.deal_random(random.Random(2))
    deals = events(st, "deal")
    assert len(deals) == 2 and deals[1]["dealer"] == (first_dealer + 1) % 4
    assert deals[1]["hand"] == 1  # a thrown-in deal is not a hand played
    assert last(st, "hand")["thrown_in"] is True


# -- "You can play Quick games, meaning you play a hand, or you can play for 3, 5, or 7 marks" --


@pytest.mark.parametrize("seed", range(5))
def test_quick_match_ends_after_one_hand(seed):
    g = game(NAME, quick=True)
    st = random_finish(g.new_match(record=True), random.Random(seed))
    played = [h for h in events(st, "hand") if not h.get("thrown_in")]
    assert len(played) == 1
    m = last(st, "match")
    assert m["hands_scored"] == 1 and m["score"] == played[0]["score"]
    assert m["winner"] == [played[0]["scored"].index(max(played[0]["scored"]))]


def test_a_quick_match_does_not_end_on_a_thrown_in_deal():
    g = game(NAME, quick=True)
    st = g.new_match(record=True)
    st.deal_random(random.Random(3))
    act(st, "pass", "pass", "pass", "pass")
    assert not st.is_terminal() and st.phase == 0


@pytest.mark.parametrize("marks", [3, 5, 7])
def test_matches_to_three_five_or_seven_marks(marks):
    g = game(NAME, marks_to_win=marks)
    st = random_finish(g.new_match(record=True), random.Random(marks))
    m = last(st, "match")
    assert max(m["score"]) >= marks
    played = [h for h in events(st, "hand") if not h.get("thrown_in")]
    assert len(played) >= 2 or max(played[0]["scored"]) >= marks
    assert max(played[-2]["score"]) < marks if len(played) >= 2 else True


def test_the_default_match_is_seven_marks_and_not_quick():
    assert G.definition.options["marks_to_win"] == 7 and G.definition.options["quick"] is False
    st = random_finish(G.new_match(record=True), random.Random(9))
    assert max(last(st, "match")["score"]) >= 7


@pytest.mark.parametrize("marks", [1, 4, 6, 9])
def test_other_match_lengths_are_rejected(marks):
    assert "3, 5, 7" in option_rejected(NAME, marks_to_win=marks)


def test_all_pass_is_fixed_by_the_overlay_not_an_allowed_stuck_dealer():
    # the overlay sets all_pass: reshuffle; a dealer is never forced
    assert G.definition.options["all_pass"] == "reshuffle"
    st = hand(G, fill(seed=4), 1, "pass", "pass", "pass")
    assert "pass" in legal(st)


# -- "The minimum bid is 30 points and the maximum bid is 42. Each bid must be higher than the
#     previous one." ----------------------------------------------------------------------------


def test_bids_run_from_30_to_42_each_higher_than_the_last():
    st = hand(G, fill(seed=5), DEALER)
    points = [b for b in legal(st) if b.split()[-1].isdigit() and int(b.split()[-1]) <= 42]
    assert points == [f"bid {n}" for n in range(30, 43)]
    act(st, "bid 35")
    assert [b for b in legal(st) if b.split()[-1].isdigit() and int(b.split()[-1]) <= 42] == [
        f"bid {n}" for n in range(36, 43)]


def test_no_nello_or_sevens():
    bids = bids_in(G.definition)
    assert not [b for b in bids if "nello" in b or "sevens" in b]
    assert {b.contract_name for b in G.definition.bids[1:]} == {"points", "marks"}


# -- "If doubles are chosen as the trump, the order from highest trump to lowest is as follows:
#     6-6, 5-5, 4-4, 3-3, 2-2, 1-1, and 0-0. If the 6-5 is played, this is the highest domino of
#     the 6 suit, not the 6-6, since the 6-6 belongs to the trump suit." ------------------------


def test_with_doubles_trump_the_6_5_is_the_top_six():
    deal = fill("6-5 1-0 2-0 2-1 3-0 3-1 3-2", "6-6 6-4 4-0 4-1 4-2 4-3 5-0", "6-3 5-1 5-2 5-3 5-4 1-1 0-0")
    st = hand(G, deal, DEALER, *speeches(0, "bid 30", DEALER), "trump doubles", "6-5")
    assert legal(st) == ["6-4"]  # the 6-6 is a trump, not a six
    act(st, "6-4")
    assert legal(st) == ["6-3"]
    act(st, "6-3")
    assert legal(st) == ["6-0", "6-1", "6-2"]  # seat 3's doubles are trumps, not sixes
    act(st, "6-2")
    tr = last(st, "trick")
    assert tr["led"] == 6
    assert tr["winner"] == 0  # nobody trumped: the 6-5 is the highest six


def test_with_doubles_trump_the_4_4_wins_a_trick_of_fours():
    # "the first player leads with a 4-3 ... the 4-4 doesn't belong to the suit of 4's, instead
    #  since doubles are trump, it belongs to the trump suit and would win the round if played."
    deal = fill("4-3 1-0 2-0 2-1 3-0 3-1 3-2", "4-4 6-5 6-3 6-2 6-1 6-0 5-0", "6-4 5-4 5-1 5-2 5-3 1-1 0-0")
    st = hand(G, deal, DEALER, *speeches(0, "bid 30", DEALER), "trump doubles", "4-3")
    assert "4-4" in legal(st) and len(legal(st)) == 7  # no four to follow with
    act(st, "4-4")
    assert legal(st) == ["5-4", "6-4"]
    act(st, "6-4")
    act(st, legal(st)[0])
    tr = last(st, "trick")
    assert tr["led"] == 4 and tr["winner"] == 1


# -- "If they chose no trump, then the highest number of the piece led becomes the trump for that
#     trick ... The double is always the highest piece. ... 4-3 ... the leading suit for that
#     trick is the 4's; ... 4-4 is the highest, then the 4-6, 4-5, 4-3, 4-2, 4-1 and 4-0" ---------


@pytest.mark.parametrize("second, third, winner", [
    ("4-4", "6-4", 1), ("4-2", "6-4", 2), ("4-2", "5-4", 2), ("4-1", "4-0", 0)])
def test_follow_me_four_three_leads_fours(second, third, winner):
    seat1 = ["4-4", "4-2", "4-1", "1-0", "2-0", "2-1", "1-1"]
    seat2 = ["6-4", "5-4", "4-0", "6-0", "6-1", "6-2", "6-3"]
    deal = fill(["4-3", "3-0", "3-1", "3-2", "3-3", "0-0", "2-2"], seat1, seat2)
    st = hand(G, deal, DEALER, *speeches(0, "bid 30", DEALER), "trump followme", "4-3")
    act(st, second, third)
    act(st, legal(st)[0])  # seat 3 holds no four
    tr = last(st, "trick")
    assert tr["led"] == 4 and tr["winner"] == winner


# -- "If the trump is 6, 5, 4, 3, 2, 1, or blank, the double of the trump is the highest domino.
#     For example, if 4's are trump, then 4-4 is the highest, then the 4-6, 4-5, 4-3, 4-2, 4-1,
#     and 4-0" ------------------------------------------------------------------------------------


@pytest.mark.parametrize("plays, winner", [
    (("4-0", "4-4", "6-4", "5-4"), 1),
    (("4-0", "4-1", "6-4", "5-4"), 2),
    (("4-0", "4-1", "4-2", "5-4"), 3),
    (("4-0", "4-1", "4-2", "4-3"), 3),
])
def test_fours_trump_rank_double_first_then_by_other_end(plays, winner):
    deal = fill(["4-0", "0-0", "1-0", "2-0", "3-0", "5-0", "6-0"],
                ["4-4", "4-1", "1-1", "2-1", "3-1", "5-1", "6-1"],
                ["6-4", "4-2", "2-2", "3-2", "5-2", "6-2", "5-5"],
                ["5-4", "4-3", "3-3", "6-3", "5-3", "6-5", "6-6"])
    st = hand(G, deal, DEALER, *speeches(0, "bid 30", DEALER), "trump 4")
    act(st, *plays)
    assert last(st, "trick")["winner"] == winner


# -- "6-4 and 5-5 are worth 10 points each, and the pieces 5-0, 4-1, and 3-2 are worth 5 points
#     each. This means that there are a total of 42 points for each hand" --------------------------


def test_all_seven_tricks_are_worth_42_points():
    st = hand(G, fill(SIXES), DEALER, *speeches(0, "bid 84", DEALER), "trump 6")
    random_finish(st, random.Random(1))
    h = last(st, "hand")
    assert h["points"] == [42, 0] and h["tricks"] == [7, 0]
    assert h["made"] is True and h["scored"] == [2, 0] and h["ended_after_trick"] == 7


def test_count_dominoes_go_to_the_trick_winner():
    deal = fill("6-6 0-0 1-0 1-1 2-0 2-1 2-2", "6-4 4-0 4-2 4-3 4-4 3-0 3-1", "6-5 5-0 5-1 5-2 5-3 5-4 5-5")
    st = hand(G, deal, DEALER, *speeches(0, "bid 30", DEALER), "trump 2", "6-6")
    act(st, "6-4", "6-5")
    act(st, legal(st)[0])
    tr = last(st, "trick")
    assert tr["winner"] == 0
    count = {"6-4": 10, "5-5": 10, "5-0": 5, "4-1": 5, "3-2": 5}
    assert tr["points"] == 1 + sum(count.get(p, 0) for _, p in tr["plays"])


# -- "When a bid is met by the team or the opposing team wins the points that the other team would
#     require to meet their bid, the hand ends without the need to play the rest" ----------------


def test_a_met_bid_ends_the_hand():
    st = hand(G, fill(SIXES), DEALER, *speeches(0, "bid 30", DEALER), "trump 6")
    random_finish(st, random.Random(2))
    h = last(st, "hand")
    assert h["made"] is True and h["points"][0] >= 30 and h["ended_after_trick"] < 7
    assert h["scored"] == [1, 0]


def test_a_42_bid_is_set_by_the_first_point_lost():
    deal = fill("6-5 5-4 4-3 3-2 2-1 1-0 6-0", "6-6 5-5 4-4 3-3 2-2 1-1 0-0")
    st = hand(G, deal, DEALER, *speeches(0, "bid 42", DEALER), "trump 0", "6-5", "6-6")
    act(st, legal(st)[0])
    act(st, legal(st)[0])
    assert st.is_terminal()
    h = last(st, "hand")
    assert h["made"] is False and h["scored"] == [0, 1] and h["ended_after_trick"] == 1
