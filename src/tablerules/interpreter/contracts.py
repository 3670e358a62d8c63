"""The `contracts:` pass: each contract's bids, declarations, exchange, play and outcome."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..definition import BidDef, Declaration, ExchangeDef, LayoutDef, PlayDef
from ..definition.game import LINE_ARMS, SPINNER_ARMS, Fn
from ..errors import did_you_mean
from ..expr.types import BOOL, INT, SCALAR, Attr, ListType, ObjType, enum
from . import vocab
from .vocab import Scope

if TYPE_CHECKING:
    from .core import Compiler

NO_BID = "none"


class LevelCtx:
    """The context of `bid.rank`, `bid.marks` and `bid.label`: one level of a contract."""

    __slots__ = ("level",)

    def __init__(self, level: int):
        self.level = level


@dataclass(frozen=True)
class TrickHooks:
    """The trick-play expressions the compiler tabulates (see tables.py), never run in play."""

    lead: Fn
    follows: Fn
    rank: Fn
    must_follow: Fn
    tiers: tuple = ()  # further `play.follows` tiers, tried in order when the first has nothing


@dataclass(frozen=True)
class ContractDraft:
    """A compiled contract before the action space exists: declare steps have no actions yet."""

    index: int
    name: str
    title: str
    requires: Fn | None
    confirm: Fn | None
    exchange: tuple[ExchangeDef, ...] | None  # one or more, in order
    steps: tuple[tuple, ...]  # (declaration, by, choices, when, allow)
    play: PlayDef
    tricks: TrickHooks | None  # None for a layout contract
    over: Fn
    made: Fn
    exchange_pos: int = -1  # how many declarations come before the exchange (-1: by `first`)


def bid_type(contract_names: list[str]) -> tuple[ObjType, dict[str, list]]:
    """The `bid` type and its attribute tables per bid index, filled by `fill_bid_tables`."""
    tables: dict[str, list] = {"contract": [NO_BID], "level": [0], "rank": [-1], "marks": [0]}
    attrs = {"contract": Attr(enum(contract_names + [NO_BID]), tables["contract"].__getitem__,
                              "the contract's name")}
    for a in ("level", "rank", "marks"):
        attrs[a] = Attr(INT, tables[a].__getitem__, f"the bid's {a}")
    return vocab.bid_type(attrs), tables


def fill_bid_tables(tables: dict[str, list], bids: list[BidDef]) -> None:
    for b in bids[1:]:
        tables["contract"].append(b.contract_name)
        tables["level"].append(b.level)
        tables["rank"].append(b.rank)
        tables["marks"].append(b.marks)


def contracts(comp: Compiler, scope: Scope, declarations: tuple[Declaration, ...]
              ) -> tuple[list[ContractDraft], list[BidDef]]:
    """Every contract that compiles, and every bid (index 0 is "no bid yet"; no actions yet)."""
    decl_by_name = {dc.name: dc for dc in declarations}
    drafts: list[ContractDraft] = []
    bids = [BidDef(0, -1, NO_BID, 0, -1, 0, -1, NO_BID)]
    labels: set[str] = set()
    raw = comp.get("contracts", default={})
    if not raw:
        comp.error(("contracts",), "a ruleset needs at least one contract", kind="schema")
    for name, spec in raw.items():
        cp = ("contracts", name)
        if not isinstance(spec, dict):
            continue
        idx = len(drafts)
        title = str(spec.get("title") or name)
        confirm, requires = _bids(comp, scope, cp, spec, idx, bids, labels)
        steps, orders = _declare_steps(comp, scope, cp, decl_by_name)
        exchange = _exchange(comp, scope, cp)
        at = -1  # where the exchange goes among the declarations (-1: by exchange.first)
        first_ex = (cp + ("exchange", 0)) if isinstance(comp.tree.get(cp + ("exchange",)), list) \
            else cp + ("exchange",)
        if exchange and comp.has(*first_ex, "order"):
            k = comp.const_int(first_ex + ("order",), scope.base, 0, "the exchange's order")
            # like one more declaration of that order, first or last among those of equal order
            at = sum(1 for o in orders if o < k or (o == k and not exchange[0].first))
        play = _play(comp, scope, cp)
        if play is None:
            continue
        over, made = _outcome(comp, scope, cp)
        if None in (over, made):
            continue
        drafts.append(ContractDraft(idx, name, title, requires, confirm, exchange, steps, *play,
                                    over, made, at))
    if len(bids) == 1 and not comp.diags and not comp.has("auction", "contract"):
        comp.error(("contracts",), "no contract can be bid: every one is disabled or has no levels")
    return drafts, bids


def _enabled(comp: Compiler, scope: Scope, cp: tuple, spec: dict) -> bool:
    if spec.get("enabled") is None:
        return True
    env = scope.env("contracts.*.enabled", where=f"{comp.where(cp)}.enabled")
    en = comp.expr(cp + ("enabled",), env, BOOL)
    if en is not None and not comp.const_value(en):
        return False
    return en is not None


def _bids(comp: Compiler, scope: Scope, cp: tuple, spec: dict, idx: int, bids: list[BidDef],
          labels: set[str]) -> tuple[Fn | None, Fn | None]:
    """Append the contract's bids, one per level; (confirm, requires) hooks."""
    name = cp[-1]
    bp = cp + ("bid",)
    w = comp.where(bp)
    enabled = _enabled(comp, scope, cp, spec)
    lv = comp.expr(bp + ("levels",), scope.env("bid.levels", where=f"{w}.levels"), ListType(INT),
                   default="[1]")
    rk = comp.expr(bp + ("rank",), scope.env("bid.rank", where=w), INT, default="level")
    mk = comp.expr(bp + ("marks",), scope.env("bid.marks", where=w), INT, default="1")
    label = None
    if comp.has(*bp, "label"):
        label = comp.expr(bp + ("label",), scope.env("bid.label", where=w), SCALAR)
    confirm = requires = None
    if comp.has(*bp, "confirm"):
        confirm = comp.fn(bp + ("confirm",), scope.env("bid.confirm", where=f"{w}.confirm"), INT)
    if comp.has(*bp, "requires"):
        requires = comp.fn(bp + ("requires",), scope.env("bid.requires", where=f"{w}.requires"),
                           BOOL)
    if comp.has("auction", "contract"):
        enabled = False  # no auction: nothing is bid
    if enabled and None not in (lv, rk, mk):
        for level in comp.const_value(lv):
            ctx = LevelCtx(level)
            text = f"{name} {level}" if label is None else str(label.fn(ctx))
            if text in labels:
                comp.error(bp + ("label" if label else "levels",),
                           f"two bids are both named '{text}'")
            labels.add(text)
            bids.append(BidDef(len(bids), idx, name, level, rk.fn(ctx), mk.fn(ctx), 0, text))
    return confirm, requires


