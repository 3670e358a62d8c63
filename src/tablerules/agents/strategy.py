"""Strategy files: ordered, named rules in the expression language, checked against a GameDef.

A strategy reads only what a seat may see: the names it is compiled against come from the
static definition (pieces, options, constants, seats) and from the seat's observation, which
`Seen` turns into the fields those names read. Nothing here knows a game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path
from typing import Any, Callable

from ..check.schema import validate_tree
from ..definition.actions import FIXED_NAMES
from ..definition.game import LINE_ARMS
from ..engine.observe import record
from ..engine.phases import AUCTION
from ..errors import (CheckError, Diagnostic, ExprError, GameError, Span, TablerulesError,
                      did_you_mean)
from ..expr import RESERVED, Env, Func, Var, compile_expression, define_function
from ..expr.types import BOOL, INT, SCALAR, SYM, Attr, ListType, ObjType, enum
from ..interpreter import vocab
from ..interpreter.declarations import ParamError, declaration_type, param, split_params
from ..kept import Kept
from ..interpreter.settings import option_env
from ..load.ruleset import data_dir, display_path, is_path_ref, read_tree

SECTIONS = ("bid", "declare", "bury", "play")
FIXED_KINDS = tuple(n.split()[0] for n in FIXED_NAMES)  # "take stock" is a take
KINDS = ("play", "lay", "lead", "bid", "declare", "bury") + FIXED_KINDS
# the section that decides, by the kinds of the legal actions
SECTION_OF = {"bid": "bid", "pass": "bid", "agree": "bid", "decline": "bid", "declare": "declare",
              "bury": "bury", "take": "bury", "leave": "bury"}
SIGNATURE = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*\((.*)\)\s*$")
A_IS = " ('a' is the action a rule's 'only' or 'choose' looks at)"


def strategy_dir() -> Path:
    return data_dir("rulesets") / "strategies"


def resolve(ref: str, relative_to: Path | None = None) -> Path:
    """A strategy by shipped name (a file of rulesets/strategies) or by path (relative to `relative_to`, else cwd)."""
    if "/" not in ref and not ref.endswith((".yaml", ".yml")):
        return strategy_dir() / f"{ref}.yaml"
    p = Path(ref)
    if not p.is_absolute() and relative_to is not None:
        return relative_to / p
    return p


# ---------------------------------------------------------------------------------------------
# what the seat sees, as the fields the strategy's names read


@dataclass(slots=True)
class Seen:
    """One decision's view: built from the observation and the legal actions only."""

    seat: int = 0
    dealer: int = 0
    bidder: int = -1
    my_side: int = 0
    chips: tuple = ()  # every seat's chips, with scoring.chips
    hand: tuple = ()
    bid: int = 0
    contract: str = "none"
    decl: tuple = ()
    trick: tuple = ()
    trick_seats: tuple = ()
    led: Any = -1
    leading: bool = True
    winning: int = -1
    played: tuple = ()
    played_by: dict = field(default_factory=dict)
    unseen: tuple = ()
    passed: frozenset = frozenset()
    bid_by: dict = field(default_factory=dict)  # seat -> the highest bid index it made
    points: tuple = ()
    tricks: tuple = ()
    score: tuple = ()
    held: tuple = ()
    stock_size: int = 0
    legal: tuple = ()
    ends: tuple = ()
    tables: Any = None
    a: int = -1  # the action a `choose` or `only` is looking at
    memo: dict = field(default_factory=dict)  # the strategy's `values`, once computed
    _led_index: Any = None  # the suit led's index in the trick's tables (None: no trick yet)
    _best: int = -1  # the rank of the trick's winning piece so far


