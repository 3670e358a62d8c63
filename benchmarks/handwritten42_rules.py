"""Hand-written Texas 42 player of the `fortytwo` strategy: ONE hand, every seat by its rules.

The baseline for the batch engine on the rule-based strategy (issue 11): plays a hand of
rulesets/texas42.yaml with its default options (point bids 30-42, marks bids, Nello and Sevens
at 1 mark and up; the dealer stuck at 30) with every seat choosing as the Python rules agent
does with rulesets/strategies/fortytwo.yaml and its default flags (read_auction on,
walk_last_trump off; open_on_count and hold_trumps off). It does not import tablerules: tiles
are ints (benchmarks/handwritten42.py's numbering, the step engine's piece ids), and every rank
and every `choose` key the strategy reads is a per-contract-and-trump table built at import.

The strategy never makes a marks bid (its bids are point bids, Nello and Sevens), so marks
hands are only scored, never reached; `--check` shows which contracts the check reached.

`--check N` plays N deals both here and in the step engine with `make_agent("rules", ...)` on
every seat and compares every action and the result; `--hands N` times this player beside
handwritten42.py's random play and the step engine with the rules agent, on the same deals.
"""

from __future__ import annotations

import os
import sys
from typing import NamedTuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from handwritten42 import COUNT, HI, LO, TILE_ID, TILES  # noqa: E402

# ---------------------------------------------------------------------------------------------
# tiles and actions (codes: tiles 0..27, PASS, BID + bid index, TRUMP + trump code)

N_TILES = len(TILES)
DOUBLE = [HI[t] == LO[t] for t in range(N_TILES)]
PIPS = [HI[t] + LO[t] for t in range(N_TILES)]
D7 = [abs(p - 7) for p in PIPS]  # distance from seven (Sevens)
PASS = 28
BID = 100
TRUMP = 200
DOUBLES, FOLLOW_ME, NONE = 7, 8, 9  # trump codes past the pips 0..6
TRUMP_VALUES = [str(x) for x in range(7)] + ["doubles", "followme", "none"]
TOP = 7  # the ruleset's `top`: max_pip + 1

# bids, in the step engine's order (index 0: no bid): (contract, level, rank, marks, label)
POINTS, MARKS, NELLO, SEVENS = 0, 1, 2, 3
CONTRACT_NAMES = ["points", "marks", "nello", "sevens"]
BIDS = [(-1, 0, -1, 0, "none")]
BIDS += [(POINTS, lv, lv, 1, str(lv)) for lv in range(30, 43)]
BIDS += [(MARKS, m, 42 * m, m, str(42 * m)) for m in range(2, 6)]
BIDS += [(NELLO, m, 42 * m, m, f"nello {m}") for m in range(1, 6)]
BIDS += [(SEVENS, m, 42 * m, m, f"sevens {m}") for m in range(1, 6)]
B_CONTRACT = [b[0] for b in BIDS]
B_LEVEL = [b[1] for b in BIDS]
B_RANK = [b[2] for b in BIDS]
B_MARKS = [b[3] for b in BIDS]
FORCED_BID = 1  # the stuck dealer's bid: 30


def _beats(b: int, high: int) -> bool:
    """auction.beats with the default options (max_opening_marks 2, raise exactly 1 mark)."""
    if B_RANK[b] <= B_RANK[high]:
        return False
    if B_MARKS[b] < 2:
        return True
    if B_MARKS[high] < 2:
        return B_MARKS[b] <= 2
    return B_MARKS[b] == B_MARKS[high] + 1


# OFFERS[high]: the bids (indexes) a free seat may make over the standing bid, in legal order
OFFERS = [[b for b in range(1, len(BIDS)) if _beats(b, h)] for h in range(len(BIDS))]
OFFER_POINTS = [[b for b in o if B_CONTRACT[b] == POINTS] for o in OFFERS]
OFFER_NELLO = [[b for b in o if B_CONTRACT[b] == NELLO] for o in OFFERS]
OFFER_SEVENS = [[b for b in o if B_CONTRACT[b] == SEVENS] for o in OFFERS]

NAMES: dict[int, str] = {t: f"{HI[t]}-{LO[t]}" for t in range(N_TILES)}
NAMES[PASS] = "pass"
NAMES.update({BID + b: f"bid {BIDS[b][4]}" for b in range(1, len(BIDS))})
NAMES.update({TRUMP + d: f"trump {TRUMP_VALUES[d]}" for d in range(10)})


def action_str(a: int) -> str:
    """The step engine's name of an action code."""
    return NAMES[a]


