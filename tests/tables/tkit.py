"""Helpers for the overlay rule-case tests: compiled games, deals, named actions.

Everything goes through the public API of a compiled ruleset: `load_game`, `Game.new_hand`,
`Game.new_match`, `GameDef.string_to_action` / `action_to_string`, `State.legal_actions`,
`apply_action`, `current_player`, `is_terminal` and the recorded `events`.
"""

from __future__ import annotations

import functools
import random
from typing import Iterable

from tablerules.game import load_game

ALL_PIECES = tuple(f"{h}-{lo}" for h in range(6, -1, -1) for lo in range(h, -1, -1))  # 28
DOUBLES = tuple(f"{i}-{i}" for i in range(7))


@functools.lru_cache(maxsize=None)
def _game(name: str, items: tuple):
    return load_game(name, dict(items))


def game(name: str, **options):
    """The compiled game of a built-in ruleset with these option values (cached)."""
    return _game(name, tuple(sorted(options.items())))


def norm(piece: str) -> str:
    a, b = (int(x) for x in piece.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


def hand_of(h: str | Iterable[str]) -> list[str]:
    return [norm(p) for p in (h.split() if isinstance(h, str) else h)]


def fill(*partial: str | Iterable[str], seed: int | None = None) -> list[list[str]]:
    """Complete up to four partial hands to 7 pieces each with the pieces nobody was given."""
    hands = [hand_of(h) for h in partial] + [[] for _ in range(4 - len(partial))]
    used = [p for h in hands for p in h]
    assert len(set(used)) == len(used), f"a piece given twice: {used}"
    rest = [p for p in ALL_PIECES if p not in used]
    if seed is not None:
        random.Random(seed).shuffle(rest)
    for h in hands:
        assert len(h) <= 7, h
        while len(h) < 7:
            h.append(rest.pop(0))
    assert sorted(p for h in hands for p in h) == sorted(ALL_PIECES)
    return hands


def legal(state) -> list[str]:
    gd = state.game
    return [gd.action_to_string(a) for a in state.legal_actions()]


def aid(gd, name: str) -> int:
    if "-" in name and " " not in name:
        name = norm(name)
    a = gd.string_to_action(name)
    assert a is not None, f"no action named {name!r} in {gd.name}"
    return a


def act(state, *names: str):
    """Apply named actions in turn, each checked legal first."""
    for name in names:
        a = aid(state.game, name)
        assert a in state.legal_actions(), (
            f"{name!r} is not legal for seat {state.current_player()} (legal: {legal(state)})")
        state.apply_action(a)
    return state


def hand(g, hands, dealer: int, *script: str, record: bool = True):
    """A single hand from `hands` with `dealer`, then the named actions."""
    st = g.new_hand([hand_of(h) for h in hands], dealer, record=record)
    return act(st, *script)


def holding(state, seat: int) -> set[str]:
    return set(state.observation(seat)["hand"])


def events(state, kind: str) -> list[dict]:
    return [e for e in state.events if e["type"] == kind]


def last(state, kind: str) -> dict:
    evs = events(state, kind)
    assert evs, f"no {kind} event in {state.events}"
    return evs[-1]


def speeches(bidder: int, bid: str, dealer: int) -> list[str]:
    """One auction round from the dealer's left where only `bidder` bids `bid`."""
    return [bid if (dealer + 1 + i) % 4 == bidder else "pass" for i in range(4)]


def random_finish(state, rng: random.Random, limit: int = 100_000):
    """Random legal actions (deals at chance nodes) until the state is terminal."""
    n = 0
    while not state.is_terminal():
        if state.phase == 0:
            state.deal_random(rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        n += 1
        assert n < limit
    return state


def bids_in(gd) -> set[str]:
    """Every bid action string of the compiled game."""
    return {gd.action_to_string(a) for a in range(gd.num_actions)
            if gd.action_to_string(a).startswith("bid ")}


def option_rejected(name: str, **options) -> str:
    """Loading with these options fails with an option diagnostic; returns its message."""
    from tablerules.errors import TablerulesError
    try:
        load_game(name, options)
    except TablerulesError as e:
        kinds = {d.kind for d in e.diagnostics}
        assert "option" in kinds, [(d.kind, d.message) for d in e.diagnostics]
        msg = e.diagnostics[0].message
        for opt in options:
            assert opt in msg or any(opt in d.message for d in e.diagnostics)
        return msg
    raise AssertionError(f"{name} accepted {options}")
