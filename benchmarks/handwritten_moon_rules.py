"""Hand-written optimised Moon player: ONE hand, every seat playing the `moon` rules strategy.

The baseline of the batch engine's rules-agent target on `moon`: rulesets/moon.yaml with its
defaults, every seat choosing as rulesets/strategies/moon.yaml does with its default flags
(`widow_half` on), written by hand. It reuses handwritten_moon's pieces, action codes and
per-trump trick tables (pieces are ints 0..21, hands 22-bit masks) and does not import
tablerules (only --check does). A play rule's `choose` over a mask is two lookups: per-trump
tables over the low and high 11 bits hold the best piece of that half, encoded so that the
larger code is the higher key, ties to the lower piece (the strategy's "first legal action of
the highest key").

The strategy, as the rules agent reads it (agents/strategy.py; one legal action: that one):
  * strength(x) = 10 * (pieces showing x) + 6 if x-x is held + the other ends of those pieces;
    best = the lowest x of the highest strength (0..6) over the hand held now.
  * bid: halves = 2 * (trump_tricks(best) + walkers(best)) + 1 while the widow is unseen
    (7 pieces, stock 1), expect = halves // 2; the highest legal bid of level <= expect, the
    moon (level 7) only with halves >= 15; none: pass (the first legal action).
  * bury (8 pieces, best over them): 20 per end whose pip shows on exactly one piece outside
    best, -100 for a piece of best or a double, minus the pips; the highest key.
  * trump: strength(n) for 0..6, doubles 10 * doubles held + 2, follow-me 0; the highest key.
  * lead: the bidder, while the other two hold a trump, its highest-ranked trump; else the
    highest double off trump; else the lowest of -rank - 50 * trump. Follow: the lowest-ranked
    piece that beats the trick so far; else the highest of -rank - 50 * trump (rank under the
    suit led; a piece off suit and off trump ranks 0).

Run `python benchmarks/handwritten_moon_rules.py --check 2000` to compare every action and
result with the step engine's rules agent, `--hands N` to time it beside handwritten_moon's
random play and the step engine with the rules agent (same deals).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from operator import add

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import handwritten_moon as hm  # noqa: E402
from handwritten_moon import (BID, BURY, DOUBLES, FOLLOW, FOLLOW_ME, HI, LEAD, LO,  # noqa: E402
                              MOON, NEXT, NP, PASS, PIECE_ID, SCORE, THROWN_IN, TRUMP,
                              TRUMP_SUIT, HandResult, action_str, make_deals)

BITS = [1 << p for p in range(NP)]
# a piece's bit from (h, l) either way round, or from its id
BIT_OF = {**{t: 1 << p for t, p in PIECE_ID.items()}, **{p: 1 << p for p in range(NP)}}
SUITM = [sum(1 << p for p in range(NP) if x in (HI[p], LO[p])) for x in range(7)]  # has(t, x)
DBLM = sum(1 << p for p in range(NP) if HI[p] == LO[p])
DBL_BIT = [1 << PIECE_ID[(x, x)] for x in range(7)]
PIPS = [HI[p] + LO[p] for p in range(NP)]
WIDOW_HALVES = 1  # flag widow_half on: the unseen widow is half a trick
OFF = 100  # keeps every encoded key positive (the lowest key is -73)


_SHARED: dict = {}


def _shared(v):
    """One object per value: the tables' many equal ints (and tuples) share it, which keeps
    the tables small in the cache."""
    return _SHARED.setdefault(v, v)


def _half_sums(contrib):
    """lo[m], hi[m]: the sum of contrib[p] over the set bits of an 11-bit half."""
    out = []
    for off in (0, 11):
        t = [0] * 2048
        for m in range(1, 2048):
            low = m & -m
            t[m] = _shared(t[m ^ low] + contrib[low.bit_length() - 1 + off])
        out.append(t)
    return out


def _strength_of(x: int, p: int) -> int:
    """What piece p adds to strength(x): 10 for its length, 6 as the double, its other end."""
    h, l = HI[p], LO[p]
    if x not in (h, l):
        return 0
    return 10 + (6 if h == l else 0) + (l if h == x else h)


STRENGTH = [_half_sums([_strength_of(x, p) for p in range(NP)]) for x in range(7)]
# BEST_LO[lo], BEST_HI[hi]: strength(x) * 8 for x = 0..6 (the low half adds 7 - x), so
# max(map(add, BEST_LO[lo], BEST_HI[hi])) is the best suit's code: strength in the high bits,
# the lowest x of the highest strength in the low three (7 - x)
BEST_LO = [_shared(tuple(_shared(STRENGTH[x][0][m] * 8 + 7 - x) for x in range(7)))
           for m in range(2048)]
BEST_HI = [_shared(tuple(_shared(STRENGTH[x][1][m] * 8) for x in range(7))) for m in range(2048)]
# COUNT_LO[lo] + COUNT_HI[hi]: how many pieces show each pip, in 3-bit fields (at most 6 each)
COUNT_LO, COUNT_HI = _half_sums([(1 << 3 * HI[p]) | (0 if HI[p] == LO[p] else 1 << 3 * LO[p])
                                 for p in range(NP)])
FIELD_LOW = sum(1 << 3 * x for x in range(7))
SHIFT_HI = [3 * HI[p] for p in range(NP)]
SHIFT_LO = [3 * LO[p] for p in range(NP)]
PIECES_LO = [tuple(i for i in range(11) if m >> i & 1) for m in range(2048)]
PIECES_HI = [tuple(11 + i for i in range(11) if m >> i & 1) for m in range(2048)]


def _best_tables(key):
    """lo[m], hi[m]: the set bit p of highest key (the lowest p on ties) of an 11-bit half as
    (key + OFF) * 64 + 32 (low half only) + p, -1 for none: max(lo[m & 2047], hi[m >> 11]) & 31
    is then the choice over a whole mask, the low half's lower pieces winning a tie."""
    out = []
    for off, tie in ((0, 32), (11, 0)):
        t = [-1] * 2048
        for m in range(1, 2048):
            low = m & -m
            p = low.bit_length() - 1 + off
            rest = t[m ^ low]  # the higher pieces: p wins an equal key
            t[m] = (_shared((key[p] + OFF) * 64 + tie + p) if rest < 0 or key[p] + OFF >= rest >> 6
                    else rest)
        out.append(t)
    return out


