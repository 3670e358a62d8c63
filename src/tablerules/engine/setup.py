"""Between the auction and play: the exchange (take the stock, bury) and the declarations."""

from __future__ import annotations

from ..errors import RulesetFault
from . import events
from .phases import DECLARE, EXCHANGE, SET_UP
from .seats import seat_of


class Setup:
    """Where the contract's setup steps have got to, and what the exchange moved."""

    __slots__ = ("steps", "i", "declare_i", "taking", "buried", "buried_by", "took", "took_by",
                 "took_at", "exchange_k", "take_n", "take_from", "step_buried", "buried_seats",
                 "stock_pos", "takes")

    def __init__(self, steps: tuple):
        self.steps = steps  # ContractDef.setup_steps
        self.i = 0  # the step under way
        self.declare_i = 0
        self.taking = False  # the exchanging seat decides first whether to take the stock
        self.buried: list[int] = []
        self.buried_by = -1
        self.took: tuple = ()  # the stock pieces the exchanging seat took into its hand
        self.took_by = -1
        self.took_at = -1  # how many of this hand's actions came before the take
        self.exchange_k = 0  # the exchange under way (a list of exchanges: one per seat)
        self.take_n = -1  # how many pieces it takes (-1: all that is left)
        self.take_from = 0  # from where in the stock
        self.step_buried = 0  # pieces buried in the exchange under way
        self.buried_seats: list[int] = []  # the seat that buried each of `buried`
        self.stock_pos: tuple = ()  # the deal position (in the stock) of each piece left in it
        self.takes: list = []  # each take: (seat, actions before it, stock positions taken)

    def copy(self) -> "Setup":
        s = Setup(self.steps)
        s.i = self.i
        s.declare_i, s.taking, s.buried_by, s.took, s.took_by, s.took_at = (
            self.declare_i, self.taking, self.buried_by, self.took, self.took_by, self.took_at)
        s.buried = list(self.buried)
        s.exchange_k, s.take_n, s.take_from, s.step_buried = (
            self.exchange_k, self.take_n, self.take_from, self.step_buried)
        s.buried_seats = list(self.buried_seats)
        s.stock_pos = self.stock_pos
        s.takes = list(self.takes)
        return s


def start_contract(st):
    """The setup steps of the contract won; SET_UP when there are none."""
    st.setup = Setup(st.game.contracts[st.ctx.contract].setup_steps)
    st.setup.stock_pos = tuple(range(len(st.stock)))
    return next_step(st)


def next_step(st):
    """The next setup step that needs a decision, or SET_UP when none is left."""
    c = st.game.contracts[st.ctx.contract]
    su = st.setup
    steps = su.steps
    while su.i < len(steps):
        step = steps[su.i]
        if step[0] == "d":
            ds = c.declare[step[1]]
            st.ctx.actor = seat_of(st, ds.by(st.ctx), "contracts", c.name, "declare")
            if ds.when is not None and not ds.when(st.ctx):
                su.i += 1  # not asked: the declaration keeps its value
                continue
            su.declare_i = step[1]
            st.phase = DECLARE
            if ds.allow is not None and not legal_declare(st):
                raise RulesetFault(f"contract '{c.name}': 'allow' leaves seat {st.ctx.actor} no "
                                   f"choice of '{st.game.declarations[ds.decl].name}'").at(
                    "contracts", c.name, "declare", st.game.declarations[ds.decl].name, "allow")
            return None
        ex = c.exchange_at(step[1])
        ctx = st.ctx
        ctx.actor = seat_of(st, ex.by(ctx), "contracts", c.name, "exchange", "by")
        su.exchange_k = step[1]
        su.step_buried = 0
        if ex.take is None:
            su.take_n, su.take_from = -1, 0
        else:
            su.take_n, su.take_from = _part(st, c, ex)
            if su.take_n == 0:  # a seat that takes nothing lays nothing away
                su.i += 1
                continue
        if ex.optional and st.stock:
            su.taking = True
            st.phase = EXCHANGE
            return None
        _take_stock(st)
        if _bury_due(st):
            return None
        su.i += 1
    return SET_UP


