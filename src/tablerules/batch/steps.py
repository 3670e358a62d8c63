"""The step engine's API over compiled code: a hand one decision at a time, in the kernel.

`compile_steps(game)` gives `Steps`, whose `new_hand(dealt, dealer)` is a `CompiledHand`: the
Game/State contract of engine/state.py (`current_player`, sorted `legal_actions`,
`apply_action`, `is_terminal`, `clone`, `history`, `hand_result`, ...) for a single hand, played
by the kernel's hand loop written as a generator (stepgen.py): each `apply_action` resumes it
to the next decision. What it does not keep itself (`observation`, `why_not`, `marks`, the
read-only view of the state) it asks of a step-engine state it brings up to date when asked,
so an agent that looks at the table pays for the Python state only then. The kernel is built
from the GameDef as the batch engine's is: it knows no game.
"""

from __future__ import annotations

import struct
from array import array
from itertools import chain

from ..definition import GameDef
from ..errors import CallerError, GameError
from ..engine.phases import CHANCE, DEAL, DONE, TERMINAL
from ..engine.state import State, action_text, new_hand
from .kernel import ERRORS, RESULT, ruleset_fault
from .stepgen import _PARTS, HEAD as _HEAD

_ERR, _THROWN, _CONTRACT, _BID, _BIDDER, _MADE, _FORCED = (RESULT.index(k) for k in (
    "error", "thrown_in", "contract", "bid", "bidder", "made", "forced"))
# the kernel's errors of a deal that is not one (a piece named twice, a number no piece's id):
# the caller's mistake, in the step engine's words
_DEAL_ERRORS = (11, 13)


# the parts of a hand's buffer, by number; the setting's places in io, from its start
_RES, _HIST = _PARTS.index("res"), _PARTS.index("hist")
_AUTO, _SEED, _REPLAY, _IN_MATCH, _PLAYED, _TURN = (_HEAD.index(k) for k in (
    "auto", "seed", "replay", "in_match", "hands_played", "turn"))


