"""Re-execute a JSON Lines game record through the engine, verifying it whole.

Every line is checked against schemas/record.schema.json for the header's version, then fed to
a fresh state; every game is also played again from its own seed with the header's agents and
must come out line for line the same; the header must agree with the games and promise exactly
the games the record holds (or its `end` line says why it holds fewer).
"""

from __future__ import annotations

import json
import shlex
import textwrap
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterator

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import best_match

from ..agents import AgentTextError, parse as parse_agent
from ..check.schema import load_schema
from ..definition import value_str
from ..engine.explain import led_words, suit_name
from ..engine.phases import PHASE_NAMES
from ..engine.state import DEAL, LAYOUT, PLAY, State
from ..errors import GameError, RecordError, Span, TablerulesError, listed
from ..game import Game, load_game
from ..load.ruleset import is_path_ref
from . import v1, v3
from .io import UNREADABLE, found_sources, gzip_problem, is_gzip, open_bytes
from .merge import shard_entry, shard_header
from .runner import FORMAT, PERSON, VERSION, game_seed, play_game

VERSIONS = (1, VERSION, v3.VERSION)
QUOTE = 200  # characters of a record's value quoted in a message at most
WIDTH = 99  # columns of the readable account at most
TAIL = 1 << 16  # bytes read from a plain record's end for its last line


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
    games: list[ReplayedGame] = field(default_factory=list)  # the first `keep` games shown
    verified: int = 0  # games verified, shown or not
    stopped: str | None = None  # "interrupted" when the run was stopped before all its games
    game: Game | None = None  # the game the record was replayed with (for views of it)
    first: int = 1  # the first game's number (a shard's record starts further on)
    promised: int = 0  # the games the header promises (a shard's: those it holds)


