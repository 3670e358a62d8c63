"""Replay streams: each game goes out as soon as it is verified and is not kept (so a record of a
million hands replays in flat memory), the whole record is still verified, and a shard's record
(`simulate --shard K/N`) replays alone."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from support import cli
from tablerules.errors import RecordError
from tablerules.records.replay import replay

GAMES = 4


@pytest.fixture(scope="module")
def rec(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("stream") / "rec.jsonl"
    r = cli("simulate", "texas42", "--agents", "random", "-n", str(GAMES), "-s", "5", "-r",
            str(path), "--no-progress")
    assert r.exit_code == 0, r.output
    return path


def lines_of(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def write(path: Path, lines: list[dict]) -> None:
    path.write_text("".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines),
                    encoding="utf-8")


def test_a_replay_with_a_callback_keeps_no_game(rec):
    seen = []

    def on_game(rep, g):
        assert rep.games == []  # nothing kept while the games stream past
        seen.append((g.number, rep.verified, len(g.text)))

    out = replay(str(rec), on_game=on_game)
    assert out.games == [] and out.verified == GAMES
    # each game arrives as soon as it is verified, with its account
    assert [(n, v) for n, v, _ in seen] == [(n, n) for n in range(1, GAMES + 1)]
    assert all(t > 0 for _, _, t in seen)
    # the accounts are those a keep-everything replay gives
    whole = replay(str(rec))
    assert [g.number for g in whole.games] == list(range(1, GAMES + 1))
    assert [len(g.text) for g in whole.games] == [t for _, _, t in seen]


def test_keep_bounds_the_games_kept_and_text_false_builds_no_account(rec):
    assert [g.number for g in replay(str(rec), keep=2).games] == [1, 2]
    out = replay(str(rec), keep=GAMES, text=False)
    assert [g.text for g in out.games] == [[]] * GAMES
    assert all(g.winner for g in out.games)  # the results are still there
    assert [g.number for g in replay(str(rec), only_game=3, keep=5).games] == [3]


def test_games_before_a_bad_line_stream_out_and_the_error_names_the_line(rec, tmp_path,
                                                                         monkeypatch):
    lines = lines_of(rec)
    third = [i for i, x in enumerate(lines) if x["type"] == "game"][2]
    i = next(i for i in range(third, len(lines)) if lines[i]["type"] == "hand")
    lines[i]["score"] = [x + 1 for x in lines[i]["score"]]
    write(tmp_path / "bad.jsonl", lines)
    seen = []
    with pytest.raises(RecordError) as e:
        replay(str(tmp_path / "bad.jsonl"), on_game=lambda rep, g: seen.append(g.number))
    assert seen == [1, 2]
    assert e.value.diagnostics[0].span.line == i + 1
    monkeypatch.chdir(tmp_path)
    r = cli("replay", "bad.jsonl")
    assert r.exit_code == 1
    assert re.findall(r"^Game (\d+)$", r.stdout, re.M) == ["1", "2"]
    assert f"bad.jsonl:{i + 1}:1: error:" in r.stderr
    # --game still verifies the whole record
    assert cli("replay", "bad.jsonl", "--game", "1").exit_code == 1


def test_a_stopped_run_is_said_before_its_games(rec, tmp_path, monkeypatch):
    lines = lines_of(rec)
    last = [i for i, x in enumerate(lines) if x["type"] == "game"][-1]
    write(tmp_path / "cut.jsonl", lines[:last] + [{"type": "end", "games": GAMES - 1,
                                                   "stopped": "interrupted"}])
    monkeypatch.chdir(tmp_path)
    out = cli("replay", "cut.jsonl").stdout.splitlines()
    assert out[1:4] == [f"(the record holds {GAMES - 1} games; the run was interrupted after "
                        f"{GAMES - 1} of its {GAMES} games)", "", "Game 1"]


def test_a_shards_record_replays_alone(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("simulate", "texas42", "--agents", "random", "-n", "6", "-s", "2", "--shard",
               "2/3", "-r", "part.jsonl", "--no-progress").exit_code == 0
    r = cli("replay", "part.jsonl", "-q")
    assert r.exit_code == 0, r.output
    assert r.stdout.strip() == "part.jsonl: ok (2 games verified)"
    r = cli("replay", "part.jsonl")
    assert r.stdout.splitlines()[0].endswith("(shard 2/3: games 3 to 4)")
    assert re.findall(r"^Game (\d+)$", r.stdout, re.M) == ["3", "4"]
    # the shard's games read as in the whole run's replay
    assert cli("simulate", "texas42", "--agents", "random", "-n", "6", "-s", "2", "-r",
               "whole.jsonl", "--no-progress").exit_code == 0
    whole = cli("replay", "whole.jsonl", "--game", "3").stdout.split("\n", 1)[1]
    assert whole in r.stdout
    # a shard is verified as what its header says: games 3 to 4 of a run of 6, seeded as such
    lines = lines_of(tmp_path / "part.jsonl")
    for shard, why in (({"k": 2, "n": 3, "first": 2, "last": 3}, "not shard 2 of 3"),
                       ({"k": 4, "n": 3, "first": 3, "last": 4}, "not shard 4 of 3")):
        write(tmp_path / "odd.jsonl", [dict(lines[0], shard=shard)] + lines[1:])
        r = cli("replay", "odd.jsonl", "-q")
        assert r.exit_code == 1 and re.search(rf"^odd\.jsonl:1:1: error: .*{why}", r.stderr,
                                              re.M), r.stderr
    last = [i for i, x in enumerate(lines) if x["type"] == "game"][-1]
    write(tmp_path / "short.jsonl", lines[:last] + [{"type": "end", "games": 1}])
    r = cli("replay", "short.jsonl", "-q")
    assert r.exit_code == 1 and "header promises 2" in r.stderr, r.stderr


@pytest.mark.parametrize("html", [False, True])
def test_sigterm_stops_a_replay_as_ctrl_c_does(rec, tmp_path, html):
    """SIGTERM while replay verified a record killed it by the signal without a word; README's
    `interrupted` and exit status 130 for Ctrl-C or SIGTERM holds (the signal is sent from
    inside the replay here, where a `kill` would land)."""
    import os
    import subprocess
    import sys

    from support import pythonpath
    args = ["replay", str(rec)] + (["--html", str(tmp_path / "p.html")] if html else [])
    script = ("import os, signal, sys\n"
              "import tablerules.records.replay as r\n"
              "real = r.replay\n"
              "def termed(*a, **kw):\n"
              "    os.kill(os.getpid(), signal.SIGTERM)\n"
              "    return real(*a, **kw)\n"
              "r.replay = termed\n"
              f"sys.argv = ['tablerules', *{args!r}]\n"
              "from tablerules.cli import run\n"
              "run()\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=pythonpath()), timeout=60)
    assert r.returncode == 130 and r.stderr == "interrupted\n", (r.returncode, r.stderr)


def test_a_game_out_of_range_of_a_stopped_play_record_names_the_game_it_holds(tmp_path):
    """A record a person quit in its first game: `--game 2` said `it holds none`, though
    `--game 1` shows that game (verified as far as it goes); it says the game it holds."""
    from typer.testing import CliRunner
    from tablerules.cli.main import app
    rec = tmp_path / "mine.play.jsonl"
    r = CliRunner().invoke(app, ["play", "texas42", "--seed", "5", "--record", str(rec)],
                           input="1\nquit\n")
    assert r.exit_code == 0, r.output
    assert cli("replay", str(rec), "--game", "1").exit_code == 0
    r = cli("replay", str(rec), "--game", "2")
    assert r.exit_code == 2  # a usage error: the record is fine
    assert r.stderr == f"error: --game 2: {rec} holds game 1, stopped in a hand\n"


@pytest.mark.parametrize("named, said", [
    ("allfives", 'the record is a game of "texas42"; --ruleset "allfives" is one of allfives'),
    ("nothere.yaml", 'cannot load --ruleset "nothere.yaml": no such ruleset file: nothere.yaml'),
])
def test_a_ruleset_named_with_replay_is_said_as_the_one_named(rec, named, said):
    """`replay --ruleset allfives` of a Texas 42 record said `cannot load the record's ruleset
    "allfives": unknown option 'followme_doubles'`, as if the record named All Fives and All
    Fives were broken; it says the record's game is another, or that --ruleset cannot load."""
    r = cli("replay", str(rec), "--ruleset", named)
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0] == f"{rec}:1:1: error: {said}"


