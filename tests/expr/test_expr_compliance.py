"""Runs the data-driven cases of compliance.yaml against compile_expression."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tablerules.errors import ExprError, GameError, Span
from tablerules.expr import compile_expression

from expr_vocab import build, parse_type, to_runtime

DATA = yaml.safe_load((Path(__file__).parent / "compliance.yaml").read_text(encoding="utf-8"))


def _cases():
    for g, group in enumerate(DATA["groups"]):
        given = {**DATA["given"], **(group.get("given") or {})}
        for i, case in enumerate(group["cases"]):
            yield pytest.param(given, case, id=f"{group['name']}-{i}: {case['expression']}")


def _check_error(err, case):
    assert case["error"] in err.message, err.message
    if "col" in case:
        assert err.span.col == case["col"], f"col {err.span.col}: {err}"
    if "suggestion" in case:
        assert err.suggestion == case["suggestion"]


@pytest.mark.parametrize("given,case", list(_cases()))
def test_case(given, case):
    env, ctx = build(given)
    expected = parse_type(case["expected"]) if "expected" in case else None
    # columns are 1-based and line 1 when locate is None; the caret lands on the bad part
    if "error" in case:
        with pytest.raises(ExprError) as info:
            compile_expression(case["expression"], env, expected=expected)
        _check_error(info.value, case)
        return
    c = compile_expression(case["expression"], env, expected=expected)
    if "type" in case:
        assert str(c.type) == case["type"]
    if "const" in case:
        assert c.is_const is case["const"]
    if "uses" in case:
        assert c.uses == frozenset(case["uses"])
    if "runtime_error" in case:
        with pytest.raises(GameError) as info:
            c.fn(ctx)
        assert case["runtime_error"] in info.value.message
        if "col" in case:
            assert info.value.span.col == case["col"]
        return
    want = to_runtime(case["result"], c.type)
    got = c.fn(ctx)
    assert got == want and type(got) is type(want)
    if c.is_const:
        assert c.const == want


def test_suite_is_big_enough():
    assert sum(len(g["cases"]) for g in DATA["groups"]) >= 80


def test_located_with_a_span():
    env, _ = build(DATA["given"])
    with pytest.raises(ExprError) as info:
        compile_expression("x + trmp", env, locate=Span("rules.yaml", 4, 11))
    assert info.value.span == Span("rules.yaml", 4, 15, 19)