def _per_trump(trump: int):
    """The strategy's per-trump tables: trump mask, lead rank, and the play rules' choices."""
    tm = sum(1 << p for p in range(NP) if hm._is_trump(trump, p))
    is_t = [tm >> p & 1 for p in range(NP)]
    lead_rank = [SCORE[trump][LEAD[trump][p]][p] for p in range(NP)]  # rank(t) when leading
    draw = _best_tables(lead_rank)
    low = _best_tables([-lead_rank[p] - 50 * is_t[p] for p in range(NP)])
    suits = []  # per suit led: the follow mask, ranks, take_cheaply, throw_low, beats masks
    for suit in range(8):
        sc = SCORE[trump][suit]
        take = _best_tables([-sc[p] for p in range(NP)])
        throw = _best_tables([-sc[p] - 50 * is_t[p] for p in range(NP)])
        beats = [sum(1 << p for p in range(NP) if sc[p] > b) for b in range(24)]
        suits.append((FOLLOW[trump][suit], sc, *take, *throw, beats))
    return tm, draw, low, suits


TABLES = [_per_trump(t) for t in range(9)]


def _bury(h: int, best: int) -> int:
    """bury_short over the 8-piece hand h (best over it): the highest key, the lowest on ties."""
    off = h & ~SUITM[best]
    c = COUNT_LO[off & 2047] + COUNT_HI[off >> 11]
    one = c & ~(c >> 1) & ~(c >> 2) & FIELD_LOW  # bit 3x: pip x shows on one piece off best
    bad = SUITM[best] | DBLM
    # a piece neither of best nor a double keys at least -11, any other at most -60: look at
    # those first
    m = h & ~bad or h  # all of them bad: the same -100 on each
    pick, bk = -1, -1000
    for p in PIECES_LO[m & 2047] + PIECES_HI[m >> 11]:
        k = 20 * ((one >> SHIFT_HI[p] & 1) + (one >> SHIFT_LO[p] & 1)) - PIPS[p]
        if k > bk:
            pick, bk = p, k
    return pick


