"""`simulate --engine batch`: matches played by the batch engine, folded into simulate's summary.

The batch engine (tablerules.batch) plays whole matches in compiled code with uniformly random
legal choices; each block of matches it returns is counted here into the same `Summary` a
step-engine run fills (contracts, make rates by bid and contract, scores, wins, the report's
distributions), with numpy over the block's rows rather than a dict per hand, and a sample of
the matches is replayed through the step engine, which must agree on every deal, decision,
result and winner.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Callable, Iterator

import numpy as np

from ..batch import MATCH_RESULT, RESULT, BatchUnavailable
from ..batch.replay import replay_matches
from ..errors import GameError
from .runner import FORCED, NO_BID, Summary, signals_held, add_rows, new_summary


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
# the run's (registered while its pool starts), a spawned one or a Dask worker compiles it or
# loads numba's cache
_BATCHES: dict = {}
# matches a worker's task plays at most (about a quarter of a second of a shipped ruleset's
# with rules agents): progress stays live, and a Dask cluster's cost a task is small beside it
# (docs/speed.md: 2,000 took 400,000 matches 7.25-7.5 s on two workers, 10,000 6.8-6.9 s; a
# pool the same, 6.5-6.6 s)
BATCH_CHUNK = 10000
# A Dask worker runs tasks on several threads, which share its Batches (and a part at one table
# sets its Batch's seats): one task at a time (the kernels hold the GIL, so no time is lost)
_TASKS = threading.Lock()


def play_match_range(src, texts, seed: int, start: int, stop: int, games: int,
                     check: int, files: tuple = ()) -> tuple:
    """A pool or cluster task: matches start..stop-1 of a batch run folded into a summary of
    their own (the parent adds it: `Summary.absorb`), with the matches replayed and the
    disagreements. `files`: the agents' files shipped to a cluster (`parallel.agent_files`)."""
    from .parallel import _game
    with _TASKS:
        game = _game(src)
        batch = _batch_for(src, texts, files)
        part = new_summary(game)
        checked, problems = 0, []
        for block, n, bad in _match_blocks(batch, batch.game, seed, start, stop, games, check):
            fold_block(part, game, block)
            checked += n
            problems += bad
        return part, checked, problems


def _kernel_key(src, texts) -> tuple:
    """A kernel's key in `_BATCHES`: its game's Source key and the agent texts (None: random)."""
    return src.key, tuple(texts) if texts is not None else None


def _batch_for(src, texts, files: tuple = ()):
    """This process's Batch of a game's Source compiled with agent texts (None: random); the
    paths of `files` (shipped to a cluster) are read from this worker's copies."""
    from ..batch import BatchUnavailable, available, compile_batch
    from .parallel import _game, local_agents
    if texts is not None and files:
        texts = local_agents(files, texts)
    key = _kernel_key(src, texts)
    batch = _BATCHES.get(key)
    if batch is None:
        if not available():  # the run compiled it here: only a cluster's worker can lack numba
            import socket
            raise BatchUnavailable(f"a worker of the cluster ({socket.gethostname()}) has no "
                                   "numba for the batch engine: pip install 'tablerules[fast]' "
                                   "on every worker")
        gd = _game(src).definition
        batch = _BATCHES[key] = compile_batch(gd, batch_agents(gd, texts))
    return batch


def _pool(runs, workers: int, cluster: str | None = None):
    """A pool of `workers` processes, or a client of `cluster` (an address, or "local"), for
    batch runs: `runs` are (game, its Batch, the agent texts it was compiled with, None for
    random) of each kernel, which forked workers start with; returns (the driver, the
    (Source, texts, the agents' files shipped to a cluster) of each run)."""
    from .parallel import agent_files, driver, source_of
    ship = cluster is not None
    srcs = tuple((source_of(game, ship=ship), texts,
                  agent_files(texts) if ship and texts is not None else ())
                 for game, _batch, texts in runs)
    keys = [_kernel_key(src, texts) for src, texts, _ in srcs]
    for key, (_game_of, batch, _texts) in zip(keys, runs):
        _BATCHES[key] = batch  # forked with them; held only while the pool starts
    try:
        return driver(workers, cluster, tuple(src for src, _, _ in srcs),
                      tuple(r[0] for r in runs)), srcs
    finally:
        for key in keys:
            _BATCHES.pop(key, None)


