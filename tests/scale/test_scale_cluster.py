"""`simulate --cluster ADDRESS` plays on Dask distributed (the cluster extra) and gives the
record and summary of one process; a ruleset given as a path reaches the workers as its text.
The batch engine's runs (`--engine batch`) give the summary or comparison of one process too."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from support import cli

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"


def test_without_the_extra_cluster_is_one_line(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "distributed" else real(name, *a))
    r = cli("simulate", "texas42", "-n", "1", "--cluster", "local")
    assert r.exit_code == 1
    assert r.stderr == ("error: --cluster needs the cluster extra: "
                        "pip install 'tablerules[cluster]'\n")


@pytest.fixture(scope="module")
def scheduler():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as c:
        yield c.scheduler_address


def run(tmp_path, name, *args):
    r = cli("simulate", *args, "-r", str(tmp_path / name), "--no-progress", "-f", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    out.pop("record")
    return (tmp_path / name).read_bytes(), out


def test_a_cluster_run_is_the_run_of_one_process(tmp_path, scheduler):
    one = run(tmp_path, "one.jsonl", "texas42", "-n", "6", "-s", "2")
    assert run(tmp_path, "dask.jsonl", "texas42", "-n", "6", "-s", "2",
               "--cluster", scheduler) == one


def test_a_ruleset_path_reaches_the_cluster_as_text(tmp_path, scheduler):
    path = tmp_path / "mine" / "quick.yaml"
    path.parent.mkdir()
    path.write_text((RULESETS / "texas42-quick.yaml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    one = run(tmp_path, "one.jsonl", str(path), "-n", "4", "-s", "1")
    assert run(tmp_path, "dask.jsonl", str(path), "-n", "4", "-s", "1",
               "--cluster", scheduler) == one


def test_a_rulesets_own_strategy_file_goes_with_it(tmp_path, scheduler):
    home = tmp_path / "hall"
    home.mkdir()
    strategy = (RULESETS / "strategies" / "fortytwo.yaml").read_text(encoding="utf-8")
    (home / "ours.yaml").write_text(strategy.replace("name: fortytwo", "name: ours", 1)
                                    .replace("for: [", "for: [our-hall, ", 1), encoding="utf-8")
    (home / "hall.yaml").write_text("name: our-hall\nextends: texas42\nsimulate:\n"
                                    "  strategy: ours.yaml\n", encoding="utf-8")
    one = run(tmp_path, "one.jsonl", str(home / "hall.yaml"), "-n", "3", "-s", "1")
    assert run(tmp_path, "dask.jsonl", str(home / "hall.yaml"), "-n", "3", "-s", "1",
               "--cluster", scheduler) == one


def compared(*args):
    r = cli("compare", *args, "--no-progress", "-f", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_compare_on_a_cluster_is_the_comparison_of_one_process(scheduler):
    """A against B at one table, and two option values side by side: the same report."""
    args = ("texas42", "--agents", "rules", "--vs", "--agents", "random", "-n", "4", "-s", "3")
    assert compared(*args, "--cluster", scheduler) == compared(*args)
    sep = ("texas42-quick", "--vs", "-o", "min_bid=31", "-n", "4", "-s", "1")
    assert compared(*sep, "--cluster", scheduler) == compared(*sep)
    # A's agents by seat: A's seatings and B's one, each played once a deal, at one table too
    by_seat = ("texas42-quick", "--agents", "random,cautious,random,cautious", "--vs")
    for b in (["-o", "min_bid=31", "--agents", "random"], ["--agents", "random"]):
        args = (*by_seat, *b, "-n", "4", "-s", "1")
        assert compared(*args, "--cluster", scheduler) == compared(*args)


def test_compare_cluster_and_workers_is_a_usage_error():
    r = cli("compare", "texas42", "--vs", "--agents", "random", "--cluster", "local",
            "--workers", "2")
    assert r.exit_code == 2
    assert "--workers and --cluster" in r.output


@pytest.mark.parametrize("command", [["simulate", "moon", "-n", "12"],
                                     ["simulate", "moon", "-n", "12", "--engine", "batch"],
                                     ["compare", "moon", "--vs", "-o", "min_bid=5", "-n", "4"]],
                         ids=["simulate", "batch", "compare"])
@pytest.mark.parametrize("address, problem", [
    ("bogus", "no port"), ("tcp://localhost", "no port"),
    ("localhost:abc", "its port 'abc' is not a number"),
    ("localhost:\u00b2", "its port '\u00b2' is not a number"),
    ("localhost:0", "its port 0 is not 1 to 65535"), (":8786", "no host"),
    ("foo://x:1", "no scheme foo:// (distributed knows "), ("", "it is empty")])
def test_an_address_that_is_none_is_a_usage_error(command, address, problem):
    """Said before anything is played or any scheduler is asked (no cluster is started)."""
    pytest.importorskip("distributed")
    r = cli(*command, "--no-progress", "--cluster", address)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith(f"error: --cluster '{address}': {problem}"), r.stderr
    assert r.stderr.endswith("; give a scheduler's address (tcp://HOST:8786) or local\n")
    assert r.stdout == ""


def test_a_client_that_cannot_start_is_one_line():
    """An address of a known form that the client still refuses (tls:// with no TLS
    configured): the scheduler cannot be reached, exit 1, not a traceback."""
    pytest.importorskip("distributed")
    r = cli("simulate", "moon", "-n", "2", "--no-progress", "--cluster", "tls://localhost:1")
    assert r.exit_code == 1, r.output
    assert r.stderr.startswith("error: cannot reach the Dask scheduler at tls://localhost:1: ")
    assert "\n" not in r.stderr.strip()


def test_the_batch_engine_on_a_cluster_gives_the_summary_of_one_process(scheduler):
    """simulate --engine batch on a cluster: its parts played by the cluster's workers (the
    kernel compiled or loaded there), the summary and the check those of one process."""
    pytest.importorskip("numba")
    args = ("simulate", "moon", "--engine", "batch", "-n", "300", "-s", "4", "--check", "9",
            "--no-progress", "-f", "json")
    one = cli(*args)
    dask = cli(*args, "--cluster", scheduler)
    assert one.exit_code == dask.exit_code == 0, dask.output
    assert json.loads(dask.stdout) == json.loads(one.stdout)
    assert json.loads(dask.stdout)["checked"] == {"games": 9, "agree": 9, "disagreements": []}


def test_a_batch_comparison_at_one_table_on_a_cluster_is_that_of_one_process(scheduler):
    pytest.importorskip("numba")
    args = ("compare", "moon", "--agents", "rules", "--vs", "--agents", "random", "--engine",
            "batch", "-n", "60", "--check", "6", "--no-progress", "--format", "json")
    one = cli(*args)
    dask = cli(*args, "--cluster", scheduler)
    assert one.exit_code == dask.exit_code == 0, dask.output
    assert json.loads(dask.stdout) == json.loads(one.stdout)
    assert json.loads(dask.stdout)["mode"] == "match"


def test_a_cluster_worker_without_numba_is_named_in_one_line(scheduler, monkeypatch):
    """The run compiles its kernel here; a worker that cannot (numba missing there) stops the
    run with a line that says where and what to install, not a traceback."""
    pytest.importorskip("numba")
    import socket
    import threading

    import tablerules.batch as batch
    here = batch.available
    # the scheduler's workers are threads of this process: numba is missing on theirs only
    monkeypatch.setattr(batch, "available",
                        lambda: here() and threading.current_thread() is threading.main_thread())
    line = (f"error: a worker of the cluster ({socket.gethostname()}) has no numba for the "
            "batch engine: pip install 'tablerules[fast]' on every worker\n")
    r = cli("simulate", "moon", "--engine", "batch", "-n", "50", "--no-progress",
            "--cluster", scheduler)
    assert r.exit_code == 1 and r.stderr == line, r.output
    r = cli("compare", "moon", "--agents", "rules", "--vs", "--agents", "random", "--engine",
            "batch", "-n", "20", "--no-progress", "--cluster", scheduler)
    assert r.exit_code == 1 and r.stderr == line, r.output


@pytest.mark.parametrize("engine", ["step", "batch"])
def test_the_workers_benchmark_runs_on_a_cluster(scheduler, engine, capsys):
    # it runs and its runs agree (it asserts equal summaries); never a time
    if engine == "batch":
        pytest.importorskip("numba")
    import sys
    sys.path.insert(0, str(RULESETS.parent / "benchmarks"))
    try:
        import bench_workers
    finally:
        sys.path.pop(0)
    assert bench_workers.main(["--ruleset", "moon", "--games", "20" if engine == "batch" else "3",
                               "--repeat", "1", "--engine", engine, "--cluster", scheduler]) == 0
    last = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert last["engine"] == engine and last["cluster"] == scheduler and last["ratio"] > 0


def test_a_cluster_started_for_the_run_plays_as_one_process(tmp_path):
    """`--cluster local`: the run starts a cluster of this machine's processes (its workers
    import tablerules and load the ruleset, and for the batch engine its kernel from numba's
    cache) and gives the record and summary, or the batch summary, of one process."""
    pytest.importorskip("distributed")
    one = run(tmp_path, "one.jsonl", "texas42", "-n", "3", "-s", "5")
    assert run(tmp_path, "local.jsonl", "texas42", "-n", "3", "-s", "5",
               "--cluster", "local") == one
    pytest.importorskip("numba")
    args = ("simulate", "moon", "--engine", "batch", "-n", "300", "-s", "4", "--check", "3",
            "--no-progress", "-f", "json")
    alone, local = cli(*args), cli(*args, "--cluster", "local")
    assert alone.exit_code == local.exit_code == 0, local.output
    assert json.loads(local.stdout) == json.loads(alone.stdout)


def test_a_cluster_lets_go_of_each_result_once_taken(scheduler):
    """A run's results are not kept on the cluster once the run has taken them (each future was
    held to the end of the run, so its result stayed in the workers' memory): however many
    parts have been played, the cluster holds at most the parts submitted ahead."""
    import itertools
    import time

    from distributed import Client

    from tablerules.game import load_game
    from tablerules.records.parallel import IN_FLIGHT, game_source
    game = load_game("texas42", typed=True)
    games = game_source(game, ["random"], 1, cluster=scheduler)(0, 200, None)
    held = []
    try:
        # parts of 13 games: 12 taken and a 13th begun; two threads, IN_FLIGHT parts each ahead
        assert len(list(itertools.islice(games, 160))) == 160
        with Client(scheduler, timeout="10s") as client:
            # a future let go of is released by the client's event loop: waited for, not timed
            deadline = time.monotonic() + 30
            while True:
                held = [k for keys in client.has_what().values() for k in keys]
                if len(held) <= IN_FLIGHT * 2 or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
    finally:
        games.close()
    assert len(held) <= IN_FLIGHT * 2, held