def play_hand(deal, dealer: int, log=None) -> HandResult:
    """Play one hand; `deal` is handwritten_moon's (3 hands of 7, the widow as a list of one).
    If `log` is a list, every action taken is appended by its step-engine name."""
    bit = BIT_OF.__getitem__  # the pieces are distinct: their bits' sum is the mask
    hands = [sum(map(bit, deal[0])), sum(map(bit, deal[1])), sum(map(bit, deal[2]))]
    widow = bit(deal[3][0]).bit_length() - 1

    # auction: each seat bids the highest level its hand shows, if it beats the standing bid
    high = 0
    bidder = -1
    seat = NEXT[dealer]
    for _ in (0, 1, 2):
        h = hands[seat]
        best = 7 - (max(map(add, BEST_LO[h & 2047], BEST_HI[h >> 11])) & 7)
        n = (h & SUITM[best]).bit_count()
        dbl = 1 if h & DBL_BIT[best] else 0
        # halves = 2 * (trump_tricks(best) + walkers(best)) + the unseen widow's
        halves = 2 * ((n - 1 if n else 0) + (dbl if n <= 2 else 0)
                      + (h & DBLM).bit_count() - dbl) + WIDOW_HALVES
        expect = halves >> 1
        if high < MOON and expect >= 7 and halves >= 15:
            high, bidder = MOON, seat
            a = BID + MOON
        else:
            lv = expect if expect < 7 else 7
            if lv > high and lv >= 4:
                high, bidder = lv, seat
                a = BID + lv
            else:
                a = PASS
        if log is not None:
            log.append(action_str(a))
        seat = NEXT[seat]
    if bidder < 0:
        return THROWN_IN

    # widow, bury, trump
    h = hands[bidder] | BITS[widow]
    buried = _bury(h, 7 - (max(map(add, BEST_LO[h & 2047], BEST_HI[h >> 11])) & 7))
    h ^= BITS[buried]
    hands[bidder] = h
    # longest_trump: strength(n) for 0..6 (the lowest n of the highest), doubles, follow-me 0
    code = max(map(add, BEST_LO[h & 2047], BEST_HI[h >> 11]))
    k = (h & DBLM).bit_count() * 10 + 2
    trump = DOUBLES if k > code >> 3 else 7 - (code & 7)
    if log is not None:
        log.append(action_str(BURY + buried))
        log.append(action_str(TRUMP + trump))
    tm, (draw_lo, draw_hi), (low_lo, low_hi), suits = TABLES[trump]
    lead_of = LEAD[trump]
    walkers_of = DBLM & ~tm
    o1, o2 = NEXT[bidder], NEXT[NEXT[bidder]]

    # seven tricks
    tricks = [0, 0, 0]
    leader = bidder
    for _ in range(7):
        h = hands[leader]
        if not h & (h - 1):
            p = h.bit_length() - 1
        elif leader == bidder and h & tm and (hands[o1] | hands[o2]) & tm:  # draw_trumps
            m = h & tm
            e = draw_lo[m & 2047]
            f = draw_hi[m >> 11]
            p = (e if e > f else f) & 31
        elif h & walkers_of:  # lead_walkers: the double of the highest pip
            p = (h & walkers_of).bit_length() - 1
        else:  # lead_low
            e = low_lo[h & 2047]
            f = low_hi[h >> 11]
            p = (e if e > f else f) & 31
        hands[leader] = h ^ BITS[p]
        if log is not None:
            log.append(action_str(p))
        fm, sc, take_lo, take_hi, throw_lo, throw_hi, beat = suits[lead_of[p]]
        best = sc[p]
        winner = leader
        seat = NEXT[leader]
        h = hands[seat]
        m = h & fm or h
        if not m & (m - 1):
            p = m.bit_length() - 1
        else:
            c = m & beat[best]
            if c:  # take_cheaply
                e = take_lo[c & 2047]
                f = take_hi[c >> 11]
            else:  # throw_low
                e = throw_lo[m & 2047]
                f = throw_hi[m >> 11]
            p = (e if e > f else f) & 31
        hands[seat] = h ^ BITS[p]
        if log is not None:
            log.append(action_str(p))
        if sc[p] > best:
            best = sc[p]
            winner = seat
        seat = NEXT[seat]
        h = hands[seat]
        m = h & fm or h
        if not m & (m - 1):
            p = m.bit_length() - 1
        else:
            c = m & beat[best]
            if c:  # take_cheaply
                e = take_lo[c & 2047]
                f = take_hi[c >> 11]
            else:  # throw_low
                e = throw_lo[m & 2047]
                f = throw_hi[m >> 11]
            p = (e if e > f else f) & 31
        hands[seat] = h ^ BITS[p]
        if log is not None:
            log.append(action_str(p))
        if sc[p] > best:
            winner = seat
        tricks[winner] += 1
        leader = winner

    need = 7 if high == MOON else high
    made = tricks[bidder] >= need
    value = 21 if high == MOON else high
    scored = list(tricks)
    scored[bidder] = value if made else -value
    return HandResult(bidder, high, trump, buried, tuple(tricks), made, tuple(scored), False)


