"""Random well-typed expressions: compiled closures agree with a direct Python evaluation."""

# This exercises folding and the three compilation modes (context, frame, item), with
# nested aggregates and shadowed bound variables.

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tablerules.errors import ExprError, GameError
from tablerules.expr import compile_expression

from expr_vocab import build
from support import examples

HAND = ((6, 6), (5, 3), (2, 2), (1, 0))
NUMS = (4, 1, 3)
ENV, CTX = build({
    "x": {"type": "int", "value": 5},
    "c": {"type": "bool", "value": True},
    "n": {"type": "int", "const": 3},
    "hand": {"type": "list[tile]", "value": [list(t) for t in HAND]},
    "nums": {"type": "list[int]", "value": list(NUMS)},
})
BASE = {"x": 5, "c": True, "n": 3}
NAMES = ["a", "b"]


class Empty(Exception):
    """min()/max() of nothing in the reference evaluation."""


def _agg(kind, values, default=None):
    values = list(values)
    if kind in ("min", "max"):
        if not values:
            if default is None:
                raise Empty
            return default()
        return min(values) if kind == "min" else max(values)
    return {"sum": sum, "any": any, "all": all}[kind](values)


@st.composite
def int_expr(draw, scope, depth=0):
    """(text, reference evaluator env -> int)."""
    kinds = ["lit", "x", "n"]
    ints = [v for v, k in scope.items() if k == "int"]
    tiles = [v for v, k in scope.items() if k == "tile"]
    if ints:
        kinds += ["bound"] * 3
    if tiles:
        kinds += ["attr"] * 3
    if depth < 3:
        kinds += ["add", "sub", "mul", "neg", "div", "ifelse", "abs", "min", "sum", "count",
                  "extreme", "pips", "plus_x"]
    kind = draw(st.sampled_from(kinds))
    if kind == "lit":
        v = draw(st.integers(-3, 9))
        return str(v), lambda e: v
    if kind in ("x", "n"):
        return kind, lambda e: e[kind]
    if kind == "bound":
        v = draw(st.sampled_from(ints))
        return v, lambda e: e[v]
    if kind == "attr":
        v = draw(st.sampled_from(tiles))
        attr = draw(st.sampled_from(["high", "low", "count"]))
        i = {"high": 0, "low": 1}.get(attr)
        return f"{v}.{attr}", (lambda e: e[v][i]) if i is not None else (lambda e: sum(e[v]))
    sub = lambda: draw(int_expr(scope, depth + 1))  # noqa: E731
    if kind in ("add", "sub", "mul", "div"):
        (lt, lf), (rt, rf) = sub(), sub()
        op = {"add": "+", "sub": "-", "mul": "*", "div": draw(st.sampled_from(["//", "%"]))}[kind]
        fns = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__, "//": int.__floordiv__,
               "%": int.__mod__}
        return f"({lt} {op} {rt})", lambda e: fns[op](lf(e), rf(e))
    if kind == "neg":
        t, f = sub()
        return f"-{t}", lambda e: -f(e)
    if kind == "abs":
        t, f = sub()
        return f"abs({t})", lambda e: abs(f(e))
    if kind == "pips":
        t = draw(st.sampled_from(tiles)) if tiles else "t0"
        if not tiles:
            return "pips(first(hand))", lambda e: sum(HAND[0])
        return f"pips({t})", lambda e: sum(e[t])
    if kind == "plus_x":
        t, f = sub()
        return f"plus_x({t})", lambda e: f(e) + 5
    if kind == "min":
        (lt, lf), (rt, rf) = sub(), sub()
        fn = draw(st.sampled_from(["min", "max"]))
        pick = min if fn == "min" else max
        return f"{fn}({lt}, {rt})", lambda e: pick(lf(e), rf(e))
    if kind == "ifelse":
        ct, cf = draw(bool_expr(scope, depth + 1))
        (lt, lf), (rt, rf) = sub(), sub()
        return f"({lt} if {ct} else {rt})", lambda e: lf(e) if cf(e) else rf(e)
    # aggregates
    var = draw(st.sampled_from(NAMES))
    over_tiles = draw(st.booleans())
    source, items, vkind = ("hand", HAND, "tile") if over_tiles else ("nums", NUMS, "int")
    if draw(st.booleans()):
        source, items = ("[1, 2, 3]", (1, 2, 3)) if vkind == "int" else (source, items)
    inner = {**scope, var: vkind}
    filt = draw(st.one_of(st.none(), bool_expr(inner, depth + 1)))
    ftext = f" if {filt[0]}" if filt else ""
    keep = (lambda e: filt[1](e)) if filt else (lambda e: True)

    def each(e):
        for it in items:
            ee = {**e, var: it}
            if keep(ee):
                yield ee
    if kind == "count":
        return f"count({var} in {source}{ftext})", lambda e: sum(1 for _ in each(e))
    bt, bf = draw(int_expr(inner, depth + 1))
    agg = "sum" if kind == "sum" else draw(st.sampled_from(["min", "max"]))
    if agg == "sum":
        return f"sum({bt} for {var} in {source}{ftext})", \
            lambda e: sum(bf(ee) for ee in each(e))
    if draw(st.booleans()):
        dt, df = sub()
        return f"{agg}({bt} for {var} in {source}{ftext}, default={dt})", \
            lambda e: _agg(agg, (bf(ee) for ee in each(e)), lambda: df(e))
    return f"{agg}({bt} for {var} in {source}{ftext})", \
        lambda e: _agg(agg, (bf(ee) for ee in each(e)))


