"""Moon records: a seeded record snapshot, replay verification, the readable replay, `show moon`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from support import cli as _cli
from tablerules.errors import RecordError
from tablerules.records.replay import replay
from tablerules.records.runner import simulate

from .helpers import game

ROOT = Path(__file__).resolve().parents[2]


def _record(games: int = 1, seed: int = 3, **options) -> str:
    out = io.StringIO()
    simulate(game(**options), games=games, seed=seed, agent_names=["cautious"], out=out)
    return out.getvalue()


@pytest.fixture(autouse=True)
def in_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_seeded_one_game_record_snapshot(snapshot):
    text = _record()
    assert text == _record()  # byte-identical for the same seed
    lines = text.splitlines()
    head = json.loads(lines[0])
    assert head["ruleset"] == "moon" and head["agents"] == ["cautious"] * 3
    assert head["seats"] == ["North", "East", "West"] and head["sides"] == [[0], [1], [2]]
    assert json.loads(lines[-2])["type"] == "match" and json.loads(lines[-1])["type"] == "end"
    assert lines == snapshot


def test_records_replay_and_agree_with_the_match_lines(tmp_path):
    for options in ({}, {"widow_first": False, "widow_optional": True},
                    {"set_scores": "opponents_gain", "made_scores": "tricks"}):
        path = tmp_path / "moon.jsonl"
        text = _record(games=4, seed=9, **options)
        path.write_text(text, encoding="utf-8")
        result = replay(str(path))
        matches = [json.loads(x) for x in text.splitlines() if '"type":"match"' in x]
        assert [g.number for g in result.games] == [1, 2, 3, 4]
        assert [g.score for g in result.games] == [m["score"] for m in matches]
        assert [g.winner for g in result.games] == [m["winner"] for m in matches]


def test_a_record_with_a_changed_burial_is_rejected(tmp_path):
    lines = _record().splitlines()
    i = next(i for i, x in enumerate(lines) if '"buried"' in x)
    ev = json.loads(lines[i])
    ev["buried"] = "0-0" if ev["buried"] != "0-0" else "1-1"
    lines[i] = json.dumps(ev, separators=(",", ":"))
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecordError) as e:
        replay(str(path))
    assert f":{i + 1}:" in str(e.value) or e.value.diagnostics[0].span.line == i + 1


def test_readable_replay_shows_the_widow_and_the_burial(tmp_path, snapshot):
    path = tmp_path / "moon.jsonl"
    text = _record()
    path.write_text(text, encoding="utf-8")
    r = _cli("replay", str(path), "--game", "1")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert out.startswith("moon  seed 3  agents cautious, cautious, cautious")
    took = [json.loads(x) for x in text.splitlines() if '"took"' in x]
    buried = [json.loads(x) for x in text.splitlines() if '"buried"' in x]
    assert took and len(took) == len(buried)
    seats = ["North", "East", "West"]
    for t, b in zip(took, buried):
        assert f"{seats[t['seat']]} takes the stock: {t['took'][0]}" in out
        assert f"{seats[b['seat']]} buries {b['buried']}" in out
    assert " bury " not in out  # the burial is shown once
    assert "all passed: thrown in" in out or '"thrown_in"' not in text
    assert "Game over: score" in out
    assert out == snapshot


def test_show_moon(snapshot):
    r = _cli("show", "moon")
    assert r.exit_code == 0
    for name in ("target", "widow_first", "widow_optional", "made_scores", "set_scores", "moon_set"):
        assert name in r.stdout
    assert "Pieces: 22" in r.stdout
    assert r.stdout == snapshot
