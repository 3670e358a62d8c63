"""Invariants of single Texas 42 hands under random legal play, 2,000 hands per contract.

Each hand is dealt from a seeded generator and its auction is steered so that only bids of the
wanted contract are made; declarations and play are random among the legal actions. Every play
and every trick is checked against the engine's own tables and against an independent model of
the rules (t42_oracle), and each hand's result against the trick events it recorded.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tablerules.engine.state import AUCTION, DECLARE, LEAD, PLAY
from tablerules.game import load_game

from t42_oracle import HAND_POINTS, Rules, partner, piece, side_of, trick_points

HANDS_PER_CONTRACT = 2000
CONTRACTS = ["points", "marks", "nello", "sevens"]


@pytest.fixture(scope="module")
def game():
    return load_game("texas42")


def random_deal(rng: random.Random, n_pieces: int) -> list[list[int]]:
    order = list(range(n_pieces))
    rng.shuffle(order)
    return [sorted(order[7 * s:7 * s + 7]) for s in range(4)]


def play_hand(game, rng: random.Random, target: str):
    """One hand steered to `target`; returns the state, the deal and a log of every play."""
    gd = game.definition
    name = gd.action_to_string
    deal = random_deal(rng, len(gd.pieces))
    dealer = rng.randrange(4)
    st = game.new_hand(deal, dealer, record=True)
    plays = []  # (seat, action, legal, hand mask before, trick before, led index, tables)
    bids_made = []
    bid_contract = {b.action: b.contract_name for b in gd.bids[1:]}  # "bid 30" is a points bid
    while not st.is_terminal():
        legal = st.legal_actions()
        assert legal, "a decision with no legal action"
        assert list(legal) == sorted(set(legal)), "legal actions are sorted and distinct"
        ph = st.phase
        if ph == AUCTION:
            wanted = [a for a in legal if bid_contract.get(a) == target]
            if wanted and (not bids_made or rng.random() < 0.5):
                a = rng.choice(wanted)
                bids_made.append((st.actor, name(a)))
            else:
                assert "pass" in [name(x) for x in legal], f"{st.actor} may not pass"
                a = next(x for x in legal if name(x) == "pass")
        elif ph == PLAY:
            a = rng.choice(legal)
            plays.append((st.actor, a, legal, st.hands[st.actor], tuple(st.trick), st.led, st.tables))
        else:
            assert ph in (DECLARE, LEAD)
            a = rng.choice(legal)
        st.apply_action(a)
    return st, deal, dealer, plays, bids_made


def check_hand(game, target, st, deal, dealer, plays, bids_made, stats) -> None:
    gd = game.definition
    names = gd.pieces.names
    ev = st.events
    kinds = [e["type"] for e in ev]
    assert kinds[0] == "deal" and kinds[1] == "contract" and kinds[-1] == "hand", kinds
    assert set(kinds[2:-1]) <= {"trick"}, kinds

    # -- the deal: every piece exactly once --------------------------------------------------
    dealt = ev[0]["dealt"]
    assert dealt == [[names[t] for t in h] for h in deal]
    flat = [p for h in dealt for p in h]
    assert len(flat) == len(set(flat)) == len(names) == 28
    assert sorted(flat) == sorted(names)
    held = {s: {piece(p) for p in h} for s, h in enumerate(dealt)}

    # -- the contract --------------------------------------------------------------------------
    con, hand_ev = ev[1], ev[-1]
    assert con["contract"] == target == hand_ev["contract"]
    assert bids_made, "the steered auction made no bid"
    bidder, last_bid = bids_made[-1]
    assert f"bid {con['bid']}" == last_bid and con["bidder"] == bidder == hand_ev["bidder"]
    level = gd.bids[st.bid].level
    trump = hand_ev["declarations"]["trump"]
    if target in ("points", "marks"):
        assert trump in (0, 1, 2, 3, 4, 5, 6, "doubles", "followme"), trump
    else:
        assert trump == "none", trump
    rules = Rules(target, trump)
    bside = side_of(bidder)
    active = [s for s in range(4) if not (target == "nello" and s == partner(bidder))]
    assert con["playing"] == active

    # -- every play: legal, from the player's hand, following suit -----------------------------
    played = Counter()
    for seat, a, legal, mask, trick_before, led, tables in plays:
        assert a in legal
        assert mask >> a & 1, f"{names[a]} is not in seat {seat}'s hand"
        assert seat in active
        t = piece(names[a])
        assert t in held[seat]
        played[a] += 1
        hand = [piece(names[i]) for i in range(len(names)) if mask >> i & 1]
        trick = [piece(names[i]) for i in trick_before]
        assert {piece(names[x]) for x in legal} == rules.legal(hand, trick), (
            f"legal plays differ from the rules: {target} trump {trump}, hand {hand}, trick {trick}")
        if trick_before and tables.must_follow and led >= 0:
            follow = tables.follow_mask[led]
            if mask & follow:
                assert follow >> a & 1, f"seat {seat} held a follower of {tables.suits[led]} but played {names[a]}"
    assert all(n == 1 for n in played.values()), "a piece was played twice"

    # -- every trick: order, winner, points --------------------------------------------------
    tricks = [e for e in ev if e["type"] == "trick"]
    pts = [0, 0]
    trk = [0, 0]
    leader = bidder
    i = 0
    for k, tr in enumerate(tricks, 1):
        assert tr["n"] == k
        seats = [s for s, _ in tr["plays"]]
        assert len(seats) == len(active)
        start = active.index(leader)
        assert seats == active[start:] + active[:start], "play is not in turn from the leader"
        pieces = [piece(p) for _, p in tr["plays"]]
        # the log of plays and the trick events tell the same story
        assert [(s, names[a]) for s, a, *_ in plays[i:i + len(seats)]] == [tuple(x) for x in tr["plays"]]
        tables = plays[i][6]
        led_idx = tables.lead[plays[i][1]]
        i += len(seats)
        assert tr["led"] == tables.suits[led_idx] == rules.led_suit(pieces[0])
        ranks = [tables.rank[led_idx][gd.pieces.by_ends[p]] for p in pieces]
        by_table = ranks.index(max(ranks))
        assert tr["winner"] == seats[by_table], "the winner is not the first of the highest rank"
        assert tr["winner"] == seats[rules.winner(pieces)], (
            f"{target} trump {trump}: {tr['plays']} taken by {tr['winner']}")
        assert tr["points"] == trick_points(pieces)
        pts[side_of(tr["winner"])] += tr["points"]
        trk[side_of(tr["winner"])] += 1
        leader = tr["winner"]
        # the early end: the outcome was not certain before the last trick
        over = rules.over(level, pts[bside], pts[1 - bside], trk[bside], trk[1 - bside])
        if k < len(tricks):
            assert not over, f"the hand went on after trick {k} though its outcome was certain"
    assert i == len(plays)
    n_played = sum(played.values())
    all_played = n_played == 7 * len(active)
    assert over or all_played, "the hand ended before its outcome was certain"
    assert hand_ev["ended_after_trick"] == len(tricks)
    assert hand_ev["points"] == pts and hand_ev["tricks"] == trk
    if n_played == 28:
        assert sum(pts) == HAND_POINTS
        stats["all 28 played"] += 1
    assert sum(pts) <= HAND_POINTS
    if target == "nello":
        assert not any(names[a] in ev[0]["dealt"][partner(bidder)] for a in played)

    # -- the result ----------------------------------------------------------------------------
    made = rules.made(level, pts[bside], trk[bside], trk[1 - bside])
    assert hand_ev["made"] == made
    marks = hand_ev["scored"]
    winners = [s for s in (0, 1) if marks[s]]
    assert len(winners) == 1, f"marks {marks} do not go to exactly one side"
    assert marks[winners[0]] == rules.marks(level)
    assert winners[0] == (bside if made else 1 - bside)
    assert hand_ev["score"] == marks
    stats["made" if made else "set"] += 1
    stats["early" if not all_played else "full"] += 1
    stats[f"tricks {len(tricks)}"] += 1


@pytest.mark.parametrize("target", CONTRACTS)
def test_random_hands_keep_the_invariants(game, target):
    rng = random.Random(f"invariants:{target}")
    stats = Counter()
    for _ in range(HANDS_PER_CONTRACT):
        st, deal, dealer, plays, bids = play_hand(game, rng, target)
        check_hand(game, target, st, deal, dealer, plays, bids, stats)
    assert stats["made"] + stats["set"] == HANDS_PER_CONTRACT
    # the checks were not vacuous: both outcomes, and both early and complete hands, occurred
    assert stats["set"] > 0
    if target != "nello":
        assert stats["made"] > 0 and stats["all 28 played"] > 0
    if target in ("points", "marks", "sevens"):
        assert stats["early"] > 0
