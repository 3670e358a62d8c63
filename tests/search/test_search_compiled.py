"""The search agent's play-outs in compiled code (engine=batch), in a file of its own: the
kernel compiles for most of a minute, and with `--dist loadfile` the rest of the search tests
run on another worker meanwhile."""

from __future__ import annotations

import pytest

from tablerules.game import load_game

from test_search_agent import agent, decisions


def test_play_outs_in_compiled_code_make_the_same_choices():
    """engine=batch plays the rules policy's play-outs in the kernel (batch/steps.py): the
    same value for every action in every world, so the same choice and the same work."""
    pytest.importorskip("numba")
    g = load_game("moon", typed=True)
    states = decisions(g, 4, 12)
    fast, slow = agent(g, engine="batch", worlds=4), agent(g, engine="step", worlds=4)
    for st in states:
        seat, legal = st.current_player(), st.legal_actions()
        want = slow.act(seat, legal, lambda s=seat, st=st: st.observation(s))
        got = fast.act(seat, legal, lambda s=seat, st=st: st.observation(s))
        assert got == want
    assert fast.work == slow.work and fast.work["playouts"] > 100