def play_hands(deals, dealers) -> list[HandResult]:
    return [play_hand(d, dl) for d, dl in zip(deals, dealers)]


# ---------------------------------------------------------------------------------------------
# the step engine with the Python rules agent on every seat (--check and the timing beside)


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(os.path.dirname(here), "src"))
    from tablerules.agents import make_agent
    from tablerules.game import load_game
    game = load_game("moon")
    agents = [make_agent("rules", random.Random(0), game.definition) for _ in range(3)]
    return game, agents


def engine_hand(game, agents, deal, dealer, names=None, rules=None):
    """One hand in the step engine, each seat's rules agent choosing; its hand_result(). With
    `names` a list, each action's name is appended; with `rules` a dict, the deciding rules are
    counted."""
    st = game.new_hand(deal, dealer)
    to_str = game.definition.action_to_string
    while not st.is_terminal():
        legal = st.legal_actions()
        seat = st.current_player()
        a = agents[seat].act(seat, legal, lambda s=seat: st.observation(s))
        if names is not None:
            names.append(to_str(a))
        if rules is not None:
            k = agents[seat].last_rule or "(one legal action or no rule)"
            rules[k] = rules.get(k, 0) + 1
        st.apply_action(a)
    return st.hand_result()


def engine_hands(game, agents, deals, dealers):
    for d, dl in zip(deals, dealers):
        engine_hand(game, agents, d, dl)


def _as_result(r: HandResult) -> dict:
    """Our result in hand_result()'s words (the keys both have)."""
    if r.thrown_in:
        return {"thrown_in": True}
    return {"thrown_in": False, "contract": "moon" if r.bid == MOON else "tricks",
            "bid": "moon" if r.bid == MOON else str(r.bid), "bidder": r.bidder, "made": r.made,
            "points": list(r.tricks), "scored": list(r.scored)}


def _tables_agree(game) -> list[str]:
    """Our lead suits and ranks against the step engine's trick tables, for every trump."""
    gd = game.definition
    out = []
    names = list(range(7)) + ["doubles", "followme"]
    for trump, v in enumerate(names):
        tb = gd.trick_tables[(0, (v,))]
        for p in range(NP):
            theirs = tb.suits[tb.lead[p]]  # a trump leads the trump suit, named by its value
            ours = v if LEAD[trump][p] == TRUMP_SUIT else LEAD[trump][p]
            if theirs != ours:
                out.append(f"trump {v}: {action_str(p)} leads {theirs}, ours {LEAD[trump][p]}")
            for i, s in enumerate(tb.suits):
                ours = TRUMP_SUIT if (s == v and trump != FOLLOW_ME) else s
                if type(ours) is int and ours < 8 and tb.rank[i][p] != SCORE[trump][ours][p]:
                    out.append(f"trump {v}, suit {s}: rank of {action_str(p)} {tb.rank[i][p]}, "
                               f"ours {SCORE[trump][ours][p]}")
    return out


