"""The benchmark scripts run and their baselines agree with the interpreter (no timing asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True,
                          text=True, timeout=600)


@pytest.mark.parametrize("script", ["bench_hands.py", "bench_allfives.py"])
def test_bench_script_reports_a_ratio(script):
    r = run(script, "--hands", "40", "--repeat", "1")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert "interpreter_error" not in summary, summary
    assert summary["ratio"] is not None and summary["ratio"] > 0


def test_allfives_bench_plays_the_same_games():
    r = run("bench_allfives.py", "--hands", "200", "--repeat", "1")
    assert "same games   : 200/200" in r.stdout, r.stdout


def test_handwritten42_self_check():
    r = run("handwritten42.py", "--check", "200")
    assert r.returncode == 0, r.stdout + r.stderr


def test_handwritten_allfives_self_check_and_differential():
    """Its --check replays each hand through the interpreter with the same choices."""
    r = run("handwritten_allfives.py", "--check", "200")
    assert r.returncode == 0, r.stdout + r.stderr
