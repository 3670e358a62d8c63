"""Side-by-side timing of a hand-written engine and the tablerules interpreter on the same deals.

Both engines play the same pre-generated deals (dealer rotating 0,1,2,3,...) with uniformly
random legal play from a fresh random.Random(seed) per run. Runs are interleaved
(hw, interp, hw, interp, ...) and the best time of each engine is kept. The result that
matters is the ratio, not the absolute hands/second (see benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import time
import traceback
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "src"))  # run from a checkout without installing
sys.path.insert(0, HERE)

from deals import make_deals  # noqa: E402


def count(least: int = 1) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `least` (hands, repeats, games: 1; a
    number that may be none, such as slices or hands replayed: 0), so that `--hands 0` is a
    usage error, not a division by zero later."""
    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if v < least:
            raise argparse.ArgumentTypeError(f"{v} is less than {least}")
        return v
    parse.__name__ = "count"  # argparse names the type in its message
    return parse


POSITIVE, NONNEGATIVE = count(1), count(0)


def options(pairs: list[str] | None, defaults: list[str] = ()) -> dict[str, str]:
    """`--option NAME=VALUE` flags as a dict over a script's `defaults` (a flag of the same name
    replaces a default), read by tablerules' own parse_cli_options: a malformed or repeated
    pair raises its OptionError, which `guarded` says as a usage error."""
    from tablerules.interpreter.options import parse_cli_options
    return {**parse_cli_options(list(defaults)), **parse_cli_options(pairs)}


def user_error(e: BaseException) -> bool:
    """Whether `e` is a user's mistake that tablerules explains itself (a ruleset or option it
    cannot load, an agent's text it cannot read), to be printed as its message, not a
    traceback."""
    try:
        from tablerules.agents.base import AgentTextError
        from tablerules.errors import TablerulesError
    except ImportError:
        return False
    return isinstance(e, (TablerulesError, AgentTextError))


def guarded(main: Callable) -> Callable:
    """A script's `main(argv)` (or harness.main), with a user's mistake (user_error) its message
    on stderr and exit status 2, as argparse's own usage errors are: the one place a
    benchmark says one."""
    def run(*args, **kwargs) -> int:
        try:
            return main(*args, **kwargs)
        except Exception as e:
            if not user_error(e):
                raise
            print(said(e), file=sys.stderr)
            return 2
    run.__doc__, run.__name__ = main.__doc__, main.__name__
    return run


def said(e: BaseException) -> str:
    """A user's mistake as tablerules says it: each diagnostic located in its file
    (`file:line:col: error: ...`), one about an --option by its message alone."""
    diagnostics = getattr(e, "diagnostics", None)
    if not diagnostics:
        return f"error: {e}"
    from tablerules.errors import render
    return "\n".join(f"{d.severity}: {d.full_message()}" if d.span.file == "--option"
                     else render(d) for d in diagnostics)


def run_interpreter(game, deals, dealers, seed):
    rng = random.Random(seed)
    choice = rng.choice
    for deal, dealer in zip(deals, dealers):
        state = game.new_hand(deal, dealer)
        while not state.is_terminal():
            acts = state.legal_actions()
            state.apply_action(choice(acts))