# ---------------------------------------------------------------------------------------------
# per (contract, trump) tables: ct 0..8 point/marks hands under trump 0..6, doubles, follow-me;
# ct 9 Nello (no trump, doubles high); ct 10 Sevens. Suits 0..6 pips, 7 doubles.

CT_NELLO, CT_SEVENS = 9, 10


def _has(t, x):
    return x < 7 and (HI[t] == x or LO[t] == x)


def _other(t, x):
    return LO[t] if HI[t] == x else HI[t]


def _points_tables(trump):
    """lib/trumps.yaml: lead suit, follow and trick rank per piece (followme_doubles high)."""
    def is_trump(t):
        return DOUBLE[t] if trump == DOUBLES else _has(t, trump)

    def suit_rank(t, n):
        if DOUBLE[t]:
            return HI[t] if n == DOUBLES else TOP
        return _other(t, n)

    def follows(t, led):
        if led == trump:
            return is_trump(t)
        return led != DOUBLES and not is_trump(t) and _has(t, led)

    lead = [(trump if is_trump(t) else HI[t]) for t in range(N_TILES)]
    fol = [[follows(t, s) for t in range(N_TILES)] for s in range(8)]
    rank = [[2 * (TOP + 1) + (HI[t] if trump == DOUBLES else suit_rank(t, trump)) if is_trump(t)
             else (TOP + 1 + suit_rank(t, s) if fol[s][t] else 0) for t in range(N_TILES)]
            for s in range(8)]
    return lead, fol, rank, [is_trump(t) for t in range(N_TILES)]


def _nello_tables():
    """texas42.yaml's nello_* functions with nello_doubles high: no trump, doubles top a suit."""
    lead = [HI[t] for t in range(N_TILES)]
    fol = [[s < 7 and _has(t, s) for t in range(N_TILES)] for s in range(8)]
    rank = [[(TOP + 1 + (TOP + 1 if DOUBLE[t] else 1 + _other(t, s))) if fol[s][t] else 0
             for t in range(N_TILES)] for s in range(8)]
    return lead, fol, rank, [False] * N_TILES


def _sevens_tables():
    """Sevens: every piece leads suit 0, nothing follows, rank 10 - distance from seven."""
    rank = [[10 - D7[t] for t in range(N_TILES)] for _ in range(8)]
    return [0] * N_TILES, [[False] * N_TILES for _ in range(8)], rank, [False] * N_TILES


def _build():
    out = [_points_tables(tr) for tr in range(9)] + [_nello_tables(), _sevens_tables()]
    lead = [o[0] for o in out]
    follow = [o[1] for o in out]
    rank = [o[2] for o in out]
    is_trump = [o[3] for o in out]
    trump_count = [sum(tr) for tr in is_trump]
    lead_rank, lead_key, draw_key, nello_lead = [], [], [], []
    ctp, take, cheap, nello_follow = [], [], [], []
    for ct in range(11):
        ld, rk, tr = lead[ct], rank[ct], is_trump[ct]
        lr = [rk[ld[t]][t] for t in range(N_TILES)]  # rank(t) when leading
        lead_rank.append(lr)
        nello_lead.append([-lr[t] for t in range(N_TILES)])  # lose_every_trick, leading
        # one key for the leading rules in order, each tier above the next (the first piece
        # of the highest key is the first rule's choice): lead_doubles (-a.piece.count, a
        # double off trump), then lead_cheap (-cost - 50 if trump: -173..-8); with
        # draw_trumps (rank, a trump) above them both
        lk = [1000 - COUNT[t] if DOUBLE[t] and not tr[t] else
              -(COUNT[t] * 10 + lr[t]) - (50 if tr[t] else 0) for t in range(N_TILES)]
        lead_key.append(lk)
        draw_key.append([10000 + lr[t] if tr[t] else lk[t] for t in range(N_TILES)])
        ctp.append([[COUNT[t] * 10 - rk[s][t] - (100 if tr[t] else 0) for t in range(N_TILES)]
                    for s in range(8)])  # count_to_partner
        take.append([[COUNT[t] * 20 - rk[s][t] for t in range(N_TILES)] for s in range(8)])
        cheap.append([[-(COUNT[t] * 10 + rk[s][t]) for t in range(N_TILES)] for s in range(8)])
        nello_follow.append(rk)  # lose_every_trick following: (0 if beats else 1000) + rank
    return (lead, follow, rank, is_trump, trump_count, lead_rank, lead_key, draw_key,
            nello_lead, ctp, take, cheap)


