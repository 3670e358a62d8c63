"""texas42-hall: the 42 of rule text 004 (/work/shared/rules/004_f26017e68a50bf4c.txt).

Every case goes through the compiled ruleset (`load_game("texas42-hall", ...)`); the quoted
lines are the rule text's own words.
"""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from typer.testing import CliRunner

from tablerules.cli.main import app
from tablerules.records.runner import simulate
from tkit import (DOUBLES, act, bids_in, events, fill, game, hand, last, legal, option_rejected,
                  random_finish, speeches)

NAME = "texas42-hall"
G = game(NAME)
DEALER = 3  # seat 0 speaks first

# seat 0 leads the 6-4; seat 1 holds sixes and fours, seat 2 a six pair and the 5-4, seat 3 the rest
LEAD_DEAL = fill("6-4 6-6 4-4 2-2 0-0 5-5 1-1",
                 "6-5 6-3 4-3 4-2 1-0 2-1 3-1",
                 "6-1 6-0 5-4 5-3 5-2 5-1 5-0")  # seat 3: 6-2 4-1 4-0 3-3 3-2 3-0 2-0


def won(trump: str, g=G, deal=LEAD_DEAL, bid: str = "bid 30"):
    """Seat 0 won the auction with `bid` and named `trump`; seat 0 is to lead."""
    return hand(g, deal, DEALER, *speeches(0, bid, DEALER), f"trump {trump}")


def doubles_hand(n: int) -> list[str]:
    others = ["6-5", "6-4", "6-3", "6-2", "6-1", "6-0", "5-4"]
    return list(DOUBLES[:n]) + others[:7 - n]


# -- "One player leads by placing a domino face up and naming which of its two suits they're
#     leading. Going clockwise, everybody else plays one domino." --------------------------------


@pytest.mark.parametrize("trump", ["followme", "1", "3"])
def test_the_leader_names_which_suit_a_domino_leads(trump):
    st = won(trump)
    act(st, "6-4")
    assert st.current_player() == 0  # still the leader's decision
    assert legal(st) == ["lead 4", "lead 6"]


@pytest.mark.parametrize("chosen, seat1, seat2, seat3", [
    ("6", ["6-3", "6-5"], ["6-0", "6-1"], ["6-2"]),
    ("4", ["4-2", "4-3"], ["5-4"], ["4-0", "4-1"]),
])
def test_the_chosen_suit_decides_who_must_follow(chosen, seat1, seat2, seat3):
    # "You must follow suit if you can. If fives are led and you hold any domino with a five on
    #  it, you have to play one."
    st = won("followme")
    act(st, "6-4", f"lead {chosen}")
    assert st.current_player() == 1 and legal(st) == seat1
    act(st, seat1[-1])
    assert legal(st) == seat2
    act(st, seat2[0])
    assert legal(st) == seat3
    act(st, seat3[0])
    tr = last(st, "trick")
    assert tr["led"] == int(chosen)
    # led as a six, the 6-4 loses to the 6-5; led as a four, it is the top four out
    assert tr["winner"] == (1 if chosen == "6" else 0)


def test_a_double_leads_its_own_suit_without_a_choice():
    # "Within a suit, the double is the highest." -- a double has one suit to lead
    st = won("followme")
    act(st, "6-6")
    assert st.current_player() == 1
    assert legal(st) == ["6-3", "6-5"]
    assert not [a for a in legal(st) if a.startswith("lead")]


def test_a_trump_leads_trump_without_a_choice():
    # "once a suit is trump, its dominoes belong only to trump"
    st = won("4")
    act(st, "6-4")
    assert st.current_player() == 1
    assert legal(st) == ["4-2", "4-3"]  # seat 1's trumps
    act(st, "4-3")
    act(st, legal(st)[0])
    act(st, legal(st)[0])
    assert last(st, "trick")["led"] == 4


def test_with_doubles_trump_a_double_leads_trump_without_a_choice():
    st = won("doubles")
    act(st, "4-4")
    assert st.current_player() == 1 and legal(st) == ["1-0", "2-1", "3-1", "4-2", "4-3", "6-3", "6-5"]
    act(st, "6-5")
    assert len(legal(st)) == 7  # seat 2 holds no double: anything goes
    act(st, legal(st)[0])
    assert legal(st) == ["3-3"]  # seat 3's only double follows doubles
    act(st, "3-3")
    tr = last(st, "trick")
    assert tr["led"] == "doubles" and tr["winner"] == 0


