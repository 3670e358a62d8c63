"""A deal that cannot be made (hands that do not fit, a negative stock) is a located error."""

from __future__ import annotations

import re

import pytest

from support import cli

# at the overlay's own line, with a note naming the base rule it broke
HEAD = re.compile(r"^\S*af8\.yaml:4:3: error: deal\.stock comes to -4.*\n.*\n.*\n"
                  r"\S*allfives\.yaml:\d+:\d+: note: the base rule it broke", re.M)


@pytest.fixture
def eight(tmp_path):
    f = tmp_path / "af8.yaml"
    f.write_text("name: af8\nextends: allfives\ndeal:\n  hand_size: 8\n", encoding="utf-8")
    return f


@pytest.mark.parametrize("command", [("validate", "--hands", "10"), ("simulate", "--games", "1"),
                                     ("show",)], ids=lambda c: c[0])
def test_hands_that_do_not_fit(eight, command):
    r = cli(command[0], str(eight), *command[1:])
    assert r.exit_code == 1
    assert HEAD.search(r.stderr), r.stderr
    assert "4 hands of 8 need 32 pieces; the set has 28" in r.stderr


def test_a_computed_hand_size_below_one(tmp_path):
    f = tmp_path / "af0.yaml"
    f.write_text("name: af0\nextends: allfives\ndeal:\n  hand_size: 'hand_4 - 7'\n",
                 encoding="utf-8")
    r = cli("validate", str(f), "--hands", "0")
    assert r.exit_code == 1
    assert "af0.yaml:4:14: error: deal.hand_size comes to 0" in r.stderr


def test_every_shipped_hand_size_option_fits():
    for players, option, top in [(2, "hand_2", 14), (3, "hand_3", 9), (4, "hand_4", 7)]:
        r = cli("validate", "allfives", "-o", f"players={players}", "-o", f"{option}={top}",
                "--hands", "5")
        assert r.exit_code == 0, r.stderr


def test_replay_with_a_deal_that_cannot_be_made(eight, tmp_path):
    rec = tmp_path / "af.jsonl"
    assert cli("simulate", "allfives", "--games", "1", "--record", str(rec)).exit_code == 0
    r = cli("replay", str(rec), "--ruleset", str(eight))
    assert r.exit_code == 1
    assert "deal.stock comes to -4" in r.stderr
