"""Strategy files: located errors (snapshots), the shipped ones validate, determinism, no State."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from support import cli
from tablerules.agents import rules, strategy
from tablerules.engine.state import DEAL, DONE, State
from tablerules.game import load_game
from tablerules.load.ruleset import builtin_names

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted(p.name for p in (Path(__file__).parent / "cases").glob("*.yaml"))
HEAD = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): error: ", re.M)


@pytest.fixture(autouse=True)
def in_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("name", CASES)
def test_a_broken_strategy_is_one_located_error(name, snapshot):
    path = f"tests/strategy/cases/{name}"
    r = cli("simulate", "texas42", "-n", "1", "--no-progress", "--agents", f"rules:strategy={path}")
    assert r.exit_code == 1, r.output
    heads = HEAD.findall(r.stderr)
    assert len(heads) == 1 and heads[0][0] == path, r.stderr
    assert r.stderr == snapshot


def test_an_unknown_switch_names_the_close_one():
    r = cli("simulate", "texas42", "-n", "1", "--no-progress", "--agents",
            "rules:count_to_partnr=off")
    assert r.exit_code == 2  # a usage error, as every bad --agents text
    assert "unknown parameter 'count_to_partnr' of agent rules" in r.stderr
    assert "(did you mean 'count_to_partner'?)" in r.stderr


def shipped_pairs():
    for path in sorted(strategy.strategy_dir().glob("*.yaml")):
        for game in strategy.read(path).data.get("for") or []:
            yield path.stem, game


@pytest.mark.parametrize("name,game", list(shipped_pairs()))
def test_every_shipped_strategy_validates_against_its_rulesets(name, game):
    gd = load_game(game, {}).definition
    s = strategy.compile_strategy(strategy.resolve(name), gd)
    assert s.sections["play"] or s.sections["bid"]


@pytest.mark.parametrize("game", builtin_names())
def test_every_game_names_a_strategy_that_fits_it(game):
    gd = load_game(game, {}).definition
    assert gd.strategy is not None
    s = rules.strategy_for(gd, {})
    assert game in strategy.read(strategy.resolve(gd.strategy)).data["for"], s.name


def test_list_shows_games_only():
    r = cli("list")
    assert r.exit_code == 0
    assert "fortytwo" not in r.output and "strategies" not in r.output


def test_a_missing_default_strategy_is_located(tmp_path):
    f = tmp_path / "mine.yaml"
    f.write_text("extends: texas42\nname: mine\ntitle: Mine\nsimulate:\n  strategy: nowhere.yaml\n")
    r = cli("validate", str(f))
    assert r.exit_code == 1
    assert re.search(r"mine.yaml:5:13: error: no strategy file nowhere.yaml", r.stderr), r.stderr


def test_same_seed_same_record(tmp_path):
    outs = []
    for i in range(2):
        rec = tmp_path / f"r{i}.jsonl"
        r = cli("simulate", "texas42", "-n", "3", "--seed", "7", "--no-progress",
                "--agents", "rules,random,rules:count_to_partner=off,random", "--record", str(rec))
        assert r.exit_code == 0, r.output
        outs.append(rec.read_bytes())
    assert outs[0] == outs[1]


@pytest.mark.parametrize("game", ["texas42-hall", "moon", "allfives"])
def test_the_agent_needs_only_the_observation(game):
    """Each decision is remade from a JSON copy of the observation alone: no State is needed."""
    gd = load_game(game, {}).definition
    agent = rules.make(random.Random(0), gd, {})
    st = State(gd)
    rng = random.Random(1)
    decisions = 0
    while st.phase != DONE and decisions < 300:
        if st.phase == DEAL:
            st.deal_random(rng)
            continue
        seat, legal = st.actor, st.legal_actions()
        seen = json.loads(json.dumps(st.observation(seat)))  # plain data, nothing else
        a = agent.act(seat, legal, lambda: seen)
        again = rules.make(random.Random(99), gd, {}).act(seat, legal, lambda: json.loads(json.dumps(seen)))
        assert a == again and a in legal
        st.apply_action(a)
        decisions += 1
    assert decisions > 20


def test_a_house_file_extending_a_game_the_strategy_is_for_fits(tmp_path):
    f = tmp_path / "hall.yaml"
    f.write_text("name: our-hall\ntitle: t\nextends: texas42\nset:\n  min_bid: 32\n", encoding="utf-8")
    r = cli("simulate", str(f), "-n", "2", "--no-progress", "--agents", "rules")
    assert r.exit_code == 0, r.stderr
    r = cli("validate", str(f), "--hands", "10", "--agents", "rules")
    assert r.exit_code == 0, r.stderr


BOLD = ("name: bold\ntitle: t\nfor: [{fits}]\nbid:\n  - name: open_low\n"
        "    when: \"bid.contract == 'none'\"\n    only: \"a.kind == 'bid'\"\n"
        "    choose: \"-a.level\"\n")


def test_a_strategy_for_a_house_file_names_the_file(tmp_path, monkeypatch):
    # a strategy `for:` a house file could name it only by its `name:`, which `validate` then
    # sought among the built-ins ("no built-in ruleset named 'our-hall'"), and a path was refused
    # by the schema; a path, relative to the strategy's folder, now names the file
    hall = tmp_path / "hall"
    hall.mkdir()
    (hall / "our-hall.yaml").write_text(
        "name: our-hall\ntitle: t\nextends: texas42\nset:\n  min_bid: 32\n", encoding="utf-8")
    (hall / "later.yaml").write_text("name: later\ntitle: t\nextends: our-hall.yaml\n",
                                     encoding="utf-8")
    s = tmp_path / "bold.yaml"
    s.write_text(BOLD.format(fits="hall/our-hall.yaml"), encoding="utf-8")
    monkeypatch.chdir(hall)  # the path is the strategy's, not the working folder's
    r = cli("validate", str(s), "--hands", "10")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(f"{s}: ok (strategy for hall/our-hall.yaml, "), r.stdout
    for game in ("our-hall.yaml", "later.yaml"):  # the file, and a file extending it
        r = cli("simulate", game, "-n", "1", "--no-progress", "--agents", f"rules:strategy={s}")
        assert r.exit_code == 0, r.output
    r = cli("simulate", "texas42", "-n", "1", "--no-progress", "--agents", f"rules:strategy={s}")
    assert r.exit_code == 1
    assert f"{s}:3:6: error: this strategy is for hall/our-hall.yaml, not texas42" in r.stderr


def test_a_strategy_for_a_house_file_by_name_says_to_name_the_file(tmp_path):
    s = tmp_path / "bold.yaml"
    s.write_text(BOLD.format(fits="our-hall"), encoding="utf-8")
    r = cli("validate", str(s), "--hands", "0")
    assert r.exit_code == 1
    assert f"{s}:3:7: error: 'our-hall': no built-in ruleset named 'our-hall'" in r.stderr
    assert "a house ruleset is named by its file, relative to this one (for: [our-hall.yaml])" \
        in r.stderr
    s.write_text(BOLD.format(fits="nowhere.yaml"), encoding="utf-8")
    r = cli("validate", str(s), "--hands", "0")
    assert r.exit_code == 1
    assert f"{s}:3:7: error: 'nowhere.yaml': cannot read file" in r.stderr, r.stderr


def test_a_strategy_for_another_game_is_a_located_error_before_play(tmp_path):
    for command in (["simulate", "allfives", "-n", "1", "--no-progress"],
                    ["validate", "allfives", "--hands", "5"],
                    ["compare", "allfives", "--vs", "--option", "target=100", "-n", "2",
                     "--no-progress"]):
        r = cli(*command, "--agents", "rules:strategy=fortytwo")
        assert r.exit_code == 1, (command, r.output)
        first = r.stderr.splitlines()[0]
        assert first.startswith("rulesets/strategies/fortytwo.yaml:") and "not allfives" in first


def test_a_strategy_file_changed_between_games_is_read_again(tmp_path, monkeypatch):
    """Agents are made for every game; the compiled strategy is kept while its file is
    unchanged, and a changed file (another stamp) is read and compiled again."""
    monkeypatch.chdir(tmp_path)
    gd = load_game("moon").definition
    f = tmp_path / "mine.yaml"
    f.write_text("name: mine\nplay: []\n", encoding="utf-8")
    first = rules.strategy_for(gd, {"strategy": "mine.yaml"})
    assert rules.strategy_for(gd, {"strategy": "mine.yaml"}) is first
    f.write_text("name: mine\nplay:\n  - name: lead_low\n    only: \"a.kind == 'play'\"\n"
                 "    choose: \"-a.piece.pips\"\n", encoding="utf-8")
    again = rules.strategy_for(gd, {"strategy": "mine.yaml"})
    assert again is not first and [r.name for r in again.sections["play"]] == ["lead_low"]
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "mine.yaml").write_text("name: mine\nplay: []\n", encoding="utf-8")
    monkeypatch.chdir(other)  # the same relative name, another folder: another file
    assert rules.strategy_for(gd, {"strategy": "mine.yaml"}).sections["play"] == ()


SHIPPED = sorted(p.name for p in (ROOT / "rulesets/strategies").glob("*.yaml"))


@pytest.mark.parametrize("name", SHIPPED)
def test_validate_checks_a_shipped_strategy_for_each_of_its_games(name):
    path = f"rulesets/strategies/{name}"
    r = cli("validate", path, "--hands", "10")
    assert r.exit_code == 0, r.output
    games = strategy.read(Path(path)).data["for"]
    assert r.stdout.startswith(f"{path}: ok (strategy for {', '.join(games)}, ")
    assert "whole matches by the rules agent on every seat)" in r.stdout


def test_validate_locates_a_strategy_error_in_the_strategy_file(tmp_path, snapshot):
    f = tmp_path / "mine.yaml"
    f.write_text("name: mine\nfor: [texas42]\nplay:\n  - name: high\n"
                 "    choose: \"a.piece.hihg\"\n", encoding="utf-8")
    r = cli("validate", str(f), "--hands", "0")
    assert r.exit_code == 1
    heads = HEAD.findall(r.stderr)
    assert heads == [(str(f), "5", "22")], r.stderr
    assert r.stderr.replace(str(tmp_path), "TMP") == snapshot


@pytest.mark.parametrize("body, where, words", [
    ("name: mine\nplay: []\n", (1, 1), "names the games it plays in 'for:'"),
    ("name: mine\nfor: [texas24]\nplay: []\n", (2, 7), "'texas24': "),
])
def test_validate_says_which_games_a_strategy_is_checked_for(tmp_path, body, where, words):
    f = tmp_path / "mine.yaml"
    f.write_text(body, encoding="utf-8")
    r = cli("validate", str(f), "--hands", "0")
    assert r.exit_code == 1
    line, col = where
    assert re.search(rf"mine.yaml:{line}:{col}: error: .*{re.escape(words)}", r.stderr), r.stderr


def test_a_ruleset_with_a_stray_strategy_key_is_still_checked_as_a_ruleset(tmp_path):
    f = tmp_path / "house.yaml"
    f.write_text("name: house\ntitle: t\nextends: texas42\nplay:\n  legal: \"true\"\n",
                 encoding="utf-8")
    r = cli("validate", str(f), "--hands", "0")
    assert r.exit_code == 1
    assert re.search(r"house.yaml:4:1: error: unknown key 'play' at the top level", r.stderr)


def test_validate_takes_a_shipped_strategy_by_its_name():
    r = cli("validate", "fortytwo", "--hands", "5")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("fortytwo: ok (strategy for texas42, ")
    r = cli("validate", "moon", "--hands", "5")  # a game of the same name is the game
    assert r.exit_code == 0 and r.stdout.startswith("moon: ok (moon, "), r.output


def test_a_strategy_error_for_each_of_its_games_is_said_once(tmp_path):
    f = tmp_path / "mine.yaml"
    f.write_text("name: mine\nfor: [texas42, texas42-hall]\nplay:\n  - name: high\n"
                 "    choose: \"a.piece.hihg\"\n", encoding="utf-8")
    r = cli("validate", str(f), "--hands", "0")
    assert r.exit_code == 1
    assert HEAD.findall(r.stderr) == [(str(f), "5", "22")], r.stderr
