"""Settlements paid between players (`scoring.chips`) and a match of a fixed number of hands
(`scoring.match_over` over `hands_played`), on domino fixtures shaped like Taroky's payments:
each loser pays one winner by a formula over the losers' points (tests/fixtures/texas42-chips),
a bonus paid by each of the other three, and a bidder alone who settles with each of the others
(tests/fixtures/moon-chips)."""

from __future__ import annotations

import functools
import json
import random
import re
from pathlib import Path

import pytest

from tablerules.game import load_game

from support import cli

from .helpers import random_playout

FIXTURES = Path(__file__).parent.parent / "fixtures"
CHIPS42 = str(FIXTURES / "texas42-chips.yaml")
MOON = str(FIXTURES / "moon-chips.yaml")


@functools.lru_cache(maxsize=None)
def _game(ref: str, options: tuple):
    return load_game(ref, dict(options))


def _match(ref: str, seed: int, **options):
    g = _game(ref, tuple(sorted(options.items())))
    st = random_playout(g.new_match(record=True), random.Random(seed))
    return g, st, st.events


def _hands(events):
    return [e for e in events if e["type"] == "hand"]


@pytest.mark.parametrize("ref, options", [(CHIPS42, {}), (CHIPS42, {"all_pass": "reshuffle"}),
                                          (MOON, {})])
def test_chips_are_conserved_over_many_random_hands(ref, options):
    """What one seat pays another receives: after every hand the chips add up to the stakes, and
    each seat's chips are what it had, plus what it was paid, less what it paid."""
    hands = 0
    for seed in range(25):
        g, st, events = _match(ref, seed, **options)
        n = g.definition.seat_count
        stake = g.definition.match.stake
        chips = [stake] * n
        for ev in _hands(events):
            hands += 1
            for p in ev["paid"]:
                assert p["from"] != p["to"] and p["chips"] > 0
                chips[p["from"]] -= p["chips"]
                chips[p["to"]] += p["chips"]
            assert ev["chips"] == chips and sum(chips) == stake * n
        assert st.ctx.chips == chips
        assert [e for e in events if e["type"] == "match"][0]["chips"] == chips
    assert hands > 150


