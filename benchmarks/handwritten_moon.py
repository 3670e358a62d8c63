"""Hand-written optimised engine: ONE hand of Moon (three players, 22 bones, a widow), random play.

The comparison baseline for the tablerules interpreter benchmark on `moon`. It does not import
tablerules (only the --check differential test does). Pieces are ints 0..21, hands are 22-bit
masks, the legal plays of a mask come from two 2048-entry tables (low and high 11 bits), and
the lead suit, follow masks and trick strength are per-trump tables built once at import.

Rules (rulesets/moon.yaml with its defaults; rule text 004, "Why Moon exists" to "Playing it
well"):
  * the double-six set without the blanks except 0-0 (22 bones), 7 each to seats 0, 1, 2 and
    one face down as the widow; no partners.
  * one round of bidding from the dealer's left (dealer + 1), each seat passes or bids once;
    a bid must beat the standing one: 4, 5, 6, 7 tricks, then moon (all seven, for 21) above
    them. All three pass: the hand is thrown in (nothing scored).
  * the bid winner takes the widow, buries one of its eight bones, names trump (0..6, doubles,
    follow-me) and leads. 42's follow and win rules: a trump lead leads trump, otherwise the
    higher end; a bone showing the trump number is trump only; follow suit if able; highest
    trump wins, else highest of the suit led (a double on top, then by the other end); with
    doubles trump the doubles rank by pip. No count: every trick is one point.
  * all seven tricks are played (the ruleset has no early end: the others score their tricks).
  * the bidder scores the bid if it took at least that many tricks (a moon: all seven, 21),
    else loses it (a moon: 21); each other seat scores one per trick taken.

Actions, offered in the interpreter's order (so the same random.Random stream plays the same
game in both engines): PASS, then BID + level for levels 4..7 and BID + 8 for the moon,
ascending; BURY + piece ascending; TRUMP + 0..8 (8 = follow-me, 7 = doubles); a play is the
piece id, ascending.

Run `python benchmarks/handwritten_moon.py --check 2000` for the self-check (and a differential
check against the tablerules interpreter when it is importable).
"""

from __future__ import annotations

import os
import random
import sys
from typing import NamedTuple

# ---------------------------------------------------------------------------------------------
# pieces and tables

PIECES: list[tuple[int, int]] = [(h, l) for h in range(7) for l in range(h + 1) if l > 0 or h == 0]
PIECE_ID: dict[tuple[int, int], int] = {}
for _i, (_h, _l) in enumerate(PIECES):
    PIECE_ID[(_h, _l)] = _i
    PIECE_ID[(_l, _h)] = _i
NP = len(PIECES)  # 22
HI = [p[0] for p in PIECES]
LO = [p[1] for p in PIECES]

PASS = 100
BID = 100  # BID + level, level 4..7; BID + MOON for the moon
MOON = 8  # the moon's rank (and its "level" code)
BURY = 200
TRUMP = 300
DOUBLES = 7
FOLLOW_ME = 8
TRUMP_SUIT = 7  # suit code of "trump led"; pip suits are 0..6
TRUMP_ACTS = tuple(TRUMP + c for c in range(9))
TRUMP_NAMES = ["0", "1", "2", "3", "4", "5", "6", "doubles", "followme"]

# AUCTION[high]: pass, then every bid ranking above `high` (0 = no bid yet)
AUCTION = [(PASS,) + tuple(BID + r for r in range(max(4, high + 1), MOON + 1)) for high in range(9)]

NEXT = (1, 2, 0)


def _split_tables(base: int):
    """lo[m], hi[m]: the actions base + piece for the set bits of an 11-bit half, ascending."""
    lo = [tuple(base + i for i in range(11) if m >> i & 1) for m in range(2048)]
    hi = [tuple(base + 11 + i for i in range(11) if m >> i & 1) for m in range(2048)]
    return lo, hi


PLAY_LO, PLAY_HI = _split_tables(0)
BURY_LO, BURY_HI = _split_tables(BURY)
BITS = [1 << i for i in range(NP)]


def _is_trump(trump: int, p: int) -> bool:
    if trump < 7:
        return HI[p] == trump or LO[p] == trump
    return trump == DOUBLES and HI[p] == LO[p]


def _suit_rank(trump: int, p: int, suit: int) -> int:
    """suit_rank: a double tops its suit (doubles trump: by pip), else the other end."""
    h, l = HI[p], LO[p]
    if h == l:
        return h if (suit == TRUMP_SUIT and trump == DOUBLES) else 7
    s = trump if suit == TRUMP_SUIT else suit
    return l if h == s else h