class Vocabulary:
    """The types, names and observation reader of strategies for one GameDef."""

    def __init__(self, gd):
        self.gd = gd
        acts = gd.actions
        pcs = gd.pieces
        ends = pcs.ends
        self.piece_id = {n: i for i, n in enumerate(pcs.names)}
        self.contract_index = {c.name: c.index for c in gd.contracts}
        attrs = {"high": Attr(INT, lambda t: ends[t][0], "the higher end"),
                 "low": Attr(INT, lambda t: ends[t][1], "the lower end"),
                 "pips": Attr(INT, lambda t: ends[t][0] + ends[t][1], "both ends"),
                 "double": Attr(BOOL, lambda t: ends[t][0] == ends[t][1], "a double")
                 } if pcs.kind != "cards" else {}  # a card's built-ins are among its attrs
        for name, table in pcs.attrs.items():
            if name not in attrs and table:
                t = BOOL if type(table[0]) is bool else INT if type(table[0]) is int else SCALAR
                attrs[name] = Attr(t, table.__getitem__, f"the piece's {name}")
        self.tile = tile = vocab.tile_type(attrs)
        bids = gd.bids
        self.bid = bid = vocab.bid_type({
            # a plain symbol: one strategy serves rulesets with different contracts
            "contract": Attr(SYM, lambda b: bids[b].contract_name, "the contract"),
            "level": Attr(INT, lambda b: bids[b].level, "the level"),
            "rank": Attr(INT, lambda b: bids[b].rank, "the rank"),
            "marks": Attr(INT, lambda b: bids[b].marks, "the marks it is worth")})
        self.end = ObjType("end", {
            "pips": Attr(INT, lambda e: e[0], "the number showing"),
            "double": Attr(BOOL, lambda e: e[1], "the piece at the end is a double"),
            "spinner": Attr(BOOL, lambda e: e[2], "the piece at the end is the spinner"),
            "arm": Attr(SYM, lambda e: e[3], "the arm the end is on")}, doc="an open end")
        self.action = self._action_type(acts)
        self.types = {"tile": tile, "int": INT, "bool": BOOL, "symbol": SYM, "scalar": SCALAR,
                      "bid": bid, "action": self.action, "end": self.end}
        self.base = self._base_env()

    def _action_type(self, acts) -> ObjType:
        kinds = []
        piece_of = []
        for a in range(acts.num_actions):
            k = acts.kind(a)
            if k == "piece":
                kinds.append("play")
                piece_of.append(a)
            elif k == "fixed":
                kinds.append(FIXED_KINDS[a - acts.pieces])
                piece_of.append(-1)
            elif k == "lay":
                kinds.append("lay")
                piece_of.append(acts.lay_of(a)[0])
            elif k == "bury":
                kinds.append("bury")
                piece_of.append(a - acts.bury_base)
            else:
                kinds.append(k)
                piece_of.append(-1)
        self.kinds = tuple(kinds)
        self.piece_of = tuple(piece_of)
        names = acts.names
        decls = self.gd.declarations
        value = {}
        decl = {}
        for i, (d, v) in enumerate(acts.decl_actions):
            value[acts.decl_base + i] = v
            decl[acts.decl_base + i] = decls[d].name
        for i, v in enumerate(acts.suit_values):
            value[acts.lead_base + i] = v
        bid_of = {acts.bid_action(b.index): b.index for b in self.gd.bids if b.action >= 0}
        arms = acts.arms

        def piece(a):
            p = piece_of[a]
            if p < 0:
                raise GameError(f"the action '{names[a]}' moves no piece")
            return p

        # every attribute but the piece (which refuses an action that moves none) is a table
        # over the actions: a strategy reads them for every legal action of every decision
        bids = self.gd.bids
        every = range(acts.num_actions)
        the_bid = tuple(bid_of.get(a, 0) for a in every)
        arm = tuple(arms[acts.lay_of(a)[1]] if kinds[a] == "lay" else "none" for a in every)
        contract = tuple(bids[b].contract_name for b in the_bid)
        level = tuple(bids[the_bid[a]].level if a in bid_of else -1 for a in every)
        values = tuple(value.get(a, -1) for a in every)
        declares = tuple(decl.get(a, "none") for a in every)
        return ObjType("action", {
            "kind": Attr(enum(KINDS), kinds.__getitem__, "what the action does"),
            "name": Attr(SYM, names.__getitem__, "the action's name, e.g. 'bid 30'"),
            "piece": Attr(self.tile, piece, "the piece played, laid or buried"),
            "bid": Attr(self.bid, the_bid.__getitem__, "the bid made (the no-bid for another kind)"),
            "contract": Attr(self.bid.attrs["contract"].type, contract.__getitem__,
                             "a bid's contract"),
            "level": Attr(INT, level.__getitem__, "a bid's level (-1 for another kind)"),
            "value": Attr(SCALAR, values.__getitem__, "a declaration's value or the suit a lead "
                                                      "names (-1 otherwise)"),
            "declares": Attr(SYM, declares.__getitem__, "the declaration it makes"),
            "arm": Attr(SYM, arm.__getitem__, "the arm a lay goes on ('none' otherwise)"),
        }, doc="a legal action")

    def _base_env(self) -> Env:
        gd = self.gd
        env = option_env(gd.option_decls, gd.options)
        env.where = "a strategy"
        tile, c = self.tile, vocab.const
        n = len(gd.pieces)
        v = env.vars
        if gd.pieces.kind != "cards":
            v["max_pip"] = c(INT, max(h for h, _ in gd.pieces.ends), "the highest pip")
        v["pieces"] = c(ListType(tile), tuple(range(n)), "every piece in play")
        v["hand_size"] = c(INT, gd.hand_size, "pieces dealt to each seat")
        v["seat_count"] = c(INT, gd.seat_count, "number of seats")
        v["sides"] = c(ListType(INT), tuple(range(len(gd.sides))), "every side's index")
        for k, val in gd.constants.items():
            if type(val) in (int, bool) and k not in v:
                v[k] = c(BOOL if type(val) is bool else INT, val, "a ruleset constant")
        env.funcs.update(vocab.piece_funcs(gd.pieces, tile))
        env.funcs.update(vocab.seat_funcs(gd.seat_count, gd.sides, gd.seat_step))
        g = attrgetter
        L = ListType
        for name, t, get, doc in (
                ("seat", INT, g("seat"), "the seat deciding"),
                ("dealer", INT, g("dealer"), "the dealer"),
                ("bidder", INT, g("bidder"), "the seat that won or leads the auction (-1: none)"),
                ("my_side", INT, g("my_side"), "the deciding seat's side"),
                ("hand", L(tile), g("hand"), "the seat's pieces"),
                ("bid", self.bid, g("bid"), "the standing (or winning) bid"),
                ("contract", self.bid.attrs["contract"].type, g("contract"),
                 "the contract being played ('none' in the auction)"),
                ("trick", L(tile), g("trick"), "pieces played to this trick, in order"),
                ("trick_seats", L(INT), g("trick_seats"), "who played them"),
                ("led", SCALAR, g("led"), "the suit led (-1 when leading)"),
                ("leading", BOOL, g("leading"), "whether the seat leads this trick"),
                ("winning", INT, g("winning"), "the seat winning this trick so far (-1: none)"),
                ("played", L(tile), g("played"), "every piece played this hand"),
                ("unseen", L(tile), g("unseen"), "pieces the seat has not seen: others' hands "
                                                 "and the stock"),
                ("stock_size", INT, g("stock_size"), "pieces left in the stock"),
                ("legal", L(self.action), g("legal"), "the legal actions"),
                ("ends", L(self.end), g("ends"), "the open ends of a layout")):
            v[name] = Var(t, get, doc=doc)
        for d in gd.declarations:
            if d.name not in v:
                v[d.name] = Var(declaration_type(d), lambda s, i=d.index: s.decl[i],
                                doc=d.description)
        f = env.funcs

        def side(values, s):
            if 0 <= s < len(values):
                return values[s]
            raise GameError(f"there is no side {s}")

        def seat_check(s):
            if 0 <= s < gd.seat_count:
                return s
            raise GameError(f"there is no seat {s}")

        fs = {
            "points": Func([INT], INT, lambda s, x: side(s.points, x), True, False,
                           "points a side has taken this hand"),
            "tricks": Func([INT], INT, lambda s, x: side(s.tricks, x), True, False,
                           "tricks a side has taken this hand"),
            "score": Func([INT], INT, lambda s, x: side(s.score, x), True, False,
                          "a side's match score"),
            "chips": Func([INT], INT, lambda s, x: s.chips[seat_check(x)] if s.chips else 0, True,
                          False, "a seat's chips (0 without scoring.chips)"),
            "held": Func([INT], INT, lambda s, x: s.held[seat_check(x)], True, False,
                         "how many pieces a seat holds"),
            "played_by": Func([tile], INT, lambda s, t: s.played_by.get(t, -1), True, False,
                              "the seat that played a piece this hand (-1: not played)"),
            "passed": Func([INT], BOOL, lambda s, x: seat_check(x) in s.passed, True, False,
                           "whether a seat passed in this hand's auction"),
            "bid_of": Func([INT], self.bid, lambda s, x: s.bid_by.get(seat_check(x), 0), True,
                           False, "the highest bid a seat made this hand (the no-bid if none)"),
            "suit": Func([tile], SCALAR, _suit, True, False,
                         "the suit a piece leads as under the declarations (-1 in the auction)"),
            "follows": Func([tile, SCALAR], BOOL, _follows, True, False,
                            "whether a piece follows a suit under the declarations"),
            "rank": Func([tile], INT, _rank, True, False,
                         "the piece's rank in this trick (as a lead when leading)"),
            "beats": Func([tile], BOOL, _beats, True, False,
                          "whether the piece would take this trick as it stands"),
        }
        for k, fn in fs.items():
            if k not in f and k not in v:
                f[k] = fn
        return env

    # -- observation -> Seen

    def seen(self, seat: int, legal: tuple, obs) -> Seen:
        """The decision's Seen from the seat's observation: the dict of names
        (`State.observation`) or the same as ids (`State.sight`, the faster)."""
        if type(obs) is not dict:
            return self._seen_sight(seat, legal, obs)
        gd = self.gd
        pid = self.piece_id
        s = Seen(seat=seat, dealer=obs["dealer"], bidder=obs["bidder"],
                 my_side=gd.side_of[seat], legal=tuple(legal))
        s.hand = tuple(pid[n] for n in obs["hand"])
        s.points, s.tricks, s.score = tuple(obs["points"]), tuple(obs["tricks"]), tuple(obs["score"])
        s.held = tuple(obs["hand_sizes"])
        s.chips = tuple(obs.get("chips", ()))
        s.stock_size = obs["stock_size"]
        decls = obs["declarations"]
        s.decl = tuple(decls[d.name] for d in gd.declarations)
        s.contract = obs["contract"] or "none"
        played_by, bid_by, s.passed, high, high_seat, lead_named, _ = record(
            gd.actions, obs["hand_actions"])
        s.bid = high
        if obs["phase"] == "auction":  # the seat of the standing bid
            s.bidder = high_seat
        s.bid_by = bid_by
        s.played = tuple(played_by)
        s.played_by = played_by
        mine = set(s.hand) | {pid[n] for n in obs["buried"]}
        s.unseen = tuple(t for t in range(len(gd.pieces)) if t not in mine and t not in played_by)
        s.trick = tuple(pid[n] for _, n in obs["trick"])
        s.trick_seats = tuple(x for x, _ in obs["trick"])
        contract = self.contract_index[obs["contract"]] if obs["contract"] is not None else -1
        return self._finish(s, contract, lead_named, _ends(obs["layout"]))

    def _seen_sight(self, seat: int, legal: tuple, o) -> Seen:
        """`seen` from a Sight: the same fields, with no names to look up."""
        gd = self.gd
        s = Seen(seat=seat, dealer=o.dealer, bidder=o.bidder, my_side=gd.side_of[seat],
                 legal=tuple(legal))
        s.hand = o.hand
        s.points, s.tricks, s.score = o.points, o.tricks, o.score
        s.held = o.hand_sizes
        s.chips = o.chips
        s.stock_size = o.stock_size
        s.decl = o.decl
        s.contract = gd.contracts[o.contract].name if o.contract >= 0 else "none"
        s.passed = o.passed
        s.bid = o.high
        if o.phase == AUCTION:  # the seat of the standing bid
            s.bidder = o.high_seat
        s.bid_by = o.bid_by  # the record's: nobody changes them (observe.record)
        s.played = tuple(o.played_by)
        s.played_by = o.played_by
        s.unseen = o.unseen
        s.trick = o.trick
        s.trick_seats = o.trick_seats
        return self._finish(s, o.contract, o.lead_named, o.ends)

    def _finish(self, s: Seen, contract: int, lead_named: int, ends: tuple) -> Seen:
        """What both readings share: the trick's tables (contract -1: none yet), the suit led
        (a leader's named suit where the piece leads none of its own), who is winning; and the
        layout's open ends, as each reading found them."""
        gd = self.gd
        s.leading = not s.trick
        if contract >= 0 and gd.trick_tables:
            s.tables = gd.trick_tables.get((contract, s.decl))
        if s.tables is not None and s.trick:
            lead = s.tables.lead[s.trick[0]]
            led = lead_named if type(lead) is tuple else lead
            if led is not None and led >= 0:
                s._led_index = led
                s.led = s.tables.suits[led]
                rank = s.tables.rank[led]
                best = max(range(len(s.trick)), key=lambda i: (rank[s.trick[i]], -i))
                s.winning = s.trick_seats[best]
                s._best = rank[s.trick[best]]
        s.ends = ends
        return s


