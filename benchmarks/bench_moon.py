"""Time the hand-written Moon engine against the tablerules interpreter on the same deals.

    python benchmarks/bench_moon.py --hands 5000 --seed 1 --repeat 3

Both engines offer the same legal actions in the same order (checked by
`handwritten_moon.py --check`), so the same seed plays the same games in both.
See harness.py for how the two are timed; the result is the ratio.
"""

from __future__ import annotations

import random
import sys

import harness
from handwritten_moon import make_deals, play_hand


def work(deals, dealers, seed):
    """Untimed: mean decisions per hand (3 bids, bury, trump, 21 plays) and per-hand results."""
    rng = random.Random(seed)
    total = 0
    results = []
    for deal, dealer in zip(deals, dealers):
        r = play_hand(deal, dealer, rng)
        if r.thrown_in:
            total += 3
            results.append((None, None))
        else:
            total += 3 + 2 + 21
            results.append((list(r.tricks), list(r.scored)))
    return total / len(deals), results


def main(argv=None) -> int:
    return harness.main(game_name="moon", play_hand=play_hand, work=work, default_options=[],
                        option_help="ruleset option name=value (default: none; the hand-written "
                                    "engine only plays the defaults)",
                        same_games=True, argv=argv, make_deals=make_deals, seats=3)


if __name__ == "__main__":
    sys.exit(main())
