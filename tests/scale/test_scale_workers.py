"""--workers N gives the record and the summary of one process, byte for byte (simulate and
compare), a ruleset fault the same located error and end line, and Ctrl-C / SIGTERM a clean stop."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from support import cli, long_simulate, wait_for_games



def run(tmp_path, name: str, *args: str) -> tuple[bytes, dict]:
    rec = tmp_path / f"{name}.jsonl"
    r = cli("simulate", *args, "-r", str(rec), "--no-progress", "-f", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    out.pop("record")
    return rec.read_bytes(), out


@pytest.mark.parametrize("ruleset", ["texas42", "allfives"])
def test_workers_write_the_record_and_summary_of_one_process(tmp_path, ruleset):
    one = run(tmp_path, "one", ruleset, "-n", "7", "-s", "5")
    two = run(tmp_path, "two", ruleset, "-n", "7", "-s", "5", "--workers", "2")
    assert two == one


@pytest.mark.parametrize("args", [["texas42", "--agents", "random", "--vs", "--agents", "rules"],
                                  ["allfives", "--vs", "moon"]], ids=["match", "separate"])
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


def test_workers_take_a_count_or_auto():
    r = cli("simulate", "texas42", "-n", "1", "--workers", "many")
    assert r.exit_code == 2 and r.stderr.startswith("error: --workers"), r.output


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_run_on_workers_stops_cleanly(tmp_path, monkeypatch, sig):
    monkeypatch.chdir(tmp_path)
    rec = tmp_path / "rec.jsonl"
    # a session of its own: Ctrl-C on a terminal reaches the whole group, workers too
    p = long_simulate(rec, "--workers", "2", new_session=True)
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


def test_the_workers_benchmark_runs():
    # it runs and its runs agree (it asserts equal summaries); never a time
    bench = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_workers.py"
    r = subprocess.run([sys.executable, str(bench), "--games", "3", "--repeat", "1"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    last = json.loads(r.stdout.splitlines()[-1])
    assert last["workers"] == 2 and last["target"] == 1.6 and last["ratio"] > 0
    assert last["pool_start_s"] > 0 and last["ratio_without_start"] > 0
