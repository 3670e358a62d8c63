"""Helpers shared by the test folders (on the path through pytest's `pythonpath`)."""

from __future__ import annotations

import os

from typer.testing import CliRunner

from tablerules.cli.main import app

# The suite is the same run everywhere, on a developer's machine and under CI (the README's
# command is .ci/run's): Hypothesis examples per test at most this many, which keeps it under
# five minutes on two cores with numba's cache empty. TABLERULES_SOAK=1 asks for each test's
# own count (and test_tables_options.py's sample of option combinations): a longer soak.
EXAMPLES = 30
SOAK = bool(os.environ.get("TABLERULES_SOAK"))


def examples(n: int) -> int:
    """Hypothesis examples for a test: `n` under TABLERULES_SOAK, else at most EXAMPLES."""
    return n if SOAK else min(n, EXAMPLES)


def cli(*args: str):
    """Run the `tablerules` command in-process; a user error may exit, never raise or trace."""
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output, result.output
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    return result


SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
RULESETS = os.path.join(os.path.dirname(SRC), "rulesets")


def allfives_with_arms(folder, arms: str):
    """All Fives with `play.spinner_arms` set to `arms` (YAML, e.g. "[north, south, up]"),
    written to `folder` (a play part is replaced whole, so the ruleset is copied); its path."""
    from pathlib import Path
    with open(os.path.join(RULESETS, "allfives.yaml"), encoding="utf-8") as f:
        text = f.read()
    assert text.count("      mode: layout\n") == 1
    path = Path(folder) / "arms.yaml"
    path.write_text(text.replace("      mode: layout\n",
                                 f"      mode: layout\n      spinner_arms: {arms}\n"),
                    encoding="utf-8")
    return path


def games_in(path) -> int:
    """Games a record being written holds so far (its `match` lines)."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().count('"type":"match"')
    except (OSError, UnicodeDecodeError):
        return 0


def default_sigint() -> None:
    """In a child process before it runs: SIGINT at its default, as a program started at a
    terminal has it. A test runner started in the background by a shell (`cmd &`) inherits
    SIGINT ignored and passes that on, and a Python started so raises no KeyboardInterrupt: a
    test that sends Ctrl-C would wait in vain."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def long_simulate(record, *extra: str, new_session: bool = False):
    """A `simulate texas42` of 100,000 games writing `record`, as a process of its own (this
    checkout's source first on its path), to be interrupted; `new_session` puts it and its
    workers in a process group of their own."""
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [SRC,
                                                                    os.environ.get("PYTHONPATH")])))
    return subprocess.Popen([sys.executable, "-m", "tablerules", "simulate", "texas42", "-n",
                             "100000", "-s", "1", "-r", str(record), "--no-progress", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=new_session, preexec_fn=default_sigint)


def wait_for_games(p, record, n: int, seconds: float) -> int:
    """Wait until `record` holds `n` games (or `seconds` pass, or `p` ends); the games it holds."""
    import time
    deadline = time.monotonic() + seconds
    while games_in(record) < n and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.05)
    return games_in(record)


def step_summary(game, block):
    """The summary the step engine's own `Summary` folds from a batch block's matches, each
    replayed deal by deal through State (what records/batchrun.fold_block must come to)."""
    from tablerules.batch.deals import as_lists
    from tablerules.engine.state import State
    from tablerules.records.runner import new_summary

    out = new_summary(game)
    g = game.definition
    hands = block.hands
    for m in range(len(block)):
        rows = block.rows(m)
        st = State(g, first_dealer=int(hands.dealers[rows[0]]))
        for r in rows:
            st.apply_deal(as_lists(g, hands.deals, hands.stocks, int(r)))
            for j in range(int(hands.column("steps")[r])):
                st.apply_action(int(hands.actions[r, j]))
                out.decisions += 1
            out.add_hand(st.hand_result())
        assert st.is_terminal()
        out.games += 1
        out.match_deals[len(rows)] += 1
        if g.match.stake is not None:
            out.add_chips(list(st.ctx.chips))
        for s in st.winner_sides:
            out.side_wins[s] += 1
    return out


def plain_python(args, cache, *, cwd=None, path=(), timeout: float = 300):
    """Run `python -W ignore ARGS` in a process of its own with numba's NUMBA_DISABLE_JIT: the
    batch engine's generated kernels then run as plain Python (the same source, no compiling),
    their cache under `cache`; this checkout's source and `path` first on its path."""
    import subprocess
    import sys
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", TABLERULES_CACHE=str(cache),
               PYTHONPATH=os.pathsep.join(filter(None, [SRC, *map(str, path),
                                                        os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-W", "ignore", *args], capture_output=True,
                          text=True, env=env, timeout=timeout, cwd=cwd)


def kernel_source(name: str, strategy) -> str:
    """The batch kernel's source of ruleset `name` with every seat playing the strategy file
    `strategy` (built, not compiled)."""
    import random

    from tablerules.agents import make_agent
    from tablerules.batch.kernel import Builder
    from tablerules.batch.loader import seat_agents
    from tablerules.game import load_game

    gd = load_game(name, typed=True).definition
    agent = make_agent(f"rules:strategy={strategy}", random.Random(0), gd)
    return Builder(gd, seat_agents(gd, [agent])).build()
