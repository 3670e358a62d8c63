"""The batch engine (numba): its hands agree with the step engine's, decision by decision."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from support import allfives_with_arms, cli, plain_python
from tablerules.agents import make_agent
from tablerules.batch import NotBatchable, compile_batch, seat_agents, verify
from tablerules.batch.kernel import Builder
from tablerules.game import load_game

numba = pytest.importorskip("numba")
# with -n the file runs on one worker (--dist loadfile), so its kernels are compiled once; a
# kernel another worker is compiling is waited for and loaded from numba's cache

# the kernel this file compiles (about 10 s, once: numba caches it); Moon's hand loop is
# checked with its rules agent (test_batch_rules.py), the other tables the same way by
# `tablerules batch` (docs/speed.md)
GAMES = ("texas42",)


@pytest.fixture(scope="module", params=GAMES)
def batch(request):
    return compile_batch(load_game(request.param, typed=True).definition)


def test_every_decision_and_result_agrees_with_the_step_engine(batch):
    hands = batch.play(600, 11)
    assert len(hands) == 600
    assert verify(batch.game, hands, range(600)) == []
    # the hands are real hands: every contract of the game is bid, and decisions were taken
    played = {batch.game.contracts[c].name for c in hands.column("contract")}
    assert played == {c.name for c in batch.game.contracts}
    assert hands.column("steps").min() >= len(batch.game.pieces) // 4


def test_a_hand_is_the_same_however_the_run_is_cut(batch):
    whole = batch.play(5000, 3)
    part = batch.play(700, 3, first=4300)
    assert (whole.results[4300:] == part.results).all()
    assert (whole.actions[4300:] == part.actions).all()
    other = batch.play(700, 4, first=4300)
    assert not (other.actions == part.actions).all()


def test_a_run_never_writes_over_hands_still_held_and_memory_used_again_starts_clean(batch):
    """A batch uses a run's memory again once nothing holds its arrays (docs/speed.md)."""
    first = batch.play(400, 5)
    kept = [a.copy() for a in (first.deals, first.actions, first.legal, first.results)]
    view = batch.play(300, 6).actions[10:20]  # of the second run only a view is held
    seen = view.copy()
    for n, seed in ((500, 7), (200, 8), (450, 9)):
        batch.play(n, seed)  # dropped at once: its memory is free for the next
    assert all((a == b).all() for a, b in
               zip(kept, (first.deals, first.actions, first.legal, first.results)))
    assert (view == seen).all()
    again = batch.play(400, 5)  # in memory another run wrote: the same hands, nothing left over
    assert all((a == b).all() for a, b in
               zip(kept, (again.deals, again.actions, again.legal, again.results)))


def test_a_wrong_decision_is_caught_by_the_replay(batch):
    hands = batch.play(5, 1)
    hands.actions[2, 3] = hands.actions[2, 3] + 1 if hands.legal[2, 3] > 1 else -1
    hands.results[4, -1] += 1  # a score the step engine does not give
    problems = verify(batch.game, hands, range(5))
    assert [p.split(":")[0] for p in problems] == ["hand 3", "hand 5"]


def test_no_name_or_symbol_of_the_ruleset_reaches_the_kernel_source(tmp_path):
    f = tmp_path / "hostile.yaml"
    f.write_text("""
name: hostile
extends: texas42
options:
  shout:
    type: symbol
    values: [__import__, os_system]
    default: os_system
    description: a symbol named like a Python built-in
functions:
  "eval_me(t: tile)": "t.count > 0 and shout != '__import__'"
contracts:
  points:
    play:
      trick_points: "1 + sum(t.count for t in trick if eval_me(t))"
""", encoding="utf-8")
    src = Builder(load_game(str(f), typed=True).definition).build()
    for text in ("__import__", "os_system", "eval_me", "shout", "hostile"):
        assert text not in src


def test_no_name_or_symbol_of_a_strategy_reaches_the_kernel_source(tmp_path):
    """A strategy's names, its symbols and a ruleset's layout arms are compiled to generated
    names and int codes: none of their text is in the source the batch engine runs."""
    arms = allfives_with_arms(tmp_path, "[north, south, os_system]")
    f = tmp_path / "hostile.yaml"
    f.write_text("""
name: hostile_strategy
flags:
  exec_flag:
    help: "a flag named like a call"
values:
  open_me: "count(e in ends if e.arm == 'os_system' or e.arm == 'eval_sym')"
functions:
  "eval_me(e: end)": "e.pips * (2 if e.double else 1)"
play:
  - name: import_rule
    when: "exec_flag and open_me > 0"
    only: "a.kind == 'lay' and a.arm != '__import__'"
    choose: "sum(eval_me(e) for e in ends)"
""", encoding="utf-8")
    gd = load_game(str(arms), typed=True).definition
    agent = make_agent(f"rules:strategy={f}", random.Random(0), gd)
    src = Builder(gd, seat_agents(gd, [agent])).build()
    for text in ("os_system", "eval_sym", "__import__", "eval_me", "open_me", "exec_flag",
                 "import_rule", "hostile"):
        assert text not in src


