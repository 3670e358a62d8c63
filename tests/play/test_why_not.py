"""State.why_not: a refused action explained in the game's words, through the State API."""

from __future__ import annotations

import random

import pytest

from tablerules.game import load_game

HANDS = [["5-5", "5-0", "6-6", "4-4", "3-3", "2-2", "1-1"],  # North
         ["5-3", "6-4", "6-2", "4-1", "3-2", "2-0", "1-0"],  # East
         ["6-5", "6-3", "6-1", "4-3", "4-2", "3-1", "0-0"],  # South
         ["5-4", "5-2", "5-1", "6-0", "4-0", "3-0", "2-1"]]  # West


@pytest.fixture(scope="module")
def game():
    return load_game("texas42")


def hand(game, *actions):
    """A Texas 42 hand dealt HANDS with West dealing (North bids first), after `actions`."""
    st = game.new_hand(HANDS, dealer=3)
    for a in actions:
        st.apply_action(game.definition.string_to_action(a))
    return st


def why(st, name):
    return st.why_not(st.game.string_to_action(name))


def test_legal_action_has_no_reason(game):
    st = hand(game)
    assert why(st, "bid 30") is None


def test_auction_a_bid_must_beat_the_high_bid(game):
    st = hand(game, "bid 31")
    assert why(st, "bid 30") == "a bid must beat 31"
    assert why(st, "6-4").startswith("6-4 is not a speech in the auction")


def test_follow_trumps(game):
    st = hand(game, "bid 30", "pass", "pass", "pass", "trump 5", "5-5")
    assert why(st, "6-4") == "you must follow fives: you hold the 5-3 (the 6-4 is of sixes)"
    assert why(st, "5-4") == "you do not hold the 5-4"


def test_follow_suit_and_a_trump_is_not_of_its_number(game):
    st = hand(game, "bid 30", "pass", "pass", "pass", "trump 5", "6-6")
    assert why(st, "4-1") == ("you must follow sixes: you hold the 6-2 and the 6-4 "
                              "(the 4-1 is of fours)")
    st.apply_action(game.definition.string_to_action("6-4"))
    assert why(st, "6-5") == ("you must follow sixes: you hold the 6-1 and the 6-3 "
                              "(the 6-5 is of fives)")


def test_follow_doubles(game):
    st = hand(game, "bid 30", "pass", "pass", "pass", "trump doubles", "5-5", "5-3")
    assert why(st, "6-5") == "you must follow doubles: you hold the 0-0 (the 6-5 is of sixes)"


def test_sevens_reason_comes_from_the_ruleset(game):
    st = hand(game, "bid sevens 1", "pass", "pass", "pass")
    reason = game.definition.reasons[("sevens", "play")]
    assert why(st, "6-6") == f"you must play {reason}: 3-3, 4-4"


def test_layout_a_piece_that_matches_no_open_end():
    g = load_game("allfives")
    st = g.new_match()
    rng = random.Random(3)
    names = g.definition.pieces.names
    for _ in range(400):  # bounded: a hand of All Fives is far shorter
        if st.is_chance_node():
            st.deal_random(rng)
            continue
        legal = st.legal_actions()
        if st.layout is not None and st.layout.center >= 0:
            open_ = {a.open for a in st.layout.arms if a.playable}
            for p in g.definition.mask_pieces(st.hands[st.actor]):
                ends = g.definition.pieces.ends[p]
                if not open_ & set(ends):
                    assert st.why_not(p).startswith(f"the {names[p]} matches no open end")
                    return
        st.apply_action(legal[rng.randrange(len(legal))])
    pytest.fail("no piece that matched no open end in 400 steps")


def first_state(ref: str, seed: int, want, limit: int = 600):
    """The first state of a seeded random match for which `want(state, legal)` holds."""
    g = load_game(ref)
    st = g.new_match()
    rng = random.Random(seed)
    for _ in range(limit):  # bounded: well within a match
        if st.is_terminal():
            break
        if st.is_chance_node():
            st.deal_random(rng)
            continue
        legal = st.legal_actions()
        if want(st, legal):
            return st, legal
        st.apply_action(legal[rng.randrange(len(legal))])
    pytest.fail(f"no such state in {limit} steps of {ref}")


def test_exchange_reason_comes_from_the_ruleset():
    st, legal = first_state("taroky", 2, lambda st, legal: st.game.actions.kind(legal[0]) == "bury"
                            and len(legal) < bin(st.hands[st.actor]).count("1"))
    gd = st.game
    refused = next(p for p in gd.mask_pieces(st.hands[st.actor])
                   if gd.actions.bury_base + p not in legal)
    reason = gd.reasons[("game", "exchange")]
    assert st.why_not(gd.actions.bury_base + refused).startswith(f"you must bury {reason}: ")


def test_follow_tiers_say_the_next_rule():
    def void(st, legal):
        t = st.tables
        if st.play is None or st.led < 0 or not t.tiers:
            return False
        hand = st.hands[st.actor]
        return not hand & t.follow_mask[st.led] and t.follow_of(st.led, hand) != hand
    st, legal = first_state("taroky", 5, void)
    gd = st.game
    other = next(p for p in gd.mask_pieces(st.hands[st.actor]) if p not in legal)
    suit = gd.suit_names.get(str(st.tables.suits[st.led]), str(st.tables.suits[st.led]))
    assert st.why_not(other).startswith(f"you hold no {suit}, and the next rule to follow asks "
                                        f"for the {gd.pieces.names[legal[0]]}")
