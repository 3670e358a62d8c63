"""All Fives (straight dominoes), rule by rule: each test quotes the rule text it checks.

Source: /work/shared/rules/004_f26017e68a50bf4c.txt, "The idea" .. "A little strategy"; the
ruleset is rulesets/allfives.yaml (its options are the house rules).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from tablerules.errors import GameError, TablerulesError

from .helpers import (FULL_SET, Layout, act, deal_rest, events, game, held, last_lay, legal,
                      nearest_five, new_hand, pinned_game, pips)

# The worked example: East (left of the dealer North) sets the 6-4, South adds the 6-6.
EXAMPLE = [["0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0"],   # North (the dealer)
           ["6-4", "3-1", "3-2", "3-3", "4-0", "4-1", "4-2"],   # East sets down
           ["6-6", "4-3", "4-4", "5-0", "5-1", "5-2", "5-3"],   # South
           ["5-4", "5-5", "6-0", "6-1", "6-2", "6-3", "6-5"]]   # West


def lay_points(state) -> list[int]:
    return [e["scored"] for e in events(state, "lay")]


# -- the set, the seats, the deal -------------------------------------------------------------


def test_same_28_dominoes_seven_each_partners_across():
    """"Same 28 dominoes, seven to each of four players, partners across from each other." """
    gd = game().definition
    assert sorted(gd.pieces.names) == sorted(FULL_SET)
    assert gd.seat_count == 4 and gd.hand_size == 7 and gd.stock == 0
    assert [list(s) for s in gd.sides] == [[0, 2], [1, 3]]
    st = game().new_match(record=True)
    st.deal_random(random.Random(4))
    deal = st.events[0]
    assert [len(h) for h in deal["dealt"]] == [7] * 4 and "stock" not in deal
    assert sorted(p for h in deal["dealt"] for p in h) == sorted(FULL_SET)


def test_no_bidding_no_trumps_no_tricks():
    """"no bidding, no trumps, no tricks. You build one connected layout"."""
    st = new_hand(EXAMPLE)
    assert st.current_player() == 1
    assert all("bid" not in a and "trump" not in a for a in legal(st))
    (contract,) = events(st, "contract")
    assert contract["contract"] == "layout" and contract["bidder"] == -1


# -- matching and laying ----------------------------------------------------------------------


def test_the_first_player_sets_any_domino():
    """"The first player sets any domino." — the player left of the shaker (the dealer)."""
    for dealer in range(4):
        st = new_hand(EXAMPLE, dealer=dealer)
        seat = (dealer + 1) % 4
        assert st.current_player() == seat
        assert legal(st) == held(st, seat)


def test_a_domino_joins_a_matching_end_and_its_other_end_is_the_new_open_end():
    """"If the layout ends in a four, you can play any domino with a four on it ... The other end
    of your domino becomes the new open end." """
    st = new_hand(EXAMPLE)
    act(st, "6-4")
    assert st.current_player() == 2
    # South holds 6-6 4-3 4-4 5-0 5-1 5-2 5-3: only the six and the fours match
    assert legal(st) == ["4-3 east", "4-4 east", "6-6 west"]
    act(st, "4-3 east")
    assert last_lay(st)["ends"] == [6, 3]
    assert last_lay(st)["layout"] == {"line": "6-4 4-3"}
    with pytest.raises(GameError):
        # West holds the 5-5, but the east end shows a three
        st.apply_action(st.game.string_to_action("5-5 east"))


def test_worked_example():
    """"you lay the 6·4 to start. The open ends are 6 and 4, totalling 10 ... so you score 10.
    Next player adds 6·6 on the six. That double is the spinner and counts both halves: 12, plus
    the 4 still open at the other end, is 16. Not a multiple of five, so no score." """
    st = new_hand(EXAMPLE)
    act(st, "6-4")
    first = last_lay(st)
    assert first["scored"] == 10 and first["ends"] == [6, 4]
    assert st.score == [0, 10]  # East is on the East+West side
    act(st, "6-6 west")
    second = last_lay(st)
    assert second["scored"] == 0
    assert st.score == [0, 10]
    assert second["layout"]["line"] == "6-6* 6-4"
    assert st.spinner == st.game.string_to_action("6-6")


