"""Compiled steps: the step engine's API on the kernel agrees with the step engine's own state."""

from __future__ import annotations

import random

import pytest

from tablerules.agents import make_agent
from tablerules.batch import compile_steps
from tablerules.engine.state import TERMINAL, new_hand
from tablerules.errors import CallerError
from tablerules.game import load_game

numba = pytest.importorskip("numba")

# a trick game with every contract (Texas 42's defaults: Nello, Sevens, doubles, follow-me; the
# kernel the README's example and the benchmark test compile too) and one with a widow taken
# and buried, with its strategy compiled in (Moon: the kernel of the search agent's compiled
# play-outs, tests/search); 15 to 30 s of compiling each, once. Moon's tests are these, run by
# tests/batch/test_batch_rules.py on its `steps` (`moon_steps`): that file compiles the same
# kernel's hand loop, and compiled in one process the two share the strategy's functions
# through numba's cache (on two workers at once each compiled them: about 25 s more). All
# Fives' layout play is checked by `python benchmarks/bench_allfives.py` (2,000 hands against
# the step engine), as plain Python by tests/batch/test_steps_layout.py, and compiled for a
# boneyard with muggins by tests/batch/test_batch_layout.py (a third generator, 16 s cold)
HANDS = {"texas42": 400, "moon": 300}


def rules(gd):
    return make_agent("rules", random.Random(0), gd)


def moon_steps():
    """Moon's compiled steps with the rules agent compiled in on every seat."""
    game = load_game("moon", typed=True)
    return compile_steps(game, [rules(game.definition)])


@pytest.fixture(scope="module")
def steps():
    return compile_steps(load_game("texas42", typed=True))


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
    contracts.discard(None)  # a hand thrown in
    assert len(contracts) == len(g.contracts)  # every contract was played


def test_a_play_out_in_the_kernel_ends_as_the_rules_agent_plays_it(steps):
    """Steps.playout from decisions of a match: the rules agent on every seat, in Python, ends
    the hand with the same score (the kernel of Texas 42 here has no agents: refused)."""
    from tablerules.engine.phases import DEAL, DONE
    from tablerules.engine.state import State

    g = steps.game
    if not any(steps.agents):
        with pytest.raises(CallerError, match="agents compiled in"):
            steps.playout(State(g, first_dealer=0))
        return
    agents = [rules(g) for _ in range(g.seat_count)]
    rng = random.Random(2)
    st, compared, over = State(g, first_dealer=0), 0, 0
    while compared < 150:
        if st.is_terminal():
            st = State(g, first_dealer=compared % g.seat_count)
        if st.is_chance_node():
            st.deal_random(rng)
            continue
        p, legal = st.current_player(), st.legal_actions()
        if rng.random() < 0.3:
            want = st.clone()
            while want.phase not in (DEAL, DONE):
                q, ok = want.current_player(), want.legal_actions()
                want.apply_action(ok[0] if len(ok) == 1 else agents[q].act(
                    q, ok, lambda s=q, w=want: w.observation(s)))
            got = steps.playout(st)
            if want.phase == DONE:
                assert got is None  # the match ended with the hand: the caller's to value
                over += 1
            else:
                assert got == list(want.ctx.score)
            compared += 1
        st.apply_action(legal[0] if len(legal) == 1 or rng.random() < 0.1 else
                        agents[p].act(p, legal, lambda s=p: st.observation(s)))
    assert over > 0  # some play-outs ended the match


def test_a_deal_given_as_pairs_is_the_same_deal():
    steps = compile_steps(load_game("texas42", typed=True))
    g = steps.game
    dealt = deal(g, random.Random(2))
    pairs = [[g.pieces.ends[t] for t in h] for h in dealt]
    assert steps.new_hand(pairs, 1).legal_actions() == new_hand(g, dealt, 1).legal_actions()
    assert steps.new_hand(pairs, 1).dealt == dealt
    mixed = [list(dealt[0])] + pairs[1:]  # ids for one seat, pairs for the others
    assert steps.new_hand(mixed, 1).dealt == dealt
    mixed = pairs[:3] + [list(dealt[3])]  # pairs first, then ids
    assert steps.new_hand(mixed, 1).dealt == dealt
    # a pair that is no piece is refused, never read as another piece: a negative end (which
    # a list would read from its end), an end past the set, far past it, a third end
    top = max(map(max, g.pieces.ends))
    for bad in ((-1, 0), (0, -1), (-1, -1), (top + 1, 0), (top + 1, top + 1), (10 ** 6, 0),
                (top, 0, 0)):
        wrong = [list(h) for h in pairs]
        wrong[2][3] = bad
        with pytest.raises(CallerError, match="not one of this set|not a piece"):
            steps.new_hand(wrong, 1)


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
        assert (got.phase, got.hand_start, got.dealt_hands, got.trick, got.leader) == \
            (want.phase, want.hand_start, want.dealt_hands, want.trick, want.leader)
    # what would change the state other than by an action is not the compiled hand's
    for name in ("advance", "apply_deal", "deal_random", "reset_hand"):
        assert hasattr(want, name) and not hasattr(got, name)


def test_a_clone_goes_on_alone(steps):
    g = steps.game
    rng = random.Random(3)
    st = steps.new_hand(deal(g, rng), 2)
    for _ in range(5):  # the highest bid first: the hand goes on
        st.apply_action(st.legal_actions()[-1])
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
    with pytest.raises(CallerError, match="is not a legal action"):
        st.apply_action(2 ** 70)  # no int64: no action
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
    uneven = [list(h) for h in dealt]  # every piece dealt, one seat's too many: as pairs too
    uneven[1].append(uneven[0].pop())
    with pytest.raises(CallerError, match="pieces"):
        steps.new_hand(uneven, 0)
    with pytest.raises(CallerError, match="pieces"):
        steps.new_hand([[g.pieces.ends[t] for t in h] for h in uneven], 0)
    with pytest.raises(CallerError, match="not one of this set|not a piece"):
        steps.new_hand([[999] + h[1:] for h in dealt], 0)
    with pytest.raises(CallerError, match="the dealer is a seat"):
        steps.new_hand(dealt, g.seat_count)
    with pytest.raises(TypeError, match="comes from Steps.new_hand"):
        type(steps.new_hand(dealt, 0))(steps, 0, None)


def test_a_hand_left_before_its_end_keeps_no_memory(steps):
    """Hands and clones left mid-hand (a search's trials, a session closed early) are freed:
    the memory held after 1,500 more of them is what it was (numba keeps a reference to each
    array a generator is given until the generator ends; the hand's buffer is passed as an
    address so that nothing is kept: batch/native.py)."""
    import gc
    import tracemalloc

    g = steps.game
    rng = random.Random(9)
    deals = [deal(g, rng) for _ in range(50)]

    def leave(n):
        for i in range(n):
            st = steps.new_hand(deals[i % 50], i % g.seat_count)
            for _ in range(3):
                st.apply_action(st.legal_actions()[-1])
            st.clone().apply_action(st.legal_actions()[0])
        gc.collect()
        return tracemalloc.get_traced_memory()[0]

    tracemalloc.start()
    try:
        leave(200)  # whatever is made once is made
        before = leave(500)
        after = leave(1500)
    finally:
        tracemalloc.stop()
    assert after - before < 200_000  # a leak is about 5 KB a hand here: 7.5 MB
