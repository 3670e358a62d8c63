"""Moon, rule by rule: each test quotes the rule text it checks.

Source: /work/shared/rules/004_f26017e68a50bf4c.txt, "Why Moon exists" .. "Playing it well";
the ruleset is rulesets/moon.yaml (its options are the house rules tested at the end).
"""

from __future__ import annotations

import random

import pytest

from tablerules.errors import GameError, TablerulesError

from .helpers import (DEAL, EAST, MOON_DEAL, MOON_SET, NORTH, PLAY_EAST_5, TRUMPS, WEST, WIDOW,
                      act, events, expected_marks, finish_first_legal, finish_random, game, hand,
                      hand_event, held, legal)

N, E, W_ = 0, 1, 2  # seats: North, East, West


# -- the set, the seats, the deal -------------------------------------------------------------


def test_the_set_is_twenty_two_bones_without_blanks_except_double_blank():
    """"Take a standard double-six set and pull out every domino with a blank on it — except the
    0·0, which stays in. That leaves 22." """
    gd = game().definition
    pieces = set(gd.pieces.names)
    assert len(gd.pieces) == 22
    assert pieces == set(MOON_SET)
    assert "0-0" in pieces
    for h in range(1, 7):
        assert f"{h}-0" not in pieces
    # every other piece of the double-six set is there
    assert pieces == {f"{h}-{lo}" for h in range(7) for lo in range(h + 1)} - {f"{h}-0" for h in range(1, 7)}


def test_three_players_no_partners():
    """"Moon needs three" ... "a smaller set, no partners"."""
    gd = game().definition
    assert gd.seat_count == 3
    assert [list(s) for s in gd.sides] == [[0], [1], [2]]


def test_seven_each_and_one_widow_from_a_random_deal():
    """"three players at seven each is twenty-one, and the twenty-second lies face down in the
    middle. Nothing left over, nothing spare." """
    g = game()
    gd = g.definition
    assert gd.hand_size == 7 and gd.stock == 1
    for seed in range(30):
        st = g.new_match(record=True)
        st.deal_random(random.Random(seed))
        deal = st.events[0]
        assert [len(h) for h in deal["dealt"]] == [7, 7, 7]
        assert len(deal["stock"]) == 1
        every = [p for h in deal["dealt"] for p in h] + deal["stock"]
        assert sorted(every) == sorted(MOON_SET)


def test_a_deal_with_a_blank_other_than_double_blank_is_refused():
    """The 6·0 is not in the Moon set."""
    bad = [list(h) for h in DEAL]
    bad[0][0] = "6-0"
    with pytest.raises(TablerulesError):
        hand(bad)


# -- bidding ---------------------------------------------------------------------------------


def test_bids_are_four_to_seven_and_moon_no_three():
    """"The least you can say is four — you cannot bid three ... Then five, six, seven. Over all
    of them is moon"."""
    st = hand()
    assert st.current_player() == E  # left of the dealer speaks first
    assert legal(st) == ["pass", "bid 4", "bid 5", "bid 6", "bid 7", "bid moon"]
    gd = st.game
    assert gd.string_to_action("bid 3") is None
    assert gd.string_to_action("bid 8") is None


def test_each_bid_must_beat_the_one_before():
    """"each bid has to beat the one before"."""
    st = hand()
    act(st, "bid 5")
    assert legal(st) == ["pass", "bid 6", "bid 7", "bid moon"]
    with pytest.raises(GameError):
        st.apply_action(st.game.string_to_action("bid 5"))
    act(st, "bid 7")
    assert legal(st) == ["pass", "bid moon"]


def test_moon_is_above_seven():
    """"Over all of them is moon: all seven tricks"."""
    st = hand()
    act(st, "bid 7")
    assert "bid moon" in legal(st)
    act(st, "bid moon")
    assert legal(st) == ["pass"]