def test_no_suit_face_or_function_of_a_card_game_reaches_the_kernel_source(tmp_path):
    """A card game's suits and faces (the table `card(suit, face)` reads), and a function of a
    card made a table at build time from its generated body (`_terms`, run as plain Python),
    reach the source only as int codes and generated names."""
    plain = Path(__file__).resolve().parent.parent / "fixtures" / "cards" / "plain52.yaml"
    text = plain.read_text(encoding="utf-8").replace("hearts", "os_system")
    text = text.replace('      trick_points: "1"', (
        "      trick_points: >-\n"
        "        1 + (1 if card('os_system', 'Q') in trick else 0)\n"
        "        + sum(exec_me(t, true) for t in trick) % 2"))
    text = text.replace("auction:", 'functions:\n  "exec_me(t: tile, p: bool)": >-\n'
                        "    t.rank * 2 if t.suit == 'os_system' and p else t.rank\n\nauction:")
    f = tmp_path / "eval_cards.yaml"
    f.write_text(text, encoding="utf-8")
    src = Builder(load_game(str(f), typed=True).definition).build()
    assert "CARD_AT = np.array(" in src  # the card table
    assert re.search(r"^Y\d+_ON = 1$", src, re.M), "exec_me is no table"
    for text in ("os_system", "exec_me", "eval_cards", "plain52"):
        assert text not in src, text


def test_a_wrong_decision_is_named_by_its_hand_in_the_run(batch):
    hands = batch.play(4, 1, first=40)
    hands.results[1, -1] += 1
    assert [p.split(":")[0] for p in verify(batch.game, hands, range(4))] == ["hand 42"]


def test_hands_played_without_their_decisions_are_the_same_hands(batch):
    kept = batch.play(2000, 9, first=100)
    bare = batch.play(2000, 9, first=100, decisions=False)
    assert (bare.results == kept.results).all() and (bare.deals == kept.deals).all()
    assert bare.actions.shape == bare.legal.shape == (2000, 0)
    two = batch.play(2000, 9, first=100, decisions=False, threads=2)
    assert (two.results == kept.results).all()
    with pytest.raises(ValueError, match="played without their decisions"):
        verify(batch.game, bare, [0])


def test_cli_batch_reports_and_checks(snapshot):
    r = cli("batch", "texas42", "--hands", "3000", "--seed", "2", "--check", "150", "--no-progress")
    assert r.exit_code == 0, r.output
    assert r.stdout == snapshot
    assert "hands/s" in r.stderr
    j = json.loads(cli("batch", "texas42", "-n", "3000", "-s", "2", "--check", "150",
                       "--format", "json").stdout)
    assert j["hands"] == 3000 and j["checked"] == {"hands": 150, "agree": 150, "disagreements": []}
    assert sum(c["hands"] for c in j["contracts"].values()) == 3000 - j["thrown_in"]


def test_cli_batch_refuses_a_game_where_it_is_written(snapshot, monkeypatch):
    monkeypatch.chdir(Path(__file__).parent.parent / "fixtures")
    with pytest.raises(NotBatchable) as e:
        Builder(load_game("batch-unsupported.yaml", typed=True).definition).build()
    assert e.value.path == ("contracts", "points", "outcome", "over")
    r = cli("batch", "batch-unsupported.yaml", "-n", "10")
    assert r.exit_code == 1
    assert r.stderr == snapshot
    r = cli("simulate", "batch-unsupported.yaml", "--engine", "batch", "-n", "1")
    assert r.exit_code == 1 and "leave out --engine batch" in r.stderr


def test_a_game_loaded_without_its_trees_is_refused_with_the_way_to_load_it():
    with pytest.raises(NotBatchable, match=r"typed=True"):
        Builder(load_game("texas42").definition).build()


def test_threads_play_the_same_hands():
    batch = compile_batch(load_game("texas42", typed=True).definition)  # the fixture's, kept
    one = batch.play(3000, 8)
    two = batch.play(3000, 8, threads=2)
    assert (one.results == two.results).all() and (one.actions == two.actions).all()
    r = cli("batch", batch.game.name, "-n", "10", "--threads", "many")
    assert r.exit_code == 2 and "--threads is a number of threads or auto" in r.stderr


def test_each_kernel_function_is_compiled_once(batch):
    """A function numba compiles again for other argument types (a literal constant, say)
    doubles its compile time; the generator passes plain types."""
    batch.play(50, 3)
    assert batch.compiled_twice() == []


def test_cli_batch_lists_every_contract_as_simulate_does(tmp_path):
    """simulate lists every contract a hand may be played in, 0 hands included, and marks the
    ones the agents never bid; batch listed only the contracts played (with the rules agent,
    Texas 42's marks was not there at all), and named the agents seat by seat where simulate
    says 'rules on every seat'. (The fortytwo strategy's kernel as plain Python: the suite
    compiles one rules kernel, Moon's, whose strategy may bid every contract.)"""
    def batch(*args: str):
        r = plain_python(["-m", "tablerules", "batch", "texas42", *args, "--no-progress"],
                         tmp_path)
        assert r.returncode == 0, r.stderr[-2000:]
        return r.stdout

    out = batch("--agents", "rules", "-n", "300", "-s", "1", "--check", "5")
    lines = out.splitlines()
    assert lines[0] == "ruleset: texas42  seed 1  agents rules on every seat"
    rows = {ln.split()[0]: ln for ln in lines[3:7]}
    assert list(rows) == ["points", "marks", "nello", "sevens"]
    assert rows["marks"].split() == ["marks", "0.0%", "made", "-", "(0", "of", "0)", "not",
                                     "chosen", "by", "the", "agents"]
    j = json.loads(batch("--agents", "rules", "-n", "300", "-s", "1", "--check", "5", "-f",
                         "json"))
    assert j["contracts"]["marks"] == {"hands": 0, "share": 0.0, "made": 0, "made_rate": None}
    assert j["never_bid"] == {"contracts": ["marks"], "strategies": ["fortytwo"]}
    assert sum(c["hands"] for c in j["contracts"].values()) == 300 - j["thrown_in"]
    assert j["seat_names"] == ["North", "East", "South", "West"]
    out = batch("--agents", "rules,random,rules,random", "-n", "100", "--check", "2")
    assert out.splitlines()[0].endswith("agents rules (North), random (East), rules (South), "
                                        "random (West)")
    assert "not chosen" not in out  # a random seat may bid anything