@st.composite
def bool_expr(draw, scope, depth=0):
    """(text, reference evaluator env -> bool)."""
    kinds = ["lit", "c", "cmp", "cmp"]
    if depth < 3:
        kinds += ["and", "or", "not", "in", "anyall"]
    kind = draw(st.sampled_from(kinds))
    if kind == "lit":
        v = draw(st.booleans())
        return ("true" if v else "false"), lambda e: v
    if kind == "c":
        return "c", lambda e: e["c"]
    if kind == "cmp":
        (lt, lf), (rt, rf) = draw(int_expr(scope, depth + 1)), draw(int_expr(scope, depth + 1))
        op = draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
        fns = {"==": int.__eq__, "!=": int.__ne__, "<": int.__lt__, "<=": int.__le__,
               ">": int.__gt__, ">=": int.__ge__}
        return f"({lt} {op} {rt})", lambda e: fns[op](lf(e), rf(e))
    if kind in ("and", "or"):
        (lt, lf), (rt, rf) = draw(bool_expr(scope, depth + 1)), draw(bool_expr(scope, depth + 1))
        if kind == "and":
            return f"({lt} and {rt})", lambda e: lf(e) and rf(e)
        return f"({lt} or {rt})", lambda e: lf(e) or rf(e)
    if kind == "not":
        t, f = draw(bool_expr(scope, depth + 1))
        return f"(not {t})", lambda e: not f(e)
    if kind == "in":
        t, f = draw(int_expr(scope, depth + 1))
        neg = draw(st.booleans())
        return f"({t} {'not in' if neg else 'in'} nums)", lambda e: (f(e) in NUMS) != neg
    var = draw(st.sampled_from(NAMES))
    agg = draw(st.sampled_from(["any", "all"]))
    bt, bf = draw(bool_expr({**scope, var: "int"}, depth + 1))
    return f"{agg}({bt} for {var} in nums)", \
        lambda e: _agg(agg, (bf({**e, var: it}) for it in NUMS))


def _reference(fn):
    try:
        return "ok", fn(BASE)
    except (ZeroDivisionError, Empty):
        return "error", None


@settings(max_examples=examples(800), deadline=None)
@given(st.one_of(int_expr({}), bool_expr({})))
def test_compiled_matches_reference(case):
    text, fn = case
    status, want = _reference(fn)
    try:
        compiled = compile_expression(text, ENV)
    except ExprError as e:  # constant failures are reported at compile time
        assert status == "error", f"{text}: {e}"
        return
    try:
        got = compiled.fn(CTX)
    except GameError:
        assert status == "error", text
        return
    assert status == "ok" and got == want, f"{text}: got {got}, want {want}"
    if compiled.is_const:
        assert compiled.const == want
