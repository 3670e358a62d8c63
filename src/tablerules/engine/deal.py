"""The chance step: a deal is one chance action per piece, seat by seat, then the stock.

Seat 0's `hand_size` pieces come first, then seat 1's, and so on; the stock (a widow or a
boneyard) follows in the order it is drawn. Each is recorded in the history as (CHANCE, piece),
so ruleset, options and history identify a game exactly.
"""

from __future__ import annotations

import random
from itertools import chain
from ..errors import CallerError
from . import events
from .seats import seat_of
from .phases import CHANCE, DEAL, DEALT, LOT


def size(g) -> int:
    """Pieces dealt in one deal: every hand, then the stock."""
    return g.seat_count * g.hand_size + g.stock


def legal(st) -> tuple[int, ...]:
    g = st.game
    if st.by_lot:  # first the draw for the first dealer: any seat
        return g.all_seats
    m = g.all_pieces
    for t in st.dealing:
        m &= ~(1 << t)
    return g.mask_pieces(m)


def draw_dealer(st, seat: int) -> None:
    """The chance action that draws the first dealer by lot, recorded as (LOT, seat)."""
    st.by_lot = False
    st.ctx.dealer = seat
    st.history.append((LOT, seat))
    st.hand_start = len(st.history)
    st.step_cap = 0
    st._legal = None


def apply(st, piece: int):
    """One chance action: `piece` goes to the next place of the deal; DEALT after the last."""
    st.dealing.append(piece)
    st.history.append(_CHANCE_ENTRY[piece])
    if len(st.dealing) == size(st.game):
        return _finish(st)
    return None


def shuffled(g, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """A random deal: each hand sorted, the stock in drawing order."""
    order = list(range(len(g.pieces)))
    rng.shuffle(order)
    k = g.hand_size
    hands = [tuple(sorted(order[i * k:(i + 1) * k])) for i in range(g.seat_count)]
    rest = g.seat_count * k
    hands.append(tuple(order[rest:rest + g.stock]))
    return tuple(hands)


def apply_deal(st, dealt):
    """A whole deal at once: the same as its chance actions one by one; returns DEALT."""
    if st.phase != DEAL or st.dealing or st.by_lot:
        raise CallerError("a deal was applied when no deal was due"
                          + (" (the first dealer is still to be drawn)" if st.by_lot else ""))
    g = st.game
    n, k = g.seat_count, g.hand_size
    try:
        if len(dealt) not in (n, n + 1) or (len(dealt) == n and g.stock):
            raise CallerError(f"a deal has {n} hands" + (" and a stock" if g.stock else ""))
        hands = tuple(map(tuple, dealt[:n]))
        stock = tuple(dealt[n]) if len(dealt) > n else ()
    except TypeError:
        raise CallerError("a deal is a list of hands, each a list of piece ids") from None
    if set(map(len, hands)) != {k}:
        s, h = next((s, h) for s, h in enumerate(hands) if len(h) != k)
        raise CallerError(f"a deal gives each seat {k} pieces; seat {s} has {len(h)}")
    if len(stock) != g.stock:
        raise CallerError(f"a deal's stock has {g.stock} pieces, not {len(stock)}")
    bit = g.bit.__getitem__
    try:
        masks = [sum(map(bit, h)) for h in hands]  # KeyError: not a piece
        every = sum(masks) + sum(map(bit, stock))
    except (KeyError, TypeError):
        raise CallerError(f"a deal names {_stranger(g, hands, stock)!r}, which is not a piece "
                          "of this set") from None
    if every.bit_count() != n * k + len(stock):  # a repeated piece carries into another bit
        raise CallerError("a deal names a piece twice")
    history = st.history
    before = len(history)
    try:
        history.extend(map(_CHANCE_ENTRY.__getitem__, chain.from_iterable(hands)))
        history.extend(map(_CHANCE_ENTRY.__getitem__, stock))
    except TypeError:  # 1.0 hashes like 1: not a piece all the same
        del history[before:]
        raise CallerError(f"a deal names {_stranger(g, hands, stock)!r}, which is not a piece "
                          "of this set") from None
    st.dealt_hands = hands
    st.dealt_stock = st.stock = stock
    st.hands[:] = masks
    return _dealt(st)


def _stranger(g, hands, stock):
    return next((t for t in chain(*hands, stock) if type(t) is not int or t not in g.bit), None)


_CHANCE_ENTRY = tuple((CHANCE, t) for t in range(4096))  # history entry of dealing piece t


def _finish(st):
    """The last chance action is in: the hands and the stock as dealt, one by one."""
    g = st.game
    n, k = g.seat_count, g.hand_size
    pieces = st.dealing
    st.dealt_hands = tuple(tuple(pieces[s * k:(s + 1) * k]) for s in range(n))
    st.dealt_stock = st.stock = tuple(pieces[n * k:])
    bit = g.bit.__getitem__
    st.hands[:] = [sum(map(bit, h)) for h in st.dealt_hands]
    return _dealt(st)


def _dealt(st):
    st.step_cap = len(st.history) + st.max_steps
    st.deals += 1
    st.start_score = tuple(st.ctx.score)
    st.ctx.dealt_hands = st.dealt_hands
    if st.game.turn is not None:
        ctx = st.ctx
        ctx.turn_before = ctx.turn
        ctx.turn = seat_of(st, st.game.turn(ctx), "deal", "turn")
    if st.events is not None:
        st.events.append(events.deal(st))
    return DEALT
