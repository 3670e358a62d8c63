"""Whole matches of Texas 42 through `records.runner.simulate`, under several option combinations.

300 matches per combination; the record of each is read back and every match must end with
one side at `marks_to_win` or more, every hand must give its marks to one side, every deal
must hand out each piece once, and every trick must follow the rules (t42_oracle).
"""

from __future__ import annotations

import io
import json

import pytest

from tablerules.game import load_game
from tablerules.records.runner import simulate

from t42_oracle import HAND_POINTS, Rules, partner, piece, side_of, trick_points

MATCHES = 300

COMBOS = [
    {},
    {"min_bid": 32},
    {"all_pass": "reshuffle"},
    {"nello_doubles": "low"},
    {"nello_doubles": "suit"},
    {"marks_to_win": 1},
    {"marks_to_win": 11},
    {"min_bid": 32, "all_pass": "reshuffle", "nello_doubles": "suit", "marks_to_win": 11},
]


def ids(combo: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in combo.items()) or "defaults"


def split_games(lines: list[dict]) -> list[list[dict]]:
    games: list[list[dict]] = []
    assert lines[-1]["type"] == "end"
    for rec in lines[1:-1]:
        if rec["type"] == "game":
            games.append([])
        games[-1].append(rec)
    return games


def check_match(recs: list[dict], opts: dict, n_pieces: int, stats: dict) -> None:
    assert recs[0]["type"] == "game" and recs[-1]["type"] == "match"
    assert [r["type"] for r in recs].count("match") == 1
    marks_to_win = opts["marks_to_win"]
    score = [0, 0]
    deals = 0
    hands = 0
    dealer = None
    auction: list[dict] = []
    contract = None
    tricks: list[dict] = []
    deal = None
    for r in recs[1:-1]:
        t = r["type"]
        if t == "deal":
            deals += 1
            assert r["hand"] == hands + 1
            flat = [p for h in r["dealt"] for p in h]
            assert len(flat) == len(set(flat)) == n_pieces, "a deal gave a piece twice or left one out"
            assert all(len(h) == 7 for h in r["dealt"])
            if dealer is not None:
                assert r["dealer"] == (dealer + 1) % 4, "the deal does not pass to the left"
            dealer = r["dealer"]
            deal, auction, contract, tricks = r, [], None, []
        elif t == "decision":
            assert r["action"] in r["legal"]
            if contract is None and len(auction) < 4:  # one round; then declarations
                auction.append(r)
        elif t == "contract":
            contract = r
            check_auction(auction, r, dealer, opts)
        elif t == "trick":
            tricks.append(r)
        elif t == "hand":
            assert r["dealer"] == dealer
            assert max(score) < marks_to_win, "a hand was played after the match was won"
            if r.get("thrown_in"):
                assert opts["all_pass"] == "reshuffle", "a hand was thrown in though the dealer is stuck"
                assert contract is None and len(auction) == 4
                assert all(d["action"] == "pass" for d in auction)
                stats["thrown in"] += 1
            else:
                hands += 1
                check_hand(deal, contract, tricks, r, opts)
                for s in (0, 1):
                    score[s] += r["scored"][s]
            assert r["score"] == score and r["hand"] == deal["hand"] == hands + bool(r.get("thrown_in"))
        else:
            pytest.fail(f"unexpected record line inside a game: {r}")
    m = recs[-1]
    assert m["score"] == score and m["hands_scored"] == hands and m["deals"] == deals
    assert max(score) >= marks_to_win, f"the match ended at {score} before {marks_to_win} marks"
    assert len(m["winner"]) == 1 and score[m["winner"][0]] == max(score)
    assert min(score) < marks_to_win, "the match went on after a side had won"
    stats["matches"] += 1
    stats["hands"] += hands


def check_auction(auction: list[dict], con: dict, dealer: int, opts: dict) -> None:
    assert [d["seat"] for d in auction] == [(dealer + 1 + i) % 4 for i in range(4)]
    bids = [d["action"] for d in auction if d["action"] != "pass"]
    assert bids and f"bid {con['bid']}" == bids[-1]
    assert [d["seat"] for d in auction if d["action"] != "pass"][-1] == con["bidder"]
    for d in auction:
        for a in d["legal"]:
            if a.startswith("bid ") and a[4:].isdigit() and int(a[4:]) <= 42:  # a point bid
                assert int(a[4:]) >= opts["min_bid"]
    if all(d["action"] == "pass" for d in auction[:3]):
        # the dealer is stuck at the minimum bid (reshuffle: the dealer may pass as well)
        if opts["all_pass"] == "stuck":
            assert auction[3]["legal"] == [f"bid {opts['min_bid']}"]


