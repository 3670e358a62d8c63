"""Time the hand-written Texas 42 engine against the tablerules interpreter on the same deals.

    python benchmarks/bench_hands.py --hands 20000 --seed 1 --repeat 3

Straight 42 (no Nello or Sevens bids): one-round auction, trump, trick play with early end.
See harness.py for how the two are timed; the result is the ratio.
"""

from __future__ import annotations

import random
import sys

import harness
from handwritten42 import play_hand


def work(deals, dealers, seed):
    """Untimed: mean decisions per hand = 4 auction + 1 trump + 4 per trick played."""
    rng = random.Random(seed)
    total = 0
    for deal, dealer in zip(deals, dealers):
        total += 5 + 4 * play_hand(deal, dealer, rng).tricks
    return total / len(deals), []


def main(argv=None) -> int:
    return harness.main(game_name="texas42", play_hand=play_hand, work=work,
                        default_options=["nello=false", "sevens=false"],
                        option_help="ruleset option name=value (default: straight 42, no Nello "
                                    "or Sevens bids)",
                        same_games=False, argv=argv)


if __name__ == "__main__":
    sys.exit(main())
