"""The `deal:` pass: hand and stock sizes, the first dealer and who deals next."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..expr.env import Env
from ..expr.types import INT
from . import vocab
from .vocab import Scope

if TYPE_CHECKING:
    from .core import Compiler


def sizes(comp: Compiler, base: Env, seat_count: int, piece_count: int) -> tuple[int, int]:
    """(hand size, stock): fixed before the game starts, and fitting in the set."""
    hand_size = comp.const_int(("deal", "hand_size"), base, 0, "pieces dealt to each seat")
    base.vars["hand_size"] = vocab.const(INT, hand_size, "pieces dealt to each seat")
    stock = comp.const_int(("deal", "stock"), base, 0, "pieces left undealt")
    # literal values are range-checked by the schema; computed ones only here
    if hand_size < 1:
        comp.error(("deal", "hand_size"), f"deal.hand_size comes to {hand_size}; each seat is "
                                          f"dealt at least 1 piece")
    elif stock < 0:
        comp.error(("deal", "stock"),
                   f"deal.stock comes to {stock}: {seat_count} hands of {hand_size} need "
                   f"{hand_size * seat_count} pieces; the set has {piece_count}")
    elif hand_size * seat_count + stock > piece_count:
        comp.error(("deal", "hand_size"),
                   f"{seat_count} hands of {hand_size} plus a stock of {stock} need "
                   f"{hand_size * seat_count + stock} pieces; the set has {piece_count}")
    return hand_size, stock


def dealers(comp: Compiler, scope: Scope, seat_count: int):
    """(first dealer, next_dealer hook); the hook is None after an error."""
    next_dealer = comp.fn(("deal", "next_dealer"), scope.env("deal.next_dealer", where="deal"), INT,
                          default="next(dealer)")
    first_dealer = comp.get("deal", "first_dealer", default=0)
    if first_dealer == "lot":
        return LOT, next_dealer
    if not isinstance(first_dealer, int) or not 0 <= first_dealer < seat_count:
        comp.error(("deal", "first_dealer"), f"deal.first_dealer is a seat 0..{seat_count - 1} "
                                             f"or 'lot', got {first_dealer!r}")
    return first_dealer, next_dealer


def turn(comp: Compiler, scope: Scope):
    """The `deal.turn` hook, or None without it."""
    if not comp.has("deal", "turn"):
        return None
    return comp.fn(("deal", "turn"), scope.env("deal.turn", where="deal.turn"), INT)


LOT = -1  # GameDef.first_dealer when the first dealer is drawn by lot