def _suit(s: Seen, t: int):
    if s.tables is None:
        return -1
    lead = s.tables.lead[t]
    return s.tables.suits[lead[0] if type(lead) is tuple else lead]


def _follows(s: Seen, t: int, x) -> bool:
    tb = s.tables
    if tb is None:
        return False
    for i, v in enumerate(tb.suits):
        if v == x and type(v) is type(x):
            return bool(tb.follow_mask[i] >> t & 1)
    return False


def _rank(s: Seen, t: int) -> int:
    tb = s.tables
    if tb is None:
        return 0
    led = s._led_index
    if led is None:
        lead = tb.lead[t]
        led = lead[0] if type(lead) is tuple else lead
    return tb.rank[led][t]


def _beats(s: Seen, t: int) -> bool:
    if not s.trick:
        return True
    return _rank(s, t) > s._best


def _ends(layout: dict) -> tuple:
    """The arms one may lay on, read from an observation's layout text: (pips, double, spinner,
    arm) for the line's west and east ends, then for each spinner arm the text names, in its
    order (an "open" arm ends on the spinner). The same as `Layout.arm_ends`, which a sight
    carries."""
    line = layout.get("line", "").split()
    if not line:
        return ()

    def piece(text):
        spin = text.endswith("*")
        a, _, b = text.rstrip("*").partition("-")
        return int(a), int(b), spin

    out = []
    a, b, spin = piece(line[0])
    out.append((a, a == b, spin, LINE_ARMS[0]))
    a, b, spin = piece(line[-1])
    out.append((b, a == b, spin, LINE_ARMS[1]))
    spinner = next((piece(x) for x in line if x.endswith("*")), None)
    for arm, text in layout.items():
        if arm == "line":
            continue
        if text == "open":
            out.append((spinner[0], True, True, arm))
        else:
            a, b, sp = piece(text.split()[-1])
            out.append((b, a == b, sp, arm))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# strategy files