def cut(text: str, limit: int = QUOTE) -> str:
    """Text for a message, cut to `limit` characters."""
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def quote(value: Any, limit: int = QUOTE) -> str:
    """A value as JSON for a message, cut to `limit` characters."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return cut(text, limit)


def read_lines(path: str) -> Iterator[tuple[int, dict]]:
    """(line number, parsed object) for each non-blank line; a bad line is a located error.

    A name ending in `.gz` is read through gzip (records/io.py)."""
    try:
        f = open_bytes(path)
    except OSError as e:
        raise RecordError(f"cannot read record: {e.strerror or e}", Span(path, 0, 0)) from None
    with f:
        i = 0
        while True:
            try:
                raw = f.readline()
            except UNREADABLE as e:  # a damaged or cut-off gzip file
                raise RecordError(f"cannot read record: {gzip_problem(e)}",
                                  Span(path, i + 1, 1)) from None
            if not raw:
                return
            i += 1
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise RecordError(f"not UTF-8: byte 0x{raw[e.start]:02x} at column {e.start + 1}",
                                  Span(path, i, e.start + 1)) from None
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise RecordError(f"not JSON: {e.msg}", Span(path, i, e.colno)) from None
            except RecursionError:
                raise RecordError("not a record line: JSON nested too deeply",
                                  Span(path, i, 1)) from None
            if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
                raise RecordError("a record line is an object with a 'type' (a string)",
                                  Span(path, i, 1))
            yield i, obj


def last_line(path: str) -> dict | None:
    """The record's last line, unverified (None if it cannot be read): a streamed replay says
    before its games whether the run was stopped. A plain file is read from its end; a gzip one
    is read through (decompressing costs little beside verifying)."""
    try:
        with open_bytes(path) as f:
            if is_gzip(path):
                data = b""
                while chunk := f.read(TAIL):
                    data = data[-TAIL:] + chunk
            else:
                f.seek(max(0, f.seek(0, 2) - TAIL))
                data = f.read()
        tail = next((x for x in reversed(data.splitlines()) if x.strip()), b"")
        obj = json.loads(tail)
    except (*UNREADABLE, ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


# integers are integers: 10.0 is not 10, and true is not 1
_Validator = validators.extend(Draft202012Validator, type_checker=Draft202012Validator.TYPE_CHECKER
                               .redefine("integer", lambda _, x: type(x) is int))


@lru_cache(maxsize=None)
def _validator(name: str):
    defs = load_schema("record")["$defs"]
    return _Validator({"$ref": f"#/$defs/{name}", "$defs": defs}) if name in defs else None


# a schema's bound on a length or a count, as a record's error says it
_SIZES = {"minLength": "at least {n} character{s} long",
          "minItems": "a list of at least {n} item{s}",
          "maxItems": "a list of at most {n} item{s}"}


def check_line(obj: dict, version: int, span: Span) -> None:
    """The line against the schema of its kind in record format `version`."""
    t = obj["type"]
    name = f"v1_{t}" if version == 1 and t in v1.CHANGED else f"v3_{t}" \
        if version == 3 and t in ("hand", "partial") else t
    v = None if (version == 1 and t == "end") or (version == 3 and t not in v3.TYPES) \
        else _validator(name)
    if v is None or t.startswith(("v1_", "v3_")):
        raise RecordError(f"unknown line type {quote(t)} in record format version {version}"
                          + (" (the compact form: a hand line per deal)" if version == 3 else ""),
                          span)
    try:
        err = best_match(v.iter_errors(obj))
    except RecursionError:
        raise RecordError(f"the {t} line is nested too deeply", span) from None
    if err is None:
        return
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path)
    what = f"the {t} line's {where.lstrip('.')}" if where else f"the {t} line"
    if err.validator == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
        raise RecordError(f"{what} has an unknown field {quote(extra[0])}", span)
    if err.validator == "required":
        missing = [k for k in err.validator_value if k not in err.instance]
        raise RecordError(f"{what} has no {quote(missing[0])}", span)
    size = _SIZES.get(err.validator)
    if size is not None:  # a string's length or a list's: how many, in words
        n = err.validator_value
        raise RecordError(f"{what} is {quote(err.instance, 60)}; it must be "
                          f"{size.format(n=n, s='s' * (n != 1))}", span)
    expected = {"type": "of type", "const": "equal to", "enum": "one of",
                "pattern": "matching", "minimum": "at least"}.get(err.validator, err.validator)
    raise RecordError(f"{what} is {quote(err.instance, 60)}; it must be {expected} "
                      f"{quote(err.validator_value, 60)}", span)


def _version(head: dict, path: str, ln: int) -> int:
    v = head.get("version")
    if type(v) is int and v in VERSIONS:
        return v
    raise RecordError(f"record format version {quote(v, 40)} is not supported: this tablerules "
                      f"reads versions {', '.join(map(str, VERSIONS[:-1]))} and {VERSIONS[-1]} "
                      "(an integer)",
                      Span(path, ln, 1))


def replay(path: str, *, only_game: int | None = None, ruleset: str | None = None,
           on_game: Callable[[Replay, ReplayedGame], None] | None = None, keep: int | None = None,
           text: bool = True) -> Replay:
    """Verify a record whole; raises RecordError naming the line and the reason.

    The record streams: each game shown (every game, or `only_game`) goes to `on_game` as soon
    as it is verified, and Replay.games keeps the first `keep` of them (all without `on_game`,
    none with it). `text=False` builds no readable accounts (only verifies)."""
    if keep is None:
        keep = 0 if on_game is not None else -1
    lines = read_lines(path)
    ln, head, version = header_line(path, lines)
    game = header_game(head, path, ln, ruleset)
    out = Replay(head, game=game, promised=head["games"])
    if "shard" in head:  # simulate --shard K/N: its own games, numbered as in the run
        out.first, out.promised = _check_shard(head, Span(path, ln, 1))

    found = False  # whether `only_game` was seen
    stopped_in = None  # the game a person stopped in a hand (a `partial` line), verified so far

    def shown(g: ReplayedGame) -> None:
        """A game verified (or stopped in a hand, verified so far): out to the caller."""
        nonlocal found
        if g.number != only_game and only_game is not None:
            return
        found = True
        if keep < 0 or len(out.games) < keep:
            out.games.append(g)
        if on_game is not None:
            on_game(out, g)

    verifier = None
    end = None
    last = ln
    for ln, obj in lines:
        last = ln
        span = Span(path, ln, 1)
        # a line equal, byte for byte as JSON, to the one the game's seed plays is well formed
        if verifier is None or not verifier.is_next(obj):
            check_line(obj, version, span)
        t = obj["type"]
        if end is not None:
            raise RecordError(f"a '{t}' line after the record's 'end' line", span)
        if t in ("game", "end") and verifier is not None:
            if verifier.partial and t == "end" and obj.get("stopped") == "interrupted":
                shown(verifier.out)  # a person stopped it in a hand: verified as far as it goes
                stopped_in = verifier.out.number
            else:
                verifier.finish(span)
                out.verified += 1
                shown(verifier.out)
            verifier = None
        if t == "end":
            end = (obj, span)
            continue
        if t == "game":
            n = out.first + out.verified
            if obj["game"] != n:
                raise RecordError(f"game {obj['game']} where game {n} comes: a record holds its "
                                  "games in order, each once", span)
            want = game_seed(head["seed"], n - 1)
            if obj["seed"] != want:
                raise RecordError(f"game {n}'s seed is {quote(obj['seed'])}; the header's seed "
                                  f"{head['seed']} makes it {quote(want)}", span)
            skip = not text or only_game is not None and n != only_game
            verifier = _Verifier(game, ReplayedGame(n), path, skip, version, head)
            continue
        if verifier is None:
            raise RecordError(f"a '{t}' line before any 'game' line", span)
        verifier.line(obj, span)
    if verifier is not None:
        verifier.finish(Span(path, last + 1, 1))
        out.verified += 1
        shown(verifier.out)
    _check_count(head, out, end, version, Span(path, last + 1, 1))
    if only_game is not None and not found:
        n, first = out.verified, out.first
        holds = ("it holds none" if not n else f"it holds game {first}" if n == 1 else
                 f"it holds games {first} to {first + n - 1}")
        if stopped_in is not None:
            holds = (f"it holds game {stopped_in}, stopped in a hand" if not n else
                     f"{holds}, and game {stopped_in} stopped in a hand")
        raise NoSuchGame(only_game, holds, Span(path, 1, 1))
    return out


class NoSuchGame(RecordError):
    """The game asked for (`only_game`) is not in a record that verified: the asking is at
    fault, not the record (`holds`: "it holds games 1 to 3", what the record has instead)."""

    def __init__(self, number: int, holds: str, span: Span):
        super().__init__(f"the record has no game {number}: {holds}", span)
        self.number = number
        self.holds = holds


def header_line(path: str, lines: Iterator[tuple[int, dict]]) -> tuple[int, dict, int]:
    """The record's first line (taken from `lines`, read_lines(path)) as a header: a tablerules
    header, of a format version this tablerules reads, well formed for that version (the
    schema); (its line number, the header, the version). RecordError, located, if not."""
    try:
        ln, head = next(lines)
    except StopIteration:
        raise RecordError("the record is empty", Span(path, 1, 1)) from None
    if head.get("type") != "header" or head.get("format") != FORMAT:
        raise RecordError("the first line is not a tablerules record header", Span(path, ln, 1))
    version = _version(head, path, ln)
    check_line(head, version, Span(path, ln, 1))
    return ln, head, version


RULESET_HINT = "give it with --ruleset FILE"  # how replay's user names a record's ruleset


def header_game(head: dict, path: str, ln: int, ruleset: str | None,
                hint: str = RULESET_HINT) -> Game:
    """The game a well-formed header (header_line) names, loaded (`ruleset`, else its source)
    and agreeing with it: its hash and options, ruleset name, seats, sides and agents. `hint`:
    how the user names the ruleset when it cannot be loaded."""
    game = _game_for(head, path, ln, ruleset, hint)
    _check_header(head, game, Span(path, ln, 1))
    return game


def shard_game(path: str, ruleset: str | None = None) -> Game:
    """The game the shard at `path` was played with: `ruleset`, else the ruleset its header
    names, found as a record's is (_game_for). MergeError if `path` is not a shard;
    RecordError, located, if its ruleset cannot be loaded or is not the one named."""
    return _game_for(shard_header(path), path, 1, ruleset)


def _check_count(head: dict, out: Replay, end, version: int, after: Span) -> None:
    """The header promises the games the record holds, or the end line says why it holds fewer."""
    n, promised = out.verified, out.promised
    held = f"the record holds {n} game{'s' if n != 1 else ''}"
    if end is None:
        if version >= 2:
            raise RecordError(f"the record ends without its 'end' line: it was cut off after "
                              f"{n} of the {promised} games its header promises", after)
        if n != promised:
            raise RecordError(f"{held}; its header promises {promised}", after)
        return
    obj, span = end
    if obj["games"] != n:
        raise RecordError(f"the end line says the record holds {obj['games']} games; {held}", span)
    stopped = obj.get("stopped")
    if stopped == "fault":
        raise RecordError(f"the run stopped with an error in game {obj.get('game', n + 1)}: "
                          f"{cut(str(obj.get('error', 'unknown')))}", span)
    if stopped is None and n != promised:
        raise RecordError(f"{held}; its header promises {promised}", span)
    if stopped is not None and n >= promised:
        raise RecordError(f"the end line says the run was {stopped}, but {held}, all that its "
                          "header promises", span)
    out.stopped = stopped


def _check_shard(head: dict, span: Span) -> tuple[int, int]:
    """A shard's header (simulate --shard K/N) names games the run splits that way: (the first
    game's number, how many games the shard holds)."""
    shard, games = head["shard"], head["games"]
    k, n = shard["k"], shard["n"]
    if not k <= n or shard != shard_entry(games, k, n):
        want = shard_entry(games, k, n)
        raise RecordError(f"the header's shard {quote(shard, 80)} is not shard {k} of {n} of a "
                          f"run of {games} games" + (f" (games {want['first']} to {want['last']})"
                                                     if k <= n else ""), span)
    return shard["first"], shard["last"] - shard["first"] + 1


