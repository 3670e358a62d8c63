"""The batch engine against the step engine on a card game (taroky), on the same deals.

    python benchmarks/bench_batch_cards.py --hands 20000 --seed 1 --repeat 3
    python benchmarks/bench_batch_cards.py -o counting=czech
    python benchmarks/bench_batch_cards.py --agents rules --hands 5000 --step-hands 500

There is no hand-written taroky engine: the step engine (the Game/State API loop of
harness.run_interpreter) and the batch engine play the same `--hands` deals (the batch's own
deals, dealer rotating), each with uniformly random legal choices from its own generator; runs
alternate and the best time of each is kept, so the ratio is measured side by side. The batch's
hands are replayed through the step engine (`--verify`), which must agree on every decision
and result. numba's compile (cached after the first run) is printed and not timed.

With `--agents rules` every seat of both plays the rules agent (taroky's strategy: compiled into
the batch kernel, and the Python agent on the step engine, reading each seat's sight), and the
replay checks each of the batch's choices against the Python agent's.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time

import harness  # puts <repo>/src on sys.path


def _timed(fn, *args):
    gc.collect()
    t0 = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t0, out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="batch engine vs step engine on taroky, hands/s")
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--step-hands", type=int, default=2000,
                    help="hands the step engine plays (the first of the same deals)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--verify", type=int, default=2000)
    ap.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--agents", choices=("random", "rules"), default="random",
                    help="every seat of both engines: random legal choices or the rules agent")
    a = ap.parse_args(argv)
    from tablerules.batch import compile_batch, deals as batch_deals
    from tablerules.game import load_game

    options = dict(o.split("=", 1) for o in a.option)
    game = load_game("taroky", options, typed=True)
    g = game.definition
    t0 = time.perf_counter()
    if a.agents == "rules":
        from tablerules.agents import make_agent
        batch = compile_batch(g, [make_agent("rules", random.Random(a.seed), g)])
        step = harness.run_rules_agent
    else:
        batch = compile_batch(g)
        step = harness.run_interpreter
    print(f"taroky: batch engine compiled (or loaded from the cache) in "
          f"{time.perf_counter() - t0:.2f}s, not timed")
    hands, stocks = batch_deals.deal(g, a.hands, a.seed)
    import numpy as np
    dealers = np.arange(a.hands, dtype=np.int64) % g.seat_count
    n_step = min(a.step_hands, a.hands)
    deals = [batch_deals.as_lists(g, hands, stocks, i) for i in range(n_step)]
    step_dealers = [int(d) for d in dealers[:n_step]]
    best_b = best_s = float("inf")
    out = None
    for r in range(a.repeat):
        dt, out = _timed(batch.play_deals, hands, stocks, dealers, a.seed)
        best_b = min(best_b, dt)
        ds, _ = _timed(step, game, deals, step_dealers, a.seed)
        best_s = min(best_s, ds)
        print(f"  repeat {r + 1}: batch {a.hands} hands {dt:.3f}s  step engine {n_step} hands "
              f"{ds:.3f}s")
    sample = range(min(a.verify, a.hands))
    problems = batch.verify(out, sample)
    res = {"game": "taroky", "options": options, "agents": a.agents, "hands": a.hands,
           "step_hands": n_step,
           "batch_hps": round(a.hands / best_b, 1), "step_hps": round(n_step / best_s, 1),
           "batch_over_step": round((a.hands / best_b) / (n_step / best_s), 1),
           "verified": [len(sample) - len(problems), len(sample)]}
    print(f"taroky  batch {res['batch_hps']:,.0f} hands/s, step engine {res['step_hps']:,.0f} "
          f"hands/s: {res['batch_over_step']}x; replayed {len(sample)}: "
          f"{len(sample) - len(problems)} agree")
    print(json.dumps(res))
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
