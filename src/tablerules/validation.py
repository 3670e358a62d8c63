"""Check ruleset files like a compiler, then play whole matches to find dynamic faults.

The static checks are the pipeline of `tablerules.game.check`; the matches are played by the one
driver of `simulate` (`records.runner.play_game`) with the same seeds and, by default, the same
agents, so a fault reported here reproduces with the `simulate` command the message names.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .agents import AgentTextError, parse as parse_agent
from .definition import value_str
from .errors import Diagnostic, GameError, Span
from .game import Game, check
from .load.ruleset import builtin_path
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
    strategy_for: list[str] | None = None  # a strategy file: the games it was checked for
    legal_bids: set = field(default_factory=set)  # every bid offered a seat in the play, by name

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.ref, "ok": self.ok, "hands_played": self.hands_played,
                "matches_played": self.matches_played, "agents": self.agents,
                **({"strategy_for": self.strategy_for} if self.strategy_for is not None else {}),
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
    path = strategy_file(ref)
    if path is not None:
        return check_strategy(ref, path, options, hands=hands, seed=seed, seconds=seconds,
                              steps=steps)
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


def _own_keys() -> tuple[set, set]:
    """The top-level keys only a strategy file has and those only a ruleset has (their schemas):
    a ruleset with a stray `play:` is still a ruleset."""
    from .check.schema import load_schema
    strategy = set(load_schema("strategy")["properties"])
    ruleset = set(load_schema("ruleset")["properties"])
    return strategy - ruleset, ruleset - strategy


def strategy_file(ref: str) -> Path | None:
    """The path of `ref` when it is a strategy file (a mapping with a key only a strategy has,
    such as `for:` or `play:`, and none only a ruleset has) or a shipped strategy's name that
    is no game's, else None: a ruleset, or a file the ruleset checks report on."""
    from .agents.strategy import strategy_dir
    from .errors import TablerulesError
    from .load.ruleset import builtin_names, read_tree
    p = Path(ref)
    if "/" not in ref and p.suffix.lower() not in (".yaml", ".yml") and \
            ref not in builtin_names():
        p = strategy_dir() / f"{ref}.yaml"  # a shipped strategy by its name (a game's wins)
    try:
        if p.suffix.lower() not in (".yaml", ".yml") or not p.is_file():
            return None
        data = read_tree(p).data
    except (OSError, TablerulesError):
        return None
    if not isinstance(data, dict):
        return None
    strategy_only, ruleset_only = _own_keys()
    return p if set(data) & strategy_only and not set(data) & ruleset_only else None


def check_strategy(ref: str, path: Path, options: dict[str, Any] | None = None, *,
                   hands: int = 200, seed: int = 0, seconds: float = SECONDS,
                   steps: int = STEPS) -> FileResult:
    """A strategy file checked for each game its `for:` names, as the rules agent compiles it
    there (schema, names, types, which rules fit the game), then whole matches with the rules
    agent playing it on every seat until `hands` hands are done for each game."""
    from .agents import strategy
    from .errors import TablerulesError
    from .game import add_sources
    res = FileResult(ref, strategy_for=[])
    try:
        tree = strategy.read(path)
    except TablerulesError as e:
        res.diagnostics = list(e.diagnostics)
        add_sources(res.diagnostics, res.sources)
        return res
    games = tree.data.get("for") or []
    if not games:
        res.diagnostics.append(Diagnostic(tree.span(("name",), key=True), (
            "a strategy file names the games it plays in 'for:' (for: [GAME, ...]); validate "
            "checks it for each of them"), "check"))
    agent = f"rules:strategy={path}"
    for i, name in enumerate(games):
        _, file, problem = strategy.fit(str(name), Path(path))
        if problem:
            res.diagnostics.append(Diagnostic(tree.span(("for", i)), problem, "check"))
            continue
        checked = check(str(file or name), options)
        if not checked.ok or checked.game is None:
            first = next(d for d in checked.diagnostics if d.severity == "error")
            if first.span.file == "--option":  # the command line's, not the file's: said once
                if not any(d.span.file == "--option" for d in res.diagnostics):
                    res.diagnostics.extend(d for d in checked.diagnostics
                                           if d.span.file == "--option")
                continue
            # a name that is no built-in (nor close to one) may be a house file's: validate
            # needs its file
            guess = first.suggestion if file is None else None
            house = (f"; a house ruleset is named by its file, relative to this one (for: "
                     f"[{name}.yaml])") if file is None and guess is None \
                and builtin_path(str(name)) is None else ""
            res.diagnostics.append(Diagnostic(tree.span(("for", i)),
                                              f"'{name}': {first.message}{house}", "check", guess))
            continue
        res.game = checked.game
        problems = agents_ready(checked.game, [agent])
        if problems:  # the same mistake for another game of `for:` is said once
            res.diagnostics.extend(d for d in problems if d not in res.diagnostics)
            continue
        res.strategy_for.append(str(name))
        if hands > 0:
            one = FileResult(ref, game=checked.game)
            play_check(one, hands, seed, options or {}, [[agent]], seconds, steps)
            res.diagnostics.extend(one.diagnostics)
            res.hands_played += one.hands_played
            res.matches_played += one.matches_played
            res.agents = one.agents
    add_sources(res.diagnostics, res.sources)
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
                if ev.get("phase") == "auction":
                    res.legal_bids.update(ev.get("legal", ()))
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
    # a fault in a base file is the user's overlay's: report it there, with a note
    res.diagnostics.extend(res.game.diagnosed(
        span, f"seeded play: {message} (reproduce: tablerules simulate {res.ref} "
              f"--seed {seed} --games {match + 1} --agents {','.join(names)}{opts})", "game",
        path))


