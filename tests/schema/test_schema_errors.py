"""Broken rulesets: every schema error is reported at the right line:col with a clear message."""

from __future__ import annotations

import textwrap

import pytest
from jsonschema import Draft202012Validator

from tablerules.check.schema import _Formatter, ensure_valid, validate_tree
from tablerules.errors import SchemaError
from tablerules.load.yamltree import merge, parse_yaml

MINI = """\
name: mini
title: Mini
options:
  target:
    type: int
    default: 7
    description: Marks to win.
pieces:
  max_pip: 6
seats:
  count: 4
  sides: [[0, 2], [1, 3]]
deal:
  hand_size: 7
contracts:
  points:
    title: Points
    play:
      lead: "tile.high"
scoring:
  hand: "0"
"""


def diags(text: str, *, partial: bool = False, file: str = "t.yaml"):
    return validate_tree(parse_yaml(textwrap.dedent(text), file), partial=partial)


def only(text: str, **kw):
    found = diags(text, **kw)
    assert len(found) == 1, [f"{d.span}: {d.full_message()}" for d in found]
    return found[0]


def test_minimal_ruleset_is_clean():
    assert diags(MINI) == []


# (name, document, line, col, message substring, suggestion)
CASES = [
    ("unknown top-level key with did-you-mean", """\
        name: mini
        title: Mini
        titel: Mini
        """, 3, 1, "unknown key 'titel' at the top level", "title"),
    ("missing required title", """\
        name: mini
        pieces: {max_pip: 6}
        """, 1, 1, "missing required key 'title' at the top level", None),
    ("key at the wrong level says where it goes", """\
        name: mini
        title: Mini
        hand_size: 7
        """, 3, 1, "unknown key 'hand_size' at the top level ('hand_size' goes in deal)", None),
    ("bad option type value", """\
        name: mini
        title: Mini
        options:
          target:
            type: integer
            default: 7
            description: Marks to win.
        """, 5, 11, "options.target.type: expected one of 'int', 'bool', 'symbol', "
                    "got the string 'integer'", "int"),
    ("option without description (points at the option's key)", """\
        name: mini
        title: Mini
        options:
          target:
            type: int
            default: 7
        """, 4, 3, "missing required key 'description' in options.target", None),
    ("bool option with an integer default", """\
        name: mini
        title: Mini
        options:
          nello:
            type: bool
            default: 1
            description: Allow Nello.
        """, 6, 14, "options.nello.default: expected true or false, got the integer 1 "
                    "(the option's type is bool)", None),
    ("min on a bool option (points at the key)", """\
        name: mini
        title: Mini
        options:
          nello:
            type: bool
            default: true
            min: 0
            description: Allow Nello.
        """, 7, 5, "key 'min' is not allowed in options.nello: only an int option takes 'min'",
     None),
    ("symbol option without values", """\
        name: mini
        title: Mini
        options:
          doubles:
            type: symbol
            default: high
            description: Where doubles rank.
        """, 4, 3, "missing required key 'values' in options.doubles", None),
    ("symbol values read as booleans by YAML", """\
        name: mini
        title: Mini
        options:
          lights:
            type: symbol
            values: [dim, off]
            default: dim
            description: Lights.
        """, 6, 19, "options.lights.values[1]: expected a string, got false (quote it", None),
    ("option name that is not a name", """\
        name: mini
        title: Mini
        options:
          MinBid: {type: int, default: 30, description: Lowest bid.}
        """, 4, 3, "invalid key 'MinBid' in options: a name is lowercase letters", None),
    ("max_pip out of range", """\
        name: mini
        title: Mini
        pieces:
          max_pip: 19
        """, 4, 12, "pieces.max_pip: expected at most 18, got 19", None),
    ("seat count too small", """\
        name: mini
        title: Mini
        seats:
          count: 1
          sides: [[0, 2], [1, 3]]
        """, 4, 10, "seats.count: expected at least 2, got 1", None),
    ("sides must be a list of lists", """\
        name: mini
        title: Mini
        seats:
          count: 2
          sides: [[0], 1]
        """, 5, 16, "seats.sides[1]: expected a list, got the integer 1", None),
    ("a section that is not a mapping", """\
        name: mini
        title: Mini
        deal: 7
        """, 3, 7, "deal: expected a mapping, got the integer 7", None),
    ("function key that is not a signature", """\
        name: mini
        title: Mini
        functions:
          "is_trump(t)": "t.double"
        """, 4, 3, "invalid key 'is_trump(t)' in functions: a function key is a signature", None),
    ("misspelled play key with did-you-mean", """\
        name: mini
        title: Mini
        contracts:
          points:
            play:
              laed: "tile.high"
        """, 6, 7, "unknown key 'laed' in contracts.points.play", "lead"),
    ("expression that is a list", """\
        name: mini
        title: Mini
        contracts:
          points:
            play:
              lead: [1, 2]
        """, 6, 13, "contracts.points.play.lead: expected an expression (a string, or a "
                    "true/false or integer literal), or null, got a list", None),
    ("declare entry with a mapping for 'by'", """\
        name: mini
        title: Mini
        contracts:
          points:
            declare:
              trump: {by: {seat: 0}}
        """, 6, 19, "contracts.points.declare.trump.by: expected an expression", None),
    ("bad ruleset name", """\
        name: Texas42
        title: Mini
        """, 1, 7, "name: invalid value 'Texas42': a ruleset name is lowercase", None),
    ("negative stock", """\
        name: mini
        title: Mini
        deal:
          hand_size: 7
          stock: -1
        """, 5, 10, "deal.stock: expected at least 0, got -1", None),
    ("unknown all_pass action", """\
        name: mini
        title: Mini
        auction:
          all_pass: redial
        """, 4, 13, "auction.all_pass: expected one of 'redeal', got the string 'redial'",
     "redeal"),
    ("declaration without values", """\
        name: mini
        title: Mini
        declarations:
          trump:
            default: "'none'"
        """, 4, 3, "missing required key 'values' in declarations.trump", None),
    ("contract deleted in a full document", """\
        name: mini
        title: Mini
        contracts:
          points: null
        """, 4, 11, "contracts.points: expected a mapping, got null", None),
    ("unknown key inside a contract without close match lists the keys", """\
        name: mini
        title: Mini
        contracts:
          points:
            trump: "6"
        """, 5, 5, "unknown key 'trump' in contracts.points; the keys allowed here are: bid, "
                   "declare, enabled, exchange, like, outcome, play, title", None),
    ("max_hands below 1", """\
        name: mini
        title: Mini
        bounds:
          max_hands: 0
        """, 4, 14, "bounds.max_hands: expected at least 1, got 0", None),
    ("the document is not a mapping", """\
        - name: mini
        """, 1, 1, "the ruleset: expected a mapping, got a list", None),
    ("like names a contract", """\
        name: mini
        title: Mini
        contracts:
          marks:
            like: Points
        """, 5, 11, "contracts.marks.like: invalid value 'Points'", None),
]


