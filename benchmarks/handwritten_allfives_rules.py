"""Hand-written All Fives player: ONE hand, every seat playing the `allfives` rules strategy.

The baseline of the batch engine's rules-agent target on `allfives`: rulesets/allfives.yaml with
its defaults (four players in partnerships, no boneyard, no Muggins, the count in points), every
seat choosing as rulesets/strategies/allfives.yaml does, written by hand on the rules and the
action codes of handwritten_allfives.py (pieces are ints 0..27 in the interpreter's order, hands
28-bit masks; NUM[x] is the mask of the pieces showing x). It does not import tablerules (only
--check does).

The strategy, as the rules agent reads it (agents/strategy.py; one legal action: that one):
  * the ends are the arms one may lay on (west, east; north and south once the spinner is boxed
    in), each (the number open, its end piece a double, its end piece the spinner);
  * after(a): the count the strategy expects after lay a: the other ends that are not the
    spinner, what a adds on its arm (2 * high for a double, else its other end), and twice the
    spinner's number while a line end other than a's is the spinner;
  * threat(a): over every end, the most a piece this seat has not seen scores laid there after a
    (scored(x) = x when x is a multiple of 5, else 0);
  * the first piece set down: no rule looks at it, so the first legal one (the lowest id);
  * shed_heavy: when no lay scores, the highest pips - 2 * threat; else no_easy_count (the next
    seat is always an opponent): the highest 4 * scored(after) - 3 * threat; ties to the first
    legal action (by piece, then arm).

How it is fast (the optimised baseline the batch engine is measured against): `threat` is one
look-up an end. best_next(base, x) only asks which unseen piece showing x makes base + its
value a multiple of 5, so NEXT_BY[x][unseen & NUM[x]] (every subset of the 7 pieces showing x,
made at import) holds, per residue of base mod 5, the largest such value. A decision works out
each live arm's count and table once, then both rules' keys in one pass over the lays.

Run `python benchmarks/handwritten_allfives_rules.py --check 2000` to compare every action and
result with the step engine's rules agent, `--hands N` to time it beside the step engine with
the rules agent (same deals).
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from handwritten_allfives import (  # noqa: E402
    FAR, FARVAL, HI, LAY_BASE, PIPS, TILE_ID, TILES, HandResult, action_str, settle)

NP = 28
ALL = (1 << NP) - 1
NUM = [sum(1 << t for t, (h, l) in enumerate(TILES) if x in (h, l)) for x in range(7)]
DOUBLE = [h == l for h, l in TILES]
W, E, N, S = range(4)
# the pieces of a mask by its 14-bit halves
PIECES_LO = [tuple(t for t in range(14) if m >> t & 1) for m in range(1 << 14)]
PIECES_HI = [tuple(14 + t for t in range(14) if m >> t & 1) for m in range(1 << 14)]
M14 = (1 << 14) - 1


def _pieces(m: int) -> tuple:
    return PIECES_LO[m & M14] + PIECES_HI[m >> 14]


def _scored(x: int) -> int:
    return x if x % 5 == 0 else 0


NONE = -(1 << 20)  # no piece: base + NONE is below 0, so best_next stays 0


def _next_table(x: int) -> dict:
    """For an end showing x: per set of the unseen pieces that show x (the mask
    `unseen & NUM[x]`, every subset of NUM[x]), per residue r of the count left there mod 5,
    the most such a piece adds that makes the count a multiple of 5 (NONE: no piece does)."""
    mine = [t for t in range(NP) if NUM[x] >> t & 1]
    out = {}
    for k in range(1 << len(mine)):
        adds = [FARVAL[t * 7 + x] for i, t in enumerate(mine) if k >> i & 1]
        out[sum(1 << t for i, t in enumerate(mine) if k >> i & 1)] = tuple(
            max((v for v in adds if (r + v) % 5 == 0), default=NONE) for r in range(5))
    return out


NEXT_BY = [_next_table(x) for x in range(7)]


def _choose(lays: list, opens: list, endp: list, live: tuple, spinner: int,
            unseen: int) -> int:
    """The strategy's lay among `lays` (piece * 4 + arm, in legal order) on the ends of the
    arms in `live` (`opens`: the number open at each arm, `endp`: its end piece), as the index
    in `lays`."""
    # per live arm: the arm, what it counts (0 at the spinner's own end), and the table of
    # what an unseen piece laid there adds (NEXT_BY) for the number open
    ends = []
    plain = [0, 0, 0, 0]
    plain_sum = 0
    spin_value = 0
    spin_lines = 0  # the line arms (west, east) whose end is the spinner, as bits
    for arm in live:
        x = opens[arm]
        q = endp[arm]
        if q == spinner:
            spin_value = 2 * x
            if arm <= E:
                spin_lines |= 1 << arm
            ends.append((arm, 0, NEXT_BY[x][unseen & NUM[x]]))
        else:
            v = 2 * x if DOUBLE[q] else x
            plain[arm] = v
            plain_sum += v
            ends.append((arm, v, NEXT_BY[x][unseen & NUM[x]]))
    any_scores = False
    # both rules' keys at once, each its first highest: shed_heavy (no lay scores) and
    # no_easy_count (the next seat is always an opponent)
    shed_top = easy_top = -(1 << 30)
    shed_at = easy_at = 0
    for i, a in enumerate(lays):
        arm = a & 3
        k = (a >> 2) * 7 + opens[arm]
        add = FARVAL[k]
        total = plain_sum - plain[arm] + add  # the ends' count after the lay (`after`)
        if spin_lines & ~(1 << arm):
            total += spin_value
        best = 0  # what the next player can score there (`threat`)
        for e_arm, v, tab in ends:
            if e_arm == arm:  # the lay's own end: it shows FAR[k] and counts `add`
                base = total - add
                x = FAR[k]
                b = base + NEXT_BY[x][unseen & NUM[x]][base % 5]
            else:
                base = total - v
                b = base + tab[base % 5]
            if b > best:
                best = b
        key = PIPS[a >> 2] - 2 * best
        if key > shed_top:
            shed_top, shed_at = key, i
        if total % 5 == 0 and total:
            any_scores = True
            key = 4 * total - 3 * best
        else:
            key = -3 * best
        if key > easy_top:
            easy_top, easy_at = key, i
    return easy_at if any_scores else shed_at


def play_hand(deal, dealer: int, log=None) -> HandResult:
    """Play one hand; `deal` is 4 lists of 7 (hi, lo) tuples (or tile ids). If `log` is a list,
    every action is appended by its step-engine name."""
    hands = [sum(1 << (TILE_ID[t] if type(t) is tuple else t) for t in h) for h in deal]
    pts = [0, 0]
    laid = 0
    seat = (dealer + 1) & 3
    h = hands[seat]
    t = (h & -h).bit_length() - 1  # the first legal piece: no rule looks at the set-down
    hands[seat] = h ^ (1 << t)
    laid |= 1 << t
    if log is not None:
        log.append(action_str(t))
    hi, lo = TILES[t]
    opens = [hi, lo, hi, hi]
    endp = [t, t, t, t]  # the piece at each arm's end
    live = (W, E)  # the arms one may lay on: north and south too once the spinner is boxed in
    if hi == lo:  # a double first is the spinner
        spinner, pend, spin, vals = t, 3, 2 * hi, [0, 0, 0, 0]
    else:
        spinner, pend, spin, vals = -1, 0, 0, [hi, lo, 0, 0]
    total = vals[0] + vals[1] + spin
    pts[seat & 1] += _scored(total)
    knocks = consecutive = 0
    went_out = -1
    lays_made = 1
    while True:
        seat = (seat + 1) & 3
        h = hands[seat]
        lays = []  # piece * 4 + arm, by piece then arm (the legal order)
        fit = 0
        for arm in live:
            fit |= h & NUM[opens[arm]]
        for p in _pieces(fit):
            for arm in live:
                if NUM[opens[arm]] >> p & 1:
                    lays.append(4 * p + arm)
        if not lays:
            knocks += 1
            consecutive += 1
            if log is not None:
                log.append("knock")
            if consecutive == 4:
                break
            continue
        consecutive = 0
        if len(lays) == 1:
            a = lays[0]
        else:
            a = lays[_choose(lays, opens, endp, live, spinner, ALL & ~(h | laid))]
        p, arm = a >> 2, a & 3
        if log is not None:
            log.append(action_str(LAY_BASE + 4 * p + arm))
        k = p * 7 + opens[arm]
        opens[arm] = FAR[k]
        endp[arm] = p
        if pend >> arm & 1:  # covering a main side of the spinner
            pend ^= 1 << arm
            vals[arm] = FARVAL[k]
            if not pend:  # boxed in: it stops counting; north and south open on its number
                spin = 0
                live = (W, E, N, S)
                opens[N] = opens[S] = HI[spinner]
                endp[N] = endp[S] = spinner
        elif spinner < 0 and DOUBLE[p]:  # the first double played is the spinner
            spinner = p
            pend = 1 << arm
            spin = 2 * HI[p]
            vals[arm] = 0
        else:
            vals[arm] = FARVAL[k]
        total = vals[0] + vals[1] + vals[2] + vals[3] + spin
        if total % 5 == 0:
            pts[seat & 1] += total
        h ^= 1 << p
        hands[seat] = h
        laid |= 1 << p
        lays_made += 1
        if not h:
            went_out = seat
            break
    left0 = sum(PIPS[q] for q in _pieces(hands[0] | hands[2]))
    left1 = sum(PIPS[q] for q in _pieces(hands[1] | hands[3]))
    return settle(pts, left0, left1, went_out, lays_made, knocks)


# ---------------------------------------------------------------------------------------------
# the check against the step engine's rules agent, and the timing


def _result(r, s) -> tuple:
    """The points and the award, this player's and the step engine's hand_result()'s."""
    return [list(r.points), list(r.award)], [s["points"], s["scored"]]


def main(argv=None) -> int:
    """--check N: every action's name, the points and the award of N deals against the step
    engine's rules agent; --hands N: timed beside it (harness.rules_player_main)."""
    from deals import make_deals
    import harness

    return harness.rules_player_main(argv, __doc__, "allfives", play_hand, make_deals, _result,
                                     "the points and the award")


if __name__ == "__main__":
    sys.exit(main())
