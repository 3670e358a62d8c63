"""The process's memory of work done once (tablerules.kept): bounded, oldest dropped first,
shared by threads."""

from __future__ import annotations

import threading

from tablerules.kept import Kept


def test_the_oldest_is_dropped_first():
    k = Kept(3)
    for i in range(5):
        assert k.put(i, str(i)) == str(i)
    assert len(k) == 3
    assert [k.get(i) for i in range(5)] == [None, None, "2", "3", "4"]
    k.put(2, "again")  # kept again: the same place, the others still there
    assert [k.get(i, "-") for i in range(5)] == ["-", "-", "again", "3", "4"]


def test_threads_keep_it_bounded():
    k = Kept(8)

    def fill(base):
        for i in range(2000):
            k.put((base, i), i)

    ts = [threading.Thread(target=fill, args=(b,)) for b in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert len(k) == 8
    assert sum(k.get((b, 1999)) == 1999 for b in range(4)) >= 1  # the newest are kept
