"""The agent contract: specs with typed parameters, and `NAME[:PARAM=VALUE...]` per seat."""

from __future__ import annotations

import difflib
import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

if TYPE_CHECKING:
    from ..definition import GameDef

Observe = Callable[[], dict]
KINDS = ("int", "float", "onoff", "choice", "file")
ONOFF = {"on": True, "off": False}


class Agent(Protocol):
    """Anything that chooses one of `legal` for `seat`; `observe()` gives the seat's view."""

    name: str

    def act(self, seat: int, legal: tuple[int, ...], observe: Observe) -> int: ...


@dataclass(frozen=True)
class Param:
    """One parameter of an agent: its kind, default, bounds or choices, and what it does."""

    name: str
    kind: str  # "int" | "float" | "onoff" | "choice" | "file" (a choice, or a .yaml path)
    default: object
    help: str
    choices: tuple = ()  # for "choice"
    min: float | None = None
    max: float | None = None

    def parse(self, text: str) -> Any:
        """The value `text` gives this parameter; ValueError says what it may be."""
        return parse_value(self, text)

    def range_text(self) -> str:
        return range_text(self)

    def text(self, value: Any) -> str:
        return value_text(self, value)

    def as_dict(self) -> dict:
        return param_dict(self)


# Functions of a parameter's fields rather than methods only, so that a spec built from a copy
# of these dataclasses (an agent module written before this one was merged) works the same.

def parse_value(p, text: str) -> Any:
    """The value `text` gives parameter `p`; ValueError says what it may be."""
    t = text.strip()
    if p.kind == "onoff":
        if t.lower() not in ONOFF:
            raise ValueError(f"{p.name} is on or off, got '{text}'")
        return ONOFF[t.lower()]
    if p.kind == "file" and (t in p.choices or t.endswith((".yaml", ".yml"))):
        return t
    if p.kind in ("choice", "file"):
        if t not in [str(c) for c in p.choices]:
            raise ValueError(f"{p.name} is one of {', '.join(map(str, p.choices))}"
                             + (" or a .yaml file" if p.kind == "file" else "")
                             + f", got '{text}'" + _did_you_mean(t, [str(c) for c in p.choices]))
        return next(c for c in p.choices if str(c) == t)
    try:
        value: Any = int(t) if p.kind == "int" else float(t)
    except ValueError:
        what = "an integer" if p.kind == "int" else "a number"
        raise ValueError(f"{p.name} is {what}, got '{text}'") from None
    if p.kind == "float" and not math.isfinite(value):
        raise ValueError(f"{p.name} is a finite number, got '{text}'")
    if (p.min is not None and value < p.min) or (p.max is not None and value > p.max):
        raise ValueError(f"{p.name} is {range_text(p)}, got '{text}'")
    return value


def range_text(p) -> str:
    """'0 to 1', 'at least 1': the values a parameter's bounds allow."""
    lo, hi = (None if b is None else _num(b) for b in (p.min, p.max))
    if lo is not None and hi is not None:
        return f"{lo} to {hi}"
    if lo is not None:
        return f"at least {lo}"
    return f"at most {hi}" if hi is not None else "any number"


def value_text(p, value: Any) -> str:
    """A parameter's value as the command line writes it."""
    if p.kind == "onoff":
        return "on" if value else "off"
    return _num(value) if p.kind in ("int", "float") else str(value)


def param_dict(p) -> dict:
    d: dict = {"name": p.name, "kind": p.kind, "default": p.default, "help": p.help}
    if p.kind == "onoff":
        d["default"] = value_text(p, default_value(p))
    if p.choices:
        d["choices"] = list(p.choices)
    if p.min is not None:
        d["min"] = p.min
    if p.max is not None:
        d["max"] = p.max
    return d


def spec_dict(spec) -> dict:
    return {"name": spec.name, "help": spec.help, "params": [param_dict(p) for p in spec.params]}


def default_value(p) -> Any:
    """A parameter's default as parsed values are: an onoff default written "on" is True."""
    d = p.default
    if p.kind == "onoff" and isinstance(d, str) and d.lower() in ONOFF:
        return ONOFF[d.lower()]
    return d


def find_param(spec, name: str):
    return next((p for p in spec.params if p.name == name), None)


@dataclass(frozen=True)
class AgentSpec:
    """An agent by name: one line of help, its parameters, and how to make one."""

    name: str
    help: str  # one line
    params: tuple[Param, ...]
    make: Callable[[random.Random, "GameDef", dict], Agent]  # params: name -> parsed value
    # what making one with these parameters compiles (numba: the first time most of a minute,
    # then loaded), in a few words; None: nothing slow
    compiles: Callable[[dict], str | None] | None = None

    def param(self, name: str) -> Param | None:
        return find_param(self, name)

    def as_dict(self) -> dict:
        return spec_dict(self)


