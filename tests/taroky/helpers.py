"""Taroky through the public Game/State API: constructed deals, driven hands, and an oracle that
settles a hand from its record lines by the rule text, to check the ruleset against."""

from __future__ import annotations

import functools
import random

from tablerules.game import load_game

NORTH, EAST, SOUTH, WEST = range(4)  # counter-clockwise: next(seat) is seat - 1, to the right
TAROKY = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
          "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "Skyz"]


@functools.lru_cache(maxsize=None)
def _game(items: tuple):
    return load_game("taroky", dict(items))


def game(**options):
    return _game(tuple(sorted(options.items())))


def points(name: str) -> int:
    """A card's points by the rule text: the Trul and the Kings 5, Queens 4, Riders 3, Jacks 2."""
    if name in ("I", "XXI", "Skyz") or name.startswith("K"):
        return 5
    return {"Q": 4, "R": 3, "J": 2}.get(name[0], 1)


def deal(g, seats: dict[int, list[str]], stock: list[str] = ()) -> list[list[str]]:
    """Four hands and the talon: the cards given, the rest of the pack in its order."""
    names = list(g.definition.pieces.names)
    given = [n for part in list(seats.values()) + [list(stock)] for n in part]
    assert len(set(given)) == len(given) and set(given) <= set(names)
    rest = [n for n in names if n not in given]
    hands = []
    for s in range(4):
        h = list(seats.get(s, []))
        while len(h) < 12:
            h.append(rest.pop(0))
        hands.append(h)
    talon = list(stock) + rest[:6 - len(stock)]
    return hands + [talon]


def ids(g, dealt) -> list[tuple[int, ...]]:
    names = g.definition.pieces.names
    return [tuple(names.index(n) for n in part) for part in dealt]


def new_hand(g, dealt, dealer: int = NORTH):
    return g.new_hand([list(p) for p in dealt], dealer)


def legal(st) -> list[str]:
    return [st.action_to_string(a) for a in st.legal_actions()]


def do(st, *names: str):
    for n in names:
        a = st.game.string_to_action(n)
        assert a in st.legal_actions(), f"{n} is not legal for seat {st.current_player()}: {legal(st)}"
        st.apply_action(a)
    return st


def first_legal(st, until) -> None:
    """Take the first legal action until `until(st)` holds."""
    for _ in range(500):
        if until(st):
            return
        st.apply_action(st.legal_actions()[0])
    raise AssertionError("did not get there")


def random_match(seed: int, **options):
    """A match of random play with its record lines."""
    g = game(**options)
    rng = random.Random(seed)
    st = g.new_match(record=True)
    while not st.is_terminal():
        if st.is_chance_node():
            st.deal_random(rng)
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    return g, st.events


def hands_of(events) -> list[list[dict]]:
    """The record lines of each hand, from its deal line to its hand line."""
    out, cur = [], []
    for ev in events:
        if ev["type"] == "deal":
            cur = [ev]
        elif cur:
            cur.append(ev)
            if ev["type"] == "hand":
                out.append(cur)
                cur = []
    return out


