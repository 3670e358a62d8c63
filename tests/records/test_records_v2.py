"""Record format version 2: decisions name their phase, tricks the declared values, layout hands
carry no trick fields, a hand cut short says so, lay lines say which ends are doubles or the
spinner, one field name means one thing; version 1 records still replay; All Fives names who
went out with the lay that wins the match."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from support import cli
from tablerules.game import load_game
from tablerules.records.runner import play_game, simulate

HERE = Path(__file__).resolve().parents[1] / "replay"


def lines_of(name: str, games: int = 2, seed: int = 1, agents=("random",), **options) -> list[dict]:
    out = io.StringIO()
    simulate(load_game(name, options), games=games, seed=seed, agent_names=agents, out=out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def test_the_header_says_version_2_and_decisions_name_their_phase():
    lines = lines_of("moon", agents=("cautious",))
    assert lines[0]["version"] == 2
    phases = {x["phase"] for x in lines if x["type"] == "decision"}
    assert {"auction", "exchange", "declare", "play"} <= phases
    bids = [x for x in lines if x["type"] == "decision" and x["action"].startswith("bid ")]
    assert bids and all(x["phase"] == "auction" for x in bids)


def test_a_trick_line_names_the_declared_values():
    lines = lines_of("texas42", games=3)
    hand_decl = None
    tricks = []
    for x in lines:
        if x["type"] == "trick":
            tricks.append(x)
        elif x["type"] == "hand" and not x.get("thrown_in"):
            assert tricks and all(t["declarations"] == x["declarations"] for t in tricks)
            hand_decl = x["declarations"]
            tricks = []
    assert hand_decl is not None and "trump" in hand_decl


def test_layout_hands_have_no_trick_fields_and_a_cut_short_hand_says_so():
    lines = lines_of("allfives", games=8)
    hands = [x for x in lines if x["type"] == "hand"]
    assert hands and all("tricks" not in h and "ended_after_trick" not in h for h in hands)
    assert all("scored" in h and "marks" not in h for h in hands)
    # a lay that reaches the target ends the match in the middle of its hand: the hand says so,
    # and it is the match's last
    last = [h for i, h in enumerate(lines) if h["type"] == "hand"
            and lines[i + 1]["type"] == "match"]
    assert any(h.get("cut_short") is True for h in last)
    assert not any(h.get("cut_short") for h in hands if h not in last)


def test_lay_lines_say_which_ends_are_doubles_or_the_spinner():
    lays = [x for x in lines_of("allfives", games=2) if x["type"] == "lay"]
    assert all(len(x["end_kinds"]) == len(x["ends"]) for x in lays)
    kinds = {k for x in lays for k in x["end_kinds"]}
    assert kinds == {"", "double", "spinner"}
    for x in lays:
        if x["on"] == "first" and x["piece"].split("-")[0] == x["piece"].split("-")[1]:
            assert x["end_kinds"] == ["spinner", "spinner"]


def test_one_field_name_means_one_thing():
    lines = lines_of("moon", games=1, seed=3, agents=("cautious",))
    deals = [x for x in lines if x["type"] == "deal"]
    hands = [x for x in lines if x["type"] == "hand"]
    assert any(h.get("thrown_in") for h in hands)
    # `hand` is the hand's number on both its deal line and its hand line
    assert [d["hand"] for d in deals] == [h["hand"] for h in hands]
    assert all("dealt" in d and "hands" not in d for d in deals)
    assert all("playing" in c and "seats" not in c for c in lines if c["type"] == "contract")
    assert all("hands_scored" in m and "hands" not in m for m in lines if m["type"] == "match")


def test_all_fives_names_who_went_out_with_the_lay_that_wins_the_match():
    # the first game of seed 1 in which a seat lays its last piece and that lay reaches the target
    game = load_game("allfives")
    for index in range(60):
        evs: list[dict] = []
        st = play_game(game, ["random"], 1, index, emit=evs.append)
        lay = [x for x in evs if x["type"] == "lay"][-1]
        hand = [x for x in evs if x["type"] == "hand"][-1]
        if hand.get("cut_short") and not st.hands[lay["seat"]]:
            break
    else:
        raise AssertionError("no game of seed 1 ends on a lay of a last piece")
    assert not st.hands[lay["seat"]]  # the lay was the seat's last piece
    assert evs[-1]["type"] == "match"
    assert hand["went_out"] == lay["seat"]


@pytest.mark.parametrize("name", ["texas42", "moon", "allfives"])
def test_version_1_records_still_replay(name, monkeypatch):
    # the fixtures name frozen copies of the rulesets they were made with (v1_rulesets/), so the
    # shipped rulesets may change without breaking them
    monkeypatch.chdir(HERE)
    path = f"v1_{name}.jsonl"
    assert json.loads(Path(path).read_text().splitlines()[0])["version"] == 1
    r = cli("replay", path, "-q")
    assert r.exit_code == 0, r.output
    assert r.stdout.strip() == f"{path}: ok (2 games verified)"
    full = cli("replay", path)
    assert full.exit_code == 0 and "Game 2" in full.stdout


def test_a_tampered_version_1_record_is_rejected(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = (HERE / "v1_texas42.jsonl").read_text().splitlines()
    i = next(i for i, x in enumerate(lines) if '"type":"hand"' in x and "thrown_in" not in x)
    h = json.loads(lines[i])
    h["marks"] = [m + 1 for m in h["marks"]]
    lines[i] = json.dumps(h)
    (tmp_path / "rec.jsonl").write_text("\n".join(lines) + "\n")
    frozen = str(HERE / "v1_rulesets" / "texas42.yaml")
    r = cli("replay", "rec.jsonl", "-q", "--ruleset", frozen)
    assert r.exit_code == 1 and f"rec.jsonl:{i + 1}:1: error:" in r.stderr and "marks" in r.stderr
    (tmp_path / "rec.jsonl").write_text("\n".join(lines[:40]) + "\n")  # cut off
    assert cli("replay", "rec.jsonl", "-q", "--ruleset", frozen).exit_code == 1


def test_the_readable_replay_reads_as_a_player_reads_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("simulate", "texas42", "-n", "3", "-s", "2", "-r", "t.jsonl", "--record-detail", "full",
               "--agents", "random").exit_code == 0  # random bidders reach Nello
    out = cli("replay", "t.jsonl").stdout
    assert "score North-South " in out and ", East-West " in out  # sides by name
    assert "North-South wins" in out or "East-West wins" in out
    assert " led: " in out  # the suit led
    assert "[" not in out  # no Python lists
    nello = [ln for ln in out.splitlines() if ln.startswith("  contract: nello")]
    assert nello and all(ln.endswith(" sits out") for ln in nello)


def test_all_fives_replay_lines_are_under_100_columns(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("simulate", "allfives", "-n", "2", "-s", "3", "-o", "players=2",
               "-r", "a.jsonl", "--record-detail", "full").exit_code == 0
    out = cli("replay", "a.jsonl").stdout
    assert max(len(ln) for ln in out.splitlines()) < 100
    assert "lays on" in out and "line " in out


def test_moon_shows_the_bury_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("simulate", "moon", "-n", "1", "-s", "3", "--agents", "cautious",
               "-r", "m.jsonl", "--record-detail", "full").exit_code == 0
    out = cli("replay", "m.jsonl").stdout
    buried = [x for x in Path("m.jsonl").read_text().splitlines() if '"buried"' in x]
    assert buried
    assert out.count("buries ") == len(buried) and " bury " not in out


def test_a_hand_dealt_again_after_a_throw_in_is_not_hand_one_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("simulate", "moon", "-n", "1", "-s", "3", "--agents", "cautious",
               "-r", "m.jsonl", "--record-detail", "full").exit_code == 0
    out = cli("replay", "m.jsonl").stdout.splitlines()
    heads = [ln for ln in out if ln.startswith("Hand ")]
    thrown = [i for i, ln in enumerate(out) if ln == "  all passed: thrown in"]
    assert thrown  # this seed has throw-ins
    for i in thrown:  # the next deal is the same hand, dealt again, and says so
        nxt = next(ln for ln in out[i:] if ln.startswith("Hand "))
        assert ", deal 2: " in nxt or ", deal 3: " in nxt
    assert len(heads) == len(set(heads))  # no two deals read the same
