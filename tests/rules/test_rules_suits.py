"""Suit led, follow-suit and the rank of every piece, under every trump choice.

Rule texts: 000 = /work/shared/rules/000_55430c4cb72388cd.txt ("Naming trump", "Playing a trick"),
001 = 001_27073ae37c0045d1.txt, 002 = 002_f7d680fdbea366ed.txt ("Rank of dominoes",
"Trump's Tile Order", "Suit of Non-Trump Tiles when Led"), 004 = 004_f26017e68a50bf4c.txt
("Suits", "Trumps").
"""

from __future__ import annotations

import pytest

from .helpers import (ALL_PIECES, TRUMPS, act, ends, fill, followers, game, legal_names, norm,
                      rank_of, suit_value, trump_state)


# -- a reference written from the rule texts ---------------------------------------------------

def is_trump(piece: str, trump) -> bool:
    h, lo = ends(piece)
    if trump == "doubles":
        return h == lo  # 002: "all seven doubles form the trump suit"
    if trump == "followme":
        return False  # 000: "No domino is trump at all"
    return trump in (h, lo)  # 000: "Every domino containing that number becomes trump"


def ref_lead(piece: str, trump):
    """000 'Playing a trick': trump leads trump; a non-trump double its suit; else the higher end."""
    h, lo = ends(piece)
    if is_trump(piece, trump):
        return trump
    return h


def ref_followers(led, trump) -> set[str]:
    """000: follow the suit led; a domino with the trump number is trump only."""
    if led == trump:
        return {p for p in ALL_PIECES if is_trump(p, trump)}
    return {p for p in ALL_PIECES if led in ends(p) and not is_trump(p, trump)}


def _id(v):
    return f"trump={v}"


# -- suit led --------------------------------------------------------------------------------

@pytest.mark.parametrize("trump", TRUMPS, ids=_id)
def test_suit_led_by_every_piece(trump):
    """000 'Playing a trick' (three bullets) and 002 'Suit of Non-Trump Tiles when Led'."""
    st = trump_state(game(), trump)
    got = {p: suit_value(st, p) for p in ALL_PIECES}
    want = {p: ref_lead(p, trump) for p in ALL_PIECES}
    assert got == want


@pytest.mark.parametrize("trump", TRUMPS, ids=_id)
def test_follow_suit_sets(trump):
    """000: 'must follow with a domino of the suit led'; 'A domino that contains the trump number
    is trump only'. 002: 'A bone belongs to a suit if it shows that pip value ... (and isn't trump)'."""
    st = trump_state(game(), trump)
    leds = list(range(7)) + (["doubles"] if trump == "doubles" else [])
    for led in leds:
        assert followers(st, led) == ref_followers(led, trump), f"led {led}"


@pytest.mark.parametrize("trump", [0, 1, 2, 3, 4, 5, 6], ids=_id)
def test_suit_trump_has_seven_members(trump):
    """002: 'There are seven tiles in each suit when that suit is trump.'"""
    st = trump_state(game(), trump)
    assert len(followers(st, trump)) == 7


# -- follow-suit in actual play ------------------------------------------------------------------

def test_fours_trump_six_four_cannot_follow_a_six_lead():
    """000: 'A domino that contains the trump number is trump only'; 004: 'If treys are trump,
    the 6-3 ... is no longer a six'. Seat 1 holds 6-4 and 6-2: only 6-2 follows a six lead."""
    hands = fill("6-5 0-0 1-0 1-1 2-0 2-1 2-2", "6-4 6-2 3-3 3-0 3-1 5-0 5-1")
    st = trump_state(game(), 4, hands)
    act(st, "6-5")
    assert legal_names(st) == ["6-2"]


def test_fours_trump_six_four_alone_is_no_six():
    """004 'Trumps': with only 6-4 as a 'six', the player does not follow and may play anything."""
    hands = fill("6-5 0-0 1-0 1-1 2-0 2-1 2-2", "6-4 3-3 3-0 3-1 5-0 5-1 5-2")
    st = trump_state(game(), 4, hands)
    act(st, "6-5")
    assert sorted(legal_names(st)) == sorted(hands[1])