def test_every_lead_is_one_of_the_leading_dominoes_suits():
    rng = random.Random(4)
    seen_choice = 0
    for _ in range(40):
        st = G.new_match(record=True)
        st.deal_random(rng)
        while not st.is_terminal() and st.phase != 0:
            names = legal(st)
            if names[0].startswith("lead"):
                assert len(names) == 2
                seen_choice += 1
            st.apply_action(rng.choice(st.legal_actions()))
        contract = events(st, "contract")[0] if events(st, "contract") else None
        if contract is None or contract["contract"] not in ("points", "marks", "splash", "plunge"):
            continue
        trump = contract["declarations"]["trump"]
        for tr in events(st, "trick"):
            first = tr["plays"][0][1]
            ends = [int(x) for x in first.split("-")]
            is_trump = ends[0] == ends[1] if trump == "doubles" else trump in ends
            if is_trump:
                assert tr["led"] == trump
            elif ends[0] == ends[1]:
                assert tr["led"] == ends[0]
            else:
                assert tr["led"] in ends
    assert seen_choice > 0


# -- "The smallest bid is 30 and each bid must beat the last, up to 41. Above that comes 42 ...
#     and then bids of two marks (84) and three marks (168)" and "A 42 bid is worth 1 mark, 84 is
#     worth 2, and 168 is worth 3" ------------------------------------------------------------------


def test_point_bids_display_as_30_to_42_and_two_marks_as_84():
    st = hand(G, fill(doubles_hand(0)), DEALER)
    bids = [b for b in legal(st) if b.startswith("bid") and not b.split()[1].isalpha()]
    assert bids == [f"bid {n}" for n in range(30, 43)] + ["bid 84"]


def test_three_marks_display_as_168_over_84():
    st = hand(G, fill(seed=1), DEALER, "bid 84")
    assert "bid 168" in legal(st)
    assert G.definition.string_to_action("bid 126") is None


def test_a_168_hand_is_recorded_as_168():
    st = hand(G, fill(seed=1), DEALER, "bid 84", "bid 168", "pass", "pass", "trump 4")
    c = last(st, "contract")
    assert c["contract"] == "marks" and c["bid"] == "168" and c["bidder"] == 1
    random_finish(st, random.Random(1))
    h = last(st, "hand")
    assert h["bid"] == "168" and sorted(h["scored"]) == [0, 3]


def test_168_is_worth_three_marks():
    gd = G.definition
    a = gd.string_to_action("bid 168")
    assert a is not None
    bid = next(b for b in gd.bids if b.action == a)
    assert bid.marks == 3 and bid.contract_name == "marks"


def test_the_bid_labels_show_in_the_record():
    st = hand(G, fill(seed=2), DEALER, "bid 84", "pass", "pass", "pass", "trump 6")
    assert last(st, "contract")["bid"] == "84"
    out = io.StringIO()
    simulate(G, games=3, seed=5, out=out)
    decisions = [json.loads(x) for x in out.getvalue().splitlines()]
    offered = {a for d in decisions if d["type"] == "decision" for a in d["legal"]}
    assert "bid 30" in offered and "bid 42" in offered and "bid 84" in offered
    assert not [a for a in offered if a.startswith("bid points") or a.startswith("bid marks")]
    for d in decisions:
        if d["type"] == "hand" and not d.get("thrown_in") and d["contract"] == "marks":
            assert d["bid"] in ("84", "168")


def test_the_bid_labels_show_in_show():
    r = CliRunner().invoke(app, ["show", NAME])
    assert r.exit_code == 0, r.output
    text = r.stdout
    points = next(x for x in text.splitlines() if x.strip().startswith("points:"))
    marks = next(x for x in text.splitlines() if x.strip().startswith("marks:"))
    assert re.search(r"\b30\b", points) and re.search(r"\b42\b", points)
    assert re.search(r"\b84\b", marks) and re.search(r"\b168\b", marks)
    assert not re.search(r"\b126\b", text)


# -- "Nello -- one mark and up. You bid to lose every trick. Your partner turns their bones face
#     down and sits the hand out ... How doubles behave is the argument every table has, so it's a
#     setting: high of their suit, low of their suit, or a suit of their own." ---------------------

NELLO_DEAL = fill("4-0 6-6 5-5 3-3 2-2 1-1 0-0", "4-4 4-1 6-5 5-3 5-2 5-1 2-1", "",
                  "4-3 6-3 6-2 6-1 6-0 5-4 5-0")


def nello(doubles: str, lead: str):
    g = game(NAME, nello_doubles=doubles)
    return hand(g, NELLO_DEAL, DEALER, *speeches(0, "bid nello 1", DEALER), lead)


