"""Check ruleset files like a compiler, then play whole matches to find dynamic faults.

The static checks are the pipeline of `tablerules.game.check`; the matches are played by the one
driver of `simulate` (`records.runner.play_game`) with the same seeds and, by default, the same
agents, so a fault reported here reproduces with the `simulate` command the message names.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .agents import AgentTextError, parse as parse_agent
from .definition import value_str
from .errors import Diagnostic, GameError, Span
from .game import Game, check
from .load.ruleset import attribute
from .records.runner import play_game

# uniform bidders seldom all pass: cautious matches alternate with the defaults to reach those paths
EXPLORER = ("cautious",)
SECONDS = 10.0  # per match: a match of any shipped ruleset takes well under a second
STEPS = 100_000  # decisions per match: a shipped match takes a few hundred
_CLOCK_EVERY = 256  # decisions between looks at the clock


@dataclass
class FileResult:
    """What checking one ruleset found."""

    ref: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    hands_played: int = 0
    matches_played: int = 0
    agents: list[str] = field(default_factory=list)  # each agent set played, as --agents takes it
    game: Game | None = None
    library: bool = False  # a library part, checked as a part

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.ref, "ok": self.ok, "hands_played": self.hands_played,
                "matches_played": self.matches_played, "agents": self.agents,
                "diagnostics": [d.as_dict() for d in self.diagnostics]}


def agent_problems(game: Game) -> list[Diagnostic]:
    """The ruleset's `simulate.agents` that name no agent, or more agents than seats."""
    gd = game.definition
    out = []

    def at(path: tuple) -> Span:
        return game.tree.span(path) if game.tree is not None else Span(game.ref or gd.name, 1, 1)

    for i, name in enumerate(gd.agents):
        try:  # an agent text, as --agents takes it: NAME[:PARAM=VALUE...]
            parse_agent(name)
        except AgentTextError as e:
            out.append(Diagnostic(at(("simulate", "agents", i)), e.message, "agents"))
    if len(gd.agents) > gd.seat_count:
        out.append(Diagnostic(at(("simulate", "agents")),
                              f"simulate.agents names {len(gd.agents)} agents; the game has "
                              f"{gd.seat_count} seats", "agents"))
    return out


def agents_ready(game: Game, names) -> list[Diagnostic]:
    """Each agent text made once for the game: a strategy file that does not fit it (the rules
    agent's) is a located error here, before any game is played."""
    import random as _random
    from .agents import make_agent
    from .errors import TablerulesError
    for text in dict.fromkeys(names):
        try:
            make_agent(text, _random.Random(0), game.definition)
        except TablerulesError as e:
            return list(e.diagnostics)
        except ValueError:
            continue  # a bad agent text: agent_problems and the command line report it
    return []


def check_file(ref: str, options: dict[str, Any] | None = None, *, hands: int = 200,
               seed: int = 0, agents: list[str] | None = None, seconds: float = SECONDS,
               steps: int = STEPS) -> FileResult:
    """Static checks (YAML, schema, names, types, options), then whole matches until `hands`
    hands are played: with `agents`, else the ruleset's default agents alternating with the
    cautious explorer; each match within `seconds` and `steps` decisions."""
    checked = check(ref, options)
    res = FileResult(ref, list(checked.diagnostics), dict(checked.sources), game=checked.game)
    if res.game is not None and res.game.tree is not None and res.game.tree.library:
        res.library = True  # a part, not a game: nothing to play
        return res
    if res.ok and res.game is not None:
        res.diagnostics.extend(agent_problems(res.game))
    if res.ok and res.game is not None:
        res.diagnostics.extend(agents_ready(res.game, list(agents or res.game.definition.agents)))
    if res.ok and res.game is not None and hands > 0:
        sets = [list(agents)] if agents else [list(res.game.definition.agents)]
        if not agents and sets[0] != list(EXPLORER):
            sets.append(list(EXPLORER))
        play_check(res, hands, seed, options or {}, sets, seconds, steps)
    return res


class _OutOfBudget(Exception):
    """A match ran past its time or decision budget."""

    def __init__(self, what: str):
        self.what = what


def play_check(res: FileResult, hands: int, seed: int, options: dict[str, Any],
               agent_sets: list[list[str]], seconds: float = SECONDS, steps: int = STEPS) -> None:
    """Play whole matches, agent sets in turn, until `hands` hands are done and every set has
    played a match; report the first fault, or a match over budget, with its command."""
    game = res.game
    res.agents = [",".join(a) for a in agent_sets]
    match = 0
    while res.hands_played < hands or match < len(agent_sets):
        names = agent_sets[match % len(agent_sets)]
        started = time.perf_counter()
        decisions = [0]

        def count(ev: dict) -> None:
            t = ev["type"]
            if t == "decision":
                decisions[0] += 1
                n = decisions[0]
                if n > steps:
                    raise _OutOfBudget(f"did not end within {steps} decisions (--steps)")
                if n % _CLOCK_EVERY == 0 and time.perf_counter() - started > seconds:
                    raise _OutOfBudget(f"did not end within {seconds:g} s (--seconds)")
            elif t == "hand" and not ev.get("thrown_in"):
                res.hands_played += 1

        try:
            play_game(game, names, seed, match, emit=count, decisions=True)
        except GameError as e:
            span = game.locate(e).span if e.part else (
                e.span if e.span.line > 0 else Span(res.ref, 1, 1))  # the expression that failed
            _fault(res, span, e.message, seed, match, names, options, e.part or None)
            return
        except _OutOfBudget as e:
            span = game.tree.span(("bounds",), key=True) if game.tree is not None else Span(res.ref, 1, 1)
            _fault(res, span, f"match {match + 1} {e.what}; a hand or a match may never end",
                   seed, match, names, options, ("bounds",))
            return
        match += 1
        res.matches_played = match


def _fault(res: FileResult, span: Span, message: str, seed: int, match: int, names: list[str],
           options: dict[str, Any], path: tuple | None = None) -> None:
    opts = "".join(f" --option {k}={value_str(v)}" for k, v in options.items())
    found = Diagnostic(
        span, f"seeded play: {message} (reproduce: tablerules simulate {res.ref} "
              f"--seed {seed} --games {match + 1} --agents {','.join(names)}{opts})", "game",
        path=path)
    # a fault in a base file is the user's overlay's: report it there, with a note
    tree = res.game.tree
    res.diagnostics.extend(attribute(tree, [found]) if tree is not None else [found])

