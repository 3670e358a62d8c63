"""What the docs claim about the code, each claim kept true by a test (issue 8, section 5).

Each test names the sentence it checks (which commands take `--format json` and the list of
agents are kept by tests/cli/test_cli_help.py and tests/docs/test_house_rules_doc.py). A claim that stops being true fails here, so the docs
are changed with the code.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from support import cli
from tablerules.check.schema import schema_paths
from tablerules.game import load_game

ROOT = Path(__file__).resolve().parents[2]
DOCS = {p.name: p.read_text(encoding="utf-8") for p in [*(ROOT / "docs").glob("*.md"),
                                                         ROOT / "README.md"]}
SECTIONS = ("deal", "auction", "contracts", "scoring", "bounds", "play", "pieces", "seats",
            "simulate", "match")
KEY = re.compile(r"`((?:%s)(?:\.(?:<name>|\*|[a-z_]+))+)`" % "|".join(SECTIONS))


def _schema_keys() -> set[str]:
    out = set()
    for p in schema_paths():
        parts = p.split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return out


def test_every_ruleset_key_the_docs_name_exists():
    """"`deal.widow`" was in the docs while the key is `deal.stock`: every dotted key any page
    names in backquotes is a key of the schema (a contract's own keys, `play.lead`, may be named
    without `contracts.<name>.`)."""
    keys = {re.sub(r"<[a-z]+>|\*", "*", k) for k in _schema_keys()}
    contract_keys = {k.split(".", 2)[2] for k in keys if k.startswith("contracts.*.")}
    named = {(page, k) for page, text in DOCS.items() for k in KEY.findall(text)}
    assert len(named) > 40
    missing = sorted((page, k) for page, k in named
                     if re.sub(r"<[a-z]+>|\*", "*", k) not in keys | contract_keys)
    assert not missing, missing


def test_the_definition_is_frozen():
    """docs/engine.md: "a frozen description": assigning to a GameDef field fails."""
    assert "frozen" in DOCS["engine.md"]
    gd = load_game("texas42").definition
    with pytest.raises(dataclasses.FrozenInstanceError):
        gd.name = "other"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        gd.bounds.max_steps = 1  # type: ignore[misc]


def test_max_steps_is_documented_per_hand():
    """docs/ruleset-format.md says `bounds.max_steps` bounds the decisions of one hand (the
    behaviour is tests/robust/test_robust_bounds.py)."""
    text = DOCS["ruleset-format.md"]
    i = text.index("`bounds.max_steps`")
    assert "hand" in text[i:i + 300]
    assert "per match" not in text[i:i + 300]


def test_a_trick_of_rank_zero_goes_to_the_leader(tmp_path):
    """docs/ruleset-format.md: "the first played of equal ranks (so the leader takes a trick in
    which every rank is 0)"."""
    assert "the leader takes a\n  trick in which every rank is 0" in DOCS["ruleset-format.md"]
    f = tmp_path / "zero.yaml"
    f.write_text("name: zero\ntitle: t\nextends: texas42\ncontracts:\n  points:\n    play:\n"
                 "      rank: \"0\"\n", encoding="utf-8")
    game = load_game(str(f))
    st = game.new_hand([["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"],
                        ["5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "4-4"],
                        ["4-3", "4-2", "4-1", "4-0", "3-3", "3-2", "3-1"],
                        ["3-0", "2-2", "2-1", "2-0", "1-1", "1-0", "0-0"]], dealer=0)
    gd = game.definition
    for name in ["bid 30", "pass", "pass", "pass", "trump 1"]:
        st.apply_action(gd.string_to_action(name))
    leader = st.current_player()
    assert leader == 1
    for _ in range(4):
        st.apply_action(st.legal_actions()[-1])
    assert st.current_player() == leader  # every rank 0: the leader took it and leads again


def test_the_overlay_is_checked_where_it_was_written(tmp_path):
    """docs/ruleset-format.md: "an unknown key or a wrong type the overlay wrote is reported at
    its place in the overlay file"."""
    assert "reported at its place in the\noverlay file" in DOCS["ruleset-format.md"]
    f = tmp_path / "over.yaml"
    f.write_text("name: over\ntitle: t\nextends: texas42\ndeal:\n  widow: 1\n", encoding="utf-8")
    r = cli("validate", str(f))
    assert r.exit_code == 1
    assert r.output.startswith(f"{f}:5:3: error: ")
