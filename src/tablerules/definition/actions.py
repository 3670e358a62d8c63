"""The action-id layout: one closed integer space per compiled game, with a name for every id.

| ids | action | name |
| --- | --- | --- |
| `0 .. P-1` | play (or, at a chance node, deal) piece `i` | `6-4` |
| `P .. P+7` | pass, agree, decline, take the stock, leave it, draw, knock, claim | `pass`, `claim` |
| then | each bid: a contract at a level, in contract order then level order | `bid points 30` |
| then | each declaration value, declarations in order, values in order | `trump 4` |
| then | each suit a leader may choose to lead | `lead 5` |
| then | bury piece `i` | `bury 6-5` |
| then | lay piece `i` on arm `a`, `len(arms)` ids per piece | `6-4 east` |
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FIXED_NAMES = ("pass", "agree", "decline", "take stock", "leave stock", "draw", "knock", "claim")


def value_str(v: Any) -> str:
    """A declaration or suit value as a ruleset writes it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


@dataclass(frozen=True)
class ActionSpace:
    """Where each kind of action starts, and the name of every id."""

    pieces: int
    bid_base: int
    decl_base: int
    lead_base: int
    bury_base: int
    layout_base: int
    num_actions: int
    arms: tuple[str, ...]  # layout arm names: an action id per piece per arm
    decl_actions: tuple[tuple[int, Any], ...]  # action - decl_base -> (declaration, value)
    suit_values: tuple  # action - lead_base -> the suit a leader names
    names: tuple[str, ...] = field(repr=False)  # action id -> its name
    by_name: dict = field(repr=False, compare=False)  # name -> action id
    # the fixed actions, in the order of FIXED_NAMES right after the pieces
    pass_action: int = field(init=False)
    agree_action: int = field(init=False)
    decline_action: int = field(init=False)
    take_action: int = field(init=False)
    leave_action: int = field(init=False)
    draw_action: int = field(init=False)
    knock_action: int = field(init=False)
    claim_action: int = field(init=False)
    lay_ids: tuple = field(init=False, repr=False, compare=False)  # arm -> piece -> its lay id

    def __post_init__(self) -> None:
        for i, name in enumerate(("pass", "agree", "decline", "take", "leave", "draw", "knock",
                                     "claim")):
            object.__setattr__(self, f"{name}_action", self.pieces + i)
        per = len(self.arms)
        object.__setattr__(self, "lay_ids", tuple(
            tuple(self.lay_action(t, arm) for t in range(self.pieces)) for arm in range(per)))

    def bid_action(self, bid: int) -> int:
        """The action of bid index `bid` (1-based: 0 is "no bid yet")."""
        return self.bid_base + bid - 1

    def bid_of(self, action: int) -> int:
        return action - self.bid_base + 1

    def lay_action(self, piece: int, arm: int) -> int:
        return self.layout_base + len(self.arms) * piece + arm

    def lay_of(self, action: int) -> tuple[int, int]:
        """(piece, arm) of a lay action."""
        return divmod(action - self.layout_base, len(self.arms))

    def kind(self, action: int) -> str:
        """piece, fixed, bid, declare, lead, bury or lay."""
        if 0 <= action < self.pieces:
            return "piece"
        if action < self.bid_base:
            return "fixed"
        if action < self.decl_base:
            return "bid"
        if action < self.lead_base:
            return "declare"
        if action < self.bury_base:
            return "lead"
        if action < self.layout_base:
            return "bury"
        if action < self.num_actions:
            return "lay"
        raise ValueError(f"no action {action}")

    def to_string(self, action: int) -> str:
        if 0 <= action < self.num_actions:
            return self.names[action]
        raise ValueError(f"no action {action}")

    def from_string(self, text: str) -> int | None:
        return self.by_name.get(text)


def build_actions(piece_names: tuple[str, ...], bid_labels: tuple[str, ...],
                  declaration_names: tuple[str, ...], decl_actions: tuple[tuple[int, Any], ...],
                  suit_values: tuple, arms: tuple[str, ...]) -> ActionSpace:
    """The action space of a game; `bid_labels` lists every bid but "no bid" (index 0)."""
    n = len(piece_names)
    bid_base = n + len(FIXED_NAMES)
    decl_base = bid_base + len(bid_labels)
    lead_base = decl_base + len(decl_actions)
    bury_base = lead_base + len(suit_values)
    layout_base = bury_base + n
    num = layout_base + len(arms) * n
    names = (list(piece_names) + list(FIXED_NAMES) + [f"bid {b}" for b in bid_labels]
             + [f"{declaration_names[d]} {value_str(v)}" for d, v in decl_actions]
             + [f"lead {value_str(v)}" for v in suit_values]
             + [f"bury {p}" for p in piece_names]
             + [f"{p} {a}" for p in piece_names for a in arms])
    by_name: dict[str, int] = {}
    for i, s in enumerate(names):
        by_name.setdefault(s, i)
    return ActionSpace(n, bid_base, decl_base, lead_base, bury_base, layout_base, num, tuple(arms),
                       tuple(decl_actions), tuple(suit_values), tuple(names), by_name)
