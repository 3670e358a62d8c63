"""Compare two configurations (agents, rulesets, options) over paired deals.

Deal `d` is game `d` of the run (`runner.game_seed(seed, d)`), so every configuration is dealt
the same hands, and its first dealer is seat `d % seats`, so the deal rotates over the seats.
When A and B play the same game (ruleset and options) they play each other: every deal is
played once per side with A's agents on that side and B's on the others, so with two sides each
deal is played with A and B in the same seats and again with the sides swapped (agents that
differ by side moved round the sides too). Otherwise each configuration plays the same deals
separately, once for each distinct seating of its agents (rotated over the sides when they
differ by seat), and the report sets them side by side. A seating of a deal is one game, played
and counted once.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable

from ..definition import value_str
from ..errors import GameError
from ..game import Game
from .runner import (NO_BID, Fault, _bid_key, bid_row, game_seed, games_won, interval, made_n,
                     percent, play_game, rate, reproduce, seats_text, wilson)

INTERVAL = "Wilson score, 95%"


@dataclass
class Config:
    """One side of a comparison: a game (ruleset and options) and an agent text per seat."""

    label: str  # "A" or "B"
    game: Game
    agents: list[str]

    def as_dict(self) -> dict:
        gd = self.game.definition
        return {"ruleset": gd.canonical, "source": self.game.ref, "options": gd.options,
                "agents": list(self.agents)}


@dataclass
class Tally:
    """One configuration's hands: what its sides scored, and its bids made and set."""

    hands: int = 0
    thrown_in: int = 0
    scored: int = 0  # over the sides it held, every hand
    side_hands: int = 0  # hands times the sides it held
    gained: int = 0  # what the sides it held scored above 0, every hand
    lost: int = 0  # and below 0, as a loss (0 where no side can score below 0)
    bids: dict = field(default_factory=lambda: defaultdict(made_n))  # label -> [made, n]
    contracts: dict = field(default_factory=lambda: defaultdict(made_n))
    chips: int | None = None  # with scoring.chips: chips its seats won less what they paid

    def add_hand(self, ev: dict, seats: set[int], sides: list[int]) -> None:
        if ev.get("thrown_in"):
            self.thrown_in += 1
            return
        self.hands += 1
        for s in sides:
            v = ev["scored"][s]
            self.scored += v
            if v > 0:
                self.gained += v
            else:
                self.lost -= v
        self.side_hands += len(sides)
        if "paid" in ev:
            self.chips = (self.chips or 0) + sum(
                p["chips"] * ((p["to"] in seats) - (p["from"] in seats)) for p in ev["paid"])
        if ev["bid"] != NO_BID and ev["bidder"] in seats:
            for table, key in ((self.bids, bid_row(ev)), (self.contracts, ev["contract"])):
                t = table[key]
                t[1] += 1
                t[0] += 1 if ev["made"] else 0

    def as_dict(self, contracts: list[str] = (), gained: bool = False,
                all_sides: bool = False) -> dict:
        """The tally's figures; `contracts`: the contracts its game may bid, each listed in
        `make_rate_by_contract` (0 hands, no rate, for one no hand was played in), as
        simulate's contract table lists them; `gained`: with what the sides above 0 gained
        per hand and what the others lost (every side together, as simulate's
        avg_gained_per_hand), where a side's score below 0 makes the sum of all say little;
        `all_sides` (a configuration that held every side): with what every side scored
        together per hand, beside `scored_per_hand` (per side)."""
        d = self._as_dict(contracts)
        if all_sides:  # every side's score together, as simulate's avg_scored_per_hand is
            d["scored_per_hand_all_sides"] = round(self.scored / self.hands, 4) if self.hands \
                else 0.0
        if gained:
            d["gained_per_hand"] = round(self.gained / self.hands, 4) if self.hands else 0.0
            d["lost_per_hand"] = round(self.lost / self.hands, 4) if self.hands else 0.0
        if self.chips is not None:  # per hand, over the sides it held
            d["chips_per_hand"] = round(self.chips / self.side_hands, 4) if self.side_hands else 0.0
        return d

    def _as_dict(self, contracts: list[str] = ()) -> dict:
        made = sum(v[0] for v in self.bids.values())
        n = sum(v[1] for v in self.bids.values())
        return {"hands": self.hands, "thrown_in": self.thrown_in,
                "scored_per_hand": round(self.scored / self.side_hands, 4) if self.side_hands
                else 0.0,
                "make_rate": _with_set(rate(made, n)),
                "make_rate_by_contract": {k: _with_set(rate(*self.contracts.get(k, (0, 0))))
                                          for k in sorted({*self.contracts, *contracts})},
                "make_rate_by_bid": {k: _with_set(rate(*v)) for k, v in
                                     sorted(self.bids.items(), key=lambda kv: _bid_key(kv[0]))}}


