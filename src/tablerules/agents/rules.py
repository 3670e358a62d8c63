"""The rule-based agent: plays a strategy file (see docs/strategy.md) from its seat's observation."""

from __future__ import annotations

import os
import random

from ..errors import CheckError, Span
from ..kept import Kept
from . import strategy as strat
from .base import AgentSpec, Param

class RulesAgent:
    """Chooses by the first rule of its strategy that applies; only `observe()` is read."""

    name = "rules"
    deterministic = True  # the same observation and legal actions give the same choice

    def __init__(self, rng: random.Random, gd, strategy: strat.Strategy):
        self.rng = rng  # unused: a strategy is deterministic given the observation
        self.strategy = strategy
        self.vocab = strat.vocabulary(gd)
        self.last_rule: str | None = None

    def act(self, seat: int, legal: tuple[int, ...], observe) -> int:
        if len(legal) == 1:
            self.last_rule = None
            return legal[0]
        sight = getattr(observe, "sight", None)  # ids, when the caller offers them
        a, self.last_rule = strat.decide(self.strategy, self.vocab, seat, tuple(legal),
                                         sight() if sight is not None else observe())
        return a


_COMPILED = Kept(64)
# the last lookups by what the caller gave (the game, the reference, the settings, the folder a
# relative reference is read from) -> (game, path, the file's stamp, strategy): a match's agents
# are made for every game, and resolving and reading the file each time cost 180 µs an agent
_RECENT = Kept(64)


def _stamp(path) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


def strategy_for(gd, params: dict) -> strat.Strategy:
    """The strategy `params` name (else the ruleset's `simulate.strategy`), compiled once."""
    ref = params.get("strategy") or getattr(gd, "strategy", None)
    # the switches set away from their defaults (every shipped strategy's switches are
    # parameters, and one this strategy lacks may only keep its default)
    defaults = {p.name: p.default for p in SPEC.params}
    settings = {k: v for k, v in params.items() if k != "strategy" and v != defaults.get(k)}
    recent = (id(gd), str(ref), tuple(sorted(settings.items())), os.getcwd())
    hit = _RECENT.get(recent)
    if hit is not None and hit[0] is gd and hit[2] is not None and _stamp(hit[1]) == hit[2]:
        return hit[3]  # the same file, unchanged since it was read
    if not ref:
        raise CheckError(f"{gd.name} names no strategy (simulate.strategy): give the rules agent "
                         f"one with rules:strategy=NAME (shipped: {', '.join(shipped())})",
                         Span("--agents", 0, 0))
    path = strat.resolve(str(ref))
    if not path.is_file():
        raise CheckError(f"no strategy file {ref} (shipped: {', '.join(shipped())})",
                         Span("--agents", 0, 0))
    stamp = _stamp(path)  # before the read: a change after it is seen next time
    try:  # the file's text too: a game loaded again is the same GameDef (game.check)
        text = path.read_bytes()
    except OSError:
        text = None
    key = (id(gd), str(path.resolve()), text, tuple(sorted(settings.items())))
    hit = _COMPILED.get(key)
    if hit is not None and hit[0] is gd:
        s = hit[1]
    else:
        s = strat.compile_strategy(path, gd, settings)
        _COMPILED.put(key, (gd, s))  # gd kept with it: its id stays its own
    _RECENT.put(recent, (gd, path, stamp, s))
    return s


def make(rng: random.Random, gd, params: dict) -> RulesAgent:
    return RulesAgent(rng, gd, strategy_for(gd, params))


def shipped() -> list[str]:
    return sorted(p.stem for p in strat.strategy_dir().glob("*.yaml"))


def _params() -> tuple:
    out = [Param("strategy", "file", "", "the strategy file: a shipped name or a .yaml path "
                 "(default: the ruleset's simulate.strategy)", tuple(shipped()))]
    seen = {"strategy"}
    for name in shipped():
        try:
            sw = strat.switches(strat.read(strat.strategy_dir() / f"{name}.yaml"))
        except Exception:  # a broken shipped file is reported when it is used
            continue
        for k, (on, help_) in sw.items():
            if k not in seen:
                seen.add(k)
                out.append(Param(k, "onoff", on, f"{help_} ({name})"))
    return tuple(out)


SPEC = AgentSpec("rules", "plays a strategy file: ordered, named rules in the expression language",
                 _params(), make)  # its switches: those of the shipped strategy files


def rule_names(gd, params: dict) -> tuple[str, list[str], list[str]]:
    """The strategy `params` give the rules agent in `gd`: its name, the rules it plays (on), and
    the rules it has switched off, each in file order; flags are not rules."""
    s = strategy_for(gd, params)
    on = [r.name for sec in s.sections.values() for r in sec]
    off = [k for k in s.switches if k not in s.flags and k not in on]
    return s.name, on, off


def biddable(gd) -> list[str]:
    """The contracts a hand of `gd` may be played in, by name: those with a bid, or the one
    every hand is played in when there is no auction."""
    fixed = gd.auction.fixed_contract
    if fixed >= 0:
        return [gd.contracts[fixed].name]
    return sorted({b.contract_name for b in gd.bids if b.contract >= 0})


def never_bid(gd, agents: list[str]) -> tuple[list[str], list[str]]:
    """(the contracts of `gd` no seat's agent chooses to bid, the strategies that say so).

    A contract is never bid when every seat plays the rules agent and no bid rule of its
    strategy can choose a bid of it (strategy.bids_chosen); a seat playing another agent
    (random, cautious, search) may bid anything, and then none is. A bid a seat is forced to
    make is no choice: such a contract may still be played. ([], []) without an auction."""
    from . import parse
    if gd.auction.fixed_contract >= 0:
        return [], []
    contracts = biddable(gd)
    never = set(contracts)
    names: list[str] = []
    for text in agents:
        choice = parse(text)
        if choice.spec is not SPEC:
            return [], []
        s = strategy_for(gd, dict(choice.params))
        if s.name not in names:
            names.append(s.name)
        never = {c for c in never if not strat.bids_chosen(s, c)}
        if not never:
            return [], []
    return sorted(never), names


__all__ = ["SPEC", "RulesAgent", "biddable", "make", "never_bid", "rule_names", "strategy_for"]
