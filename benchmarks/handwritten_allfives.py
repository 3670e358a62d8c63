"""Hand-written baseline engine: ONE hand of All Fives (straight dominoes), uniformly random play.

This is the comparison baseline for the tablerules interpreter benchmark on `allfives`. It does
not import tablerules (only the --check differential test does). Written the way a competent
Python programmer writes a plain, reasonably fast engine: tiles are ints, small lookup tables
are precomputed once at import, the layout is four open-end numbers and four end values in
plain lists; the only bit masks are the numbers on a tile / on the open ends (a 7-bit int) and
the spinner's uncovered main sides. No caching of random draws, no C extensions.

Rules implemented (rule text 004, "The idea" to "House rules in this app"; ruleset
rulesets/allfives.yaml with its defaults: 4 players, partners across, 7 each, no boneyard):
  * seats 0+2 vs 1+3; the player left of the dealer (dealer + 1) sets any bone; play goes
    round in seat order 0, 1, 2, 3.
  * afterwards each player lays one bone on an open end matching that end's number: the
    line's west and east ends (a first bone h-l, h >= l, opens h west and l east), and once
    the spinner (the first double played) has bones on both of its main sides, its north and
    south sides (both opening with the spinner's number). A bone matching two open ends is two
    actions. With no play the player knocks.
  * after each bone the open ends are added: a double at an open end counts both halves; the
    spinner counts both halves (once) while it is still an end of the line and nothing after;
    an empty spinner side counts nothing. A positive multiple of five is scored by the side.
  * the hand ends when a player goes out (their side scores the opponents' pips left, rounded
    to the nearest five: ((x + 2) // 5) * 5) or when all four knock in a row (the lighter side
    scores the difference, rounded likewise; equal pips: nobody).

Actions (and the order they are offered in, the same as the interpreter's, so the same
random.Random stream plays the same game in both engines):
  * first play: a tile id 0..27 (tile id = hi*(hi+1)//2 + lo), ascending;
  * later: LAY_BASE + 4*tile + arm (arm 0 west, 1 east, 2 north, 3 south), ascending;
  * KNOCK (-1) when there is no play (offered alone, and still drawn with rng.choice).

Run `python benchmarks/handwritten_allfives.py --check 2000` for the self-check (includes a
differential test against the tablerules interpreter when it is importable).
"""

from __future__ import annotations

import os
import random
import sys
from typing import NamedTuple

# ---------------------------------------------------------------------------------------------
# tiles and tables

TILES: list[tuple[int, int]] = [(hi, lo) for hi in range(7) for lo in range(hi + 1)]
TILE_ID: dict[tuple[int, int], int] = {}
for _i, (_h, _l) in enumerate(TILES):
    TILE_ID[(_h, _l)] = _i
    TILE_ID[(_l, _h)] = _i
HI = [t[0] for t in TILES]
LO = [t[1] for t in TILES]
PIPS = [h + l for h, l in TILES]
DOUBLE = [h == l for h, l in TILES]
MASK = [(1 << h) | (1 << l) for h, l in TILES]  # numbers on the tile, as a bit mask
# FAR[t*7 + x]: the number a tile shows outward when laid on an end showing x;
# FARVAL[t*7 + x]: what that new end counts (both halves for a double).
FAR = [0] * (28 * 7)
FARVAL = [0] * (28 * 7)
for _t, (_h, _l) in enumerate(TILES):
    for _x in (_h, _l):
        _far = _l if _x == _h else _h
        FAR[_t * 7 + _x] = _far
        FARVAL[_t * 7 + _x] = 2 * _far if _h == _l else _far

ARMS = ("west", "east", "north", "south")
W, E, N, S = range(4)
LAY_BASE = 32  # later plays: LAY_BASE + 4*tile + arm; (a >> 2) - 8 is the tile, a & 3 the arm
KNOCK = -1
KNOCK_ONLY = (KNOCK,)


def tile_name(t: int) -> str:
    return f"{HI[t]}-{LO[t]}"


def action_str(a: int) -> str:
    """Same names as the interpreter: "6-4" (first bone), "6-4 east", "knock"."""
    if a == KNOCK:
        return "knock"
    if a < LAY_BASE:
        return tile_name(a)
    return f"{tile_name((a >> 2) - 8)} {ARMS[a & 3]}"