def test_everybody_speaks_once_going_round():
    """"Everybody speaks once, going round": after the third speaker the auction is over; the
    first speaker is not asked again although they were outbid."""
    st = hand()
    speakers = []
    for a in ("bid 4", "bid 5", "pass"):
        speakers.append(st.current_player())
        act(st, a)
    assert speakers == [E, W_, N]
    # West's 5 stands: West takes the widow (the exchange comes before trump by default)
    assert st.current_player() == W_
    assert all(x.startswith("bury ") for x in legal(st))
    assert events(st, "exchange")[0] == {"type": "exchange", "seat": W_, "took": WIDOW}


def test_all_pass_throws_the_hand_in():
    """"If all three pass, the bones are thrown in and shaken again." """
    st = hand()
    act(st, "pass", "pass", "pass")
    assert st.is_terminal()
    ev = hand_event(st)
    assert ev.get("thrown_in") is True
    assert st.score == [0, 0, 0]
    assert not events(st, "trick") and not events(st, "exchange")


def test_all_pass_in_a_match_deals_again():
    """Thrown in and shaken again: the match goes on with a new deal and no hand scored."""
    g = game()
    st = g.new_match(record=True, first_dealer=0)
    st.apply_deal(g.deal_ids(DEAL))
    act(st, "pass", "pass", "pass")
    assert not st.is_terminal()
    assert st.is_chance_node()
    assert st.score == [0, 0, 0]
    assert st.hands_played == 0
    assert st.dealer == 1  # the deal passes to the left
    st.deal_random(random.Random(5))
    assert st.current_player() == 2  # left of the new dealer speaks first


# -- the widow -----------------------------------------------------------------------------------


def test_winner_takes_the_widow_then_buries_one_eight_in_seven_out():
    """"Whoever wins the bid picks it up, then buries one from their hand, face down, out of the
    game. Eight in, seven out." """
    st = hand()
    act(st, "bid 4", "pass", "pass")
    assert held(st, E) == sorted(EAST + WIDOW)  # eight in
    assert legal(st) == [f"bury {p}" for p in sorted(EAST + WIDOW)]
    act(st, "bury 2-1")
    assert held(st, E) == sorted(set(EAST + WIDOW) - {"2-1"})  # seven out
    assert len(held(st, E)) == 7
    assert [st.game.pieces.names[t] for t in st.buried] == ["2-1"]
    assert events(st, "exchange") == [{"type": "exchange", "seat": E, "took": ["0-0"]},
                                      {"type": "exchange", "seat": E, "buried": "2-1"}]
    assert legal(st) == list(TRUMPS)  # then names trump


def test_the_buried_bone_is_never_played_and_counts_for_nobody():
    """"Nobody sees what you buried, and it counts for nobody at the end." """
    for seed in range(20):
        st = hand()
        act(st, "bid 4", "pass", "pass", "bury 6-6", "trump 5")
        finish_random(st, random.Random(seed))
        played = [p for t in events(st, "trick") for _, p in t["plays"]]
        assert "6-6" not in played
        assert len(played) == 21 and len(set(played)) == 21
        assert sorted(played + ["6-6"]) == sorted(MOON_SET)
        assert sum(st.tricks) == 7


def test_nobody_sees_what_was_buried():
    """"Nobody sees what you buried": the other seats' view must not name the buried bone."""
    st = hand()
    act(st, "bid 4", "pass", "pass", "bury 3-1", "trump 6")
    for seat in (N, W_):
        obs = st.observation(seat)
        assert "3-1" not in repr(obs), (
            f"seat {seat} can see the buried bone: {obs['history']}")
    assert "3-1" not in st.observation(E)["hand"]


def test_widow_first_false_names_trump_before_the_widow():
    """House option widow_first: false — trump is named before the widow is taken."""
    st = hand(widow_first=False)
    act(st, "bid 4", "pass", "pass")
    assert legal(st) == list(TRUMPS)
    assert held(st, E) == sorted(EAST)  # not taken yet
    assert not events(st, "exchange")
    act(st, "trump 6")
    assert held(st, E) == sorted(EAST + WIDOW)
    assert legal(st) == [f"bury {p}" for p in sorted(EAST + WIDOW)]
    act(st, "bury 0-0")
    assert st.current_player() == E
    contract = events(st, "contract")[0]
    assert contract["declarations"] == {"trump": 6}
    kinds = [e["type"] for e in st.events]
    assert kinds.index("contract") > max(i for i, k in enumerate(kinds) if k == "exchange")


