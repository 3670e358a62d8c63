"""The search agent's compiled play-outs (engine=batch) of Texas 42's fortytwo strategy make the
same choices as its play-outs in Python, checked with the kernel run as plain Python (numba's
NUMBA_DISABLE_JIT, in a process of its own: the same generated source, no compiling; the
fortytwo generator compiles for most of a minute, Moon's compiled one is checked in
test_search_compiled.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support import SRC

numba = pytest.importorskip("numba")

SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[2])
from tablerules.game import load_game
from test_search_agent import agent, decisions
g = load_game(sys.argv[1], typed=True)
states = decisions(g, 7, int(sys.argv[3]))
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


@pytest.mark.parametrize("name", ["texas42", "texas42-hall"])
def test_compiled_play_outs_of_a_strategy_make_the_same_choices(tmp_path, name):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", TABLERULES_CACHE=str(tmp_path),
               PYTHONPATH=os.pathsep.join(filter(None, [SRC, str(Path(__file__).parent.parent),
                                                        os.environ.get("PYTHONPATH")])))
    r = subprocess.run([sys.executable, "-W", "ignore", "-c", SCRIPT, name,
                        str(Path(__file__).parent), "10"], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout)
    assert got["states"] == got["same"] == 10 and got["work_same"], got
    assert got["playouts"] > 100
