"""What one seat may know: its information state, and nothing of other seats' hidden pieces.

A seat sees its own pieces (as dealt and as held), every public action (the auction, the
declarations, every piece played or laid and by whom, draws and knocks, claims and passes of a
count, but not which piece was drawn or buried by another seat), the stock it took, the pieces
it buried, and the score.
"""

from __future__ import annotations

from typing import Any

from .phases import AUCTION, CHANCE, PHASE_NAMES

HIDDEN = None  # an action a seat did not see: a piece dealt to another seat, another's bury
HIDDEN_NAME = "bury (face down)"  # such an action, named in an observation


def visible_actions(st, seat: int, start: int = 0, end: int | None = None
                    ) -> list[tuple[int, int | None]]:
    """The history from `start` (to `end`) as `seat` saw it: (player, action id, or None when
    hidden)."""
    g = st.game
    acts = g.actions
    bury_lo, bury_hi = acts.bury_base, acts.layout_base
    k = g.hand_size
    mine = range(seat * k, (seat + 1) * k)
    out = []
    pos = _deal_position(st, start)
    for player, a in st.history[start:end]:
        if player == CHANCE:
            out.append((CHANCE, a if pos in mine else HIDDEN))
            pos += 1
        else:
            pos = 0
            out.append((player, a if player == seat or not bury_lo <= a < bury_hi else HIDDEN))
    return out


def _deal_position(st, start: int) -> int:
    """How many chance actions of the current deal come before history index `start`."""
    n = 0
    i = start - 1
    while i >= 0 and st.history[i][0] == CHANCE:
        n += 1
        i -= 1
    return n


def observation(st, seat: int) -> dict[str, Any]:
    g = st.game
    names = g.pieces.names
    ctx = st.ctx
    su = st.setup
    named, actions = _this_hand(st, seat)
    obs = {
        "seat": seat,
        "phase": PHASE_NAMES[st.phase],
        "to_move": st.current_player(),
        "dealer": ctx.dealer,
        "hand": [names[t] for t in g.mask_pieces(st.hands[seat])],
        "hand_sizes": [bin(m).count("1") for m in st.hands],
        "history": [*_history_before(st, seat), *named],
        "bid": g.bids[ctx.high if st.phase == AUCTION else ctx.bid].label,
        "bidder": ctx.bidder,
        "declarations": {d.name: ctx.decl[d.index] for d in g.declarations},
        "trick": [[s, names[t]] for s, t in zip(st.play.seats if st.play else (), ctx.trick)],
        "points": list(ctx.points),
        "tricks": list(ctx.tricks),
        "score": list(ctx.score),
        "stock_size": len(st.stock),
        # buried pieces are face down: only the seat that buried them knows them
        "buried": [names[t] for t, s in zip(su.buried, su.buried_seats) if s == seat]
        if su is not None else [],
        "layout": st.layout.text() if st.layout is not None else {},
        # for rebuilding worlds: this hand's actions as the seat saw them, and the match so far
        "hand_actions": list(actions),  # a deal starts each hand
        "dealt": [names[t] for t in st.dealt_hands[seat]] if st.dealt_hands else [],
        "took": [names[st.dealt_stock[p]] for s, _, ps in su.takes if s == seat for p in ps]
        if su is not None else [],
        "took_by": su.took_by if su is not None else -1,
        "took_at": su.took_at if su is not None else -1,
        "drew": _own_draws(st, seat),
        "contract": g.contracts[ctx.contract].name if ctx.contract >= 0 else None,
        "active": list(st.active),
        "hands_played": ctx.hands_played,
        "deals": st.deals,
        "score_at_deal": list(st.start_score),
        "single_hand": st.single_hand,
    }
    if g.match.stake is not None:
        obs["chips"] = list(ctx.chips)  # public; they change only between hands
    if g.shares_stock:
        # who took which places of the stock, and when (public; what it was is not)
        obs["takes"] = [[s, at, list(ps)] for s, at, ps in su.takes] if su is not None else []
    if g.turn is not None:  # public: everybody knows whose turn it is
        obs["turn"] = ctx.turn
        obs["turn_before"] = ctx.turn_before
    return obs


class Sight:
    """What `observation` says, for an agent that reads ids: the same information as piece,
    bid and contract ids (not names), and this hand's public actions as the record a strategy
    reads (`public`), not listed. Built from the state in a few microseconds; its fields are
    ints, tuples and the public record's mappings, which nobody changes (a later sight gets new
    ones), so it is a copy, never a view of the state."""

    __slots__ = ("seat", "phase", "dealer", "bidder", "hand", "hand_sizes", "bid", "decl",
                 "trick", "trick_seats", "points", "tricks", "score", "stock_size", "buried",
                 "ends", "contract", "chips", "played_by", "bid_by", "passed", "high",
                 "high_seat", "lead_named", "unseen")

    def __init__(self, st, seat: int):
        g = st.game
        ctx = st.ctx
        su = st.setup
        self.seat = seat
        self.phase = st.phase
        self.dealer = ctx.dealer
        self.bidder = ctx.bidder
        hands = st.hands
        self.hand = g.mask_pieces(hands[seat])
        self.hand_sizes = tuple([m.bit_count() for m in hands])
        self.bid = ctx.high if st.phase == AUCTION else ctx.bid
        self.decl = tuple([ctx.decl[d.index] for d in g.declarations])
        self.trick = tuple(ctx.trick)
        self.trick_seats = tuple(st.play.seats) if st.play else ()
        self.points, self.tricks, self.score = tuple(ctx.points), tuple(ctx.tricks), tuple(ctx.score)
        self.stock_size = len(st.stock)
        mine = hands[seat]
        if su is not None and su.buried:
            self.buried = tuple([t for t, s in zip(su.buried, su.buried_seats) if s == seat])
            for t in self.buried:
                mine |= 1 << t
        else:
            self.buried = ()
        # the layout as the arms one may lay on, not its text: (pips, double, spinner, arm)
        self.ends = st.layout.arm_ends() if st.layout is not None else ()
        self.contract = ctx.contract  # -1: none yet
        self.chips = tuple(ctx.chips) if g.match.stake is not None else ()
        (self.played_by, self.bid_by, self.passed, self.high, self.high_seat, self.lead_named,
         played) = public(st)
        # neither held nor buried by this seat nor played: as observation's pieces
        self.unseen = g.mask_pieces(g.all_pieces & ~(mine | played))


