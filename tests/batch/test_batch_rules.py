"""The rules agent in the batch engine: every choice of a strategy seat is the Python agent's."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from support import cli
from tablerules.agents import make_agent
from tablerules.batch import NotBatchable, compile_batch, verify
from tablerules.batch.deals import as_lists
from tablerules.batch.kernel import Builder
from tablerules.engine.state import State, new_hand
from tablerules.game import load_game

numba = pytest.importorskip("numba")
# with -n the file runs on one worker (--dist loadfile), so its kernels are compiled once; a
# kernel another worker is compiling is waited for and loaded from numba's cache

# the game whose default strategy the suite's one rules kernel plays (a rules kernel compiles
# for 15 to 40 s; the cluster and workers tests of the batch engine play Moon for that reason).
# Texas 42's fortytwo kernel (28 s) is checked as plain Python by test_batch_plain.py and, compiled,
# by `tablerules batch texas42 --agents rules --check 2000` (docs/speed.md)
GAMES = ("moon",)


def rules(gd, text="rules"):
    return make_agent(text, random.Random(0), gd)


@pytest.fixture(scope="module", params=GAMES)
def batch(request):
    gd = load_game(request.param, typed=True).definition
    return compile_batch(gd, agents=[rules(gd)])


# compiled steps on the same kernel: test_steps.py's tests, run here so that one process
# compiles the kernel's hand loop and then its generator, the strategy's functions once
# (test_steps.py says why)
from test_steps import (  # noqa: E402,F401  (collected here, on this file's `steps`)
    test_a_clone_goes_on_alone, test_a_deal_that_is_not_one_is_refused_in_the_step_engines_words,
    test_a_play_out_in_the_kernel_ends_as_the_rules_agent_plays_it,
    test_an_illegal_action_is_the_callers_mistake_and_changes_nothing,
    test_every_decision_and_result_is_the_step_engines,
    test_what_the_kernel_does_not_keep_comes_from_the_step_engine_at_the_same_point,
    moon_steps)


@pytest.fixture(scope="module")
def steps(batch):  # after the hand loop: the strategy's functions come from numba's cache
    return moon_steps()


def test_every_choice_of_every_rules_seat_is_the_python_agents(batch):
    hands = batch.play(2000, 5)
    assert batch.verify(hands, range(2000)) == []
    # the check of random play asks less: the same hands pass it too
    assert verify(batch.game, hands, range(200)) == []


def test_a_choice_the_agent_would_not_make_is_caught(batch):
    hands = batch.play(20, 2)
    i, j = next((i, j) for i in range(20) for j in range(40) if hands.legal[i, j] > 1)
    legal_other = hands.actions.copy()
    # another legal action at that decision: the random-play check cannot tell, this one can
    g = batch.game
    st = new_hand(g, as_lists(g, hands.deals, hands.stocks, i), int(hands.dealers[i]))
    for k in range(j):
        st.apply_action(int(hands.actions[i, k]))
    other = next(a for a in st.legal_actions() if a != hands.actions[i, j])
    legal_other[i, j] = other
    hands.actions = legal_other
    at = f"hand {i + 1}: decision {j + 1}:"
    assert not any(p.startswith(at) for p in verify(g, hands, [i]))
    problems = batch.verify(hands, [i])
    assert len(problems) == 1 and problems[0].startswith(at + " seat ")
    assert "agent chooses" in problems[0]


def test_a_strategy_reading_what_has_no_kernel_form_is_refused_naming_it(tmp_path):
    f = tmp_path / "seats.yaml"
    f.write_text("""
name: seats
play:
  - name: by_the_seats
    when: "[seat, dealer][0] == 0"
    only: "a.kind == 'play'"