@dataclass(frozen=True)
class Rule:
    name: str
    help: str
    when: Callable | None
    only: Callable | None
    choose: Callable | None
    # its parts' compiled expressions (expr.Compiled, with the checked trees), by key: for the
    # batch engine's second back end
    compiled: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Strategy:
    """A compiled strategy: rules by section and the switches (rule and flag names)."""

    name: str
    file: str
    sections: dict  # section -> tuple[Rule, ...]
    switches: dict  # name -> (default on, help)
    flags: frozenset = frozenset()  # the switches that are flags, not rules
    # for the batch engine: the vocabulary it was compiled against, and each value's Var and
    # compiled expression (name -> (Var, expr.Compiled))
    vocab: Any = field(default=None, compare=False, repr=False)
    values: dict = field(default_factory=dict, compare=False, repr=False)


def read(path: Path):
    """The strategy's YAML tree, schema-checked: a located error when it is not a strategy."""
    tree = read_tree(path)
    diags = validate_tree(tree, schema="strategy")
    if diags:
        raise CheckError(diags[0].message, diags[0].span, diagnostics=diags)
    return tree


def fit(entry: str, path: Path) -> tuple[str, Path | None, str | None]:
    """One entry of a strategy's `for:`: (the ruleset name it fits, the ruleset file it names or
    None for a name, what is wrong with it or None). A name is a ruleset's `name:` (a built-in's,
    or a house file's); a path (`our-hall.yaml`, relative to the strategy's folder) names the
    file, and fits its `name:` and every ruleset that extends it."""
    if not is_path_ref(entry):
        return entry, None, None
    p = Path(entry)
    if not p.is_absolute():
        p = path.parent / p
    try:
        tree = read_tree(p)
    except TablerulesError as e:
        return entry, None, f"'{entry}': {e.diagnostics[0].message}"
    name = tree.data.get("name") if isinstance(tree.data, dict) else None
    if not isinstance(name, str):
        return entry, None, f"'{entry}' has no name: a ruleset names itself with 'name:'"
    return name, p, None