def test_doubles_lie_crosswise_and_keep_the_end_number():
    """"Doubles are laid crosswise": a double laid on a four leaves a four open."""
    st = new_hand(EXAMPLE)
    act(st, "6-4", "4-4 east")
    assert last_lay(st)["ends"] == [6, 4]
    # 4-4 is the first double, so the spinner: 6 + 8 = 14
    assert last_lay(st)["scored"] == 0


def test_score_goes_on_the_board_immediately():
    """"Everything you score goes on the board immediately"."""
    st = new_hand(EXAMPLE)
    act(st, "6-4")
    assert st.score == [0, 10] and last_lay(st)["score"] == [0, 10]
    assert st.points == [0, 10]


# -- the spinner --------------------------------------------------------------------------------


def _spinner_first_deal():
    # East sets 5-5; the others hold fives and sixes to build every side.
    return deal_rest(["6-6", "2-0", "1-0", "1-1", "0-0", "2-1", "2-2"],
                     ["5-5", "5-3", "3-1", "6-4", "3-0", "3-3", "4-0"],
                     ["5-6", "5-2", "4-4", "4-1", "3-2", "4-2", "6-0"],
                     ["5-4", "5-1", "5-0", "6-1", "6-2", "6-3", "4-3"])


def test_a_double_set_first_is_the_spinner_and_opens_four_ways_once_both_sides_are_covered():
    """"The first double played becomes the spinner ... The two ends of the line open first; once
    both of those have a domino, the two sides of the spinner open too." """
    st = new_hand(_spinner_first_deal())
    act(st, "5-5")
    assert last_lay(st)["layout"]["line"] == "5-5*"
    assert last_lay(st)["scored"] == 10  # a lone 5-5 shows 10
    # South: fives may go west or east only
    assert sorted(legal(st)) == ["5-2 east", "5-2 west", "6-5 east", "6-5 west"]
    act(st, "6-5 east")
    # West: one side is covered, the spinner's other sides are still shut
    assert sorted(legal(st)) == ["5-0 west", "5-1 west", "5-4 west", "6-1 east", "6-2 east",
                                 "6-3 east"]
    act(st, "5-4 west")
    lay = last_lay(st)["layout"]
    assert lay == {"line": "4-5 5-5* 5-6", "north": "open", "south": "open"}
    assert last_lay(st)["scored"] == 10  # 4 + 6: the boxed spinner and its unbuilt sides count nothing
    act(st, "6-6 east")  # North
    # East's 5-3 may now go on either side of the spinner
    assert sorted(a for a in legal(st) if a.startswith("5-3")) == ["5-3 north", "5-3 south"]
    act(st, "5-3 north")
    assert last_lay(st)["layout"] == {"line": "4-5 5-5* 5-6 6-6", "north": "5-3", "south": "open"}
    assert last_lay(st)["ends"] == [4, 6, 3]


def test_spinner_laid_on_a_line_opens_its_sides_when_its_outer_side_is_covered():
    """The worked example's 6·6 spinner: its north and south open once a bone covers its far side."""
    st = new_hand(EXAMPLE)
    act(st, "6-4", "6-6 west")
    # West holds 5-4 6-0 6-1 6-2 6-3 6-5 ...: sixes only on the spinner's open main side
    assert all(a.endswith(" west") or a.startswith("5-4") for a in legal(st))
    assert not any(a.endswith((" north", " south")) for a in legal(st))
    act(st, "6-5 west")
    assert last_lay(st)["layout"] == {"line": "5-6 6-6* 6-4", "north": "open", "south": "open"}
    assert last_lay(st)["ends"] == [5, 4]  # unbuilt spinner sides are not ends yet
    assert last_lay(st)["scored"] == 0  # 5 + 4: the boxed spinner no longer counts


