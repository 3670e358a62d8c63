"""The benchmark scripts run and their baselines agree with the interpreter (no timing asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True,
                          text=True, timeout=600)


def test_run_all_reports_a_ratio_for_every_engine_and_the_same_games():
    """One command runs texas42, allfives (optimised and plain) and moon side by side; the
    engines that offer the interpreter's actions in its order play the same games from a seed."""
    r = run("run_all.py", "--hands", "200", "--repeat", "1", "--no-agents", "--no-compiled")
    assert r.returncode == 0, r.stdout + r.stderr
    *lines, last = r.stdout.strip().splitlines()
    assert len(lines) == 4 and all(" ratio " in x for x in lines), lines
    summary = json.loads(last)
    assert set(summary) == {"texas42", "allfives", "allfives-plain", "moon"}
    for s in summary.values():
        assert "interpreter_error" not in s, s
        assert s["ratio"] is not None and s["ratio"] > 0
    for name in ("allfives", "allfives-plain", "moon"):
        assert summary[name]["same_games"] == [200, 200], summary[name]
    assert all(s["floor_hps"] > 0 and "API floor" in x for s, x in zip(summary.values(), lines))


def test_the_compiled_steps_are_timed_beside_and_play_the_step_engines_games():
    """The step engine's API on the kernel (tablerules.batch.steps): timed in the same run, and
    every hand of the same seed ends as the step engine's (Texas 42's defaults: the kernel the
    steps tests compile, so the suite compiles it once)."""
    pytest.importorskip("numba")
    r = run("bench_hands.py", "--hands", "200", "--repeat", "1", "--option", "nello=true",
            "--option", "sevens=true")
    assert r.returncode == 0, r.stdout + r.stderr
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["compiled_ratio"] > 0 and summary["compiled_hps"] > 0, summary
    assert summary["compiled_same_as_step_engine"] == [200, 200], summary
    # the API floor (the same loop over the recorded legal actions) is timed in the same run
    assert summary["floor_hps"] > 0 and summary["compiled_over_floor"] > 0, summary
    assert "API floor    :" in r.stdout
    # and the compiled steps against the hand-written engine slice by slice (harness.sliced)
    q1, median, q3 = summary["compiled_ratio_sliced"]
    assert 0 < q1 <= median <= q3, summary


@pytest.mark.parametrize("script,says", [
    ("handwritten42.py", ["self-check OK: 200 hands"]),
    ("handwritten_allfives.py", ["self-check OK: 200 hands", "differential check OK: 200 hands"]),
    ("handwritten_allfives_fast.py", ["against the plain engine OK: 200 hands",
                                      "differential check OK: 200 hands"]),
    ("handwritten_moon.py", ["self-check OK: 200 hands", "rule-text examples OK",
                             "differential check OK: 200 hands"]),
])
def test_self_check(script, says):
    """Each engine's --check: its own reference and, where there is one, the interpreter."""
    r = run(script, "--check", "200")
    assert r.returncode == 0, r.stdout + r.stderr
    for want in says:
        assert want in r.stdout, r.stdout


@pytest.mark.parametrize("script", ["handwritten42_rules.py", "handwritten_moon_rules.py",
                                    "handwritten_allfives_rules.py", "handwritten_taroky_rules.py"])
def test_a_hand_written_rules_player_makes_the_rules_agents_choices(script):
    """The strategies written out by hand (bench_batch.py --agents rules times the batch engine
    against them): 300 hands, every action and result, against the step engine's rules agent."""
    r = run(script, "--check", "300")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "rules check OK: 300 hands" in r.stdout, r.stdout


def test_the_hand_written_taroky_engine_plays_the_step_engines_hands():
    """handwritten_taroky.py, the batch engine's baseline in bench_batch_cards.py: 300 deals in
    lock step with the step engine (random play, and half again with every seat passing, a game
    each hand), every legal action in order and the hand's result; a disagreement (here the
    prever's halves offered the other way round) exits 1."""
    r = run("handwritten_taroky.py", "--check", "300")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "differential check OK: 300 hands" in r.stdout, r.stdout
    broken = subprocess.run(
        [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
         "import handwritten_taroky as t; t.OFFER_HALF = t.OFFER_HALF[::-1]; "
         "sys.exit(t.self_check(10))", str(BENCH)],
        capture_output=True, text=True, timeout=600)
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "differential check FAILED" in broken.stdout, broken.stdout


def test_bench_agents_does_a_fixed_repeatable_amount_of_work(capsys):
    """Same seed: the same decisions (the work fingerprint), whatever the timings."""
    sys.path.insert(0, str(BENCH))
    import bench_agents

    outs = []
    for agents in ("rules,search", "rules"):
        assert bench_agents.main(["--games", "moon", "--agents", agents, "--rules-decisions", "30",
                                  "--search-decisions", "1"]) == 0
        outs.append(json.loads(capsys.readouterr().out.strip().splitlines()[-1])["agents"]["moon"])
    a, b = outs
    assert set(a) == {"rules", "search"} and set(b) == {"rules"}
    assert a["rules"]["decisions"] == 30 and a["search"]["decisions"] == 1
    assert a["rules"]["work"] == b["rules"]["work"]
    assert a["rules"]["dps"] > 0 and a["search"]["dps"] > 0


def test_the_kernel_profiler_says_what_it_needs_without_perf(tmp_path):
    """benchmarks/profile_kernel.py samples with Linux perf: where perf is not on the PATH it
    says so and exits 2, before compiling anything."""
    import os

    r = subprocess.run([sys.executable, str(BENCH / "profile_kernel.py"), "moon"],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PATH=str(tmp_path)))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "needs perf" in r.stderr


