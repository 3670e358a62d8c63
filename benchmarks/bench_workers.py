"""`simulate --workers 2` against one process on the same run: throughput ratio, side by side.

Plays `--games` matches of a ruleset (texas42) with its default agents (its simulate.agents),
the summary only (as `tablerules simulate` without --record), on 1 process and then on
`--workers` processes, interleaved for `--repeat` rounds (1, N, 1, N, ...), keeping the best
time of each. A pool run's time includes starting its workers (on Linux forked with the game
loaded; spawned, each importing tablerules and loading the ruleset, with
TABLERULES_START_METHOD=spawn), as a user's run does. The target of issue 11 is a throughput ratio of at
least 0.8 x N. The two runs' summaries must be equal (checked). The pool's start is then timed
alone (a run of one game a worker), and the ratio without it printed beside: a run pays it once,
so a longer run comes nearer to that ratio. The last line is one JSON object.

`--engine batch` times `simulate --engine batch` the same way (the kernel compiled, or loaded from
numba's cache, before the timing; no replays: --check 0). `--cluster ADDRESS` plays the other
runs on a Dask cluster instead of a pool (the cluster extra); `--workers` then says how many
one-thread workers it has, for the target.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time

# as the tablerules command does (cli/main.py main): numpy's BLAS starts no pool of threads, so
# that the pool's workers are forked (records/parallel.py start_method), as a user's run's are;
# with its threads running, every worker would be spawned and load the ruleset afresh
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))  # run from a checkout

from harness import POSITIVE, guarded  # noqa: E402


def timed(game, names, games, seed, workers, cluster=None, batch=None):
    """A run's seconds and its summary: on one process (workers 1), a pool or `cluster`; on the
    batch engine when `batch` (the compiled kernel) is given."""
    from tablerules.records.parallel import game_source
    from tablerules.records.runner import simulate
    elsewhere = cluster if workers > 1 else None
    gc.collect()
    t = time.perf_counter()  # the pool's start is counted, as a user waits for it
    if batch is not None:
        from tablerules.records.batchrun import simulate_batch
        summary, _ = simulate_batch(game, batch, games=games, seed=seed, check=0,
                                    workers=workers, texts=names, cluster=elsewhere)
    else:
        source = game_source(game, names, seed, workers=workers, cluster=elsewhere) \
            if workers > 1 else None
        summary = simulate(game, games=games, seed=seed, agent_names=names, source=source)
    return time.perf_counter() - t, summary.as_dict()


@guarded
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="texas42")
    ap.add_argument("--games", type=POSITIVE, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=POSITIVE, default=2)
    ap.add_argument("--repeat", type=POSITIVE, default=3)
    ap.add_argument("--engine", choices=("step", "batch"), default="step",
                    help="the step engine, or the batch engine (numba: the fast extra)")
    ap.add_argument("--cluster", metavar="ADDRESS",
                    help="play the other runs on this Dask cluster (the cluster extra), not a "
                         "pool; --workers: its one-thread workers")
    args = ap.parse_args(argv)
    from tablerules.game import load_game
    from tablerules.records.parallel import cores, start_method
    game = load_game(args.ruleset, typed=True)  # as the CLI loads it (a forked worker inherits it)
    names = list(game.definition.agents) or ["random"]
    batch = None
    if args.engine == "batch":  # compiled (or loaded from numba's cache) before the timing
        from tablerules.batch import compile_batch
        from tablerules.records.batchrun import batch_agents
        gd = game.definition
        batch = compile_batch(gd, batch_agents(gd, names))
        batch.ready("matches")
    run = lambda games, w: timed(game, names, games, args.seed, w, args.cluster, batch)  # noqa: E731
    best = {1: None, args.workers: None}
    results = {}
    for r in range(args.repeat):
        for w in (1, args.workers):
            s, summary = run(args.games, w)
            assert results.setdefault(w, summary) == summary, "a run's summary changed"
            best[w] = s if best[w] is None else min(best[w], s)
            print(f"round {r + 1}  workers {w}  {s:.2f}s  {args.games / s:.1f} games/s",
                  flush=True)
    assert results[args.workers] == results[1], "the runs' summaries differ"
    # the pool's start alone: a run of one game a worker, best of `repeat` (what a run of any
    # length pays once: forking the workers, or spawning them, each importing and loading)
    start = min(run(args.workers, args.workers)[0] for _ in range(args.repeat))
    how = None if args.cluster else start_method()  # how the pool's workers started
    thr1, thrn = args.games / best[1], args.games / best[args.workers]
    ratio = thrn / thr1
    steady = args.games / max(best[args.workers] - start, 1e-9) / thr1
    target = 0.8 * args.workers
    where = f"a cluster's {args.workers} workers" if args.cluster else f"{args.workers} workers"
    print(f"{args.ruleset}, {args.games} games, {args.engine} engine, agents {','.join(names)}: "
          f"1 process {thr1:.1f} games/s, {where} {thrn:.1f} games/s; ratio {ratio:.2f} "
          f"(target {target:.2f}; {cores()} cores available; load average "
          f"{os.getloadavg()[0]:.2f})")
    what = "the cluster client's start" if args.cluster else "the pool's start"
    print(f"{what} (a run of {args.workers} games{', workers ' + how + 'ed' if how else ''}) "
          f"{start:.2f}s; without it the "
          f"workers' ratio would be {steady:.2f}: a longer run comes nearer to that")
    print(json.dumps({"ruleset": args.ruleset, "games": args.games, "seed": args.seed,
                      "engine": args.engine, "cluster": args.cluster,
                      "workers": args.workers, "repeat": args.repeat, "cores": cores(),
                      "one_gps": round(thr1, 2), "workers_gps": round(thrn, 2),
                      "ratio": round(ratio, 3),
                      "ratio_is": "throughput(workers) / throughput(1 process)",
                      "target": round(target, 2), "loadavg": round(os.getloadavg()[0], 2),
                      "pool_start_s": round(start, 3), "start_method": how,
                      "ratio_without_start": round(steady, 3)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
