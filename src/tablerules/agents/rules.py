"""The rule-based agent: plays a strategy file (see docs/strategy.md) from its seat's observation."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from ..errors import CheckError, Span
from . import strategy as strat

# Param and AgentSpec are copied from the agent contract until agents/base.py is merged.


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # "int" | "float" | "onoff" | "choice"
    default: object
    help: str
    choices: tuple = ()
    min: float | None = None
    max: float | None = None


@dataclass(frozen=True)
class AgentSpec:
    name: str
    help: str
    params: tuple
    make: Callable


class RulesAgent:
    """Chooses by the first rule of its strategy that applies; only `observe()` is read."""

    name = "rules"

    def __init__(self, rng: random.Random, gd, strategy: strat.Strategy):
        self.rng = rng  # unused: a strategy is deterministic given the observation
        self.strategy = strategy
        self.vocab = strat.vocabulary(gd)
        self.last_rule: str | None = None

    def act(self, seat: int, legal: tuple[int, ...], observe) -> int:
        if len(legal) == 1:
            self.last_rule = None
            return legal[0]
        a, self.last_rule = strat.decide(self.strategy, self.vocab, seat, tuple(legal), observe())
        return a


_COMPILED: dict = {}


def strategy_for(gd, params: dict) -> strat.Strategy:
    """The strategy `params` name (else the ruleset's `simulate.strategy`), compiled once."""
    ref = params.get("strategy") or getattr(gd, "strategy", None)
    if not ref:
        raise CheckError(f"{gd.name} names no strategy (simulate.strategy): give the rules agent "
                         f"one with rules:strategy=NAME (shipped: {', '.join(shipped())})",
                         Span("--agents", 0, 0))
    path = strat.resolve(str(ref))
    if not path.is_file():
        raise CheckError(f"no strategy file {ref} (shipped: {', '.join(shipped())})",
                         Span("--agents", 0, 0))
    settings = {k: v for k, v in params.items() if k != "strategy"}
    key = (id(gd), str(path.resolve()), tuple(sorted(settings.items())))
    hit = _COMPILED.get(key)
    if hit is not None and hit[0] is gd:
        return hit[1]
    if len(_COMPILED) > 64:
        _COMPILED.clear()
    s = strat.compile_strategy(path, gd, settings)
    _COMPILED[key] = (gd, s)
    return s


def make(rng: random.Random, gd, params: dict) -> RulesAgent:
    return RulesAgent(rng, gd, strategy_for(gd, params))


def parse_params(text: str) -> dict:
    """`keep_count=off:strategy=mine` -> {"keep_count": False, "strategy": "mine"}."""
    out: dict = {}
    for part in (p for p in text.split(":") if p):
        k, eq, v = part.partition("=")
        if not eq:
            raise CheckError(f"agent parameter '{part}' needs a value: NAME=VALUE",
                             Span("--agents", 0, 0))
        if k == "strategy":
            out[k] = v
        elif v in ("on", "off", "true", "false"):
            out[k] = v in ("on", "true")
        else:
            raise CheckError(f"rules:{k}={v}: a rule is switched 'on' or 'off'",
                             Span("--agents", 0, 0))
    return out


def shipped() -> list[str]:
    return sorted(p.stem for p in strat.strategy_dir().glob("*.yaml"))


def _params() -> tuple:
    out = [Param("strategy", "choice", None, "the strategy file: a shipped name or a .yaml path "
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


class _LazySpec:
    """The spec, its params read from the shipped strategy files when first asked."""

    name = "rules"
    help = "plays a strategy file: ordered, named rules in the expression language"
    make = staticmethod(make)

    @property
    def params(self) -> tuple:
        if not hasattr(self, "_params"):
            self._params = _params()
        return self._params

    def spec(self) -> AgentSpec:
        return AgentSpec(self.name, self.help, self.params, make)


SPEC = _LazySpec()


def from_text(rng: random.Random, gd, params: str = "") -> RulesAgent:
    """The agent of a `--agents rules:NAME=on:...` spec (an adapter for the current registry)."""
    return make(rng, gd, parse_params(params))


__all__ = ["SPEC", "AgentSpec", "Param", "RulesAgent", "from_text", "make", "parse_params",
           "strategy_for"]
