"""A file a run names by path reaches a cluster's workers as its text: the ruleset, its own
strategy, and a strategy an agent's text names. The workers here are processes of their own
whose current directory is not the run's, as a real cluster's machines are: a relative path that
reached them as a path would name a file they do not have."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from support import cli

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
FORTYTWO = (RULESETS / "strategies" / "fortytwo.yaml").read_text(encoding="utf-8")
MOON = (RULESETS / "strategies" / "moon.yaml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory):
    """A scheduler whose one worker process was started in a folder of its own."""
    distributed = pytest.importorskip("distributed")
    home = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("worker-cwd"))
    try:
        c = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                     dashboard_address=None)
    finally:
        os.chdir(home)
    with c:
        yield c.scheduler_address


@pytest.fixture
def hall(tmp_path, monkeypatch):
    """The run's folder, as its current directory: a house strategy and a house ruleset that
    names it, each by a relative path."""
    (tmp_path / "ours.yaml").write_text(house(FORTYTWO), encoding="utf-8")
    (tmp_path / "hall.yaml").write_text("name: our-hall\nextends: texas42\nsimulate:\n"
                                        "  strategy: ours.yaml\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def house(text: str) -> str:
    return text.replace("name: fortytwo", "name: ours", 1).replace("for: [", "for: [our-hall, ", 1)


def simulated(*args):
    r = cli("simulate", *args, "-r", "run.jsonl", "--no-progress", "-f", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    out.pop("record")
    return Path("run.jsonl").read_bytes(), out


def printed(command, *args):
    """What `command` printed as JSON (it must succeed)."""
    r = cli(command, *args, "--no-progress", "-f", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def compared(*args):
    return printed("compare", *args)


def test_an_agents_strategy_path_reaches_the_workers_as_text(hall, elsewhere):
    args = ("texas42", "--agents", "rules:strategy=ours.yaml", "-n", "3", "-s", "4")
    assert simulated(*args, "--cluster", elsewhere) == simulated(*args)


def test_compare_ships_the_strategies_its_agents_name(hall, elsewhere):
    args = ("texas42", "--agents", "rules:strategy=ours.yaml", "--vs", "--agents", "rules",
            "-n", "4", "-s", "2")
    assert compared(*args, "--cluster", elsewhere) == compared(*args)


def test_each_rule_off_ships_the_ruleset_and_its_strategy(hall, elsewhere):
    args = ("hall.yaml", "--each-rule-off", "--agents", "rules:read_auction=off", "-n", "2",
            "-s", "1")
    assert compared(*args, "--cluster", elsewhere) == compared(*args)


def test_a_worker_plays_the_strategy_file_as_it_is_now(hall, elsewhere):
    """A Dask worker outlives a run: a strategy file changed between two runs is played changed,
    whether the ruleset names it or an agent's text does."""
    own = ("hall.yaml", "-n", "3", "-s", "5", "--agents", "rules")
    given = ("texas42", "-n", "3", "-s", "5", "--agents", "rules:strategy=ours.yaml")
    before = [simulated(*a, "--cluster", elsewhere) for a in (own, given)]
    # every loser priced ten times over: the bids change, so the games do
    (hall / "ours.yaml").write_text(house(FORTYTWO).replace('"t.count + 1 + 4"',
                                                            '"10 * t.count + 10"', 1),
                                    encoding="utf-8")
    after = [simulated(*a) for a in (own, given)]
    assert after[0][0] != before[0][0] and after[1][0] != before[1][0]
    assert [simulated(*a, "--cluster", elsewhere) for a in (own, given)] == after


def test_the_batch_engine_ships_the_strategy_its_agents_name(hall, elsewhere):
    """simulate and compare --engine batch on a worker in another folder: the strategy an
    agent's text names by a relative path is compiled there from its text (the house strategy
    is Moon's under another name, so the kernel is the rules kernel the suite compiles)."""
    pytest.importorskip("numba")
    (hall / "moonish.yaml").write_text(MOON.replace("name: moon", "name: moonish", 1),
                                       encoding="utf-8")
    args = ("moon", "--engine", "batch", "--agents", "rules:strategy=moonish.yaml", "-n", "200",
            "-s", "4", "--check", "4")
    one = printed("simulate", *args)
    assert printed("simulate", *args, "--cluster", elsewhere) == one
    assert one["checked"] == {"games": 4, "agree": 4, "disagreements": []}
    vs = ("moon", "--engine", "batch", "--agents", "rules:strategy=moonish.yaml", "--vs",
          "--agents", "random", "-n", "40", "-s", "2", "--check", "2")
    assert compared(*vs, "--cluster", elsewhere) == compared(*vs)
