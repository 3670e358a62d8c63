"""A seat's sight (its observation as ids) says what its observation says: the rules agent reads
either and sees the same, at every decision of random matches of every shipped ruleset."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from support import allfives_with_arms
from tablerules.agents import make_agent
from tablerules.agents.strategy import vocabulary
from tablerules.game import load_game

SHIPPED = ["allfives", "moon", "taroky", "texas42", "texas42-forced", "texas42-hall",
           "texas42-onepoint", "texas42-quick", "texas42-tournament"]
# the option sets that change what a seat sees: three players, a boneyard, chips
MORE = [("allfives", {"players": 3}), ("allfives", {"players": 2})]


def as_fields(seen) -> dict:
    """Every field a strategy reads (the trick's led index and best rank too), not the memo."""
    return {f.name: getattr(seen, f.name) for f in fields(seen) if f.name != "memo"}


def play(name: str, options: dict, decisions: int, seed: int, arms: set | None = None) -> int:
    """Compare at `decisions` decisions of random matches (a new match when one ends); the
    number compared. `arms` collects the names of the layout arms the seats saw open."""
    game = load_game(name, options)
    voc = vocabulary(game.definition)
    rng = random.Random(seed)
    compared = 0
    st = game.new_match()
    while compared < decisions:
        if st.is_terminal():
            st = game.new_match()
        if st.is_chance_node():
            st.deal_random(rng)
            continue
        seat, legal = st.current_player(), st.legal_actions()
        obs, sight = st.observation(seat), st.sight(seat)
        seen = as_fields(voc.seen(seat, legal, sight))
        assert seen == as_fields(voc.seen(seat, legal, obs)), (name, len(st.history))
        if arms is not None:
            arms |= {e[3] for e in seen["ends"]}
        compared += 1
        st.apply_action(rng.choice(legal))
    return compared


@pytest.mark.parametrize("name", SHIPPED)
def test_the_sight_is_seen_as_the_observation(name):
    assert play(name, {}, 600, 11) == 600


@pytest.mark.parametrize("name,options", MORE, ids=lambda v: str(v))
def test_the_sight_is_seen_as_the_observation_with_other_seats(name, options):
    assert play(name, options, 400, 12) == 400


def test_a_spinner_arm_the_ruleset_names_is_seen_from_either(tmp_path):
    """The ends a strategy reads come from the ruleset's arms, not a fixed four: a spinner
    that opens a third arm shows it, from the sight and from the observation's text."""
    p = allfives_with_arms(tmp_path, "[north, south, up]")
    arms: set = set()
    assert play(str(p), {}, 1500, 13, arms) == 1500
    assert arms == {"west", "east", "north", "south", "up"}


def test_the_rules_agent_reads_the_sight_and_chooses_as_from_the_observation():
    """An agent handed only a plain callable (no sight) chooses the same: the observer offers
    the sight, a caller's own lambda the observation."""
    game = load_game("texas42")
    gd = game.definition
    agent = make_agent("rules", random.Random(0), gd)
    rng = random.Random(3)
    st = game.new_match()
    decisions = 0
    while not st.is_terminal() and decisions < 400:
        if st.is_chance_node():
            st.deal_random(rng)
            continue
        seat, legal = st.current_player(), st.legal_actions()
        a = agent.act(seat, legal, st.observer(seat))
        assert a == agent.act(seat, legal, lambda: st.observation(seat))
        decisions += 1
        st.apply_action(a)
    assert decisions > 100


def test_the_sight_is_a_copy():
    """Playing on does not change a sight taken before."""
    game = load_game("moon")
    rng = random.Random(4)
    st = game.new_match()
    st.deal_random(rng)
    while st.is_chance_node():
        st.deal_random(rng)
    seat = st.current_player()
    sight = st.sight(seat)
    before = {k: getattr(sight, k) for k in sight.__slots__}
    for _ in range(10):
        st.apply_action(rng.choice(st.legal_actions()))
    assert {k: getattr(sight, k) for k in sight.__slots__} == before


@pytest.mark.parametrize("name", ["texas42", "allfives", "taroky"])
def test_a_clone_and_its_original_each_see_their_own_hand(name):
    """The public record a sight reads is kept in the state: a clone that plays on otherwise
    from the same point sees its own actions, and its original its own."""
    game = load_game(name)
    voc = vocabulary(game.definition)
    rng = random.Random(21)
    st = game.new_match()
    compared = 0
    while compared < 300:
        if st.is_terminal():
            st = game.new_match()
        if st.is_chance_node():
            st.deal_random(rng)
            continue
        st.sight(st.current_player())  # the record is up to date here
        c = st.clone()
        for s in (st, c):
            for _ in range(3):
                if s.is_terminal() or s.is_chance_node():
                    break
                s.apply_action(rng.choice(s.legal_actions()))
        for s in (st, c):
            if s.is_terminal() or s.is_chance_node():
                continue
            seat, legal = s.current_player(), s.legal_actions()
            assert as_fields(voc.seen(seat, legal, s.sight(seat))) == \
                as_fields(voc.seen(seat, legal, s.observation(seat)))
            compared += 1
