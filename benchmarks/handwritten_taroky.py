"""Hand-written optimised engine: ONE hand of Taroky (four players, 54 cards, a talon), random play.

The comparison baseline for the batch engine on `taroky` (bench_batch_cards.py) and for the
step engine. It does not import tablerules (only the --check differential test does). Cards are
ints 0..53 in the interpreter's order (hearts, diamonds, spades, clubs: eight each, lowest
first; then the taroky I..XXI and the Skyz, 32..53), hands are 54-bit masks, the legal actions
of a mask come from tables of action tuples (16 bits of suits at a time, 11 bits of taroky at a
time, one 8-bit suit for following), and the trick strength, card points and the masks of the
suits, the lay-away classes and the holdings are tables built once at import.

Rules (rulesets/taroky.yaml with its defaults, extending rulesets/lib/tarot.yaml; rule text
004, the Taroky part; the line numbers are the ruleset's):
  * the tarot pack (tarot.yaml 22-42): 22 taroky, trumps I..XXI and the Skyz, and 32 suit
    cards; red pips reversed (4 lowest, the Ace above the 2). Card points (tarot.yaml 35-39):
    the Trul (I, XXI, Skyz) and the Kings 5, Queens 4, Riders 3, Jacks 2, else 1: 106.
  * 12 cards to each of four seats and a talon of 6 (96-99); play, the auction and the deal go
    round counter-clockwise: next(s) = s - 1 mod 4 (94). The povinnost (the `turn`, 103-105):
    a single hand from new_hand is the match's first, so whoever was dealt the II, or the
    player after the dealer when the II lies in the talon (two_in_talon after_dealer, 41-45).
  * the auction (241-251, 253-262, 320-329): from the seat after the povinnost, each other seat
    says pass or prever while no prever stands (beats: "high.rank < 0", so only the first
    prever bids; the later seats may only pass); the povinnost speaks last: pass after a
    prever, else it must bid game (`forced`), so the hand is never thrown in.
  * game, the povinnost with a partner: it calls a tarok (267-270): the XIX, or, holding the
    XIX, the highest tarok from the XVIII down that it lacks (next_call, 161-163); then it
    takes the talon's first four and lays four away one at a time (301-310, takes_four even
    as the dealer, 46-50), then the next two seats that are not the dealer (taker_after, 152)
    take the fifth and the sixth card and lay one away each. The partner is whoever plays the
    called card (on_contract, 167-168): nobody when it was laid away, the povinnost itself
    when it holds it (the XIX it called, or a card it took from the talon).
  * prever, alone against three (320-341): it says the half, `first` or `second` (332), takes
    those three, lays three away; the other three count against it (stock_left, 177-179).
  * laying away (153-157): never a King nor one of the Trul (lay_away_trul false, 61-64), and a
    one-point tarok only when nothing else may go: the legal cards are the hand's suit cards
    other than Kings, else its taroky II..XX.
  * announcements (271-299), in the declarations' order after the talon: Pagat to the back,
    each seat asked from the bidder round (only the holder of the I may say back), then contra
    from the seat after the bidder until one says it (only a seat without the called card, and
    any opponent of a prever), then the bidder's re-contra when a contra was said.
  * play (311-317): the player after the dealer leads; follow suit, else play a tarok, else
    anything; the highest tarok takes the trick, else the highest card of the suit led
    (tarot_rank, tarot.yaml 53-54); all twelve tricks; the trick's points to its taker.
  * the count (171-190), Texas: each seat counts its tricks' points and what it laid away; the
    contract wins with 54 or more of 106. owed() (204-210): ((53 - losers' points + 10) * 2,
    trebled for a prever (won_and_lost, 51-55), + 5) // 10 chips, doubled for a prever's
    second half when it loses (second_half by_counting, 56-60), doubled by contra, again by
    re-contra. Each loser pays one winner in seat order when the sides are two and two, else
    every loser pays every winner (game_chips, 211-217); the hand's score per seat is its game
    chips won less lost (345).
  * holdings (219-233, 356-374), on the hand held at the first lead (holdings after_exchange,
    65-69): ten or more taroky 4, eight or nine 2, two or fewer 2, the Trul 4, the four Kings 4,
    four of the seven five-point cards 2, each paid by each of the other three; Pagat to the
    back (235-239, 377-379): 4 chips from each of the others when the I takes the last trick
    for its holder, else 4 to each of them. The payments are listed in the ruleset's order of
    `pays`, then by payer, then by payee, as State.hand_result() lists them.

Actions are the interpreter's action ids, offered in its order (ascending ids), so the same
random.Random stream plays the same game in both engines: a play is the card id; PASS 54; BID
62 game, 63 prever; CALL 64 + k for the k-th of XIX, XVIII, ..., II; HALF 82 first, 83
second; pagat, pagat_2, pagat_3, pagat_4: 84 + 2k silent, 85 + 2k back; contra, contra_2,
contra_3: 92 + 2k no, 93 + 2k contra; recontra 98 no, 99 recontra; BURY 105 + card. Every
decision is drawn with rng.choice, a single legal action too, as the step engine's harness
loop does.

Only the defaults: the other options (counting=czech, redeal, takes_none, ...) are not played.

Run `python benchmarks/handwritten_taroky.py --check 2000` for the differential check in lock
step against the tablerules step engine (`game.new_hand(deal, dealer)`, the same deal and
dealer, one random.Random(seed) drawing `choice` from the step engine's legal actions): at every
decision the same action ids in the same order (and the names once), then the same
State.hand_result() (contract, bidder, forced, made, points and scores per seat, every payment);
the N deals with random play, half of them again with every seat passing (a game each hand: the
call, the partner, the talon's shares), and a few deals made for the rare paths (taroky laid
away, the called card in the talon). Exit status 1 on any disagreement (2 without tablerules).
`--bench 2000` times this engine and the step engine on the same deals, interleaved, best of
`--repeat`, and checks that they play the same games; `--hands 20000` times this engine alone.
"""