def _on_pool(runs, workers: int, games: int, most: int, task, cluster: str | None = None):
    """The parts of a batch run of `games` (a few a worker, at most `most` each) played on a
    pool of `workers` processes or on `cluster` (`_pool(runs)`), in order, as (its games, its
    result); the workers are stopped at the end. `task(sources, start, n)`: a part's task,
    `sources` the (Source, texts, files) of each run."""
    from .parallel import _ordered, chunks
    d, srcs = _pool(runs, workers, cluster)

    def parts():  # made as they are asked for: any number of games plans in constant memory
        return ((a, b - a) for a, b in chunks(0, games, d.workers, most))
    results = _ordered(d, (task(srcs, a, n) for a, n in parts()))
    try:
        for (_a, n), part in zip(parts(), results):  # the same plan again, beside its results
            yield n, part
    finally:
        results.close()


def _folded(game, block) -> Summary:
    """A block of matches folded into a summary of its own."""
    part = new_summary(game)
    fold_block(part, game, block)
    return part


def simulate_batch(game, batch, *, games: int, seed: int, check: int = 100,
                   progress: Callable[[int], None] | None = None, workers: int = 1,
                   texts: list[str] | None = None,
                   cluster: str | None = None) -> tuple[Summary, dict]:
    """Play `games` matches on the batch engine; (the summary, what the check found: matches
    replayed, how many agree, the first disagreements). With `workers` > 1 the matches are
    played on that many processes, or with `cluster` on a Dask cluster (`texts`: the agent
    texts `batch` was compiled with), and counted in order: the same summary. Ctrl-C (a
    KeyboardInterrupt) stops the run: the summary of the blocks counted before it, marked
    `interrupted` (a block is counted whole or not at all), as the step engine's run does."""
    summary = new_summary(game)
    checked, problems = 0, []
    pool = None
    if workers > 1 or cluster is not None:
        pool = _on_pool(((game, batch, texts),), workers, games, BATCH_CHUNK,
                        lambda srcs, a, n: (play_match_range, srcs[0][0], texts, seed, a, a + n,
                                            games, check, srcs[0][2]), cluster)
        parts = (part for _n, part in pool)
    else:
        parts = ((_folded(game, block), n, bad) for block, n, bad in
                 _match_blocks(batch, game.definition, seed, 0, games, games, check))
    try:
        for part, n, bad in parts:
            with signals_held():  # a block is counted whole
                summary.absorb(part)
                checked += n
                problems += bad
            if progress is not None:
                progress(summary.games)
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        if pool is not None:  # the workers stopped
            pool.close()
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
    into.gained += tally.gained
    into.lost = into.lost or tally.lost
    add_rows(into.bids, tally.bids)
    add_rows(into.contracts, tally.contracts)
    if tally.chips is not None:
        into.chips = (into.chips or 0) + tally.chips


COMPARE_CHUNK = 4096  # deals a part of a batch compare plays (and counts whole, or not at all)


def _separate_part(sides, seed: int, start: int, n: int, games: int, check: int) -> tuple:
    """Deals start..start+n-1 of a batch compare of two games (`sides`: ("A", game, batch) and
    B's): (each side's Tally, side wins and matches played; the deals' differences, A's score
    less B's, as counts; matches replayed; disagreements)."""
    from .compare import Tally
    totals, tallies, wins_of, played = {}, {}, {}, {}
    checked, problems = 0, []
    for who, game, batch in sides:
        g = game.definition
        ns = len(g.sides)
        tally = tallies[who] = Tally()
        side_wins = wins_of[who] = Counter()
        played[who] = 0
        per = []  # per match: what its hands scored, every side together
        for block in _whose(who, None, batch.matches(n, seed, first=start, first_dealer="rotate",
                                                      decisions=False)):
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
                             _replayed(batch, g, block, sample, seed, "rotate", batch.agents)]
        totals[who] = np.concatenate(per)
    return tallies, wins_of, played, _counts(totals["A"] - totals["B"]), checked, problems


def _whose(who: str, a_side: int | None, blocks):
    """`blocks` as they come; a fault that stops them says whose game it was, as
    compare.play_deal's does (compare.side_fault)."""
    try:
        yield from blocks
    except GameError as e:
        e.who, e.a_side = who, a_side
        raise


def _sided(a, b, seed: int, parts):
    """`parts` as they come; a fault that stops them is said as compare says one, with whose
    game it was (compare.side_fault)."""
    from .compare import side_fault
    try:
        yield from parts
    except BatchUnavailable:  # a worker without numba: not a fault of either ruleset
        raise
    except GameError as e:
        raise side_fault(a, b, e, seed) from None


