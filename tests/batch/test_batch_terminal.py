"""At a terminal the batch engine says what a run waits for while its kernel compiles (a ruleset's
first run: 10 to 40 seconds) or loads from numba's cache: a line on stderr with the time gone,
erased once the kernel is ready. Piped, or with --no-progress, nothing is said. So does a run
whose search agent plays its play-outs in compiled code (engine=batch)."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

import pytest

from support import cli, pythonpath

numba = pytest.importorskip("numba")

RUN = ("batch", "moon", "--agents", "rules", "-n", "200", "--check", "10")
SAID = "compiling moon (numba, once: later runs load it)"


def at_terminal(*args: str, interrupt_on: str | None = None) -> tuple[int, str]:
    """`tablerules ARGS` with a pseudo-terminal for its stdin, stdout and stderr: its exit code
    and everything it wrote there. With `interrupt_on`, Ctrl-C once that text shows: SIGINT
    to the process's group (a session of its own with the terminal, as a user's run is; its
    workers are in it too); the run must show it within four minutes."""
    import signal
    import time

    main, child = pty.openpty()
    env = dict(os.environ, COLUMNS="100", PYTHONPATH=pythonpath())
    p = subprocess.Popen([sys.executable, "-W", "ignore", "-m", "tablerules", *args],
                         stdin=child, stdout=child, stderr=child, env=env,
                         start_new_session=interrupt_on is not None)
    os.close(child)
    out = bytearray()
    sent = False
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal's other end closed: the process has ended
                break
            if not chunk:
                break
            out += chunk
            if interrupt_on is not None and not sent and interrupt_on.encode() in out:
                os.killpg(p.pid, signal.SIGINT)
                sent = True
    finally:
        os.close(main)
        if p.poll() is None and interrupt_on is not None and not sent:
            os.killpg(p.pid, signal.SIGKILL)
    text = out.decode("utf-8", "replace")
    assert interrupt_on is None or sent, text
    return p.wait(timeout=300), text


def test_a_terminal_is_told_while_the_kernel_is_prepared():
    code, out = at_terminal(*RUN)
    assert code == 0, out
    assert SAID in out
    assert out.index(SAID) < out.index("hands: 200")  # said before the run, not after


def test_nothing_is_said_when_piped_or_without_progress():
    r = cli(*RUN)
    assert r.exit_code == 0 and "compiling" not in r.stderr, r.stderr
    code, out = at_terminal(*RUN, "--no-progress")
    assert code == 0 and "compiling" not in out, out


def test_a_terminal_is_told_while_the_search_agents_play_outs_are_prepared():
    code, out = at_terminal("simulate", "moon", "-n", "1", "-s", "3", "--agents",
                            "search:engine=batch:worlds=2:playouts=1")
    assert code == 0, out
    said = "compiling moon's play-outs for search (numba, once: later runs load them)"
    assert said in out
    assert out.index(said) < out.index("games     1")


@pytest.mark.parametrize("args, unit, said", [
    (("simulate", "moon", "--engine", "batch", "-n", "100000000", "-w", "1"), "games",
     ("games     ", "hands     ")),
    (("simulate", "moon", "--engine", "batch", "-n", "100000000", "-w", "2"), "games",
     ("games     ", "hands     ")),
    (("batch", "moon", "--agents", "rules", "-n", "100000000"), "hands",
     ("hands: ", "contracts")),
], ids=["simulate", "simulate-workers", "batch"])
def test_ctrl_c_in_a_batch_run_prints_the_report_so_far(args, unit, said):
    """Ctrl-C once the run's progress bar shows: the report of the matches (or hands) counted
    before it, the line that says how many of how many, exit status 130, as the step engine's
    simulate (they printed "interrupted" and the count alone)."""
    code, text = at_terminal(*args, "-s", "2", interrupt_on=f"{unit}/s")  # the bar: it plays
    assert code == 130, text
    assert "Traceback" not in text
    assert all(x in text for x in said), text  # the report
    assert "interrupted after " in text and f" of 100000000 {unit}" in text


def test_ctrl_c_while_the_kernel_compiles_says_nothing_was_played(tmp_path, monkeypatch):
    """Ctrl-C while numba compiles (an empty cache: the compile takes seconds) ends the run with
    one line and exit status 130 (it ended silently)."""
    monkeypatch.setenv("TABLERULES_CACHE", str(tmp_path / "cache"))
    code, text = at_terminal("simulate", "moon", "--engine", "batch", "-n", "10",
                             interrupt_on="compiling moon")
    assert code == 130, text
    assert "interrupted while the kernel was prepared: nothing was played" in text
    assert "Traceback" not in text and "games     " not in text
