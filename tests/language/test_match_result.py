"""Who wins a match: the highest or the lowest score, ties draw, returns per ruleset; and whether
a match may end in the middle of a hand."""

from __future__ import annotations

import random
from pathlib import Path

from tablerules.game import load_game

from test_legal_rules import TINY

ROOT = Path(__file__).resolve().parents[2]


def tiny(tmp_path, scoring: str):
    text = TINY.format(legal="true").replace(
        'scoring:\n  hand: "bid.marks if made == (side == bidder_side) else 0"\n'
        '  match_over: "any(score(s) >= 3 for s in sides)"\n', scoring)
    assert text != TINY.format(legal="true")
    p = tmp_path / "tiny.yaml"
    p.write_text(text, encoding="utf-8")
    return load_game(str(p))


def finish(g, seed):
    rng = random.Random(seed)
    st = g.new_match()
    while not st.is_terminal():
        if st.is_chance_node():
            st.deal_random(rng)
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    return st


def test_the_lowest_score_can_win(tmp_path):
    g = tiny(tmp_path, 'scoring:\n  hand: "bid.marks if made == (side == bidder_side) else 0"\n'
                       '  match_over: "any(score(s) >= 3 for s in sides)"\n  winner: lowest\n')
    for seed in range(20):
        st = finish(g, seed)
        low = min(st.score)
        assert [s for s, v in enumerate(st.score) if v == low] == st.winner_sides
        if len(st.winner_sides) == 1:
            assert st.returns()[st.winner_sides[0]] == 1.0


def test_a_tie_for_the_win_is_a_draw(tmp_path):
    # every hand scores one to each side: the match ends level after three hands
    g = tiny(tmp_path, 'scoring:\n  hand: "1"\n  match_over: "hands_played >= 3"\n')
    st = finish(g, 1)
    assert st.score == [3, 3] and st.winner_sides == [0, 1]
    assert st.returns() == [0.0, 0.0]


def test_returns_may_carry_the_margin(tmp_path):
    g = tiny(tmp_path, 'scoring:\n  hand: "bid.marks if made == (side == bidder_side) else 0"\n'
                       '  match_over: "any(score(s) >= 3 for s in sides)"\n'
                       '  returns: "score(side) - max(score(s) for s in sides if s != side)"\n')
    for seed in range(10):
        st = finish(g, seed)
        a, b = st.score
        assert st.returns() == [float(a - b), float(b - a)]


def test_a_match_may_wait_for_the_end_of_the_hand(tmp_path):
    text = (ROOT / "rulesets" / "allfives.yaml").read_text(encoding="utf-8")
    assert text.count("\nscoring:\n") == 1
    text = text.replace("\nscoring:\n", "\nscoring:\n  during_hand: \"false\"\n", 1)
    p = tmp_path / "wait.yaml"
    p.write_text(text, encoding="utf-8")
    for g, cut in ((load_game("allfives", {"target": 61}), True),
                   (load_game(str(p), {"target": 61}), False)):
        rng = random.Random(2)
        cuts = 0
        for _ in range(30):
            st = g.new_match(record=True)
            while not st.is_terminal():
                if st.is_chance_node():
                    st.deal_random(rng)
                else:
                    st.apply_action(rng.choice(st.legal_actions()))
            last = [e for e in st.events if e["type"] == "hand"][-1]
            played_out = last["went_out"] >= 0 or last["blocked"]
            cuts += not played_out
        assert (cuts > 0) == cut
