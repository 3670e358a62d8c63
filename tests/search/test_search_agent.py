"""The search agent: it sees only its observation, its worlds agree with it, it is reproducible,
it finds forced wins by exact search, and it plays every phase of every shipped ruleset."""

from __future__ import annotations

import copy
import functools
import random

import pytest

from tablerules.agents import search
from tablerules.engine.phases import DEAL, DONE, PHASE_NAMES, PLAY
from tablerules.engine.worlds import worlds
from tablerules.game import Game, load_game
from tablerules.records.runner import play_game

RULESETS = [("texas42", {}), ("texas42-tournament", {}), ("texas42-onepoint", {}),
            ("texas42-forced", {}), ("texas42-quick", {}), ("texas42-hall", {}), ("moon", {}),
            ("allfives", {}), ("allfives", {"players": 3}), ("allfives", {"players": 2})]
IDS = [f"{n}{o or ''}" for n, o in RULESETS]
SMALL = {"worlds": 3, "playouts": 1, "exact": 5}  # a quick budget that still searches exactly


@functools.lru_cache(maxsize=None)
def game(name: str, opts: tuple = ()):
    return load_game(name, dict(opts))


def games():
    return [game(n, tuple(sorted(o.items()))) for n, o in RULESETS]


def agent(g, seed="s", **params):
    return search.make(random.Random(seed), g.definition, params)


def decisions(g, seed: int, count: int):
    """States of random matches at decisions with a choice (cautious random play)."""
    rng = random.Random(seed)
    out = []
    st = g.new_match()
    for _ in range(20000):
        if len(out) >= count:
            break
        if st.is_terminal():
            st = g.new_match()
        if st.is_chance_node():
            st.deal_random(rng)
            continue
        legal = st.legal_actions()
        if len(legal) > 1 and rng.random() < 0.15:
            out.append(st.clone())
        p = st.game.actions.pass_action
        st.apply_action(p if legal[0] == p and len(legal) > 1 and rng.random() < 0.7
                        else rng.choice(legal))
    return out


def failures_to_follow(st):
    """(seat, mask of the suit it did not follow) for this hand's trick plays so far."""
    g = st.game
    out = []
    r = Game(g).from_history(st.history[:st.hand_start])
    for player, a in st.history[st.hand_start:]:
        if r.phase == PLAY and r.trick and r.led >= 0 and r.tables.must_follow \
                and not r.tables.follow_mask[r.led] >> a & 1:
            out.append((player, r.tables.follow_mask[r.led]))
        r.apply_action(a)
    return out


@pytest.mark.parametrize("g", games(), ids=IDS)
def test_every_world_the_agent_samples_agrees_with_the_observation(g, monkeypatch):
    seen = []

    def spy(*args, **kw):
        ws = worlds(*args, **kw)
        seen.append(ws)
        return ws

    monkeypatch.setattr(search, "draw_worlds", spy)
    for st in decisions(g, 5, 6):
        seat = st.current_player()
        obs = st.observation(seat)
        seen.clear()
        agent(g, worlds=6, playouts=1, exact=0).act(seat, st.legal_actions(), lambda: obs)
        assert seen and seen[0]
        voids = failures_to_follow(st)
        for w in seen[0]:
            assert w.hands[seat] == st.hands[seat]  # the pieces it holds
            # what was played, bid, declared and scored this hand (a world holds this hand
            # only: the match's earlier hands are not replayed)
            wobs = w.observation(seat)
            assert {k: v for k, v in wobs.items() if k != "history"} == \
                {k: v for k, v in obs.items() if k != "history"}
            assert wobs["hand_actions"] == obs["hand_actions"]
            for s, mask in voids:
                if s != seat:
                    assert w.hands[s] & mask == 0  # a void shown stays void (same bits)


@pytest.mark.parametrize("g", games()[:1] + games()[6:8], ids=[IDS[0]] + IDS[6:8])
def test_it_reads_only_the_observation(g):
    for st in decisions(g, 9, 4):
        seat = st.current_player()
        legal = st.legal_actions()
        frozen = copy.deepcopy(st.observation(seat))
        live = agent(g, "k", **SMALL).act(seat, legal, lambda: st.observation(seat))
        # the real state moves on (or is gone): the agent decides from the view alone
        st.apply_action(legal[-1])
        alone = agent(g, "k", **SMALL).act(seat, legal, lambda: copy.deepcopy(frozen))
        assert live == alone


def test_one_legal_action_is_returned_without_looking():
    g = games()[0]

    def observe():
        raise AssertionError("observed with one legal action")

    assert agent(g).act(0, (7,), observe) == 7


def test_same_seed_same_choices():
    g = games()[0]
    names = ["search", "random", "search", "random"]
    random.seed(1)  # the module's generator is never used: only the one each seat is given
    one = play_game(g, names, 4, 1, record=False).history
    random.seed(2)
    two = play_game(g, names, 4, 1, record=False).history
    assert one == two


