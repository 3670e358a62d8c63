"""The public API: Compiled, parse, define_function, BUILTINS, and the grammar's conventions."""

from __future__ import annotations

import operator
import threading
from pathlib import Path

import pytest

from tablerules.errors import ExprError, Span
from tablerules.expr import (AGGREGATES, BUILTINS, KEYWORDS, NOT_CONST, Compiled,
                             compile_expression, define_function, parse, signature)
from tablerules.expr import nodes as n
from tablerules.expr.env import Env, Func, Var
from tablerules.expr.parser import get_parser
from tablerules.expr.types import BOOL, INT, ListType

from expr_vocab import TILE, build

ENV, CTX = build({
    "x": {"type": "int", "value": 5},
    "n": {"type": "int", "const": 3},
    "hand": {"type": "list[tile]", "value": [[6, 6], [5, 3], [2, 2], [1, 0]]},
})
ROOT = Path(__file__).resolve().parents[2]


def test_compiled_fields():
    c = compile_expression("sum(t.high for t in hand) + x", ENV)
    assert isinstance(c, Compiled)
    assert c.type == INT
    assert c.uses == frozenset({"hand", "x"})
    assert c.text == "sum(t.high for t in hand) + x"
    assert not c.is_const and c.const is NOT_CONST
    assert c.fn(CTX) == 19


def test_constant_expression_is_folded():
    c = compile_expression("n * 2 + len(range(0, n))", ENV)
    assert c.is_const and c.const == 9
    assert c.fn(None) == 9
    assert c.uses == frozenset({"n"})


def test_builtins_are_not_uses():
    assert compile_expression("abs(x) + max(x, 1)", ENV).uses == frozenset({"x"})


def test_parse_positions():
    node = parse("a + bb.c")
    assert isinstance(node, n.Binary) and (node.offset, node.length) == (0, 8)
    assert (node.right.offset, node.right.length) == (4, 4)
    assert node.right.name == "c" and node.right.name_offset == 7
    assert parse("  (x)  ") == n.Name(name="x", offset=3, length=1)


def test_parse_error_is_located():
    with pytest.raises(ExprError) as info:
        parse("a +", locate=Span("f.yaml", 2, 5))
    assert info.value.span == Span("f.yaml", 2, 8, 9)


def test_parser_is_cached():
    assert get_parser() is get_parser()


def test_grammar_names_every_alternative():
    for rule in get_parser().rules:
        name = rule.origin.name
        if name.startswith("_") or name in ("start", "arguments", "keyword"):
            continue
        passthrough = rule.options.expand1 and len(rule.expansion) == 1 \
            and not rule.expansion[0].is_term
        parenthesized = [s.name for s in rule.expansion] == ["LPAR", "expr", "RPAR"]
        assert rule.alias or passthrough or parenthesized, rule


def test_builtins_are_data_with_docs():
    assert set(BUILTINS) == {"abs", "min", "max", "len", "range", "sum"}
    assert set(AGGREGATES) == {"sum", "min", "max", "any", "all", "count"}
    for name, func in BUILTINS.items():
        assert isinstance(func, Func) and func.doc and func.pure
        c = compile_expression(func.example, ENV)
        assert c.is_const and c.const is True, func.example
    for spec in AGGREGATES.values():
        c = compile_expression(spec.example, Env())
        assert c.is_const and c.const is True, spec.example


def test_docs_list_every_builtin():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    for name, func in BUILTINS.items():
        assert f"`{signature(name, func)}`" in text
    for spec in AGGREGATES.values():
        assert f"`{spec.signature}`" in text
    assert "## Vocabulary by place" in text


@pytest.mark.parametrize("name", ["abs", "len", "any", "count", "true"])
def test_vocabulary_cannot_shadow_builtins(name):
    env = ENV.extended(funcs={name: Func((), INT, lambda: 1)})
    with pytest.raises(ExprError) as info:
        compile_expression("x", env)
    assert f"'{name}' is a" in info.value.message
    assert name in KEYWORDS or name in BUILTINS or name in AGGREGATES


def test_user_function_pure():
    f = define_function("double_count", [("t", TILE), ("k", INT)], "(t.high + t.low) * k", ENV)
    assert f.pure and f.needs_ctx and list(f.params) == [TILE, INT] and f.ret == INT
    env = ENV.extended(funcs={"double_count": f})
    c = compile_expression("sum(double_count(t, 2) for t in hand)", env)
    assert c.fn(CTX) == 50
    assert "double_count" in c.uses
    assert compile_expression("double_count(first(hand), n)", env).fn(CTX) == 36


def test_user_function_with_constant_arguments_is_folded():
    env = ENV.extended(funcs={"sq": define_function("sq", [("k", INT)], "k * k", ENV)})
    c = compile_expression("sq(n) + 1", env)
    assert c.is_const and c.const == 10


def test_user_function_reading_state_is_impure():
    f = define_function("above", [("k", INT)], "count(t in hand if t.high > k) + x", ENV)
    assert not f.pure
    env = ENV.extended(funcs={"above": f})
    c = compile_expression("above(1) + above(5)", env)
    assert not c.is_const and c.fn(CTX) == 3 + 5 + 1 + 5


def test_user_function_with_nested_aggregates():
    f = define_function("beats", [("a", TILE)],
                        "count(u in hand if u.high < a.high and any(v.low == u.low for v in hand))",
                        ENV)
    env = ENV.extended(funcs={"beats": f})
    assert compile_expression("sum(beats(t) for t in hand)", env).fn(CTX) == 6


def test_user_function_without_parameters():
    f = define_function("hand_size", [], "len(hand)", ENV)
    env = ENV.extended(funcs={"hand_size": f})
    assert compile_expression("hand_size() * 2", env).fn(CTX) == 8


def test_expected_type():
    assert compile_expression("x > 1", ENV, expected=BOOL).type == BOOL
    assert compile_expression("[]", ENV, expected=ListType(TILE)).fn(CTX) == ()


def test_declared_only_variable_checks_but_cannot_run():
    env = Env({"y": Var(INT)})
    c = compile_expression("y + 1", env)
    assert c.type == INT
    with pytest.raises(RuntimeError):
        c.fn({})


def test_evaluation_is_reentrant():
    """A context function that evaluates the same compiled aggregate recursively."""
    compiled = {}

    def rec(ctx, k):
        if ctx["depth"] == 0:
            return k
        return compiled["c"].fn({**ctx, "depth": ctx["depth"] - 1})

    env = Env({"hand": Var(ListType(TILE), operator.itemgetter("hand")),
               "depth": Var(INT, operator.itemgetter("depth"))},
              {"rec": Func((INT,), INT, rec, needs_ctx=True, pure=False)})
    compiled["c"] = compile_expression(
        "sum(t.high + rec(t.low) + count(u in hand if u.high > t.high) for t in hand)", env)

    def ref(depth, k=None):
        if depth < 0:
            return k
        return sum(t[0] + (t[1] if depth == 0 else ref(depth - 1))
                   + sum(1 for u in CTX["hand"] if u[0] > t[0]) for t in CTX["hand"])

    assert compiled["c"].fn({"hand": CTX["hand"], "depth": 2}) == ref(2)


def test_evaluation_is_thread_safe():
    c = compile_expression("sum(sum(u.low for u in hand if u.high < t.high) for t in hand)", ENV)
    results = []

    def work():
        results.append({c.fn(CTX) for _ in range(2000)})

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == {7} for r in results)