def test_trump_lead_must_be_followed_with_trump():
    """000: 'A trump domino always leads trump, regardless of its other number.' Fours trump,
    4-0 led: the seat with 4-2 must play it, not a blank."""
    hands = fill("4-0 6-6 6-5 1-0 1-1 2-0 2-1", "4-2 3-0 5-0 6-0 3-3 5-5 2-2")
    st = trump_state(game(), 4, hands)
    act(st, "4-0")
    assert legal_names(st) == ["4-2"]


def test_non_trump_double_leads_its_own_suit():
    """000: 'A non-trump double leads its own suit.' Sixes trump, 2-2 led: twos must follow."""
    hands = fill("2-2 6-6 6-5 1-0 1-1 3-0 3-1", "2-1 2-0 5-0 5-5 4-4 3-3 4-0")
    st = trump_state(game(), 6, hands)
    act(st, "2-2")
    assert sorted(legal_names(st)) == ["2-0", "2-1"]


def test_non_trump_non_double_leads_its_higher_end():
    """000: 'A non-trump, non-double domino leads whichever of its two numbers is higher.'
    Sixes trump, 5-2 led: fives are led, so a seat with twos but no fives may play anything."""
    hands = fill("5-2 6-6 6-5 1-0 1-1 3-0 3-1", "2-1 2-0 2-2 4-4 3-3 4-0 4-1")
    st = trump_state(game(), 6, hands)
    act(st, "5-2")
    assert sorted(legal_names(st)) == sorted(hands[1])


def test_doubles_trump_four_four_does_not_follow_fours():
    """002: 'the first player leads with a 4-3 ... the 4-4 doesn't belong to the suit of 4's,
    instead since doubles are trump, it belongs to the trump suit'."""
    hands = fill("4-3 6-6 6-5 1-0 1-1 3-0 3-1", "4-4 4-2 0-0 5-0 5-5 2-2 2-0")
    st = trump_state(game(), "doubles", hands)
    act(st, "4-3")
    assert legal_names(st) == ["4-2"]


def test_doubles_trump_a_double_lead_calls_for_doubles():
    """002: 'When Doubles is named trump, all seven doubles form the trump suit.'"""
    hands = fill("3-3 6-5 6-4 1-0 2-1 3-0 3-1", "0-0 5-5 6-6 4-2 5-0 2-0 3-2")
    st = trump_state(game(), "doubles", hands)
    act(st, "3-3")
    assert sorted(legal_names(st)) == ["0-0", "5-5", "6-6"]


def test_followme_double_leads_its_number():
    """000: under No Trump 'every lead is just a double leading its own suit or a non-double
    leading its higher number'."""
    hands = fill("3-3 6-5 6-4 1-0 2-1 4-0 4-1", "3-0 3-1 6-6 5-5 5-0 2-0 2-2")
    st = trump_state(game(), "followme", hands)
    act(st, "3-3")
    assert sorted(legal_names(st)) == ["3-0", "3-1"]


# -- ranking tables --------------------------------------------------------------------------------

TRUMP_ORDER = {  # 002 "Trump's Tile Order", highest to lowest, verbatim
    "doubles": "6-6, 5-5, 4-4, 3-3, 2-2, 1-1, 0-0",
    6: "6-6, 6-5, 6-4, 6-3, 6-2, 6-1, 6-0",
    5: "5-5, 5-6, 5-4, 5-3, 5-2, 5-1, 5-0",
    4: "4-4, 4-6, 4-5, 4-3, 4-2, 4-1, 4-0",
    3: "3-3, 3-6, 3-5, 3-4, 3-2, 3-1, 3-0",
    2: "2-2, 2-6, 2-5, 2-4, 2-3, 2-1,2-0",
    1: "1-1, 1-6, 1-5, 1-4, 1-3, 1-2, 1-0",
    0: "0-0, 0-6, 0-5, 0-4, 0-3, 0-2, 0-1",
}


