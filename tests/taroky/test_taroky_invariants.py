"""Invariants of rulesets/taroky.yaml over many random hands: every card dealt once, the count
adds up to the pack's 106, the chips are conserved, and every payment is what the rule text's
count and tournament formula give (the sides found by who played the called tarok)."""

from __future__ import annotations

import pytest

from .helpers import count, expected_payments, hands_of, random_match

SEEDS = range(12)  # 12 matches of 8 hands


@pytest.fixture(scope="module")
def matches():
    return [random_match(seed) for seed in SEEDS]


def test_every_card_is_dealt_once(matches):
    for g, events in matches:
        pack = sorted(g.definition.pieces.names)
        for lines in hands_of(events):
            d = lines[0]
            assert sorted(n for h in d["dealt"] for n in h) + [] == sorted(
                set(pack) - set(d["stock"]))
            assert sorted([n for h in d["dealt"] for n in h] + d["stock"]) == pack
            assert [len(h) for h in d["dealt"]] == [12] * 4 and len(d["stock"]) == 6


def test_the_count_adds_up_to_the_pack(matches):
    hands = 0
    for _, events in matches:
        for lines in hands_of(events):
            c = count(lines)
            assert c["contract"] + c["against"] == 106
            hands += 1
    assert hands == 8 * len(SEEDS)


def test_chips_are_conserved(matches):
    for _, events in matches:
        chips = [100] * 4
        for lines in hands_of(events):
            hand = lines[-1]
            for p in hand["paid"]:
                assert p["from"] != p["to"] and p["chips"] > 0
                chips[p["from"]] -= p["chips"]
                chips[p["to"]] += p["chips"]
            assert hand["chips"] == chips and sum(chips) == 400


@pytest.mark.parametrize("counting", ["texas", "czech"])
def test_every_payment_is_the_rule_texts(counting, matches):
    kinds, names = set(), set()
    runs = matches if counting == "texas" else [random_match(s, counting="czech") for s in SEEDS]
    for _, events in runs:
        for lines in hands_of(events):
            hand = lines[-1]
            got = sorted((p["from"], p["to"], p["chips"], p["for"]) for p in hand["paid"])
            assert got == expected_payments(lines, counting), lines[-1]
            c = count(lines, counting)
            assert hand["made"] == c["won"]
            assert c["contract"] + c["against"] == (70 if counting == "czech" else 106)
            kinds.add((c["kind"], len(c["team"]), c["decl"].get("half")))
            names |= {p["for"] for p in hand["paid"]}
    # the random hands reach every kind of side: with a partner, alone, prever by either half
    assert {("game", 2, "first"), ("game", 1, "first"), ("prever", 1, "first"),
            ("prever", 1, "second")} <= kinds
    assert {"game", "pagat", "trul"} <= names