def test_a_double_at_an_open_end_counts_both_halves():
    """"A double at an open end counts both halves. If the 4·4 sits at the end of an arm, that
    arm contributes 8, not 4." The 2·2 at the west end makes 4 + 6 + 6 + 4 = 20 (18 if it
    counted one half); the 6·6 then at the north end makes 26."""
    hands = deal_rest(["5-6", "6-6", "0-0", "1-0", "1-1", "3-0", "3-1"],
                      ["5-5", "5-4", "0-2", "2-1", "3-2", "3-3", "4-1"],
                      ["5-2", "2-2", "4-0", "4-2", "4-3", "4-4", "6-0"],
                      ["5-3", "5-1", "5-0", "6-1", "6-2", "6-3", "6-4"])
    st = new_hand(hands, dealer=0)  # East sets down
    act(st, "5-5")                   # East: 10
    act(st, "5-2 west")              # South: 2 + spinner 10 = 12
    act(st, "5-3 east")              # West: 2 + 3 = 5, the spinner is boxed
    act(st, "6-5 north")             # North: 2 + 3 + 6 = 11
    act(st, "5-4 south")             # East: 2 + 3 + 6 + 4 = 15
    act(st, "2-2 west")              # South: 4 + 3 + 6 + 4 = 17
    act(st, "6-3 east")              # West: 4 + 6 + 6 + 4 = 20
    act(st, "6-6 north")             # North: 4 + 6 + 12 + 4 = 26
    assert lay_points(st) == [10, 0, 5, 0, 15, 0, 20, 0]
    assert st.ends == ((2, True, False), (6, False, False), (6, True, False), (4, False, False))
    assert st.score == [0 + 0, 10 + 5 + 15 + 20]


def test_the_spinner_counts_both_halves_until_boxed_in():
    """"While the spinner is still an end of the line, its full pip value counts. Once dominoes
    sit on both of its main sides, it's no longer an end and stops counting on its own." """
    st = new_hand(_spinner_first_deal())
    act(st, "5-5")           # 10: scores 10
    act(st, "5-2 east")      # spinner 10 + 2 = 12
    act(st, "5-0 west")      # boxed: 0 + 2 = 2 (the open sides count nothing until built on)
    assert lay_points(st) == [10, 0, 0]
    assert st.ends == ((0, False, False), (2, False, False))
    st = new_hand(_spinner_first_deal())
    act(st, "5-5", "5-2 east")
    assert st.ends[0] == (5, True, True)  # the spinner is an end, counting both halves
    st = new_hand(_spinner_first_deal())
    act(st, "5-5", "6-5 east")  # 10 + 6 = 16
    act(st, "5-4 west")         # 4 + 6 = 10: scores 10 (not 20 with the spinner, not 20 with sides)
    assert lay_points(st) == [10, 0, 10]


@pytest.mark.parametrize("count,expected", [("both", [10, 0]), ("one", [5, 0])])
def test_spinner_count_option_first_spinner(count, expected):
    """House option spinner_count: one — the spinner counts one half while it is an end."""
    st = new_hand(_spinner_first_deal(), spinner_count=count)
    act(st, "5-5", "6-5 east")  # both: 10 + 6 = 16; one: 5 + 6 = 11
    assert lay_points(st) == expected


def test_spinner_count_one_in_the_worked_example():
    """With one half, the worked example's 6·6 counts 6: 6 + 4 = 10 scores 10."""
    st = new_hand(EXAMPLE, spinner_count="one")
    act(st, "6-4", "6-6 west")
    assert lay_points(st) == [10, 10]


def test_a_later_double_is_not_a_spinner():
    """Only "The first double played becomes the spinner"; a later double is an ordinary end."""
    st = new_hand(_spinner_first_deal())
    act(st, "5-5", "5-2 east", "5-0 west", "2-2 east")
    assert st.spinner == st.game.string_to_action("5-5")
    assert last_lay(st)["layout"] == {"line": "0-5 5-5* 5-2 2-2", "north": "open", "south": "open"}
    assert st.ends == ((0, False, False), (2, True, False))
    assert all(e["layout"]["line"].count("*") == 1 for e in events(st, "lay"))


# -- knocking, blocking, going out -------------------------------------------------------------


def test_knock_only_when_there_is_no_play():
    """"If you can't match any open end, you knock (pass) ... the Knock button only appears when
    you really have nothing." """
    st = new_hand(EXAMPLE)
    assert "knock" not in legal(st)
    act(st, "6-4")
    assert "knock" not in legal(st)
    act(st, "6-6 west")
    assert "knock" not in legal(st)
    act(st, "6-5 west")
    # North holds 0-0 1-0 1-1 2-0 2-1 2-2 3-0: no five, no four
    assert legal(st) == ["knock"]
    act(st, "knock")
    assert st.current_player() == 1
    assert events(st, "knock") == [{"type": "knock", "seat": 0}]


