"""The first dealer drawn by lot: a chance action at the start of a match, so that simulation
does not favour the side that deals first, and the history still identifies the game."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from tablerules.engine.state import LOT
from tablerules.game import load_game

from support import cli

ROOT = Path(__file__).resolve().parents[2]


def by_lot(tmp_path) -> str:
    """The shipped texas42 (every shipped ruleset draws its first dealer by lot)."""
    text = (ROOT / "rulesets" / "texas42.yaml").read_text(encoding="utf-8")
    assert text.count("\n  first_dealer: lot\n") == 1
    return "texas42"


def test_every_seat_deals_first_by_lot(tmp_path):
    g = load_game(by_lot(tmp_path))
    firsts = Counter()
    for seed in range(200):
        st = g.new_match()
        assert st.is_chance_node() and st.legal_actions() == (0, 1, 2, 3)
        st.deal_random(random.Random(seed))
        assert st.history[0] == (LOT, st.dealer)
        firsts[st.dealer] += 1
    assert set(firsts) == {0, 1, 2, 3} and min(firsts.values()) > 30


def test_the_history_with_the_draw_identifies_the_game(tmp_path):
    g = load_game(by_lot(tmp_path))
    rng = random.Random(4)
    st = g.new_match()
    for _ in range(60):
        if st.is_chance_node():
            st.deal_random(rng)
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    again = g.from_history(st.history)
    assert again.history == st.history and again.dealer == st.dealer
    assert [again.observation(s) for s in range(4)] == [st.observation(s) for s in range(4)]
    assert all(p >= 0 for p, _ in st.observation(0)["hand_actions"] if p != -1)


def test_a_record_of_a_game_by_lot_replays(tmp_path, monkeypatch):
    f = by_lot(tmp_path)
    monkeypatch.chdir(tmp_path)
    r = cli("simulate", f, "--games", "4", "--seed", "2", "--record", "rec.jsonl")
    assert r.exit_code == 0, r.stderr
    q = cli("replay", "rec.jsonl", "-q")
    assert q.exit_code == 0, q.stderr
    assert "first dealer by lot" in cli("show", f).stdout
