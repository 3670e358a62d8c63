"""Ctrl-C or SIGTERM during `simulate --record` closes the record at a game boundary so that it
verifies, prints the summary of the games finished and exits 130; a run that fails says so."""

from __future__ import annotations

import json
import signal

import pytest

from support import cli, long_simulate, wait_for_games


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_run_leaves_a_record_that_verifies(tmp_path, monkeypatch, sig):
    monkeypatch.chdir(tmp_path)
    rec = tmp_path / "rec.jsonl"
    p = long_simulate(rec)
    try:
        assert wait_for_games(p, rec, 3, 8) >= 3, "the record did not grow game by game"
        p.send_signal(sig)
        out, err = p.communicate(timeout=10)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, err
    assert "Traceback" not in err
    lines = [json.loads(x) for x in rec.read_text(encoding="utf-8").splitlines()]
    n = sum(1 for x in lines if x["type"] == "match")
    assert lines[-1] == {"type": "end", "games": n, "stopped": "interrupted"}
    assert lines[-2]["type"] == "match"  # a game boundary
    assert f"games     {n}\n" in out  # the summary of the games finished
    assert f"interrupted after {n} of 100000 games" in err
    r = cli("replay", "rec.jsonl", "-q")
    assert r.exit_code == 0, r.output
    assert r.stdout.strip() == (f"rec.jsonl: ok ({n} games verified; the run was interrupted "
                                f"after {n} of its 100000 games)")


def test_an_interrupted_record_still_checks_its_count(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("simulate", "texas42", "-n", "3", "-s", "1", "-r", "rec.jsonl").exit_code == 0
    lines = (tmp_path / "rec.jsonl").read_text(encoding="utf-8").splitlines()
    for end in ('{"type":"end","games":3,"stopped":"interrupted"}',  # it holds all 3
                '{"type":"end","games":2,"stopped":"interrupted"}'):  # it holds 3, not 2
        (tmp_path / "rec.jsonl").write_text("\n".join(lines[:-1] + [end]) + "\n")
        r = cli("replay", "rec.jsonl", "-q")
        assert r.exit_code == 1 and "rec.jsonl:" in r.stderr, r.output


def test_a_failed_run_leaves_a_record_that_says_so(tmp_path, monkeypatch):
    # Moon's uniformly random bidders never finish game 2 of seed 3: bounds.max_hands
    monkeypatch.chdir(tmp_path)
    r = cli("simulate", "moon", "-n", "3", "-s", "3", "-r", "rec.jsonl", "--no-progress",
            "--agents", "random")  # moon is simulated with cautious agents by default
    assert r.exit_code == 1 and "in game 2" in r.stderr
    lines = [json.loads(x) for x in (tmp_path / "rec.jsonl").read_text().splitlines()]
    assert [x["game"] for x in lines if x["type"] == "game"] == [1]  # game 2's lines are not kept
    end = lines[-1]
    assert end["type"] == "end" and end["games"] == 1 and end["stopped"] == "fault"
    assert end["game"] == 2 and "1000 deals" in end["error"]
    q = cli("replay", "rec.jsonl", "-q")
    assert q.exit_code == 1
    assert f"rec.jsonl:{len(lines)}:1: error: the run stopped with an error in game 2" in q.stderr