def switches(tree) -> dict:
    """Every rule and flag name with its default and help, in file order."""
    out: dict = {}
    for name, f in (tree.data.get("flags") or {}).items():
        out[name] = (bool(f.get("default", True)), str(f.get("help", "")))
    for sec in SECTIONS:
        for r in tree.data.get(sec) or []:
            out[r["name"]] = (bool(r.get("default", True)), str(r.get("help", "")))
    return out


def compile_strategy(path: Path, gd, settings: dict | None = None, *, ruleset: str | None = None) -> Strategy:
    """Check and compile a strategy file for `gd`; `settings` switch rules and flags on or off."""
    tree = read(path)
    data = tree.data
    diags: list[Diagnostic] = []

    def err(p: tuple, msg: str, key: bool = False, suggestion=None):
        diags.append(Diagnostic(tree.span(p, key=key), msg, "check", suggestion, path=p))

    sw = switches(tree)
    seen_names: dict = {}
    profile = getattr(gd, "profile", None)  # a ruleset compiled to be profiled: time these too

    def timed(where: tuple, c, at: tuple | None = None):
        if profile is None or c.is_const:
            return c.fn
        s = tree.span(at or where)
        return profile.wrap(f"strategy {data.get('name', path.stem)}: "
                            + ".".join(str(w) for w in where), c.text, f"{s.file}:{s.line}", c.fn)

    for sec in SECTIONS:
        for i, r in enumerate(data.get(sec) or []):
            if r["name"] in seen_names:
                err((sec, i, "name"), f"two rules are named '{r['name']}'")
            seen_names[r["name"]] = True
    for name in data.get("flags") or {}:
        if name in seen_names:
            err(("flags", name), f"flag '{name}' has the name of a rule", key=True)
    fits = [str(f) for f in data.get("for") or []]
    game = ruleset or gd.name
    lineage = (ruleset,) if ruleset else (getattr(gd, "lineage", ()) or (gd.name,))
    names = set()
    for i, entry in enumerate(fits):
        name, _, problem = fit(entry, path)
        if problem:
            err(("for", i), problem)
        names.add(name)
    if fits and not set(lineage) & names:  # a house file extending one of them fits too
        err(("for",), f"this strategy is for {', '.join(fits)}, not {game}"
                      + (f" (which extends {', '.join(lineage[1:])})" if len(lineage) > 1 else ""))
    on = {k: v[0] for k, v in sw.items()}
    for k, v in (settings or {}).items():
        if k not in on:
            raise CheckError(f"the strategy has no rule or flag '{k}'", Span("--agents", 0, 0),
                             suggestion=did_you_mean(k, on))
        on[k] = bool(v)
    voc = vocabulary(gd)
    env = voc.base.extended(where="a strategy")

    def taken(name: str) -> bool:
        """A name the strategy may not define: the game's, the language's, or the action's."""
        return name in env.vars or name in env.funcs or name == "a" or name in RESERVED

    for k, v in on.items():
        if k in RESERVED:  # every rule and flag is a name the expressions read
            err(_switch_path(data, k), f"a rule or flag may not be named '{k}': it is a name "
                "of the expression language, and each rule's and flag's name is one the "
                "expressions read", key=True)
            continue
        if taken(k):
            err(_switch_path(data, k), f"the name '{k}' is already a name of the game"
                + (A_IS if k == "a" else ""), key=True)
            continue
        env.vars[k] = vocab.const(BOOL, v, "whether this rule or flag is on")
    for sig, body in (data.get("functions") or {}).items():
        p = ("functions", sig)
        m = SIGNATURE.match(sig)
        params = []
        bad = m is None
        for part in (split_params(m.group(2)) if m else []):
            try:
                params.append(param(part, voc.types, env))
            except ParamError as e:
                err(p, f"bad parameter '{part.strip()}' in '{sig}' ({e})", key=True,
                    suggestion=e.suggestion)
                bad = True
                break
        if m is None:
            err(p, f"a function key is a signature like 'name(t: tile, n: int)', got '{sig}'",
                key=True)
        if bad:
            continue
        name = m.group(1)
        if taken(name):
            err(p, f"function '{name}' hides a name already defined"
                   + (A_IS if name == "a" else ""), key=True)
            continue
        try:
            env.funcs[name] = define_function(name, params, str(body), env, locate=tree.locator(p))
        except ExprError as e:
            diags.extend(e.diagnostics)
    values: dict = {}
    for name, body in (data.get("values") or {}).items():
        p = ("values", name)
        if taken(name):
            err(p, f"value '{name}' hides a name already defined"
                   + (A_IS if name == "a" else ""), key=True)
            continue
        try:
            c = compile_expression(str(body).lower() if isinstance(body, bool) else str(body), env,
                                   locate=tree.locator(p))
        except ExprError as e:
            diags.extend(e.diagnostics)
            continue
        env.vars[name] = Var(c.type, _memo(name, timed(p, c)), doc=f"the strategy's value {name}")
        values[name] = (env.vars[name], c)
    with_a = env.extended(vars={"a": Var(voc.action, attrgetter("a"), doc="the action looked at")},
                          where="a strategy rule's 'only' or 'choose'")
    with_a.per_item = frozenset({"a"})  # what reads no `a` is worked out once per decision
    sections = {}
    for sec in SECTIONS:
        rules = []
        for i, r in enumerate(data.get(sec) or []):
            parts = {}
            compiled = {}
            for key, e, t in (("when", env, BOOL), ("only", with_a, BOOL), ("choose", with_a, INT)):
                p = (sec, i, key)
                parts[key] = None
                if key not in r:
                    continue
                try:
                    c = compiled[key] = compile_expression(
                        str(r[key]).lower() if isinstance(r[key], bool) else str(r[key]), e,
                        expected=t, locate=tree.locator(p))
                    parts[key] = timed((sec, r["name"], key), c, p)
                except ExprError as ex:
                    diags.extend(ex.diagnostics)
            if on.get(r["name"], True):
                rules.append(Rule(r["name"], str(r.get("help", "")), **parts, compiled=compiled))
        sections[sec] = tuple(rules)
    if diags:
        raise CheckError(diags[0].message, diags[0].span, diagnostics=diags)
    return Strategy(str(data.get("name", path.stem)), display_path(path), sections, sw,
                    frozenset(data.get("flags") or {}), voc, values)


