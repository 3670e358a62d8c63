"""Follow-suit and trick winners over random deals, against a reference written from the rule texts.

The reference below knows nothing of the ruleset: it is 000 "Playing a trick" (suit led,
follow-suit, highest trump else highest of the suit led), 002 "Rank of dominoes" (double highest,
then by the other end; doubles trump rank by face value), 001 / 004 for Nello (no trump, partner
out, highest of the led suit wins; doubles high, low or their own suit).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from .helpers import ALL_PIECES, TRUMPS, act, auction, ends, game, legal_names, play, trick_events
from support import examples


# -- reference: point and marks bids ------------------------------------------------------------

def is_trump(p, trump):
    h, lo = ends(p)
    if trump == "doubles":
        return h == lo
    if trump == "followme":
        return False
    return trump in (h, lo)


def led_suit(p, trump):
    return trump if is_trump(p, trump) else ends(p)[0]


def follows(p, led, trump):
    if led == trump:
        return is_trump(p, trump)
    return led in ends(p) and not is_trump(p, trump)


def in_suit_order(p, n):
    """Within suit n: the double highest, then by the other end (002 'Rank of dominoes')."""
    h, lo = ends(p)
    return 7 if h == lo else (lo if h == n else h)


def winner_42(plays, trump):
    led = led_suit(plays[0][1], trump)

    def key(p):
        if is_trump(p, trump):
            return (2, ends(p)[0] if trump == "doubles" else in_suit_order(p, trump))
        if follows(p, led, trump):
            return (1, in_suit_order(p, led))
        return (0, 0)

    best = max(range(len(plays)), key=lambda i: (key(plays[i][1]), -i))
    return plays[best][0]


# -- reference: nello ---------------------------------------------------------------------------

def n_led(p, nd):
    h, lo = ends(p)
    return "doubles" if (nd == "suit" and h == lo) else h


def n_follows(p, led, nd):
    h, lo = ends(p)
    dbl = nd == "suit" and h == lo
    if led == "doubles":
        return dbl
    return led in (h, lo) and not dbl


def n_winner(plays, nd):
    led = n_led(plays[0][1], nd)

    def key(p):
        if not n_follows(p, led, nd):
            return (0, 0)
        h, lo = ends(p)
        if led == "doubles":
            return (1, h)
        if h == lo:
            return (1, 7 if nd == "high" else -1)
        return (1, lo if h == led else h)

    best = max(range(len(plays)), key=lambda i: (key(plays[i][1]), -i))
    return plays[best][0]


def random_hands(rng):
    pieces = list(ALL_PIECES)
    rng.shuffle(pieces)
    return [pieces[i * 7:(i + 1) * 7] for i in range(4)]


def drive(st, hands, rng, legal_ref, winner_ref):
    held = [set(h) for h in hands]
    n = 0
    trick = []
    while not st.is_terminal():
        seat = st.current_player()
        want = legal_ref(held[seat], trick)
        assert set(legal_names(st)) == want, (seat, trick, sorted(held[seat]))
        p = rng.choice(sorted(want))
        held[seat].discard(p)
        trick.append((seat, p))
        act(st, p)
        evs = trick_events(st)
        if len(evs) > n:
            n = len(evs)
            assert [tuple(x) for x in evs[-1]["plays"]] == trick
            assert evs[-1]["winner"] == winner_ref(trick), trick
            trick = []
            if not st.is_terminal():
                assert st.current_player() == evs[-1]["winner"]  # 000: the winner leads next
    return st


@settings(max_examples=examples(150), deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 10**9), trump=st_.sampled_from(TRUMPS), bidder=st_.integers(0, 3),
       marks=st_.booleans())
def test_42_follow_suit_and_winners(seed, trump, bidder, marks):
    """000 'Playing a trick' and 002 'Rank of dominoes' on random deals under every trump."""
    rng = random.Random(seed)
    hands = random_hands(rng)
    dealer = (bidder - 1) % 4
    contract = "84" if marks else "30"
    st = play(game(), hands, dealer, auction(contract, bidder, dealer) + [f"trump {trump}"],
              record=True)

    def legal_ref(hand, trick):
        if not trick:
            return set(hand)
        led = led_suit(trick[0][1], trump)
        f = {p for p in hand if follows(p, led, trump)}
        return f or set(hand)

    drive(st, hands, rng, legal_ref, lambda t: winner_42(t, trump))


@settings(max_examples=examples(150), deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 10**9), nd=st_.sampled_from(["high", "low", "suit"]),
       bidder=st_.integers(0, 3))
def test_nello_follow_suit_and_winners(seed, nd, bidder):
    """001 / 004 Nello on random deals: three players, must follow, highest of the led suit wins,
    doubles per the nello_doubles house rule; set the moment the bidder takes a trick."""
    rng = random.Random(seed)
    hands = random_hands(rng)
    dealer = (bidder - 1) % 4
    st = play(game(nello_doubles=nd), hands, dealer, auction("nello 1", bidder, dealer),
              record=True)

    def legal_ref(hand, trick):
        if not trick:
            return set(hand)
        led = n_led(trick[0][1], nd)
        f = {p for p in hand if n_follows(p, led, nd)}
        return f or set(hand)

    drive(st, hands, rng, legal_ref, lambda t: n_winner(t, nd))
    evs = trick_events(st)
    partner = (bidder + 2) % 4
    assert all(partner not in [s for s, _ in e["plays"]] for e in evs)
    took = [e["winner"] == bidder for e in evs]
    if any(took):
        assert took.index(True) == len(evs) - 1  # over at the first trick the bidder takes
        assert st.made is False and st.score[1 - bidder % 2] == 1
    else:
        assert len(evs) == 7 and st.made is True and st.score[bidder % 2] == 1
