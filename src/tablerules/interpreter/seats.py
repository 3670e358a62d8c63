"""The `seats:` pass: how many seats, their names, and the sides they play in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..expr.env import Env
from ..expr.types import INT, ListType
from . import vocab

if TYPE_CHECKING:
    from .core import Compiler


def seats(comp: Compiler, base: Env) -> tuple[int, tuple[str, ...], tuple] | None:
    """(count, names, sides), or None after an error."""
    count = comp.const_int(("seats", "count"), base, 0, "the number of seats")
    if not 1 < count <= 8:
        comp.error(("seats", "count"), f"seats.count must be from 2 to 8, got {count}")
        return None
    env = base.extended(vars={"seat_count": vocab.const(INT, count, "number of seats")})
    sides_raw = comp.tree.get(("seats", "sides"))
    if isinstance(sides_raw, str):
        c = comp.expr(("seats", "sides"), env.extended(where="seats.sides"),
                      ListType(ListType(INT)))
        sides_raw = [list(x) for x in comp.const_value(c)] if c is not None else None
        if sides_raw is None:
            return None
    elif sides_raw is None:
        sides_raw = [[s] for s in range(count)]
    sides = _sides(comp, sides_raw, count)
    names = comp.get("seats", "names", default=[f"Seat {i}" for i in range(count)])
    if not isinstance(names, list) or len(names) < count:
        comp.error(("seats", "names"), f"seats.names lists a name for each of the {count} seats")
        names = [f"Seat {i}" for i in range(count)]
    return (count, tuple(str(n) for n in names[:count]), sides) if sides is not None else None


def order(comp: Compiler) -> int:
    """The step from a seat to the next in playing order: 1 clockwise (the default), -1 counter."""
    return -1 if comp.get("seats", "order", default="clockwise") == "counterclockwise" else 1


def _sides(comp: Compiler, sides_raw, count: int) -> tuple | None:
    """The sides as tuples of seats, each seat in exactly one; None after an error."""
    seen: list[int] = []
    sides = []
    ok = True
    for i, side in enumerate(sides_raw if isinstance(sides_raw, list) else []):
        if not isinstance(side, list):
            ok = False
            continue
        for j, s in enumerate(side):
            if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < count:
                comp.error(("seats", "sides", i, j), f"seat {s!r} is not a seat 0..{count - 1}")
                ok = False
            elif s in seen:
                comp.error(("seats", "sides", i, j), f"seat {s} is in two sides")
                ok = False
            else:
                seen.append(s)
        sides.append(tuple(x for x in side if isinstance(x, int)))
    if ok and sorted(seen) != list(range(count)):
        missing = sorted(set(range(count)) - set(seen))
        comp.error(("seats", "sides"), f"seats {missing} belong to no side")
        ok = False
    return tuple(sides) if ok else None
