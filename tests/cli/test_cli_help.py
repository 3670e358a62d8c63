"""`--version`, and help that names values instead of showing type placeholders."""

from __future__ import annotations

import re

import pytest

from tablerules import __version__

from support import cli

COMMANDS = ["list", "show", "validate", "simulate", "replay", "diff"]


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
    r = cli("simulate", "moon", "--games", "10", "--seed", "1")
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