@dataclass(frozen=True)
class AgentChoice:
    """One seat's agent as the command line gave it: a spec and every parameter's value."""

    spec: AgentSpec
    params: Mapping[str, Any]

    @property
    def text(self) -> str:
        """The canonical text: the name, then each parameter that is not its default, in order."""
        given = [f"{p.name}={value_text(p, self.params[p.name])}" for p in self.spec.params
                 if self.params[p.name] != default_value(p)]
        return ":".join([self.spec.name, *given])

    def make(self, rng: random.Random, game: "GameDef") -> Agent:
        return self.spec.make(rng, game, dict(self.params))

    def compiles(self) -> str | None:
        """What making this agent compiles (its spec's `compiles`), or None."""
        return self.spec.compiles(dict(self.params)) if self.spec.compiles else None

    def paths(self) -> dict[str, str]:
        """Its file parameters whose value is a path (read relative to the current directory),
        not one of the parameter's shipped names: param name -> path as given."""
        return {p.name: self.params[p.name] for p in self.spec.params
                if p.kind == "file" and self.params[p.name]
                and self.params[p.name] not in p.choices}

    def with_params(self, **values: Any) -> "AgentChoice":
        """The same agent with some parameters set to other values."""
        return AgentChoice(self.spec, {**self.params, **values})


class AgentTextError(ValueError):
    """A bad `--agents` text: the message and the column (1-based) of the part at fault."""

    def __init__(self, message: str, text: str, col: int):
        super().__init__(message)
        self.message = message
        self.text = text
        self.col = col

    def render(self, flag: str = "--agents") -> str:
        """`error: --agents: message`, then the text with a caret under the part at fault."""
        return (f"error: {flag}: {self.message}\n    {self.text}\n"
                f"    {' ' * (self.col - 1)}^")


def _num(v: Any) -> str:
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))  # 1.0 -> 1: the text a user would write
    return str(v)


def _did_you_mean(word: str, names) -> str:
    close = difflib.get_close_matches(word, list(names), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def parse_agent(text: str, registry: Mapping[str, AgentSpec], *, whole: str | None = None,
                at: int = 1) -> AgentChoice:
    """One `NAME[:PARAM=VALUE...]`; `whole` and `at` place errors within a longer text."""
    whole = text if whole is None else whole
    parts = text.split(":")
    col = at
    name = parts[0].strip()
    lead = len(parts[0]) - len(parts[0].lstrip())
    spec = registry.get(name)
    if spec is None:
        what = f"unknown agent '{name}'" if name else "an agent name is missing"
        raise AgentTextError(f"{what} (agents: {', '.join(sorted(registry))})"
                             + _did_you_mean(name, registry), whole, col + lead)
    values = {p.name: default_value(p) for p in spec.params}
    seen: set[str] = set()
    col += len(parts[0]) + 1
    for part in parts[1:]:
        key, eq, raw = part.partition("=")
        key = key.strip()
        pad = len(part) - len(part.lstrip())
        if not eq or not key:
            raise AgentTextError(f"a parameter of {spec.name} is PARAM=VALUE, got '{part}'",
                                 whole, col + pad)
        param = find_param(spec, key)
        if param is None:
            known = ", ".join(p.name for p in spec.params) or "none"
            raise AgentTextError(f"unknown parameter '{key}' of agent {spec.name} (parameters: "
                                 f"{known})" + _did_you_mean(key, [p.name for p in spec.params]),
                                 whole, col + pad)
        if key in seen:
            raise AgentTextError(f"parameter '{key}' of agent {spec.name} is given twice",
                                 whole, col + pad)
        seen.add(key)
        try:
            values[key] = parse_value(param, raw)
        except ValueError as e:
            raise AgentTextError(f"bad value for agent {spec.name}: {e}", whole,
                                 col + len(part.split("=", 1)[0]) + 1) from None
        col += len(part) + 1
    return AgentChoice(spec, values)


def parse_agents(text: str, registry: Mapping[str, AgentSpec]) -> list[AgentChoice]:
    """`--agents` text: seats separated by commas, each `NAME[:PARAM=VALUE...]`."""
    out = []
    col = 1
    if not text.strip():
        raise AgentTextError(f"no agent named (agents: {', '.join(sorted(registry))})", text, 1)
    for part in text.split(","):
        out.append(parse_agent(part, registry, whole=text, at=col))
        col += len(part) + 1
    return out


def for_seats(choices: list, seat_count: int, where: str) -> list:
    """One agent for every seat, or exactly one per seat; ValueError names the count."""
    if len(choices) == 1:
        return list(choices) * seat_count
    if len(choices) != seat_count:
        hint = "" if len(choices) > seat_count else \
            " (one agent plays every seat, or name one per seat)"
        raise ValueError(f"--agents names {len(choices)} agents; {where} has {seat_count} "
                         f"seats{hint}")
    return list(choices)
