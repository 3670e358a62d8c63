"""Taroky through the public Game/State API: constructed deals, driven hands, and an oracle that
settles a hand from its record lines by the rule text, to check the ruleset against."""

from __future__ import annotations

import functools
import random

from tablerules.game import load_game

NORTH, WEST, SOUTH, EAST = range(4)  # counter-clockwise: next(seat) is seat - 1
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


def count(lines: list[dict]) -> dict:
    """What the rule text's count says of a hand: the sides, what each counted, who won."""
    deal_ev = lines[0]
    hand = lines[-1]
    decl = hand["declarations"]
    bidder = hand["bidder"]
    played_by = {name: s for ev in lines if ev["type"] == "trick" for s, name in ev["plays"]}
    laid = [0] * 4
    taken_from_talon = []
    for ev in lines:
        if ev["type"] == "exchange" and "buried" in ev:
            laid[ev["seat"]] += points(ev["buried"])
        if ev["type"] == "exchange" and "took" in ev:
            taken_from_talon += ev["took"]
    left = [n for n in deal_ev["stock"] if n not in taken_from_talon]
    team = {bidder}
    if hand["contract"] == "game" and decl["call"] != "alone" and decl["call"] in played_by:
        team.add(played_by[decl["call"]])
    counted = [hand["points"][s] + laid[s] for s in range(4)]
    mine = sum(counted[s] for s in team)
    theirs = sum(counted[s] for s in range(4) if s not in team) + sum(map(points, left))
    return {"team": team, "contract": mine, "against": theirs, "won": mine >= 54,
            "left": left, "decl": decl, "kind": hand["contract"], "bidder": bidder}


def tournament_chips(losers_points: int, trebled: bool = False) -> int:
    """The losers' points from 53, add ten, double it (treble it against a prever), a tenth,
    rounded to the chip."""
    x = (53 - losers_points + 10) * 2 * (3 if trebled else 1)
    return (x + 5) // 10


def expected_payments(lines: list[dict], prever_treble="won_and_lost",
                      second_half="on_loss") -> list[tuple[int, int, int]]:
    c = count(lines)
    won = c["won"]
    prever = c["kind"] == "prever"
    losers_points = c["against"] if won else c["contract"]
    chips = tournament_chips(losers_points, prever and (prever_treble == "won_and_lost" or not won))
    if prever and c["decl"]["half"] == "second" and (second_half == "always" or not won):
        chips *= 2
    team = sorted(c["team"])
    others = [s for s in range(4) if s not in c["team"]]
    winners, losers = (team, others) if won else (others, team)
    if len(team) == 2:  # each loser pays one winner
        pairs = list(zip(losers, winners))
    else:  # one alone settles with each of the three
        pairs = [(a, b) for a in losers for b in winners]
    return sorted((a, b, chips) for a, b in pairs)


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
            want = f"call {call}" if call else f"half {half}" if half else None
            pick = want if want in legal_names else legal_names[0]
        else:
            pick = next((n for n in legal_names if n.split(" ", 1)[1] not in keep), None)
            assert pick is not None, f"seat {st.current_player()} can bury only {legal_names}"
        do(st, pick)
    raise AssertionError("no first lead")
