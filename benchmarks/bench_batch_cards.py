"""The batch engine against the hand-written engine and the step engine on a card game (taroky),
on the same deals.

    python benchmarks/bench_batch_cards.py --hands 20000 --seed 1 --repeat 3
    python benchmarks/bench_batch_cards.py -o counting=czech
    python benchmarks/bench_batch_cards.py --agents rules --hands 5000 --step-hands 500

The hand-written engine (handwritten_taroky.py: plain Python, masks and tables, checked action
for action against the step engine by its --check), the step engine (the Game/State API loop of
harness.run_interpreter, on the first `--step-hands` of the deals) and the batch engine play the
same `--hands` deals (the batch's own deals, dealer rotating), each with uniformly random legal
choices from its own generator (the hand-written engine and the step engine from
random.Random(seed), so they play the same games: checked on a sample); runs alternate and the
best time of each is kept, so the ratios are measured side by side: `speedup = handwritten
seconds / batch seconds` (the batch engine runs one thread) beside the step engine's. The
batch's hands are replayed through the step engine (`--verify`), which must agree on every
decision and result. numba's compile (cached after the first run) is printed and not timed.
Then the batch and hand-written engines play the deals again slice by slice (`--slices`, 10 a
repeat), both on each slice a few milliseconds apart: the median of those ratios, with its
quartiles (`speedup_sliced`), is the figure a machine whose speed drifts moves least.

The hand-written engine plays taroky's default options only: with an `-o` that changes a hand
(counting=czech, ...) it is not timed, and the output says so (`handwritten_hps` and `speedup`
are null). With `--agents rules` every seat of both the batch and the step engine plays the
rules agent (taroky's strategy: compiled into the batch kernel, and the Python agent on the step
engine, reading each seat's sight), and the replay checks each of the batch's choices against
the Python agent's; the hand-written side is then handwritten_taroky_rules.py (every seat the
strategy written out by hand, checked action for action against the Python rules agent by its
--check), and its games are checked against the step engine's with the rules agent on a
sample of the deals (`handwritten_same_as_step`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import harness  # puts <repo>/src on sys.path
import handwritten_taroky as hw
import handwritten_taroky_rules as hw_rules


@harness.guarded
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="batch engine vs step engine on taroky, hands/s")
    ap.add_argument("--hands", type=harness.POSITIVE, default=20000)
    ap.add_argument("--step-hands", type=harness.POSITIVE, default=2000,
                    help="hands the step engine plays (the first of the same deals)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=harness.POSITIVE, default=3)
    ap.add_argument("--verify", type=harness.NONNEGATIVE, default=2000)
    ap.add_argument("--slices", type=harness.NONNEGATIVE, default=10,
                    help="also time the batch and hand-written engines slice by slice, this many "
                         "slices a repeat, a few milliseconds apart (0: not)")
    ap.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--agents", choices=("random", "rules"), default="random",
                    help="every seat of both engines: random legal choices or the rules agent")
    a = ap.parse_args(argv)
    from tablerules.batch import compile_batch, deals as batch_deals
    from tablerules.game import load_game

    options = harness.options(a.option)
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
    # the hand-written engine: the same deals, random play, taroky's default options only
    skip = hw.unsupported_options(options)
    why = f"it plays taroky's default options only, not {', '.join(skip)}" if skip else None
    hw_deals = hw_dealers = None
    if why is None:
        hw_deals = deals + [batch_deals.as_lists(g, hands, stocks, i)
                            for i in range(n_step, a.hands)]
        hw_dealers = [int(d) for d in dealers]
    else:
        print(f"hand-written engine: not timed ({why})")

    def handwritten(lo, hi):  # deals lo..hi-1 (all of them: 0, hands)
        if a.agents == "rules":  # the strategy's player draws no random numbers
            return hw_rules.play_hands(hw_deals[lo:hi], hw_dealers[lo:hi])
        return hw.play_hands(hw_deals[lo:hi], hw_dealers[lo:hi], random.Random(a.seed + lo))

    def batched(lo, hi):  # the same deals on the batch engine, each seeded by its number
        return batch.play_deals(hands[lo:hi], stocks[lo:hi], dealers[lo:hi], a.seed, first=lo)

    best_b = best_s = best_h = float("inf")
    out = None
    paired = []  # each repeat's own ratio: its batch and hand-written timings, one after the other
    for r in range(a.repeat):
        dt, out = harness.timed_with(batched, 0, a.hands)
        best_b = min(best_b, dt)
        line = f"  repeat {r + 1}: batch {a.hands} hands {dt:.3f}s"
        if hw_deals is not None:
            dh, _ = harness.timed_with(handwritten, 0, a.hands)
            best_h = min(best_h, dh)
            paired.append(dh / dt)
            line += f"  hand-written {a.hands} hands {dh:.3f}s ({dh / dt:.2f}x)"
        ds, _ = harness.timed_with(step, game, deals, step_dealers, a.seed)
        best_s = min(best_s, ds)
        print(f"{line}  step engine {n_step} hands {ds:.3f}s")
    sliced = []
    if hw_deals is not None and a.slices:  # slice by slice, a few milliseconds apart
        sliced = harness.sliced(handwritten, batched, a.hands, a.slices, a.repeat)
    sample = range(min(a.verify, a.hands))
    problems = batch.verify(out, sample)
    res = {"game": "taroky", "options": options, "agents": a.agents, "hands": a.hands,
           "step_hands": n_step,
           "batch_hps": round(a.hands / best_b, 1), "step_hps": round(n_step / best_s, 1),
           "batch_over_step": round((a.hands / best_b) / (n_step / best_s), 1),
           "verified": [len(sample) - len(problems), len(sample)],
           "handwritten_hps": None, "speedup": None,
           "speedup_is": "handwritten_seconds / batch_seconds"}
    same = None
    if hw_deals is not None:
        m = min(n_step, 500)
        if a.agents == "rules":  # the strategy draws nothing: the same deal, the same game
            mine = [hw.hand_result(x) for x in hw_rules.play_hands(deals[:m], step_dealers[:m])]
            agents = harness.rules_agents(game)
            theirs = [harness.rules_hand(game, agents, d, dl)
                      for d, dl in zip(deals[:m], step_dealers[:m])]
        else:  # the same random.Random(seed) stream, the same order of legal actions
            mine = [hw.hand_result(x) for x in hw.play_hands(deals[:m], step_dealers[:m],
                                                              random.Random(a.seed))]
            theirs = harness.compiled_work(game, deals[:m], step_dealers[:m], a.seed)
        same = [sum(x == y for x, y in zip(mine, theirs)), m]
        res["handwritten_hps"] = round(a.hands / best_h, 1)
        res["speedup"] = round(best_h / best_b, 2)
        res["speedup_per_repeat"] = harness.spread(paired)
        res["speedup_sliced"] = harness.quartiles(sliced) if sliced else None
        res["handwritten_over_step"] = round((a.hands / best_h) / (n_step / best_s), 1)
        res["handwritten_same_as_step"] = same
    else:
        res["handwritten_skipped"] = why
    print(f"taroky  batch {res['batch_hps']:,.0f} hands/s, step engine {res['step_hps']:,.0f} "
          f"hands/s: {res['batch_over_step']}x; replayed {len(sample)}: "
          f"{len(sample) - len(problems)} agree")
    if same is not None:
        print(f"taroky  speedup {res['speedup']:.2f}x (hand-written {res['handwritten_hps']:,.0f} "
              f"hands/s, batch {res['batch_hps']:,.0f}; the hand-written engine "
              f"{res['handwritten_over_step']}x the step engine, the same games as the step "
              f"engine in {same[0]}/{same[1]})")
        lo, mid, hi = res["speedup_per_repeat"]
        print(f"{'':8s}repeat by repeat {lo:.2f}x-{hi:.2f}x, median {mid:.2f}x")
        if sliced:
            q1, med, q3 = res["speedup_sliced"]
            print(f"{'':8s}slice by slice ({len(sliced)} slices of {-(-a.hands // a.slices)} "
                  f"hands): median {med:.2f}x, quartiles {q1:.2f}x-{q3:.2f}x")
    print(json.dumps(res))
    return 0 if not problems and (same is None or same[0] == same[1]) else 1


if __name__ == "__main__":
    sys.exit(main())