def _with_set(r: dict) -> dict:
    r["set_rate"] = round(1 - r["rate"], 4) if r["rate"] is not None else None
    return r


@dataclass
class Comparison:
    """What a comparison found: per configuration tallies and, in a match, A's results."""

    mode: str  # "match" (A plays B) or "separate" (each plays the same deals)
    a: Config
    b: Config
    seed: int
    deals: int = 0  # deals whose every game finished
    games: int = 0  # games each configuration played (a match: games played, A against B)
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    ta: Tally = field(default_factory=Tally)
    tb: Tally = field(default_factory=Tally)
    side_wins: dict = field(default_factory=lambda: {"A": Counter(), "B": Counter()})
    played: Counter = field(default_factory=Counter)  # games by "A", "B" (separate) or "AB"
    interrupted: bool = False
    # per deal, A's score less B's over the deal's games, as counts of values (for a report;
    # not in `as_dict`): in a match what A's side scored less what B's sides did on average,
    # else what A's games scored (all sides together) less what B's did
    deal_diffs: Counter = field(default_factory=Counter)
    # with each one playing on its own, also what the sides above 0 gained in A's games of the
    # deal less in B's (what the report draws where a side scored below 0: `gained` figures)
    gained_diffs: Counter = field(default_factory=Counter)

    def a_score(self) -> float:
        """A's games won, a draw counting half."""
        return games_won(self.a_wins, self.draws)

    def differences(self) -> list[str]:
        a, b = self.a, self.b
        out = []
        if a.game.definition.name != b.game.definition.name or a.game.ref != b.game.ref:
            out.append(f"ruleset: {a.game.definition.canonical} vs {b.game.definition.canonical}")
        oa, ob = a.game.definition.options, b.game.definition.options
        for k in sorted(set(oa) | set(ob)):
            if oa.get(k, "-") != ob.get(k, "-"):  # as a ruleset writes them: true, not True
                out.append(f"option {k}: {value_str(oa[k]) if k in oa else '-'} vs "
                           f"{value_str(ob[k]) if k in ob else '-'}")
        ta, tb = seats_text(a.agents), seats_text(b.agents)
        if ta != tb:
            out.append(f"agents: {ta} vs {tb}")
        return out

    def as_dict(self) -> dict:
        d: dict = {"mode": self.mode, "seed": self.seed, "deals": self.deals, "games": self.games,
                   "sides": len(self.a.game.definition.sides),
                   "first_dealer": "rotates: deal d is dealt first by seat d mod seats",
                   "a": self.a.as_dict(), "b": self.b.as_dict(),
                   "differences": self.differences(), "interval": INTERVAL}
        if self.mode == "match":
            ci = wilson(self.a_score(), self.games)
            d["result"] = {"a_wins": self.a_wins, "b_wins": self.b_wins, "draws": self.draws,
                           "a_win_rate": round(self.a_score() / self.games, 4) if self.games
                           else None,
                           "ci": [round(ci[0], 4), round(ci[1], 4)] if ci else None,
                           "even": round(1 / len(self.a.game.definition.sides), 4)}
        else:
            d["games_by_config"] = {"A": self.played["A"], "B": self.played["B"]}
            d["wins_by_side"] = {k: {str(s): v.get(s, 0) for s in
                                     range(len(c.game.definition.sides))}
                                 for k, v, c in (("A", self.side_wins["A"], self.a),
                                                 ("B", self.side_wins["B"], self.b))}
        apart = self.mode == "separate"
        d["a_stats"] = self.ta.as_dict(_bid_contracts(self.a), self._gained(), apart)
        d["b_stats"] = self.tb.as_dict(_bid_contracts(self.b), self._gained(), apart)
        d["verdict"] = self.verdict()
        if self.interrupted:
            d["interrupted"] = True
        return d

    def _gained(self) -> bool:
        """Whether each one's figures say what was gained and lost: A and B each playing the
        deals on its own, where a side of either scored below 0 (the sum over every side, as
        with chips one side pays another, says little)."""
        return self.mode == "separate" and bool(self.ta.lost or self.tb.lost)

    def verdict(self) -> str:
        if self.mode == "match":
            if not self.games:
                return "no game finished"
            lo, hi = wilson(self.a_score(), self.games)
            k = len(self.a.game.definition.sides)
            even = f" (even is {1 / k:.1%}: A's agents hold one of {k} sides)" if k > 2 else ""
            return (f"A wins {100 * self.a_score() / self.games:.1f}% of games, 95% CI "
                    f"{100 * lo:.1f} to {100 * hi:.1f}, over {self.games:,} paired games{even}")
        sa, sb = self.ta.as_dict(gained=self._gained()), self.tb.as_dict(gained=self._gained())
        ma, mb = sa["make_rate"], sb["make_rate"]
        parts = [f"A's sides above 0 gain {sa['gained_per_hand']:.3f} per hand, B's "
                 f"{sb['gained_per_hand']:.3f}" if self._gained() else
                 f"A scores {sa['scored_per_hand']:.3f} per hand per side, B "
                 f"{sb['scored_per_hand']:.3f}"]
        if ma["hands"] and mb["hands"]:
            parts.append(f"A makes {percent(ma['made'], ma['hands'])} of its bids (95% CI "
                         f"{interval(ma['made'], ma['hands'])}), B "
                         f"{percent(mb['made'], mb['hands'])} "
                         f"({interval(mb['made'], mb['hands'])})")
        ga, gb = self.played["A"], self.played["B"]
        each = (f"{ga:,} game{'s' if ga != 1 else ''} each" if ga == gb else
                f"{ga:,} and {gb:,} games")
        return "; ".join(parts) + (f", over the same {self.deals:,} "
                                   f"deal{'s' if self.deals != 1 else ''} ({each})")