def _memo(name: str, fn: Callable) -> Callable:
    """A value computed at most once per decision."""
    def get(s):
        memo = s.memo
        if name in memo:
            return memo[name]
        v = memo[name] = fn(s)
        return v
    return get


def _switch_path(data: dict, name: str) -> tuple:
    if name in (data.get("flags") or {}):
        return ("flags", name)
    for sec in SECTIONS:
        for i, r in enumerate(data.get(sec) or []):
            if r["name"] == name:
                return (sec, i, "name")
    return ()


_VOCABS = Kept(16)


def vocabulary(gd) -> Vocabulary:
    """The vocabulary of `gd`, built once per definition."""
    hit = _VOCABS.get(id(gd))
    if hit is not None and hit.gd is gd:
        return hit
    return _VOCABS.put(id(gd), Vocabulary(gd))  # the Vocabulary holds gd: its id stays its own


def decide(strategy: Strategy, voc: Vocabulary, seat: int, legal: tuple, obs: dict
           ) -> tuple[int, str | None]:
    """(the action, the rule that chose it); with no rule applying, the first legal action."""
    kinds = voc.kinds
    sec = "play"  # a pass decides nothing: beside a claim it is play, beside bids a bid
    for a in legal:
        sec = SECTION_OF.get(kinds[a], "play") if kinds[a] != "pass" else "play"
        if sec != "play":
            break
    if sec == "play" and all(kinds[a] == "pass" or SECTION_OF.get(kinds[a]) == "bid"
                             for a in legal):
        sec = "bid"
    s = voc.seen(seat, legal, obs)
    for rule in strategy.sections[sec]:
        if rule.when is not None and not rule.when(s):
            continue
        if rule.only is None:
            if rule.choose is None:  # neither `only` nor `choose`: the first legal action
                return legal[0], rule.name
            cands = legal
        else:
            cands = []
            for a in legal:
                s.a = a
                if rule.only(s):
                    if rule.choose is None:  # the first action `only` keeps: no more asked
                        return a, rule.name
                    cands.append(a)
            if not cands:
                continue
        best, best_key = cands[0], None
        for a in cands:
            s.a = a
            k = rule.choose(s)
            if best_key is None or k > best_key:
                best, best_key = a, k
        return best, rule.name
    return legal[0], None


