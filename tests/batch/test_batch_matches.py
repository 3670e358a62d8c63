"""simulate --engine batch: whole matches on the batch engine, folded into simulate's summary."""

from __future__ import annotations

import json

import pytest

from support import cli, step_summary
from tablerules.batch import compile_batch
from tablerules.batch.replay import replay_matches
from tablerules.game import load_game
from tablerules.records.batchrun import fold_block
from tablerules.records.runner import new_summary

numba = pytest.importorskip("numba")
# with -n the file runs on one worker (--dist loadfile), so its kernels are compiled once; a
# kernel another worker is compiling is waited for and loaded from numba's cache


@pytest.fixture(scope="module")
def texas42():
    game = load_game("texas42", typed=True)
    return game, compile_batch(game.definition)


def test_matches_agree_with_the_step_engine_deal_by_deal(texas42):
    game, batch = texas42
    (block,) = list(batch.matches(150, 5))
    assert len(block) == 150
    assert replay_matches(game.definition, block, range(150)) == []
    again = list(batch.matches(50, 5, first=100))[0]
    assert (again.results == block.results[100:]).all()


def test_the_summary_is_the_one_the_step_engine_folds_from_the_same_matches(texas42):
    game, batch = texas42
    (block,) = list(batch.matches(120, 9))
    mine = new_summary(game)
    fold_block(mine, game, block)
    theirs = step_summary(game, block)
    assert mine.as_dict() == theirs.as_dict()
    assert mine.distributions() == theirs.distributions()


def test_cli_simulate_on_the_batch_engine(snapshot):
    r = cli("simulate", "texas42", "--engine", "batch", "-n", "300", "-s", "4", "--check", "30",
            "--no-progress")
    assert r.exit_code == 0, r.output
    assert r.stdout == snapshot
    j = json.loads(cli("simulate", "texas42", "--engine", "batch", "-n", "300", "-s", "4",
                       "--check", "30", "--format", "json").stdout)
    assert j["games"] == 300 and j["engine"] == "batch"
    assert j["checked"] == {"games": 30, "agree": 30, "disagreements": []}
    assert sum(j["wins_by_side"].values()) >= 300


@pytest.mark.parametrize("args, words", [
    (("-r", "x.jsonl"), "leave out --record"),
    (("--workers", "2"), "leave out --workers"),
    (("--agents", "search"), "plays the random and rules agents, not search"),
    (("--engine", "fast"), "--engine is step or batch"),
])
def test_cli_simulate_batch_usage_errors(args, words):
    r = cli("simulate", "texas42", "--engine", "batch", "-n", "2", *args)
    assert r.exit_code == 2 and words in r.stderr


def test_the_match_loop_compiles_no_second_hand_loop(texas42):
    """The match loop calls the hand loop that `play` compiled, with the same argument types
    (a literal row number once made numba compile the hand loop a second time)."""
    _, batch = texas42
    batch.play(20, 1)
    list(batch.matches(3, 1))
    assert batch.compiled_twice() == []


@pytest.fixture(scope="module")
def min31():
    return compile_batch(load_game("texas42", {"min_bid": 31}, typed=True).definition)


def test_two_rulesets_are_dealt_the_same_hands(texas42, min31):
    """A match's deals have a generator of their own: another option set plays them otherwise
    but is dealt the same hands, match d first by seat d mod seats."""
    _, a = texas42
    (ba,) = list(a.matches(60, 3, first_dealer="rotate"))
    (bb,) = list(min31.matches(60, 3, first_dealer="rotate"))
    for m in range(60):
        ra, rb = ba.rows(m), bb.rows(m)
        k = min(len(ra), len(rb))
        assert (ba.hands.deals[ra[:k]] == bb.hands.deals[rb[:k]]).all()
        assert ba.hands.dealers[ra[0]] == bb.hands.dealers[rb[0]] == m % 4
    assert (ba.hands.actions[:50] != bb.hands.actions[:50]).any()  # played otherwise