def _bid_contracts(c: Config) -> list[str]:
    """The contracts a hand of `c`'s game is bid in (none without an auction)."""
    from ..agents.rules import biddable
    gd = c.game.definition
    return biddable(gd) if gd.auction.fixed_contract < 0 else []


def _deal_text(gd) -> str:
    """'4 seats, 7 pieces each of a set of 28': what a deal of `gd` is."""
    stock = f" and a stock of {gd.stock}" if gd.stock else ""
    return (f"{gd.seat_count} seats, {gd.hand_size} pieces each{stock}, of a set of "
            f"{len(gd.pieces)}")


def unshared_deals(a: Config, b: Config) -> str | None:
    """Why A and B cannot be dealt the same hands (other pieces, seats, hand sizes or stock: a
    seed deals another deal to each), else None."""
    ga, gb = a.game.definition, b.game.definition
    if (sorted(ga.pieces.names), ga.seat_count, ga.hand_size, ga.stock) == \
            (sorted(gb.pieces.names), gb.seat_count, gb.hand_size, gb.stock):
        return None  # the same pieces, maybe numbered otherwise (B is dealt A's: dealt_as)
    if (ga.seat_count, ga.hand_size, ga.stock, len(ga.pieces)) == \
            (gb.seat_count, gb.hand_size, gb.stock, len(gb.pieces)):
        what = f"both deal {_deal_text(ga)}, but not the same pieces"
    else:
        what = f"A deals {_deal_text(ga)}, B {_deal_text(gb)}"
    return (f"A ({ga.canonical}) and B ({gb.canonical}) cannot be dealt the same hands: {what}; "
            "compare plays both on the same deals, so A and B must deal the same pieces to the "
            "same seats")


