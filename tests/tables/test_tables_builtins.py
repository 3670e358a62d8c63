"""Every built-in ruleset: invariants over random hands, and a seeded one-game record snapshot.

Random hands are played by the product's own runner (`records.runner.play_game`) with uniformly
random agents. Moon is the exception: "Miss it and you lose it ... You can and will go
backwards" (rule text 004), so uniformly random bidders drift below zero and a match never
reaches its target; the CLI itself says so and suggests `--agents cautious`, which Moon uses here.
"""

from __future__ import annotations

import io
import json
from collections import Counter

import pytest

from tablerules.game import load_game
from tablerules.load.ruleset import builtin_names
from tablerules.records.runner import play_game, simulate

NAMES = builtin_names()
HANDS = 300
AGENTS = {"moon": ("cautious",)}


def agents(name: str) -> tuple[str, ...]:
    return AGENTS.get(name, ("random",))


def split_hands(events: list[dict]) -> list[list[dict]]:
    """The events of one match cut into deals: each list starts at a deal and ends at its hand."""
    out, cur = [], None
    for ev in events:
        if ev["type"] == "deal":
            assert cur is None, f"a deal before the previous hand ended: {ev}"
            cur = [ev]
        elif cur is not None:
            cur.append(ev)
            if ev["type"] == "hand":
                out.append(cur)
                cur = None
    assert cur is None, "a deal without a hand line"
    return out


def check_hand(gd, evs: list[dict], prev_score: list[int]) -> list[int]:
    deal, hand = evs[0], evs[-1]
    every = list(gd.pieces.names)
    dealt = [p for h in deal["dealt"] for p in h]
    stock = list(deal.get("stock", [])) + list(deal.get("widow", []))
    # every piece dealt exactly once (to a seat or to the stock)
    assert len(deal["dealt"]) == gd.seat_count
    assert all(len(h) == gd.hand_size for h in deal["dealt"])
    assert sorted(dealt + stock) == sorted(every), "a piece dealt twice or never"
    held = {s: set(h) for s, h in enumerate(deal["dealt"])}
    plays: list[tuple[int, str]] = []
    tricks = []
    for ev in evs[1:-1]:
        t = ev["type"]
        if t == "exchange":
            held[ev["seat"]] |= set(ev.get("took", []))
        elif t == "draw":
            held[ev["seat"]].add(ev["piece"])
        elif t == "trick":
            tricks.append(ev)
            plays += [(s, p) for s, p in ev["plays"]]
        elif t == "lay":
            plays.append((ev["seat"], ev["piece"]))
    pieces = [p for _, p in plays]
    dup = [p for p, n in Counter(pieces).items() if n > 1]
    assert not dup, f"played twice in one hand: {dup}"
    for s, p in plays:
        assert p in held[s], f"seat {s} played {p}, which it never held"
    if hand.get("thrown_in"):
        assert not plays and hand["score"] == prev_score
        return hand["score"]
    marks, points = hand["scored"], hand["points"]
    assert len(marks) == len(gd.sides) and len(points) == len(gd.sides)
    if tricks:
        assert sum(tr["points"] for tr in tricks) == sum(points)
        assert len(tricks) == hand["ended_after_trick"]
        if gd.bounds.hand_points is not None:
            assert sum(points) <= gd.bounds.hand_points
            if len(pieces) == gd.seat_count * gd.hand_size:  # every piece in hand was played
                assert sum(points) == gd.bounds.hand_points
        assert [a - b for a, b in zip(hand["score"], prev_score)] == marks
    else:
        assert [a - b for a, b in zip(hand["score"], prev_score)] == [m + p for m, p in zip(marks, points)]
    if gd.name == "moon":
        # "Everybody else scores a point for every trick they took, whether the bid came home
        #  or not." (default options: a missed bid comes off the bidder's own score)
        bidder_side = gd.side_of[hand["bidder"]]
        for side, m in enumerate(marks):
            if side != bidder_side:
                assert m == hand["tricks"][side]
    elif gd.match.stake is not None:
        # played for chips: a hand's score is what its game paid each side, so it adds up to
        # nothing, and the chips moved are conserved (taroky)
        assert sum(marks) == 0, f"a hand's scores do not add up to nothing: {hand}"
        assert sum(hand["chips"]) == gd.match.stake * gd.seat_count
    else:
        awarded = [s for s, m in enumerate(marks) if m]
        assert len(awarded) <= 1, f"a hand awarded to more than one side: {hand}"
    return hand["score"]


@pytest.mark.parametrize("name", NAMES)
def test_random_hands_keep_the_invariants(name):
    game = load_game(name)
    gd = game.definition
    played = 0
    index = 0
    while played < HANDS:
        events: list[dict] = []
        st = play_game(game, list(agents(name)), 1234, index, emit=events.append, decisions=False)
        index += 1
        # the match ends
        assert st.is_terminal()
        deals = split_hands(events)
        score = [0] * len(gd.sides)
        for evs in deals:
            score = check_hand(gd, evs, score)
        scored = [evs[-1] for evs in deals if not evs[-1].get("thrown_in")]
        played += len(scored)
        m = events[-1]
        assert m["type"] == "match"
        assert m["score"] == score
        assert m["hands_scored"] == len(scored) and m["deals"] == len(deals)
        result = m.get("chips", score)  # played for chips, the match goes by the chips
        assert m["winner"] == [s for s, v in enumerate(result) if v == max(result)]
        drawn = len(m["winner"]) > 1
        assert st.returns() == [(0.0 if drawn else 1.0) if gd.side_of[s] in m["winner"] else -1.0
                                for s in range(gd.seat_count)]
    assert index < 200


@pytest.mark.parametrize("name", NAMES)
def test_one_game_record_snapshot(name, snapshot):
    out = io.StringIO()
    simulate(load_game(name), games=1, seed=11, out=out, agent_names=agents(name))
    text = out.getvalue()
    lines = [json.loads(x) for x in text.splitlines()]
    assert lines[0]["type"] == "header" and lines[-2]["type"] == "match" and lines[-1]["type"] == "end"
    again = io.StringIO()
    simulate(load_game(name), games=1, seed=11, out=again, agent_names=agents(name))
    assert again.getvalue() == text  # the same seed gives a byte-identical record
    assert text == snapshot
