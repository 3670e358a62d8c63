"""Deals made outside the kernel, for `Batch.play_deals` (a benchmark that gives the step
engine the same deals): every hand a uniform shuffle of the pieces, from numpy's generator, as
masks per seat and the stock in drawing order, in blocks of BLOCK hands, block k from the seed
and k, so hand i is the same however a run is cut. `Batch.play` and `Batch.matches` shuffle in
the kernel instead. `as_lists` gives a row's deal as the step engine takes it."""

from __future__ import annotations

import numpy as np

from ..definition import GameDef


BLOCK = 4096


def _order(P: int, seed: int, first: int, n: int):
    """The shuffled pieces of hands first .. first + n - 1: one row each."""
    rows = []
    k0, k1 = first // BLOCK, (first + n - 1) // BLOCK
    for k in range(k0, k1 + 1):
        rng = np.random.default_rng([seed & 0xFFFFFFFFFFFF, k])
        block = rng.permuted(np.tile(np.arange(P, dtype=np.int64), (BLOCK, 1)), axis=1)
        lo = max(first - k * BLOCK, 0)
        hi = min(first + n - k * BLOCK, BLOCK)
        rows.append(block[lo:hi])
    return np.concatenate(rows) if len(rows) > 1 else rows[0]


def deal(game: GameDef, n: int, seed: int, first: int = 0):
    """(hands (n, seats) masks, stocks (n, stock) piece ids): the deals of hands first ..
    first + n - 1 of the run `seed`."""
    P, seats, k = len(game.pieces), game.seat_count, game.hand_size
    order = _order(P, seed, first, n)
    bits = np.left_shift(np.int64(1), order)
    hands = np.empty((n, seats), dtype=np.int64)
    for s in range(seats):
        hands[:, s] = bits[:, s * k:(s + 1) * k].sum(axis=1)
    stocks = np.ascontiguousarray(order[:, seats * k:seats * k + game.stock])
    if game.stock == 0:
        stocks = np.zeros((n, 1), dtype=np.int64)
    return hands, stocks


def as_lists(game: GameDef, hands, stocks, i: int) -> tuple:
    """Hand i's deal as the step engine takes it: piece ids per seat, then the stock."""
    out = [game.mask_pieces(int(m)) for m in hands[i]]
    if game.stock:
        out.append(tuple(int(t) for t in stocks[i][:game.stock]))
    return tuple(out)