def dealt_as(a_game, b_game) -> tuple[int, ...] | None:
    """B's number of each of A's pieces when B numbers the same pieces otherwise (a suit's
    ranks in another order), so that B is dealt A's deals piece for piece; None when B numbers
    them as A does."""
    na, nb = a_game.definition.pieces.names, b_game.definition.pieces.names
    if na == nb:
        return None
    at = {n: i for i, n in enumerate(nb)}
    return tuple(at[n] for n in na)


def renumbered(a: Config, b: Config) -> str | None:
    """Why the batch engine cannot pair A's and B's deals (it deals piece numbers, and B numbers
    A's pieces otherwise), else None."""
    if dealt_as(a.game, b.game) is None:
        return None
    ga, gb = a.game.definition, b.game.definition
    return (f"A ({ga.canonical}) and B ({gb.canonical}) deal the same {len(ga.pieces)} pieces, "
            "numbered in another order (a suit's ranks ordered otherwise): the batch engine "
            "deals piece numbers, so it cannot pair their deals; compare them without --engine "
            "batch")


def same_game(a: Config, b: Config) -> bool:
    """A and B play one game (ruleset and options), so they can sit at one table."""
    ga, gb = a.game.definition, b.game.definition
    return ga.content_hash == gb.content_hash and ga.options == gb.options


def match_seatings(a: Config, b: Config) -> list[tuple[list[str], int]]:
    """A's agents on each side in turn, B's on the others: (agent per seat, A's side). Agents
    that differ by side are moved round the sides too (`own_seatings`, A's and B's together),
    so that the agents of each of A's sides play every side of every deal (held by their own
    side's seats alone, A's agents of one side would hold only that side's hands, and the luck
    of the deal would not cancel); a seating given twice is played once."""
    gd = a.game.definition
    out: list[tuple[list[str], int]] = []
    for sa, sb in zip(own_seatings(a, moved=True), own_seatings(b, moved=True)):
        for r in range(len(gd.sides)):
            seating = ([sa[s] if gd.side_of[s] == r else sb[s] for s in range(gd.seat_count)], r)
            if seating not in out:
                out.append(seating)
    return out


def own_seatings(c: Config, moved: bool = False) -> list[list[str]]:
    """One configuration's distinct seatings: as given and, when its agents differ by seat and
    the sides are the same size, moved round by one side at a time (a move that seats them as
    an earlier one did is left out: the same seating of a deal is the same game). `moved`:
    every move, one a side, repeats kept (match_seatings pairs A's with B's)."""
    gd = c.game.definition
    sides = gd.sides
    if len({len(s) for s in sides}) != 1 or (len(set(c.agents)) == 1 and not moved):
        return [list(c.agents)] * (len(sides) if moved else 1)
    out = []
    for r in range(len(sides)):
        seat = list(c.agents)
        for j, side in enumerate(sides):
            for i, s in enumerate(side):
                seat[sides[(j + r) % len(sides)][i]] = c.agents[s]
        if moved or seat not in out:
            out.append(seat)
    return out


def compare(a: Config, b: Config, *, games: int, seed: int,
            progress: Callable[[int, int], None] | None = None,
            workers: int = 1, cluster: str | None = None, pool=None) -> Comparison:
    """Play the paired deals; `progress(done, total)` after each game. Ctrl-C stops the run and
    the comparison covers the deals whose every game finished. With `workers` > 1, or on a Dask
    `cluster` (an address, or "local"), the deals are played in chunks elsewhere and counted
    here in deal order: the same result. `pool`: a `parallel.driver` of the caller's to play
    them on (left open for its next run)."""
    mode = "match" if same_game(a, b) else "separate"
    res = Comparison(mode, a, b, seed)
    if mode == "match":
        plan = [("AB", seating, r) for seating, r in match_seatings(a, b)]
        per_deal = len(plan)
    else:  # each plays every deal once per seating of its own: a game played again with the
        # same seating and deal would be the same game, counted as if it were another
        sa, sb = own_seatings(a), own_seatings(b)
        per_deal = max(len(sa), len(sb))
        plan = [("A", s, None) for s in sa] + [("B", s, None) for s in sb]
    deals = max(1, math.ceil(games / per_deal))
    total = len(plan) * deals
    done = 0
    if workers > 1 or cluster is not None or pool is not None:
        return _compare_on(res, plan, deals, total, workers, progress, cluster, pool)

    def one_done():
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)
    try:
        for d in range(deals):
            try:
                results = play_deal(lambda who: (b if who == "B" else a).game, plan, seed, d,
                                    one_done)
            except GameError as e:
                raise side_fault(a, b, e, seed) from None
            for who, seating, a_side, hands, winners in results:  # a deal counts whole
                _count(res, who, a_side, hands, winners)
            _count_difference(res, results)
            res.deals += 1
    except KeyboardInterrupt:
        res.interrupted = True
    res.games = res.played["AB"] if mode == "match" else max(res.played["A"], res.played["B"])
    return res


