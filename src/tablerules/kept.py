"""Work a process does once and keeps: a bounded map from a key to what was made for it.

A compiled game (`game.check`), a composed file (`load/yamltree.py`), a compiled strategy
(`agents/rules.py`), a strategy vocabulary (`agents/strategy.py`) and the search agent's
compiled play-outs (`agents/search.py`) are each kept here by
everything they are made from, so a process that asks again (a test run, compare's two sides,
a worker's every task) gets the same object. The entry asked for least recently is dropped
first once `keep` are held (a `get` that finds its key makes it the newest, so what a process
keeps asking for stays however many others pass through); `get` and `put` take a lock, so
threads share one without losing entries. Nothing here knows what is kept.
"""

from __future__ import annotations

import threading
from typing import Any, Hashable


class Kept:
    """The `keep` values asked for most recently, by key (a dict in order of use: the first is
    the one asked for least recently)."""

    def __init__(self, keep: int):
        self.keep = keep
        self._values: dict = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, default: Any = None) -> Any:
        with self._lock:
            try:
                value = self._values.pop(key)
            except KeyError:
                return default
            self._values[key] = value  # now the newest
            return value

    def put(self, key: Hashable, value: Any) -> Any:
        """Keep `value` under `key` (the least recently asked for dropped past `keep`); returns
        `value`."""
        with self._lock:
            self._values.pop(key, None)
            self._values[key] = value
            while len(self._values) > self.keep:
                del self._values[next(iter(self._values))]
        return value

    def __len__(self) -> int:
        return len(self._values)
