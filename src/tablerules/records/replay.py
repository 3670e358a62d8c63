"""Re-execute a JSON Lines game record through the engine, verifying every line."""

from __future__ import annotations

import json
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any, Iterator

from ..definition import value_str
from ..engine.state import DEAL, LAYOUT, PLAY, State
from ..errors import GameError, RecordError, Span, TablerulesError
from ..game import Game, load_game
from ..load.ruleset import is_path_ref
from .runner import FORMAT, VERSION


@dataclass
class ReplayedGame:
    """One verified game: its lines as a readable account."""

    number: int
    text: list[str] = field(default_factory=list)
    score: list[int] = field(default_factory=list)
    winner: list[int] = field(default_factory=list)


@dataclass
class Replay:
    header: dict
    games: list[ReplayedGame] = field(default_factory=list)


def read_lines(path: str) -> Iterator[tuple[int, dict]]:
    """(line number, parsed object) for each non-blank line; bad JSON is a located error."""
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        raise RecordError(f"cannot read record: {e.strerror or e}", Span(path, 0, 0)) from None
    with f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise RecordError(f"not JSON: {e.msg}", Span(path, i, e.colno)) from None
            if not isinstance(obj, dict) or "type" not in obj:
                raise RecordError("a record line is an object with a 'type'", Span(path, i, 1))
            yield i, obj


def replay(path: str, *, only_game: int | None = None, ruleset: str | None = None) -> Replay:
    """Verify a record line by line; raises RecordError naming the line and the reason."""
    lines = read_lines(path)
    try:
        ln, head = next(lines)
    except StopIteration:
        raise RecordError("the record is empty", Span(path, 1, 1)) from None
    if head.get("type") != "header" or head.get("format") != FORMAT:
        raise RecordError("the first line is not a tablerules record header", Span(path, ln, 1))
    if head.get("version") != VERSION:
        raise RecordError(f"record format version {head.get('version')} is not supported "
                          f"(this is version {VERSION})", Span(path, ln, 1))
    game = _game_for(head, path, ln, ruleset)
    out = Replay(head)
    g = None
    verifier = None
    for ln, obj in lines:
        span = Span(path, ln, 1)
        t = obj["type"]
        if t == "game":
            if verifier is not None:
                verifier.finish(span)
            g = ReplayedGame(int(obj.get("game", len(out.games) + 1)))
            skip = only_game is not None and g.number != only_game
            verifier = _Verifier(game, g, path, skip)
            if not skip:
                out.games.append(g)
            continue
        if verifier is None:
            raise RecordError(f"a '{t}' line before any 'game' line", span)
        verifier.line(obj, span)
    if verifier is not None:
        verifier.finish(Span(path, ln + 1, 1))
    if only_game is not None and not out.games:
        raise RecordError(f"the record has no game {only_game}", Span(path, 1, 1))
    return out


def _game_for(head: dict, path: str, ln: int, ruleset: str | None) -> Game:
    """The game a header names: --ruleset, else the file it was made from, else the built-in."""
    ref = ruleset or _source(head, path) or head.get("ruleset")
    options = head.get("options") or {}
    if not isinstance(ref, str) or not isinstance(options, dict):
        raise RecordError("the header names no ruleset or has malformed options", Span(path, ln, 1))
    try:
        game = load_game(ref, options)
    except TablerulesError as e:
        raise RecordError(f"cannot load the record's ruleset '{ref}': {e.diagnostics[0].message}"
                          + ("" if ruleset else " (give it with --ruleset FILE)"),
                          Span(path, ln, 1)) from None
    gd = game.definition
    want = head.get("ruleset_hash")
    if want and want != gd.content_hash:
        raise RecordError(f"the record was made with a different '{ref}' (hash {want}, now "
                          f"{gd.content_hash})", Span(path, ln, 1))
    if head.get("canonical") != gd.canonical or options != gd.options:
        raise RecordError(f"the header's options do not match its game: it names "
                          f"{head.get('canonical')}, its options make {gd.canonical}",
                          Span(path, ln, 1))
    return game


def _source(head: dict, path: str) -> str | None:
    """The ruleset file a record was made from, if it can still be found."""
    src = head.get("source")
    if not isinstance(src, str) or not is_path_ref(src):
        return None
    for candidate in (Path(src), Path(path).parent / src):
        if candidate.is_file():
            return str(candidate)
    return src