def nearest_five(x: int) -> int:
    return ((x + 2) // 5) * 5


# ---------------------------------------------------------------------------------------------
# one hand


class HandResult(NamedTuple):
    points: tuple[int, int]  # scored by plays during the hand, per side (side = seat % 2)
    award: tuple[int, int]  # end-of-hand award per side (domino or blocked)
    score: tuple[int, int]  # points + award
    went_out: int  # seat that went out, or -1
    blocked: bool
    lays: int  # bones laid (including the first)
    knocks: int  # knock actions taken
    pips_left: tuple[int, int]  # per side at the end


def play_hand(deal, dealer: int, rng, log=None) -> HandResult:
    """Play one hand. `deal` is 4 lists of 7 (hi, lo) tuples (or tile ids); `rng` is anything
    with a `choice(seq)` method. If `log` is a list, every action is appended as
    (seat, action, ends_total, scored) (ends_total is None for a knock)."""
    tid = TILE_ID
    hands = [sorted([tid[t] if type(t) is tuple else t for t in h]) for h in deal]
    choice = rng.choice
    pts = [0, 0]

    # the first bone: any bone of the player left of the dealer
    seat = (dealer + 1) & 3
    h = hands[seat]
    t = choice(h)
    h.remove(t)
    hi = HI[t]
    lo = LO[t]
    ends = [hi, lo, hi, hi]  # open number per arm (north/south are open only once `four`)
    if hi == lo:  # a double first is the spinner: both halves count while it is a line end
        spinner_pips = hi
        pend = 3  # main sides (bits W, E) still to be covered
        spin = 2 * hi
        vals = [0, 0, 0, 0]
    else:
        spinner_pips = -1
        pend = 0
        spin = 0
        vals = [hi, lo, 0, 0]  # what each open end counts
    four = False  # north and south open (the spinner is boxed in)
    om = (1 << ends[0]) | (1 << ends[1])  # numbers showing on the open ends
    total = vals[0] + vals[1] + spin
    scored = total if total % 5 == 0 else 0
    pts[seat & 1] += scored
    if log is not None:
        log.append((seat, t, total, scored))
    lays = 1
    knocks = 0
    consecutive = 0
    went_out = -1

    while True:
        seat = (seat + 1) & 3
        h = hands[seat]
        e0, e1, e2, e3 = ends
        acts = []
        for t in h:
            m = MASK[t]
            if m & om:
                b = LAY_BASE + 4 * t
                if m >> e0 & 1:
                    acts.append(b)
                if m >> e1 & 1:
                    acts.append(b + 1)
                if four:
                    if m >> e2 & 1:
                        acts.append(b + 2)
                    if m >> e3 & 1:
                        acts.append(b + 3)
        a = choice(acts or KNOCK_ONLY)
        if a == KNOCK:
            knocks += 1
            consecutive += 1
            if log is not None:
                log.append((seat, KNOCK, None, 0))
            if consecutive == 4:
                break
            continue
        consecutive = 0
        t = (a >> 2) - 8
        arm = a & 3
        k = t * 7 + ends[arm]
        ends[arm] = FAR[k]
        if pend >> arm & 1:  # covering a main side of the spinner
            pend ^= 1 << arm
            vals[arm] = FARVAL[k]
            if not pend:  # boxed in: stops counting, its north and south sides open (empty)
                spin = 0
                four = True
                ends[N] = ends[S] = spinner_pips
        elif spinner_pips < 0 and DOUBLE[t]:  # the first double played is the spinner
            spinner_pips = HI[t]
            pend = 1 << arm
            spin = 2 * spinner_pips
            vals[arm] = 0
        else:
            vals[arm] = FARVAL[k]
        om = (1 << ends[0]) | (1 << ends[1])
        if four:
            om |= (1 << ends[2]) | (1 << ends[3])
        total = vals[0] + vals[1] + vals[2] + vals[3] + spin
        scored = total if total % 5 == 0 else 0
        pts[seat & 1] += scored
        if log is not None:
            log.append((seat, a, total, scored))
        h.remove(t)
        lays += 1
        if not h:
            went_out = seat
            break

    left0 = sum(PIPS[t] for t in hands[0]) + sum(PIPS[t] for t in hands[2])
    left1 = sum(PIPS[t] for t in hands[1]) + sum(PIPS[t] for t in hands[3])
    return settle(pts, left0, left1, went_out, lays, knocks)


def settle(pts, left0: int, left1: int, went_out: int, lays: int, knocks: int) -> HandResult:
    """The hand's result from the points laid and the pips left per side: the side that went
    out gets the other's pips (to the nearest five), a blocked hand the difference."""
    award = [0, 0]
    if went_out >= 0:
        side = went_out & 1
        award[side] = nearest_five(left1 if side == 0 else left0)
    elif left0 < left1:
        award[0] = nearest_five(left1 - left0)
    elif left1 < left0:
        award[1] = nearest_five(left0 - left1)
    return HandResult((pts[0], pts[1]), (award[0], award[1]),
                      (pts[0] + award[0], pts[1] + award[1]), went_out, went_out < 0,
                      lays, knocks, (left0, left1))


def play_hands(deals, dealers, rng: random.Random) -> list[HandResult]:
    return [play_hand(d, dl, rng) for d, dl in zip(deals, dealers)]


# ---------------------------------------------------------------------------------------------
# self-check: an independent, slow re-derivation of every step from the log


class _Recorder:
    """A stand-in rng that records every list of actions offered, then picks from it."""

    def __init__(self, rng):
        self.rng = rng
        self.offered: list[list[int]] = []

    def choice(self, seq):
        self.offered.append(list(seq))
        return self.rng.choice(seq)


class _RefLayout:
    """The layout kept as pieces per arm (oriented near-far), counted from scratch each time."""

    def __init__(self, tile):
        h, l = tile
        self.center = (h, l)
        self.arms = {"west": [], "east": [], "north": [], "south": []}
        self.spinner = None  # (where, index): "center" or an arm name and its position on it
        if h == l:
            self.spinner = ("center", 0)

    def spinner_tile(self):
        if self.spinner is None:
            return None
        where, i = self.spinner
        return self.center if where == "center" else self.arms[where][i]

    def spinner_boxed(self):
        """Both main sides of the spinner have a bone on them."""
        if self.spinner is None:
            return False
        where, i = self.spinner
        if where == "center":
            return bool(self.arms["west"]) and bool(self.arms["east"])
        return len(self.arms[where]) > i + 1  # the inner side is covered by construction

    def open_arms(self):
        return ["west", "east"] + (["north", "south"] if self.spinner_boxed() else [])

    def end_number(self, arm):
        pieces = self.arms[arm]
        if pieces:
            return pieces[-1][1]
        if arm in ("north", "south"):
            return self.spinner_tile()[0]
        return self.center[0] if arm == "west" else self.center[1]

    def end_piece(self, arm):
        pieces = self.arms[arm]
        if pieces:
            return ("arm", arm, len(pieces) - 1), pieces[-1]
        if arm in ("north", "south"):
            return None, None  # an empty spinner side
        return ("center", 0), self.center

    def count(self):
        total = 0
        spinner_is_line_end = False
        for arm in self.open_arms():
            key, piece = self.end_piece(arm)
            if piece is None:
                continue
            is_spinner = self.spinner is not None and (
                key == ("center", 0) and self.spinner == ("center", 0)
                or key[0] == "arm" and self.spinner == (key[1], key[2]))
            if is_spinner:
                spinner_is_line_end = True  # counted once below, even if it is both line ends
            elif piece[0] == piece[1]:
                total += 2 * piece[0]
            else:
                total += piece[1] if key[0] == "arm" else (piece[0] if arm == "west" else piece[1])
        if spinner_is_line_end:
            total += 2 * self.spinner_tile()[0]
        return total

    def legal(self, hand):
        out = []
        for tile in sorted(hand, key=lambda t: TILE_ID[t]):
            for arm in self.open_arms():
                if self.end_number(arm) in tile:
                    out.append(f"{tile[0]}-{tile[1]} {arm}")
        return out

    def lay(self, tile, arm):
        x = self.end_number(arm)
        assert x in tile, f"{tile} does not match {arm} showing {x}"
        far = tile[1] if tile[0] == x else tile[0]
        self.arms[arm].append((x, far))
        if self.spinner is None and tile[0] == tile[1]:
            self.spinner = (arm, len(self.arms[arm]) - 1)


def _ref_round(x: int) -> int:
    """Nearest multiple of five (x % 5 is never 2.5, so there are no ties)."""
    return 5 * round(x / 5)


def _parse(s: str):
    name, _, arm = s.partition(" ")
    a, _, b = name.partition("-")
    return (int(a), int(b)), arm


def _check_hand(deal, dealer, seed):
    """Play one hand with a recording rng and re-derive every step independently."""
    rec = _Recorder(random.Random(seed))
    log: list = []
    r = play_hand(deal, dealer, rec, log)
    hands = [sorted((max(t), min(t)) for t in h) for h in deal]
    assert sorted(t for h in hands for t in h) == sorted(TILES), "deal is not the 28-tile set"
    assert len(rec.offered) == len(log)
    seen = set()
    pts = [0, 0]
    layout = None
    seat = dealer
    run = 0
    for step, ((s, a, total, scored), offered) in enumerate(zip(log, rec.offered)):
        seat = (seat + 1) % 4
        assert s == seat, f"step {step}: seat {s} moved, want {seat}"
        names = [action_str(x) for x in offered]
        assert len(set(names)) == len(names), f"step {step}: an action offered twice: {names}"
        if layout is None:
            assert step == 0
            assert names == [f"{h}-{l}" for h, l in sorted(hands[s], key=lambda t: TILE_ID[t])]
            tile = TILES[a]
            assert tile in hands[s]
            layout = _RefLayout(tile)
        else:
            want = layout.legal(hands[s]) or ["knock"]
            assert names == want, f"step {step}: offered {names}, reference {want}"
            if a == KNOCK:
                assert total is None and scored == 0
                run += 1
                continue
            tile, arm = _parse(action_str(a))
            layout.lay(tile, arm)
        run = 0
        assert tile not in seen, f"step {step}: {tile} laid twice"
        seen.add(tile)
        hands[s].remove(tile)
        ref_total = layout.count()
        assert total == ref_total, f"step {step}: ends total {total}, reference {ref_total}"
        assert scored % 5 == 0 and scored >= 0, f"step {step}: scored {scored}"
        assert scored == (ref_total if ref_total % 5 == 0 else 0)
        pts[s % 2] += scored
    assert tuple(pts) == r.points, (pts, r.points)
    left = [sum(sum(t) for t in hands[0] + hands[2]), sum(sum(t) for t in hands[1] + hands[3])]
    assert tuple(left) == r.pips_left
    assert r.lays == len(seen) and r.lays + r.knocks == len(log)
    assert r.lays + sum(len(h) for h in hands) == 28
    award = [0, 0]
    if r.went_out >= 0:
        assert not r.blocked and not hands[r.went_out] and log[-1][0] == r.went_out
        assert all(hands[x] for x in range(4) if x != r.went_out)
        side = r.went_out % 2
        award[side] = _ref_round(left[1 - side])
    else:
        assert r.blocked and run == 4, "blocked without four knocks in a row"
        assert all(not layout.legal(h) for h in hands), "blocked but someone has a play"
        if left[0] != left[1]:
            light = 0 if left[0] < left[1] else 1
            award[light] = _ref_round(left[1 - light] - left[light])
    assert tuple(award) == r.award, (award, r.award)
    assert all(x % 5 == 0 for x in award)
    assert r.score == (pts[0] + award[0], pts[1] + award[1])
    return r


class _Script:
    """A stand-in rng that plays scripted action names first, then random choices."""

    def __init__(self, script, rng):
        self.script = list(script)
        self.rng = rng

    def choice(self, seq):
        if self.script:
            want = self.script.pop(0)
            names = [action_str(a) for a in seq]
            assert want in names, f"{want} not offered ({names})"
            return seq[names.index(want)]
        return self.rng.choice(seq)


def _example_deal():
    """Seat 1 (left of dealer 0) holds 6-4, seat 2 holds 6-6; the rest in id order."""
    rest = [t for t in TILES if t not in ((6, 4), (6, 6))]
    hands = [rest[0:7], [(6, 4)] + rest[7:13], [(6, 6)] + rest[13:19], rest[19:26]]
    return hands


def _worked_example(game=None) -> None:
    """Rule text: 6-4 first scores 10; 6-6 on the six then is the spinner, ends total 16."""
    deal = _example_deal()
    log: list = []
    play_hand(deal, 0, _Script(["6-4", "6-6 west"], random.Random(0)), log)
    (s0, a0, t0, sc0), (s1, a1, t1, sc1) = log[0], log[1]
    assert (s0, action_str(a0), t0, sc0) == (1, "6-4", 10, 10), log[0]
    assert (s1, action_str(a1), t1, sc1) == (2, "6-6 west", 16, 0), log[1]
    # and once the spinner is boxed in it counts nothing: 6-2 east on the 4 is not legal, so
    # a short scripted layout: 6-6 first (12, no score), 6-3 west (3+12=15), 6-1 east (3+1=4)
    rest = [t for t in TILES if t not in ((6, 6), (6, 3), (6, 1), (3, 3))]
    deal2 = [[(3, 3)] + rest[0:6], [(6, 6)] + rest[6:12], [(6, 3)] + rest[12:18],
             [(6, 1)] + rest[18:24]]
    log = []
    play_hand(deal2, 0, _Script(["6-6", "6-3 west", "6-1 east"], random.Random(0)), log)
    got = [(action_str(a), tot, sc) for _, a, tot, sc in log[:3]]
    assert got == [("6-6", 12, 0), ("6-3 west", 15, 15), ("6-1 east", 4, 0)], got
    if game is not None:
        st = game.new_hand(deal, 0, record=True)
        d = game.definition
        for want in ("6-4", "6-6 west"):
            acts = {d.action_to_string(a): a for a in st.legal_actions()}
            st.apply_action(acts[want])
        lays = [e["scored"] for e in st.events if e["type"] == "lay"]
        assert lays == [10, 0], f"interpreter worked example scored {lays}, want [10, 0]"


# ---------------------------------------------------------------------------------------------
# differential check against the tablerules interpreter


class Disagreement(Exception):
    pass


class _Lockstep:
    """A stand-in rng for play_hand that drives the interpreter with the same choices.

    Each call gets the hand-written engine's legal actions, compares their names with the
    interpreter's, picks one of the interpreter's actions at random, applies it there and
    returns the hand-written action of the same name."""

    def __init__(self, game, st, rng):
        self.d = game.definition
        self.st = st
        self.rng = rng
        self.trail: list[str] = []
        self.order_differs = False

    def choice(self, seq):
        st = self.st
        if st.is_terminal():
            raise Disagreement(f"step {len(self.trail)}: the interpreter's hand is over, the "
                               f"hand-written engine offers {[action_str(a) for a in seq]}")
        ia = st.legal_actions()
        theirs = [self.d.action_to_string(a) for a in ia]
        mine = [action_str(a) for a in seq]
        if sorted(mine) != sorted(theirs):
            only_m = sorted(set(mine) - set(theirs))
            only_i = sorted(set(theirs) - set(mine))
            raise Disagreement(f"step {len(self.trail)}: legal actions differ: only hand-written "
                               f"{only_m}, only interpreter {only_i}")
        if mine != theirs:
            self.order_differs = True
        k = self.rng.randrange(len(ia))
        st.apply_action(ia[k])
        self.trail.append(theirs[k])
        return seq[mine.index(theirs[k])]


def _diff_hand(game, deal, dealer, seed, engine=None):
    """Play one hand in lockstep. Returns (None, trail, order_differs) or (message, trail, _)."""
    st = game.new_hand(deal, dealer, record=True)
    lk = _Lockstep(game, st, random.Random(seed))
    log: list = []
    try:
        r = (engine or play_hand)(deal, dealer, lk, log)
    except Disagreement as e:
        return str(e), lk.trail, lk.order_differs
    if not st.is_terminal():
        return (f"after {len(lk.trail)} actions the hand-written hand is over "
                f"(went_out={r.went_out}, blocked={r.blocked}) but the interpreter's is not"), \
            lk.trail, lk.order_differs
    ev = [e for e in st.events if e["type"] in ("lay", "knock")]
    if len(ev) != len(log):
        return f"{len(log)} actions hand-written, {len(ev)} lay/knock events", lk.trail, lk.order_differs
    for i, (e, (s, a, total, scored)) in enumerate(zip(ev, log)):
        if e["seat"] != s:
            return f"step {i}: seat {s} hand-written, {e['seat']} interpreter", lk.trail, False
        if a == KNOCK:
            if e["type"] != "knock":
                return f"step {i}: knock hand-written, {e} interpreter", lk.trail, False
            continue
        if e["type"] != "lay" or e["scored"] != scored:
            return (f"step {i} ({lk.trail[i]}): hand-written ends total {total} scores {scored}, "
                    f"interpreter scores {e.get('scored')} (its ends {e.get('ends')}, "
                    f"layout {e.get('layout')})"), lk.trail[:i + 1], False
    hand = [e for e in st.events if e["type"] == "hand"][-1]
    mine = {"points": list(r.points), "scored": list(r.award), "went_out": r.went_out,
            "blocked": r.blocked, "pips_left": list(r.pips_left)}
    theirs = {k: hand.get(k) for k in mine}
    if mine != theirs:
        return f"end of hand: hand-written {mine}, interpreter {theirs}", lk.trail, False
    return None, lk.trail, lk.order_differs


def differential_check(game, deals, dealers, seed, engine=None) -> list:
    """Lockstep every deal (through `engine`, this play_hand by default); returns
    [(message, deal, dealer, trail)] of the disagreements."""
    bad = []
    order = 0
    for i, (deal, dealer) in enumerate(zip(deals, dealers)):
        msg, trail, od = _diff_hand(game, deal, dealer, seed * 1_000_003 + i, engine)
        order += od
        if msg is not None:
            bad.append((msg, deal, dealer, trail))
    if order:
        print(f"note: in {order} hands the two engines offered the same actions in a different "
              f"order (same sets; the benchmark then plays different games from the same seed)")
    return bad


def _load_interpreter():
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(os.path.dirname(here), "src"))
    try:
        from tablerules.game import load_game
        return load_game("allfives", {}), None
    except Exception as e:  # ImportError or anything the work-in-progress code raises
        return None, f"{type(e).__name__}: {e}"


