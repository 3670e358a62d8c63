"""Helpers for the All Fives tests: the compiled game, deals by name, and an independent model of
the layout built from the rule text ("The idea" .. "A little strategy" in
/work/shared/rules/004_f26017e68a50bf4c.txt).

Arms are named as the engine names them in actions: the first bone's high end is `west`, its low
end `east`; the spinner's other two sides are `north` and `south`.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path

from tablerules.game import load_game

FULL_SET = tuple(f"{h}-{lo}" for h in range(7) for lo in range(h + 1))  # 28
ARMS = ("west", "east", "north", "south")


@functools.lru_cache(maxsize=None)
def _game(items: tuple):
    return load_game("allfives", dict(items))


def game(**options):
    """The compiled All Fives game for these option values (cached)."""
    return _game(tuple(sorted(options.items())))


# an overlay that pins the first shaker to North, for the tests that need a known first dealer
_PINNED = "name: allfives\nextends: allfives\ndeal:\n  first_dealer: 0\n"


@functools.lru_cache(maxsize=None)
def _pinned_path() -> str:
    d = Path(tempfile.mkdtemp(prefix="allfives-"))
    atexit.register(shutil.rmtree, d, ignore_errors=True)  # not left behind by every run
    p = d / "north_shakes_first.yaml"
    p.write_text(_PINNED, encoding="utf-8")
    return str(p)


@functools.lru_cache(maxsize=None)
def _pinned(items: tuple):
    return load_game(_pinned_path(), dict(items))


def pinned_game(**options):
    """All Fives with North (seat 0) the first shaker of every match, instead of by lot."""
    return _pinned(tuple(sorted(options.items())))


def ends_of(p: str) -> tuple[int, int]:
    a, b = (int(x) for x in p.split("-"))
    return (a, b) if a >= b else (b, a)


def norm(p: str) -> str:
    h, lo = ends_of(p)
    return f"{h}-{lo}"


def pips(p: str) -> int:
    return sum(ends_of(p))


def nearest_five(x: int) -> int:
    """"round to the nearest five" (12 -> 10, 13 -> 15)."""
    return ((x + 2) // 5) * 5


def legal(state) -> list[str]:
    return [state.game.action_to_string(a) for a in state.legal_actions()]


def act(state, *actions: str) -> None:
    """Apply decisions given by name; each must be legal."""
    for s in actions:
        a = state.game.string_to_action(s)
        assert a is not None, f"'{s}' is not an action of this game"
        assert a in state.legal_actions(), f"{s} is not legal for seat {state.current_player()}: {legal(state)}"
        state.apply_action(a)


def held(state, seat: int) -> list[str]:
    return sorted(state.game.pieces.names[t] for t in state.game.mask_pieces(state.hands[seat]))


def deal_rest(*hands, players: int = 4, size: int = 7, stock=None) -> list[list[str]]:
    """Complete the given hands to `size` each with the unused bones in set order; the rest (or
    `stock` first, in drawing order) is the stock."""
    out = [[norm(p) for p in h] for h in hands] + [[] for _ in range(players - len(hands))]
    first = [norm(p) for p in (stock or [])]
    used = [p for h in out for p in h] + first
    assert len(used) == len(set(used)), "a bone given twice"
    rest = [p for p in sorted(FULL_SET, key=lambda p: (-ends_of(p)[0], -ends_of(p)[1])) if p not in used]
    for h in out:
        while len(h) < size:
            h.append(rest.pop(0))
    return out + [first + rest]


def new_hand(deal, dealer: int = 0, record: bool = True, **options):
    """A single-hand state from a deal (hands, then the stock in drawing order)."""
    deal = [list(h) for h in deal]
    if deal and not deal[-1]:
        deal = deal[:-1]
    return game(**options).new_hand(deal, dealer, record=record)


def events(state, kind: str) -> list[dict]:
    return [e for e in state.events if e["type"] == kind]


def last_lay(state) -> dict:
    return events(state, "lay")[-1]


class Layout:
    """The layout as the rule text describes it, kept independently of the engine."""

    def __init__(self, spinner: bool = True, spinner_count: str = "both"):
        self.use_spinner = spinner
        self.spinner_count = spinner_count
        self.started = False
        self.open = {}  # arm -> open number (only playable arms)
        self.end_piece = {}  # arm -> the bone at that end
        self.count = {a: 0 for a in ARMS}  # bones laid on each arm
        self.spinner = None
        self.waiting = set()  # the spinner's main sides not yet covered

    def first(self, p: str) -> None:
        """"The first player sets any domino." """
        h, lo = ends_of(p)
        self.started = True
        self.open = {"west": h, "east": lo}
        self.end_piece = {"west": p, "east": p}
        if self.use_spinner and h == lo:  # "The first double played becomes the spinner"
            self.spinner = p
            self.waiting = {"west", "east"}

    def can(self, p: str, arm: str) -> bool:
        return arm in self.open and self.open[arm] in ends_of(p)

    def plays(self, hand) -> list[str]:
        if not self.started:
            return sorted(hand)
        return sorted(f"{p} {a}" for p in hand for a in ARMS if self.can(p, a))

    def lay(self, p: str, arm: str) -> None:
        assert self.can(p, arm), (p, arm, self.open)
        h, lo = ends_of(p)
        self.open[arm] = lo if self.open[arm] == h else h
        self.end_piece[arm] = p
        self.count[arm] += 1
        if arm in self.waiting:
            self.waiting.discard(arm)
            if not self.waiting:
                # "once both of those have a domino, the two sides of the spinner open too"
                d = ends_of(self.spinner)[0]
                self.open["north"] = d
                self.open["south"] = d
                self.end_piece["north"] = self.end_piece["south"] = self.spinner
        elif self.use_spinner and self.spinner is None and h == lo:
            self.spinner = p
            self.waiting = {arm}

    def total(self) -> int:
        """"add up the numbers showing at every open end": a double at an end counts both
        halves; the spinner counts while it is still an end of the line."""
        t = 0
        for arm, n in self.open.items():
            if arm in ("north", "south") and not self.count[arm]:
                continue  # an unbuilt side of the spinner is not an end yet
            p = self.end_piece[arm]
            if p == self.spinner:
                continue
            h, lo = ends_of(p)
            t += n * (2 if h == lo else 1)
        if self.spinner is not None and self.waiting:
            d = ends_of(self.spinner)[0]
            t += 2 * d if self.spinner_count == "both" else d
        return t

    def score(self, unit: int = 1) -> int:
        t = self.total()
        return t // unit if t % 5 == 0 else 0
