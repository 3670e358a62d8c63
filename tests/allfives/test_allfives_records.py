"""All Fives records: a seeded record snapshot, replay verification, the readable replay of the
layout, and `show allfives`."""

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
SEATS = ["North", "East", "South", "West"]


def _record(games: int = 1, seed: int = 3, **options) -> str:
    out = io.StringIO()
    simulate(game(**options), games=games, seed=seed, out=out)
    return out.getvalue()


@pytest.fixture(autouse=True)
def in_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_seeded_one_game_record_snapshot(snapshot):
    text = _record()
    assert text == _record()  # byte-identical for the same seed
    lines = text.splitlines()
    head = json.loads(lines[0])
    assert head["ruleset"] == "allfives" and head["agents"] == ["random"] * 4
    assert head["sides"] == [[0, 2], [1, 3]]
    assert json.loads(lines[-2])["type"] == "match" and json.loads(lines[-1])["type"] == "end"
    assert lines == snapshot


@pytest.mark.parametrize("options", [{}, {"players": 3, "draw_with_play": True},
                                     {"players": 2, "target": 61},
                                     {"teams": "cutthroat", "first_play": "highest_double"}])
def test_records_replay_and_agree_with_the_match_lines(tmp_path, options):
    path = tmp_path / "allfives.jsonl"
    text = _record(games=3, seed=9, **options)
    path.write_text(text, encoding="utf-8")
    result = replay(str(path))
    matches = [json.loads(x) for x in text.splitlines() if '"type":"match"' in x]
    assert [g.number for g in result.games] == [1, 2, 3]
    assert [g.score for g in result.games] == [m["score"] for m in matches]
    assert [g.winner for g in result.games] == [m["winner"] for m in matches]


def test_a_record_with_a_changed_lay_score_is_rejected(tmp_path):
    lines = _record().splitlines()
    i = next(i for i, x in enumerate(lines) if '"type":"lay"' in x and '"scored":0' not in x)
    ev = json.loads(lines[i])
    ev["scored"] += 5
    lines[i] = json.dumps(ev, separators=(",", ":"))
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecordError) as e:
        replay(str(path))
    assert "scored" in e.value.message


def test_a_record_with_an_illegal_lay_is_rejected(tmp_path):
    """A decision laying a bone on an end it does not match is refused with the legal plays."""
    lines = _record().splitlines()
    i = next(i for i, x in enumerate(lines)
             if '"type":"decision"' in x and '"action":"knock"' in x)
    ev = json.loads(lines[i])
    ev["action"] = "6-6 north"
    lines[i] = json.dumps(ev, separators=(",", ":"))
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecordError):
        replay(str(path))


def _readable(tmp_path, text: str) -> str:
    path = tmp_path / "allfives.jsonl"
    path.write_text(text, encoding="utf-8")
    r = _cli("replay", str(path), "--game", "1")
    assert r.exit_code == 0, r.output
    return r.stdout


def _counted(ends: str) -> int:
    """The sum a lay line's ends say: "3+(1+1)" is 5."""
    return sum(int(x) for x in ends.replace("(", "").replace(")", "").split("+"))


@pytest.mark.parametrize("options", [{}, {"spinner_count": "one"}, {"players": 2},
                                     {"target": 61, "draw_with_play": True}])