def _owed(ev) -> int:
    """The fixture's Taroky-shaped formula: the losers' points from 21, add ten, double it, a
    tenth, rounded to the chip (and at least one)."""
    bidder_side = ev["bidder"] % 2
    losers = ev["points"][1 - bidder_side] if ev["made"] else ev["points"][bidder_side]
    return max(1, ((21 - losers + 10) * 2 + 5) // 10)


def test_each_loser_pays_one_winner_and_the_others_pay_a_bonus():
    """The k-th seat (in seat order) of the side that lost the hand pays the k-th seat of the
    side that won it the formula's chips; a Nello bidder, alone, is paid by each of the other
    three (or pays each) three times that, as a Taroky prever settles; a made marks bid is paid
    a chip a mark by each of the other three seats, partner included; and a seat dealt four
    doubles or more is paid two chips by each of the other three (an announced holding)."""
    nello = announced = 0
    for seed in range(8):
        _, _, events = _match(CHIPS42, seed)
        dealt = None
        for ev in events:
            if ev["type"] == "deal":
                dealt = ev["dealt"]
            if ev["type"] != "hand":
                continue
            nello += ev["contract"] == "nello"
            won = [s for s in range(4) if ev["made"] == (s % 2 == ev["bidder"] % 2)]
            lost = [s for s in range(4) if s not in won]
            b = ev["bidder"]
            if ev["contract"] == "nello":  # alone against three: settles with each, trebled
                pairs = [(s, b) if ev["made"] else (b, s) for s in range(4) if s != b]
                want = [{"from": x, "to": y, "chips": 3 * _owed(ev), "for": "hand"}
                        for x, y in pairs]
            else:
                want = [{"from": x, "to": y, "chips": _owed(ev), "for": "hand"}
                        for x, y in zip(lost, won)]
            want.sort(key=lambda p: p["from"])
            if ev["made"] and ev["contract"] == "marks":
                want += [{"from": s, "to": ev["bidder"], "chips": int(ev["bid"]) // 42,
                          "for": "marks_bonus"} for s in range(4) if s != ev["bidder"]]
            doubles = [s for s in range(4)
                       if sum(1 for t in dealt[s] if t.split("-")[0] == t.split("-")[1]) >= 4]
            announced += len(doubles)
            want += [{"from": s, "to": d, "chips": 2, "for": "doubles"}
                     for s in range(4) for d in doubles if s != d]
            assert ev["paid"] == want
    assert nello > 0 and announced > 0


def test_the_formula_at_a_glance():
    """Taroky's example with 42's numbers: 'thirty-six points lost is five chips' is, from 53,
    (53 - 36 + 10) * 2 / 10 = 5.4, rounded to 5; from 21, losers with 4 points pay the same."""
    assert _owed({"bidder": 0, "made": True, "points": [38, 4]}) == 5


@pytest.mark.parametrize("seed", range(4))
def test_a_bidder_alone_settles_with_each_of_the_others(seed):
    """Moon: paid the bid's level by each of the other two when made, paying it to each when set."""
    _, _, events = _match(MOON, seed)
    for ev in _hands(events):
        b = ev["bidder"]
        others = [s for s in range(3) if s != b]
        amounts = {p["chips"] for p in ev["paid"]}
        assert len(amounts) == 1
        if ev["made"]:
            assert [(p["from"], p["to"]) for p in ev["paid"]] == [(s, b) for s in others]
        else:
            assert [(p["from"], p["to"]) for p in ev["paid"]] == [(b, s) for s in others]


@pytest.mark.parametrize("hands", [1, 3, 8])
def test_a_match_of_a_fixed_number_of_hands(hands):
    """The match ends after exactly `hands` hands scored (a thrown-in deal is not one), and goes
    to the sides with the most chips (a side's seats together)."""
    for seed in range(6):
        g, st, events = _match(CHIPS42, seed, hands=hands, all_pass="reshuffle")
        m = [e for e in events if e["type"] == "match"][0]
        assert m["hands_scored"] == hands == len([e for e in _hands(events)
                                                  if not e.get("thrown_in")])
        assert m["deals"] >= hands
        per_side = [sum(m["chips"][s] for s in side) for side in g.definition.sides]
        assert m["winner"] == [i for i, v in enumerate(per_side) if v == max(per_side)]


def test_chips_below_zero_can_end_the_match():
    """The fixture's below_zero option, written in match_over with chips(seat): with a stake of
    0 the match ends after the first hand in which anybody pays; allowed, it goes on."""
    for seed in range(5):
        _, _, events = _match(CHIPS42, seed, stake=0, below_zero="ends_match")
        hands = _hands(events)
        first = next(i for i, ev in enumerate(hands) if ev["paid"])
        assert len(hands) == first + 1 and min(hands[-1]["chips"]) < 0
        _, _, events = _match(CHIPS42, seed, stake=0)
        assert len(_hands(events)) == 8


def test_a_seats_chips_are_in_its_observation():
    g = load_game(MOON)
    st = g.new_match(first_dealer=0)
    rng = random.Random(3)
    while st.ctx.hands_played < 2:
        if st.is_chance_node():
            st.deal_random(rng)
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    assert st.observation(1)["chips"] == st.ctx.chips and sum(st.ctx.chips) == 150
    assert "chips" not in load_game("moon").new_match().observation(0)


def test_replay_says_who_paid_whom_and_rejects_a_changed_payment(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("simulate", CHIPS42, "--games", "2", "--seed", "3", "--record", "g.jsonl", "--record-detail", "full",
            "--agents", "random", "--no-progress")
    assert r.exit_code == 0, r.output
    assert "chips at the end" in r.stdout
    r = cli("replay", "g.jsonl")
    assert r.exit_code == 0, r.output
    assert re.search(r"^  (North|East|South|West) pays (North|East|South|West) \d+ chips? "
                     r"\(hand\)$", r.stdout, re.M)
    assert re.search(r"^Game over: chips North -?\d+, East", r.stdout, re.M)
    lines = [json.loads(x) for x in (tmp_path / "g.jsonl").read_text().splitlines()]
    i = next(i for i, x in enumerate(lines) if x["type"] == "hand" and x["paid"])
    lines[i]["paid"][0]["chips"] += 1
    (tmp_path / "g.jsonl").write_text("".join(json.dumps(x, separators=(",", ":")) + "\n"
                                              for x in lines))
    r = cli("replay", "g.jsonl")
    assert r.exit_code == 1
    assert re.search(rf"^g\.jsonl:{i + 1}:1: error: the hand line says paid = ", r.stderr, re.M)


def test_a_negative_payment_is_a_located_error(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(f"name: bad\ntitle: bad\nextends: {MOON}\nscoring:\n  chips:\n    stake: 5\n"
                 "    pays:\n      back: \"0 - 1\"\n")
    r = cli("simulate", str(f), "--games", "1", "--agents", "cautious", "--no-progress")
    assert r.exit_code != 0
    assert re.search(r"bad\.yaml:8:\d+: error: scoring\.chips\.pays\.back gave -1 chips for "
                     r"\w+ to pay \w+: a payment is 0 or more", r.output), r.output


def test_simulate_and_compare_report_chips(tmp_path):
    """simulate gives each seat's chips at the end; compare (A playing B) the chips each side won
    net per hand, and the wins go by the chips."""
    r = cli("simulate", MOON, "--games", "6", "--agents", "cautious", "--format", "json",
            "--no-progress")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert set(d["chips_by_seat"]) == {"0", "1", "2"}
    assert abs(sum(v["mean"] for v in d["chips_by_seat"].values()) - 150) < 0.1
    r = cli("compare", CHIPS42, "--agents", "random", "--vs", "--agents", "cautious", "--games",
            "4", "--no-progress")
    assert r.exit_code == 0, r.output
    nets = re.findall(r"won (-?\d+\.\d+) chips net per hand by its side", r.stdout)
    assert len(nets) == 2 and float(nets[0]) == -float(nets[1])


def test_mistakes_in_chips_and_seat_order_are_located(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("name: bad\ntitle: bad\nextends: texas42\nseats: {order: anticlockwise}\n"
                 "scoring:\n  chips:\n    stake: 10\n    pays: {x: \"payr + 1\"}\n")
    r = cli("validate", str(f))
    assert r.exit_code == 1
    assert "bad.yaml:4:16: error: seats.order: expected one of 'clockwise', " in r.output
    f.write_text("name: bad\ntitle: bad\nextends: texas42\n"
                 "scoring:\n  chips:\n    stake: 10\n    pays: {x: \"payr + 1\"}\n")
    r = cli("validate", str(f))
    assert "bad.yaml:7:16: error: unknown name 'payr' in scoring.chips.pays.x (did you mean " \
           "'payer'?)" in r.output