def test_widow_first_true_buries_before_naming_trump():
    """"Having buried, you name the trumps"."""
    st = hand()
    act(st, "bid 4", "pass", "pass")
    assert all(x.startswith("bury ") for x in legal(st))
    act(st, "bury 0-0")
    assert legal(st) == list(TRUMPS)


def test_widow_optional_leave_stock_buries_nothing():
    """House option widow_optional: the bidder may leave the widow (and then buries nothing)."""
    st = hand(widow_optional=True)
    act(st, "bid 4", "pass", "pass")
    assert legal(st) == ["take stock", "leave stock"]
    act(st, "leave stock")
    assert legal(st) == list(TRUMPS)
    assert held(st, E) == sorted(EAST)
    assert st.buried == []
    act(st, "trump 6")
    finish_first_legal(st)
    played = [p for t in events(st, "trick") for _, p in t["plays"]]
    assert "0-0" not in played and len(played) == 21
    assert not any("buried" in e for e in events(st, "exchange"))


def test_widow_optional_take_stock_then_bury():
    st = hand(widow_optional=True)
    act(st, "bid 4", "pass", "pass", "take stock")
    assert held(st, E) == sorted(EAST + WIDOW)
    assert all(x.startswith("bury ") for x in legal(st))
    act(st, "bury 4-4")
    assert len(held(st, E)) == 7


def test_widow_is_mandatory_by_default():
    st = hand()
    act(st, "bid 4", "pass", "pass")
    assert "leave stock" not in legal(st) and "take stock" not in legal(st)


# -- trumps ----------------------------------------------------------------------------------


def test_trump_choices_number_doubles_or_follow_me():
    """"you name the trumps: any number, or doubles as a suit of their own, or follow me" —
    "Naming blanks is legal"."""
    st = hand()
    act(st, "bid 6", "pass", "pass", "bury 0-0")
    assert st.current_player() == E
    assert legal(st) == ["trump 0", "trump 1", "trump 2", "trump 3", "trump 4", "trump 5",
                         "trump 6", "trump doubles", "trump followme"]


def _blank_trump_deal():
    # North holds the 0-0 (the only blank) and no six; the widow is 1-1.
    north = ["4-1", "4-3", "4-2", "3-3", "3-2", "2-2", "0-0"]
    return [north, EAST, WEST, ["1-1"]]


def test_blanks_trump_is_exactly_one_bone():
    """"There is exactly one blank left in the set — the 0·0 — so a blanks trump gives you
    precisely one trump bone." North, void in sixes, trumps East's 6·6 with it."""
    st = hand(_blank_trump_deal())
    act(st, "bid 4", "pass", "pass", "bury 1-1", "trump 0", "6-6")
    assert legal(st) == ["6-1", "6-2"]  # West follows sixes
    act(st, "6-2")
    assert legal(st) == sorted(_blank_trump_deal()[0])  # North cannot follow: anything
    act(st, "0-0")
    (trick,) = events(st, "trick")
    assert trick["winner"] == N
    # no other bone of the set is a blank trump: leading 0-0 lets everybody play anything
    st = hand([["4-1", "4-3", "4-2", "3-3", "3-2", "2-2", "1-1"], EAST, WEST, ["0-0"]])
    act(st, "bid 4", "pass", "pass", "bury 2-1", "trump 0", "0-0")
    assert legal(st) == sorted(WEST)
    act(st, "5-5")
    assert legal(st) == sorted(NORTH)