(LEAD, FOLLOW, RANK, IS_TRUMP, TRUMP_COUNT, LEAD_RANK, LEAD_KEY, DRAW_KEY, NELLO_LEAD,
 CTP_KEY, TAKE_KEY, CHEAP_KEY) = _build()

# ---------------------------------------------------------------------------------------------
# the strategy's bidding values (the hand is the 7 dealt pieces)


# Each piece's share of every bidding sum, packed in one int so a hand's sums are one sum():
# per pip x, 24 bits: strength(x)'s terms (8 bits), suit_len (4), holds_double (4), and the
# loser cost of the non-doubles showing x (8); then the non-doubles' loser cost (8 bits), the
# doubles (4), pieces within one of seven pips (4), pieces of seven pips (4).
_W = 24
_REST = 7 * _W


def _pack(t: int) -> int:
    h, lo = HI[t], LO[t]
    v = 0
    cost = 0 if h == lo else COUNT[t] + 5  # loser_cost: count + 1 + 4 (a double is no loser)
    for x in {h, lo}:
        v += ((10 + _other(t, x) + (6 if h == lo else 0))
              | 1 << 8 | (h == lo) << 12 | cost << 16) << (_W * x)
    v += (cost | (h == lo) << 8 | (D7[t] <= 1) << 12 | (D7[t] == 0) << 16) << _REST
    return v


PACK = [_pack(t) for t in range(N_TILES)]
# trump_risk(x) by suit_len and holds_double
RISK = [[(0 if d else 7) + (14 if n <= 2 else (6 if n == 3 else 0)) for d in (0, 1)]
        for n in range(8)]


def _appraise(hand):
    """The bid section's view of a hand: (specials contract or -1, counted before
    passed_against, strength per pip, doubles)."""
    v = sum([PACK[t] for t in hand])
    rest = v >> _REST
    base = rest & 255
    doubles = rest >> 8 & 15
    strengths = []
    fields = []
    best = -1
    for _ in range(7):
        st = v & 255
        strengths.append(st)
        fields.append(v)
        if st > best:
            best = st
        v >>= _W
    least = 99
    for x in range(7):
        if strengths[x] == best:
            f = fields[x]
            n = f >> 8 & 15
            d = f >> 12 & 15
            loss = base - (f >> 16 & 255) + RISK[n][d]
            if n <= 3:
                loss += 3 * (doubles - d)
            if loss < least:
                least = loss
    if HI[hand[-1]] <= 4 and doubles <= 1:  # the hand is sorted: its last piece's high is max
        special = NELLO
    elif rest >> 12 & 15 >= 6 and rest >> 16 & 15 >= 2:
        special = SEVENS
    else:
        special = -1
    return special, 40 - least, strengths, doubles


def _declare(strengths, doubles) -> int:
    """longest_trump: the first of 0..6, doubles, follow-me with the highest key."""
    keys = strengths + [doubles * 10 + 2, 0]
    return max(range(9), key=keys.__getitem__)


# ---------------------------------------------------------------------------------------------
# one hand


class HandResult(NamedTuple):
    contract: str  # points, marks, nello, sevens
    bid: str  # the bid's label: "30", "84", "nello 1"
    bidder: int
    forced: bool  # the dealer was stuck with the minimum bid
    made: bool
    points: tuple  # per side (side = seat % 2)
    scored: tuple  # marks per side
    trump: int  # 0..6, 7 doubles, 8 follow-me, 9 none (Nello, Sevens)
    tricks: int


