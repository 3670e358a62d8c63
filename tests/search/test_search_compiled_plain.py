"""The search agent's compiled play-outs (engine=batch) of Texas 42's fortytwo strategy and All
Fives' (a layout's ends) make the same choices as its play-outs in Python, checked with the kernel
run as plain Python (numba's NUMBA_DISABLE_JIT, in the test worker's plain-Python process,
support.plain_python: the same generated source, no compiling; the fortytwo generator compiles for
most of a minute, Moon's compiled one is checked in test_search_compiled.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import plain_python

numba = pytest.importorskip("numba")

SCRIPT = """
import json, sys
from tablerules.game import load_game
from test_search_agent import agent, decisions
g = load_game(sys.argv[1], typed=True)
states = decisions(g, 7, int(sys.argv[2]))
fast, slow = agent(g, engine="batch", worlds=3), agent(g, engine="step", worlds=3)
same = 0
for st in states:
    seat, legal = st.current_player(), st.legal_actions()
    want = slow.act(seat, legal, st.observer(seat))
    got = fast.act(seat, legal, st.observer(seat))
    same += got == want
print(json.dumps({"states": len(states), "same": same, "work_same": fast.work == slow.work,
                  "playouts": fast.work["playouts"]}))
"""


@pytest.mark.parametrize("name", ["texas42", "texas42-hall", "allfives"])
def test_compiled_play_outs_of_a_strategy_make_the_same_choices(tmp_path, name):
    here = Path(__file__).parent
    r = plain_python(["-c", SCRIPT, name, "10"], tmp_path, path=(here, here.parent))
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout)
    assert got["states"] == got["same"] == 10 and got["work_same"], got
    assert got["playouts"] > 100