from __future__ import annotations

import os
import random
import sys
from typing import NamedTuple

# ---------------------------------------------------------------------------------------------
# cards and tables

NC = 54
SUIT_MARKS = ("♥", "♦", "♠", "♣")
RED_FACES = ("4", "3", "2", "A", "J", "R", "Q", "K")  # reversed pips (red_pips: reversed)
BLACK_FACES = ("7", "8", "9", "10", "J", "R", "Q", "K")
TAROK_FACES = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
               "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "Skyz")
NAMES = tuple([(RED_FACES if s < 2 else BLACK_FACES)[f] + SUIT_MARKS[s]
               for s in range(4) for f in range(8)] + list(TAROK_FACES))
TAROK = 4  # the suit code of the taroky; the suits are 0..3
SUIT_OF = tuple(p >> 3 if p < 32 else TAROK for p in range(NC))
I, II, XIX = 32, 33, 50  # card ids
COUNT = tuple((1, 1, 1, 1, 2, 3, 4, 5)[p & 7] if p < 32 else
              (5 if p in (32, 52, 53) else 1) for p in range(NC))
BIT = tuple(1 << p for p in range(NC))

TAROKY = ((1 << 22) - 1) << 32
KINGS = BIT[7] | BIT[15] | BIT[23] | BIT[31]
TRUL = BIT[32] | BIT[52] | BIT[53]
FIVES = KINGS | TRUL
SUITS_NO_KINGS = ((1 << 32) - 1) ^ KINGS  # may be laid away
ONE_POINT_TAROKY = TAROKY ^ TRUL  # II..XX: laid away only when nothing else may go

# trick strength by the suit led: a tarok trump_top (9) + rank, a card of the suit led its
# rank, any other 0 (tarot_rank)
SCORE = tuple(tuple(9 + p - 31 if p >= 32 else ((p & 7) + 1 if p >> 3 == led else 0)
                    for p in range(NC)) for led in range(5))

# the options this engine plays: the defaults (rulesets/taroky.yaml 18-74, tarot.yaml 15-20);
# `hands`, `stake` and `below_zero` change the match, not a single hand's play or result
DEFAULT_OPTIONS = {"counting": "texas", "two_in_talon": "after_dealer",
                   "dealer_povinnost": "takes_four", "prever_treble": "won_and_lost",
                   "second_half": "by_counting", "lay_away_trul": "false",
                   "holdings": "after_exchange", "short_group": "nearest", "red_pips": "reversed"}
MATCH_OPTIONS = ("hands", "stake", "below_zero")


def unsupported_options(options: dict) -> list:
    """The given options (NAME -> VALUE, as strings) that this engine does not play."""
    return [f"{k}={v}" for k, v in options.items()
            if k not in MATCH_OPTIONS and DEFAULT_OPTIONS.get(k) != str(v).lower()]


PASS = 54
BID_GAME, BID_PREVER = 62, 63
CALL = 64  # + k, k = 19 - rank of the called tarok (XIX 0 .. II 17)
HALF_FIRST, HALF_SECOND = 82, 83
PAGAT = 84  # + 2k silent, + 2k + 1 back (k = 0..3: pagat, pagat_2, ...)
CONTRA = 92  # + 2k no, + 2k + 1 contra (k = 0..2)
RECONTRA = 98  # no; 99 recontra
BURY = 105  # + card