def spread(ratios: list) -> list:
    """Each repeat's own ratio, as the batch benchmarks report them: lowest, median (the upper
    one for an even count), highest, rounded to two places."""
    return [round(min(ratios), 2), round(sorted(ratios)[len(ratios) // 2], 2),
            round(max(ratios), 2)]


def sliced(slow: Callable, fast: Callable, n: int, slices: int, repeat: int) -> list:
    """slow(lo, hi)'s time over fast(lo, hi)'s on each of `slices` consecutive slices of n
    items (deals), the two timed one after the other on the same slice (which goes first
    alternates), over `repeat` rounds: the ratios. On a machine whose speed drifts during a run
    (this one's moved a kernel's time by a fifth between whole runs), two timings a few
    milliseconds apart drift together, so their ratio moves less than that of two whole
    runs."""
    size = max(1, -(-n // slices))
    out, k = [], 0
    gc.collect()
    for _ in range(repeat):
        for lo in range(0, n, size):
            hi = min(lo + size, n)
            took = {}
            for f in ((slow, fast) if k % 2 == 0 else (fast, slow)):
                t0 = time.perf_counter()
                f(lo, hi)
                took[f] = time.perf_counter() - t0
            out.append(took[slow] / took[fast])
            k += 1
    return out


def quartiles(ratios: list) -> list:
    """The lower quartile, median and upper quartile of `ratios`, rounded to two places."""
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    return [round(q[0], 2), round(statistics.median(ratios), 2), round(q[2], 2)]


def rules_agents(game, seed: int = 0) -> list:
    """The Python rules agent for every seat of `game` (its ruleset's strategy)."""
    from tablerules.agents import make_agent
    gd = game.definition
    return [make_agent("rules", random.Random(seed), gd) for _ in range(gd.seat_count)]


def rules_hand(game, agents, deal, dealer, log=None) -> dict:
    """One hand on the step engine with `agents` (rules_agents), each reading its sight; a
    decision of one legal action is taken, no agent asked. If `log` is a list, every action is
    appended by its name. The hand's result (State.hand_result())."""
    st = game.new_hand(deal, dealer)
    name = game.definition.action_to_string
    while not st.is_terminal():
        seat, legal = st.current_player(), st.legal_actions()
        a = legal[0] if len(legal) == 1 else agents[seat].act(seat, legal, st.observer(seat))
        if log is not None:
            log.append(name(a))
        st.apply_action(a)
    return st.hand_result()


def run_rules_agent(game, deals, dealers, seed):
    """The step engine with the Python rules agent on every seat, each reading its sight (the
    strategy draws no random number: `seed` only seeds the agents' unused generators)."""
    agents = rules_agents(game, seed)
    for deal, dealer in zip(deals, dealers):
        rules_hand(game, agents, deal, dealer)


def check_rules_player(play_hand, game, deals, dealers, results: Callable, says: str) -> int:
    """A hand-written rules player's `play_hand(deal, dealer, log)` against the step engine
    with the rules agent on every seat, deal by deal: every action's name, and the result
    (`results(mine, the step engine's hand_result())`: the two as the player compares them).
    Prints the first three differences and one line; exit status 1 on any difference."""
    agents = rules_agents(game)
    bad = 0
    for i, (deal, dealer) in enumerate(zip(deals, dealers)):
        mine, theirs = [], []
        ours, its = results(play_hand(deal, dealer, mine),
                            rules_hand(game, agents, deal, dealer, theirs))
        if mine != theirs or ours != its:
            bad += 1
            if bad <= 3:
                k = next((j for j, (x, y) in enumerate(zip(mine, theirs)) if x != y),
                         min(len(mine), len(theirs)))
                print(f"hand {i} (dealer {dealer}): action {k}: mine {mine[k:k + 3]}, the rules "
                      f"agent's {theirs[k:k + 3]}; {says} mine {ours}, the step engine's {its}")
    if bad:
        print(f"rules check FAILED: {bad} of {len(deals)} hands differ from the rules agent's")
        return 1
    print(f"rules check OK: {len(deals)} hands, every action and {says} as the step engine's "
          f"rules agent plays them")
    return 0


def rules_player_main(argv, doc: str, name: str, play_hand, make_deals, results: Callable,
                      says: str) -> int:
    """A hand-written rules player's command line: `--check N` (check_rules_player) or
    `--hands N` (time_rules_player), on `make_deals(N, --seed)`, the dealer rotating."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--check", type=POSITIVE, metavar="N",
                    help="compare N hands with the rules agent")
    ap.add_argument("--hands", type=POSITIVE, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=POSITIVE, default=3)
    a = ap.parse_args(argv)
    from tablerules.game import load_game

    game = load_game(name)
    n = a.check or a.hands
    deals, dealers = make_deals(n, a.seed), [i % game.definition.seat_count for i in range(n)]
    if a.check:
        return check_rules_player(play_hand, game, deals, dealers, results, says)
    time_rules_player(name, play_hand, game, deals, dealers, a.repeat)
    return 0


def time_rules_player(label: str, play_hand, game, deals, dealers, repeat: int) -> None:
    """A hand-written rules player's `play_hand(deal, dealer)` on every deal and the step engine
    with the rules agent on the first twentieth, best of `repeat` each, printed in one line."""
    agents = rules_agents(game)
    step_n = max(1, len(deals) // 20)
    best_h = best_s = float("inf")
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        for d, dl in zip(deals, dealers):
            play_hand(d, dl)
        best_h = min(best_h, time.perf_counter() - t0)
        gc.collect()
        t0 = time.perf_counter()
        for d, dl in zip(deals[:step_n], dealers[:step_n]):
            rules_hand(game, agents, d, dl)
        best_s = min(best_s, time.perf_counter() - t0)
    hh, sh = len(deals) / best_h, step_n / best_s
    print(f"hand-written {label} rules player {hh:,.0f} hands/s; step engine with the rules "
          f"agent {sh:,.0f} ({step_n} hands): {hh / sh:.1f}x")


def rules_work(game, deals, dealers, seed):
    """Untimed: mean decisions per hand (apply_action calls) with the Python rules agent on
    every seat, and each hand's result (State.hand_result())."""
    agents = rules_agents(game, seed)
    total = 0
    results = []
    for deal, dealer in zip(deals, dealers):
        log = []
        results.append(rules_hand(game, agents, deal, dealer, log))
        total += len(log)
    return total / len(deals), results


def interpreter_work(game, deals, dealers, seed):
    """Untimed: mean apply_action calls per hand, and each hand's points and marks."""
    rng = random.Random(seed)
    total = 0
    results = []
    for deal, dealer in zip(deals, dealers):
        state = game.new_hand(deal, dealer, record=True)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            total += 1
        hand = state.events[-1]
        results.append((hand.get("points"), hand.get("scored")))
    return total / len(deals), results


def compiled_work(steps, deals, dealers, seed):
    """Untimed: each hand's result (hand_result()) played on `steps` (compiled steps or the
    step engine's Game: both have new_hand) with the same choices as run_interpreter."""
    rng = random.Random(seed)
    out = []
    for deal, dealer in zip(deals, dealers):
        state = steps.new_hand(deal, dealer)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        out.append(state.hand_result())
    return out


class Floor:
    """The API's own cost, with no game behind it: `new_hand`, `is_terminal`, `legal_actions`
    and `apply_action` over each hand's legal actions as the step engine offered them (recorded
    once, untimed, with the same seed), so `run_interpreter` makes the same calls and the same
    `rng.choice` draws as for an engine. Any engine played through this loop costs at least
    this much a hand."""

    def __init__(self, game, deals, dealers, seed):
        rng = random.Random(seed)
        self.hands = []
        for deal, dealer in zip(deals, dealers):
            state = game.new_hand(deal, dealer)
            seq = []
            while not state.is_terminal():
                legal = tuple(state.legal_actions())
                seq.append(legal)
                state.apply_action(rng.choice(legal))
            seq.append(())
            self.hands.append(seq)
        self._next = iter(()).__next__

    def rewind(self) -> "Floor":
        self._next = iter(self.hands).__next__
        return self

    def new_hand(self, deal, dealer):
        return _Replayed(self._next())


class _Replayed:
    __slots__ = ("_seq", "_i", "_legal")

    def __init__(self, seq):
        self._seq = seq
        self._i = 0
        self._legal = seq[0]

    def is_terminal(self) -> bool:
        return not self._legal

    def legal_actions(self):
        return self._legal

    def apply_action(self, action) -> None:
        self._i += 1
        self._legal = self._seq[self._i]


def run_floor(floor, deals, dealers, seed):
    run_interpreter(floor.rewind(), deals, dealers, seed)


def compile_steps(game):
    """The game as compiled steps (tablerules.batch.steps), or None when numba is missing or
    the ruleset has no kernel form (said in one line)."""
    try:
        from tablerules.batch import available
        from tablerules.batch.steps import compile_steps as build

        if not available():
            print("compiled steps: not timed (numba is not installed: pip install "
                  "'tablerules[fast]')")
            return None
        t0 = time.perf_counter()
        steps = build(game)
        print(f"compiled steps took {time.perf_counter() - t0:.1f}s to build (not timed below)")
        return steps
    except Exception as e:  # NotBatchable, or a broken kernel
        print(f"compiled steps: not timed ({type(e).__name__}: {e})")
        return None


def baseline_main(description: str, play_hands: Callable, self_check: Callable,
                  argv=None, *, make_deals: Callable = make_deals, seats: int = 4) -> int:
    """The command line of a hand-written engine: `--check N` self-check, or time `--hands`."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--check", type=POSITIVE, metavar="N", help="run the self-check over N hands")
    ap.add_argument("--hands", type=POSITIVE, default=20000, help="time N hands (default 20000)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    if a.check:
        return self_check(a.check) or 0
    deals = make_deals(a.hands, a.seed)
    dealers = [i % seats for i in range(a.hands)]
    t0 = time.perf_counter()
    play_hands(deals, dealers, random.Random(a.seed))
    dt = time.perf_counter() - t0
    print(f"{a.hands} hands in {dt:.3f}s: {a.hands / dt:,.0f} hands/s")
    return 0


def timed_with(fn, *args):
    """fn(*args)'s time in seconds, after a garbage collection, and what it returned."""
    gc.collect()
    t0 = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t0, out


def timed(fn, *args):
    """fn(*args)'s time in seconds, after a garbage collection."""
    return timed_with(fn, *args)[0]


@guarded
def main(*, game_name: str, play_hand: Callable, work: Callable, default_options: list[str],
         option_help: str, same_games: bool, argv=None, make_deals: Callable = make_deals,
         seats: int = 4, flags: dict[str, str] | None = None) -> int:
    """Parse the common flags, time both engines, print the report and a JSON summary line.

    `work(deals, dealers, seed)` returns the hand-written engine's mean decisions per hand and
    its per-hand (points, marks); with `same_games`, the two engines offer the same actions in
    the same order, so the same seed must give the same results hand for hand. `flags`: a
    script's own on/off flags (name -> help), which it reads from argv itself; listed here so
    that --help shows them.
    """
    ap = argparse.ArgumentParser(description=f"{game_name}: hand-written vs interpreter, "
                                             "hands/second")
    ap.add_argument("--hands", type=POSITIVE, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=POSITIVE, default=3)
    ap.add_argument("--ruleset", default=game_name, help="built-in ruleset name for load_game")
    ap.add_argument("--option", action="append", default=[], help=option_help)
    ap.add_argument("--no-compiled", action="store_true",
                    help="do not time the compiled steps (the step engine's API on the kernel)")
    ap.add_argument("--slices", type=NONNEGATIVE, default=10,
                    help="also time the compiled steps against the hand-written engine slice by "
                         "slice, this many slices a repeat, a few milliseconds apart (0: not)")
    for flag, text in (flags or {}).items():
        ap.add_argument(flag, action="store_true", help=text)
    a = ap.parse_args(argv)
    chosen = options(a.option, default_options)  # a mistake in them: before anything runs

    n = a.hands
    deals = make_deals(n, a.seed)
    dealers = [i % seats for i in range(n)]
    print(f"python {sys.version.split()[0]}  hands={n} seed={a.seed} repeat={a.repeat}")

    def run_handwritten(deals, dealers, seed):
        rng = random.Random(seed)
        for deal, dealer in zip(deals, dealers):
            play_hand(deal, dealer, rng)

    run_handwritten(deals[:20], dealers[:20], a.seed)  # warm-up, as the interpreter's smoke test
    game = None
    interp_error = None
    try:
        from tablerules.game import load_game

        t0 = time.perf_counter()
        game = load_game(a.ruleset, options=chosen, typed=not a.no_compiled)
        print(f"load_game({a.ruleset!r}) took {time.perf_counter() - t0:.3f}s (not timed below)")
        run_interpreter(game, deals[:20], dealers[:20], a.seed)  # fail fast, before timing
    except Exception as e:  # ImportError, or anything a broken interpreter raises
        if user_error(e):  # a ruleset or option named wrong: not a broken interpreter (guarded)
            raise
        interp_error = f"{type(e).__name__}: {e}"
        game = None
        print(f"interpreter not available: {interp_error}")
        if not isinstance(e, ImportError):
            traceback.print_exc(limit=4)

    steps = compile_steps(game) if game is not None and not a.no_compiled else None
    if steps is not None:
        run_interpreter(steps, deals[:20], dealers[:20], a.seed)
    floor = Floor(game, deals, dealers, a.seed) if game is not None else None
    fl_best = float("inf")
    hw_best = float("inf")
    it_best = float("inf") if game is not None else None
    cs_best = float("inf")
    for r in range(a.repeat):
        dt = timed(run_handwritten, deals, dealers, a.seed)
        hw_best = min(hw_best, dt)
        line = f"repeat {r + 1}: handwritten {dt:.3f}s"
        if game is not None:
            try:
                dt = timed(run_interpreter, game, deals, dealers, a.seed)
            except Exception as e:
                interp_error = f"{type(e).__name__}: {e}"
                print(f"interpreter failed during timing: {interp_error}")
                traceback.print_exc(limit=4)
                game, it_best = None, None
            else:
                it_best = min(it_best, dt)
                line += f"   interpreter {dt:.3f}s"
        if steps is not None:
            dt = timed(run_interpreter, steps, deals, dealers, a.seed)
            cs_best = min(cs_best, dt)
            line += f"   compiled steps {dt:.3f}s"
        if floor is not None:
            dt = timed(run_floor, floor, deals, dealers, a.seed)
            fl_best = min(fl_best, dt)
            line += f"   API floor {dt:.3f}s"
        print(line)

    hw_hps = n / hw_best
    it_hps = n / it_best if it_best else None
    ratio = (it_best / hw_best) if it_best else None
    print()
    print(f"hand-written : {hw_hps:12,.0f} hands/s  ({hw_best * 1e6 / n:8.1f} us/hand, "
          f"best of {a.repeat})")
    same_count = None
    if it_hps is not None:
        print(f"interpreter  : {it_hps:12,.0f} hands/s  ({it_best * 1e6 / n:8.1f} us/hand, "
              f"best of {a.repeat})")
        print(f"ratio        : {ratio:.2f}x  (interpreter time / hand-written time; 1.0 = parity)")
        m = min(n, 5000)  # the two engines should do the same work per hand
        hw_ap, hw_res = work(deals[:m], dealers[:m], a.seed)
        try:
            it_ap, it_res = interpreter_work(game, deals[:m], dealers[:m], a.seed)
        except Exception as e:
            print(f"(actions/hand check failed: {type(e).__name__}: {e})")
        else:
            note = "" if abs(it_ap - hw_ap) <= 0.05 * hw_ap else \
                "  WARNING: engines differ in work per hand; the ratio is not like-for-like"
            print(f"actions/hand : hand-written {hw_ap:.2f}, interpreter {it_ap:.2f}{note}")
            if same_games:
                same = sum(x == y for x, y in zip(hw_res, it_res))
                same_count = [same, m]
                print(f"same games   : {same}/{m} hands with identical points and marks "
                      f"(same seed, same action order => expected {m}/{m})")
    else:
        print(f"interpreter  : not available ({interp_error})")
    cs_ratio = cs_same = cs_sliced = None
    if steps is not None:
        cs_ratio = cs_best / hw_best
        print(f"compiled     : {n / cs_best:12,.0f} hands/s  ({cs_best * 1e6 / n:8.1f} us/hand, "
              f"best of {a.repeat}): the same API on the kernel (tablerules.batch.steps)")
        print(f"ratio        : {cs_ratio:.2f}x  (compiled steps time / hand-written time)")
        m = min(n, 2000)  # the same choices: the step engine's results, hand for hand
        want = compiled_work(game, deals[:m], dealers[:m], a.seed)
        got = compiled_work(steps, deals[:m], dealers[:m], a.seed)
        cs_same = [sum(x == y for x, y in zip(want, got)), m]
        print(f"same games   : {cs_same[0]}/{m} hands with the step engine's result (compiled "
              "steps, the same seed)")
        if a.slices > 0:  # the same ratio slice by slice, the two a few milliseconds apart
            cs_sliced = quartiles(sliced(
                lambda lo, hi: run_interpreter(steps, deals[lo:hi], dealers[lo:hi], a.seed + lo),
                lambda lo, hi: run_handwritten(deals[lo:hi], dealers[lo:hi], a.seed + lo),
                n, a.slices, a.repeat))
            print(f"slices       : median {cs_sliced[1]:.2f}x, quartiles {cs_sliced[0]:.2f}x-"
                  f"{cs_sliced[2]:.2f}x ({a.slices} slices a repeat: compiled steps time / "
                  "hand-written time, the two a few milliseconds apart)")

    if floor is not None:
        print(f"API floor    : {n / fl_best:12,.0f} hands/s  ({fl_best * 1e6 / n:8.1f} us/hand, "
              f"best of {a.repeat}): the same loop over each hand's recorded legal actions, no "
              "game behind them")
        print(f"ratio        : hand-written {hw_best / fl_best:.2f}x the floor"
              + (f", compiled steps {cs_best / fl_best:.2f}x" if steps is not None else "")
              + f" (what an engine adds to the API's own cost: {(hw_best - fl_best) * 1e6 / n:.1f}"
              + (f" against {(cs_best - fl_best) * 1e6 / n:.1f}" if steps is not None else "")
              + " us/hand)")

    summary = {
        "handwritten_hps": round(hw_hps, 1),
        "interpreter_hps": round(it_hps, 1) if it_hps is not None else None,
        "ratio": round(ratio, 3) if ratio is not None else None,
        "ratio_is": "interpreter_seconds / handwritten_seconds",
        "game": game_name,
        "hands": n,
        "seed": a.seed,
        "repeat": a.repeat,
    }
    if same_count is not None:
        summary["same_games"] = same_count  # [hands with identical results, hands compared]
    if cs_ratio is not None:
        summary["compiled_hps"] = round(n / cs_best, 1)
        summary["compiled_ratio"] = round(cs_ratio, 3)  # compiled seconds / hand-written
        summary["compiled_same_as_step_engine"] = cs_same
        if cs_sliced is not None:  # lower quartile, median, upper quartile of the slices'
            summary["compiled_ratio_sliced"] = cs_sliced
    if floor is not None:
        summary["floor_hps"] = round(n / fl_best, 1)
        summary["handwritten_over_floor"] = round(hw_best / fl_best, 3)
        if cs_ratio is not None:
            summary["compiled_over_floor"] = round(cs_best / fl_best, 3)
    if interp_error:
        summary["interpreter_error"] = interp_error
    print(json.dumps(summary))
    # games that should be the same and are not: the ratio compares unlike work
    differ = [x for x in (same_count, cs_same) if x is not None and x[0] != x[1]]
    return 1 if differ else 0