def test_doubles_trump_is_a_suit_of_its_own():
    """"doubles as a suit of their own": a double led calls for doubles; the highest double wins."""
    st = hand(_blank_trump_deal())
    act(st, "bid 4", "pass", "pass", "bury 1-1", "trump doubles", "6-6")
    assert legal(st) == ["5-5"]  # West's only double
    act(st, "5-5")
    assert legal(st) == ["0-0", "2-2", "3-3"]
    act(st, "3-3")
    assert events(st, "trick")[0]["winner"] == E
    # 6-5 is now an ordinary six
    act(st, "6-5")
    assert legal(st) == ["6-1", "6-2"]


def test_follow_me_has_no_trumps():
    """"follow me, which is no trumps at all": a void player cannot win by playing off-suit."""
    st = hand()
    act(st, "bid 4", "pass", "pass", "bury 0-0", "trump followme", "4-4")
    assert legal(st) == ["5-4"]
    act(st, "5-4")
    act(st, "4-1")
    assert events(st, "trick")[0]["winner"] == E
    # a suit West is void in: West's discard does not win
    act(st, "3-1")
    assert legal(st) == ["5-3"]
    act(st, "5-3", "3-3")
    assert events(st, "trick")[1]["winner"] == N  # 3-3 is the top of the threes


# -- the play --------------------------------------------------------------------------------


def test_the_bidder_leads_the_first_trick():
    """"You lead the first trick." (whoever speaks where, and whatever trump)."""
    for bids, bidder in ((("bid 4", "pass", "pass"), E), (("pass", "bid 5", "pass"), W_),
                         (("pass", "pass", "bid 6"), N), (("bid 4", "pass", "bid moon"), N)):
        st = hand()
        act(st, *bids)
        assert st.current_player() == bidder
        act(st, legal(st)[0], "trump 3")
        assert st.current_player() == bidder
        contract = events(st, "contract")[0]
        assert contract["bidder"] == bidder and contract["playing"] == [0, 1, 2]


def test_follow_suit_if_you_can_a_trump_bone_belongs_to_trump_only():
    """"Follow the suit that was led if you can. If you cannot, play anything." As in 42, a bone
    showing the trump number is a trump only: West's 6·2 does not follow a two when sixes are
    trump."""
    st = hand()
    act(st, "bid 4", "pass", "pass", "bury 0-0", "trump 6", "2-1")
    assert legal(st) == ["5-2"]
    act(st, "5-2")
    assert legal(st) == ["2-2", "3-2", "4-2"]
    act(st, "2-2")
    assert events(st, "trick")[0]["winner"] == N  # the 2-2 tops the twos
    # a trump lead: West must play a trump, North has none and plays anything
    st = hand()
    act(st, "bid 4", "pass", "pass", "bury 0-0", "trump 6", "6-6")
    assert legal(st) == ["6-1", "6-2"]
    act(st, "6-1")
    assert legal(st) == sorted(NORTH)


def test_highest_trump_takes_the_trick():
    """"Highest trump takes the trick": West, void in fours once the 5·4 is a trump, trumps
    East's 4·4 with the lowest five."""
    st = hand()
    act(st, "bid 4", "pass", "pass", "bury 0-0", "trump 5", "4-4")
    assert legal(st) == sorted(WEST)  # 5-4 is a five: West is void in fours
    act(st, "5-1", "4-3")
    (trick,) = events(st, "trick")
    assert trick["winner"] == W_ and trick["led"] == 4
    assert st.current_player() == W_  # the winner leads the next one


def test_highest_of_the_suit_led_wins_and_a_double_is_the_top():
    """"if no trump was played, the highest bone of the suit led takes it", the double at the top."""
    st = hand()
    act(st, "bid 4", "pass", "pass", "bury 0-0", "trump 6", *PLAY_EAST_5[:15])
    tricks = events(st, "trick")
    assert tricks[4]["plays"] == [[E, "4-4"], [W_, "5-4"], [N, "4-3"]]
    assert tricks[4]["winner"] == E  # 4-4 over 5-4
    act(st, *PLAY_EAST_5[15:18])
    assert events(st, "trick")[5]["winner"] == N  # 3-3 over 5-3
    assert st.current_player() == N


