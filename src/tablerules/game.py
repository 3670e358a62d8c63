"""One pipeline from a ruleset reference to a runnable Game: load -> check -> compile.

`check` collects every diagnostic and never raises for a user's mistake; `load_game` is the same
pipeline that raises the first error (carrying all of them). `Game` sits above the engine and
makes its states: a match, a single hand, or the state a history leads to.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .definition import GameDef
from .engine.state import State, new_hand, new_match
from .errors import UNKNOWN, CheckError, Diagnostic, GameError, Span, TablerulesError
from .interpreter import check_tree, compile_tree
from .interpreter.options import is_count
from .kept import Kept
from .load.ruleset import attribute, data_dir, file_of, load_tree
from .load.yamltree import Tree


class Game:
    """A compiled ruleset with option values: makes states for matches and single hands."""

    def __init__(self, definition: GameDef, tree: Tree | None = None, ref: str | None = None):
        self.definition = definition
        self.tree = tree
        self.ref = ref or definition.name  # what the game was loaded from: a name or a path

    @property
    def name(self) -> str:
        return self.definition.canonical

    def new_match(self, *, record: bool = False, first_dealer: int | None = None) -> State:
        """A match state; `first_dealer` (a seat) overrides the ruleset's `deal.first_dealer`."""
        return new_match(self.definition, record=record, first_dealer=first_dealer)

    def new_hand(self, hands, dealer: int = 0, *, record: bool = False) -> State:
        """A single hand from a deal given as piece ids, names or (high, low) pairs per seat."""
        return new_hand(self.definition, self.deal_ids(hands), dealer, record=record)

    def from_history(self, history: Iterable[tuple[int, int]], *, record: bool = False,
                     first_dealer: int | None = None) -> State:
        """The match state that `history` (chance actions included) leads to, every step checked."""
        st = new_match(self.definition, record=record, first_dealer=first_dealer)
        for _, action in history:
            st.apply_action(action)
        return st

    def locate(self, err: GameError) -> GameError:
        """A game error placed in the ruleset: at the part it names, else, when it has no place
        of its own (the batch engine's kernel knows no rule's place), at the ruleset's file."""
        if self.tree is None:
            return err
        if err.part:
            located = type(err)(err.message, self.tree.span(err.part))
            located.part = err.part
            return located
        if err.span == UNKNOWN and self.tree.origin:
            return type(err)(err.message, Span(self.tree.origin, 0, 0))
        return err

    def diagnosed(self, span: Span, message: str, kind: str = "game",
                  part: tuple | None = None) -> list[Diagnostic]:
        """A fault found in play at `span` (the rule at `part`), said where the author wrote
        it: a base file's rule that the user's file broke is the user's line, with a note at
        the base rule (load.ruleset.attribute; validate and every command that plays)."""
        found = Diagnostic(span, message, kind, path=tuple(part) if part else None)
        return attribute(self.tree, [found]) if self.tree is not None else [found]

    def located(self, err: GameError, message: str | None = None) -> GameError:
        """`err` placed in the ruleset (`locate`) and said where the author wrote it
        (`diagnosed`); `message`, when given, is said instead of its own."""
        at = self.locate(err)
        diags = self.diagnosed(at.span, at.message if message is None else message, err.kind,
                               at.part or None)
        out = type(err)(diags[0].message, diags[0].span, diagnostics=diags)
        out.part = at.part
        return out

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
            t = (int(a), int(b)) if is_count(a) and is_count(b) else (-1, -1)
        i = self.definition.pieces.index(*t)
        if i is None:
            raise TablerulesError(f"no piece {t[0]}-{t[1]} in this set")
        return i


@dataclass
class Checked:
    """What the pipeline made of one ruleset reference."""

    ref: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    game: Game | None = None
    failure: TablerulesError | None = None  # the error `load_game` raises

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


