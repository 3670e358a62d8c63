"""Hand-written optimised Taroky player: ONE hand, every seat playing the `taroky` rules strategy.

The baseline of the batch engine's rules-agent target on `taroky`: rulesets/taroky.yaml with its
defaults, every seat choosing as rulesets/strategies/taroky.yaml does with its default flags
(`bold_prever` off), written by hand on the rules, the card ids (0..53), the action codes and
the tables of handwritten_taroky.py (hands are 54-bit masks). It does not import tablerules
(only --check and the timing beside the step engine do).

The strategy, as the rules agent reads it (agents/strategy.py: the section by the kinds of the
legal actions, its rules in order, a rule's `only` keeping the legal actions in their order
(ascending ids), `choose` the first of the highest key, no `choose` the first it keeps, no rule
applying the first legal action; a decision with one legal action is taken, no rule asked).
The names, for a seat in Taroky: `hand` the cards it holds now (the talon's among them once
taken); a card's `count` its points (the Trul and Kings 5, Queens 4, Riders 3, Jacks 2, else
1), `rank` its attribute: its place in its suit, 1..8 (red pips reversed: 4 lowest), or among
the taroky, I 1 .. Skyz 22 (not the trick rank); `trump` a tarok; `trul` the I, XXI or Skyz;
`trick` this trick's cards, `leading` none yet; `rank(t)` the trick rank under the suit led
(a tarok 9 + rank, a card of the suit led its rank, any other 0); `winning` the seat that
played the trick's highest-ranked card (the first of equals; never -1 when following: the
ruleset has trick tables for every declaration); `beats(t)` rank(t) above that card's;
`played_by(t)` who played a card (-1: not played, laid away too); `contract` 'game' or
'prever'; `bidder` the povinnost or the prever; `call` the called face, `card('tarok', call)`
its card. The values: my_taroky = the taroky in hand; strong = my_taroky >= 10 (bold_prever
off); partner_seat = -1 in a prever; in a game, for the bidder the seat that played the
called card (-1 before, and for good when it was laid away; itself when it played it, which
never wins a trick it has still to play to), for another seat the bidder when it holds or
played the called card, else -1; trick_points = the trick's count so far.
  * prever_when_strong (bid; offered pass or prever, only to the three after the povinnost
    while no prever stands): prever when strong on the dealt hand, else pass.
  * call_a_partner (the povinnost holding the XIX, offered the XIX and the next call down):
    that call, or the XIX when strong (the twelve cards before the talon).
  * first_half (a prever): the first three of the talon.
  * pagat_when_long (the holder of the I, after the talon): back with eleven taroky or more.
  * contra_when_strong: contra (a seat without the called card, any opponent of a prever)
    and the bidder's re-contra with ten taroky or more.
  * otherwise_quiet: silent, no.
  * lay_away_counters: each card laid away (one decision each) the highest count * 10 -
    100 * trump - rank of those that may go: Queens, Riders, Jacks, then the lowest pips, the
    lowest id on ties; among one-point taroky (only when no suit card may go) the lowest.
  * draw_taroky: leading with seven taroky or more, the highest tarok.
  * lead_low: leading, the highest -10 * count - rank - 50 * trump: the cheapest suit card
    (every suit card keys above every tarok), from taroky alone the lowest, the Trul last.
  * count_to_partner: following, partner_seat >= 0 and winning == partner_seat: of the legal
    cards that do not beat the trick and are not of the Trul, the highest 10 * count - rank.
  * take_points: following, trick_points >= 4: of the legal cards that beat the trick, the
    highest -rank(t) - 20 * count (the cheapest winner, counting cards last).
  * throw_cheap: following, the highest -10 * count - rank(t) - 200 * trul.

How it is fast (the optimised baseline the batch engine is measured against): every decision
reads masks and tables, nothing is built per decision. Who knows whom as its partner is one
list (`mate`): the holder of the called card knows the bidder from the first lead, the bidder
learns the holder when the card falls. A rule's `only` is a mask (the trick's BEATS[led][best],
QUIET: neither beating nor of the Trul), and its `choose` over a mask is a look-up or two in
tables made at import, each holding for every set of its cards the best card coded as (key +
OFF) * 64 + 63 - card (so the larger code is the higher key, ties to the lower card): the suit
led's byte gives the card itself (a follow in suit is one look-up), the taroky are two 11-bit
halves, the suit cards two 16-bit halves (leads, the lay-away, discards). The count and the
chips are handwritten_taroky's, the game's payments made once per side, result and stake.

Run `python benchmarks/handwritten_taroky_rules.py --check 2000 [--seed S]` to compare every
action and result with the step engine's rules agent, `--hands N [--repeat R]` to time it beside
the step engine with the rules agent (N // 20 of the same deals).
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from handwritten_taroky import (  # noqa: E402
    BID_GAME, BID_PREVER, BIT, BURY, CALL, CONTRA, COUNT, HALF_FIRST, I, NC, NEXT,
    ONE_POINT_TAROKY, PAGAT, RECONTRA, SCORE, SUITS_NO_KINGS, SUIT_OF, TAROKY, TRUL, XIX,
    HandResult, action_str, hand_result, holder, make_deals, povinnost, settle)

# ---------------------------------------------------------------------------------------------
# the cards as the strategy reads them, and its keys

RANK = tuple((p & 7) + 1 if p < 32 else p - 31 for p in range(NC))  # t.rank
IS_TRUMP = tuple(p >= 32 for p in range(NC))  # t.trump
IS_TRUL = tuple(TRUL >> p & 1 == 1 for p in range(NC))  # t.trul
SUITS = (1 << 32) - 1
LEDS = range(5)  # the suit led: the four suits, TAROK; SCORE[led][p] is rank(t) then

BURY_KEY = [COUNT[p] * 10 - (100 if IS_TRUMP[p] else 0) - RANK[p] for p in range(NC)]
LEAD_LOW_KEY = [-COUNT[p] * 10 - RANK[p] - (50 if IS_TRUMP[p] else 0) for p in range(NC)]
COUNT_TO_PARTNER_KEY = [COUNT[p] * 10 - RANK[p] for p in range(NC)]
TAKE_KEY = [[-SCORE[led][p] - COUNT[p] * 20 for p in range(NC)] for led in LEDS]
THROW_KEY = [[-COUNT[p] * 10 - SCORE[led][p] - (200 if IS_TRUL[p] else 0) for p in range(NC)]
             for led in LEDS]
# draw_taroky's key is the tarok's rank: the highest tarok is the hand's highest card id

OFF = 1000  # keeps every code positive (the lowest key is -281); 0 is "no card"
_SHARED: dict = {}


def _codes(key, base: int, width: int) -> list:
    """For every set x of the cards base .. base + width - 1 (a mask of `width` bits): the
    best card's code (key + OFF) * 64 + 63 - card, the lowest card on equal keys; 0: none.
    Equal codes are one int object, which keeps the tables small in the cache."""
    t = [0] * (1 << width)
    shared = _SHARED.setdefault
    for x in range(1, 1 << width):
        low = x & -x
        p = base + low.bit_length() - 1
        code = (key[p] + OFF) * 64 + 63 - p
        r = t[x ^ low]  # the higher cards of x: p wins an equal key
        t[x] = shared(code, code) if code >= r else r
    return t


def _suits_tables(key) -> tuple:
    """The code tables of the red (cards 0..15) and the black (16..31) suits' 16 bits."""
    return _codes(key, 0, 16), _codes(key, 16, 16)


