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
    made = played[:, col("made")] != 0
    forced = played[:, col("forced")] != 0
    bid = played[:, col("bid")]
    for c, k in zip(*np.unique(contract, return_counts=True)):
        summary.contracts[g.contracts[int(c)].name] += int(k)
    nb = len(g.bids)
    key = bid * 2 + forced
    n_key = np.bincount(key, minlength=2 * nb)
    made_key = np.bincount(key[made], minlength=2 * nb)
    for k in np.nonzero(n_key)[0]:
        label = g.bids[int(k) // 2].label + (FORCED if k % 2 else "")
        row = summary.bids[label]
        row[0] += int(made_key[k])
        row[1] += int(n_key[k])
    with_bid = np.array([g.bids[int(b)].label != NO_BID for b in range(nb)])[bid]
    for c in np.unique(contract[with_bid]):
        sel = with_bid & (contract == c)
        row = summary.by_contract[g.contracts[int(c)].name]
        row[0] += int(made[sel].sum())
        row[1] += int(sel.sum())
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
    wins = m[:, MATCH_RESULT.index("winners")]
    for s in range(ns):
        summary.side_wins[s] += int(((wins >> s) & 1).sum())


def simulate_batch(game, batch, *, games: int, seed: int, check: int = 100,
                   progress: Callable[[int], None] | None = None) -> tuple[Summary, dict]:
    """Play `games` matches on the batch engine; (the summary, what the check found: matches
    replayed, how many agree, the first disagreements)."""
    summary = new_summary(game)
    stride = max(1, games // check) if check else 0
    checked, problems = 0, []
    for block in batch.matches(games, seed):
        fold_block(summary, game, block)
        if stride:
            sample = [m for m in range(len(block)) if (block.first + m) % stride == 0]
            sample = sample[:check - checked]
            checked += len(sample)
            problems += replay_matches(game.definition, block, sample, batch.agents)
        if progress is not None:
            progress(summary.games)
    return summary, {"games": checked, "agree": checked - len(problems),
                     "disagreements": problems[:10]}


def hand_events(g, hands, rows) -> list[dict]:
    """Rows of a batch block as State.hand_result() gives each hand (what compare counts)."""
    ns = len(g.sides)
    col = RESULT.index
    out = []
    scored = hands.scored(ns)
    for r in rows:
        row = hands.results[r]
        if row[col("thrown_in")]:
            out.append({"thrown_in": True})
            continue
        ev = {"thrown_in": False, "contract": g.contracts[int(row[col("contract")])].name,
              "bid": g.bids[int(row[col("bid")])].label, "bidder": int(row[col("bidder")]),
              "forced": bool(row[col("forced")]), "made": bool(row[col("made")]),
              "scored": [int(x) for x in scored[r]]}
        if g.match.stake is not None:
            ev["paid"] = hands.paid(g, int(r))
        out.append(ev)
    return out


def compare_batch(a, b, batch_a, batch_b, *, games: int, seed: int, check: int = 20,
                  progress: Callable[[int, int], None] | None = None) -> tuple:
    """compare on the batch engine, A and B two games (rulesets or options) with one agent
    each on every seat: match d of each is dealt the same hands (batch.matches' deal
    generator), first by seat d mod seats, and counted as compare counts a deal (`Comparison`,
    mode "separate"); `check` matches of each replayed through the step engine. Returns (the
    comparison, what the check found: matches replayed, how many agree, the disagreements)."""
    from .compare import Comparison, _count, _count_difference

    res = Comparison("separate", a, b, seed)
    stride = max(1, games // check) if check else 0
    checked, problems = 0, []
    chunk = 4096
    try:
        for start in range(0, games, chunk):
            n = min(chunk, games - start)
            got = {}
            for who, c, batch in (("A", a, batch_a), ("B", b, batch_b)):
                g = c.game.definition
                per = []  # per match: its hands as events, its winners
                for block in batch.matches(n, seed, first=start, first_dealer="rotate"):
                    for m in range(len(block)):
                        per.append((hand_events(g, block.hands, block.rows(m)),
                                    block.winners(m)))
                    if stride:
                        sample = [m for m in range(len(block))
                                  if (block.first + m) % stride == 0]
                        checked += len(sample)
                        problems += [f"{who}: {p}" for p in
                                     replay_matches(g, block, sample, batch.agents)]
                got[who] = per
            for d in range(n):
                deal = [(who, None, None, *got[who][d]) for who in ("A", "B")]
                for who, _seating, _side, hands, winners in deal:
                    _count(res, who, None, hands, winners)
                _count_difference(res, deal)
                res.deals += 1
            if progress is not None:
                progress(2 * res.deals, 2 * games)
    except KeyboardInterrupt:
        res.interrupted = True
    res.games = max(res.played["A"], res.played["B"])
    return res, {"games": checked, "agree": checked - len(problems),
                 "disagreements": problems[:10]}
