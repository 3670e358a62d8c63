"""--workers N gives the record and the summary of one process, byte for byte (simulate and
compare), a ruleset fault the same located error and end line, and Ctrl-C / SIGTERM a clean stop."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tablerules.errors import TablerulesError

from support import cli, long_simulate, pythonpath, wait_for_games



def run(tmp_path, name: str, *args: str) -> tuple[bytes, dict]:
    rec = tmp_path / f"{name}.jsonl"
    r = cli("simulate", *args, "-r", str(rec), "--no-progress", "-f", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    out.pop("record")
    return rec.read_bytes(), out


def as_a_user(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """`python ARGS` in the environment of a user's shell, not the suite's (conftest.py sets
    OPENBLAS_NUM_THREADS; neither sets TABLERULES_START_METHOD), this checkout's source first
    on its path."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("TABLERULES_START_METHOD", "OPENBLAS_NUM_THREADS")}
    env["PYTHONPATH"] = pythonpath()
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          timeout=timeout)


@pytest.mark.parametrize("ruleset", ["texas42", "allfives", "texas42 --first-dealer 2"])
def test_workers_write_the_record_and_summary_of_one_process(tmp_path, ruleset):
    one = run(tmp_path, "one", *ruleset.split(), "-n", "7", "-s", "5")
    two = run(tmp_path, "two", *ruleset.split(), "-n", "7", "-s", "5", "--workers", "2")
    assert two == one


def test_spawned_workers_write_the_record_of_forked_ones(tmp_path, monkeypatch):
    # spawn is the start of every platform but Linux: its workers load the ruleset themselves
    one = run(tmp_path, "one", "allfives", "-n", "5", "-s", "2")
    for method in ("fork", "spawn"):
        monkeypatch.setenv("TABLERULES_START_METHOD", method)
        assert run(tmp_path, method, "allfives", "-n", "5", "-s", "2", "--workers", "2") == one


def test_a_forked_worker_plays_the_parents_game_a_spawned_one_loads_it(tmp_path, monkeypatch):
    # the ruleset's file changes after the run's game is loaded: a forked worker starts with the
    # parent's game and plays on; a spawned one loads the file and finds it is not the run's
    from tablerules.game import load_game
    from tablerules.records.parallel import game_source
    from tablerules.records.runner import simulate
    path = tmp_path / "mine.yaml"
    path.write_text("extends: texas42\n", encoding="utf-8")
    game = load_game(str(path), typed=True)
    path.write_text("extends: texas42\nset: {nello: false}\n", encoding="utf-8")
    alone = simulate(game, games=4, seed=6, agent_names=["rules"]).as_dict()
    monkeypatch.setenv("TABLERULES_START_METHOD", "fork")
    source = game_source(game, ["rules"], 6, workers=2)
    assert simulate(game, games=4, seed=6, agent_names=["rules"], source=source).as_dict() == alone
    monkeypatch.setenv("TABLERULES_START_METHOD", "spawn")
    source = game_source(game, ["rules"], 6, workers=2)
    with pytest.raises(TablerulesError, match="is not the one the run was started with"):
        simulate(game, games=4, seed=6, agent_names=["rules"], source=source)


def _as_ctrl_c(signum, frame):
    raise KeyboardInterrupt  # what the CLI makes of SIGTERM during a run


def test_a_forked_worker_ends_on_sigterm_whatever_its_parent_made_of_it(monkeypatch):
    # a forked worker starts with its parent's signal handlers; the pool's SIGTERM at the end of
    # a run must end it quietly (with the CLI's handler, each worker printed a traceback)
    from tablerules.game import load_game
    from tablerules.records.parallel import driver, source_of
    monkeypatch.setenv("TABLERULES_START_METHOD", "fork")
    game = load_game("texas42", typed=True)
    before = signal.signal(signal.SIGTERM, _as_ctrl_c)
    try:
        d = driver(2, None, (source_of(game),), (game,))
    finally:
        signal.signal(signal.SIGTERM, before)
    try:
        assert d.submit(signal.getsignal, signal.SIGTERM)() == signal.SIG_DFL
        assert d.submit(signal.getsignal, signal.SIGINT)() == signal.SIG_IGN
    finally:
        d.close()


def test_a_process_that_has_started_numbas_threads_spawns_its_workers():
    """numba's threads (hands played on threads) are native: Python does not count them, and a
    forked child could not use OpenMP's. A process that has started them spawns its pool (in a
    process of its own: started here they would stay for the rest of the test run)."""
    pytest.importorskip("numba")
    if not sys.platform.startswith("linux"):
        pytest.skip("workers are forked on Linux only")
    script = (
        "import numba\n"
        "from tablerules.records.parallel import start_method\n"
        "before = start_method()\n"
        "@numba.njit(parallel=True)\n"
        "def total(n):\n"
        "    s = 0\n"
        "    for i in numba.prange(n):\n"
        "        s += i\n"
        "    return s\n"
        "total(8)\n"
        "print(before, start_method())\n")
    env = {k: v for k, v in os.environ.items() if k != "TABLERULES_START_METHOD"}
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["fork", "spawn"]


