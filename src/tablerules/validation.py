"""Check ruleset files like a compiler, then play random hands to find dynamic faults."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .agents import CautiousAgent, RandomAgent
from .engine.state import DEAL, DONE, State
from .errors import Diagnostic, GameError, Span, TablerulesError
from .interpreter import Game, check_tree, compile_tree
from .load.ruleset import display_path, load_tree


@dataclass
class FileResult:
    """What checking one ruleset found."""

    ref: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    hands_played: int = 0
    game: Game | None = None

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.ref, "ok": self.ok, "hands_played": self.hands_played,
                "diagnostics": [d.as_dict() for d in self.diagnostics]}


def check_file(ref: str, options: dict[str, Any] | None = None, *, hands: int = 200,
               seed: int = 0) -> FileResult:
    """Static checks (YAML, schema, names, types, options), then `hands` random hands."""
    res = FileResult(ref)
    try:
        tree = load_tree(ref)
    except TablerulesError as e:
        res.diagnostics.extend(e.diagnostics)
        _add_source(res, e.diagnostics)
        return res
    res.sources.update(tree.sources)
    diags = check_tree(tree)
    if diags:
        res.diagnostics.extend(diags)
    try:
        gd = compile_tree(tree, options)
    except TablerulesError as e:
        # after a schema error at a place, what the compiler says there is a follow-on
        seen = {d.span for d in res.diagnostics}
        res.diagnostics.extend(d for d in e.diagnostics if d.span not in seen)
        return res
    except Exception:
        if res.diagnostics:  # the compiler relies on a valid structure: the schema errors stand
            return res
        raise
    if res.diagnostics:
        return res
    res.game = Game(gd, tree)
    if hands > 0:
        play_check(res, hands, seed)
    return res


def _add_source(res: FileResult, diags: list[Diagnostic]) -> None:
    for d in diags:
        p = Path(d.span.file)
        if d.span.file not in res.sources and p.is_file():
            try:
                res.sources[d.span.file] = p.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                pass


def play_check(res: FileResult, hands: int, seed: int) -> None:
    """Play random matches until `hands` hands are done; report the first fault with its seed."""
    game = res.game
    gd = game.definition
    match = 0
    while res.hands_played < hands:
        match_seed = f"{seed}:{match}"
        rng = random.Random(match_seed)
        # uniform bidders seldom all pass: every other match bids cautiously to reach those paths
        agent = (RandomAgent if match % 2 == 0 else CautiousAgent)(
            random.Random(match_seed + ":play"), *(() if match % 2 == 0 else (gd.pass_action,)))
        st = State(gd, record=True)
        steps = 0
        plays = 0
        try:
            while st.phase != DONE and res.hands_played < hands:
                if st.phase == DEAL:
                    st.deal_random(rng)
                else:
                    st.apply_action(agent.act(st.actor, st.legal_actions(), lambda: {}))
                    steps += 1
                    if steps > gd.max_steps * max(gd.max_hands, 1):
                        raise GameError(f"the match did not end within {steps} decisions")
                for ev in st.events:
                    if ev["type"] == "trick":
                        plays += len(ev["plays"])
                    elif ev["type"] == "hand":
                        if not ev.get("thrown_in"):
                            _check_hand(ev, plays, gd)
                            res.hands_played += 1
                        plays = 0
                st.events.clear()
        except GameError as e:
            span = game.locate(e).span if e.part else (
                e.span if e.span.line > 0 else Span(res.ref, 1, 1))  # the expression that failed
            res.diagnostics.append(Diagnostic(
                span, f"random play: {e.message} (reproduce: tablerules validate {res.ref} "
                      f"--seed {seed} --hands {hands}; match seed '{match_seed}')", "game"))
            return
        match += 1


def _check_hand(ev: dict, plays: int, gd) -> None:
    """Bounds a ruleset declares, checked after every completed hand."""
    if gd.hand_points is None:
        return
    total = sum(ev["points"])
    every_piece = plays == gd.seat_count * gd.hand_size
    if total > gd.hand_points or (every_piece and total != gd.hand_points):
        raise GameError(f"hand {ev['hand']}'s points came to {total}; bounds.hand_points is "
                        f"{gd.hand_points}").at("bounds", "hand_points")


def display(ref: str) -> str:
    p = Path(ref)
    return display_path(p) if p.is_file() else ref