class Steps:
    """One game compiled for play one decision at a time (see the module)."""

    def __init__(self, game: GameDef, module, seats: list[int] | None = None,
                 agents: tuple = ()):
        self.game = game
        self.module = module
        self.agents = agents  # per seat: None (random play) or the rules agent compiled in
        self._run = module._steps
        # each part's start in B, B's size, then where io's setting, deal and replay start and
        # where B lies in io (io is the one buffer of a hand: stepgen.py)
        self.places = [int(x) for x in module._steps_places()]
        head, self._ids_at = self.places[len(_PARTS) + 1], self.places[len(_PARTS) + 2]
        self._b_at = self.places[len(_PARTS) + 4]
        self._head_at = head
        self._score_at = self._b_at + int(module.SCORE)
        self._actor_at = self._b_at + int(module.ACTOR)  # the seat deciding (S is B's start)
        self._start = self._run  # what starts a hand's generator (`_compiled`)
        # io before the deal: the setting, and B (which needs no setting)
        self._head = array("q", bytes(8 * self._ids_at))
        self._head[head + _TURN] = -1  # a hand on its own: no turn carried
        for s, k in enumerate(seats or ()):
            self._head[head + len(_HEAD) + len(game.sides) + s] = k
        self._seats = game.seat_count
        self._lens = [game.hand_size] * game.seat_count + ([game.stock] if game.stock else [])
        self._total = sum(self._lens)
        self._get = game.pieces.by_ends.__getitem__
        # a hand's buffer before its deal, with room for it, and the deal's ids written into
        # it by one call (an append to the buffer would move it)
        self._blank = self._head + array("q", bytes(8 * self._total))
        self._put = struct.Struct(f"{self._total}q").pack_into
        self._deal_at = 8 * self._ids_at  # where the deal starts in the buffer, in bytes
        # (high, low) -> id as nested lists, a faster read than the dict's tuple key; -1 where
        # no piece is, and on W rows and columns of padding, so that a negative end (which a
        # list reads from its end) reads -1 too; a larger one raises IndexError
        w = 1 + max((max(e) for e in game.pieces.ends), default=-1)
        by_ends = game.pieces.by_ends
        self._by_pair = [[by_ends.get((a, b), -1) for b in range(w)] + [-1] * w
                         for a in range(w)] + [[-1] * (2 * w)] * w
        # the legal actions read out of io[1:1 + n] as a tuple in one call (tuple(io[...])
        # makes an array first): one reader per count, io's items being int64 ("q")
        acts = _PARTS.index("acts")  # its size: the most actions a decision offers
        width = self.places[acts + 1] - self.places[acts]
        self._legal_of = [struct.Struct(f"{n}q").unpack_from for n in range(width + 1)]

    def new_hand(self, dealt, dealer: int = 0) -> "CompiledHand":
        """A hand from a deal: piece ids (or (high, low) pairs, or names) per seat, then the
        stock when the game has one; at its first decision, as engine/state.py's `new_hand`."""
        if dealer.__class__ is not int or not 0 <= dealer < self._seats:
            raise CallerError(f"the dealer is a seat 0..{self._seats - 1}, got {dealer!r}")
        io = self._blank[:]
        try:  # (high, low) pairs: two list reads a piece (`_read` written out: a call fewer)
            if dealt[0][0].__class__ is not tuple:
                raise TypeError
            pair = self._by_pair
            # a pair that is no piece reads -1, which the kernel refuses (`_end`)
            self._put(io, self._deal_at, *[pair[a][b] for h in dealt for a, b in h])
        except (TypeError, ValueError, IndexError, struct.error):
            if not self._read(dealt, io):  # not pairs of ends of this set: ids, pairs or names
                self._refuse(dealt, dealer)
        try:
            if [*map(len, dealt)] != self._lens:  # (not list(): 0.05 us less)
                raise TypeError
        except TypeError:
            self._refuse(dealt, dealer)
        return _started(self, dealer, io)

    def _compiled(self) -> None:
        """Once the generator is compiled (compile_steps): a hand starts it by its compiled
        entry point, with its three ints as they are (the dispatcher's look-up of their types
        cost about 0.15 us a hand); by the dispatcher when numba does not compile
        (NUMBA_DISABLE_JIT: plain Python) or compiled more than one form."""
        over = getattr(self._run, "overloads", None) or {}
        if len(over) == 1:
            self._start = next(iter(over.values())).entry_point

    def _read(self, dealt, io: array) -> bool:
        """The deal's piece ids written into the hand's buffer `io`, read one by one (ids,
        (high, low) pairs or names: `new_hand` reads pairs of this set's ends itself); False
        when a piece is not one, or the deal has not as many pieces as a deal has."""
        try:
            self._put(io, self._deal_at, *map(self._get, chain.from_iterable(dealt)))
        except (KeyError, TypeError, struct.error):
            return False
        return True

    def playout(self, state, seed: int = 0) -> list[int] | None:
        """The match score once `state` (engine/state.py's, at a decision of a hand of this
        game) has played its hand to the end, every decision from here taken in the kernel by
        the seat's agent (the rules agent, which draws no random number, chooses as in
        Python; a random seat from a generator seeded by `seed`); None when the match ends
        with the hand (its outcome is the match's, which the caller works out). The state is
        left as it was."""
        g = self.game
        if not any(self.agents):
            raise CallerError("play-outs are played by agents compiled in: "
                              "compile_steps(game, agents)")
        if state.game is not g or state.phase in (DEAL, DONE) or state.by_lot:
            raise CallerError("a play-out starts from a decision of a hand of this game")
        start = state.hand_start
        decisions = [a for p, a in state.history[start:] if p != CHANCE]
        io = self._head + array("q", chain(chain.from_iterable(state.dealt_hands),
                                           state.dealt_stock))
        io.extend(decisions)
        h = self._head_at
        io[h + _AUTO] = 1  # every decision past the replayed ones by the seat's agent
        io[h + _SEED] = seed
        io[h + _REPLAY] = len(decisions)
        if not state.single_hand:
            ctx = state.ctx
            io[h + _IN_MATCH] = 1
            io[h + _PLAYED] = ctx.hands_played
            io[h + _TURN] = ctx.turn_before
            for s, v in enumerate(state.start_score):
                io[h + len(_HEAD) + s] = v
        at, n = io.buffer_info()
        for _ in self._run(at, n, state.ctx.dealer):  # it never stops: no decision is asked
            raise RuntimeError("a play-out stopped at a decision")
        over = int(self.module._steps_after(at, n))
        if over < 0:
            raise ruleset_fault(io[self._b_at + self.places[_RES]],
                                "a play-out in the kernel stopped")
        if over:
            return None
        at = self._score_at
        return io[at:at + len(g.sides)].tolist()

    def _refuse(self, dealt, dealer: int):
        """A deal that is not one: the step engine's words for what is wrong with it."""
        ids = []
        try:
            for h in dealt:
                ids.append(tuple(t if isinstance(t, int) else self._get(tuple(t)
                                 if not isinstance(t, str) else t) for t in h))
        except (KeyError, TypeError):
            raise CallerError("a deal names a piece that is not one of this set") from None
        new_hand(self.game, tuple(ids), dealer)  # raises CallerError
        raise CallerError(f"a deal is {len(self._lens)} lists of pieces, of "
                          f"{', '.join(map(str, self._lens))}")