def _own_contracts(tree, origin: str, names) -> list[str]:
    """The contracts among `names` that the user's file adds (not one its base has)."""
    out = []
    for name in names:
        loc = tree.locs.get(("contracts", name))
        if loc is None or (loc.key_span or loc.span).file != origin or any(
                q[:2] == ("contracts", name) and q not in tree.inherited
                and at.span.file != origin for q, at in tree.locs.items()):
            continue  # a contract of the base (one the file changes)
        out.append(name)
    return out


def never_legal(res: FileResult) -> list[str]:
    """The contracts the user's file adds whose bids no seat was ever offered in the seeded
    play (a bid.requires, beats or forced rule that shuts them out): no hand is played in them."""
    game = res.game
    tree = game.tree if game is not None else None
    if tree is None or not tree.origin or not res.hands_played or not res.legal_bids:
        return []
    from .agents.rules import biddable
    gd = game.definition
    if gd.auction.fixed_contract >= 0:
        return []
    offered = {b.contract_name for b in gd.bids if b.contract >= 0
               and gd.action_to_string(b.action) in res.legal_bids}
    return _own_contracts(tree, tree.origin, [c for c in biddable(gd) if c not in offered])


def never_legal_warnings(res: FileResult) -> list[Diagnostic]:
    """A warning at each contract `never_legal` finds."""
    tree = res.game.tree if res.game is not None else None
    return [Diagnostic(
        tree.span(("contracts", name), key=True),
        f"contract '{name}' was never a legal bid in the {res.hands_played} seeded hands played "
        f"(by {' and '.join(dict.fromkeys(a for s in res.agents for a in s.split(',')))}): no "
        "hand is played in it (its bid.requires, auction.beats, auction.forced and "
        "auction.all_pass left no seat a bid of it)",
        "game", severity="warning", path=("contracts", name)) for name in never_legal(res)]


def unbid_contracts(game: Game) -> list[Diagnostic]:
    """A warning at each contract the user's file adds (not one its base has) that the strategy
    it inherits (the base's `simulate.strategy`) never chooses to bid (agents.rules.never_bid): `simulate` with
    the rules agent then plays that contract only when a bid of it is forced. None when the
    file names its strategy itself: its author chose it."""
    from .agents.rules import never_bid
    from .errors import TablerulesError
    tree, gd = game.tree, game.definition
    origin = tree.origin if tree is not None else None
    strategy = tree.locs.get(("simulate", "strategy")) if origin else None
    if strategy is None or strategy.span.file == origin:
        return []
    try:
        never, names = never_bid(gd, ["rules"] * gd.seat_count)
    except TablerulesError:  # a strategy that does not fit is said where the agents are made
        return []
    out = []
    for name in _own_contracts(tree, origin, never):  # not the base's: its strategy's
        out.append(Diagnostic(
            tree.span(("contracts", name), key=True),
            f"the strategy {names[0]} (simulate.strategy, from {strategy.span.file}) never "
            f"bids contract '{name}': no bid rule of it can choose a bid of it, so the rules "
            "agent plays it only when a seat is forced to bid it (give the rules agent a "
            "strategy that bids it: --agents rules:strategy=FILE)",
            "strategy", severity="warning", path=("contracts", name)))
    return out
