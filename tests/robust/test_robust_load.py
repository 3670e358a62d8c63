"""Ruleset input that used to raise (deep YAML, long names and paths, long `like:` chains) is a
located error in every command that reads a ruleset."""

from __future__ import annotations

import re

import pytest

from support import cli

HEAD = re.compile(r"^\S.*?(:\d+:\d+)?: error: .+$", re.M)  # a reference has no line
COMMANDS = [("validate", "--hands", "0"), ("show",), ("simulate", "--games", "1"), ("diff", "texas42")]


def run(command: tuple, ref: str):
    r = cli(command[0], ref, *command[1:])
    assert r.exit_code == 1, r.output
    assert HEAD.search(r.stderr), r.stderr
    return r


def like_chain(n: int) -> str:
    lines = ["name: chain", "extends: texas42", "contracts:"]
    lines += [f"  c{i}:\n    like: c{i + 1}" for i in range(n)]
    # points' bids are labelled by their level ("30"): the copies name theirs "c3 30"
    lines.append(f"  c{n}:\n    like: points\n    bid:\n      label: null")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("text, message", [
    ("name: x\nt: " + "[" * 600 + "]" * 600 + "\n", "YAML nests deeper than 64 levels"),
    ("name: x\nt:\n" + "".join(" " * i + f"- k{i}:\n" for i in range(0, 1200, 2)) + "\n",
     "YAML nests deeper than 64 levels"),
    ("name: &x\n  a: *x\n", "an alias inside its own anchor"),
    ("name: x\nextends: " + "a" * 300 + "\n", "no built-in ruleset named"),
    ("name: x\nextends: " + "a" * 300 + ".yaml\n", "cannot read ruleset file"),
    (like_chain(1000), "'like' chain is deeper than 16 contracts"),
], ids=["flow", "block", "alias", "long-name", "long-path", "like-chain"])
def test_hostile_ruleset_is_a_located_error(tmp_path, command, text, message):
    f = tmp_path / "r.yaml"
    f.write_text(text, encoding="utf-8")
    r = run(command, str(f))
    assert message in r.stderr


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("ref", ["a" * 300, "a" * 300 + ".yaml", "d/" * 200 + "x.yaml"],
                         ids=["name", "file", "path"])
def test_long_ruleset_reference_is_a_located_error(command, ref):
    r = run(command, ref)
    assert ref not in r.stderr  # shortened in the message


def test_a_short_like_chain_still_works(tmp_path):
    f = tmp_path / "r.yaml"
    f.write_text(like_chain(12), encoding="utf-8")
    r = cli("validate", str(f), "--hands", "0")
    assert r.exit_code == 0, r.stderr