class CompiledHand:
    """One hand on the kernel, one decision at a time: see the module."""

    __slots__ = ("steps", "dealer", "_io", "_mem", "_gen", "_legal", "_unpack", "_shadow",
                 "_synced")

    def __init__(self, *args, **kwargs):
        raise TypeError("a compiled hand comes from Steps.new_hand (or a hand's clone())")

    def _go(self) -> None:
        """On to the next decision (or the hand's end)."""
        try:
            n = next(self._gen)  # the number of legal actions
        except StopIteration:
            self._end()
            return
        except (ValueError, ZeroDivisionError) as e:
            raise self._stopped(e) from None
        self._legal = self._unpack[n](self._mem, 8)

    @staticmethod
    def _stopped(e: Exception) -> GameError:
        return GameError(f"the compiled hand stopped: {e} (the step engine says where: play "
                         "the hand with Game.new_hand)")

    def _end(self) -> None:
        self._legal = ()
        st = self.steps
        code = self._io[st._b_at + st.places[_RES] + _ERR]
        if code in _DEAL_ERRORS:
            raise CallerError(ERRORS[code])
        if code:
            raise ruleset_fault(code, f"the compiled hand stopped after "
                                      f"{len(self._decisions())} decisions")

    @property
    def game(self) -> GameDef:
        return self.steps.game

    @property
    def history(self) -> list[tuple[int, int]]:
        """Every action, as engine/state.py's: the deal's chance actions (CHANCE, piece), each
        seat's pieces then the stock's, then each decision (seat, action)."""
        st = self.steps
        return [(CHANCE, t) for t in self._io[st._ids_at:].tolist()] + self._decisions()

    def _decisions(self) -> list[tuple[int, int]]:
        at = self.steps._b_at + self.steps.places[_HIST]
        n = self._io[at]
        flat = self._io[at + 1:at + 1 + 2 * n].tolist()
        return list(zip(flat[::2], flat[1::2]))

    @property
    def dealt(self) -> tuple:
        """The deal: each seat's piece ids, then the stock's when the game has one."""
        st = self.steps
        ids = self._io[st._ids_at:].tolist()
        out, at = [], 0
        for k in st._lens:
            out.append(tuple(ids[at:at + k]))
            at += k
        return tuple(out)

    # -- the contract ------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return not self._legal  # a decision always offers one action at least

    def is_chance_node(self) -> bool:
        return False

    def current_player(self) -> int:
        return self._io[self.steps._actor_at] if self._legal else TERMINAL

    @property
    def actor(self) -> int:
        return self.current_player()

    def legal_actions(self) -> tuple[int, ...]:
        return self._legal

    def apply_action(self, action: int) -> None:
        """Apply the next decision; one not legal now is the caller's mistake (CallerError):
        the kernel checks it, and waits at the same decision (its count negative). (`_go`
        written out: a call fewer at every decision.) The action goes to the kernel through
        the buffer's memoryview (`_mem`): a store into the array itself made whole hands take
        1.04 times as long (docs/speed.md)."""
        mem = self._mem
        try:
            mem[0] = action
        except (TypeError, ValueError):  # not an int64: not an action
            raise CallerError(self._not_legal(action)) from None
        try:
            n = next(self._gen)
        except StopIteration:
            if not self._legal:
                raise CallerError("the hand is over: no action is legal") from None
            self._end()
            return
        except (ValueError, ZeroDivisionError) as e:
            raise self._stopped(e) from None
        if n < 0:  # the kernel found it is not among the legal actions: nothing changed
            raise CallerError(self._not_legal(action))
        self._legal = self._unpack[n](mem, 8)

    def _not_legal(self, action) -> str:
        return (f"{self.action_to_string(action)} is not a legal action for "
                f"{self.player_name()} (legal: "
                f"{', '.join(self.action_to_string(a) for a in self._legal)})")

    def clone(self) -> "CompiledHand":
        """An independent copy: the same deal and decisions, replayed in the kernel."""
        hand = _started(self.steps, self.dealer, array("q", self._io))
        mem = hand._mem
        for _, a in self._decisions():  # the same actions again, in the kernel
            mem[0] = a
            hand._go()
        return hand

    def returns(self) -> list[float]:
        """A single hand: 0 for every seat (as engine/state.py's)."""
        return [0.0] * self.steps._seats

    def hand_result(self) -> dict | None:
        """The hand's result once it is over (engine/state.py's keys), else None."""
        if self._legal:
            return None
        st = self.steps
        p, b = st.places, st._b_at
        row = self._io[b + p[_RES]:b + p[_RES + 1]].tolist()
        if row[_THROWN]:
            return {"thrown_in": True}
        g = self.game
        if g.match.stake is not None:  # the payments, as the step engine lists them
            return self._state().hand_result()
        ns = len(g.sides)
        at = len(RESULT)
        return {"thrown_in": False, "contract": g.contracts[row[_CONTRACT]].name,
                "bid": g.bids[row[_BID]].label, "bidder": row[_BIDDER],
                "forced": bool(row[_FORCED]), "made": bool(row[_MADE]),
                "points": row[at:at + ns], "scored": row[at + ns:at + 2 * ns]}

    def action_to_string(self, action: int) -> str:
        return action_text(self.game, action)

    def player_name(self) -> str:
        return self.game.seat_names[self.current_player()] if self._legal else "nobody"

    # -- the rest, from the step engine's state at the same point -----------------------------

    def _state(self):
        """engine/state.py's state of this hand, brought up to this decision."""
        if self._shadow is None:
            self._shadow = new_hand(self.game, self.dealt, self.dealer)
            self._synced = 0
        sh, k = self._shadow, self._synced
        done = self._decisions()
        for _, a in done[k:]:
            sh.apply_action(a)
        self._synced = len(done)
        return sh


