"""The `scoring:` pass: what each side scores for a hand, and when the match is over."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..definition import MatchDef
from ..expr.types import BOOL, INT
from .vocab import Scope

if TYPE_CHECKING:
    from .core import Compiler


def scoring(comp: Compiler, scope: Scope):
    """(score_hand, match_over) hooks; each None after an error."""
    score_hand = comp.fn(("scoring", "hand"), scope.env("scoring.hand"), INT)
    match_over = comp.fn(("scoring", "match_over"), scope.env("scoring.match_over"), BOOL)
    return score_hand, match_over


def match(comp: Compiler, scope: Scope) -> MatchDef:
    """Which score wins, whether a match may end mid-hand, and what each seat gets."""
    winner = comp.get("scoring", "winner", default="highest")
    if winner not in ("highest", "lowest"):  # the schema reports it first
        winner = "highest"
    during = comp.const_bool(("scoring", "during_hand"), scope.base, True)
    returns = None
    if comp.has("scoring", "returns"):
        returns = comp.fn(("scoring", "returns"), scope.env("scoring.returns"), INT)
    stake, pays = chips(comp, scope)
    with_bidder = None
    if comp.has("scoring", "with_bidder"):
        with_bidder = comp.fn(("scoring", "with_bidder"), scope.env("scoring.with_bidder"), BOOL)
    report = tuple((name, comp.fn(("scoring", "report", name), scope.env(
        "scoring.report.*", where=f"scoring.report.{name}"), INT))
        for name in comp.get("scoring", "report", default={}) or {})
    return MatchDef(winner == "lowest", during, returns, stake, pays, with_bidder, report)


def chips(comp: Compiler, scope: Scope) -> tuple:
    """(stake, payments) of `scoring.chips`, or (None, ()) without chips."""
    if not comp.has("scoring", "chips"):
        return None, ()
    stake = comp.const_int(("scoring", "chips", "stake"), scope.base, 0, "the chips each seat "
                                                                        "starts with")
    pays = []
    for name in comp.get("scoring", "chips", "pays", default={}) or {}:
        fn = comp.fn(("scoring", "chips", "pays", name), scope.env("scoring.chips.pays.*",
                     where=f"scoring.chips.pays.{name}"), INT)
        pays.append((name, fn))
    return stake, tuple(pays)
