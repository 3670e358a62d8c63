"""The JSON Lines record written by `simulate`: schema-valid, reproducible, and self-describing."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from support import pythonpath
from tablerules.game import load_game
from tablerules.records.runner import simulate

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "record.schema.json").read_text(encoding="utf-8"))

COMBOS = [{}, {"min_bid": 32, "all_pass": "reshuffle"}, {"nello_doubles": "suit", "marks_to_win": 1},
          {"nello": False, "sevens": False, "marks_step": 2, "max_opening_marks": 3}]


def record(options: dict, games: int, seed: int) -> str:
    out = io.StringIO()
    simulate(load_game("texas42", options), games=games, seed=seed, out=out)
    return out.getvalue()


def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("options", COMBOS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_every_line_validates_against_the_record_schema(options):
    validator = Draft202012Validator(SCHEMA)
    text = record(options, games=12, seed=3)
    assert text.endswith("\n") and "\r" not in text
    lines = text.splitlines()
    kinds = set()
    for i, line in enumerate(lines, 1):
        obj = json.loads(line)
        errors = sorted(validator.iter_errors(obj), key=lambda e: list(e.path))
        assert not errors, f"line {i} ({obj.get('type')}): {errors[0].message}"
        kinds.add(obj["type"])
        # each line is compact JSON: re-dumping it compactly gives the same bytes
        assert json.dumps(obj, separators=(",", ":"), ensure_ascii=False) == line
    assert {"header", "game", "deal", "decision", "contract", "trick", "hand", "match"} <= kinds
    assert [json.loads(x)["type"] for x in lines].count("header") == 1
    assert json.loads(lines[0])["type"] == "header"
    games = [json.loads(x) for x in lines if json.loads(x)["type"] == "game"]
    assert [g["game"] for g in games] == list(range(1, 13))
    assert [g["seed"] for g in games] == [f"3:{i}" for i in range(12)]


def test_the_same_seed_gives_byte_identical_records():
    a = record({}, games=20, seed=11)
    b = record({}, games=20, seed=11)
    assert a.encode() == b.encode()
    assert record({"min_bid": 32}, games=5, seed=11) == record({"min_bid": 32}, games=5, seed=11)


def test_a_different_seed_gives_a_different_record():
    a = record({}, games=5, seed=11)
    b = record({}, games=5, seed=12)
    assert a != b
    # only the header's seed and the games' seeds would match if the games were the same
    body = lambda t: [ln for ln in t.splitlines() if '"type":"deal"' in ln]  # noqa: E731
    assert body(a) != body(b)


def test_a_game_does_not_depend_on_the_games_before_it():
    """Game i's seed text is 'seed:i', so the first games of a longer run are the same games."""
    short = record({}, games=3, seed=5).splitlines()
    long = record({}, games=6, seed=5).splitlines()
    assert short[1:-1] == long[1:len(short) - 1]


@pytest.mark.parametrize("options", [{}, {"min_bid": 32, "all_pass": "reshuffle", "nello": False}])
def test_the_header_says_what_was_run(options):
    game = load_game("texas42", options)
    gd = game.definition
    out = io.StringIO()
    simulate(game, games=2, seed=99, out=out)
    head = json.loads(out.getvalue().splitlines()[0])
    assert head["type"] == "header" and head["format"] == "tablerules-record" and head["version"] == 2
    assert head["ruleset"] == "texas42"
    assert head["ruleset_hash"] == gd.content_hash
    assert re.fullmatch(r"sha256:[0-9a-f]{16}", head["ruleset_hash"])
    assert head["ruleset_hash"] == load_game("texas42", options).definition.content_hash
    expected = {"marks_to_win": 7, "min_bid": 30, "all_pass": "stuck", "max_opening_marks": 2,
                "marks_step": 1, "nello": True, "nello_doubles": "high", "sevens": True,
                "followme_doubles": "high", "marks_raise": "exactly", "early_end": True,
                "nello_min_marks": 1, "sevens_ties": "first", **options}
    assert head["options"] == expected
    assert head["seed"] == 99 and head["games"] == 2
    assert head["agents"] == ["random"] * 4
    assert head["seats"] == ["North", "East", "South", "West"]
    assert head["sides"] == [[0, 2], [1, 3]]
    if options:
        assert head["canonical"].startswith("texas42(") and "min_bid=32" in head["canonical"]
    else:
        assert head["canonical"] == "texas42"


def test_the_record_does_not_depend_on_the_process(tmp_path):
    """Two interpreters with different string hashing write the same bytes (no set/dict-order leaks)."""
    import os
    import subprocess
    import sys

    outs = []
    for hashseed in ("1", "2"):
        f = tmp_path / f"r{hashseed}.jsonl"
        env = dict(os.environ, PYTHONHASHSEED=hashseed,
                   PYTHONPATH=pythonpath())
        subprocess.run([sys.executable, "-m", "tablerules", "simulate", "texas42", "--games", "3",
                        "--seed", "21", "--record", str(f), "--record-detail", "full", "--no-progress", "-o", "nello_doubles=suit",
                        "--agents", "random"],
                       cwd=tmp_path, env=env, check=True, capture_output=True)
        outs.append(f.read_bytes())
    assert outs[0] == outs[1]
    assert outs[0] == record({"nello_doubles": "suit"}, games=3, seed=21).encode()