def check(ref: str, options: dict[str, Any] | None = None, *, profile: bool = False,
          typed: bool = False) -> Checked:
    """Load, schema-check and compile; every problem becomes a diagnostic. With `profile`, every
    hook is timed (GameDef.profile); with `typed`, the hooks' checked trees are kept
    (GameDef.exprs)."""
    res = Checked(ref)
    try:
        tree = load_tree(ref)
    except TablerulesError as e:
        res.diagnostics.extend(e.diagnostics)
        res.failure = e
        add_sources(res.diagnostics, res.sources)
        return res
    res.sources.update(tree.sources)
    key = None if profile else _compiled_key(tree, options, typed)
    definition = _COMPILED.get(key) if key is not None else None
    if definition is None:  # (a kept game's tree passed its check)
        diags = check_tree(tree)
        if diags:  # the compiler relies on a valid structure: schema errors stand alone
            res.diagnostics.extend(diags)
            res.failure = CheckError(diags[0].message, diags[0].span, diagnostics=diags)
            return res
        try:
            definition = compile_tree(tree, options, profile=profile, typed=typed)
        except TablerulesError as e:
            res.diagnostics.extend(e.diagnostics)
            res.failure = e
            return res
        if key is not None and not _names_a_file(definition.strategy):
            _COMPILED.put(key, definition)
    res.game = Game(definition, tree, ref)
    return res


# Games compiled before in this process, by everything compiling reads: the text and name of
# every file of the ruleset, the options and `typed`; and the working directory where a file of
# the ruleset is the user's (its name is shown relative to it, and a strategy path beside it
# resolves from there). A ruleset all of whose files are shipped compiles the same from any
# directory, so a process that changes directory (a test run) shares it. A GameDef is frozen,
# so a process that loads the same game again (a test run, compare's two sides, a worker's
# every task) shares one. Not with `profile` (its timings are the run's own), nor for a default
# strategy named by the path of a file of the user's (the file may change or go); a strategy
# file shipped with the package is as fixed as the rulesets are. A GameDef past the first shares
# its compiled expressions with the others (about 0.2 MB for a shipped game with one option
# changed), so 128 are a few tens of MB at most.
_COMPILED = Kept(128)


def _compiled_key(tree: Tree, options: dict[str, Any] | None, typed: bool) -> tuple | None:
    try:
        opts = repr(sorted((options or {}).items()))
        where = None if all(_shipped(name) for name in tree.sources) else os.getcwd()
        return (where, tree.origin, tuple(tree.sources.items()), opts, typed)
    except (OSError, TypeError):  # no working directory; option names of mixed types
        return None


def _shipped(name: str) -> bool:
    """Whether a file of a tree, by the name messages show, is one shipped with the package."""
    return name.startswith("rulesets/") and file_of(name).is_relative_to(_shipped_dir())


def _shipped_dir() -> Path:
    return data_dir("rulesets").resolve()


def _names_a_file(strategy: str | None) -> bool:
    """Whether the default strategy is a file of the user's (not a shipped name or file)."""
    if strategy is None or ("/" not in strategy and os.sep not in strategy):
        return False
    try:
        return not Path(strategy).resolve().is_relative_to(_shipped_dir())
    except (OSError, ValueError):
        return True


def load_game(ref: str, options: dict[str, Any] | None = None, *, profile: bool = False,
              typed: bool = False) -> Game:
    """A built-in ruleset name or a file path -> a compiled Game; raises TablerulesError. With
    `profile`, every hook is timed into `game.definition.profile` (a slower run); with `typed`,
    the checked tree of every hook is kept in `game.definition.exprs` (what the batch engine
    compiles; kept only when asked, since the trees are most of a game's memory)."""
    res = check(ref, options, profile=profile, typed=typed)
    if res.failure is not None:
        raise res.failure
    return res.game


def add_sources(diagnostics, sources: dict[str, str]) -> dict[str, str]:
    """`sources` with the text of every file a diagnostic names that can be read (for carets)."""
    for d in diagnostics:
        if d.span.file not in sources:
            try:  # is_file first: never read a device; it raises on a name too long
                p = Path(d.span.file)
                if p.is_file():
                    sources[d.span.file] = p.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError, ValueError):
                pass
    return sources
