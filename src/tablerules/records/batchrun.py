"""`simulate --engine batch`: matches played by the batch engine, folded into simulate's summary.

The batch engine (tablerules.batch) plays whole matches in compiled code with uniformly random
legal choices; each block of matches it returns is counted here into the same `Summary` a
step-engine run fills (contracts, make rates by bid and contract, scores, wins, the report's
distributions), with numpy over the block's rows rather than a dict per hand, and a sample of
the matches is replayed through the step engine, which must agree on every deal, decision,
result and winner.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..batch import MATCH_RESULT, RESULT
from ..batch.replay import replay_matches
from .runner import FORCED, NO_BID, Summary, new_summary


def fold_block(summary: Summary, game, block) -> None:
    """Add a block of batch matches to a run's summary, as `runner.fold` adds played games."""
    g = game.definition
    r = block.hands.results
    ns = len(g.sides)
    col = RESULT.index
    thrown = r[:, col("thrown_in")] != 0
    summary.thrown_in += int(thrown.sum())
    played = r[~thrown]
    summary.hands += len(played)
    summary.decisions += int(r[:, col("steps")].sum())
    contract = played[:, col("contract")]
    for c, k in zip(*np.unique(contract, return_counts=True)):
        summary.contracts[g.contracts[int(c)].name] += int(k)
    _count_made(g, played, summary.bids, summary.by_contract)
    base = len(RESULT)
    scored = played[:, base + ns:base + 2 * ns]
    summary.scored_total += int(scored.sum())
    for v, k in zip(*np.unique(scored, return_counts=True)):
        summary.scored_counts[int(v)] += int(k)
    bidder = played[:, col("bidder")]
    has = bidder >= 0
    if has.any():
        side = np.array(g.side_of)[bidder[has]]
        pts = played[has][np.arange(int(has.sum())), base + side]
        for v, k in zip(*np.unique(pts, return_counts=True)):
            summary.bidder_points[int(v)] += int(k)
    if g.match.stake is not None:  # the chips paid, and what each seat ends each match with
        summary.chips_moved += int(played[:, base + 2 * ns:].sum())
        for i in range(len(block)):
            summary.add_chips(block.chips(i, ns))
    m = block.results
    summary.games += len(m)
    for v, k in zip(*np.unique(m[:, MATCH_RESULT.index("deals")], return_counts=True)):
        summary.match_deals[int(v)] += int(k)
    _count_wins(summary.side_wins, block, ns)


