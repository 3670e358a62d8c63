"""The `options:` and `set:` pass: declared house rules, their values, and the env they start."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import OptionError, did_you_mean
from ..expr.env import Env
from ..load.ruleset import data_dir
from ..expr.types import BOOL, INT, SCALAR, SYM, enum
from . import declarations, vocab
from .options import OptionDecl, apply_cli_options

if TYPE_CHECKING:
    from .core import Compiler

TYPE_NAMES = {"int": INT, "bool": BOOL, "symbol": SYM, "scalar": SCALAR}


def option_decls(comp: Compiler) -> dict[str, OptionDecl]:
    """The `options:` declarations, each checked against its own type and values."""
    out: dict[str, OptionDecl] = {}
    for name, o in (comp.data.get("options") or {}).items():
        p = ("options", name)
        if not isinstance(o, dict):
            continue  # the schema reports it
        if declarations.taken(comp, p, "option", name):
            continue
        t = o.get("type")
        if t not in ("int", "bool", "symbol"):
            continue
        values = o.get("values")
        decl = OptionDecl(name, t, o.get("default"), str(o.get("description", "")),
                          tuple(values) if isinstance(values, list) else None,
                          o.get("min"), o.get("max"))
        if t == "symbol" and not decl.values:
            comp.error(p, f"symbol option '{name}' needs a list of 'values'", key=True)
        if decl.values is not None:
            for i, v in enumerate(decl.values):
                if OptionDecl(name, t, v, "", None, decl.min, decl.max).problem(v):
                    comp.error(p + ("values", i),
                               f"value {v!r} of option '{name}' is not of type {t}")
        why = decl.problem(decl.default)
        if why:
            comp.error(p + ("default",), f"default of {why[len('option '):]}"
                       if why.startswith("option ") else why)
        out[name] = decl
    return out


def option_values(comp: Compiler, decls: dict[str, OptionDecl]) -> tuple[dict, dict]:
    """(values, house defaults): defaults under `set:`, then the command line over both."""
    values = {k: v.default for k, v in decls.items()}
    settings = comp.data.get("set")
    for k, v in settings.items() if isinstance(settings, dict) else []:
        p = ("set", k)
        decl = decls.get(k)
        if decl is None:
            comp.error(p, f"'set' names no option '{k}'", key=True,
                       suggestion=did_you_mean(k, decls), kind="option")
            continue
        why = decl.problem(v)
        if why:
            comp.error(p, why, kind="option",
                       suggestion=did_you_mean(str(v), [str(x) for x in decl.values or ()]))
            continue
        values[k] = v
    house_defaults = dict(values)
    if comp.cli:
        try:
            values = apply_cli_options(decls, values, comp.cli)
        except OptionError as e:
            comp.diags.extend(e.diagnostics)
    return values, house_defaults


def option_env(decls: dict[str, OptionDecl], values: dict[str, Any]) -> Env:
    """The ruleset-wide env every place starts from: each option as a constant."""
    base = Env(where="the ruleset")
    for k, v in values.items():
        t = enum(decls[k].values) if decls[k].type == "symbol" else TYPE_NAMES[decls[k].type]
        base.vars[k] = vocab.const(t, v, decls[k].description)
    return base


def default_agents(comp: Compiler) -> tuple[str, ...]:
    """`simulate.agents`, the agents simulate and validate use when none are named: else the
    rule-based agent when the ruleset names a strategy, and random play when it names none. The
    schema checks the shape, and the command line the names (agents sit above the compiler)."""
    agents = comp.get("simulate", "agents", default=None)
    if isinstance(agents, list) and agents and all(isinstance(a, str) for a in agents):
        return tuple(agents)
    return ("rules",) if comp.get("simulate", "strategy", default=None) else ("random",)


def default_strategy(comp: Compiler) -> str | None:
    """`simulate.strategy`: the rules agent's default strategy, as a path the agent opens. A
    shipped name stays a name; a path is relative to the file that writes it, and must exist."""
    ref = comp.get("simulate", "strategy", default=None)
    if not isinstance(ref, str) or not ref:
        return None
    if "/" not in ref and not ref.endswith((".yaml", ".yml")):
        return ref
    p = ("simulate", "strategy")
    where = comp.tree.span(p).file
    shipped = data_dir("rulesets")
    home = Path(where).parent
    if where.startswith("rulesets/") and (shipped / where[len("rulesets/"):]).is_file():
        home = (shipped / where[len("rulesets/"):]).parent
    path = Path(ref) if Path(ref).is_absolute() else home / ref
    if not path.is_file():
        comp.error(p, f"no strategy file {ref} (looked at {path})")
        return None
    return str(path.resolve())
