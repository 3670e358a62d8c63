"""The `tablerules` command line, run in-process with typer's CliRunner."""

from __future__ import annotations

import json
from unittest.mock import ANY
import re
from pathlib import Path

import pytest
import typer.main

from tablerules.cli.main import app
from support import cli as run

ROOT = Path(__file__).resolve().parents[2]
LOCATED = re.compile(r"^(?P<file>[^\n:]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.+)$", re.M)


@pytest.fixture(autouse=True)
def in_repo_root(monkeypatch):
    """Paths in messages are shown relative to the working directory: make it the checkout."""
    monkeypatch.chdir(ROOT)


# -- list and show ---------------------------------------------------------------------------


def test_list_names_the_builtins():
    r = run("list")
    assert r.exit_code == 0
    assert re.search(r"^texas42\s+Texas 42 with Nello and Sevens bids$", r.stdout, re.M)
    j = run("list", "--format", "json")
    assert j.exit_code == 0
    items = json.loads(j.stdout)
    assert {"name": "texas42", "title": "Texas 42 with Nello and Sevens bids"} in items


def test_show_text(snapshot):
    r = run("show", "texas42")
    assert r.exit_code == 0 and r.stderr == ""
    for name in ("marks_to_win", "min_bid", "all_pass", "nello_doubles", "sevens"):
        assert name in r.stdout
    assert r.stdout == snapshot


def test_show_json():
    r = run("show", "texas42", "--format", "json")
    assert r.exit_code == 0
    info = json.loads(r.stdout)
    assert info["name"] == "texas42" and info["canonical"] == "texas42"
    assert info["ruleset_hash"].startswith("sha256:")
    opts = {o["name"]: o for o in info["options"]}
    assert set(opts) == {"marks_to_win", "min_bid", "all_pass", "max_opening_marks", "marks_step",
                         "nello", "nello_doubles", "sevens", "followme_doubles", "marks_raise",
                         "early_end", "nello_min_marks", "sevens_ties"}
    assert opts["min_bid"] == {"name": "min_bid", "type": "int", "value": 30, "default": 30,
                               "allowed": "0..42", "description": "The lowest point bid allowed."}
    assert opts["all_pass"]["allowed"] == "stuck, reshuffle"
    assert "phases" in info


def test_show_says_all_may_pass_when_a_deal_lets_them():
    # Taroky with two_in_talon=redeal: on a first hand with the II in the talon nobody may take
    # the hand, everybody passes and it is dealt again (simulate throws such deals in); show said
    # it "cannot happen", from one sample deal that had the II in a hand
    r = run("show", "taroky", "-o", "two_in_talon=redeal")
    assert r.exit_code == 0, r.output
    assert "     all pass: the hand is thrown in and dealt again\n" in r.stdout
    r = run("show", "taroky")  # the II in the talon: the player after the dealer takes the hand
    assert ("     all pass: cannot happen with these options (none of 50 sample deals passes "
            "out): the last seat to speak must bid (the forced rule above)\n") in r.stdout


def test_show_with_an_option_changes_value_not_default():
    r = run("show", "texas42", "--option", "min_bid=32", "-o", "nello=false", "--format", "json")
    assert r.exit_code == 0, r.stderr
    info = json.loads(r.stdout)
    opts = {o["name"]: o for o in info["options"]}
    assert opts["min_bid"]["value"] == 32 and opts["min_bid"]["default"] == 30
    assert opts["nello"]["value"] is False and opts["nello"]["default"] is True
    assert "min_bid=32" in info["canonical"] and "nello=false" in info["canonical"]


@pytest.mark.parametrize("command", [["show"], ["simulate", "-n", "1"], ["diff", "moon"]])
def test_a_strategy_where_a_ruleset_goes_is_said_plainly(command):
    """A strategy file given as a RULESET: one line that says what it is and which commands
    read it (it was the ruleset schema's errors at each of its keys), exit 1 as a ruleset file
    that is not there; a shipped strategy's name too."""
    name, *rest = command
    path = "rulesets/strategies/moon.yaml"
    r = run(name, *rest, path)
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == (f"{path}: error: a strategy file for moon (the rules agent's), not a "
                        f"ruleset: `tablerules validate {path}` checks it, `tablerules simulate "
                        f"moon --agents rules:strategy={path}` plays it (docs/strategy.md)\n")
    r = run(name, *rest, "fortytwo")
    assert r.exit_code == 1 and r.stderr.startswith(
        "fortytwo: error: a shipped strategy for texas42, texas42-forced, ")
    assert "`tablerules simulate texas42 --agents rules:strategy=fortytwo` plays it" in r.stderr


