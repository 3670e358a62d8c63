"""Layout arms are named records from the ruleset: a spinner may open none, two or more."""

from __future__ import annotations

import json
import random

import pytest

from support import allfives_with_arms, cli
from tablerules.errors import CheckError
from tablerules.game import load_game


def overlay(tmp_path, arms: str):
    """All Fives with `play.spinner_arms` set."""
    return load_game(str(allfives_with_arms(tmp_path, arms)))


def lays_on(g, hands: int = 300, seed: int = 1) -> tuple[set[str], set[str]]:
    """(arm names laid on, layout text keys) over random hands."""
    rng = random.Random(seed)
    arms, keys = set(), set()
    for _ in range(hands):
        st = g.new_match(record=True)
        st.deal_random(rng)
        while not st.is_terminal() and st.hands_played == 0:
            st.apply_action(rng.choice(st.legal_actions()))
        for ev in st.events:
            if ev["type"] == "lay":
                arms.add(ev["on"])
                keys |= set(ev["layout"])
    return arms, keys


def test_the_default_spinner_opens_north_and_south():
    arms, keys = lays_on(load_game("allfives"))
    assert {"west", "east", "north", "south"} <= arms
    assert {"north", "south"} <= keys


def test_a_spinner_may_open_no_further_arm(tmp_path):
    g = overlay(tmp_path, "[]")
    arms, keys = lays_on(g)
    assert arms <= {"first", "west", "east"} and keys == {"line"}


def test_a_spinner_may_open_three_arms(tmp_path):
    g = overlay(tmp_path, "[north, south, up]")
    assert g.definition.actions.arms == ("west", "east", "north", "south", "up")
    arms, keys = lays_on(g)
    assert "up" in arms and "up" in keys


def test_an_arm_of_the_line_cannot_be_a_spinner_arm(tmp_path):
    with pytest.raises(CheckError) as e:
        overlay(tmp_path, "[west]")
    assert "names an arm of the line" in str(e.value)


def test_the_readable_replay_shows_every_arm_the_ruleset_names(tmp_path):
    """A lay's account lists the spinner arms of the ruleset, a third one too."""
    g = overlay(tmp_path, "[north, south, up]")
    rec = tmp_path / "arms.jsonl"
    r = cli("simulate", str(tmp_path / "arms.yaml"), "--games", "3", "--seed", "5",
            "--record", str(rec), "--record-detail", "full")
    assert r.exit_code == 0, r.output
    lays = [json.loads(x) for x in rec.read_text(encoding="utf-8").splitlines()
            if '"type":"lay"' in x]
    assert any("up" in ev["layout"] for ev in lays)
    r = cli("replay", str(rec))
    assert r.exit_code == 0, r.output
    for ev in lays:
        if "up" in ev["layout"]:
            assert f"; up {ev['layout']['up']}" in r.stdout
    assert g.definition.actions.arms[-1] == "up"
