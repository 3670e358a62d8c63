"""rulesets/taroky.yaml against the rule text (004_f26017e68a50bf4c.txt, the Taroky part), with
constructed deals: each test is one bullet of the game as the issue gives it."""

from __future__ import annotations

import random

import pytest

from tablerules.engine.worlds import worlds

from .helpers import (EAST, NORTH, SOUTH, WEST, count, deal, do, game_payments, first_legal,
                      game, hands_of, ids, legal, new_hand, random_match, to_play,
                      tournament_chips)


def _hand_lines(st):
    return hands_of(st.events)[-1]


def _record_hand(g, dealt, dealer=NORTH):
    st = g.new_hand([list(p) for p in dealt], dealer, record=True)
    return st


# -- the povinnost and "everybody good?" -------------------------------------------------------

def test_the_first_povinnost_is_whoever_was_dealt_the_two_and_the_others_answer_first():
    g = game()
    st = new_hand(g, deal(g, {SOUTH: ["II"]}))
    assert st.observation(EAST)["turn"] == SOUTH
    # the others answer in turn, counter-clockwise from the povinnost: East, North, West
    order = []
    for _ in range(3):
        order.append(st.current_player())
        assert legal(st) == ["pass", "bid prever"]
        do(st, "pass")
    assert order == [EAST, NORTH, WEST]
    assert st.current_player() == SOUTH and legal(st) == ["bid game"]  # it is the povinnost's


def test_with_the_two_in_the_talon_the_player_after_the_dealer_takes_the_hand():
    g = game()
    st = new_hand(g, deal(g, {}, stock=["II"]), dealer=NORTH)
    assert st.observation(NORTH)["turn"] == WEST  # next(North), counter-clockwise


def test_the_povinnost_moves_one_seat_counterclockwise_each_deal():
    g = game()
    st = g.new_match(first_dealer=NORTH)
    st.apply_deal(ids(g, deal(g, {SOUTH: ["II"]})))
    turns = [st.observation(0)["turn"]]
    rng = random.Random(3)
    for _ in range(3):
        first_legal(st, lambda s: s.is_chance_node())
        st.deal_random(rng)
        turns.append(st.observation(0)["turn"])
    assert turns == [SOUTH, EAST, NORTH, WEST]


def test_play_goes_counterclockwise_round_the_compass():
    # the text: the deal and the turn go counter-clockwise and "the player after the dealer
    # leads": round a table named by the compass (North facing South, West on its right) that is
    # North, West, South, East, so the dealer's right-hand neighbour leads
    g = game()
    st = new_hand(g, deal(g, {SOUTH: ["II"]}), dealer=NORTH)
    speakers = []
    for _ in range(3):
        speakers.append(st.player_name())
        do(st, "pass")
    assert speakers + [st.player_name()] == ["East", "North", "West", "South"]
    to_play(st)
    assert st.player_name() == "West"  # North dealt


def test_the_first_prever_has_it():
    g = game()
    st = new_hand(g, deal(g, {SOUTH: ["II"]}))
    do(st, "bid prever")  # East
    assert legal(st) == ["pass"]  # North can only say good now, and so can the rest
    do(st, "pass", "pass", "pass")
    assert st.bidder == EAST and st.observation(EAST)["contract"] == "prever"


# -- the partner -------------------------------------------------------------------------------

