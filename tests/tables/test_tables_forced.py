"""texas42-forced: the rules of rule text 001 (/work/shared/rules/001_27073ae37c0045d1.txt).

Every case goes through the compiled ruleset (`load_game("texas42-forced", ...)`); the quoted
lines are the rule text's own words.
"""

from __future__ import annotations

import random

import pytest

from tablerules.errors import OptionError
from tkit import (DOUBLES, act, bids_in, events, fill, game, hand, last, legal, option_rejected,
                  random_finish, speeches)

NAME = "texas42-forced"
G = game(NAME)
DEALER = 3  # seat 0 speaks first

FOUR_DOUBLES = "6-6 5-5 4-4 3-3 6-5 6-4 6-3"
THREE_DOUBLES = "6-6 5-5 4-4 6-5 6-4 6-3 6-2"


# -- "If all four players pass, the human player must choose either Low or Sevens as the bid --
#     this is called the forced bid. The dealer does not automatically get the bid." ------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_all_four_pass_then_the_forced_seat_chooses_low_or_sevens(dealer):
    st = hand(G, fill(seed=1), dealer, "pass", "pass", "pass")
    # the dealer is not stuck: it may pass like anyone
    assert st.current_player() == dealer and "pass" in legal(st)
    act(st, "pass")
    assert not st.is_terminal()
    assert st.current_player() == 0  # forced_seat defaults to seat 0
    assert legal(st) == ["bid sevens 1", "bid low 1"]


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_the_forced_seat_option_moves_the_forced_bid(seat):
    g = game(NAME, forced_seat=seat)
    st = hand(g, fill(seed=2), DEALER, "pass", "pass", "pass", "pass")
    assert st.current_player() == seat
    assert legal(st) == ["bid sevens 1", "bid low 1"]
    act(st, "bid low 1")
    assert st.bidder == seat and st.contract == g.definition.bids[st.bid].contract
    assert g.definition.bids[st.bid].label == "low 1"


def test_the_forced_sevens_bid_is_played_at_one_mark():
    st = hand(G, fill(seed=3), DEALER, "pass", "pass", "pass", "pass", "bid sevens 1")
    assert G.definition.bids[st.bid].label == "sevens 1"
    assert last(st, "contract")["contract"] == "sevens"
    random_finish(st, random.Random(0))
    h = last(st, "hand")
    assert sorted(h["scored"]) == [0, 1]


# -- "In a Low hand, the bidder's partner sits out -- their hand is put aside and they don't play.
#     It's a 3-player hand: the bidder against the two opponents." --------------------------------


@pytest.mark.parametrize("bidder", [0, 1, 2, 3])
def test_low_the_bidders_partner_sits_out(bidder):
    st = hand(G, fill(seed=4), DEALER, *speeches(bidder, "bid low 1", DEALER), "low_doubles high")
    partner = (bidder + 2) % 4
    assert last(st, "contract")["playing"] == [s for s in range(4) if s != partner]
    seen = set()
    rng = random.Random(bidder)
    while not st.is_terminal():
        seen.add(st.current_player())
        st.apply_action(rng.choice(st.legal_actions()))
    assert partner not in seen
    for tr in events(st, "trick"):
        assert len(tr["plays"]) == 3 and partner not in [s for s, _ in tr["plays"]]


# -- "Before play begins in a Low hand, the bidder decides whether doubles are HIGH or LOW in their
#     respective suits. This applies to all doubles -- you can't mix. If doubles are high, the 4-4
#     beats every other four-suit bone. If doubles are low, the 4-4 loses to every other four-suit
#     bone." ---------------------------------------------------------------------------------------


def test_low_bidder_declares_doubles_high_or_low():
    st = hand(G, fill(seed=5), DEALER, *speeches(1, "bid low 1", DEALER))
    assert st.current_player() == 1
    assert legal(st) == ["low_doubles high", "low_doubles low"]
    act(st, "low_doubles low")
    assert last(st, "contract")["declarations"] == {"low_doubles": "low"}
    assert st.current_player() == 1  # and the bidder leads


# seat 0 (the Low bidder) leads 4-0; seat 1 holds the 4-4 and 4-1; seat 3 holds 4-3
LOW_DEAL = fill("4-0 6-6 5-5 3-3 2-2 1-1 0-0", "4-4 4-1 6-5 5-3 5-2 5-1 2-1", "", "4-3 6-3 6-2 6-1 6-0 5-4 5-0")


