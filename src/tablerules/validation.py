"""Check ruleset files like a compiler, then play matches to find dynamic faults.

The static checks are the pipeline of `tablerules.game.check`; the matches are played by the one
driver of `simulate` (`records.runner.play_game`) with the same seeds, so a fault reported here
reproduces with the `simulate` command the message names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import Diagnostic, GameError, Span
from .game import Game, check
from .load.ruleset import attribute
from .records.runner import play_game

# uniform bidders seldom all pass: every other match bids cautiously to reach those paths
EXPLORERS = ("random", "cautious")


@dataclass
class FileResult:
    """What checking one ruleset found."""

    ref: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    hands_played: int = 0
    game: Game | None = None
    library: bool = False  # a library part, checked as a part

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.ref, "ok": self.ok, "hands_played": self.hands_played,
                "diagnostics": [d.as_dict() for d in self.diagnostics]}


def check_file(ref: str, options: dict[str, Any] | None = None, *, hands: int = 200,
               seed: int = 0) -> FileResult:
    """Static checks (YAML, schema, names, types, options), then `hands` hands of play."""
    checked = check(ref, options)
    res = FileResult(ref, list(checked.diagnostics), dict(checked.sources), game=checked.game)
    if res.game is not None and res.game.tree is not None and res.game.tree.library:
        res.library = True  # a part, not a game: nothing to play
    elif res.ok and res.game is not None and hands > 0:
        play_check(res, hands, seed, options or {})
    return res


def play_check(res: FileResult, hands: int, seed: int, options: dict[str, Any]) -> None:
    """Play matches until `hands` hands are done; report the first fault with its command."""
    game = res.game
    match = 0

    def count(ev: dict) -> bool:
        if ev["type"] == "hand" and not ev.get("thrown_in"):
            res.hands_played += 1
        return res.hands_played >= hands

    while res.hands_played < hands:
        agent = EXPLORERS[match % len(EXPLORERS)]
        try:
            play_game(game, [agent], seed, match, until=count, decisions=False)
        except GameError as e:
            span = game.locate(e).span if e.part else (
                e.span if e.span.line > 0 else Span(res.ref, 1, 1))  # the expression that failed
            opts = "".join(f" --option {k}={_opt(v)}" for k, v in options.items())
            found = Diagnostic(
                span, f"random play: {e.message} (reproduce: tablerules simulate {res.ref} "
                      f"--seed {seed} --games {match + 1} --agents {agent}{opts})", "game",
                path=e.part or None)
            # a fault in a base file is the user's overlay's: report it there, with a note
            res.diagnostics.extend(attribute(game.tree, [found]) if game.tree else [found])
            return
        match += 1


def _opt(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
