"""What a process has loaded or compiled once it reuses (game.check, the YAML trees; generated
expression code: tests/expr/test_expr_shared_code.py): reused only for the very same input, and never shared where it would differ."""

from __future__ import annotations

import sys

import pytest

from tablerules.game import load_game
from tablerules.load.ruleset import load_tree

HOUSE = "name: house\nextends: texas42\noptions:\n  min_bid:\n    default: {bid}\n"


def test_the_same_ruleset_and_options_share_one_frozen_definition():
    a, b = load_game("texas42"), load_game("texas42")
    assert a.definition is b.definition
    assert a is not b and a.tree is not b.tree  # each caller its own Game and tree
    assert load_game("texas42", {"min_bid": 31}).definition is not a.definition
    assert load_game("texas42", typed=True).definition is not a.definition
    assert load_game("texas42", profile=True).definition is not a.definition


def test_an_edited_file_is_compiled_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "house.yaml"
    f.write_text(HOUSE.format(bid=30), encoding="utf-8")
    first = load_game(str(f)).definition
    assert load_game(str(f)).definition is first
    f.write_text(HOUSE.format(bid=32), encoding="utf-8")
    again = load_game(str(f)).definition
    assert again is not first
    assert first.options["min_bid"] == 30 and again.options["min_bid"] == 32


def test_the_same_text_under_another_directory_is_its_own_game(tmp_path, monkeypatch):
    """File names are shown relative to the working directory: the same name and text in two
    directories are two games (a strategy path beside each resolves to its own file)."""
    for d in ("one", "two"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "house.yaml").write_text(HOUSE.format(bid=30), encoding="utf-8")
    monkeypatch.chdir(tmp_path / "one")
    one = load_game("house.yaml").definition
    monkeypatch.chdir(tmp_path / "two")
    assert load_game("house.yaml").definition is not one


@pytest.mark.parametrize("name", ["texas42", "moon", "allfives", "taroky"])
def test_every_shipped_ruleset_is_compiled_once_from_any_directory(name, tmp_path, monkeypatch):
    """A shipped ruleset's files are named as the package's wherever the process stands, and a
    strategy it names by path is a shipped file: the same game from every directory. (Taroky's,
    whose strategy is a path, was compiled at every load; each was compiled again in every
    directory a process moved to.)"""
    first = load_game(name).definition
    assert load_game(name).definition is first
    monkeypatch.chdir(tmp_path)
    assert load_game(name).definition is first


def test_a_house_files_strategy_path_is_read_afresh(tmp_path, monkeypatch):
    """A default strategy named by the path of the user's own file is not kept with the game:
    the file may change or go between two loads."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.yaml").write_text("name: mine\nfor: texas42\nplay: []\n", encoding="utf-8")
    f = tmp_path / "house.yaml"
    f.write_text("name: house\nextends: texas42\nsimulate:\n  strategy: ./mine.yaml\n",
                 encoding="utf-8")
    first = load_game(str(f)).definition
    assert first.strategy == str((tmp_path / "mine.yaml").resolve())
    assert load_game(str(f)).definition is not first


def test_a_tree_read_again_is_a_fresh_copy():
    a = load_tree("moon")
    a.data["name"] = "changed"
    a.data["options"].clear()
    b = load_tree("moon")
    assert b.data["name"] == "moon" and b.data["options"]
    assert b.locs == load_tree("moon").locs


@pytest.mark.skipif(sys.platform == "win32", reason="Windows keeps a working directory in use")
def test_no_working_directory_still_loads(tmp_path, monkeypatch):
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    assert load_game("moon").definition.name == "moon"
