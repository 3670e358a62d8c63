"""Compiled steps of layout play (All Fives: the line, the spinner, drawing from the boneyard,
knocking, muggins claims) agree with the step engine decision by decision.

The kernel runs as plain Python here (numba's NUMBA_DISABLE_JIT, in the test worker's plain-Python
process, support.plain_python): the same generated source, with no compiling. numba compiles the
boneyard-with-muggins kernel's hand loop (test_batch_layout.py); its generator, which these steps
run, is compiled and played by `python benchmarks/bench_allfives.py` (2,000 hands against the
step engine), and for a trick game with a strategy by tests/batch/test_batch_rules.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import plain_python

numba = pytest.importorskip("numba")

SCRIPT = """
import json, random, sys
from tablerules.batch import compile_steps
from tablerules.engine.state import TERMINAL, new_hand
from tablerules.game import load_game
from test_steps import deal
game = load_game(sys.argv[1], json.loads(sys.argv[2]), typed=True)
g = game.definition
steps = compile_steps(game)
rng = random.Random(5)
decisions, claims, seen = 0, 0, set()
for i in range(int(sys.argv[3])):
    dealt, n = deal(g, rng), g.seat_count
    want, got = new_hand(g, dealt, i % n), steps.new_hand(dealt, i % n)
    assert got.dealt == dealt
    while not want.is_terminal():
        assert got.current_player() == want.current_player(), (i, decisions)
        assert got.legal_actions() == want.legal_actions(), (i, decisions)
        a = rng.choice(want.legal_actions())
        claims += g.action_to_string(a) == "claim"
        seen.add(g.action_to_string(a).split()[0])
        want.apply_action(a)
        got.apply_action(a)
        decisions += 1
    assert got.is_terminal() and got.current_player() == TERMINAL and got.legal_actions() == ()
    assert got.history == want.history, i
    assert got.hand_result() == want.hand_result(), i
print(json.dumps({"decisions": decisions, "claims": claims, "seen": sorted(seen)}))
"""


# the last: test_batch_layout.py's kernel (two players drawing even holding a play, muggins
# claims, one-half spinner, the highest double leading, the exact target)
BONEYARD = {"players": 2, "muggins": True, "draw_with_play": True, "spinner_count": "one",
            "first_play": "highest_double", "exact_target": True, "target": 61}


@pytest.mark.parametrize("options", [{}, {"players": 2}, {"players": 3, "muggins": True},
                                     BONEYARD], ids=json.dumps)
def test_every_decision_and_result_of_layout_play_is_the_step_engines(tmp_path, options):
    here = Path(__file__).parent
    r = plain_python(["-c", SCRIPT, "allfives", json.dumps(options), "60"], tmp_path,
                     path=(here, here.parent))
    assert r.returncode == 0, r.stderr[-2000:]
    seen = json.loads(r.stdout)
    assert seen["decisions"] > 60 * 10
    assert (seen["claims"] > 0) == bool(options.get("muggins"))  # counts claimed, with muggins
    if options is BONEYARD:  # the boneyard, muggins and a blocked seat
        assert {"draw", "claim", "knock"} <= set(seen["seen"]), seen