def test_bad_format_is_a_usage_error():
    r = run("list", "--format", "xml")
    assert r.exit_code == 2 and "text or json" in r.stderr


# -- simulate --------------------------------------------------------------------------------


def test_simulate_record_snapshot(tmp_path, snapshot):
    """THE seeded one-game record: any change to the engine, ruleset or record format shows here."""
    rec = tmp_path / "one.jsonl"
    r = run("simulate", "texas42", "--games", "1", "--seed", "7", "--record", str(rec), "--no-progress",
            "--record-detail", "full")
    assert r.exit_code == 0, r.stderr
    assert f"record written to {rec}" in r.stdout
    text = rec.read_text(encoding="utf-8")
    lines = [json.loads(x) for x in text.splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["seed"] == 7 and lines[-2]["type"] == "match"
    assert lines[-1] == {"type": "end", "games": 1}
    assert text == snapshot


def test_simulate_record_is_the_same_from_the_cli_twice(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for f in (a, b):
        assert run("simulate", "texas42", "-n", "3", "-s", "5", "-r", str(f), "-o", "min_bid=31").exit_code == 0
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize("args, flag", [
    (("simulate", "texas42", "-n", "1", "--no-progress", "--record", "-"), "--record"),
    (("simulate", "texas42", "-n", "1", "--no-progress", "-r", "-", "-f", "json"), "--record"),
    (("play", "texas42", "--seed", "1", "--record", "-"), "--record"),
    (("merge", "-", "a.jsonl", "b.jsonl"), "OUT"),
])
def test_a_record_to_dash_is_refused(tmp_path, monkeypatch, args, flag):
    """`--record -` wrote a file named `-` (and `merge -` would): a record goes to a file, and
    standard output holds the summary or the game, so `-` is a one-line usage error, exit 2,
    before any game, and no file `-` is made."""
    monkeypatch.chdir(tmp_path)
    r = run(*args)
    assert r.exit_code == 2 and r.stdout == "", r.output
    assert r.stderr == (f"error: {flag} -: a record is written to a file, not to standard "
                        "output: give a file name\n")
    assert list(tmp_path.iterdir()) == []


def test_simulate_json_summary():
    r = run("simulate", "texas42", "--games", "5", "--seed", "1", "--format", "json")
    assert r.exit_code == 0, r.stderr
    s = json.loads(r.stdout)
    assert {"ruleset", "seed", "games", "hands", "thrown_in", "decisions", "contracts",
            "make_rate_by_bid", "make_rate", "avg_scored_per_hand", "wins_by_side", "win_rate_by_side",
            "record"} <= set(s)
    assert s["ruleset"] == "texas42" and s["seed"] == 1 and s["games"] == 5 and s["record"] is None
    assert sum(s["contracts"].values()) == s["hands"]
    assert sum(v["hands"] for v in s["make_rate_by_bid"].values()) == s["hands"]
    assert set(s["contracts"]) <= {"points", "marks", "nello", "sevens"}
    assert sum(s["wins_by_side"].values()) == 5
    assert set(s["wins_by_side"]) == {"0", "1"}
    for v in s["make_rate_by_bid"].values():
        assert 0 <= v["made"] <= v["hands"] and v["rate"] == round(v["made"] / v["hands"], 4)


def test_simulate_text_summary():
    r = run("simulate", "texas42", "--games", "3", "--seed", "2", "--no-progress")
    assert r.exit_code == 0
    assert r.stdout.startswith("ruleset   texas42   seed 2\nagents    rules on every seat\n"
                               "games     3\n")  # the ruleset's strategy, played by the rules agent
    assert "3 games" in r.stderr and "hands/s" in r.stderr
    r = run("simulate", "moon", "--games", "2", "--agents", "random,rules,cautious",
            "--no-progress")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[1] == "agents    random (North), rules (East), cautious (West)"


def test_simulate_unknown_agent():
    r = run("simulate", "texas42", "--games", "1", "--agents", "greedy")
    assert r.exit_code == 2 and "unknown agent 'greedy'" in r.stderr and "random" in r.stderr


# -- bad options and rulesets ----------------------------------------------------------------


@pytest.mark.parametrize("command", [["simulate", "texas42", "--games", "1"], ["show", "texas42"],
                                     ["validate", "texas42", "--hands", "0"]])
@pytest.mark.parametrize("option, message", [
    ("min_bd=32", "unknown option 'min_bd' (options: all_pass, early_end, followme_doubles, "
                  "marks_raise, marks_step, marks_to_win, max_opening_marks, min_bid, nello, "
                  "nello_doubles, nello_min_marks, sevens, sevens_ties) (did you mean 'min_bid'?)"),
    ("min_bid=thirty", "option 'min_bid' takes an int, got 'thirty'"),
    ("min_bid=43", "option 'min_bid' must be at most 42, got 43"),
    ("nello=maybe", "option 'nello' takes true or false, got 'maybe'"),
    ("all_pass=shuffle", "option 'all_pass' takes one of stuck, reshuffle, got 'shuffle' "
                         "(did you mean 'reshuffle'?)"),
    ("nello_doubles=middle", "option 'nello_doubles' takes one of high, low, suit, got 'middle'"),
    ("min_bid", "--option takes name=value, got 'min_bid'"),
])
def test_bad_option_values(command, option, message):
    r = run(*command, "--option", option)
    assert r.exit_code == 2  # an error in the command line
    assert r.stdout == ""
    first, *rest = r.stderr.splitlines()
    # no made-up file position: the message names the --option it is about
    want = f"error: {message}" if message.startswith("--option") else \
        f"error: --option {option}: {message}"
    assert first == want
    assert rest == []  # a usage error alone: validate added "1 error in 1 of 1 file"


def test_validate_says_an_option_a_file_does_not_take_alone():
    """validate with an --option one of its files does not take: the usage error alone, naming
    that file, exit 2 (it printed the other file's ok line and a count of errors by file); with
    --format json too, as a malformed pair is; a strategy file says it once, not at each game
    of its `for:` as an error of the file (exit 1)."""
    r = run("validate", "texas42", "moon", "-o", "nello=true", "--hands", "0")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr.splitlines() == [
        "moon: error: --option nello=true: unknown option 'nello' (options: followme_doubles, "
        "leader_names_suit, made_scores, moon_set, set_scores, target, widow_first, "
        "widow_optional)"]
    r = run("validate", "texas42", "-o", "nello=maybe", "--hands", "0", "-f", "json")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == "error: --option nello=maybe: option 'nello' takes true or false, got 'maybe'\n"
    r = run("validate", "rulesets/strategies/fortytwo.yaml", "-o", "nope=1", "--hands", "0")
    assert (r.exit_code, r.stdout) == (2, "")
    (line,) = r.stderr.splitlines()
    assert line.startswith("error: --option nope=1: unknown option 'nope' (options: all_pass, ")


def test_every_bad_option_is_reported_and_located():
    r = run("simulate", "texas42", "-o", "min_bid=32", "-o", "nelo=false", "-o", "marks_to_win=0")
    assert r.exit_code == 2  # an error in the command line
    lines = r.stderr.splitlines()
    assert [ln.split(":", 2)[1] for ln in lines] == [" --option nelo=false",
                                                     " --option marks_to_win=0"]
    assert "did you mean 'nello'" in lines[0]
    assert "marks_to_win" in lines[1] and "at least 1" in lines[1]


@pytest.mark.parametrize("command", ["show", "simulate", "validate"])
def test_unknown_ruleset(command):
    r = run(command, "texas24")
    assert r.exit_code == 1
    assert "no built-in ruleset named 'texas24'" in r.stderr and "did you mean 'texas42'" in r.stderr


def test_missing_ruleset_file():
    r = run("simulate", "no/such/rules.yaml")
    assert r.exit_code == 1 and "Traceback" not in r.stderr
    assert "rules.yaml" in r.stderr and "error:" in r.stderr


@pytest.mark.parametrize("args, message", [
    (("simulate", "texas42", "--nosuch"), "no such option: --nosuch. "),
    (("simulate", "texas42", "--game", "3"), "no such option: --game "),
    (("simulate", "texas42", "-n", "abc"), "invalid value for '--games' / '-n': "),
    (("simulate", "texas42", "-n"), "option '-n' requires an argument. "),
    (("simulate",), "missing argument 'ruleset'. "),
    (("replay",), "missing argument 'file'. "),
    (("compare", "texas42", "--vs", "--seed", "x"), "invalid value for '--seed' / '-s': "),
    (("play", "texas42", "--nosuch"), "no such option: --nosuch. "),
    (("list", "--bogus"), "no such option: --bogus. "),
    (("simulat", "texas42"), "no such command 'simulat'. "),
])
def test_clicks_usage_errors_are_one_line_and_exit_2(args, message):
    """click's own usage errors were a usage line, a `Try` line and a box drawn round the
    message: they are one line as every other usage error, click's message (with its
    did-you-mean) and how to get help, and exit status 2."""
    r = run(*args)
    command = "" if args[0] == "simulat" else f" {args[0]}"
    assert r.exit_code == 2 and r.stdout == "", r.output
    assert r.stderr.startswith("error: " + message), r.stderr
    assert r.stderr.endswith(f" Try 'root{command} -h' for help.\n"), r.stderr
    assert r.stderr.count("\n") == 1, r.stderr
    if args[-1] == "3":
        assert "--games" in r.stderr  # click's hint at the option meant
    if args[0] == "simulat":
        assert "Did you mean 'simulate'?" in r.stderr


def test_a_usage_error_exits_2_from_the_installed_command():
    """The status the shell sees (a pipe's status is its last command's: this is the command's
    own), and the program's name as the user ran it."""
    import os
    import subprocess
    import sys

    from support import pythonpath
    r = subprocess.run([sys.executable, "-m", "tablerules", "simulate", "texas42", "--nosuch"],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PYTHONPATH=pythonpath()))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == ("error: no such option: --nosuch. Try 'python -m tablerules simulate -h' "
                        "for help.\n")


# -- validate --------------------------------------------------------------------------------


def ok_line(line: str, file: str, label: str, hands: int) -> tuple[int, int]:
    """validate's ok line for `file`: whole matches until at least `hands` hands are done, the
    ruleset's agents in turn with cautious (the counts follow the strategy, so only their
    bounds are pinned); (hands played, matches played)."""
    m = re.fullmatch(rf"{re.escape(file)}: ok \({re.escape(label)}, (\d+) seeded hands played "
                     r"in (\d+) whole matches by rules and cautious\)", line)
    assert m, line
    played, matches = int(m[1]), int(m[2])
    assert played >= hands and 1 <= matches <= played
    return played, matches


def test_validate_texas42():
    r = run("validate", "texas42", "rulesets/texas42.yaml", "--hands", "50", "--seed", "3")
    assert r.exit_code == 0, r.stderr
    one, two = r.stdout.splitlines()
    # the same ruleset by name and by path: the same seeded games
    assert ok_line(one, "texas42", "texas42", 50) == ok_line(two, "rulesets/texas42.yaml",
                                                           "texas42", 50)
    assert r.stderr == ""


def test_validate_texas42_default_hands_and_options():
    r = run("validate", "texas42")
    assert r.exit_code == 0
    ok_line(r.stdout.rstrip("\n"), "texas42", "texas42", 200)  # the default --hands
    r = run("validate", "texas42", "-o", "min_bid=32", "-o", "all_pass=reshuffle", "--hands", "30")
    assert r.exit_code == 0, r.stderr
    ok_line(r.stdout.rstrip("\n"), "texas42", "texas42(all_pass=reshuffle, min_bid=32)", 30)


def test_validate_json():
    r = run("validate", "texas42", "--hands", "5", "--format", "json")
    assert r.exit_code == 0
    assert json.loads(r.stdout) == {"ok": True, "files": [
        {"file": "texas42", "ok": True, "hands_played": ANY, "matches_played": ANY,
         "agents": ["rules", "cautious"], "diagnostics": []}]}
    f = json.loads(r.stdout)["files"][0]
    assert f["hands_played"] >= 5 and 1 <= f["matches_played"] <= f["hands_played"]


def test_validate_an_overlay_that_is_fine(tmp_path):
    f = tmp_path / "our-hall.yaml"
    f.write_text("name: our-hall\ntitle: Our hall's 42\nextends: texas42\n"
                 "set:\n  min_bid: 32\n  all_pass: reshuffle\n  nello_doubles: low\n", encoding="utf-8")
    r = run("validate", str(f), "--hands", "20")
    assert r.exit_code == 0, r.stderr
    ok_line(r.stdout.rstrip("\n"), str(f), "our-hall", 20)


# -- help ------------------------------------------------------------------------------------


def commands() -> dict:
    return dict(typer.main.get_command(app).commands)


def test_the_app_has_the_documented_commands():
    assert {"list", "show", "validate", "simulate"} <= set(commands())


def test_top_level_help():
    r = run("--help")
    assert r.exit_code == 0
    for name in commands():
        assert name in r.stdout


@pytest.mark.parametrize("name", sorted(commands()))
def test_help_of_every_command(name):
    r = run(name, "--help")
    assert r.exit_code == 0, r.output
    cmd = commands()[name]
    for p in cmd.params:
        if getattr(p, "param_type_name", "") == "option":
            for opt in p.opts + p.secondary_opts:
                if opt.startswith("--"):
                    assert opt in r.stdout, f"`{name} --help` does not mention {opt}"
    assert "-h" in r.stdout


@pytest.mark.parametrize("args", [("simulate", "texas42", "-n", "2"),
                                  ("compare", "texas42", "--vs", "-o", "min_bid=31", "-n", "2"),
                                  ("show", "moon")])
def test_ctrl_c_that_no_command_takes_is_one_line(monkeypatch, args):
    """Ctrl-C while a ruleset loads (before a run, which says what it finished) is the line
    `interrupted` and exit status 130 (it ended with no word)."""
    import tablerules.game

    def interrupted(*a, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(tablerules.game, "load_game", interrupted)
    r = run(*args)
    assert r.exit_code == 130 and r.stderr == "interrupted\n" and r.stdout == "", r.output


def test_ctrl_c_while_python_imports_the_command_is_one_line():
    """The `tablerules` entry point imports the command itself, so a Ctrl-C in the first tenths
    of a second (Python importing it) is the line `interrupted` and 130, not a traceback: the
    import is made to raise it here, as the signal would."""
    import os
    import subprocess
    import sys

    from support import pythonpath
    script = ("import builtins, sys\n"
              "real = builtins.__import__\n"
              "def imp(name, *a, **kw):\n"
              "    if name == 'main' or name.endswith('cli.main'):\n"
              "        raise KeyboardInterrupt\n"
              "    return real(name, *a, **kw)\n"
              "builtins.__import__ = imp\n"
              "sys.argv = ['tablerules', 'list']\n"
              "from tablerules.cli import run\n"
              "run()\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=pythonpath()), timeout=60)
    assert r.returncode == 130 and r.stderr == "interrupted\n", r.stderr


@pytest.mark.parametrize("module, owner, name", [("typer.main", "", "get_command"),
                                                 ("typer.core", "TyperGroup", "make_context")],
                         ids=["typer-makes-the-command", "click-reads-the-arguments"])
def test_ctrl_c_before_the_command_runs_is_one_line(module, owner, name):
    """After the import, and before a command runs, typer makes the click command and click
    reads the arguments: a Ctrl-C there was a traceback (the first) or a silent 130 (typer's own
    handling, the second); both are the line `interrupted` and 130 now."""
    import os
    import subprocess
    import sys

    from support import pythonpath
    script = ("import importlib, sys\n"
              f"owner = importlib.import_module({module!r})\n"
              f"owner = getattr(owner, {owner!r}) if {owner!r} else owner\n"
              "def boom(*a, **kw):\n"
              "    raise KeyboardInterrupt\n"
              f"setattr(owner, {name!r}, boom)\n"
              "sys.argv = ['tablerules', 'list']\n"
              "from tablerules.cli import run\n"
              "run()\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=pythonpath()), timeout=60)
    assert r.returncode == 130 and r.stderr == "interrupted\n", (r.returncode, r.stderr)


def test_one_game_is_said_as_one():
    r = run("simulate", "texas42", "-n", "1", "--no-progress")
    assert r.exit_code == 0 and r.stderr.startswith("1 game, 11 hands in "), r.stderr
    r = run("simulate", "texas42", "-n", "2", "--no-progress")
    assert r.exit_code == 0 and r.stderr.startswith("2 games, "), r.stderr