def _blocked_deal():
    # Dealer West: North sets 0-0, and the seven blanks are laid on one arm; every end then shows
    # a blank and nobody holds one.
    return [["0-0", "3-0", "6-5", "1-1", "2-2", "3-1", "3-2"],
            ["1-0", "4-3", "6-0", "4-4", "5-3", "5-4", "5-5"],
            ["2-1", "4-0", "3-3", "4-1", "4-2", "5-1", "5-2"],
            ["2-0", "5-0", "6-1", "6-2", "6-3", "6-4", "6-6"]]


BLOCKED_LAYS = ["0-0", "1-0 east", "2-1 east", "2-0 east", "3-0 east", "4-3 east", "4-0 east",
                "5-0 east", "6-5 east", "6-0 east"]


def test_blocked_the_lighter_side_scores_the_rounded_difference():
    """"Blocked — if all four players knock in a row, nobody can move and the hand is dead.
    Compare the pips left in hand: the lighter side scores the difference, rounded to the nearest
    five." North+South hold 15 + 30 = 45, East+West 35 + 46 = 81: 36 rounds to 35."""
    st = new_hand(_blocked_deal(), dealer=3)
    act(st, *BLOCKED_LAYS)
    for seat in (2, 3, 0):
        assert st.current_player() == seat and legal(st) == ["knock"]
        act(st, "knock")
        assert not st.is_terminal()
    act(st, "knock")
    assert st.is_terminal()
    (ev,) = events(st, "hand")
    assert ev["blocked"] is True and ev["went_out"] == -1
    assert ev["pips_left"] == [45, 81]
    assert ev["scored"] == [nearest_five(81 - 45), 0] == [35, 0]
    assert st.score == [p + m for p, m in zip(ev["points"], ev["scored"])]


def test_knocks_must_be_in_a_row():
    """"if all ... players knock in a row": with two players, a knock, a lay and a knock again is
    two knocks but not in a row, and the hand goes on."""
    north = ["0-0", "1-0", "2-0", "3-0", "4-0", "5-0", "6-0", "6-1", "6-2", "6-3", "6-4", "6-5",
             "6-6", "1-1"]
    east = [p for p in FULL_SET if p not in north]  # no blank, no six
    st = new_hand([north, east], dealer=1, players=2, hand_2=14)
    assert st.game.stock == 0
    act(st, "0-0")
    assert legal(st) == ["knock"]
    act(st, "knock", "6-0 east")
    assert legal(st) == ["knock"]
    act(st, "knock")
    assert not st.is_terminal() and st.current_player() == 0
    assert not events(st, "hand")


def test_domino_scores_the_opponents_pips_rounded_partner_not_counted():
    """"Domino! — play your last domino and the hand ends. Add up all the pips left in your
    opponents' hands, round to the nearest five, and your side scores that." 13 -> 15."""
    # one bone each (hand_4=1): North sets 2-1 and is out; East 6-6 + West 1-0 = 13; South's
    # 5-5 is the partner's and does not count
    hands = [["2-1"], ["6-6"], ["5-5"], ["1-0"]]
    stock = [p for p in FULL_SET if p not in ("2-1", "6-6", "5-5", "1-0")]
    st = new_hand(hands + [stock], dealer=3, hand_4=1)
    act(st, "2-1")
    assert st.is_terminal()
    (ev,) = events(st, "hand")
    assert ev["went_out"] == 0 and ev["blocked"] is False
    assert ev["pips_left"] == [10, 13]
    assert ev["scored"] == [15, 0]


@pytest.mark.parametrize("opponents,award", [(["6-6", "0-0"], 10), (["6-6", "1-0"], 15),
                                             (["3-1", "1-0"], 5), (["1-1", "0-0"], 0),
                                             (["5-1", "1-0"], 5), (["6-5", "6-4"], 20)])
