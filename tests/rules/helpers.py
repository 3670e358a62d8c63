"""Small helpers for the rule-case tests: build deals, drive a hand by action names.

Everything goes through the public API of the compiled ruleset (`load_game`, `Game.new_hand`,
`GameDef.string_to_action`, `State.legal_actions` / `apply_action`); nothing here knows how the
engine stores its state beyond the attributes the brief documents.
"""

from __future__ import annotations

import functools
import random
from typing import Iterable

from tablerules.game import load_game

ALL_PIECES = tuple(f"{h}-{lo}" for h in range(6, -1, -1) for lo in range(h, -1, -1))  # 28
TRUMPS = (0, 1, 2, 3, 4, 5, 6, "doubles", "followme")
COUNT = {"5-5": 10, "6-4": 10, "5-0": 5, "4-1": 5, "3-2": 5}


@functools.lru_cache(maxsize=None)
def _game(items: tuple):
    return load_game("texas42", dict(items))


def game(**options):
    """The compiled texas42 game for these option values (cached)."""
    return _game(tuple(sorted(options.items())))


def ends(name: str) -> tuple[int, int]:
    a, b = name.split("-")
    a, b = int(a), int(b)
    return (a, b) if a >= b else (b, a)


def norm(name: str) -> str:
    """'4-6' -> '6-4' (the engine names pieces high end first)."""
    h, lo = ends(name)
    return f"{h}-{lo}"


def pips(name: str) -> int:
    return sum(ends(name))


def parse_hand(hand: str | Iterable[str]) -> list[str]:
    items = hand.split() if isinstance(hand, str) else list(hand)
    return [norm(t) for t in items]


def deal(*hands: str | Iterable[str]) -> list[list[str]]:
    """Four complete hands of 7, given as strings like "6-6 6-5 ..."; checked to be the whole set."""
    out = [parse_hand(h) for h in hands]
    assert len(out) == 4, "a deal has four hands"
    for i, h in enumerate(out):
        assert len(h) == 7, f"hand {i} has {len(h)} pieces: {h}"
    every = [t for h in out for t in h]
    assert sorted(every) == sorted(ALL_PIECES), (
        f"not the whole set: duplicated {sorted({t for t in every if every.count(t) > 1})}, "
        f"missing {sorted(set(ALL_PIECES) - set(every))}")
    return out


def fill(*partial: str | Iterable[str], seed: int | None = None) -> list[list[str]]:
    """Complete partial hands to 7 each with the pieces nobody was given (set order, or shuffled)."""
    hands = [parse_hand(h) for h in partial] + [[] for _ in range(4 - len(partial))]
    used = {t for h in hands for t in h}
    assert len(used) == sum(len(h) for h in hands), "a piece given twice"
    rest = [t for t in ALL_PIECES if t not in used]
    if seed is not None:
        random.Random(seed).shuffle(rest)
    for h in hands:
        while len(h) < 7:
            h.append(rest.pop(0))
    return deal(*hands)


def name_of(state, action: int) -> str:
    return state.game.action_to_string(action)


def legal_names(state) -> list[str]:
    gd = state.game
    return [gd.action_to_string(a) for a in state.legal_actions()]


def action(gd, name: str) -> int:
    """The action id of a name; pieces may be written either end first."""
    if "-" in name and " " not in name:
        name = norm(name)
    a = gd.string_to_action(name)
    assert a is not None, f"no action named {name!r}"
    return a


def act(state, name: str) -> None:
    """Apply one named action, asserting it is legal first."""
    a = action(state.game, name)
    legal = state.legal_actions()
    assert a in legal, (f"{name!r} is not legal for seat {state.current_player()} "
                        f"(legal: {legal_names(state)})")
    state.apply_action(a)


def script_items(script: str | Iterable[str]) -> list[str]:
    if isinstance(script, str):
        return [s.strip() for s in script.replace(";", ",").split(",") if s.strip()]
    return list(script)


def run(state, script: str | Iterable[str]):
    for name in script_items(script):
        act(state, name)
    return state


def play(g, hands, dealer: int, script: str | Iterable[str] = (), *, record: bool = False):
    """A new single hand from `hands` (4 strings or lists), then the named actions, each checked legal."""
    hs = [parse_hand(h) for h in hands]
    state = g.new_hand(hs, dealer, record=record)
    return run(state, script)


def auction(contract: str, bidder: int = 0, dealer: int | None = None) -> list[str]:
    """Speeches for a one-round auction that `bidder` wins with `contract` ("30")."""
    if dealer is None:
        dealer = (bidder - 1) % 4  # the bidder speaks first
    out = []
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        out.append(f"bid {contract}" if seat == bidder else "pass")
    return out


def trump_state(g, trump, hands=None, *, bidder: int = 0, record: bool = False):
    """A hand where `bidder` won a 30 bid and named `trump`; the bidder is about to lead."""
    hands = hands or fill()
    st = play(g, hands, (bidder - 1) % 4, auction("30", bidder) + [f"trump {trump}"],
              record=record)
    assert st.tables is not None
    return st


def suit_value(state, piece: str):
    """The suit the piece leads under the current tables."""
    t = state.tables
    return t.suits[t.lead[action(state.game, piece)]]


def suit_index(state, value) -> int:
    suits = state.tables.suits
    for i, v in enumerate(suits):
        if type(v) is type(value) and v == value:
            return i
    raise AssertionError(f"no suit {value!r} in {suits}")


def followers(state, led) -> set[str]:
    """Pieces that follow the suit `led` under the current tables."""
    m = state.tables.follow_mask[suit_index(state, led)]
    return {p for p in ALL_PIECES if m >> action(state.game, p) & 1}


def rank_of(state, led, piece: str) -> int:
    return state.tables.rank[suit_index(state, led)][action(state.game, piece)]


def trick_events(state) -> list[dict]:
    return [e for e in state.events if e["type"] == "trick"]


def hand_event(state) -> dict:
    evs = [e for e in state.events if e["type"] == "hand"]
    assert evs, "no hand event"
    return evs[-1]


def random_playout(state, rng: random.Random):
    """Play random legal actions (dealing at chance nodes) until the state is terminal."""
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.deal_random(rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
        assert steps < 100_000
    return state
