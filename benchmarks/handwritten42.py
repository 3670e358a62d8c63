"""Hand-written baseline engine: ONE hand of straight Texas 42, uniformly random legal play.

This is the comparison baseline for the tablerules interpreter benchmark. It does not import
tablerules. It is written the way a competent Python programmer writes a plain, reasonably
fast engine: tiles are ints, per-trump lookup tables are precomputed once at import, the play
loop uses plain lists. No bit tricks, no caching of random draws, no C extensions.

Rules implemented (see benchmarks/README.md):
  * one-round auction starting left of the dealer; each seat passes or bids once.
    Point bids 30..42 must beat the standing high bid; a marks bid of m marks ranks 42*m and
    beats every point bid. With no marks bid standing the only marks bid on offer is 2; with
    an m-mark bid standing the only legal bid is m+1. If the first three pass the dealer is
    stuck and must bid (no pass). Every decision is uniform over pass + legal bids.
  * the winner names trump uniformly among 0..6, doubles, follow-me (no trump).
  * bidder leads; lead suit: trump tile -> trump; otherwise the higher end (a non-trump
    double leads its own number). A tile with the trump number is trump only. Follow suit if
    able, else anything. Highest trump wins, else highest of the suit led (double highest,
    then by the other end); doubles-trump ranks doubles by pip.
  * count 5-5, 6-4 = 10; 5-0, 4-1, 3-2 = 5; +1 per trick (42 per hand).
  * early end as soon as the outcome is certain (point bid: made when bidders >= bid, set
    when defenders > 42 - bid; marks bid: set on any defenders' trick, made after 7 tricks).

Run `python benchmarks/handwritten42.py --check 2000` for the self-check.
"""

from __future__ import annotations

import random
import sys
from typing import NamedTuple

# ---------------------------------------------------------------------------------------------
# tiles

TILES: list[tuple[int, int]] = [(hi, lo) for hi in range(7) for lo in range(hi + 1)]
TILE_ID: dict[tuple[int, int], int] = {t: i for i, t in enumerate(TILES)}
HI = [t[0] for t in TILES]
LO = [t[1] for t in TILES]
COUNT = [(h + l) if (h + l) in (5, 10) else 0 for h, l in TILES]

DOUBLES = 7  # trump code for "doubles are trump"
FOLLOW_ME = 8  # trump code for "no trump"
TRUMP_CHOICES = list(range(9))  # 0..6 pips, 7 doubles, 8 follow-me
TRUMP_NAMES = ["blanks", "aces", "deuces", "treys", "fours", "fives", "sixes", "doubles", "follow-me"]
TRUMP_SUIT = 7  # suit code of "trump led"; pip suits are 0..6

PASS = 0


def tile_id(t: tuple[int, int]) -> int:
    hi, lo = t
    if hi < lo:
        hi, lo = lo, hi
    return hi * (hi + 1) // 2 + lo


# ---------------------------------------------------------------------------------------------
# per-trump tables


def _is_trump(trump: int, tile: int) -> bool:
    h, l = HI[tile], LO[tile]
    if trump < 7:
        return h == trump or l == trump
    if trump == DOUBLES:
        return h == l
    return False


def _in_suit(trump: int, suit: int, tile: int) -> bool:
    if suit == TRUMP_SUIT:
        return _is_trump(trump, tile)
    return not _is_trump(trump, tile) and (HI[tile] == suit or LO[tile] == suit)


def _rank_in_suit(trump: int, suit: int, tile: int) -> int:
    """Rank of a tile that belongs to `suit` (higher wins): double 7, else the other end."""
    h, l = HI[tile], LO[tile]
    if suit == TRUMP_SUIT and trump == DOUBLES:
        return h
    if h == l:
        return 7
    s = trump if suit == TRUMP_SUIT else suit
    return l if h == s else h


def _build_tables():
    lead = []  # lead[trump][tile] -> suit led
    follow = []  # follow[trump][suit][tile] -> bool (tile belongs to suit)
    score = []  # score[trump][suit][tile] -> trick strength (0 = cannot win)
    for trump in TRUMP_CHOICES:
        lead.append([TRUMP_SUIT if _is_trump(trump, t) else HI[t] for t in range(28)])
        f_rows, s_rows = [], []
        for suit in range(8):
            f_rows.append([_in_suit(trump, suit, t) for t in range(28)])
            row = []
            for t in range(28):
                if _is_trump(trump, t):
                    row.append(100 + _rank_in_suit(trump, TRUMP_SUIT, t))
                elif _in_suit(trump, suit, t):
                    row.append(10 + _rank_in_suit(trump, suit, t))
                else:
                    row.append(0)
            s_rows.append(row)
        follow.append(f_rows)
        score.append(s_rows)
    return lead, follow, score


LEAD, FOLLOW, SCORE = _build_tables()

# ---------------------------------------------------------------------------------------------
# auction