@pytest.mark.parametrize("doubles, winner", [("high", 1), ("low", 3)])
def test_low_ranking_follows_the_declared_doubles(doubles, winner):
    st = hand(G, LOW_DEAL, DEALER, *speeches(0, "bid low 1", DEALER), f"low_doubles {doubles}",
              "4-0")
    assert st.current_player() == 1 and legal(st) == ["4-1", "4-4"]
    act(st, "4-4")
    assert st.current_player() == 3  # seat 2 sits out
    act(st, "4-3")
    tr = last(st, "trick")
    assert tr["plays"] == [[0, "4-0"], [1, "4-4"], [3, "4-3"]]
    assert tr["winner"] == winner  # doubles high: 4-4 tops the fours; low: 4-3 beats it


def test_low_has_no_trump_and_the_bidder_is_set_by_one_trick():
    # "Low has no trump ... If the bidder wins even one trick, the hand ends immediately and the
    #  other team gets the mark."
    deal = fill("6-6 5-5 4-4 3-3 2-2 1-1 0-0")
    st = hand(G, deal, DEALER, *speeches(0, "bid low 1", DEALER), "low_doubles high", "6-6")
    act(st, legal(st)[0])
    act(st, legal(st)[0])
    assert last(st, "trick")["winner"] == 0
    assert st.is_terminal()
    h = last(st, "hand")
    assert h["made"] is False and h["scored"] == [0, 1] and h["ended_after_trick"] == 1
    assert h["declarations"]["trump"] == "none"


# -- "If you hold 4 or more doubles in your hand, you may ask your partner if they want to Plunge.
#     If your partner agrees, the bid is set at 4 marks and your partner chooses trump (not you).
#     Opponents may overbid before trump is selected." --------------------------------------------


@pytest.mark.parametrize("doubles", [0, 1, 2, 3, 4, 5, 6, 7])
def test_plunge_only_with_four_or_more_doubles(doubles):
    own = list(DOUBLES[:doubles]) + [p for p in ("6-5", "6-4", "6-3", "6-2", "6-1", "6-0", "5-4")]
    st = hand(G, fill(own[:7]), DEALER)
    assert ("bid plunge 4" in legal(st)) == (doubles >= 4)


def test_plunge_asks_the_partner_to_agree_or_decline():
    st = hand(G, fill(FOUR_DOUBLES), DEALER, "bid plunge 4")
    assert st.current_player() == 2
    assert legal(st) == ["agree", "decline"]


def test_on_agree_the_bid_is_four_marks_and_the_partner_names_trump():
    st = hand(G, fill(FOUR_DOUBLES), DEALER, "bid plunge 4", "agree", "pass", "pass", "pass")
    assert st.bidder == 0
    assert G.definition.bids[st.bid].label == "plunge 4"
    assert G.definition.bids[st.bid].marks == 4
    assert st.current_player() == 2  # the partner, not the bidder
    assert "trump doubles" in legal(st)
    act(st, "trump doubles")
    c = last(st, "contract")
    assert c["contract"] == "plunge" and c["bidder"] == 0 and c["declarations"] == {"trump": "doubles"}
    assert st.current_player() == 0  # "The high bidder leads the first trick."


def test_on_decline_the_asker_has_passed():
    st = hand(G, fill(FOUR_DOUBLES), DEALER, "bid plunge 4", "decline")
    assert st.current_player() == 1
    assert "bid 30" in legal(st)  # nothing stands
    act(st, "pass", "pass", "pass")
    # all four have now passed: the forced bid
    assert st.current_player() == 0 and legal(st) == ["bid sevens 1", "bid low 1"]


def test_opponents_may_overbid_a_plunge_before_trump_is_named():
    st = hand(G, fill(FOUR_DOUBLES), DEALER, "bid plunge 4", "agree")
    assert st.current_player() == 1 and st.phase == 1
    assert "bid 210" in legal(st)
    act(st, "bid 210", "pass", "pass")
    assert st.bidder == 1 and G.definition.bids[st.bid].label == "210"
    assert st.current_player() == 1  # the overbidder names trump


def test_plunge_can_be_asked_over_a_standing_bid():
    st = hand(G, fill("5-2 5-1", FOUR_DOUBLES), DEALER, "bid 84")
    assert st.current_player() == 1
    assert "bid plunge 4" in legal(st)


def test_a_plunge_must_win_every_trick():
    # "Plunge is a big commitment -- your team must win every single trick or lose 4 marks."
    deal = fill(FOUR_DOUBLES, "2-2 1-1 0-0 5-4 5-3 5-2 5-1")
    st = hand(G, deal, DEALER, "bid plunge 4", "agree", "pass", "pass", "pass", "trump 6")
    random_finish(st, random.Random(5))
    h = last(st, "hand")
    assert h["scored"] == ([4, 0] if h["made"] else [0, 4])
    assert h["made"] == (h["tricks"][1] == 0)


# -- "Trump suit options: Blanks, Ones, Twos, Threes, Fours, Fives, Sixes, or Doubles." and "When
#     Doubles is named trump, all seven doubles form the trump suit. They rank by their face
#     value -- the 6-6 is highest, the 0-0 (blanks double) is lowest." -----------------------------


