"""Generated expression code is compiled once per source (expr/compiler.py `_code`) and shared
by every compile that makes the same source; each keeps its own namespace and error places."""

from __future__ import annotations

import pytest

from tablerules.errors import GameError, Span
from tablerules.expr import compile_expression

from expr_vocab import build


def test_shared_expression_code_keeps_each_compile_its_own_error_place():
    """Two compiles of the same text make the same generated source (one code object); a
    run-time error still names the place of the compile it came from."""
    env, ctx = build({"x": {"type": "int", "value": 5}})
    first = compile_expression("x // (x - 5)", env, locate=Span("a.yaml", 2, 3)).fn
    second = compile_expression("x // (x - 5)", env, locate=Span("b.yaml", 9, 7)).fn
    assert first.__code__ is second.__code__
    for fn, where in ((first, Span("a.yaml", 2, 3, 15)), (second, Span("b.yaml", 9, 7, 19))):
        with pytest.raises(GameError) as info:
            fn(ctx)
        assert info.value.message == "division by zero" and info.value.span == where
