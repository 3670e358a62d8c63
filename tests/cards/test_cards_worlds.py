"""Observations and worlds work unchanged with cards: nothing hidden shows, worlds replay."""

from __future__ import annotations

import json
import random

import pytest

from tablerules.engine.worlds import worlds

from helpers import PLAIN52, TAROT4, game


def states(g, seed: int, count: int):
    """States at random points of random play (not at a deal)."""
    rng = random.Random(seed)
    out = []
    st = g.new_match()
    while len(out) < count:
        if st.is_terminal():
            st = g.new_match()
        if st.is_chance_node():
            st.deal_random(rng)
            continue
        st.apply_action(rng.choice(st.legal_actions()))
        if not st.is_chance_node() and not st.is_terminal() and rng.random() < 0.1:
            out.append(st.clone())
    return out


@pytest.mark.parametrize("ref", [PLAIN52, TAROT4], ids=["plain52", "tarot4"])
def test_an_observation_names_no_hidden_card_and_worlds_replay_it(ref):
    g = game(ref)
    gd = g.definition
    rng = random.Random(5)
    for st in states(g, 4, 6):
        seat = st.current_player()
        obs = st.observation(seat)
        hidden = {gd.pieces.names[t] for s in range(gd.seat_count) if s != seat
                  for t in gd.mask_pieces(st.hands[s])} | {gd.pieces.names[t] for t in st.stock}
        hidden -= set(obs["hand"]) | set(obs["dealt"])
        text = json.dumps({k: v for k, v in obs.items() if k not in ("hand_actions", "history")},
                          ensure_ascii=False)
        words = set(text.replace('"', " ").replace(",", " ").replace("[", " ")
                    .replace("]", " ").split())
        assert not words & hidden, words & hidden
        for w in worlds(gd, obs, rng, 4):
            assert w.legal_actions() == st.legal_actions()
            seen = w.observation(seat)
            seen.pop("history")
            assert seen == {k: v for k, v in obs.items() if k != "history"}
