"""`tablerules replay FILE --html OUT`: one self-contained page for every shipped ruleset's record,
the same bytes for the same games (compact, full or gzipped record), the games it holds, and
bad input as one-line errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tablerules.load.ruleset import builtin_names

from support import cli, played_page

NAMES = builtin_names()
AGENTS = {"moon": "cautious"}  # uniformly random Moon bidders may never finish a match
OPTIONS = {"taroky": ["--option", "hands=2"]}  # a match of eight hands is slow to make twice


def record(tmp: Path, name: str, *, games: int = 1, seed: int = 2, file: str = "game.jsonl",
           detail: str = "compact", agents: str | None = None) -> Path:
    path = tmp / file
    agents = agents or AGENTS.get(name, "random")
    r = cli("simulate", name, "--games", str(games), "--seed", str(seed), "--record", str(path),
            "--record-detail", detail, "--agents", agents, "--no-progress", *OPTIONS.get(name, []))
    assert r.exit_code == 0, r.output
    return path


def page_data(html: str) -> dict:
    """The frames a page embeds."""
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    assert m, "no embedded data"
    return json.loads(m.group(1))


def self_contained(html: str) -> None:
    """Nothing in the page reaches out: no address, no external script, style, image or font."""
    low = html.lower()
    for bad in ("http:", "https:", "//cdn", "<link", "@import", "src=", "url(", "fetch(",
                "xmlhttprequest", "<iframe", "<img"):
        assert bad not in low, bad


@pytest.mark.parametrize("name", NAMES)
def test_every_shipped_ruleset_gets_a_page(name, tmp_path):
    rec = record(tmp_path, name)
    out = tmp_path / "game.html"
    r = cli("replay", str(rec), "--html", str(out))
    assert r.exit_code == 0, r.output
    assert r.stderr == ""
    assert r.stdout.startswith(f"{rec}: ok (1 game verified); wrote {out}: game 1, ")
    html = out.read_text(encoding="utf-8")
    self_contained(html)
    assert html.startswith("<!doctype html>") and "{{" not in html
    data = page_data(html)
    head = json.loads(rec.read_text(encoding="utf-8").splitlines()[0])
    assert data["meta"]["canonical"] == head["canonical"] and data["meta"]["seed"] == head["seed"]
    (g,) = data["games"]
    steps = int(r.stdout.rsplit(", ", 1)[1].split()[0])
    assert len(g["frames"]) == steps > 0
    hands = [json.loads(x) for x in rec.read_text(encoding="utf-8").splitlines()
             if json.loads(x)["type"] == "hand"]
    # a frame per deal and per decision; the last of each hand carries the hand line's score
    assert steps == sum(1 + len(h["actions"]) for h in hands)
    ends = [f for f in g["frames"] if f.get("end")]
    assert [f["sc"] for f in ends] == [h["score"] for h in hands]
    match = json.loads(rec.read_text(encoding="utf-8").splitlines()[-2])
    assert g["result"] == {"score": match["score"], "winner": match["winner"]}
    assert len(data["marks"]) >= 1 and {m["ring"] for m in data["marks"]} <= {"solid", "dashed"}


def test_the_same_games_give_the_same_bytes(tmp_path):
    compact = record(tmp_path, "allfives", games=2, file="a.jsonl")
    full = record(tmp_path, "allfives", games=2, file="b.jsonl.gz", detail="full")
    pages = []
    for rec, out in ((compact, "a.html"), (compact, "a2.html"), (full, "b.html")):
        r = cli("replay", str(rec), "--html", str(tmp_path / out))
        assert r.exit_code == 0, r.output
        pages.append((tmp_path / out).read_bytes())
    assert pages[0] == pages[1] == pages[2]
    assert [g["game"] for g in page_data(pages[0].decode())["games"]] == [1, 2]


def test_game_picks_one_game(tmp_path):
    rec = record(tmp_path, "texas42", games=2)
    out = tmp_path / "two.html"
    r = cli("replay", str(rec), "--html", str(out), "--game", "2")
    assert r.exit_code == 0, r.output
    assert "wrote" in r.stdout and ": game 2, " in r.stdout
    assert [g["game"] for g in page_data(out.read_text(encoding="utf-8"))["games"]] == [2]


def test_a_page_holds_the_first_games_of_a_big_record(tmp_path, monkeypatch):
    import tablerules.view.frames as frames
    rec = record(tmp_path, "allfives", games=3)
    monkeypatch.setattr(frames, "MAX_GAMES", 2)
    out = tmp_path / "big.html"
    r = cli("replay", str(rec), "--html", str(out))
    assert r.exit_code == 0, r.output
    assert "games 1 to 2 (of 3; at most 2 without --game)" in r.stdout
    assert [g["game"] for g in page_data(out.read_text(encoding="utf-8"))["games"]] == [1, 2]


def _errors(r, tmp: Path) -> str:
    return r.stderr.replace(str(tmp), "TMP")


def test_bad_input_is_a_one_line_error(tmp_path, snapshot):
    rec = record(tmp_path, "allfives")
    out = tmp_path / "x.html"
    (tmp_path / "notes.txt").write_text("just some notes\n", encoding="utf-8")
    cases = {
        "not a record": ("replay", str(tmp_path / "notes.txt"), "--html", str(out)),
        "no such file": ("replay", str(tmp_path / "missing.jsonl"), "--html", str(out)),
        "cannot write": ("replay", str(rec), "--html", str(tmp_path / "no" / "dir" / "x.html")),
    }
    seen = {}
    for what, args in cases.items():
        r = cli(*args)
        assert r.exit_code == 1, (what, r.output)
        assert r.stdout == ""
        first = r.stderr.splitlines()[0]
        assert "error: " in first, first
        seen[what] = _errors(r, tmp_path).splitlines()[0]  # the line quoted under it is replay's
    assert not out.exists()
    assert seen == snapshot
    r = cli("replay", str(rec), "--html", str(out), "--game", "0")
    assert r.exit_code == 2 and "Traceback" not in r.output
    r = cli("replay", str(rec), "--html", str(out), "--game", "3")  # was exit 1, as a record's
    assert r.exit_code == 2 and r.stdout == "" and not out.exists(), r.output
    assert r.stderr == f"error: --game 3: {rec} holds game 1\n"


def test_a_page_not_named_as_one_is_refused(tmp_path):
    """`--html game.jsonl` wrote the page into a file named as a record: a name that does not
    end in .html or .htm is a usage error (exit 2), as --report's, before the record is read."""
    rec = record(tmp_path, "allfives")
    out = tmp_path / "page.jsonl"
    r = cli("replay", str(rec), "--html", str(out))
    assert r.exit_code == 2 and r.stdout == "", r.output
    assert r.stderr == (f"error: --html {out} writes an HTML page: give a name ending in .html "
                        "or .htm\n")
    assert not out.exists()
    r = cli("replay", str(rec), "--html", str(tmp_path / "game.HTM"))
    assert r.exit_code == 0 and (tmp_path / "game.HTM").exists(), r.output


