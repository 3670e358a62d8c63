"""The batch engine plays a card game (taroky): its hands agree with the step engine's.

Taroky reads per-piece records (who played a card, who took its trick, which trick, what each
seat laid away), follows in tiers (the suit, else a tarok), shares the talon out by parts of it
(a prever's half from a place), plays counter-clockwise with a turn carried by the deal, and
pays chips between seats: every decision and result, payments included, must agree.

Taroky's kernel with the options below takes about a minute to compile, which the suite's time
budget has no room for: its rules are checked here as plain Python (numba's NUMBA_DISABLE_JIT, in
the test worker's plain-Python process, support.plain_python: the same generated source, no
compiling), and numba's typing of a card kernel (52 pieces, the card helpers, follow by suit, a
trump suit) is checked by compiling the plain 52-card fixture, in about ten seconds. Compiled,
taroky is checked by
`tablerules batch taroky --check` (docs/speed.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import cli, plain_python
from tablerules.batch import compile_batch, verify
from tablerules.game import load_game

numba = pytest.importorskip("numba")
# with -n the file runs on one worker (--dist loadfile), so its kernel is compiled once; a
# kernel another worker is compiling is waited for and loaded from numba's cache

HERE = Path(__file__).resolve().parent
PLAIN52 = str(HERE.parent / "fixtures" / "cards" / "plain52.yaml")

# the option values that change the rules, all at once (the count, the talon, what may be laid
# away, holdings)
OPTIONS = {"counting": "czech", "two_in_talon": "redeal", "dealer_povinnost": "takes_none",
           "lay_away_trul": "true", "holdings": "as_dealt", "short_group": "two_off",
           "prever_treble": "lost_only", "second_half": "always", "red_pips": "plain"}

SCRIPT = """
import json
from support import cli, step_summary
from tablerules.batch import compile_batch, verify
from tablerules.batch.replay import replay_matches
from tablerules.game import load_game
from tablerules.records.batchrun import fold_block
from tablerules.records.runner import new_summary

game = load_game("taroky", OPTIONS, typed=True)
g = game.definition
batch = compile_batch(g)
out = {}

hands = batch.play(400, 5)
played = hands.column("thrown_in") == 0
out["hands"] = {
    "problems": verify(g, hands, range(400)),
    "contracts": sorted({g.contracts[c].name for c in hands.column("contract")[played]}),
    "paid": any(hands.paid(g, i) for i in range(len(hands))),
    "fewest steps": int(hands.column("steps")[played].min()),
    "cards played": len(g.pieces) - g.stock,
    "all played": bool(played.all()),
}

few = batch.play(30, 2)
i = next(i for i in range(30) if few.paid(g, i))
few.results[i, -1] += 1  # a chip the step engine does not pay
out["wrong payment"] = verify(g, few, [i])

(block,) = list(batch.matches(40, 6))
mine = new_summary(game)
fold_block(mine, game, block)
theirs = step_summary(game, block)
out["matches"] = {
    "problems": replay_matches(g, block, range(40)),
    "same summary": mine.as_dict() == theirs.as_dict(),
    "chips by seat": bool(mine.as_dict()["chips_by_seat"]),
    "chips moved": mine.chips_moved,
    "some seat moved": any(block.chips(m, len(g.sides)) != [g.match.stake] * g.seat_count
                           for m in range(len(block))),
}

# the same matches in two parts, each folded on its own (as a batch run's workers fold theirs)
# and added together: the summary of the whole, every figure (the chips' too)
parts = [new_summary(game), new_summary(game)]
for part, (a, b) in zip(parts, ((0, 17), (17, 40))):
    for blk in batch.matches(b - a, 6, first=a, decisions=False):
        fold_block(part, game, blk)
parts[0].absorb(parts[1])
out["matches"]["parts absorbed"] = vars(parts[0]) == vars(mine)

opts = [a for k, v in OPTIONS.items() for a in ("-o", f"{k}={v}")]
r = cli("batch", "taroky", *opts, "-n", "300", "--check", "60", "--format", "json")
out["command"] = {"code": r.exit_code, "stdout": r.stdout, "stderr": r.stderr}

# every seat the rules agent (taroky's strategy, its called card found by card()): each of its
# choices is checked against the Python agent's
r = cli("batch", "taroky", *opts, "--agents", "rules", "-n", "200", "--check", "200",
        "--format", "json")
out["rules"] = {"code": r.exit_code, "stdout": r.stdout, "stderr": r.stderr}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def taroky(tmp_path_factory):
    """Taroky with OPTIONS on the batch engine as plain Python: what the script found."""
    r = plain_python(["-c", f"OPTIONS = {OPTIONS!r}\n" + SCRIPT],
                     tmp_path_factory.mktemp("cache"), path=[HERE.parent], timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_every_decision_result_and_payment_agrees_with_the_step_engine(taroky):
    h = taroky["hands"]
    assert h["problems"] == []
    assert h["contracts"] == ["game", "prever"]  # both contracts are played
    assert h["paid"]  # the talon is shared out and chips change hands
    assert h["fewest steps"] >= h["cards played"]
    assert not h["all played"]  # two_in_talon=redeal: the II in the talon throws the hand in


def test_a_wrong_payment_is_caught_by_the_replay(taroky):
    problems = taroky["wrong payment"]
    assert len(problems) == 1 and "paid" in problems[0]


def test_matches_for_chips_agree_with_the_step_engine_and_fold_the_same_summary(taroky):
    """A match for chips: each seat starts from the stake, every hand's payments move chips
    between seats (match_over reads them), the side with the most chips wins; replayed whole,
    and folded into the same summary (chips per seat at the end, chips paid) as the step
    engine's own hands fold."""
    m = taroky["matches"]
    assert m["problems"] == []
    assert m["same summary"] and m["chips by seat"] and m["chips moved"] > 0
    assert m["some seat moved"]  # not every seat ends every match where it started
    assert m["parts absorbed"]  # Summary.absorb adds a part run elsewhere: every field


def test_the_batch_command_plays_taroky(taroky):
    r = taroky["command"]
    assert r["code"] == 0, r["stderr"]
    out = json.loads(r["stdout"])
    assert out["checked"] == {"hands": 60, "agree": 60, "disagreements": []}
    assert set(out["contracts"]) == {"game", "prever"}


def test_the_rules_agent_plays_taroky_on_the_batch_engine(taroky):
    r = taroky["rules"]
    assert r["code"] == 0, r["stderr"]
    out = json.loads(r["stdout"])
    assert out["agents"] == ["rules"] * 4
    assert out["checked"] == {"hands": 200, "agree": 200, "disagreements": []}


# -- a card kernel compiled ------------------------------------------------------------------


@pytest.fixture(scope="module")
def plain52():
    return compile_batch(load_game(PLAIN52, {"trump_suit": "hearts"}, typed=True).definition)


def test_a_compiled_card_kernel_agrees_with_the_step_engine(plain52):
    hands = plain52.play(300, 4)
    assert verify(plain52.game, hands, range(300)) == []
    # every hand plays all 52 cards: thirteen tricks
    assert (hands.column("steps") == 52).all()
    assert plain52.compiled_twice() == []


def test_the_batch_command_plays_a_card_game_compiled(plain52):
    r = cli("batch", PLAIN52, "-o", "trump_suit=hearts", "-n", "500", "--check", "100",
            "--format", "json", "--no-progress")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["checked"] == {"hands": 100, "agree": 100, "disagreements": []}
