"""A write that fails (a full disk, a directory for a record) is one line naming the path, exit 1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support import cli, pythonpath

FULL = Path("/dev/full")
needs_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full here")


def run_to(stdout, stderr, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": pythonpath()}
    return subprocess.run([sys.executable, "-m", "tablerules", *args], stdout=stdout,
                          stderr=stderr, env=env, timeout=120)


@needs_full
@pytest.mark.parametrize("args", [("list",), ("list", "--format", "json"), ("show", "texas42"),
                                  ("validate", "texas42", "--hands", "0"),
                                  ("simulate", "texas42", "--games", "1"),
                                  ("diff", "texas42", "texas42-quick")], ids=lambda a: a[0])
def test_stdout_full(args):
    with open(FULL, "w") as out:
        r = run_to(out, subprocess.PIPE, *args)
    assert r.returncode == 1
    assert r.stderr.decode().splitlines()[-1] == \
        "error: cannot write <stdout>: No space left on device", r.stderr.decode()
    assert b"Traceback" not in r.stderr and b"Exception ignored" not in r.stderr


@needs_full
def test_stderr_full_is_exit_1_without_a_trace():
    with open(FULL, "w") as err:
        r = run_to(subprocess.PIPE, err, "validate", "no-such-ruleset", "--hands", "0")
    assert r.returncode == 1


@needs_full
def test_record_to_a_full_device():
    r = cli("simulate", "texas42", "--games", "3", "--record", str(FULL))
    assert r.exit_code == 1
    assert r.stderr == f"error: cannot write {FULL}: No space left on device\n"


def test_record_to_a_directory(tmp_path):
    r = cli("simulate", "texas42", "--games", "1", "--record", str(tmp_path))
    assert r.exit_code == 1
    assert r.stderr.startswith(f"error: cannot write {tmp_path}: ") and r.stderr.count("\n") == 1
