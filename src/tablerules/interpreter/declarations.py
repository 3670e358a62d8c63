"""The ruleset's own names: `constants:`, `declarations:` and `functions:`."""

from __future__ import annotations

import re
from dataclasses import fields, is_dataclass
from typing import TYPE_CHECKING, Any

from ..definition import Declaration, places
from ..errors import ExprError, did_you_mean
from ..expr import KEYWORDS, RESERVED, compile_expression, define_function, parse
from ..expr.nodes import Aggregate, Call, Name, Node
from ..expr.env import Env, Func, Var
from ..expr.types import BOOL, INT, NEVER, SCALAR, SYM, ListType, SymType, Type, enum, join
from . import vocab

if TYPE_CHECKING:
    from .core import Compiler

SIGNATURE = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*\((.*)\)\s*$")


def hides(comp: Compiler, env: Env, p: tuple, what: str, name: str) -> bool:
    """Whether `name` is taken, said at `p`: by the vocabulary, by the expression language, or
    by a name of the game's state."""
    if name not in RESERVED and (name in env.vars or name in env.funcs):
        comp.error(p, f"{what} '{name}' hides a name already defined", key=True)
        return True
    return taken(comp, p, what, name)


def taken(comp: Compiler, p: tuple, what: str, name: str) -> bool:
    """Whether `name` is one the ruleset may not define, said at `p`: a keyword or built-in
    function (no expression could reach it, and each would fail), or a name of the game's state
    (`bidder`, `level`, `points`, ...), which is not where the ruleset's names are defined but is
    in every place that reads it, where it would win over the ruleset's name: refused where it
    is defined, rather than failing where it is used."""
    if name in RESERVED:
        kind = "a keyword" if name in KEYWORDS else "a built-in function"
        comp.error(p, f"{what} '{name}' has the name of {kind} of the expression language; "
                      f"choose another name", key=True)
        return True
    at = places.read_at(name)
    if at:
        n = len(at) - 1
        more = f" and {n} more place{'s' if n > 1 else ''}" if n else ""
        comp.error(p, f"{what} '{name}' hides '{name}', which {at[0]}{more} read from the "
                      f"game's state; choose another name", key=True)
        return True
    return False


def constants(comp: Compiler, base: Env) -> dict[str, Any]:
    """Each constant's value; each is added to `base` for the constants after it."""
    out = {}
    for name, spec in (comp.get("constants", default={}) or {}).items():
        p = ("constants", name)
        if hides(comp, base, p, "constant", name):
            continue
        if not isinstance(spec, dict):
            continue
        c = comp.expr(p + ("value",), base.extended(where=f"constants.{name}"))
        if c is None:
            continue
        value = comp.const_value(c)
        base.vars[name] = vocab.const(c.type, value, str(spec.get("description", "")))
        out[name] = value
    return out


def declarations(comp: Compiler, base: Env) -> tuple[Declaration, ...]:
    out = []
    for name, spec in (comp.get("declarations", default={}) or {}).items():
        p = ("declarations", name)
        if hides(comp, base, p, "declaration", name):
            continue
        if not isinstance(spec, dict):
            continue
        vc = comp.expr(p + ("values",), base.extended(where=f"declarations.{name}.values"))
        if vc is None:
            continue
        if not isinstance(vc.type, ListType):
            comp.error(p + ("values",), f"declaration values are a list, got {vc.type}")
            continue
        values = tuple(comp.const_value(vc))
        dflt = comp.expr(p + ("default",), base.extended(where=f"declarations.{name}.default"))
        if dflt is None:
            continue
        dv = comp.const_value(dflt)
        if dv not in values:
            comp.error(p + ("default",), f"default {dv!r} is not one of the declared values")
            continue
        out.append(Declaration(len(out), name, str(spec.get("description", "")), values, dv))
    return tuple(out)


def declaration_type(dc: Declaration) -> Type:
    t: Type | None = None
    for v in dc.values:
        vt = INT if type(v) is int else (enum([v]) if isinstance(v, str) else BOOL)
        t = vt if t is None else join(t, vt)
    return t or SCALAR


