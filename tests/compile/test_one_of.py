"""A parameter that takes one of a declared set of names (`kind: one of holding_kinds`).

A literal argument outside the set, or a literal the body compares the parameter with, is a
located error with a did-you-mean, not a name that silently matches nothing.
"""

from __future__ import annotations

import textwrap

import pytest

from support import cli
from tablerules.game import load_game


def write(tmp_path, base: str, body: str, name: str = "house.yaml") -> str:
    p = tmp_path / name
    p.write_text(f"name: house\ntitle: t\nextends: {base}\n" + textwrap.dedent(body))
    return str(p)


def error_lines(r) -> list[str]:
    return [ln for ln in r.stderr.splitlines() if ": error: " in ln]


@pytest.mark.parametrize("pays, error", [
    ("kings: \"holding('kigns', 4, 'texas')\"",
     "7:23: error: 'kigns' is not one of: big, few, honours, kings, little, none, one_or_two, "
     "trul (did you mean 'kings'?)"),
    ("trul: \"holding('trul', 4, 'texsa')\"",
     "7:33: error: 'texsa' is not one of: czech, texas (did you mean 'texas'?)")],
    ids=["kind", "count"])
def test_a_misspelt_holding_kind_or_count_in_a_house_file_is_an_error_at_its_place(tmp_path,
                                                                                  pays, error):
    path = write(tmp_path, "taroky", f"""\
        scoring:
          chips:
            pays:
              {pays}
        """)
    r = cli("validate", path, "--hands", "0")
    assert r.exit_code == 1, r.output
    assert error_lines(r) == [f"{path}:{error}"]


def test_a_misspelt_nello_mode_in_a_replaced_body_is_an_error(tmp_path):
    path = write(tmp_path, "texas42", """\
        functions:
          "nello_suit(t: tile, mode: one of nello_doubles)": "t.double and mode == 'siut'"
        """)
    r = cli("validate", path, "--hands", "0")
    assert r.exit_code == 1, r.output
    assert error_lines(r) == [
        f"{path}:5:76: error: 'siut' is not one of: high, low, suit (did you mean 'suit'?)"]


def test_the_set_may_be_a_list_a_constant_an_option_or_a_declaration(tmp_path):
    path = write(tmp_path, "texas42-forced", """\
        constants:
          sizes:
            value: "['small', 'large']"
        functions:
          "a(x: one of ['north', 'south'])": "1 if x == 'north' else 2"
          "b(x: one of sizes, y: int)": "y if x == 'large' else 0"
          "c(x: one of nello_doubles)": "3 if x == 'suit' else 4"
          "d(x: one of low_doubles)": "5 if x == 'low' else 6"
        scoring:
          hand: "(a('south') + b('large', 1) + c('high') + d('low')) * 0"
        """)
    r = cli("validate", path, "--hands", "0")
    assert r.exit_code == 0, r.output
    for call, allowed, got in [("a('sout')", "north, south", "sout"),
                               ("b('lage', 1)", "large, small", "lage"),
                               ("c('hgh')", "high, low, suit", "hgh"),
                               ("d('suit')", "high, low", "suit")]:
        bad = write(tmp_path, "house.yaml", f"""\
            scoring:
              hand: "{call} * 0"
            """, name="bad.yaml")
        r = cli("validate", bad, "--hands", "0")
        assert r.exit_code == 1, r.output
        (line,) = error_lines(r)
        assert f"error: '{got}' is not one of: {allowed}" in line, line


def test_a_set_that_is_not_one_is_an_error_at_the_signature(tmp_path):
    path = write(tmp_path, "texas42", """\
        functions:
          "a(x: one of nello_doubels)": "1"
          "b(x: one of [1, 2])": "1"
          "c(x: one of [])": "1"
          "d(x: one of min_bid)": "1"
        """)
    r = cli("validate", path, "--hands", "0")
    assert r.exit_code == 1, r.output
    assert error_lines(r) == [
        f"{path}:5:3: error: bad parameter 'x: one of nello_doubels' in 'a(x: one of "
        "nello_doubels)' (one of nello_doubels: unknown name 'nello_doubels' in a parameter's "
        "'one of') (did you mean 'nello_doubles'?)",
        f"{path}:6:3: error: bad parameter 'x: one of [1, 2]' in 'b(x: one of [1, 2])' (one of "
        "[1, 2]: a list of symbols, an option or a declaration of symbols is wanted, got "
        "list[int])",
        f"{path}:7:3: error: bad parameter 'x: one of []' in 'c(x: one of [])' (one of []: a "
        "list of symbols, an option or a declaration of symbols is wanted, got an empty list)",
        f"{path}:8:3: error: bad parameter 'x: one of min_bid' in 'd(x: one of min_bid)' (one "
        "of min_bid: a list of symbols, an option or a declaration of symbols is wanted, got "
        "int)"]


def test_a_strategy_function_may_take_one_of_a_set(tmp_path):
    good = tmp_path / "s.yaml"
    good.write_text(textwrap.dedent("""\
        name: s
        title: t
        for: [texas42]
        functions:
          "pick(m: one of nello_doubles)": "1 if m == 'low' else 0"
        bid:
          - name: first
            choose: "pick('high')"
        """))
    r = cli("simulate", "texas42", "--games", "1", "--seed", "1", "--agents",
            f"rules:strategy={good}")
    assert r.exit_code == 0, r.output
    good.write_text(good.read_text().replace("pick('high')", "pick('hihg')"))
    r = cli("simulate", "texas42", "--games", "1", "--seed", "1", "--agents",
            f"rules:strategy={good}")
    assert r.exit_code != 0
    assert "'hihg' is not one of: high, low, suit (did you mean 'high'?)" in r.output, r.output



def test_declaring_a_set_leaves_the_content_hash_as_it_was(tmp_path):
    # the set is a check, not a rule of play: a record made before it was declared replays
    typed = write(tmp_path, "texas42", """\
        functions:
          "f(x: one of ['a', 'b'], t: tile)": "t.high if x == 'a' else t.low"
        """, name="typed.yaml")
    plain = write(tmp_path, "texas42", """\
        functions:
          "f(x: symbol, t: tile)": "t.high if x == 'a' else t.low"
        """, name="plain.yaml")
    other = write(tmp_path, "texas42", """\
        functions:
          "f(x: symbol, t: tile)": "t.high if x == 'b' else t.low"
        """, name="other.yaml")
    h = [load_game(p).definition.content_hash for p in (typed, plain, other)]
    assert h[0] == h[1] != h[2]