def _count_made(g, played, bids: dict, contracts: dict, with_bid_only: bool = False) -> None:
    """Hands made and played, [made, n], per bid row (a forced bid its own row) into `bids`
    (every hand, or with `with_bid_only` the hands with a bid), and per contract of the hands
    with a bid into `contracts`: as the runner's and compare's tallies count them one by one."""
    col = RESULT.index
    bid = played[:, col("bid")]
    made = played[:, col("made")] != 0
    key = bid * 2 + (played[:, col("forced")] != 0)
    with_bid = np.array([b.label != NO_BID for b in g.bids])[bid]
    rows = with_bid if with_bid_only else np.ones(len(bid), dtype=bool)
    nb = 2 * len(g.bids)
    n_key = np.bincount(key[rows], minlength=nb)
    made_key = np.bincount(key[rows & made], minlength=nb)
    for k in np.nonzero(n_key)[0]:
        row = bids[g.bids[int(k) // 2].label + (FORCED if k % 2 else "")]
        row[0] += int(made_key[k])
        row[1] += int(n_key[k])
    contract = played[:, col("contract")]
    for c in np.unique(contract[with_bid]):
        sel = with_bid & (contract == c)
        row = contracts[g.contracts[int(c)].name]
        row[0] += int(made[sel].sum())
        row[1] += int(sel.sum())


def _count_wins(side_wins, block, sides: int) -> None:
    """A block's matches won, per side (a draw counts for each winner), into `side_wins`."""
    wins = block.results[:, MATCH_RESULT.index("winners")]
    for s in range(sides):
        side_wins[s] += int(((wins >> s) & 1).sum())


def _checked(block, games: int, check: int) -> list[int]:
    """The matches of `block` a run of `games` replays through the step engine to check `check`
    of them (all when there are fewer): every (games // check)-th, the first `check` of those."""
    stride = max(1, games // check)
    return [m for m in range(len(block))
            if (block.first + m) % stride == 0 and (block.first + m) // stride < check]


def _replayed(batch, g, block, sample, seed: int, first_dealer, agents) -> list[str]:
    """The sample's matches (indexes in `block`, played without their decisions) played again,
    each alone and with them (match m of a run is the same alone), and replayed through the
    step engine; the disagreements."""
    problems: list[str] = []
    for m in sample:
        for again in batch.matches(1, seed, first=block.first + m, first_dealer=first_dealer):
            problems += replay_matches(g, again, [0], agents)
    return problems


def batch_agents(gd, texts: list[str] | None) -> list | None:
    """The batch engine's agents for agent texts (each random or rules, checked by the caller):
    None for random play on every seat (no texts), else one per text: None (random) or the
    rules agent it names."""
    if texts is None:
        return None
    import random

    from ..agents import make_agent, parse
    return [None if parse(t).spec.name == "random" else make_agent(t, random.Random(0), gd)
            for t in texts]


def _match_blocks(batch, g, seed: int, start: int, stop: int, games: int, check: int):
    """Matches start..stop-1 of a run of `games`: (block, matches replayed, disagreements) for
    each block, its decisions not kept (a summary reads the results)."""
    for block in batch.matches(stop - start, seed, first=start, decisions=False):
        sample = _checked(block, games, check) if check else []
        yield block, len(sample), _replayed(batch, g, block, sample, seed, None, batch.agents)


# per process: (the game's Source key, agent texts) -> its Batch; a forked worker starts with
# the run's (registered while its pool starts), a spawned one compiles it or loads numba's cache
_BATCHES: dict = {}
BATCH_CHUNK = 2000  # matches a worker's task plays at most: progress and Ctrl-C stay responsive


def play_match_range(src, texts, seed: int, start: int, stop: int, games: int,
                     check: int) -> tuple:
    """A pool task: matches start..stop-1 of a batch run folded into a summary of their own
    (the parent adds it: `Summary.absorb`), with the matches replayed and the disagreements."""
    from ..batch import compile_batch
    from .parallel import _game
    key = (src.key, tuple(texts) if texts is not None else None)
    game = _game(src)
    batch = _BATCHES.get(key)
    if batch is None:
        gd = game.definition
        batch = _BATCHES[key] = compile_batch(gd, batch_agents(gd, texts))
    part = new_summary(game)
    checked, problems = 0, []
    for block, n, bad in _match_blocks(batch, batch.game, seed, start, stop, games, check):
        fold_block(part, game, block)
        checked += n
        problems += bad
    return part, checked, problems


def _pool_parts(game, batch, texts, seed: int, games: int, check: int, workers: int):
    """`play_match_range` over the whole run on a pool of `workers` processes, in order."""
    from .parallel import _ordered, chunks, driver, source_of
    src = source_of(game)
    key = (src.key, tuple(texts) if texts is not None else None)
    _BATCHES[key] = batch  # forked with it; held only while the pool starts
    try:
        d = driver(workers, None, (src,), (game,))
    finally:
        _BATCHES.pop(key, None)
    tasks = [(play_match_range, src, texts, seed, a, b, games, check)
             for a, b in chunks(0, games, workers, BATCH_CHUNK)]
    results = _ordered(d, tasks)
    try:
        yield from results
    finally:
        results.close()


def simulate_batch(game, batch, *, games: int, seed: int, check: int = 100,
                   progress: Callable[[int], None] | None = None, workers: int = 1,
                   texts: list[str] | None = None) -> tuple[Summary, dict]:
    """Play `games` matches on the batch engine; (the summary, what the check found: matches
    replayed, how many agree, the first disagreements). With `workers` > 1 the matches are
    played on that many processes (`texts`: the agent texts `batch` was compiled with) and
    counted in order: the same summary."""
    summary = new_summary(game)
    checked, problems = 0, []
    if workers > 1:
        for part, n, bad in _pool_parts(game, batch, texts, seed, games, check, workers):
            summary.absorb(part)
            checked += n
            problems += bad
            if progress is not None:
                progress(summary.games)
    else:
        for block, n, bad in _match_blocks(batch, game.definition, seed, 0, games, games, check):
            fold_block(summary, game, block)
            checked += n
            problems += bad
            if progress is not None:
                progress(summary.games)
    return summary, {"games": checked, "agree": checked - len(problems),
                     "disagreements": problems[:10]}


def _fold_side(tally, g, block) -> None:
    """A block's hands into one side's compare Tally (every seat and side its own), as
    Tally.add_hand counts them one by one."""
    _fold_held(tally, g, block, set(range(g.seat_count)), list(range(len(g.sides))))


def _merge(into, tally) -> None:
    """One chunk's Tally added to the run's."""
    into.hands += tally.hands
    into.thrown_in += tally.thrown_in
    into.scored += tally.scored
    into.side_hands += tally.side_hands
    for mine, theirs in ((into.bids, tally.bids), (into.contracts, tally.contracts)):
        for k, (m, n) in theirs.items():
            mine[k][0] += m
            mine[k][1] += n
    if tally.chips is not None:
        into.chips = (into.chips or 0) + tally.chips


def compare_batch(a, b, batch_a, batch_b, *, games: int, seed: int, check: int = 20,
                  progress: Callable[[int, int], None] | None = None) -> tuple:
    """compare on the batch engine, A and B two games (rulesets or options) with one agent
    each on every seat: match d of each is dealt the same hands (batch.matches' deal
    generator), first by seat d mod seats, and counted as compare counts a deal (`Comparison`,
    mode "separate": each side's tally, its wins, and per deal A's score less B's), with
    numpy over the blocks' rows; `check` matches of each replayed through the step engine.
    Returns (the comparison, what the check found: matches replayed, how many agree, the
    disagreements)."""
    from collections import Counter

    from .compare import Comparison, Tally

    res = Comparison("separate", a, b, seed)
    checked, problems = 0, []
    chunk = 4096
    try:
        for start in range(0, games, chunk):
            n = min(chunk, games - start)
            # a chunk counts whole or not at all (Ctrl-C keeps the whole deals before it)
            totals, tallies, wins_of, played = {}, {}, {}, {}
            for who, c, batch in (("A", a, batch_a), ("B", b, batch_b)):
                g = c.game.definition
                ns = len(g.sides)
                tally = tallies[who] = Tally()
                side_wins = wins_of[who] = Counter()
                played[who] = 0
                per = []  # per match: what its hands scored, every side together
                for block in batch.matches(n, seed, first=start, first_dealer="rotate",
                                           decisions=False):
                    _fold_side(tally, g, block)
                    base = len(RESULT)
                    scored = block.hands.results[:, base + ns:base + 2 * ns].sum(axis=1)
                    per.append(np.bincount(block.row_match, weights=scored,
                                           minlength=len(block)).astype(np.int64))
                    _count_wins(side_wins, block, ns)
                    played[who] += len(block)
                    if check:
                        sample = _checked(block, games, check)
                        checked += len(sample)
                        problems += [f"{who}: {p}" for p in
                                     _replayed(batch, g, block, sample, seed, "rotate",
                                               batch.agents)]
                totals[who] = np.concatenate(per)
            for who, into in (("A", res.ta), ("B", res.tb)):
                _merge(into, tallies[who])
                res.side_wins[who].update(wins_of[who])
                res.played[who] += played[who]
            for v, k in zip(*np.unique(totals["A"] - totals["B"], return_counts=True)):
                res.deal_diffs[int(v)] += int(k)
            res.deals += n
            if progress is not None:
                progress(2 * res.deals, 2 * games)
    except KeyboardInterrupt:
        res.interrupted = True
    res.games = max(res.played["A"], res.played["B"])
    return res, {"games": checked, "agree": checked - len(problems),
                 "disagreements": problems[:10]}


def _fold_held(tally, g, block, seats: set, sides: list) -> None:
    """A block's hands into the Tally of the agents that held `seats` (on `sides`), as
    Tally.add_hand counts a match's hands for one configuration at a shared table."""
    r = block.hands.results
    ns = len(g.sides)
    col = RESULT.index
    thrown = r[:, col("thrown_in")] != 0
    played = r[~thrown]
    tally.thrown_in += int(thrown.sum())
    tally.hands += len(played)
    base = len(RESULT)
    tally.scored += int(played[:, [base + ns + s for s in sides]].sum())
    tally.side_hands += len(sides) * len(played)
    if g.match.stake is not None and len(played):  # chips its seats won less what they paid
        n = g.seat_count
        col_ = base + 2 * ns
        net = 0
        for _ in g.match.pays:
            for payer in range(n):
                for payee in range(n):
                    if payee == payer:
                        continue
                    net += int(played[:, col_].sum()) * ((payee in seats) - (payer in seats))
                    col_ += 1
        tally.chips = (tally.chips or 0) + net
    mine = np.isin(played[:, col("bidder")], sorted(seats))
    _count_made(g, played[mine], tally.bids, tally.contracts, with_bid_only=True)


def compare_batch_match(a, b, batch, seatings, *, games: int, seed: int, check: int = 20,
                        progress: Callable[[int, int], None] | None = None) -> tuple:
    """compare on the batch engine, A's agents against B's at one table (one game): each deal
    is played once per seating, `seatings` (per seating: A's side, the kernel's strategy per
    seat, the agent objects per seat for the check), match d of every seating dealt the same
    hands first by seat d mod seats, and counted as compare counts a match (mode "match": A's
    wins, B's, draws, each one's tally over the seats it held, per deal A's side's score less
    the others' mean); `check` matches of each seating replayed through the step engine.
    Returns (the comparison, what the check found)."""
    from .compare import Comparison, Tally

    res = Comparison("match", a, b, seed)
    g = a.game.definition
    ns, n = len(g.sides), g.seat_count
    col = MATCH_RESULT.index("winners")
    checked, problems = 0, []
    chunk = 4096
    base = len(RESULT)
    try:
        for start in range(0, games, chunk):
            k = min(chunk, games - start)
            # a chunk counts whole or not at all (Ctrl-C keeps the whole deals before it)
            ta, tb = Tally(), Tally()
            wins = [0, 0, 0]  # A's, B's, draws
            diffs = np.zeros(k)
            played = 0
            for a_side, strategy, agents in seatings:
                a_seats = set(g.sides[a_side])
                b_sides = [s for s in range(ns) if s != a_side]
                batch.seats = np.array(strategy, dtype=np.int64)
                for block in batch.matches(k, seed, first=start, first_dealer="rotate",
                                           decisions=False):
                    _fold_held(ta, g, block, a_seats, [a_side])
                    _fold_held(tb, g, block, set(range(n)) - a_seats, b_sides)
                    w = block.results[:, col]
                    mine = (w >> a_side) & 1 != 0
                    alone = (w & (w - 1)) == 0
                    wins[0] += int((mine & alone).sum())
                    wins[2] += int((mine & ~alone).sum())
                    wins[1] += int((~mine & (w != 0)).sum())
                    r = block.hands.results
                    sc = r[:, base + ns:base + 2 * ns].astype(float)
                    sc[r[:, RESULT.index("thrown_in")] != 0] = 0
                    d = sc[:, a_side] - (sc.sum(axis=1) - sc[:, a_side]) / max(1, ns - 1)
                    m0 = block.first - start
                    diffs[m0:m0 + len(block)] += np.bincount(block.row_match, weights=d,
                                                             minlength=len(block))
                    played += len(block)
                    if check:
                        sample = _checked(block, games, check)
                        checked += len(sample)
                        problems += [f"A on side {a_side}: {p}" for p in
                                     _replayed(batch, g, block, sample, seed, "rotate", agents)]
            _merge(res.ta, ta)
            _merge(res.tb, tb)
            res.a_wins += wins[0]
            res.b_wins += wins[1]
            res.draws += wins[2]
            res.played["AB"] += played
            for v, c in zip(*np.unique(diffs, return_counts=True)):
                v = float(v)
                res.deal_diffs[int(v) if v == int(v) else round(v, 4)] += int(c)
            res.deals += k
            if progress is not None:
                progress(res.deals * len(seatings), games * len(seatings))
    except KeyboardInterrupt:
        res.interrupted = True
    res.games = res.played["AB"]
    return res, {"games": checked, "agree": checked - len(problems),
                 "disagreements": problems[:10]}
