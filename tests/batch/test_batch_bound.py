"""A value past the language's integer bound stops both engines: the step engine where the rule
is written, the batch engine at the ruleset (its kernel's int64 would otherwise go on, and wrap
past 2**63, where the step engine stops)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import cli, plain_python

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
    compiling), in the test worker's plain-Python process: the same bound, placed at the
    ruleset's file."""
    r = plain_python(["-m", "tablerules", "simulate", GROWING, "--games", "1", "--agents",
                      "random", "--engine", "batch", "--no-progress"], tmp_path)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr
    assert "texas42-growing.yaml: error: the batch engine stopped: a rule's value is " + BOUND \
        in r.stderr, r.stderr


SHORT = "name: short\nextends: texas42\nbounds:\n  max_steps: 6\n"
STEPS = """
import random, sys
from tablerules.batch import compile_steps
from tablerules.errors import RulesetFault
from tablerules.game import load_game
game = load_game(sys.argv[1], typed=True)
steps = compile_steps(game)
rng = random.Random(1)
pieces = list(range(28))
rng.shuffle(pieces)
hand = steps.new_hand([pieces[7 * s:7 * s + 7] for s in range(4)], 0)
try:
    for _ in range(100):
        hand.apply_action(rng.choice(hand.legal_actions()))
except RulesetFault as e:
    e = game.locate(e)
    print(e.span.line, e.message)
"""


def _plain_python(tmp_path, *args):
    return plain_python(args, tmp_path / "cache", cwd=tmp_path)


def test_a_hand_past_max_steps_stops_the_kernel_at_the_bound(tmp_path):
    """bounds.max_steps in the batch engine's hand loop and in compiled steps: the step
    engine's fault, placed at the bound (line 4), the kernel again run as plain Python."""
    (tmp_path / "short.yaml").write_text(SHORT, encoding="utf-8")
    (tmp_path / "steps.py").write_text(STEPS, encoding="utf-8")
    r = _plain_python(tmp_path, "steps.py", "short.yaml")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("4 the compiled hand stopped after 7 decisions: the hand did "
                               "not end within bounds.max_steps decisions"), r.stdout
    r = _plain_python(tmp_path, "-m", "tablerules", "batch", "short.yaml", "--hands", "3",
                      "--no-progress")
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "short.yaml:4:" in r.stderr and "bounds.max_steps" in r.stderr, r.stderr
    r = _plain_python(tmp_path, "-m", "tablerules", "simulate", "short.yaml", "--engine", "batch",
                      "--agents", "random", "--games", "2", "--no-progress")
    assert r.returncode == 1 and "short.yaml:4:" in r.stderr, r.stderr
    assert "note:" not in r.stderr  # the random bidders' note is for a match that never ends


def test_a_fault_at_one_table_on_the_batch_engine_says_whose_game(tmp_path):
    """The batch engine names no deal seed: compare's message says the game it stopped in and
    which side A's agents held, in words ('in a game with A's agents on side 1')."""
    short = tmp_path / "short.yaml"
    short.write_text("name: short\ntitle: t\nextends: texas42\nbounds:\n  max_hands: 8\n",
                     encoding="utf-8")
    r = plain_python(["-m", "tablerules", "compare", str(short), "--agents", "rules", "--vs",
                      "--agents", "random", "--games", "40", "--engine", "batch",
                      "--no-progress"], tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    first = r.stderr.splitlines()[0]
    assert first.startswith(f"{short}:3:1: error: the batch engine stopped in game ")
    assert first.endswith(": the match did not end within bounds.max_hands deals (in a game "
                          "with A's agents on side 1)"), first
