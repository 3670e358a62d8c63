"""An independent model of Texas 42 trick play, written from the rules rather than from the YAML.

Pieces are (high, low) pairs. `contract` is points | marks | nello | sevens; `trump` is an int
suit, 'doubles', 'followme' or 'none'. Nothing here reads the ruleset or the engine's tables, so
an agreement between the two is evidence that both say what Texas 42 says.
"""

from __future__ import annotations

HAND_POINTS = 42
SUITS = range(7)


def piece(name: str) -> tuple[int, int]:
    a, b = name.split("-")
    return int(a), int(b)


def count(t: tuple[int, int]) -> int:
    """Count points: the 5-0, 4-1, 3-2 are worth 5, the 5-5 and 6-4 are worth 10."""
    s = t[0] + t[1]
    return s if s in (5, 10) else 0


def trick_points(trick) -> int:
    return 1 + sum(count(t) for t in trick)


class Rules:
    """Who may play what and who takes a trick, for one contract and declaration."""

    def __init__(self, contract: str, trump="none", nello_doubles: str = "high"):
        self.contract = contract
        self.trump = trump
        self.nd = nello_doubles

    # -- trumps and suits (point and marks bids) -----------------------------------------------

    def is_trump(self, t) -> bool:
        if self.contract not in ("points", "marks"):
            return False
        if self.trump == "doubles":
            return t[0] == t[1]
        if isinstance(self.trump, int):
            return self.trump in t
        return False  # followme: no trump

    def doubles_suit(self, t) -> bool:
        """In Nello with doubles as a suit of their own."""
        return self.contract == "nello" and self.nd == "suit" and t[0] == t[1]

    def led_suit(self, t):
        if self.contract == "sevens":
            return 0
        if self.is_trump(t):
            return self.trump
        if self.doubles_suit(t):
            return "doubles"
        return t[0]

    def follows(self, t, led) -> bool:
        if self.contract == "sevens":
            return False
        if self.contract == "nello":
            if led == "doubles":
                return self.doubles_suit(t)
            return led in t and not self.doubles_suit(t)
        if led == self.trump:
            return self.is_trump(t)
        return not self.is_trump(t) and led in t

    def legal(self, hand, trick) -> set:
        """The pieces of `hand` a player may play to `trick` (the pieces played so far)."""
        hand = set(hand)
        if self.contract == "sevens":
            best = min(abs(t[0] + t[1] - 7) for t in hand)
            return {t for t in hand if abs(t[0] + t[1] - 7) == best}
        if not trick:
            return hand
        led = self.led_suit(trick[0])
        f = {t for t in hand if self.follows(t, led)}
        return f or hand

    def winner(self, trick) -> int:
        """Index in `trick` of the piece that takes it."""
        if self.contract == "sevens":
            dist = [abs(t[0] + t[1] - 7) for t in trick]
            return dist.index(min(dist))  # closest to seven; the first played of a tie
        led = self.led_suit(trick[0])
        trumps = [i for i, t in enumerate(trick) if self.is_trump(t)]
        if trumps:
            if self.trump == "doubles":
                return max(trumps, key=lambda i: trick[i][0])
            return max(trumps, key=lambda i: self._in_suit(trick[i], self.trump, "high"))
        cands = [i for i, t in enumerate(trick) if self.follows(t, led)]
        assert cands and cands[0] == 0, "the lead always follows its own suit"
        if led == "doubles":
            return max(cands, key=lambda i: trick[i][0])
        mode = self.nd if self.contract == "nello" else "high"
        return max(cands, key=lambda i: self._in_suit(trick[i], led, mode))

    @staticmethod
    def _in_suit(t, suit, doubles: str) -> int:
        """Rank inside a suit: the double at the top (or bottom), the rest by their other end."""
        if t[0] == t[1]:
            return 100 if doubles == "high" else -1
        return t[0] + t[1] - suit

    # -- outcome -----------------------------------------------------------------------------

    def over(self, level: int, pts_bid: int, pts_against: int, tr_bid: int, tr_against: int) -> bool:
        if self.contract == "points":
            return pts_bid >= level or pts_against > HAND_POINTS - level
        if self.contract == "nello":
            return tr_bid > 0
        return tr_against > 0

    def made(self, level: int, pts_bid: int, tr_bid: int, tr_against: int) -> bool:
        if self.contract == "points":
            return pts_bid >= level
        if self.contract == "nello":
            return tr_bid == 0
        return tr_against == 0

    def marks(self, level: int) -> int:
        return 1 if self.contract == "points" else level


def side_of(seat: int) -> int:
    return seat % 2


def partner(seat: int) -> int:
    return (seat + 2) % 4
