"""Decisions per second of the `rules` and `search` agents, a fixed amount of work per run.

    python benchmarks/bench_agents.py                       # all four rulesets, both agents
    python benchmarks/bench_agents.py --games moon --agents search --search-decisions 40
    python benchmarks/bench_agents.py --games texas42,moon --agents search,search:engine=batch

For each ruleset and agent, every seat plays that agent (its default parameters: `search` at the
normal level) in matches from `game.new_match()`, dealt from random.Random(f"{seed}:{ruleset}:
{game}:deal"), each seat's agent seeded with random.Random(f"{seed}:{ruleset}:{game}:seat{s}").
Only the agents' `act` calls that offer a choice (more than one legal action) are timed and
counted; forced moves still go through `act`, untimed. A run stops after exactly the given
number of timed decisions, so the same seed and the same engine results do the same work: the
`work` fingerprint (a hash of every action chosen) says whether two runs did. It is meant for
before/after comparisons of engine changes run side by side on one machine; the timings are
noisy on a shared machine, the fingerprint is not.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))  # run from a checkout

from harness import POSITIVE, guarded  # noqa: E402

GAMES = ("texas42", "moon", "allfives", "taroky")
AGENT_NAMES = ("rules", "search")


def measure(game, ruleset: str, agent: str, decisions: int, seed: int) -> dict:
    """Play matches until `decisions` timed choices; returns seconds, matches and a fingerprint."""
    from tablerules.agents import make_agent

    gd = game.definition
    clock = time.perf_counter
    spent = 0.0
    done = 0
    forced = 0
    matches = 0
    digest = hashlib.sha256()
    gc.collect()
    while done < decisions:
        base = f"{seed}:{ruleset}:{matches}"
        deal_rng = random.Random(base + ":deal")
        agents = [make_agent(agent, random.Random(f"{base}:seat{s}"), gd)
                  for s in range(gd.seat_count)]
        st = game.new_match()
        matches += 1
        steps = 0
        while not st.is_terminal() and done < decisions and steps < 100_000:
            steps += 1  # bounded: a match that never ends still stops
            if st.is_chance_node():
                st.deal_random(deal_rng)
                continue
            seat = st.current_player()
            legal = st.legal_actions()
            # what the runner hands an agent (its observation, and the same as ids); a checkout
            # from before State.observer gets the observation alone
            observe = st.observer(seat) if hasattr(st, "observer") else (
                lambda s=seat: st.observation(s))
            if len(legal) > 1:
                t0 = clock()
                a = agents[seat].act(seat, legal, observe)
                spent += clock() - t0
                done += 1
            else:
                a = agents[seat].act(seat, legal, observe)
                forced += 1
            digest.update(a.to_bytes(4, "little", signed=True))
            st.apply_action(a)
    return {"decisions": done, "forced": forced, "matches": matches, "seconds": spent,
            "dps": done / spent if spent else None, "work": digest.hexdigest()[:12]}


@guarded
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="rules and search agents: decisions per second")
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated built-in rulesets")
    ap.add_argument("--agents", default=",".join(AGENT_NAMES), help="comma-separated agents")
    ap.add_argument("--rules-decisions", type=POSITIVE, default=2000,
                    help="timed decisions per ruleset for the rules agent (default 2000)")
    ap.add_argument("--search-decisions", type=POSITIVE, default=12,
                    help="timed decisions per ruleset for the search agent (default 12)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    from tablerules.game import load_game

    games = [g for g in a.games.split(",") if g]
    agents = [x for x in a.agents.split(",") if x]
    from tablerules.agents import parse
    for x in agents:  # an agent's text read before anything is timed (AgentTextError: exit 2)
        parse(x)
    print(f"python {sys.version.split()[0]}  seed={a.seed}  rules decisions={a.rules_decisions}  "
          f"search decisions={a.search_decisions}")
    print(f"{'ruleset':<10} {'agent':<20} {'decisions':>9} {'seconds':>9} {'decisions/s':>12} "
          f"{'ms/decision':>12}  work")
    out: dict = {}
    for ruleset in games:
        game = load_game(ruleset, options={}, typed=True)  # search:engine=batch compiles it
        for agent in agents:
            n = a.search_decisions if agent.startswith("search") else a.rules_decisions
            r = measure(game, ruleset, agent, n, a.seed)
            out.setdefault(ruleset, {})[agent] = {
                "dps": round(r["dps"], 2) if r["dps"] else None, "decisions": r["decisions"],
                "seconds": round(r["seconds"], 4), "work": r["work"]}
            ms = 1000 * r["seconds"] / r["decisions"] if r["decisions"] else float("nan")
            print(f"{ruleset:<10} {agent:<20} {r['decisions']:>9} {r['seconds']:>9.3f} "
                  f"{r['dps'] or 0:>12.1f} {ms:>12.3f}  {r['work']}", flush=True)
    print(json.dumps({"agents": out, "seed": a.seed, "rules_decisions": a.rules_decisions,
                      "search_decisions": a.search_decisions, "unit": "decisions_per_second"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
