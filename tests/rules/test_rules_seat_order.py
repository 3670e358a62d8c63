"""Seat order (`seats.order`): a game played counter-clockwise is the mirror of the same game
played clockwise. Seat s of the clockwise game sits at seat -s (mod n) of the other: given the
same hands there, every decision (the auction, each trick or lay, each claim) comes to the
mirrored seat with the same legal actions, and the deal passes the mirrored way."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tablerules.game import load_game

FIXTURES = Path(__file__).parent.parent / "fixtures"


def _mirror_match(cw, ccw, seed: int, max_steps: int = 20000):
    """Play both matches from seat 0 dealing with the same random choices; check the mirror."""
    n = cw.definition.seat_count
    m = [(-s) % n for s in range(n)]
    a, b = cw.new_match(record=True, first_dealer=0), ccw.new_match(record=True, first_dealer=0)
    rng = random.Random(seed)
    for _ in range(max_steps):
        if a.is_terminal():
            break
        if a.is_chance_node():
            assert b.is_chance_node() and b.dealer == m[a.dealer]
            dealt = a.deal_random(rng)
            mirrored = [()] * n
            for s in range(n):
                mirrored[m[s]] = dealt[s]
            b.apply_deal(tuple(mirrored) + tuple(dealt[n:]))
            continue
        assert b.current_player() == m[a.current_player()]
        legal = a.legal_actions()
        assert b.legal_actions() == legal
        act = rng.choice(legal)
        a.apply_action(act)
        b.apply_action(act)
    assert a.is_terminal() and b.is_terminal()
    return a, b, m


@pytest.mark.parametrize("seed", range(3))
def test_texas42_counterclockwise_is_the_mirror(seed):
    """The auction speaks dealer-1, dealer-2, ...; each trick goes leader, leader-1, ...; the deal
    passes to the right; the partnerships ([0, 2], [1, 3]) map to themselves, so the score is the
    same."""
    cw = load_game("texas42")
    ccw = load_game(str(FIXTURES / "texas42-counterclockwise.yaml"))
    assert ccw.definition.seat_step == -1 and cw.definition.seat_step == 1
    a, b, m = _mirror_match(cw, ccw, seed)
    assert a.score == b.score
    tricks = [e for e in b.events if e["type"] == "trick"]
    assert tricks
    for t in tricks:
        seats = [s for s, _ in t["plays"]]
        # to the right of the leader, passing over a seat that sits out (Nello's partner)
        assert seats == [s for s in [(seats[0] - i) % 4 for i in range(4)] if s in seats]
    dealers = [e["dealer"] for e in b.events if e["type"] == "deal"]
    assert dealers == [(-i) % 4 for i in range(len(dealers))]


@pytest.mark.parametrize("players", [3, 4])
def test_allfives_counterclockwise_is_the_mirror(players):
    """Layout play, draws, knocks and Muggins claims (the opponents asked in turn) follow the
    order too; with one seat per side the scores are the mirror's."""
    opts = {"players": players, "muggins": True}
    cw = load_game("allfives", opts)
    ccw = load_game(str(FIXTURES / "allfives-counterclockwise.yaml"), opts)
    a, b, m = _mirror_match(cw, ccw, 7)
    sides = cw.definition.sides
    for i, side in enumerate(sides):
        j = ccw.definition.side_of[m[side[0]]]
        assert b.score[j] == a.score[i]


@pytest.mark.parametrize("order, nxt, prev", [("clockwise", [1, 2, 3, 0], [3, 0, 1, 2]),
                                               ("counterclockwise", [3, 0, 1, 2], [1, 2, 3, 0])])
def test_next_and_prev_follow_the_order_the_neighbours_do_not(tmp_path, order, nxt, prev):
    """next(seat) goes the way play goes and prev the other way; left_of (seat + 1) and right_of
    (seat - 1) name the neighbours whichever way play goes."""
    f = tmp_path / "order.yaml"
    consts = {}
    for fn in ("next", "prev", "left_of", "right_of"):
        f.write_text(f"name: order\ntitle: order\nextends: texas42\nseats: {{order: {order}}}\n"
                     f"constants:\n  seats: {{value: \"[{fn}(0), {fn}(1), {fn}(2), {fn}(3)]\"}}\n")
        consts[fn] = list(load_game(str(f)).definition.constants["seats"])
    assert consts == {"next": nxt, "prev": prev, "left_of": [1, 2, 3, 0], "right_of": [3, 0, 1, 2]}
