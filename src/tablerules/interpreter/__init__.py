"""Check and compile a loaded ruleset tree into a frozen game definition."""

from __future__ import annotations

from ..check.schema import validate_tree
from ..load.yamltree import Tree
from .compiler import compile_tree


def check_tree(tree: Tree) -> list:
    """Schema diagnostics for a merged tree (empty when it matches the schema)."""
    return validate_tree(tree)


__all__ = ["check_tree", "compile_tree"]