def test_a_ruleset_named_with_replay_is_loaded_once_with_the_records_options(tmp_path,
                                                                            monkeypatch):
    """`replay --ruleset FILE` loaded FILE twice: once with its own options (to see which game it
    is), then with the record's; a house file that cannot be played with its own defaults (four
    players of eight in a set of 28) but made the record with three refused the record (`cannot
    load --ruleset ...: deal.stock comes to -4`). It is loaded once, with the record's options
    (no public seam counts the loads: this is what the second one did)."""
    monkeypatch.chdir(tmp_path)  # short names: a long path is cut short in a message
    house = Path("eights.yaml")
    house.write_text("name: eights\ntitle: t\nextends: allfives\ndeal:\n"
                     "  hand_size: \"8 if players == 4 else 7\"\n", encoding="utf-8")
    rec = Path("three.jsonl")
    r = cli("simulate", str(house), "-o", "players=3", "-n", "1", "--record", str(rec),
            "--no-progress")
    assert r.exit_code == 0, r.output
    for args in ([], ["--html", str(tmp_path / "p.html")]):
        r = cli("replay", str(rec), "--ruleset", str(house), "-q", *args)
        assert r.exit_code == 0, r.output
        assert r.stdout.startswith(f"{rec}: ok (1 game verified"), r.stdout
    other = Path("other.yaml")  # another game, and one that cannot load, said as before
    other.write_text("name: other\ntitle: t\nextends: texas42\n", encoding="utf-8")
    r = cli("replay", str(rec), "--ruleset", str(other))
    assert r.stderr.splitlines()[0] == (f'{rec}:1:1: error: the record is a game of "eights"; '
                                        f'--ruleset "{other}" is one of other')
    house.write_text(house.read_text() + "  stock: \"-1\"\n", encoding="utf-8")
    r = cli("replay", str(rec), "--ruleset", str(house))
    assert r.stderr.splitlines()[0].startswith(f'{rec}:1:1: error: cannot load --ruleset '
                                               f'"{house}": '), r.stderr