def test_the_spec_names_its_parameters_and_levels_expand_to_budgets():
    assert search.SPEC.name == "search"
    assert [p.name for p in search.SPEC.params] == ["level", "worlds", "playouts", "exact",
                                                     "policy", "margin", "objective",
                                                     "engine"]
    gd = games()[0].definition
    hard = search.make(random.Random(0), gd, {"level": "hard"})
    assert (hard.worlds, hard.playouts, hard.exact) == search.LEVELS["hard"]
    mine = search.make(random.Random(0), gd, {"level": "hard", "worlds": 5, "exact": 0})
    assert (mine.worlds, mine.playouts, mine.exact) == (5, search.LEVELS["hard"][1], 0)
    with pytest.raises(ValueError, match="play-out policy"):
        search.make(random.Random(0), gd, {"policy": "search"})


def minimax(st, seat: int, before: list, value) -> float:
    """Plain minimax of the rest of the hand: `seat`'s side maximises."""
    if st.phase in (DEAL, DONE):
        return value(st, seat, before)
    side = st.game.side_of[seat]
    vals = []
    for a in st.legal_actions():
        c = st.clone()
        c.apply_action(a)
        vals.append(minimax(c, seat, before, value))
    return max(vals) if st.game.side_of[st.current_player()] == side else min(vals)


def endgames(g, pieces_left: int, count: int, seed: int):
    """Trick-play decisions with exactly `pieces_left` pieces still in play."""
    rng = random.Random(seed)
    out = []
    st = g.new_match()
    for _ in range(200000):
        if len(out) >= count:
            break
        if st.is_terminal():
            st = g.new_match()
        if st.is_chance_node():
            st.deal_random(rng)
            continue
        legal = st.legal_actions()
        left = sum(bin(st.hands[s]).count("1") for s in st.active)
        if st.phase == PLAY and left == pieces_left and len(legal) > 1 and not st.trick:
            out.append(st.clone())
        p = st.game.actions.pass_action
        st.apply_action(p if legal[0] == p and len(legal) > 1 and rng.random() < 0.7
                        else rng.choice(legal))
    return out


def test_alpha_beta_gives_the_minimax_value():
    g = games()[0]
    a = agent(g, objective="hand")
    for st in endgames(g, 8, 6, 3):
        seat = st.current_player()
        before = list(st.ctx.score)
        assert a._exact(st.clone(), seat, before) == minimax(st, seat, before, a._value)


def test_it_plays_the_forced_win_of_the_last_two_tricks():
    """Two tricks left, where one play wins the hand for its side whatever the others hold and
    do, and the other play does worse in some world: exact search finds that play."""
    g = games()[0]
    gd = g.definition
    judge = agent(g, objective="hand")
    found = 0
    for st in endgames(g, 8, 400, 21):
        seat = st.current_player()
        legal = st.legal_actions()
        obs = st.observation(seat)
        ws = worlds(gd, obs, random.Random(0), 1000)  # all of them: few placements are left
        vals = {}
        for a in legal:
            vals[a] = []
            for w in ws:
                c = w.clone()
                c.apply_action(a)
                vals[a].append(minimax(c, seat, list(w.ctx.score), judge._value))
        wins = [a for a in legal if all(v > 0 for v in vals[a])
                and all(all(x >= y for x, y in zip(vals[a], vals[b])) and vals[a] != vals[b]
                        for b in legal if b != a)]
        if not wins:
            continue
        found += 1
        chosen = agent(g, "x", worlds=len(ws), playouts=1, exact=8, objective="hand")
        assert chosen.act(seat, legal, lambda: obs) == wins[0]
        assert chosen.work["nodes"] > 0  # decided by exact search, not by play-outs
        if found >= 3:
            break
    assert found >= 1


@pytest.mark.parametrize("g", games(), ids=IDS)
def test_it_acts_legally_in_every_phase_of_every_shipped_ruleset(g):
    gd = g.definition
    text = "search:" + ":".join(f"{k}={v}" for k, v in SMALL.items())  # as --agents gives it
    acted = set()
    for index in (1, 2):
        hands = [0]
        st = play_game(g, [text], 7, index, record=True, until=lambda ev: _count(ev, hands))
        acted |= _phases(st)
    assert acted, "the search agent made no decision"
    if gd.stock and any(c.exchange for c in gd.contracts):
        assert "exchange" in acted
    if gd.declarations:
        assert "declare" in acted
    assert acted & {"play", "layout"}


def _count(ev, hands) -> bool:
    if ev.get("type") == "hand":
        hands[0] += 1
    return hands[0] >= 2


