"""A record names a ruleset file (`source`) from its own folder, so it replays from any working
folder: `simulate h/ok.yaml -r h/rec.jsonl` then `cd h && tablerules replay rec.jsonl` failed,
the path being the one `simulate` was given, from its working folder. Records that named it so
still replay from that folder; merged and played records name it from their own folder too."""

from __future__ import annotations

import json

from support import cli

HOUSE = "extends: allfives\nname: house\n"


def source(path) -> str:
    with open(path, encoding="utf-8") as f:
        return json.loads(f.readline())["source"]


def house(tmp_path, monkeypatch):
    (tmp_path / "h").mkdir()
    (tmp_path / "h" / "ok.yaml").write_text(HOUSE)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path)


def test_a_record_replays_from_any_folder(tmp_path, monkeypatch):
    house(tmp_path, monkeypatch)
    r = cli("simulate", "h/ok.yaml", "-n", "2", "--no-progress", "-r", "h/rec.jsonl")
    assert r.exit_code == 0, r.output
    assert source("h/rec.jsonl") == "ok.yaml"
    for folder, rec in [("h", "rec.jsonl"), (".", "h/rec.jsonl"), ("elsewhere", "../h/rec.jsonl"),
                        ("/", str(tmp_path / "h" / "rec.jsonl"))]:
        monkeypatch.chdir(tmp_path / folder)
        r = cli("replay", "-q", rec)
        assert r.exit_code == 0 and r.stdout == f"{rec}: ok (2 games verified)\n", r.output


def test_the_same_run_gives_the_same_bytes_from_any_working_folder(tmp_path, monkeypatch):
    house(tmp_path, monkeypatch)
    assert cli("simulate", "h/ok.yaml", "-n", "2", "-r", "h/one.jsonl").exit_code == 0
    monkeypatch.chdir(tmp_path / "h")
    assert cli("simulate", "ok.yaml", "-n", "2", "-r", "two.jsonl").exit_code == 0
    assert (tmp_path / "h" / "one.jsonl").read_bytes() == (tmp_path / "h" / "two.jsonl").read_bytes()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert cli("simulate", "../h/ok.yaml", "-n", "2", "-r", "three.jsonl").exit_code == 0
    assert source("three.jsonl") == "../h/ok.yaml"


def test_a_record_that_named_its_ruleset_from_the_working_folder_still_replays(tmp_path,
                                                                              monkeypatch):
    """Records made before named the file as simulate was given it: found from the working
    folder when it is not from the record's."""
    house(tmp_path, monkeypatch)
    assert cli("simulate", "h/ok.yaml", "-n", "2", "-r", "h/rec.jsonl").exit_code == 0
    text = (tmp_path / "h" / "rec.jsonl").read_text()
    (tmp_path / "h" / "old.jsonl").write_text(text.replace('"source":"ok.yaml"',
                                                           '"source":"h/ok.yaml"', 1))
    r = cli("replay", "-q", "h/old.jsonl")
    assert r.exit_code == 0, r.output


def test_a_ruleset_file_that_is_nowhere_is_a_located_error(tmp_path, monkeypatch):
    house(tmp_path, monkeypatch)
    assert cli("simulate", "h/ok.yaml", "-n", "1", "-r", "h/rec.jsonl").exit_code == 0
    (tmp_path / "h" / "ok.yaml").unlink()
    r = cli("replay", "-q", "h/rec.jsonl")
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0] == (
        "h/rec.jsonl:1:1: error: cannot load the record's ruleset \"ok.yaml\": there is no such "
        "file from the record's folder nor from the working folder (give it with --ruleset FILE)")


def test_merged_shards_name_the_ruleset_from_the_merged_record(tmp_path, monkeypatch):
    """Shards written in two folders merge into a third: the merged record is the one simulate
    writes there, byte for byte, and replays from its own folder."""
    house(tmp_path, monkeypatch)
    for k, rec in ((1, "h/s1.jsonl"), (2, "elsewhere/s2.jsonl")):
        r = cli("simulate", "h/ok.yaml", "-n", "4", "--shard", f"{k}/2", "-r", rec)
        assert r.exit_code == 0, r.output
    assert (source("h/s1.jsonl"), source("elsewhere/s2.jsonl")) == ("ok.yaml", "../h/ok.yaml")
    (tmp_path / "out").mkdir()
    r = cli("merge", "out/all.jsonl", "h/s1.jsonl", "elsewhere/s2.jsonl")
    assert r.exit_code == 0, r.output
    assert cli("simulate", "h/ok.yaml", "-n", "4", "-r", "out/one.jsonl").exit_code == 0
    assert (tmp_path / "out" / "all.jsonl").read_bytes() == \
        (tmp_path / "out" / "one.jsonl").read_bytes()
    monkeypatch.chdir(tmp_path / "out")
    assert cli("replay", "-q", "all.jsonl").exit_code == 0


def test_a_played_game_resumes_and_replays_from_its_folder(tmp_path, monkeypatch):
    house(tmp_path, monkeypatch)
    r = cli("play", "h/ok.yaml", "--seed", "2", "--record", "h/p.jsonl")  # no input: quits
    assert r.exit_code == 0, r.output
    assert source("h/p.jsonl") == "ok.yaml"
    monkeypatch.chdir(tmp_path / "h")
    r = cli("play", "--resume", "p.jsonl")
    assert r.exit_code == 0 and "resumed p.jsonl" in r.stdout, r.output
    assert source("p.jsonl") == "ok.yaml"
    assert cli("replay", "-q", "p.jsonl").exit_code == 0
