"""The `pieces:` pass: the set of pieces in play (a domino set or a pack of cards) and the tile
type with its attributes."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..definition import Pieces
from ..definition.actions import FIXED_NAMES
from ..expr.env import Env
from ..expr.types import BOOL, INT, SYM, Attr, ListType, ObjType, Type, enum
from . import vocab

if TYPE_CHECKING:
    from .core import Compiler

DEFAULT_TRUMP_SUIT = "trump"
DEFAULT_NAME = "{face}{mark}"
TEMPLATE_FIELD = re.compile(r"\{([a-z_]*)\}")
TEMPLATE_FIELDS = ("face", "mark", "suit", "rank")


class TileCtx:
    """The context of `pieces.filter` and `pieces.attributes.*.value`: one piece."""

    __slots__ = ("tile",)

    def __init__(self, tile: int):
        self.tile = tile


class _Attrs:
    """Per-piece attribute tables and the tile type that reads them."""

    def __init__(self, cards: bool = False) -> None:
        self.attrs: dict[str, Attr] = {}
        self.tables: dict[str, tuple] = {}
        self.cards = cards

    def add(self, name: str, t: Type, values: list, doc: str) -> None:
        self.tables[name] = tuple(values)
        self.attrs[name] = Attr(t, self.tables[name].__getitem__, doc)

    def built_in(self, ends: list) -> ObjType:
        self.add("high", INT, [h for h, _ in ends], "the higher end")
        self.add("low", INT, [lo for _, lo in ends], "the lower end")
        self.add("pips", INT, [h + lo for h, lo in ends], "the total of both ends")
        self.add("double", BOOL, [h == lo for h, lo in ends], "whether both ends are the same")
        return vocab.tile_type(self.attrs)

    def built_in_cards(self, cards: list) -> ObjType:
        """cards: (suit, face, rank, trump, name) per card."""
        self.add("suit", enum({c[0] for c in cards}), [c[0] for c in cards],
                 "the card's suit (the trump series' own name for its cards)")
        self.add("face", enum({c[1] for c in cards}), [c[1] for c in cards],
                 "the card's rank as written (K, 10, XXI)")
        self.add("rank", INT, [c[2] for c in cards],
                 "its order in its suit or series, 1 for the lowest")
        self.add("trump", BOOL, [c[3] for c in cards], "whether it is in the trump series")
        self.add("name", SYM, [c[4] for c in cards], "its display name")
        return vocab.card_type(self.attrs)


def _env(base: Env, tile: ObjType, key: str, where: str | None = None) -> Env:
    return vocab.place_env(key, base, {"tile": tile}, where=where)


def _filtered(comp: Compiler, base: Env, items: list, build) -> tuple[list, _Attrs, ObjType]:
    """The pieces `pieces.filter` keeps, and their attribute table and type (`build(items)`)."""
    table, tile = build(items)
    if comp.has("pieces", "filter"):
        f = comp.expr(("pieces", "filter"), _env(base, tile, "pieces.filter"), BOOL)
        if f is not None:
            kept = [x for i, x in enumerate(items) if f.fn(TileCtx(i))]
            if len(kept) < len(items):
                items = kept
                table, tile = build(items)
    return items, table, tile


def pieces(comp: Compiler, base: Env) -> tuple[Pieces | None, ObjType | None]:
    """The pieces in play that pass `filter`, with their attributes."""
    if comp.has("pieces", "suits"):
        if comp.has("pieces", "max_pip"):
            comp.error(("pieces", "max_pip"), "pieces gives both max_pip (a domino set) and suits "
                                              "(a pack of cards): keep one", key=True)
            return None, None
        return _cards(comp, base)
    if comp.has("pieces", "trumps") or comp.has("pieces", "name"):
        key = "trumps" if comp.has("pieces", "trumps") else "name"
        comp.error(("pieces", key), f"pieces.{key} is for a pack of cards, which pieces.suits "
                                    "describes", key=True)
        return None, None
    max_pip = comp.get("pieces", "max_pip")
    if max_pip is None:
        comp.error(("pieces",), "pieces needs max_pip (a domino set) or suits (a pack of cards)",
                   key=True)
        return None, None
    if not isinstance(max_pip, int) or isinstance(max_pip, bool) or not 0 < max_pip <= 18:
        comp.error(("pieces", "max_pip"), "pieces.max_pip must be an int from 1 to 18")
        return None, None
    base = base.extended(vars={"max_pip": vocab.const(INT, max_pip, "highest pip")}, where="pieces")
    ends = [(h, lo) for h in range(max_pip + 1) for lo in range(h + 1)]  # 0-0, 1-0, 1-1, ...
    def dominoes(items):
        t = _Attrs()
        return t, t.built_in(items)
    ends, table, tile = _filtered(comp, base, ends, dominoes)
    tile = _attributes(comp, base, table, tile, len(ends))
    names = tuple(f"{h}-{lo}" for h, lo in ends)
    return Pieces(names, tuple(ends), table.tables), tile


def _attributes(comp: Compiler, base: Env, table: _Attrs, tile: ObjType, n: int) -> ObjType:
    """The ruleset's own `pieces.attributes`, one table each."""
    make = vocab.card_type if table.cards else vocab.tile_type
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
        table.add(name, c.type, [c.fn(TileCtx(i)) for i in range(n)],
                  str(spec.get("description", "")))
        tile = make(table.attrs)
    return tile


