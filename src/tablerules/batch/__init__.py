"""The batch engine: many hands played in compiled code (numba), checked by the step engine.

`compile_batch(game)` turns a compiled game (GameDef) into a numba module (`kernel.py`: the
game's tables as arrays, its hooks through the expression language's typed back end
`typed.py`) and returns a `Batch`; `Batch.play(n, seed)` deals and plays n hands with
uniformly random legal choices and returns every decision and result (`Hands`).
`verify(game, hands, sample)` replays hands through the step engine (the Game/State API),
which must agree on every decision (the same number of legal actions, the action among them)
and on the result.

numba is an optional extra (`pip install 'tablerules[fast]'`): `available()` says whether it
is installed, and `compile_batch` raises BatchUnavailable when it is not. A ruleset the kernel
has no form of raises NotBatchable naming the part (the step engine plays every ruleset).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..definition import GameDef
from ..errors import GameError
from .kernel import ERRORS, RESULT, Builder
from .typed import NotBatchable

__all__ = ["Batch", "BatchUnavailable", "Hands", "NotBatchable", "available", "compile_batch",
           "verify"]


class BatchUnavailable(GameError):
    """numba is not installed: the batch engine needs the `fast` extra."""


def available() -> bool:
    """Whether numba can be imported (the `fast` extra)."""
    return importlib.util.find_spec("numba") is not None


def cache_dir() -> Path:
    """Where generated kernels and numba's compiled code are kept between runs:
    $TABLERULES_CACHE, else ~/.cache/tablerules (a temporary directory if neither is writable)."""
    root = os.environ.get("TABLERULES_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "tablerules")
    path = Path(root) / "batch"
    try:
        path.mkdir(parents=True, exist_ok=True)
        return path
    except OSError:
        path = Path(tempfile.gettempdir()) / "tablerules-batch"
        path.mkdir(parents=True, exist_ok=True)
        return path


@dataclass
class Hands:
    """What a batch played: per hand its deal, dealer, decisions and result (numpy arrays)."""

    deals: Any  # (n, seats) piece masks as dealt
    stocks: Any  # (n, stock) piece ids of the stock, in drawing order
    dealers: Any  # (n,)
    actions: Any  # (n, max decisions) action ids, -1 past the last
    legal: Any  # (n, max decisions) how many actions were legal at each decision
    results: Any  # (n, RESULT + 2 * sides): error, thrown_in, contract, ..., points, scored

    def __len__(self) -> int:
        return len(self.dealers)

    def column(self, name: str):
        return self.results[:, RESULT.index(name)]

    def points(self, sides: int):
        return self.results[:, len(RESULT):len(RESULT) + sides]

    def scored(self, sides: int):
        return self.results[:, len(RESULT) + sides:len(RESULT) + 2 * sides]


_LOCK = threading.Lock()
_MODULES: dict[str, Any] = {}


def _load(source: str):
    """The generated module, written once under the cache (numba keeps its machine code there)."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:20]
    with _LOCK:
        mod = _MODULES.get(digest)
        if mod is not None:
            return mod
        path = cache_dir() / f"kernel_{digest}.py"
        if not path.exists() or path.read_text() != source:
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(source)
            os.replace(tmp, path)
        name = f"tablerules_batch_{digest}"
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        _MODULES[digest] = mod
        return mod


