"""The agent contract: specs, `NAME[:PARAM=VALUE...]` per seat, its errors, the `agents` listing."""

from __future__ import annotations

import json
import random

import pytest

from tablerules.agents import AGENTS, AgentSpec, AgentTextError, Param, make_agent, parse_list
from tablerules.agents.base import for_seats, parse_agents
from tablerules.game import load_game

from support import cli


class _Nobody:
    name = "probe"

    def act(self, seat, legal, observe):
        return legal[0]


PROBE = AgentSpec("probe", "a spec with one parameter of every kind", (
    Param("worlds", "int", 8, "worlds drawn", min=1, max=512),
    Param("temperature", "float", 1.0, "softness", min=0.0),
    Param("count_to_partner", "onoff", True, "count to the partner"),
    Param("level", "choice", "normal", "a budget preset", choices=("easy", "normal", "hard")),
), lambda rng, game, params: _Nobody())
REGISTRY = {"probe": PROBE, **AGENTS}


def test_the_registry_is_specs_by_name():
    assert {"random", "cautious", "search"} <= set(AGENTS)
    for name, spec in AGENTS.items():
        assert isinstance(spec, AgentSpec) and spec.name == name and "\n" not in spec.help


@pytest.mark.parametrize("text, params", [
    ("probe", {"worlds": 8, "temperature": 1.0, "count_to_partner": True, "level": "normal"}),
    ("probe:worlds=64", {"worlds": 64}),
    ("probe:count_to_partner=off:level=hard", {"count_to_partner": False, "level": "hard"}),
    ("probe:temperature=0.25:worlds=2", {"temperature": 0.25, "worlds": 2}),
    (" probe : worlds = 3 ", {"worlds": 3}),
])
def test_parameters_parse_by_kind(text, params):
    (choice,) = parse_agents(text, REGISTRY)
    for k, v in params.items():
        assert choice.params[k] == v and type(choice.params[k]) is type(v)


def test_the_canonical_text_drops_defaults_and_keeps_the_spec_order():
    (c,) = parse_agents("probe:level=hard:worlds=8:count_to_partner=off", REGISTRY)
    assert c.text == "probe:count_to_partner=off:level=hard"
    (c,) = parse_agents("probe:temperature=2.0", REGISTRY)
    assert c.text == "probe:temperature=2"
    assert [c.text for c in parse_list("cautious:pass_rate=0.7,random")] == ["cautious", "random"]


def test_seats_are_comma_separated():
    assert [c.spec.name for c in parse_agents("probe:worlds=2,random,probe,cautious", REGISTRY)] \
        == ["probe", "random", "probe", "cautious"]


@pytest.mark.parametrize("text, message, col", [
    ("greedy", "unknown agent 'greedy'", 1),
    ("random,cautous", "(did you mean 'cautious'?)", 8),
    ("probe:wrlds=64", "unknown parameter 'wrlds' of agent probe", 7),
    ("probe:wrlds=64", "(did you mean 'worlds'?)", 7),
    ("probe:worlds=0", "worlds is 1 to 512, got '0'", 14),
    ("probe:worlds=many", "worlds is an integer, got 'many'", 14),
    ("probe:temperature=-1", "temperature is at least 0", 19),
    ("probe:temperature=nan", "temperature is a finite number", 19),
    ("probe:count_to_partner=maybe", "count_to_partner is on or off", 24),
    ("probe:level=harder",
     "level is one of easy, normal, hard, got 'harder' (did you mean 'hard'?)", 13),
    ("probe:worlds", "a parameter of probe is PARAM=VALUE, got 'worlds'", 7),
    ("probe:worlds=2:worlds=3", "parameter 'worlds' of agent probe is given twice", 16),
    ("random,,random", "an agent name is missing", 8),
    ("", "no agent named", 1),
])
def test_bad_text_says_what_and_where(text, message, col):
    with pytest.raises(AgentTextError) as e:
        parse_agents(text, REGISTRY)
    assert message in e.value.message and e.value.col == col


def test_one_agent_for_every_seat_or_one_per_seat():
    assert for_seats(["a"], 4, "g") == ["a"] * 4
    assert for_seats(list("abcd"), 4, "g") == list("abcd")
    for n in (2, 3, 5):
        with pytest.raises(ValueError, match=f"--agents names {n} agents; g has 4 seats"):
            for_seats(list("abcde")[:n], 4, "g")


def test_make_agent_takes_the_text_and_uses_only_its_rng():
    gd = load_game("texas42").definition
    a = make_agent("cautious:pass_rate=1", random.Random(1), gd)
    assert a.pass_rate == 1.0
    assert a.act(0, (gd.pass_action, gd.pass_action + 9), dict) == gd.pass_action
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("nobody", random.Random(1), gd)


# -- through the command line ------------------------------------------------------------------


@pytest.mark.parametrize("agents", [
    "cautous", "random,cautious:pass_rat=0.5", "cautious:pass_rate=2", "cautious:pass_rate",
    "random,,random", "random,cautious", "random,random,random,random,random",
], ids=lambda a: a)
@pytest.mark.parametrize("command", [("simulate", "texas42", "--games", "1", "--no-progress"),
                                     ("validate", "texas42", "--hands", "1"),
                                     ("compare", "texas42", "--games", "2", "--vs")],
                         ids=lambda c: c[0])