def legal_bids(high: int, stuck: bool) -> list[int]:
    """Actions for a seat given the standing high bid (0 = none). Bids are encoded by rank:
    point bid p -> p (30..42), marks bid m -> 42*m. PASS (0) first unless the dealer is stuck."""
    acts = [] if stuck else [PASS]
    if high < 84:
        acts.extend(range(max(30, high + 1), 43))
        acts.append(84)
    else:
        acts.append(high + 42)
    return acts


# ---------------------------------------------------------------------------------------------
# one hand


class HandResult(NamedTuple):
    bidder: int  # seat
    bid: int  # rank value: 30..42, or 42*m for an m-mark bid
    marks_bid: int  # m for a marks bid, 0 for a point bid
    trump: int  # 0..6, 7 doubles, 8 follow-me
    points: tuple[int, int]  # points per team (team = seat % 2)
    made: bool
    marks: int  # marks scored (by the bidders if made, by the defenders if set)
    tricks: int  # tricks played


def play_hand(deal, dealer: int, rng: random.Random, early_end: bool = True, log=None) -> HandResult:
    """Play one hand. `deal` is 4 lists of 7 (hi, lo) tuples. If `log` is a list, each trick
    is appended as (leader, [tile ids in play order], winner) (used by the self-check)."""
    hands = [[tile_id(t) for t in h] for h in deal]
    choice = rng.choice

    # auction
    high = 0
    bidder = -1
    for i in range(4):
        seat = (dealer + 1 + i) & 3
        bid = choice(legal_bids(high, i == 3 and high == 0))
        if bid:
            high = bid
            bidder = seat
    marks_bid = high // 42 if high >= 84 else 0

    # trump
    trump = choice(TRUMP_CHOICES)
    lead_of = LEAD[trump]
    follow_of = FOLLOW[trump]
    score_of = SCORE[trump]

    # tricks
    bteam = bidder & 1
    pts = [0, 0]
    leader = bidder
    tricks = 0
    made = None
    while tricks < 7:
        h = hands[leader]
        tile = choice(h)
        h.remove(tile)
        suit = lead_of[tile]
        fol = follow_of[suit]
        sc = score_of[suit]
        best = sc[tile]
        winner = leader
        won = 1 + COUNT[tile]
        played = [tile] if log is not None else None
        for k in (1, 2, 3):
            seat = (leader + k) & 3
            h = hands[seat]
            legal = [t for t in h if fol[t]] or h
            tile = choice(legal)
            h.remove(tile)
            won += COUNT[tile]
            if played is not None:
                played.append(tile)
            if sc[tile] > best:
                best = sc[tile]
                winner = seat
        if log is not None:
            log.append((leader, played, winner))
        pts[winner & 1] += won
        tricks += 1
        leader = winner
        if early_end:
            if marks_bid:
                if winner & 1 != bteam:
                    made = False
                    break
            elif pts[bteam] >= high:
                made = True
                break
            elif pts[bteam ^ 1] > 42 - high:
                made = False
                break

    if made is None:  # all seven tricks played
        made = pts[bteam] == 42 if marks_bid else pts[bteam] >= high
    return HandResult(bidder, high, marks_bid, trump, (pts[0], pts[1]), made,
                      marks_bid or 1, tricks)


def play_hands(deals, dealers, rng: random.Random) -> list[HandResult]:
    return [play_hand(d, dl, rng) for d, dl in zip(deals, dealers)]


# ---------------------------------------------------------------------------------------------
# self-check (independent, slow re-derivation of the rules from the trick log)


def _ref_trump(trump, t):
    h, l = t
    return (trump < 7 and trump in t) or (trump == DOUBLES and h == l)


def _ref_suit_of_lead(trump, t):
    return "T" if _ref_trump(trump, t) else max(t)


def _ref_follows(trump, led, t):
    if led == "T":
        return _ref_trump(trump, t)
    return not _ref_trump(trump, t) and led in t


def _ref_key(trump, led, t):
    """Sort key for trick winner, written separately from the tables."""
    h, l = t
    if _ref_trump(trump, t):
        if trump == DOUBLES:
            return (2, h, 0)
        other = l if h == trump else h
        return (2, 1 if h == l else 0, other)
    if _ref_follows(trump, led, t):
        other = l if h == led else h
        return (1, 1 if h == l else 0, other)
    return (0, 0, 0)


def _ref_count(t):
    return {(5, 5): 10, (6, 4): 10, (5, 0): 5, (4, 1): 5, (3, 2): 5}.get(tuple(t), 0)


