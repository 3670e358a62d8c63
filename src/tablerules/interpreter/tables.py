"""Trick tables: what each piece leads, follows and ranks, for every contract and declaration."""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, Any

from ..definition import Declaration, Pieces, TrickTables
from ..errors import CheckError
from ..load.yamltree import function_name
from .contracts import ContractDraft

if TYPE_CHECKING:
    from .core import Compiler

MAX_TABLE_COMBOS = 20_000


class TableCtx:
    """The context of `play.lead`, `play.follows`, `play.rank` and `play.must_follow`."""

    __slots__ = ("tile", "led", "decl")

    def __init__(self, decl: tuple):
        self.tile = 0
        self.led = None
        self.decl = decl


def value_key(v: Any) -> tuple:
    """A value with its type: `1` and `true` are different suits and declaration values."""
    return (type(v).__name__, v)


def combinations(comp: Compiler, drafts: list[ContractDraft], declarations: tuple[Declaration, ...]
                 ) -> list[tuple[int, tuple]]:
    """(contract, declared values) for every tricks contract and choice of its declarations."""
    default = tuple(dc.default for dc in declarations)
    combos = []
    for c in drafts:
        if c.tricks is None:
            continue
        # a step asked only `when` something holds may leave the declaration at its default
        choice_lists = [list(choices) + ([default[d]] if when is not None and not any(
            value_key(v) == value_key(default[d]) for v in choices) else [])
                        for d, _, choices, when, _ in c.steps]
        n = 1
        for cl in choice_lists:
            n *= len(cl)
        if n > MAX_TABLE_COMBOS:
            raise CheckError(f"contract '{c.name}' has {n} declaration combinations; at most "
                             f"{MAX_TABLE_COMBOS} are supported",
                             comp.tree.span(("contracts", c.name, "declare")))
        for combo in itertools.product(*choice_lists):
            decl = list(default)
            for (d, *_), v in zip(c.steps, combo):
                decl[d] = v
            combos.append((c.index, tuple(decl)))
    return combos


_WORD = re.compile(r"[a-z_][a-z0-9_]*")
_TRICK_KEYS = ("lead", "follows", "rank", "must_follow")


def declarations_read(comp: Compiler, drafts: list[ContractDraft],
                      declarations: tuple[Declaration, ...]) -> dict[int, frozenset]:
    """Per tricks contract, the declarations its trick rules may read (by name, directly or
    through the functions they call): the tables differ only by those, so combinations that
    differ in the others share one table (a hand's calls and announcements, say)."""
    bodies = {function_name(k): str(v)
              for k, v in (comp.get("functions", default={}) or {}).items()}
    out = {}
    for c in drafts:
        texts = []
        for k in _TRICK_KEYS:
            raw = comp.tree.get(("contracts", c.name, "play", k))
            texts += [str(x) for x in raw] if isinstance(raw, list) else [str(raw)]
        words: set[str] = set()
        todo = texts
        while todo:
            new = {w for t in todo for w in _WORD.findall(t)} - words
            words |= new
            todo = [bodies[w] for w in new if w in bodies]
        out[c.index] = frozenset(dc.index for dc in declarations if dc.name in words)
    return out


def leads(comp: Compiler, draft: ContractDraft, decl: tuple, pieces: Pieces,
          suit_values: list) -> list:
    """The suit (index) each piece leads, or the suits its leader chooses from; new suits are
    appended to `suit_values`."""
    ctx = TableCtx(decl)

    def suit_index(v) -> int:
        k = value_key(v)
        for i, s in enumerate(suit_values):
            if value_key(s) == k:
                return i
        suit_values.append(v)
        return len(suit_values) - 1

    out = []
    for t in range(len(pieces)):
        ctx.tile = t
        v = draft.tricks.lead(ctx)
        if isinstance(v, tuple):
            idx = tuple(dict.fromkeys(suit_index(x) for x in v))
            if not idx:
                raise CheckError(f"contract '{draft.name}': piece {pieces.names[t]} leads no suit",
                                 comp.tree.span(("contracts", draft.name, "play", "lead")))
            out.append(idx[0] if len(idx) == 1 else idx)
        else:
            out.append(suit_index(v))
    return out


def tables(draft: ContractDraft, decl: tuple, lead: list, pieces: Pieces, suit_values: tuple,
           lead_actions: tuple) -> TrickTables:
    """The follow masks and ranks of every suit any contract leads, under `decl`."""
    hooks = draft.tricks
    ctx = TableCtx(decl)
    masks = []
    ranks = []
    tiers = []
    for v in suit_values:
        ctx.led = v
        m = 0
        r = []
        more = [0] * len(hooks.tiers)
        for t in range(len(pieces)):
            ctx.tile = t
            if hooks.follows(ctx):
                m |= 1 << t
            for k, tier in enumerate(hooks.tiers):
                if tier(ctx):
                    more[k] |= 1 << t
            r.append(hooks.rank(ctx))
        masks.append(m)
        ranks.append(tuple(r))
        tiers.append(tuple(more))
    return TrickTables(tuple(lead), tuple(suit_values), tuple(masks), tuple(ranks),
                       bool(hooks.must_follow(ctx)), lead_actions,
                       tuple(tiers) if hooks.tiers else ())
