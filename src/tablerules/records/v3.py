"""Record format version 3, the compact form: per deal one `hand` line with what a replay needs
(the deal and every decision's action, in order) and the results a reader follows (trick
winners, contract, made, scores); nothing the replay recomputes (legal actions, trick plays,
layouts, declarations, payments). Built from the engine's full (version 2) lines of one game."""

from __future__ import annotations

from typing import Iterable

VERSION = 3
TYPES = ("header", "game", "hand", "partial", "match", "end")  # the line kinds of version 3
# (`partial`: the hand in progress of a game a person stopped, written by tablerules play)

_DEAL = ("hand", "dealer", "turn", "dealt", "stock")
_RESULT = ("contract", "bid", "bidder", "forced", "points", "made")


def compact(lines: Iterable[dict]) -> list[dict]:
    """The version 3 lines of one game's version 2 lines (a deal still open at the end, as when
    a game stopped with a fault, gives no line); game, match and fault lines pass as they are."""
    out: list[dict] = []
    deal: dict | None = None
    actions: list[str] = []
    won: list[int] = []
    for ev in lines:
        t = ev["type"]
        if t == "deal":
            deal, actions, won = ev, [], []
        elif t == "decision":
            actions.append(ev["action"])
        elif t == "trick":
            won.append(ev["winner"])
        elif t == "hand":
            out.append(hand_line(deal or {}, actions, won, ev))
            deal = None
        elif t in ("game", "match", "fault"):
            out.append(ev)
    return out


def hand_line(deal: dict, actions: list[str], won: list[int], hand: dict) -> dict:
    """One deal's version 3 line: its deal, its actions, then its result."""
    line: dict = {"type": "hand"}
    line.update((k, deal[k]) for k in _DEAL if k in deal)
    line["actions"] = actions
    if hand.get("thrown_in"):
        line["thrown_in"] = True
    else:
        line.update((k, hand[k]) for k in _RESULT if k in hand)
        if won:
            line["won"] = won
        if "went_out" in hand:
            line["went_out"] = hand["went_out"]
        line["scored"] = hand["scored"]
    if "paid" in hand:  # the payments replay recomputes; their total, for summaries of records
        line["chips_paid"] = sum(p["chips"] for p in hand["paid"])
    line["score"] = hand["score"]
    if "chips" in hand:
        line["chips"] = hand["chips"]
    return line