def test_domino_rounding_to_the_nearest_five(opponents, award):
    """12 -> 10, 13 -> 15, 5 -> 5, 2 -> 0, 7 -> 5, 21 -> 20."""
    hands = [["2-1"], [opponents[0]], ["5-5"], [opponents[1]]]
    stock = [p for p in FULL_SET if p not in ("2-1", "5-5", *opponents)]
    st = new_hand(hands + [stock], dealer=3, hand_4=1)
    act(st, "2-1")
    ev = events(st, "hand")[0]
    assert ev["scored"] == [award, 0]
    assert award == nearest_five(pips(opponents[0]) + pips(opponents[1]))


@settings(max_examples=60, deadline=None)
@given(hst.permutations(sorted(FULL_SET)), hst.integers(0, 3))
def test_domino_award_is_the_opponents_pips_rounded_for_any_bones(order, dealer):
    """Property: whoever goes out, their side scores the other side's pips rounded to five."""
    hands = [[p] for p in order[:4]]
    st = new_hand(hands + [list(order[4:])], dealer=dealer, hand_4=1)
    leader = (dealer + 1) % 4
    act(st, order[leader])
    ev = events(st, "hand")[0]
    side = leader % 2
    opp = sum(pips(order[s]) for s in range(4) if s % 2 != side and s != leader)
    want = [0, 0]
    want[side] = nearest_five(opp)
    assert ev["went_out"] == leader
    assert ev["scored"] == want
    assert st.score == [p + m for p, m in zip(ev["points"], want)]


# -- fewer players: the boneyard -----------------------------------------------------------------


def _three_player_deal():
    return [["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"],
            ["1-1", "1-0", "0-0", "2-2", "2-1", "2-0", "3-3"],
            ["5-5", "5-4", "5-3", "5-2", "4-4", "4-3", "4-2"],
            ["5-0", "3-2", "5-1", "4-1", "4-0", "3-1", "3-0"]]


def test_three_players_seven_each_and_a_seven_bone_boneyard():
    gd = game(players=3).definition
    assert gd.seat_count == 3 and gd.hand_size == 7 and gd.stock == 7
    assert [list(s) for s in gd.sides] == [[0], [1], [2]]
    st = game(players=3).new_match(record=True)
    st.deal_random(random.Random(2))
    deal = st.events[0]
    assert [len(h) for h in deal["dealt"]] == [7, 7, 7] and len(deal["stock"]) == 7
    assert sorted([p for h in deal["dealt"] for p in h] + deal["stock"]) == sorted(FULL_SET)


def test_two_players_leave_fourteen_in_the_boneyard():
    gd = game(players=2).definition
    assert gd.seat_count == 2 and gd.hand_size == 7 and gd.stock == 14


def test_no_play_means_draw_until_able():
    """A player with no play must draw (in order) until able to play or the boneyard is empty,
    then play: knocking is not allowed while the boneyard lasts."""
    st = new_hand(_three_player_deal(), players=3)
    act(st, "1-1")
    assert st.current_player() == 2 and legal(st) == ["draw"]
    act(st, "draw")
    assert held(st, 2).count("5-0") == 1 and legal(st) == ["draw"]
    act(st, "draw")
    assert legal(st) == ["draw"]
    act(st, "draw")  # the 5-1 matches
    assert sorted(legal(st)) == ["5-1 east", "5-1 west"]
    assert [e["piece"] for e in events(st, "draw")] == ["5-0", "3-2", "5-1"]
    assert list(st.game.pieces.names[t] for t in st.stock) == ["4-1", "4-0", "3-1", "3-0"]
    act(st, "5-1 east")
    assert st.current_player() == 0


def test_knock_once_the_boneyard_is_empty():
    """South has no blank and none in the boneyard: it draws all seven, then knocks."""
    deal = [["4-0", "5-0", "6-0", "3-1", "3-2", "3-3", "4-1"],
            ["0-0", "1-0", "2-0", "3-0", "1-1", "2-1", "2-2"],
            ["4-2", "4-3", "4-4", "5-1", "5-2", "5-3", "5-4"],
            ["5-5", "6-1", "6-2", "6-3", "6-4", "6-5", "6-6"]]
    st = new_hand(deal, players=3)
    act(st, "0-0")
    for _ in range(7):
        assert legal(st) == ["draw"]
        act(st, "draw")
    assert st.stock == () and len(held(st, 2)) == 14
    assert legal(st) == ["knock"]
    act(st, "knock")
    assert st.current_player() == 0 and not st.is_terminal()