def _check_header(head: dict, game: Game, span: Span) -> None:
    """The header says what the games show: ruleset, seats, sides, agents."""
    gd = game.definition
    if head["ruleset"] != gd.name:
        raise RecordError(f"the header names ruleset {quote(head['ruleset'])}; its source "
                          f"{quote(head.get('source', head['ruleset']))} is {quote(gd.name)}", span)
    for key, want in (("seats", list(gd.seat_names)), ("sides", [list(s) for s in gd.sides])):
        if key in head and head[key] != want:
            raise RecordError(f"the header's {key} are {quote(head[key], 80)}; the game's are "
                              f"{quote(want)}", span)
    agents = head["agents"]
    if len(agents) != gd.seat_count:
        raise RecordError(f"the header names {len(agents)} agents for {gd.seat_count} seats", span)
    fd = head.get("first_dealer")  # simulate --first-dealer
    if fd is not None and not 0 <= fd < gd.seat_count:
        raise RecordError(f"the header's first_dealer is seat {fd}; the game's seats are 0 to "
                          f"{gd.seat_count - 1}", span)
    for a in agents:  # an agent text per seat, parameters included, as --agents takes it
        if a == PERSON:  # a seat a person played (tablerules play)
            continue
        try:
            parse_agent(a)
        except AgentTextError as e:
            raise RecordError(f"the header names agent {quote(a, 40)}: {e.message}", span) from None


