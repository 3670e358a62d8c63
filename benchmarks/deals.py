"""Deterministic deals for the benchmarks: 28 double-six tiles shuffled into 4 hands of 7."""

from __future__ import annotations

import random

DOUBLE_SIX: list[tuple[int, int]] = [(hi, lo) for hi in range(7) for lo in range(hi + 1)]


def make_deals(n: int, seed: int) -> list[list[list[tuple[int, int]]]]:
    """n deals from random.Random(seed); each deal is 4 hands (seats 0..3) of 7 (hi, lo) tuples
    with hi >= lo. The same (n, seed) always gives the same deals."""
    rng = random.Random(seed)
    deals = []
    for _ in range(n):
        tiles = DOUBLE_SIX[:]
        rng.shuffle(tiles)
        deals.append([tiles[0:7], tiles[7:14], tiles[14:21], tiles[21:28]])
    return deals