def test_the_partner_is_whoever_holds_the_nineteen_and_nobody_is_told():
    g = game()
    gd = g.definition
    # two deals that differ only in whether East or West holds the XIX
    west, east = ["XIX"] + ["7♠"], ["XX", "8♠"]
    views = []
    for a, b in ((west, east), (east, west)):
        st = _record_hand(g, deal(g, {SOUTH: ["II"], EAST: a, WEST: b},
                                  stock=["7♣", "8♣", "9♣", "10♣", "J♣", "R♣"]))
        to_play(st, keep={"XIX", "XX"})
        assert st.bidder == SOUTH
        obs = st.observation(NORTH)
        views.append(obs)
        # North's worlds put the XIX with East or with West (or in the talon South took), never
        # settled before it is played
        xix = gd.pieces.names.index("XIX")
        holders = {w.ctx.holder(xix) for w in worlds(gd, obs, random.Random(1), 40)}
        assert holders >= {EAST, WEST}
        first_legal(st, lambda s: s.is_terminal())
        assert count(_hand_lines(st))["team"] == {SOUTH, a is west and EAST or WEST}
    assert views[0] == views[1]  # North cannot tell the two apart: nothing names the partner


def test_once_the_nineteen_is_played_every_world_knows_the_partner():
    g = game()
    gd = g.definition
    st = _record_hand(g, deal(g, {SOUTH: ["II"], EAST: ["XIX"]}))
    to_play(st)
    xix = gd.string_to_action("XIX")
    first_legal(st, lambda s: xix in s.legal_actions() and s.current_player() == EAST)
    do(st, "XIX")
    obs = st.observation(NORTH)
    for w in worlds(gd, obs, random.Random(2), 10):
        assert w.observation(NORTH)["history"] == obs["history"]
        assert dict(w.history[-1:]) == {EAST: xix}


def test_a_povinnost_holding_the_nineteen_calls_the_next_one_down_not_held_or_plays_alone():
    g = game()
    st = new_hand(g, deal(g, {SOUTH: ["II", "XIX", "XVIII"], WEST: ["XVII"]}))
    do(st, "pass", "pass", "pass", "bid game")
    assert legal(st) == ["call XIX", "call XVII"]  # the XIX, held: alone, and only it knows
    st = _record_hand(g, deal(g, {SOUTH: ["II", "XIX", "XVIII"], WEST: ["XVII"]}))
    to_play(st, call="XVII")
    first_legal(st, lambda s: s.is_terminal())
    lines = _hand_lines(st)
    assert count(lines)["team"] == {SOUTH, WEST}
    st = _record_hand(g, deal(g, {SOUTH: ["II", "XIX", "XVIII"], WEST: ["XVII"]}))
    to_play(st, call="XIX")
    first_legal(st, lambda s: s.is_terminal())
    assert count(_hand_lines(st))["team"] == {SOUTH}


# -- the talon ---------------------------------------------------------------------------------

def _takes(st):
    return [(e["seat"], e["took"]) for e in st.events if e["type"] == "exchange" and "took" in e]


def test_the_povinnost_takes_four_the_next_two_not_the_dealer_one_each_the_dealer_none():
    g = game()
    talon = ["7♠", "8♠", "9♠", "10♠", "7♣", "8♣"]
    st = _record_hand(g, deal(g, {SOUTH: ["II"]}, stock=talon), dealer=NORTH)
    to_play(st)
    # South, then East; North deals, so West
    assert _takes(st) == [(SOUTH, talon[:4]), (EAST, ["7♣"]), (WEST, ["8♣"])]
    buried = [e["seat"] for e in st.events if e["type"] == "exchange" and "buried" in e]
    assert buried == [SOUTH] * 4 + [EAST, WEST]
    assert all(len(h) == 12 for h in st.observation(SOUTH)["hand_sizes"] and
               [st.observation(s)["hand"] for s in range(4)])


@pytest.mark.parametrize("option, takes", [
    ("takes_four", [(SOUTH, 4), (EAST, 1), (NORTH, 1)]),
    ("takes_none", [(EAST, 1), (NORTH, 1)]),
])
def test_a_povinnost_who_deals(option, takes):
    g = game(dealer_povinnost=option)
    st = _record_hand(g, deal(g, {SOUTH: ["II"]}), dealer=SOUTH)
    to_play(st)
    assert [(s, len(t)) for s, t in _takes(st)] == takes
    first_legal(st, lambda s: s.is_terminal())
    c = count(_hand_lines(st))
    assert len(c["left"]) == 6 - sum(n for _, n in takes)
    assert c["contract"] + c["against"] == 106  # what stays in the talon counts against