def test_draw_with_play_option():
    """House option draw_with_play: a player may draw even holding a play."""
    st = new_hand(_three_player_deal(), players=3)
    act(st, "1-1")
    act(st, "draw", "draw", "draw")
    assert sorted(legal(st)) == ["5-1 east", "5-1 west"]
    st = new_hand(_three_player_deal(), players=3, draw_with_play=True)
    act(st, "1-1", "draw", "draw", "draw")
    assert sorted(legal(st)) == ["5-1 east", "5-1 west", "draw"]
    # and with nothing to play it is still draw, never knock, while the boneyard lasts
    st = new_hand(_three_player_deal(), players=3, draw_with_play=True)
    act(st, "1-1")
    assert legal(st) == ["draw"]


# -- options: first play, teams, target --------------------------------------------------------


def test_first_play_highest_double():
    """"Highest double gives the first play to whoever holds the biggest double"."""
    st = new_hand(EXAMPLE, dealer=0, first_play="highest_double")
    assert st.current_player() == 2  # South holds 6-6
    st = new_hand(EXAMPLE, dealer=2, first_play="highest_double")
    assert st.current_player() == 2
    assert new_hand(EXAMPLE, dealer=0).current_player() == 1  # rotate: left of the shaker


def test_highest_double_counts_only_dealt_bones():
    """With three players the 6·6 may lie in the boneyard: the 5·5 is then the biggest held."""
    deal = [["6-5", "6-4", "6-3", "6-2", "6-1", "6-0", "1-0"],
            ["1-1", "0-0", "2-2", "2-1", "2-0", "3-3", "3-2"],
            ["5-5", "5-4", "5-3", "5-2", "4-4", "4-3", "4-2"],
            ["6-6", "5-0", "5-1", "4-1", "4-0", "3-1", "3-0"]]
    st = new_hand(deal, dealer=0, players=3, first_play="highest_double")
    assert st.current_player() == 2
    assert new_hand(deal, dealer=0, players=3).current_player() == 1


def test_highest_double_with_no_double_dealt_falls_back_to_left_of_the_shaker():
    hands = [["6-5", "2-1"], ["6-4", "3-1"]]
    stock = [p for p in FULL_SET if p not in ("6-5", "2-1", "6-4", "3-1")]
    st = new_hand(hands + [stock], dealer=1, players=2, hand_2=2, first_play="highest_double")
    assert st.current_player() == 0
    st = new_hand(hands + [stock], dealer=0, players=2, hand_2=2, first_play="highest_double")
    assert st.current_player() == 1


def test_first_play_rotates_with_the_deal_in_a_match():
    """"Left of shaker rotates the opening play each hand." """
    g = game(hand_4=1)
    st = g.new_match(record=True)
    leaders = []
    for _ in range(5):
        st.deal_random(random.Random(len(leaders)))
        leaders.append(st.current_player())
        while not st.is_chance_node() and not st.is_terminal():
            act(st, legal(st)[0])
    first = events(st, "deal")[0]["dealer"]  # the first shaker, drawn by lot
    assert leaders == [(first + 1 + i) % 4 for i in range(5)]


def test_cutthroat_every_player_for_themselves():
    """"Cutthroat is every player for themselves." """
    gd = game(teams="cutthroat").definition
    assert [list(s) for s in gd.sides] == [[0], [1], [2], [3]]
    st = new_hand(EXAMPLE, teams="cutthroat")
    act(st, "6-4")
    assert st.score == [0, 10, 0, 0]
    hands = [["2-1"], ["6-6"], ["5-5"], ["1-0"]]
    stock = [p for p in FULL_SET if p not in ("2-1", "6-6", "5-5", "1-0")]
    st = new_hand(hands + [stock], dealer=3, hand_4=1, teams="cutthroat")
    act(st, "2-1")
    assert events(st, "hand")[0]["scored"] == [nearest_five(12 + 10 + 1), 0, 0, 0]


def test_partners_share_a_score():
    """"partners across from each other": a lay scores for the layer's side."""
    st = new_hand(_spinner_first_deal())
    act(st, "5-5")
    assert st.score == [0, 10]  # East scores for East+West
    st = new_hand(_spinner_first_deal(), dealer=1)  # South sets down
    act(st, "4-1")
    assert st.score == [5, 0]  # South scores for North+South