def _declare_steps(comp: Compiler, scope: Scope, cp: tuple,
                   decl_by_name: dict[str, Declaration]) -> tuple:
    """(declaration, by, choices) for each declaration the contract asks for."""
    steps = []
    for dname, dspec in (comp.get(*cp, "declare", default={}) or {}).items():
        dp = cp + ("declare", dname)
        w = comp.where(dp)
        dc = decl_by_name.get(dname)
        if dc is None:
            comp.error(dp, f"'{dname}' is not a declaration", key=True,
                       suggestion=did_you_mean(dname, decl_by_name))
            continue
        if not isinstance(dspec, dict):
            continue
        by = comp.fn(dp + ("by",), scope.env("declare.*.by", where=f"{w}.by"), INT,
                     default="bidder")
        ch = comp.expr(dp + ("choices",), scope.env("declare.*.choices", where=f"{w}.choices"),
                       default=None if dspec.get("choices") is not None else "[]")
        if by is None or ch is None:
            continue
        choices = tuple(comp.const_value(ch)) if isinstance(ch.type, ListType) else None
        if choices is None:
            comp.error(dp + ("choices",), f"choices are a list, got {ch.type}")
            continue
        bad = [v for v in choices if v not in dc.values]
        if bad:
            comp.error(dp + ("choices",), f"{bad[0]!r} is not a value of declaration '{dname}'")
            continue
        if not choices:
            comp.error(dp + ("choices",), "a declaration needs at least one choice")
            continue
        when = allow = None
        if comp.has(*dp, "when"):
            when = comp.fn(dp + ("when",), scope.env("declare.*.when", where=f"{w}.when"), BOOL)
            if when is None:
                continue
        if comp.has(*dp, "allow"):
            allow = comp.fn(dp + ("allow",), scope.env("declare.*.allow", where=f"{w}.allow"),
                            BOOL)
            if allow is None:
                continue
        order = comp.const_int(dp + ("order",), scope.base, 0, "a declaration's order")
        steps.append((order, len(steps), (dc.index, by, choices, when, allow)))
    ranked = sorted(steps, key=lambda s: s[:2])
    return tuple(s for _, _, s in ranked), tuple(o for o, _, _ in ranked)


