"""The compiler's core: collects diagnostics and compiles one expression at a place."""

from __future__ import annotations

import copy
import re
from dataclasses import replace
from typing import Any

from ..definition.profile import RuleProfile
from ..errors import CheckError, Diagnostic, ExprError, OptionError
from ..expr import compile_expression
from ..expr.env import Env
from ..expr.types import BOOL, INT, Type
from ..load.ruleset import attribute
from ..load.yamltree import Tree, merge


# The smallest game a library part is checked in: its own keys replace these, so its constants,
# declarations, functions and any rules it gives are checked against an ordinary table.
STAND_IN = {
    "pieces": {"max_pip": 6},
    "seats": {"count": 4, "sides": [[0, 2], [1, 3]]},
    "deal": {"hand_size": 7},
    "auction": {"beats": "bid.rank > high.rank"},
    "contracts": {"part": {"bid": {"levels": "range(1, 2)", "rank": "level", "marks": "1"},
                           "play": {"leader": "bidder", "rank": "tile.pips"},
                           "outcome": {"made": "true"}}},
    "scoring": {"hand": "0", "match_over": "true"},
}


def as_part(tree: Tree) -> Tree:
    """A library part's tree over the stand-in game (positions stay the part's own)."""
    stand_in = copy.deepcopy(STAND_IN)
    own = tree.data.get("pieces")
    if isinstance(own, dict) and "suits" in own:  # a pack of cards: no pips to rank by
        del stand_in["pieces"]
        stand_in["deal"]["hand_size"] = 1
        stand_in["contracts"]["part"]["play"]["rank"] = "tile.rank"
    part = merge(Tree(stand_in), tree)
    part.origin, part.library, part.inherited = tree.origin, True, tree.inherited
    part.deleted = tree.deleted
    return part


UNKNOWN_FUNCTION = re.compile(r"unknown function '([A-Za-z_][A-Za-z0-9_]*)'")


class Compiler:
    """Compiles one merged ruleset tree; collects every error before giving up."""

    def __init__(self, tree: Tree, cli_options: dict[str, Any] | None = None,
                 profile: RuleProfile | None = None, typed: bool = False):
        self.tree = tree
        self.profile = profile  # when profiling: every hook compiled is timed into it
        self.data = tree.data
        self.cli = cli_options or {}
        self.diags: list[Diagnostic] = []
        self.failed: set[str] = set()  # user functions whose definition failed (reported once)
        self.uses: set[str] = set()  # every name an expression of the ruleset reads or calls
        self.typed = typed  # keep every expression's checked tree (GameDef.exprs)
        self.exprs: dict[tuple, Any] = {}  # ruleset path -> its Compiled expression (GameDef.exprs)

    def error(self, path: tuple, message: str, *, key: bool = False, suggestion: str | None = None,
              kind: str = "check") -> None:
        self.diags.append(Diagnostic(self.tree.span(path, key=key), message, kind, suggestion,
                                     path=tuple(path)))

    def extend(self, path: tuple, diags) -> None:
        """Diagnostics of an expression at `path` (their spans are inside it)."""
        for d in diags:
            if d.path is None:
                d.path = tuple(path)
            self.diags.append(d)

    def get(self, *path: Any, default: Any = None) -> Any:
        v = self.tree.get(path, default)
        return default if v is None else v

    def has(self, *path: Any) -> bool:
        return self.tree.get(path) is not None

    def expr(self, path: tuple, env: Env, expected: Type | None = None, *,
             default: str | None = None):
        """Compile the expression at `path` (or `default` when absent); None after an error."""
        raw = self.tree.get(path)
        if raw is None:
            if default is None:
                self.error(path, f"missing expression '{path[-1]}' in {where(path[:-1])}",
                           kind="schema")
                return None
            text, locate = default, None
        else:
            if isinstance(raw, bool):
                text = "true" if raw else "false"
            elif isinstance(raw, (int, str)):
                text = str(raw)
            else:
                self.error(path, f"expected an expression (text), got {kind_of(raw)}",
                           kind="schema")
                return None
            locate = self.tree.locator(path) if isinstance(raw, str) else (
                lambda off, ln, s=self.tree.span(path): s)
        try:
            c = compile_expression(text, env, locate=locate, expected=expected)
            self.uses |= c.uses
            if self.typed:
                self.exprs[tuple(path)] = c
            if self.profile is not None and not c.is_const:
                s = self.tree.span(path)
                c = replace(c, fn=self.profile.wrap(where(path), text, f"{s.file}:{s.line}", c.fn))
            return c
        except ExprError as e:
            self.extend(path, e.diagnostics)
            return None

    def fn(self, path: tuple, env: Env, expected: Type | None = None, *,
           default: str | None = None):
        """The compiled function of the expression at `path`, or None after an error."""
        c = self.expr(path, env, expected, default=default)
        return c.fn if c is not None else None

    def const_value(self, c) -> Any:
        if c is None:
            return None
        if c.is_const:
            return c.const
        return c.fn(None)

    def const_int(self, path: tuple, env: Env, default: int, what: str) -> int:
        """An int given literally or as a constant expression (e.g. of options)."""
        raw = self.tree.get(path)
        if raw is None:
            return default
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        c = self.expr(path, env.extended(where=where(path)), INT)
        if c is None:
            return default
        if not c.is_const:
            self.error(path, f"{where(path)} ({what}) must be fixed before the game starts")
            return default
        return c.const

    def const_bool(self, path: tuple, env: Env, default: bool) -> bool:
        if self.tree.get(path) is None:
            return default
        c = self.expr(path, env.extended(where=where(path)), BOOL)
        if c is None:
            return default
        if not c.is_const:
            self.error(path, f"{where(path)} must be fixed before the game starts")
            return default
        return bool(c.const)

    def _follows_on(self, d: Diagnostic) -> bool:
        """A use of a function whose own definition is already reported as wrong."""
        m = UNKNOWN_FUNCTION.match(d.message)
        return bool(m and m.group(1) in self.failed)

    @staticmethod
    def where(path: tuple) -> str:
        """A ruleset path as the dotted words error messages use."""
        return where(path)

    def raise_if_errors(self) -> None:
        # one error per mistake, at the place the author wrote it (see load.ruleset.attribute)
        self.diags = attribute(self.tree, [d for d in self.diags if not self._follows_on(d)])
        errors = [d for d in self.diags if d.severity == "error"]
        if errors:
            # the class follows the errors: option mistakes alone are an OptionError
            cls = OptionError if all(d.kind == "option" for d in errors) else CheckError
            raise cls(errors[0].message, errors[0].span, diagnostics=self.diags)


def where(path: tuple) -> str:
    return ".".join(str(p) for p in path) or "the ruleset"


def kind_of(v: Any) -> str:
    if isinstance(v, dict):
        return "a mapping"
    if isinstance(v, list):
        return "a list"
    if v is None:
        return "nothing"
    return type(v).__name__
