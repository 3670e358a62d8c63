"""Hand-written optimised engine: ONE hand of All Fives, uniformly random play, hands as bitmasks.

The same rules, actions and action order as the plain baseline `handwritten_allfives.py` (its
docstring states them), so the same random.Random stream plays the same game in both and in the
interpreter. What is optimised: a hand is a 28-bit mask of piece ids; NUM[x] is the mask of the
pieces showing x, so the bones that fit an end are one AND; FAR[p*7 + x] and FARVAL[p*7 + x] are
the number a piece shows outward when laid on x and what that end then counts; the ends total is
kept incrementally; the first-play list and the pips left come from tables over 14-bit halves.
It does not import tablerules (only the --check differential test does).

Run `python benchmarks/handwritten_allfives_fast.py --check 2000`: every hand is played by this
engine and by the plain one with the same random stream (identical offered actions at every
step, identical logs and results), then 50 hands of the plain engine's self-check, then a
differential check of this engine against the interpreter.
"""

from __future__ import annotations

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from handwritten_allfives import (  # noqa: E402  the plain engine: names and the result type
    FAR, FARVAL, HI, KNOCK, LAY_BASE, LO, PIPS, TILE_ID, TILES, HandResult, action_str,
    nearest_five)

NUM = [sum(1 << t for t, (h, l) in enumerate(TILES) if x in (h, l)) for x in range(7)]
IS_DOUBLE = [h == l for h, l in TILES]
LAYB = {1 << t: LAY_BASE + 4 * t for t in range(28)}  # a piece's bit -> its west action (+ arm)
# ONE_PIECE[bit][arms]: the actions of one piece on west (arms 1), east (2) or both (3)
ONE_PIECE = {1 << t: (None, (LAY_BASE + 4 * t,), (LAY_BASE + 4 * t + 1,),
                      (LAY_BASE + 4 * t, LAY_BASE + 4 * t + 1)) for t in range(28)}
BIT = {t: 1 << i for t, i in TILE_ID.items()}  # (hi, lo) or (lo, hi) -> the piece's bit
# the first play's actions (piece ids ascending) and the pips of a mask, by 14-bit halves
FIRST_LO = [tuple(t for t in range(14) if m >> t & 1) for m in range(1 << 14)]
FIRST_HI = [tuple(14 + t for t in range(14) if m >> t & 1) for m in range(1 << 14)]
PIPS_LO = [sum(PIPS[t] for t in range(14) if m >> t & 1) for m in range(1 << 14)]
PIPS_HI = [sum(PIPS[14 + t] for t in range(14) if m >> t & 1) for m in range(1 << 14)]
KNOCK_ONLY = (KNOCK,)
M14 = (1 << 14) - 1


def _pips(m: int) -> int:
    return PIPS_LO[m & M14] + PIPS_HI[m >> 14]