@pytest.mark.parametrize("games, check", [(100, 30), (7, 3), (5, 10)])
def test_compare_on_the_batch_engine_checks_as_many_matches_as_asked(texas42, min31, games,
                                                                      check):
    """--check K replays K matches of each side (all of them when there are fewer), never more:
    100 matches with --check 30 once replayed 34 of each."""
    r = cli("compare", "texas42", "--agents", "random", "--vs", "-o", "min_bid=31", "--engine",
            "batch", "-n", str(games), "--check", str(check), "--no-progress", "--format", "json")
    assert r.exit_code == 0, r.output
    j = json.loads(r.stdout)
    want = 2 * min(check, games)
    assert j["checked"] == {"games": want, "agree": want, "disagreements": []}


def test_cli_compare_two_option_sets_on_the_batch_engine(texas42, min31, snapshot):
    # random agents: the fixtures' kernels (the ruleset's default agent, rules, is two more)
    r = cli("compare", "texas42", "--agents", "random", "--vs", "-o", "min_bid=31", "--engine",
            "batch", "-n", "300", "--check", "10", "--no-progress", "--format", "json")
    assert r.exit_code == 0, r.output
    j = json.loads(r.stdout)
    assert j["engine"] == "batch" and j["mode"] == "separate" and j["deals"] == 300
    assert j["games_by_config"] == {"A": 300, "B": 300}
    assert j["checked"] == {"games": 20, "agree": 20, "disagreements": []}
    assert j["differences"] == ["option min_bid: 30 vs 31"]
    # what was counted: each side's tallies, its wins, the verdict
    assert {k: j[k] for k in ("a_stats", "b_stats", "wins_by_side", "verdict")} == snapshot


@pytest.mark.parametrize("args, words", [
    (("--agents", "random,rules,random,rules", "--vs", "-o", "min_bid=31"),
     "one agent on every seat of each side"),
    (("--vs", "-o", "min_bid=31", "--workers", "2"), "leave out --workers"),
    (("--vs", "-o", "min_bid=31", "--engine", "fast"), "--engine is step or batch"),
])
def test_cli_compare_batch_usage_errors(args, words):
    r = cli("compare", "texas42", "--engine", "batch", "-n", "2", *args)
    assert r.exit_code == 2 and words in r.stderr, r.output


def test_ctrl_c_in_a_batch_compare_keeps_the_whole_deals_before_it(texas42, min31):
    """compare --engine batch counts a chunk of 4096 deals whole or not at all: Ctrl-C while B
    plays the second chunk leaves the first chunk's deals, A's and B's, counted and says it was
    interrupted."""
    from tablerules.records.batchrun import compare_batch
    from tablerules.records.compare import Config

    game, a_batch = texas42
    other = load_game("texas42", {"min_bid": 31})
    a = Config("A", game, ["random"] * 4)
    b = Config("B", other, ["random"] * 4)
    plays = min31.matches

    def interrupted(n, seed, *, first=0, **kw):
        if first >= 4096:
            raise KeyboardInterrupt
        return plays(n, seed, first=first, **kw)

    class Stopping:  # min31's kernel, stopped by Ctrl-C in its second chunk
        agents, game = min31.agents, min31.game
        matches = staticmethod(interrupted)

    res, checked = compare_batch(a, b, a_batch, Stopping(), games=5000, seed=2, check=10)
    d = res.as_dict()
    assert res.interrupted and d["interrupted"]
    assert d["deals"] == 4096 and d["games_by_config"] == {"A": 4096, "B": 4096}
    whole, _ = compare_batch(a, b, a_batch, min31, games=4096, seed=2, check=0)
    assert whole.as_dict()["deals"] == 4096
    for k in ("a_stats", "b_stats", "wins_by_side"):  # the same deals, counted the same
        assert d[k] == whole.as_dict()[k]
