"""All Fives invariants over 2,000 random hands (checked against an independent layout model),
matches that end with random agents, and schema-valid records."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tablerules.records.runner import simulate

from .helpers import ARMS, FULL_SET, Layout, game, nearest_five, pips

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "record.schema.json").read_text(encoding="utf-8"))

# (options, random hands): 2,000 hands in all.
HAND_RUNS = [
    ({}, 700),
    ({"players": 3}, 300),
    ({"players": 2}, 300),
    ({"teams": "cutthroat"}, 150),
    ({"spinner_count": "one", "first_play": "highest_double"}, 150),
    ({"players": 3, "draw_with_play": True}, 150),
    ({"target": 61}, 150),
    ({"players": 2, "hand_2": 5, "target": 100}, 100),
]
assert sum(n for _, n in HAND_RUNS) == 2000


def _ids(runs):
    return [",".join(f"{k}={v}" for k, v in o.items()) or "defaults" for o, *_ in runs]


def _expected_lays(model: Layout, hand: list[str], stock_left: int, draw_with_play: bool) -> list[str]:
    plays = model.plays(hand)
    if not model.started:
        return sorted(plays)
    extra = []
    if stock_left and (draw_with_play or not plays):
        extra.append("draw")
    if not plays and not stock_left:
        extra.append("knock")
    return sorted(extra + plays)


@pytest.mark.parametrize("options,hands", HAND_RUNS, ids=_ids(HAND_RUNS))
def test_random_hands_keep_every_rule(options, hands):
    g = game(**options)
    gd = g.definition
    names = gd.pieces.names
    unit = 5 if options.get("target") == 61 else 1
    target = options.get("target", 250)
    sides = [list(s) for s in gd.sides]
    side_of = {s: i for i, side in enumerate(sides) for s in side}
    rng = random.Random(sum(map(ord, repr(options))))
    played_hands = 0
    matches_ended = 0
    st = None
    outcomes = set()
    while played_hands < hands:
        if st is None or st.is_terminal():
            if st is not None:
                matches_ended += 1
            st = g.new_match(record=True)
        before = list(st.score)
        st.deal_random(rng)  # a match's first deal also draws the first shaker by lot
        deal = st.events[0]
        dealer = deal["dealer"]
        assert dealer == st.dealer
        # dealt once: every bone of the set, hand_size each, the rest in the stock
        every = [p for h in deal["dealt"] for p in h] + deal.get("stock", [])
        assert sorted(every) == sorted(FULL_SET)
        assert [len(h) for h in deal["dealt"]] == [gd.hand_size] * gd.seat_count
        hands_now = [set(h) for h in deal["dealt"]]
        stock = list(deal.get("stock", []))
        model = Layout(spinner_count=options.get("spinner_count", "both"))
        # the first play: left of the shaker, or the holder of the highest double
        doubles = [p for p in every[:gd.seat_count * gd.hand_size] if p[0] == p[2]]
        if options.get("first_play") == "highest_double" and doubles:
            top = max(doubles)
            assert st.current_player() == next(s for s, h in enumerate(hands_now) if top in h)
        else:
            assert st.current_player() == (dealer + 1) % gd.seat_count
        lay_score = [0] * len(sides)
        knocks = 0
        last_seat = None
        interrupted = False
        while not st.is_chance_node() and not st.is_terminal():
            seat = st.current_player()
            legal = [gd.action_to_string(a) for a in st.legal_actions()]
            assert sorted(legal) == _expected_lays(model, hands_now[seat], len(stock),
                                                   options.get("draw_with_play", False))
            n_events = len(st.events)
            a = legal[rng.randrange(len(legal))]
            st.apply_action(gd.string_to_action(a))
            new = st.events[n_events:]
            if a == "draw":
                assert new[0] == {"type": "draw", "seat": seat, "piece": stock[0]}
                hands_now[seat].add(stock.pop(0))
                continue
            if a == "knock":
                knocks += 1
                assert new[0] == {"type": "knock", "seat": seat}
                continue
            knocks = 0
            piece, _, arm = a.partition(" ")
            assert piece in hands_now[seat]
            hands_now[seat].remove(piece)
            model.first(piece) if not arm else model.lay(piece, arm)
            lay = new[0]
            assert lay["type"] == "lay" and lay["piece"] == piece and lay["seat"] == seat
            assert lay["on"] == (arm or "first")
            want = [n for arm_ in ARMS if arm_ in model.open
                    for n in [model.open[arm_]]
                    if arm_ in ("west", "east") or model.count[arm_]]
            assert lay["ends"] == want
            assert lay["scored"] == model.score(unit), (lay, model.total())
            lay_score[side_of[seat]] += lay["scored"]
            assert lay["score"] == [b + x for b, x in zip(before, lay_score)]
            last_seat = seat
            if max(lay["score"]) >= target and lay["scored"]:
                interrupted = True
        ev = next(e for e in st.events if e["type"] == "hand")
        played_hands += 1
        # pieces accounted for: laid once, or left in a hand, or left in the stock
        laid = [e["piece"] for e in st.events if e["type"] == "lay"]
        assert len(laid) == len(set(laid))
        assert sorted(laid + [p for h in hands_now for p in h] + stock) == sorted(FULL_SET)
        pips_left = [sum(pips(p) for s in side for p in hands_now[s]) for side in sides]
        assert ev["pips_left"] == pips_left
        assert ev["points"] == lay_score
        if interrupted:
            # the match ends on the lay that reaches the target; no end-of-hand award
            assert st.is_terminal() and ev["scored"] == [0] * len(sides)
            outcomes.add("interrupted")
        elif ev["went_out"] >= 0:
            assert ev["went_out"] == last_seat and not hands_now[last_seat] and not ev["blocked"]
            side = side_of[last_seat]
            want = [0] * len(sides)
            want[side] = nearest_five(sum(p for i, p in enumerate(pips_left) if i != side)) // unit
            assert ev["scored"] == want
            outcomes.add("domino")
        else:
            assert ev["blocked"] and knocks == gd.seat_count and not stock
            lighter = [i for i, p in enumerate(pips_left) if all(p < q for j, q in enumerate(pips_left) if j != i)]
            assert [i for i, m in enumerate(ev["scored"]) if m] in ([], lighter)
            if len(sides) == 2 and lighter:
                want = [0, 0]
                want[lighter[0]] = nearest_five(max(pips_left) - min(pips_left)) // unit
                assert ev["scored"] == want
            outcomes.add("blocked")
        # scores consistent: the lays' points plus the award are the change in the match score
        assert ev["score"] == [b + p + m for b, p, m in zip(before, lay_score, ev["scored"])]
        assert list(st.score) == ev["score"]
        assert ev["made"] is False and ev["bidder"] == -1
        if st.is_terminal():
            (m,) = [e for e in st.events if e["type"] == "match"]
            assert max(m["score"]) >= target
            assert m["winner"] == [i for i, v in enumerate(m["score"]) if v == max(m["score"])]
        else:
            assert max(st.score) < target
        st.events.clear()
    assert outcomes == {"domino", "blocked", "interrupted"}
    assert matches_ended > 0


MATCH_RUNS = [({}, 25), ({"players": 3}, 20), ({"players": 2}, 20), ({"teams": "cutthroat"}, 15),
              ({"target": 61}, 20), ({"target": 100, "first_play": "highest_double"}, 20)]


@pytest.mark.parametrize("options,games", MATCH_RUNS, ids=_ids(MATCH_RUNS))
def test_every_random_match_ends(options, games):
    """"Play hands until one side reaches the target": every random match ends, the winner has
    the target, and the hands' points and awards add up to the final score."""
    target = options.get("target", 250)
    out = io.StringIO()
    summary = simulate(game(**options), games=games, seed=21, agent_names=["random"], out=out)
    assert summary.games == games
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    per_game: list[list[dict]] = []
    assert lines[-1]["type"] == "end"
    for obj in lines[1:-1]:
        if obj["type"] == "game":
            per_game.append([])
        else:
            per_game[-1].append(obj)
    assert len(per_game) == games
    for evs in per_game:
        m = evs[-1]
        assert m["type"] == "match"
        assert max(m["score"]) >= target
        hands = [e for e in evs if e["type"] == "hand"]
        total = [sum(h["points"][s] + h["scored"][s] for h in hands) for s in range(len(m["score"]))]
        assert total == m["score"]
        assert all(max(h["score"]) < target for h in hands[:-1])
        assert m["winner"] == [i for i, v in enumerate(m["score"]) if v == max(m["score"])]


RECORD_RUNS = [{}, {"players": 3, "draw_with_play": True}, {"players": 2, "target": 61},
               {"teams": "cutthroat", "spinner_count": "one"}]


@pytest.mark.parametrize("options", RECORD_RUNS, ids=_ids([(o,) for o in RECORD_RUNS]))
def test_every_record_line_validates_against_the_schema(options):
    validator = Draft202012Validator(SCHEMA)
    out = io.StringIO()
    simulate(game(**options), games=2, seed=5, out=out)
    kinds = set()
    for i, line in enumerate(out.getvalue().splitlines(), 1):
        obj = json.loads(line)
        errors = list(validator.iter_errors(obj))
        assert not errors, f"line {i} ({obj.get('type')}): {errors[0].message}"
        kinds.add(obj["type"])
    assert {"header", "game", "deal", "decision", "contract", "lay", "knock", "hand", "match"} <= kinds
    if options.get("players", 4) < 4:
        assert "draw" in kinds