NEXT = (3, 0, 1, 2)  # counter-clockwise

OFFER_PASS = (PASS,)
OFFER_PREVER = (PASS, BID_PREVER)
OFFER_GAME = (BID_GAME,)
OFFER_HALF = (HALF_FIRST, HALF_SECOND)
OFFER_CALL_XIX = (CALL,)
# holding the XIX: the XIX, or the next call (rank r, 2..18) down from it
OFFER_CALL = tuple((CALL, CALL + 19 - r) if r >= 2 else (CALL,) for r in range(19))
OFFER_PAGAT = tuple((PAGAT + 2 * k,) for k in range(4))
OFFER_PAGAT_BACK = tuple((PAGAT + 2 * k, PAGAT + 2 * k + 1) for k in range(4))
OFFER_CONTRA_NO = tuple((CONTRA + 2 * k,) for k in range(3))
OFFER_CONTRA = tuple((CONTRA + 2 * k, CONTRA + 2 * k + 1) for k in range(3))
OFFER_RECONTRA = (RECONTRA, RECONTRA + 1)


def _bits_table(nbits: int, base: int):
    return [tuple(base + i for i in range(nbits) if m >> i & 1) for m in range(1 << nbits)]


def _tables(base: int):
    """Action tuples (base + card, ascending) of the set bits of: each suit's 8 bits, the red
    and the black 16 bits, the taroky's low and high 11 bits."""
    s8 = [_bits_table(8, base + 8 * s) for s in range(4)]
    red = [a + b for b in s8[1] for a in s8[0]]  # index lo | hi << 8
    black = [a + b for b in s8[3] for a in s8[2]]
    return s8, red, black, _bits_table(11, base + 32), _bits_table(11, base + 43)


PLAY_S8, PLAY_RED, PLAY_BLACK, PLAY_TLO, PLAY_THI = _tables(0)
_, BURY_RED, BURY_BLACK, BURY_TLO, BURY_THI = _tables(BURY)
POPCOUNT = int.bit_count

# the holdings paid by each of the other three, in the ruleset's `pays` order (the Czech ones
# are 0 in the Texas count); then Pagat to the back
PAY_KEYS = ("game", "big_ones", "little_ones", "bita", "trul", "kings", "honery", "pagat")
GAME, BIG_ONES, LITTLE_ONES, BITA, TRUL_K, KINGS_K, HONERY, PAGAT_K = range(8)
HOLDING_CHIPS = (0, 4, 2, 2, 4, 4, 2)
PAGAT_CHIPS = 4
# by the number of taroky held: big ones (10+), little ones (8, 9), bita (2 or fewer)
TAROKY_HOLDING = tuple(BIG_ONES if n >= 10 else LITTLE_ONES if n >= 8 else BITA if n <= 2 else 0
                       for n in range(23))


def _game_pays(side: int, made: bool):
    """The game's payments (payer, payee) in hand_result()'s order, and each seat's sign, for
    the contract's side (a mask of seats) made or not (game_chips, won_hand, place_in)."""
    won = [bool(side >> s & 1) == made for s in range(4)]
    winners = [s for s in range(4) if won[s]]
    losers = [s for s in range(4) if not won[s]]
    if len(winners) == 2:  # two and two: each loser pays one winner, in seat order
        pairs = sorted(zip(losers, winners))
    else:
        pairs = [(x, y) for x in losers for y in winners]
    signs = [sum(y == s for _, y in pairs) - sum(x == s for x, _ in pairs) for s in range(4)]
    return tuple(pairs), tuple(signs)


GAME_PAYS = [(_game_pays(side, False), _game_pays(side, True)) if side else None
             for side in range(16)]
# HOLDING_PAYS[kind][holders]: every other seat pays each holder, by payer, then payee
HOLDING_PAYS = [[tuple((x, y, HOLDING_CHIPS[k], k) for x in range(4) for y in range(4)
                       if holders >> y & 1 and x != y) for holders in range(16)]
                for k in range(7)]
# PAGAT_PAYS[home][holder]: paid by each of the others, or to each of them
PAGAT_PAYS = (tuple(tuple((h, x, PAGAT_CHIPS, PAGAT_K) for x in range(4) if x != h)
                    for h in range(4)),
              tuple(tuple((x, h, PAGAT_CHIPS, PAGAT_K) for x in range(4) if x != h)
                    for h in range(4)))