def play_hand(deal, dealer: int, rng, log=None) -> HandResult:
    """Play one hand (same arguments, result and log as handwritten_allfives.play_hand)."""
    if type(deal[0][0]) is tuple:
        b = BIT.__getitem__
        hands = [sum(map(b, deal[0])), sum(map(b, deal[1])), sum(map(b, deal[2])),
                 sum(map(b, deal[3]))]
    else:
        hands = [sum(1 << t for t in h) for h in deal]
    choice = rng.choice
    pts = [0, 0]
    knocks = 0
    consecutive = 0
    went_out = -1

    seat = (dealer + 1) & 3
    h = hands[seat]
    t = choice(FIRST_LO[h & M14] + FIRST_HI[h >> 14])
    hands[seat] = h ^ 1 << t
    e0 = HI[t]
    e1 = LO[t]
    if e0 == e1:  # a double first is the spinner: both halves count while it is a line end
        sp = e0
        pend = 3  # main sides (bits west, east) still to be covered
        v0 = v1 = 0
        spin = 2 * sp
    else:
        sp = -1
        pend = 0
        v0 = e0
        v1 = e1
        spin = 0
    total = v0 + v1 + spin
    if not total % 5:
        pts[seat & 1] += total
    if log is not None:
        log.append((seat, t, total, 0 if total % 5 else total))

    # phase 1: two open ends, until the spinner is boxed in (or the hand ends)
    while pend or sp < 0:
        seat = (seat + 1) & 3
        h = hands[seat]
        mw = h & NUM[e0]
        me = h & NUM[e1]
        c = mw | me
        if not c:
            choice(KNOCK_ONLY)  # still drawn, as the interpreter's loop does
            knocks += 1
            consecutive += 1
            if log is not None:
                log.append((seat, KNOCK, None, 0))
            if consecutive == 4:
                break
            continue
        consecutive = 0
        if c & (c - 1):
            acts = []
            while c:
                low = c & -c
                c ^= low
                b = LAYB[low]
                if mw & low:
                    acts.append(b)
                    if me & low:
                        acts.append(b + 1)
                else:
                    acts.append(b + 1)
            a = choice(acts)
        else:  # one piece fits (the common case): its one or two actions from a table
            a = choice(ONE_PIECE[c][(1 if mw else 0) | (2 if me else 0)])
        t = (a >> 2) - 8
        if a & 1:  # east
            k = t * 7 + e1
            e1 = FAR[k]
            new = FARVAL[k]
            if pend & 2:  # covering a main side of the spinner
                pend ^= 2
                if not pend:  # boxed in: it stops counting
                    total -= spin
            elif sp < 0 and IS_DOUBLE[t]:  # the first double played is the spinner
                sp = HI[t]
                pend = 2  # its outer side, now the east end, is still to be covered
                spin = 2 * sp
                total += spin
                new = 0
            total += new - v1
            v1 = new
        else:
            k = t * 7 + e0
            e0 = FAR[k]
            new = FARVAL[k]
            if pend & 1:
                pend ^= 1
                if not pend:
                    total -= spin
            elif sp < 0 and IS_DOUBLE[t]:
                sp = HI[t]
                pend = 1
                spin = 2 * sp
                total += spin
                new = 0
            total += new - v0
            v0 = new
        if not total % 5:
            pts[seat & 1] += total
        if log is not None:
            log.append((seat, a, total, 0 if total % 5 else total))
        h ^= 1 << t
        hands[seat] = h
        if not h:
            went_out = seat
            break

    # phase 2: four open ends (the spinner's north and south sides open with its number)
    if went_out < 0 and consecutive < 4:
        ends = [e0, e1, sp, sp]
        vals = [v0, v1, 0, 0]
        while True:
            seat = (seat + 1) & 3
            h = hands[seat]
            mw = h & NUM[ends[0]]
            me = h & NUM[ends[1]]
            mn = h & NUM[ends[2]]
            ms = h & NUM[ends[3]]
            c = mw | me | mn | ms
            if not c:
                choice(KNOCK_ONLY)
                knocks += 1
                consecutive += 1
                if log is not None:
                    log.append((seat, KNOCK, None, 0))
                if consecutive == 4:
                    break
                continue
            consecutive = 0
            acts = []
            while c:
                low = c & -c
                c ^= low
                b = LAYB[low]
                if mw & low:
                    acts.append(b)
                if me & low:
                    acts.append(b + 1)
                if mn & low:
                    acts.append(b + 2)
                if ms & low:
                    acts.append(b + 3)
            a = choice(acts)
            t = (a >> 2) - 8
            arm = a & 3
            k = t * 7 + ends[arm]
            ends[arm] = FAR[k]
            new = FARVAL[k]
            total += new - vals[arm]
            vals[arm] = new
            if not total % 5:
                pts[seat & 1] += total
            if log is not None:
                log.append((seat, a, total, 0 if total % 5 else total))
            h ^= 1 << t
            hands[seat] = h
            if not h:
                went_out = seat
                break

    left0 = _pips(hands[0] | hands[2])
    left1 = _pips(hands[1] | hands[3])
    a0 = a1 = 0
    if went_out >= 0:
        if went_out & 1:
            a1 = nearest_five(left0)
        else:
            a0 = nearest_five(left1)
    elif left0 < left1:
        a0 = nearest_five(left1 - left0)
    elif left1 < left0:
        a1 = nearest_five(left0 - left1)
    lays = 28 - (hands[0] | hands[1] | hands[2] | hands[3]).bit_count()
    return HandResult((pts[0], pts[1]), (a0, a1), (pts[0] + a0, pts[1] + a1), went_out,
                      went_out < 0, lays, knocks, (left0, left1))


