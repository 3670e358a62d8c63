"""The end of a hand and of the match: made or set, each side's score, the next deal."""

from __future__ import annotations

from ..errors import RulesetFault
from . import events
from .phases import DONE, INTERRUPTED, THROWN_IN
from .seats import seat_of


def end_hand(st, how: int) -> None:
    """Score the hand (HAND_OVER, THROWN_IN or INTERRUPTED), then end the match or deal again."""
    thrown_in = how == THROWN_IN
    interrupted = how == INTERRUPTED
    g = st.game
    ctx = st.ctx
    sides = len(g.sides)
    awarded = [0] * sides
    paid: list = []
    facts: dict = {}  # scoring.with_bidder and scoring.report, for the record
    layout_play = False
    if not thrown_in:
        c = g.contracts[ctx.contract]
        layout_play = c.play.mode == "layout"
        ctx.made = bool(c.made(ctx))
        if not interrupted:
            for s in range(sides):
                ctx.side = s
                awarded[s] = g.score_hand(ctx)
            if g.match.pays:
                paid = _settle(st)
            if st.events is not None:
                facts = _facts(st)
        for s in range(sides):
            ctx.score[s] += awarded[s]
        ctx.hands_played += 1
        _check_points(st, layout_play)
    # what State.hand_result() says of the hand, kept with or without events
    st.last_hand = (thrown_in, ctx.contract, ctx.bid, ctx.bidder, events.forced(st), ctx.made,
                    awarded, paid, ctx.points)  # a new hand gets a new points list: no copy
    if st.events is not None:
        st.events.append(events.hand(st, thrown_in, awarded, layout_play, interrupted, paid,
                                     facts))
    if st.single_hand:
        st.phase = DONE
        return
    if not thrown_in and g.match_over(ctx):
        result = side_chips(st) if g.match.stake is not None else ctx.score
        best = min(result) if g.match.lowest_wins and g.match.stake is None else max(result)
        st.winner_sides = [s for s, v in enumerate(result) if v == best]
        st.phase = DONE
        if st.events is not None:
            st.events.append(events.match(st))
        return
    if st.deals >= g.bounds.max_hands:
        raise RulesetFault(f"the match did not end within {g.bounds.max_hands} deals "
                           "(bounds.max_hands)").at("scoring", "match_over")
    dealer = seat_of(st, g.next_dealer(ctx), "deal", "next_dealer")
    st.reset_hand()
    ctx.dealer = dealer


def _settle(st) -> list:
    """The hand's payments, each (payer, payee, chips, name), made at once after every one is
    evaluated (so each reads the chips as they were before the hand)."""
    g = st.game
    ctx = st.ctx
    n = g.seat_count
    out = []
    for name, fn in g.match.pays:
        for payer in range(n):
            ctx.payer = payer
            for payee in range(n):
                if payee == payer:
                    continue
                ctx.payee = payee
                amount = fn(ctx)
                if amount < 0:
                    raise RulesetFault(
                        f"scoring.chips.pays.{name} gave {amount} chips for {g.seat_names[payer]} "
                        f"to pay {g.seat_names[payee]}: a payment is 0 or more (the other seat "
                        "pays the other way)").at("scoring", "chips", "pays", name)
                if amount:
                    out.append((payer, payee, amount, name))
    chips = ctx.chips
    for payer, payee, amount, _ in out:
        chips[payer] -= amount
        chips[payee] += amount
    return out


def _facts(st) -> dict:
    """The seats on the bidder's side this hand and the hand's reported figures."""
    m = st.game.match
    ctx = st.ctx
    out: dict = {}
    if m.with_bidder is not None:
        side = []
        for s in range(st.game.seat_count):
            ctx.asked = s
            if m.with_bidder(ctx):
                side.append(s)
        out["with_bidder"] = side
    if m.report:
        out["report"] = {name: fn(ctx) for name, fn in m.report}
    return out


def side_chips(st) -> list[int]:
    """The chips of each side: the sum of its seats'."""
    chips = st.ctx.chips
    return [sum(chips[s] for s in side) for side in st.game.sides]


def _check_points(st, layout_play: bool) -> None:
    """bounds.hand_points: a trick hand never takes more, and takes exactly that when played out."""
    g = st.game
    want = g.bounds.hand_points
    if want is None:
        return
    total = sum(st.ctx.points)
    played_out = not layout_play and st.play is not None and not any(st.hands)
    if total > want or (played_out and total != want):
        raise RulesetFault(f"hand {st.ctx.hands_played}'s points came to {total}; "
                           f"bounds.hand_points is {want}").at("bounds", "hand_points")


def returns(st) -> list[float]:
    """Per seat at the end of a match: 1 for a win, 0 for a draw (a tie for the win), -1 for a
    loss, or what `scoring.returns` gives its side."""
    g = st.game
    win = st.winner_sides
    drawn = len(win) > 1
    fn = g.match.returns
    ctx = st.ctx
    per_side = []
    for side in range(len(g.sides)):
        won = side in win
        if fn is None:
            per_side.append(0.0 if won and drawn else 1.0 if won else -1.0)
        else:
            ctx.side, ctx.won, ctx.drawn = side, won and not drawn, won and drawn
            per_side.append(float(fn(ctx)))
    return [per_side[g.side_of[s]] for s in range(g.seat_count)]
