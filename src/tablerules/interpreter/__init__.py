"""Load, check and compile a ruleset into a runnable game."""

from __future__ import annotations

from typing import Any

from ..errors import CheckError, GameError, TablerulesError
from ..load.ruleset import load_tree
from ..load.yamltree import Tree
from .compile import compile_tree
from .definition import GameDef


class Game:
    """A compiled ruleset with option values: makes states for matches and single hands."""

    def __init__(self, definition: GameDef, tree: Tree | None = None, ref: str | None = None):
        self.definition = definition
        self.tree = tree
        self.ref = ref or definition.name  # what the game was loaded from: a name or a path

    @property
    def name(self) -> str:
        return self.definition.canonical

    def new_match(self, *, record: bool = False):
        from ..engine.state import new_match
        return new_match(self.definition, record=record)

    def new_hand(self, hands, dealer: int = 0, *, record: bool = False):
        """A single hand from a deal given as piece ids or (high, low) pairs per seat."""
        from ..engine.state import new_hand
        return new_hand(self.definition, self.deal_ids(hands), dealer, record=record)

    def locate(self, err: GameError) -> GameError:
        """A game error that names a ruleset part, placed at that part in the ruleset file."""
        if not err.part or self.tree is None:
            return err
        located = GameError(err.message, self.tree.span(err.part))
        located.part = err.part
        return located

    def deal_ids(self, hands) -> tuple:
        get = self.definition.pieces.by_ends.__getitem__
        out = []
        for h in hands:
            try:
                out.append(tuple(map(get, h)))
            except (KeyError, TypeError):
                out.append(tuple(self._piece_id(t) for t in h))
        return tuple(out)

    def _piece_id(self, t) -> int:
        if isinstance(t, int):
            return t
        if isinstance(t, str):
            a, _, b = t.partition("-")
            t = (int(a), int(b)) if a.isdigit() and b.isdigit() else (-1, -1)
        i = self.definition.pieces.index(*t)
        if i is None:
            raise TablerulesError(f"no piece {t[0]}-{t[1]} in this set")
        return i


def check_tree(tree: Tree) -> list:
    """Schema diagnostics for a merged tree (empty when it matches the schema)."""
    from ..check.schema import validate_tree
    return validate_tree(tree)


def load_game(ref: str, options: dict[str, Any] | None = None) -> Game:
    """A built-in ruleset name or a file path -> a compiled Game; raises TablerulesError."""
    tree = load_tree(ref)
    diags = check_tree(tree)
    if diags:
        raise CheckError(diags[0].message, diags[0].span, diagnostics=diags)
    return Game(compile_tree(tree, options), tree, ref)


__all__ = ["Game", "GameDef", "load_game", "check_tree", "compile_tree"]