def _counts(values) -> Counter:
    """How many times each value comes (a whole number as an int, else rounded to 4 places),
    as compare counts a deal's difference."""
    out = Counter()
    for v, c in zip(*np.unique(values, return_counts=True)):
        v = float(v)
        out[int(v) if v == int(v) else round(v, 4)] += int(c)
    return out


def compare_batch(a, b, batch_a, batch_b, *, games: int, seed: int, check: int = 20,
                  progress: Callable[[int, int], None] | None = None, workers: int = 1,
                  cluster: str | None = None) -> tuple:
    """compare on the batch engine, A and B two games (rulesets or options) with one agent
    each on every seat: match d of each is dealt the same hands (batch.matches' deal
    generator), first by seat d mod seats, and counted as compare counts a deal (`Comparison`,
    mode "separate": each side's tally, its wins, and per deal A's score less B's), with
    numpy over the blocks' rows; `check` matches of each replayed through the step engine;
    with `workers` > 1 on that many processes, or on `cluster` (the same comparison). Returns
    (the comparison, what the check found: matches replayed, how many agree, the
    disagreements)."""
    from .compare import Comparison

    res = Comparison("separate", a, b, seed)
    checked, problems = 0, []
    sides = (("A", a.game, batch_a), ("B", b.game, batch_b))
    if workers > 1 or cluster is not None:  # each side's kernel: one agent text, every seat
        parts = _on_pool(((a.game, batch_a, a.agents[:1]), (b.game, batch_b, b.agents[:1])),
                         workers, games, COMPARE_CHUNK,
                         lambda srcs, start, k: (compare_range, "separate",
                                                 (("A",) + srcs[0], ("B",) + srcs[1]), seed,
                                                 start, k, games, check), cluster)
    else:
        parts = ((k, _separate_part(sides, seed, start, k, games, check))
                 for start, k in _compare_chunks(games))
    try:
        for k, (tallies, wins_of, played, diffs, n, bad) in _sided(a, b, seed, parts):
            # a part counts whole or not at all (Ctrl-C keeps the whole deals before it)
            for who, into in (("A", res.ta), ("B", res.tb)):
                _merge(into, tallies[who])
                res.side_wins[who].update(wins_of[who])
                res.played[who] += played[who]
            res.deal_diffs.update(diffs)
            checked += n
            problems += bad
            res.deals += k
            if progress is not None:
                progress(2 * res.deals, 2 * games)
    except KeyboardInterrupt:
        res.interrupted = True
    res.games = max(res.played["A"], res.played["B"])
    return res, {"games": checked, "agree": checked - len(problems),
                 "disagreements": problems[:10]}


def _compare_chunks(games: int) -> Iterator[tuple[int, int]]:
    """(first deal, deals) of each part of a batch compare in one process, made as they are
    asked for."""
    return ((start, min(COMPARE_CHUNK, games - start))
            for start in range(0, games, COMPARE_CHUNK))


def compare_range(kind: str, spec, seed: int, start: int, n: int, games: int,
                  check: int) -> tuple:
    """A pool or cluster task: deals start..start+n-1 of a batch compare, `_separate_part`
    (spec: ("A", Source, agent texts, their files shipped to a cluster) and B's) or
    `_match_part` (spec: (Source, the seatings' agent texts and A's side, as
    compare.match_seatings gives them, the first seating's files shipped))."""
    from .parallel import _game
    with _TASKS:
        if kind == "separate":
            sides = tuple((who, _game(src), _batch_for(src, texts, files))
                          for who, src, texts, files in spec)
            return _separate_part(sides, seed, start, n, games, check)
        src, plans, files = spec
        batch = _batch_for(src, plans[0][0], files)
        seatings = _seated(batch, plans)
        return _match_part(_game(src), batch, seatings, seed, start, n, games, check)


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
    held = played[:, [base + ns + s for s in sides]]
    tally.scored += int(held.sum())
    tally.side_hands += len(sides) * len(played)
    tally.gained += int(held[held > 0].sum())
    tally.lost = tally.lost or bool((held < 0).any())
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


