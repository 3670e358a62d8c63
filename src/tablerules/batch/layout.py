"""Layout play in the batch kernel: the line, the spinner and its arms, draws, knocks, claims.

The kernel's form of engine/layout.py, step for step: the first piece is the center; the line
has two arms; a spinner (the first double, when the contract plays one) opens its further arms
once both line arms are covered. The layout lives in slots of S (per arm: the number open at
its end, its end piece, whether it is playable, how many pieces it holds), and after each lay
the open ends that count are written to S (`EPIPS + k`, `EDBL + k`, `ESPIN + k` for k below
S[NENDS]): the typed back end reads `ends`, `spinner_open` and `spinner_pips` there.

`build(builder)` adds the layout's tables and its one hook kind (`play.scores`) to a kernel;
the hand loop (kernel.LOOP) calls `_layout` for a contract whose LAYOUT entry is set.
"""

from __future__ import annotations

from ..definition.game import LINE_ARMS

# scalar slots of S the layout keeps (after kernel._EXTRA), and per-arm slot arrays
SCALARS = ("NENDS", "SPIN_OPEN", "SPIN_PIPS", "CENTER", "SPINNER", "PENDING", "KNOCKS")
PER_ARM = ("AOPEN", "AEND", "APLAY", "ANP", "EPIPS", "EDBL", "ESPIN")


def arms(game) -> int:
    """How many arms a layout of the game has (line arms, then every spinner arm)."""
    return max(1, len(game.actions.arms))


def build(b) -> None:
    """The layout's constants, tables and `_k_scores` dispatcher, on kernel Builder `b`
    (emitted for every game, so the hand loop's layout branch always has its names)."""
    g = b.g
    acts = g.actions
    lays = [c.play.layout if c.play.mode == "layout" else None for c in g.contracts]
    b.const("HAS_LAYOUT", any(x is not None for x in lays))
    b.const("HAS_TRICKS", any(x is None for x in lays))  # constants: numba prunes the other
    b.const("NARMS", arms(g))
    b.const("NLINE", len(LINE_ARMS))  # every layout's line (definition/game.py)
    b.const("LAYOUT_BASE", acts.layout_base)
    b.const("DRAW", acts.draw_action)
    b.const("KNOCK", acts.knock_action)
    b.const("CLAIM", acts.claim_action)
    b.array("LAYOUT", [x is not None for x in lays])
    b.array("SPIN", [bool(x and x.spinner) for x in lays])
    b.array("MUST_DRAW", [bool(x and x.must_draw) for x in lays])
    b.array("MAY_DRAW", [bool(x and x.may_draw) for x in lays])
    b.array("CLAIMS", [bool(x and x.claim) for x in lays])
    names = acts.arms or ("",)
    b.array("SPIN_ARMS", [bool(x) and a in x.spinner_arms for x in lays for a in names],
            (len(lays), len(names)))
    b.array("NUMMASK", list(g.number_mask) or [0])
    pips = g.pieces.attrs.get("pips") if g.pieces.ends else None
    pips = list(pips) if pips is not None else [0] * len(g.pieces)
    # the pips of a mask by its bytes: a hand's total in a few look-ups (it was a third of a
    # hand's time, read for every side when scoring)
    chunks = (len(g.pieces) + 7) // 8
    b.array("PIPS8", [sum(pips[8 * k + j] for j in range(8) if v >> j & 1 and 8 * k + j < len(pips))
                      for k in range(chunks) for v in range(256)], (chunks, 256))
    b.per_contract("scores", ("play", "scores"), "0", lambda c: c.play.mode == "layout")


