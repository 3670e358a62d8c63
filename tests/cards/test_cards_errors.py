"""A domino part used with cards, and a malformed pack, are located errors, never a crash."""

from __future__ import annotations

import pytest

from support import cli

HEAD = """name: bad
title: bad
pieces:
  suits:
    spades: {mark: "S", ranks: [2, 3, A]}
    hearts: {mark: "H", ranks: [2, 3, A]}
seats: {count: 2, sides: [[0], [1]]}
deal: {hand_size: 3}
auction: {contract: hand}
contracts:
  hand:
    play:
      leader: "0"
      rank: "tile.rank"
    outcome: {made: "false"}
scoring: {hand: "points(side)", match_over: "true"}
"""


def check(tmp_path, text: str) -> str:
    p = tmp_path / "bad.yaml"
    p.write_text(text, encoding="utf-8")
    r = cli("validate", str(p))
    assert r.exit_code != 0, r.output
    return r.output


def test_the_head_is_a_game(tmp_path):
    p = tmp_path / "ok.yaml"
    p.write_text(HEAD, encoding="utf-8")
    r = cli("validate", str(p))
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("old, new, where, message", [
    ('rank: "tile.rank"', 'rank: "tile.high"', "14:", "card has no attribute 'high'"),
    ('rank: "tile.rank"', 'rank: "1 if has(tile, 2) else 0"', "14:",
     "has() cannot be called in contracts.hand.play.rank: it is for dominoes"),
    ('rank: "tile.rank"', 'rank: "other(tile, 2)"', "14:", "other() cannot be called"),
    ('rank: "tile.rank"', 'rank: "max_pip"', "14:", "unknown name 'max_pip'"),
    ('hand: "points(side)"', 'hand: "pips_left(side)"', "16:",
     "pips_left() cannot be called in scoring.hand: it is for dominoes"),
    ('leader: "0"', 'leader: "0"\n      mode: layout', "14:",
     "layout play lays pieces end to end by their pips: it needs a domino set"),
    ('hearts: {mark: "H"', 'hearts: {mark: "S"', "6:", "two cards are named '2S'"),
    ('ranks: [2, 3, A]}\n    hearts', 'ranks: [2, 2, A]}\n    hearts', "5:",
     "rank '2' is listed twice"),
    ("  suits:", "  max_pip: 6\n  suits:", "4:", "pieces gives both max_pip"),
    ('rank: "tile.rank"', 'rank: "tile.rank"\n      follows: []', "15:",
     "follows: the list needs at least an entry"),
    ('rank: "tile.rank"', 'rank: "tile.rank"\n      follows: ["tile.suit == led", "tile.rnk"]',
     "15:", "card has no attribute 'rnk' (did you mean 'rank'?)"),
    ('rank: "tile.rank"', 'rank: "1 if tile.suit == \'spdes\' else 0"', "14:",
     "'spdes' is not one of: hearts, spades"),
    ('rank: "tile.rank"', 'rank: "tile.rank"\n      legal: "tile == card(\'spades\', \'K\')"',
     "15:", "there is no card K of spades"),
])
def test_a_located_error(tmp_path, old, new, where, message):
    assert old in HEAD
    out = check(tmp_path, HEAD.replace(old, new, 1))
    assert "Traceback" not in out
    assert f"bad.yaml:{where}" in out and message in out, out


def test_a_name_template_with_an_unknown_field(tmp_path):
    out = check(tmp_path, HEAD.replace("pieces:\n", "pieces:\n  name: '{face}{colour}'\n"))
    assert "bad.yaml:4:" in out and "unknown field '{colour}'" in out, out


def test_a_card_by_suit_and_face_and_its_holder(tmp_path):
    p = tmp_path / "ok.yaml"
    p.write_text(HEAD.replace('leader: "0"', 'leader: "holder(card(\'hearts\', \'A\'))"')
                 .replace('rank: "tile.rank"', 'rank: "tile.rank"\n      follows: '
                          '["tile.suit == led", "tile.suit == \'spades\'"]'), encoding="utf-8")
    r = cli("validate", str(p))
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("call, message", [
    ("card('tarok', 'Skys')", "there is no card Skys of tarok in this pack (did you mean 'Skyz'?)"),
    ("card('tarok', 'xxi')", "there is no card xxi of tarok in this pack (did you mean 'XXI'?)"),
    ("card('heart', 'K')", "there is no card K of heart in this pack: no suit 'heart' (did you "
                           "mean 'hearts'?)"),
])
def test_a_misspelt_card_gets_a_did_you_mean(tmp_path, call, message):
    # a house rule paying a holding of one card, the card's face or suit misspelt
    p = tmp_path / "house.yaml"
    p.write_text("name: house\ntitle: house\nextends: taroky\nscoring:\n  chips:\n    pays:\n"
                 f"      mond: \"2 if {call} in dealt_to(payee) else 0\"\n", encoding="utf-8")
    r = cli("validate", str(p))
    assert r.exit_code == 1
    assert "house.yaml:7:19: error: " + message in r.output, r.output