def action_str(a: int) -> str:
    """The interpreter's names: "K♥", "pass", "bid game", "call XVIII", "half second",
    "pagat_2 back", "contra_3 no", "recontra recontra", "bury 9♣"."""
    if a < NC:
        return NAMES[a]
    if a == PASS:
        return "pass"
    if a < CALL:
        return "bid game" if a == BID_GAME else "bid prever"
    if a < HALF_FIRST:
        return f"call {TAROK_FACES[18 - (a - CALL)]}"
    if a < PAGAT:
        return "half first" if a == HALF_FIRST else "half second"
    if a < CONTRA:
        k, back = divmod(a - PAGAT, 2)
        return f"pagat{'' if k == 0 else f'_{k + 1}'} {'back' if back else 'silent'}"
    if a < RECONTRA:
        k, said = divmod(a - CONTRA, 2)
        return f"contra{'' if k == 0 else f'_{k + 1}'} {'contra' if said else 'no'}"
    if a < BURY:
        return "recontra recontra" if a > RECONTRA else "recontra no"
    return f"bury {NAMES[a - BURY]}"


# ---------------------------------------------------------------------------------------------
# one hand


class HandResult(NamedTuple):
    contract: int  # 0 game, 1 prever
    bidder: int  # the povinnost, or the prever
    partner: int  # who played the called card (game), -1 when nobody did or a prever
    call: int  # the called tarok's card id (game), -1 for a prever
    made: bool  # contract_won()
    points: tuple  # trick points per seat
    laid: tuple  # points laid away per seat
    left: int  # the points of the talon nobody took (a prever's other half)
    scored: tuple  # the hand's game chips per seat (won less lost)
    paid: tuple  # (payer, payee, chips, PAY_KEYS index), in hand_result()'s order
    owed: int  # the chips each loser pays
    doubling: int  # 1, 2 contra, 4 re-contra
    pagat: int  # the seat that said Pagat to the back, -1


def _lay_away(h: int, choice) -> int:
    """The card a hand lays away, drawn from what it may lay away (the suit cards other than
    Kings, else the one-point taroky), in the step engine's order of actions."""
    m = h & SUITS_NO_KINGS
    if m:
        return choice(BURY_RED[m & 0xFFFF] + BURY_BLACK[m >> 16]) - BURY
    m = h & ONE_POINT_TAROKY
    return choice(BURY_TLO[m >> 32 & 0x7FF] + BURY_THI[m >> 43]) - BURY


