"""The batch engine: many hands played in compiled code (numba), checked by the step engine.

`compile_batch(game)` turns a compiled game (GameDef) into a numba module (`kernel.py`: the
game's tables as arrays, its hooks through the expression language's typed back end
`typed.py`) and returns a `Batch`; `Batch.play(n, seed)` deals and plays n hands with
uniformly random legal choices and returns every decision and result (`Hands`).
`verify(game, hands, sample)` replays hands through the step engine (the Game/State API),
which must agree on every decision (the same number of legal actions, the action among them)
and on the result. `compile_steps(game)` is the other way round: the step engine's API on the
kernel, a hand one decision at a time (steps.py).

numba is an optional extra (`pip install 'tablerules[fast]'`): `available()` says whether it
is installed, and `compile_batch` raises BatchUnavailable when it is not. A ruleset the kernel
has no form of raises NotBatchable naming the part (the step engine plays every ruleset).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from ..definition import GameDef
from ..errors import GameError
from .kernel import MATCH_RESULT, RESULT, Builder, ruleset_fault, decisions_bound, result_width
from .loader import BatchUnavailable, _compiling, _load, available, cache_dir, seat_agents
from .steps import CompiledHand, Steps, compile_steps
from .typed import NotBatchable

__all__ = ["MATCH_RESULT", "RESULT", "Batch", "BatchUnavailable", "CompiledHand", "Hands", "Matches",
           "NotBatchable", "Steps", "available", "cache_dir", "compile_batch", "compile_steps",
           "seat_agents", "verify"]


@dataclass
class Hands:
    """What a batch played: per hand its deal, dealer, decisions and result (numpy arrays)."""

    deals: Any  # (n, seats) piece masks as dealt
    stocks: Any  # (n, stock) piece ids of the stock, in drawing order
    dealers: Any  # (n,)
    actions: Any  # (n, max decisions) action ids, -1 past the last
    legal: Any  # (n, max decisions) how many actions were legal at each decision
    # (n, kernel.result_width): error, thrown_in, contract, ..., points, scored, then with
    # scoring.chips the chips of each payment (`paid`)
    results: Any
    first: int = 0  # the run's number (from 0) of hand 0 here, for what verify says of them

    def __len__(self) -> int:
        return len(self.dealers)

    def column(self, name: str):
        return self.results[:, RESULT.index(name)]

    def points(self, sides: int):
        return self.results[:, len(RESULT):len(RESULT) + sides]

    def scored(self, sides: int):
        return self.results[:, len(RESULT) + sides:len(RESULT) + 2 * sides]

    def paid(self, game, i: int) -> list[dict]:
        """Hand i's payments as State.hand_result() lists them (`from`, `to`, `chips`, `for`)."""
        n = game.seat_count
        col = len(RESULT) + 2 * len(game.sides)
        row = self.results[i]
        out = []
        for name, _ in game.match.pays:
            for payer in range(n):
                for payee in range(n):
                    if payee == payer:
                        continue
                    x = int(row[col])
                    col += 1
                    if x:
                        out.append({"from": payer, "to": payee, "chips": x, "for": name})
        return out


@dataclass
class Matches:
    """A block of matches a batch played: their hands, row by row (`hands`, `row_match`: the
    match of each row, counted from the block's first), and a result row per match."""

    first: int  # the number of the block's first match in the run
    hands: Hands
    row_match: Any  # (rows,) the match (0-based in the block) each hand row belongs to
    # (matches, MATCH_RESULT + sides + seats): error, hands, deals, winners, the score per
    # side, then with scoring.chips each seat's chips at the end
    results: Any

    def __len__(self) -> int:
        return len(self.results)

    def chips(self, m: int, sides: int) -> list[int]:
        """Match m's chips at its end, seat by seat (a match for chips)."""
        return [int(x) for x in self.results[m, len(MATCH_RESULT) + sides:]]

    def winners(self, m: int) -> list[int]:
        bits = int(self.results[m, MATCH_RESULT.index("winners")])
        return [s for s in range(bits.bit_length()) if bits >> s & 1]

    def rows(self, m: int):
        """The hand rows of match m (a match's rows are one run: row_match never decreases)."""
        import numpy as np

        lo, hi = np.searchsorted(self.row_match, [m, m + 1])
        return np.arange(lo, hi)


def _refs(held: list, i: int) -> int:
    return sys.getrefcount(held[i])


_ALONE = _refs([object()], 0)  # the count of an object only a list holds, asked the same way


