"""Time the optimised hand-written All Fives engine against the interpreter on the same deals.

    python benchmarks/bench_allfives.py --hands 5000 --seed 1 --repeat 3

The engine timed is `handwritten_allfives_fast.py` (bitmask hands, per-number masks); it offers
the same legal actions in the same order as the plain `handwritten_allfives.py` and the
interpreter (checked by `handwritten_allfives_fast.py --check`), so the same seed plays the same
games in all three. `--plain` times the plain engine instead.
See harness.py for how the two are timed; the result is the ratio.
"""

from __future__ import annotations

import random
import sys

import handwritten_allfives
import handwritten_allfives_fast
import harness

play_hand = handwritten_allfives_fast.play_hand


def work(deals, dealers, seed):
    """Untimed: mean decisions per hand (bones laid + knocks) and the per-hand results."""
    rng = random.Random(seed)
    total = 0
    results = []
    for deal, dealer in zip(deals, dealers):
        r = play_hand(deal, dealer, rng)
        total += r.lays + r.knocks
        results.append((list(r.points), list(r.award)))
    return total / len(deals), results


def main(argv=None) -> int:
    global play_hand
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--plain" in argv:  # time the plain baseline instead (the "plain" figure)
        play_hand = handwritten_allfives.play_hand
    return harness.main(game_name="allfives", play_hand=play_hand, work=work, default_options=[],
                        option_help="ruleset option name=value (default: none, i.e. 4 players, "
                                    "partners, 7 each; the hand-written engine only plays that)",
                        same_games=True, argv=argv,
                        flags={"--plain": "time the plain hand-written engine "
                                          "(handwritten_allfives.py), not the optimised one"})


if __name__ == "__main__":
    sys.exit(main())
