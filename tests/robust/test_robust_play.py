"""What validate says ok, simulate plays: every shipped ruleset finishes with its default agents,
validate plays whole matches with them, and a match over its budget is a located error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from support import cli
from tablerules.game import load_game
from tablerules.load.ruleset import builtin_names

HERE = Path(__file__).resolve().parent
SHIPPED = builtin_names()
HEAD = re.compile(r"^\S.*:\d+:\d+: error: seeded play: .+$", re.M)


def extremes(name: str) -> list[tuple[str, str]]:
    """Each option at each end of its range (every value of a symbol or bool option)."""
    out = []
    for o in load_game(name).definition.option_decls.values():
        if o.values:
            vals = list(o.values)
        elif o.type == "bool":
            vals = [True, False]
        else:
            vals = [v for v in (o.min, o.max) if v is not None]
        out += [(o.name, str(v).lower() if isinstance(v, bool) else str(v))
                for v in vals if v != o.default]
    return out


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_shipped_ruleset_finishes_with_its_default_agents(name, seed):
    r = cli("simulate", name, "--games", "10", "--seed", str(seed), "--no-progress")
    assert r.exit_code == 0, r.stderr


@pytest.mark.parametrize("name, option", [(n, o) for n in SHIPPED for o in extremes(n)],
                         ids=lambda x: x if isinstance(x, str) else "=".join(x))
def test_every_option_extreme_finishes(name, option):
    r = cli("simulate", name, "--games", "1", "--option", "=".join(option), "--no-progress")
    assert r.exit_code == 0, r.stderr


def test_shipped_rulesets_simulate_with_the_rules_agent_by_default(tmp_path):
    r = cli("simulate", "moon", "--games", "5", "--seed", "2", "-r", str(tmp_path / "m.jsonl"))
    assert r.exit_code == 0, r.stderr
    head = (tmp_path / "m.jsonl").read_text().splitlines()[0]
    assert '"agents":["rules","rules","rules"]' in head
    r = cli("simulate", "moon", "--games", "5", "--agents", "random")  # still possible, and fails
    assert r.exit_code == 1 and "try --agents cautious" in r.stderr


def test_validate_plays_what_simulate_plays():
    r = cli("validate", "moon", "--hands", "30")
    assert r.exit_code == 0, r.stderr
    assert "whole matches by rules and cautious)" in r.stdout
    r = cli("validate", "moon", "--hands", "30", "--agents", "random")
    assert r.exit_code == 1 and HEAD.search(r.stderr)
    assert "did not end within 1000 deals" in r.stderr and "--agents random" in r.stderr
    r = cli("validate", "texas42", "--hands", "30")
    assert "whole matches by rules and cautious)" in r.stdout


def test_validate_plays_whole_matches(tmp_path):
    """A match that can never end is found even with few hands asked: matches are not cut."""
    f = tmp_path / "endless.yaml"
    f.write_text("name: endless\nextends: texas42\nscoring:\n  match_over: \"false\"\n",
                 encoding="utf-8")
    r = cli("validate", str(f), "--hands", "5", "--agents", "random")  # quick to reach max_hands
    assert r.exit_code == 1
    assert re.search(r"the match did not end within \d+ deals \(bounds.max_hands\)", r.stderr)
    r = cli("simulate", str(f), "--games", "1", "--agents", "random")
    assert r.exit_code == 1 and "note: uniformly random bidders" in r.stderr
    # no seat bids at random: the ruleset's match never ends, and nothing blames the bidders
    r = cli("simulate", str(f), "--games", "1", "--agents", "rules")
    assert r.exit_code == 1 and "bounds.max_hands" in r.stderr and "note:" not in r.stderr


@pytest.mark.parametrize("args, what", [
    ((), "did not end within 100000 decisions (--steps)"),
    (("--steps", "1000000000", "--seconds", "0.5"), "did not end within 0.5 s (--seconds)"),
])
def test_a_match_over_budget_is_a_located_error_with_its_command(tmp_path, args, what):
    f = tmp_path / "huge.yaml"
    f.write_text("name: huge\nextends: texas42\nscoring:\n  match_over: \"false\"\n"
                 "bounds:\n  max_hands: 1000000000\n  max_steps: 1000000000\n", encoding="utf-8")
    r = cli("validate", str(f), "--hands", "10", "--seed", "4", "--agents", "random",
            *args)  # was: minutes
    assert r.exit_code == 1
    assert f"huge.yaml:5:1: error: seeded play: match 1 {what}; a hand or a match may never end " \
           f"(reproduce: tablerules simulate {f} --seed 4 --games 1 --agents random)" in r.stderr


def test_the_ruleset_agents_are_checked(tmp_path):
    f = tmp_path / "a.yaml"
    f.write_text("name: a\nextends: texas42\nsimulate:\n  agents: [random, greedy]\n",
                 encoding="utf-8")
    for command in (("validate", "--hands", "5"), ("simulate", "--games", "1")):
        r = cli(command[0], str(f), *command[1:])
        assert r.exit_code == 1
        assert "a.yaml:4:20: error: unknown agent 'greedy'" in r.stderr
    f.write_text("name: a\nextends: texas42\nsimulate:\n  agents: [cautious]\n", encoding="utf-8")
    r = cli("validate", str(f), "--hands", "5")
    assert r.exit_code == 0 and re.search(r"whole match(es)? by cautious\)", r.stdout), r.stdout
    f.write_text("name: a\nextends: texas42\nsimulate:\n  agents: [" + ", ".join(["random"] * 5)
                 + "]\n", encoding="utf-8")
    r = cli("simulate", str(f), "--games", "1")
    assert r.exit_code == 1 and "simulate.agents names 5 agents; the game has 4 seats" in r.stderr


def test_simulate_agents_does_not_change_the_content_hash(tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("name: a\nextends: texas42\nsimulate:\n  agents: [cautious]\n", encoding="utf-8")
    b.write_text("name: a\nextends: texas42\n", encoding="utf-8")
    assert load_game(str(a)).definition.content_hash == load_game(str(b)).definition.content_hash
