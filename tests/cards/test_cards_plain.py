"""A plain 52-card partnership trick game as a fixture: it validates, plays with the random and
search agents, replays, and shows card names wherever a domino's "6-4" is shown."""

from __future__ import annotations

import json

from support import cli

from helpers import PLAIN52, TAROT4, TAROT_LIB, game, hand, legal, play

SUITS = "♠♥♦♣"
FACES = "2 3 4 5 6 7 8 9 10 J Q K A".split()


def suit(mark: str) -> list[str]:
    return [f + mark for f in FACES]


def test_the_pack_is_52_cards_named_by_face_and_mark():
    gd = game(PLAIN52).definition
    assert len(gd.pieces) == 52 and gd.pieces.names[:3] == ("2♠", "3♠", "4♠")
    assert gd.pieces.names[-1] == "A♣"
    assert gd.string_to_action("10♥") == gd.pieces.names.index("10♥")


def test_follow_suit_and_the_trump_suit_wins():
    g = game(PLAIN52)  # trump: spades
    st = hand(g, [suit("♥"), suit("♦"), suit("♣"), suit("♠"), []], dealer=0)
    play(st, "2♦")  # East leads (dealer North)
    assert legal(st) == sorted(suit("♣"))  # no diamond: anything
    play(st, "A♣")
    play(st, "2♠", "A♥")  # West trumps, North discards
    assert st.tricks == [0, 1]  # the trump took it, for East-West
    st = hand(game(PLAIN52, trump_suit="none"), [suit("♥"), suit("♦"), suit("♣"), suit("♠"), []],
              dealer=0)
    play(st, "2♦", "A♣", "A♠", "A♥")
    assert st.tricks == [0, 1]  # no trump: the 2 of the suit led holds


def test_it_validates_simulates_and_replays(tmp_path):
    r = cli("validate", PLAIN52)
    assert r.exit_code == 0, r.output
    for agents in ("random", "search:level=easy,random,random,random"):
        rec = tmp_path / "r.jsonl"
        r = cli("simulate", PLAIN52, "-o", "target=1", "--games", "2", "--seed", "5",
                "--agents", agents, "--record", str(rec), "--record-detail", "full")
        assert r.exit_code == 0, r.output
        lines = [json.loads(x) for x in rec.read_text(encoding="utf-8").splitlines()]
        deal = next(x for x in lines if x["type"] == "deal")
        assert all(n[-1] in SUITS for h in deal["dealt"] for n in h)
        trick = next(x for x in lines if x["type"] == "trick")
        assert trick["led"] in ("spades", "hearts", "diamonds", "clubs")
        r = cli("replay", str(rec), "--ruleset", PLAIN52)
        assert r.exit_code == 0, r.output
        assert "trick 1, " in r.output and "♠" in r.output


def test_simulate_is_deterministic(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for rec in (a, b):
        assert cli("simulate", TAROT4, "--games", "3", "--seed", "9", "--agents", "random",
                   "--record", str(rec)).exit_code == 0
    assert a.read_bytes() == b.read_bytes()
    r = cli("replay", str(a), "--ruleset", TAROT4, "-q")
    assert r.exit_code == 0, r.output


def test_show_lists_each_suit_in_its_order():
    r = cli("show", TAROT4)
    assert r.exit_code == 0, r.output
    assert "Pieces: 54 cards" in r.output
    assert "hearts, lowest first: 4♥ 3♥ 2♥ A♥ J♥ R♥ Q♥ K♥" in r.output
    assert "spades, lowest first: 7♠ 8♠ 9♠ 10♠ J♠ R♠ Q♠ K♠" in r.output
    assert "tarok (trumps), lowest first: I II III" in r.output and "XXI Skyz" in r.output
    assert "follows: tile.suit == led, else tile.trump, else anything" in r.output
    r = cli("show", TAROT4, "--format", "json")
    info = json.loads(r.output)
    assert info["pieces"]["kind"] == "cards" and info["pieces"]["trumps"] == "tarok"


def test_the_tarot_library_checks_as_a_part():
    r = cli("validate", TAROT_LIB)
    assert r.exit_code == 0 and "library part: tarot" in r.output, r.output
