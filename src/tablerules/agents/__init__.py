"""Agents pick an action from the legal ones, seeing only what their seat may see."""

from __future__ import annotations

import random
from typing import Callable, Protocol

Observe = Callable[[], dict]


class Agent(Protocol):
    """Anything that chooses one of `legal` for `seat`; `observe()` gives the seat's view."""

    name: str

    def act(self, seat: int, legal: tuple[int, ...], observe: Observe) -> int: ...


class RandomAgent:
    """Uniformly random legal play from its own seeded generator."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def act(self, seat: int, legal: tuple[int, ...], observe: Observe) -> int:
        return legal[self.rng.randrange(len(legal))] if len(legal) > 1 else legal[0]


class CautiousAgent:
    """Random play, but in an auction it mostly passes and otherwise makes the lowest bid.

    Uniformly random bidders overbid wildly; in games where a missed bid costs points their
    matches drift below zero and never end. This bidder keeps random play comparable
    while letting such matches finish.
    """

    name = "cautious"
    pass_rate = 0.7

    def __init__(self, rng: random.Random, pass_action: int):
        self.rng = rng
        self.pass_action = pass_action

    def act(self, seat: int, legal: tuple[int, ...], observe: Observe) -> int:
        if len(legal) > 1 and legal[0] == self.pass_action:
            return legal[0] if self.rng.random() < self.pass_rate else legal[1]
        return legal[self.rng.randrange(len(legal))] if len(legal) > 1 else legal[0]


AGENTS: dict[str, Callable[..., Agent]] = {
    "random": lambda rng, game: RandomAgent(rng),
    "cautious": lambda rng, game: CautiousAgent(rng, game.pass_action),
    "rules": lambda rng, game, params="": _rules().from_text(rng, game, params),  # h4: drop on merge
}
AGENT_HELP = {
    "random": "uniformly random legal actions",
    "cautious": "random play, but in an auction passes 70% of the time and otherwise makes the "
                "lowest bid",
    "rules": "plays a strategy file (rules:NAME=off switches a rule; rules:strategy=FILE)",
}


def _rules():
    from . import rules
    return rules


def make_agent(name: str, rng: random.Random, game) -> Agent:
    """An agent by name for a compiled game (a GameDef), with its own generator."""
    name, _, params = name.partition(":")  # `rules:count_to_partner=off`
    try:
        factory = AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent '{name}' (agents: {', '.join(sorted(AGENTS))})") from None
    return factory(rng, game, params) if params else factory(rng, game)
