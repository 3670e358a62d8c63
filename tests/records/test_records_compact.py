"""Record format version 3 (the compact form, the default), `.jsonl.gz` records, and a summary
that needs no events: the compact record replays to the same account as the full one, says
what a reader follows, and rejects a changed action or result; gzip records are byte-identical
for a seed; the summary is the same with or without a record, for every shipped ruleset."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest

from support import cli
from tablerules.errors import RecordError
from tablerules.game import load_game
from tablerules.load.ruleset import builtin_names
from tablerules.records.io import open_text
from tablerules.records.replay import replay
from tablerules.records.runner import Summary, simulate

NAMES = builtin_names()


def agents_of(game) -> list[str]:
    return list(game.definition.agents)


def record(game, detail: str, games: int = 2, seed: int = 3) -> tuple[str, Summary]:
    out = io.StringIO()
    s = simulate(game, games=games, seed=seed, agent_names=agents_of(game), out=out, detail=detail)
    return out.getvalue(), s


def account(path: Path) -> list[str]:
    return [line for g in replay(str(path)).games for line in [f"Game {g.number}", *g.text]]


@pytest.mark.parametrize("name", NAMES)
def test_a_compact_record_replays_to_the_account_of_the_full_one(name, tmp_path):
    game = load_game(name, {})
    compact, _ = record(game, "compact")
    full, _ = record(game, "full")
    (tmp_path / "c.jsonl").write_text(compact, encoding="utf-8")
    (tmp_path / "f.jsonl").write_text(full, encoding="utf-8")
    lines = [json.loads(x) for x in compact.splitlines()]
    assert lines[0]["version"] == 3 and json.loads(full.splitlines()[0])["version"] == 2
    assert {x["type"] for x in lines} <= {"header", "game", "hand", "match", "end"}
    assert account(tmp_path / "c.jsonl") == account(tmp_path / "f.jsonl")
    assert len(compact) * 5 < len(full)  # well under a fifth (about a tenth: docs/engine.md)


def test_a_compact_hand_line_says_who_won_each_trick_and_the_result():
    full, _ = record(load_game("texas42", {}), "full", games=1)
    compact, _ = record(load_game("texas42", {}), "compact", games=1)
    hands = [x for x in map(json.loads, compact.splitlines()) if x["type"] == "hand"]
    tricks = [x for x in map(json.loads, full.splitlines()) if x["type"] == "trick"]
    played = [h for h in hands if not h.get("thrown_in")]
    assert sum(len(h["won"]) for h in played) == len(tricks)
    assert [w for h in played for w in h["won"]] == [t["winner"] for t in tricks]
    for h in played:
        assert {"dealt", "actions", "contract", "bid", "made", "scored", "score"} <= set(h)


@pytest.fixture
def texas(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("simulate", "texas42", "-n", "2", "-s", "21", "-r", "t.jsonl",
               "--agents", "random", "--no-progress").exit_code == 0
    lines = [json.loads(x) for x in Path("t.jsonl").read_text(encoding="utf-8").splitlines()]
    return Path("t.jsonl"), lines


def rejected(path: Path, lines: list[dict], line_no: int, reason: str) -> str:
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines),
                    encoding="utf-8")
    with pytest.raises(RecordError) as e:
        replay(str(path))
    assert e.value.span.line == line_no, e.value.message
    assert reason in e.value.message, e.value.message
    r = cli("replay", str(path))
    assert r.exit_code == 1 and f"{path}:{line_no}:1: error:" in r.stderr
    return e.value.message


def first_hand(lines: list[dict]) -> int:
    return next(i for i, x in enumerate(lines) if x["type"] == "hand" and not x.get("thrown_in"))


def test_a_changed_play_in_a_compact_record_is_illegal_or_another_game(texas):
    path, lines = texas
    i = first_hand(lines)
    h = lines[i]
    h["actions"][-1], h["actions"][-2] = h["actions"][-2], h["actions"][-1]
    rejected(path, lines, i + 1, "")


def test_a_changed_score_in_a_compact_record(texas):
    path, lines = texas
    i = first_hand(lines)
    lines[i]["score"] = [x + 1 for x in lines[i]["score"]]
    assert "the engine computes" in rejected(path, lines, i + 1, "score")


def test_a_compact_hand_line_with_an_action_too_many_or_too_few(texas):
    path, lines = texas
    i = first_hand(lines)
    more = json.loads(json.dumps(lines))
    more[i]["actions"].append(more[i]["actions"][-1])
    rejected(path, more, i + 1, "the hand was over")
    fewer = json.loads(json.dumps(lines))
    fewer[i]["actions"].pop()
    rejected(path, fewer, i + 1, "end before the hand does")


def test_a_full_line_in_a_compact_record_is_unknown(texas):
    path, lines = texas
    lines.insert(2, {"type": "knock", "seat": 0})
    rejected(path, lines, 3, "unknown line type")


def test_full_detail_writes_version_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("simulate", "moon", "-n", "1", "-r", "m.jsonl", "--record-detail", "full",
               "--no-progress").exit_code == 0
    head = json.loads(Path("m.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert head["version"] == 2
    assert cli("replay", "-q", "m.jsonl").exit_code == 0
    r = cli("simulate", "moon", "-n", "1", "--record-detail", "some")
    assert r.exit_code == 2 and "--record-detail is compact or full" in r.stderr


# -- .jsonl.gz ----------------------------------------------------------------------------------


def test_a_gz_record_is_gzip_byte_identical_for_a_seed_and_replays(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for f in ("a.jsonl.gz", "b.jsonl.gz"):
        assert cli("simulate", "allfives", "-n", "2", "-s", "9", "-r", f,
                   "--no-progress").exit_code == 0
    a = Path("a.jsonl.gz").read_bytes()
    assert a == Path("b.jsonl.gz").read_bytes()
    assert a[:2] == b"\x1f\x8b" and a[3] == 0 and a[4:8] == b"\0\0\0\0"  # no name, mtime 0
    assert cli("simulate", "allfives", "-n", "2", "-s", "9", "-r", "p.jsonl",
               "--no-progress").exit_code == 0
    assert gzip.decompress(a) == Path("p.jsonl").read_bytes()
    assert cli("replay", "a.jsonl.gz").stdout == cli("replay", "p.jsonl").stdout
    with open_text("a.jsonl.gz") as f:
        assert json.loads(f.readline())["type"] == "header"


def test_a_cut_off_or_damaged_gz_record_is_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("simulate", "texas42", "-n", "3", "-r", "a.jsonl.gz", "--no-progress",
               "--record-detail", "full").exit_code == 0
    Path("cut.jsonl.gz").write_bytes(Path("a.jsonl.gz").read_bytes()[:2000])
    r = cli("replay", "cut.jsonl.gz")
    assert r.exit_code == 1 and "the gzip file is cut off" in r.stderr
    Path("bad.jsonl.gz").write_bytes(b"not gzip at all\n")
    r = cli("replay", "bad.jsonl.gz")
    assert r.exit_code == 1 and "not a valid gzip file" in r.stderr


# -- a summary without events -------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_summary_is_the_same_with_and_without_a_record(name):
    game = load_game(name, {})
    bare = simulate(game, games=3, seed=4, agent_names=agents_of(game)).as_dict()
    full, s = record(game, "full", games=3, seed=4)
    assert s.as_dict() == bare
    # and it is what the record's own hand and match lines add up to
    folded = Summary(sides=len(game.definition.sides), first_dealer=bare["first_dealer"])
    for ev in map(json.loads, full.splitlines()):
        if ev["type"] == "hand":
            folded.add_hand(ev)
        elif ev["type"] == "decision":
            folded.decisions += 1
        elif ev["type"] == "match":
            folded.games += 1
            if "chips" in ev:
                folded.add_chips(ev["chips"])
            for side in ev["winner"]:
                folded.side_wins[side] += 1
    assert folded.as_dict() == bare


def test_a_run_without_a_record_builds_no_events(monkeypatch):
    from tablerules.engine import events
    built = []
    for kind in ("trick", "hand", "deal", "decision", "lay", "match"):
        real = getattr(events, kind)
        monkeypatch.setattr(events, kind, lambda *a, _r=real, _k=kind, **k: built.append(_k)
                            or _r(*a, **k))
    for name in ("texas42", "allfives"):
        game = load_game(name, {})
        assert simulate(game, games=1, seed=1, agent_names=agents_of(game)).hands > 0
    assert built == []


def test_the_hand_result_of_a_state():
    from tablerules.records.runner import play_game
    game = load_game("texas42", {})
    assert game.new_match().hand_result() is None
    seen = []
    play_game(game, ["random"], 2, 0, record=False, on_hand=lambda s: seen.append(s.hand_result()))
    assert seen and all(set(h) >= {"thrown_in"} for h in seen)
    played = [h for h in seen if not h["thrown_in"]]
    assert played and all(len(h["scored"]) == 2 and isinstance(h["made"], bool) for h in played)


@pytest.mark.parametrize("name", NAMES)
def test_one_game_compact_record_snapshot(name, snapshot):
    text, _ = record(load_game(name, {}), "compact", games=1, seed=11)
    assert text == record(load_game(name, {}), "compact", games=1, seed=11)[0]
    assert text == snapshot
