"""Agents pick an action from the legal ones, seeing only what their seat may see."""

from __future__ import annotations

import random

from .base import (Agent, AgentChoice, AgentSpec, AgentTextError, Observe, Param, for_seats,
                   parse_agent, parse_agents)

__all__ = ["Agent", "AgentChoice", "AgentSpec", "AgentTextError", "Observe", "Param", "AGENTS",
           "AGENT_HELP", "make_agent", "parse", "parse_list", "canonical", "for_seats"]


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

    def __init__(self, rng: random.Random, pass_action: int, pass_rate: float = 0.7):
        self.rng = rng
        self.pass_action = pass_action
        self.pass_rate = pass_rate

    def act(self, seat: int, legal: tuple[int, ...], observe: Observe) -> int:
        if len(legal) > 1 and legal[0] == self.pass_action:
            return legal[0] if self.rng.random() < self.pass_rate else legal[1]
        return legal[self.rng.randrange(len(legal))] if len(legal) > 1 else legal[0]


RANDOM = AgentSpec("random", "uniformly random legal actions", (),
                   lambda rng, game, params: RandomAgent(rng))
CAUTIOUS = AgentSpec(
    "cautious", "random play, but in an auction passes 70% of the time and otherwise makes the "
                "lowest bid",
    (Param("pass_rate", "float", 0.7, "share of the auction turns it passes when it may", min=0.0,
           max=1.0),),
    lambda rng, game, params: CautiousAgent(rng, game.pass_action, params["pass_rate"]))

def _specs() -> tuple[AgentSpec, ...]:
    from .rules import SPEC as RULES
    from .search import SPEC as SEARCH  # the search agent makes its play-out agents from here
    return (RANDOM, CAUTIOUS, RULES, SEARCH)


AGENTS: dict[str, AgentSpec] = {s.name: s for s in _specs()}
AGENT_HELP = {name: spec.help for name, spec in AGENTS.items()}  # for help texts and the docs


def parse(text: str) -> AgentChoice:
    """One seat's agent text, `NAME[:PARAM=VALUE...]`; AgentTextError says what is wrong where."""
    return parse_agent(text, AGENTS)


def parse_list(text: str) -> list[AgentChoice]:
    """`--agents` text: comma-separated seats, each `NAME[:PARAM=VALUE...]`."""
    return parse_agents(text, AGENTS)


def canonical(text: str) -> str:
    """The canonical text of one seat's agent (defaults dropped): what a record header keeps."""
    return parse(text).text


def make_agent(text: str, rng: random.Random, game) -> Agent:
    """An agent from its text (a name, or `NAME:PARAM=VALUE...`) for a compiled game (a GameDef)."""
    try:
        choice = parse(text)
    except AgentTextError as e:
        raise ValueError(e.message) from None
    return choice.make(rng, game)