def test_every_trick_is_worth_one():
    """"there is no count ... Every trick is worth exactly one trick"."""
    st = hand()
    act(st, "bid 4", "pass", "pass", "bury 0-0", "trump 6", *PLAY_EAST_5)
    assert st.is_terminal()
    assert [t["points"] for t in events(st, "trick")] == [1] * 7
    assert st.tricks == [2, 5, 0]
    assert st.points == st.tricks
    assert hand_event(st)["ended_after_trick"] == 7


def test_all_seven_tricks_are_played_even_once_the_bid_is_decided():
    st = hand(MOON_DEAL)
    act(st, "bid 4", "pass", "pass", "bury 0-0", "trump 6")
    finish_first_legal(st)
    assert len(events(st, "trick")) == 7
    assert st.tricks == [0, 7, 0]


# -- scoring ---------------------------------------------------------------------------------


def _east_takes_five(bid: str, **options):
    st = hand(**options)
    act(st, bid, "pass", "pass", "bury 0-0", "trump 6", *PLAY_EAST_5)
    assert st.is_terminal() and st.tricks == [2, 5, 0]
    return hand_event(st)


def test_made_bid_scores_the_bid():
    """"Bid five, take five or more, and you take five points." Others score their tricks."""
    ev = _east_takes_five("bid 5")
    assert ev["made"] is True
    assert ev["scored"] == [2, 5, 0]
    ev = _east_takes_five("bid 4")
    assert ev["made"] is True and ev["scored"] == [2, 4, 0]  # the bid, not the tricks


def test_made_scores_tricks_option_scores_tricks_taken():
    """House option made_scores: tricks — a made bid scores the tricks taken."""
    ev = _east_takes_five("bid 4", made_scores="tricks")
    assert ev["made"] is True and ev["scored"] == [2, 5, 0]


def test_missed_bid_comes_off_and_scores_go_negative():
    """"Miss it and you lose it ... You can and will go backwards." Others still score their
    tricks: "whether the bid came home or not"."""
    ev = _east_takes_five("bid 6")
    assert ev["made"] is False
    assert ev["scored"] == [2, -6, 0]
    assert ev["score"] == [2, -6, 0]


def test_opponents_gain_option():
    """House option set_scores: opponents_gain — each opponent scores the missed bid instead."""
    ev = _east_takes_five("bid 6", set_scores="opponents_gain")
    assert ev["scored"] == [2 + 6, 0, 0 + 6]


def test_bid_seven_made_scores_seven_and_moon_made_scores_twenty_one():
    """"Over all of them is moon: all seven tricks, for twenty-one." A 7 is worth 7."""
    for bid, worth in (("bid 7", 7), ("bid moon", 21)):
        st = hand(MOON_DEAL)
        act(st, bid, "pass", "pass", "bury 0-0", "trump 6")
        finish_random(st, random.Random(1))
        ev = hand_event(st)
        assert ev["made"] is True and ev["scored"] == [0, worth, 0]
        assert ev["bid"] == ("moon" if bid == "bid moon" else "7")
        assert ev["contract"] == ("moon" if bid == "bid moon" else "tricks")


def test_moon_made_scores_21_even_when_made_bids_score_tricks():
    st = hand(MOON_DEAL, made_scores="tricks")
    act(st, "bid moon", "pass", "pass", "bury 0-0", "trump 6")
    finish_first_legal(st)
    assert hand_event(st)["scored"] == [0, 21, 0]


@pytest.mark.parametrize("options,east", [({}, -21), ({"moon_set": 10}, -10), ({"moon_set": 42}, -42)])
def test_missed_moon_costs_moon_set(options, east):
    """A missed moon comes off as moon_set (21 by default)."""
    ev = _east_takes_five("bid moon", **options)
    assert ev["made"] is False
    assert ev["scored"] == [2, east, 0]


