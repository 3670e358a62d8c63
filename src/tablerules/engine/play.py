"""The start of play: who sits out, who leads, the contract announced; then tricks or a layout."""

from __future__ import annotations

from ..errors import RulesetFault
from . import events, layout, tricks


def start(st) -> None:
    g = st.game
    ctx = st.ctx
    c = g.contracts[ctx.contract]
    n = g.seat_count
    active = g.all_seats
    nxt = g.default_nxt
    if c.play.sits_out is not None:
        out = []
        for s in range(n):
            ctx.asked = s
            if not c.play.sits_out(ctx):
                out.append(s)
        active = tuple(out)
        if not active:
            raise RulesetFault(f"contract '{c.name}': every seat sits out").at(
                "contracts", c.name, "play", "sits_out")
        ring = [0] * n
        for i, s in enumerate(active):
            ring[s] = active[(i + g.seat_step) % len(active)]
        nxt = tuple(ring)
    if st.events is not None:
        st.events.append(events.contract(st, active))
    left = 0
    for s in active:
        left += st.hands[s].bit_count()
    leader = c.play.leader(ctx)
    if leader not in active:
        raise RulesetFault(f"contract '{c.name}': the leader, seat {leader}, does not play").at(
            "contracts", c.name, "play", "leader")
    if c.play.mode == "layout":
        layout.start(st, c, active, nxt, left, leader)
    else:
        tricks.start(st, c, active, nxt, left, leader)
