"""A loaded ruleset tree -> a GameDef: resolve names, type-check and compile every expression."""

from __future__ import annotations

import itertools
import re
from types import SimpleNamespace
from typing import Any

from ..errors import CheckError, Diagnostic, ExprError, OptionError, TablerulesError, did_you_mean
from ..expr import compile_expression, define_function
from ..expr.env import Env, Func, Var
from ..expr.types import BOOL, INT, SCALAR, SYM, Attr, ListType, Type, enum, join
from ..load.ruleset import content_hash
from ..load.yamltree import Tree
from . import vocab
from .definition import (FIXED_NAMES, BidDef, ContractDef, Declaration, DeclareStep, ExchangeDef, GameDef,
                         LayoutDef, Pieces, PlayDef, TrickTables)
from .options import OptionDecl, apply_cli_options, canonical_name

TYPE_NAMES = {"int": INT, "bool": BOOL, "symbol": SYM, "scalar": SCALAR}
SIGNATURE = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*\((.*)\)\s*$")
MAX_TABLE_COMBOS = 20_000
FIXED_ACTIONS = FIXED_NAMES
NO_BID = "none"


class Compiler:
    """Compiles one merged ruleset tree; collects every error before giving up."""

    def __init__(self, tree: Tree, cli_options: dict[str, Any] | None = None):
        self.tree = tree
        self.data = tree.data
        self.cli = cli_options or {}
        self.diags: list[Diagnostic] = []

    # -- helpers -----------------------------------------------------------------------------

    def error(self, path: tuple, message: str, *, key: bool = False, suggestion: str | None = None,
              kind: str = "check") -> None:
        self.diags.append(Diagnostic(self.tree.span(path, key=key), message, kind, suggestion))

    def get(self, *path: Any, default: Any = None) -> Any:
        v = self.tree.get(path, default)
        return default if v is None else v

    def expr(self, path: tuple, env: Env, expected: Type | None = None, *,
             default: str | None = None):
        """Compile the expression at `path` (or `default` when absent); None after an error."""
        raw = self.tree.get(path)
        if raw is None:
            if default is None:
                self.error(path, f"missing expression '{path[-1]}' in {_where(path[:-1])}",
                           kind="schema")
                return None
            text, locate = default, None
        else:
            if isinstance(raw, bool):
                text = "true" if raw else "false"
            elif isinstance(raw, (int, str)):
                text = str(raw)
            else:
                self.error(path, f"expected an expression (text), got {_kind(raw)}", kind="schema")
                return None
            locate = self.tree.locator(path) if isinstance(raw, str) else (
                lambda off, ln, s=self.tree.span(path): s)
        try:
            return compile_expression(text, env, locate=locate, expected=expected)
        except ExprError as e:
            self.diags.extend(e.diagnostics)
            return None

    def const_value(self, c) -> Any:
        if c is None:
            return None
        if c.is_const:
            return c.const
        return c.fn(None)

    # -- the whole ruleset -------------------------------------------------------------------

    def compile(self) -> GameDef:
        d = self.data
        name = d.get("name") if isinstance(d.get("name"), str) else "unnamed"
        title = d.get("title") if isinstance(d.get("title"), str) else name
        decls = self.options()
        values = self.option_values(decls)
        base = Env(where="the ruleset")
        for k, v in values.items():
            t = enum(decls[k].values) if decls[k].type == "symbol" else TYPE_NAMES[decls[k].type]
            base.vars[k] = vocab.const(t, v, decls[k].description)
        pieces, tile = self.pieces(base)
        if pieces is None:
            self.raise_if_errors()
        base.vars.update({
            "max_pip": vocab.const(INT, self.get("pieces", "max_pip", default=0), "highest pip"),
            "pieces": vocab.const(ListType(tile), tuple(range(len(pieces))), "every piece in play"),
        })
        seats = self.seats(base)
        if seats is None:
            self.raise_if_errors()
            raise CheckError("ruleset has no usable seats")
        seat_count, seat_names, sides = seats
        side_of = tuple(next(i for i, s in enumerate(sides) if seat in s) for seat in range(seat_count))
        base.vars.update({
            "seat_count": vocab.const(INT, seat_count, "number of seats"),
            "sides": vocab.const(ListType(INT), tuple(range(len(sides))), "every side's index"),
        })
        hand_size = self.const_int(("deal", "hand_size"), base, 0, "pieces dealt to each seat")
        base.vars["hand_size"] = vocab.const(INT, hand_size, "pieces dealt to each seat")
        stock = self.const_int(("deal", "stock"), base, 0, "pieces left undealt")
        if hand_size * seat_count + stock > len(pieces):
            self.error(("deal", "hand_size"),
                       f"{seat_count} hands of {hand_size} plus a stock of {stock} need "
                       f"{hand_size * seat_count + stock} pieces; the set has {len(pieces)}")
        base.funcs.update(vocab.piece_funcs(pieces, tile))
        base.funcs.update(vocab.seat_funcs(seat_count, sides))
        constants = self.constants(base)
        declarations = self.declarations(base)
        decl_env = base.extended(vars={
            dc.name: vocab.Var(self._decl_type(dc), (lambda c, i=dc.index: c.decl[i]),
                               doc=dc.description)
            for dc in declarations})
        self.functions(decl_env, tile)
        contract_names = [k for k in (d.get("contracts") or {}) if isinstance(k, str)]
        bid_attrs: dict[str, Attr] = {}
        bid_tables: dict[str, list] = {"contract": [NO_BID], "level": [0], "rank": [-1], "marks": [0]}
        bid_attrs["contract"] = Attr(enum(contract_names + [NO_BID]), bid_tables["contract"].__getitem__,
                                     "the contract's name")
        for a in ("level", "rank", "marks"):
            bid_attrs[a] = Attr(INT, bid_tables[a].__getitem__, f"the bid's {a}")
        bid = vocab.bid_type(bid_attrs)
        game_env = decl_env.extended(funcs=vocab.state_funcs())

        deal_env = vocab.place(base, "deal", dealer=vocab.dyn(INT, "dealer", "the dealer"))
        next_dealer = self.expr(("deal", "next_dealer"), deal_env, INT, default="next(dealer)")
        first_dealer = self.get("deal", "first_dealer", default=0)
        if not isinstance(first_dealer, int) or not 0 <= first_dealer < seat_count:
            self.error(("deal", "first_dealer"), f"deal.first_dealer is a seat 0..{seat_count - 1}, "
                                                 f"got {first_dealer!r}")

        contracts, bids = self.contracts(base, game_env, decl_env, declarations, bid, tile,
                                         contract_names)
        for b in bids[1:]:
            bid_tables["contract"].append(b.contract_name)
            bid_tables["level"].append(b.level)
            bid_tables["rank"].append(b.rank)
            bid_tables["marks"].append(b.marks)

        auction_env = vocab.place(base, "auction", dealer=vocab.dyn(INT, "dealer", "the dealer"))
        first = self.expr(("auction", "first"), auction_env, INT, default="next(dealer)")
        speaker = {
            "dealer": vocab.dyn(INT, "dealer", "the dealer"),
            "seat": vocab.dyn(INT, "actor", "the seat to speak"),
            "passes": vocab.dyn(INT, "passes", "passes so far this hand"),
            "hand": vocab.dyn(ListType(tile), "hand", "the speaker's pieces"),
        }
        offered = vocab.dyn(bid, "x_bid", "the bid offered")
        standing = vocab.dyn(bid, "high", "the standing high bid (contract 'none' with rank -1 "
                                          "when nobody has bid)")
        pair_env = vocab.place(base, "auction.beats", bid=offered, high=standing, **speaker)
        beats_c = self.expr(("auction", "beats"), pair_env, BOOL, default="bid.rank > high.rank")
        speak_env = vocab.place(base, "auction.forced.when", high=standing, **speaker)
        bid_env = vocab.place(base, "auction.forced.bids", bid=offered)
        forced_when = None
        forced_bids: frozenset[int] = frozenset()
        if self.tree.get(("auction", "forced")) is not None:
            forced_when = self.expr(("auction", "forced", "when"), speak_env, BOOL)
            fb = self.expr(("auction", "forced", "bids"), bid_env, BOOL, default="true")
            if fb is not None:
                forced_bids = frozenset(b.index for b in bids[1:]
                                        if fb.fn(SimpleNamespace(x_bid=b.index)))
        all_pass_seat = None
        all_pass_bids: tuple[int, ...] = ()
        ap = self.tree.get(("auction", "all_pass"))
        if isinstance(ap, dict):
            sc = self.expr(("auction", "all_pass", "seat"),
                           vocab.place(base, "auction.all_pass.seat",
                                       dealer=vocab.dyn(INT, "dealer", "the dealer")), INT)
            bc = self.expr(("auction", "all_pass", "bids"),
                           bid_env.extended(where="auction.all_pass.bids"), BOOL, default="true")
            if sc is not None and bc is not None:
                all_pass_seat = sc.fn
                all_pass_bids = tuple(b.index for b in bids[1:]
                                      if bc.fn(SimpleNamespace(x_bid=b.index)))
                if not all_pass_bids:
                    self.error(("auction", "all_pass", "bids"),
                               "no bid satisfies 'all_pass.bids': the forced seat could not bid")
        fixed = self.tree.get(("auction", "contract"))
        fixed_contract = -1
        if fixed is not None:
            found = [c for c in contracts if c.name == fixed]
            if not found:
                self.error(("auction", "contract"), f"'auction.contract' names no contract: {fixed!r}",
                           suggestion=did_you_mean(str(fixed), [c.name for c in contracts]))
            else:
                fixed_contract = found[0].index
        beats: dict[int, tuple[int, ...]] = {}
        beats_dyn = None
        if beats_c is not None:
            if beats_c.uses & set(speaker):
                beats_dyn = beats_c.fn  # depends on the speaker: judged at run time
                every = tuple(b.index for b in bids[1:])
                beats = {h.index: every for h in bids}
            else:
                for h in bids:
                    ctx = SimpleNamespace(high=h.index, x_bid=0)
                    ok = []
                    for b in bids[1:]:
                        ctx.x_bid = b.index
                        if beats_c.fn(ctx):
                            ok.append(b.index)
                    beats[h.index] = tuple(ok)

        sc_env = game_env.extended(vars={
            **vocab.outcome_vars(bid),
            "side": vocab.dyn(INT, "x_side", "the side being scored"),
            "made": vocab.dyn(BOOL, "made", "whether the contract was made"),
        }, where="scoring.hand")
        score_hand = self.expr(("scoring", "hand"), sc_env, INT)
        mo_env = base.extended(vars={"hands_played": vocab.dyn(INT, "hands_played",
                                                               "hands completed this match")},
                               funcs={"score": vocab.state_funcs()["score"]},
                               where="scoring.match_over")
        match_over = self.expr(("scoring", "match_over"), mo_env, BOOL)

        hp = self.tree.get(("bounds", "hand_points"))
        hand_points = None
        if hp is not None:
            hpc = self.expr(("bounds", "hand_points"), base, INT)
            if hpc is not None and not hpc.uses - set(base.vars) - set(base.funcs):
                hand_points = self.const_value(hpc)
        max_hands = self.get("bounds", "max_hands", default=1000)
        max_steps = self.get("bounds", "max_steps", default=10_000)

        self.raise_if_errors()

        # the action space: pieces, pass, bids, declaration choices, lead choices
        n = len(pieces)
        pass_action = n
        bid_base = n + len(FIXED_ACTIONS)
        decl_base = bid_base + len(bids) - 1
        decl_actions = tuple((dc.index, v) for dc in declarations for v in dc.values)
        lead_base = decl_base + len(decl_actions)
        decl_action_of = {(dv[0], _vkey(dv[1])): decl_base + i for i, dv in enumerate(decl_actions)}
        contracts = tuple(
            ContractDef(c.index, c.name, c.title, c.requires, c.confirm, c.exchange,
                        tuple(DeclareStep(s.decl, s.by, s.choices,
                                          tuple(decl_action_of[(s.decl, _vkey(v))] for v in s.choices))
                              for s in c.declare),
                        c.play, c.over, c.made)
            for c in contracts)
        bids = tuple(BidDef(b.index, b.contract, b.contract_name, b.level, b.rank, b.marks,
                            b.action if b.index == 0 else bid_base + b.index - 1, b.label)
                     for b in bids)
        game = GameDef(
            name=name, title=title, canonical=canonical_name(name, decls, values, self.house_defaults),
            content_hash=content_hash(d), options=values, option_decls=decls, pieces=pieces,
            seat_count=seat_count, seat_names=seat_names, sides=sides, side_of=side_of,
            hand_size=hand_size, stock=stock,
            first_dealer=first_dealer, next_dealer=next_dealer.fn, constants=constants,
            declarations=declarations, contracts=contracts, bids=bids, auction_first=first.fn,
            beats=beats, beats_dyn=beats_dyn, all_pass_seat=all_pass_seat,
            all_pass_bids=all_pass_bids, fixed_contract=fixed_contract, forced_when=forced_when.fn if forced_when else None,
            forced_bids=forced_bids, has_requires=any(c.requires is not None for c in contracts),
            score_hand=score_hand.fn, match_over=match_over.fn,
            hand_points=hand_points, max_hands=max_hands, max_steps=max_steps,
            pass_action=pass_action, bid_base=bid_base, decl_actions=decl_actions,
            decl_base=decl_base, lead_base=lead_base, num_actions=lead_base, suit_values=(),
            source=d)
        self.build_all_tables(game)
        return game

    def raise_if_errors(self) -> None:
        seen = set()
        unique = []
        for d in self.diags:  # a part inherited through `like` is checked once per contract
            key = (d.span, d.message)
            if key not in seen:
                seen.add(key)
                unique.append(d)
        self.diags = unique
        if self.diags:
            # the class follows the errors: option mistakes alone are an OptionError
            cls = OptionError if all(d.kind == "option" for d in self.diags) else CheckError
            raise cls(self.diags[0].message, self.diags[0].span, diagnostics=self.diags)

    # -- parts ---------------------------------------------------------------------------------

    def options(self) -> dict[str, OptionDecl]:
        out: dict[str, OptionDecl] = {}
        for name, o in (self.data.get("options") or {}).items():
            p = ("options", name)
            if not isinstance(o, dict):
                continue  # the schema reports it
            t = o.get("type")
            if t not in ("int", "bool", "symbol"):
                continue
            values = o.get("values")
            decl = OptionDecl(name, t, o.get("default"), str(o.get("description", "")),
                              tuple(values) if isinstance(values, list) else None,
                              o.get("min"), o.get("max"))
            if t == "symbol" and not decl.values:
                self.error(p, f"symbol option '{name}' needs a list of 'values'", key=True)
            if decl.values is not None:
                for i, v in enumerate(decl.values):
                    if OptionDecl(name, t, v, "", None, decl.min, decl.max).problem(v):
                        self.error(p + ("values", i),
                                   f"value {v!r} of option '{name}' is not of type {t}")
            why = decl.problem(decl.default)
            if why:
                self.error(p + ("default",), f"default of {why[len('option '):]}"
                           if why.startswith("option ") else why)
            out[name] = decl
        return out

    def option_values(self, decls: dict[str, OptionDecl]) -> dict[str, Any]:
        values = {k: v.default for k, v in decls.items()}
        for k, v in (self.data.get("set") or {}).items() if isinstance(self.data.get("set"), dict) \
                else []:
            p = ("set", k)
            decl = decls.get(k)
            if decl is None:
                self.error(p, f"'set' names no option '{k}'", key=True,
                           suggestion=did_you_mean(k, decls), kind="option")
                continue
            why = decl.problem(v)
            if why:
                self.error(p, why, kind="option",
                           suggestion=did_you_mean(str(v), [str(x) for x in decl.values or ()]))
                continue
            values[k] = v
        self.house_defaults = dict(values)
        if self.cli:
            try:
                values = apply_cli_options(decls, values, self.cli)
            except OptionError as e:
                self.diags.extend(e.diagnostics)
        return values

    def pieces(self, base: Env):
        max_pip = self.get("pieces", "max_pip")
        if not isinstance(max_pip, int) or isinstance(max_pip, bool) or not 0 < max_pip <= 18:
            self.error(("pieces", "max_pip"), "pieces.max_pip must be an int from 1 to 18")
            return None, None
        ends = [(h, lo) for h in range(max_pip + 1) for lo in range(h + 1)]  # 0-0, 1-0, 1-1, ...
        attrs: dict[str, Attr] = {}
        tables: dict[str, tuple] = {}

        def add(name: str, t: Type, values: list, doc: str) -> None:
            tables[name] = tuple(values)
            attrs[name] = Attr(t, tables[name].__getitem__, doc)

        def built_in(ends: list) -> Env:
            """The built-in attributes over `ends`, and the env where `tile` is such a piece."""
            add("high", INT, [h for h, _ in ends], "the higher end")
            add("low", INT, [lo for _, lo in ends], "the lower end")
            add("pips", INT, [h + lo for h, lo in ends], "the total of both ends")
            add("double", BOOL, [h == lo for h, lo in ends], "whether both ends are the same")
            return base.extended(vars={
                "tile": Var(vocab.tile_type(attrs), lambda c: c, doc="the piece"),
                "max_pip": vocab.const(INT, max_pip, "highest pip")}, where="pieces")

        env = built_in(ends)
        if self.tree.get(("pieces", "filter")) is not None:
            f = self.expr(("pieces", "filter"), env.extended(where="pieces.filter"), BOOL)
            if f is not None:
                kept = [e for i, e in enumerate(ends) if f.fn(i)]
                if len(kept) < len(ends):
                    ends = kept
                    env = built_in(ends)
        tile = env.vars["tile"].type
        for name, spec in (self.get("pieces", "attributes", default={}) or {}).items():
            p = ("pieces", "attributes", name)
            if name in attrs:
                self.error(p, f"attribute '{name}' is built in", key=True)
                continue
            if not isinstance(spec, dict):
                continue
            c = self.expr(p + ("value",), env.extended(where=f"pieces.attributes.{name}"))
            if c is None:
                continue
            if c.type not in (INT, BOOL) and not isinstance(c.type, type(SYM)):
                self.error(p + ("value",), f"a piece attribute is an int, bool or symbol, got {c.type}")
                continue
            add(name, c.type, [c.fn(i) for i in range(len(ends))], str(spec.get("description", "")))
            tile = vocab.tile_type(attrs)
            env = env.extended(vars={"tile": Var(tile, lambda c: c, doc="the piece")})
        names = tuple(f"{h}-{lo}" for h, lo in ends)
        return Pieces(names, tuple(ends), tables), tile

    def const_int(self, path: tuple, env: Env, default: int, what: str) -> int:
        """An int given literally or as a constant expression (e.g. of options)."""
        raw = self.tree.get(path)
        if raw is None:
            return default
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        c = self.expr(path, env.extended(where=_where(path)), INT)
        if c is None:
            return default
        if not c.is_const:
            self.error(path, f"{_where(path)} ({what}) must be fixed before the game starts")
            return default
        return c.const

    def seats(self, base: Env):
        count = self.const_int(("seats", "count"), base, 0, "the number of seats")
        if not 1 < count <= 8:
            self.error(("seats", "count"), f"seats.count must be from 2 to 8, got {count}")
            return None
        env = base.extended(vars={"seat_count": vocab.const(INT, count, "number of seats")})
        sides_raw = self.tree.get(("seats", "sides"))
        if isinstance(sides_raw, str):
            c = self.expr(("seats", "sides"), env.extended(where="seats.sides"),
                          ListType(ListType(INT)))
            sides_raw = [list(x) for x in self.const_value(c)] if c is not None else None
            if sides_raw is None:
                return None
        elif sides_raw is None:
            sides_raw = [[s] for s in range(count)]
        seen: list[int] = []
        sides = []
        ok = True
        for i, side in enumerate(sides_raw if isinstance(sides_raw, list) else []):
            if not isinstance(side, list):
                ok = False
                continue
            for j, s in enumerate(side):
                if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < count:
                    self.error(("seats", "sides", i, j), f"seat {s!r} is not a seat 0..{count - 1}")
                    ok = False
                elif s in seen:
                    self.error(("seats", "sides", i, j), f"seat {s} is in two sides")
                    ok = False
                else:
                    seen.append(s)
            sides.append(tuple(x for x in side if isinstance(x, int)))
        if ok and sorted(seen) != list(range(count)):
            missing = sorted(set(range(count)) - set(seen))
            self.error(("seats", "sides"), f"seats {missing} belong to no side")
            ok = False
        names = self.get("seats", "names", default=[f"Seat {i}" for i in range(count)])
        if not isinstance(names, list) or len(names) < count:
            self.error(("seats", "names"), f"seats.names lists a name for each of the {count} seats")
            names = [f"Seat {i}" for i in range(count)]
        return (count, tuple(str(n) for n in names[:count]), tuple(sides)) if ok else None

    def constants(self, base: Env) -> dict[str, Any]:
        out = {}
        for name, spec in (self.get("constants", default={}) or {}).items():
            p = ("constants", name)
            if name in base.vars or name in base.funcs:
                self.error(p, f"constant '{name}' hides a name already defined", key=True)
                continue
            if not isinstance(spec, dict):
                continue
            c = self.expr(p + ("value",), base.extended(where=f"constants.{name}"))
            if c is None:
                continue
            value = self.const_value(c)
            base.vars[name] = vocab.const(c.type, value, str(spec.get("description", "")))
            out[name] = value
        return out

    def _decl_type(self, dc: Declaration) -> Type:
        t: Type | None = None
        for v in dc.values:
            vt = INT if type(v) is int else (enum([v]) if isinstance(v, str) else BOOL)
            t = vt if t is None else join(t, vt)
        return t or SCALAR

    def declarations(self, base: Env) -> tuple[Declaration, ...]:
        out = []
        for name, spec in (self.get("declarations", default={}) or {}).items():
            p = ("declarations", name)
            if name in base.vars or name in base.funcs:
                self.error(p, f"declaration '{name}' hides a name already defined", key=True)
                continue
            if not isinstance(spec, dict):
                continue
            vc = self.expr(p + ("values",), base.extended(where=f"declarations.{name}.values"))
            if vc is None:
                continue
            if not isinstance(vc.type, ListType):
                self.error(p + ("values",), f"declaration values are a list, got {vc.type}")
                continue
            values = tuple(self.const_value(vc))
            dflt = self.expr(p + ("default",), base.extended(where=f"declarations.{name}.default"))
            if dflt is None:
                continue
            dv = self.const_value(dflt)
            if dv not in values:
                self.error(p + ("default",), f"default {dv!r} is not one of the declared values")
                continue
            out.append(Declaration(len(out), name, str(spec.get("description", "")), values, dv))
        return tuple(out)

    def functions(self, env: Env, tile) -> None:
        types = {"tile": tile, "int": INT, "bool": BOOL, "symbol": SYM, "scalar": SCALAR}
        for sig, body in (self.get("functions", default={}) or {}).items():
            p = ("functions", sig)
            m = SIGNATURE.match(sig) if isinstance(sig, str) else None
            if not m:
                self.error(p, f"a function key is a signature like 'name(t: tile, n: int)', "
                              f"got '{sig}'", key=True)
                continue
            name, params_text = m.group(1), m.group(2)
            params = []
            bad = False
            for part in [x for x in params_text.split(",") if x.strip()]:
                pname, _, ptype = part.partition(":")
                pname, ptype = pname.strip(), ptype.strip()
                t = types.get(ptype)
                if ptype.startswith("list[") and ptype.endswith("]") and ptype[5:-1] in types:
                    t = ListType(types[ptype[5:-1]])
                if not pname.isidentifier() or t is None:
                    self.error(p, f"bad parameter '{part.strip()}' in '{sig}' (types: "
                                  f"{', '.join(types)}, list[...])", key=True,
                               suggestion=did_you_mean(ptype, types) if t is None else None)
                    bad = True
                    continue
                params.append((pname, t))
            if bad:
                continue
            if name in env.vars or name in env.funcs:
                self.error(p, f"function '{name}' hides a name already defined", key=True)
                continue
            if not isinstance(body, (str, int, bool)):
                self.error(p, "a function body is an expression", kind="schema")
                continue
            text = body if isinstance(body, str) else str(body).lower()
            try:
                env.funcs[name] = define_function(name, params, text, env,
                                                  locate=self.tree.locator(p))
            except ExprError as e:
                self.diags.extend(e.diagnostics)

    def contracts(self, base, game_env, decl_env, declarations, bid, tile, names):
        decl_by_name = {dc.name: dc for dc in declarations}
        contracts = []
        bids = [BidDef(0, -1, NO_BID, 0, -1, 0, -1, NO_BID)]
        labels: set[str] = set()
        raw = self.get("contracts", default={})
        if not raw:
            self.error(("contracts",), "a ruleset needs at least one contract", kind="schema")
        sit_env = decl_env.extended(vars={
            "seat": vocab.dyn(INT, "x_seat", "the seat in question"),
            "bidder": vocab.dyn(INT, "bidder", "the seat that won the auction (-1 without one)"),
            "dealer": vocab.dyn(INT, "dealer", "the dealer"),
            "dealt": vocab.dyn(ListType(tile), "in_hands", "every piece in a seat's hand")},
            funcs={"holder": vocab.holder_func(tile)}, where="play.sits_out")
        tile_var = Var(tile, lambda c: c.x_tile, doc="the piece in question")
        led_var = Var(SCALAR, lambda c: c.x_led, doc="the suit led")
        outcome_env = game_env.extended(vars=vocab.outcome_vars(bid), where="outcome")
        for name, spec in raw.items():
            cp = ("contracts", name)
            if not isinstance(spec, dict):
                continue
            idx = len(contracts)
            title = str(spec.get("title") or name)
            if spec.get("enabled") is not None:
                en = self.expr(cp + ("enabled",), base.extended(where=f"contracts.{name}.enabled"), BOOL)
                if en is not None and not self.const_value(en):
                    enabled = False
                else:
                    enabled = en is not None
            else:
                enabled = True
            lv = self.expr(cp + ("bid", "levels"), base.extended(where=f"contracts.{name}.bid.levels"),
                           ListType(INT), default="[1]")
            level_env = base.extended(vars={"level": Var(INT, lambda c: c, doc="the bid's level")},
                                      where=f"contracts.{name}.bid")
            rk = self.expr(cp + ("bid", "rank"), level_env, INT, default="level")
            mk = self.expr(cp + ("bid", "marks"), level_env, INT, default="1")
            label = None
            if self.tree.get(cp + ("bid", "label")) is not None:
                label = self.expr(cp + ("bid", "label"), level_env, SCALAR)
            confirm = None
            if self.tree.get(cp + ("bid", "confirm")) is not None:
                cf = self.expr(cp + ("bid", "confirm"), base.extended(vars={
                    "seat": vocab.dyn(INT, "actor", "the seat bidding"),
                    "dealer": vocab.dyn(INT, "dealer", "the dealer")},
                    where=f"contracts.{name}.bid.confirm"), INT)
                confirm = cf.fn if cf is not None else None
            req = None
            if self.tree.get(cp + ("bid", "requires")) is not None:
                req_env = base.extended(vars={
                    "seat": vocab.dyn(INT, "actor", "the seat bidding"),
                    "dealer": vocab.dyn(INT, "dealer", "the dealer"),
                    "hand": vocab.dyn(ListType(tile), "hand", "the bidding seat's pieces"),
                }, where=f"contracts.{name}.bid.requires")
                rq = self.expr(cp + ("bid", "requires"), req_env, BOOL)
                req = rq.fn if rq is not None else None
            if self.tree.get(("auction", "contract")) is not None:
                enabled = False  # no auction: nothing is bid
            if enabled and None not in (lv, rk, mk):
                for level in self.const_value(lv):
                    text = f"{name} {level}" if label is None else str(label.fn(level))
                    if text in labels:
                        self.error(cp + ("bid", "label" if label else "levels"),
                                   f"two bids are both named '{text}'")
                    labels.add(text)
                    bids.append(BidDef(len(bids), idx, name, level, rk.fn(level), mk.fn(level), 0,
                                       text))
            steps = []
            for dname, dspec in (self.get(*cp, "declare", default={}) or {}).items():
                dp = cp + ("declare", dname)
                dc = decl_by_name.get(dname)
                if dc is None:
                    self.error(dp, f"'{dname}' is not a declaration", key=True,
                               suggestion=did_you_mean(dname, decl_by_name))
                    continue
                if not isinstance(dspec, dict):
                    continue
                by = self.expr(dp + ("by",), sit_env.extended(where=f"{_where(dp)}.by"), INT,
                               default="bidder")
                ch = self.expr(dp + ("choices",), base.extended(where=f"{_where(dp)}.choices"),
                               default=None if dspec.get("choices") is not None else "[]")
                if by is None or ch is None:
                    continue
                choices = tuple(self.const_value(ch)) if isinstance(ch.type, ListType) else None
                if choices is None:
                    self.error(dp + ("choices",), f"choices are a list, got {ch.type}")
                    continue
                bad = [v for v in choices if v not in dc.values]
                if bad:
                    self.error(dp + ("choices",), f"{bad[0]!r} is not a value of declaration '{dname}'")
                    continue
                if not choices:
                    self.error(dp + ("choices",), "a declaration needs at least one choice")
                    continue
                steps.append(SimpleNamespace(decl=dc.index, by=by.fn, choices=choices))
            exchange = self.exchange(cp, sit_env, base)
            pp = cp + ("play",)
            pw = _where(pp)
            mode = self.get(*pp, "mode", default="tricks")
            if mode not in ("tricks", "layout"):
                self.error(pp + ("mode",), f"play.mode is 'tricks' or 'layout', got {mode!r}",
                           suggestion=did_you_mean(str(mode), ["tricks", "layout"]))
                continue
            leader = self.expr(pp + ("leader",), sit_env.extended(where=f"{pw}.leader"), INT,
                               default="bidder")
            sits = None
            if self.tree.get(pp + ("sits_out",)) is not None:
                sc = self.expr(pp + ("sits_out",), sit_env, BOOL)
                if sc is not None and not (sc.is_const and not sc.const):
                    sits = sc.fn
            if mode == "layout":
                layout = self.layout(pp, game_env, base)
                if None in (leader, layout):
                    continue
                never = lambda c: False  # noqa: E731 - tricks are not played in a layout
                play = PlayDef(leader.fn, sits, lambda c: 0, never, lambda c: 0, never, None,
                               lambda c: 0, "layout", layout)
            else:
                te = decl_env.extended(vars={"tile": tile_var}, where=f"{pw}.lead")
                tle = decl_env.extended(vars={"tile": tile_var, "led": led_var})
                lead = self.expr(pp + ("lead",), te, default="tile.high")
                if lead is not None and not (SCALAR.accepts(lead.type) or (
                        isinstance(lead.type, ListType) and SCALAR.accepts(lead.type.elem))):
                    self.error(pp + ("lead",), f"'lead' gives a suit or a list of suits, got {lead.type}")
                    lead = None
                follows = self.expr(pp + ("follows",), tle.extended(where=f"{pw}.follows"), BOOL,
                                    default="has(tile, led)")
                rank = self.expr(pp + ("rank",), tle.extended(where=f"{pw}.rank"), INT)
                mf = self.expr(pp + ("must_follow",), decl_env.extended(where=f"{pw}.must_follow"),
                               BOOL, default="true")
                legal = None
                if self.tree.get(pp + ("legal",)) is not None:
                    le = decl_env.extended(vars={
                        "tile": tile_var,
                        "hand": vocab.dyn(ListType(tile), "hand", "the player's pieces"),
                        "leading": vocab.dyn(BOOL, "leading", "whether the player leads this trick"),
                        "trick": vocab.dyn(ListType(tile), "trick", "pieces played to this trick"),
                    }, where=f"{pw}.legal")
                    lc = self.expr(pp + ("legal",), le, BOOL)
                    legal = lc.fn if lc is not None else None
                tp = self.expr(pp + ("trick_points",), game_env.extended(vars={
                    "trick": vocab.dyn(ListType(tile), "trick", "the pieces of the trick")},
                    where=f"{pw}.trick_points"), INT, default="1")
                if None in (leader, lead, follows, rank, mf, tp):
                    continue
                play = PlayDef(leader.fn, sits, lead.fn, follows.fn, rank.fn, mf.fn, legal, tp.fn)
            op = cp + ("outcome",)
            over = self.expr(op + ("over",), outcome_env.extended(where=f"{_where(op)}.over"), BOOL,
                             default="false")
            made = self.expr(op + ("made",), outcome_env.extended(where=f"{_where(op)}.made"), BOOL,
                             default="false")
            if None in (over, made):
                continue
            contracts.append(SimpleNamespace(index=idx, name=name, title=title, requires=req,
                                             confirm=confirm, exchange=exchange,
                                             declare=steps, play=play, over=over.fn, made=made.fn))
        if len(bids) == 1 and not self.diags and self.tree.get(("auction", "contract")) is None:
            self.error(("contracts",), "no contract can be bid: every one is disabled or has no levels")
        return contracts, bids

    def exchange(self, cp: tuple, sit_env: Env, base: Env):
        """A contract's `exchange`: a seat takes the stock into hand, then buries pieces."""
        ep = cp + ("exchange",)
        if self.tree.get(ep) is None:
            return None
        w = _where(ep)
        by = self.expr(ep + ("by",), sit_env.extended(where=f"{w}.by"), INT, default="bidder")
        bury = self.const_int(ep + ("bury",), base, 0, "pieces to bury")
        optional = self.const_bool(ep + ("optional",), base, False)
        first = self.const_bool(ep + ("first",), base, True)
        if by is None:
            return None
        return ExchangeDef(by.fn, bury, optional, first)

    def const_bool(self, path: tuple, env: Env, default: bool) -> bool:
        if self.tree.get(path) is None:
            return default
        c = self.expr(path, env.extended(where=_where(path)), BOOL)
        if c is None:
            return default
        if not c.is_const:
            self.error(path, f"{_where(path)} must be fixed before the game starts")
            return default
        return bool(c.const)

    def layout(self, pp: tuple, game_env: Env, base: Env):
        """A layout play mode: pieces laid end to end on open ends, a spinner, scoring ends."""
        end = vocab.end_type()
        env = game_env.extended(vars={
            "ends": vocab.dyn(ListType(end), "ends", "the open ends after the play"),
            "spinner_open": vocab.dyn(BOOL, "spinner_open",
                                      "whether the spinner is still an end of the line"),
            "spinner_pips": vocab.dyn(INT, "spinner_pips", "the spinner's number (0 if none)"),
            "seat": vocab.dyn(INT, "actor", "the seat that played"),
        }, where=f"{_where(pp)}.scores")
        scores = self.expr(pp + ("scores",), env, INT, default="0")
        spinner = self.const_bool(pp + ("spinner",), base, True)
        must_draw = self.const_bool(pp + ("must_draw",), base, True)
        may_draw = self.const_bool(pp + ("may_draw",), base, False)
        if scores is None:
            return None
        return LayoutDef(spinner, scores.fn, must_draw, may_draw)

    # -- per-hand tables -------------------------------------------------------------------------

    def build_all_tables(self, game: GameDef) -> None:
        """Tabulate lead/follow/rank for every contract and declaration combination."""
        decls = game.declarations
        default = tuple(dc.default for dc in decls)
        suit_values: list = []
        combos: list[tuple[int, tuple]] = []
        for c in game.contracts:
            if c.play.mode != "tricks":
                continue
            choice_lists = [list(s.choices) for s in c.declare]
            n = 1
            for cl in choice_lists:
                n *= len(cl)
            if n > MAX_TABLE_COMBOS:
                raise CheckError(f"contract '{c.name}' has {n} declaration combinations; at most "
                                 f"{MAX_TABLE_COMBOS} are supported",
                                 self.tree.span(("contracts", c.name, "declare")))
            for combo in itertools.product(*choice_lists):
                decl = list(default)
                for s, v in zip(c.declare, combo):
                    decl[s.decl] = v
                combos.append((c.index, tuple(decl)))
        leads: dict[tuple, list] = {}
        for key in combos:  # first every suit any lead can name, then the tables over all of them
            leads[key] = self._leads(game, *key, suit_values)
        game.suit_values = tuple(suit_values)
        game.lead_base = game.decl_base + len(game.decl_actions)
        game.bury_base = game.lead_base + len(suit_values)
        game.layout_base = game.bury_base + len(game.pieces)
        game.num_actions = game.layout_base + 4 * len(game.pieces)
        lead_actions = tuple(game.lead_base + i for i in range(len(suit_values)))
        for key in combos:
            game._tables[key] = self._tables(game, *key, leads[key], suit_values, lead_actions)

        def build(contract: int, decl: tuple) -> TrickTables:
            before = len(suit_values)
            lead = self._leads(game, contract, decl, suit_values)
            if len(suit_values) != before:
                raise TablerulesError("a declaration combination leads a suit no table foresaw")
            return self._tables(game, contract, decl, lead, suit_values, lead_actions)

        game.table_builder = build

    def _leads(self, game: GameDef, contract: int, decl: tuple, suit_values: list) -> list:
        play = game.contracts[contract].play
        ctx = SimpleNamespace(decl=decl, x_tile=0, x_led=None)

        def suit_index(v) -> int:
            k = _vkey(v)
            for i, s in enumerate(suit_values):
                if _vkey(s) == k:
                    return i
            suit_values.append(v)
            return len(suit_values) - 1

        lead = []
        for t in range(len(game.pieces)):
            ctx.x_tile = t
            v = play.lead(ctx)
            if isinstance(v, tuple):
                idx = tuple(dict.fromkeys(suit_index(x) for x in v))
                if not idx:
                    raise CheckError(f"contract '{game.contracts[contract].name}': piece "
                                     f"{game.pieces.names[t]} leads no suit",
                                     self.tree.span(("contracts", game.contracts[contract].name,
                                                     "play", "lead")))
                lead.append(idx[0] if len(idx) == 1 else idx)
            else:
                lead.append(suit_index(v))
        return lead

    def _tables(self, game: GameDef, contract: int, decl: tuple, lead: list, suit_values: list,
                lead_actions: tuple) -> TrickTables:
        play = game.contracts[contract].play
        n = len(game.pieces)
        ctx = SimpleNamespace(decl=decl, x_tile=0, x_led=None)
        masks = []
        ranks = []
        for v in suit_values:
            ctx.x_led = v
            m = 0
            r = []
            for t in range(n):
                ctx.x_tile = t
                if play.follows(ctx):
                    m |= 1 << t
                r.append(play.rank(ctx))
            masks.append(m)
            ranks.append(tuple(r))
        return TrickTables(tuple(lead), tuple(suit_values), tuple(masks), tuple(ranks),
                           bool(play.must_follow(ctx)), lead_actions)


def _vkey(v: Any) -> tuple:
    return (type(v).__name__, v)


def _where(path: tuple) -> str:
    return ".".join(str(p) for p in path) or "the ruleset"


def _kind(v: Any) -> str:
    if isinstance(v, dict):
        return "a mapping"
    if isinstance(v, list):
        return "a list"
    if v is None:
        return "nothing"
    return type(v).__name__


def compile_tree(tree: Tree, cli_options: dict[str, Any] | None = None) -> GameDef:
    return Compiler(tree, cli_options).compile()