@pytest.mark.parametrize("name,text,line,col,message,suggestion", CASES,
                         ids=[c[0] for c in CASES])
def test_broken_document(name, text, line, col, message, suggestion):
    d = only(text)
    assert (d.span.file, d.span.line, d.span.col) == ("t.yaml", line, col), d.full_message()
    assert message in d.message
    assert d.suggestion == suggestion
    assert d.kind == "schema"


def test_all_errors_reported_in_source_order():
    found = diags("""\
        name: mini
        titel: Mini
        seats:
          count: 1
          sides: []
        pieces:
          max_pip: 0
          atributes: {}
        """)
    got = [(d.span.line, d.span.col, d.message) for d in found]
    assert got == sorted(got)
    assert [(ln, c) for ln, c, _ in got] == [(1, 1), (2, 1), (4, 10), (5, 10), (7, 12), (8, 3)]
    assert "missing required key 'title'" in got[0][2]
    assert "unknown key 'titel'" in got[1][2]
    assert got[2][2] == "seats.count: expected at least 2, got 1"
    assert got[3][2] == "seats.sides: the list needs at least an entry"
    assert got[4][2] == "pieces.max_pip: expected at least 1, got 0"
    assert found[5].full_message() == (
        "unknown key 'atributes' in pieces (did you mean 'attributes'?)")


def test_several_unknown_keys_in_one_mapping_each_reported():
    found = diags("""\
        name: mini
        title: Mini
        deal: {hand_size: 7, stok: 0, firstdealer: 1}
        """)
    assert [(d.span.line, d.span.col, d.suggestion) for d in found] == [
        (3, 22, "stock"), (3, 31, "first_dealer")]