def play_hand(deal, dealer: int, rng) -> HandResult:
    """Play one hand. `deal` is 4 hands of 12 card ids, then the talon of 6 in drawing order
    (batch.deals.as_lists' form); `rng` has `choice(seq)`."""
    hands = [0, 0, 0, 0]
    for s in (0, 1, 2, 3):
        m = 0
        for t in deal[s]:
            m |= BIT[t]
        hands[s] = m
    talon = deal[4]
    choice = rng.choice
    nxt = NEXT
    bit = BIT
    count = COUNT

    turn = povinnost(hands, dealer)

    # the auction: the three others (the first prever has it), then the povinnost
    bidder = -1
    s = nxt[turn]
    for _ in (0, 1, 2):
        if bidder < 0:
            if choice(OFFER_PREVER) == BID_PREVER:
                bidder = s
        else:
            choice(OFFER_PASS)
        s = nxt[s]
    laid = [0, 0, 0, 0]
    left = 0
    if bidder < 0:
        choice(OFFER_GAME)  # forced
        bidder = turn
        prever = second = False
        h = hands[bidder]
        if h >> XIX & 1:
            missing = ~h >> 32 & 0x3FFFF  # ranks I..XVIII not held
            a = choice(OFFER_CALL[missing.bit_length()])
        else:
            a = choice(OFFER_CALL_XIX)
        called = XIX - (a - CALL)
        # the talon: four to the povinnost, one each to the next two that are not the dealer
        h |= bit[talon[0]] | bit[talon[1]] | bit[talon[2]] | bit[talon[3]]
        lost = 0
        for _ in (0, 1, 2, 3):
            p = _lay_away(h, choice)
            h ^= bit[p]
            lost += count[p]
        hands[bidder] = h
        laid[bidder] = lost
        s = bidder
        for t in (talon[4], talon[5]):
            s = nxt[s]
            if s == dealer:
                s = nxt[s]
            h = hands[s] | bit[t]
            p = _lay_away(h, choice)
            hands[s] = h ^ bit[p]
            laid[s] = count[p]
    else:
        choice(OFFER_PASS)  # the povinnost, after a prever
        prever = True
        called = -1
        second = choice(OFFER_HALF) == HALF_SECOND
        k = 3 if second else 0
        h = hands[bidder] | bit[talon[k]] | bit[talon[k + 1]] | bit[talon[k + 2]]
        k = 3 - k
        left = count[talon[k]] + count[talon[k + 1]] + count[talon[k + 2]]
        lost = 0
        for _ in (0, 1, 2):
            p = _lay_away(h, choice)
            h ^= bit[p]
            lost += count[p]
        hands[bidder] = h
        laid[bidder] = lost

    # Pagat to the back, each seat from the bidder; then contra and re-contra
    pagat = -1
    s = bidder
    for k in (0, 1, 2, 3):
        if hands[s] >> I & 1:
            if choice(OFFER_PAGAT_BACK[k]) & 1:
                pagat = s
        else:
            choice(OFFER_PAGAT[k])
        s = nxt[s]
    doubling = 1
    s = nxt[bidder]
    for k in (0, 1, 2):
        if prever or not hands[s] >> called & 1:
            if choice(OFFER_CONTRA[k]) & 1:
                doubling = 4 if choice(OFFER_RECONTRA) != RECONTRA else 2
                break
        else:
            choice(OFFER_CONTRA_NO[k])
        s = nxt[s]

    # the sides and the holdings, on the hands at the first lead (every card is played)
    partner = -1 if prever else holder(hands, called)
    held = [hands[0], hands[1], hands[2], hands[3]]

    # twelve tricks
    points = [0, 0, 0, 0]
    leader = nxt[dealer]
    home = False
    for trick in range(12):
        if trick == 11 and pagat >= 0:
            home = hands[pagat] == bit[I]  # the I is the holder's last card
        s = leader
        h = hands[s]
        a = choice(PLAY_RED[h & 0xFFFF] + PLAY_BLACK[h >> 16 & 0xFFFF]
                   + PLAY_TLO[h >> 32 & 0x7FF] + PLAY_THI[h >> 43])
        hands[s] = h ^ bit[a]
        led = SUIT_OF[a]
        sc = SCORE[led]
        best = sc[a]
        winner = s
        pts = count[a]
        if led == TAROK:
            for _ in (0, 1, 2):
                s = nxt[s]
                h = hands[s]
                x = h >> 32
                if x:
                    a = choice(PLAY_TLO[x & 0x7FF] + PLAY_THI[x >> 11])
                else:
                    a = choice(PLAY_RED[h & 0xFFFF] + PLAY_BLACK[h >> 16])
                hands[s] = h ^ bit[a]
                pts += count[a]
                if sc[a] > best:
                    best = sc[a]
                    winner = s
        else:
            shift = led << 3
            follow = PLAY_S8[led]
            for _ in (0, 1, 2):
                s = nxt[s]
                h = hands[s]
                x = h >> shift & 255
                if x:
                    a = choice(follow[x])
                else:
                    x = h >> 32
                    if x:
                        a = choice(PLAY_TLO[x & 0x7FF] + PLAY_THI[x >> 11])
                    else:
                        a = choice(PLAY_RED[h & 0xFFFF] + PLAY_BLACK[h >> 16])
                hands[s] = h ^ bit[a]
                pts += count[a]
                if sc[a] > best:
                    best = sc[a]
                    winner = s
        points[winner] += pts
        leader = winner
    home = home and leader == pagat

    return settle(prever, second, bidder, partner, called, points, laid, left, held, doubling,
                  pagat, home)


def povinnost(hands: list, dealer: int) -> int:
    """The povinnost: whoever was dealt the II, else the player after the dealer."""
    for s in (0, 1, 2, 3):
        if hands[s] >> II & 1:
            return s
    return NEXT[dealer]


def holder(hands: list, card: int) -> int:
    """The seat whose hand holds `card`, -1 when none does (laid away, or in the talon)."""
    for s in (0, 1, 2, 3):
        if hands[s] >> card & 1:
            return s
    return -1