def legal_declare(st) -> tuple[int, ...]:
    ds = st.game.contracts[st.ctx.contract].declare[st.setup.declare_i]
    if ds.allow is None:
        return ds.legal
    ctx = st.ctx
    keep = []
    ctx.memo = {}  # one pass: what reads no `choice` is worked out once (expr/compiler.py)
    try:
        for v, a in zip(ds.choices, ds.actions):
            ctx.choice = v
            if ds.allow(ctx):
                keep.append(a)
    finally:
        ctx.memo = None
    return tuple(sorted(keep))


def apply_declare(st, action: int):
    acts = st.game.actions
    d, value = acts.decl_actions[action - acts.decl_base]
    decl = list(st.ctx.decl)
    decl[d] = value
    st.ctx.decl = tuple(decl)
    st.setup.i += 1
    return next_step(st)


def legal_exchange(st) -> tuple[int, ...]:
    g = st.game
    if st.setup.taking:
        return (g.actions.take_action, g.actions.leave_action)
    base = g.actions.bury_base
    pieces = g.mask_pieces(st.hands[st.ctx.actor])
    ok = g.contracts[st.ctx.contract].exchange_at(st.setup.exchange_k).legal
    if ok is not None:
        pieces = st.ctx.allowed(ok, pieces)
    return tuple(base + t for t in pieces)


def apply_exchange(st, action: int):
    g = st.game
    su = st.setup
    if su.taking:
        su.taking = False
        if action == g.actions.take_action:
            _take_stock(st)
            if _bury_due(st):
                return None
        su.i += 1
        return next_step(st)
    t = action - g.actions.bury_base
    st.hands[st.ctx.actor] &= ~(1 << t)
    su.buried.append(t)
    su.buried_by = st.ctx.actor
    su.buried_seats.append(st.ctx.actor)
    su.step_buried += 1
    if st.ctx.laid is not None:
        st.ctx.laid.append((t, st.ctx.actor))
    if st.events is not None:
        st.events.append(events.buried(st, st.ctx.actor, t))
    if _bury_due(st):
        return None
    su.i += 1
    return next_step(st)


def _part(st, c, ex) -> tuple[int, int]:
    """(how many, from where): the part of the stock an exchange with `take` takes."""
    ctx = st.ctx
    n = ex.take(ctx)
    start = ex.start(ctx) if ex.start is not None else 0
    if n < 0 or start < 0 or start + n > len(st.stock):
        # at the key that placed it: `from` when it moved the take, else `take` (an exchange of
        # a list by its index: one written alone is said at the exchange)
        key = "from" if ex.start is not None and start != 0 else "take"
        k = st.setup.exchange_k
        at = (k, key) if k or c.more_exchanges else (key,)
        raise RulesetFault(f"contract '{c.name}': an exchange takes {n} pieces from place {start} "
                           f"of a stock of {len(st.stock)}").at("contracts", c.name, "exchange",
                                                                *at)
    return n, start


def _take_stock(st) -> None:
    su = st.setup
    stock = st.stock
    a, n = su.take_from, su.take_n
    b = len(stock) if n < 0 else a + n
    taken = stock[a:b]
    seat = st.ctx.actor
    for t in taken:
        st.hands[seat] |= 1 << t
    at = len(st.history) - st.hand_start
    su.takes.append((seat, at, su.stock_pos[a:b]))
    su.stock_pos = su.stock_pos[:a] + su.stock_pos[b:]
    if su.took_by < 0 or su.took_by == seat:  # the first seat to take, and all it took
        su.took = su.took + taken
        su.took_by = seat
        if su.took_at < 0:
            su.took_at = at
    if st.events is not None:
        st.events.append(events.took(st, seat, taken))
    st.stock = stock[:a] + stock[b:]


def _bury_due(st) -> bool:
    su = st.setup
    if su.step_buried < st.game.contracts[st.ctx.contract].exchange_at(su.exchange_k).bury:
        st.phase = EXCHANGE
        return True
    return False
