"""A ruleset named by a path: .yaml and .yml in any case; an existing file of another kind is
said to be one (a record: `replay` plays it), not looked for among the built-ins."""

from __future__ import annotations

import pytest

from support import cli

HOUSE = "name: ourhall\ntitle: Our hall\nextends: texas42-tournament\nset:\n  min_bid: 31\n"


@pytest.fixture(autouse=True)
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("name", ["OurHall.YAML", "ourhall.Yml", "sub/OurHall.YML"])
def test_a_yaml_suffix_in_any_case_is_a_ruleset_file(folder, name):
    (folder / "sub").mkdir()
    (folder / name).write_text(HOUSE, encoding="utf-8")
    r = cli("validate", name, "--hands", "5")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(f"{name}: ok (ourhall, ")
    assert cli("show", name).stdout.startswith("ourhall: Our hall\n")


@pytest.mark.parametrize("name, said", [
    ("ourhall.txt", "ourhall.txt is not a .yaml file: a ruleset is a YAML file named NAME.yaml "
                    "or NAME.yml, or a built-in name"),
    ("sub/ourhall.txt", "sub/ourhall.txt is not a .yaml file: a ruleset is a YAML file named "
                        "NAME.yaml or NAME.yml, or a built-in name"),
    ("games.jsonl", "games.jsonl is a game record, not a ruleset: `tablerules replay "
                    "games.jsonl` plays it again"),
    # the command runs as printed: a path with a space is quoted (it was not)
    ("my game.jsonl", "my game.jsonl is a game record, not a ruleset: `tablerules replay "
                      "'my game.jsonl'` plays it again"),
])
def test_an_existing_file_of_another_kind_is_said_to_be_one(folder, name, said):
    (folder / "sub").mkdir()
    (folder / name).write_text(HOUSE, encoding="utf-8")
    r = cli("validate", name)
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr == f"{name}: error: {said}\n1 error in 1 of 1 file\n"
    r = cli("simulate", name, "-n", "1")
    assert r.exit_code == 1 and r.stderr == f"{name}: error: {said}\n"



def test_a_missing_name_is_still_looked_for_among_the_built_ins():
    r = cli("validate", "ourhall.txt")
    assert r.exit_code == 1 and "no built-in ruleset named 'ourhall.txt'" in r.stderr


def test_an_extends_of_another_kind_is_said_at_its_line(folder):
    (folder / "base.txt").write_text(HOUSE, encoding="utf-8")
    (folder / "house.yaml").write_text("name: h\ntitle: h\nextends: base.txt\n", encoding="utf-8")
    r = cli("validate", "house.yaml")
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0] == ("house.yaml:3:10: error: base.txt is not a .yaml file: a "
                                        "ruleset is a YAML file named NAME.yaml or NAME.yml, or a "
                                        "built-in name")


@pytest.mark.parametrize("name", ["mine.play.jsonl", "my game.jsonl.gz"])
def test_a_saved_game_named_to_play_says_how_to_continue_it(folder, name):
    """`tablerules play mine.play.jsonl`, a person's saved game where the ruleset goes: the
    loader's line said only `tablerules replay` plays it again; play says --resume continues
    it (and replay shows it), each command quoted for the shell, exit 1 as the loader's."""
    import shlex

    (folder / name).write_text("{}\n", encoding="utf-8")
    q = shlex.quote(name)
    r = cli("play", name, "--seed", "1")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr == (f"{name}: error: {name} is a game record, not a ruleset: `tablerules "
                        f"play --resume {q}` continues its game, `tablerules replay {q}` shows "
                        "it\n")