def settle(prever, second, bidder, partner, called, points, laid, left, held, doubling, pagat,
           home) -> HandResult:
    """The hand's count and chips once its twelve tricks are played (`held`: each seat's hand
    at the first lead, for the holdings; `home`: the I took the last trick for its holder)."""
    # the count: the side of the contract against the rest (106 in all)
    ours = points[bidder] + laid[bidder]
    side = BIT[bidder]
    if partner >= 0 and partner != bidder:
        ours += points[partner] + laid[partner]
        side |= BIT[partner]
    made = ours > 53
    owed = ((63 - (106 - ours if made else ours)) * (6 if prever else 2) + 5) // 10
    if prever and second and not made:
        owed *= 2
    owed *= doubling
    # the game's chips: each loser pays one winner (two and two), else every winner; the
    # payments and each seat's chips made once for each side, result and stake
    key = (side << 1 | made) << 12 | owed
    game = _GAME_PAID.get(key)
    if game is None:
        pairs, signs = GAME_PAYS[side][made]
        game = _GAME_PAID[key] = (tuple([(x, y, owed, GAME) for x, y in pairs]),
                                  tuple([sign * owed for sign in signs]))
    paid, scored = game
    # the holdings, each paid by the other three: the holders of each kind by seat
    ykinds = [0, 0, 0, 0, 0, 0, 0]
    for y in (0, 1, 2, 3):
        h = held[y]
        ykinds[TAROKY_HOLDING[POPCOUNT(h & TAROKY)]] |= BIT[y]
        if POPCOUNT(h & FIVES) >= 3:  # else neither the Trul, the Kings nor honery
            if h & TRUL == TRUL:
                ykinds[TRUL_K] |= BIT[y]
            if h & KINGS == KINGS:
                ykinds[KINGS_K] |= BIT[y]
            if POPCOUNT(h & FIVES) >= 4:
                ykinds[HONERY] |= BIT[y]
    for k in (1, 2, 3, 4, 5, 6):
        if ykinds[k]:
            paid += HOLDING_PAYS[k][ykinds[k]]
    # Pagat to the back: the holder is paid by each of the others, or pays each of them
    if pagat >= 0:
        paid += PAGAT_PAYS[home][pagat]
    return HandResult(1 if prever else 0, bidder, partner, called, made, tuple(points),
                      tuple(laid), left, scored, paid, owed, doubling, pagat)


_GAME_PAID: dict = {}


def play_hands(deals, dealers, rng: random.Random) -> list[HandResult]:
    return [play_hand(d, dl, rng) for d, dl in zip(deals, dealers)]


def make_deals(n: int, seed: int) -> list:
    """n Taroky deals from random.Random(seed): 4 hands of 12 card ids, then the talon of 6."""
    rng = random.Random(seed)
    out = []
    cards = list(range(NC))
    for _ in range(n):
        rng.shuffle(cards)
        out.append((tuple(cards[0:12]), tuple(cards[12:24]), tuple(cards[24:36]),
                    tuple(cards[36:48]), tuple(cards[48:54])))
    return out


def hand_result(r: HandResult) -> dict:
    """The step engine's State.hand_result() for the same hand (default options)."""
    name = "prever" if r.contract else "game"
    return {"thrown_in": False, "contract": name, "bid": name, "bidder": r.bidder,
            "forced": not r.contract, "made": r.made, "points": list(r.points),
            "scored": list(r.scored),
            "paid": [{"from": x, "to": y, "chips": c, "for": PAY_KEYS[k]} for x, y, c, k in r.paid]}


# ---------------------------------------------------------------------------------------------
# differential check against the tablerules step engine


class Disagreement(Exception):
    pass


class _Lockstep:
    """A stand-in rng that drives the step engine with the same choices: the hand-written
    engine's offer must be the step engine's legal actions (ids and names, in order); the
    choice is `rng.choice` of the step engine's list, as harness.run_interpreter draws it."""

    def __init__(self, game, st, rng, no_prever=False):
        self.d = game.definition
        self.st = st
        self.rng = rng
        self.no_prever = no_prever  # pass instead of prever: a game every hand
        self.trail: list[int] = []  # the actions taken

    def choice(self, seq):
        st = self.st
        if st.is_terminal():
            raise Disagreement(f"step {len(self.trail)}: the step engine's hand is over, the "
                               f"hand-written engine offers {[action_str(a) for a in seq]}")
        ia = st.legal_actions()
        if tuple(seq) != tuple(ia):
            raise Disagreement(f"step {len(self.trail)} (seat {st.current_player()}): legal "
                               f"actions differ: hand-written {[action_str(a) for a in seq]}, "
                               f"step engine {[self.d.action_to_string(a) for a in ia]}")
        a = self.rng.choice((PASS,) if self.no_prever and BID_PREVER in ia else ia)
        st.apply_action(a)
        self.trail.append(a)
        return a


def _names_differ(game) -> list:
    """The action ids whose name here is not the step engine's (the ids are compared at every
    step, the names once)."""
    d = game.definition
    used = [a for a in range(BURY + NC) if a < NC or a == PASS or BID_GAME <= a <= RECONTRA + 1
            or a >= BURY]
    return [(a, action_str(a), d.action_to_string(a)) for a in used
            if action_str(a) != d.action_to_string(a)]


