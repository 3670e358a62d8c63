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


@pytest.mark.parametrize("null, message", [
    # a club that does not pay Bita, the payment's name misspelt
    ("scoring:\n  chips:\n    pays:\n      bitta: null\n",
     "x.yaml:7:7: error: 'bitta: null' deletes nothing: scoring.chips.pays has no 'bitta' (did "
     "you mean 'bita'?)"),
    # a declaration the prever copies from the game with `like:`, misspelt
    ("contracts:\n  prever:\n    declare:\n      contra_4: null\n",
     "x.yaml:7:7: error: 'contra_4: null' deletes nothing: contracts.prever.declare has no "
     "'contra_4' (did you mean 'contra_3'?)"),
    ("set:\n  countng: null\n", "x.yaml:5:3: error: 'countng: null' deletes nothing: set has no "
                                "'countng'"),
])
def test_a_null_that_deletes_nothing_is_an_error(tmp_path, null, message):
    # a house file deleting a part of the base it extends: a misspelt name deleted nothing, and
    # the part the table meant to drop was kept without a word
    p = tmp_path / "x.yaml"
    p.write_text("name: x\ntitle: x\nextends: taroky\n" + null, encoding="utf-8")
    r = cli("validate", str(p), "--hands", "0")
    assert r.exit_code == 1, r.output
    assert r.stderr.startswith(str(p.parent) + "/" + message), r.stderr


def test_a_null_that_deletes_an_inherited_part_is_not_one(tmp_path):
    # nor one that leaves an option the base does not set at its default, as it asks
    p = tmp_path / "x.yaml"
    p.write_text("name: x\ntitle: x\nextends: taroky\nscoring:\n  chips:\n    pays:\n"
                 "      bita: null\ncontracts:\n  prever:\n    declare:\n      contra_3: null\n"
                 "set:\n  counting: null\n", encoding="utf-8")
    r = cli("validate", str(p), "--hands", "0")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("signature", ["barred(t:tile)", "\"barred( t : tile )\"",
                                       "\"barred(x: tile)\""])
def test_a_function_replaced_under_its_signature_written_otherwise(tmp_path, signature):
    # ruleset-format.md allows `is_trump(t:tile): ...` unquoted; a house file replacing
    # Taroky's "barred(t: tile)" so was refused, "function 'barred' hides a name already
    # defined": the base's function and the file's were both kept
    body = "x.face == 'K'" if "x:" in signature else "t.face == 'K'"
    p = tmp_path / "x.yaml"
    p.write_text(f"name: x\ntitle: x\nextends: taroky\nfunctions:\n  {signature}: \"{body}\"\n",
                 encoding="utf-8")
    r = cli("validate", str(p), "--hands", "0")
    assert r.exit_code == 0, r.output
    d = cli("diff", "taroky", str(p))
    assert "  functions.barred(t: tile) (changed)" in d.stdout.splitlines() or (
        "  functions.barred(t: tile) (removed)" in d.stdout.splitlines()
        and "  functions.barred(x: tile) (added)" in d.stdout.splitlines()), d.stdout
    assert f"+ {body}" in d.stdout


def test_a_function_deleted_under_its_signature_written_otherwise(tmp_path):
    p = tmp_path / "x.yaml"
    p.write_text("name: x\ntitle: x\nextends: taroky\nfunctions:\n  barred(t:tile): null\n",
                 encoding="utf-8")
    r = cli("validate", str(p), "--hands", "0")
    assert r.exit_code == 1
    assert r.stderr.startswith(f"{p}:5:3: error: deleting 'barred(t: tile)' here breaks the base "
                               "ruleset: unknown function 'barred'"), r.stderr