def play_hand(deal, dealer: int, log=None) -> HandResult:
    """Play one hand; `deal` is 4 lists of 7 (hi, lo) tuples. If `log` is a list, every action
    taken is appended as its step engine name."""
    hands = [sorted([TILE_ID[t] for t in h]) for h in deal]

    # auction: each seat once, from the dealer's left
    high = 0
    hseat = -1
    forced = False
    passed = [False] * 4
    seen = [None] * 4  # each seat's _appraise, made when it bids
    for i in range(4):
        seat = (dealer + 1 + i) & 3
        if i == 3 and high == 0:  # stuck: the one legal action
            high, hseat, forced = FORCED_BID, seat, True
            if log is not None:
                log.append(NAMES[BID + FORCED_BID])
            break
        view = seen[seat] = _appraise(hands[seat])
        b = _bid(view, seat, high, hseat, passed)
        if b:
            high, hseat = b, seat
        else:
            passed[seat] = True
        if log is not None:
            log.append(NAMES[BID + b] if b else "pass")
    bidder = hseat
    kind = B_CONTRACT[high]
    level = B_LEVEL[high]

    if kind == NELLO:
        trump, ct = NONE, CT_NELLO
    elif kind == SEVENS:
        trump, ct = NONE, CT_SEVENS
    else:
        view = seen[bidder] or _appraise(hands[bidder])
        trump = ct = _declare(view[2], view[3])
        if log is not None:
            log.append(NAMES[TRUMP + trump])

    lead_of = LEAD[ct]
    follow_of = FOLLOW[ct]
    rank_of = RANK[ct]
    is_tr = IS_TRUMP[ct]
    trumps_left = TRUMP_COUNT[ct]  # trumps not yet played
    lead_key = LEAD_KEY[ct].__getitem__
    draw_key = DRAW_KEY[ct].__getitem__
    sevens = kind == SEVENS
    out = bidder ^ 2 if kind == NELLO else -1  # Nello: the bidder's partner sits out
    n_play = 3 if out >= 0 else 4
    bside = bidder & 1
    pts = [0, 0]
    won = [0, 0]
    leader = bidder
    tricks = 0
    made = None
    while True:
        # the lead
        seat = leader
        h = hands[seat]
        if sevens:
            m = min([D7[t] for t in h])
            legal = [t for t in h if D7[t] == m]
        else:
            legal = h
        if len(legal) == 1:
            tile = legal[0]
        elif seat == out ^ 2:  # the Nello bidder: lose_every_trick
            tile = max(legal, key=NELLO_LEAD[ct].__getitem__)
        elif seat & 1 == bside and trumps_left:  # draw_trumps, lead_doubles, lead_cheap
            tile = max(legal, key=draw_key)
            # a trump chosen: draw_trumps applies while the others may hold one (trumps_out);
            # only a contract with trumps gets here, where every piece held may lead
            if is_tr[tile] and sum([is_tr[t] for t in h]) >= trumps_left:
                tile = max(legal, key=lead_key)
        else:  # lead_doubles, lead_cheap
            tile = max(legal, key=lead_key)
        h.remove(tile)
        if is_tr[tile]:
            trumps_left -= 1
        if log is not None:
            log.append(NAMES[tile])
        suit = lead_of[tile]
        fol = follow_of[suit]
        rk = rank_of[suit]
        best = rk[tile]
        winner = leader
        points = 1 + COUNT[tile]
        trick = [tile]
        for _ in range(n_play - 1):
            seat = (seat + 1) & 3
            if seat == out:
                seat = (seat + 1) & 3
            h = hands[seat]
            if sevens:
                m = min([D7[t] for t in h])
                legal = [t for t in h if D7[t] == m]
            else:
                legal = [t for t in h if fol[t]] or h
            if len(legal) == 1:
                tile = legal[0]
            elif seat == out ^ 2:  # the Nello bidder: the highest piece that still loses
                tile = max(legal, key=lambda t: (0 if rk[t] > best else 1000) + rk[t])
            else:
                if winner == seat ^ 2:
                    # partner_safe; with four seats playing, the seats after this one hold as
                    # many as it does, and the partner winning led (third seat) or follows it
                    if out < 0:
                        safe = len(trick) == 3 or (DOUBLE[trick[0]] and (
                            is_tr[trick[0]] or not is_tr[trick[1]]))
                    else:
                        safe = _partner_safe(hands, seat, trick, leader, out, is_tr)
                    if safe:  # count_to_partner
                        tile = max(legal, key=CTP_KEY[ct][suit].__getitem__)
                    else:  # follow_cheap
                        tile = max(legal, key=CHEAP_KEY[ct][suit].__getitem__)
                else:
                    c = [t for t in legal if rk[t] > best]  # take_it
                    if c:
                        tile = max(c, key=TAKE_KEY[ct][suit].__getitem__)
                    else:  # cheap_into_lost
                        tile = max(legal, key=CHEAP_KEY[ct][suit].__getitem__)
            h.remove(tile)
            if is_tr[tile]:
                trumps_left -= 1
            if log is not None:
                log.append(NAMES[tile])
            trick.append(tile)
            points += COUNT[tile]
            if rk[tile] > best:
                best = rk[tile]
                winner = seat
        side = winner & 1
        pts[side] += points
        won[side] += 1
        tricks += 1
        leader = winner
        # the contract's outcome.over (early_end), else all seven tricks
        if kind == POINTS:
            if pts[bside] >= level:
                made = True
            elif pts[bside ^ 1] > 42 - level:
                made = False
        elif kind == NELLO:
            if won[bside]:
                made = False
        elif won[bside ^ 1]:  # marks, sevens: every trick
            made = False
        if made is not None:
            break
        if tricks == 7:
            made = pts[bside] >= level if kind == POINTS else (
                won[bside] == 0 if kind == NELLO else won[bside ^ 1] == 0)
            break
    marks = B_MARKS[high]
    scored = (marks if made == (bside == 0) else 0, marks if made == (bside == 1) else 0)
    return HandResult(CONTRACT_NAMES[kind], BIDS[high][4], bidder, forced, made,
                      (pts[0], pts[1]), scored, trump, tricks)