def _taroky_tables(key) -> tuple:
    """The code tables of the taroky's low (I..XI) and high (XII..Skyz) 11 bits."""
    return _codes(key, 32, 11), _codes(key, 43, 11)


def _byte_cards(key, suit: int) -> list:
    """For every set x of one suit's eight cards (a byte): the card of the highest key."""
    return [63 - (c & 63) for c in _codes(key, 8 * suit, 8)]


def _above(key, high, low) -> bool:
    """Whether every card of mask `high` keys above every card of mask `low`."""
    return (min(key[p] for p in range(NC) if high >> p & 1)
            > max(key[p] for p in range(NC) if low >> p & 1))


# lay_away_counters: the cards that may go are the suit cards (no King) or else the one-point
# taroky, never both: one table pair for each
BURY_RED, BURY_BLACK = _suits_tables(BURY_KEY)
BURY_TLO, BURY_THI = _taroky_tables(BURY_KEY)
# lead_low: every suit card keys above every tarok, so a hand with suit cards leads one
if not _above(LEAD_LOW_KEY, SUITS, TAROKY):
    raise AssertionError("lead_low: a tarok keys above a suit card")
LEAD_LOW_SUITS = _suits_tables(LEAD_LOW_KEY)
LEAD_LOW_TAROKY = _taroky_tables(LEAD_LOW_KEY)
# following, the legal cards are the suit led's (a byte), or the taroky, or else the other
# suits' cards (discards, whose rank(t) is 0 whatever the suit led)
CTP_SUIT = [_byte_cards(COUNT_TO_PARTNER_KEY, s) for s in range(4)]
CTP_TAROKY = _taroky_tables(COUNT_TO_PARTNER_KEY)
CTP_DISCARD = _suits_tables(COUNT_TO_PARTNER_KEY)
TAKE_SUIT = [_byte_cards(TAKE_KEY[s], s) for s in range(4)]
TAKE_TAROKY = [_taroky_tables(TAKE_KEY[led]) for led in LEDS]  # no discard beats a trick
THROW_SUIT = [_byte_cards(THROW_KEY[s], s) for s in range(4)]
THROW_TAROKY = [_taroky_tables(THROW_KEY[led]) for led in LEDS]
# throw_cheap's key of a card neither of the suit led nor a tarok (its rank(t) 0)
DISCARD_THROW_KEY = [-COUNT[p] * 10 - (200 if IS_TRUL[p] else 0) for p in range(NC)]
if any(THROW_KEY[led][p] != DISCARD_THROW_KEY[p] for led in LEDS for p in range(32)
       if SUIT_OF[p] != led):
    raise AssertionError("throw_cheap: a discard's key depends on the suit led")
