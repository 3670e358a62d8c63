"""Layout play (All Fives) in the batch engine: its hands agree with the step engine's."""

from __future__ import annotations


import pytest

from support import cli
from tablerules.batch import compile_batch, verify
from tablerules.batch.replay import replay_matches
from tablerules.game import load_game

numba = pytest.importorskip("numba")
# with -n the file runs on one worker (--dist loadfile), so its kernels are compiled once; a
# kernel another worker is compiling is waited for and loaded from numba's cache

# the one kernel this file compiles (its hand loop; its compiled steps run as plain Python in
# test_steps_layout.py, which saves the suite 22 s of compiling) covers the layout's parts: two players with a boneyard to
# draw from (even holding a play), muggins claims, one-half spinner, the highest double leading,
# the exact target and the cribbage-board unit. The default rules (four partners, no stock, the
# leader by rotation) and the options that change only a constant (teams, 3 players, target)
# are checked the same way by `tablerules batch` (docs/speed.md).
OPTIONS = {
    "boneyard": {"players": "2", "muggins": "true", "draw_with_play": "true",
                 "spinner_count": "one", "first_play": "highest_double", "exact_target": "true",
                 "target": "61"},
}


@pytest.fixture(scope="module", params=sorted(OPTIONS))
def batch(request):
    return compile_batch(load_game("allfives", typed=True,
                                   options=OPTIONS[request.param]).definition)


def test_every_decision_and_result_agrees_with_the_step_engine(batch):
    hands = batch.play(400, 5)
    assert verify(batch.game, hands, range(400)) == []
    g = batch.game
    acts = g.actions
    taken = hands.actions[hands.actions >= 0]
    # real hands: lays on the spinner's arms, knocks, hands gone out and blocked, points scored
    lays = taken[taken >= acts.layout_base] - acts.layout_base
    assert set((lays % len(acts.arms)).tolist()) == set(range(len(acts.arms)))
    assert (taken == acts.knock_action).any()
    assert hands.points(len(g.sides)).sum() > 0 and hands.scored(len(g.sides)).sum() > 0
    if g.stock:
        assert (taken == acts.draw_action).any()
        assert (taken == acts.claim_action).any() and (taken == acts.pass_action).any()


def test_a_wrong_lay_is_caught_by_the_replay(batch):
    hands = batch.play(5, 2)
    hands.results[3, -1] += 5  # a hand score the step engine does not give
    j = int((hands.legal[1] > 1).argmax())
    hands.actions[1, j] = batch.game.actions.num_actions - 1  # the last lay id, never legal here
    assert [p.split(":")[0] for p in verify(batch.game, hands, range(5))] == ["hand 2", "hand 4"]


def test_the_batch_command_plays_all_fives(batch):
    opts = [a for k, v in OPTIONS["boneyard"].items() for a in ("-o", f"{k}={v}")]
    r = cli("batch", "allfives", *opts, "-n", "300", "--check", "100", "--format", "json")
    assert r.exit_code == 0, r.output
    assert '"agree": 100' in r.output


def test_each_kernel_function_is_compiled_once(batch):
    batch.play(50, 3)
    assert batch.compiled_twice() == []


def test_matches_won_by_a_lay_agree_with_the_step_engine(batch):
    """A lay that takes a side to the target ends the match there (scoring.during_hand): the
    hand is not scored. Whole matches replayed through the step engine agree deal by deal."""
    (block,) = list(batch.matches(120, 8))
    assert replay_matches(batch.game, block, range(120)) == []
    ns = len(batch.game.sides)
    last = [block.rows(m)[-1] for m in range(len(block))]
    cut = [r for r in last if block.hands.column("thrown_in")[r] == 0
           and not block.hands.scored(ns)[r].any()]
    assert cut, "no match ended during a hand"
