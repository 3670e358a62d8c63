"""The names expressions may use at each place of a ruleset, built from `definition.places`.

Every dynamic name reads the context field that places.py gives it; the engine's context and
the compiler's table-building contexts provide those fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter, itemgetter
from typing import Any

from ..definition import places
from ..errors import ExprError, GameError, did_you_mean
from ..expr import define_function
from ..expr.env import Env, Func, Var
from ..expr.types import BOOL, INT, SCALAR, Attr, ListType, ObjType, Type


def const(type_: Type, value: Any, doc: str) -> Var:
    return Var(type_, const=value, doc=doc)


DOMINO_ONLY = "it is for dominoes, and this ruleset's pieces are a pack of cards"


def card_funcs(pieces, card: ObjType) -> dict[str, Func]:
    """Functions over cards that every place may use; the domino ones say they do not apply."""
    by_face = {(s, f): i for i, (s, f) in enumerate(zip(pieces.attrs["suit"],
                                                         pieces.attrs["face"]))}

    def card_of(suit: Any, face: Any) -> int:
        t = by_face.get((str(suit), str(face)))
        if t is None:
            raise GameError(f"there is no card {face} of {suit} in this pack"
                            + _card_hint(str(suit), str(face)))
        return t

    def _card_hint(suit: str, face: str) -> str:
        """The face or suit meant, when a misspelt one is close to one of the pack's."""
        faces = [f for s, f in by_face if s == suit]
        if faces:
            near = did_you_mean(face, faces) or next(
                (f for f in faces if f.lower() == face.lower()), None)
            return f" (did you mean '{near}'?)" if near else ""
        near = did_you_mean(suit, [s for s, _ in by_face])
        return f": no suit '{suit}'" + (f" (did you mean '{near}'?)" if near else "")

    return {
        "card": Func([SCALAR, SCALAR], card, card_of, doc="the card of a suit (or the trump "
                     "series) with a face", example="card('hearts', 'K')"),
        **{name: Func(params, ret, None, unavailable=DOMINO_ONLY)
           for name, params, ret in (("piece", [INT, INT], card), ("has", [card, SCALAR], BOOL),
                                     ("other", [card, SCALAR], INT))},
    }


def piece_funcs(pieces, tile: ObjType) -> dict[str, Func]:
    """Functions over pieces that every place may use."""
    if pieces.kind == "cards":
        return card_funcs(pieces, tile)
    ends = pieces.ends
    by_ends = pieces.by_ends

    def has(t: int, x: Any) -> bool:
        return type(x) is int and x in ends[t]

    def other(t: int, x: Any) -> int:
        h, lo = ends[t]
        if type(x) is not int:
            return -1
        if h == x:
            return lo
        if lo == x:
            return h
        return -1

    def piece(a: int, b: int) -> int:
        t = by_ends.get((a, b) if a >= b else (b, a))
        if t is None:
            raise GameError(f"there is no piece {max(a, b)}-{min(a, b)} in this set")
        return t

    return {
        "piece": Func([INT, INT], tile, piece, doc="the piece with ends a and b",
                      example="piece(6, 6)"),
        "has": Func([tile, SCALAR], BOOL, has, doc="whether a piece shows the number x on an end",
                    example="has(tile, 5)"),
        "other": Func([tile, SCALAR], INT, other,
                      doc="the end opposite the number x, or -1 if the piece lacks x",
                      example="other(tile, 4)"),
    }