THROW_DISCARD = _suits_tables(DISCARD_THROW_KEY)

# the cards that beat a trick led in `led` whose best card ranks `best` (beats(t)), and those
# that do not, less the Trul (count_to_partner's `only`)
BEATS = [[sum(BIT[p] for p in range(NC) if SCORE[led][p] > best) for best in range(32)]
         for led in LEDS]
QUIET = [[((1 << NC) - 1) & ~BEATS[led][best] & ~TRUL for best in range(32)] for led in LEDS]
FOLLOW = (0xFF, 0xFF << 8, 0xFF << 16, 0xFF << 24, TAROKY)  # the cards of the suit led
# by the suit led: what a trick reads (shift -1: the taroky, not a byte)
LED = [(FOLLOW[led], 8 * led if led < 4 else -1, SCORE[led], BEATS[led], QUIET[led],
        CTP_SUIT[led] if led < 4 else None, TAKE_SUIT[led] if led < 4 else None,
        THROW_SUIT[led] if led < 4 else None, TAKE_TAROKY[led], THROW_TAROKY[led])
       for led in LEDS]


def _suits_best(m: int, t: tuple) -> int:
    """The suit card of mask m (cards 0..31 only) of the highest key in tables t, the lowest
    card on ties."""
    a = t[0][m & 0xFFFF]
    b = t[1][m >> 16]
    return 63 - ((a if a > b else b) & 63)


def _lay_away(h: int) -> int:
    """lay_away_counters: the card of the highest key among those the hand may lay away."""
    m = h & SUITS_NO_KINGS
    if m:
        a = BURY_RED[m & 0xFFFF]
        b = BURY_BLACK[m >> 16]
    else:
        m = (h & ONE_POINT_TAROKY) >> 32
        a = BURY_TLO[m & 2047]
        b = BURY_THI[m >> 11]
    return 63 - ((a if a > b else b) & 63)


def _lay_away_all(h: int, k: int, say) -> tuple[int, int]:
    """The bidder lays k cards away, one decision each: the hand left and their count."""
    lost = 0
    for _ in range(k):
        p = _lay_away(h)
        h ^= BIT[p]
        lost += COUNT[p]
        if say:
            say(action_str(BURY + p))
    return h, lost


# ---------------------------------------------------------------------------------------------
# one hand