def _face(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _ranks(comp: Compiler, base: Env, path: tuple) -> list[str] | None:
    """A suit's or series' ranks, lowest first: a list, or an expression over options giving one."""
    raw = comp.get(*path)
    if isinstance(raw, list):
        if not raw:
            comp.error(path, f"{comp.where(path)} lists no ranks")
            return None
        return [_face(v) for v in raw]
    c = comp.expr(path, base.extended(where=comp.where(path)))
    if c is None:
        return None
    if not isinstance(c.type, ListType) or not c.is_const:
        comp.error(path, f"{comp.where(path)} gives the ranks, lowest first: a list, or an "
                         f"expression over options that gives one (got {c.type})")
        return None
    if not c.const:
        comp.error(path, f"{comp.where(path)} gives no ranks")
        return None
    return [_face(v) for v in c.const]


def _template(comp: Compiler, path: tuple, text: Any) -> str | None:
    if not isinstance(text, str):
        return None
    bad = [m.group(1) for m in TEMPLATE_FIELD.finditer(text) if m.group(1) not in TEMPLATE_FIELDS]
    if bad:
        comp.error(path, f"unknown field '{{{bad[0]}}}' in a card name; the fields are "
                         + ", ".join("{" + f + "}" for f in TEMPLATE_FIELDS))
        return None
    return text


def _cards(comp: Compiler, base: Env) -> tuple[Pieces | None, ObjType | None]:
    """A pack: each suit's ranks lowest first, then the trump series, each with its name."""
    suits = comp.get("pieces", "suits")
    if not isinstance(suits, dict) or not suits:
        comp.error(("pieces", "suits"), "pieces.suits names each suit with its ranks")
        return None, None
    default_name = _template(comp, ("pieces", "name"), comp.get("pieces", "name",
                                                                 default=DEFAULT_NAME))
    series: list[tuple[str, tuple, bool]] = [(s, ("pieces", "suits", s), False) for s in suits]
    if comp.has("pieces", "trumps"):
        trump_suit = comp.get("pieces", "trumps", "suit", default=DEFAULT_TRUMP_SUIT)
        if trump_suit in suits:
            comp.error(("pieces", "trumps", "suit"), f"the trump series is named '{trump_suit}', "
                                                     "as a suit already is")
            return None, None
        series.append((str(trump_suit), ("pieces", "trumps"), True))
    cards: list[tuple] = []
    for suit, p, trump in series:
        ranks = _ranks(comp, base, p + ("ranks",))
        template = _template(comp, p + ("name",), comp.get(*p, "name", default=default_name))
        if ranks is None or template is None:
            continue
        mark = str(comp.get(*p, "mark", default=""))
        if len(set(ranks)) < len(ranks):
            dup = next(r for r in ranks if ranks.count(r) > 1)
            comp.error(p + ("ranks",), f"rank '{dup}' is listed twice in {comp.where(p)}")
            continue
        for i, face in enumerate(ranks, 1):
            fields = {"face": face, "mark": mark, "suit": suit, "rank": str(i)}
            name = TEMPLATE_FIELD.sub(lambda m: fields[m.group(1)], template)
            cards.append((suit, face, i, trump, name))
    comp.raise_if_errors()
    def pack(items):
        t = _Attrs(cards=True)
        return t, t.built_in_cards(items)
    cards, table, tile = _filtered(comp, base, cards, pack)
    names = [c[4] for c in cards]
    seen: dict[str, tuple] = {}
    for c in cards:
        if c[4] in seen or not c[4] or c[4] != c[4].strip() or "  " in c[4]:
            why = (f"two cards are named '{c[4]}' ({seen[c[4]][1]} of {seen[c[4]][0]} and "
                   f"{c[1]} of {c[0]})" if c[4] in seen else f"a card name '{c[4]}' is empty or "
                   "has spaces at an end")
            comp.error(("pieces", "suits", c[0]) if c[0] in suits else ("pieces", "trumps"),
                       why + ": each card needs a name of its own (pieces.name, a suit's mark)")
            return None, None
        if c[4] in FIXED_NAMES:
            comp.error(("pieces", "suits"), f"a card is named '{c[4]}', as an action is: give it "
                                            "another name (pieces.name, a suit's mark)")
            return None, None
        seen[c[4]] = c
    tile = _attributes(comp, base, table, tile, len(cards))
    return Pieces(tuple(names), (), table.tables, kind="cards"), tile
