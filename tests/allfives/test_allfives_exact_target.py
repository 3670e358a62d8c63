"""House rule `exact_target`: a score that would take a side past the target does not count (the
points of that lay, or of that hand, are lost), so a match ends only on an exact hit."""

from __future__ import annotations

import io
import json

import pytest

from tablerules.records.runner import simulate

from .helpers import FULL_SET, act, events, game, pinned_game
from .test_allfives_rules import EXAMPLE


def _match(score, **options):
    g = pinned_game(**options)  # North shakes first: East sets down
    st = g.new_match(record=True)
    st.score[:] = score
    return g, st


def test_a_lay_past_the_target_scores_nothing_and_the_match_goes_on():
    g, st = _match([0, 245], exact_target=True)
    st.apply_deal(g.deal_ids(EXAMPLE))
    act(st, "6-4")  # ends 6 + 4 = 10 would make 255
    assert not st.is_terminal()
    assert events(st, "lay")[-1]["scored"] == 0 and st.score == [0, 245]
    assert st.current_player() == 2


def test_a_lay_that_hits_the_target_exactly_wins():
    g, st = _match([0, 240], exact_target=True)
    st.apply_deal(g.deal_ids(EXAMPLE))
    act(st, "6-4")
    assert st.is_terminal() and events(st, "match")[0]["score"] == [0, 250]


def test_without_exact_target_the_same_lay_wins_past_the_target():
    g, st = _match([0, 245])
    st.apply_deal(g.deal_ids(EXAMPLE))
    act(st, "6-4")
    assert st.is_terminal() and st.score == [0, 255]


def _one_bone_deal(g):
    hands = [["6-6"], ["2-1"], ["1-0"], ["5-5"]]
    stock = [p for p in FULL_SET if p not in ("2-1", "6-6", "5-5", "1-0")]
    return g.deal_ids(hands + [stock])


@pytest.mark.parametrize("before,exact,scored,over", [
    ([95, 90], True, [0, 0], False),    # 15 would make 105: lost
    ([95, 85], True, [0, 15], True),    # exactly 100
    ([95, 90], False, [0, 15], True),   # the default: past the target wins
])
def test_a_hand_award_past_the_target_is_lost(before, exact, scored, over):
    g, st = _match(before, hand_4=1, target=100, exact_target=exact)
    st.apply_deal(_one_bone_deal(g))
    act(st, "2-1")  # East goes out: 12 + 1 = 13 -> 15 for East+West
    assert events(st, "hand")[0]["scored"] == scored
    assert st.is_terminal() == over


def test_exact_target_on_the_cribbage_count():
    """On the 61 board a five is one: a side on 60 needs exactly one more."""
    g, st = _match([0, 60], target=61, exact_target=True)
    st.apply_deal(g.deal_ids(EXAMPLE))
    act(st, "6-4")  # 10 -> 2 on the board: 62 is past 61
    assert events(st, "lay")[-1]["scored"] == 0 and not st.is_terminal()


@pytest.mark.parametrize("options,games", [({}, 50), ({"players": 2}, 15), ({"players": 3}, 15),
                                           ({"target": 61}, 15),
                                           ({"teams": "cutthroat", "target": 100}, 15)])
def test_every_random_match_ends_on_an_exact_hit(options, games):
    out = io.StringIO()
    summary = simulate(game(exact_target=True, **options), games=games, seed=4, out=out)
    assert summary.games == games
    target = options.get("target", 250)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    matches = [x for x in lines if x["type"] == "match"]
    assert len(matches) == games
    assert all(max(m["score"]) == target for m in matches)
    assert all(max(x["score"]) <= target for x in lines if x["type"] in ("lay", "hand"))
    assert max(m["hands_scored"] for m in matches) < 100  # far inside bounds.max_hands