def _exchange(comp: Compiler, scope: Scope, cp: tuple) -> tuple[ExchangeDef, ...] | None:
    """A contract's `exchange`: a seat takes the stock (or a part of it) into hand, then buries
    pieces; a list is one exchange after another, by seat."""
    ep = cp + ("exchange",)
    if not comp.has(*ep):
        return None
    raw = comp.tree.get(ep)
    if isinstance(raw, list):
        out = [_one_exchange(comp, scope, ep + (i,)) for i in range(len(raw))]
        return None if None in out else tuple(out)
    one = _one_exchange(comp, scope, ep)
    return None if one is None else (one,)


def _one_exchange(comp: Compiler, scope: Scope, ep: tuple) -> ExchangeDef | None:
    w = comp.where(ep)
    by = comp.fn(ep + ("by",), scope.env("exchange.by", where=f"{w}.by"), INT, default="bidder")
    bury = comp.const_int(ep + ("bury",), scope.base, 0, "pieces to bury")
    optional = comp.const_bool(ep + ("optional",), scope.base, False)
    first = comp.const_bool(ep + ("first",), scope.base, True)
    take = start = legal = None
    if comp.has(*ep, "take"):
        take = comp.fn(ep + ("take",), scope.env("exchange.take", where=f"{w}.take"), INT)
    if comp.has(*ep, "from"):
        start = comp.fn(ep + ("from",), scope.env("exchange.from", where=f"{w}.from"), INT)
    if comp.has(*ep, "legal"):
        legal = comp.fn(ep + ("legal",), scope.env("exchange.legal", where=f"{w}.legal"), BOOL)
    if by is None or (take is None and comp.has(*ep, "take")) or (
            start is None and comp.has(*ep, "from")) or (legal is None and comp.has(*ep, "legal")):
        return None
    return ExchangeDef(by, bury, optional, first, take, start, legal)


def _play(comp: Compiler, scope: Scope, cp: tuple) -> tuple[PlayDef, TrickHooks | None] | None:
    """How the contract is played, with its trick expressions; None after an error."""
    pp = cp + ("play",)
    mode = comp.get(*pp, "mode", default="tricks")
    if mode not in ("tricks", "layout"):
        comp.error(pp + ("mode",), f"play.mode is 'tricks' or 'layout', got {mode!r}",
                   suggestion=did_you_mean(str(mode), ["tricks", "layout"]))
        return None
    leader = comp.fn(pp + ("leader",), scope.env("play.leader", where=f"{comp.where(pp)}.leader"),
                     INT, default="bidder")
    sits = None
    if comp.has(*pp, "sits_out"):
        sc = comp.expr(pp + ("sits_out",), scope.env("play.sits_out"), BOOL)
        if sc is not None and not (sc.is_const and not sc.const):
            sits = sc.fn
    legal = None
    if comp.has(*pp, "legal"):
        legal = comp.fn(pp + ("legal",), scope.env("play.legal", where=f"{comp.where(pp)}.legal"),
                        BOOL)
    if mode == "layout" and scope.cards:
        comp.error(pp + ("mode",), "layout play lays pieces end to end by their pips: it needs "
                                   "a domino set, and this ruleset's pieces are a pack of cards")
        return None
    if mode == "layout":
        layout = _layout(comp, scope, pp)
        if None in (leader, layout):
            return None
        return PlayDef(leader, sits, legal, lambda c: 0, "layout", layout), None
    return _tricks(comp, scope, pp, leader, sits, legal)