def _bid(view, seat, high, hseat, passed) -> int:
    """The bid section for a free seat: a bid index, or 0 to pass."""
    special = view[0]
    if special >= 0:  # specials_when_held: the lowest-ranked such bid, first in legal order
        c = OFFER_NELLO[high] if special == NELLO else OFFER_SEVENS[high]
        if c:
            return c[0]
    pts = OFFER_POINTS[high]
    lowest = B_LEVEL[pts[0]] if pts else -1
    # read_auction: the other side's passes so far
    counted = view[1] + 2 * (passed[(seat + 1) & 3] + passed[(seat + 3) & 3])
    value = counted + max(0, counted - 34)
    mine = hseat >= 0 and (hseat & 1) == (seat & 1)
    if lowest >= 0 and value >= lowest and (not mine or value >= B_LEVEL[high] + 6):
        return pts[0] + min(value, 42) - lowest  # size_by_losers: the highest level <= value
    if (hseat >= 0 and not mine and B_CONTRACT[high] == POINTS and B_LEVEL[high] <= 32
            and value >= B_LEVEL[high] - 3):
        return pts[0]  # contest_thin: the lowest point bid
    return 0


def _partner_safe(hands, seat, trick, leader, out, is_tr) -> bool:
    """partner_safe when a seat sits out: nobody else to play who holds as many as this seat,
    or the partner's double in the trick is trump or the trick holds no trump."""
    tseats = [leader]
    for _ in range(len(trick) - 1):
        s = (tseats[-1] + 1) & 3
        tseats.append((s + 1) & 3 if s == out else s)
    held = len(hands[seat])
    for s in range(4):
        if s != seat and s not in tseats and len(hands[s]) == held:
            break
    else:
        return True
    partner = seat ^ 2
    for t, s in zip(trick, tseats):
        if s == partner and DOUBLE[t]:
            if is_tr[t] or not any(is_tr[u] for u in trick):
                return True
    return False


def play_hands(deals, dealers) -> list[HandResult]:
    return [play_hand(d, dl) for d, dl in zip(deals, dealers)]


# ---------------------------------------------------------------------------------------------
# the check against the step engine with the Python rules agent (imports tablerules)


def _engine():
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))
    import random

    from tablerules.agents import make_agent
    from tablerules.game import load_game

    game = load_game("texas42")
    return game, make_agent("rules", random.Random(0), game.definition)


def engine_hand(game, agent, deal, dealer, log=None) -> dict:
    """One hand in the step engine, the rules agent on every seat: its hand_result."""
    st = game.new_hand(deal, dealer)
    act = agent.act
    while not st.is_terminal():
        legal = st.legal_actions()
        seat = st.current_player()
        a = act(seat, legal, lambda s=seat: st.observation(s))
        if log is not None:
            log.append(st.action_to_string(a))
        st.apply_action(a)
    return st.hand_result()


def _check_tables(gd) -> None:
    """This file's rank, lead and follow tables are the ruleset's, for every trump."""
    ci = {c.name: c.index for c in gd.contracts}
    keys = [(ci["points"], (TRUMP_VALUES[x] if x > 6 else x,)) for x in range(9)]
    keys += [(ci["nello"], ("none",)), (ci["sevens"], ("none",))]
    for ct, key in enumerate(keys):
        tb = gd.trick_tables[key]
        assert list(tb.lead) == LEAD[ct], key
        assert [list(r) for r in tb.rank] == RANK[ct], key
        if ct != CT_SEVENS:  # Sevens follows nothing: its legal rule decides
            assert [sum(1 << t for t in range(N_TILES) if f[t]) for f in FOLLOW[ct]] == \
                list(tb.follow_mask), key


