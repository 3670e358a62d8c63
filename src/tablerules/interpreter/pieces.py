"""The `pieces:` pass: the set of pieces in play and the tile type with its attributes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..definition import Pieces
from ..expr.env import Env
from ..expr.types import BOOL, INT, SYM, Attr, ObjType, Type
from . import vocab

if TYPE_CHECKING:
    from .core import Compiler


class TileCtx:
    """The context of `pieces.filter` and `pieces.attributes.*.value`: one piece."""

    __slots__ = ("tile",)

    def __init__(self, tile: int):
        self.tile = tile


class _Attrs:
    """Per-piece attribute tables and the tile type that reads them."""

    def __init__(self) -> None:
        self.attrs: dict[str, Attr] = {}
        self.tables: dict[str, tuple] = {}

    def add(self, name: str, t: Type, values: list, doc: str) -> None:
        self.tables[name] = tuple(values)
        self.attrs[name] = Attr(t, self.tables[name].__getitem__, doc)

    def built_in(self, ends: list) -> ObjType:
        self.add("high", INT, [h for h, _ in ends], "the higher end")
        self.add("low", INT, [lo for _, lo in ends], "the lower end")
        self.add("pips", INT, [h + lo for h, lo in ends], "the total of both ends")
        self.add("double", BOOL, [h == lo for h, lo in ends], "whether both ends are the same")
        return vocab.tile_type(self.attrs)


def _env(base: Env, tile: ObjType, key: str, where: str | None = None) -> Env:
    return vocab.place_env(key, base, {"tile": tile}, where=where)


def pieces(comp: Compiler, base: Env) -> tuple[Pieces | None, ObjType | None]:
    """The pieces of a double-`max_pip` set that pass `filter`, with their attributes."""
    max_pip = comp.get("pieces", "max_pip")
    if not isinstance(max_pip, int) or isinstance(max_pip, bool) or not 0 < max_pip <= 18:
        comp.error(("pieces", "max_pip"), "pieces.max_pip must be an int from 1 to 18")
        return None, None
    base = base.extended(vars={"max_pip": vocab.const(INT, max_pip, "highest pip")}, where="pieces")
    ends = [(h, lo) for h in range(max_pip + 1) for lo in range(h + 1)]  # 0-0, 1-0, 1-1, ...
    table = _Attrs()
    tile = table.built_in(ends)
    if comp.has("pieces", "filter"):
        f = comp.expr(("pieces", "filter"), _env(base, tile, "pieces.filter"), BOOL)
        if f is not None:
            kept = [e for i, e in enumerate(ends) if f.fn(TileCtx(i))]
            if len(kept) < len(ends):
                ends = kept
                tile = table.built_in(ends)
    for name, spec in (comp.get("pieces", "attributes", default={}) or {}).items():
        p = ("pieces", "attributes", name)
        if name in table.attrs:
            comp.error(p, f"attribute '{name}' is built in", key=True)
            continue
        if not isinstance(spec, dict):
            continue
        c = comp.expr(p + ("value",), _env(base, tile, "pieces.attributes.*.value",
                                           f"pieces.attributes.{name}"))
        if c is None:
            continue
        if c.type not in (INT, BOOL) and not isinstance(c.type, type(SYM)):
            comp.error(p + ("value",), f"a piece attribute is an int, bool or symbol, got {c.type}")
            continue
        table.add(name, c.type, [c.fn(TileCtx(i)) for i in range(len(ends))],
                  str(spec.get("description", "")))
        tile = vocab.tile_type(table.attrs)
    names = tuple(f"{h}-{lo}" for h, lo in ends)
    return Pieces(names, tuple(ends), table.tables), tile
