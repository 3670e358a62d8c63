"""The auction: one round of speeches, partner confirmation, forced and all-pass bids."""

from __future__ import annotations

from .phases import AUCTION, BID, THROWN_IN
from .seats import seat_of


class Auction:
    """Who speaks when, who holds the high bid, and a bid waiting for a partner's answer."""

    __slots__ = ("speakers", "i", "high_seat", "pending", "all_passed", "high_forced")

    def __init__(self, speakers: tuple):
        self.speakers = speakers
        self.i = 0
        self.high_seat = -1
        self.pending = None  # (asking seat, bid) while a partner is asked to agree
        self.all_passed = False
        self.high_forced = False  # the high bid was made under auction.forced or all_pass

    def copy(self) -> "Auction":
        a = Auction(self.speakers)
        a.i, a.high_seat, a.pending, a.all_passed = self.i, self.high_seat, self.pending, self.all_passed
        a.high_forced = self.high_forced
        return a


def start(st):
    """The auction begins; BID at once when the ruleset has no auction."""
    g = st.game
    a = g.auction
    if a.fixed_contract >= 0:  # no bidding: every hand is this contract
        st.ctx.contract = a.fixed_contract
        return BID
    first = seat_of(st, a.first(st.ctx), "auction", "first")
    st.bidding = Auction(g.speaker_orders[first])
    st.ctx.actor = first
    st.phase = AUCTION
    return None


def legal(st) -> tuple[int, ...]:
    g = st.game
    a = g.auction
    acts_ = g.actions
    b_state = st.bidding
    ctx = st.ctx
    if b_state.pending:
        return (acts_.agree_action, acts_.decline_action)
    if b_state.all_passed:
        acts = tuple(g.bids[b].action for b in a.all_pass_bids)
    else:
        forced = bool(a.forced_when(ctx)) if a.forced_when is not None else False
        acts = a.offers[(ctx.high, forced)]
    if a.has_requires or a.beats_dyn is not None:
        contracts = g.contracts
        bids = g.bids
        pass_action = acts_.pass_action
        beats = a.beats_dyn if not b_state.all_passed else None
        verdict: dict[int, bool] = {}
        out = []
        for act in acts:
            if act == pass_action:
                out.append(act)
                continue
            b = acts_.bid_of(act)
            c = bids[b].contract
            ok = verdict.get(c)
            if ok is None:
                req = contracts[c].requires
                ok = verdict[c] = req is None or bool(req(ctx))
            if ok and beats is not None:
                ctx.offered = b
                ok = bool(beats(ctx))
            if ok:
                out.append(act)
        acts = tuple(out)
    return acts


def apply(st, action: int):
    """A speech; BID when the auction is won, THROWN_IN when everybody passed."""
    g = st.game
    acts = g.actions
    b_state = st.bidding
    ctx = st.ctx
    if b_state.pending:
        asker, b = b_state.pending
        b_state.pending = None
        if action == acts.agree_action:
            ctx.high, b_state.high_seat = b, asker
            b_state.high_forced = False
        else:
            ctx.passes += 1
        return _next_speaker(st)
    if action == acts.pass_action:
        ctx.passes += 1
    else:
        b = action - acts.bid_base + 1
        c = g.contracts[g.bids[b].contract]
        if c.confirm is not None and not b_state.all_passed:
            b_state.pending = (st.ctx.actor, b)
            st.ctx.actor = seat_of(st, c.confirm(ctx), "contracts", c.name, "bid", "confirm")
            return None
        a = g.auction
        b_state.high_forced = b_state.all_passed or (
            a.forced_when is not None and bool(a.forced_when(ctx)))
        ctx.high = b
        b_state.high_seat = st.ctx.actor
    return _next_speaker(st)


def _next_speaker(st):
    g = st.game
    b_state = st.bidding
    ctx = st.ctx
    b_state.i += 1
    if b_state.i < len(b_state.speakers):
        st.ctx.actor = b_state.speakers[b_state.i]
        return None
    if ctx.high == 0:
        if g.auction.all_pass_seat is not None and not b_state.all_passed:
            b_state.all_passed = True
            st.ctx.actor = seat_of(st, g.auction.all_pass_seat(ctx), "auction", "all_pass", "seat")
            b_state.i -= 1  # one more speaker: the forced seat
            return None
        return THROWN_IN
    ctx.bid = ctx.high
    ctx.bidder = b_state.high_seat
    ctx.bidder_side = g.side_of[ctx.bidder]
    ctx.contract = g.bids[ctx.bid].contract
    return BID