def check(n: int, seed: int = 1) -> int:
    """Both engines on n deals (dealer rotating): every action and every result must agree."""
    from deals import make_deals

    game, agent = _engine()
    _check_tables(game.definition)
    deals = make_deals(n, seed)
    bad = []
    contracts: dict = {}
    for i, deal in enumerate(deals):
        dealer = i % 4
        want_log, got_log = [], []
        want = engine_hand(game, agent, deal, dealer, want_log)
        r = play_hand(deal, dealer, got_log)
        got = {"thrown_in": False, "contract": r.contract, "bid": r.bid, "bidder": r.bidder,
               "forced": r.forced, "made": r.made, "points": list(r.points),
               "scored": list(r.scored)}
        contracts[r.contract] = contracts.get(r.contract, 0) + 1
        if want_log != got_log:
            j = next((k for k, (x, y) in enumerate(zip(want_log, got_log)) if x != y),
                     min(len(want_log), len(got_log)))
            bad.append(f"hand {i + 1} (dealer {dealer}), decision {j + 1}: rules agent "
                       f"{want_log[j] if j < len(want_log) else '(hand over)'}, hand-written "
                       f"{got_log[j] if j < len(got_log) else '(hand over)'}")
        elif want != got:
            bad.append(f"hand {i + 1} (dealer {dealer}): result: step engine {want}, "
                       f"hand-written {got}")
        if len(bad) >= 10:
            break
    if bad:
        print(f"rules check FAILED ({len(bad)} hands disagree, first shown):")
        for b in bad:
            print("  " + b)
        return 1
    print(f"rules check OK: {n} hands (contracts played: "
          + ", ".join(f"{k} {v}" for k, v in sorted(contracts.items())) + ")")
    return 0


# ---------------------------------------------------------------------------------------------
# timing: this player, handwritten42.py's random play and the step engine, side by side


def bench(n: int, seed: int, repeat: int, engine_hands: int) -> int:
    import gc
    import random
    import time

    import handwritten42
    from deals import make_deals

    deals = make_deals(n, seed)
    dealers = [i % 4 for i in range(n)]
    m = min(n, engine_hands)
    game, agent = _engine()

    def run_engine(ds, dls):
        for d, dl in zip(ds, dls):
            engine_hand(game, agent, d, dl)

    def timed(fn, *args):
        gc.collect()
        t0 = time.perf_counter()
        fn(*args)
        return time.perf_counter() - t0

    play_hands(deals[:20], dealers[:20])  # warm-up, each alike
    handwritten42.play_hands(deals[:20], dealers[:20], random.Random(seed))
    run_engine(deals[:20], dealers[:20])
    best = {"rules": 1e9, "random": 1e9, "engine": 1e9}
    for r in range(repeat):
        t_rules = timed(play_hands, deals, dealers)
        t_rand = timed(handwritten42.play_hands, deals, dealers, random.Random(seed))
        t_eng = timed(run_engine, deals[:m], dealers[:m])
        best["rules"] = min(best["rules"], t_rules / n)
        best["random"] = min(best["random"], t_rand / n)
        best["engine"] = min(best["engine"], t_eng / m)
        print(f"repeat {r + 1}: hand-written rules {n / t_rules:,.0f} hands/s, hand-written "
              f"random {n / t_rand:,.0f}, step engine + rules agent {m / t_eng:,.0f} ({m} hands)")
    hps = {k: 1 / v for k, v in best.items()}
    print(f"hand-written rules player : {hps['rules']:10,.0f} hands/s (best of {repeat}, "
          f"{n} hands)")
    print(f"handwritten42.py random   : {hps['random']:10,.0f} hands/s")
    print(f"step engine + rules agent : {hps['engine']:10,.0f} hands/s ({m} of the same deals)")
    print(f"ratio: hand-written rules / step engine rules {hps['rules'] / hps['engine']:.1f}x; "
          f"hand-written random / hand-written rules {hps['random'] / hps['rules']:.2f}x")
    return 0


def _main(argv=None) -> int:
    import argparse

    from harness import POSITIVE

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", type=POSITIVE, metavar="N",
                    help="compare N hands with the step engine's rules agent")
    ap.add_argument("--hands", type=POSITIVE, default=20000, help="time N hands (default 20000)")
    ap.add_argument("--engine-hands", type=POSITIVE, default=2000,
                    help="the step engine plays the first N of those deals (default 2000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=POSITIVE, default=3)
    a = ap.parse_args(argv)
    if a.check:
        return check(a.check, a.seed)
    return bench(a.hands, a.seed, a.repeat, a.engine_hands)


if __name__ == "__main__":
    sys.exit(_main())
