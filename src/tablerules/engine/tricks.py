"""Trick play: lead, follow from the tabulated follow masks, the trick's winner and its points."""

from __future__ import annotations

from ..definition import CHUNK, CHUNK_MASK
from . import events
from .phases import HAND_OVER, LEAD, PLAY


class Tricks:
    """The hand's trick play: the seats that play, the trick so far, the tables in force."""

    __slots__ = ("tables", "must_follow", "follow_mask", "active", "nxt", "n_active", "leader",
                 "led", "seats", "plays_left", "legal_fn", "over_fn", "points_fn", "tie_fn", "chunk2")

    def copy(self) -> "Tricks":
        t = Tricks.__new__(Tricks)
        for f in Tricks.__slots__:
            setattr(t, f, getattr(self, f))
        t.seats = list(self.seats)
        return t


def start(st, c, active: tuple, nxt: tuple, left: int, leader: int) -> None:
    g = st.game
    t = Tricks()
    t.tables = g.trick_tables[(st.ctx.contract, st.ctx.decl)]
    t.must_follow = t.tables.must_follow
    t.follow_mask = t.tables.follow_mask
    t.active = active
    t.nxt = nxt
    t.n_active = len(active)
    t.leader = leader
    t.led = -1
    t.seats = []
    t.plays_left = left
    t.legal_fn = c.play.legal
    t.over_fn = c.over
    t.points_fn = c.play.trick_points
    t.tie_fn = c.play.tie_break
    t.chunk2 = g.chunk_bits if len(g.chunk_bits) == 2 else None
    st.play = t
    st.ctx.actor = leader
    st.phase = PLAY


def legal(st) -> tuple[int, ...]:
    t = st.play
    m = st.hands[st.ctx.actor]
    led = t.led
    if led >= 0 and t.must_follow:
        if t.tables.tiers:
            m = t.tables.follow_of(led, m)
        else:
            f = m & t.follow_mask[led]
            if f:
                m = f
    tb = t.chunk2
    legal = tb[0][m & CHUNK_MASK] + tb[1][m >> CHUNK] if tb is not None else st.game.mask_pieces(m)
    if t.legal_fn is not None:
        legal = st.ctx.allowed(t.legal_fn, legal)
    return legal


def apply(st, action: int):
    """A piece played; HAND_OVER when the hand ends with the trick."""
    t = st.play
    ctx = st.ctx
    actor = ctx.actor
    st.hands[actor] &= ~(1 << action)
    t.plays_left -= 1
    trick = ctx.trick
    trick.append(action)
    t.seats.append(actor)
    if ctx.plays is not None:
        ctx.plays[action] = actor
    if len(trick) == 1:
        lead = t.tables.lead[action]
        if type(lead) is tuple:
            st.phase = LEAD
            return None
        t.led = lead
        ctx.led = t.tables.suits[lead]
    if len(trick) < t.n_active:
        ctx.actor = t.nxt[actor]
        return None
    return _end_trick(st)


def legal_lead(st) -> tuple[int, ...]:
    tables = st.play.tables
    la = tables.lead_actions
    return tuple(sorted(la[i] for i in tables.lead[st.ctx.trick[0]]))


def apply_lead(st, action: int):
    t = st.play
    t.led = action - st.game.actions.lead_base
    st.ctx.led = t.tables.suits[t.led]
    st.phase = PLAY
    if len(st.ctx.trick) < t.n_active:
        st.ctx.actor = t.nxt[st.ctx.actor]
        return None
    return _end_trick(st)


def _break_tie(ctx, t, rank, best: int, best_rank: int) -> int:
    """Among the pieces of the highest rank, the first played of the highest `play.tie_break`."""
    trick = ctx.trick
    top = None
    for i in range(best, len(trick)):
        if rank[trick[i]] == best_rank:
            ctx.asked = t.seats[i]
            v = t.tie_fn(ctx)
            if top is None or v > top:
                best, top = i, v
    return best


def _end_trick(st):
    g = st.game
    t = st.play
    ctx = st.ctx
    rank = t.tables.rank[t.led]
    trick = ctx.trick
    best = 0
    best_rank = rank[trick[0]]
    tied = False
    for i in range(1, len(trick)):
        r = rank[trick[i]]
        if r > best_rank:
            best, best_rank, tied = i, r, False
        elif r == best_rank:
            tied = True
    if tied and t.tie_fn is not None:
        best = _break_tie(ctx, t, rank, best, best_rank)
    winner = t.seats[best]
    pts = t.points_fn(ctx)
    side = g.side_of[winner]
    ctx.add(side, pts, 1)
    ctx.tricks_played += 1
    taken = ctx.taken
    if taken is not None:
        for p in trick:
            taken[p] = (ctx.tricks_played, winner)
    if st.events is not None:
        st.events.append(events.trick(st, t.tables.suits[t.led], list(zip(t.seats, trick)),
                                      winner, pts))
    trick.clear()
    t.seats.clear()
    t.led = -1
    ctx.led = -1
    if t.over_fn(ctx) or not t.plays_left:
        return HAND_OVER
    t.leader = winner
    ctx.actor = winner
    return None