@pytest.mark.parametrize("name", ["allfives", "moon", "texas42"])
def test_a_version_1_record_gets_a_page(name, tmp_path):
    rec = Path(__file__).parents[1] / "replay" / f"v1_{name}.jsonl"
    out = tmp_path / "v1.html"
    r = cli("replay", str(rec), "--html", str(out))
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in rec.read_text(encoding="utf-8").splitlines()]
    data = page_data(out.read_text(encoding="utf-8"))
    for g in data["games"]:
        starts = [i for i, x in enumerate(lines) if x["type"] == "game"] + [len(lines)]
        k = g["game"] - 1
        game = lines[starts[k]:starts[k + 1]]
        assert len(g["frames"]) == sum(x["type"] in ("deal", "decision") for x in game)
        ends = [f["sc"] for f in g["frames"] if f.get("end")]
        assert ends == [x["score"] for x in game if x["type"] == "hand"]


def test_text_from_the_record_cannot_break_the_page(tmp_path):
    from tablerules.view import build_frames, render_html
    rec = record(tmp_path, "allfives")
    data = build_frames(str(rec))
    data["meta"]["title"] = "A <b>{{css}}</b> </script><!-- & more"
    page = render_html(data)
    assert "<title>A &lt;b&gt;{{css}}&lt;/b&gt; &lt;/script&gt;&lt;!-- &amp; more: replay" in page
    assert page.count("</script>") == 2 and "<!--" not in page
    assert page_data(page) == data