def test_a_process_running_a_blas_pool_spawns_and_the_command_starts_none():
    """numpy's BLAS starts a pool of native threads when it is imported (on a machine of more
    than one core): a process running it spawns its workers, and the `tablerules` command sets
    OPENBLAS_NUM_THREADS=1 first, so its own runs fork."""
    if not sys.platform.startswith("linux"):
        pytest.skip("workers are forked on Linux only")
    script = ("import os, numpy\n"
              "from tablerules.records.parallel import start_method\n"
              "print(len(os.listdir('/proc/self/task')), start_method())\n")
    r = as_a_user("-c", script)
    assert r.returncode == 0, r.stderr[-2000:]
    threads, method = r.stdout.split()
    if threads == "1":
        pytest.skip("numpy's BLAS started no thread here (one core)")
    assert method == "spawn"
    script = ("import os, sys\n"
              "from tablerules.cli.main import main\n"
              "sys.argv = ['tablerules', 'list']\n"
              "try:\n"
              "    main()\n"
              "except SystemExit:\n"
              "    pass\n"
              "import numpy\n"
              "from tablerules.records.parallel import start_method\n"
              "print(os.environ['OPENBLAS_NUM_THREADS'], start_method())\n")
    r = as_a_user("-c", script)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split()[-2:] == ["1", "fork"]


