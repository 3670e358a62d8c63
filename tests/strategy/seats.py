"""Observations built by hand: a seat's view with no State behind it."""

from __future__ import annotations

import random

from tablerules.agents import rules
from tablerules.game import load_game


def game(name: str, **options):
    return load_game(name, options).definition


def observation(gd, seat: int, hand: list[str], *, phase: str = "play", contract: str | None = "points",
                declarations: dict | None = None, bidder: int = -1, dealer: int = 3,
                history: list[tuple[int, str]] = (), trick: list[tuple[int, str]] = (),
                buried: list[str] = (), stock_size: int = 0, layout: dict | None = None) -> dict:
    """What `observe()` returns, from names: `history` and `trick` are (seat, action name)."""
    acts = list(history) + list(trick)
    n = gd.seat_count
    played = {s: sum(1 for p, a in acts if p == s and a in gd.pieces.names) for s in range(n)}
    sizes = [gd.hand_size - played[s] for s in range(n)]
    sizes[seat] = len(hand)
    decl = {d.name: d.default for d in gd.declarations}
    decl.update(declarations or {})
    return {
        "seat": seat, "phase": phase, "to_move": seat, "dealer": dealer, "hand": list(hand),
        "hand_sizes": sizes, "history": [[s, a] for s, a in acts],
        "bid": "none", "bidder": bidder, "declarations": decl,
        "trick": [[s, p] for s, p in trick], "points": [0] * len(gd.sides),
        "tricks": [0] * len(gd.sides), "score": [0] * len(gd.sides), "stock_size": stock_size,
        "buried": list(buried), "layout": layout or {},
        "hand_actions": [[s, gd.string_to_action(a)] for s, a in acts],
        "dealt": list(hand), "took": [], "took_by": -1, "took_at": -1, "drew": [],
        "contract": contract, "active": list(range(n)), "hands_played": 0, "deals": 1,
        "score_at_deal": [0] * len(gd.sides), "single_hand": False,
    }


def legal_pieces(gd, names) -> tuple[int, ...]:
    return tuple(sorted(gd.string_to_action(x) for x in names))


def decide(gd, obs: dict, legal, strategy: str | None = None, **switches) -> str:
    """The rules agent's choice, as an action name; it is given the observation and nothing else."""
    params = dict(switches)
    if strategy:
        params["strategy"] = strategy
    agent = rules.make(random.Random(0), gd, params)
    legal = tuple(sorted(gd.string_to_action(x) if isinstance(x, str) else x for x in legal))
    return gd.action_to_string(agent.act(obs["seat"], legal, lambda: obs))
