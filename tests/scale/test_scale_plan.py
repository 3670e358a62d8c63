"""A run on workers plans its games as it plays them: a run of any length starts at once, in the
memory of a short one (a plan made whole, a list of chunks and a task each, took 5.3 GB and
20 s for a billion games before the first was played), and is the run of one process; Ctrl-C
before its first game ends it as one process's."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from support import cli, pythonpath

HUGE = 10 ** 12  # games: a plan made whole would be 40 billion chunks

# Run in a process of its own whose address space may grow by a gigabyte at most from when it
# has loaded its games (`bounded()`): a plan of HUGE games made whole stops at once with
# MemoryError, made as it is asked for it plays its first games (then stopped as Ctrl-C would).
PRELUDE = f"""
import itertools, json, resource
HUGE = {HUGE}

def bounded():
    with open('/proc/self/status') as f:
        size = next(int(ln.split()[1]) * 1024 for ln in f if ln.startswith('VmSize:'))
    resource.setrlimit(resource.RLIMIT_AS, (size + 2 ** 30, size + 2 ** 30))

def stop(*_):
    raise KeyboardInterrupt
"""

SIMULATE = """
import io
from tablerules.game import load_game
from tablerules.records.parallel import MAX_CHUNK, chunks, game_source
from tablerules.records.runner import simulate
game = load_game('allfives', typed=True)
bounded()
plan = list(itertools.islice(chunks(0, HUGE, 2), 3))
out = {'plan': plan, 'chunk': MAX_CHUNK}
for name, source in (('one', None), ('two', game_source(game, ['random'], 1, workers=2))):
    record = io.StringIO()
    summary = simulate(game, games=HUGE, seed=1, agent_names=['random'], out=record,
                       progress=stop, source=source)
    out[name] = [record.getvalue(), summary.as_dict(), summary.interrupted]
print(json.dumps(out))
"""

COMPARE = """
from tablerules.game import load_game
from tablerules.records.compare import Config, compare
game = load_game('allfives', typed=True)
other = load_game('allfives', {'target': 150}, typed=True)
seats = game.definition.seat_count
a, b = Config('A', game, ['random'] * seats), Config('B', other, ['random'] * seats)
bounded()
two = compare(a, b, games=HUGE, seed=1, workers=2, progress=stop)
games = sum(two.played.values())
# one process, stopped as the first game after those deals starts: the same deals counted
one = compare(a, b, games=HUGE, seed=1, progress=lambda done, _n: done > games and stop())
print(json.dumps({'two': two.as_dict(), 'one': one.as_dict()}))
"""

BATCH = """
from tablerules.batch import compile_batch
from tablerules.game import load_game
from tablerules.records.batchrun import batch_agents, simulate_batch
game = load_game('texas42', typed=True)  # the kernel other tests compile too
batch = compile_batch(game.definition, batch_agents(game.definition, ['random']))
bounded()
seen = []
try:
    simulate_batch(game, batch, games=HUGE, seed=1, check=0, workers=2, texts=['random'],
                   progress=lambda n: seen.append(n) or stop())
except KeyboardInterrupt:
    pass
print(json.dumps({'games': seen}))
"""


def bounded_run(script: str) -> dict:
    """`script` after PRELUDE in a Python of its own (this checkout first on its path): what it
    printed, as JSON."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the address space is bounded on Linux (/proc, RLIMIT_AS)")
    env = dict(os.environ, PYTHONPATH=pythonpath())
    r = subprocess.run([sys.executable, "-c", PRELUDE + script], capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def test_a_trillion_games_on_workers_start_at_once_and_are_the_games_of_one_process():
    out = bounded_run(SIMULATE)
    m = out["chunk"]
    assert out["plan"] == [[0, m], [m, 2 * m], [2 * m, 3 * m]]
    record, summary, interrupted = out["two"]
    assert summary["games"] == 1 and interrupted is True
    lines = [json.loads(x) for x in record.splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["games"] == HUGE
    assert lines[-1] == {"type": "end", "games": 1, "stopped": "interrupted"}
    assert out["two"] == out["one"]


def test_a_comparison_of_a_trillion_games_on_workers_starts_at_once():
    out = bounded_run(COMPARE)
    two = out["two"]
    assert two["interrupted"] is True and two["deals"] > 0
    assert two == out["one"]


def test_a_batch_run_of_a_trillion_matches_on_workers_starts_at_once():
    pytest.importorskip("numba")
    seen = bounded_run(BATCH)["games"]
    assert len(seen) == 1 and seen[0] > 0


# Ctrl-C while a run's workers start (a pool, or a Dask cluster, which takes seconds) ends the
# run as one process's ends when Ctrl-C comes at its first game (it exited 130 with no output):
# the driver that starts them, or the first game, raises KeyboardInterrupt as Ctrl-C would


def _ctrl_c(*_a, **_kw):
    raise KeyboardInterrupt


def test_ctrl_c_as_the_workers_start_ends_a_simulation_as_one_process(monkeypatch, tmp_path):
    import tablerules.records.parallel as parallel
    import tablerules.records.runner as runner
    monkeypatch.chdir(tmp_path)
    args = ["simulate", "allfives", "-n", "1000", "-s", "2", "--no-progress", "-f", "json"]
    with monkeypatch.context() as m:
        m.setattr(parallel, "driver", _ctrl_c)
        two = cli(*args, "-r", "two.jsonl", "--workers", "2")
    with monkeypatch.context() as m:
        m.setattr(runner, "play_game", _ctrl_c)
        one = cli(*args, "-r", "one.jsonl")
    assert two.exit_code == one.exit_code == 130, two.output
    assert json.loads(two.stdout)["games"] == 0
    assert json.loads(two.stdout) | {"record": None} == json.loads(one.stdout) | {"record": None}
    assert two.stderr.splitlines()[-1] == ("interrupted after 0 of 1000 games; the record "
                                           "holds those 0")
    assert (tmp_path / "two.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()


@pytest.mark.parametrize("args", [["allfives", "--vs", "-o", "target=150"],
                                  ["allfives", "--each-rule-off"]], ids=["vs", "each-rule-off"])
def test_ctrl_c_as_the_workers_start_ends_a_comparison_as_one_process(monkeypatch, args):
    import tablerules.records.compare as cmp
    import tablerules.records.parallel as parallel
    args = ["compare", *args, "-n", "100", "-s", "2", "--no-progress", "-f", "json"]
    with monkeypatch.context() as m:
        m.setattr(parallel, "driver", _ctrl_c)
        two = cli(*args, "--workers", "2")
    with monkeypatch.context() as m:
        m.setattr(cmp, "play_game", _ctrl_c)
        one = cli(*args)
    assert two.exit_code == one.exit_code == 130, two.output
    assert json.loads(two.stdout)["interrupted"] is True
    assert json.loads(two.stdout) == json.loads(one.stdout)
    assert two.stderr.splitlines()[-1] == one.stderr.splitlines()[-1]
    assert two.stderr.splitlines()[-1].startswith("interrupted ")
