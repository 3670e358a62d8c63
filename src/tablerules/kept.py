"""Work a process does once and keeps: a bounded map from a key to what was made for it.

A compiled game (`game.check`), a composed file (`load/yamltree.py`), a compiled strategy
(`agents/rules.py`), a strategy vocabulary (`agents/strategy.py`) and the search agent's
compiled play-outs (`agents/search.py`) are each kept here by
everything they are made from, so a process that asks again (a test run, compare's two sides,
a worker's every task) gets the same object. The oldest entry is dropped first once `keep` are
held; `put` takes a lock, so threads share one without losing entries. Nothing here knows what
is kept.
"""

from __future__ import annotations

import threading
from typing import Any, Hashable


class Kept:
    """The last `keep` values by key (a dict in insertion order: the first is the oldest)."""

    def __init__(self, keep: int):
        self.keep = keep
        self._values: dict = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, default: Any = None) -> Any:
        return self._values.get(key, default)

    def put(self, key: Hashable, value: Any) -> Any:
        """Keep `value` under `key` (the oldest dropped past `keep`); returns `value`."""
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.keep:
                del self._values[next(iter(self._values))]
        return value

    def __len__(self) -> int:
        return len(self._values)