def test_never_lay_away_a_king_nor_the_trul_and_a_one_point_tarok_only_when_nothing_else_can_go():
    g = game()
    south = ["K♥", "K♦", "K♠", "K♣", "I", "XXI", "Skyz", "II", "III", "IV", "V", "Q♥"]
    st = new_hand(g, deal(g, {SOUTH: south}, stock=["VI", "VII", "VIII", "IX", "7♣", "8♣"]))
    do(st, "pass", "pass", "pass", "bid game", "call XIX")
    assert legal(st) == ["bury Q♥"]  # the one card that is neither barred nor a one-point tarok
    do(st, "bury Q♥")
    assert legal(st) == [f"bury {n}" for n in ["II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]]
    g = game(lay_away_trul=True)
    st = new_hand(g, deal(g, {SOUTH: south}, stock=["VI", "VII", "VIII", "IX", "7♣", "8♣"]))
    do(st, "pass", "pass", "pass", "bid game", "call XIX")
    assert legal(st) == ["bury Q♥", "bury I", "bury XXI", "bury Skyz"]


def test_a_prever_takes_the_first_three_or_the_second_three_and_the_rest_counts_against():
    g = game()
    talon = ["7♠", "8♠", "9♠", "10♠", "7♣", "8♣"]
    for half, took in (("first", talon[:3]), ("second", talon[3:])):
        st = _record_hand(g, deal(g, {SOUTH: ["II"]}, stock=talon))
        to_play(st, prever=EAST, half=half)
        assert _takes(st) == [(EAST, took)]
        first_legal(st, lambda s: s.is_terminal())
        c = count(_hand_lines(st))
        assert c["team"] == {EAST} and sorted(c["left"]) == sorted(set(talon) - set(took))


# -- play ----------------------------------------------------------------------------------------

def test_follow_suit_else_a_tarok_else_anything_and_the_player_after_the_dealer_leads():
    g = game()
    hearts = ["4♥", "3♥", "2♥", "A♥", "J♥", "R♥", "Q♥", "K♥"]
    south = ["II", "III", "IV", "V", "VI", "VII", "7♠", "8♠", "9♠", "10♠", "J♠", "R♠"]
    west = ["4♦", "3♦", "2♦", "A♦", "J♦", "R♦", "Q♦", "K♦", "7♣", "8♣", "9♣", "10♣"]
    talon = ["VIII", "IX", "X", "XI", "Q♠", "XII"]
    st = new_hand(g, deal(g, {WEST: hearts, SOUTH: south, EAST: west}, stock=talon))
    to_play(st, keep={"4♥", "II", "III", "IV", "V", "VI", "VII"})
    assert st.current_player() == WEST  # next(North), the dealer
    do(st, "4♥")
    assert st.current_player() == SOUTH
    assert set(legal(st)) == {n for n in st.observation(SOUTH)["hand"] if n in
                              ["II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI"]}
    do(st, "II")
    assert st.current_player() == EAST
    assert sorted(legal(st)) == sorted(st.observation(EAST)["hand"])  # neither: anything


@pytest.mark.parametrize("red, winner", [("reversed", NORTH), ("plain", WEST)])
def test_the_red_pips_run_reversed(red, winner):
    g = game(red_pips=red)
    st = _record_hand(g, deal(g, {WEST: ["4♥"], SOUTH: ["3♥", "II", "7♠", "8♠", "9♠", "10♠"],
                                  EAST: ["2♥"],
                                  NORTH: ["A♥"]}, stock=["J♥", "R♥", "Q♥", "K♥", "7♣", "8♣"]))
    to_play(st, keep={"4♥", "3♥", "2♥", "A♥"})
    do(st, "4♥", "3♥", "2♥", "A♥")
    trick = next(e for e in st.events if e["type"] == "trick")
    assert trick["winner"] == winner  # Ace highest in the red suits, then 2, 3, 4


# -- the count and the chips -------------------------------------------------------------------

def test_thirty_six_points_lost_is_five_chips():
    assert tournament_chips(36) == 5
    for seed in range(200):
        _, events = random_match(seed)
        for lines in hands_of(events):
            c = count(lines)
            losers = c["against"] if c["won"] else c["contract"]
            if losers == 36 and len(c["team"]) == 2:
                d = c["decl"]
                if "contra" in (d["contra"], d["contra_2"], d["contra_3"]):
                    continue
                paid = [p["chips"] for p in lines[-1]["paid"] if p["for"] == "game"]
                assert paid == [5, 5]  # each loser pays one winner
                return
    pytest.fail("no hand lost with 36 points")


def test_a_dead_even_count_goes_against_the_bidder():
    for seed in range(200):
        _, events = random_match(seed)
        for lines in hands_of(events):
            c = count(lines)
            if c["contract"] == 53:
                assert lines[-1]["made"] is False
                game = [p for p in lines[-1]["paid"] if p["for"] == "game"]
                assert sorted((p["from"], p["to"], p["chips"]) for p in game) == \
                    game_payments(lines)
                assert all(p["from"] in c["team"] for p in game)
                return
    pytest.fail("no dead-even hand")


@pytest.mark.parametrize("option", ["won_and_lost", "lost_only"])
def test_a_prever_settles_with_each_of_the_three_trebled(option):
    g = game(prever_treble=option)
    seen = set()
    rng = random.Random(4)
    for _ in range(40):
        st = g.new_match(record=True)
        while not st.is_terminal():
            if st.is_chance_node():
                st.deal_random(rng)
            else:
                st.apply_action(rng.choice(st.legal_actions()))
        for lines in hands_of(st.events):
            c = count(lines)
            if c["kind"] != "prever":
                continue
            d = c["decl"]
            if "contra" in (d["contra"], d["contra_2"], d["contra_3"]):
                continue
            paid = [p for p in lines[-1]["paid"] if p["for"] == "game"]
            assert len(paid) == 3 and len({p["chips"] for p in paid}) == 1
            losers = c["against"] if c["won"] else c["contract"]
            base = tournament_chips(losers)
            trebled = tournament_chips(losers, True)
            factor = 2 if c["decl"]["half"] == "second" and not c["won"] else 1
            want = trebled if option == "won_and_lost" or not c["won"] else base
            assert paid[0]["chips"] == want * factor
            seen.add(c["won"])
        if seen == {True, False}:
            return
    pytest.fail("no prever both won and lost")


def test_the_search_agent_plays_from_worlds_that_keep_the_partner_hidden():
    from tablerules.agents import make_agent
    g = game()
    gd = g.definition
    st = _record_hand(g, deal(g, {SOUTH: ["II"], EAST: ["XIX"]}))
    to_play(st)
    seat = st.current_player()
    agent = make_agent("search:worlds=4:playouts=1", random.Random(0), gd)
    a = agent.act(seat, st.legal_actions(), lambda: st.observation(seat))
    assert a in st.legal_actions() and agent.work["worlds"] > 0


def test_with_the_two_in_the_talon_the_first_hand_may_be_thrown_in():
    g = game(two_in_talon="redeal")
    st = g.new_match(first_dealer=NORTH, record=True)
    st.apply_deal(ids(g, deal(g, {}, stock=["II"])))
    for _ in range(4):
        assert legal(st) == ["pass"]
        do(st, "pass")
    assert st.is_chance_node() and st.hands_played == 0  # thrown in: deal again
    assert [e for e in st.events if e["type"] == "hand"][-1].get("thrown_in")
    st.apply_deal(ids(g, deal(g, {EAST: ["II"]})))
    assert st.observation(0)["turn"] == EAST  # the II again decides