def _invariants(r: HandResult) -> str | None:
    if sum(r.points) + sum(r.laid) + r.left != 106:
        return f"the count comes to {sum(r.points) + sum(r.laid) + r.left}, not 106"
    if sum(r.scored) != 0:
        return f"the game's chips do not balance: {r.scored}"
    return None


def _diff_hand(game, deal, dealer, seed, no_prever=False):
    """One hand in lockstep: (None or a message for the first difference, the actions)."""
    st = game.new_hand(deal, dealer)
    lk = _Lockstep(game, st, random.Random(seed), no_prever)
    try:
        r = play_hand(deal, dealer, lk)
    except Disagreement as e:
        return str(e), lk.trail
    if not st.is_terminal():
        return (f"after {len(lk.trail)} actions the hand-written hand is over, not the step "
                f"engine's"), lk.trail
    mine, theirs = hand_result(r), st.hand_result()
    if mine != theirs:
        return f"end of hand: hand-written {mine}, step engine {theirs}", lk.trail
    bad = _invariants(r)
    if bad:
        return bad, lk.trail
    if not no_prever:  # the same draws from random.Random itself: run_interpreter's games
        again = play_hand(deal, dealer, random.Random(seed))
        if again != r:
            return f"replayed with random.Random: {again}, in lockstep {r}", lk.trail
    return None, lk.trail


def differential_check(game, deals, dealers, seed, no_prever=False) -> list:
    """Lockstep every deal; returns [(message, deal, dealer, trail)] of the disagreements."""
    bad = []
    for i, (deal, dealer) in enumerate(zip(deals, dealers)):
        msg, trail = _diff_hand(game, deal, dealer, seed * 1_000_003 + i, no_prever)
        if msg is not None:
            bad.append((msg, deal, dealer, trail))
    return bad


def _card(name: str) -> int:
    return NAMES.index(name)


def edge_deals() -> list:
    """Deals for the rare paths (each played by every dealer, with and without prevers): a
    povinnost that must lay taroky away (the Kings, the Trul and one-point taroky only); the
    called XVIII in the talon's last card (the second taker is the partner); the XIX, called
    without holding it, in the talon's first four (the povinnost alone) or its fifth card."""
    def deal(first: list, talon: list) -> tuple:
        ids = [_card(x) for x in first]
        tal = [_card(x) for x in talon]
        rest = [t for t in range(NC) if t not in ids and t not in tal]
        return (tuple(ids), tuple(rest[0:12]), tuple(rest[12:24]), tuple(rest[24:36]), tuple(tal))

    kings = ["K♥", "K♦", "K♠", "K♣"]
    return [
        deal(kings + ["I", "XXI", "Skyz", "II", "III", "IV", "V", "VI"],
             ["VII", "VIII", "IX", "X", "XI", "XII"]),
        deal(["II", "XIX", "XX", "I", "4♥", "3♥", "7♠", "8♠", "9♠", "K♣", "Q♣", "J♣"],
             ["A♥", "2♦", "3♦", "10♣", "XVII", "XVIII"]),
        deal(["II", "XX", "I", "4♥", "3♥", "7♠", "8♠", "9♠", "K♣", "Q♣", "J♣", "R♣"],
             ["A♥", "XIX", "3♦", "10♣", "XVII", "XVIII"]),
        deal(["II", "XX", "I", "4♥", "3♥", "7♠", "8♠", "9♠", "K♣", "Q♣", "J♣", "R♣"],
             ["A♥", "2♦", "3♦", "10♣", "XIX", "XVIII"]),
    ]


def _load_interpreter(options=None):
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(os.path.dirname(here), "src"))
    try:
        from tablerules.game import load_game
        return load_game("taroky", dict(options or {})), None
    except Exception as e:  # ImportError or anything the work-in-progress code raises
        return None, f"{type(e).__name__}: {e}"


