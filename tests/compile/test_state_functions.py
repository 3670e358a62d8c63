"""Functions that read the game's state (issue 8): a shared sub-expression is written once.

A function whose body reads a name of the state (`bidder_side`, `points(side)`, `trick`, ...) is
checked once where it is written and compiled at each place that calls it, with the names that
place reads; a place that cannot read one of them says so at the call.
"""

from __future__ import annotations

import textwrap

import pytest

from support import cli
from tablerules.game import check, load_game
from tablerules.records.runner import play_game


def write(tmp_path, body: str) -> str:
    p = tmp_path / "house.yaml"
    p.write_text("name: house\ntitle: t\nextends: texas42\n" + textwrap.dedent(body))
    return str(p)


SHARED = """\
functions:
  "bid_made()": "points(bidder_side) >= bid.level"
  "hopeless()": "points_against > hand_points - bid.level"
contracts:
  points:
    outcome:
      over: "bid_made() or hopeless()"
      made: "bid_made()"
"""


def test_a_shared_outcome_plays_the_same_games_as_the_copied_one(tmp_path):
    base = load_game("texas42")
    house = load_game(write(tmp_path, SHARED))
    for i in range(6):
        a = play_game(base, ["random"], 5, i, record=False)
        b = play_game(house, ["random"], 5, i, record=False)
        assert a.history == b.history and a.score == b.score


def test_functions_reading_state_may_be_defined_in_any_order_and_call_each_other(tmp_path):
    ref = write(tmp_path, """\
        functions:
          "made_it()": "bid_made()"
          "bid_made()": "points(bidder_side) >= bid.level"
        contracts:
          points:
            outcome:
              made: "made_it()"
        """)
    assert check(ref).ok


def test_a_place_that_cannot_read_the_name_says_so_at_the_call(tmp_path):
    ref = write(tmp_path, """\
        functions:
          "on_table()": "len(trick)"
        scoring:
          hand: "on_table()"
        """)
    r = cli("validate", ref, "--hands", "0")
    assert r.exit_code == 1
    first = r.output.splitlines()[0]
    assert first.startswith(f"{ref}:7:10: error: on_table() cannot be called in scoring.hand")
    assert "'trick'" in first


def test_a_mistake_in_the_body_is_reported_where_it_is_written_once(tmp_path):
    ref = write(tmp_path, """\
        functions:
          "bid_made()": "points(bidder_side) >= bid.level + nope"
        contracts:
          points:
            outcome:
              made: "bid_made()"
              over: "bid_made()"
        """)
    r = cli("validate", ref, "--hands", "0")
    assert r.exit_code == 1
    lines = [ln for ln in r.output.splitlines() if ": error: " in ln]
    assert lines == [f"{ref}:5:53: error: unknown name 'nope' in the body of bid_made()"]


@pytest.mark.parametrize("body,word", [
    ('"points(bidder_side) >= bid.level + true"', "must be"),
    ('"bidder_side.pips"', "no attributes"),
])
def test_type_errors_in_state_reading_bodies_are_located_in_the_body(tmp_path, body, word):
    ref = write(tmp_path, f"""\
        functions:
          "f()": {body}
        contracts:
          points:
            outcome:
              made: "f()"
        """)
    r = cli("validate", ref, "--hands", "0")
    assert r.exit_code == 1
    assert r.output.startswith(f"{ref}:5:") and word in r.output.splitlines()[0]


def test_a_parameter_hides_the_state_name_of_the_same_name(tmp_path):
    # `led` is a parameter here, not the suit led: the function is pure, usable at compile time
    ref = write(tmp_path, """\
        functions:
          "leads_it(t: tile, led: scalar)": "has(t, led)"
        contracts:
          points:
            play:
              follows: "leads_it(tile, led) and follows(tile, led)"
        """)
    assert check(ref).ok
