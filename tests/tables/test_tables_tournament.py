"""texas42-tournament: straight 42 as a sanctioned tournament plays it.

Rule text 004 (/work/shared/rules/004_f26017e68a50bf4c.txt): "They're house games. A sanctioned
tournament plays straight 42 with none of these." The play is that of rule texts 000 and 002
(/work/shared/rules/000_55430c4cb72388cd.txt, 002_f7d680fdbea366ed.txt). Every case goes
through the compiled ruleset (`load_game("texas42-tournament", ...)`).
"""

from __future__ import annotations

import random

import pytest

from tkit import (act, bids_in, events, fill, game, hand, last, legal, random_finish, speeches)

NAME = "texas42-tournament"
G = game(NAME)
DEALER = 3


# -- "Four bids change the shape of the hand ... Nello ... Splash ... Plunge ... Sevens ...
#     A sanctioned tournament plays straight 42 with none of these." -------------------------------


@pytest.mark.parametrize("special", ["nello", "sevens", "splash", "plunge", "low"])
def test_no_special_bids(special):
    gd = G.definition
    assert not [b for b in bids_in(gd) if b.startswith(f"bid {special}")]
    assert gd.string_to_action(f"bid {special} 1") is None


def test_only_point_and_marks_bids_in_play():
    assert {b.contract_name for b in G.definition.bids[1:]} == {"points", "marks"}
    rng = random.Random(0)
    contracts = set()
    for _ in range(30):
        st = G.new_match(record=True)
        st.deal_random(rng)
        while st.phase == 1:
            assert all(a == "pass" or (a.startswith("bid ") and a[4:].isdigit()) for a in legal(st))
            st.apply_action(rng.choice(st.legal_actions()))
        contracts |= {c["contract"] for c in events(st, "contract")}
    assert contracts <= {"points", "marks"}


def test_even_a_hand_of_doubles_sees_only_straight_bids():
    st = hand(G, fill("6-6 5-5 4-4 3-3 2-2 1-1 0-0"), DEALER)
    assert legal(st) == ["pass"] + [f"bid {n}" for n in range(30, 43)] + ["bid 84"]


def test_the_options_of_the_specials_are_off():
    opts = G.definition.options
    assert opts["nello"] is False and opts["sevens"] is False


# -- 000: "If the first three players all pass, the dealer is stuck with it and must bid" --------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_the_dealer_is_stuck_at_the_minimum(dealer):
    st = hand(G, fill(seed=1), dealer, "pass", "pass", "pass")
    assert st.current_player() == dealer
    assert legal(st) == ["bid 30"]


# -- 000: "once a marks bid is on the table, the only way to outbid it is to go exactly one mark
#     higher" -------------------------------------------------------------------------------------


def test_marks_bids_go_one_mark_higher():
    st = hand(G, fill(seed=2), DEALER, "bid 31", "bid 84")
    assert legal(st) == ["pass", "bid 126"]


# -- 000: "Every other player must follow with a domino of the suit led if they have one. A domino
#     that contains the trump number is trump only" -------------------------------------------------


def test_follow_suit_and_trump_only():
    deal = fill("6-6 5-5 4-4 3-3 2-2 1-1 0-0", "6-4 6-3 5-3 5-2 5-1 3-2 3-1")
    st = hand(G, deal, DEALER, *speeches(0, "bid 30", DEALER), "trump 4", "6-6")
    assert legal(st) == ["6-3"]  # the 6-4 is a trump, not a six
    act(st, "6-3")
    act(st, legal(st)[0])
    act(st, legal(st)[0])
    assert last(st, "trick")["led"] == 6


# -- 002: "If doubles are chosen as the trump, the order from highest trump to lowest is ... 6-6,
#     5-5, 4-4, 3-3, 2-2, 1-1, and 0-0." ---------------------------------------------------------


def test_doubles_trump_six_six_highest():
    deal = fill("0-0 6-5 6-4 6-3 6-2 6-1 6-0", "6-6 5-4 5-3 5-2 5-1 5-0 4-3", "1-1 4-2 4-1 4-0 3-2 3-1 3-0")
    st = hand(G, deal, DEALER, *speeches(0, "bid 30", DEALER), "trump doubles", "0-0")
    assert legal(st) == ["6-6"]
    act(st, "6-6", "1-1")
    act(st, legal(st)[0])
    tr = last(st, "trick")
    assert tr["led"] == "doubles" and tr["winner"] == 1


# -- 000: "Instead of naming a suit, the bid winner can declare No Trump (sometimes called
#     "Follow Me"). No domino is trump at all" ---------------------------------------------------


def test_follow_me_nothing_is_trump():
    deal = fill("6-5 0-0 1-0 2-0 3-0 4-0 5-0", "4-4 4-3 4-2 4-1 1-1 2-1 3-1")
    st = hand(G, deal, DEALER, *speeches(0, "bid 30", DEALER), "trump followme", "6-5")
    # seat 1 holds no six: any bone, and none of them can win
    assert len(legal(st)) == 7
    act(st, "4-4")
    act(st, legal(st)[0])
    act(st, legal(st)[0])
    tr = last(st, "trick")
    assert tr["led"] == 6
    sixes = [s for s, p in tr["plays"] if "6" in p.split("-")]
    assert tr["winner"] in sixes


# -- 000: "That's 35 count points, plus 1 point for each of the 7 tricks in a hand -- 42 points
#     total" ----------------------------------------------------------------------------------------


def test_a_whole_hand_is_worth_42_points():
    st = hand(G, fill("6-6 6-5 6-4 6-3 6-2 6-1 6-0"), DEALER, *speeches(0, "bid 84", DEALER), "trump 6")
    random_finish(st, random.Random(0))
    h = last(st, "hand")
    assert h["points"] == [42, 0] and h["tricks"] == [7, 0] and h["scored"] == [2, 0]


# -- 000: "If the bidding team falls short, they're set: they score nothing, and the opposing team
#     scores those marks instead." ----------------------------------------------------------------


def test_a_set_bid_gives_the_opponents_the_marks():
    deal = fill("6-5 5-4 4-3 3-2 2-1 1-0 6-0", "6-6 5-5 4-4 3-3 2-2 1-1 0-0")
    st = hand(G, deal, DEALER, *speeches(0, "bid 84", DEALER), "trump 0", "6-5", "6-6")
    act(st, legal(st)[0])
    act(st, legal(st)[0])
    h = last(st, "hand")
    assert st.is_terminal() and h["made"] is False and h["scored"] == [0, 2]


# -- 000: "The first partnership to reach 7 marks wins the match." -----------------------------


def test_a_match_is_won_at_seven_marks():
    st = random_finish(G.new_match(record=True), random.Random(1))
    m = last(st, "match")
    assert max(m["score"]) >= 7 and m["winner"] == [m["score"].index(max(m["score"]))]