def _order(text: str) -> list[str]:
    return [norm(x.strip()) for x in text.split(",")]


@pytest.mark.parametrize("trump", list(TRUMP_ORDER), ids=_id)
def test_trump_tile_order(trump):
    """002 'Trump's Tile Order': the seven trumps rank exactly as listed."""
    st = trump_state(game(), trump)
    order = _order(TRUMP_ORDER[trump])
    ranks = [rank_of(st, trump, p) for p in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 7, list(zip(order, ranks))


@pytest.mark.parametrize("trump", list(TRUMP_ORDER), ids=_id)
def test_any_trump_beats_any_non_trump_whatever_is_led(trump):
    """000: trump 'outranks every domino of every other suit'; 004: 'Even the 6-6 loses to the
    lowly 3-0' (treys trump). Holds for every suit led."""
    st = trump_state(game(), trump)
    trumps = _order(TRUMP_ORDER[trump])
    others = [p for p in ALL_PIECES if p not in trumps]
    leds = list(range(7)) + (["doubles"] if trump == "doubles" else [])
    for led in leds:
        low_trump = min(rank_of(st, led, p) for p in trumps)
        high_other = max(rank_of(st, led, p) for p in others)
        assert low_trump > high_other, f"led {led}"
        # the trump order is the same whichever suit was led
        assert [rank_of(st, led, p) for p in trumps] == sorted(
            (rank_of(st, led, p) for p in trumps), reverse=True)


@pytest.mark.parametrize("led", range(7))
def test_followme_suit_order_double_highest(led):
    """002: no trump, 4-3 led: '4-4 is the highest, then the 4-6, 4-5, 4-3, 4-2, 4-1 and 4-0';
    000: under No Trump a double 'has nothing that could beat it'."""
    st = trump_state(game(), "followme")
    order = [f"{led}-{led}"] + [norm(f"{led}-{o}") for o in range(6, -1, -1) if o != led]
    ranks = [rank_of(st, led, p) for p in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 7, list(zip(order, ranks))
    outside = [p for p in ALL_PIECES if p not in order]
    assert max(rank_of(st, led, p) for p in outside) < min(ranks)


def test_doubles_trump_six_five_is_the_highest_six():
    """002: 'If the 6-5 is played, this is the highest domino of the 6 suit, not the 6-6'."""
    st = trump_state(game(), "doubles")
    sixes = ["6-5", "6-4", "6-3", "6-2", "6-1", "6-0"]
    ranks = [rank_of(st, 6, p) for p in sixes]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 6
    assert rank_of(st, 6, "6-6") > ranks[0]  # the 6-6 is trump, above the whole suit


def test_doubles_trump_fours_led_order():
    """002: doubles trump, 4-3 led: '4-6, 4-5, 4-3, 4-2, 4-1 and 4-0 from highest to lowest'."""
    st = trump_state(game(), "doubles")
    order = ["6-4", "5-4", "4-3", "4-2", "4-1", "4-0"]
    ranks = [rank_of(st, 4, p) for p in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 6


@pytest.mark.parametrize("trump", [0, 1, 2, 3, 4, 5, 6], ids=_id)
def test_non_trump_suit_order_under_a_trump(trump):
    """002: 'Doubles are always the highest domino of their suit'; 004 'Suits': after the double,
    the higher other end wins. Checked for each non-trump suit led."""
    st = trump_state(game(), trump)
    for led in range(7):
        if led == trump:
            continue
        order = [f"{led}-{led}"] + [norm(f"{led}-{o}") for o in range(6, -1, -1)
                                    if o not in (led, trump)]
        ranks = [rank_of(st, led, p) for p in order]
        assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(order), (
            led, list(zip(order, ranks)))
        # a piece that neither follows nor trumps ranks below every follower
        outside = [p for p in ALL_PIECES if p not in order and not is_trump(p, trump)]
        assert max(rank_of(st, led, p) for p in outside) < min(ranks)
