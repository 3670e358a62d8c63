"""The `bounds:` pass: the points at stake in a hand, and the deal and step limits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..definition import Bounds
from ..expr.env import Env
from ..expr.types import INT

if TYPE_CHECKING:
    from .core import Compiler


def bounds(comp: Compiler, base: Env) -> Bounds:
    hand_points = None
    if comp.has("bounds", "hand_points"):
        c = comp.expr(("bounds", "hand_points"), base, INT)
        if c is not None and not c.uses - set(base.vars) - set(base.funcs):
            hand_points = comp.const_value(c)
    return Bounds(hand_points, comp.get("bounds", "max_hands", default=1000),
                  comp.get("bounds", "max_steps", default=10_000))
