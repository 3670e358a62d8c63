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


def played_page(folder, *play: str, answers: str):
    """A game `play`ed with `answers` typed (a record in `folder`), then made a replay page by
    `replay --html`: the page's path."""
    rec = folder / "mine.play.jsonl"
    r = CliRunner().invoke(app, ["play", *play, "--record", str(rec)], input=answers)
    assert r.exit_code == 0, r.output
    out = folder / "mine.html"
    assert cli("replay", str(rec), "--html", str(out)).exit_code == 0
    return out


def pythonpath(*first) -> str:
    """A PYTHONPATH for a child Python: this checkout's source, then `first`, then this
    process's own PYTHONPATH."""
    return os.pathsep.join(filter(None, [SRC, *map(str, first), os.environ.get("PYTHONPATH")]))


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
    env = dict(os.environ, PYTHONPATH=pythonpath())
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


# The plain-Python runner: one process per test worker, started with numba's NUMBA_DISABLE_JIT
# (read once, when numba is imported), that runs each `plain_python` call as a new `python`
# would: its argv, working folder, path, TABLERULES_CACHE and PYTHONPATH, its own stdin (empty),
# stdout and stderr (files: a child process it starts writes there too), exit code from
# SystemExit, a traceback and 1 for any other exception; the modules a call imported from
# outside the checkout's source and Python's own are forgotten after it. What stays between
# calls is what the process has imported: starting Python, importing tablerules and numba and
# building the first kernel cost about a second a call when each was a process of its own.
# Requests and answers are JSON lines on descriptors of their own (never 0, 1 or 2).
_RUNNER = r"""
import json, os, runpy, sys, traceback, warnings
warnings.simplefilter("ignore")
requests = os.fdopen(int(sys.argv[1]), "r", encoding="utf-8")
answers = os.fdopen(int(sys.argv[2]), "w", encoding="utf-8")
src = sys.argv[3]  # the checkout's source: its modules are kept between calls
home = os.getcwd()
own = tuple(os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix))
saved = {k: os.dup(k) for k in (0, 1, 2)}
null = os.open(os.devnull, os.O_RDONLY)


def exited(e):
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code
    print(e.code, file=sys.stderr)
    return 1


def run(args, cwd, path):
    if args[0] == "-m":
        sys.argv = [args[1], *args[2:]]
        sys.path[:0] = [cwd, *path]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    elif args[0] == "-c":
        sys.argv = ["-c", *args[2:]]
        sys.path[:0] = [cwd, *path]
        exec(compile(args[1], "<string>", "exec"), {"__name__": "__main__"})
    else:
        sys.argv = list(args)
        sys.path[:0] = [os.path.dirname(os.path.abspath(args[0])), *path]
        runpy.run_path(args[0], run_name="__main__")


for line in requests:
    req = json.loads(line)
    env, argv, syspath, modules = dict(os.environ), sys.argv, list(sys.path), set(sys.modules)
    os.environ.update(req["env"])
    os.chdir(req["cwd"])
    out, err = (open(os.path.join(req["tmp"], n), "w+b") for n in ("stdout", "stderr"))
    sys.stdout.flush(), sys.stderr.flush()
    os.dup2(null, 0)
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    try:
        run(req["args"], os.getcwd(), req["path"])
        code = 0
    except SystemExit as e:
        code = exited(e)
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stdout.flush(), sys.stderr.flush()
    for k, fd in saved.items():
        os.dup2(fd, k)
    sys.argv, sys.path[:] = argv, syspath
    os.environ.clear()
    os.environ.update(env)
    os.chdir(home)
    for name in set(sys.modules) - modules:
        f = getattr(sys.modules[name], "__file__", None)
        if f and not os.path.realpath(f).startswith((src, *own)):
            del sys.modules[name]
    texts = []
    for f in (out, err):
        f.seek(0)
        texts.append(f.read().decode("utf-8", "replace"))
        f.close()
    answers.write(json.dumps({"returncode": code, "stdout": texts[0], "stderr": texts[1]}) + "\n")
    answers.flush()
"""
_runner = None


def _plain_runner():
    """This worker's plain-Python runner, started on first use (and again after one died)."""
    import atexit
    import subprocess
    import sys
    global _runner
    if _runner is not None and _runner[0].poll() is None:
        return _runner
    ask_r, ask_w = os.pipe()
    ans_r, ans_w = os.pipe()
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=pythonpath())
    proc = subprocess.Popen([sys.executable, "-W", "ignore", "-c", _RUNNER, str(ask_r),
                             str(ans_w), os.path.realpath(SRC)], env=env,
                            pass_fds=(ask_r, ans_w), stdin=subprocess.DEVNULL)
    os.close(ask_r)
    os.close(ans_w)
    _runner = (proc, os.fdopen(ask_w, "w", encoding="utf-8"),
               os.fdopen(ans_r, "r", encoding="utf-8"))
    atexit.register(proc.kill)
    return _runner


def plain_python(args, cache, *, cwd=None, path=(), timeout: float = 300):
    """`python ARGS` with numba's NUMBA_DISABLE_JIT: the batch engine's generated kernels run
    as plain Python (the same source, no compiling), their cache under `cache`; this
    checkout's source and `path` first on its path; run by this worker's plain-Python runner
    (above) as a process of its own would run it. The answer is subprocess.run's (returncode,
    stdout, stderr); past `timeout` seconds the runner is stopped and TimeoutExpired raised."""
    import json
    import select
    import subprocess
    import tempfile

    paths = [os.path.abspath(p) for p in path]
    proc, ask, answer = _plain_runner()
    with tempfile.TemporaryDirectory() as tmp:
        ask.write(json.dumps({
            "args": [str(a) for a in args], "cwd": str(cwd or os.getcwd()), "path": paths,
            "tmp": tmp,
            "env": {"TABLERULES_CACHE": str(cache), "PYTHONPATH": pythonpath(*paths)}}) + "\n")
        ask.flush()
        if not select.select([answer], [], [], timeout)[0]:
            proc.kill()
            proc.wait()
            raise subprocess.TimeoutExpired(args, timeout)
        line = answer.readline()
    if not line:  # the runner died (a crash of the interpreter): as a process that crashed
        proc.wait()
        return subprocess.CompletedProcess(args, proc.returncode, "", "the runner ended")
    got = json.loads(line)
    return subprocess.CompletedProcess(args, got["returncode"], got["stdout"], got["stderr"])


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
