"""Random text never makes compile_expression raise anything but ExprError."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablerules.errors import ExprError, GameError, Span
from tablerules.expr import compile_expression, parse

from expr_vocab import build
from support import examples

ENV, CTX = build({
    "x": {"type": "int", "value": 5},
    "c": {"type": "bool", "value": True},
    "n": {"type": "int", "const": 3},
    "trump": {"type": "enum(doubles, sixes)", "value": "doubles"},
    "t1": {"type": "tile", "value": [6, 6]},
    "hand": {"type": "list[tile]", "value": [[6, 6], [5, 3], [2, 2]]},
    "nums": {"type": "list[int]", "value": [4, 1, 3]},
})

TOKENS = ["x", "c", "n", "trump", "t1", "hand", "nums", "t", "u", ".high", ".low", ".double",
          ".count", ".nope", "abs", "min", "max", "len", "range", "sum", "any", "all", "count",
          "pips", "twice", "roll", "plus_x", "first", "fail", "rank", "0", "1", "7", "-",
          "99999999", "true", "false", "'doubles'", "'sevens'", "\"x\"", "'", "[", "]", "(",
          ")", ",", "default", "=", "+", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=",
          "in", "not", "and", "or", "if", "else", "for", "$", "\n", ""]

token_text = st.lists(st.sampled_from(TOKENS), max_size=25).map(" ".join)


def _attempt(text: str, locate=None) -> None:
    try:
        compiled = compile_expression(text, ENV, locate=locate)
    except ExprError as e:
        assert e.span.line >= 1 and e.message
        return
    try:
        compiled.fn(CTX)
    except GameError:
        pass


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=60))
def test_arbitrary_text(text):
    _attempt(text)


@settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(token_text)
def test_token_soup(text):
    _attempt(text, locate=Span("f.yaml", 3, 9))


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet="()[]-not ", max_size=400))
def test_deep_nesting(text):
    try:
        parse(text)
    except ExprError:
        pass


def test_very_deep_nesting_is_an_expr_error():
    for text in ["-" * 5000 + "1", "not " * 3000 + "c", "(" * 5000 + "1" + ")" * 5000,
                 "[" * 3000 + "]" * 3000, "1" + " + 1" * 3000]:
        try:
            compile_expression(text, ENV)
        except ExprError:
            pass
