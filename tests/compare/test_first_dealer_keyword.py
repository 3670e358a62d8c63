"""`first_dealer=k` starts a match with a given dealer, overriding `deal.first_dealer`."""

from __future__ import annotations

import random

import pytest

from tablerules.engine.state import LOT, State
from tablerules.errors import CallerError
from tablerules.game import load_game
from tablerules.records.runner import play_game


@pytest.fixture
def lot(tmp_path):
    p = tmp_path / "lot42.yaml"
    p.write_text("name: lot42\nextends: texas42\ndeal:\n  first_dealer: lot\n", encoding="utf-8")
    return load_game(str(p))


def test_a_given_first_dealer_replaces_the_draw_by_lot(lot):
    for k in range(4):
        st = lot.new_match(first_dealer=k)
        assert st.dealer == k and st.legal_actions() != (0, 1, 2, 3)  # pieces, not seats
        st.deal_random(random.Random(1))
        assert st.dealer == k and all(p != LOT for p, _ in st.history)
        again = lot.from_history(st.history, first_dealer=k)
        assert again.dealer == k and again.hands == st.hands


def test_a_given_first_dealer_replaces_a_fixed_seat():
    g = load_game("texas42")
    assert g.new_match().dealer == 0 and g.new_match(first_dealer=3).dealer == 3
    assert State(g.definition, first_dealer=2).dealer == 2
    for bad in (-1, 4, "1"):
        with pytest.raises(CallerError, match="first_dealer is a seat 0..3"):
            g.new_match(first_dealer=bad)


def test_play_game_deals_from_the_given_seat(tmp_path):
    g = load_game("texas42")  # draws its first dealer by lot: the keyword skips the draw
    deals = []
    play_game(g, ["random"], 0, 0, first_dealer=2,
              emit=lambda ev: deals.append(ev) if ev["type"] == "deal" else None)
    assert deals[0]["dealer"] == 2
    seat0 = tmp_path / "seat0.yaml"
    seat0.write_text("name: seat0\nextends: texas42\ndeal:\n  first_dealer: 0\n", encoding="utf-8")
    plain = []
    play_game(load_game(str(seat0)), ["random"], 0, 0,
              emit=lambda ev: plain.append(ev) if ev["type"] == "deal" else None)
    assert plain[0]["dealer"] == 0 and plain[0]["dealt"] == deals[0]["dealt"]  # the same hands
