"""The `display:` pass: the marks people see on pieces (play at the terminal, the HTML replay)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..definition import MarkDef
from ..expr.types import BOOL
from .vocab import Scope

if TYPE_CHECKING:
    from .core import Compiler

GREY = "#777777"


def marks(comp: Compiler, scope: Scope) -> tuple[MarkDef, ...]:
    """Every `display.marks` entry, in the ruleset's order (the schema has checked the shape)."""
    out = []
    for name, spec in (comp.get("display", "marks", default={}) or {}).items():
        when = comp.fn(("display", "marks", name, "when"),
                       scope.env("display.marks.*.when", where=f"display.marks.{name}.when"), BOOL)
        if when is None:
            continue
        out.append(MarkDef(name, when, spec["ring"], spec.get("colour", GREY), spec["symbol"],
                           spec.get("description", "")))
    return tuple(out)