def side_fault(a: Config, b: Config, e: GameError, seed: int) -> GameError:
    """A fault found while a comparison played, said as `simulate` says one (Game.located: at
    the user's line, a note at a base rule) with whose game it was, A's or B's, on which deal,
    and the `simulate` command that plays that game alone (`e.who`, `e.a_side`, `e.deal`,
    `e.seating` as the game that stopped left them)."""
    who = getattr(e, "who", "")
    cfg = b if who == "B" else a
    game = cfg.game
    deal = getattr(e, "deal", None)
    where = [f"deal {deal + 1}"] if deal is not None else []
    if who == "AB":  # one table: the ruleset is A's and B's (the batch engine's: no deal)
        where = [" ".join((where or ["a game"]) + [f"with A's agents on side {e.a_side}"])]
    elif who:
        where = [" of ".join([f"{who}'s game"] + where)]
    then = ""
    if deal is not None:
        where.append(f"seed '{game_seed(seed, deal)}'")
        seating = getattr(e, "seating", None) or (
            match_seatings(a, b)[e.a_side][0] if who == "AB" else own_seatings(cfg)[0])
        if who == "B" and dealt_as(a.game, b.game) is not None:
            then = ("; B is dealt A's cards, numbered as A numbers them, which simulate does "
                    "not deal: compare alone plays this game")
        else:
            then = (f"; reproduce: "
                    f"{reproduce(game, seating, seed, deal, deal % game.definition.seat_count)}")
    return game.located(e, f"{e.message} (in {', '.join(where)}{then})" if where else e.message)


def play_deal(game_of: Callable[[str], Any], plan: list, seed: int, d: int,
              after: Callable[[], None] | None = None) -> list:
    """Every planned game of deal `d` (`game_of(who)` the game "A", "B" or "AB" plays): per game
    (who, seating, A's side, its hands' results, its winning sides). No record is built: the
    hands are `State.hand_result()`s. `after()` runs as each game ends."""
    results = []
    for i, (who, seating, a_side) in enumerate(plan):
        game = game_of(who)
        hands: list[dict] = []
        try:
            st = play_game(game, seating, seed, d, record=False, decisions=False,
                           first_dealer=d % game.definition.seat_count,
                           on_hand=lambda s: hands.append(s.hand_result()),
                           deal_as=dealt_as(game_of("A"), game) if who == "B" else None)
        except GameError as e:  # whose game it was, for side_fault
            e.who, e.a_side, e.deal, e.seating, e.planned = who, a_side, d, list(seating), i
            raise
        results.append((who, seating, a_side, hands, list(st.winner_sides)))
        if after is not None:
            after()
    return results


def play_deals(a, b, plan: list, seed: int, start: int, stop: int, files: tuple = ()) -> list:
    """Play deals start..stop-1 of a comparison in a worker (`a`, `b`: parallel.Source; `files`:
    the agents' files shipped to a cluster): per deal `play_deal`'s list, or a Fault for the
    first deal a ruleset fault stops."""
    from .parallel import _game, local_agents
    here = [(who, local_agents(files, seating), a_side) for who, seating, a_side in plan]
    out = []
    for d in range(start, stop):
        try:
            deal = play_deal(lambda who: _game(b if who == "B" else a), here, seed, d)
            # each game as the plan gave it: its seating is the agents' texts of the run
            out.append([(w, plan[i][1], *rest) for i, (w, _s, *rest) in enumerate(deal)])
        except GameError as e:  # the seating as the run gave it (not a cluster's copies' paths)
            out.append(Fault(d, e.message, e.span, tuple(e.part), getattr(e, "who", ""),
                             getattr(e, "a_side", None),
                             tuple(plan[e.planned][1]) if hasattr(e, "planned") else ()))
            return out
    return out