@pytest.mark.parametrize("doubles", ["high", "low", "suit"])
def test_nello_partner_sits_out_with_every_doubles_setting(doubles):
    st = nello(doubles, "4-0")
    assert last(st, "contract")["playing"] == [0, 1, 3]
    assert last(st, "contract")["declarations"] == {}
    random_finish(st, random.Random(1))
    assert all(2 not in [s for s, _ in tr["plays"]] for tr in events(st, "trick"))


@pytest.mark.parametrize("doubles, seat1, winner", [
    ("high", "4-4", 1),  # the double is the best of its suit
    ("low", "4-4", 3),   # the double is the worst of its suit: the 4-3 beats it
    ("suit", "4-1", 3),  # the double is not a four at all: seat 1 must play the 4-1
])
def test_nello_doubles_setting_ranks_the_double(doubles, seat1, winner):
    st = nello(doubles, "4-0")
    assert legal(st) == (["4-1"] if doubles == "suit" else ["4-1", "4-4"])
    act(st, seat1)
    assert st.current_player() == 3
    act(st, "4-3")
    tr = last(st, "trick")
    assert tr["plays"] == [[0, "4-0"], [1, seat1], [3, "4-3"]]
    assert tr["winner"] == winner


def test_nello_doubles_as_their_own_suit_lead_doubles():
    st = nello("suit", "0-0")
    assert legal(st) == ["4-4"]  # seat 1's only double must follow the doubles suit
    act(st, "4-4")
    act(st, legal(st)[0])  # seat 3 holds no double
    tr = last(st, "trick")
    assert tr["led"] == "doubles" and tr["winner"] == 1


def test_nello_is_set_by_the_first_trick_the_bidder_takes():
    st = nello("high", "0-0")
    act(st, legal(st)[0])
    act(st, legal(st)[0])
    assert st.is_terminal()
    h = last(st, "hand")
    assert h["made"] is False and h["scored"] == [0, 1]


# -- "Splash -- two marks and up, and you must hold three doubles. You aren't naming trumps; your
#     partner does, seeing only their own hand, and your partner leads. Between you, you must take
#     all seven tricks." -------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(8))
def test_splash_only_with_three_or_more_doubles(n):
    st = hand(G, fill(doubles_hand(n)), DEALER)
    assert ("bid splash 2" in legal(st)) == (n >= 3)


def test_splash_is_bid_at_two_marks_and_one_more_over_a_marks_bid():
    st = hand(G, fill("5-2 5-1", doubles_hand(3)), DEALER)
    act(st, "bid 84")
    assert [b for b in legal(st) if b.startswith("bid splash")] == ["bid splash 3"]


@pytest.mark.parametrize("bidder", [0, 1, 2, 3])
def test_splash_partner_names_trump_and_leads(bidder):
    hands = [[] for _ in range(4)]
    hands[bidder] = doubles_hand(3)
    st = hand(G, fill(*hands), DEALER, *speeches(bidder, "bid splash 2", DEALER))
    partner = (bidder + 2) % 4
    assert st.bidder == bidder
    assert st.current_player() == partner
    assert legal(st)[:8] == [f"trump {t}" for t in (0, 1, 2, 3, 4, 5, 6, "doubles")]
    act(st, "trump 5")
    c = last(st, "contract")
    assert c["contract"] == "splash" and c["bid"] == "splash 2" and c["bidder"] == bidder
    assert c["declarations"] == {"trump": 5}
    assert st.current_player() == partner and st.leader == partner


def test_splash_must_take_all_seven_tricks():
    st = hand(G, fill(doubles_hand(3)), DEALER, *speeches(0, "bid splash 2", DEALER), "trump 6")
    random_finish(st, random.Random(3))
    h = last(st, "hand")
    assert h["made"] == (h["tricks"][1] == 0)
    assert h["scored"] == ([2, 0] if h["made"] else [0, 2])


# -- "Plunge -- four marks and up, and you must hold four doubles. Again your partner names the
#     trumps blind, and again your partner leads." ---------------------------------------------


@pytest.mark.parametrize("n", range(8))
def test_plunge_only_with_four_or_more_doubles(n):
    st = hand(G, fill(doubles_hand(n)), DEALER)
    assert ("bid plunge 4" in legal(st)) == (n >= 4)
    assert not [b for b in legal(st) if b.startswith("bid plunge") and int(b.split()[2]) < 4]


def test_plunge_partner_names_trump_and_leads():
    st = hand(G, fill(doubles_hand(4)), DEALER, *speeches(0, "bid plunge 4", DEALER))
    assert st.current_player() == 2
    act(st, "trump doubles")
    c = last(st, "contract")
    assert c["contract"] == "plunge" and c["bidder"] == 0 and c["declarations"] == {"trump": "doubles"}
    assert st.current_player() == 2
    random_finish(st, random.Random(0))
    h = last(st, "hand")
    assert h["scored"] == ([4, 0] if h["made"] else [0, 4])