def check_hand(deal: dict, con: dict, tricks: list[dict], hand: dict, opts: dict) -> None:
    kind = con["contract"]
    assert hand["contract"] == kind and hand["bid"] == con["bid"] and hand["bidder"] == con["bidder"]
    trump = hand["declarations"]["trump"]
    rules = Rules(kind, trump, opts["nello_doubles"])
    bidder = con["bidder"]
    bside = side_of(bidder)
    level = int(con["bid"].split()[-1])  # "30", "84" (two marks: 42 a mark), "nello 2"
    if con["contract"] == "marks":
        level //= 42
    active = [s for s in range(4) if not (kind == "nello" and s == partner(bidder))]
    assert con["playing"] == active
    held = {s: [piece(p) for p in h] for s, h in enumerate(deal["dealt"])}
    pts, trk = [0, 0], [0, 0]
    leader = bidder
    over = False
    for k, tr in enumerate(tricks, 1):
        assert not over, "the hand went on after its outcome was certain"
        seats = [s for s, _ in tr["plays"]]
        start = active.index(leader)
        assert seats == active[start:] + active[:start]
        trick = []
        for s, p in tr["plays"]:
            t = piece(p)
            assert t in rules.legal(held[s], trick), f"{kind} trump {trump}: {p} by {s} after {trick}"
            held[s].remove(t)
            trick.append(t)
        assert tr["led"] == rules.led_suit(trick[0])
        assert tr["winner"] == seats[rules.winner(trick)], f"{kind} trump {trump}: {tr}"
        assert tr["points"] == trick_points(trick)
        pts[side_of(tr["winner"])] += tr["points"]
        trk[side_of(tr["winner"])] += 1
        leader = tr["winner"]
        over = rules.over(level, pts[bside], pts[1 - bside], trk[bside], trk[1 - bside])
    assert over or len(tricks) == 7
    if len(tricks) == 7 and kind != "nello":
        assert sum(pts) == HAND_POINTS
    assert hand["points"] == pts and hand["tricks"] == trk
    assert hand["ended_after_trick"] == len(tricks)
    made = rules.made(level, pts[bside], trk[bside], trk[1 - bside])
    assert hand["made"] == made
    marks = hand["scored"]
    assert sorted(marks) == [0, rules.marks(level)]
    assert marks[bside if made else 1 - bside] == rules.marks(level)


@pytest.mark.parametrize("combo", COMBOS, ids=ids)
def test_matches_end_with_a_winner(combo):
    game = load_game("texas42", combo)
    opts = game.definition.options
    for k, v in combo.items():
        assert opts[k] == v
    out = io.StringIO()
    summary = simulate(game, games=MATCHES, seed=4242, out=out)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["options"] == opts
    games = split_games(lines)
    assert len(games) == MATCHES == summary.games
    stats = {"matches": 0, "hands": 0, "thrown in": 0}
    for recs in games:
        check_match(recs, opts, len(game.definition.pieces), stats)
    assert stats["matches"] == MATCHES
    assert stats["hands"] == summary.hands and stats["thrown in"] == summary.thrown_in
    assert sum(summary.side_wins.values()) == MATCHES


@pytest.mark.parametrize("all_pass", ["stuck", "reshuffle"])
@pytest.mark.parametrize("min_bid", [30, 32])
def test_all_pass(all_pass, min_bid):
    """Random bots rarely all pass, so the all-pass rule is driven directly on single hands."""
    game = load_game("texas42", {"all_pass": all_pass, "min_bid": min_bid})
    gd = game.definition
    name = gd.action_to_string
    deal = [list(range(7 * s, 7 * s + 7)) for s in range(4)]
    for dealer in range(4):
        st = game.new_hand(deal, dealer, record=True)
        for _ in range(3):
            st.apply_action(next(a for a in st.legal_actions() if name(a) == "pass"))
        assert st.actor == dealer
        legal = [name(a) for a in st.legal_actions()]
        if all_pass == "stuck":
            assert legal == [f"bid {min_bid}"]
            continue
        assert "pass" in legal and f"bid {min_bid}" in legal
        assert f"bid {min_bid - 1}" not in legal
        st.apply_action(gd.string_to_action("pass"))
        assert st.is_terminal()
        hand = st.events[-1]
        assert hand["type"] == "hand" and hand.get("thrown_in") is True
        assert hand["score"] == [0, 0] and "marks" not in hand
