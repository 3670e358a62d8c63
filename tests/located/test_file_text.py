"""A ruleset file's text: a byte that is not UTF-8 is said at its line and column; a bound past
the integer limit (2**53) is refused at its place."""

from __future__ import annotations

from support import cli


def test_a_byte_that_is_not_utf8_is_said_where_it_is(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "latin.yaml").write_bytes(b"name: u\ntitle: caf\xe9 rules\nextends: texas42\n")
    r = cli("validate", "latin.yaml")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.splitlines()[0] == (
        "latin.yaml:2:11: error: file is not UTF-8 text: byte 0xe9 (byte 18 of the file) is not "
        "UTF-8; save it as UTF-8")
    # a column counts characters: UTF-8 text before it on the line is one column a character
    (tmp_path / "latin.yaml").write_bytes("name: u\ntitle: \u00e9t\u00e9 ".encode() + b"\xff\n")
    assert cli("validate", "latin.yaml").stderr.startswith("latin.yaml:2:12: error: ")


def test_a_bound_past_the_integer_limit_is_refused_where_it_is(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "big.yaml").write_text("name: big\ntitle: t\nextends: texas42\nbounds:\n"
                                       "  max_hands: 99999999999999999999999999\n",
                                       encoding="utf-8")
    r = cli("validate", "big.yaml", "--hands", "0")
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0] == ("big.yaml:5:14: error: bounds.max_hands: expected at most "
                                        "9007199254740992, got 99999999999999999999999999")
    (tmp_path / "big.yaml").write_text("name: big\ntitle: t\nextends: texas42\nbounds:\n"
                                       "  max_hands: 9007199254740992\n", encoding="utf-8")
    assert cli("validate", "big.yaml", "--hands", "0").exit_code == 0