def test_a_game_a_person_stopped_shows_its_hand_in_progress(tmp_path):
    """`tablerules play` leaves the hand in progress as a partial line: the page steps through
    it up to where the person stopped."""
    rec = tmp_path / "mine.play.jsonl"
    from typer.testing import CliRunner
    from tablerules.cli.main import app
    r = CliRunner().invoke(app, ["play", "texas42", "--seed", "5", "--record", str(rec)],
                           input="pass\n1\n1\nquit\n")
    assert r.exit_code == 0, r.output
    assert '"type":"partial"' in rec.read_text(encoding="utf-8").replace(" ", "")
    out = tmp_path / "mine.html"
    r = cli("replay", str(rec), "--html", str(out))
    assert r.exit_code == 0, r.output
    frames = page_data(out.read_text(encoding="utf-8"))["games"][0]["frames"]
    partial = json.loads(next(ln for ln in rec.read_text(encoding="utf-8").splitlines()
                              if '"partial"' in ln))
    assert len(frames) == 1 + len(partial["actions"])  # the deal, then each action


def test_a_shards_record_gets_a_page_of_its_own_games(tmp_path):
    part = tmp_path / "part.jsonl"
    """A shard past the first page's games: its page holds its own first games (at most 20)."""
    r = cli("simulate", "texas42", "-n", "44", "--shard", "2/2", "-r", str(part), "--agents",
            "random", "--no-progress")
    assert r.exit_code == 0, r.output
    out = tmp_path / "part.html"
    r = cli("replay", str(part), "--html", str(out))
    assert r.exit_code == 0, r.output
    assert ": games 23 to 42 (of 22; at most 20 without --game), " in r.stdout
    data = page_data(out.read_text(encoding="utf-8"))
    assert [g["game"] for g in data["games"]] == list(range(23, 43))


def test_a_page_is_never_written_over_the_record_it_shows(tmp_path):
    """replay FILE --html FILE wrote the page over the record: refused (exit 2), the record
    kept, through another spelling of its path too."""
    rec = tmp_path / "g.jsonl"
    assert cli("simulate", "texas42", "-n", "1", "-r", str(rec), "--no-progress").exit_code == 0
    saved = rec.read_bytes()
    for out in (rec, tmp_path / "." / "g.jsonl"):
        r = cli("replay", str(rec), "--html", str(out))
        assert r.exit_code == 2, r.output
        assert r.stderr == f"error: --html {out} is the file it reads ({rec}): give another file\n"
    assert rec.read_bytes() == saved


def test_a_lays_frame_shows_the_ends_as_the_text_replay_counts_them(tmp_path):
    """Each lay's frame says its open ends as `replay` prints them: a double counted by both
    halves, `(1+1)` (the layout rules' display.end_count), the spinner once."""
    rec = record(tmp_path, "allfives", seed=2)
    out = tmp_path / "game.html"
    assert cli("replay", str(rec), "--html", str(out)).exit_code == 0
    frames = page_data(out.read_text(encoding="utf-8"))["games"][0]["frames"]
    shown = [f["t"].split("; ends ")[1].split(";")[0] for f in frames if "; ends " in f["t"]]
    text = cli("replay", str(rec)).stdout
    said = [ln.split("   ends ")[1].split()[0] for ln in text.splitlines()
            if " sets down " in ln or " lays on " in ln]
    assert shown == said and len(said) > 10
    assert any("(" in s for s in shown)  # a double, by both halves


