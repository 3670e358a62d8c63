"""Kernels the suite does not compile, their logic checked as plain Python (numba's
NUMBA_DISABLE_JIT, in a process of its own: the same generated source, no compiling): every
hand replayed through the step engine agrees, decision by decision and result by result.

Texas 42's fortytwo strategy compiles for one to two minutes, Taroky's default rules for
about one and All Fives' strategy for about half of one; the suite compiles Moon's strategy and a plain 52-card game (test_batch_rules.py,
test_batch_cards.py, which checks Taroky's other options as plain Python too), so numba's typing
of each kind is checked there and here their rules."""

from __future__ import annotations

import json

import pytest

from support import allfives_with_arms, plain_python

numba = pytest.importorskip("numba")


def agree(cache, name: str, agents: str, *options: str) -> None:
    r = plain_python(["-m", "tablerules", "batch", name, *options, "--agents", agents, "-n",
                      "200", "--check", "200", "--seed", "3", "--no-progress", "--format",
                      "json"], cache)
    assert r.returncode == 0, r.stderr[-2000:]
    j = json.loads(r.stdout)
    assert j["hands"] == 200
    assert j["checked"] == {"hands": 200, "agree": 200, "disagreements": []}, j["checked"]


@pytest.mark.parametrize("name, agents", [("texas42", "rules"), ("texas42-hall", "rules"),
                                          ("taroky", "random"), ("allfives", "rules")])
def test_every_hand_agrees_with_the_step_engine(tmp_path, name, agents):
    agree(tmp_path, name, agents)


def test_the_layout_strategy_reads_every_arm_the_ruleset_names(tmp_path):
    """All Fives' strategy reads the arms one may lay on (`ends`): with a spinner that opens
    three arms, and with three players and a boneyard, it still chooses as the Python agent."""
    f = allfives_with_arms(tmp_path, "[north, south, up]")
    agree(tmp_path, str(f), "rules", "-o", "players=3")


def test_a_strategy_sees_the_boneyard_shrink_as_pieces_are_drawn(tmp_path):
    """`stock_size` is what is left of the stock: two players of All Fives draw from a
    boneyard of fourteen, and a strategy that lays heavy while more than six are left chooses
    as the Python agent after every draw."""
    f = tmp_path / "boneyard.yaml"
    f.write_text("""
name: boneyard
for: [allfives]
play:
  - name: heavy_while_the_boneyard_is_full
    when: "stock_size > 6"
    only: "a.kind == 'lay'"
    choose: "a.piece.pips"
  - name: light_after
    only: "a.kind == 'lay'"
    choose: "-a.piece.pips"
""", encoding="utf-8")
    agree(tmp_path, "allfives", f"rules:strategy={f}", "-o", "players=2")
