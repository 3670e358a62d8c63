"""The first shaker of a match is chosen by lot (`deal.first_dealer: lot`): every seat shakes
first about as often, and simulation does not favour a side."""

from __future__ import annotations

import io
import json
import random
from collections import Counter

from tablerules.engine.state import LOT
from tablerules.records.runner import simulate

from .helpers import game, pinned_game


def test_the_first_shaker_is_spread_over_the_seats():
    g = game()
    firsts = Counter()
    for seed in range(400):
        st = g.new_match()
        assert st.is_chance_node() and st.legal_actions() == (0, 1, 2, 3)
        st.deal_random(random.Random(seed))
        assert st.history[0] == (LOT, st.dealer)
        assert st.current_player() == (st.dealer + 1) % 4  # left of the shaker sets down
        firsts[st.dealer] += 1
    assert sorted(firsts) == [0, 1, 2, 3]
    assert all(60 <= n <= 140 for n in firsts.values()), firsts  # 100 each expected


def test_the_first_shaker_in_simulated_records_is_spread_and_no_side_is_favoured():
    out = io.StringIO()
    summary = simulate(game(), games=400, seed=11, out=out)
    assert summary.games == 400
    firsts = Counter()
    wins = Counter()
    first_deal = True
    for line in out.getvalue().splitlines():
        obj = json.loads(line)
        if obj["type"] == "game":
            first_deal = True
        elif obj["type"] == "deal" and first_deal:
            firsts[obj["dealer"]] += 1
            first_deal = False
        elif obj["type"] == "match":
            wins.update(obj["winner"])
    assert all(60 <= firsts[s] <= 140 for s in range(4)), firsts
    assert all(150 <= wins[s] <= 250 for s in range(2)), wins  # 200 each expected, sd 10


def test_an_overlay_pins_the_first_shaker():
    st = pinned_game().new_match()
    st.deal_random(random.Random(5))
    assert all(p != LOT for p, _ in st.history)  # no draw by lot
    assert st.dealer == 0 and st.current_player() == 1
