"""The generated Python source: made from the checked tree only, never from the user's text."""

from __future__ import annotations

import io
import keyword
import operator
import re
import tokenize

import pytest

from tablerules.errors import GameError
from tablerules.expr import compile_expression, define_function
from tablerules.expr.env import Env, Func, Var
from tablerules.expr.types import BOOL, INT, SYM, Attr, ListType, ObjType

from expr_vocab import build

# names a user could pick that mean something to Python or to the generated code
THING = ObjType("thing", {
    "__class__": Attr(INT, operator.itemgetter(0)),
    "_r": Attr(SYM, operator.itemgetter(1)),
    "exec": Attr(BOOL, operator.itemgetter(2)),
})
CTX = {"v": 7, "sym": ")", "things": ((1, "a'b", True), (5, "\\", False), (3, ")", True))}


def _env() -> Env:
    env = Env({
        "__import__": Var(INT, operator.itemgetter("v")),  # a variable named like a builtin
        "_v0": Var(SYM, operator.itemgetter("sym")),  # named like a generated identifier
        "__builtins__": Var(ListType(THING), operator.itemgetter("things")),
        "eval": Var(INT, const=2),
    }, {
        "system": Func((INT,), INT, lambda k: k + 1),
        "_f0": Func((SYM,), INT, len, pure=False),  # not folded: the symbol reaches run time
        "open": Func((INT,), INT, lambda k: (_ for _ in ()).throw(GameError(f"no {k}"))),
    }, "a hostile test")
    env.funcs["exec"] = define_function(
        "exec", [("__class__", INT), ("_b0", THING)],
        "__class__ + _b0.__class__ if _b0._r != '__import__(\"os\")' else eval", env)
    env.funcs["print"] = define_function(  # kept once per pass and arguments
        "print", [("__class__", INT)], "count(t in __builtins__ if t.__class__ > __class__)", env)
    return env


# (text, result); a str result "!message" is a GameError. Symbols have no escapes: a quote of
# the other kind and a backslash stand for themselves.
CASES = [
    ("__import__ + eval", 9),
    ("print(__import__ - 6) + print(eval)", 2 + 2),
    ("_v0 == ')'", True),
    (r"""_v0 in ["a'b", '\\', "\\n"]""", False),
    ("count(_e in __builtins__ if _e._r == \")\")", 1),
    ("sum(exec(__import__, _b1) for _b1 in __builtins__ if _b1.exec)", 7 + 1 + 7 + 3),
    ("""[_v0, 'x)', "a'b"][__import__ - 5] if __import__ > 0 else 'y'""", "a'b"),
    ("max(system(a.__class__) for a in __builtins__ if a._r in [')', '#'], default=eval)", 4),
    ("""_f0('__import__("os").system("echo hi")') + _f0('}{')""", 36),
    ("""min(t.__class__ for t in __builtins__ if t._r == "' + open('x') + '")""", "!empty"),
    ("any(t.exec and t._r == '_k0' for t in __builtins__) or\n  open(__import__) > 0", "!no 7"),
]

_GENERATED = re.compile(r"_[vgfkbh]\d+|_e|_r|_x|a|_(sum|min|max|any|all|len|map|ix|fdiv|fmod|"
                        r"raise|keep|GE|oob|reloc|memo_of|q|m|NO|TE)|get")


def _check_source(source: str, user_text: str) -> None:
    """Only generated names and Python keywords, no string literal: nothing from `user_text`."""
    assert source
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME:
            assert keyword.iskeyword(tok.string) or _GENERATED.fullmatch(tok.string), tok
        assert tok.type != tokenize.STRING, tok
    for word in ("__import__", "__builtins__", "__class__", "exec", "eval", "system", "open",
                 "echo", "}{", "'", '"', "\\", "#"):
        assert word not in source or word not in user_text, word