class Batch:
    """One game compiled for the batch engine."""

    def __init__(self, game: GameDef, source: str, module, agents: tuple = ()):
        self.game = game
        self.source = source
        self.module = module
        self.agents = agents or (None,) * game.seat_count  # per seat: None is random play

    def verify(self, hands: Hands, sample) -> list[str]:
        """`verify` with this batch's agents: a rules seat's every choice is checked too."""
        return verify(self.game, hands, sample, self.agents)

    def play(self, n: int, seed: int, *, first: int = 0) -> Hands:
        """Deal and play hands `first` .. `first + n - 1` of the run `seed`, each seat with its
        agent (random legal choices, or its strategy's); the dealer of hand i is seat i mod seats. Hand i is the same however the run
        is cut into calls (its deal and its choices are seeded by the seed and i alone)."""
        import numpy as np

        from . import deals as _deals

        g = self.game
        hands, stocks = _deals.deal(g, n, seed, first)
        dealers = (np.arange(first, first + n, dtype=np.int64)) % g.seat_count
        return self.play_deals(hands, stocks, dealers, seed, first)

    def play_deals(self, hands, stocks, dealers, seed: int, first: int = 0) -> Hands:
        """Play the given deals (masks per seat, the stock's piece ids, the dealer); the choices
        of deal k are seeded by `seed` and `first + k`."""
        import numpy as np

        g = self.game
        n = len(dealers)
        width = decisions_bound(g)
        actions = np.full((n, width), -1, dtype=np.int16)
        legal = np.zeros((n, width), dtype=np.int16)
        results = np.zeros((n, len(RESULT) + 2 * len(g.sides)), dtype=np.int64)
        try:
            self.module.play_hands(hands, stocks, dealers, np.int64(seed), np.int64(first), actions,
                                   legal, results)
        except (ValueError, ZeroDivisionError) as e:
            raise GameError(f"the batch engine stopped: {e} (the step engine says where: "
                            "simulate the same ruleset without --engine batch)") from None
        out = Hands(hands, stocks, dealers, actions, legal, results)
        bad = np.nonzero(results[:, 0])[0]
        if len(bad):
            i = int(bad[0])
            raise GameError(f"the batch engine stopped at hand {first + i + 1}: "
                            f"{ERRORS.get(int(results[i, 0]), 'an unknown error')} (the step "
                            "engine says where: simulate the same ruleset without --engine batch)")
        return out


def decisions_bound(g: GameDef) -> int:
    """The most decisions one hand of the kernel can take: every piece played and its lead
    named, the stock taken and buried, two rounds of the auction with every bid confirmed, every
    declaration (a hand past it stops with an error: ERRORS[7])."""
    plays = g.seat_count * g.hand_size + g.stock
    return min(g.bounds.max_steps, 2 * plays + 4 * g.seat_count + 2 + len(g.declarations) + 4)


def seat_agents(game: GameDef, agents) -> tuple:
    """`agents` (one for every seat, or one per seat) as one per seat: None for random play,
    else a rules agent (an object with a compiled `.strategy`, agents/rules.py)."""
    if agents is None:
        return (None,) * game.seat_count
    agents = [None if a is None or a == "random" else a for a in agents]
    if len(agents) == 1:
        agents = agents * game.seat_count
    if len(agents) != game.seat_count:
        raise ValueError(f"{len(agents)} agents for {game.seat_count} seats")
    for a in agents:
        if a is not None and getattr(a, "strategy", None) is None:
            raise NotBatchable(f"the agent {getattr(a, 'name', a)!s} has no kernel form (the "
                               "batch engine plays random and rules agents)")
    return tuple(agents)


def compile_batch(game: GameDef, agents=None) -> Batch:
    """The game compiled for the batch engine (NotBatchable: a part it has no form of;
    BatchUnavailable: numba is not installed). `agents`: one for every seat or one per seat,
    each None or "random" (uniformly random legal choices) or a rules agent object
    (`agents.make_agent("rules", rng, game)`): its strategy is compiled into the kernel."""
    agents = seat_agents(game, agents)
    source = Builder(game, agents).build()
    if not available():
        raise BatchUnavailable("the batch engine needs numba: pip install 'tablerules[fast]'")
    batch = Batch(game, source, _load(source), agents)
    batch.play(1, 0)  # numba compiles here (or loads its cache), not in the first real call
    return batch


def verify(game, hands: Hands, sample, agents=None) -> list[str]:
    """Replay hands `sample` (indexes) through the step engine; the disagreements, in words
    (none: every decision and result agreed). `agents` (per seat, None: random): a rules
    agent's seat must also choose in the step engine what the batch chose."""
    from .replay import replay_hands, replay_agents

    if agents is None or all(a is None for a in agents):
        return replay_hands(game, hands, sample)
    return replay_agents(game, hands, sample, seat_agents(game, agents))
