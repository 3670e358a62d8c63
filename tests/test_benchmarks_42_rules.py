"""The hand-written fortytwo player makes the rules agent's choices (its --check; no timing)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def test_handwritten_rules_player_agrees_with_the_rules_agent():
    """300 hands, every action and every result, against the step engine's rules agent."""
    r = subprocess.run([sys.executable, str(BENCH / "handwritten42_rules.py"), "--check", "300"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "rules check OK: 300 hands" in r.stdout, r.stdout