def test_several_missing_keys_each_reported_once():
    found = diags("""\
        name: mini
        title: Mini
        options:
          target: {default: 7}
        """)
    assert sorted(d.message for d in found) == [
        "missing required key 'description' in options.target",
        "missing required key 'type' in options.target",
    ]
    assert {(d.span.line, d.span.col) for d in found} == {(4, 3)}


def test_bools_and_ints_are_accepted_as_expressions():
    assert diags("""\
        name: mini
        title: Mini
        contracts:
          sevens:
            enabled: true
            play: {lead: 0, follows: false}
        bounds: {hand_points: 42}
        """) == []


def test_null_parts_of_a_contract_are_accepted():
    assert diags("""\
        name: mini
        title: Mini
        contracts:
          nello:
            like: points
            declare: null
            play: {sits_out: null}
            outcome: null
        """) == []


def test_symbol_option_default_must_be_a_string():
    d = only("""\
        name: mini
        title: Mini
        options:
          doubles: {type: symbol, values: [high, low], default: 1, description: Doubles.}
        """)
    assert (d.span.line, d.span.col) == (4, 57)
    assert d.message == ("options.doubles.default: expected a string, got the integer 1 "
                         "(the option's type is symbol)")


# -- partial mode (an overlay checked before merging)

def test_partial_overlay_with_only_name_extends_set():
    text = """\
        name: straight42
        extends: texas42
        set: {nello: false, sevens: false}
        """
    assert diags(text, partial=True) == []
    # the same document is incomplete as a whole ruleset
    assert [d.message for d in diags(text)] == ["missing required key 'title' at the top level"]


def test_partial_overlay_accepts_nulls_and_partial_entries():
    assert diags("""\
        name: house
        extends: texas42
        options:
          min_bid: {default: 31}
        contracts:
          nello: null
        auction:
          forced: null
        deal: {stock: 0}
        """, partial=True) == []


def test_partial_overlay_still_reports_unknown_keys_and_types():
    found = diags("""\
        name: house
        extends: texas42
        options:
          min_bid: {type: int, default: thirty}
        contracts:
          points:
            play: {leed: x}
        """, partial=True)
    assert [(d.span.line, d.span.col) for d in found] == [(4, 33), (7, 12)]
    assert found[0].message == ("options.min_bid.default: expected an integer, got the string "
                                "'thirty' (the option's type is int)")
    assert found[1].suggestion == "lead"


def test_partial_keeps_type_dependent_rules():
    d = only("""\
        name: house
        options:
          nello: {type: bool, default: 1}
        """, partial=True)
    assert "expected true or false" in d.message


def test_merged_document_errors_point_into_the_overlay():
    base = parse_yaml(MINI, "base.yaml")
    over = parse_yaml(textwrap.dedent("""\
        name: house
        extends: mini
        deal:
          hand_sise: 6
        """), "house.yaml")
    found = validate_tree(merge(base, over))
    assert [(str(d.span), d.suggestion) for d in found] == [("house.yaml:4:3", "hand_size")]


def test_ensure_valid_raises_with_all_diagnostics():
    tree = parse_yaml("name: mini\ntitel: x\n", "t.yaml")
    with pytest.raises(SchemaError) as info:
        ensure_valid(tree)
    assert len(info.value.diagnostics) == 2
    assert info.value.kind == "schema"
    assert "t.yaml:1:1: error: missing required key 'title'" in str(info.value)
    ensure_valid(parse_yaml(MINI, "m.yaml"))


def test_any_of_failures_give_one_best_message():
    schema = {"type": "object", "properties": {"x": {"anyOf": [
        {"type": "integer"},
        {"type": "object", "properties": {"y": {"type": "string"}}, "additionalProperties": False},
    ]}}}
    tree = parse_yaml("x:\n  z: 1\n", "a.yaml")
    errors = list(Draft202012Validator(schema).iter_errors(tree.data))
    assert len(errors) == 1
    out = list(_Formatter(tree, schema).diagnostics(errors[0]))
    assert len(out) == 1
    assert out[0].message == "unknown key 'z' in x; the keys allowed here are: y"
    assert (out[0].span.line, out[0].span.col) == (2, 3)
