"""The record of what happens in a game: one dict per event, keys in a fixed order."""

from __future__ import annotations

from typing import Any


def deal(st) -> dict:
    names = st.game.pieces.names
    ev = {"type": "deal", "hand": st.ctx.hands_played + 1, "dealer": st.ctx.dealer,
          "hands": [[names[t] for t in h] for h in st.dealt_hands]}
    if st.stock:
        ev["stock"] = [names[t] for t in st.stock]
    return ev


def _declared(st, every: bool) -> dict:
    decl = st.ctx.decl
    return {d.name: decl[d.index] for d in st.game.declarations
            if every or decl[d.index] != d.default}


def contract(st, active: tuple) -> dict:
    g = st.game
    c = st.ctx
    return {"type": "contract", "contract": g.contracts[c.contract].name,
            "bid": g.bids[c.bid].label, "bidder": c.bidder,
            "declarations": _declared(st, False), "seats": list(active)}


def took(st, seat: int, pieces: tuple) -> dict:
    names = st.game.pieces.names
    return {"type": "exchange", "seat": seat, "took": [names[t] for t in pieces]}


def buried(st, seat: int, piece: int) -> dict:
    return {"type": "exchange", "seat": seat, "buried": st.game.pieces.names[piece]}


def trick(st, suit: Any, plays: list, winner: int, points: int) -> dict:
    names = st.game.pieces.names
    return {"type": "trick", "n": st.ctx.tricks_played, "led": suit,
            "plays": [[s, names[t]] for s, t in plays], "winner": winner, "points": points}


def draw(st, seat: int, piece: int) -> dict:
    return {"type": "draw", "seat": seat, "piece": st.game.pieces.names[piece]}


def knock(seat: int) -> dict:
    return {"type": "knock", "seat": seat}


def lay(st, seat: int, piece: int, arm: str, scored: int) -> dict:
    lay = st.layout
    return {"type": "lay", "seat": seat, "piece": st.game.pieces.names[piece], "on": arm,
            "layout": lay.text(), "ends": [e[0] for e in lay.ends], "scored": scored,
            "score": list(st.ctx.score)}


def hand(st, thrown_in: bool, awarded: list, layout_play: bool) -> dict:
    g = st.game
    c = st.ctx
    ev: dict[str, Any] = {"type": "hand", "hand": c.hands_played, "dealer": c.dealer}
    if thrown_in:
        ev["thrown_in"] = True
    else:
        ev.update({"contract": g.contracts[c.contract].name, "bid": g.bids[c.bid].label,
                   "bidder": c.bidder, "declarations": _declared(st, True),
                   "points": list(c.points), "tricks": list(c.tricks), "made": c.made,
                   "marks": awarded, "ended_after_trick": c.tricks_played})
        if layout_play:
            ev.update({"went_out": c.went_out, "blocked": c.blocked,
                       "pips_left": [c.pips_left(s) for s in range(len(g.sides))]})
    ev["score"] = list(c.score)
    return ev


def match(st) -> dict:
    return {"type": "match", "score": list(st.ctx.score), "winner": st.winner_sides,
            "hands": st.ctx.hands_played, "deals": st.deals}
