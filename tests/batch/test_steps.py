"""Compiled steps: the step engine's API on the kernel agrees with the step engine's own state."""

from __future__ import annotations

import random

import pytest

from tablerules.batch import compile_steps
from tablerules.engine.state import TERMINAL, new_hand
from tablerules.errors import CallerError
from tablerules.game import load_game

numba = pytest.importorskip("numba")

# a trick game with every contract (Texas 42's defaults: Nello, Sevens, doubles, follow-me) and
# a layout game with draws, knocks and a spinner (All Fives): about 10 s of compiling each, once
HANDS = {"texas42": 400, "allfives": 200}


@pytest.fixture(scope="module", params=sorted(HANDS))
def steps(request):
    return compile_steps(load_game(request.param, typed=True))


def deal(game, rng):
    pieces = list(range(len(game.pieces)))
    rng.shuffle(pieces)
    k, n = game.hand_size, game.seat_count
    out = [tuple(pieces[s * k:(s + 1) * k]) for s in range(n)]
    if game.stock:
        out.append(tuple(pieces[n * k:n * k + game.stock]))
    return tuple(out)


def test_every_decision_and_result_is_the_step_engines(steps):
    g = steps.game
    rng = random.Random(5)
    contracts = set()
    for i in range(HANDS[g.name]):
        dealt, dealer = deal(g, rng), i % g.seat_count
        want, got = new_hand(g, dealt, dealer), steps.new_hand(dealt, dealer)
        assert got.dealt == dealt
        while not want.is_terminal():
            assert not got.is_terminal()
            assert got.current_player() == want.current_player()
            assert got.legal_actions() == want.legal_actions()  # the same, in the same order
            a = rng.choice(want.legal_actions())
            want.apply_action(a)
            got.apply_action(a)
        assert got.is_terminal() and got.current_player() == TERMINAL
        assert got.legal_actions() == ()
        assert got.history == want.history
        assert got.hand_result() == want.hand_result()
        assert got.returns() == want.returns()
        contracts.add(got.hand_result().get("contract"))
    assert len(contracts) == len(g.contracts)  # every contract was played


def test_a_deal_given_as_pairs_is_the_same_deal():
    steps = compile_steps(load_game("texas42", typed=True))
    g = steps.game
    dealt = deal(g, random.Random(2))
    pairs = [[g.pieces.ends[t] for t in h] for h in dealt]
    assert steps.new_hand(pairs, 1).legal_actions() == new_hand(g, dealt, 1).legal_actions()
    assert steps.new_hand(pairs, 1).dealt == dealt


def test_what_the_kernel_does_not_keep_comes_from_the_step_engine_at_the_same_point(steps):
    g = steps.game
    rng = random.Random(8)
    dealt = deal(g, rng)
    want, got = new_hand(g, dealt, 0), steps.new_hand(dealt, 0)
    for _ in range(6):
        a = rng.choice(want.legal_actions())
        want.apply_action(a)
        got.apply_action(a)
        seat = want.current_player()
        assert got.observation(seat) == want.observation(seat)
        assert got.score == want.score and got.points == want.points
        other = next(x for x in range(len(g.pieces) + 400) if x not in want.legal_actions())
        assert got.why_not(other) == want.why_not(other)


def test_a_clone_goes_on_alone(steps):
    g = steps.game
    rng = random.Random(3)
    st = steps.new_hand(deal(g, rng), 2)
    for _ in range(5):
        st.apply_action(st.legal_actions()[0])
    copy = st.clone()
    assert copy.history == st.history and copy.legal_actions() == st.legal_actions()
    before, length = st.legal_actions(), len(st.history)
    while not copy.is_terminal():
        copy.apply_action(copy.legal_actions()[-1])
    assert st.legal_actions() == before and len(st.history) == length
    # the original, played on the same way, ends as the clone did
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[-1])
    assert st.history == copy.history and st.hand_result() == copy.hand_result()


def test_an_illegal_action_is_the_callers_mistake_and_changes_nothing(steps):
    g = steps.game
    st = steps.new_hand(deal(g, random.Random(4)), 0)
    legal = st.legal_actions()
    bad = next(x for x in range(1000) if x not in legal)
    with pytest.raises(CallerError, match="is not a legal action"):
        st.apply_action(bad)
    with pytest.raises(CallerError, match="is not a legal action"):
        st.apply_action("a string")
    fresh = new_hand(g, st.dealt, 0)
    assert st.legal_actions() == legal and st.history == fresh.history
    st.apply_action(legal[0])
    assert st.history == fresh.history + [(fresh.current_player(), legal[0])]
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    with pytest.raises(CallerError, match="the hand is over"):
        st.apply_action(legal[0])


def test_a_deal_that_is_not_one_is_refused_in_the_step_engines_words(steps):
    g = steps.game
    dealt = [list(h) for h in deal(g, random.Random(6))]
    twice = [list(h) for h in dealt]
    twice[1][0] = twice[0][0]
    with pytest.raises(CallerError, match="names a piece twice"):
        steps.new_hand(twice, 0)
    short = [list(h) for h in dealt]
    short[0] = short[0][1:]
    with pytest.raises(CallerError, match="pieces"):
        steps.new_hand(short, 0)
    with pytest.raises(CallerError, match="not one of this set|not a piece"):
        steps.new_hand([[999] + h[1:] for h in dealt], 0)
    with pytest.raises(CallerError, match="the dealer is a seat"):
        steps.new_hand(dealt, g.seat_count)
