"""Observations hold only what a seat may know, and worlds drawn from them replay the hand."""

from __future__ import annotations

import json
import random

import pytest

from tablerules.engine.worlds import count_assignments, worlds

from test_state_contract import IDS, games, step


def hidden_from(st, seat) -> set[str]:
    """Pieces another seat holds (or the stock hides) that `seat` has not seen."""
    g = st.game
    obs = st.observation(seat)
    seen = set(obs["hand"]) | set(obs["dealt"]) | set(obs["took"]) | set(obs["drew"])
    seen |= set(obs["buried"])
    out = set()
    for s in range(g.seat_count):
        if s != seat:
            out |= {g.pieces.names[t] for t in g.mask_pieces(st.hands[s])}
    out |= {g.pieces.names[t] for t in st.stock}
    return out - seen


def snapshots(g, seed, count=12):
    """States at random points of random matches (not at a deal)."""
    rng = random.Random(seed)
    out = []
    st = g.new_match()
    while len(out) < count:
        if st.is_terminal():
            st = g.new_match()
        step(st, rng)
        if not st.is_chance_node() and not st.is_terminal() and rng.random() < 0.08:
            out.append(st.clone())
    return out


def mentions(obs: dict) -> set[str]:
    """Every piece name in what an observation says of this hand (layout lines included).

    `history` covers the whole match: pieces played in earlier hands are public and may be
    held by another seat now, so this hand's actions are checked in `hand_actions` instead.
    """
    text = json.dumps({k: v for k, v in obs.items() if k not in ("hand_actions", "history")})
    words = set(text.replace('"', " ").replace(",", " ").replace("[", " ").replace("]", " ")
                .replace("*", " ").split())
    return words


@pytest.mark.parametrize("g", games(), ids=IDS)
def test_no_other_seats_hidden_piece_is_reachable_from_an_observation(g):
    gd = g.definition
    for st in snapshots(g, 11):
        for seat in range(gd.seat_count):
            obs = st.observation(seat)
            hidden = hidden_from(st, seat)
            assert not (mentions(obs) & hidden), (seat, mentions(obs) & hidden)
            for player, a in obs["hand_actions"]:
                if a is not None:
                    assert piece_of(gd, a) not in hidden, (player, gd.action_to_string(a))


def piece_of(gd, a: int) -> str | None:
    """The piece an action names (dealt, played, laid or buried), if any."""
    acts = gd.actions
    kind = acts.kind(a)
    if kind == "piece":
        return gd.pieces.names[a]
    if kind == "bury":
        return gd.pieces.names[a - acts.bury_base]
    if kind == "lay":
        return gd.pieces.names[acts.lay_of(a)[0]]
    return None


@pytest.mark.parametrize("g", games(), ids=IDS)
def test_worlds_agree_with_everything_the_seat_saw(g):
    gd = g.definition
    rng = random.Random(7)
    for st in snapshots(g, 12, 8):
        seat = st.current_player()
        obs = st.observation(seat)
        for w in worlds(gd, obs, rng, 4):
            # a world starts at this hand's deal: the match's earlier hands are not replayed
            seen = w.observation(seat)
            this_hand = sum(1 for p, _ in obs["hand_actions"] if p != -1)
            assert seen.pop("history") == obs["history"][len(obs["history"]) - this_hand:]
            assert seen == {k: v for k, v in obs.items() if k != "history"}
            assert w.current_player() == st.current_player()
            assert w.legal_actions() == st.legal_actions()  # the seat to move is the observer
            # play continues from a world
            w2 = w.clone()
            for _ in range(5):
                if w2.is_terminal():
                    break
                step(w2, rng)


def late_states(g, seed, count):
    """States of trick play with at most two tricks left (pieces in every active seat)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        st = g.new_match()
        while not st.is_terminal() and not (st.tables is not None and st.tricks_played >= 5):
            step(st, rng)
        if not st.is_terminal() and st.hands_played == 0:
            out.append(st)
    return out


def test_the_last_pieces_are_enumerated_without_repeats():
    g = games()[0]  # texas42
    gd = g.definition
    rng = random.Random(3)
    checked = 0
    for st in late_states(g, 21, 12):
        seat = st.current_player()
        obs = st.observation(seat)
        n = count_assignments(gd, obs)
        if n > 256:  # e.g. a seat sitting out still holds all its pieces
            continue
        checked += 1
        ws = worlds(gd, obs, rng, 1000)
        deals = [tuple(w.history) for w in ws]
        assert len(set(deals)) == len(deals)  # never repeated
        assert 1 <= len(ws) <= n
        truth = tuple(st.history[st.hand_start:])
        assert truth in deals  # the real deal is one of them
    assert checked >= 5
