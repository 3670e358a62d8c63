"""The Game/State contract over the role modules: deal, auction, setup, tricks, layout, scoring.

A state follows the OpenSpiel-style contract: `current_player()` (a seat, CHANCE or TERMINAL),
sorted int `legal_actions()`, `apply_action()`, `is_terminal()`, `observation(seat)`, `returns()`,
`clone()`. Every game-specific decision is a compiled hook or a table of the GameDef; the
history holds every action, the deal's chance actions included, so it identifies a game exactly.
"""

from __future__ import annotations

import random
from typing import Any

from ..definition import GameDef
from ..errors import CallerError, RulesetFault
from . import auction, deal, explain, layout, observe, play, scoring, setup, tricks
from .context import Context
from .tricks import apply as _play, legal as _plays
from .phases import (AUCTION, BID, CHANCE, DEAL, DEALT, DECLARE, DONE, EXCHANGE, LAYOUT, LEAD,
                     LOT, PHASE_NAMES, PLAY, SET_UP, TERMINAL)

__all__ = ["State", "new_match", "new_hand", "CHANCE", "TERMINAL", "LOT", "DEAL", "AUCTION", "DECLARE",
           "PLAY", "LEAD", "DONE", "EXCHANGE", "LAYOUT", "PHASE_NAMES"]

_LEGAL = {AUCTION: auction.legal, DECLARE: setup.legal_declare, EXCHANGE: setup.legal_exchange,
          LEAD: tricks.legal_lead, LAYOUT: layout.legal, DEAL: deal.legal}
_APPLY = {AUCTION: auction.apply, DECLARE: setup.apply_declare, EXCHANGE: setup.apply_exchange,
          LEAD: tricks.apply_lead, LAYOUT: layout.apply}


