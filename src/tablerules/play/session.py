"""One game a person plays against bots: the loop, the bots' moves as they happen, the record
written after every step, and a resumed game brought back to where it stopped."""

from __future__ import annotations

import random
from typing import Callable

from ..agents import make_agent
from ..engine.observe import HIDDEN, HIDDEN_NAME, visible_actions
from ..engine.state import State
from ..errors import GameError, RecordError, Span
from ..records.runner import deal_rng, game_seed, signals_held
from . import record
from .choose import resolve
from ..records.replay import by_side, contract_text, side_name, turn_text
from .screen import choices, screen

QUIT = -1


class Session:
    """A match with a person at `seat` and bots elsewhere, its record at `path`."""

    def __init__(self, game, seat: int, agents: list[str], seed: int, path: str,
                 out: Callable[[str], None], colour: bool = False):
        gd = self.gd = game.definition
        self.game = game
        self.seat = seat
        self.seed = seed
        self.path = path
        self.out = out
        self.colour = colour
        base = game_seed(seed, 0)  # game 1 of a run seeded `seed`, as simulate deals it
        self.deal_rng = deal_rng(seed, 0)
        self.agents = {s: make_agent(agents[s % len(agents)], random.Random(f"{base}:seat{s}"), gd)
                       for s in range(gd.seat_count) if s != seat}
        self.head = record.header(game, seed, [agents[s % len(agents)] if s != seat else
                                               agents[0] for s in range(gd.seat_count)], seat,
                                    path)
        self.st = State(gd, record=True)
        self.lines: list[dict] = [{"type": "game", "game": 1, "seed": base}]
        self.quiet = False
        self.held: list[str] | None = None  # a resumed game's hand so far, told by `retell`

    def say(self, text: str) -> None:
        if self.held is not None:
            self.held.append(text)
        elif not self.quiet:
            self.out(text)

    def retell(self) -> None:
        """The hand a resumed game stopped in, told as it was when it was played (its deal and
        each move as the person saw them), so the turn after it reads as the game left off."""
        for text in self.held or ():
            self.out(text)
        self.held = None

    def save(self) -> None:
        record.write(self.path, self.head, self.lines, self.st.is_terminal())

    # -- steps -----------------------------------------------------------------------------

    def deal(self) -> None:
        self.st.deal_random(self.deal_rng)
        self.take_events()

    def apply(self, seat: int, action: int) -> None:
        st = self.st
        self.lines.append({"type": "decision", "action": st.action_to_string(action)})
        name = self.gd.action_label(action)  # the record keeps the action's own name
        who = f"{self.gd.seat_names[seat]}{' (you)' if seat == self.seat else ''}"
        at = len(st.history)
        st.apply_action(action)
        # as the person saw it: another seat's bury is face down (engine.observe)
        if visible_actions(st, self.seat, at, at + 1) == [(seat, HIDDEN)]:
            name = HIDDEN_NAME
        self.say(f"  {who:<12} {name}")
        self.take_events()

    def bot(self) -> int:
        st = self.st
        s = st.actor
        return self.agents[s].act(s, st.legal_actions(), st.observer(s))

    def take_events(self) -> None:
        st = self.st
        for ev in st.events:
            self.lines.append(ev)
            self.tell(ev)
        st.events.clear()

    def tell(self, ev: dict) -> None:
        """An engine line as people follow it: only what the person may see."""
        gd = self.gd
        name = gd.seat_names
        t = ev["type"]
        if t == "deal":
            self.say(f"\nHand {ev['hand']}: {name[ev['dealer']]} deals"
                     f"{turn_text(ev, name.__getitem__)}")
        elif t == "contract":  # as replay says it
            self.say(contract_text(ev, ev["playing"], name.__getitem__, gd.seat_count,
                                   gd.declaration_names))
        elif t == "trick":
            self.say(f"  trick {ev['n']}: {'  '.join(f'{name[s]} {p}' for s, p in ev['plays'])}"
                     f"  -> {name[ev['winner']]} takes {ev['points']}")
        elif t == "exchange":
            if "took" in ev:
                mine = ev["seat"] == self.seat
                self.say(f"  {name[ev['seat']]} takes the stock" +
                         (f": {' '.join(ev['took'])}" if mine else ""))
        elif t == "draw" and ev["seat"] == self.seat:
            self.say(f"  you draw {ev['piece']}")
        elif t == "lay" and ev.get("scored"):
            self.say(f"  {name[ev['seat']]} counts {ev['scored']}; score {by_side(gd, ev['score'])}")
        elif t == "claim" and ev["seat"] >= 0:
            self.say(f"  {name[ev['seat']]} claims {ev['scored']} for {side_name(gd, ev['side'])}")
        elif t == "hand":
            if ev.get("thrown_in"):
                self.say("  all passed: thrown in")
            else:
                made = "" if "made" not in ev else (" (made)" if ev["made"] else " (set)")
                self.say(f"  hand over{made}: scored {by_side(gd, ev['scored'])}; score "
                         f"{by_side(gd, ev['score'])}")
        elif t == "match":
            won = " and ".join(side_name(gd, s) for s in ev["winner"])
            self.say(f"\nGame over: score {by_side(gd, ev['score'])}; {won} "
                     f"win{'s' if len(ev['winner']) == 1 else ''}")

    # -- resuming --------------------------------------------------------------------------

    def resume(self, steps: list) -> None:
        """Play the recorded steps again (play.record.read's: kind, value, record line): the
        same deals from the seed, the bots' same moves (so their generators stand where they
        stood), the person's moves as recorded. A step that does not play is a RecordError at
        its line of the record."""
        st = self.st
        gd = self.gd
        self.quiet = True
        ln = 0
        last = max((i for i, step in enumerate(steps) if step[0] == "deal"), default=-1)
        try:
            for i, (kind, value, ln) in enumerate(steps):
                at = Span(self.path, ln, 1)
                if i == last:  # the hand it stopped in: kept for `retell`
                    self.held = []
                if kind == "deal":
                    if not st.is_chance_node():
                        raise RecordError("the record deals where the game has a decision to make",
                                          at)
                    self.deal()
                    dealt = next(ev for ev in reversed(self.lines) if ev["type"] == "deal")
                    if dealt["dealt"] != value["dealt"]:
                        raise RecordError("the record's deal is not the one its seed deals", at)
                    continue
                if st.is_chance_node() or st.is_terminal():
                    raise RecordError(f"the record's action {value!r} comes where the game has none",
                                      at)
                seat = st.actor
                a = gd.string_to_action(value)
                if a is None or a not in st.legal_actions():
                    raise RecordError(f"the record's action {value!r} is not legal there", at)
                if seat != self.seat and self.bot() != a:
                    raise RecordError(f"the record says {gd.seat_names[seat]} chose {value}, "
                                      "which its agent does not", at)
                self.apply(seat, a)
        except GameError as e:
            self.held = None
            raise RecordError(f"the record does not play: {e.message}", Span(self.path, ln, 1)) \
                from None
        except RecordError:
            self.held = None
            raise
        finally:
            self.quiet = False

    # -- the loop --------------------------------------------------------------------------

    def run(self, ask: Callable[[str], str | None]) -> str:
        """Play to the end, or until the person quits ("over" or "quit"); `ask(prompt)` reads
        one answer (None at the end of the input)."""
        self.retell()  # a resumed game's hand so far, if it was not told yet
        st = self.st
        while not st.is_terminal():
            seat = st.actor
            a = None if st.is_chance_node() else self.bot() if seat != self.seat \
                else self.turn(ask)
            if a == QUIT:
                return "quit"
            with signals_held():  # the record on disk is the game so far, last move included
                if a is None:
                    self.deal()
                else:
                    self.apply(seat, a)
                self.save()
        return "over"

    def turn(self, ask) -> int:
        """The person's turn: the screen, then answers until one names a legal action."""
        st = self.st
        legal = st.legal_actions()
        self.out(screen(st, self.seat, legal, self.colour))
        while True:
            text = ask("> ")
            if text is None:
                return QUIT
            t = text.strip().lower()
            if not t:
                continue
            if t in ("quit", "exit", "q"):
                return QUIT
            if t in ("help", "?", "h"):
                self.out(f"choose by number or by name: {choices(st, legal)}; quit stops "
                         "(the game is saved)")
                continue
            a, why = resolve(st, text, legal)
            if a is not None:
                return a
            self.out(f"not allowed: {why}")