def _game_for(head: dict, path: str, ln: int, ruleset: str | None,
              hint: str = RULESET_HINT) -> Game:
    """The game a header names: --ruleset, else the source it was made from (a file found from
    the record's folder, else from the working folder: io.found_sources; the first that is
    the ruleset the header's hash names)."""
    if ruleset is not None:
        return _named(head, path, ln, ruleset)
    src = head.get("source")
    found = found_sources(src, path) if isinstance(src, str) else []
    if not found and isinstance(src, str) and is_path_ref(src):
        raise RecordError(f"cannot load the record's ruleset {quote(src, 80)}: there is no such "
                          f"file from the record's folder nor from the working folder ({hint})",
                          Span(path, ln, 1))
    failed = None
    for ref in found or [src or head["ruleset"]]:
        try:
            return _loaded(head, path, ln, ref, hint)
        except RecordError as e:  # the likeliest one's error is said
            failed = failed or e
    raise failed


def _named(head: dict, path: str, ln: int, ruleset: str) -> Game:
    """The game the user named (--ruleset), said as theirs when it cannot be loaded or is a
    game of another ruleset than the record's, then checked as the record's own. Loaded once,
    with the record's options; only when that fails is it loaded with its own, to say which."""
    try:
        game = load_game(ruleset, head["options"])
    except TablerulesError as e:
        try:
            name = load_game(ruleset).definition.name  # with its own options: what game it is
        except TablerulesError as own:
            raise RecordError(f"cannot load --ruleset {quote(ruleset, 80)}: "
                              f"{own.diagnostics[0].message}", Span(path, ln, 1)) from None
        _same_ruleset(head, path, ln, ruleset, name)
        raise RecordError(f"cannot load the record's ruleset {quote(ruleset, 80)}: "
                          f"{e.diagnostics[0].message}", Span(path, ln, 1)) from None
    _same_ruleset(head, path, ln, ruleset, game.definition.name)
    return _matching(head, path, ln, ruleset, game)


def _same_ruleset(head: dict, path: str, ln: int, ruleset: str, name: str) -> None:
    if name != head["ruleset"]:
        raise RecordError(f"the record is a game of {quote(head['ruleset'], 80)}; --ruleset "
                          f"{quote(ruleset, 80)} is one of {name}", Span(path, ln, 1))


def _loaded(head: dict, path: str, ln: int, ref: str, hint: str) -> Game:
    """The game `ref` names with the header's options, if it is the one the header names (its
    hash and options); `hint`: how to name another when it cannot be loaded ("": it was named)."""
    try:
        game = load_game(ref, head["options"])
    except TablerulesError as e:
        raise RecordError(f"cannot load the record's ruleset {quote(ref, 80)}: "
                          f"{e.diagnostics[0].message}" + (f" ({hint})" if hint else ""),
                          Span(path, ln, 1)) from None
    return _matching(head, path, ln, ref, game)


def _matching(head: dict, path: str, ln: int, ref: str, game: Game) -> Game:
    """`game`, if it is the one the header names: its hash and options."""
    gd = game.definition
    options = head["options"]
    want = head["ruleset_hash"]
    if want != gd.content_hash:
        raise RecordError(f"the record was made with a different {quote(ref, 80)} (hash "
                          f"{quote(want, 40)}, now {gd.content_hash})", Span(path, ln, 1))
    if head["canonical"] != gd.canonical or options != gd.options:
        raise RecordError(f"the header's options do not match its game: it names "
                          f"{quote(head['canonical'], 80)}, its options make {gd.canonical}",
                          Span(path, ln, 1))
    return game


def side_name(gd, side: int) -> str:
    """A side by its seats' names: North-South."""
    sides = gd.sides
    if not (isinstance(side, int) and 0 <= side < len(sides)):
        return f"side {side}"
    return "-".join(gd.seat_names[s] for s in sides[side])


def by_side(gd, values: list) -> str:
    """Per-side numbers by the sides' names: North-South 3, East-West 0."""
    return ", ".join(f"{side_name(gd, s)} {v}" for s, v in enumerate(values))


def turn_text(deal: dict, seat_name) -> str:
    """After "Hand N: X deals": the seat whose turn it is to take the hand, when the ruleset
    has one (`deal.turn`), in the words of docs/ruleset-format.md (not "Y's turn": the seat to
    speak first is another)."""
    return f"; {seat_name(deal['turn'])}'s turn to take the hand" if "turn" in deal else ""


def contract_text(ev: dict, playing, seat_name, seats: int, said: dict | None = None) -> str:
    """A contract event as replay (and play) says it: `  contract: points (36) by East, trump 2`,
    `(no auction)` when nobody bid, and who sits out; `seat_name(s)`: a seat's name; `said`: the
    declarations' names for people (GameDef.declaration_names)."""
    said = said or {}
    decl = ", ".join(f"{said.get(k, k)} {value_str(v)}" for k, v in ev["declarations"].items())
    out = [seat_name(s) for s in range(seats) if s not in playing]
    rest = (f", {decl}" if decl else "") + (f"; {', '.join(out)} sits out" if out else "")
    if ev["bidder"] < 0:
        return f"  contract: {ev['contract']} (no auction){rest}"
    return f"  contract: {ev['contract']} ({ev['bid']}) by {seat_name(ev['bidder'])}{rest}"