def _build_tables():
    lead, follow, score = [], [], []
    for trump in range(9):
        lead.append([TRUMP_SUIT if _is_trump(trump, p) else HI[p] for p in range(NP)])
        fm, sc = [], []
        for suit in range(8):
            m = 0
            row = []
            for p in range(NP):
                if suit == TRUMP_SUIT:
                    ok = _is_trump(trump, p)
                else:
                    ok = not _is_trump(trump, p) and (HI[p] == suit or LO[p] == suit)
                if ok:
                    m |= 1 << p
                if _is_trump(trump, p):
                    row.append(16 + _suit_rank(trump, p, TRUMP_SUIT))
                elif ok:
                    row.append(8 + _suit_rank(trump, p, suit))
                else:
                    row.append(0)
            fm.append(m)
            sc.append(row)
        follow.append(fm)
        score.append(sc)
    return lead, follow, score


LEAD, FOLLOW, SCORE = _build_tables()


def action_str(a: int) -> str:
    """The interpreter's names: "pass", "bid 5", "bid moon", "bury 6-1", "trump doubles", "6-1"."""
    if a < NP:
        return f"{HI[a]}-{LO[a]}"
    if a == PASS:
        return "pass"
    if a < BURY:
        return "bid moon" if a - BID == MOON else f"bid {a - BID}"
    if a < TRUMP:
        return f"bury {HI[a - BURY]}-{LO[a - BURY]}"
    return f"trump {TRUMP_NAMES[a - TRUMP]}"


# ---------------------------------------------------------------------------------------------
# one hand


class HandResult(NamedTuple):
    bidder: int  # seat, -1 when thrown in
    bid: int  # level 4..7, or 8 for the moon; 0 when thrown in
    trump: int  # 0..6, 7 doubles, 8 follow-me; -1 when thrown in
    buried: int  # piece, -1 when thrown in
    tricks: tuple  # tricks taken per seat
    made: bool
    scored: tuple  # hand score per seat
    thrown_in: bool


THROWN_IN = HandResult(-1, 0, -1, -1, (0, 0, 0), False, (0, 0, 0), True)


def play_hand(deal, dealer: int, rng, log=None) -> HandResult:
    """Play one hand. `deal` is 3 hands of 7 and the widow (a list of one), as (hi, lo) pairs or
    piece ids; `rng` has `choice(seq)`. If `log` is a list, each trick is appended as
    (leader, [pieces in play order], winner) (used by the self-check)."""
    pid = PIECE_ID
    hands = [0, 0, 0]
    for s in (0, 1, 2):
        m = 0
        for t in deal[s]:
            m |= 1 << (pid[t] if type(t) is tuple else t)
        hands[s] = m
    w = deal[3][0]
    widow = pid[w] if type(w) is tuple else w
    choice = rng.choice

    # auction
    high = 0
    bidder = -1
    seat = NEXT[dealer]
    for _ in (0, 1, 2):
        a = choice(AUCTION[high])
        if a != PASS:
            high = a - BID
            bidder = seat
        seat = NEXT[seat]
    if bidder < 0:
        return THROWN_IN

    # widow and bury
    h = hands[bidder] | 1 << widow
    buried = choice(BURY_LO[h & 2047] + BURY_HI[h >> 11]) - BURY
    hands[bidder] = h ^ 1 << buried

    # trump
    trump = choice(TRUMP_ACTS) - TRUMP
    lead_of = LEAD[trump]
    follow_of = FOLLOW[trump]
    score_of = SCORE[trump]

    # seven tricks
    tricks = [0, 0, 0]
    leader = bidder
    for _ in range(7):
        h = hands[leader]
        p = choice(PLAY_LO[h & 2047] + PLAY_HI[h >> 11])
        hands[leader] = h ^ BITS[p]
        suit = lead_of[p]
        fm = follow_of[suit]
        sc = score_of[suit]
        best = sc[p]
        winner = leader
        played = [p] if log is not None else None
        seat = NEXT[leader]
        h = hands[seat]
        m = h & fm or h
        p = choice(PLAY_LO[m & 2047] + PLAY_HI[m >> 11])
        hands[seat] = h ^ BITS[p]
        if sc[p] > best:
            best = sc[p]
            winner = seat
        if played is not None:
            played.append(p)
        seat = NEXT[seat]
        h = hands[seat]
        m = h & fm or h
        p = choice(PLAY_LO[m & 2047] + PLAY_HI[m >> 11])
        hands[seat] = h ^ BITS[p]
        if sc[p] > best:
            winner = seat
        if played is not None:
            played.append(p)
            log.append((leader, played, winner))
        tricks[winner] += 1
        leader = winner

    need = 7 if high == MOON else high
    made = tricks[bidder] >= need
    value = 21 if high == MOON else high
    scored = list(tricks)
    scored[bidder] = value if made else -value
    return HandResult(bidder, high, trump, buried, tuple(tricks), made, tuple(scored), False)


