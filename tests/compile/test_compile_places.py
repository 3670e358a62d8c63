"""Each place's vocabulary comes from definition/places.py and reads only the fields it declares."""

from __future__ import annotations

import itertools
import random

import pytest

from tablerules.definition import GameDef, places
from tablerules.errors import GameError
from tablerules.expr.env import Env, Var
from tablerules.expr.types import BOOL, INT, SCALAR
from tablerules.interpreter import compile_tree, vocab
from tablerules.interpreter.auction import BidCtx
from tablerules.interpreter.contracts import LevelCtx
from tablerules.interpreter.pieces import TileCtx
from tablerules.interpreter.tables import TableCtx
from tablerules.load.ruleset import builtin_names, load_tree

TYPES = {"int": INT, "bool": BOOL, "scalar": SCALAR, "tile": INT, "bid": INT, "end": INT}
DECL_VARS = {"trump": Var(SCALAR, lambda c: c.decl[0])}
KEYS = [p.keys[0] for p in places.PLACES]


class Recorder:
    """A context that remembers which fields were read."""

    def __init__(self) -> None:
        object.__setattr__(self, "read", set())

    def __getattr__(self, name: str):
        self.read.add(name)
        return (0,)


def _env(key: str) -> Env:
    funcs = vocab.group_funcs({}, INT)
    return vocab.place_env(key, Env(), TYPES, DECL_VARS, funcs)


@pytest.mark.parametrize("key", KEYS)
def test_each_name_reads_the_field_places_py_gives_it(key):
    p = places.place(key)
    env = _env(key)
    declared = {n.name: n.field for n in p.names}
    expected_names = set(declared) | (set(DECL_VARS) if "declarations" in p.groups else set())
    assert set(env.vars) == expected_names
    for name, var in env.vars.items():
        ctx = Recorder()
        var.get(ctx)
        assert ctx.read == ({declared[name]} if name in declared else {"decl"})
    if p.stage == "play":
        assert set(declared.values()) <= set(places.CONTEXT)


def test_groups_bring_their_functions():
    assert set(_env("outcome.over").funcs) == {"points", "tricks", "score", "pips_left", "chips",
                                               "dealt_to", "played_by", "taken_by", "trick_of",
                                               "stock_left", "laid_away"}
    assert set(_env("scoring.match_over").funcs) == {"score", "chips"}
    assert set(_env("play.sits_out").funcs) == {"holder"}
    assert _env("auction.beats").funcs == {}


def test_an_env_keeps_the_where_it_is_given():
    assert _env("auction.beats").where == "auction.beats"
    env = vocab.place_env("play.lead", Env(), TYPES, where="contracts.points.play.lead")
    assert env.where == "contracts.points.play.lead"


@pytest.mark.parametrize("ctx_class, keys", [
    (TileCtx, ["pieces.filter"]),
    (LevelCtx, ["bid.rank"]),
    (BidCtx, ["auction.forced.bids"]),
    (TableCtx, ["play.lead", "play.follows", "play.must_follow"]),
])
def test_compile_stage_contexts_have_exactly_the_declared_fields(ctx_class, keys):
    fields = set()
    for key in keys:
        p = places.place(key)
        assert p.stage == "compile"
        fields |= {n.field for n in p.names} | ({"decl"} if "declarations" in p.groups else set())
    extra = {"high"} if ctx_class is BidCtx else set()  # beats is tabulated with the same context
    assert set(ctx_class.__slots__) == fields | extra


class StrictCtx:
    """Only the fields of the engine's context: any other read is an AttributeError."""

    __slots__ = tuple(places.CONTEXT)


def _contexts(gd: GameDef, count: int = 30):
    rng = random.Random(7)
    n, seats, sides = len(gd.pieces), gd.seat_count, len(gd.sides)
    combos = list(itertools.product(*(d.values for d in gd.declarations)))
    for _ in range(count):
        c = StrictCtx()
        for f in ("dealer", "actor", "passes", "asked", "bidder", "went_out"):
            setattr(c, f, rng.randrange(seats))
        c.bidder_side, c.side = gd.side_of[c.bidder], rng.randrange(sides)
        c.high, c.offered = rng.randrange(len(gd.bids)), rng.randrange(len(gd.bids))
        c.bid = rng.randrange(1, len(gd.bids)) if len(gd.bids) > 1 else 0
        c.decl = rng.choice(combos)
        c.hand, c.dealt = tuple(rng.sample(range(n), 5)), tuple(rng.sample(range(n), 15))
        c.trick, c.tile = tuple(rng.sample(range(n), 2)), rng.randrange(n)
        c.leading, c.blocked, c.made, c.spinner_open = (rng.random() < .5 for _ in range(4))
        c.points, c.tricks, c.score = ([rng.randrange(40) for _ in range(sides)] for _ in range(3))
        c.points_against, c.tricks_against, c.tricks_played = 3, 1, 4
        c.ends, c.spinner_pips, c.hands_played = [(5, False, False), (6, True, False)], 6, 3
        c.pips_left = lambda side: 10
        c.holder = lambda t: 0
        c.turn, c.payer, c.payee = rng.randrange(seats), 0, 1
        c.chips = [100] * seats
        c.dealt_hands = tuple(tuple(rng.sample(range(n), 5)) for _ in range(seats))
        c.stock = tuple(rng.sample(range(n), 3))
        c.played_by = lambda t: t % seats
        c.taken_by = lambda t: t % seats
        c.trick_of = lambda t: 1 + t % 12
        c.laid_away = lambda s: ()
        c.memo = None  # outside a pass, as the engine leaves it
        yield c


def _hooks(gd: GameDef):
    a = gd.auction
    yield from (gd.next_dealer, a.first, a.beats_dyn, a.all_pass_seat, a.forced_when,
                gd.score_hand, gd.match_over)
    for c in gd.contracts:
        yield from (c.requires, c.confirm, c.over, c.made, c.play.leader, c.play.sits_out,
                    c.play.legal, c.play.trick_points)
        yield from (s.by for s in c.declare)
        if c.exchange:
            yield c.exchange.by
        if c.play.layout:
            yield c.play.layout.scores


@pytest.mark.parametrize("name", builtin_names())
def test_every_hook_reads_only_the_engine_context(name):
    gd = compile_tree(load_tree(name))
    hooks = [h for h in _hooks(gd) if h is not None]
    assert hooks
    for ctx in _contexts(gd):
        for hook in hooks:
            try:
                hook(ctx)
            except GameError:  # a random context may ask for a side or seat that is not there
                pass
