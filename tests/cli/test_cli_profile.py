"""`simulate --profile`: where the run's time went, rule by rule, without changing the games."""

from __future__ import annotations

import json
from pathlib import Path

from support import cli


def _run(*extra: str) -> dict:
    r = cli("simulate", "texas42", "-n", "3", "--seed", "2", "--no-progress", "--format", "json",
            *extra)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_profile_names_the_rules_that_ran():
    out = _run("--profile")
    p = out["profile"]
    rules = {r["rule"]: r for r in p["rules"]}
    assert "scoring.hand" in rules and rules["scoring.hand"]["calls"] == out["hands"] * 2
    assert rules["scoring.hand"]["at"].endswith("texas42.yaml:188")
    assert any(k.startswith("strategy fortytwo: ") for k in rules)  # the rules agent's too
    assert all(r["calls"] > 0 and r["seconds"] <= r["with_inner_seconds"] for r in p["rules"])
    assert 0 < p["in_rules_seconds"] <= p["seconds"]
    assert sum(r["share"] for r in p["rules"]) <= 1.0


def test_profile_does_not_change_the_games():
    plain, timed = _run(), _run("--profile")
    timed.pop("profile")
    assert plain == timed


def test_profile_text_report():
    r = cli("simulate", "allfives", "-n", "2", "--no-progress", "--profile")
    assert r.exit_code == 0
    assert "profile: " in r.stderr and "contracts.layout.play.scores (" in r.stderr


def test_the_profile_is_on_stderr_and_the_summary_on_stdout_as_the_docs_say():
    r = cli("simulate", "allfives", "-n", "2", "--no-progress", "--profile")
    assert r.exit_code == 0
    assert "profile: " in r.stderr and "profile: " not in r.stdout
    assert r.stdout.startswith("ruleset   allfives")
    said = " ".join(cli("simulate", "--help").stdout.replace("│", " ").split())
    assert "went, rule by rule, on stderr (with --format json, in the JSON;" in said
    root = Path(__file__).resolve().parents[2]
    for doc in ("README.md", "docs/speed.md"):
        text = " ".join((root / doc).read_text(encoding="utf-8").split())
        assert "prints on stderr, after the summary (on stdout), the rules" in text, doc


def test_profile_is_one_process():
    r = cli("simulate", "texas42", "-n", "2", "--profile", "--workers", "2")
    assert r.exit_code == 2
    assert "--profile times the rules in this process" in r.stderr