class State:
    """One match (or one hand, when made by `new_hand`) of a compiled game."""

    __slots__ = ("game", "phase", "hands", "history", "events", "single_hand",
                 "ctx", "deals", "winner_sides", "hand_start", "step_cap", "dealing",
                 "dealt_hands", "dealt_stock", "start_score", "bidding", "setup", "play", "layout", "_legal",
                 "max_steps", "by_lot", "seen_before", "seen_hand", "seen_public", "last_hand")

    def __init__(self, game: GameDef, *, single_hand: bool = False, record: bool = False,
                 first_dealer: int | None = None):
        """A match at its first deal; `first_dealer` (a seat) overrides `deal.first_dealer`,
        the draw by lot included, so paired matches can start from the same dealer."""
        if first_dealer is not None and not (isinstance(first_dealer, int)
                                             and 0 <= first_dealer < game.seat_count):
            raise CallerError(f"first_dealer is a seat 0..{game.seat_count - 1}, "
                              f"got {first_dealer!r}")
        self.game = game
        self.single_hand = single_hand
        self.events: list[dict] | None = [] if record else None
        self.history: list[tuple[int, int]] = []
        self.seen_before: dict = {}  # seat -> the match before this hand as it saw it (observe.py)
        self.seen_hand: dict = {}  # seat -> this hand so far as it saw it (observe.py)
        self.seen_public: tuple | None = None  # this hand's public record so far (observe.py)
        self.max_steps = game.bounds.max_steps
        self.deals = 0
        self.winner_sides: list[int] = []
        self.last_hand: tuple | None = None  # set by scoring.end_hand: see hand_result()
        self.hands = [0] * game.seat_count
        dealer = game.first_dealer if first_dealer is None else first_dealer
        self.ctx = Context(game, self.hands, max(dealer, 0), len(game.sides))
        self.reset_hand()
        self.by_lot = dealer < 0  # the first dealer is still to be drawn

    def reset_hand(self) -> None:
        """Clear the per-hand parts; the next step is the deal."""
        g = self.game
        self.phase = DEAL
        self.ctx.actor = CHANCE
        self.hands[:] = [0] * g.seat_count
        self.stock: tuple = ()
        self.hand_start = len(self.history)
        self.step_cap = 0  # the history length past which this hand broke bounds.max_steps
        self.dealing: list[int] = []
        self.dealt_hands: tuple = ()
        self.dealt_stock: tuple = ()  # the stock as dealt, in drawing order
        self.start_score: tuple = ()  # the match score when this hand was dealt
        self.bidding = None
        self.setup = None
        self.play = None
        self.layout = None
        self._legal = None
        self.ctx.new_hand(g.default_decl, len(g.sides))

    # -- the contract ------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == DONE:
            return TERMINAL
        if self.phase == DEAL:
            return CHANCE
        return self.ctx.actor

    def is_terminal(self) -> bool:
        return self.phase == DONE

    def is_chance_node(self) -> bool:
        return self.phase == DEAL

    def legal_actions(self) -> tuple[int, ...]:
        """Sorted action ids the player to move may take: at a deal, the pieces not yet dealt."""
        legal = self._legal
        if legal is not None:
            return legal
        ph = self.phase
        if ph == PLAY:
            legal = _plays(self)
        elif ph == DONE:
            return ()
        else:
            legal = _LEGAL[ph](self)
        if not legal:
            why = ""
            names = self.game.seat_names
            if ph == PLAY and not self.hands[self.actor]:  # a seat out of pieces before others
                active = getattr(self.play, "active", range(len(self.hands)))  # not who sits out
                left = [(names[s], bin(self.hands[s]).count("1")) for s in active
                        if self.hands[s]]
                if left:
                    why = (": it has no piece left while " + ", ".join(
                        f"{n} still holds {k}" for n, k in left) + " (the hands were not of "
                        "one size when play began)")
            raise RulesetFault(f"{names[self.actor]} has no legal action in the "
                               f"{PHASE_NAMES[ph]} (hand {self.ctx.hands_played + 1}){why}"
                               ).at(*self.rule_part(ph))
        self._legal = legal
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a deal: each piece not yet dealt with its probability (uniform)."""
        if self.phase != DEAL:
            return []
        left = deal.legal(self)  # the pieces not yet dealt, or the seats when drawing by lot
        return [(t, 1.0 / len(left)) for t in left]

    def rule_part(self, ph: int) -> tuple:
        """The ruleset part that decides the legal actions of phase `ph`."""
        if ph == AUCTION:
            return ("auction",)
        if ph == DEAL:
            return ("deal",)
        name = self.game.contracts[self.ctx.contract].name
        return ("contracts", name, {DECLARE: "declare", EXCHANGE: "exchange"}.get(ph, "play"))

    def apply_action(self, action: int) -> None:
        """Apply the next action (a decision, or at a chance node a piece dealt).

        An action that is not legal now is the caller's mistake: CallerError naming the legal ones.
        """
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if action not in legal:
            raise CallerError(f"{self.action_to_string(action)} is not a legal action for "
                              f"{self.player_name()} (legal: "
                              f"{', '.join(self.action_to_string(a) for a in legal)})")
        self._legal = None
        ph = self.phase
        if ph == PLAY:
            history = self.history
            history.append((self.ctx.actor, action))
            if len(history) > self.step_cap:
                self._too_long()
            signal = _play(self, action)
            if signal:
                self.advance(signal)
            return
        if ph == DEAL:
            if self.by_lot:
                deal.draw_dealer(self, action)
                return
            self.advance(deal.apply(self, action))
            return
        self.history.append((self.ctx.actor, action))
        if len(self.history) > self.step_cap:
            self._too_long()
        signal = _APPLY[ph](self, action)
        if signal:
            self.advance(signal)

    def advance(self, signal) -> None:
        """Start the next part of the hand each time a role module says its part is over."""
        while signal:
            if signal == DEALT:
                signal = auction.start(self)
            elif signal == BID:
                signal = setup.start_contract(self)
            elif signal == SET_UP:
                signal = play.start(self)
            else:  # HAND_OVER, THROWN_IN or INTERRUPTED
                signal = scoring.end_hand(self, signal)

    def _too_long(self):
        raise RulesetFault(f"the hand did not end within {self.max_steps} decisions "
                           "(bounds.max_steps)").at("bounds", "max_steps")

    def deal_random(self, rng: random.Random,
                    pieces: tuple[int, ...] | None = None) -> tuple[tuple[int, ...], ...]:
        """The whole chance step at once, from `rng`: returns the deal (hands, then the stock).
        `pieces`: the shuffle is of another numbering of the same pieces, and piece i of it is
        this game's `pieces[i]` (the same cards dealt as another game deals them)."""
        if self.by_lot:
            deal.draw_dealer(self, rng.randrange(self.game.seat_count))
        dealt = deal.shuffled(self.game, rng)
        if pieces is not None:
            dealt = tuple(tuple(sorted(pieces[t] for t in h)) for h in dealt[:-1]) \
                + (tuple(pieces[t] for t in dealt[-1]),)
        self.apply_deal(dealt)
        return dealt

    def apply_deal(self, dealt) -> None:
        """Apply a whole deal: one tuple of piece ids per seat, then the stock (widow or boneyard)."""
        self.advance(deal.apply_deal(self, dealt))

    def observation(self, seat: int) -> dict[str, Any]:
        """What `seat` may know (its information state); see `engine/observe.py`."""
        return observe.observation(self, seat)

    def sight(self, seat: int) -> observe.Sight:
        """The same information as `observation(seat)`, as ids (what the rules agent reads)."""
        return observe.Sight(self, seat)

    def observer(self, seat: int) -> observe.Observer:
        """What an agent is handed at `seat`'s decision: call it for `observation(seat)`, or
        its `sight()` for `sight(seat)`."""
        return observe.Observer(self, seat)

    def marks(self) -> dict[str, tuple[int, ...]]:
        """Each `display.marks` mark -> the piece ids that carry it now (for people: play and the
        HTML replay; a trump mark, say, holds only once trump is named)."""
        pieces = range(len(self.game.pieces))
        return {m.name: self.ctx.allowed(m.when, pieces) for m in self.game.marks}

    def why_not(self, action: int) -> str | None:
        """None when `action` is legal now, else why not, in the game's words (engine/explain.py:
        "you must follow fives: you hold the 5-3"), said to the seat to move."""
        return explain.why_not(self, action)

    def returns(self) -> list[float]:
        """Per seat at the end of the match: 1 win, 0 draw, -1 loss, or `scoring.returns`."""
        if self.phase != DONE or self.single_hand:
            return [0.0] * self.game.seat_count
        return scoring.returns(self)

    def action_to_string(self, action: int) -> str:
        return action_text(self.game, action)

    def player_name(self) -> str:
        if self.phase == DEAL:
            return "the deal"
        return self.game.seat_names[self.actor]

    def clone(self) -> "State":
        """An independent copy that shares the (frozen) definition; events are not copied."""
        c = State.__new__(State)
        c.game = self.game
        c.phase = self.phase
        c.hands = list(self.hands)
        c.history = list(self.history)
        c.seen_before = dict(self.seen_before)  # its entries are tuples, never changed
        c.seen_hand = dict(self.seen_hand)
        c.seen_public = self.seen_public  # a tuple, never changed
        c.events = [] if self.events is not None else None
        c.single_hand = self.single_hand
        c.max_steps = self.max_steps
        c.by_lot = self.by_lot
        c.layout = self.layout.copy() if self.layout is not None else None
        c.ctx = self.ctx.copy(c.hands, c.layout)  # the stock with it
        c.deals = self.deals
        c.winner_sides = list(self.winner_sides)
        c.last_hand = self.last_hand
        c.hand_start = self.hand_start
        c.step_cap = self.step_cap
        c.dealing = list(self.dealing)
        c.dealt_hands = self.dealt_hands
        c.dealt_stock = self.dealt_stock
        c.start_score = self.start_score
        c.bidding = self.bidding.copy() if self.bidding is not None else None
        c.setup = self.setup.copy() if self.setup is not None else None
        c.play = self.play.copy() if self.play is not None else None
        c._legal = self._legal
        return c

    def hand_result(self) -> dict | None:
        """The hand that ended last, with the keys of its record line: `thrown_in`, or `contract`
        and `bid` (names), `bidder`, `forced`, `made`, `points` and `scored` (per side) and, with
        scoring.chips, `paid` (the payments, each `from`, `to`, `chips`, `for`); None before the
        first hand ends. Kept with or without `record`, so a summary needs no events."""
        last = self.last_hand
        if last is None:
            return None
        thrown_in, contract, bid, bidder, forced, made, awarded, paid, points = last
        if thrown_in:
            return {"thrown_in": True}
        g = self.game
        out = {"thrown_in": False, "contract": g.contracts[contract].name,
               "bid": g.bids[bid].label, "bidder": bidder, "forced": forced, "made": made,
               "points": list(points), "scored": list(awarded)}
        if g.match.stake is not None:
            out["paid"] = [{"from": a, "to": b, "chips": x, "for": name}
                           for a, b, x, name in paid]
        return out

    @property
    def actor(self) -> int:
        """The seat to move (CHANCE at a deal); `current_player()` also says TERMINAL."""
        return self.ctx.actor

    @actor.setter
    def actor(self, seat: int) -> None:
        self.ctx.actor = seat

    # -- a read-only view of the whole state, for tests, replay and tools (not for agents) ------

    @property
    def stock(self) -> tuple:
        """The pieces left in the stock, in drawing order (kept in the context: `stock_left()`)."""
        return self.ctx.stock

    @stock.setter
    def stock(self, pieces: tuple) -> None:
        self.ctx.stock = pieces

    @property
    def dealer(self) -> int:
        return self.ctx.dealer

    @property
    def score(self) -> list[int]:
        return self.ctx.score

    @property
    def hands_played(self) -> int:
        return self.ctx.hands_played

    @property
    def points(self) -> list[int]:
        return self.ctx.points

    @property
    def tricks(self) -> list[int]:
        return self.ctx.tricks

    @property
    def tricks_played(self) -> int:
        return self.ctx.tricks_played

    @property
    def bid(self) -> int:
        return self.ctx.bid

    @property
    def bidder(self) -> int:
        return self.ctx.bidder

    @property
    def standing_bid(self) -> tuple[int, int]:
        """(bid index, seat) of the bid that stands: while the auction is on, the highest bid
        so far and who made it ((0, -1) before any); after it, the contract's bid and bidder."""
        if self.phase == AUCTION and self.bidding is not None:
            return (self.ctx.high, self.bidding.high_seat) if self.ctx.high > 0 else (0, -1)
        return self.ctx.bid, self.ctx.bidder

    @property
    def contract(self) -> int:
        return self.ctx.contract

    @property
    def decl(self) -> tuple:
        return self.ctx.decl

    @property
    def made(self) -> bool:
        return self.ctx.made

    @property
    def trick(self) -> list[int]:
        return self.ctx.trick

    @property
    def tables(self):
        """The trick tables of the hand being played (None before play or in a layout)."""
        return self.play.tables if self.play is not None else None

    @property
    def led(self) -> int:
        return self.play.led if self.play is not None else -1

    @property
    def leader(self) -> int:
        return self.play.leader if self.play is not None else -1

    @property
    def active(self) -> tuple[int, ...]:
        part = self.play or self.layout
        return part.active if part is not None else self.game.all_seats

    @property
    def buried(self) -> list[int]:
        return self.setup.buried if self.setup is not None else []

    @property
    def ends(self) -> tuple:
        return self.layout.ends if self.layout is not None else ()

    @property
    def spinner(self) -> int:
        return self.layout.spinner if self.layout is not None else -1

    def layout_text(self) -> dict[str, str]:
        return self.layout.text() if self.layout is not None else {}


def action_text(game: GameDef, action) -> str:
    """An action in the game's words; a caller's value that is no action id, as itself."""
    try:
        return game.action_to_string(action)
    except (ValueError, TypeError):
        return f"action {action!r}"


def new_match(game: GameDef, *, record: bool = False, first_dealer: int | None = None) -> State:
    return State(game, record=record, first_dealer=first_dealer)


def new_hand(game: GameDef, dealt, dealer: int, *, record: bool = False) -> State:
    """A state for one hand from a given deal (piece ids per seat), at the auction."""
    st = State(game, single_hand=True, record=record)
    st.by_lot = False  # the dealer is given
    st.ctx.dealer = dealer
    st.apply_deal(dealt)
    return st