def test_agent_errors_are_usage_errors(command, agents, snapshot):
    r = cli(*command, "--agents", agents)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.startswith("error: B's --agents" if command[0] == "compare" else
                               "error: --agents")
    if command[0] == "simulate":  # the same message from every command
        assert r.stderr == snapshot
    else:
        said = cli("simulate", "texas42", "--games", "1", "--agents", agents).stderr
        if command[0] == "compare":  # compare says whose --agents (after --vs: B's)
            said = said.replace("error: --agents", "error: B's --agents", 1)
        assert r.stderr == said


def test_the_agents_listing(snapshot):
    r = cli("agents")
    assert r.exit_code == 0
    for spec in AGENTS.values():
        assert f"{spec.name}  {spec.help}" in r.stdout
        for p in spec.params:
            assert f"  {p.name}=" in r.stdout and p.help in r.stdout and p.kind in r.stdout
    assert r.stdout == snapshot


def test_the_agents_listing_as_json():
    r = cli("agents", "--format", "json")
    assert r.exit_code == 0
    items = json.loads(r.stdout)
    assert [i["name"] for i in items] == sorted(AGENTS)
    cautious = next(i for i in items if i["name"] == "cautious")
    assert cautious["params"] == [{"name": "pass_rate", "kind": "float", "default": 0.7,
                                   "help": AGENTS["cautious"].params[0].help, "min": 0.0,
                                   "max": 1.0}]
    assert cli("agents", "--format", "xml").exit_code == 2


def test_parameters_change_play_and_the_record_keeps_them(tmp_path):
    rec = tmp_path / "r.jsonl"
    r = cli("simulate", "texas42", "--games", "2", "--seed", "5", "--no-progress",
            "--agents", "cautious:pass_rate=0.2,random,cautious:pass_rate=0.7,random",
            "--record", str(rec), "--format", "json")
    assert r.exit_code == 0, r.stderr
    head = json.loads(rec.read_text().splitlines()[0])
    assert head["agents"] == ["cautious:pass_rate=0.2", "random", "cautious", "random"]
    v = cli("replay", str(rec), "--quiet")
    assert v.exit_code == 0 and "2 games verified" in v.stdout, v.stderr
    plain = cli("simulate", "texas42", "--games", "2", "--seed", "5", "--no-progress",
                "--agents", "cautious,random,cautious,random", "--format", "json")
    assert json.loads(plain.stdout)["make_rate"] != json.loads(r.stdout)["make_rate"]


def test_a_header_with_a_bad_agent_text_is_rejected(tmp_path):
    rec = tmp_path / "r.jsonl"
    assert cli("simulate", "texas42", "--games", "1", "--record", str(rec),
               "--no-progress").exit_code == 0
    lines = rec.read_text().splitlines()
    head = json.loads(lines[0])
    head["agents"] = ["cautious:pass_rate=9"] * 4
    rec.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    r = cli("replay", str(rec), "--quiet")
    assert r.exit_code == 1 and "pass_rate is 0 to 1" in r.stderr


def test_a_spec_built_from_copies_of_the_dataclasses_works_the_same():
    """An agent module written against its own copy of Param and AgentSpec can be registered."""
    from dataclasses import dataclass
    from typing import Callable

    from tablerules.agents.base import spec_dict

    @dataclass(frozen=True)
    class CopyParam:
        name: str
        kind: str
        default: object
        help: str
        choices: tuple = ()
        min: float | None = None
        max: float | None = None

    @dataclass(frozen=True)
    class CopySpec:
        name: str
        help: str
        params: tuple
        make: Callable

    spec = CopySpec("copy", "a copy", (CopyParam("level", "choice", "normal", "preset",
                                                 choices=("easy", "normal", "hard")),
                                       CopyParam("worlds", "int", 8, "worlds", min=1)),
                    lambda rng, game, params: _Nobody())
    (c,) = parse_agents("copy:level=hard:worlds=3", {"copy": spec})
    assert c.params == {"level": "hard", "worlds": 3} and c.text == "copy:level=hard:worlds=3"
    assert spec_dict(spec)["params"][1] == {"name": "worlds", "kind": "int", "default": 8,
                                            "help": "worlds", "min": 1}
    with pytest.raises(AgentTextError, match="did you mean 'worlds'"):
        parse_agents("copy:world=2", {"copy": spec})
    onoff = CopySpec("o", "o", (CopyParam("count", "onoff", "on", "count"),), spec.make)
    (c,) = parse_agents("o", {"o": onoff})
    assert c.params == {"count": True} and c.text == "o"  # a default written "on" is on
    (c,) = parse_agents("o:count=off", {"o": onoff})
    assert c.params == {"count": False} and c.text == "o:count=off"


def test_a_rulesets_default_agents_may_take_parameters(tmp_path):
    p = tmp_path / "a.yaml"
    p.write_text("name: shy42\nextends: texas42\nsimulate:\n  agents: [\"cautious:pass_rate=0.9\"]\n",
                 encoding="utf-8")
    v = cli("validate", str(p), "--hands", "5")
    assert v.exit_code == 0, v.stderr
    rec = tmp_path / "r.jsonl"
    assert cli("simulate", str(p), "--games", "1", "--record", str(rec)).exit_code == 0
    assert json.loads(rec.read_text().splitlines()[0])["agents"] == ["cautious:pass_rate=0.9"] * 4
    p.write_text("name: shy42\nextends: texas42\nsimulate:\n  agents: [\"cautious:pass=0.9\"]\n",
                 encoding="utf-8")
    v = cli("validate", str(p), "--hands", "5")
    assert v.exit_code == 1 and "unknown parameter 'pass' of agent cautious" in v.stderr