def check(n: int, seed: int = 1) -> int:
    """Every action and result of n deals (dealer rotating) against the step engine's agents."""
    game, agents = _load()
    bad = _tables_agree(game)
    for msg in bad[:5]:
        print(f"  table: {msg}")
    deals = make_deals(n, seed)
    stats = {"thrown": 0, "moon": 0, "made": 0}
    rules: dict = {}
    for i, deal in enumerate(deals):
        dealer = i % 3
        theirs: list = []
        r_theirs = engine_hand(game, agents, deal, dealer, theirs, rules)
        mine: list = []
        r = play_hand(deal, dealer, mine)
        for j in range(max(len(mine), len(theirs))):
            a = mine[j] if j < len(mine) else "(hand over)"
            b = theirs[j] if j < len(theirs) else "(hand over)"
            if a != b:
                bad.append(f"hand {i + 1} (dealer {dealer}) decision {j + 1}: rules agent {b}, "
                           f"hand-written {a}")
                break
        else:
            want = {k: r_theirs[k] for k in _as_result(r)}
            if want != _as_result(r):
                bad.append(f"hand {i + 1}: result: rules agent {want}, hand-written "
                           f"{_as_result(r)}")
        stats["thrown"] += r.thrown_in
        stats["moon"] += r.bid == MOON
        stats["made"] += r.made
        if len(bad) >= 5:
            break
    if bad:
        print(f"rules check FAILED: the first {len(bad)} disagreements (hand, decision, both "
              f"actions):")
        for msg in bad:
            print(f"  {msg}")
        return 1
    played = max(1, n - stats["thrown"])
    print(f"rules check OK: {n} hands (every action and result; thrown in "
          f"{stats['thrown'] / n:.1%}, moon bids {stats['moon'] / played:.1%}, made "
          f"{stats['made'] / played:.1%})")
    print("decisions by rule: " + ", ".join(f"{k} {v}" for k, v in rules.items()))
    return 0


def _timed(fn, *args) -> float:
    gc.collect()
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


def bench(n: int, engine_n: int, repeat: int, seed: int) -> int:
    """Best of `repeat`, interleaved: this player, handwritten_moon random play, the step engine
    with the rules agent (on the first engine_n of the same deals)."""
    deals = make_deals(n, seed)
    dealers = [i % 3 for i in range(n)]
    game, agents = _load()
    engine_n = min(engine_n, n)
    play_hands(deals[:20], dealers[:20])  # the same warm-up for each
    hm.play_hands(deals[:20], dealers[:20], random.Random(seed))
    engine_hands(game, agents, deals[:20], dealers[:20])
    best = {"rules": float("inf"), "random": float("inf"), "engine": float("inf")}
    for k in range(repeat):
        t = {"rules": _timed(play_hands, deals, dealers),
             "random": _timed(hm.play_hands, deals, dealers, random.Random(seed)),
             "engine": _timed(engine_hands, game, agents, deals[:engine_n], dealers[:engine_n])}
        for key, v in t.items():
            best[key] = min(best[key], v)
        print(f"repeat {k + 1}: hand-written rules {t['rules']:.3f}s  hand-written random "
              f"{t['random']:.3f}s  step engine + rules agent {t['engine']:.3f}s "
              f"({engine_n} hands)")
    hps = {"rules": n / best["rules"], "random": n / best["random"],
           "engine": engine_n / best["engine"]}
    print(f"hand-written rules player : {hps['rules']:12,.0f} hands/s  ({n} hands, best of "
          f"{repeat})")
    print(f"handwritten_moon random   : {hps['random']:12,.0f} hands/s  ({n} hands)")
    print(f"step engine + rules agent : {hps['engine']:12,.0f} hands/s  ({engine_n} hands)")
    print(f"ratio: the hand-written rules player is {hps['rules'] / hps['engine']:.1f}x the step "
          f"engine with the rules agent; random play is {hps['random'] / hps['rules']:.2f}x it")
    return 0


def _main(argv=None) -> int:
    from harness import POSITIVE

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", type=POSITIVE, metavar="N",
                    help="compare N hands with the rules agent")
    ap.add_argument("--hands", type=POSITIVE, default=20000, help="time N hands (default 20000)")
    ap.add_argument("--engine-hands", type=POSITIVE, default=1000,
                    help="of which the step engine plays the first N (default 1000)")
    ap.add_argument("--repeat", type=POSITIVE, default=3)
    ap.add_argument("--seed", type=int, default=1, help="the deals' seed (default 1)")
    a = ap.parse_args(argv)
    if a.check:
        return check(a.check, a.seed)
    return bench(a.hands, a.engine_hands, a.repeat, a.seed)


if __name__ == "__main__":
    sys.exit(_main())