class _Verifier:
    """Feeds one game's lines to a fresh state and compares what the engine says; then compares
    every line with the game its seed and the header's agents play."""

    def __init__(self, game: Game, out: ReplayedGame, path: str, skip: bool, version: int,
                 head: dict):
        self.game = game
        self.gd = game.definition
        self.out = out
        self.path = path
        self.skip = skip
        self.version = version
        self.first_dealer = head.get("first_dealer")  # simulate --first-dealer, else the ruleset's
        self.state = State(self.gd, record=True, first_dealer=self.first_dealer)
        self.pending: list[dict] = []  # events the engine produced, waiting for their lines
        self.held: str | None = None  # a decision's text, until the lines it causes are seen
        self.seed = game_seed(head["seed"], out.number - 1)
        self.agents = head["agents"]
        # a person's choices are in no seed: such a game is verified through the engine only
        self.expected = self._play(head) if PERSON not in self.agents else None
        self.partial = False  # a `partial` line was seen: the hand a person stopped in
        self.k = 0
        self.lead_tables = None  # the contract's tables, which the suit led is said under
        self.deals_of_hand: dict[int, int] = {}  # hand number -> deals so far (a throw-in redeals)

    def _play(self, head: dict) -> list[dict]:
        """The lines the header's agents play from this game's seed (up to a fault, if any)."""
        lines: list[dict] = []
        try:
            play_game(self.game, self.agents, head["seed"], self.out.number - 1,
                      emit=lines.append, decisions="action" if self.version == 3 else True,
                      first_dealer=self.first_dealer)
        except GameError as e:
            lines.append({"type": "fault", "error": e.message})
        if self.version == 1:
            return [v1.to_v1(x) for x in lines]
        return v3.compact(lines) if self.version == 3 else lines

    def is_next(self, obj: dict) -> bool:
        """Whether `obj` is the next line the header's agents play from the game's seed."""
        k = self.k
        return self.expected is not None and k < len(self.expected) and \
            _same(self.expected[k], obj)

    def _as_played(self, obj: dict, span: Span) -> None:
        """The line is the next one the header's agents play from the game's seed."""
        if self.expected is None:
            return
        k = self.k
        self.k += 1
        want = self.expected[k] if k < len(self.expected) else {"type": "match end"}
        if _same(want, obj):
            return
        who = f"game {self.out.number} is not the game its seed {quote(self.seed)} and the " \
              f"header's agents ({', '.join(self.agents)}) play"
        t = obj["type"]
        if want["type"] == "fault":
            raise RecordError(f"{who}: they stop here with an error: {cut(want['error'])}",
                              span)
        if want["type"] != t:
            raise RecordError(f"{who}: a {want['type']} line comes here, not a {t} line", span)
        if t == "decision":
            raise RecordError(f"{who}: here they {quote(want['action'])}, the record says "
                              f"{quote(obj['action'])}", span)
        if t == "deal":
            self._seed_deals(want, obj, span, who)
        k = next(k for k in sorted(set(want) | set(obj)) if want.get(k) != obj.get(k))
        raise RecordError(f"{who}: the {t} line's {k} is {quote(want.get(k), 80)} there, "
                          f"{quote(obj.get(k), 80)} here", span)

    def _seed_deals(self, want: dict, obj: dict, span: Span, who: str, hint: str = "") -> None:
        """The deal (a deal line's, a compact hand line's) is the one the game's seed deals
        here (`want`'s), else a RecordError says to whom it deals otherwise."""
        key = "dealt" if "dealt" in want else "hands"
        for seat, (a, b) in enumerate(zip(want[key], obj[key])):
            if a != b:
                raise RecordError(f"{who}: the seed deals {self._seat(seat)} {' '.join(a)}, "
                                  f"the record {cut(' '.join(map(str, b)), 80)}{hint}", span)
        if want.get("stock", []) != obj.get("stock", []):
            raise RecordError(f"{who}: the seed deals the stock "
                              f"{' '.join(want.get('stock', []))}{hint}", span)

    def _say(self, text: str) -> None:
        if self.skip:
            return
        indent = " " * (len(text) - len(text.lstrip(" ")))
        self.out.text.extend(textwrap.wrap(text, WIDTH, initial_indent="", subsequent_indent=indent + "    ",
                                           break_long_words=False, break_on_hyphens=False,
                                           drop_whitespace=True) if len(text) > WIDTH else [text])

    def _flush(self) -> None:
        if self.held is not None:
            self._say(self.held)
            self.held = None

    def line(self, obj: dict, span: Span) -> None:
        t = obj["type"]
        if t == "deal":
            self._deal(obj, span)
            self._as_played(obj, span)
            return
        if t == "hand" and self.version >= 3:
            self._hand(obj, span)
            self._as_played(obj, span)
            return
        if t == "partial":
            self._partial(obj, span)
            return
        if t == "decision":
            self._decision(obj, span)
            self._as_played(obj, span)
            return
        self._match_event(obj, span)
        self._as_played(obj, span)

    def _deal(self, obj: dict, span: Span) -> None:
        """A deal line (or a compact hand line's deal): the pieces dealt, checked and applied."""
        st = self.state
        gd = self.gd
        self._flush()
        if self.pending:
            raise RecordError(f"the engine expected a '{self.pending[0]['type']}' line here",
                              span)
        if st.is_terminal():  # a line of the next game's before its game line, say
            raise RecordError(f"hand {quote(obj.get('hand'), 20)}'s deal after game "
                              f"{self.out.number} is over: a 'game' line or the 'end' line "
                              "comes here (the record's lines out of order?)", span)
        if st.phase != DEAL:
            raise RecordError("a deal where the engine expects a decision by "
                              f"{self._seat(st.current_player())}", span)
        dealt = obj["dealt" if self.version >= 2 else "hands"]
        if len(dealt) != gd.seat_count:
            raise RecordError(f"bad deal: {len(dealt)} hands for {gd.seat_count} seats", span)
        try:
            hands = [tuple(self._piece(p, span) for p in h) for h in dealt]
            stock = tuple(self._piece(p, span) for p in obj.get("stock", []))
            if st.by_lot:
                st.apply_action(obj.get("dealer"))  # the first dealer, drawn by lot
            st.apply_deal(tuple(hands) + ((stock,) if gd.stock else ()))
        except GameError as e:
            raise RecordError(f"bad deal: {e.message}", span) from None
        self._take_events(obj, span)
        n = self.deals_of_hand[obj["hand"]] = self.deals_of_hand.get(obj["hand"], 0) + 1
        again = f", deal {n}" if n > 1 else ""  # the deal before it was thrown in
        self._say(f"Hand {obj['hand']}{again}: {self._seat(obj['dealer'])} deals"
                  f"{turn_text(obj, self._seat)}")
        for s, h in enumerate(dealt):
            self._say(f"  {self._seat(s):<6} {' '.join(h)}")
        if obj.get("stock"):
            self._say(f"  {'stock':<6} {' '.join(obj['stock'])}")

    def _line_deal(self, obj: dict, span: Span) -> list[dict]:
        """The deal a compact hand line or a partial line starts with, dealt and told: the full
        lines so far (the deal alone)."""
        full = [{"type": "deal", **{k: obj[k] for k in ("hand", "dealer", "turn", "dealt", "stock")
                                    if k in obj}}]
        self._deal(full[0], span)
        self._told(full)
        return full

    def _act(self, name: str, span: Span, over: str) -> dict:
        """One action of a compact line, applied as the decision of the seat to move (`over`:
        what to say if the hand is already over); the decision line it stands for, with its
        action alone (the legal actions are the engine's own, so there is nothing to compare)."""
        st = self.state
        if self.pending and self.pending[0]["type"] == "hand" or st.phase == DEAL \
                or st.is_terminal():
            raise RecordError(over, span)
        decision = {"type": "decision", "phase": PHASE_NAMES[st.phase],
                    "seat": st.current_player(), "action": name}
        self._decision(decision, span)
        return decision

    def _hand(self, obj: dict, span: Span) -> None:
        """A compact (version 3) hand line: its deal and its actions go through the state, one
        decision at a time, and what the engine then says of the hand must be what the line says."""
        st = self.state
        full = self._line_deal(obj, span)
        actions = obj["actions"]
        for i, name in enumerate(actions):
            full.append(self._act(name, span, f"the hand line has {len(actions)} actions; the "
                                              f"hand was over after {i}"))
            self._told(full)
        self._flush()
        got = v3.compact(full)
        if not got:
            raise RecordError(f"the hand line's actions end before the hand does: "
                              f"{self._seat(st.current_player())} is to act in the "
                              f"{PHASE_NAMES[st.phase]}", span)
        want = got[-1]
        if not _same(want, obj):
            seed = self.expected[self.k] if self.expected and self.k < len(self.expected) else {}
            if seed.get("type") == "hand":  # a hand of another game, or one changed
                self._seed_deals(seed, obj, span, f"hand {obj['hand']} of game "
                                 f"{self.out.number} is not the one its seed {quote(self.seed)} "
                                 "deals", " (a line of another game?)")
            k = next(k for k in list(want) + list(obj) if not _same(want.get(k), obj.get(k)))
            raise RecordError(f"the hand line says {k} = {quote(obj.get(k), 80)}; the engine "
                              f"computes {quote(want.get(k), 80)}", span)

    def _partial(self, obj: dict, span: Span) -> None:
        """A `partial` line (the hand a person stopped in, `tablerules play`): its deal and its
        actions go through the state, each legal; it must be the game's last line but `end`."""
        if self.partial:
            raise RecordError("a second 'partial' line: only the hand in progress has one", span)
        full = self._line_deal(obj, span)
        for name in obj["actions"]:
            self._act(name, span, "the partial line goes on after its hand is over")
            self._told(full)
        self._flush()
        if self.pending and self.pending[0]["type"] == "hand":
            raise RecordError("the partial line holds a whole hand: it is a hand line", span)
        self.partial = True
        self._say("  (the game stopped here, in the hand; `tablerules play --resume "
                  f"{shlex.quote(self.path)}` continues it)")

    def _told(self, full: list[dict]) -> None:
        """The engine's lines so far of a compact hand line, said in the account (a match line
        waits for its own line)."""
        while self.pending and self.pending[0]["type"] != "match":
            ev = self.pending.pop(0)
            full.append(ev)
            self._tell(ev)

    def _piece(self, name: str, span: Span) -> int:
        a = self.gd.string_to_action(name)
        if a is None or a >= len(self.gd.pieces):
            raise RecordError(f"no piece {quote(name, 40)} in this set", span)
        return a

    def _seat(self, s: Any) -> str:
        names = self.gd.seat_names
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else f"seat {s}"

    def _decision(self, obj: dict, span: Span) -> None:
        st = self.state
        gd = self.gd
        self._flush()
        if self.pending:
            raise RecordError(f"the engine expected a '{self.pending[0]['type']}' line here", span)
        if st.phase == DEAL or st.is_terminal():
            raise RecordError("a decision where the engine expects "
                              + ("a deal" if st.phase == DEAL else "the end of the game"), span)
        seat = obj["seat"]
        if seat != st.current_player():
            raise RecordError(f"the decision is {self._seat(seat)}'s, but it is "
                              f"{self._seat(st.current_player())}'s turn", span)
        legal = st.legal_actions()
        action = gd.string_to_action(obj["action"])
        if action is None:
            raise RecordError(f"{quote(obj['action'], 60)} is not an action of this game", span)
        if action not in legal:
            raise RecordError(explain_illegal(st, action), span)
        if "legal" in obj:  # a full record's decision line names them; a compact line's does not
            names = [gd.action_to_string(a) for a in legal]
            if obj["legal"] != names:
                raise RecordError(f"the legal actions offered were {', '.join(names)}; the "
                                  f"record says {cut(', '.join(obj['legal']))}", span)
        phase = st.phase
        if self.version >= 2:
            if obj["phase"] != PHASE_NAMES[phase]:
                raise RecordError(f"the decision's phase is {quote(obj['phase'])}; the engine is "
                                  f"in {PHASE_NAMES[phase]}", span)
        st.apply_action(action)
        if phase not in (PLAY, LAYOUT):
            self.held = f"  {self._seat(seat):<6} {gd.action_label(action)}"
        self._take_events(None, span)

    def _take_events(self, deal_line: dict | None, span: Span) -> None:
        evs = self.state.events
        for ev in evs:
            if self.version == 1:
                ev = v1.to_v1(ev)
            if ev["type"] == "contract":  # a contract of one suit: no suit led worth saying
                self.lead_tables = self.state.tables
            if ev["type"] == "deal":
                if deal_line is not None and not _same(ev, deal_line):
                    raise RecordError(self._not_this_deal(ev, deal_line), span)
                continue
            self.pending.append(ev)
        evs.clear()

    def _not_this_deal(self, ev: dict, line: dict) -> str:
        """What is wrong with a deal the engine, given its pieces, tells otherwise: a hand's
        line where another's comes (lines out of order), or the field that differs."""
        g = self.out.number
        if not _same(ev.get("hand"), line.get("hand")):
            return (f"hand {quote(line.get('hand'), 20)}'s deal where game {g}'s hand "
                    f"{ev['hand']} comes: a game's hands are in order, each once (the record's "
                    "lines out of order?)")
        k = next(k for k in sorted(set(ev) | set(line)) if not _same(ev.get(k), line.get(k)))
        return (f"hand {ev['hand']}'s deal says {k} = {quote(line.get(k), 80)}; the engine, "
                f"dealing game {g}'s hand {ev['hand']}, says {quote(ev.get(k), 80)}")

    def _match_event(self, obj: dict, span: Span) -> None:
        if not self.pending:
            self._flush()
            raise RecordError(f"a '{obj['type']}' line the engine did not produce here", span)
        ev = self.pending.pop(0)
        if not _same(ev, obj):
            diff = [k for k in sorted(set(ev) | set(obj)) if ev.get(k) != obj.get(k)]
            k = diff[0] if diff else "type"
            raise RecordError(f"the {ev['type']} line says {k} = {quote(obj.get(k), 80)}; the "
                              f"engine computes {quote(ev.get(k), 80)}", span)
        self._tell(ev if self.version >= 2 else obj)

    def _tell(self, ev: dict) -> None:
        """An engine line in the account, after the decision that caused it."""
        if ev["type"] == "exchange" and "buried" in ev:
            self.held = None  # the decision said it: bury once
        self._flush()
        self._describe(ev)

    def _describe(self, ev: dict) -> None:
        gd = self.gd
        t = ev["type"]
        v2 = self.version >= 2
        if t == "contract":
            self._say(contract_text(ev, ev["playing" if v2 else "seats"], self._seat,
                                    gd.seat_count, gd.declaration_names))
        elif t == "trick":
            plays = "  ".join(f"{self._seat(s)} {p}" for s, p in ev["plays"])
            led = led_words(gd, self.lead_tables, ev["led"])
            self._say(f"  trick {ev['n']}{led}: {plays}  -> "
                      f"{self._seat(ev['winner'])} takes {ev['points']}")
        elif t == "hand":
            scored = ev.get("scored", ev.get("marks"))
            if ev.get("thrown_in"):
                self._say("  all passed: thrown in")
            elif "went_out" in ev:
                how = (f"{self._seat(ev['went_out'])} went out" if ev["went_out"] >= 0
                       else "blocked" if ev["blocked"] else "not played out")
                if ev.get("cut_short"):
                    how += ", the match is won"
                self._say(f"  {how}: pips left {by_side(gd, ev['pips_left'])}")
                self._say(f"  scored {by_side(gd, scored)}; score {by_side(gd, ev['score'])}")
            else:
                self._say(f"  {'made' if ev['made'] else 'set'} after trick "
                          f"{ev['ended_after_trick']}: points {by_side(gd, ev['points'])}")
                self._say(f"  scored {by_side(gd, scored)}; score {by_side(gd, ev['score'])}")
            if "with_bidder" in ev:
                side = ev["with_bidder"]
                others = [x for x in range(gd.seat_count) if x not in side]
                self._say(f"  sides: {listed([self._seat(x) for x in side])} against "
                          f"{listed([self._seat(x) for x in others])}")
            if ev.get("report"):
                self._say("  " + ", ".join(f"{k.replace('_', ' ')} {v}"
                                           for k, v in ev["report"].items()))
            if "chips" in ev:
                self._paid(ev)
        elif t == "exchange":
            if "took" in ev:
                self._say(f"  {self._seat(ev['seat'])} takes the stock: {' '.join(ev['took'])}")
            else:
                self._say(f"  {self._seat(ev['seat'])} buries {ev['buried']}")
        elif t == "lay":
            from ..engine.events import ends_text  # each end as the layout rules count it
            lay = ev["layout"]
            arms = "".join(f"; {k} {v}" for k, v in lay.items() if k != "line")  # spinner arms
            where = "sets down" if ev["on"] == "first" else f"lays on {ev['on']}:"
            score = f"  -> scores {ev['scored']}; score {by_side(gd, ev['score'])}" \
                if ev["scored"] else ""
            if ev["scored"] and self._claims():
                score = f"  -> counts {ev['scored']}"  # the claim line says who scores it
            self._say(f"  {self._seat(ev['seat']):<6} {where} {ev['piece']}   ends "
                      f"{ends_text(gd, ev)}{score}")
            self._say(f"         line {lay['line']}{arms}")
        elif t == "claim":
            passed = ", ".join(self._seat(s) for s in ev["passed"])
            passed = f" ({passed} passed)" if passed else ""
            if ev["seat"] < 0:
                self._say(f"         nobody claims the count{passed}: it is lost")
            else:
                self._say(f"         {self._seat(ev['seat'])} claims {ev['scored']} for "
                          f"{side_name(gd, ev['side'])}{passed}; score {by_side(gd, ev['score'])}")
        elif t == "draw":
            self._say(f"  {self._seat(ev['seat']):<6} draws {ev['piece']}")
        elif t == "knock":
            self._say(f"  {self._seat(ev['seat']):<6} knocks")
        elif t == "match":
            self.out.score = ev["score"]
            self.out.winner = ev["winner"]
            won = " and ".join(side_name(gd, s) for s in ev["winner"])
            result = f"chips {self.chips_text(ev['chips'])}" if "chips" in ev \
                else f"score {by_side(gd, ev['score'])}"
            self._say(f"Game over: {result}; {won} win{'s' if len(ev['winner']) == 1 else ''}")

    def _paid(self, ev: dict) -> None:
        """Who paid whom for what in a hand, then every seat's chips."""
        for p in ev["paid"]:
            self._say(f"  {self._seat(p['from'])} pays {self._seat(p['to'])} {p['chips']} "
                      f"chip{'' if p['chips'] == 1 else 's'} ({p['for']})")
        self._say(f"  chips {self.chips_text(ev['chips'])}")

    def chips_text(self, chips: list) -> str:
        return ", ".join(f"{self._seat(s)} {c}" for s, c in enumerate(chips))

    def _claims(self) -> bool:
        """Whether the contract in play scores a lay's count only when claimed."""
        c = self.state.ctx.contract
        lay = self.gd.contracts[c].play.layout if c >= 0 else None
        return lay is not None and lay.claim

    def finish(self, span: Span) -> None:
        self._flush()
        if self.pending:
            raise RecordError(f"the record ends where the engine produced a "
                              f"'{self.pending[0]['type']}' line", span)
        if not self.state.is_terminal():
            raise RecordError("the game ends before the engine says the match is over", span)


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values: 10.0 is not 10 and true is not 1 (Python's == says they are)."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return a.keys() == b.keys() and all(_same(v, b[k]) for k, v in a.items())
    if type(a) is list:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


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
        if st.led >= 0 and t.must_follow and t.tiers \
                and not st.hands[st.current_player()] & t.follow_mask[st.led]:
            return (f"{seat} cannot play {name}: {suit_name(gd, t.suits[st.led])} was led, "
                    f"{seat} holds none of it, and the next rule to follow allows only {offered}")
        if st.led >= 0 and t.must_follow and not t.follow_mask[st.led] >> action & 1:
            own = t.lead[action]
            own_suits = own if isinstance(own, tuple) else (own,)
            belongs = " or ".join(suit_name(gd, t.suits[i]) for i in own_suits)
            return (f"{seat} cannot play {name}: it belongs to suit {belongs}, "
                    f"{suit_name(gd, t.suits[st.led])} was led, and {seat} holds {offered}, "
                    "which follow")
        return f"{seat} cannot play {name} here; the legal plays are {offered}"
    return f"{name} is not legal for {seat} now; the legal actions are {offered}"
