"""`simulate --shard K/N` records merge (`tablerules merge`) into the bytes of one run, and its
summary; shards that are not every shard of one run, once each and whole, are refused."""

from __future__ import annotations

import gzip
import os
import json

import pytest

from support import cli

RUN = ["-n", "7", "-s", "4", "--no-progress"]


def summary(r) -> dict:
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    for k in ("record", "shards", "shard"):
        out.pop(k, None)
    return out


@pytest.fixture
def shards(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def make(ruleset: str, n: int, *extra: str, gz: bool = False) -> list[str]:
        names = []
        for k in range(1, n + 1):
            name = f"s{k}.jsonl"
            r = cli("simulate", ruleset, *RUN, *extra, "--shard", f"{k}/{n}", "-r", name)
            assert r.exit_code == 0, r.output
            if gz:
                (tmp_path / f"{name}.gz").write_bytes(gzip.compress((tmp_path / name).read_bytes()))
                name += ".gz"
            names.append(name)
        return names
    return make


@pytest.mark.parametrize("ruleset, extra", [("texas42", ()), ("allfives", ()),
                                            ("texas42", ("--record-detail", "full")),
                                            ("taroky", ())])  # chips paid, from compact lines
def test_shards_merge_into_the_record_and_summary_of_one_run(tmp_path, shards, ruleset, extra):
    whole = summary(cli("simulate", ruleset, *RUN, *extra, "-r", "one.jsonl", "-f", "json"))
    parts = shards(ruleset, 3, *extra)
    head = json.loads((tmp_path / parts[1]).read_text().splitlines()[0])
    assert head["shard"] == {"k": 2, "n": 3, "first": 3, "last": 4}
    merged = cli("merge", "all.jsonl", *reversed(parts), "-f", "json")
    assert summary(merged) == whole
    assert (tmp_path / "all.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()
    text = cli("merge", "again.jsonl", *parts)
    assert text.exit_code == 0 and "games     7\n" in text.stdout


def test_gzip_shards_merge_too(tmp_path, shards):
    cli("simulate", "texas42", *RUN, "-r", "one.jsonl")
    parts = shards("texas42", 2, gz=True)
    assert cli("merge", "all.jsonl.gz", *parts).exit_code == 0
    assert gzip.decompress((tmp_path / "all.jsonl.gz").read_bytes()) == \
        (tmp_path / "one.jsonl").read_bytes()


@pytest.mark.parametrize("detail", ["compact", "full"])
def test_a_merged_gzip_record_is_the_bytes_simulate_writes(tmp_path, monkeypatch, detail):
    """Not only the same lines: the same gzip stream, as `simulate -r X.jsonl.gz` writes it."""
    monkeypatch.chdir(tmp_path)
    extra = ("--record-detail", detail)
    assert cli("simulate", "texas42", *RUN, *extra, "-r", "one.jsonl.gz").exit_code == 0
    parts = [f"s{k}.jsonl.gz" for k in (1, 2, 3)]
    for k, name in enumerate(parts, 1):
        r = cli("simulate", "texas42", *RUN, *extra, "--shard", f"{k}/3", "-r", name)
        assert r.exit_code == 0, r.output
    assert cli("merge", "all.jsonl.gz", *parts).exit_code == 0
    assert (tmp_path / "all.jsonl.gz").read_bytes() == (tmp_path / "one.jsonl.gz").read_bytes()


def test_merge_wants_every_shard_of_one_run_once(tmp_path, shards):
    s1, s2, s3 = shards("texas42", 3)
    cli("simulate", "texas42", "-n", "7", "-s", "5", "--shard", "3/3", "-r", "other.jsonl")
    cli("simulate", "texas42", *RUN, "-r", "whole.jsonl")
    lines = (tmp_path / s3).read_text().splitlines()
    (tmp_path / "cut.jsonl").write_text("\n".join(lines[:-1] + [
        '{"type":"end","games":0,"stopped":"interrupted"}']) + "\n")
    for args, want in [
        ([s1, s2], "error: shard 3/3 missing: merge needs every shard of the run once"),
        ([s1, s2, s2, s3], f"error: shard 2/3 is given twice: {s2} and {s2}"),
        ([s1, s2, "other.jsonl"], "error: other.jsonl is not a shard of the run s1.jsonl is "
                                  "from: its seed is 5, not 4"),
        (["whole.jsonl"], "error: whole.jsonl: not a shard record"),
        ([s1, s2, "cut.jsonl"], "error: cut.jsonl: shard 3/3 is not whole"),
    ]:
        r = cli("merge", "out.jsonl", *args)
        assert r.exit_code == 1 and r.stderr.startswith(want), r.output
        assert "\n" not in r.stderr.strip()
        assert not (tmp_path / "out.jsonl").exists()


def test_a_shard_that_cannot_be_read_is_one_line(tmp_path, monkeypatch):
    """A damaged gzip shard (bytes overwritten inside its compressed data), a cut-off one, one
    that is not gzip and one that is missing: as the other shards that cannot be read."""
    monkeypatch.chdir(tmp_path)
    parts = []
    for k in (1, 2, 3):
        r = cli("simulate", "texas42", *RUN, "--shard", f"{k}/3", "-r", f"s{k}.jsonl.gz")
        assert r.exit_code == 0, r.output
        parts.append(f"s{k}.jsonl.gz")
    data = (tmp_path / "s2.jsonl.gz").read_bytes()
    assert len(data) > 400
    (tmp_path / "damaged.jsonl.gz").write_bytes(data[:200] + b"\xff" * 16 + data[216:])
    (tmp_path / "cut.jsonl.gz").write_bytes(data[:300])
    (tmp_path / "plain.jsonl.gz").write_bytes(b"not gzip\n")
    for name, why in [("damaged.jsonl.gz", "not a valid gzip file (Error -3 while decompressing"),
                      ("cut.jsonl.gz", "the gzip file is cut off (it was not closed)"),
                      ("plain.jsonl.gz", "not a valid gzip file (Not a gzipped file"),
                      ("missing.jsonl.gz", "No such file or directory")]:
        r = cli("merge", "out.jsonl.gz", parts[0], name, parts[2])
        assert r.exit_code == 1 and r.stderr.startswith(f"error: cannot read {name}: {why}"), \
            r.output
        assert "\n" not in r.stderr.strip()
        assert not (tmp_path / "out.jsonl.gz").exists()


def test_shard_is_k_of_n():
    for bad in ("0/3", "4/3", "x", "1/9", "\u00b2/3", "1/\u0663"):  # ², an Arabic 3
        r = cli("simulate", "texas42", "-n", "7", "--shard", bad)
        assert r.exit_code == 2 and r.stderr.startswith("error: --shard"), r.output


def test_a_bid_that_is_no_number_merges_as_a_label(tmp_path, shards):
    """Merge copies game lines unchecked (replay verifies them): a bid edited to '²' is a row
    of its own in the summary, not a traceback."""
    s1, s2 = shards("texas42", 2)
    text = (tmp_path / s2).read_text()
    assert '"bid":"32"' in text
    (tmp_path / s2).write_text(text.replace('"bid":"32"', '"bid":"\u00b2"', 1))
    r = cli("merge", "all.jsonl", s1, s2)
    assert r.exit_code == 0, r.output
    assert "\n\u00b2 " in r.stdout


def test_merge_checks_the_shards_not_the_games_and_replay_verifies_them(tmp_path, shards):
    """As merge --help says: a game line changed in a shard is merged as it is (its summary
    counts it), and `replay -q OUT` refuses the merged record."""
    s1, s2 = shards("texas42", 2)
    text = (tmp_path / s2).read_text()
    assert '"bid":"32"' in text
    (tmp_path / s2).write_text(text.replace('"bid":"32"', '"bid":"33"', 1))
    assert cli("merge", "all.jsonl", s1, s2).exit_code == 0
    r = cli("replay", "-q", "all.jsonl")
    assert r.exit_code == 1 and "all.jsonl:" in r.stderr, r.output
    said = " ".join(cli("merge", "--help").stdout.split())
    assert "does not play the games again" in said
    assert "`tablerules replay -q OUT` verifies its games" in said


def test_the_merged_summary_holds_the_report_distributions_of_one_run(shards, tmp_path):
    """The report's distributions (deals a match lasted, the bidding side's points) too, not
    only the printed summary: merge folds a shard's lines as the run folds its games."""
    from tablerules.game import load_game
    from tablerules.records.merge import merge
    from tablerules.records.runner import simulate
    names = shards("texas42", 3)
    merged = merge(str(tmp_path / "all.jsonl"), names, first_dealer="lot").summary
    game = load_game("texas42")
    whole = simulate(game, games=7, seed=4, agent_names=game.definition.agents, detail="compact")
    assert merged.distributions() == whole.distributions()
    assert merged.distributions()["deals_per_match"] and merged.distributions()[
        "points_of_the_bidding_side"]


def test_a_merged_record_that_cannot_be_written_is_one_line(tmp_path, shards):
    """OUT in a folder that is not there: 'cannot write OUT', exit 1, not 'cannot read' a shard
    and not a traceback."""
    parts = shards("texas42", 2)
    r = cli("merge", "nowhere/out.jsonl", *parts)
    assert r.exit_code == 1, r.output
    assert r.stderr == ("error: cannot write nowhere/out.jsonl: No such file or "
                        "directory\n"), r.stderr


def test_merge_writes_through_a_pipe_or_a_link_and_replaces_neither(tmp_path, shards):
    """OUT that is there and no file (a pipe; a device such as /dev/stdout) is written as it
    is, and a link's target is written: merge moved a finished file over OUT, which made
    /dev/full a file. The bytes are one run's record either way."""
    import stat
    import threading

    cli("simulate", "texas42", *RUN, "-r", "one.jsonl")
    one = (tmp_path / "one.jsonl").read_bytes()
    parts = shards("texas42", 2)
    os.mkfifo(tmp_path / "pipe")
    got = []
    reader = threading.Thread(target=lambda: got.append((tmp_path / "pipe").read_bytes()),
                              daemon=True)  # (left waiting if merge never opens the pipe)
    reader.start()
    r = cli("merge", "pipe", *parts)
    reader.join(timeout=20)
    assert r.exit_code == 0, r.output
    assert got == [one] and stat.S_ISFIFO(os.lstat(tmp_path / "pipe").st_mode)
    (tmp_path / "link.jsonl").symlink_to("target.jsonl")
    assert cli("merge", "link.jsonl", *parts).exit_code == 0
    assert (tmp_path / "link.jsonl").is_symlink()
    assert (tmp_path / "target.jsonl").read_bytes() == one


@pytest.mark.parametrize("how", ["symlink", "hard link", "spelling"])
def test_merge_refuses_an_out_that_is_a_shard_by_any_path(tmp_path, shards, how):
    """OUT a link to a shard (or a hard link, or the shard's path spelt otherwise) is that shard:
    refused, exit 2, the shard as it was. merge compared the paths, and wrote the merged record
    over the shard through the link."""
    parts = shards("texas42", 2)
    before = (tmp_path / parts[0]).read_bytes()
    out = {"symlink": "link.jsonl", "hard link": "hard.jsonl", "spelling": f"x/../{parts[0]}"}[how]
    (tmp_path / "x").mkdir()
    if how == "symlink":
        (tmp_path / out).symlink_to(parts[0])
    elif how == "hard link":
        os.link(tmp_path / parts[0], tmp_path / out)
    r = cli("merge", out, *parts)
    assert r.exit_code == 2, r.output
    assert r.stderr == (f"error: OUT {out} is one of the shards ({parts[0]}): give another "
                        "file\n"), r.stderr
    assert (tmp_path / parts[0]).read_bytes() == before