@pytest.mark.parametrize("html", [False, True])
def test_a_ruleset_given_to_replay_is_said_to_be_one(tmp_path, html):
    """`tablerules replay our-hall.yaml`: a ruleset where a record goes was `not JSON: Expecting
    value` with its first comment quoted; it is said to be a ruleset, and which commands take
    it, as a record given where a ruleset goes is said to be a record (exit 1 as before)."""
    ours = tmp_path / "our hall.YAML"
    ours.write_text("# our hall\nname: ourhall\ntitle: Our hall\nextends: texas42\n",
                    encoding="utf-8")
    args = ["replay", str(ours)] + (["--html", str(tmp_path / "p.html")] if html else [])
    r = cli(*args)
    assert r.exit_code == 1
    q = f"'{ours}'"
    assert r.stderr == (f"{ours}: error: {ours} is a ruleset, not a game record: `tablerules "
                        f"play {q}` or `tablerules simulate {q} --record FILE` make one\n")
    assert not (tmp_path / "p.html").exists()


def test_a_stopped_play_record_replays_with_the_command_that_continues_it(tmp_path):
    """replay of a game a person stopped said `tablerules play --resume continues it` without the
    file, in a place where the file is known: the command is given whole, the path quoted."""
    import shlex

    from typer.testing import CliRunner
    from tablerules.cli.main import app
    rec = tmp_path / "my game.jsonl"
    r = CliRunner().invoke(app, ["play", "texas42", "--seed", "5", "--record", str(rec)],
                           input="1\nquit\n")
    assert r.exit_code == 0, r.output
    out = " ".join(cli("replay", str(rec)).stdout.split())  # long lines are wrapped
    assert out.endswith("(the game stopped here, in the hand; `tablerules play --resume "
                        f"{shlex.quote(str(rec))}` continues it)")
