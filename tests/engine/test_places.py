"""The names by place: one table that builds the vocabulary, the engine context and the docs."""

from __future__ import annotations

import random
from pathlib import Path

from tablerules.game import load_game
from tablerules.definition import places

DOCS = Path(__file__).resolve().parents[2] / "docs" / "language.md"


def test_the_engine_context_provides_every_declared_field():
    st = load_game("texas42").new_match()
    st.deal_random(random.Random(0))
    ctx = st.ctx
    missing = [f for f in places.context_fields() if not hasattr(type(ctx), f)
               and f not in type(ctx).__slots__]
    assert not missing
    assert places.context_fields() <= set(places.CONTEXT)


def test_every_place_has_its_names_documented_in_the_language_reference():
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("| place | adds |", text.index("### By place"))
    table = text[start:].split("\n\n", 1)[0].rstrip("\n") + "\n"
    assert table == places.doc_table(), (
        "docs/language.md's 'By place' table is generated: "
        "python -m tablerules.definition.places")


def test_each_ruleset_key_belongs_to_one_place():
    keys = [k for p in places.PLACES for k in p.keys]
    assert len(keys) == len(set(keys))
    assert places.place("play.sits_out").names[0].field == "asked"
    assert places.place("auction.beats").names[0].field == "offered"
