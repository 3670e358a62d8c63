"""Seats computed by ruleset expressions, checked: a bad one is the ruleset's fault."""

from __future__ import annotations

from ..errors import RulesetFault


def seat_of(st, v, *part: str) -> int:
    """`v` if it is a seat of the game, else a RulesetFault located at `part`."""
    if type(v) is not int or not 0 <= v < st.game.seat_count:
        raise RulesetFault(f"{'.'.join(part)} gave {v!r}, which is not a seat "
                           f"0..{st.game.seat_count - 1}").at(*part)
    return v
