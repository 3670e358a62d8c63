"""The record of what happens in a game: one dict per event, keys in a fixed order.

These are the lines of record format version 2 (schemas/record.schema.json); the words are the
engine's, never a game's: `scored` and `score`, `declarations` by the ruleset's names.
"""

from __future__ import annotations

from typing import Any

from .phases import PHASE_NAMES


def deal(st) -> dict:
    names = st.game.pieces.names
    ev = {"type": "deal", "hand": st.ctx.hands_played + 1, "dealer": st.ctx.dealer}
    if st.game.turn is not None:
        ev["turn"] = st.ctx.turn
    ev["dealt"] = [[names[t] for t in h] for h in st.dealt_hands]
    if st.stock:
        ev["stock"] = [names[t] for t in st.stock]
    return ev


def decision(st, seat: int, action: int, legal) -> dict:
    """A decision about to be applied: its phase, the action and every legal action offered."""
    s = st.game.action_to_string
    return {"type": "decision", "phase": PHASE_NAMES[st.phase], "seat": seat, "action": s(action),
            "legal": [s(x) for x in legal]}


def _declared(st, every: bool) -> dict:
    decl = st.ctx.decl
    return {d.name: decl[d.index] for d in st.game.declarations
            if every or decl[d.index] != d.default}


def contract(st, active: tuple) -> dict:
    g = st.game
    c = st.ctx
    ev = {"type": "contract", "contract": g.contracts[c.contract].name,
          "bid": g.bids[c.bid].label, "bidder": c.bidder}
    if forced(st):
        ev["forced"] = True
    ev.update({"declarations": _declared(st, False), "playing": list(active)})
    return ev


def forced(st) -> bool:
    """Whether the hand's bid was made under `auction.forced` or `auction.all_pass` (a seat
    that could not pass), not chosen in the auction."""
    return st.bidding is not None and st.bidding.high_forced


def took(st, seat: int, pieces: tuple) -> dict:
    names = st.game.pieces.names
    return {"type": "exchange", "seat": seat, "took": [names[t] for t in pieces]}


def buried(st, seat: int, piece: int) -> dict:
    return {"type": "exchange", "seat": seat, "buried": st.game.pieces.names[piece]}


def trick(st, suit: Any, plays: list, winner: int, points: int) -> dict:
    names = st.game.pieces.names
    return {"type": "trick", "n": st.ctx.tricks_played, "led": suit,
            "declarations": _declared(st, True),
            "plays": [[s, names[t]] for s, t in plays], "winner": winner, "points": points}


def draw(st, seat: int, piece: int) -> dict:
    return {"type": "draw", "seat": seat, "piece": st.game.pieces.names[piece]}


def knock(seat: int) -> dict:
    return {"type": "knock", "seat": seat}


def _end_kind(double: bool, spinner: bool) -> str:
    return "spinner" if spinner else "double" if double else ""


class _EndOnly:
    """The context `display.end_count` reads: one open end, nothing of the game."""

    __slots__ = ("end", "memo")

    def __init__(self, end: tuple):
        self.end = end
        self.memo = None


def ends_text(gd, ev: dict) -> str:
    """A lay line's open ends as people read them: each end's count by the ruleset's
    `display.end_count` (without it, its pips), a double counted twice as `(1+1)`, joined by
    `+`; the spinner is one piece and is shown once, however many ends it is."""
    pips, kinds = ev["ends"], ev.get("end_kinds") or [""] * len(ev["ends"])
    fn = gd.end_count
    if fn is None:
        return "+".join(map(str, pips))
    out = []
    spinner_shown = False
    for p, kind in zip(pips, kinds):
        if kind == "spinner":
            if spinner_shown:
                continue
            spinner_shown = True
        double = kind in ("double", "spinner")
        n = fn(_EndOnly((p, double, kind == "spinner")))
        out.append(f"({p}+{p})" if double and p and n == 2 * p else str(n))
    return "+".join(out)


def lay(st, seat: int, piece: int, arm: str, scored: int) -> dict:
    lay = st.layout
    ends = lay.ends
    return {"type": "lay", "seat": seat, "piece": st.game.pieces.names[piece], "on": arm,
            "layout": lay.text(), "ends": [e[0] for e in ends],
            "end_kinds": [_end_kind(e[1], e[2]) for e in ends], "scored": scored,
            "score": list(st.ctx.score)}


def claim(st, seat: int, scored: int, passed: list) -> dict:
    """A count claimed by `seat` for its side, or by nobody (seat -1): the seats that passed."""
    side = st.game.side_of[seat] if seat >= 0 else -1
    return {"type": "claim", "seat": seat, "side": side, "scored": scored, "passed": list(passed),
            "score": list(st.ctx.score)}


def hand(st, thrown_in: bool, awarded: list, layout_play: bool, cut_short: bool = False,
         paid: list = (), facts: dict | None = None) -> dict:
    """The end of a hand; `hand` is its number, the same as on its deal line."""
    g = st.game
    c = st.ctx
    ev: dict[str, Any] = {"type": "hand", "hand": c.hands_played + (1 if thrown_in else 0),
                          "dealer": c.dealer}
    if thrown_in:
        ev["thrown_in"] = True
    else:
        ev.update({"contract": g.contracts[c.contract].name, "bid": g.bids[c.bid].label,
                   "bidder": c.bidder})
        if forced(st):
            ev["forced"] = True
        ev.update({"declarations": _declared(st, True), "points": list(c.points)})
        if layout_play:
            ev.update({"made": c.made, "scored": awarded, "went_out": c.went_out,
                       "blocked": c.blocked,
                       "pips_left": [c.pips_left(s) for s in range(len(g.sides))]})
        else:
            ev.update({"tricks": list(c.tricks), "made": c.made, "scored": awarded,
                       "ended_after_trick": c.tricks_played})
        if cut_short:
            ev["cut_short"] = True
        ev.update(facts or {})
    ev["score"] = list(c.score)
    if g.match.stake is not None:  # who paid whom, and every seat's chips after it
        ev["paid"] = [{"from": a, "to": b, "chips": x, "for": name} for a, b, x, name in paid]
        ev["chips"] = list(c.chips)
    return ev


def match(st) -> dict:
    ev = {"type": "match", "score": list(st.ctx.score), "winner": st.winner_sides,
          "hands_scored": st.ctx.hands_played, "deals": st.deals}
    if st.game.match.stake is not None:
        ev["chips"] = list(st.ctx.chips)
    return ev