def count(lines: list[dict], counting: str = "texas", short_group: str = "nearest") -> dict:
    """What the rule text's count says of a hand: the sides, what each counted, who won."""
    deal_ev = lines[0]
    hand = lines[-1]
    decl = hand["declarations"]
    bidder = hand["bidder"]
    played_by = {name: s for ev in lines if ev["type"] == "trick" for s, name in ev["plays"]}
    laid = [[] for _ in range(4)]
    taken_from_talon = []
    for ev in lines:
        if ev["type"] == "exchange" and "buried" in ev:
            laid[ev["seat"]].append(ev["buried"])
        if ev["type"] == "exchange" and "took" in ev:
            taken_from_talon += ev["took"]
    left = [n for n in deal_ev["stock"] if n not in taken_from_talon]
    team = {bidder}
    if hand["contract"] == "game" and decl["call"] in played_by:
        team.add(played_by[decl["call"]])
    counted = [hand["points"][s] + sum(map(points, laid[s])) for s in range(4)]
    cards = [hand["tricks"][s] * 4 + len(laid[s]) for s in range(4)]
    mine = sum(counted[s] for s in team)
    theirs = sum(counted[s] for s in range(4) if s not in team) + sum(map(points, left))
    n = sum(cards[s] for s in team)
    if counting == "czech":  # in threes: two off each group of three cards
        def off(k):
            return 2 * (k // 3) + (0 if k % 3 == 0 else 1 if short_group == "nearest" else 2)
        mine, theirs = mine - off(n), theirs - off(54 - n)
    won = mine >= (36 if counting == "czech" else 54)
    return {"team": team, "contract": mine, "against": theirs, "won": won, "left": left,
            "decl": decl, "kind": hand["contract"], "bidder": bidder, "played_by": played_by,
            "tricks": [ev for ev in lines if ev["type"] == "trick"]}


def tournament_chips(losers_points: int, trebled: bool = False) -> int:
    """The losers' points from 53, add ten, double it (treble it against a prever), a tenth,
    rounded to the chip."""
    x = (53 - losers_points + 10) * 2 * (3 if trebled else 1)
    return (x + 5) // 10


def game_payments(lines: list[dict], counting="texas", prever_treble="won_and_lost",
                  second_half="by_counting", short_group="nearest") -> list[tuple[int, int, int]]:
    c = count(lines, counting, short_group)
    won = c["won"]
    prever = c["kind"] == "prever"
    trebled = prever and (prever_treble == "won_and_lost" or not won)
    if counting == "czech":  # the winners' margin over 35, a chip a point
        chips = max(0, (c["contract"] if won else c["against"]) - 35) * (3 if trebled else 1)
    else:
        chips = tournament_chips(c["against"] if won else c["contract"], trebled)
    always = second_half == "always" or (second_half == "by_counting" and counting == "czech")
    if prever and c["decl"]["half"] == "second" and (always or not won):
        chips *= 2
    d = c["decl"]
    if d["recontra"] == "recontra":
        chips *= 4
    elif "contra" in (d["contra"], d["contra_2"], d["contra_3"]):
        chips *= 2
    team = sorted(c["team"])
    others = [s for s in range(4) if s not in c["team"]]
    winners, losers = (team, others) if won else (others, team)
    if len(team) == 2:  # each loser pays one winner
        pairs = list(zip(losers, winners))
    else:  # one alone settles with each of the three
        pairs = [(a, b) for a in losers for b in winners]
    return sorted((a, b, chips) for a, b in pairs if chips)  # a margin of 0 pays nothing


TEXAS_HOLDINGS = {"big_ones": 4, "little_ones": 2, "bita": 2, "trul": 4, "kings": 4, "honery": 2}
CZECH_HOLDINGS = {"taroky": 4, "tarocky": 2, "barvy": 2, "barvicky": 2, "trul": 4,
                  "honery": 2, "kralovske_honery": 4}


def holdings(cards: list[str], counting: str = "texas") -> dict[str, int]:
    """The holdings of a hand as the rule text names them, with their chips."""
    taroky = sum(1 for n in cards if n in TAROKY)
    five = sum(1 for n in cards if points(n) == 5)
    has = {"trul": {"I", "XXI", "Skyz"} <= set(cards),
           "honery": five >= 4}
    kings = sum(1 for n in cards if n.startswith("K")) == 4
    if counting == "texas":
        has.update(big_ones=taroky >= 10, little_ones=8 <= taroky <= 9, bita=taroky <= 2,
                   kings=kings)
        table = TEXAS_HOLDINGS
    else:
        has.update(taroky=taroky >= 10, tarocky=8 <= taroky <= 9, barvy=taroky == 0,
                   barvicky=1 <= taroky <= 2, kralovske_honery=kings)
        table = CZECH_HOLDINGS
    return {k: table[k] for k, v in has.items() if v}


def expected_payments(lines: list[dict], counting="texas", **options) -> list[tuple]:
    """Every payment of a hand by the rule text: the game, the holdings, Pagat to the back."""
    out = [(a, b, x, "game") for a, b, x in game_payments(lines, counting, **options)]
    c = count(lines, counting)
    for s in range(4):
        held = [n for n, p in c["played_by"].items() if p == s]  # the hand at the first lead
        for name, chips in holdings(held, counting).items():
            out += [(o, s, chips, name) for o in range(4) if o != s]
    d = c["decl"]
    if "back" in (d["pagat"], d["pagat_2"], d["pagat_3"], d["pagat_4"]):
        holder = c["played_by"]["I"]
        last = c["tricks"][-1]
        home = any(name == "I" for _, name in last["plays"]) and last["winner"] == holder
        chips = 20 if counting == "czech" else 4
        out += [(o, holder, chips, "pagat") if home else (holder, o, chips, "pagat")
                for o in range(4) if o != holder]
    return sorted(out)


def to_play(st, *, prever: int | None = None, call: str | None = None, half: str | None = None,
            keep=()) -> None:
    """Through the auction and the talon to the first lead: every seat good (or `prever` says
    prever), the call or half given, each bury the first legal one not in `keep`."""
    g = st.game
    for _ in range(60):
        ph = st.observation(max(st.current_player(), 0))["phase"]
        if ph in ("play", "lead") or st.is_terminal():
            return
        legal_names = legal(st)
        if ph == "auction":
            pick = "bid prever" if st.current_player() == prever and "bid prever" in legal_names \
                else ("pass" if "pass" in legal_names else legal_names[0])
        elif ph == "declare":
            want = [f"call {call}" if call else "", f"half {half}" if half else "",
                    "contra no", "contra_2 no", "contra_3 no", "recontra no", "pagat silent",
                    "pagat_2 silent", "pagat_3 silent", "pagat_4 silent"]
            pick = next((w for w in want if w in legal_names), legal_names[0])
        else:
            pick = next((n for n in legal_names if n.split(" ", 1)[1] not in keep), None)
            assert pick is not None, f"seat {st.current_player()} can bury only {legal_names}"
        do(st, pick)
    raise AssertionError("no first lead")
