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


AGENTS: dict[str, Callable[[random.Random], Agent]] = {"random": RandomAgent}


def make_agent(name: str, rng: random.Random) -> Agent:
    try:
        return AGENTS[name](rng)
    except KeyError:
        raise ValueError(f"unknown agent '{name}' (agents: {', '.join(sorted(AGENTS))})") from None
