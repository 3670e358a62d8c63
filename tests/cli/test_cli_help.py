"""`--version`, and help that names values instead of showing type placeholders."""

from __future__ import annotations

import re

import pytest

from tablerules import __version__

from support import cli

COMMANDS = ["list", "show", "validate", "simulate", "agents", "compare", "replay", "diff", "merge",
            "play", "batch"]


def test_version():
    r = cli("--version")
    assert r.exit_code == 0 and r.stdout == f"tablerules {__version__}\n"


@pytest.mark.parametrize("command", [[]] + [[c] for c in COMMANDS], ids=lambda c: c[0] if c else "root")
def test_help_has_no_type_placeholders(command):
    r = cli(*command, "--help")
    assert r.exit_code == 0
    assert not re.search(r"<(bool|str|int|float|path|int range|float range)>", r.stdout), r.stdout
    if command:
        assert "--help" in r.stdout and "-h" in r.stdout


def test_the_summary_says_played_and_thrown_in_apart_and_never_marks():
    r = cli("simulate", "moon", "--games", "10", "--seed", "1", "--agents", "cautious")  # passes
    assert r.exit_code == 0, r.stderr
    hands = next(ln for ln in r.stdout.splitlines() if ln.startswith("hands"))
    assert " played; " in hands and "more deals thrown in" in hands
    assert "every bid" in r.stdout and "(set " in r.stdout
    assert "marks" not in r.stdout


def test_a_game_without_an_auction_has_no_bid_rows():
    r = cli("simulate", "allfives", "--games", "3", "--seed", "1")
    assert r.exit_code == 0, r.stderr
    assert "bid none" not in r.stdout and "\nnone " not in r.stdout
    assert "bids      none: every hand is played without an auction" in r.stdout
    j = cli("simulate", "allfives", "--games", "3", "--seed", "1", "--format", "json")
    import json
    s = json.loads(j.stdout)
    assert s["make_rate_by_bid"] == {} and s["make_rate"]["hands"] == 0


def test_the_readme_names_the_commands_that_take_format_json():
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    line = " ".join(text.split("Every command has `--help`.", 1)[1].split("\n")[:2])
    named = set(re.findall(r"`(\w+)`", line.split("take `--format json`")[0]))
    have = {c for c in COMMANDS if "--format" in cli(c, "--help").stdout}
    assert named == have


def test_show_does_not_describe_a_pass_out_that_cannot_happen():
    stuck = cli("show", "texas42").stdout
    assert "thrown in and dealt again" not in stuck and "the last seat to speak must bid" in stuck
    free = cli("show", "texas42", "-o", "all_pass=reshuffle").stdout
    assert "thrown in and dealt again" in free


def test_help_paragraphs_flow_to_the_width():
    """A paragraph after the first is one flowing text, not the docstring's lines each wrapped
    on its own (a lone short line left behind by the terminal's wrap)."""
    r = cli("replay", "--help")
    assert r.exit_code == 0
    text = " ".join(r.output.split())
    assert "an illegal play, a wrong trick winner, a changed score" in text
    lines = [ln.strip() for ln in r.output.splitlines()]
    assert "a changed score) is rejected with the line of the record and the reason; exit" \
        not in lines  # the source line, kept whole, would start a row of its own