def play_hand(deal, dealer: int, log=None) -> HandResult:
    """Play one hand; `deal` is handwritten_taroky's (4 hands of 12 card ids, then the talon
    of 6 in drawing order). If `log` is a list, every action taken is appended by its step
    engine name."""
    say = log.append if log is not None else None
    bit = BIT
    count = COUNT
    nxt = NEXT
    card = bit.__getitem__  # the cards are distinct: their bits' sum is the mask
    hands = [sum(map(card, deal[0])), sum(map(card, deal[1])), sum(map(card, deal[2])),
             sum(map(card, deal[3]))]
    talon = deal[4]

    turn = povinnost(hands, dealer)

    # the auction: prever_when_strong for the three others (the first prever has it; a later
    # seat may only pass), then the povinnost (pass after a prever, else the forced game)
    bidder = -1
    s = nxt[turn]
    for _ in (0, 1, 2):
        if bidder < 0 and (hands[s] >> 32).bit_count() >= 10:
            bidder = s
            if say:
                say(action_str(BID_PREVER))
        elif say:
            say("pass")
        s = nxt[s]
    laid = [0, 0, 0, 0]
    left = 0
    mate = [-1, -1, -1, -1]  # partner_seat by seat, as count_to_partner reads it (-1)
    reveal = -1  # the seat the bidder learns is its partner when the called card falls
    if bidder < 0:
        prever = second = False
        bidder = turn
        h = hands[bidder]
        a = CALL  # call_a_partner: the XIX, or the next call down unless strong
        if h >> XIX & 1:
            r = (~h >> 32 & 0x3FFFF).bit_length()  # the highest rank I..XVIII not held
            if r >= 2 and (h >> 32).bit_count() < 10:
                a = CALL + 19 - r
        called = XIX - (a - CALL)
        if say:
            say(action_str(BID_GAME))
            say(action_str(a))
        # the talon: four to the povinnost, one each to the next two that are not the dealer
        hands[bidder], laid[bidder] = _lay_away_all(
            h | bit[talon[0]] | bit[talon[1]] | bit[talon[2]] | bit[talon[3]], 4, say)
        s = bidder
        for t in (talon[4], talon[5]):
            s = nxt[s]
            if s == dealer:
                s = nxt[s]
            h = hands[s] | bit[t]
            p = _lay_away(h)
            hands[s] = h ^ bit[p]
            laid[s] = count[p]
            if say:
                say(action_str(BURY + p))
    else:
        prever = True
        called = -1
        second = False  # first_half
        if say:
            say("pass")  # the povinnost, after a prever
            say(action_str(HALF_FIRST))
        left = count[talon[3]] + count[talon[4]] + count[talon[5]]
        hands[bidder], laid[bidder] = _lay_away_all(
            hands[bidder] | bit[talon[0]] | bit[talon[1]] | bit[talon[2]], 3, say)

    # Pagat to the back (pagat_when_long), each seat from the bidder; then contra and re-contra
    # (contra_when_strong); else silent, no
    pagat = -1
    s = bidder
    for k in (0, 1, 2, 3):
        h = hands[s]
        back = h >> I & 1 and (h >> 32).bit_count() >= 11
        if back:
            pagat = s
        if say:
            say(action_str(PAGAT + 2 * k + (1 if back else 0)))
        s = nxt[s]
    doubling = 1
    s = nxt[bidder]
    for k in (0, 1, 2):
        h = hands[s]
        if (prever or not h >> called & 1) and (h >> 32).bit_count() >= 10:
            re = (hands[bidder] >> 32).bit_count() >= 10
            doubling = 4 if re else 2
            if say:
                say(action_str(CONTRA + 2 * k + 1))
                say(action_str(RECONTRA + (1 if re else 0)))
            break
        if say:
            say(action_str(CONTRA + 2 * k))
        s = nxt[s]

    # the sides and the holdings, on the hands at the first lead (every card is played)
    partner = -1 if prever else holder(hands, called)
    if partner >= 0 and partner != bidder:
        mate[partner] = bidder  # it knows from its own hand
        reveal = partner
    held = (hands[0], hands[1], hands[2], hands[3])

    # twelve tricks
    points = [0, 0, 0, 0]
    leader = nxt[dealer]
    home = False
    ll_red, ll_black = LEAD_LOW_SUITS
    ll_tlo, ll_thi = LEAD_LOW_TAROKY
    ctp_tlo, ctp_thi = CTP_TAROKY
    for trick in range(12):
        if trick == 11 and pagat >= 0:
            home = hands[pagat] == bit[I]  # the I is the holder's last card
        s = leader
        h = hands[s]
        x = h >> 32
        if not h & (h - 1) or x.bit_count() >= 7:
            a = h.bit_length() - 1  # the only card; draw_taroky: the highest tarok
        elif h & SUITS:  # lead_low: a suit card, as every one keys above the taroky
            u = ll_red[h & 0xFFFF]
            v = ll_black[h >> 16 & 0xFFFF]
            a = 63 - ((u if u > v else v) & 63)
        else:
            u = ll_tlo[x & 2047]
            v = ll_thi[x >> 11]
            a = 63 - ((u if u > v else v) & 63)
        if say:
            say(action_str(a))
        hands[s] = h ^ bit[a]
        if a == called:
            mate[bidder] = reveal
        led = SUIT_OF[a]
        follow, shift, sc, beats, quiet, ctp_s, take_s, throw_s, take_t, throw_t = LED[led]
        best = sc[a]
        winner = s
        pts = count[a]
        for _ in (0, 1, 2):
            s = nxt[s]
            h = hands[s]
            m = h & follow
            if m and shift >= 0:  # the suit led's cards, a byte
                if not m & (m - 1):
                    a = m.bit_length() - 1
                else:
                    a = -1
                    if winner == mate[s]:  # count_to_partner
                        c = m & quiet[best]
                        if c:
                            a = ctp_s[c >> shift]
                    if a < 0 and pts >= 4:  # take_points
                        c = m & beats[best]
                        if c:
                            a = take_s[c >> shift]
                    if a < 0:  # throw_cheap
                        a = throw_s[m >> shift]
            elif m or h & TAROKY:  # taroky
                x = h >> 32
                if not x & (x - 1):
                    a = x.bit_length() + 31
                else:
                    a = -1
                    if winner == mate[s]:
                        c = x & quiet[best] >> 32
                        if c:
                            u = ctp_tlo[c & 2047]
                            v = ctp_thi[c >> 11]
                            a = 63 - ((u if u > v else v) & 63)
                    if a < 0 and pts >= 4:
                        c = x & beats[best] >> 32
                        if c:
                            u = take_t[0][c & 2047]
                            v = take_t[1][c >> 11]
                            a = 63 - ((u if u > v else v) & 63)
                    if a < 0:
                        u = throw_t[0][x & 2047]
                        v = throw_t[1][x >> 11]
                        a = 63 - ((u if u > v else v) & 63)
            elif not h & (h - 1):  # the other suits' cards: none beats the trick
                a = h.bit_length() - 1
            else:
                a = -1
                if winner == mate[s]:
                    a = _suits_best(h, CTP_DISCARD)  # every discard is quiet
                if a < 0:
                    a = _suits_best(h, THROW_DISCARD)
            if say:
                say(action_str(a))
            hands[s] = h ^ bit[a]
            if a == called:
                mate[bidder] = reveal
            pts += count[a]
            if sc[a] > best:
                best = sc[a]
                winner = s
        points[winner] += pts
        leader = winner
    home = home and leader == pagat
    return settle(prever, second, bidder, partner, called, points, laid, left, held, doubling,
                  pagat, home)


def play_hands(deals, dealers) -> list:
    return [play_hand(d, dl) for d, dl in zip(deals, dealers)]


# ---------------------------------------------------------------------------------------------
# the check against the step engine's rules agent, and the timing


def main(argv=None) -> int:
    """--check N: every action's name and the hand_result() of N deals against the step
    engine's rules agent; --hands N: timed beside it (harness.rules_player_main)."""
    import harness

    return harness.rules_player_main(argv, __doc__, "taroky", play_hand, make_deals,
                                     lambda r, s: (hand_result(r), s), "the result")


if __name__ == "__main__":
    sys.exit(main())