def test_the_replayed_ends_add_up_to_what_a_lay_scores(tmp_path, options):
    """`ends` shows each open end's count as the layout rules count it (display.end_count): a
    double at an arm's end and the spinner by both halves, or the spinner by one with
    spinner_count=one; the spinner once, however many ends it is. So a lay scores the ends' sum
    when it is a multiple of five (in fives at target 61), else nothing."""
    text = _record(games=3, seed=5, **options)
    out = _readable(tmp_path, text)
    unit = 5 if options.get("target") == 61 else 1
    first = text[:text.index('"type":"match"')]  # replay --game 1 prints the first game
    lays = [json.loads(x) for x in first.splitlines() if '"type":"lay"' in x]
    lines = [ln for ln in out.splitlines() if " sets down " in ln or " lays on " in ln]
    assert len(lines) == len(lays)
    seen = set()
    for ev, ln in zip(lays, lines):
        shown = ln.split("   ends ")[1].split()[0]
        total = _counted(shown)
        assert ev["scored"] == (total // unit if total % 5 == 0 else 0), (ln, ev)
        seen.update(k for k in ev["end_kinds"] if k)
        if "double" in ev["end_kinds"]:
            seen.add("shown" if "(" in shown else "not shown")
    assert {"double", "spinner"} <= seen and "shown" in seen


def test_a_house_count_of_the_ends_is_written_once_for_the_score_and_the_replay(tmp_path):
    """`display.end_count` repeated `play.scores`'s count of an end (a double both halves, the
    spinner apart), so a house rule counting a double once had to be written twice, and written
    once it scored one way and was shown the other. Both now call the ruleset's
    `end_count(e: end)`: replacing it changes what a lay scores and what the replay shows."""
    house = tmp_path / "halves.yaml"
    house.write_text("name: halves\ntitle: t\nextends: allfives\nfunctions:\n"
                     "  \"end_count(e: end)\": \"e.pips\"\n", encoding="utf-8")
    rec = tmp_path / "halves.jsonl"
    r = _cli("simulate", str(house), "-n", "3", "--seed", "5", "--agents", "random",
             "--record", str(rec), "--record-detail", "full", "--no-progress")
    assert r.exit_code == 0, r.output
    r = _cli("replay", str(rec), "--game", "1")
    assert r.exit_code == 0, r.output
    text = rec.read_text(encoding="utf-8")
    first = text[:text.index('"type":"match"')]
    lays = [json.loads(x) for x in first.splitlines() if '"type":"lay"' in x]
    lines = [ln for ln in r.stdout.splitlines() if " sets down " in ln or " lays on " in ln]
    assert len(lines) == len(lays)
    kinds = set()
    for ev, ln in zip(lays, lines):
        shown = ln.split("   ends ")[1].split()[0]
        assert "(" not in shown, ln  # no double counted twice
        total = _counted(shown)
        assert ev["scored"] == (total if total % 5 == 0 else 0), (ln, ev)
        spinner = {p for p, k in zip(ev["ends"], ev["end_kinds"]) if k == "spinner"}
        assert total == sum(p for p, k in zip(ev["ends"], ev["end_kinds"]) if k != "spinner") \
            + sum(spinner), (ln, ev)  # every end by its pips, the spinner once
        kinds.update(k for k in ev["end_kinds"] if k)
    assert {"double", "spinner"} <= kinds


def test_a_function_of_options_alone_is_called_in_any_place(tmp_path):
    """A function that reads only its parameters, options and constants may be called where no
    declaration is read (display.end_count, scoring.match_over): it was `unknown function`."""
    house = tmp_path / "anywhere.yaml"
    house.write_text("name: anywhere\ntitle: t\nextends: allfives\nfunctions:\n"
                     "  \"reached(s: int)\": \"s >= target\"\n"
                     "scoring:\n  match_over: \"any(reached(score(s)) for s in sides)\"\n",
                     encoding="utf-8")
    r = _cli("validate", str(house), "--hands", "20")
    assert r.exit_code == 0, r.output


def test_readable_replay_shows_the_layout(tmp_path, snapshot):
    text = _record()
    out = _readable(tmp_path, text)
    assert out.startswith("allfives  seed 3  agents random, random, random, random")
    lays = [json.loads(x) for x in text.splitlines() if '"type":"lay"' in x]
    # a lay is its line and the layout's lines under it (indented further), under 100 columns
    lay_lines = []
    for ln in out.splitlines():
        assert len(ln) < 100, ln
        if " sets down " in ln or " lays on " in ln:
            lay_lines.append(ln)
        elif ln.startswith("      ") and lay_lines:  # its layout, or the line wrapped
            lay_lines[-1] += " " + ln.strip()
    assert len(lay_lines) == len(lays)
    for ev, ln in zip(lays, lay_lines):
        lay = ev["layout"]
        assert ln.strip().startswith(SEATS[ev["seat"]])
        assert f"line {lay['line']}" in ln
        for arm in ("north", "south"):
            if arm in lay:
                assert f"{arm} {lay[arm]}" in ln
        # each end as the layout rules count it: the sum is what scored (a double twice)
        shown = ln.split("   ends ")[1].split()[0]
        assert _counted(shown) % 5 != 0 or _counted(shown) == ev["scored"]
        assert bool(ev["scored"]) == (_counted(shown) % 5 == 0 and _counted(shown) > 0)
        assert (f"-> scores {ev['scored']}; score North-South {ev['score'][0]}, East-West "
                f"{ev['score'][1]}" in ln) == bool(ev["scored"])
    assert any("*" in ln for ln in lay_lines)  # the spinner is marked
    assert any("north" in ln for ln in lay_lines)
    assert "knocks" in out
    assert "went out" in out or "blocked" in out
    assert "Game over: score" in out
    assert out == snapshot


def test_readable_replay_with_a_boneyard_shows_draws(tmp_path, snapshot):
    text = _record(players=3)
    out = _readable(tmp_path, text)
    draws = [json.loads(x) for x in text.splitlines() if '"type":"draw"' in x]
    assert draws
    seats = ["North", "East", "South"]
    for d in draws[:5]:
        assert f"{seats[d['seat']]:<6} draws {d['piece']}" in out
    assert out == snapshot


def test_readable_replay_does_not_name_a_bidder_seat_minus_one(tmp_path):
    """All Fives has no bidder (the record's bidder is -1); the readable account should not say
    the contract is played "by seat -1"."""
    out = _readable(tmp_path, _record())
    assert "seat -1" not in out


def test_show_allfives(snapshot):
    r = _cli("show", "allfives")
    assert r.exit_code == 0
    for name in ("players", "teams", "first_play", "spinner_count", "draw_with_play", "target"):
        assert name in r.stdout
    assert "250, 200, 150, 100, 61" in r.stdout
    assert r.stdout == snapshot