def play_hands(deals, dealers, rng: random.Random) -> list[HandResult]:
    return [play_hand(d, dl, rng) for d, dl in zip(deals, dealers)]


def make_deals(n: int, seed: int) -> list:
    """n Moon deals from random.Random(seed): 3 hands of 7 (hi, lo) pairs, then the widow [one]."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        ps = PIECES[:]
        rng.shuffle(ps)
        out.append([ps[0:7], ps[7:14], ps[14:21], ps[21:22]])
    return out


# ---------------------------------------------------------------------------------------------
# self-check: a separate, slow implementation written from the rule text, same random stream


_REF_SET = sorted((h, l) for h in range(7) for l in range(h + 1) if 0 not in (h, l) or h == l == 0)
_REF_BIDS = ["bid 4", "bid 5", "bid 6", "bid 7", "bid moon"]  # in rank order, moon above seven
_REF_TRUMPS = [str(n) for n in range(7)] + ["doubles", "followme"]


def _ref_name(t):
    return f"{max(t)}-{min(t)}"


def _ref_id_order(ts):
    return sorted(ts, key=lambda t: (max(t), min(t)))


def _ref_trump(trump, t):
    if trump == "doubles":
        return t[0] == t[1]
    return trump != "followme" and int(trump) in t


def _ref_led(trump, t):
    return "T" if _ref_trump(trump, t) else max(t)


def _ref_follows(trump, led, t):
    if led == "T":
        return _ref_trump(trump, t)
    return not _ref_trump(trump, t) and led in t


def _ref_key(trump, led, t):
    """Trick strength from the text: "Highest trump takes the trick", else the top of the suit."""
    h, l = max(t), min(t)
    if _ref_trump(trump, t):
        if trump == "doubles":
            return (2, h, 0)
        n = int(trump)
        return (2, 1 if h == l else 0, l if h == n else h)
    if _ref_follows(trump, led, t):
        return (1, 1 if h == l else 0, l if h == led else h)
    return (0, 0, 0)


class _Recorder:
    """A stand-in rng that records every list of actions offered (by name), then picks from it."""

    def __init__(self, rng, namer):
        self.rng = rng
        self.namer = namer
        self.offered: list[list[str]] = []

    def choice(self, seq):
        self.offered.append([self.namer(a) for a in seq])
        return self.rng.choice(seq)


def _ref_play(deal, dealer, rng):
    """The reference hand: returns (offered name lists, result dict). Picks with rng.choice too."""
    offered = []

    def pick(names):
        offered.append(list(names))
        return rng.choice(names)

    hands = [set((max(t), min(t)) for t in h) for h in deal[:3]]
    widow = (max(deal[3][0]), min(deal[3][0]))
    assert sorted(set().union(*hands) | {widow}) == _REF_SET and sum(map(len, hands)) == 21
    standing = -1  # index into _REF_BIDS
    bidder = None
    for k in range(3):
        seat = (dealer + 1 + k) % 3
        b = pick(["pass"] + _REF_BIDS[standing + 1:])
        if b != "pass":
            standing, bidder = _REF_BIDS.index(b), seat
    if bidder is None:
        return offered, {"thrown_in": True, "scored": [0, 0, 0]}
    hands[bidder].add(widow)
    assert len(hands[bidder]) == 8
    b = pick([f"bury {_ref_name(t)}" for t in _ref_id_order(hands[bidder])])
    buried = tuple(int(x) for x in b.split()[1].split("-"))
    hands[bidder].remove(buried)
    trump = pick([f"trump {x}" for x in _REF_TRUMPS]).split()[1]
    taken = [0, 0, 0]
    leader = bidder
    seen = {buried}
    for _ in range(7):
        plays = []
        for k in range(3):
            seat = (leader + k) % 3
            mine = _ref_id_order(hands[seat])
            if k:
                led = _ref_led(trump, plays[0])
                can = [t for t in mine if _ref_follows(trump, led, t)]
                mine = can or mine
            name = pick([_ref_name(t) for t in mine])
            t = tuple(int(x) for x in name.split("-"))
            assert t not in seen
            seen.add(t)
            hands[seat].remove(t)
            plays.append(t)
        led = _ref_led(trump, plays[0])
        keys = [_ref_key(trump, led, t) for t in plays]
        assert keys[0][0] >= 1, "the lead belongs to the suit it leads"
        leader = (leader + keys.index(max(keys))) % 3
        taken[leader] += 1
    assert not any(hands) and sum(taken) == 7 and len(seen) == 22
    level = 7 if _REF_BIDS[standing] == "bid moon" else int(_REF_BIDS[standing].split()[1])
    worth = 21 if _REF_BIDS[standing] == "bid moon" else level
    made = taken[bidder] >= level
    scored = [taken[s] if s != bidder else (worth if made else -worth) for s in range(3)]
    return offered, {"thrown_in": False, "bidder": bidder, "tricks": taken, "made": made,
                     "scored": scored, "trump": trump, "buried": buried}


def _check_hand(deal, dealer, seed):
    rec = _Recorder(random.Random(seed), action_str)
    log: list = []
    r = play_hand(deal, dealer, rec, log)
    offered, ref = _ref_play(deal, dealer, random.Random(seed))
    for i, (a, b) in enumerate(zip(rec.offered, offered)):
        assert a == b, f"step {i}: offered {a}, reference {b}"
    assert len(rec.offered) == len(offered), (len(rec.offered), len(offered))
    assert r.thrown_in == ref["thrown_in"] and list(r.scored) == ref["scored"], (r, ref)
    if not r.thrown_in:
        assert r.bidder == ref["bidder"] and list(r.tricks) == ref["tricks"]
        assert r.made == ref["made"] and TRUMP_NAMES[r.trump] == ref["trump"]
        assert PIECES[r.buried] == ref["buried"] and len(log) == 7
    return r


def _text_examples() -> None:
    """Rule text: "Bid five, take four, and five points come off"; the others score their tricks."""
    # seat 1 holds the top six sixes and 5-5: a moon it cannot lose whatever the others play
    deal = [[(4, 1), (4, 3), (4, 2), (3, 3), (3, 2), (2, 2), (1, 1)],
            [(6, 6), (6, 5), (6, 4), (6, 3), (6, 2), (6, 1), (5, 5)],
            [(5, 4), (5, 3), (5, 2), (5, 1), (4, 4), (3, 1), (2, 1)], [(0, 0)]]

    class Script:
        def __init__(self, names, rng):
            self.names, self.rng = list(names), rng

        def choice(self, seq):
            if self.names:
                want = self.names.pop(0)
                got = [a for a in seq if action_str(a) == want]
                assert got, f"{want} not offered: {[action_str(a) for a in seq]}"
                return got[0]
            return self.rng.choice(seq)

    for seed in range(20):
        r = play_hand(deal, 0, Script(["bid moon", "pass", "pass", "bury 0-0", "trump 6"],
                                      random.Random(seed)))
        assert r.made and r.scored == (0, 21, 0) and r.tricks == (0, 7, 0), r
    r = play_hand(deal, 0, Script(["pass", "pass", "pass"], random.Random(0)))
    assert r.thrown_in and r.scored == (0, 0, 0)
    # seat 2 bids five with no trumps in a six-trump deal held by seat 1: it cannot take five
    for seed in range(20):
        r = play_hand(deal, 0, Script(["pass", "bid 5", "pass", "bury 2-1", "trump 6"],
                                      random.Random(seed)))
        assert not r.made and r.scored[2] == -5 and r.scored[0] == r.tricks[0], r


# ---------------------------------------------------------------------------------------------
# differential check against the tablerules interpreter


class Disagreement(Exception):
    pass


class _Lockstep:
    """A stand-in rng that drives the interpreter with the same choices, matched by name."""

    def __init__(self, game, st, rng):
        self.d = game.definition
        self.st = st
        self.rng = rng
        self.trail: list[str] = []

    def choice(self, seq):
        st = self.st
        if st.is_terminal():
            raise Disagreement(f"step {len(self.trail)}: the interpreter's hand is over, the "
                               f"hand-written engine offers {[action_str(a) for a in seq]}")
        ia = st.legal_actions()
        theirs = [self.d.action_to_string(a) for a in ia]
        mine = [action_str(a) for a in seq]
        if mine != theirs:
            raise Disagreement(f"step {len(self.trail)}: legal actions differ: hand-written "
                               f"{mine}, interpreter {theirs}")
        k = self.rng.randrange(len(ia))
        st.apply_action(ia[k])
        self.trail.append(theirs[k])
        return seq[k]


def _diff_hand(game, deal, dealer, seed):
    """One hand in lockstep: None, or a message for the first difference."""
    st = game.new_hand(deal, dealer, record=True)
    lk = _Lockstep(game, st, random.Random(seed))
    try:
        r = play_hand(deal, dealer, lk)
    except Disagreement as e:
        return str(e), lk.trail
    if not st.is_terminal():
        return (f"after {len(lk.trail)} actions the hand-written hand is over, not the "
                f"interpreter's"), lk.trail
    hand = [e for e in st.events if e["type"] == "hand"][-1]
    if r.thrown_in:
        ok = hand.get("thrown_in") is True and hand.get("score") == [0, 0, 0]
        return (None if ok else f"thrown in hand-written, interpreter {hand}"), lk.trail
    mine = {"bidder": r.bidder, "tricks": list(r.tricks), "made": r.made, "scored": list(r.scored),
            "bid": "moon" if r.bid == MOON else str(r.bid),
            "declarations": {"trump": r.trump if r.trump < 7 else TRUMP_NAMES[r.trump]}}
    theirs = {k: hand.get(k) for k in mine}
    if mine != theirs:
        return f"end of hand: hand-written {mine}, interpreter {theirs}", lk.trail
    tricks = [e for e in st.events if e["type"] == "trick"]
    if len(tricks) != 7:
        return f"interpreter played {len(tricks)} tricks", lk.trail
    return None, lk.trail


def differential_check(game, deals, dealers, seed) -> list:
    """Lockstep every deal; returns [(message, deal, dealer, trail)] of the disagreements."""
    bad = []
    for i, (deal, dealer) in enumerate(zip(deals, dealers)):
        msg, trail = _diff_hand(game, deal, dealer, seed * 1_000_003 + i)
        if msg is not None:
            bad.append((msg, deal, dealer, trail))
    return bad


def _load_interpreter():
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(os.path.dirname(here), "src"))
    try:
        from tablerules.game import load_game
        return load_game("moon", {}), None
    except Exception as e:  # ImportError or anything the work-in-progress code raises
        return None, f"{type(e).__name__}: {e}"


def self_check(n: int, seed: int = 12345) -> int:
    deals = make_deals(n, seed)
    dealers = [i % 3 for i in range(n)]
    st = {"thrown": 0, "made": 0, "moon": 0, "tricks_bidder": 0}
    for i, (deal, dealer) in enumerate(zip(deals, dealers)):
        r = _check_hand(deal, dealer, seed * 1_000_003 + i)
        st["thrown"] += r.thrown_in
        st["made"] += r.made
        st["moon"] += r.bid == MOON
        st["tricks_bidder"] += 0 if r.thrown_in else r.tricks[r.bidder]
    _text_examples()
    played = max(1, n - st["thrown"])
    print(f"self-check OK: {n} hands; thrown in {st['thrown'] / n:.1%}, moon bids "
          f"{st['moon'] / played:.1%}, made {st['made'] / played:.1%}, mean bidder tricks "
          f"{st['tricks_bidder'] / played:.2f}; rule-text examples OK")
    game, err = _load_interpreter()
    if game is None:
        print(f"differential check skipped: interpreter not available ({err})")
        return 0
    bad = differential_check(game, deals, dealers, seed)
    if not bad:
        print(f"differential check OK: {n} hands, identical legal actions (same order) at every "
              f"step, identical tricks, made and scores")
        return 0
    print(f"differential check FAILED in {len(bad)} of {n} hands")
    for msg, deal, dealer, trail in sorted(bad, key=lambda b: len(b[3]))[:3]:
        print(f"  {msg}")
        print(f"    dealer={dealer} deal={[[f'{h}-{l}' for h, l in hand] for hand in deal]}")
        print(f"    actions={trail}")
    return 1


def _main(argv=None) -> int:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import harness  # only when run as a script: the engine itself stays standalone
    return harness.baseline_main(__doc__.splitlines()[0], play_hands, self_check, argv,
                                 make_deals=make_deals, seats=3)


if __name__ == "__main__":
    sys.exit(_main())
