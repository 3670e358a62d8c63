"""Errors where the author wrote them (issue 8): each case in cases/ is one realistic mistake.

For each, `validate` must report one error at the line and column of the user's own file that
holds the mistake; a problem found in a base file comes with a note at the base rule it broke.
The full output is pinned by a snapshot.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from support import cli

ROOT = Path(__file__).resolve().parents[2]
CASES = "tests/located/cases"
HEAD = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|note): "
                  r"(?P<msg>.+)$")


@pytest.fixture(autouse=True)
def in_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def heads(stderr: str) -> list[dict]:
    """Every located diagnostic line, parsed."""
    out = []
    for ln in stderr.splitlines():
        m = HEAD.match(ln)
        if m:
            d = m.groupdict()
            d["line"], d["col"] = int(d["line"]), int(d["col"])
            out.append(d)
    return out


def validate(name: str, *args: str):
    return cli("validate", f"{CASES}/{name}", "--hands", "50", *args)


# case -> (line, col of the one error in the case's own file, words of its message,
#          file of the note at the base rule it broke, or None for no note)
ERRORS = {
    # a folded scalar (>-): the typo on the block's second line, not past the end of the first
    "folded_typo.yaml": (9, 104, ["'marks_stpe'", "did you mean 'marks_step'"], None),
    # copied into marks, nello and sevens with like: reported once, for points, where it is
    "like_typo.yaml": (8, 7, ["'leadr'", "contracts.points.play"], None),
    # an empty options: deletes every option; the base's uses of them are one error, here
    "empty_options.yaml": (5, 1, ["deleting 'options'", "'max_opening_marks'"], "rulesets/texas42.yaml"),
    # now a static error: the deleted deal leaves a hand size of 0 (found before any play)
    "deal_deleted.yaml": (5, 6, ["deal.hand_size comes to 0"], None),
    "never_legal.yaml": (8, 7, ["no legal action"], None),
    "match_never_ends.yaml": (6, 3, ["did not end within 5 deals"], "rulesets/texas42.yaml"),
    "stock_negative.yaml": (6, 3, ["4 hands of 99", "the set has 28"], "rulesets/allfives.yaml"),
    "hand_size.yaml": (6, 14, ["4 hands of 99"], None),
    "recursion.yaml": (6, 3, ["'f1' calls itself", "f1 -> f2 -> f1"], None),
    # a name the places read from the state would win over the ruleset's: refused where defined,
    # and the call of it is not a second error
    "state_name_function.yaml": (6, 3, ["function 'level' hides 'level'", "bid.rank"], None),
    "state_name_constant.yaml": (6, 3, ["constant 'trick' hides 'trick'", "play.legal"], None),
    # a name of the expression language: refused where it is defined, not at every expression
    "builtin_name_option.yaml": (6, 3, ["option 'max'", "a built-in function"], None),
    "keyword_name_constant.yaml": (6, 3, ["constant 'count'", "a keyword"], None),
    "bad_indent.yaml": (7, 16, ["mapping values are not allowed here",
                                "line 7 is indented more than the line above it"], None),
    # a function's signature unquoted: said as a key to quote, not "a value"
    "signature_unquoted.yaml": (5, 19, ["mapping values are not allowed here",
                                        "a function's signature as a key contains ': '",
                                        "\"is_king(t: tile)\": ..."], None),
    "expr_bracket.yaml": (6, 28, ["unexpected 'side'; expected an operator or 'else'"], None),
    "extends_directory.yaml": (2, 10, ["names a directory"], None),
    "library_typo.yaml": (7, 28, ["'dubble'", "did you mean 'double'"], None),
    "library_unmarked.yaml": (1, 1, ["not a game", "library: true"], None),
    # a contract the base's `like` names, deleted; a `like` that closes a cycle through the
    # base's: at the user's line (they were at the base's, with no line of the user's)
    "like_deleted.yaml": (6, 3, ["deleting 'nello'", "'like' names no contract: 'nello'"],
                          "rulesets/texas42.yaml"),
    "like_cycle.yaml": (6, 3, ["'like' cycle through contract"], "rulesets/texas42.yaml"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_one_error_at_the_authors_line(name, snapshot):
    r = validate(name)
    assert r.exit_code == 1 and r.stdout == ""
    line, col, words, note_file = ERRORS[name]
    found = heads(r.stderr)
    errors = [d for d in found if d["sev"] == "error"]
    notes = [d for d in found if d["sev"] == "note"]
    assert len(errors) == 1 and errors[0]["file"] == f"{CASES}/{name}", r.stderr
    assert (errors[0]["line"], errors[0]["col"]) == (line, col), r.stderr
    for w in words:
        assert w in errors[0]["msg"], r.stderr
    if note_file is None:
        assert not [n for n in notes if n["file"] != f"{CASES}/{name}"], r.stderr
    else:
        base = [n for n in notes if n["file"] == note_file]
        assert len(base) == 1 and "the base rule it broke" in base[0]["msg"], r.stderr
    src = (ROOT / CASES / name).read_text(encoding="utf-8").splitlines()
    assert 1 <= line <= len(src) and col <= len(src[line - 1]) + 1  # a place on the line
    assert r.stderr.splitlines()[-1] == "1 error in 1 of 1 file"
    assert r.stderr == snapshot


def test_the_folded_scalar_caret_is_under_the_typo():
    r = validate("folded_typo.yaml")
    lines = r.stderr.splitlines()
    src, caret = lines[1], lines[2]
    start = caret.index("^")
    assert src[start:start + len("marks_stpe")] == "marks_stpe"
    assert caret.count("^") == len("marks_stpe")


def test_a_helper_defined_after_its_caller_is_found():
    r = validate("helper_function.yaml")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(f"{CASES}/helper_function.yaml: ok (helper, ")
    assert "seeded hands played" in r.stdout


def test_a_directory_is_said_to_be_one():
    r = cli("validate", CASES)
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0] == (f"{CASES}: error: {CASES} is a directory, not a ruleset "
                                        "file: name a .yaml file in it")


def test_a_library_part_is_checked_as_a_part():
    r = cli("validate", "rulesets/lib/trumps.yaml")
    assert r.exit_code == 0, r.output
    assert r.stdout == ("rulesets/lib/trumps.yaml: ok (library part: trumps; 1 option, "
                        "1 constant, 1 declaration, 6 functions checked)\n")
    assert r.stderr == ""


def test_a_game_that_extends_a_library_is_a_game():
    r = cli("validate", "texas42", "--hands", "5")
    assert r.exit_code == 0 and r.stdout.startswith("texas42: ok (texas42, ")
    assert "seeded hands played in" in r.stdout


def test_option_errors_name_the_option_not_a_file_position():
    r = cli("validate", "texas42", "-o", "min_bid=99", "-o", "foo=1")
    assert r.exit_code == 2  # an error in the command line
    lines = r.stderr.splitlines()
    assert lines[0] == "error: --option min_bid=99: option 'min_bid' must be at most 42, got 99"
    assert lines[1].startswith("error: --option foo=1: unknown option 'foo'")
    assert "--option:" not in r.stderr


def test_a_change_that_like_carries_is_noted(snapshot):
    r = validate("like_reach.yaml")
    assert r.exit_code == 0, r.output
    found = heads(r.stderr)
    assert [(d["sev"], d["line"], d["col"]) for d in found] == [("note", 14, 7)]
    assert "also reaches 'marks'" in found[0]["msg"]
    assert r.stderr == snapshot
    j = json.loads(cli("validate", f"{CASES}/like_reach.yaml", "--hands", "0", "-f", "json").stdout)
    (d,) = j["files"][0]["diagnostics"]
    assert j["ok"] is True and d["severity"] == "note" and d["kind"] == "like"


def test_show_marks_what_each_contract_copies():
    r = cli("show", "texas42")
    assert r.exit_code == 0
    text = r.stdout
    marks = text.split("     marks:")[1].split("     nello:")[0]
    assert "(like points)" in marks.splitlines()[0]
    assert "leader: bidder  (from points)" in marks
    assert "over: early_end and tricks_against > 0\n" in marks  # its own
    sevens = text.split("     sevens:")[1]
    assert "trick_points: 1 + sum(t.count for t in trick)  (from points)" in sevens
    info = json.loads(cli("show", "texas42", "-f", "json").stdout)
    by_name = {c["name"]: c for c in info["phases"]["contracts"]}
    assert by_name["points"]["inherited"] == {}
    assert by_name["sevens"]["like"] == "nello"
    assert by_name["sevens"]["inherited"]["bid.rank"] == "nello"
    assert by_name["sevens"]["inherited"]["play.leader"] == "points"
