"""Hoisting: in a pass that changes only the per-item names (Env.per_item), a costly part that
reads none of them is computed once per pass, kept in the context's `memo`."""

from __future__ import annotations

import pytest

from tablerules.errors import GameError
from tablerules.expr import compile_expression, define_function
from tablerules.expr.env import Env, Var
from tablerules.expr.types import BOOL, INT, ListType


class Ctx:
    def __init__(self, hand):
        self.hand_ = hand
        self.item = 0
        self.memo = None
        self.reads = 0  # how many times `hand` was read

    @property
    def hand(self):
        self.reads += 1
        return self.hand_


def env(per_item=("item",)) -> Env:
    e = Env({"hand": Var(ListType(INT), lambda c: c.hand),
             "item": Var(INT, lambda c: c.item)}, {}, "a test")
    e.per_item = frozenset(per_item)
    return e


def one_pass(fn, ctx, items, memo=True):
    ctx.memo = {} if memo else None
    try:
        out = []
        for i in items:
            ctx.item = i
            out.append(fn(ctx))
        return out
    finally:
        ctx.memo = None


SEVENS = "abs(item - 7) == min(abs(t - 7) for t in hand)"


def test_invariant_aggregate_runs_once_per_pass():
    f = compile_expression(SEVENS, env(), expected=BOOL).fn
    ctx = Ctx([3, 6, 9, 12])
    assert one_pass(f, ctx, [3, 6, 9, 12]) == [False, True, False, False]
    assert ctx.reads == 1
    ctx.reads = 0
    assert one_pass(f, ctx, [3, 6, 9, 12], memo=False) == [False, True, False, False]
    assert ctx.reads == 4  # no pass, nothing kept


def test_a_new_pass_sees_a_changed_context():
    f = compile_expression(SEVENS, env(), expected=BOOL).fn
    ctx = Ctx([3, 6])
    assert one_pass(f, ctx, [3, 6]) == [False, True]
    ctx.hand_ = [3, 10]
    assert one_pass(f, ctx, [3, 10]) == [False, True]  # closest is 3 away now, not 1


def test_parts_reading_the_item_are_not_kept():
    f = compile_expression("sum(t for t in hand if t > item)", env(), expected=INT).fn
    ctx = Ctx([1, 2, 3, 4])
    assert one_pass(f, ctx, [0, 2, 4]) == [10, 7, 0]
    assert ctx.reads == 3


def test_without_per_item_names_nothing_is_kept():
    f = compile_expression(SEVENS, env(per_item=()), expected=BOOL).fn
    ctx = Ctx([3, 6])
    assert one_pass(f, ctx, [3, 6]) == [False, True]
    assert ctx.reads == 2


def test_a_function_reading_the_item_is_called_for_each():
    e = env()
    e.funcs["gap"] = define_function("gap", [("x", INT)], "abs(x - item)", e)
    e.funcs["low"] = define_function("low", [], "min(t for t in hand)", e)
    assert e.funcs["gap"].reads_item and not e.funcs["low"].reads_item
    f = compile_expression("gap(low())", e, expected=INT).fn
    ctx = Ctx([4, 9])
    assert one_pass(f, ctx, [0, 4, 9]) == [4, 0, 5]
    assert ctx.reads == 1  # low() once for the pass, gap() for each item


def test_a_kept_part_fails_only_where_reached():
    f = compile_expression("item == 0 or min(t for t in hand) > 0", env(), expected=BOOL).fn
    ctx = Ctx([])
    assert one_pass(f, ctx, [0, 0]) == [True, True]
    with pytest.raises(GameError, match="empty"):
        one_pass(f, ctx, [0, 1])


def test_a_function_call_is_worked_out_once_per_pass_and_arguments():
    e = env()
    e.funcs["above"] = define_function("above", [("x", INT)], "count(t in hand if t > x)", e)
    f = compile_expression("above(3) + above(3) + above(item)", e, expected=INT).fn
    ctx = Ctx([1, 4, 6])
    assert one_pass(f, ctx, [0, 3, 5]) == [7, 6, 5]
    assert ctx.reads == 3  # above(3) once, above(0) and above(5) once each
    ctx.reads = 0
    assert one_pass(f, ctx, [0], memo=False) == [7]
    assert ctx.reads == 3  # outside a pass every call reads again


def test_each_pass_of_the_engine_names_what_changes_in_it():
    """The rules an engine asks many times over in one pass, and the name that changes between
    the asks: what reads none of them is kept for the pass (a declaration's `allow` over its
    choices, as `legal` over the pieces)."""
    from tablerules.definition.places import PLACES

    passes = {k: p.per_item for p in PLACES for k in p.keys if p.per_item}
    assert passes == {"exchange.legal": ("tile",), "declare.*.allow": ("choice",),
                      "play.legal": ("tile",), "display.marks.*.when": ("tile",)}