def test_doubles_may_be_named_trump():
    st = hand(G, fill(seed=6), DEALER, *speeches(0, "bid 30", DEALER))
    assert legal(st)[:8] == ["trump 0", "trump 1", "trump 2", "trump 3", "trump 4", "trump 5",
                             "trump 6", "trump doubles"]


@pytest.mark.parametrize("last_play, winner", [("2-2", 2), ("4-4", 3), ("6-6", 3)])
def test_doubles_trump_rank_by_face_value(last_play, winner):
    deal = fill("1-1 6-5 6-4 6-3 6-2 6-1 6-0", "0-0 5-4 5-3 5-2 5-1 5-0 4-3", "3-3 4-2 4-1 4-0 3-2 3-1 3-0")
    st = hand(G, deal, DEALER, *speeches(0, "bid 30", DEALER), "trump doubles", "1-1")
    assert legal(st) == ["0-0"]  # the only double seat 1 holds
    act(st, "0-0")
    assert legal(st) == ["3-3"]
    act(st, "3-3")
    # seat 3 holds 6-6 5-5 4-4 2-2 and must follow with a double
    assert legal(st) == ["2-2", "4-4", "5-5", "6-6"]
    act(st, last_play)
    tr = last(st, "trick")
    assert tr["led"] == "doubles"
    assert tr["winner"] == winner  # 2-2 loses to the 3-3; 4-4 and 6-6 beat it


def test_with_doubles_trump_the_6_5_leads_sixes():
    deal = fill("6-5 1-1 6-4 6-3 6-2 6-1 6-0", "6-6 5-4 5-3 5-2 5-1 5-0 4-3")
    st = hand(G, deal, DEALER, *speeches(0, "bid 30", DEALER), "trump doubles", "6-5")
    # seat 1's 6-6 is a trump, not a six: no six to follow with, so anything goes
    assert len(legal(st)) == 7


# -- "Any player may pass." / "The minimum bid is 30." ---------------------------------------


def test_the_minimum_bid_is_30_and_anyone_may_pass():
    st = hand(G, fill(seed=7), DEALER)
    assert legal(st)[:2] == ["pass", "bid 30"]
    assert "bid 29" not in bids_in(G.definition)


def test_no_nello_bid_but_low():
    gd = G.definition
    assert gd.string_to_action("bid nello 1") is None
    assert gd.string_to_action("bid low 1") is not None


# -- "In a Sevens hand, every player must play the bone in their hand whose pip total is closest
#     to 7 ... The bidder must win all 7 tricks. If any trick goes to the other team, the Sevens
#     bid is immediately set -- the hand ends right there and the other team gets the mark." -----


def test_sevens_everyone_plays_the_bone_closest_to_seven():
    st = hand(G, fill(seed=8), DEALER, *speeches(0, "bid sevens 1", DEALER))
    while not st.is_terminal():
        seat = st.current_player()
        own = st.observation(seat)["hand"]
        best = min(abs(sum(map(int, p.split("-"))) - 7) for p in own)
        for p in legal(st):
            assert abs(sum(map(int, p.split("-"))) - 7) == best
        st.apply_action(st.legal_actions()[0])


def test_sevens_hand_ends_when_a_trick_goes_to_the_other_side():
    # seat 1 holds all three sevens: it takes the first trick from the bidder
    deal = fill("6-6 5-5 0-0 1-1 2-2 3-3 1-0", "6-1 5-2 4-3 6-0 5-1 4-2 3-2")
    st = hand(G, deal, DEALER, *speeches(0, "bid sevens 1", DEALER))
    while not st.is_terminal():
        act(st, legal(st)[0])
    tricks = events(st, "trick")
    assert len(tricks) == 1 and tricks[0]["winner"] == 1
    h = last(st, "hand")
    assert h["made"] is False and h["scored"] == [0, 1] and h["ended_after_trick"] == 1


# -- "The marks-to-win target can be changed in the Settings menu (7, 9, or 11)." ------------


@pytest.mark.parametrize("marks", [7, 9, 11])
def test_marks_to_win_seven_nine_or_eleven(marks):
    g = game(NAME, marks_to_win=marks)
    assert g.definition.options["marks_to_win"] == marks
    st = random_finish(g.new_match(record=True), random.Random(marks))
    m = last(st, "match")
    assert max(m["score"]) >= marks
    assert max(events(st, "hand")[-2]["score"]) < marks


@pytest.mark.parametrize("marks", [8, 5, 21])
def test_other_marks_to_win_are_rejected(marks):
    assert "7, 9, 11" in option_rejected(NAME, marks_to_win=marks)


def test_a_rejected_marks_to_win_raises_option_error():
    with pytest.raises(OptionError):
        game(NAME, marks_to_win=8)