def declaration_vars(decls: tuple[Declaration, ...]) -> dict[str, Var]:
    """The `declarations` group: each declaration by its name, read from the context's `decl`."""
    return {dc.name: Var(declaration_type(dc), (lambda c, i=dc.index: c.decl[i]),
                         doc=dc.description, field=f"decl:{dc.index}") for dc in decls}


def functions(comp: Compiler, base: Env, decl_vars: dict[str, Var], tile,
              place_types: dict[str, Type]) -> tuple[dict[str, Func], dict[str, vocab.Lazy]]:
    """The ruleset's functions, each seeing the declarations and the other functions.

    Every signature is read first, then the bodies are compiled callees first, so the order of
    definitions does not matter; a function that calls itself, directly or not, is an error.
    A body that reads a name of the game's state (`bidder`, `points(side)`, ...) is not compiled
    here but at each place that calls it, with the names that place reads (`vocab.Lazy`).
    """
    env = base.extended(vars=decl_vars)
    types = {"tile": tile, **({"card": tile} if tile.name == "card" else {}), "int": INT,
             "bool": BOOL, "symbol": SYM, "scalar": SCALAR, "end": vocab.end_type()}
    out: dict[str, Func] = {}
    found: dict[str, tuple] = {}  # name -> (path, params, body text)
    for sig, body in (comp.get("functions", default={}) or {}).items():
        p = ("functions", sig)
        m = SIGNATURE.match(sig) if isinstance(sig, str) else None
        if not m:
            comp.error(p, f"a function key is a signature like 'name(t: tile, n: int)', "
                          f"got '{sig}'", key=True)
            continue
        params = _params(comp, p, sig, m.group(2), types, env)
        name = m.group(1)
        if params is None:
            comp.failed.add(name)
            continue
        if name in found:
            comp.error(p, f"function '{name}' hides a name already defined", key=True)
            continue
        if hides(comp, env, p, "function", name):
            comp.failed.add(name)
            continue
        if not isinstance(body, (str, int, bool)):
            comp.error(p, "a function body is an expression", kind="schema")
            comp.failed.add(name)
            continue
        found[name] = (p, params, body if isinstance(body, str) else str(body).lower())
    read = {name: _reads(text, comp.tree.locator(p)) for name, (p, _, text) in found.items()}
    calls = {name: read[name][0] & set(found) for name in found}
    for called, names in read.values():  # what the bodies read counts as read by the ruleset
        comp.uses |= called | names
    dynamic = places.state_names() - set(env.vars) - set(env.funcs)
    lazy_names = {name for name in found
                  if (read[name][1] - {pn for pn, _ in found[name][1]}) & dynamic}
    grew = True
    while grew:  # a function calling one that reads state reads state too
        more = {name for name in found if name not in lazy_names and calls[name] & lazy_names}
        lazy_names |= more
        grew = bool(more)
    lazy: dict[str, vocab.Lazy] = {}
    state: dict[str, int] = {}  # 1: being compiled, 2: done

    def define(name: str, chain: list[str]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            loop = chain[chain.index(name):] + [name]
            first = loop[0]
            comp.error(found[first][0], f"function '{first}' calls itself "
                                        f"({' -> '.join(loop)}): recursion is not allowed",
                       key=True)
            comp.failed.update(loop)
            return
        state[name] = 1
        for callee in sorted(calls[name], key=list(found).index):
            define(callee, chain + [name])
        state[name] = 2
        if name in comp.failed or calls[name] & comp.failed:
            comp.failed.add(name)  # its callee's error is the one to report
            return
        p, params, text = found[name]
        if name in lazy_names:
            lazy[name] = vocab.Lazy(name, tuple(params), text, comp.tree.locator(p),
                              frozenset(calls[name] & lazy_names))
            return
        try:
            env.funcs[name] = out[name] = define_function(name, params, text, env,
                                                          locate=comp.tree.locator(p))
        except ExprError as e:
            comp.failed.add(name)
            comp.extend(p, e.diagnostics)

    for name in found:
        define(name, [])
    errors: dict[str, ExprError] = {}
    vocab.compile_lazy(lazy, vocab.state_env(env, place_types), errors)
    for name, e in errors.items():  # wrong wherever it is called: say so where it is written
        comp.extend(found[name][0], e.diagnostics)
    gone = set(errors)
    while gone:  # its callers go with it; the callee's error is the one to report
        comp.failed.update(gone)
        for name in gone:
            lazy.pop(name, None)
        gone = {n for n, lz in lazy.items() if lz.calls & comp.failed}
    return {name: out[name] for name in found if name in out}, lazy


def _reads(text: str, locate) -> tuple[set[str], set[str]]:
    """(the functions a body calls, the other names it reads); empty when it does not parse."""
    try:
        root = parse(text, locate=locate)
    except ExprError:
        return set(), set()
    called: set[str] = set()
    names: set[str] = set()
    bound: set[str] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Call) and isinstance(node.func, Name):
            called.add(node.func.name)
            names.add(node.func.name)  # a state function such as points(side)
        elif isinstance(node, Aggregate):
            bound.add(node.var)
            if isinstance(node.func, Name):
                called.add(node.func.name)
        elif isinstance(node, Name):
            names.add(node.name)
        for f in fields(node) if is_dataclass(node) else ():
            v = getattr(node, f.name)
            if isinstance(v, Node):
                stack.append(v)
            elif isinstance(v, tuple):
                stack.extend(x for x in v if isinstance(x, Node))
    return called, names - bound