# The layout of one hand, as engine/layout.py plays it (legal, apply, _claim, _after,
# _set_center, _extend); `_layout` returns the decisions taken so far, or minus an error code.
LAYOUT = '''
@njit(cache=True, inline='always')
def _pips_left(H, side):
    c = 0
    for s in range(SEATS):
        if SIDE_OF[s] == side:
            m = H[s]
            for k in range(PIPS8.shape[0]):
                c += PIPS8[k, (m >> (8 * k)) & 255]
    return c


@njit(cache=True, inline='always')
def _ends(S):
    n = 0
    for a in range(NARMS):
        if a >= NLINE and not (S[APLAY + a] and S[ANP + a] > 0):
            continue
        t = S[AEND + a]
        S[EPIPS + n] = S[AOPEN + a]
        S[EDBL + n] = 1 if HI[t] == LO[t] else 0
        S[ESPIN + n] = 1 if t == S[SPINNER] else 0
        n += 1
    S[NENDS] = n
    S[SPIN_OPEN] = 1 if S[SPINNER] >= 0 and S[PENDING] != 0 else 0
    S[SPIN_PIPS] = HI[S[SPINNER]] if S[SPINNER] >= 0 else 0


@njit(cache=True, inline='always')
def _lay_score(S, side, pts):
    _add(S, side, pts, 0)
    S[SCORE + side] += pts


@njit(cache=True, inline='always')
def _layout(S, H, R, c, stock, nstock, leader, acts, step, out, nleg, i):
    S[CENTER] = -1
    S[SPINNER] = -1
    S[PENDING] = 0
    S[KNOCKS] = 0
    S[NENDS] = 0
    S[SPIN_OPEN] = 0
    S[SPIN_PIPS] = 0
    for a in range(NARMS):
        S[AOPEN + a] = 0
        S[AEND + a] = -1
        S[APLAY + a] = 0
        S[ANP + a] = 0
    nactive = 0
    for s in range(SEATS):
        nactive += S[ACT + s]
    actor = leader
    while True:
        S[ACTOR] = actor
        m = H[actor]
        _new_pass(S)
        n = 0
        first = S[CENTER] < 0
        cand = m
        if not first:
            cand = 0
            for a in range(NARMS):
                if S[APLAY + a]:
                    cand |= m & NUMMASK[S[AOPEN + a]]
        # one call site per hook: numba inlines each one
        while cand:
            t = _low(cand)
            cand &= cand - 1
            if HAS_LEGAL[c]:
                S[TILE] = t
                if not _k_legal(S, H, c):
                    continue
            if first:
                acts[n] = t
                n += 1
                continue
            for a in range(NARMS):
                if S[APLAY + a] and (NUMMASK[S[AOPEN + a]] >> t) & 1:
                    acts[n] = LAYOUT_BASE + NARMS * t + a
                    n += 1
        if not first:
            plays = n
            if nstock > 0 and (MAY_DRAW[c] or plays == 0):
                acts[n] = DRAW
                n += 1
            if plays == 0 and not (nstock > 0 and MUST_DRAW[c]):
                acts[n] = KNOCK
                n += 1
        a = _choose(S, H, R, acts, n, step, out, nleg, i)
        if a < 0:
            return a
        step += 1
        if a == DRAW:  # the next piece of the stock, in dealt order
            t = stock[STOCKN - nstock]
            H[actor] |= np.int64(1) << t
            S[STOCKM] &= ~(np.int64(1) << t)  # the stock as `stock_left` and a strategy see it
            nstock -= 1
            continue
        if a == KNOCK:
            S[KNOCKS] += 1
            if S[KNOCKS] >= nactive:
                S[BLOCKED] = 1
                return step
            actor = S[RING + actor]
            continue
        S[KNOCKS] = 0
        if a < NP:
            t = a
            S[CENTER] = t
            for q in range(NARMS):
                S[AOPEN + q] = HI[t] if q == 0 else LO[t]
                S[AEND + q] = t
                S[APLAY + q] = 1 if q < NLINE else 0
                S[ANP + q] = 0
            S[PENDING] = 0
            if SPIN[c] and HI[t] == LO[t]:
                S[SPINNER] = t
                S[PENDING] = (1 << NLINE) - 1
        else:
            t = (a - LAYOUT_BASE) // NARMS
            arm = (a - LAYOUT_BASE) % NARMS
            far = LO[t] if S[AOPEN + arm] == HI[t] else HI[t]
            S[AOPEN + arm] = far
            S[AEND + arm] = t
            S[ANP + arm] += 1
            bit = 1 << arm
            if S[PENDING] & bit:
                S[PENDING] &= ~bit
                if S[PENDING] == 0:
                    # every line arm covered: the spinner's other arms open
                    for q in range(NLINE, NARMS):
                        if SPIN_ARMS[c, q]:
                            S[AOPEN + q] = HI[S[SPINNER]]
                            S[AEND + q] = S[SPINNER]
                            S[APLAY + q] = 1
            elif SPIN[c] and S[SPINNER] < 0 and HI[t] == LO[t] and arm < NLINE:
                S[SPINNER] = t
                S[PENDING] = bit
        H[actor] &= ~(np.int64(1) << t)
        _ends(S)
        side = SIDE_OF[actor]
        # the lay's count for the player; with claims the player is asked first, then each
        # opponent in turn from its left, asked only when the count would score for its side
        s = actor
        got = 0
        while True:
            S[ACTOR] = s
            v = _k_scores(S, H, c)
            if s == actor:
                if v != 0 and not CLAIMS[c]:
                    _lay_score(S, side, v)
                    got = v
                if H[actor] == 0:
                    S[WENT_OUT] = actor
                if v == 0 or not CLAIMS[c]:
                    break
            if v != 0:
                acts[0] = PASS
                acts[1] = CLAIM
                a = _choose(S, H, R, acts, 2, step, out, nleg, i)
                if a < 0:
                    return a
                step += 1
                if a == CLAIM:
                    _lay_score(S, SIDE_OF[s], v)
                    got = v
                    break
            s = S[RING + s]
            while s != actor and SIDE_OF[s] == side:
                s = S[RING + s]
            if s == actor:
                break
        # a lay that scored may win the match there and then (engine/layout.py, _after)
        if DURING and S[IN_MATCH] and got != 0 and _k_match_over(S, H):
            S[CUT] = 1
            return step
        if H[actor] == 0:
            return step
        actor = S[RING + actor]
'''