def self_check(n: int, seed: int = 12345) -> int:
    """The differential check over n hands: exit status 0 only when every hand agrees."""
    deals = make_deals(n, seed)
    dealers = [i % 4 for i in range(n)]
    game, err = _load_interpreter()
    if game is None:
        print(f"differential check NOT RUN: the step engine is not available ({err})")
        return 2
    names = _names_differ(game)
    if names:
        print(f"differential check FAILED: action names differ (id, here, step engine): {names}")
        return 1
    bad = differential_check(game, deals, dealers, seed)
    half = n // 2 or 1  # a game each hand: half as many of the same deals
    bad += differential_check(game, deals[:half], dealers[:half], seed + 1, no_prever=True)
    reps = max(8, min(40, n // 50))  # each rare-path deal, dealt by every seat in turn
    edges = [d for d in edge_deals() for _ in range(reps)]
    edge_dealers = [i % 4 for i in range(len(edges))]
    bad += differential_check(game, edges, edge_dealers, seed)
    bad += differential_check(game, edges, edge_dealers, seed + 1, no_prever=True)
    if bad:
        print(f"differential check FAILED in {len(bad)} of {n + half + 2 * len(edges)} hands")
        for msg, deal, dealer, trail in sorted(bad, key=lambda b: len(b[3]))[:3]:
            print(f"  {msg}")
            print(f"    dealer={dealer} deal={[[NAMES[t] for t in h] for h in deal]}")
            print(f"    actions={[action_str(a) for a in trail]}")
        return 1
    rs = play_hands(deals, dealers, random.Random(seed))
    prever = sum(r.contract for r in rs)
    print(f"differential check OK: {n} hands agree with the step engine, identical legal "
          f"actions (the same ids in the same order, and the same names) at every step and the same hand_result() "
          f"(points, scores, payments); again with every seat passing (a game each hand): "
          f"{half} agree; {2 * len(edges)} hands of {len(edges) // reps} deals for rare paths "
          f"agree; random play: prever {prever / n:.1%}, contract made "
          f"{sum(r.made for r in rs) / n:.1%}, partner found {sum(r.partner >= 0 and r.partner != r.bidder for r in rs) / max(1, n - prever):.1%} "
          f"of games, Pagat to the back {sum(r.pagat >= 0 for r in rs) / n:.1%}")
    return 0


# ---------------------------------------------------------------------------------------------
# timing


def bench(n: int, seed: int, repeat: int) -> int:
    """This engine and the step engine (harness.run_interpreter) on the same n deals, dealer
    rotating, each from random.Random(seed), interleaved runs, best of `repeat`; then the
    same games hand for hand (the same stream gives the same choices)."""
    import harness

    deals = make_deals(n, seed)
    dealers = [i % 4 for i in range(n)]
    game, err = _load_interpreter()
    if game is None:
        print(f"step engine not available ({err})")
        return 2
    harness.run_interpreter(game, deals[:20], dealers[:20], seed)  # warm-up, both
    play_hands(deals[:20], dealers[:20], random.Random(seed))
    hw = st = float("inf")
    for r in range(repeat):
        dt = harness.timed(play_hands, deals, dealers, random.Random(seed))
        hw = min(hw, dt)
        ds = harness.timed(harness.run_interpreter, game, deals, dealers, seed)
        st = min(st, ds)
        print(f"  repeat {r + 1}: hand-written {dt:.3f}s  step engine {ds:.3f}s")
    mine = [hand_result(r) for r in play_hands(deals, dealers, random.Random(seed))]
    theirs = harness.compiled_work(game, deals, dealers, seed)
    same = sum(a == b for a, b in zip(mine, theirs))
    print(f"hand-written {n / hw:12,.0f} hands/s ({hw * 1e6 / n:7.1f} us/hand), step engine "
          f"{n / st:10,.0f} hands/s ({st * 1e6 / n:7.1f} us/hand): {st / hw:.1f}x; same games "
          f"{same}/{n}")
    import json
    print(json.dumps({"game": "taroky", "hands": n, "seed": seed, "repeat": repeat,
                      "handwritten_hps": round(n / hw, 1), "step_hps": round(n / st, 1),
                      "ratio": round(st / hw, 2),
                      "ratio_is": "step_engine_seconds / handwritten_seconds",
                      "same_games": [same, n]}))
    return 0 if same == n else 1


def _main(argv=None) -> int:
    import argparse

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from harness import POSITIVE

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", type=POSITIVE, metavar="N",
                    help="the differential check in lock step against the step engine, N hands "
                         "(exit status 1 on any disagreement)")
    ap.add_argument("--bench", type=POSITIVE, metavar="N",
                    help="time this engine and the step engine on the same N deals")
    ap.add_argument("--hands", type=POSITIVE, default=20000,
                    help="time N hands of this engine alone")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=POSITIVE, default=3)
    a = ap.parse_args(argv)
    if a.check:
        return self_check(a.check)
    if a.bench:
        return bench(a.bench, a.seed, a.repeat)
    import harness
    deals = make_deals(a.hands, a.seed)
    dealers = [i % 4 for i in range(a.hands)]
    dt = min(harness.timed(play_hands, deals, dealers, random.Random(a.seed))
             for _ in range(a.repeat))
    print(f"{a.hands} hands in {dt:.3f}s (best of {a.repeat}): {a.hands / dt:,.0f} hands/s")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