def _check_hand(deal, dealer, seed):
    hands0 = [[tuple(t) for t in h] for h in deal]
    all_tiles = sorted(t for h in hands0 for t in h)
    assert all_tiles == sorted(TILES), "deal is not the 28-tile set"

    # replay the auction and trump choice with a reference rule and the same random stream
    rr = random.Random(seed)
    high, want_bidder = 0, -1
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        acts = [] if (i == 3 and high == 0) else [PASS]  # dealer stuck: no pass
        if high < 42 * 2:
            acts += [p for p in range(30, 43) if p > high] + [42 * 2]  # points, or open 2 marks
        else:
            acts += [high + 42]  # exactly one more mark
        b = rr.choice(acts)
        if b:
            high, want_bidder = b, seat
    want_trump = rr.choice(range(9))

    results = []
    for early in (True, False):
        log = []
        r = play_hand(deal, dealer, random.Random(seed), early_end=early, log=log)
        results.append((r, log))
        hands = [list(h) for h in hands0]
        seen = set()
        pts = [0, 0]
        leader = r.bidder
        assert 30 <= r.bid <= 42 or (r.bid % 42 == 0 and r.bid >= 84), r
        assert r.marks_bid == (r.bid // 42 if r.bid >= 84 else 0)
        assert (r.bidder, r.bid, r.trump) == (want_bidder, high, want_trump), "auction/trump differ"
        for i, (ldr, played, winner) in enumerate(log):
            assert ldr == leader, "wrong leader"
            assert len(played) == 4
            tiles = [TILES[x] for x in played]
            led = _ref_suit_of_lead(r.trump, tiles[0])
            for k, t in enumerate(tiles):
                seat = (ldr + k) % 4
                assert t not in seen, f"tile {t} played twice"
                seen.add(t)
                assert t in hands[seat], f"seat {seat} does not hold {t}"
                if k:
                    can = [u for u in hands[seat] if _ref_follows(r.trump, led, u)]
                    assert not can or _ref_follows(r.trump, led, t), (
                        f"revoke: trump={r.trump} led={led} seat {seat} played {t} holding {can}")
                hands[seat].remove(t)
            keys = [_ref_key(r.trump, led, t) for t in tiles]
            assert keys[0][0] >= 1
            w = (ldr + keys.index(max(keys))) % 4
            assert w == winner, f"wrong winner: trump={r.trump} tiles={tiles} got {winner} want {w}"
            pts[w % 2] += 1 + sum(_ref_count(t) for t in tiles)
            leader = w
        assert tuple(pts) == r.points, (pts, r.points)
        assert r.tricks == len(log)
        bt = r.bidder % 2
        if r.tricks == 7:
            assert sum(pts) == 42, f"full hand totals {sum(pts)}"
        if not early:
            assert r.tricks == 7
            want = pts[bt] == 42 if r.marks_bid else pts[bt] >= r.bid
            assert r.made == want
        else:
            # stopped exactly when the outcome became certain, not before
            def decided(p, n):
                if r.marks_bid:
                    return n == 7 or any(wn % 2 != bt for _, _, wn in log[:n])
                return p[bt] >= r.bid or p[1 - bt] > 42 - r.bid or n == 7
            p = [0, 0]
            for n, (_, played, wn) in enumerate(log, 1):
                p[wn % 2] += 1 + sum(_ref_count(TILES[x]) for x in played)
                assert decided(p, n) == (n == len(log)), "early end at the wrong trick"
        assert r.marks == (r.marks_bid or 1)
    (re, le), (rf, lf) = results
    # same seed => identical choices up to the early stop; the outcome must already be final
    assert lf[:len(le)] == le
    assert (re.bidder, re.bid, re.trump) == (rf.bidder, rf.bid, rf.trump)
    assert re.made == rf.made, "early-end outcome differs from the played-out outcome"
    return re


def self_check(n: int, seed: int = 12345) -> None:
    sys.path.insert(0, __file__.rsplit("/", 1)[0] if "/" in __file__ else ".")
    from deals import make_deals

    deals = make_deals(n, seed)
    stats = {"tricks": 0, "made": 0, "marks_bids": 0, "full": 0, "stuck": 0}
    trumps = [0] * 9
    for i, deal in enumerate(deals):
        r = _check_hand(deal, i % 4, seed * 1_000_003 + i)
        stats["tricks"] += r.tricks
        stats["made"] += r.made
        stats["marks_bids"] += bool(r.marks_bid)
        stats["full"] += r.tricks == 7
        stats["stuck"] += r.bidder == i % 4
        trumps[r.trump] += 1
    # auction sanity: dealer is forced to bid when the others pass
    rng = random.Random(seed)
    for _ in range(2000):
        assert PASS not in legal_bids(0, True)
        high = rng.choice([0] + list(range(30, 43)) + [84, 126, 168])
        acts = legal_bids(high, False)
        assert acts[0] == PASS and all(a > high for a in acts[1:])
        if high >= 84:
            assert acts[1:] == [high + 42]
    print(f"self-check OK: {n} hands; mean tricks {stats['tricks'] / n:.2f}, "
          f"made {stats['made'] / n:.1%}, marks bids {stats['marks_bids'] / n:.1%}, "
          f"played to 7 tricks {stats['full'] / n:.1%}, dealer won bid {stats['stuck'] / n:.1%}, "
          f"trump counts {trumps}")


def _main(argv=None) -> int:
    import harness  # only when run as a script: the engine itself stays standalone
    return harness.baseline_main(__doc__.splitlines()[0], play_hands, self_check, argv)


if __name__ == "__main__":
    sys.exit(_main())