def _params(comp: Compiler, p: tuple, sig: str, text: str, types: dict, env: Env) -> list | None:
    """The (name, type) parameters of a signature; None after an error."""
    out = []
    bad = False
    for part in split_params(text):
        try:
            out.append(param(part, types, env))
        except ParamError as e:
            comp.error(p, f"bad parameter '{part.strip()}' in '{sig}' ({e})", key=True,
                       suggestion=e.suggestion)
            bad = True
    return None if bad else out


ONE_OF = "one of"


class ParamError(Exception):
    """A parameter of a signature that cannot be read: what is wrong, and a guess."""

    def __init__(self, message: str, suggestion: str | None = None):
        super().__init__(message)
        self.suggestion = suggestion


def split_params(text: str) -> list[str]:
    """A signature's parameters: `text` split at the commas outside brackets and symbols."""
    parts: list[str] = []
    cur: list[str] = []
    depth, quote = 0, ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    parts.append("".join(cur))
    return [x for x in parts if x.strip()]


def param(part: str, types: dict[str, Type], env: Env) -> tuple[str, Type]:
    """One parameter `name: type` of a signature. The type is one of `types`, a list of one
    (`list[tile]`), or `one of X`: a symbol among the names X declares (see `one_of`)."""
    pname, _, ptype = part.partition(":")
    pname, ptype = pname.strip(), " ".join(ptype.split())
    if not pname.isidentifier():
        raise ParamError(f"'{pname}' is not a parameter name")
    if ptype.startswith(ONE_OF + " ") or ptype == ONE_OF:
        return pname, one_of(ptype[len(ONE_OF):].strip(), env)
    t = types.get(ptype)
    if ptype.startswith("list[") and ptype.endswith("]") and ptype[5:-1] in types:
        t = ListType(types[ptype[5:-1]])
    if t is None:
        raise ParamError(f"types: {', '.join(types)}, list[...], {ONE_OF} ...",
                         did_you_mean(ptype, types))
    return pname, t


def one_of(text: str, env: Env) -> Type:
    """The enum type of a parameter written `one of X`: X is a list of symbols written out
    (`['big', 'little']`), a constant whose value is one, or an option or declaration of
    symbols (the values it allows). X is an expression of the language, checked and worked out
    like any other: no text of the ruleset is read as anything else."""
    if not text:
        raise ParamError(f"'{ONE_OF}' names a list of symbols, an option or a declaration")
    try:
        c = compile_expression(text, env.extended(where="a parameter's 'one of'"))
    except ExprError as e:
        d = e.diagnostics[0]
        raise ParamError(f"{ONE_OF} {text}: {d.message}", d.suggestion) from None
    t = c.type
    if isinstance(t, SymType) and t.values:
        return enum(t.values)
    if isinstance(t, ListType) and isinstance(t.elem, SymType) and c.is_const and c.const:
        return enum(c.const)
    raise ParamError(f"{ONE_OF} {text}: a list of symbols, an option or a declaration of "
                     f"symbols is wanted, got {'an empty list' if t == ListType(NEVER) else t}")
