"""The process's memory of work done once (tablerules.kept): bounded, the entry asked for least
recently dropped first, shared by threads."""

from __future__ import annotations

import threading

from tablerules.kept import Kept


def test_the_least_recently_asked_for_is_dropped_first():
    k = Kept(3)
    for i in range(5):
        assert k.put(i, str(i)) == str(i)
    assert len(k) == 3
    assert [k.get(i) for i in range(5)] == [None, None, "2", "3", "4"]
    k.put(2, "again")  # kept again: the others still there
    assert [k.get(i, "-") for i in range(5)] == ["-", "-", "again", "3", "4"]


def test_what_is_asked_for_stays_while_others_pass_through():
    """A process that keeps asking for one entry (a test run's default game between others)
    keeps it however many others are kept after it."""
    k = Kept(3)
    k.put("often", 0)
    for i in range(10):
        k.put(i, i)
        assert k.get("often") == 0
    assert len(k) == 3 and k.get(8) == 8 and k.get(7) is None


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
