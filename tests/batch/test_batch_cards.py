"""The batch engine plays a card game (taroky): its hands agree with the step engine's.

Taroky reads per-piece records (who played a card, who took its trick, which trick, what each
seat laid away), follows in tiers (the suit, else a tarok), shares the talon out by parts of it
(a prever's half from a place), plays counter-clockwise with a turn carried by the deal, and
pays chips between seats: every decision and result, payments included, must agree.
"""

from __future__ import annotations

import json

import pytest

from support import cli, step_summary
from tablerules.batch import compile_batch, verify
from tablerules.batch.replay import replay_matches
from tablerules.game import load_game
from tablerules.records.batchrun import fold_block
from tablerules.records.runner import new_summary

numba = pytest.importorskip("numba")
# with -n the file runs on one worker (--dist loadfile), so its kernels are compiled once; a
# kernel another worker is compiling is waited for and loaded from numba's cache

# the one kernel this file compiles (a taroky kernel takes about a minute; numba caches it):
# the option values that change the rules, all at once (the count, the talon, what may be laid
# away, holdings); the default rules are checked the same way by `tablerules batch taroky`
# (docs/speed.md)
OPTIONS = {"counting": "czech", "two_in_talon": "redeal", "dealer_povinnost": "takes_none",
           "lay_away_trul": "true", "holdings": "as_dealt", "short_group": "two_off",
           "prever_treble": "lost_only", "second_half": "always", "red_pips": "plain"}


@pytest.fixture(scope="module")
def batch():
    return compile_batch(load_game("taroky", OPTIONS, typed=True).definition)


def test_every_decision_result_and_payment_agrees_with_the_step_engine(batch):
    hands = batch.play(400, 5)
    assert verify(batch.game, hands, range(400)) == []
    g = batch.game
    played = hands.column("thrown_in") == 0
    # both contracts are played, the talon is shared out and chips change hands
    assert {g.contracts[c].name for c in hands.column("contract")[played]} == {"game", "prever"}
    assert any(hands.paid(g, i) for i in range(len(hands)))
    assert hands.column("steps")[played].min() >= len(g.pieces) - g.stock
    assert not played.all()  # two_in_talon=redeal: the II in the talon throws the hand in


def test_a_wrong_payment_is_caught_by_the_replay(batch):
    g = batch.game
    hands = batch.play(30, 2)
    i = next(i for i in range(30) if hands.paid(g, i))
    hands.results[i, -1] += 1  # a chip the step engine does not pay
    problems = verify(g, hands, [i])
    assert len(problems) == 1 and "paid" in problems[0]


def test_the_batch_command_plays_taroky(batch):
    opts = [a for k, v in OPTIONS.items() for a in ("-o", f"{k}={v}")]
    r = cli("batch", "taroky", *opts, "-n", "300", "--check", "60", "--format", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["checked"] == {"hands": 60, "agree": 60, "disagreements": []}
    assert set(out["contracts"]) == {"game", "prever"}


def test_each_kernel_function_is_compiled_once(batch):
    batch.play(50, 3)
    assert batch.compiled_twice() == []


def test_matches_for_chips_agree_with_the_step_engine_and_fold_the_same_summary(batch):
    """A match for chips: each seat starts from the stake, every hand's payments move chips
    between seats (match_over reads them), the side with the most chips wins; replayed whole,
    and folded into the same summary (chips per seat at the end, chips paid) as the step
    engine's own hands fold."""
    game = load_game("taroky", OPTIONS, typed=True)
    g = game.definition
    (block,) = list(batch.matches(40, 6))
    assert replay_matches(g, block, range(40)) == []
    mine = new_summary(game)
    fold_block(mine, game, block)
    theirs = step_summary(game, block)
    assert mine.as_dict() == theirs.as_dict()
    assert mine.as_dict()["chips_by_seat"] and mine.chips_moved > 0
    # the chips moved: not every seat ends every match where it started
    assert any(block.chips(m, len(g.sides)) != [g.match.stake] * g.seat_count
               for m in range(len(block)))
