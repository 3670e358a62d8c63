"""The `display:` pass: the marks people see on pieces (play at the terminal, the HTML replay),
the names of the suits and of the declarations, and the reasons a `legal` rule gives (why a
move is refused)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..definition import MarkDef
from ..errors import did_you_mean
from ..expr.types import BOOL, INT
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


def end_count(comp: Compiler, scope: Scope):
    """`display.end_count`: what one open end of a layout counts, as people are shown it (an
    int over `end`), or None when the ruleset says nothing (the end's pips are shown)."""
    if not comp.has("display", "end_count"):
        return None
    return comp.fn(("display", "end_count"),
                   scope.env("display.end_count", where="display.end_count"), INT)


def suit_names(comp: Compiler) -> dict[str, str]:
    """`display.suits`: a suit value as the ruleset writes it -> its name for people."""
    return {str(k): str(v) for k, v in (comp.get("display", "suits", default={}) or {}).items()}


def declaration_names(comp: Compiler) -> dict[str, str]:
    """`display.declarations`: a declaration's name -> its name for people (one asked of several
    seats in turn, each seat's its own declaration, said by one name); a declaration the ruleset
    does not have is an error at its key."""
    written = comp.get("declarations", default={}) or {}
    out = {}
    for name, said in (comp.get("display", "declarations", default={}) or {}).items():
        if name not in written:
            comp.error(("display", "declarations", name), f"display.declarations names "
                       f"declaration {name!r}, which this ruleset does not have (declarations: "
                       f"{', '.join(map(str, written)) or 'none'})", key=True,
                       suggestion=did_you_mean(str(name), [str(w) for w in written]))
            continue
        out[str(name)] = str(said)
    return out


def reasons(comp: Compiler) -> dict[tuple[str, str], str]:
    """`display.reasons`: (contract, part) -> the words that explain its `legal` rule; a
    contract the ruleset does not have is an error at its key."""
    written = comp.get("contracts", default={}) or {}
    out = {}
    for name, parts in (comp.get("display", "reasons", default={}) or {}).items():
        if name not in written:
            comp.error(("display", "reasons", name), f"display.reasons names contract {name!r}, "
                       f"which this ruleset does not have (contracts: {', '.join(written)})",
                       key=True)
            continue
        for part, text in (parts or {}).items():
            out[(name, part)] = str(text)
    return out
