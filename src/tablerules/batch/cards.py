"""The kernel's parts for card games and their records (kernel.py writes them in the module).

CARD_HELPERS is template text like kernel.HELPERS: the per-piece records (who played a piece,
who took its trick and which trick it was, who laid it away), the stock as it is shared out
(an exchange that takes part of it, from a place), follow tiers and counter-clockwise rings,
each the step engine's step (engine/setup.py, engine/tricks.py, engine/play.py) in its order;
`_playedm` reads the mask of the pieces each seat has played, which the loop keeps beside each
piece's player; the chips paid between seats at the end of a hand are generated
(kernel.Builder._pays). Every name is the module's own (upper-case tables of kernel.Builder) or
the template's.
"""

from __future__ import annotations

CARD_HELPERS = '''
@njit(cache=True, inline='always')
def _card(a, b):
    """The card of suit a and face b (symbols): CARD_AT[a's number, b's], made by the builder
    from CARD_SUIT and CARD_FACE (-1: no such card)."""
    i = a - CARD_SYM
    j = b - CARD_SYM
    if i >= 0 and i < CARD_AT.shape[0] and j >= 0 and j < CARD_AT.shape[1]:
        t = CARD_AT[i, j]
        if t >= 0:
            return t
    raise ValueError("there is no such card in this pack")


@njit(cache=True, inline='always')
def _ix(arr, i):
    if i < 0 or i >= arr.shape[0]:
        raise ValueError("an index is outside its list")
    return arr[i]


@njit(cache=True, inline='always')
def _playedm(S, y):
    """The mask of the pieces seat y has played, kept beside each piece's player (-1: the
    pieces nobody has played), for a test `played_by(t) == y` over many pieces."""
    if y >= 0 and y < SEATS:
        return S[PLAYEDM + y]
    if y == -1:
        m = (np.int64(1) << NP) - 1
        for s in range(SEATS):
            m &= ~S[PLAYEDM + s]
        return m
    return np.int64(0)


@njit(cache=True, inline='always')
def _records(S, H, deal, stock, stk):
    if REC_PLAYS:  # only a game that keeps them reads them
        for t in range(NP):
            S[PLAYED + t] = -1
    if REC_TAKEN:
        for t in range(NP):
            S[TAKENBY + t] = -1
    for s in range(SEATS):
        S[DEALTM + s] = deal[s]
        S[LAIDM + s] = 0
        # a hand of a chips match starts from the chips the match has come to
        S[CHIPS + s] = S[MCHIPS + s] if S[IN_MATCH] else STAKE
    sm = 0
    for q in range(STOCKN):
        stk[q] = stock[q]
        sm |= np.int64(1) << stock[q]
    S[STOCKM] = sm


@njit(cache=True, inline='always')
def _take(S, H, stk, nstock, tf, tn):
    """The stock's pieces tf .. tf + tn - 1 (all that is left when tn < 0) into the actor's
    hand; what is left of the stock closes up. Returns the stock's new size."""
    actor = S[ACTOR]
    b = nstock if tn < 0 else tf + tn
    for q in range(tf, b):
        H[actor] |= np.int64(1) << stk[q]
        S[STOCKM] &= ~(np.int64(1) << stk[q])
    w = b - tf
    for q in range(b, nstock):
        stk[q - w] = stk[q]
    return nstock - w


@njit(cache=True, inline='always')
def _buryable(S, H, e, acts):
    """The bury actions of the actor (exchange e's `legal`, asked of the hand's pieces in one
    call): how many, in acts."""
    _new_pass(S)
    m = H[S[ACTOR]]
    if EX_HAS_LEGAL[e]:
        m = _k_ex_legal(S, H, e, m)
    n = 0
    while m:
        acts[n] = BURY_BASE + _low(m)
        m &= m - 1
        n += 1
    return n


@njit(cache=True, inline='always')
def _follow(m, tid, ledi):
    """The pieces of m that may follow suit index ledi: the suit, else the first tier held."""
    f = m & FOLLOW[tid, ledi]
    if f:
        return f
    for q in range(NTIERS[tid, ledi]):
        f = m & TIERS[tid, ledi, q]
        if f:
            return f
    return m


@njit(cache=True, inline='always')
def _ring(S):
    """Each playing seat's next playing seat, STEP seats at a time."""
    for s in range(SEATS):
        if S[ACT + s]:
            t = (s + STEP) % SEATS
            while not S[ACT + t]:
                t = (t + STEP) % SEATS
            S[RING + s] = t


@njit(cache=True, inline='always')
def _taken(S, winner):
    for q in range(S[TRICKN]):
        S[TRICKOF + S[TRICK + q]] = S[TRICKS_PLAYED]
        S[TAKENBY + S[TRICK + q]] = winner
'''