@pytest.mark.parametrize("text,want", CASES)
def test_no_user_text_reaches_the_source(text, want):
    c = compile_expression(text, _env())
    _check_source(c.source, text)
    if isinstance(want, str) and want.startswith("!"):
        with pytest.raises(GameError, match=want[1:]) as info:
            c.fn(CTX)
        if "open(_" in text:  # the span of the call that failed, not of the whole expression
            assert info.value.span.col == text.index("open(_") + 1
    else:
        assert c.fn(CTX) == want


def test_a_user_function_body_is_generated_too():
    f = _env().funcs["exec"]
    assert f.impl(CTX, 1, (4, ")", True)) == 5
    assert f.impl(CTX, 1, (4, '__import__("os")', True)) == 2
    _check_source(f.source, f.doc)
    f = _env().funcs["print"]
    assert f.impl(CTX, 2) == 2
    _check_source(f.source, f.doc)


def test_the_namespace_has_no_builtins():
    c = compile_expression("sum(t.__class__ for t in __builtins__)", _env())
    code = c.fn.__code__
    assert c.fn.__globals__["__builtins__"] == {}
    assert all(name.startswith("_") for name in code.co_names)
    assert c.fn(CTX) == 9


def test_a_bare_name_and_a_constant_generate_nothing():
    env = _env()
    assert compile_expression("_v0", env).source == ""
    assert compile_expression("eval * 3", env).source == ""


class _Ctx:
    def __init__(self, hand):
        self.hand = hand
        self.item = 0
        self.memo = None


def _raising_env() -> Env:
    def pick(k):
        if k < 0:
            raise GameError(f"no piece {k}")  # no span: the call's is given to it
        return k

    def hand(ctx):
        if not ctx.hand:
            raise GameError("no hand")
        return ctx.hand

    env = Env({"hand": Var(ListType(INT), hand), "item": Var(INT, lambda c: c.item)},
              {"pick": Func((INT,), INT, pick)}, "a test")
    env.per_item = frozenset({"item"})
    env.funcs["low"] = define_function("low", [("k", INT)], "pick(k - 1) + count(t in hand)", env)
    return env


@pytest.mark.parametrize("text,ctx,col", [
    # in a part kept for the pass (its own function): the span of its call
    ("item + max(pick(t) for t in hand)", [1, -2], 12),
    # a user function's body: the span inside the body, not of the call
    ("item + sum(low(t) for t in hand)", [1, 0], 1),
    # a variable failing in a call's argument: the span of the innermost call, as the
    # closures gave it
    ("pick(len(hand)) + item", [], 6),
    ("pick(item) + len(hand)", [], 14),
    ("sum(pick(t) for t in hand if t < 5) + max(len(hand), pick(item - 1))", [3], 54),
])
def test_errors_find_their_call(text, ctx, col):
    c = compile_expression(text, _raising_env())
    with pytest.raises(GameError) as info:
        c.fn(_Ctx(ctx))
    assert info.value.span.col == col


def test_a_part_that_reads_a_name_stays_code_when_its_branch_folds():
    """As with the closures: only a part reading nothing is worked out at load time, so a
    failing call whose argument lost its variable to a constant condition fails when run."""
    env, ctx = build({"x": {"type": "int", "value": 5}, "n": {"type": "int", "const": 3}})
    c = compile_expression("fail(x if false else 3)", env)
    with pytest.raises(GameError, match="boom 3"):
        c.fn(ctx)
    c = compile_expression("abs(plus_x(n) if false else -n)", env)
    assert not c.is_const and c.fn(ctx) == 3


@pytest.mark.parametrize("source", ["'x'", "__import__", "a.__class__", "(lambda: 1)()",
                                    "f'{a}'", "b'x'"])
def test_source_that_is_not_the_generators_own_is_never_compiled(source):
    from tablerules.expr.compiler import Unit
    with pytest.raises(RuntimeError, match="generated expression source holds"):
        Unit().function(source)
