"""Wording and location of rendered errors, as a user sees them in a ruleset file."""

from __future__ import annotations

import pytest

from tablerules.errors import ExprError, GameError, Span, render
from tablerules.expr import compile_expression, define_function
from tablerules.expr.types import BOOL, INT

from expr_vocab import TILE, build

ENV, CTX = build({
    "x": {"type": "int", "value": 5},
    "trump": {"type": "enum(doubles, follow-me, sixes)", "value": "doubles"},
    "hand": {"type": "list[tile]", "value": [[6, 6], [5, 3]]},
    "t1": {"type": "tile", "value": [6, 6]},
}, where="the `when` of rule 'lead'")

PREFIX = "    when: "


def rendered(expr: str, *, expected=None, runtime: bool = False) -> str:
    """Compile `expr` as if it sat on line 3 of rules.yaml after `when: `; render the error."""
    source = f"rules:\n  - name: lead\n{PREFIX}{expr}\n"
    span = Span("rules.yaml", 3, len(PREFIX) + 1)
    if runtime:
        with pytest.raises(GameError) as info:
            compile_expression(expr, ENV, locate=span).fn(CTX)
    else:
        with pytest.raises(ExprError) as info:
            compile_expression(expr, ENV, locate=span, expected=expected)
    (diag,) = info.value.diagnostics
    return render(diag, {"rules.yaml": source})


@pytest.mark.parametrize("expr", [
    "trmp == 'doubles'",
    "trump == 'dubles'",
    "t1.hgh > 3",
    "sum(t.high for t in hand if t.double) + t.high",
    "max(t.high for t in hand, dflt=0)",
    "x + 'a'",
    "1 < x < 9",
    "x == 'doubles",
    "x $ 2",
    "abs(x, 1)",
    "count(t for t in hand)",
])
def test_rendered_compile_errors(expr, snapshot):
    assert rendered(expr) == snapshot


def test_rendered_expected_type(snapshot):
    assert rendered("x + 1", expected=BOOL) == snapshot


def test_rendered_runtime_error(snapshot):
    assert rendered("x + max(t.high for t in hand if t.high > 9)", runtime=True) == snapshot


def test_unknown_name_wording_and_place():
    with pytest.raises(ExprError) as info:
        compile_expression("x + trmp", ENV, locate=Span("r.yaml", 7, 13))
    e = info.value
    assert e.message == "unknown name 'trmp' in the `when` of rule 'lead'"
    assert e.suggestion == "trump"
    assert e.span == Span("r.yaml", 7, 17, 21)
    assert e.kind == "expr"
    assert str(e) == ("r.yaml:7:17: error: unknown name 'trmp' in the `when` of rule 'lead' "
                      "(did you mean 'trump'?)")


def test_enum_literal_lists_the_values():
    with pytest.raises(ExprError) as info:
        compile_expression("trump == 'folow-me'", ENV)
    assert info.value.message == "'folow-me' is not one of: doubles, follow-me, sixes"
    assert info.value.suggestion == "follow-me"
    assert info.value.span == Span("<expr>", 1, 10)


def test_locate_callable_gets_offset_and_length():
    calls = []

    def locate(offset, length):
        calls.append((offset, length))
        return Span("multi.yaml", 10 + offset, length)

    with pytest.raises(ExprError) as info:
        compile_expression("t1.high +\n  t1.nope", ENV, locate=locate)
    assert info.value.message == "tile has no attribute 'nope'"
    assert calls[-1] == (15, 4)
    assert info.value.span == Span("multi.yaml", 25, 4)


def test_syntax_error_at_the_bad_token():
    with pytest.raises(ExprError) as info:
        compile_expression("x + * 2", ENV, locate=Span("f", 1, 1))
    assert info.value.message == "unexpected '*'; expected an expression"
    assert info.value.span == Span("f", 1, 5, 6)


def test_syntax_error_after_an_operand_says_what_could_come():
    with pytest.raises(ExprError) as info:
        compile_expression("x if c 1", ENV, locate=Span("f", 1, 1))
    assert info.value.message == "unexpected '1'; expected an operator or 'else'"
    assert info.value.span == Span("f", 1, 8, 9)


def test_end_of_text_error_points_after_the_last_token():
    with pytest.raises(ExprError) as info:
        compile_expression("abs(x   ", ENV)
    assert info.value.message == "unexpected end of expression; expected one of ')', ',', 'for'"
    assert info.value.span.col == 6  # just after `x`


def test_runtime_error_is_located():
    fn = compile_expression("x // (x - 5)", ENV, locate=Span("f", 2, 3)).fn
    with pytest.raises(GameError) as info:
        fn(CTX)
    assert info.value.message == "division by zero"
    assert info.value.span == Span("f", 2, 3, 15)


def test_function_body_errors_name_the_function():
    with pytest.raises(ExprError) as info:
        define_function("bonus", [("t", TILE)], "t.high + y", ENV)
    assert info.value.message == "unknown name 'y' in the body of bonus()"


@pytest.mark.parametrize("params,message", [
    ([("len", INT)], "parameter 'len' of f() is a built-in name"),
    ([("a", INT), ("a", INT)], "f() has two parameters named 'a'"),
    ([("pips", INT)], "parameter 'pips' of f() hides the function 'pips'"),
])
def test_bad_parameters(params, message):
    with pytest.raises(ExprError) as info:
        define_function("f", params, "1", ENV)
    assert info.value.message == message


def test_not_text_is_an_expr_error():
    with pytest.raises(ExprError) as info:
        compile_expression(3, ENV)  # type: ignore[arg-type]
    assert "must be text" in info.value.message