def test_scoring_matches_the_rule_text_over_random_hands():
    """The scoring paragraphs, for every option combination, against random play."""
    combos = [{}, {"made_scores": "tricks"}, {"set_scores": "opponents_gain"},
              {"made_scores": "tricks", "set_scores": "opponents_gain", "moon_set": 7}]
    rng = random.Random(11)
    for options in combos:
        g = game(**options)
        for _ in range(60):
            st = g.new_match(record=True)
            st.deal_random(rng)
            bid = rng.choice(["bid 4", "bid 5", "bid 6", "bid 7", "bid moon"])
            act(st, bid)
            finish_random(st, rng)
            ev = [e for e in st.events if e["type"] == "hand"][0]
            bidder = ev["bidder"]
            assert ev["scored"] == expected_marks(options, ev["bid"], bidder, ev["tricks"])


# -- the match -------------------------------------------------------------------------------


def _match_at(score, target=None):
    g = game() if target is None else game(target=target)
    st = g.new_match(record=True, first_dealer=0)  # North deals: East speaks first
    st.score[:] = score
    st.apply_deal(g.deal_ids(DEAL))
    return st


def test_first_to_21_wins():
    """"First to 21 wins." East at 16 makes a 5 and reaches 21: the match is over."""
    st = _match_at([0, 16, 0])
    act(st, "bid 5", "pass", "pass", "bury 0-0", "trump 6", *PLAY_EAST_5)
    assert st.is_terminal()
    (m,) = events(st, "match")
    assert m["score"] == [2, 21, 0] and m["winner"] == [E]
    assert st.returns() == [-1.0, 1.0, -1.0]


def test_the_match_goes_on_below_the_target():
    st = _match_at([0, 15, 0])
    act(st, "bid 5", "pass", "pass", "bury 0-0", "trump 6", *PLAY_EAST_5)
    assert not st.is_terminal() and st.is_chance_node()
    assert st.score == [2, 20, 0]
    assert not events(st, "match")


def test_target_option_and_opponent_reaching_it_on_tricks():
    """Everybody scores their tricks, so a defender can reach the target on a bid that makes."""
    st = _match_at([9, 0, 0], target=11)
    act(st, "bid 5", "pass", "pass", "bury 0-0", "trump 6", *PLAY_EAST_5)
    assert st.is_terminal()
    (m,) = events(st, "match")
    assert m["score"] == [11, 5, 0] and m["winner"] == [N]


def test_a_set_can_take_a_player_below_zero_in_a_match():
    st = _match_at([0, 3, 0])
    act(st, "bid moon", "pass", "pass", "bury 0-0", "trump 6", *PLAY_EAST_5)
    assert st.score == [2, 3 - 21, 0]
    assert not st.is_terminal()


def test_leader_names_suit_option_lets_the_leader_choose_either_end():
    """"One player leads by placing a domino face up and naming which of its two suits they're
    leading" (the 004 text's 42; its Moon plays "same as 42"): with `leader_names_suit`, East's
    4-4 is a double and leads fours, but 3-1 leads threes or ones as East says; by default it
    leads its higher end."""
    st = hand()
    act(st, "bid 4", "pass", "pass", "bury 0-0", "trump 6", "3-1")
    assert st.current_player() == W_  # no choice: threes are led
    assert events(st, "trick") == [] and st.led == 3
    st = hand(leader_names_suit=True)
    act(st, "bid 4", "pass", "pass", "bury 0-0", "trump 6", "4-4")
    assert st.current_player() == W_ and st.led == 4  # a double leads its own suit
    st = hand(leader_names_suit=True)
    act(st, "bid 4", "pass", "pass", "bury 0-0", "trump 6", "3-1")
    assert st.current_player() == E and legal(st) == ["lead 1", "lead 3"]
    act(st, "lead 1")
    assert st.led == 1
    assert legal(st) == ["5-1"]  # West must follow ones: its 6-1 is a trump only
    # a trump leads trump, whichever end: 6-3 with sixes trump
    st = hand(leader_names_suit=True)
    act(st, "bid 4", "pass", "pass", "bury 0-0", "trump 6", "6-3")
    assert st.current_player() == W_ and st.led == 6
