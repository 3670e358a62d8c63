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


def test_matches_played_without_their_decisions_are_the_same_and_one_alone_too(texas42):
    game, batch = texas42
    (kept,) = list(batch.matches(60, 4, first_dealer="rotate"))
    (bare,) = list(batch.matches(60, 4, first_dealer="rotate", decisions=False))
    assert (bare.results == kept.results).all()
    assert (bare.hands.results == kept.hands.results).all()
    assert bare.hands.actions.shape[1] == 0
    for m in (0, 37):  # a sample is played again alone, with its decisions, to be replayed
        (alone,) = list(batch.matches(1, 4, first=m, first_dealer="rotate"))
        assert alone.first == m and (alone.results[0] == kept.results[m]).all()
        assert (alone.hands.actions == kept.hands.actions[kept.rows(m)]).all()
        assert replay_matches(game.definition, alone, [0]) == []


def test_a_run_of_a_trillion_matches_starts_with_a_block_of_its_own_size(texas42):
    """A block's match results are made for the matches it can hold, not for every match of the
    run still to play (a billion games took 74.5 GiB before the first was played; a trillion
    asked numpy for more than it can): its first block is the first matches of the run, as a
    short run plays them."""
    game, batch = texas42
    first = next(batch.matches(10 ** 12, 3, decisions=False))
    assert first.first == 0 and 0 < len(first) < 10 ** 6
    (short,) = list(batch.matches(len(first), 3, decisions=False))
    assert (first.results == short.results).all()


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
            "--agents", "random", "--no-progress")
    assert r.exit_code == 0, r.output
    assert r.stdout == snapshot
    j = json.loads(cli("simulate", "texas42", "--engine", "batch", "-n", "300", "-s", "4",
                       "--check", "30", "--agents", "random", "--format", "json").stdout)
    assert j["games"] == 300 and j["engine"] == "batch"
    assert j["checked"] == {"games": 30, "agree": 30, "disagreements": []}
    assert sum(j["wins_by_side"].values()) >= 300
    none = cli("simulate", "texas42", "--engine", "batch", "-n", "300", "-s", "4", "--check",
               "0", "--agents", "random", "--no-progress")  # nothing replayed: no check line
    assert none.exit_code == 0 and "checked:" not in none.stdout, none.output
    assert none.stdout == r.stdout.split("checked:")[0]


def test_cli_simulate_on_the_batch_engine_with_workers_is_the_summary_of_one_process(
        monkeypatch):
    args = ["simulate", "texas42", "--engine", "batch", "-n", "700", "-s", "8", "--check", "9",
            "--agents", "random", "--format", "json", "--no-progress"]
    one = cli(*args)
    two = cli(*args, "--workers", "2")  # forked: the workers start with the compiled kernel
    assert one.exit_code == two.exit_code == 0, two.output
    assert json.loads(two.stdout) == json.loads(one.stdout)
    assert json.loads(two.stdout)["checked"] == {"games": 9, "agree": 9, "disagreements": []}
    monkeypatch.setenv("TABLERULES_START_METHOD", "spawn")  # each loads it from numba's cache
    spawned = cli(*args, "--workers", "2")
    assert spawned.exit_code == 0 and json.loads(spawned.stdout) == json.loads(one.stdout)


@pytest.mark.parametrize("args, words", [
    (("-r", "x.jsonl"), "leave out --record"),
    (("--workers", "many"), "--workers is a number of processes or auto"),
    (("--agents", "search"), "plays the random and rules agents, not search"),
    (("--engine", "fast"), "--engine is step or batch"),
    (("--shard", "1/2"), "leave out --shard"),
    (("--cluster", "local", "--workers", "2"), "--workers and --cluster: give one"),
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


@pytest.mark.parametrize("args, words", [
    (("--agents", "random,rules,random,rules", "--vs", "-o", "min_bid=31"),
     "one agent on every seat of each side"),
    (("--vs", "-o", "min_bid=31", "--workers", "many"), "--workers is a number of processes"),
    (("--vs", "-o", "min_bid=31", "--engine", "fast"), "--engine is step or batch"),
    (("--each-rule-off", "--agents", "rules"), "leave out --each-rule-off"),
])
def test_cli_compare_batch_usage_errors(args, words):
    r = cli("compare", "texas42", "--engine", "batch", "-n", "2", *args)
    assert r.exit_code == 2 and words in r.stderr, r.output


def test_ctrl_c_in_a_batch_compare_keeps_the_whole_deals_before_it(texas42):
    """compare --engine batch counts a chunk of 4096 deals whole or not at all: Ctrl-C while B
    plays the second chunk leaves the first chunk's deals, A's and B's, counted and says it was
    interrupted (B is A's game again: the count, not the rules, is under test)."""
    from tablerules.records.batchrun import compare_batch
    from tablerules.records.compare import Config

    game, batch = texas42
    a = Config("A", game, ["random"] * 4)
    b = Config("B", game, ["random"] * 4)
    plays = batch.matches

    def interrupted(n, seed, *, first=0, **kw):
        if first >= 4096:
            raise KeyboardInterrupt
        return plays(n, seed, first=first, **kw)

    class Stopping:  # the kernel, stopped by Ctrl-C in B's second chunk
        agents, game = batch.agents, batch.game
        matches = staticmethod(interrupted)

    res, checked = compare_batch(a, b, batch, Stopping(), games=5000, seed=2, check=10)
    d = res.as_dict()
    assert res.interrupted and d["interrupted"]
    assert d["deals"] == 4096 and d["games_by_config"] == {"A": 4096, "B": 4096}
    whole, _ = compare_batch(a, b, batch, batch, games=4096, seed=2, check=0)
    assert whole.as_dict()["deals"] == 4096
    for k in ("a_stats", "b_stats", "wins_by_side"):  # the same deals, counted the same
        assert d[k] == whole.as_dict()[k]