def test_target_values():
    """"Game to — 150 for a shorter game, 250 for a full evening." plus 200, 100 and 61."""
    assert game().definition.options["target"] == 250
    for t in (250, 200, 150, 100, 61):
        assert game(target=t).definition.options["target"] == t
        assert game(target=str(t)).definition.options["target"] == t
    for bad in (300, 60, 0):
        with pytest.raises(TablerulesError):
            game(target=bad)


def test_target_61_counts_in_fives():
    """On the cribbage-board count every five is one: a scored 15 adds 3, a domino of 13 -> 15
    adds 3."""
    deal = deal_rest(["0-0"], ["6-6"], ["6-3"])
    st = new_hand(deal, target=61)
    act(st, "6-6", "6-3 east")  # spinner 12 + 3 = 15
    assert lay_points(st) == [0, 3]
    assert st.score == [3, 0]
    st = new_hand(deal)
    act(st, "6-6", "6-3 east")
    assert lay_points(st) == [0, 15]
    hands = [["2-1"], ["6-6"], ["5-5"], ["1-0"]]
    stock = [p for p in FULL_SET if p not in ("2-1", "6-6", "5-5", "1-0")]
    st = new_hand(hands + [stock], dealer=3, hand_4=1, target=61)
    act(st, "2-1")
    assert events(st, "hand")[0]["scored"] == [3, 0]


# -- the match ------------------------------------------------------------------------------------


def test_the_match_ends_the_moment_a_lay_reaches_the_target():
    """"Play hands until one side reaches the target" and "Everything you score goes on the board
    immediately": the engine stops the match on the lay that reaches the target, mid-hand, with
    no end-of-hand award."""
    g = pinned_game()
    st = g.new_match(record=True)
    st.score[:] = [0, 245]
    st.apply_deal(g.deal_ids(EXAMPLE))
    act(st, "6-4")
    assert st.is_terminal()
    kinds = [e["type"] for e in st.events]
    assert kinds[-3:] == ["lay", "hand", "match"]
    hand_ev, match_ev = st.events[-2], st.events[-1]
    assert hand_ev["scored"] == [0, 0] and hand_ev["went_out"] == -1 and hand_ev["blocked"] is False
    assert match_ev["score"] == [0, 255] and match_ev["winner"] == [1]
    assert st.returns() == [-1.0, 1.0, -1.0, 1.0]


def test_the_match_goes_on_below_the_target():
    g = pinned_game()
    st = g.new_match(record=True)
    st.score[:] = [0, 235]
    st.apply_deal(g.deal_ids(EXAMPLE))
    act(st, "6-4")
    assert not st.is_terminal() and st.score == [0, 245]
    assert st.current_player() == 2


def test_the_match_ends_on_a_domino_award_reaching_the_target():
    g = pinned_game(hand_4=1, target=100)
    st = g.new_match(record=True)
    st.score[:] = [95, 90]
    hands = [["6-6"], ["2-1"], ["1-0"], ["5-5"]]
    stock = [p for p in FULL_SET if p not in ("2-1", "6-6", "5-5", "1-0")]
    st.apply_deal(g.deal_ids(hands + [stock]))
    act(st, "2-1")  # East goes out: 12 + 1 = 13 -> 15 for East+West
    assert st.is_terminal()
    assert events(st, "hand")[0]["scored"] == [0, 15]
    assert events(st, "match")[0]["score"] == [95, 105]
    assert events(st, "match")[0]["winner"] == [1]


def test_layout_model_agrees_on_a_long_hand():
    """The independent layout model and the engine agree lay by lay on one seeded hand."""
    st = game().new_match(record=True)
    st.deal_random(random.Random(8))
    model = Layout()
    rng = random.Random(8)
    while not st.is_chance_node() and not st.is_terminal():
        seat = st.current_player()
        plays = model.plays(held(st, seat))
        assert sorted(a for a in legal(st) if a not in ("knock", "draw")) == plays
        a = rng.choice(legal(st))
        act(st, a)
        if a == "knock":
            continue
        piece, _, arm = a.partition(" ")
        model.first(piece) if not arm else model.lay(piece, arm)
        assert last_lay(st)["scored"] == model.score()