def test_a_run_right_after_a_pool_closed_forks_too():
    """A pool's threads are joined when it closes, but each is listed among the process's
    threads for about a millisecond more: a run started right after (bench_workers' rounds,
    a comparison's second side) found one in ten times a thread there and spawned its workers.
    Forty pools, each closed and followed at once by the next run's choice: fork every time
    (in a process of its own: a test worker runs threads of its own)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("workers are forked on Linux only")
    script = ("import multiprocessing\n"
              "from tablerules.records.parallel import start_method\n"
              "chosen = [start_method()]\n"
              "ctx = multiprocessing.get_context('fork')\n"
              "for _ in range(40):\n"
              "    pool = ctx.Pool(2)\n"
              "    pool.apply_async(abs, (-1,)).get()\n"
              "    pool.terminate()\n"
              "    pool.join()\n"
              "    chosen.append(start_method())\n"
              "print(' '.join(chosen))\n")
    r = as_a_user("-c", script)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["fork"] * 41


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_an_unknown_start_method_is_an_error(monkeypatch, command):
    monkeypatch.setenv("TABLERULES_START_METHOD", "thread")
    extra = ["--vs", "-o", "min_bid=31"] if command == "compare" else []
    r = cli(command, "texas42", *extra, "-n", "2", "--workers", "2", "--no-progress")
    assert r.exit_code == 1, r.output
    assert r.stderr == ("error: TABLERULES_START_METHOD is 'thread': it must be fork or "
                        "spawn\n")


@pytest.mark.parametrize("args", [["texas42", "--agents", "random", "--vs", "--agents", "rules"],
                                  ["allfives", "--vs", "texas42"],
                                  # A sits two ways a deal, B one: each one's distinct games
                                  ["texas42", "--agents", "random,cautious,random,cautious",
                                   "--vs", "-o", "min_bid=31", "--agents", "random"],
                                  # at one table, A's agents moved round the sides too
                                  ["texas42", "--agents", "random,cautious,random,cautious",
                                   "--vs", "--agents", "rules"]],
                         ids=["match", "separate", "separate-by-seat", "match-by-seat"])
def test_compare_on_workers_is_the_comparison_of_one_process(args):
    one = cli("compare", *args, "-n", "8", "-s", "3", "-f", "json", "--no-progress")
    two = cli("compare", *args, "-n", "8", "-s", "3", "-f", "json", "--no-progress",
              "--workers", "2")
    assert one.exit_code == two.exit_code == 0, two.output
    assert json.loads(two.stdout) == json.loads(one.stdout)


def test_a_fault_on_workers_is_the_fault_of_one_process(tmp_path, monkeypatch):
    # Moon's uniformly random bidders never finish game 2 of seed 3 (bounds.max_hands)
    monkeypatch.chdir(tmp_path)
    args = ["simulate", "moon", "-n", "3", "-s", "3", "--agents", "random", "--no-progress"]
    one = cli(*args, "-r", "one.jsonl")
    two = cli(*args, "-r", "two.jsonl", "--workers", "2")
    assert one.exit_code == two.exit_code == 1
    assert two.stderr == one.stderr and "in game 2" in two.stderr
    assert (tmp_path / "two.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()


@pytest.mark.parametrize("args", [["simulate", "texas42", "-n", "1", "--workers"],
                                  ["compare", "texas42", "--vs", "-o", "min_bid=31", "-n", "1",
                                   "--workers"],
                                  ["batch", "texas42", "-n", "1", "--threads"]])
@pytest.mark.parametrize("bad", ["many", "\u00b2", "\u0663", "-1", "1.5", ""])  # ², Arabic 3
def test_workers_take_a_count_or_auto(args, bad):
    r = cli(*args, bad)
    assert r.exit_code == 2 and r.stderr == (
        f"error: {args[-1]} is a number of {args[-1][2:].replace('workers', 'processes')} or "
        f"auto, got '{bad}'\n"), r.output


@pytest.mark.parametrize("zero", ["0", "00", " 0", "auto"])
def test_workers_zero_however_written_is_every_core(monkeypatch, zero):
    from tablerules.records import parallel
    monkeypatch.setattr(parallel, "cores", lambda: 4)
    r = cli("simulate", "texas42", "-n", "1", "--profile", "--workers", zero)  # one process only
    assert r.exit_code == 2 and "--profile times the rules in this process" in r.stderr, r.output


@pytest.mark.parametrize("sig, where", [(signal.SIGINT, ["--workers", "2"]),
                                        (signal.SIGTERM, ["--workers", "2"]),
                                        (signal.SIGINT, ["--cluster", "local"])],
                         ids=["SIGINT", "SIGTERM", "SIGINT-cluster"])
def test_an_interrupted_run_on_workers_stops_cleanly(tmp_path, monkeypatch, sig, where):
    if "--cluster" in where:
        pytest.importorskip("distributed")
    monkeypatch.chdir(tmp_path)
    rec = tmp_path / "rec.jsonl"
    # a session of its own: Ctrl-C on a terminal reaches the whole group, workers too (a
    # local cluster's printed a traceback each, and Dask's warnings of the cancelled tasks)
    p = long_simulate(rec, *where, new_session=True)
    try:
        assert wait_for_games(p, rec, 1, 20) >= 1, "the record did not grow"
        if sig == signal.SIGINT:
            os.killpg(p.pid, sig)
        else:
            p.send_signal(sig)
        out, err = p.communicate(timeout=20)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, err
    assert "Traceback" not in err, err
    lines = [json.loads(x) for x in rec.read_text(encoding="utf-8").splitlines()]
    n = sum(1 for x in lines if x["type"] == "match")
    assert [x["game"] for x in lines if x["type"] == "game"] == list(range(1, n + 1))
    assert lines[-1] == {"type": "end", "games": n, "stopped": "interrupted"}
    assert f"games     {n}\n" in out
    if sig == signal.SIGINT:  # one replay is enough: the record closes the same way for both
        r = cli("replay", "rec.jsonl", "-q")
        assert r.exit_code == 0, r.output


def test_ctrl_c_while_a_local_cluster_starts_stops_the_run(tmp_path):
    # the workers start with Ctrl-C ignored, and so does this process meanwhile: one pressed
    # then must still stop the run once the cluster is up (ignored alone, it was lost)
    pytest.importorskip("distributed")
    rec = tmp_path / "rec.jsonl"
    p = long_simulate(rec, "--cluster", "local", new_session=True)
    try:
        deadline = time.monotonic() + 30
        while not _has_child(p.pid) and time.monotonic() < deadline:  # a worker starts
            time.sleep(0.01)
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, err
    assert "Traceback" not in err and "WARNING" not in err, err
    assert "interrupted" in err, err


def _has_child(pid: int) -> bool:
    """Whether any thread of `pid` has started a Python process (Linux's /proc)."""
    kids = [k for t in Path(f"/proc/{pid}/task").glob("*/children") for k in t.read_text().split()]
    for k in kids:
        try:
            if b"multiprocessing" in Path(f"/proc/{k}/cmdline").read_bytes():
                return True
        except OSError:  # gone already
            pass
    return False


@pytest.mark.parametrize("engine", ["step", "batch"])
def test_the_workers_benchmark_runs(engine):
    # it runs and its runs agree (it asserts equal summaries); never a time
    if engine == "batch":
        pytest.importorskip("numba")
    # in the environment of a user's shell: the benchmark, not the suite, keeps numpy's BLAS
    # from starting threads, so that its pool forks as the tablerules command's does (with
    # them, every worker was spawned: a start of 3.5 s, and ratios that meant nothing)
    bench = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_workers.py"
    # Moon: its rules kernel is the one the suite compiles (tests/batch/test_batch_rules.py)
    r = as_a_user(str(bench), "--ruleset", "moon", "--games", "20" if engine == "batch" else "3",
                  "--repeat", "1", "--engine", engine, timeout=300)
    assert r.returncode == 0, r.stderr
    last = json.loads(r.stdout.splitlines()[-1])
    assert last["engine"] == engine and last["cluster"] is None
    assert last["workers"] == 2 and last["target"] == 1.6 and last["ratio"] > 0
    assert last["pool_start_s"] > 0 and last["ratio_without_start"] > 0
    if sys.platform.startswith("linux"):
        assert last["start_method"] == "fork", r.stdout
        assert "workers forked)" in r.stdout
