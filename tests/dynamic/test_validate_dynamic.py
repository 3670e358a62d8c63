"""`validate` plays random hands and reports dynamic faults with the seed that reproduces them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tablerules.cli.main import app

HERE = Path(__file__).resolve().parent
REL = os.path.relpath(HERE, Path.cwd())


def validate(name: str, *args: str):
    return CliRunner().invoke(app, ["validate", str(Path(REL) / name), *args])


@pytest.mark.parametrize("name, message", [
    ("no_legal_action.yaml", "has no legal action in the auction"),
    ("wrong_hand_points.yaml", "points came to 42; bounds.hand_points is 41"),
    ("endless_match.yaml", "the match did not end within 30 deals (bounds.max_hands)"),
    ("bad_seat.yaml", "auction.first gave 4, which is not a seat 0..3"),
    ("bad_side.yaml", "there is no side 5 (sides are 0..1)"),
])

def test_dynamic_fault_is_reported_with_its_seed(name, message):
    r = validate(name, "--hands", "300", "--seed", "5")
    assert r.exit_code == 1
    assert "Traceback" not in r.output
    assert message in r.stderr
    assert "seeded play:" in r.stderr
    command = r.stderr.split("(reproduce: tablerules ", 1)[1].split(")\n", 1)[0].split()
    assert command[:2] == ["simulate", str(Path(REL) / name)] and "--seed" in command
    again = CliRunner().invoke(app, command)  # the command validate names shows the same fault
    assert again.exit_code == 1 and message in again.stderr


def test_the_reported_seed_reproduces_the_fault():
    first = validate("no_legal_action.yaml", "--hands", "300", "--seed", "9")
    again = validate("no_legal_action.yaml", "--hands", "300", "--seed", "9")
    assert first.exit_code == again.exit_code == 1
    assert first.stderr == again.stderr


def test_no_random_hands_means_no_dynamic_check():
    r = validate("wrong_hand_points.yaml", "--hands", "0")
    assert r.exit_code == 0, r.stderr


def test_dynamic_fault_output(snapshot):
    r = validate("wrong_hand_points.yaml", "--hands", "50", "--seed", "1")
    assert r.stderr == snapshot


def test_simulate_locates_a_dynamic_fault_and_names_the_game():
    r = CliRunner().invoke(app, ["simulate", str(Path(REL) / "bad_seat.yaml"), "--games", "3",
                                 "--seed", "4"])
    assert r.exit_code == 1
    assert "Traceback" not in r.output
    first = r.stderr.splitlines()[0]
    assert re.search(r"bad_seat\.yaml:5:10: error: auction\.first gave [4-7], which is not a seat "
                     r"0\.\.3 \(in game 1, seed '4:0'; reproduce: tablerules simulate "
                     r"\S*bad_seat\.yaml --seed 4 --games 1 --agents rules\)$", first)
    assert 'first: "dealer + 4"' in r.stderr


def test_a_failing_expression_is_located_at_the_expression():
    r = validate("bad_side.yaml", "--hands", "20")
    assert r.stderr.splitlines()[0].startswith(str(Path(REL) / "bad_side.yaml") + ":5:10: error:")
