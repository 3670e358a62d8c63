"""A malformed record is a located error naming the line and the field, never a traceback; a
failing line is quoted at most 200 characters; versions are integers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from support import cli

LOCATED = re.compile(r"^rec\.jsonl:(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.+)$", re.M)


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> list[str]:
    path = tmp_path_factory.mktemp("rec") / "rec.jsonl"
    assert cli("simulate", "texas42", "-n", "2", "-s", "4", "-r", str(path),
               "--record-detail", "full").exit_code == 0
    return path.read_text(encoding="utf-8").splitlines()


def index(lines: list[str], kind: str, where=lambda x: True) -> int:
    return next(i for i, x in enumerate(lines) if json.loads(x)["type"] == kind and where(json.loads(x)))


def edit(lines: list[str], i: int, **fields) -> list[str]:
    out = list(lines)
    out[i] = json.dumps(dict(json.loads(lines[i]), **fields), separators=(",", ":"))
    return out


def rejected(tmp: Path, text: str | bytes, line: int, *reasons: str, quiet: bool = False) -> str:
    path = tmp / "rec.jsonl"
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    r = cli("replay", "rec.jsonl", *(["-q"] if quiet else []))
    assert r.exit_code == 1, r.output
    m = LOCATED.search(r.stderr)
    assert m, r.stderr
    assert int(m["line"]) == line, r.stderr
    for reason in reasons:
        assert re.search(reason, m["msg"]), (reason, m["msg"])
    # the line quoted under the message is at most 200 characters (and the caret line short)
    for shown in r.stderr.splitlines()[1:]:
        assert len(shown) <= 4 + 3 + 200 + 3, shown[:80]
    return r.stderr


def join(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


@pytest.fixture
def tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_non_utf8_byte(tmp, good):
    raw = join(good).encode("utf-8").splitlines(keepends=True)
    raw[3] = raw[3][:10] + b"\xff" + raw[3][10:]
    rejected(tmp, b"".join(raw), 4, "UTF-8", "0xff")


def test_a_game_number_that_is_a_string(tmp, good):
    rejected(tmp, join(edit(good, 1, game="abc")), 2, r"game line's game", "integer")


@pytest.mark.parametrize("dealt", [3, [1, 2, 3, 4], [[1, 2], [3], [4], [5]]])
def test_a_deal_whose_hands_are_not_pieces(tmp, good, dealt):
    i = index(good, "deal")
    rejected(tmp, join(edit(good, i, dealt=dealt)), i + 1, r"deal line's dealt")


def test_made_given_as_1(tmp, good):
    i = index(good, "hand", lambda x: "made" in x)
    rejected(tmp, join(edit(good, i, made=1)), i + 1, r"hand line's made", "boolean")


def test_ten_point_zero_for_ten(tmp, good):
    i = index(good, "trick", lambda x: x["points"] == 1 or x["points"] > 1)
    points = float(json.loads(good[i])["points"])
    rejected(tmp, join(edit(good, i, points=points)), i + 1, r"trick line's points", "integer")


def test_a_seat_given_as_a_float(tmp, good):
    i = index(good, "decision")
    rejected(tmp, join(edit(good, i, seat=float(json.loads(good[i])["seat"]))), i + 1,
             r"decision line's seat")


def test_a_deeply_nested_line(tmp, good):
    lines = list(good)
    lines[5] = "[" * 100_000 + "]" * 100_000
    rejected(tmp, join(lines), 6, "nested too deeply|not JSON")


def test_a_deeply_nested_field(tmp, good):
    lines = list(good)
    i = index(good, "deal")
    d = json.loads(good[i])
    lines[i] = json.dumps(dict(d, dealt=[[[[[[[["6-6"]]]]]]]]), separators=(",", ":"))
    rejected(tmp, join(lines), i + 1, "dealt")


@pytest.mark.parametrize("key", ["seed", "agents", "games", "options"])
def test_a_header_without_a_field(tmp, good, key):
    head = json.loads(good[0])
    del head[key]
    rejected(tmp, join([json.dumps(head)] + good[1:]), 1, rf"header line has no \"{key}\"")


def test_an_unknown_field(tmp, good):
    rejected(tmp, join(edit(good, 1, colour="red")), 2, "unknown field", "colour")


def test_a_ten_megabyte_line_is_quoted_at_most_200_characters(tmp, good):
    i = index(good, "decision")
    lines = edit(good, i, action="x" * 10_000_000)
    err = rejected(tmp, join(lines), i + 1)
    assert len(err) < 2000


def test_a_long_bad_json_line_is_quoted_around_the_error(tmp, good):
    lines = list(good)
    lines[2] = '{"type":"deal","x":"' + "y" * 5000 + '",}'
    err = rejected(tmp, join(lines), 3, "not JSON")
    quoted, caret = err.splitlines()[1:3]
    assert quoted.endswith('",}') and caret.strip() == "^"
    assert quoted[caret.index("^")] in '",}'


@pytest.mark.parametrize("version", ["1", 1.0, True, 4, None, "2"])
def test_versions_that_are_not_the_integers_1_2_or_3(tmp, good, version):
    head = dict(json.loads(good[0]), version=version)
    err = rejected(tmp, join([json.dumps(head)] + good[1:]), 1, "version",
                   "reads versions 1, 2 and 3")
    assert "(this is version" not in err


def test_a_version_1_line_kind_in_a_version_2_record(tmp, good):
    # a version 1 deal ("hands") in a version 2 record is refused by field
    i = index(good, "deal")
    d = json.loads(good[i])
    d["hands"] = d.pop("dealt")
    lines = list(good)
    lines[i] = json.dumps(d)
    rejected(tmp, join(lines), i + 1, "deal line")
