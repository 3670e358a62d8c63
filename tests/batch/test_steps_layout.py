"""Compiled steps of layout play (All Fives: the line, the spinner, drawing from the boneyard,
knocking, muggins claims) agree with the step engine decision by decision.

The kernel runs as plain Python here (numba's NUMBA_DISABLE_JIT, in a process of its own): the
same generated source, with no compiling, which would add a third generator to the suite's
budget (tests/batch/test_steps.py compiles Texas 42's and Moon's). numba's compiled form of it
is played by `python benchmarks/bench_allfives.py` (2,000 hands against the step engine)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from support import SRC

numba = pytest.importorskip("numba")

SCRIPT = """
import json, random, sys
from tablerules.batch import compile_steps
from tablerules.engine.state import TERMINAL, new_hand
from tablerules.game import load_game
game = load_game(sys.argv[1], json.loads(sys.argv[2]), typed=True)
g = game.definition
steps = compile_steps(game)
rng = random.Random(5)
decisions, claims = 0, 0
for i in range(int(sys.argv[3])):
    pieces = list(range(len(g.pieces)))
    rng.shuffle(pieces)
    k, n = g.hand_size, g.seat_count
    dealt = [tuple(pieces[s * k:(s + 1) * k]) for s in range(n)]
    if g.stock:
        dealt.append(tuple(pieces[n * k:n * k + g.stock]))
    dealt = tuple(dealt)
    want, got = new_hand(g, dealt, i % n), steps.new_hand(dealt, i % n)
    assert got.dealt == dealt
    while not want.is_terminal():
        assert got.current_player() == want.current_player(), (i, decisions)
        assert got.legal_actions() == want.legal_actions(), (i, decisions)
        a = rng.choice(want.legal_actions())
        claims += g.action_to_string(a) == "claim"
        want.apply_action(a)
        got.apply_action(a)
        decisions += 1
    assert got.is_terminal() and got.current_player() == TERMINAL and got.legal_actions() == ()
    assert got.history == want.history, i
    assert got.hand_result() == want.hand_result(), i
print(json.dumps({"decisions": decisions, "claims": claims}))
"""


@pytest.mark.parametrize("options", [{}, {"players": 2}, {"players": 3, "muggins": True}],
                         ids=json.dumps)
def test_every_decision_and_result_of_layout_play_is_the_step_engines(tmp_path, options):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", TABLERULES_CACHE=str(tmp_path),
               PYTHONPATH=os.pathsep.join(filter(None, [SRC, os.environ.get("PYTHONPATH")])))
    r = subprocess.run([sys.executable, "-W", "ignore", "-c", SCRIPT, "allfives",
                        json.dumps(options), "60"], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    seen = json.loads(r.stdout)
    assert seen["decisions"] > 60 * 10
    assert (seen["claims"] > 0) == bool(options.get("muggins"))  # counts claimed, with muggins
