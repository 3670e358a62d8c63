"""A small test vocabulary: a `tile` object type, type strings, and an Env built from `given`."""

from __future__ import annotations

import itertools
import operator
import re

from tablerules.errors import GameError
from tablerules.expr.env import Env, Func, Var
from tablerules.expr.types import (ANY, BOOL, INT, NEVER, SCALAR, SYM, Attr, ListType, ObjType,
                                   Type, enum)

# A tile is a (high, low) pair at run time.
TILE = ObjType("tile", {
    "high": Attr(INT, operator.itemgetter(0), "the larger end"),
    "low": Attr(INT, operator.itemgetter(1), "the smaller end"),
    "double": Attr(BOOL, lambda t: t[0] == t[1], "both ends equal"),
    "count": Attr(INT, lambda t: t[0] + t[1], "the pip count"),
})


def parse_type(text: str) -> Type:
    """`int`, `bool`, `symbol`, `scalar`, `tile`, `list[T]`, `enum(a, b)`."""
    text = text.strip()
    simple = {"int": INT, "bool": BOOL, "symbol": SYM, "scalar": SCALAR, "tile": TILE,
              "nothing": NEVER, "any": ANY}
    if text in simple:
        return simple[text]
    m = re.fullmatch(r"list\[(.*)\]", text)
    if m:
        return ListType(parse_type(m.group(1)))
    m = re.fullmatch(r"enum\((.*)\)", text)
    if m:
        return enum(v.strip() for v in m.group(1).split(","))
    raise ValueError(f"unknown test type {text!r}")


def to_runtime(value, t: Type):
    """YAML value to the runtime representation: lists and tiles become tuples."""
    if isinstance(t, ListType):
        return tuple(to_runtime(v, t.elem) for v in value)
    if t == TILE:
        return tuple(value)
    return value


_rolls = itertools.count()


def _fail(k: int) -> int:
    raise GameError(f"boom {k}")


def _first_type(types: list[Type]) -> Type:
    (t,) = types
    if t.elem == NEVER:
        raise TypeError("cannot take the first element of an empty list")
    return t.elem


FUNCS: dict[str, Func] = {
    "pips": Func((TILE,), INT, lambda t: t[0] + t[1], doc="pip count of a tile"),
    "twice": Func((INT,), INT, lambda k: 2 * k),
    "roll": Func((), INT, lambda: next(_rolls), pure=False),
    "plus_x": Func((INT,), INT, lambda ctx, k: k + ctx["x"], needs_ctx=True, pure=False),
    "first": Func((ListType(ANY),), _first_type, lambda xs: xs[0]),
    "fail": Func((INT,), INT, _fail),
    "rank": Func((enum(["doubles", "sixes"]),), INT, lambda s: {"doubles": 7, "sixes": 6}[s]),
}


def build(given: dict, where: str = "the compliance tests") -> tuple[Env, dict]:
    """An Env and a context dict from a `given` mapping of name -> {type, value | const}."""
    vars_, ctx = {}, {}
    for name, spec in (given or {}).items():
        t = parse_type(spec["type"])
        if "const" in spec:
            vars_[name] = Var(t, const=to_runtime(spec["const"], t))
        else:
            vars_[name] = Var(t, operator.itemgetter(name))
            ctx[name] = to_runtime(spec["value"], t)
    return Env(vars_, dict(FUNCS), where), ctx