class _Memory:
    """What a Batch's runs write into: one buffer a run, its arrays cut from it, and the buffer
    used again by a later run once nothing outside holds it (none of the arrays of the run
    that had it, nor views of them, is left). Memory the allocator has just had back costs a
    page fault a page when it is written again (up to a tenth of a hand's time in the batch
    engine, docs/speed.md), and a run's arrays are large enough to be given back when freed.
    At most KEEP buffers are kept: a caller that holds the last run while it asks for the next
    still finds one free."""

    KEEP = 2

    def __init__(self):
        self._held: list = []

    def arrays(self, *specs) -> list:
        """Arrays of the given (shape, dtype, fill), filled, in one buffer."""
        import numpy as np

        cuts, total = [], 0
        for shape, dtype, _ in specs:
            size = int(np.prod(shape)) * np.dtype(dtype).itemsize
            cuts.append((total, size))
            total += -(-size // 8) * 8  # every array starts on 8 bytes
        buf = self._buffer(total)
        out = []
        for (shape, dtype, fill), (at, size) in zip(specs, cuts):
            a = buf[at:at + size].view(dtype).reshape(shape)
            a.fill(fill)
            out.append(a)
        return out

    def _buffer(self, size: int):
        import numpy as np

        free = [i for i in range(len(self._held)) if _refs(self._held, i) <= _ALONE]
        for i in free:
            if self._held[i].nbytes >= size:
                return self._held[i]
        for i in reversed(free):  # free but too small: given back
            del self._held[i]
        buf = np.empty(max(size, 8), dtype=np.uint8)
        self._held.append(buf)
        del self._held[:-self.KEEP]  # the oldest, still held outside, is its holders' alone
        return buf


class Batch:
    """One game compiled for the batch engine."""

    def __init__(self, game: GameDef, source: str, module, agents: tuple = (),
                 seats: list[int] | None = None):
        import numpy as np

        self.game = game
        self.source = source
        self.module = module
        self.agents = agents or (None,) * game.seat_count  # per seat: None is random play
        # per seat the kernel's strategy number (0: random): the run's, so every seating of
        # the same strategies shares one kernel
        self.seats = np.array(seats or [0] * game.seat_count, dtype=np.int64)
        self._memory = _Memory()

    def verify(self, hands: Hands, sample) -> list[str]:
        """`verify` with this batch's agents: a rules seat's every choice is checked too."""
        return verify(self.game, hands, sample, self.agents)

    def compiled_twice(self) -> list[str]:
        """The kernel's functions numba has compiled more than once, for different argument
        types (each copy costs compile time; the generator passes plain int64 and bool, so
        this is empty)."""
        return sorted(name for name, f in vars(self.module).items()
                      if len(getattr(f, "signatures", ())) > 1)

    def ready(self, what: str = "hands", threads: int = 1) -> None:
        """Have numba compile (or load from its cache) the loop of `hands` or `matches` now, not
        in the first call that is timed (a run's clock starts after this). A fault of the
        ruleset the probe meets is left to the run, which says where it met it."""
        try:
            if what == "hands":
                self.play(1, 0, threads=threads)
            else:
                for _ in self.matches(1, 0, first_dealer=0, probe=True):
                    pass
        except GameError:
            pass

    def play(self, n: int, seed: int, *, first: int = 0, threads: int = 1,
             decisions: bool = True) -> Hands:
        """Deal and play hands `first` .. `first + n - 1` of the run `seed`, each seat with its
        agent (random legal choices, or its strategy's); the dealer of hand i is seat i mod
        seats. Hand i is the same however the run is cut into calls (its deal, shuffled in the
        kernel, and its choices are seeded by the seed and i alone). Without `decisions` the
        hands' decisions are not kept (`Hands.actions` and `.legal` have no columns): what a
        summary needs is in the results."""
        return self._run(n, None, None, None, seed, first, threads, True, decisions)

    def play_deals(self, hands, stocks, dealers, seed: int, first: int = 0, *,
                   threads: int = 1) -> Hands:
        """Play the given deals (masks per seat, the stock's piece ids, the dealer); the choices
        of deal k are seeded by `seed` and `first + k`. With `threads` > 1 on numba's threads
        (the same hands)."""
        return self._run(len(dealers), hands, stocks, dealers, seed, first, threads, False)

    def _run(self, n: int, hands, stocks, dealers, seed: int, first: int, threads: int,
             shuffle: bool, decisions: bool = True) -> Hands:
        """Play n hands; with `shuffle` the kernel deals them into arrays made here."""
        import numpy as np

        g = self.game
        width = decisions_bound(g) if decisions else 0
        written = [((n, result_width(g)), np.int64, 0), ((n, width), np.int16, -1),
                   ((n, width), np.int16, 0)]
        if shuffle:
            written += [((n, g.seat_count), np.int64, 0), ((n, max(g.stock, 1)), np.int64, 0),
                        (n, np.int64, 0)]
        results, actions, legal, *dealt = self._memory.arrays(*written)
        if shuffle:
            hands, stocks, dealers = dealt
        try:
            if threads > 1:
                import numba

                numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
                self.module.play_hands_threads(hands, stocks, dealers, np.int64(seed),
                                               np.int64(first), actions, legal, results,
                                               shuffle, np.int64(4 * threads), self.seats)
            else:
                self.module.play_hands(hands, stocks, dealers, np.int64(seed), np.int64(first),
                                       actions, legal, results, shuffle, self.seats)
        except (ValueError, ZeroDivisionError) as e:
            raise GameError(f"the batch engine stopped: {e} (the step engine says where: "
                            "simulate the same ruleset without --engine batch)") from None
        out = Hands(hands, stocks, dealers, actions, legal, results, first)
        bad = np.nonzero(results[:, 0])[0]
        if len(bad):
            i = int(bad[0])
            raise ruleset_fault(int(results[i, 0]),
                                f"the batch engine stopped at hand {first + i + 1}")
        return out


    def matches(self, n: int, seed: int, *, first: int = 0, first_dealer: int | str | None = None,
                probe: bool = False, decisions: bool = True):
        """Matches first .. first + n - 1 of the run `seed`, as blocks of `Matches` (a generator:
        a run of any length keeps flat memory). The first dealer is `first_dealer` (a seat, or
        "rotate": match d is dealt first by seat d mod seats), else the ruleset's
        `deal.first_dealer` (by lot from the match's deal generator). A match's deals come
        from a generator of their own: another ruleset of the same pieces and seats is dealt
        the same hands from the same seed, however differently it plays them. Without
        `decisions` the hands' decisions are not kept (as `play`): match m is the same played
        alone, so a sample to replay is played again with them."""
        import numpy as np

        g = self.game
        if g.match.returns is not None:
            raise NotBatchable("a match's scoring.returns has no kernel form",
                               ("scoring", "returns"))
        dealer = g.first_dealer if first_dealer is None else \
            -2 if first_dealer == "rotate" else first_dealer
        # the rows a block's matches fill (the kernel starts a match only with room for its
        # longest): a few matches (one alone: a sample played again) fill a few rows
        rows = min(max(4 * g.bounds.max_hands, 1 << 15), g.bounds.max_hands + 64 * n)
        width = decisions_bound(g) if decisions else 0
        ns = len(g.sides)
        done = 0
        while done < n:
            results, actions, legal, deals, stocks, dealers = self._memory.arrays(
                ((rows, result_width(g)), np.int64, 0), ((rows, width), np.int16, -1),
                ((rows, width), np.int16, 0), ((rows, g.seat_count), np.int64, 0),
                ((rows, max(g.stock, 1)), np.int64, 0), (rows, np.int64, 0))
            # a block plays at most a match a row: its results' rows are made for those only,
            # not for every match of the run still to play (a billion matches: 74.5 GiB)
            k = min(n - done, rows)
            mres = np.zeros((k, len(MATCH_RESULT) + ns + g.seat_count), dtype=np.int64)
            try:
                played, used = self.module.play_matches(
                    np.int64(k), np.int64(seed & 0x7FFF_FFFF_FFFF_FFFF),
                    np.int64(first + done), np.int64(dealer), deals, stocks, dealers, actions,
                    legal, results, mres, self.seats)
            except (ValueError, ZeroDivisionError) as e:
                raise GameError(f"the batch engine stopped: {e} (the step engine says where: "
                                "simulate the same ruleset without --engine batch)") from None
            played, used = int(played), int(used)
            mres = mres[:played]
            bad = np.nonzero(mres[:, 0])[0]
            if len(bad) and not probe:
                m = int(bad[0])
                raise ruleset_fault(int(mres[m, 0]), f"the batch engine stopped in game "
                                              f"{first + done + m + 1}")
            per = mres[:, MATCH_RESULT.index("deals")]
            row_match = np.repeat(np.arange(played, dtype=np.int64), per)
            hands = Hands(deals[:used], stocks[:used], dealers[:used], actions[:used],
                          legal[:used], results[:used])
            yield Matches(first + done, hands, row_match, mres)
            done += played


def compile_batch(game: GameDef, agents=None) -> Batch:
    """The game compiled for the batch engine (NotBatchable: a part it has no form of;
    BatchUnavailable: numba is not installed). `agents`: one for every seat or one per seat,
    each None or "random" (uniformly random legal choices) or a rules agent object
    (`agents.make_agent("rules", rng, game)`): its strategy is compiled into the kernel."""
    agents = seat_agents(game, agents)
    builder = Builder(game, agents)
    source = builder.build()
    if not available():
        raise BatchUnavailable("the batch engine needs numba: pip install 'tablerules[fast]'")
    batch = Batch(game, source, _load(source), agents, builder.seat_strategy)
    with _compiling(source):  # one process compiles a kernel; the others load its cache
        batch.ready()
    return batch


def verify(game, hands: Hands, sample, agents=None) -> list[str]:
    """Replay hands `sample` (indexes) through the step engine; the disagreements, in words
    (none: every decision and result agreed). `agents` (per seat, None: random): a rules
    agent's seat must also choose in the step engine what the batch chose."""
    from .replay import replay_hands, replay_agents

    if len(hands) and hands.actions.shape[1] == 0:
        raise ValueError("these hands were played without their decisions "
                         "(Batch.play(..., decisions=False)): nothing to replay")
    if agents is None or all(a is None for a in agents):
        return replay_hands(game, hands, sample)
    return replay_agents(game, hands, sample, seat_agents(game, agents))
