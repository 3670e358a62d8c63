"""The Game/State contract on every shipped ruleset: clone, history, chance steps, sorted actions."""

from __future__ import annotations

import functools
import random

import pytest

from tablerules.game import load_game
from tablerules.engine.state import CHANCE, TERMINAL
from tablerules.errors import CallerError, GameError

RULESETS = [("texas42", {}), ("texas42-tournament", {}), ("texas42-onepoint", {}),
            ("texas42-forced", {}), ("texas42-quick", {}), ("texas42-hall", {}), ("moon", {}),
            ("allfives", {}), ("allfives", {"players": 3}), ("allfives", {"muggins": True})]
IDS = [f"{n}{o or ''}" for n, o in RULESETS]


@functools.lru_cache(maxsize=None)
def game(name: str, opts: tuple = ()):
    return load_game(name, dict(opts))


def games():
    return [game(n, tuple(sorted(o.items()))) for n, o in RULESETS]


def step(st, rng):
    """One step of play: a random deal at a chance node, else a cautious random decision."""
    if st.is_chance_node():
        st.deal_random(rng)
        return
    legal = st.legal_actions()
    p = st.game.actions.pass_action
    if legal[0] == p and len(legal) > 1 and rng.random() < 0.7:
        st.apply_action(p)
    else:
        st.apply_action(rng.choice(legal))


def play_to(st, rng, steps):
    for _ in range(steps):
        if st.is_terminal():
            break
        step(st, rng)
    return st


@pytest.mark.parametrize("g", games(), ids=IDS)
def test_legal_actions_are_sorted_and_unique_everywhere(g):
    rng = random.Random(1)
    for _ in range(3):
        st = g.new_match()
        for _ in range(2000):
            if st.is_terminal():
                break
            if not st.is_chance_node():
                legal = st.legal_actions()
                assert list(legal) == sorted(set(legal)), (st.phase, legal)
            step(st, rng)


@pytest.mark.parametrize("g", games(), ids=IDS)
def test_clone_evolves_independently(g):
    rng = random.Random(2)
    st = play_to(g.new_match(), rng, 15)
    before = (st.observation(0), list(st.history), st.current_player())
    twin = st.clone()
    assert twin.game is st.game  # the definition is shared, never copied
    play_to(twin, random.Random(3), 40)
    assert (st.observation(0), list(st.history), st.current_player()) == before
    play_to(st, random.Random(3), 40)
    assert st.history == twin.history
    assert [st.observation(s) for s in range(g.definition.seat_count)] == \
           [twin.observation(s) for s in range(g.definition.seat_count)]


@pytest.mark.parametrize("g", games(), ids=IDS)
def test_history_identifies_the_game(g):
    rng = random.Random(4)
    st = play_to(g.new_match(), rng, 120)
    assert any(p == CHANCE for p, _ in st.history)  # the deal is in the history
    again = g.from_history(st.history)
    assert again.history == st.history
    assert again.current_player() == st.current_player()
    for s in range(g.definition.seat_count):
        assert again.observation(s) == st.observation(s)
    if not st.is_terminal():
        assert again.legal_actions() == st.legal_actions()


@pytest.mark.parametrize("g", games(), ids=IDS)
def test_chance_actions_one_by_one_equal_a_whole_deal(g):
    a = g.new_match()
    a.deal_random(random.Random(5))
    b = g.new_match()
    while b.is_chance_node():
        assert b.current_player() == CHANCE
        outcomes = b.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        b.apply_action(a.history[len(b.history)][1])
    assert a.history == b.history
    assert a.observation(0) == b.observation(0)
    assert a.legal_actions() == b.legal_actions()


def test_a_deal_is_checked_by_the_caller_error():
    g = game("texas42")
    st = g.new_match(first_dealer=0)
    with pytest.raises(CallerError, match="7 pieces"):
        st.apply_deal([list(range(6)), list(range(6, 13)), list(range(13, 20)), list(range(20, 28))])
    with pytest.raises(CallerError, match="twice"):
        st.apply_deal([list(range(7))] * 4)
    with pytest.raises(CallerError, match="first dealer is still to be drawn"):
        g.new_match().apply_deal([list(range(i, i + 7)) for i in range(0, 28, 7)])  # by lot
    st = g.new_match(first_dealer=0)
    st.apply_deal([list(range(i, i + 7)) for i in range(0, 28, 7)])
    with pytest.raises(CallerError, match="not a legal action"):
        st.apply_action(999)


def test_a_caller_mistake_is_not_a_ruleset_fault():
    st = game("texas42").new_match()
    st.deal_random(random.Random(0))
    bad = max(st.legal_actions()) + 1
    with pytest.raises(CallerError) as e:
        st.apply_action(bad)
    assert isinstance(e.value, GameError) and not e.value.part


def test_terminal_state_has_no_player_and_no_actions():
    g = game("texas42")
    st = play_to(g.new_match(), random.Random(6), 100_000)
    assert st.is_terminal() and st.current_player() == TERMINAL and st.legal_actions() == ()
    assert sorted(set(st.returns())) == [-1.0, 1.0]