def test_the_kernel_profiler_names_the_kernels_own_functions():
    """Where perf can record, the profile of a random-play kernel (the plain 52-card fixture's,
    the quickest to compile afresh, which the profiler must do for its functions to have
    names) gives each function compiled on its own its share of the kernel's samples: the hand
    loop among them, the shares adding up to the whole."""
    import shutil

    pytest.importorskip("numba")
    if shutil.which("perf") is None:
        pytest.skip("perf is not installed")
    plain52 = str(BENCH.parent / "tests" / "fixtures" / "cards" / "plain52.yaml")
    r = run("profile_kernel.py", plain52, "--hands", "100000", "--json")
    if r.returncode == 1 and "perf record failed" in r.stderr:
        pytest.skip("perf may not record here: " + r.stderr.strip()[-200:])
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["ruleset"] == plain52 and out["hands"] == 100000 and out["kernel_samples"] > 0
    assert "_hand" in out["shares"], out
    assert 98 <= sum(out["shares"].values()) <= 100.5, out
    assert "_hand" in r.stdout and "in the kernel" in r.stdout


def test_sliced_times_both_engines_on_every_slice_in_turn():
    sys.path.insert(0, str(BENCH))
    import harness
    calls = []
    ratios = harness.sliced(lambda lo, hi: calls.append(("slow", lo, hi)),
                            lambda lo, hi: calls.append(("fast", lo, hi)), 10, 3, 2)
    assert len(ratios) == 6
    assert [c[1:] for c in calls[::2]] == [(0, 4), (4, 8), (8, 10)] * 2  # each slice by both
    assert [c[1:] for c in calls[1::2]] == [(0, 4), (4, 8), (8, 10)] * 2
    assert [c[0] for c in calls[:6]] == ["slow", "fast", "fast", "slow", "slow", "fast"]
    assert harness.quartiles([1.0, 2.0, 3.0, 4.0, 5.0]) == [1.5, 3.0, 4.5]


@pytest.mark.parametrize("script, args", [
    ("bench_hands.py", ["--hands", "0"]),
    ("bench_moon.py", ["--repeat", "0"]),
    ("bench_allfives.py", ["--slices", "-1"]),
    ("bench_batch.py", ["--hands", "-5"]),
    ("bench_batch_cards.py", ["--verify", "-1"]),
    ("bench_workers.py", ["--workers", "0"]),
    ("bench_agents.py", ["--rules-decisions", "0"]),
    ("run_all.py", ["--repeat", "0"]),
    ("handwritten42.py", ["--check", "-5"]),
    ("handwritten42_rules.py", ["--engine-hands", "0"]),
    ("handwritten_moon_rules.py", ["--check", "0"]),
    ("handwritten_taroky.py", ["--bench", "-3"]),
    ("handwritten_taroky_rules.py", ["--hands", "0"]),
])
def test_a_count_below_its_least_is_a_usage_error(script, args):
    """Hands, repeats, games and checks are counts: 0 or less stops the script with argparse's
    usage message (exit 2), before anything runs; it was a division by zero, a NaN in the JSON,
    or a check that passed on no hands."""
    r = run(script, *args)
    assert r.returncode == 2, r.stdout + r.stderr
    least = "0" if args[0] in ("--slices", "--verify") else "1"
    assert f"argument {args[0]}: {args[1]} is less than {least}" in r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


@pytest.mark.parametrize("script, args, says", [
    ("bench_hands.py", ["--ruleset", "nosuch", "--hands", "10"], "no built-in ruleset named"),
    ("bench_moon.py", ["--option", "nosuch=1", "--hands", "10"], "unknown option 'nosuch'"),
    ("bench_allfives.py", ["--option", "players", "--hands", "10"],
     "error: --option takes name=value, got 'players'"),
    ("bench_batch_cards.py", ["-o", "hands"], "error: --option takes name=value, got 'hands'"),
    ("bench_hands.py", ["--option", "nello=true", "--option", "nello=false", "--hands", "10"],
     "error: option 'nello' is given twice"),
    ("bench_agents.py", ["--games", "moon", "--agents", "nosuch"], "unknown agent 'nosuch'"),
    ("bench_agents.py", ["--games", "nosuch"], "no built-in ruleset named"),
    ("bench_workers.py", ["--ruleset", "nosuch"], "no built-in ruleset named"),
    ("bench_batch_cards.py", ["-o", "nosuch=1"], "unknown option 'nosuch'"),
])
def test_a_ruleset_option_or_agent_named_wrong_is_its_message(script, args, says):
    """A user's mistake in a ruleset, an option or an agent is tablerules' own message and exit
    status 2, never a traceback; the hand benchmarks took a ruleset named wrong for a broken
    interpreter, printed a traceback, wrote a null ratio and exited 0."""
    r = run(script, *args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert says in r.stderr and "Traceback" not in r.stderr
    assert "error: --option:" not in r.stderr and "error: error:" not in r.stderr
    if "option" in says:  # as tablerules says it: one line
        assert r.stderr.count("\n") == 1, r.stderr
    if "name=value" in says or "twice" in says:  # read before anything runs
        assert r.stdout == "", r.stdout


def test_games_that_should_be_the_same_and_are_not_fail_the_run():
    """bench_moon.py's two engines play the same games from a seed; with an option the
    hand-written engine does not play (a 7-piece set) they differ, and the run's exit status
    says so (it was 0: the ratio compared unlike work)."""
    r = run("bench_moon.py", "--option", "moon_set=7", "--hands", "200", "--repeat", "1",
            "--no-compiled", "--slices", "0")
    assert r.returncode == 1, r.stdout + r.stderr
    same = json.loads(r.stdout.strip().splitlines()[-1])["same_games"]
    assert same[0] < same[1] == 200