def _count(res: Comparison, who: str, a_side: int | None, hands: list[dict], winners: list[int]):
    res.played[who] += 1
    if who == "AB":
        gd = res.a.game.definition
        a_seats = set(gd.sides[a_side])
        b_sides = [j for j in range(len(gd.sides)) if j != a_side]
        b_seats = set(range(gd.seat_count)) - a_seats
        for ev in hands:
            res.ta.add_hand(ev, a_seats, [a_side])
            res.tb.add_hand(ev, b_seats, b_sides)
        if a_side in winners:
            if len(winners) > 1:
                res.draws += 1
            else:
                res.a_wins += 1
        elif winners:
            res.b_wins += 1
        return
    cfg = res.a if who == "A" else res.b
    gd = cfg.game.definition
    tally = res.ta if who == "A" else res.tb
    for ev in hands:
        tally.add_hand(ev, set(range(gd.seat_count)), list(range(len(gd.sides))))
    for s in winners:
        res.side_wins[who][s] += 1


def _count_difference(res: Comparison, deal: list) -> None:
    """One deal's score difference, A less B, into `res.deal_diffs`. Apart, A and B may play a
    deal a different number of times (their distinct seatings): each one's games of the deal
    count as many as the other's most, so the difference is over as many games of each."""
    diff = 0.0
    gained = 0.0
    n = Counter(who for who, *_rest in deal)
    most = max(n.values())
    for who, _seating, a_side, hands, _winners in deal:
        for ev in hands:
            if ev.get("thrown_in"):
                continue
            sc = ev["scored"]
            if who == "AB":
                diff += sc[a_side] - (sum(sc) - sc[a_side]) / max(1, len(sc) - 1)
            else:
                sign = (1 if who == "A" else -1) * most / n[who]
                diff += sign * sum(sc)
                gained += sign * sum(v for v in sc if v > 0)
    res.deal_diffs[_value(diff)] += 1
    if res.mode == "separate":
        res.gained_diffs[_value(gained)] += 1


def _value(x: float) -> int | float:
    """A difference as the report counts it: a whole number as an int, else to 4 places."""
    return int(x) if x == int(x) else round(x, 4)


def _compare_on(res: Comparison, plan: list, deals: int, total: int, workers: int,
                progress: Callable[[int, int], None] | None,
                cluster: str | None = None, pool=None) -> Comparison:
    """`compare` with the deals played on worker processes or a cluster (or the caller's
    `pool`), counted in deal order."""
    from .parallel import _ordered, agent_files, chunks, driver, source_of
    # a path on this machine means nothing on a cluster's workers (the caller's, or one here)
    ship = cluster is not None or (pool is not None and pool.ships)
    a, b = source_of(res.a.game, ship=ship), source_of(res.b.game, ship=ship)
    files = agent_files({t for _who, seating, _side in plan for t in seating}) if ship else ()
    games = (res.a.game, res.b.game)
    d, results, done = pool, None, 0
    try:  # Ctrl-C while the workers start, or before a deal is done, reports the deals so far
        if d is None:  # no more processes than deals (a cluster has the workers it has)
            d = driver(min(workers, deals), cluster, (a, b), games)
        # made as the workers take them (`_ordered`): any number of deals plans in constant memory
        tasks = ((play_deals, a, b, plan, res.seed, s, e, files)
                 for s, e in chunks(0, deals, d.workers))
        results = _ordered(d, tasks, close=False)
        for chunk in results:
            for deal in chunk:
                if not isinstance(deal, list):  # a ruleset fault: as one process raises it
                    err = GameError(deal.message, deal.span)
                    err.part = deal.part
                    err.who, err.a_side, err.deal = deal.who, deal.a_side, deal.index
                    err.seating = list(deal.seating)
                    raise side_fault(res.a, res.b, err, res.seed)
                for who, seating, a_side, hands, winners in deal:
                    _count(res, who, a_side, hands, winners)
                _count_difference(res, deal)
                res.deals += 1
                done += len(deal)
            if progress is not None:
                progress(done, total)
    except KeyboardInterrupt:
        res.interrupted = True
    finally:
        if results is not None:
            results.close()
        if d is not None and pool is None:  # ours: closed here, even before its first task
            d.close()
    res.games = res.played["AB"] if res.mode == "match" else max(res.played["A"], res.played["B"])
    return res