def match_seatings_for(batch, plans) -> list:
    """The seatings of a batch compare at one table, from `compare.match_seatings`' plans (the
    kernel compiled with the first plan's agents): per seating, A's side, the kernel's strategy
    of each seat and who sits there ("A" or "B")."""
    gd = batch.game
    out = []
    for _agents, r in plans:
        who = ["A" if gd.side_of[s] == r else "B" for s in range(gd.seat_count)]
        out.append((r, who))
    first = out[0][1]  # as the kernel was compiled: each one's strategy at a seat of its own
    num = {w: int(batch.seats[first.index(w)]) for w in ("A", "B")}
    return [(r, [num[w] for w in who], who) for r, who in out]


def _seated(batch, plans) -> list:
    """`match_seatings_for` with the agent object of each seat, for the check: A's and B's as
    the kernel's agents hold them."""
    seatings = match_seatings_for(batch, plans)
    first = seatings[0][2]
    obj = {w: batch.agents[first.index(w)] for w in ("A", "B")}
    return [(r, nums, [obj[w] for w in who]) for r, nums, who in seatings]


def _match_part(game, batch, seatings, seed: int, start: int, k: int, games: int,
                check: int) -> tuple:
    """Deals start..start+k-1 of a batch compare at one table, every seating (`_seated`):
    (A's Tally and B's, [A's wins, B's, draws], games played, the deals' differences as
    counts, matches replayed, disagreements). The kernel's seats are as they were after."""
    from .compare import Tally
    g = game.definition
    ns, n = len(g.sides), g.seat_count
    col = MATCH_RESULT.index("winners")
    base = len(RESULT)
    ta, tb = Tally(), Tally()
    wins = [0, 0, 0]  # A's, B's, draws
    diffs = np.zeros(k)
    played, checked, problems = 0, 0, []
    compiled = batch.seats
    try:
        for a_side, strategy, agents in seatings:
            a_seats = set(g.sides[a_side])
            b_sides = [s for s in range(ns) if s != a_side]
            batch.seats = np.array(strategy, dtype=np.int64)
            for block in _whose("AB", a_side, batch.matches(k, seed, first=start,
                                                             first_dealer="rotate",
                                                             decisions=False)):
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
    finally:
        batch.seats = compiled
    return ta, tb, wins, played, _counts(diffs), checked, problems


def compare_batch_match(a, b, batch, plans, *, games: int, seed: int, check: int = 20,
                        progress: Callable[[int, int], None] | None = None,
                        workers: int = 1, cluster: str | None = None) -> tuple:
    """compare on the batch engine, A's agents against B's at one table (one game): each deal
    is played once per seating (`plans`: compare.match_seatings', the kernel compiled with the
    first's agents), match d of every seating dealt the same hands first by seat d mod seats,
    and counted as compare counts a match (mode "match": A's wins, B's, draws, each one's
    tally over the seats it held, per deal A's side's score less the others' mean); `check`
    matches of each seating replayed through the step engine; with `workers` > 1 on that many
    processes, or on `cluster` (the same comparison). Returns (the comparison, what the check
    found). `games` is rounded up to whole deals, as the step engine's compare rounds it: a
    deal is a game for each seating."""
    from .compare import Comparison

    res = Comparison("match", a, b, seed)
    seatings = _seated(batch, plans)
    deals = max(1, -(-games // len(plans)))
    checked, problems = 0, []
    if workers > 1 or cluster is not None:
        parts = _on_pool(((a.game, batch, plans[0][0]),), workers, deals, COMPARE_CHUNK,
                         lambda srcs, start, k: (compare_range, "match",
                                                 (srcs[0][0], plans, srcs[0][2]),
                                                 seed, start, k, deals, check), cluster)
    else:
        parts = ((k, _match_part(a.game, batch, seatings, seed, start, k, deals, check))
                 for start, k in _compare_chunks(deals))
    try:
        for k, (ta, tb, wins, played, diffs, n, bad) in _sided(a, b, seed, parts):
            # a part counts whole or not at all (Ctrl-C keeps the whole deals before it)
            _merge(res.ta, ta)
            _merge(res.tb, tb)
            res.a_wins += wins[0]
            res.b_wins += wins[1]
            res.draws += wins[2]
            res.played["AB"] += played
            res.deal_diffs.update(diffs)
            checked += n
            problems += bad
            res.deals += k
            if progress is not None:
                progress(res.deals * len(seatings), deals * len(seatings))
    except KeyboardInterrupt:
        res.interrupted = True
    res.games = res.played["AB"]
    return res, {"games": checked, "agree": checked - len(problems),
                 "disagreements": problems[:10]}
