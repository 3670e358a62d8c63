"""Helpers for the Moon tests: the compiled game, deals given by name, scripted hands.

Everything goes through the public API (`load_game`, `Game.new_hand`, `GameDef.string_to_action`,
`State.legal_actions` / `apply_action` / `events`); the rule text quoted in the tests is the Moon
part of /work/shared/rules/004_f26017e68a50bf4c.txt ("Why Moon exists" .. "Playing it well").
"""

from __future__ import annotations

import functools
import random

from tablerules.game import load_game

# The double-six set without the blanks except 0-0 ("The set: twenty-two bones").
MOON_SET = tuple(sorted(f"{h}-{lo}" for h in range(7) for lo in range(h + 1) if lo > 0 or h == 0))
TRUMPS = ("trump 0", "trump 1", "trump 2", "trump 3", "trump 4", "trump 5", "trump 6",
          "trump doubles", "trump followme")

# A deal used by many scripted hands (dealer North=0, so East=1 speaks first and West=2 second).
# East holds the top four sixes; West the low sixes and every five; North the rest. Widow 0-0.
NORTH = ["4-1", "4-3", "4-2", "3-3", "3-2", "2-2", "1-1"]
EAST = ["6-6", "6-5", "6-4", "6-3", "4-4", "3-1", "2-1"]
WEST = ["6-2", "6-1", "5-5", "5-4", "5-3", "5-2", "5-1"]
WIDOW = ["0-0"]
DEAL = [NORTH, EAST, WEST, WIDOW]

# East's play of DEAL with trump 6 after burying the widow: four trump tricks, then 4-4 wins,
# North's 3-3 takes the sixth and North's 4-1 the seventh: East 5 tricks, North 2, West 0.
PLAY_EAST_5 = [
    "6-6", "6-2", "1-1",
    "6-5", "6-1", "3-2",
    "6-4", "5-1", "4-2",
    "6-3", "5-2", "2-2",
    "4-4", "5-4", "4-3",
    "3-1", "5-3", "3-3",
    "4-1", "2-1", "5-5",
]

# East holds six sixes and 5-5 and wins every trick whatever the others do (the widow 0-0 buried).
MOON_DEAL = [["4-1", "4-3", "4-2", "3-3", "3-2", "2-2", "1-1"],
             ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "5-5"],
             ["5-4", "5-3", "5-2", "5-1", "4-4", "3-1", "2-1"],
             ["0-0"]]


@functools.lru_cache(maxsize=None)
def _game(items: tuple):
    return load_game("moon", dict(items))


def game(**options):
    """The compiled Moon game for these option values (cached)."""
    return _game(tuple(sorted(options.items())))


def names(state, actions) -> list[str]:
    return [state.game.action_to_string(a) for a in actions]


def legal(state) -> list[str]:
    return names(state, state.legal_actions())


def act(state, *actions: str) -> None:
    """Apply decisions given by name; each must be legal (the engine raises otherwise)."""
    for s in actions:
        a = state.game.string_to_action(s)
        assert a is not None, f"'{s}' is not an action of this game"
        assert a in state.legal_actions(), f"{s} is not legal for seat {state.current_player()}: {legal(state)}"
        state.apply_action(a)


def hand(deal=DEAL, dealer: int = 0, record: bool = True, **options):
    """A single-hand state at the auction."""
    return game(**options).new_hand([list(h) for h in deal], dealer, record=record)


def held(state, seat: int) -> list[str]:
    return sorted(state.game.pieces.names[t] for t in state.game.mask_pieces(state.hands[seat]))


def finish_first_legal(state) -> None:
    """Play the first legal action until the hand is over (terminal, or the next deal is due)."""
    while not state.is_terminal() and not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])


def finish_random(state, rng: random.Random) -> None:
    """Play uniformly random legal actions until the hand is over."""
    while not state.is_terminal() and not state.is_chance_node():
        la = state.legal_actions()
        state.apply_action(la[rng.randrange(len(la))])


def events(state, kind: str) -> list[dict]:
    return [e for e in state.events if e["type"] == kind]


def hand_event(state) -> dict:
    (ev,) = events(state, "hand")
    return ev


def expected_marks(options: dict, bid: str, bidder: int, tricks: list[int]) -> list[int]:
    """The scoring section of the rule text, with the ruleset's house options, per seat.

    "Make your bid and you score it ... Miss it and you lose it ... Everybody else scores a point
    for every trick they took, whether the bid came home or not."  Moon: "all seven tricks, for
    twenty-one".
    """
    made_scores = options.get("made_scores", "bid")
    set_scores = options.get("set_scores", "bidder_loses")
    moon_set = int(options.get("moon_set", 21))
    moon = bid == "moon"
    level = 7 if moon else int(bid)
    worth = 21 if moon else level
    made = tricks[bidder] >= level
    out = []
    for s in range(3):
        if s == bidder:
            if made:
                out.append(worth if moon or made_scores == "bid" else tricks[s])
            else:
                out.append(-(moon_set if moon else worth) if set_scores == "bidder_loses" else 0)
        else:
            out.append(tricks[s] + (worth if not made and set_scores == "opponents_gain" else 0))
    return out


# -- an independent model of 42's follow and win rules, as Moon uses them ----------------------


def ends_of(p: str) -> tuple[int, int]:
    a, b = (int(x) for x in p.split("-"))
    return (a, b) if a >= b else (b, a)


def is_trump(p: str, trump) -> bool:
    hi, lo = ends_of(p)
    if trump == "doubles":
        return hi == lo
    if trump == "followme":
        return False
    return trump in (hi, lo)


def lead_suit(p: str, trump):
    """"Follow the suit that was led": a trump leads trumps, anything else its high end."""
    return trump if is_trump(p, trump) else ends_of(p)[0]


def follows(p: str, led, trump) -> bool:
    if led == trump:
        return is_trump(p, trump)
    return not is_trump(p, trump) and led in ends_of(p)


def trick_rank(p: str, led, trump) -> int:
    """"Highest trump takes the trick; if no trump was played, the highest bone of the suit led
    takes it" — a double is the top of its suit."""
    hi, lo = ends_of(p)
    if is_trump(p, trump):
        if trump == "doubles":
            return 100 + hi
        return 100 + (7 if hi == lo else (lo if hi == trump else hi))
    if follows(p, led, trump):
        return 50 + (7 if hi == lo else (lo if hi == led else hi))
    return 0
