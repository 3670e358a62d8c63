"""The generic state machine: deal, auction, declarations, trick play, hand and match scoring.

A state follows the Game/State contract: `current_player()` (a seat, CHANCE or TERMINAL),
sorted int `legal_actions()`, `apply_action()`, `is_terminal()`, `observation(seat)`, `returns()`.
Every game-specific decision is a compiled hook or a table of the GameDef.
"""

from __future__ import annotations

import random
from typing import Any

from ..errors import GameError
from ..interpreter.definition import ARMS, CHUNK, CHUNK_MASK, GameDef

CHANCE = -1
TERMINAL = -2

DEAL, AUCTION, DECLARE, PLAY, LEAD, DONE, EXCHANGE, LAYOUT = range(8)
PHASE_NAMES = ("deal", "auction", "declare", "play", "lead", "done", "exchange", "layout")
W, E, N, S = range(4)
EMPTY: tuple = ()  # shared placeholder for per-hand containers that only some modes fill  # layout arms: the line's two ends, then the spinner's two sides


class State:
    """One match (or one hand, when made by `new_hand`) of a compiled game."""

    __slots__ = (
        "game", "phase", "single_hand", "events", "dealer", "hands", "stock", "actor",
        "speakers", "speaker_i", "high", "high_seat", "passes", "bid", "bidder", "bidder_side",
        "contract", "decl", "declare_i", "tables", "active", "nxt", "leader", "led", "trick",
        "trick_seats", "points", "tricks", "tricks_played", "score", "hands_played", "deals",
        "made", "x_side", "x_seat", "x_tile", "history", "_legal", "winner_sides",
        "plays_left", "pending", "all_passed", "x_bid", "trick_n", "n_active", "must_follow",
        "follow_mask", "chunk2", "setup", "buried", "exchange_taking", "arms", "center",
        "spinner", "spinner_pending", "knocks", "went_out", "blocked", "arm_pieces", "cur_ends",
        "legal_fn", "over_fn", "dealt", "decisions_made", "buried_by",
    )

    def __init__(self, game: GameDef, *, single_hand: bool = False, record: bool = False):
        self.game = game
        self.single_hand = single_hand
        self.events: list[dict] | None = [] if record else None
        self.dealer = game.first_dealer
        self.score = [0] * len(game.sides)
        self.hands_played = 0
        self.deals = 0
        self.winner_sides: list[int] = []
        self.decisions_made = 0
        self.chunk2 = game.chunk_bits if len(game.chunk_bits) == 2 else None
        self._reset_hand()
        self.phase = DEAL

    def _reset_hand(self) -> None:
        g = self.game
        n = g.seat_count
        self.hands = [0] * n
        self.dealt: tuple = ()
        self.stock: tuple = ()
        self.actor = CHANCE
        self.speakers: tuple[int, ...] = EMPTY
        self.speaker_i = 0
        self.high = 0
        self.high_seat = -1
        self.passes = 0
        self.pending = None  # (asking seat, bid) while a partner is asked to agree
        self.all_passed = False
        self.x_bid = 0
        self.bid = 0
        self.bidder = -1
        self.bidder_side = -1
        self.contract = -1
        self.decl = g.default_decl
        self.declare_i = 0
        self.tables = None
        self.active = g.all_seats
        self.nxt = g.default_nxt
        self.leader = -1
        self.led = -1
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.trick_n = 0
        self.points = [0] * len(g.sides)
        self.tricks = [0] * len(g.sides)
        self.tricks_played = 0
        self.made = False
        self.x_side = 0
        self.x_seat = 0
        self.x_tile = 0
        self.setup: list = EMPTY  # remaining setup steps after the auction: ("x",) or ("d", i)
        self.buried: list[int] = []
        self.buried_by = -1
        self.exchange_taking = False
        self.arms: list[list[int]] = EMPTY  # per arm: [open number, end piece, pieces on it, playable]
        self.center = -1
        self.arm_pieces: list[list[str]] = EMPTY  # per arm, oriented "near-far" from the center
        self.spinner = -1
        self.spinner_pending: set[int] = EMPTY  # made when a layout starts
        self.cur_ends = None  # the open ends, computed once after each piece laid
        self.knocks = 0
        self.went_out = -1
        self.blocked = False
        self.history: list[tuple[int, int]] = []
        self.plays_left = 0
        self._legal = None

    # -- the contract ------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == DONE:
            return TERMINAL
        if self.phase == DEAL:
            return CHANCE
        return self.actor

    def is_terminal(self) -> bool:
        return self.phase == DONE

    def is_chance_node(self) -> bool:
        return self.phase == DEAL

    def legal_actions(self) -> tuple[int, ...]:
        """Sorted action ids the player to move may take (empty at chance and terminal nodes)."""
        legal = self._legal
        if legal is not None:
            return legal
        ph = self.phase
        if ph == PLAY:
            m = self.hands[self.actor]
            led = self.led
            if led >= 0 and self.must_follow:
                f = m & self.follow_mask[led]
                if f:
                    m = f
            tb = self.chunk2
            legal = tb[0][m & CHUNK_MASK] + tb[1][m >> CHUNK] if tb is not None \
                else self.game.mask_pieces(m)
            legal_fn = self.legal_fn
            if legal_fn is not None:
                keep = []
                for tile in legal:
                    self.x_tile = tile
                    if legal_fn(self):
                        keep.append(tile)
                legal = tuple(keep)
        elif ph == AUCTION:
            legal = self._legal_bids()
        elif ph == DECLARE:
            legal = self.game.contracts[self.contract].declare[self.declare_i].actions
        elif ph == LEAD:
            la = self.tables.lead_actions
            legal = tuple(sorted(la[i] for i in self.tables.lead[self.trick[0]]))
        elif ph == LAYOUT:
            legal = self._legal_lays()
        elif ph == EXCHANGE:
            g = self.game
            if self.exchange_taking:
                legal = (g.take_action, g.leave_action)
            else:
                legal = tuple(g.bury_base + t for t in g.mask_pieces(self.hands[self.actor]))
        else:
            return ()
        if not legal:
            raise GameError(f"{self.game.seat_names[self.actor]} has no legal action in the "
                            f"{PHASE_NAMES[ph]} (hand {self.hands_played + 1})").at(*self._part(ph))
        self._legal = legal
        return legal

    def _seat(self, v: Any, *part: str) -> int:
        """A seat computed by a ruleset expression, checked: a bad one is the ruleset's fault."""
        if type(v) is not int or not 0 <= v < self.game.seat_count:
            raise GameError(f"{'.'.join(part)} gave {v!r}, which is not a seat "
                            f"0..{self.game.seat_count - 1}").at(*part)
        return v

    def _part(self, ph: int) -> tuple:
        """The ruleset part that decides the legal actions of phase `ph`."""
        if ph == AUCTION:
            return ("auction",)
        name = self.game.contracts[self.contract].name
        return ("contracts", name, {DECLARE: "declare", EXCHANGE: "exchange"}.get(ph, "play"))

    def apply_action(self, action: int) -> None:
        """Apply a decision of the player to move; raises GameError if it is not legal."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if action not in legal:
            raise GameError(f"{self.action_to_string(action)} is not a legal action for "
                            f"{self.game.seat_names[self.actor]} "
                            f"(legal: {', '.join(self.action_to_string(a) for a in legal)})")
        self._legal = None
        actor = self.actor
        self.history.append((actor, action))
        ph = self.phase
        if ph == PLAY:
            self.hands[actor] &= ~(1 << action)
            self.plays_left -= 1
            self.trick.append(action)
            self.trick_seats.append(actor)
            n = self.trick_n = self.trick_n + 1
            if n == 1:
                lead = self.tables.lead[action]
                if type(lead) is tuple:
                    self.phase = LEAD
                    return
                self.led = lead
            if n < self.n_active:
                self.actor = self.nxt[actor]
            else:
                self._end_trick()
        elif ph == AUCTION:
            self._speak(action)
        elif ph == DECLARE:
            self._declare(action)
        elif ph == LAYOUT:
            self._lay(action)
        elif ph == EXCHANGE:
            self._exchange(action)
        else:
            self._choose_lead(action)

    def deal_random(self, rng: random.Random) -> tuple[tuple[int, ...], ...]:
        """The chance step: shuffle and deal; returns the deal (hands, then the stock)."""
        order = list(range(len(self.game.pieces)))
        rng.shuffle(order)
        g = self.game
        k = g.hand_size
        hands = [tuple(sorted(order[i * k:(i + 1) * k])) for i in range(g.seat_count)]
        rest = g.seat_count * k
        hands.append(tuple(order[rest:rest + g.stock]))  # in drawing order
        deal = tuple(hands)
        self.apply_deal(deal)
        return deal

    def apply_deal(self, deal) -> None:
        """Apply a chance outcome: one tuple of piece ids per seat, then the stock (widow or boneyard)."""
        if self.phase != DEAL:
            raise GameError("a deal was applied when no deal was due")
        g = self.game
        if len(deal) not in (g.seat_count, g.seat_count + 1):
            raise GameError(f"a deal has {g.seat_count} hands (and a stock)")
        n = g.seat_count
        self.dealt = deal[:n]
        self.stock = tuple(deal[n]) if len(deal) > n else ()
        every = 0
        count = 0
        bit = g.bit.__getitem__
        try:
            hands = self.hands
            for s, h in enumerate(self.dealt):
                m = sum(map(bit, h))
                hands[s] = m
                every |= m
                count += len(h)
            for t in self.stock:
                every |= bit(t)
        except (KeyError, TypeError):
            every = -1

        count += len(self.stock)
        if every < 0 or every.bit_count() != count or every >> len(g.pieces):
            raise GameError("a deal names a piece twice or a piece not in the set")
        self.deals += 1
        if self.events is not None:
            self.events.append({"type": "deal", "hand": self.hands_played + 1,
                                "dealer": self.dealer,
                                "hands": [[g.pieces.names[t] for t in h] for h in self.dealt],
                                **({"stock": [g.pieces.names[t] for t in self.stock]}
                                   if self.stock else {})})
        self._start_auction()

    def observation(self, seat: int) -> dict[str, Any]:
        """What `seat` may know: its own pieces and everything played or said in public."""
        g = self.game
        names = g.pieces.names
        return {
            "seat": seat,
            "phase": PHASE_NAMES[self.phase],
            "to_move": self.current_player(),
            "dealer": self.dealer,
            "hand": [names[t] for t in g.mask_pieces(self.hands[seat])],
            "hand_sizes": [bin(m).count("1") for m in self.hands],
            "history": [[s, g.action_to_string(a) if s == seat or not
                         g.bury_base <= a < g.layout_base else "bury (face down)"]
                        for s, a in self.history],
            "bid": g.bids[self.high if self.phase == AUCTION else self.bid].label,
            "bidder": self.bidder,
            "declarations": {d.name: self.decl[d.index] for d in g.declarations},
            "trick": [[s, names[t]] for s, t in zip(self.trick_seats, self.trick)],
            "points": list(self.points),
            "tricks": list(self.tricks),
            "score": list(self.score),
            "stock_size": len(self.stock),
            # buried pieces are face down: only the seat that buried them knows them
            "buried": [names[t] for t in self.buried] if seat == self.buried_by else [],
            "layout": self.layout_text(),
        }

    def returns(self) -> list[float]:
        """+1 for the seats of the winning side, -1 for the others (0 before the end)."""
        if self.phase != DONE or self.single_hand:
            return [0.0] * self.game.seat_count
        win = set(self.winner_sides)
        return [1.0 if self.game.side_of[s] in win else -1.0 for s in range(self.game.seat_count)]

    def action_to_string(self, action: int) -> str:
        try:
            return self.game.action_to_string(action)
        except ValueError:
            return f"action {action}"

    # -- names read by compiled expressions ----------------------------------------------------

    @property
    def hand(self) -> tuple[int, ...]:
        return self.game.mask_pieces(self.hands[self.actor])

    @property
    def points_against(self) -> int:
        return sum(self.points) - self.points[self.bidder_side]

    @property
    def tricks_against(self) -> int:
        return sum(self.tricks) - self.tricks[self.bidder_side]

    @property
    def leading(self) -> bool:
        return not self.trick

    # -- auction -----------------------------------------------------------------------------

    def _start_auction(self) -> None:
        g = self.game
        if g.fixed_contract >= 0:  # no bidding: every hand is this contract
            self.contract = g.fixed_contract
            self._start_contract()
            return
        first = self._seat(g.auction_first(self), "auction", "first")
        self.speakers = g.speaker_orders[first]
        self.speaker_i = 0
        self.actor = first
        self.phase = AUCTION

    def _legal_bids(self) -> tuple[int, ...]:
        g = self.game
        if self.pending:
            return (g.agree_action, g.decline_action)
        if self.all_passed:
            acts = tuple(g.bids[b].action for b in g.all_pass_bids)
            forced = True
        else:
            forced = g.forced_when(self) if g.forced_when is not None else False
            key = (self.high, forced)
            acts = g.auction_cache.get(key)
            if acts is None:
                bids = g.bids
                ok = [b for b in g.beats[self.high] if not forced or b in g.forced_bids]
                acts = (() if forced else (g.pass_action,)) + tuple(bids[b].action for b in ok)
                g.auction_cache[key] = acts
        if g.has_requires or g.beats_dyn is not None:
            contracts = g.contracts
            bids = g.bids
            base = g.bid_base - 1
            beats = g.beats_dyn if not self.all_passed else None
            verdict: dict[int, bool] = {}
            out = []
            for a in acts:
                if a == g.pass_action:
                    out.append(a)
                    continue
                b = a - base
                c = bids[b].contract
                ok = verdict.get(c)
                if ok is None:
                    req = contracts[c].requires
                    ok = verdict[c] = req is None or bool(req(self))
                if ok and beats is not None:
                    self.x_bid = b
                    ok = bool(beats(self))
                if ok:
                    out.append(a)
            acts = tuple(out)
        return acts

    def _speak(self, action: int) -> None:
        g = self.game
        if self.pending:
            asker, b = self.pending
            self.pending = None
            if action == g.agree_action:
                self.high, self.high_seat = b, asker
            else:
                self.passes += 1
            self._next_speaker()
            return
        if action == g.pass_action:
            self.passes += 1
        else:
            b = action - g.bid_base + 1
            confirm = g.contracts[g.bids[b].contract].confirm
            if confirm is not None and not self.all_passed:
                self.pending = (self.actor, b)
                self.actor = self._seat(confirm(self), "contracts", g.contracts[
                    g.bids[b].contract].name, "bid", "confirm")
                return
            self.high = b
            self.high_seat = self.actor
        self._next_speaker()

    def _next_speaker(self) -> None:
        g = self.game
        self.speaker_i += 1
        if self.speaker_i < len(self.speakers):
            self.actor = self.speakers[self.speaker_i]
            return
        if self.high == 0:
            if g.all_pass_seat is not None and not self.all_passed:
                self.all_passed = True
                self.actor = self._seat(g.all_pass_seat(self), "auction", "all_pass", "seat")
                self.speaker_i -= 1  # one more speaker: the forced seat
                return
            self._end_hand(thrown_in=True)
            return
        self.bid = self.high
        self.bidder = self.high_seat
        self.bidder_side = g.side_of[self.bidder]
        self.contract = g.bids[self.bid].contract
        self._start_contract()

    # -- setup after the auction: the exchange and the declarations -----------------------------

    def _start_contract(self) -> None:
        c = self.game.contracts[self.contract]
        steps: list = [("d", i) for i in range(len(c.declare))]
        if c.exchange is not None:
            steps.insert(0 if c.exchange.first else len(steps), ("x",))
        self.setup = steps
        self._next_setup()

    def _next_setup(self) -> None:
        c = self.game.contracts[self.contract]
        while self.setup:
            step = self.setup[0]
            if step[0] == "d":
                self.declare_i = step[1]
                self.phase = DECLARE
                self.actor = self._seat(c.declare[step[1]].by(self), "contracts", c.name, "declare")
                return
            ex = c.exchange
            self.actor = self._seat(ex.by(self), "contracts", c.name, "exchange", "by")
            if ex.optional and self.stock:
                self.exchange_taking = True
                self.phase = EXCHANGE
                return
            self._take_stock()
            if self._bury_due():
                return
            self.setup.pop(0)
        self._start_play()

    def _take_stock(self) -> None:
        for t in self.stock:
            self.hands[self.actor] |= 1 << t
        if self.events is not None:
            g = self.game
            self.events.append({"type": "exchange", "seat": self.actor, "took":
                                [g.pieces.names[t] for t in self.stock]})
        self.stock = ()

    def _bury_due(self) -> bool:
        if len(self.buried) < self.game.contracts[self.contract].exchange.bury:
            self.phase = EXCHANGE
            return True
        return False

    def _exchange(self, action: int) -> None:
        g = self.game
        if self.exchange_taking:
            self.exchange_taking = False
            if action == g.take_action:
                self._take_stock()
                if self._bury_due():
                    return
            self.setup.pop(0)
            self._next_setup()
            return
        t = action - g.bury_base
        self.hands[self.actor] &= ~(1 << t)
        self.buried.append(t)
        self.buried_by = self.actor
        if self.events is not None:
            self.events.append({"type": "exchange", "seat": self.actor,
                                "buried": g.pieces.names[t]})
        if self._bury_due():
            return
        self.setup.pop(0)
        self._next_setup()

    def _declare(self, action: int) -> None:
        d, value = self.game.decl_actions[action - self.game.decl_base]
        decl = list(self.decl)
        decl[d] = value
        self.decl = tuple(decl)
        self.setup.pop(0)
        self._next_setup()

    # -- trick play ----------------------------------------------------------------------------

    def _start_play(self) -> None:
        g = self.game
        c = g.contracts[self.contract]
        layout = c.play.mode == "layout"
        t = self.tables = None if layout else g.tables(self.contract, self.decl)
        if t is not None:
            self.must_follow = t.must_follow
            self.follow_mask = t.follow_mask
        self.legal_fn = c.play.legal
        self.over_fn = c.over
        n = g.seat_count
        if c.play.sits_out is not None:
            active = []
            for s in range(n):
                self.x_seat = s
                if not c.play.sits_out(self):
                    active.append(s)
            self.active = tuple(active)
            if not active:
                raise GameError(f"contract '{c.name}': every seat sits out").at(
                    "contracts", c.name, "play", "sits_out")
            nxt = [0] * n
            for i, s in enumerate(active):
                nxt[s] = active[(i + 1) % len(active)]
            self.nxt = tuple(nxt)
        if self.events is not None:
            self.events.append({"type": "contract", "contract": c.name,
                                "bid": g.bids[self.bid].label, "bidder": self.bidder,
                                "declarations": {d.name: self.decl[d.index] for d in g.declarations
                                                 if self.decl[d.index] != d.default},
                                "seats": list(self.active)})
        left = 0
        for s in self.active:
            left += self.hands[s].bit_count()
        self.plays_left = left
        leader = c.play.leader(self)
        if leader not in self.active:
            raise GameError(f"contract '{c.name}': the leader, seat {leader}, does not play").at(
                "contracts", c.name, "play", "leader")
        self.leader = leader
        self.actor = leader
        self.led = -1
        self.n_active = len(self.active)
        self.phase = LAYOUT if layout else PLAY

    # -- layout play ---------------------------------------------------------------------------

    def _legal_lays(self) -> tuple[int, ...]:
        g = self.game
        hand = self.hands[self.actor]
        if self.center < 0:
            return g.mask_pieces(hand)
        base = g.layout_base
        masks = g.number_mask
        plays = []
        for a, arm in enumerate(self.arms):
            if arm[3]:
                m = hand & masks[arm[0]]
                if m:
                    plays.extend(base + 4 * t + a for t in g.mask_pieces(m))
        if len(plays) > 1:
            plays.sort()
        lay = g.contracts[self.contract].play.layout
        extra = []
        if self.stock and (lay.may_draw or not plays):
            extra.append(g.draw_action)
        if not plays and not (self.stock and lay.must_draw):
            extra.append(g.knock_action)
        return tuple(extra + plays)

    def _lay(self, action: int) -> None:
        g = self.game
        lay = g.contracts[self.contract].play.layout
        seat = self.actor
        if action == g.draw_action:  # the next piece of the stock, in dealt order
            t = self.stock[0]
            self.stock = self.stock[1:]
            self.hands[seat] |= 1 << t
            if self.events is not None:
                self.events.append({"type": "draw", "seat": seat, "piece": g.pieces.names[t]})
            return
        if action == g.knock_action:
            self.knocks += 1
            if self.events is not None:
                self.events.append({"type": "knock", "seat": seat})
            if self.knocks >= len(self.active):
                self.blocked = True
                self._end_hand()
                return
            self.actor = self.nxt[seat]
            return
        self.knocks = 0
        ends = g.pieces.ends
        if action < len(g.pieces):
            t, arm = action, -1
            self._set_center(t, lay.spinner)
        else:
            t, arm = divmod(action - g.layout_base, 4)
            a = self.arms[arm]
            h, lo = ends[t]
            far = lo if a[0] == h else h
            self.arm_pieces[arm].append(f"{a[0]}-{far}")
            a[0] = far
            a[1] = t
            a[2] += 1
            if arm in self.spinner_pending:
                self.spinner_pending.discard(arm)
                if not self.spinner_pending:  # both main sides covered: its other sides open
                    d = ends[self.spinner][0]
                    self.arms[N] = [d, self.spinner, 0, 1]
                    self.arms[S] = [d, self.spinner, 0, 1]
            elif lay.spinner and self.spinner < 0 and h == lo:
                self.spinner = t
                self.spinner_pending = {arm}
        self.hands[seat] &= ~(1 << t)
        self.plays_left -= 1
        self.cur_ends = None
        scored = lay.scores(self)
        side = g.side_of[seat]
        if scored:
            self.points[side] += scored
            self.score[side] += scored
        if self.events is not None:
            self.events.append({"type": "lay", "seat": seat, "piece": g.pieces.names[t],
                                "on": "first" if arm < 0 else ARMS[arm],
                                "layout": self.layout_text(), "ends": [e[0] for e in self.ends],
                                "scored": scored,
                                "score": list(self.score)})
        if scored and not self.single_hand and g.match_over(self):
            self._end_hand(interrupted=True)
            return
        if not self.hands[seat]:
            self.went_out = seat
            self._end_hand()
            return
        self.actor = self.nxt[seat]

    def _set_center(self, t: int, spinner: bool) -> None:
        h, lo = self.game.pieces.ends[t]
        self.center = t
        self.arms = [[h, t, 0, 1], [lo, t, 0, 1], [h, t, 0, 0], [h, t, 0, 0]]
        self.arm_pieces = [[], [], [], []]
        self.spinner_pending = set()
        if spinner and h == lo:
            self.spinner = t
            self.spinner_pending = {W, E}

    def layout_text(self) -> dict[str, str]:
        """The layout as text: the line west to east, and each open spinner side outward."""
        if self.center < 0:
            return {}
        h, lo = self.game.pieces.ends[self.center]
        west = [_flip(p) for p in reversed(self.arm_pieces[W])]
        line = west + [f"{h}-{lo}"] + self.arm_pieces[E]
        if self.spinner >= 0 and self.spinner != self.center:
            d = self.game.pieces.ends[self.spinner][0]
            line = [x + "*" if x == f"{d}-{d}" else x for x in line]
        elif self.spinner == self.center:
            line = [x + "*" if i == len(west) else x for i, x in enumerate(line)]
        out = {"line": " ".join(line)}
        for arm, name in ((N, "north"), (S, "south")):
            if self.arms[arm][3]:
                out[name] = " ".join(self.arm_pieces[arm]) or "open"
        return out

    @property
    def ends(self) -> tuple:
        """Open ends that count: (pips, end piece is a double, end piece is the spinner)."""
        e = self.cur_ends
        if e is None:
            e = self.cur_ends = self._ends()
        return e

    def _ends(self) -> tuple:
        if self.center < 0:
            return ()
        ends = self.game.pieces.ends
        out = []
        for i, a in enumerate(self.arms):
            if not a[3] or (i >= N and not a[2]):
                continue
            h, lo = ends[a[1]]
            out.append((a[0], h == lo, a[1] == self.spinner))
        return tuple(out)

    @property
    def spinner_open(self) -> bool:
        return self.spinner >= 0 and bool(self.spinner_pending)

    @property
    def spinner_pips(self) -> int:
        return self.game.pieces.ends[self.spinner][0] if self.spinner >= 0 else 0

    @property
    def in_hands(self) -> tuple[int, ...]:
        m = 0
        for h in self.hands:
            m |= h
        return self.game.mask_pieces(m)

    def holder(self, t: int) -> int:
        for s, h in enumerate(self.hands):
            if h >> t & 1:
                return s
        return -1

    def pips_left(self, side: int) -> int:
        pips = self.game.pieces.attrs["pips"]
        return sum(pips[t] for s in self.game.sides[side] for t in self.game.mask_pieces(self.hands[s]))

    def _choose_lead(self, action: int) -> None:
        self.led = action - self.game.lead_base
        self.phase = PLAY
        if self.trick_n < self.n_active:
            self.actor = self.nxt[self.actor]
        else:
            self._end_trick()

    def _end_trick(self) -> None:
        g = self.game
        rank = self.tables.rank[self.led]
        trick = self.trick
        best = 0
        best_rank = rank[trick[0]]
        for i in range(1, len(trick)):
            r = rank[trick[i]]
            if r > best_rank:
                best, best_rank = i, r
        winner = self.trick_seats[best]
        play = g.contracts[self.contract].play
        pts = play.trick_points(self)
        side = g.side_of[winner]
        self.points[side] += pts
        self.tricks[side] += 1
        self.tricks_played += 1
        if self.events is not None:
            names = g.pieces.names
            self.events.append({"type": "trick", "n": self.tricks_played,
                                "led": self.tables.suits[self.led],
                                "plays": [[s, names[t]] for s, t in zip(self.trick_seats, trick)],
                                "winner": winner, "points": pts})
        self.trick = []
        self.trick_seats = []
        self.trick_n = 0
        self.led = -1
        if self.over_fn(self) or not self.plays_left:
            self._end_hand()
            return
        self.leader = winner
        self.actor = winner

    # -- end of a hand and of the match ---------------------------------------------------------

    def _end_hand(self, thrown_in: bool = False, interrupted: bool = False) -> None:
        g = self.game
        marks = [0] * len(g.sides)
        if not thrown_in:
            c = g.contracts[self.contract]
            self.made = bool(c.made(self))
            for s in range(len(g.sides)) if not interrupted else ():
                self.x_side = s
                marks[s] = g.score_hand(self)
            for s in range(len(g.sides)):
                self.score[s] += marks[s]
            self.hands_played += 1
        if self.events is not None:
            ev: dict[str, Any] = {"type": "hand", "hand": self.hands_played, "dealer": self.dealer}
            if thrown_in:
                ev["thrown_in"] = True
            else:
                ev.update({"contract": g.contracts[self.contract].name,
                           "bid": g.bids[self.bid].label, "bidder": self.bidder,
                           "declarations": {d.name: self.decl[d.index] for d in g.declarations},
                           "points": list(self.points), "tricks": list(self.tricks),
                           "made": self.made, "marks": marks, "ended_after_trick": self.tricks_played})
                if c.play.mode == "layout":
                    ev.update({"went_out": self.went_out, "blocked": self.blocked,
                               "pips_left": [self.pips_left(s) for s in range(len(g.sides))]})
            ev["score"] = list(self.score)
            self.events.append(ev)
        if self.single_hand:
            self.phase = DONE
            return
        if not thrown_in and g.match_over(self):
            top = max(self.score)
            self.winner_sides = [s for s, v in enumerate(self.score) if v == top]
            self.phase = DONE
            if self.events is not None:
                self.events.append({"type": "match", "score": list(self.score),
                                    "winner": self.winner_sides, "hands": self.hands_played,
                                    "deals": self.deals})
            return
        if self.deals >= g.max_hands:
            raise GameError(f"the match did not end within {g.max_hands} deals (bounds.max_hands)"
                            ).at("scoring", "match_over")
        dealer = self._seat(g.next_dealer(self), "deal", "next_dealer")
        self._reset_hand()
        self.dealer = dealer
        self.phase = DEAL


def _flip(p: str) -> str:
    a, _, b = p.partition("-")
    return f"{b}-{a}"


def new_match(game: GameDef, *, record: bool = False) -> State:
    return State(game, record=record)


def new_hand(game: GameDef, deal, dealer: int, *, record: bool = False) -> State:
    """A state for one hand from a given deal (piece ids per seat), at the auction."""
    st = State(game, single_hand=True, record=record)
    st.dealer = dealer
    st.apply_deal(deal)
    return st