EMPTY_RECORD = ({}, {}, frozenset(), 0, -1, -1, 0)


def record(acts, actions, rec: tuple = EMPTY_RECORD) -> tuple:
    """A hand's public record (see `public`) extended by `actions`, (seat, action id) pairs as a
    seat saw them: a chance action (seat < 0) and one the seat did not see (None) add nothing.
    A new record: `rec`'s mappings are copied, never changed."""
    played_by, bid_by, passed, high, high_seat, lead_named, played = rec
    played_by, bid_by, passed = dict(played_by), dict(bid_by), set(passed)
    npieces, lay_lo = acts.pieces, acts.layout_base
    bid_base, decl_base = acts.bid_base, acts.decl_base
    lead_lo, bury_lo, pass_a = acts.lead_base, acts.bury_base, acts.pass_action
    for p, a in actions:
        if p < 0 or a is None:  # the deal, a draw by lot; another seat's bury
            continue
        if a < npieces:
            played_by[a] = p
            played |= 1 << a
        elif a >= lay_lo:
            t = acts.lay_of(a)[0]
            played_by[t] = p
            played |= 1 << t
        elif bid_base <= a < decl_base:
            high, high_seat = a - bid_base + 1, p
            if high > bid_by.get(p, 0):
                bid_by[p] = high
        elif a == pass_a:
            passed.add(p)
        elif lead_lo <= a < bury_lo:
            lead_named = a - lead_lo
    return played_by, bid_by, frozenset(passed), high, high_seat, lead_named, played


def public(st) -> tuple:
    """This hand's public record so far: (who played or laid each piece {piece: seat}, each
    seat's highest bid {seat: bid index}, the seats that passed (a frozenset), the standing bid
    and its seat (0 and -1: none), the suit a leader named (-1: none), the played pieces' mask).
    Every seat sees the same (a bury, the one action seen by one seat only, is in none of it).
    Kept in the state and extended by the actions since (a new record each time: one handed out
    is never changed)."""
    kept = st.seen_public
    n = len(st.history)
    if kept is None or kept[0] != st.hand_start or kept[1] > n:
        kept = (st.hand_start, st.hand_start, EMPTY_RECORD)
    if kept[1] < n:
        kept = st.seen_public = (st.hand_start, n,
                                 record(st.game.actions, st.history[kept[1]:n], kept[2]))
    return kept[2]


class Observer:
    """What an agent is handed at a decision (`act(seat, legal, observe)`): `observe()` is the
    seat's observation (`observation`, names), `observe.sight()` the same as ids (`Sight`)."""

    __slots__ = ("st", "seat")

    def __init__(self, st, seat: int):
        self.st = st
        self.seat = seat

    def __call__(self) -> dict[str, Any]:
        return observation(self.st, self.seat)

    def sight(self) -> Sight:
        return Sight(self.st, self.seat)


def _named(g, hist) -> list:
    """Decisions (no chance action, no lot) as [seat, action name]."""
    names = g.actions.names
    return [[s, names[a] if a is not HIDDEN else HIDDEN_NAME] for s, a in hist if s >= 0]


def _this_hand(st, seat: int) -> tuple[tuple, tuple]:
    """This hand's decisions as `seat` saw them, named, and every action of the hand as it saw
    it ([seat, id or None]); kept in the state and extended by what happened since the last
    observation, as `_history_before` keeps the match before the hand."""
    start, upto, named, actions = st.seen_hand.get(seat, (-1, 0, (), ()))
    n = len(st.history)
    if start != st.hand_start or upto > n:
        start, upto, named, actions = st.hand_start, st.hand_start, (), ()
    if upto < n:
        more = visible_actions(st, seat, upto, n)
        named = named + tuple(_named(st.game, more))
        actions = actions + tuple([s, a] for s, a in more)
        st.seen_hand[seat] = (start, n, named, actions)
    return named, actions


def _history_before(st, seat: int) -> tuple:
    """The match's decisions before this hand as `seat` saw them, named.

    Kept in the state from one observation to the next (the history before a hand never
    changes), so an observation costs the hand's length, not the match's. Its [seat, name]
    lists are shared between observations: an observation is read, never changed.
    """
    upto, named = st.seen_before.get(seat, (0, ()))
    if upto != st.hand_start:
        if upto > st.hand_start:  # not a prefix of this history: start again
            upto, named = 0, ()
        named = named + tuple(_named(st.game, visible_actions(st, seat, upto, st.hand_start)))
        st.seen_before[seat] = (st.hand_start, named)
    return named


def _own_draws(st, seat: int) -> list[str]:
    """The pieces `seat` drew from the stock this hand, in order."""
    g = st.game
    draw = g.actions.draw_action
    out = []
    i = 0
    for player, a in st.history[st.hand_start:]:
        if player != CHANCE and a == draw:
            if player == seat:
                out.append(g.pieces.names[st.dealt_stock[i]])
            i += 1
    return out
