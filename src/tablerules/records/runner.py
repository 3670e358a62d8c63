"""Play matches with agents, collect a summary, and write JSON Lines game records."""

from __future__ import annotations

import json
import math
import random
import shlex
import signal
from contextlib import contextmanager
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import IO, Callable, Iterable, Iterator

from ..agents import canonical, make_agent
from ..engine import events as record_lines
from ..engine.state import DEAL, DONE, State
from ..errors import GameError
from ..definition import value_str
from ..game import Game, load_game
from ..interpreter.options import is_count
from . import v3
from .io import source_for

FORMAT = "tablerules-record"
VERSION = 2  # the full form (`--record-detail full`); the compact form is records/v3.py's
DETAILS = ("compact", "full")  # how much a record keeps: version 3, or version 2
PERSON = "person"  # a header's agent for a seat a person played (`tablerules play`)


def game_seed(seed: int, game: int) -> str:
    """The seed text of one game of a run: independent of how many games run before it."""
    return f"{seed}:{game}"


def deal_rng(seed: int, game: int) -> random.Random:
    """The random source of the deals of game `game` of a run seeded `seed` (play_game's; play
    and show deal from it too, so that they deal what simulate deals)."""
    return random.Random(game_seed(seed, game) + ":deal")


Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a rate k/n (95% by default); None when n is 0.

    Wilson rather than the normal approximation: it stays inside 0..1 and is honest for rates
    near 0 or 1 and for small n, where make rates by bid often are.
    """
    if n <= 0:
        return None
    p = k / n
    zz = z * z
    mid = (p + zz / (2 * n)) / (1 + zz / n)
    half = z * math.sqrt(p * (1 - p) / n + zz / (4 * n * n)) / (1 + zz / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def rate(made: float, n: int) -> dict:
    """A rate with its 95% Wilson interval, rounded for reports: made, hands, rate, ci."""
    ci = wilson(made, n)
    return {"made": made, "hands": n, "rate": round(made / n, 4) if n else None,
            "ci": [round(ci[0], 4), round(ci[1], 4)] if ci else None}


def percent(k: float, n: int) -> str:
    """k of n as a percentage to one decimal, rounded once, from the counts ("-" when n is 0).
    A rate's figure in a summary's JSON is rounded to four places: rounded again to one
    decimal it can be 0.1 off (27 of 38 is 71.05%: 0.7105 prints 71.0%), and a rate and its
    set rate then do not add up to 100%."""
    return f"{k / n:.1%}" if n else "-"


def interval(k: float, n: int) -> str:
    """The 95% Wilson interval of k of n as printed, from the counts ("-" when n is 0)."""
    ci = wilson(k, n)
    return f"{ci[0]:.1%} to {ci[1]:.1%}" if ci else "-"


def games_won(wins: int, draws: int) -> float:
    """Games won, a draw counting half (a comparison's win rate and its interval are of it)."""
    return wins + draws / 2


def made_n() -> list:
    """A new [made, n] row of a summary's table (a function of the module: a summary a worker
    folded is pickled back to the parent)."""
    return [0, 0]


def add_rows(into: dict, rows: dict) -> None:
    """Add a table of [made, n] rows (by label) to another (a defaultdict of made_n)."""
    for k, (made, n) in rows.items():
        row = into[k]
        row[0] += made
        row[1] += n


@dataclass
class Summary:
    """What happened over a run of games."""

    games: int = 0
    hands: int = 0
    thrown_in: int = 0
    decisions: int = 0
    contracts: Counter = field(default_factory=Counter)
    bids: dict = field(default_factory=lambda: defaultdict(made_n))  # label -> [made, n]
    by_contract: dict = field(default_factory=lambda: defaultdict(made_n))  # bid hands
    scored_total: int = 0  # what every side scored, over every hand played
    side_wins: Counter = field(default_factory=Counter)
    sides: int = 0
    first_dealer: int | str = 0  # the seat that dealt first, or "lot" (deal.first_dealer)
    interrupted: bool = False
    # with scoring.chips, each seat's final chips over the matches as running figures (not a
    # list per match, so a long run keeps flat memory): [sum, min, max, matches below zero]
    chips: list = field(default_factory=list)
    chip_matches: int = 0
    chips_moved: int = 0  # chips paid over every hand played
    # distributions for a report (simulate --report), as counts of values, so flat in memory:
    # what one side scored in one hand (every side, every hand), the points the side that won
    # the auction took in its hand, and the deals a match lasted
    side_of: tuple = ()  # the side of each seat (new_summary), to find the bidding side
    scored_counts: Counter = field(default_factory=Counter)
    bidder_points: Counter = field(default_factory=Counter)
    match_deals: Counter = field(default_factory=Counter)

    def add_hand(self, ev: dict) -> None:
        if ev.get("thrown_in"):
            self.thrown_in += 1
            return
        self.hands += 1
        counts = self.scored_counts
        for v in ev["scored"]:  # cheaper than Counter.update for a few sides
            counts[v] += 1
        bidder = ev.get("bidder", -1)
        if bidder >= 0 and self.side_of and "points" in ev:
            self.bidder_points[ev["points"][self.side_of[bidder]]] += 1
        self.contracts[ev["contract"]] += 1
        b = self.bids[bid_row(ev)]
        b[1] += 1
        b[0] += 1 if ev["made"] else 0
        if ev["bid"] != NO_BID:
            c = self.by_contract[ev["contract"]]
            c[1] += 1
            c[0] += 1 if ev["made"] else 0
        self.scored_total += sum(ev["scored"])
        self.chips_moved += ev["chips_paid"] if "chips_paid" in ev else sum(
            p["chips"] for p in ev.get("paid", ()))  # a compact (version 3) line: the total

    def add_chips(self, chips: list) -> None:
        """A chips match's final chips, seat by seat, into the running figures."""
        if not self.chips:
            self.chips = [[0, c, c, 0] for c in chips]
        for row, c in zip(self.chips, chips):
            row[0] += c
            row[1] = min(row[1], c)
            row[2] = max(row[2], c)
            row[3] += c < 0
        self.chip_matches += 1

    def absorb(self, other: "Summary") -> None:
        """Add `other`, a summary of other games of the same run, to this one: every count is a
        sum and the chips' figures a sum, a min and a max, so the games' order does not matter
        (a batch run's workers fold their own matches)."""
        for name in ("games", "hands", "thrown_in", "decisions", "scored_total", "chip_matches",
                     "chips_moved"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for mine, theirs in ((self.contracts, other.contracts), (self.side_wins, other.side_wins),
                             (self.scored_counts, other.scored_counts),
                             (self.bidder_points, other.bidder_points),
                             (self.match_deals, other.match_deals)):
            mine.update(theirs)
        add_rows(self.bids, other.bids)
        add_rows(self.by_contract, other.by_contract)
        if other.chips and not self.chips:
            self.chips = [[0, lo, hi, 0] for _, lo, hi, _ in other.chips]
        for row, (total, lo, hi, below) in zip(self.chips, other.chips):
            row[0] += total
            row[1] = min(row[1], lo)
            row[2] = max(row[2], hi)
            row[3] += below
        self.interrupted = self.interrupted or other.interrupted

    def as_dict(self) -> dict:
        d = self._as_dict()
        if any(v < 0 for v in self.scored_counts):  # a side can lose what another gains (chips):
            # the sum of all sides (avg_scored_per_hand) is near 0 and says little; what the
            # sides with a score above 0 gained does
            gained = sum(v * c for v, c in self.scored_counts.items() if v > 0)
            d["avg_gained_per_hand"] = round(gained / self.hands, 4) if self.hands else 0.0
        if self.chips:  # a chips match: what each seat ended with
            n = self.chip_matches
            d["chips_by_seat"] = {str(s): {"mean": round(total / n, 2), "min": lo, "max": hi,
                                           "below_zero": below}
                                  for s, (total, lo, hi, below) in enumerate(self.chips)}
            d["avg_chips_paid_per_hand"] = round(self.chips_moved / self.hands, 4) \
                if self.hands else 0.0
        return d

    def _as_dict(self) -> dict:
        return {
            "games": self.games,
            "first_dealer": self.first_dealer,
            "hands": self.hands,
            "thrown_in": self.thrown_in,
            "decisions": self.decisions,
            "contracts": dict(sorted(self.contracts.items())),
            # hands won in an auction: a game without one (bid "none") has no make rate
            "make_rate_by_bid": {k: rate(*v) for k, v in
                                 sorted(self.bids.items(), key=lambda kv: _bid_key(kv[0]))
                                 if k != NO_BID},
            "make_rate_by_contract": {k: rate(*v) for k, v in sorted(self.by_contract.items())},
            "make_rate": self._make_rate(),
            "avg_scored_per_hand": round(self.scored_total / self.hands, 4) if self.hands else 0.0,
            # the same per side, as compare's scored_per_hand is
            "avg_scored_per_hand_per_side": round(self.scored_total / (self.hands * self.sides), 4)
            if self.hands and self.sides else 0.0,
            "wins_by_side": {str(s): self.side_wins.get(s, 0) for s in range(self.sides)},
            "win_rate_by_side": {str(s): round(self.side_wins.get(s, 0) / self.games, 4)
                                 if self.games else 0.0 for s in range(self.sides)},
        }

    def distributions(self) -> dict:
        """The report's distributions, value -> count in value order (not in `as_dict`, so the
        summary printed and its JSON stay as they were)."""
        return {"scored_by_a_side_per_hand": dict(sorted(self.scored_counts.items())),
                "points_of_the_bidding_side": dict(sorted(self.bidder_points.items())),
                "deals_per_match": dict(sorted(self.match_deals.items()))}

    def _make_rate(self) -> dict:
        made = sum(v[0] for k, v in self.bids.items() if k != NO_BID)
        n = sum(v[1] for k, v in self.bids.items() if k != NO_BID)
        return rate(made, n)


NO_BID = "none"  # the label of "no bid": the hands of a game without an auction


FORCED = " (forced)"  # a bid row's suffix when a seat that could not pass made it


def bid_row(ev: dict) -> str:
    """The row of a hand's bid in the make-rate tables: a forced bid (the record's `forced`) is
    not a choice, so it has its own row."""
    return ev["bid"] + FORCED if ev.get("forced") else ev["bid"]


def _bid_key(label: str):
    forced = label.endswith(FORCED)
    base = label[:-len(FORCED)] if forced else label
    name, _, level = base.rpartition(" ")
    number = level[1:] if level.startswith("-") else level
    return (forced, (name, int(level)) if is_count(number) else (base, 0))


def play_game(game: Game, agent_names: list[str], seed: int, index: int, *,
              record: bool = True, emit: Callable[[dict], None] | None = None,
              decisions: bool | str = True, until: Callable[[dict], bool] | None = None,
              first_dealer: int | None = None,
              on_hand: Callable[[State], None] | None = None,
              deal_as: tuple[int, ...] | None = None) -> State:
    """Play game `index` of a run seeded `seed`: the one match driver of simulate, validate and
    compare.

    `agent_names` are agent texts (`NAME[:PARAM=VALUE...]`) by seat, repeated when fewer;
    `first_dealer` (a seat) overrides the ruleset's `deal.first_dealer`. Every record line goes
    to `emit` (decisions, deals, tricks, hands; `decisions="action"`: a decision line holds only
    its action, all a compact record keeps of it); `until(event)` returning
    true stops the match early; `on_hand(state)` is called as each hand ends (its result is
    `state.hand_result()`, with or without `record`); `deal_as`: the deals are another game's
    of the same pieces numbered otherwise, each of its pieces this game's `deal_as[i]`
    (compare's B, dealt A's cards). The state bounds every hand (bounds.max_steps) and the match
    (bounds.max_hands), so this loop always ends.
    """
    gd = game.definition
    base = game_seed(seed, index)
    deals = deal_rng(seed, index)
    agents = [make_agent(agent_names[s % len(agent_names)], random.Random(f"{base}:seat{s}"), gd)
              for s in range(gd.seat_count)]
    st = State(gd, record=record, first_dealer=first_dealer)
    events = st.events
    last = None
    while st.phase != DONE:
        if st.phase == DEAL:
            st.deal_random(deals, deal_as)
        else:
            seat = st.actor
            legal = st.legal_actions()
            a = agents[seat].act(seat, legal, st.observer(seat))
            if decisions and emit is not None:
                emit(record_lines.decision(st, seat, a, legal) if decisions is True
                     else {"type": "decision", "action": gd.action_to_string(a)})
            st.apply_action(a)
        if on_hand is not None and st.last_hand is not last:
            last = st.last_hand
            on_hand(st)
        if events:
            stop = False
            for ev in events:
                if emit is not None:
                    emit(ev)
                if until is not None and until(ev):
                    stop = True
            events.clear()
            if stop:
                break
    return st


def seat_agents(agent_names: list[str], seats: int) -> list[str]:
    """Each seat's agent as a record keeps it (its canonical text): `agent_names` is one for
    every seat, or one a seat."""
    return [canonical(agent_names[s % len(agent_names)]) for s in range(seats)]


def seats_text(agents: list[str]) -> str:
    """One agent for every seat as its name alone, else the agent of each seat."""
    return agents[0] if len(set(agents)) == 1 else ",".join(agents)


def reproduce(game: Game, agents: list[str], seed: int, index: int,
              first_dealer: int | None = None) -> str:
    """The `simulate` command that plays game `index` of a run seeded `seed` alone, with
    `agents` (one for every seat, or one a seat): the same game seed and so the same deals and
    the agents' draws (the last of `index + 1` shards of one game each), `first_dealer` where
    the run gave one, and the options that are not the ruleset's own."""
    gd = game.definition
    own = load_game(game.ref).definition.options
    words = ["tablerules", "simulate", game.ref, "--seed", str(seed), "--games", str(index + 1)]
    if index:
        words += ["--shard", f"{index + 1}/{index + 1}"]
    if first_dealer is not None:
        words += ["--first-dealer", str(first_dealer)]
    words += ["--agents", seats_text(list(agents))]
    for k, v in sorted(gd.options.items()):
        if k not in own or own[k] != v:
            words += ["-o", f"{k}={value_str(v)}"]
    return " ".join(shlex.quote(w) for w in words)


def header(game: Game, seed: int, games: int, agent_names: list[str],
           version: int = VERSION, path: str | None = None) -> dict:
    """A record's header; `path`: the file the record is written to, which a ruleset file's
    path in `source` is relative to (io.source_for)."""
    gd = game.definition
    return {"type": "header", "format": FORMAT, "version": version, "ruleset": gd.name,
            "source": source_for(game.ref, path),
            "canonical": gd.canonical, "ruleset_hash": gd.content_hash,
            "options": gd.options, "seed": seed, "games": games,
            "agents": seat_agents(agent_names, gd.seat_count),
            "seats": list(gd.seat_names), "sides": [list(s) for s in gd.sides]}


def dumps(obj: dict) -> str:
    """One record line: compact, key order as built, so equal games give equal bytes."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def write_lines(out: IO[str], text: str) -> None:
    """Write record lines to `out` and flush them. A record is written in these steps, whoever
    writes it (`simulate`, `merge`): its header, each game's lines, its end line; a gzip
    record's stream marks each flush, so the same steps give the same bytes."""
    out.write(text)
    out.flush()


@contextmanager
def signals_held():
    """SIGINT and SIGTERM wait while a finished game is written, so a record holds whole games
    (and while a batch run counts a block, so a report holds whole blocks)."""
    mask = getattr(signal, "pthread_sigmask", None)
    held = {signal.SIGINT, signal.SIGTERM}
    if mask is not None:
        mask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        if mask is not None:
            mask(signal.SIG_UNBLOCK, held)


def end_line(games: int, stopped: str | None = None, **why) -> dict:
    """The closing line: how many games the record holds and, if the run stopped early, why."""
    ev: dict = {"type": "end", "games": games}
    if stopped is not None:
        ev["stopped"] = stopped
        ev.update(why)
    return ev


@dataclass
class Played:
    """One finished game as a run folds it: its record text, hand lines, chips, decisions, winners."""

    index: int  # the game's index in the run (0-based)
    text: str  # its record lines, each ending in a newline ("" when no record is written)
    hands: list  # its hand lines
    chips: list | None  # with scoring.chips: the match's final chips
    decisions: int
    winners: list


@dataclass
class Fault:
    """A ruleset fault in game `index`, as data so that a worker process can hand it back."""

    index: int
    message: str
    span: object
    part: tuple = ()
    who: str = ""  # in a comparison: the game of "A", "B" or "AB" (compare.side_fault)
    a_side: int | None = None  # with "AB": the side A's agents held
    seating: tuple = ()  # in a comparison: the agent texts of the game's seats


def play_games(game: Game, agent_names: list[str], seed: int, start: int, stop: int,
               record: str | None, first_dealer: int | None = None) -> Iterator[Played | Fault]:
    """Play games start..stop-1 of a run in order; a ruleset fault ends them with a Fault.
    `first_dealer` (a seat) overrides the ruleset's `deal.first_dealer` in every game.

    `record` is the record's detail ("full" or "compact", DETAILS), or None when no record is
    wanted: then the engine builds no record lines and the summary is folded from each hand's
    result (`State.hand_result()`). A worker process plays a range of games with this, and the
    parent folds them in order as `simulate` does.
    """
    gd = game.definition
    for i in range(start, stop):
        lines: list[dict] = [{"type": "game", "game": i + 1, "seed": game_seed(seed, i)}]
        hands: list[dict] = []
        try:
            st = play_game(game, agent_names, seed, i, record=record is not None,
                           emit=lines.append,
                           decisions="action" if record == "compact" else record is not None,
                           on_hand=lambda s: hands.append(s.hand_result()),
                           first_dealer=first_dealer)
        except GameError as e:
            yield Fault(i, e.message, e.span, tuple(e.part))
            return
        chips = list(st.ctx.chips) if gd.match.stake is not None else None
        if record is not None:
            text = "".join(dumps(o) + "\n"
                           for o in (v3.compact(lines) if record == "compact" else lines))
        else:
            text = ""
        decisions = sum(1 for p, _ in st.history if p >= 0)  # not chance, not lot
        yield Played(i, text, hands, chips, decisions, list(st.winner_sides))


def fold(summary: Summary, p: Played) -> None:
    """Add one finished game to a run's summary (games are folded in game order)."""
    for ev in p.hands:
        summary.add_hand(ev)
    if p.chips is not None:
        summary.add_chips(p.chips)
    summary.decisions += p.decisions
    summary.games += 1
    summary.match_deals[len(p.hands)] += 1
    for s in p.winners:
        summary.side_wins[s] += 1


def new_summary(game: Game) -> Summary:
    """An empty summary of a run of `game`."""
    gd = game.definition
    return Summary(sides=len(gd.sides), side_of=tuple(gd.side_of),
                   first_dealer=gd.first_dealer if gd.first_dealer >= 0 else "lot")


GameSource = Callable[[int, int, "str | None"], Iterator["Played | Fault"]]


def simulate(game: Game, *, games: int, seed: int, agent_names: Iterable[str] = ("random",),
             out: IO[str] | None = None, progress: Callable[[int], None] | None = None,
             first: int = 0, stop: int | None = None, shard: dict | None = None,
             source: GameSource | None = None, detail: str = "full",
             path: str | None = None, first_dealer: int | None = None) -> Summary:
    """Play `games` matches (or only games first..stop-1 of them, a shard); write the record to
    `out` if given (the file at `path`, if it is one: a ruleset file's path in the header is
    relative to its folder); return the summary.

    `detail` is "full" (record format version 2: the engine's lines, every decision with its
    legal actions, every trick, lay and contract) or "compact" (version 3, a line per deal:
    records/v3.py; what `simulate --record` writes unless told `--record-detail full`).

    Each game's lines are written once the game is over, so the record stops at a game boundary
    and ends with an `end` line: on KeyboardInterrupt (Ctrl-C, or SIGTERM where the caller maps
    it so) it says how many games it holds and the summary covers those; on a ruleset fault it
    says which game failed and why, then the fault is raised. `source(start, stop, record)`
    plays the games (default: here, in order; `parallel` gives worker processes or a cluster);
    whoever plays them, they are written and folded here in game order, so the record and the
    summary are the same. `first_dealer` (a seat) deals every game's first hand in place of the
    ruleset's `deal.first_dealer` (the header says it, so that a replay deals as the run did).
    """
    names = list(agent_names)
    stop = games if stop is None else stop
    summary = new_summary(game)
    if first_dealer is not None:
        summary.first_dealer = first_dealer

    def put(*objs: dict) -> None:
        if out is not None:
            write_lines(out, "".join(dumps(o) + "\n" for o in objs))

    if detail not in DETAILS:
        raise ValueError(f"detail is one of {', '.join(DETAILS)}, not {detail!r}")
    head = header(game, seed, games, names, v3.VERSION if detail == "compact" else VERSION,
                  path if out is not None else None)
    if first_dealer is not None:
        head["first_dealer"] = first_dealer
    if shard is not None:
        head["shard"] = shard
    put(head)
    if source is None:
        def source(a: int, b: int, rec: str | None):
            return play_games(game, names, seed, a, b, rec, first_dealer)
    played = source(first, stop, detail if out is not None else None)
    try:
        for p in played:
            if isinstance(p, Fault):
                i = p.index
                located = game.locate(_fault_error(p))
                message = (f"{located.message} (in game {i + 1}, seed '{game_seed(seed, i)}'; "
                           f"reproduce: {reproduce(game, names, seed, i, first_dealer)})")
                with signals_held():
                    put(end_line(summary.games, "fault", game=i + 1, error=located.message))
                err = GameError(message, located.span)
                err.part = p.part
                raise err from None
            with signals_held():
                if out is not None:
                    write_lines(out, p.text)
                fold(summary, p)
            if progress is not None:
                progress(summary.games)
    except KeyboardInterrupt:
        summary.interrupted = True
        with signals_held():
            put(end_line(summary.games, "interrupted"))
        return summary
    finally:
        close = getattr(played, "close", None)
        if close is not None:  # stop the workers of a run that ends early
            close()
    with signals_held():
        put(end_line(summary.games))
    return summary


def _fault_error(p: Fault) -> GameError:
    e = GameError(p.message, p.span)
    e.part = p.part
    return e