def _started(steps: Steps, dealer: int, io) -> CompiledHand:
    """A hand on `io` (its setting and deal written in), at its first decision: made by
    object.__new__, not by a call of the class (paired in one process, whole hands took 0.988
    and 0.990 of the time with it; docs/speed.md)."""
    hand = _new(CompiledHand)
    hand.steps = steps
    hand.dealer = dealer
    # the generator reads and writes io by its address (native.py): io lives as long as the
    # generator does (both are the hand's), and nothing resizes it
    hand._io = io
    hand._mem = memoryview(io)  # (a view of io: io is never resized)
    hand._shadow = None
    hand._unpack = steps._legal_of
    # resumed by next(), not its __next__ (a method wrapper: 10 ns more a call)
    hand._gen = steps._start(*io.buffer_info(), dealer)
    hand._go()
    return hand


_new = object.__new__


def _from_state(name: str) -> property:
    return property(lambda self: getattr(self._state(), name),
                    doc=f"engine/state.py's `{name}`, from its state at this decision")


# The rest of engine/state.py's State, read from the step-engine state at the same decision:
# each public name the hand does not answer itself is a property of the class (not a
# __getattr__, which would slow every attribute of the hand: CPython then looks each one up
# through it, about 0.3 us a decision). What changes a state other than by an action is left
# out: on the shadow it would change what the hand shows and not the hand.
_CHANGES = {"advance", "apply_deal", "deal_random", "reset_hand"}
for _name in sorted({n for n in dir(State) if not n.startswith("_")} | set(State.__slots__)):
    if not (_name.startswith("_") or _name in _CHANGES or hasattr(CompiledHand, _name)):
        setattr(CompiledHand, _name, _from_state(_name))
del _name


def compile_steps(game, agents=None) -> Steps:
    """`game` (a Game or its GameDef, loaded with typed=True) compiled for play one decision at
    a time; `agents` (as compile_batch's: one for every seat or one per seat, None or "random"
    or a rules agent) play a `Steps.playout`. As `compile_batch`, NotBatchable names a part the
    kernel has no form of and BatchUnavailable says numba is missing."""
    from .loader import BatchUnavailable, _compiling, _load, available, seat_agents
    from .kernel import Builder
    from .typed import NotBatchable

    game = getattr(game, "definition", game)
    agents = seat_agents(game, agents)
    builder = Builder(game, agents)
    source = builder.build()
    if not available():
        raise BatchUnavailable("compiled steps need numba: pip install 'tablerules[fast]'")
    with _compiling(source, "steps"):  # as compile_batch: one process compiles, others load
        try:
            steps = Steps(game, _load(source), builder.seat_strategy, agents)
            io = array("q", steps._head)
            steps._run(*io.buffer_info(), 0)  # numba compiles (or loads) _steps
            steps._compiled()
            if any(agents):  # and what a play-out calls after it, not in the first play-out
                steps.module._steps_after(*io.buffer_info())
        except Exception as e:  # numba's: the generator has no compiled form here
            if type(e).__module__.split(".")[0] != "numba":
                raise
            raise NotBatchable("the hand loop did not compile as a generator for this ruleset "
                               f"(numba: {str(e).splitlines()[0][:200]}); Game.new_hand plays "
                               "it") from None
    return steps