def test_plunge_can_top_a_marks_bid():
    st = hand(G, fill("5-2 5-1", doubles_hand(4)), DEALER, "bid 84")
    assert "bid plunge 4" in legal(st)


def test_special_contracts_can_be_switched_off():
    g = game(NAME, splash=False, plunge=False, nello=False, sevens=False)
    st = hand(g, fill(doubles_hand(5)), DEALER)
    assert not [b for b in legal(st) if b.startswith("bid") and b.split()[1].isalpha()]


# -- "Sevens -- one mark and up, no holding requirement ... Every player must play the domino in
#     their hand whose pips add up closest to seven, and the closest to seven takes the trick, ties
#     going to whoever played first." ------------------------------------------------------------


@pytest.mark.parametrize("own", [doubles_hand(7), "6-6 5-5 0-0 1-0 2-0 1-1 2-1", "6-1 5-2 4-3 0-0 1-0 2-0 3-0"])
def test_sevens_has_no_holding_requirement(own):
    st = hand(G, fill(own), DEALER)
    assert "bid sevens 1" in legal(st)


def test_sevens_ties_go_to_whoever_played_first():
    deal = fill("6-1 0-0 1-0 1-1 2-0 6-6 6-5", "5-2 3-0 2-1 5-5 6-4 4-0 3-1", "4-3")
    st = hand(G, deal, DEALER, *speeches(0, "bid sevens 1", DEALER))
    assert legal(st) == ["6-1"]  # the only bone totalling seven
    act(st, "6-1")
    assert legal(st) == ["5-2"]
    act(st, "5-2")
    assert legal(st) == ["4-3"]
    act(st, "4-3")
    act(st, legal(st)[0])
    tr = last(st, "trick")
    assert tr["winner"] == 0  # three sevens: the first played takes it


# -- "Minimum bid -- the lowest opening bid allowed. Raising it to 32 or 34 means fewer, bolder
#     hands." -----------------------------------------------------------------------------------


@pytest.mark.parametrize("min_bid", [30, 32, 34])
def test_minimum_bid_30_32_or_34(min_bid):
    g = game(NAME, min_bid=min_bid)
    st = hand(g, fill(doubles_hand(0)), DEALER)
    points = [b for b in legal(st) if re.fullmatch(r"bid \d+", b) and int(b.split()[1]) <= 42]
    assert points == [f"bid {n}" for n in range(min_bid, 43)]


@pytest.mark.parametrize("min_bid", [31, 29, 33, 35])
def test_other_minimum_bids_are_rejected(min_bid):
    assert "30, 32, 34" in option_rejected(NAME, min_bid=min_bid)


@pytest.mark.parametrize("marks", [3, 5, 7])
def test_game_to_3_5_or_7(marks):
    st = random_finish(game(NAME, marks_to_win=marks).new_match(record=True), random.Random(marks))
    assert max(last(st, "match")["score"]) >= marks
    played = [h for h in events(st, "hand") if not h.get("thrown_in")]
    assert len(played) < 2 or max(played[-2]["score"]) < marks


# -- "If everyone passes -- Reshuffle throws the hand in and deals again. Dealer stuck forces
#     whoever shook to take the bid at the minimum, which they usually hate." ------------------------


def test_all_pass_reshuffles_by_default():
    st = hand(G, fill(seed=6), DEALER, "pass", "pass", "pass")
    assert "pass" in legal(st)
    act(st, "pass")
    assert st.is_terminal() and last(st, "hand")["thrown_in"] is True


@pytest.mark.parametrize("min_bid", [30, 34])
def test_all_pass_stuck_forces_the_dealer_at_the_minimum(min_bid):
    g = game(NAME, all_pass="stuck", min_bid=min_bid)
    st = hand(g, fill(seed=6), DEALER, "pass", "pass", "pass")
    assert st.current_player() == DEALER
    assert legal(st) == [f"bid {min_bid}"]
    act(st, f"bid {min_bid}")
    assert st.bidder == DEALER


def test_reshuffle_deals_again_in_a_match():
    st = G.new_match(record=True, first_dealer=0)
    st.deal_random(random.Random(7))
    act(st, "pass", "pass", "pass", "pass")
    assert not st.is_terminal() and st.phase == 0
    assert st.dealer == 1


def test_every_special_contract_is_a_bid_of_its_own():
    bids = bids_in(G.definition)
    for name in ("nello", "splash", "plunge", "sevens"):
        assert any(b.startswith(f"bid {name} ") for b in bids), name