def play_hands(deals, dealers, rng: random.Random) -> list[HandResult]:
    return [play_hand(d, dl, rng) for d, dl in zip(deals, dealers)]


# ---------------------------------------------------------------------------------------------
# checks: against the plain engine (same stream, same offers, same logs), then the interpreter


class _Offers:
    """A stand-in rng that records every list offered, then picks from it."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.offered: list = []

    def choice(self, seq):
        self.offered.append(tuple(seq))
        return self.rng.choice(seq)


def against_plain(deals, dealers, seed) -> list[str]:
    """Play each deal in both engines with the same stream; the first difference per hand."""
    import handwritten_allfives as plain

    bad = []
    for i, (deal, dealer) in enumerate(zip(deals, dealers)):
        fa, pa = _Offers(seed * 1_000_003 + i), _Offers(seed * 1_000_003 + i)
        fl, pl = [], []
        fr = play_hand(deal, dealer, fa, fl)
        pr = plain.play_hand(deal, dealer, pa, pl)
        if fa.offered != pa.offered:
            k = next((j for j, (x, y) in enumerate(zip(fa.offered, pa.offered)) if x != y),
                     min(len(fa.offered), len(pa.offered)))

            def names(offered):
                return [action_str(a) for a in offered[k]] if k < len(offered) else "nothing"
            bad.append(f"hand {i}: step {k}: offered {names(fa.offered)}, "
                       f"plain {names(pa.offered)}")
        elif fl != pl or fr != pr:
            bad.append(f"hand {i}: log or result differs: {fr} vs plain {pr}")
    return bad


def self_check(n: int, seed: int = 12345) -> int:
    import handwritten_allfives as plain
    from deals import make_deals

    deals = make_deals(n, seed)
    dealers = [i % 4 for i in range(n)]
    bad = against_plain(deals, dealers, seed)
    if bad:
        print(f"against the plain engine: FAILED in {len(bad)} of {n} hands")
        for b in bad[:3]:
            print(f"  {b}")
        return 1
    print(f"against the plain engine OK: {n} hands, identical offers at every step, logs and "
          f"results")
    for i, (deal, dealer) in enumerate(zip(deals[:50], dealers)):  # the plain one's own check
        plain._check_hand(deal, dealer, seed * 1_000_003 + i)
    game, err = plain._load_interpreter()
    if game is None:
        print(f"differential check skipped: interpreter not available ({err})")
        return 0
    bad = plain.differential_check(game, deals, dealers, seed, engine=play_hand)
    if bad:
        print(f"differential check FAILED in {len(bad)} of {n} hands")
        for msg, deal, dealer, trail in sorted(bad, key=lambda b: len(b[3]))[:3]:
            print(f"  {msg}\n    dealer={dealer} actions={trail}")
        return 1
    print(f"differential check OK: {n} hands against the interpreter, identical legal action "
          f"sets at every step, identical per-play scores and end-of-hand points/marks")
    return 0


def _main(argv=None) -> int:
    import harness  # only when run as a script: the engine itself stays standalone
    return harness.baseline_main(__doc__.splitlines()[0], play_hands, self_check, argv)


if __name__ == "__main__":
    sys.exit(_main())