def seat_funcs(seat_count: int, sides: tuple[tuple[int, ...], ...], step: int = 1) -> dict[str, Func]:
    """Functions over seats and sides (seats are ints counted to the left from 0; play goes
    `step` seats at a time: 1 clockwise, -1 counter-clockwise)."""
    side_of = {s: i for i, side in enumerate(sides) for s in side}

    def check(seat: int) -> int:
        if not 0 <= seat < seat_count:
            raise GameError(f"there is no seat {seat} (seats are 0..{seat_count - 1})")
        return seat

    def nxt(seat: int) -> int:
        return (check(seat) + step) % seat_count

    def prev(seat: int) -> int:
        return (check(seat) - step) % seat_count

    def partner(seat: int) -> int:
        mates = sides[side_of[check(seat)]]
        return mates[(mates.index(seat) + len(mates) // 2) % len(mates)]

    return {
        "next": Func([INT], INT, nxt, doc="the seat after in playing order (to the left; to the "
                                          "right with seats.order: counterclockwise)",
                     example="next(dealer)"),
        "prev": Func([INT], INT, prev, doc="the seat before in playing order (to the right; to "
                                           "the left with seats.order: counterclockwise)",
                     example="prev(dealer)"),
        "left_of": Func([INT], INT, lambda s: (check(s) + 1) % seat_count,
                        doc="the left-hand neighbour (seat + 1), whichever way play goes",
                        example="left_of(dealer)"),
        "right_of": Func([INT], INT, lambda s: (check(s) - 1) % seat_count,
                         doc="the right-hand neighbour (seat - 1), whichever way play goes",
                         example="right_of(dealer)"),
        "partner": Func([INT], INT, partner, doc="the seat across in the same side (itself alone)",
                        example="partner(bidder)"),
        "side_of": Func([INT], INT, lambda s: side_of[check(s)], doc="the side a seat belongs to",
                        example="side_of(bidder)"),
    }


def _side(values: list, side: int):
    """values[side], or a game error for a side that does not exist (never a negative index)."""
    if 0 <= side < len(values):
        return values[side]
    raise GameError(f"there is no side {side} (sides are 0..{len(values) - 1})")


def _reader(field: str):
    """A `totals` function reading one per-side list of the context (one call, checked)."""
    get = attrgetter(field)

    def read(c, side: int):
        values = get(c)
        if 0 <= side < len(values):
            return values[side]
        raise GameError(f"there is no side {side} (sides are 0..{len(values) - 1})")
    return read


def _pips_left(c, side: int) -> int:
    _side(c.points, side)
    return c.pips_left(side)


def _chips(c, seat: int) -> int:
    chips = c.chips
    if 0 <= seat < len(chips):
        return chips[seat]
    raise GameError(f"there is no seat {seat} (seats are 0..{len(chips) - 1})")


def state_funcs(cards: bool = False) -> dict[str, Func]:
    """The `totals` group: functions that read running totals of the hand and match."""
    funcs = _state_funcs()
    if cards:  # pips are a domino's: a located error, not a missing table at play
        funcs["pips_left"] = Func([INT], INT, None, unavailable=DOMINO_ONLY)
    return funcs


def _state_funcs() -> dict[str, Func]:
    return {
        "points": Func([INT], INT, _reader("points"), needs_ctx=True,
                       pure=False, doc="points a side has taken this hand",
                       example="points(bidder_side)"),
        "tricks": Func([INT], INT, _reader("tricks"), needs_ctx=True,
                       pure=False, doc="tricks a side has taken this hand",
                       example="tricks(bidder_side)"),
        "pips_left": Func([INT], INT, _pips_left, needs_ctx=True,
                          pure=False, doc="pips on the pieces a side still holds",
                          example="pips_left(side)"),
        "score": Func([INT], INT, _reader("score"), needs_ctx=True, pure=False,
                      doc="a side's match score before this hand is added",
                      example="score(side) >= marks_to_win"),
        "chips": Func([INT], INT, _chips, needs_ctx=True, pure=False,
                      doc="a seat's chips before this hand's payments (0 without scoring.chips)",
                      example="chips(seat) < 0"),
    }


def holder_func(tile: ObjType) -> Func:
    return Func([tile], INT, lambda c, t: c.holder(t), needs_ctx=True, pure=False,
                doc="the seat holding a piece, or -1", example="holder(piece(6, 6))")


def dealt_to_func(tile: ObjType) -> Func:
    def dealt_to(c, seat: int):
        hands = c.dealt_hands
        if 0 <= seat < len(hands):
            return hands[seat]
        raise GameError(f"there is no seat {seat} (seats are 0..{len(hands) - 1})")
    return Func([INT], ListType(tile), dealt_to, needs_ctx=True, pure=False,
                doc="the pieces dealt to a seat this hand (before any exchange)",
                example="count(t in dealt_to(payee) if t.double)")


# the engine's per-piece records and the functions that read them (GameDef.keeps)
KEEPS = {"played_by": "plays", "taken_by": "taken", "trick_of": "taken", "laid_away": "laid"}


def keeps(uses) -> frozenset:
    """The per-piece records the engine must keep for a ruleset that reads the names `uses`."""
    return frozenset(KEEPS[n] for n in uses if n in KEEPS)


def played_by_func(tile: ObjType) -> Func:
    return Func([tile], INT, lambda c, t: c.played_by(t), needs_ctx=True, pure=False,
                doc="the seat that played a piece this hand, or -1",
                example="played_by(card('hearts', 'K'))")


def taken_by_func(tile: ObjType) -> Func:
    return Func([tile], INT, lambda c, t: c.taken_by(t), needs_ctx=True, pure=False,
                doc="the seat that took the trick a piece was played to this hand, or -1",
                example="taken_by(card('hearts', 'K')) == played_by(card('hearts', 'K'))")


def trick_of_func(tile: ObjType) -> Func:
    return Func([tile], INT, lambda c, t: c.trick_of(t), needs_ctx=True, pure=False,
                doc="the number of the trick a piece was played to this hand (1 first), or 0",
                example="trick_of(card('hearts', 'A')) == hand_size")


def stock_left_func(tile: ObjType) -> Func:
    return Func([], ListType(tile), lambda c: c.stock, needs_ctx=True, pure=False,
                doc="the pieces left in the stock (a talon no one took)",
                example="sum(t.count for t in stock_left())")


def laid_away_func(tile: ObjType) -> Func:
    def laid_away(c, seat: int):
        if 0 <= seat < len(c.chips):
            return c.laid_away(seat)
        raise GameError(f"there is no seat {seat} (seats are 0..{len(c.chips) - 1})")
    return Func([INT], ListType(tile), laid_away, needs_ctx=True, pure=False,
                doc="the pieces a seat buried (laid away) this hand",
                example="sum(t.count for t in laid_away(bidder))")


def group_funcs(user_funcs: dict[str, Func], tile: ObjType) -> dict[str, dict[str, Func]]:
    """The functions of each group of places.py; `declarations` brings the ruleset's own."""
    totals = state_funcs(tile.name == "card")
    return {"declarations": dict(user_funcs), "totals": totals,
            "score": {"score": totals["score"], "chips": totals["chips"]},
            "holder": {"holder": holder_func(tile)}, "dealt": {"dealt_to": dealt_to_func(tile)},
            "plays": {"played_by": played_by_func(tile), "taken_by": taken_by_func(tile),
                      "trick_of": trick_of_func(tile)},
            "stock": {"stock_left": stock_left_func(tile)},
            "laid": {"laid_away": laid_away_func(tile)}}


def end_type() -> ObjType:
    """An open end of a layout: at run time a (pips, double, spinner) tuple."""
    return ObjType("end", {
        "pips": Attr(INT, itemgetter(0), "the number showing at the end"),
        "double": Attr(BOOL, itemgetter(1), "whether the piece at the end is a double (crosswise)"),
        "spinner": Attr(BOOL, itemgetter(2), "whether the piece at the end is the spinner"),
    }, doc="an open end of the layout")


def tile_type(attrs: dict) -> ObjType:
    return ObjType("tile", attrs, doc="a piece")


def card_type(attrs: dict) -> ObjType:
    """A piece of a pack of cards: `tile` in every place, a card by its name in messages."""
    return ObjType("card", attrs, doc="a card")


def bid_type(attrs: dict) -> ObjType:
    return ObjType("bid", attrs, doc="a bid: a contract at a level")


def type_of(spec: str, types: dict[str, Type]) -> Type:
    """The expression type of a places.py type spec such as `int` or `list[tile]`."""
    if spec.startswith("list[") and spec.endswith("]"):
        return ListType(type_of(spec[5:-1], types))
    return types[spec]


def place_env(key: str, base_env: Env, types: dict[str, Type],
              declaration_vars: dict[str, Var] | None = None,
              funcs_by_group: dict[str, dict[str, Func]] | None = None,
              where: str | None = None) -> Env:
    """The names a place may read (places.py), over `base_env`; `where` names it in errors."""
    p = places.place(key)
    vars: dict[str, Var] = {}
    funcs: dict[str, Func] = {}
    for g in p.groups:
        if g == "declarations":
            vars.update(declaration_vars or {})
        funcs.update((funcs_by_group or {}).get(g, {}))
    for n in p.names:  # a place's own names hide declarations of the same name
        vars[n.name] = Var(type_of(n.type, types), attrgetter(n.field), doc=n.doc, field=n.field)
    env = base_env.extended(vars=vars, funcs=funcs, where=key if where is None else where)
    env.per_item = frozenset(p.per_item)
    return env


@dataclass(frozen=True)
class Lazy:
    """A function whose body reads the game's state: compiled at each place that may call it."""

    name: str
    params: tuple
    text: str
    locate: object
    calls: frozenset


def compile_lazy(lazy: dict[str, Lazy], env: Env,
                 errors: dict[str, ExprError] | None = None) -> dict[str, Func]:
    """The state-reading functions as one place may call them: compiled with its names, or,
    where a body reads a name the place lacks, a Func that says so at the call (and the error
    goes to `errors`, by function)."""
    out: dict[str, Func] = {}
    inner = env.extended()

    def one(name: str) -> Func:
        if name in out:
            return out[name]
        lz = lazy[name]
        params = tuple(t for _, t in lz.params)
        for callee in sorted(lz.calls):
            inner.funcs[callee] = one(callee)
        bad = next((inner.funcs[c] for c in sorted(lz.calls) if inner.funcs[c].unavailable), None)
        if bad is not None:
            f = Func(params, INT, None, unavailable=bad.unavailable)
        else:
            try:
                f = define_function(name, list(lz.params), lz.text, inner, locate=lz.locate)
            except ExprError as e:
                if errors is not None:
                    errors[name] = e
                f = Func(params, INT, None, unavailable="its body reads what this place cannot ("
                                                        + e.diagnostics[0].message + ")")
        out[name] = inner.funcs[name] = f
        return f

    for name in lazy:
        one(name)
    return out


def state_env(base: Env, types: dict[str, Type]) -> Env:
    """`base` with every name some place reads from the state: where a state-reading function
    is checked once at its definition (each name has one type at every place)."""
    vars = {n.name: Var(type_of(n.type, types), attrgetter(n.field), doc=n.doc, field=n.field)
            for p in places.PLACES for n in p.names}
    funcs = {**state_funcs(types["tile"].name == "card"), "holder": holder_func(types["tile"]),
             "dealt_to": dealt_to_func(types["tile"]), "played_by": played_by_func(types["tile"]),
             "taken_by": taken_by_func(types["tile"]), "trick_of": trick_of_func(types["tile"]),
             "stock_left": stock_left_func(types["tile"]),
             "laid_away": laid_away_func(types["tile"])}
    return base.extended(vars=vars, funcs=funcs)


@dataclass
class Scope:
    """Everything a place's vocabulary is built from, once the ruleset's own names are known."""

    base: Env  # options, constants, set-wide numbers and the piece and seat functions
    types: dict[str, Type]  # places.py type specs -> expression types
    declaration_vars: dict[str, Var]
    funcs_by_group: dict[str, dict[str, Func]]
    lazy: dict = field(default_factory=dict)  # name -> declarations.Lazy: functions reading state
    cards: bool = False  # the pieces are a pack of cards (the defaults of lead and follows differ)
    _lazy_by_key: dict = field(default_factory=dict)

    def env(self, key: str, where: str | None = None) -> Env:
        env = place_env(key, self.base, self.types, self.declaration_vars, self.funcs_by_group,
                        where)
        if "declarations" not in places.place(key).groups:
            # a function of the ruleset that reads only its parameters, options and constants
            # reads nothing a place could lack: every place may call it (display.end_count
            # calls the one play.scores sums)
            env.funcs.update({n: f for n, f in self.funcs_by_group["declarations"].items()
                              if f.pure and n not in env.funcs})
        if self.lazy and "declarations" in places.place(key).groups:
            funcs = self._lazy_by_key.get(key)
            if funcs is None:
                funcs = self._lazy_by_key[key] = compile_lazy(self.lazy, env)
            env.funcs.update(funcs)
        return env
