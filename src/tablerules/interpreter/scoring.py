"""The `scoring:` pass: what each side scores for a hand, and when the match is over."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..expr.types import BOOL, INT
from .vocab import Scope

if TYPE_CHECKING:
    from .core import Compiler


def scoring(comp: Compiler, scope: Scope):
    """(score_hand, match_over) hooks; each None after an error."""
    score_hand = comp.fn(("scoring", "hand"), scope.env("scoring.hand"), INT)
    match_over = comp.fn(("scoring", "match_over"), scope.env("scoring.match_over"), BOOL)
    return score_hand, match_over
