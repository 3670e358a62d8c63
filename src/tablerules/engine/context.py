"""The evaluation context every hook reads: the public record of the hand and the match.

Its fields are the ones `definition/places.py` declares (CONTEXT); a ruleset reads them only
through the names of its places, so the engine's other parts can change without breaking one.
The arguments of a call (`offered`, `asked`, `tile`, `side`) are set by the caller just before it.
"""

from __future__ import annotations

_HAND_FIELDS = ("passes", "high", "offered", "bidder", "bidder_side", "bid", "contract", "decl",
                "asked", "tile", "choice", "led", "trick", "points", "tricks", "points_against", "tricks_against",
                "tricks_played", "went_out", "blocked", "made", "side", "won", "drawn", "payer", "payee",
                "plays", "laid", "taken", "end")


class Context:
    """One per state; the engine writes the hand's public facts here as they happen."""

    # no reference back to the state: a state stays free of cycles and is freed at once
    __slots__ = ("game", "hands", "actor", "layout", "dealer", "score", "hands_played",
                 "chips", "dealt_hands", "turn", "turn_before", "stock", "memo") + _HAND_FIELDS

    def __init__(self, game, hands: list, dealer: int, sides: int):
        self.game = game
        self.hands = hands  # the state's list of piece masks per seat, shared
        self.actor = -1
        self.layout = None
        self.dealer = dealer
        self.score = [0] * sides
        self.hands_played = 0
        stake = game.match.stake
        self.chips = [stake or 0] * game.seat_count  # changed only between hands
        self.dealt_hands: tuple = ()  # piece ids per seat as dealt, set by the deal
        self.turn = -1  # deal.turn: carried from deal to deal, so not reset with the hand
        self.turn_before = -1  # the turn before this hand's deal (for rebuilding a world)
        self.stock: tuple = ()  # the pieces left in the stock (the state's), in drawing order
        self.memo = None  # during `allowed`: the parts of the rule that read no `tile` (hoisting)

    def new_hand(self, decl: tuple, sides: int) -> None:
        keeps = self.game.keeps
        self.layout = None
        self.passes = 0
        self.high = 0
        self.offered = 0
        self.bidder = -1
        self.bidder_side = -1
        self.bid = 0
        self.contract = -1
        self.decl = decl
        self.asked = 0
        self.tile = 0
        self.choice = None
        self.led = -1  # the suit led, as the ruleset names it; -1 before a lead
        self.trick: list[int] = []
        self.points = [0] * sides
        self.tricks = [0] * sides
        self.points_against = 0  # kept by `add`: read by hooks after every trick
        self.tricks_against = 0
        self.tricks_played = 0
        self.went_out = -1
        self.blocked = False
        self.made = False
        self.side = 0
        self.won = False
        self.drawn = False
        self.payer = 0
        self.payee = 0
        self.end = (0, False, False)  # display.end_count's argument: never set by the rules
        # kept only when the ruleset reads them (GameDef.keeps); None otherwise
        self.plays = {} if "plays" in keeps else None  # piece -> the seat that played it
        self.laid = [] if "laid" in keeps else None  # (piece, seat) for each piece buried
        self.taken = {} if "taken" in keeps else None  # piece -> (its trick's number, taker)

    def copy(self, hands: list, layout) -> "Context":
        c = Context.__new__(Context)
        for f in Context.__slots__:
            setattr(c, f, getattr(self, f))
        c.hands = hands
        c.layout = layout
        c.score = list(self.score)
        c.chips = list(self.chips)
        c.trick = list(self.trick)
        c.points = list(self.points)
        c.tricks = list(self.tricks)
        if self.plays is not None:
            c.plays = dict(self.plays)
        if self.laid is not None:
            c.laid = list(self.laid)
        if self.taken is not None:
            c.taken = dict(self.taken)
        return c

    # -- derived fields ------------------------------------------------------------------------

    @property
    def hand(self) -> tuple[int, ...]:
        return self.game.mask_pieces(self.hands[self.actor])

    @property
    def dealt(self) -> tuple[int, ...]:
        m = 0
        for h in self.hands:
            m |= h
        return self.game.mask_pieces(m)

    @property
    def leading(self) -> bool:
        return not self.trick

    def add(self, side: int, points: int, tricks: int) -> None:
        """Points and tricks to a side this hand, and the totals against the bidder's side."""
        p = self.points
        p[side] += points
        self.points_against = sum(p) - p[self.bidder_side]
        if tricks:
            t = self.tricks
            t[side] += tricks
            self.tricks_against = sum(t) - t[self.bidder_side]

    @property
    def ends(self) -> tuple:
        return self.layout.ends

    @property
    def spinner_open(self) -> bool:
        return self.layout.spinner_open

    @property
    def spinner_pips(self) -> int:
        return self.layout.spinner_pips

    def allowed(self, legal_fn, actions, piece=None) -> tuple:
        """The actions whose piece `legal_fn` allows (`play.legal`, `exchange.legal`; `piece(a)` the
        piece of action a)."""
        keep = []
        self.memo = {}  # one pass: what reads no `tile` is worked out once (expr/compiler.py)
        try:
            for a in actions:
                self.tile = a if piece is None else piece(a)
                if legal_fn(self):
                    keep.append(a)
        finally:
            self.memo = None
        return tuple(keep)

    def pips_left(self, side: int) -> int:
        g = self.game
        pips = g.pieces.attrs["pips"]
        hands = self.hands
        return sum(pips[t] for s in g.sides[side] for t in g.mask_pieces(hands[s]))

    def played_by(self, t: int) -> int:
        return self.plays.get(t, -1)

    def taken_by(self, t: int) -> int:
        return self.taken.get(t, (0, -1))[1]

    def trick_of(self, t: int) -> int:
        return self.taken.get(t, (0, -1))[0]

    def laid_away(self, seat: int) -> tuple[int, ...]:
        return tuple(t for t, s in self.laid if s == seat)

    def holder(self, t: int) -> int:
        for s, h in enumerate(self.hands):
            if h >> t & 1:
                return s
        return -1