@pytest.mark.parametrize("where", ["no/dir/x.html", "folder"])
def test_a_page_that_cannot_be_written_is_said_before_the_record_is_verified(tmp_path, where):
    """--html in a folder that is not there, or a folder: said after every game of the record
    was verified (minutes for a big one), and a bad record's error came instead; it is the one
    line README gives a failed write, exit 1, before the record is read."""
    (tmp_path / "folder").mkdir()
    rec = tmp_path / "bad.jsonl"
    rec.write_text("not a record\n", encoding="utf-8")
    out = tmp_path / where
    r = cli("replay", str(rec), "--html", str(out))
    assert r.exit_code == 1, r.output
    why = "it is a folder" if where == "folder" else f"there is no folder {out.parent}"
    assert r.stderr == f"error: cannot write {out}: {why}\n"


def test_the_line_says_a_stopped_record_was_stopped_as_replay_q_does(tmp_path):
    """A game a person stopped: `replay -q` says `(0 games verified; the run was interrupted
    after 0 of its 1 games)`, and --html said `ok (0 games verified); wrote ...: game 1`, as if
    the record were whole and yet held no game; its line says it as -q does."""
    from typer.testing import CliRunner
    from tablerules.cli.main import app
    rec = tmp_path / "mine.play.jsonl"
    r = CliRunner().invoke(app, ["play", "moon", "--seed", "2", "--record", str(rec)],
                           input="pass\n1\nquit\n")
    assert r.exit_code == 0, r.output
    q = cli("replay", "-q", str(rec))
    assert q.exit_code == 0, q.output
    said = q.stdout.strip().split(": ok ", 1)[1]
    assert "interrupted" in said
    out = tmp_path / "mine.html"
    r = cli("replay", str(rec), "--html", str(out))
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(f"{rec}: ok {said}; wrote {out}: game 1, "), r.stdout


def test_the_bar_shows_the_standing_bid_while_the_auction_is_on(tmp_path):
    """East bids 36 and the others pass: the page's bar said `no bid yet` until the auction was
    over (README: the bar shows the bid and bidder); each step of the auction shows the highest
    bid so far and who made it."""
    out = played_page(tmp_path, "texas42", "--seed", "5", "--seat", "South",
                      answers="pass\nquit\n")
    frames = page_data(out.read_text(encoding="utf-8"))["games"][0]["frames"]
    assert frames[1]["t"] == "East bid 36"
    assert [(f.get("bd"), f.get("by")) for f in frames[:5]] == \
        [(None, None)] + [("36", 1)] * 4


def test_the_seat_whose_turn_it_is_to_take_the_hand_is_not_called_the_one_to_move(tmp_path):
    """A ruleset's `deal.turn` (Taroky's: the seat whose turn it is to take the hand) was said
    `Hand 1: South deals; North's turn` while East was the one to speak (the page marks East
    `to auction`), and play did not say it; replay, the page and play say `North's turn to take
    the hand`, the words of docs/ruleset-format.md."""
    from typer.testing import CliRunner
    from tablerules.cli.main import app
    rec = tmp_path / "t.play.jsonl"
    r = CliRunner().invoke(app, ["play", "taroky", "--seed", "2", "--record", str(rec)],
                           input="quit\n")
    assert r.exit_code == 0, r.output
    said = "Hand 1: South deals; North's turn to take the hand"
    assert said in r.output.splitlines()
    assert said in cli("replay", str(rec)).stdout.splitlines()
    out = tmp_path / "t.html"
    assert cli("replay", str(rec), "--html", str(out)).exit_code == 0
    first = page_data(out.read_text(encoding="utf-8"))["games"][0]["frames"][0]
    assert first["t"] == said and first["tu"] == 3  # East, the first to speak