class _Verifier:
    """Feeds one game's lines to a fresh state and compares what the engine says."""

    def __init__(self, game: Game, out: ReplayedGame, path: str, skip: bool):
        self.game = game
        self.gd = game.definition
        self.out = out
        self.path = path
        self.skip = skip
        self.state = State(self.gd, record=True)
        self.pending: list[dict] = []  # events the engine produced, waiting for their lines

    def _say(self, text: str) -> None:
        if not self.skip:
            self.out.text.append(text)

    def line(self, obj: dict, span: Span) -> None:
        t = obj["type"]
        st = self.state
        gd = self.gd
        if t == "deal":
            if st.phase != DEAL:
                raise RecordError("a deal where the engine expects a decision by "
                                  f"{self._seat(st.current_player())}", span)
            try:
                hands = [tuple(self._piece(p, span) for p in h) for h in obj.get("hands", [])]
                stock = tuple(self._piece(p, span) for p in obj.get("stock", []))
                st.apply_deal(tuple(hands) + ((stock,) if gd.stock else ()))
            except GameError as e:
                raise RecordError(f"bad deal: {e.message}", span) from None
            self._take_events(obj, span)
            self._say(f"Hand {obj.get('hand')}: {self._seat(obj.get('dealer'))} deals")
            for s, h in enumerate(obj.get("hands", [])):
                self._say(f"  {self._seat(s):<6} {' '.join(h)}")
            if obj.get("stock"):
                self._say(f"  {'stock':<6} {' '.join(obj['stock'])}")
            return
        if t == "decision":
            self._decision(obj, span)
            return
        if t in ("contract", "trick", "hand", "match", "exchange", "lay", "draw", "knock"):
            self._match_event(obj, span)
            return
        raise RecordError(f"unknown line type '{t}'", span)

    def _piece(self, name: Any, span: Span) -> int:
        a = self.gd.string_to_action(str(name))
        if a is None or a >= len(self.gd.pieces):
            raise RecordError(f"no piece '{name}' in this set", span)
        return a

    def _seat(self, s: Any) -> str:
        names = self.gd.seat_names
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else f"seat {s}"

    def _decision(self, obj: dict, span: Span) -> None:
        st = self.state
        gd = self.gd
        if self.pending:
            raise RecordError(f"the engine expected a '{self.pending[0]['type']}' line here", span)
        if st.phase == DEAL or st.is_terminal():
            raise RecordError("a decision where the engine expects "
                              + ("a deal" if st.phase == DEAL else "the end of the game"), span)
        seat = obj.get("seat")
        if seat != st.current_player():
            raise RecordError(f"the decision is {self._seat(seat)}'s, but it is "
                              f"{self._seat(st.current_player())}'s turn", span)
        legal = st.legal_actions()
        names = [gd.action_to_string(a) for a in legal]
        action = gd.string_to_action(str(obj.get("action")))
        if action is None:
            raise RecordError(f"'{obj.get('action')}' is not an action of this game", span)
        if action not in legal:
            raise RecordError(explain_illegal(st, action), span)
        if obj.get("legal") is not None and obj["legal"] != names:
            raise RecordError(f"the legal actions offered were {', '.join(names)}; the record "
                              f"says {', '.join(map(str, obj['legal']))}", span)
        phase = st.phase
        st.apply_action(action)
        if phase not in (PLAY, LAYOUT):
            self._say(f"  {self._seat(seat):<6} {gd.action_to_string(action)}")
        self._take_events(None, span)

    def _take_events(self, deal_line: dict | None, span: Span) -> None:
        evs = self.state.events
        for ev in evs:
            if ev["type"] == "deal":
                if deal_line is not None and _canon(ev) != _canon(deal_line):
                    raise RecordError("the deal line does not match the pieces dealt", span)
                continue
            self.pending.append(ev)
        evs.clear()

    def _match_event(self, obj: dict, span: Span) -> None:
        if not self.pending:
            raise RecordError(f"a '{obj['type']}' line the engine did not produce here", span)
        ev = self.pending.pop(0)
        if _canon(ev) != _canon(obj):
            diff = [k for k in sorted(set(ev) | set(obj)) if ev.get(k) != obj.get(k)]
            k = diff[0]
            raise RecordError(f"the {ev['type']} line says {k} = {json.dumps(obj.get(k))}; the "
                              f"engine computes {json.dumps(ev.get(k))}", span)
        self._describe(ev)

    def _describe(self, ev: dict) -> None:
        t = ev["type"]
        if t == "contract":
            decl = ", ".join(f"{k} {value_str(v)}" for k, v in ev["declarations"].items())
            if ev["bidder"] < 0:
                self._say(f"  contract: {ev['contract']} (no auction)" + (f", {decl}" if decl else ""))
            else:
                self._say(f"  contract: {ev['contract']} ({ev['bid']}) by "
                          f"{self._seat(ev['bidder'])}" + (f", {decl}" if decl else ""))
        elif t == "trick":
            plays = "  ".join(f"{self._seat(s)} {p}" for s, p in ev["plays"])
            self._say(f"  trick {ev['n']}: {plays}  -> {self._seat(ev['winner'])} "
                      f"takes {ev['points']}")
        elif t == "hand":
            if ev.get("thrown_in"):
                self._say("  all passed: thrown in")
            elif "went_out" in ev:
                how = (f"{self._seat(ev['went_out'])} went out" if ev["went_out"] >= 0
                       else "blocked")
                self._say(f"  {how}: pips left {ev['pips_left']}, awarded {ev['marks']}; "
                          f"score {ev['score']}")
            else:
                self._say(f"  {'made' if ev['made'] else 'set'}: points {ev['points']}, "
                          f"awarded {ev['marks']}, after trick {ev['ended_after_trick']}; "
                          f"score {ev['score']}")
        elif t == "exchange":
            if "took" in ev:
                self._say(f"  {self._seat(ev['seat'])} takes the stock: {' '.join(ev['took'])}")
            else:
                self._say(f"  {self._seat(ev['seat'])} buries {ev['buried']}")
        elif t == "lay":
            lay = ev["layout"]
            arms = "".join(f"; {k} {lay[k]}" for k in ("north", "south") if k in lay)
            where = "sets down" if ev["on"] == "first" else f"lays on {ev['on']}:"
            self._say(f"  {self._seat(ev['seat']):<6} {where} {ev['piece']}   line {lay['line']}"
                      f"{arms}   ends {'+'.join(map(str, ev['ends']))}"
                      + (f" -> scores {ev['scored']} {ev['score']}" if ev["scored"] else ""))
        elif t == "draw":
            self._say(f"  {self._seat(ev['seat']):<6} draws {ev['piece']}")
        elif t == "knock":
            self._say(f"  {self._seat(ev['seat']):<6} knocks")
        elif t == "match":
            self.out.score = ev["score"]
            self.out.winner = ev["winner"]
            self._say(f"Game over: score {ev['score']}, winner side "
                      f"{' and '.join(map(str, ev['winner']))}")

    def finish(self, span: Span) -> None:
        if self.pending:
            raise RecordError(f"the record ends where the engine produced a "
                              f"'{self.pending[0]['type']}' line", span)
        if not self.state.is_terminal():
            raise RecordError("the game ends before the engine says the match is over", span)


def _canon(obj: dict) -> str:
    return json.dumps(obj, sort_keys=True)


def explain_illegal(st: State, action: int) -> str:
    """Why `action` is not legal now, in the game's own terms."""
    gd = st.game
    seat = gd.seat_names[st.current_player()]
    name = gd.action_to_string(action)
    legal = st.legal_actions()
    offered = ", ".join(gd.action_to_string(a) for a in legal)
    if st.phase == PLAY and 0 <= action < len(gd.pieces):
        if not st.hands[st.current_player()] >> action & 1:
            return f"{seat} cannot play {name}: {seat} does not hold it"
        t = st.tables
        if st.led >= 0 and t.must_follow and not t.follow_mask[st.led] >> action & 1:
            own = t.lead[action]
            own_suits = own if isinstance(own, tuple) else (own,)
            belongs = " or ".join(value_str(t.suits[i]) for i in own_suits)
            return (f"{seat} cannot play {name}: it belongs to suit {belongs}, "
                    f"{value_str(t.suits[st.led])} was led, and {seat} holds {offered}, "
                    "which follow")
        return f"{seat} cannot play {name} here; the legal plays are {offered}"
    return f"{name} is not legal for {seat} now; the legal actions are {offered}"