__all__ = ["Strategy", "Vocabulary", "compile_strategy", "decide", "read", "resolve",
           "strategy_dir", "switches", "vocabulary"]


# ---------------------------------------------------------------------------------------------
# which contracts a strategy's bid rules can choose: read from the rules' checked trees


class _Unknown:
    """A value the strategy reads from the table: unknown before any game is played."""

    __slots__ = ()


_UNKNOWN = _Unknown()


class _BidOf:
    """A bid of one contract (its level, rank and marks unknown); `action`: the action making it
    (its `kind` is a bid), else the action's `bid`."""

    __slots__ = ("contract", "action")

    def __init__(self, contract: str, action: bool):
        self.contract = contract
        self.action = action


def _known(v) -> bool:
    return not isinstance(v, (_Unknown, _BidOf))


def _value(node, checked, bound: dict, a, depth: int = 0):
    """What `node` is when the action looked at is `a` (a _BidOf, or None where there is none)
    and nothing of the table is known: a value, or _UNKNOWN. Only what follows from the action
    and the constants (options, switches, literals) is worked out; anything else is unknown, so
    a part found false is false for every decision."""
    from ..expr import nodes as n
    from ..expr.checker import Binder
    from ..expr.compiler import OPERATORS

    def ev(x):
        return _value(x, checked, bound, a, depth)

    if depth > 32:
        return _UNKNOWN
    if isinstance(node, (n.IntLit, n.BoolLit, n.SymLit)):
        return node.value
    if isinstance(node, n.ListLit):
        items = [ev(i) for i in node.items]
        return items if all(_known(i) for i in items) else _UNKNOWN
    if isinstance(node, n.Name):
        ref = checked.refs.get(id(node))
        if isinstance(ref, Binder):
            return bound.get(ref, _UNKNOWN)
        if ref is not None and getattr(ref, "is_const", False):
            return ref.const
        if node.name == "a" and a is not None:
            return a
        return _UNKNOWN
    if isinstance(node, n.Attr):
        obj = ev(node.obj)
        if isinstance(obj, _BidOf):
            if node.name == "contract":
                return obj.contract
            if obj.action and node.name == "kind":
                return "bid"
            if obj.action and node.name == "bid":
                return _BidOf(obj.contract, False)
        return _UNKNOWN
    if isinstance(node, n.Call):
        func = checked.funcs.get(id(node))
        typed = getattr(func, "typed", None)
        if typed is None or len(typed.params) != len(node.args):
            return _UNKNOWN
        args = {b: ev(x) for b, x in zip(typed.params, node.args)}
        return _value(typed.root, typed.checked, args, a, depth + 1)
    if isinstance(node, n.Unary):
        v = ev(node.operand)
        if not _known(v):
            return _UNKNOWN
        return (not v) if node.op == "not" else -v
    if isinstance(node, n.Logic):
        left = ev(node.left)
        stop = node.op == "or"  # the value that decides alone: true for `or`, false for `and`
        if _known(left) and bool(left) is stop:
            return stop
        right = ev(node.right)
        if _known(right) and bool(right) is stop:
            return stop
        return (not stop) if _known(left) and _known(right) else _UNKNOWN
    if isinstance(node, n.IfElse):
        cond = ev(node.cond)
        if _known(cond):
            return ev(node.then if cond else node.orelse)
        then, orelse = ev(node.then), ev(node.orelse)
        return then if _known(then) and _known(orelse) and then == orelse else _UNKNOWN
    if isinstance(node, (n.Compare, n.Binary)):
        left, right = ev(node.left), ev(node.right)
        op = OPERATORS.get(node.op)  # the expression language's own (expr.compiler)
        if op is None or not (_known(left) and _known(right)):
            return _UNKNOWN
        try:
            return op(left, right)
        except Exception:  # an error of the game's (a division by zero): not known here
            return _UNKNOWN
    return _UNKNOWN


def _part(rule: Rule, key: str, a):
    """A rule's part (`when` or `only`) as _value reads it; None when the rule has none."""
    c = rule.compiled.get(key)
    if c is None:
        return None
    if c.is_const:
        return c.const
    if c.typed is None:
        return _UNKNOWN
    return _value(c.typed.root, c.typed.checked, {}, a)


def bids_chosen(strategy: Strategy, contract: str) -> bool:
    """Whether a bid rule of `strategy` (of those switched on) can choose a bid of `contract`.

    Decided from the rules themselves, the action a bid of that contract and everything the
    rule reads from the table unknown: a rule whose `when` is false (a switch off) or whose
    `only` is false for any bid of the contract (`a.contract == 'x'`, a function saying
    so) cannot; one with `only` not decided so, or with a `choose` and no `only` (it ranks every
    legal action), can. A rule with neither takes the first legal action, a pass when passing
    is legal, as the fallback does: a bid only when it is forced, which is no choice."""
    for rule in strategy.sections.get("bid", ()):
        if _part(rule, "when", None) is False:
            continue
        only = _part(rule, "only", _BidOf(contract, True))
        if only is None:
            if rule.choose is not None:
                return True
            continue
        if not _known(only) or only:
            return True
    return False