def self_check(n: int, seed: int = 12345) -> int:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from deals import make_deals

    deals = make_deals(n, seed)
    dealers = [i % 4 for i in range(n)]
    stats = {"lays": 0, "knocks": 0, "out": 0, "blocked": 0, "points": 0, "award": 0, "tie": 0}
    for i, (deal, dealer) in enumerate(zip(deals, dealers)):
        r = _check_hand(deal, dealer, seed * 1_000_003 + i)
        stats["lays"] += r.lays
        stats["knocks"] += r.knocks
        stats["out"] += r.went_out >= 0
        stats["blocked"] += r.blocked
        stats["points"] += sum(r.points)
        stats["award"] += sum(r.award)
        stats["tie"] += r.blocked and r.pips_left[0] == r.pips_left[1]
    game, err = _load_interpreter()
    _worked_example(game)
    print(f"self-check OK: {n} hands; mean lays {stats['lays'] / n:.2f}, knocks "
          f"{stats['knocks'] / n:.2f}, went out {stats['out'] / n:.1%}, blocked "
          f"{stats['blocked'] / n:.1%} (equal pips {stats['tie']}), mean points from plays "
          f"{stats['points'] / n:.1f}, mean end award {stats['award'] / n:.1f}; worked example OK")
    if game is None:
        print(f"differential check skipped: interpreter not available ({err})")
        return 0
    bad = differential_check(game, deals, dealers, seed)
    if not bad:
        print(f"differential check OK: {n} hands, identical legal action sets at every step, "
              f"identical per-play scores and end-of-hand points/marks")
        return 0
    print(f"differential check FAILED in {len(bad)} of {n} hands")
    for msg, deal, dealer, trail in sorted(bad, key=lambda b: len(b[3]))[:3]:
        print(f"  {msg}")
        print(f"    dealer={dealer} deal={[[f'{h}-{l}' for h, l in hand] for hand in deal]}")
        print(f"    actions={trail}")
    return 1


def _main(argv=None) -> int:
    import harness  # only when run as a script: the engine itself stays standalone
    return harness.baseline_main(__doc__.splitlines()[0], play_hands, self_check, argv)


if __name__ == "__main__":
    sys.exit(_main())
