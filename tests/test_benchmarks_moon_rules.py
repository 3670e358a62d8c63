"""The hand-written Moon rules player makes the Python rules agent's every choice (no timing)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def test_handwritten_moon_rules_agrees_with_the_rules_agent():
    """--check 300: every action and result of 300 hands as the step engine's rules agent."""
    r = subprocess.run([sys.executable, str(BENCH / "handwritten_moon_rules.py"), "--check", "300"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "rules check OK: 300 hands" in r.stdout, r.stdout
