"""The batch engine against the hand-written engines and the step engine, on the same deals.

    python benchmarks/bench_batch.py --hands 20000 --seed 1 --repeat 3
    python benchmarks/bench_batch.py --game moon --hands 20000
    python benchmarks/bench_batch.py --agents rules --no-step   # the batch plays the rules agent

For each game: the hand-written engine (handwritten42.py, handwritten_moon.py, the optimised
handwritten_allfives_fast.py), the step engine
(the Game/State API loop of harness.py) and the batch engine (`tablerules.batch`, numba) play
the same `--hands` deals, dealer rotating, with uniformly random legal choices; runs
alternate and the best time of each is kept. The batch engine draws its choices from its own
generator (one per hand, from the seed), so its games are not the hand-written engine's: the
mean decisions per hand of each are printed beside the times, and the batch's hands are
replayed through the step engine (`--verify`, default 2000), which must agree on every decision
and result. Its compile time (numba's, cached after the first run) is printed and not timed.

With `--agents rules` every seat of the batch engine plays the rules agent, and the hand-written
side is the strategy's own hand-written player where there is one (handwritten42_rules.py,
handwritten_moon_rules.py, handwritten_allfives_rules.py: every seat, checked action for action
against the Python rules agent by their --check); the step engine plays the Python rules agent
on every seat too, on the first twentieth of the deals (it is a hundred times slower).

The ratio that matters is `speedup = handwritten seconds / batch seconds` on one core (the
batch engine runs one thread), each side's best time; each repeat's own ratio (its two timings
taken one after the other) is printed too, with their lowest, median and highest: a machine
whose speed drifts during the run moves the best times apart, a repeat's pair less. Then the
two play the deals again slice by slice (`--slices`, 10 a repeat), each slice by both, a few
milliseconds apart: the median of those ratios, with its quartiles (`speedup_sliced`), is the
figure a drifting machine moves least. The last line is a JSON list for tools, one object a
game.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import harness  # puts <repo>/src on sys.path

GAMES = {"texas42": ("handwritten42", "deals", 4), "moon": ("handwritten_moon", "handwritten_moon", 3),
         "allfives": ("handwritten_allfives_fast", "deals", 4)}
# the hand-written players of the shipped strategies, every seat (each checked action for
# action against the Python rules agent by its --check): with --agents rules the batch engine's
# rules agent is timed against these, the like-for-like baseline
RULES = {"texas42": "handwritten42_rules", "moon": "handwritten_moon_rules",
         "allfives": "handwritten_allfives_rules"}


def bench(name: str, hands: int, seed: int, repeat: int, verify: int, step: bool,
          agent: str = "random", slices: int = 10) -> dict:
    import importlib

    import numpy as np

    from tablerules.batch import compile_batch, verify as replay
    from tablerules.game import load_game

    engine_mod, deals_mod, seats = GAMES[name]
    hw_rules = agent != "random" and name in RULES
    hw = importlib.import_module(RULES[name] if hw_rules else engine_mod)
    deals = importlib.import_module(deals_mod).make_deals(hands, seed)
    dealers = [i % seats for i in range(hands)]
    game = load_game(name, typed=True)
    g = game.definition
    t0 = time.perf_counter()
    if agent == "random":
        batch = compile_batch(g)
    else:  # every seat the rules agent (its strategy compiled in), as on the other two engines
        from tablerules.agents import make_agent
        batch = compile_batch(g, [make_agent(agent, random.Random(seed), g)])
    masks = np.array([[sum(1 << t for t in h) for h in game.deal_ids(d)[:seats]] for d in deals],
                     dtype=np.int64)
    stocks = np.array([list(game.deal_ids(d)[seats]) if g.stock else [0] for d in deals],
                      dtype=np.int64)
    dealer_arr = np.array(dealers, dtype=np.int64)
    batch.play_deals(masks[:20], stocks[:20], dealer_arr[:20], seed)  # compiles, or loads the cache
    compile_s = time.perf_counter() - t0
    print(f"{name}: batch engine compiled (or loaded from the cache) in {compile_s:.2f}s, not timed")

    def handwritten(lo, hi):  # deals lo..hi-1 (all of them: 0, hands)
        if hw_rules:  # the strategy's player draws no random numbers
            for deal, dealer in zip(deals[lo:hi], dealers[lo:hi]):
                hw.play_hand(deal, dealer)
        else:
            rng = random.Random(seed + lo)
            for deal, dealer in zip(deals[lo:hi], dealers[lo:hi]):
                hw.play_hand(deal, dealer, rng)

    def batched(lo, hi):  # the same deals on the batch engine, each seeded by its number
        return batch.play_deals(masks[lo:hi], stocks[lo:hi], dealer_arr[lo:hi], seed, first=lo)

    # the step engine plays what the batch plays: random moves, or the Python rules agent on
    # every seat (a twentieth of the deals: it makes about 1,000 hands a second)
    step_play = harness.run_interpreter if agent == "random" else harness.run_rules_agent
    step_n = hands if agent == "random" else max(1, hands // 20)
    best = {"handwritten": float("inf"), "batch": float("inf"), "step": float("inf")}
    out = None
    paired = []  # each repeat's ratio: its two timings taken one after the other
    for r in range(repeat):
        dt, _ = harness.timed_with(handwritten, 0, hands)
        best["handwritten"] = min(best["handwritten"], dt)
        line = f"  repeat {r + 1}: handwritten {dt:.3f}s"
        hw_dt = dt
        dt, out = harness.timed_with(batched, 0, hands)
        best["batch"] = min(best["batch"], dt)
        paired.append(hw_dt / dt)
        line += f"  batch {dt:.3f}s ({hw_dt / dt:.2f}x)"
        if step:
            dt, _ = harness.timed_with(step_play, game, deals[:step_n], dealers[:step_n], seed)
            best["step"] = min(best["step"], dt)
            line += f"  step engine {dt:.3f}s"
        print(line)
    sliced = []
    if slices:  # the same two engines slice by slice, a few milliseconds apart (harness.sliced)
        sliced = harness.sliced(handwritten, batched, hands, slices, repeat)
    sample = range(min(verify, hands))
    t0 = time.perf_counter()
    problems = replay(g, out, sample) if agent == "random" else batch.verify(out, sample)
    print(f"  replayed {len(sample)} batch hands through the step engine in "
          f"{time.perf_counter() - t0:.2f}s: {len(sample) - len(problems)} agree")
    for p in problems[:5]:
        print("   ", p)
    work = harness.interpreter_work if agent == "random" else harness.rules_work
    n_work = min(2000, step_n)
    hw_work, _ = work(game, deals[:n_work], dealers[:n_work], seed) if step else (None, None)
    res = {
        "game": name, "hands": hands, "seed": seed, "repeat": repeat,
        "handwritten_hps": round(hands / best["handwritten"], 1),
        "batch_hps": round(hands / best["batch"], 1),
        "speedup": round(best["handwritten"] / best["batch"], 2),
        "speedup_is": "handwritten_seconds / batch_seconds",
        # the same ratio repeat by repeat (the machine's state moves both timings of a repeat
        # alike, and the best of each apart): lowest, median, highest
        "speedup_per_repeat": harness.spread(paired),
        # the same ratio slice by slice (--slices a repeat, the two engines a few milliseconds
        # apart): lower quartile, median, upper quartile
        "speedup_sliced": harness.quartiles(sliced) if sliced else None,
        "batch_decisions_per_hand": round(float(out.column("steps").mean()), 2),
        "step_decisions_per_hand": round(hw_work, 2) if hw_work is not None else None,
        "verified": [len(sample) - len(problems), len(sample)],
        "compile_seconds": round(compile_s, 2),
        "batch_agents": agent,
        # what the hand-written engine played: random moves, or the strategy's own player
        "handwritten": RULES[name] if hw_rules else engine_mod,
        # the choices the batch's agents made (decisions with more than one legal action)
        "batch_choices_per_second": round(float((out.legal > 1).sum()) / best["batch"], 1),
    }
    if step:
        res["step_hands"] = step_n
        res["step_hps"] = round(step_n / best["step"], 1)
        res["batch_over_step"] = round(res["batch_hps"] / res["step_hps"], 1)  # hands a second
    print(f"{name:8s} speedup {res['speedup']:6.2f}x  (hand-written {res['handwritten_hps']:>10,.0f}"
          f" hands/s, batch {res['batch_hps']:>12,.0f}"
          + (f", step engine {res['step_hps']:>9,.0f}" if step else "") + ")")
    lo, mid, hi = res["speedup_per_repeat"]
    print(f"{'':8s} repeat by repeat {lo:.2f}x-{hi:.2f}x, median {mid:.2f}x")
    if sliced:
        q1, med, q3 = res["speedup_sliced"]
        print(f"{'':8s} slice by slice ({len(sliced)} slices of {-(-hands // slices)} hands): "
              f"median {med:.2f}x, quartiles {q1:.2f}x-{q3:.2f}x")
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="batch engine vs hand-written engines, hands/second")
    ap.add_argument("--game", action="append", choices=sorted(GAMES),
                    help="texas42, moon or allfives (default: all three)")
    ap.add_argument("--hands", type=harness.POSITIVE, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=harness.POSITIVE, default=3)
    ap.add_argument("--verify", type=harness.NONNEGATIVE, default=2000,
                    help="batch hands replayed (default 2000)")
    ap.add_argument("--no-step", action="store_true", help="do not time the step engine")
    ap.add_argument("--slices", type=harness.NONNEGATIVE, default=10,
                    help="also time both engines slice by slice, this many slices a repeat, "
                         "the two a few milliseconds apart (0: not)")
    ap.add_argument("--agents", choices=("random", "rules"), default="random",
                    help="every seat's agent: random, or rules (the strategy's hand-written "
                         "player, the Python rules agent on the step engine; the batch's "
                         "choices replayed too)")
    a = ap.parse_args(argv)
    try:
        import numba  # noqa: F401  (only whether it is installed)
    except ImportError:
        print("the batch engine needs numba: pip install 'tablerules[fast]'")
        print(json.dumps({"batch": None, "error": "numba is not installed"}))
        return 1
    from tablerules.batch.typed import NotBatchable

    results = []
    for name in a.game or sorted(GAMES):
        try:
            results.append(bench(name, a.hands, a.seed, a.repeat, a.verify, not a.no_step,
                                 a.agents, a.slices))
        except NotBatchable as e:  # a strategy with no kernel form
            print(f"{name}: not played on the batch engine with --agents {a.agents}: {e}")
            results.append({"game": name, "batch_agents": a.agents, "error": str(e)})
    print(json.dumps(results))
    return 0 if all("error" not in r and r["verified"][0] == r["verified"][1]
                    for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