def _phases(st) -> set:
    """The phases of this match's decisions that offered a choice, replayed from its history."""
    r = Game(st.game).new_match()
    out = set()
    for p, a in st.history:
        if p >= 0 and len(r.legal_actions()) > 1:
            out.add(PHASE_NAMES[r.phase])
        r.apply_action(a)
    return out


SHORT = """\
extends: allfives
name: allfives-short
deal:
  stock: "len(pieces) - seat_count * hand_size - 4"
"""


@pytest.mark.parametrize("players", [2, 3])
def test_worlds_and_search_work_when_some_pieces_are_never_dealt(tmp_path, players):
    path = tmp_path / "short.yaml"
    path.write_text(SHORT, encoding="utf-8")
    g = load_game(str(path), {"players": players})
    gd = g.definition
    assert gd.stock + gd.seat_count * gd.hand_size < len(gd.pieces.names)
    for st in decisions(g, 2, 5):
        seat = st.current_player()
        obs = st.observation(seat)
        for w in worlds(gd, obs, random.Random(1), 8):
            assert w.hands[seat] == st.hands[seat]
            assert w.observation(seat)["hand_actions"] == obs["hand_actions"]
        legal = st.legal_actions()
        assert agent(g, **SMALL).act(seat, legal, lambda: obs) in legal


def test_under_the_match_objective_winning_the_match_outweighs_any_hand():
    """A hand that ends the match is worth its result (win 1, loss -1); a hand after which the
    match goes on is worth less than either, however many points it brought."""
    g = games()[0]
    gd = g.definition
    rng = random.Random(6)
    a = agent(g, objective="match")
    ended = going_on = 0
    st = g.new_match()
    while not st.is_terminal():
        if st.is_chance_node():
            st.deal_random(rng)
            continue
        before = list(st.ctx.score)
        seat = st.current_player()
        st.apply_action(rng.choice(st.legal_actions()))
        if st.is_terminal():
            for s in range(gd.seat_count):
                assert a._value(st, s, before) == st.returns()[s] in (-1, 0, 1)
            ended += 1
        elif st.is_chance_node() and st.ctx.score != before:
            assert abs(a._value(st, seat, before)) < 0.5
            going_on += 1
    assert ended == 1 and going_on >= 1


def test_the_auto_policy_is_the_rulesets_strategy_else_cautious(tmp_path):
    assert agent(game("texas42")).policy == "rules"
    bare = tmp_path / "bare.yaml"  # texas42 with no strategy named
    bare.write_text("extends: texas42\nname: bare\nsimulate: {strategy: null}\n")
    assert agent(load_game(str(bare))).policy == "cautious"


def test_the_margin_keeps_the_policys_choice_unless_another_is_clearly_better():
    """With a deterministic policy a large margin follows it almost always; no margin trusts
    the averages and differs from it more often."""
    from tablerules.agents import make_agent
    g = game("texas42")
    states = decisions(g, 3, 40)
    agree = {0.0: 0, 10.0: 0}
    for i, st in enumerate(states):
        seat = st.current_player()
        legal = tuple(st.legal_actions())
        ref = make_agent("rules", random.Random(0), g.definition).act(
            seat, legal, lambda: st.observation(seat))
        for m in agree:
            a = agent(g, i, margin=m, **SMALL).act(seat, legal, lambda: st.observation(seat))
            agree[m] += a == ref
    assert agree[10.0] >= 0.9 * len(states)
    assert agree[0.0] < agree[10.0]


def test_compiled_play_outs_need_the_rules_policy_and_a_kernel_form(tmp_path):
    pytest.importorskip("numba")
    moon = load_game("moon", typed=True).definition
    with pytest.raises(ValueError, match="the rules policy's play-outs, not random's"):
        search.make(random.Random(0), moon, {"engine": "batch", "policy": "random"})
    with pytest.raises(ValueError, match="typed=True"):  # no checked trees to compile
        search.make(random.Random(0), game("moon").definition, {"engine": "batch"})
    with pytest.raises(ValueError, match="a match for chips has no play-out in the kernel"):
        search.make(random.Random(0), load_game("taroky", typed=True).definition,
                    {"engine": "batch"})
    # Moon with a strategy that reads what the kernel has no form of
    (tmp_path / "seats.yaml").write_text("""
name: seats
play:
  - name: by_the_seats
    when: "[seat, dealer][0] == 0"
    only: "a.kind == 'play'"
""", encoding="utf-8")
    (tmp_path / "house.yaml").write_text("name: house\nextends: moon\n"
                                         "simulate:\n  strategy: seats.yaml\n", encoding="utf-8")
    seats = load_game(str(tmp_path / "house.yaml"), typed=True).definition
    with pytest.raises(ValueError,
                       match="engine=batch: the strategy seats .*an index into a list built at"):
        search.make(random.Random(0), seats, {"engine": "batch"})
