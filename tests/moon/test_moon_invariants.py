"""Moon invariants over 2,000 random hands, matches that end, and schema-valid records."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tablerules.records.runner import simulate

from .helpers import (MOON_SET, expected_marks, follows, game, lead_suit, trick_rank)

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "record.schema.json").read_text(encoding="utf-8"))

# (options, random hands): 2,000 hands in all, most with the defaults.
HAND_RUNS = [
    ({}, 1100),
    ({"widow_first": False}, 250),
    ({"widow_optional": True}, 250),
    ({"made_scores": "tricks", "set_scores": "opponents_gain"}, 200),
    ({"widow_optional": True, "widow_first": False, "moon_set": 12}, 200),
]
assert sum(n for _, n in HAND_RUNS) == 2000

MATCH_COMBOS = [{}, {"widow_first": False, "widow_optional": True},
                {"made_scores": "tricks", "set_scores": "opponents_gain"}, {"target": 35}]


def _play_hands(options: dict, hands: int, seed: int):
    """Random hands (random bids and play) dealt in fresh match states; yields each hand's events."""
    g = game(**options)
    rng = random.Random(seed)
    done = 0
    st = None
    while done < hands:
        if st is None or st.is_terminal() or st.deals >= 200:
            st = g.new_match(record=True)
        assert st.is_chance_node()
        before = list(st.score)
        st.deal_random(rng)
        while not st.is_chance_node() and not st.is_terminal():
            la = st.legal_actions()
            st.apply_action(la[rng.randrange(len(la))])
        evs = list(st.events)
        st.events.clear()
        hand_ev = [e for e in evs if e["type"] == "hand"]
        assert len(hand_ev) == 1
        if hand_ev[0].get("thrown_in"):
            assert hand_ev[0]["score"] == before
            continue
        done += 1
        yield before, evs


@pytest.mark.parametrize("options,hands", HAND_RUNS,
                         ids=[",".join(f"{k}={v}" for k, v in o.items()) or "defaults" for o, _ in HAND_RUNS])
def test_random_hands_keep_every_rule(options, hands):
    seen_bids = set()
    seen_trumps = set()
    for before, evs in _play_hands(options, hands, seed=len(options) * 7919 + hands):
        kinds = [e["type"] for e in evs]
        deal = evs[0]
        assert deal["type"] == "deal"
        # dealt once: seven each and the widow, the whole 22-bone set
        assert [len(h) for h in deal["dealt"]] == [7, 7, 7] and len(deal["stock"]) == 1
        dealt = [p for h in deal["dealt"] for p in h] + deal["stock"]
        assert sorted(dealt) == sorted(MOON_SET)
        widow = deal["stock"][0]
        contract = next(e for e in evs if e["type"] == "contract")
        bidder = contract["bidder"]
        trump = contract["declarations"].get("trump", "followme")
        seen_trumps.add(trump)
        hands_now = [set(h) for h in deal["dealt"]]
        took = [e for e in evs if e["type"] == "exchange" and "took" in e]
        buried = [e["buried"] for e in evs if e["type"] == "exchange" and "buried" in e]
        if took:
            assert took[0] == {"type": "exchange", "seat": bidder, "took": [widow]}
            assert len(buried) == 1  # eight in, seven out
            hands_now[bidder] |= {widow}
            hands_now[bidder] -= {buried[0]}
        else:
            assert options.get("widow_optional") is True and not buried
        # the exchange is over before the play starts
        assert all(i < kinds.index("contract") for i, k in enumerate(kinds) if k == "exchange")
        # tricks: the bidder leads, the winner leads next, follow suit when you can
        tricks = [e for e in evs if e["type"] == "trick"]
        assert len(tricks) == 7
        leader = bidder
        counted = [0, 0, 0]
        played = []
        for t in tricks:
            seats = [s for s, _ in t["plays"]]
            assert seats == [leader, (leader + 1) % 3, (leader + 2) % 3]
            lead_piece = t["plays"][0][1]
            led = lead_suit(lead_piece, trump)
            assert t["led"] == led
            for s, p in t["plays"]:
                assert p in hands_now[s], f"seat {s} played {p} it does not hold"
                if s != leader and any(follows(q, led, trump) for q in hands_now[s]):
                    assert follows(p, led, trump), f"seat {s} did not follow {led} with {p}"
                hands_now[s].remove(p)
                played.append(p)
            ranks = [trick_rank(p, led, trump) for _, p in t["plays"]]
            assert t["winner"] == t["plays"][ranks.index(max(ranks))][0]
            assert t["points"] == 1
            counted[t["winner"]] += 1
            leader = t["winner"]
        # every piece accounted for: played at most once, the buried one never
        assert len(played) == len(set(played)) == 21
        assert not set(played) & set(buried)
        left = [] if took else [widow]
        assert sorted(played + buried + left) == sorted(MOON_SET)
        assert hands_now == [set(), set(), set()]
        # scores consistent with the rule text and with the match score
        ev = next(e for e in evs if e["type"] == "hand")
        assert ev["tricks"] == counted and ev["points"] == counted and sum(counted) == 7
        assert ev["scored"] == expected_marks(options, ev["bid"], bidder, counted)
        assert ev["made"] == (counted[bidder] >= (7 if ev["bid"] == "moon" else int(ev["bid"])))
        assert [b + m for b, m in zip(before, ev["scored"])] == ev["score"]
        seen_bids.add(ev["bid"])
    assert seen_bids == {"4", "5", "6", "7", "moon"}
    assert len(seen_trumps) == 9


def _record(options: dict, games: int, seed: int) -> str:
    out = io.StringIO()
    simulate(game(**options), games=games, seed=seed, agent_names=["cautious"], out=out)
    return out.getvalue()


@pytest.mark.parametrize("options", MATCH_COMBOS,
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_every_match_with_cautious_bidders_ends_and_adds_up(options):
    """"First to 21 wins": every match ends, the winner has reached the target and leads."""
    target = options.get("target", 21)
    text = _record(options, games=30, seed=17)
    lines = [json.loads(x) for x in text.splitlines()]
    games = []
    for obj in lines:
        if obj["type"] == "game":
            games.append([])
        elif obj["type"] not in ("header", "end"):
            games[-1].append(obj)
    assert len(games) == 30
    for evs in games:
        assert evs[-1]["type"] == "match"
        m = evs[-1]
        hands = [e for e in evs if e["type"] == "hand" and not e.get("thrown_in")]
        total = [sum(h["scored"][s] for h in hands) for s in range(3)]
        assert total == m["score"]
        assert max(m["score"]) >= target
        assert m["winner"] == [s for s in range(3) if m["score"][s] == max(m["score"])]
        assert m["hands_scored"] == len(hands)
        assert m["deals"] == sum(1 for e in evs if e["type"] == "deal")
        # the match ends on the first hand that takes somebody to the target
        assert all(max(h["score"]) < target for h in hands[:-1])


@pytest.mark.parametrize("options", MATCH_COMBOS,
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_every_record_line_validates_against_the_schema(options):
    validator = Draft202012Validator(SCHEMA)
    text = _record(options, games=4, seed=5)
    kinds = set()
    for i, line in enumerate(text.splitlines(), 1):
        obj = json.loads(line)
        errors = list(validator.iter_errors(obj))
        assert not errors, f"line {i} ({obj.get('type')}): {errors[0].message}"
        kinds.add(obj["type"])
    assert {"header", "game", "deal", "decision", "exchange", "contract", "trick", "hand",
            "match"} <= kinds