""", encoding="utf-8")
    gd = load_game("moon", typed=True).definition
    with pytest.raises(NotBatchable) as e:
        Builder(gd, (rules(gd, f"rules:strategy={f}"),) * gd.seat_count).build()
    assert "the strategy seats" in e.value.message and "play.by_the_seats.when" in e.value.message
    assert "an index into a list built at run time" in e.value.message.rsplit(":", 1)[1]


def test_cli_batch_plays_the_rules_agent_and_checks_it(batch):
    name = batch.game.name
    r = cli("batch", name, "--agents", "rules", "-n", "300", "--check", "100", "--no-progress")
    assert r.exit_code == 0, r.output
    assert "100 of 100 hands replayed through the step engine agree" in r.stdout
    assert r.stdout.splitlines()[0].endswith("agents rules on every seat")  # as simulate says it
    bad = cli("batch", name, "--agents", "search", "-n", "10")
    assert bad.exit_code == 2
    assert "plays the random and rules agents, not search" in bad.stderr


def test_each_kernel_function_is_compiled_once(batch):
    batch.play(50, 3)
    assert batch.compiled_twice() == []


def test_matches_with_rules_seats_agree_with_the_python_agent(batch):
    """Whole matches with the rules agent on every seat: replayed deal by deal, each of its
    choices is the Python agent's, asked in the step engine with the match's score."""
    from tablerules.batch.replay import replay_matches

    (block,) = list(batch.matches(30, 4))
    g = batch.game
    assert replay_matches(g, block, range(30), batch.agents) == []
    # another legal action at a choice of the first deal: the agent's check must catch it
    hands = block.hands
    r = int(block.rows(0)[0])
    j = int(np.nonzero(hands.legal[r] > 1)[0][0])
    st = State(g, first_dealer=int(hands.dealers[r]))
    st.apply_deal(as_lists(g, hands.deals, hands.stocks, r))
    for k in range(j):
        st.apply_action(int(hands.actions[r, k]))
    hands.actions[r, j] = next(a for a in st.legal_actions() if a != hands.actions[r, j])
    bad = replay_matches(g, block, [0], batch.agents)
    assert len(bad) == 1 and f"deal 1: decision {j + 1}: seat " in bad[0], bad
    assert "agent chooses" in bad[0]


def test_cli_simulate_plays_rules_seats_on_the_batch_engine(batch):
    # a random seat and two rules seats: the fixture's kernel (a seating is the run's)
    r = cli("simulate", "moon", "--engine", "batch", "--agents", "random,rules,rules", "-n",
            "200", "--check", "20", "--no-progress")
    assert r.exit_code == 0, r.output
    assert "checked: 20 of 20 games replayed through the step engine agree" in r.stdout


def test_cli_simulate_on_the_batch_engine_plays_the_rulesets_agents_by_default(batch):
    """Without --agents, --engine batch plays the agents simulate plays on the step engine
    (the ruleset's: Moon's rules agent, the fixture's kernel, whose matches end where random
    bidders' may not)."""
    r = cli("simulate", "moon", "--engine", "batch", "-n", "30", "-s", "2", "--check", "3",
            "--format", "json", "--no-progress")
    assert r.exit_code == 0, r.output
    played = json.loads(r.stdout)
    step = json.loads(cli("simulate", "moon", "-n", "1", "--format", "json",
                          "--no-progress").stdout)
    assert played["agents"] == step["agents"] and set(played["agents"]) == {"rules"}
    assert played["games"] == 30
    assert played["checked"] == {"games": 3, "agree": 3, "disagreements": []}


def test_every_seating_of_a_strategy_is_one_kernel(batch):
    """Which seat plays which strategy is the run's, not the kernel's: a seating with a random
    seat compiles nothing new, and its rules seats still choose as the Python agent does."""
    gd = batch.game
    agent = batch.agents[0]
    mixed = compile_batch(gd, agents=[None, agent, agent])
    assert mixed.source == batch.source
    hands = mixed.play(200, 9)
    assert mixed.verify(hands, range(200)) == []
    # seat 0 played at random: checked as a rules seat, its choices are not the agent's
    assert batch.verify(hands, range(200))


def test_cli_compare_agents_at_one_table_on_the_batch_engine(batch):
    """compare A's agents against B's on the batch engine: each deal once per seating (Moon's
    three sides), the fixture's kernel with the strategy per seat given at run time; --games
    rounded up to whole deals, as the step engine rounds it (the batch engine took it for
    deals: three times the games)."""
    for n, deals in (("20", 7), ("2", 1)):
        counts = []
        for engine in ("step", "batch"):
            r = cli("compare", "moon", "--agents", "rules", "--vs", "--agents", "random",
                    "--engine", engine, "-n", n, "--check", "1", "--no-progress", "-f", "json")
            assert r.exit_code == 0, r.output
            j = json.loads(r.stdout)
            counts.append((j["deals"], j["games"]))
        assert counts == [(deals, 3 * deals)] * 2
    r = cli("compare", "moon", "--agents", "rules", "--vs", "--agents", "random", "--engine",
            "batch", "-n", "180", "--check", "6", "--no-progress", "--format", "json")
    assert r.exit_code == 0, r.output
    j = json.loads(r.stdout)
    assert j["engine"] == "batch" and j["mode"] == "match" and j["deals"] == 60
    assert j["games"] == 180 and j["checked"]["agree"] == j["checked"]["games"] > 0, j["checked"]
    res = j["result"]
    assert res["a_wins"] + res["b_wins"] + res["draws"] == 180
    assert res["a_win_rate"] > res["even"]  # the strategy beats random play
    two = cli("compare", "moon", "--agents", "rules", "--vs", "--agents", "random", "--engine",
              "batch", "-n", "180", "--check", "6", "--no-progress", "--format", "json",
              "--workers", "2")  # forked with the kernel: each seating of a part in one worker
    assert two.exit_code == 0 and json.loads(two.stdout) == j, two.output


def test_a_batch_match_comparison_counts_as_compare_counts_the_same_matches(batch):
    """The numpy fold of compare_batch_match against compare's own count of the same matches
    (their hands as State.hand_result() gives them); A against itself scores what the others
    do, deal by deal, and wins one game in three (Moon's three sides) when none is drawn."""
    from tablerules.records.batchrun import batch_agents, compare_batch_match, match_seatings_for
    from tablerules.records.compare import (Comparison, Config, _count, _count_difference,
                                            match_seatings)

    gd = batch.game
    game = load_game("moon", typed=True)
    a = Config("A", game, ["rules"] * 3)
    b = Config("B", game, ["random"] * 3)
    plans = match_seatings(a, b)  # the fixture's strategy, A's seat of the first seating only
    kernel = compile_batch(gd, batch_agents(gd, plans[0][0]))
    assert kernel.source == batch.source and list(kernel.seats) == [1, 0, 0]
    seatings = match_seatings_for(kernel, plans)
    assert [(r, strategy) for r, strategy, _who in seatings] == [
        (r, [1 if gd.side_of[s] == r else 0 for s in range(3)]) for r in range(3)]
    got, checked = compare_batch_match(a, b, kernel, plans, games=120, seed=3, check=3)
    assert checked["agree"] == checked["games"] == 9
    assert list(kernel.seats) == [1, 0, 0]  # as compiled, after the seatings
    want = Comparison("match", a, b, 3)
    for d in range(40):
        deal = []
        for r, strategy, _who in seatings:
            batch.seats = np.array(strategy, dtype=np.int64)
            (block,) = list(batch.matches(1, 3, first=d, first_dealer="rotate"))
            hands = [_hand_result(gd, block.hands, int(i)) for i in block.rows(0)]
            deal.append(("AB", None, r, hands, block.winners(0)))
        for who, _seating, r, hands, winners in deal:
            _count(want, who, r, hands, winners)
        _count_difference(want, deal)
        want.deals += 1
    want.games = want.played["AB"]
    assert got.as_dict() == want.as_dict()
    assert got.deal_diffs == want.deal_diffs
    batch.seats = np.array([1, 1, 1], dtype=np.int64)  # the fixture's, as compiled
    mirror, _ = compare_batch_match(a, a, batch, match_seatings(a, a), games=120, seed=3,
                                    check=0)
    assert mirror.games == 120 and mirror.deal_diffs == {0: 40}
    assert mirror.draws or 2 * mirror.a_wins == mirror.b_wins


def _hand_result(gd, hands, i: int) -> dict:
    """Row i of a batch's hands as State.hand_result() words it."""
    row = hands.results[i]
    if row[1]:
        return {"thrown_in": True}
    ns = len(gd.sides)
    return {"thrown_in": False, "contract": gd.contracts[int(row[2])].name,
            "bid": gd.bids[int(row[3])].label, "bidder": int(row[4]), "made": bool(row[5]),
            "forced": bool(row[6]), "points": [int(x) for x in hands.points(ns)[i]],
            "scored": [int(x) for x in hands.scored(ns)[i]]}
