"""Every benchmark at a modest size, one line each: the interpreter's ratio, the agents' rates.

    python benchmarks/run_all.py                  # 5000 hands, 3 repeats, agents at a small size
    python benchmarks/run_all.py --hands 20000 --repeat 5 --no-agents

Each benchmark runs as its own process (one after the other, so they do not share the cores);
the line printed is read from the closing JSON line of its output. The ratio is interpreter
time / hand-written time, measured side by side inside that benchmark's run (1.0 = parity).
The last line is one JSON object with every result.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from harness import POSITIVE

HERE = os.path.dirname(os.path.abspath(__file__))
HANDS = (("texas42", "bench_hands.py", ()), ("allfives", "bench_allfives.py", ()),
         ("allfives-plain", "bench_allfives.py", ("--plain",)), ("moon", "bench_moon.py", ()))


def _run(script: str, *args: str) -> dict:
    r = subprocess.run([sys.executable, os.path.join(HERE, script), *args], capture_output=True,
                       text=True)
    lines = r.stdout.strip().splitlines()
    if r.returncode != 0 or not lines:
        return {"error": (r.stderr.strip().splitlines() or ["no output"])[-1]}
    try:
        return json.loads(lines[-1])
    except ValueError:
        return {"error": f"no JSON line: {lines[-1][:80]}"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="run every benchmark at a modest size")
    ap.add_argument("--hands", type=POSITIVE, default=5000)
    ap.add_argument("--repeat", type=POSITIVE, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-agents", action="store_true", help="skip bench_agents.py")
    ap.add_argument("--no-compiled", action="store_true",
                    help="do not time the compiled steps (numba; compiling takes 10-15 s a game)")
    ap.add_argument("--rules-decisions", type=POSITIVE, default=500)
    ap.add_argument("--search-decisions", type=POSITIVE, default=4)
    a = ap.parse_args(argv)
    results: dict = {}
    failed = False
    for game, script, extra in HANDS:
        s = _run(script, "--hands", str(a.hands), "--repeat", str(a.repeat), "--seed",
                 str(a.seed), *extra, *(["--no-compiled"] if a.no_compiled else []))
        results[game] = s
        if "error" in s or s.get("ratio") is None:
            failed = True
            print(f"{game:<14} {script:<18} FAILED: {s.get('error') or s.get('interpreter_error')}")
            continue
        floor = ""
        if "floor_hps" in s:
            compiled = (f", compiled {s['compiled_over_floor']:.2f}x"
                        if "compiled_over_floor" in s else "")
            floor = (f"; API floor {s['floor_hps']:,.0f} hands/s (hand-written "
                     f"{s['handwritten_over_floor']:.2f}x it{compiled})")
        print(f"{game:<14} {script:<18} ratio {s['ratio']:6.2f}x  (hand-written "
              f"{s['handwritten_hps']:>9,.0f} hands/s, interpreter {s['interpreter_hps']:>9,.0f})"
              + (f"  same games {s['same_games'][0]}/{s['same_games'][1]}"
                 if "same_games" in s else "")
              + (f"; compiled steps {s['compiled_ratio']:.2f}x ({s['compiled_hps']:,.0f} hands/s)"
                 if s.get("compiled_ratio") is not None else "") + floor, flush=True)
    if not a.no_agents:
        s = _run("bench_agents.py", "--rules-decisions", str(a.rules_decisions),
                 "--search-decisions", str(a.search_decisions), "--seed", str(a.seed))
        results["agents"] = s
        if "error" in s:
            failed = True
            print(f"{'agents':<14} {'bench_agents.py':<18} FAILED: {s['error']}")
        else:
            for game, by_agent in s["agents"].items():
                rates = "  ".join(f"{ag} {v['dps']:>8.1f}/s" for ag, v in by_agent.items())
                print(f"{game:<14} {'bench_agents.py':<18} decisions/s: {rates}")
    print(json.dumps(results))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
