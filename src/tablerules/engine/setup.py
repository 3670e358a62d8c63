"""Between the auction and play: the exchange (take the stock, bury) and the declarations."""

from __future__ import annotations

from ..errors import RulesetFault
from . import events
from .phases import DECLARE, EXCHANGE, SET_UP
from .seats import seat_of


class Setup:
    """Where the contract's setup steps have got to, and what the exchange moved."""

    __slots__ = ("steps", "i", "declare_i", "taking", "buried", "buried_by", "took", "took_by",
                 "took_at")

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

    def copy(self) -> "Setup":
        s = Setup(self.steps)
        s.i = self.i
        s.declare_i, s.taking, s.buried_by, s.took, s.took_by, s.took_at = (
            self.declare_i, self.taking, self.buried_by, self.took, self.took_by, self.took_at)
        s.buried = list(self.buried)
        return s


def start_contract(st):
    """The setup steps of the contract won; SET_UP when there are none."""
    st.setup = Setup(st.game.contracts[st.ctx.contract].setup_steps)
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
        ex = c.exchange
        st.ctx.actor = seat_of(st, ex.by(st.ctx), "contracts", c.name, "exchange", "by")
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
    for v, a in zip(ds.choices, ds.actions):
        ctx.choice = v
        if ds.allow(ctx):
            keep.append(a)
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
    return tuple(base + t for t in g.mask_pieces(st.hands[st.ctx.actor]))


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
    if st.events is not None:
        st.events.append(events.buried(st, st.ctx.actor, t))
    if _bury_due(st):
        return None
    su.i += 1
    return next_step(st)


def _take_stock(st) -> None:
    for t in st.stock:
        st.hands[st.ctx.actor] |= 1 << t
    st.setup.took = st.stock
    st.setup.took_by = st.ctx.actor
    st.setup.took_at = len(st.history) - st.hand_start
    if st.events is not None:
        st.events.append(events.took(st, st.ctx.actor, st.stock))
    st.stock = ()


def _bury_due(st) -> bool:
    if len(st.setup.buried) < st.game.contracts[st.ctx.contract].exchange.bury:
        st.phase = EXCHANGE
        return True
    return False