def _tricks(comp: Compiler, scope: Scope, pp: tuple, leader: Fn | None, sits: Fn | None,
            legal: Fn | None) -> tuple[PlayDef, TrickHooks] | None:
    """Play by tricks: what a piece leads and follows, how it ranks, who must follow."""
    pw = comp.where(pp)
    lead = comp.expr(pp + ("lead",), scope.env("play.lead", where=f"{pw}.lead"),
                     default="tile.suit" if scope.cards else "tile.high")
    if lead is not None and not (SCALAR.accepts(lead.type) or (
            isinstance(lead.type, ListType) and SCALAR.accepts(lead.type.elem))):
        comp.error(pp + ("lead",), f"'lead' gives a suit or a list of suits, got {lead.type}")
        lead = None
    tiers = _follows(comp, scope, pp)
    rank = comp.fn(pp + ("rank",), scope.env("play.rank", where=f"{pw}.rank"), INT)
    must_follow = comp.fn(pp + ("must_follow",),
                          scope.env("play.must_follow", where=f"{pw}.must_follow"), BOOL,
                          default="true")
    trick_points = comp.fn(pp + ("trick_points",),
                           scope.env("play.trick_points", where=f"{pw}.trick_points"), INT,
                           default="1")
    tie_break = None
    if comp.has(*pp, "tie_break"):
        tie_break = comp.fn(pp + ("tie_break",),
                            scope.env("play.tie_break", where=f"{pw}.tie_break"), INT)
        if tie_break is None:
            return None
    if None in (leader, lead, tiers, rank, must_follow, trick_points):
        return None
    return (PlayDef(leader, sits, legal, trick_points, tie_break=tie_break),
            TrickHooks(lead.fn, tiers[0], rank, must_follow, tiers[1:]))


def _follows(comp: Compiler, scope: Scope, pp: tuple) -> tuple | None:
    """`play.follows`: one condition, or a list of them tried in order (the first tier the hand
    can satisfy is the rule), e.g. follow suit, else play a trump."""
    pw = comp.where(pp)
    env = scope.env("play.follows", where=f"{pw}.follows")
    raw = comp.tree.get(pp + ("follows",))
    if not isinstance(raw, list):
        f = comp.fn(pp + ("follows",), env, BOOL,
                    default="tile.suit == led" if scope.cards else "has(tile, led)")
        return None if f is None else (f,)
    if not raw:
        comp.error(pp + ("follows",), f"{pw}.follows lists no tier: give at least one condition")
        return None
    fns = [comp.fn(pp + ("follows", i), env, BOOL) for i in range(len(raw))]
    return None if None in fns else tuple(fns)


def _layout(comp: Compiler, scope: Scope, pp: tuple) -> LayoutDef | None:
    """A layout play mode: pieces laid end to end on open ends, a spinner, scoring ends."""
    scores = comp.fn(pp + ("scores",), scope.env("play.scores", where=f"{comp.where(pp)}.scores"),
                     INT, default="0")
    spinner = comp.const_bool(pp + ("spinner",), scope.base, True)
    must_draw = comp.const_bool(pp + ("must_draw",), scope.base, True)
    may_draw = comp.const_bool(pp + ("may_draw",), scope.base, False)
    claim = comp.const_bool(pp + ("claim",), scope.base, False)
    arms = comp.get(*pp, "spinner_arms", default=list(SPINNER_ARMS))
    clash = [a for a in arms if a in LINE_ARMS]
    if clash:
        comp.error(pp + ("spinner_arms",), f"'{clash[0]}' names an arm of the line "
                                           f"({', '.join(LINE_ARMS)})")
    if scores is None:
        return None
    return LayoutDef(spinner, scores, must_draw, may_draw, claim, spinner_arms=tuple(arms))


def _outcome(comp: Compiler, scope: Scope, cp: tuple) -> tuple[Fn | None, Fn | None]:
    """(over, made): when the hand is decided, and whether the contract was made."""
    op = cp + ("outcome",)
    w = comp.where(op)
    over = comp.fn(op + ("over",), scope.env("outcome.over", where=f"{w}.over"), BOOL,
                   default="false")
    made = comp.fn(op + ("made",), scope.env("outcome.made", where=f"{w}.made"), BOOL,
                   default="false")
    return over, made
