"""A value past the language's integer bound stops both engines: the step engine where the rule
is written, the batch engine at the ruleset (its kernel's int64 would otherwise go on, and wrap
past 2**63, where the step engine stops)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support import SRC, cli

numba = pytest.importorskip("numba")

GROWING = str(Path(__file__).parent.parent / "fixtures" / "texas42-growing.yaml")
BOUND = "beyond the integer bound: every int is between -2**53 and 2**53"


def test_the_step_engine_stops_where_the_rule_is_written():
    r = cli("simulate", GROWING, "--games", "1", "--agents", "random", "--no-progress")
    assert r.exit_code == 1
    assert "texas42-growing.yaml:10:10: error: the value (an integer of 54 bits) is " + BOUND \
        in r.stderr


def test_the_batch_engine_stops_at_the_bound_too(tmp_path):
    """The kernel run as plain Python (numba's NUMBA_DISABLE_JIT: the same generated source, no
    compiling), in a process of its own: the same bound, placed at the ruleset's file."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", TABLERULES_CACHE=str(tmp_path),
               PYTHONPATH=os.pathsep.join(filter(None, [SRC, os.environ.get("PYTHONPATH")])))
    r = subprocess.run([sys.executable, "-W", "ignore", "-m", "tablerules", "simulate", GROWING,
                        "--games", "1", "--agents", "random", "--engine", "batch",
                        "--no-progress"], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr
    assert "texas42-growing.yaml: error: the batch engine stopped: a rule's value is " + BOUND \
        in r.stderr, r.stderr