@dataclass
class RuleEffects:
    """`compare --each-rule-off`: the rules agent against itself with one rule switched off."""

    agent: str  # the full agent's text
    strategy: str  # its strategy's name
    seed: int
    games: int  # asked per rule
    runs: list = field(default_factory=list)  # (rule, Comparison), a rule at a time
    off: list = field(default_factory=list)  # rules the full agent already has off: not run
    fixed: list = field(default_factory=list)  # rules no agent text switches: not run
    interrupted: bool = False

    def as_dict(self) -> dict:
        rows = []
        for rule, c in self.runs:
            r = c.as_dict()["result"]
            rows.append({"rule": rule, "off": f"{self.agent}:{rule}=off", "games": c.games,
                         "deals": c.deals, "full_wins": r["a_wins"], "off_wins": r["b_wins"],
                         "draws": r["draws"], "full_win_rate": r["a_win_rate"], "ci": r["ci"],
                         "even": r["even"]})
        d = {"agent": self.agent, "strategy": self.strategy, "seed": self.seed,
             "games_per_rule": self.games, "interval": INTERVAL, "rules": rows,
             "off_already": list(self.off), "not_switchable": list(self.fixed)}
        if self.interrupted:
            d["interrupted"] = True
        return d


def each_rule_off(game: Game, agent: str, *, games: int, seed: int,
                  progress: Callable[[int, int], None] | None = None,
                  workers: int = 1, cluster: str | None = None) -> RuleEffects:
    """For each rule the rules agent `agent` plays in `game`, `compare` it (A) against itself
    with that rule switched off (B): the same seed, so every comparison is dealt the same hands.
    `progress(done, total)` counts games over every comparison."""
    from ..agents import AGENTS, parse
    from ..agents.rules import rule_names
    choice = parse(agent)
    name, on, off = rule_names(game.definition, dict(choice.params))
    spec = AGENTS["rules"]
    # a rule no agent text switches off: a custom file's own rule names, or one whose default
    # here differs from the agent parameter's (taken from a shipped file), so `=off` is a no-op
    fixed = [r for r in on if spec.param(r) is None
             or r in rule_names(game.definition, dict(parse(f"{choice.text}:{r}=off").params))[1]]
    out = RuleEffects(choice.text, name, seed, games, off=off, fixed=fixed)
    rules = [r for r in on if r not in fixed]
    seats = game.definition.seat_count
    total = [0]
    base = [0]

    def tick(done: int, n: int) -> None:
        total[0] = n * len(rules)
        if progress is not None:
            progress(base[0] + done, total[0])

    def sides(rule: str) -> tuple[Config, Config]:
        return (Config("A", game, [choice.text] * seats),
                Config("B", game, [f"{choice.text}:{rule}=off"] * seats))

    pool = None
    try:
        if rules and (workers > 1 or cluster is not None):  # one pool or cluster for every rule
            from .parallel import driver, source_of
            pool = driver(workers, cluster, (source_of(game, ship=cluster is not None),),
                          (game,))
    except KeyboardInterrupt:  # while it started: the first rule's comparison stopped at once
        out.runs.append((rules[0], Comparison("match", *sides(rules[0]), seed, interrupted=True)))
        out.interrupted = True
        return out
    try:
        for rule in rules:
            c = compare(*sides(rule), games=games, seed=seed, progress=tick, pool=pool)
            out.runs.append((rule, c))
            base[0] += sum(c.played.values())
            if c.interrupted:
                out.interrupted = True
                break
    finally:
        if pool is not None:
            pool.close()
    return out
