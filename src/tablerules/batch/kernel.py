"""One compiled game as a numba module: its tables as arrays, its hooks typed, one hand loop.

`build(game)` makes the module's source: the GameDef's tables (auction offers, bids, the
setup steps, the trick tables per contract and declarations, seats) as global int64 arrays,
every hook of the ruleset as a typed function (`typed.py`), one dispatcher per kind of hook
(`_k_over(S, H, c)` calls contract c's `outcome.over`), and the hand loop `_play` below, which
plays whole hands with uniformly random legal choices, the same steps as the step engine's
role modules (engine/auction.py, setup.py, play.py, tricks.py, scoring.py) in the same order;
a layout contract is played by layout.py's `_layout` (engine/layout.py's steps) instead of tricks.

The card game's parts (per-piece records such as `played_by`, exchanges that take part of the
stock, follow tiers, chips paid between seats) are the template text of cards.py. What the
loop has no form of (counter-clockwise layout play, ...) is refused while building, with the
ruleset part that needs it (NotBatchable): such a ruleset is played by the step engine.
"""

from __future__ import annotations

import ast
import functools
import re

from ..definition import GameDef
from ..errors import RulesetFault
from . import layout, stepgen
from .cards import CARD_HELPERS
from .strategy import StrategyPart, obs_slots
from .typed import (INLINE, SCALAR_FIELDS, SYM_BASE, NotBatchable, Symbols, Unit, on_its_own,
                    reads, tab_chunks, tab_flag)

# the slots of S after the scalar fields: the hand's state the loop keeps there
# IN_MATCH: the hand is one of a match (play_matches), not on its own; CUT: a lay won the
# match during the hand (scoring.during_hand), which scores no more
# DCODE: the declarations' code (each one's value index times its RADIX), kept as they change,
# by which TIDX finds the trick tables in force
_EXTRA = ("CONTRACT", "TRICKM", "TRICKN", "LEDI", "DCODE", "NACT", "HIGH_SEAT", "IN_MATCH", "CUT",
          "MEMO_ON")

# error codes the loop returns for a hand it cannot finish (what the step engine raises)
ERRORS = {
    1: "a seat has no legal action",
    2: "the hand did not end within bounds.max_steps decisions",
    3: "the leader does not play",
    4: "every seat sits out",
    5: "a rule named a seat that does not exist",
    6: "allow leaves the seat no choice",
    7: "the hand took more decisions than the batch engine keeps",
    8: "an exchange takes more pieces than the stock holds",
    9: "a payment of scoring.chips.pays is below 0",
    10: "the match did not end within bounds.max_hands deals",
    11: "a deal names a piece twice",
    12: "a decision replayed is not a legal action",
    13: "a deal names a piece that is not one of this set",
}

# the ruleset part each error is about, where the step engine places it too
_ERROR_PARTS = {2: ("bounds", "max_steps"), 10: ("scoring", "match_over")}


def ruleset_fault(code: int, where: str) -> RulesetFault:
    """An error code of the loop as the step engine's fault, placed at the part it is about."""
    e = RulesetFault(f"{where}: {ERRORS.get(code, 'an unknown error')}")
    part = _ERROR_PARTS.get(code)
    return e.at(*part) if part else e

# result columns per match, before the score per side
MATCH_RESULT = ("error", "hands", "deals", "winners")

# result columns per hand, before the per-side points and scores
RESULT = ("error", "thrown_in", "contract", "bid", "bidder", "made", "forced", "tricks_played",
          "steps")


def result_width(game: GameDef) -> int:
    """Result columns per hand: RESULT, points and scored per side, then with scoring.chips the
    chips of each payment (each `pays` name, payer, payee other than the payer)."""
    n = game.seat_count
    return len(RESULT) + 2 * len(game.sides) + len(game.match.pays) * n * (n - 1)


def decisions_bound(g: GameDef) -> int:
    """The most decisions one hand of the kernel can take: every piece played and its lead
    named, the stock taken and buried, two rounds of the auction with every bid confirmed, every
    declaration; in a layout every lay, draw, knock and claim (a hand past it stops with an
    error: ERRORS[7]). With a smaller bounds.max_steps, one past it: the decision that goes past
    the bound is kept, and the hand stops with the bound's error (ERRORS[2]), as the step engine
    stops it, not with ERRORS[7]."""
    plays = g.seat_count * g.hand_size + g.stock
    most = 2 * plays + 4 * g.seat_count + 2 + len(g.declarations) + 4
    for c in g.contracts:
        lay = c.play.layout
        if lay is not None:  # every piece laid or drawn; between lays a round of knocks; and
            # with claims each lay asked of every seat
            n = g.seat_count
            most = max(most, plays + g.stock + (n - 1) * plays + n
                       + (n * plays if lay.claim else 0) + 4 * n + len(g.declarations) + 4)
    return min(g.bounds.max_steps + 1, most)


class Builder:
    """Collects the module: constants, tables, hooks, dispatchers."""

    def __init__(self, game: GameDef, agents: tuple = ()):
        self.g = game
        self.agents = tuple(agents)  # per seat: None (random) or a rules agent (strategy.py)
        self.templates: list[str] = []  # fixed texts of other parts (strategy.py), checked too
        self.outlined: list[str] = []  # generated functions compiled on their own (not inlined)
        self.sym = Symbols()
        self.unit = Unit(self.sym, {"tile": len(game.pieces), "card": len(game.pieces),
                                    "bid": len(game.bids), "number": len(game.number_mask),
                                    "bool": 2},
                         {"hand": game.hand_size, "trick": game.seat_count})
        self.consts: dict[str, int] = {}
        self.arrays: dict[str, tuple[list, tuple]] = {}  # name -> (flat values, shape)
        self.dispatch: list[str] = []
        self.seat_strategy: list[int] = [0] * game.seat_count  # per seat: 0 random, k strategy k

    # -- pieces of the module ----------------------------------------------------------------

    def const(self, name: str, value: int) -> None:
        self.consts[name] = int(value)

    def array(self, name: str, values, shape: tuple | None = None) -> None:
        flat = [int(v) for v in values]
        self.arrays[name] = (flat, shape or (len(flat),))

    def hook(self, path: tuple, hoist: bool = False) -> str | None:
        """The generated function of the hook at `path`, or None when the ruleset has none
        there (or it is a constant: then None and the caller reads `constant`)."""
        c = self.g.exprs.get(path)
        if c is None:
            return None
        if c.typed is None:
            raise NotBatchable("no checked tree kept", path)
        return self.unit.hook(c.typed, path, hoist)

    def per_contract(self, kind: str, part: tuple, default: str, has=None,
                     hoist: bool = False) -> None:
        """A dispatcher `_k_<kind>(S, H, c)` over the contracts' hooks at `part`; `has(c)`:
        whether contract c has the hook (one that is not an expression at `part` is refused)."""
        lines = [f"def _k_{kind}(S, H, c):"]
        for c in self.g.contracts:
            fn = self.hook(("contracts", c.name) + part, hoist)
            if fn is None and has is not None and has(c):
                raise NotBatchable("this rule has no checked tree", ("contracts", c.name) + part)
            if fn is not None:
                lines += [f"    if c == {c.index}:", f"        return {fn}(S, H)"]
        lines.append(f"    return {default}")
        self.dispatch.append("\n".join(lines) + "\n")

    def single(self, kind: str, path: tuple, default: str) -> None:
        fn = self.hook(path)
        body = f"{fn}(S, H)" if fn is not None else default
        self.dispatch.append(f"def _k_{kind}(S, H):\n    return {body}\n")

    # -- the game --------------------------------------------------------------------------

    def refuse(self) -> None:
        """NotBatchable for every part of the game the loop has no form of."""
        g = self.g
        if not g.exprs:
            raise NotBatchable("the game was compiled without its checked trees: load it with "
                               "load_game(..., typed=True)")
        if len(g.pieces) > 62:
            raise NotBatchable(f"{len(g.pieces)} pieces do not fit one 64-bit mask", ("pieces",))

    def build(self) -> str:
        self.refuse()
        g = self.g
        n, ns, P = g.seat_count, len(g.sides), len(g.pieces)
        acts = g.actions
        slots = _slots(g)
        for k, v in slots.items():
            if not k.startswith("_"):
                self.const(k, v)
        self.const("SEATS", n)
        self.const("NSIDES", ns)
        self.const("NP", P)
        self.const("ND", len(g.declarations))
        self.const("STOCKN", g.stock)
        self.const("MAX_STEPS", g.bounds.max_steps)
        # the decisions a hand's row holds (ERRORS[7] past it): a row of out and nleg here,
        # stepgen.py's `hist` there
        self.const("ROW_STEPS", decisions_bound(g))
        self.const("RESW", result_width(g))
        self.const("NCON", len(g.contracts))
        self.const("STEP", g.seat_step)
        self.const("STAKE", g.match.stake or 0)
        self.const("CHIPS_MATCH", g.match.stake is not None)
        self.const("NPAY", len(g.match.pays))
        self.const("REC_PLAYS", "plays" in g.keeps)
        self.const("REC_TAKEN", "taken" in g.keeps)
        for name in ("pass", "agree", "decline", "take", "leave"):
            self.const(name.upper(), getattr(acts, f"{name}_action"))
        self.const("BID_BASE", acts.bid_base)
        self.const("DECL_BASE", acts.decl_base)
        self.const("LEAD_BASE", acts.lead_base)
        self.const("BURY_BASE", acts.bury_base)
        # seats
        self.array("SIDE_OF", g.side_of)
        step = g.seat_step
        self.array("NEXT", [(s + step) % n for s in range(n)])
        self.array("PREV", [(s - step) % n for s in range(n)])
        self.array("LEFT", [(s + 1) % n for s in range(n)])
        self.array("RIGHT", [(s - 1) % n for s in range(n)])
        mates = []
        for s in range(n):
            side = g.sides[g.side_of[s]]
            mates.append(side[(side.index(s) + len(side) // 2) % len(side)])
        self.array("PARTNER", mates)
        self.array("SPK", [x for f in range(n) for x in g.speaker_orders[f]], (n, n))
        # pieces
        ends = g.pieces.ends
        self.const("DOMINOES", int(bool(ends)))
        self.array("HI", [e[0] for e in ends] or [0] * P)
        self.array("LO", [e[1] for e in ends] or [0] * P)
        # HASM[x]: the pieces showing x (has(t, x) of every piece at once, typed.py)
        self.array("HASM", list(g.number_mask) or [0])
        top = max((e[0] for e in ends), default=0)
        self.array("PIECE", [g.pieces.index(a, b) if g.pieces.index(a, b) is not None else -1
                             for a in range(top + 1) for b in range(top + 1)],
                   (top + 1, top + 1))
        cards = g.pieces.kind == "cards"
        self.array("CARD_SUIT", [self.sym.code(str(v)) for v in g.pieces.attrs["suit"]]
                   if cards else [-1] * P)
        self.array("CARD_FACE", [self.sym.code(str(v)) for v in g.pieces.attrs["face"]]
                   if cards else [-1] * P)
        self._card_table(cards)
        self.const("HAS_TURN", g.turn is not None)
        self.single("turn", ("deal", "turn"), "0")
        self._auction()
        self._contracts()
        self._tricks()
        layout.build(self)
        self.single("score", ("scoring", "hand"), "0")
        self.single("match_over", ("scoring", "match_over"), "True")
        self.single("next_dealer", ("deal", "next_dealer"), "NEXT[S[DEALER]]")
        self.const("HAND_SIZE", g.hand_size)
        self.const("MAX_HANDS", g.bounds.max_hands)
        self.const("LOWEST_WINS", g.match.lowest_wins)
        self.const("DURING", g.match.during_hand)
        self._pays()
        StrategyPart(self, self.agents).build()
        self.const("KEEP", slots["_SIZE"])
        self.const("NKEEP", self.unit.keeps)
        self.const("MEMO", slots["_SIZE"] + 2 * self.unit.keeps)
        self.const("OBS", slots["_SIZE"] + 2 * self.unit.keeps + self.unit.memos)
        width = P + 64 + self.arrays["OFF"][1][2] + self.arrays["DCH"][1][2]  # `acts` in LOOP
        obs = obs_slots(g, width)
        for k, v in obs.items():
            if not k.startswith("_"):
                self.const(k, v)
        # (random play keeps no record: its hands zero no OBS slots)
        rules = self.consts["HAS_RULES"]
        self.const("NSLOTS", slots["_SIZE"] + 2 * self.unit.keeps + self.unit.memos
                   + (obs["_SIZE"] if rules else 0))
        # the slots a hand starts with at 0: all but the copy of a decision's legal actions
        # (OBS_L, the last), which each decision writes before its rules read it, and only up
        # to OBS_N (strategy.py ORDERED)
        self.const("NZERO", slots["_SIZE"] + 2 * self.unit.keeps + self.unit.memos
                   + (obs["OBS_L"] if rules else 0))
        return self.source()

    def _card_table(self, cards: bool) -> None:
        """CARD_AT[i, j]: the card whose suit is symbol number i and face symbol number j
        (-1: none), so that `card(suit, face)` is one look-up, not a search of the pack. Its
        sides are the numbers of the suits' and faces' symbols (coded just before)."""
        suits, faces = self.arrays["CARD_SUIT"][0], self.arrays["CARD_FACE"][0]
        if not cards:
            self.const("CARD_SYM", SYM_BASE)
            self.array("CARD_AT", [-1], (1, 1))
            return
        lo = min(suits + faces)
        w = max(suits + faces) - lo + 1
        at = [-1] * (w * w)
        for t in reversed(range(len(suits))):  # the first card of a suit and face, as a search
            at[(suits[t] - lo) * w + faces[t] - lo] = t
        self.const("CARD_SYM", lo)
        self.array("CARD_AT", at, (w, w))

    def _auction(self) -> None:
        g, a = self.g, self.g.auction
        nb = len(g.bids)
        self.const("FIXED", a.fixed_contract)
        self.array("BID_CONTRACT", [b.contract for b in g.bids])
        width = max((len(v) for v in a.offers.values()), default=1) or 1
        off, offn = [], []
        for h in range(nb):
            for forced in (False, True):
                row = list(a.offers.get((h, forced), ()))
                offn.append(len(row))
                off += row + [-1] * (width - len(row))
        self.array("OFF", off, (nb, 2, width))
        self.array("OFFN", offn, (nb, 2))
        self.const("HAS_FORCED", a.forced_when is not None)
        self.single("first", ("auction", "first"), "0")
        self.single("forced", ("auction", "forced", "when"), "False")
        self.const("HAS_BEATS_DYN", a.beats_dyn is not None)
        self.single("beats", ("auction", "beats"), "True")
        self.const("HAS_ALL_PASS", a.all_pass_seat is not None)
        self.single("all_pass_seat", ("auction", "all_pass", "seat"), "0")
        self.array("ALL_PASS", [g.bids[b].action for b in a.all_pass_bids] or [-1])
        self.const("NALL_PASS", len(a.all_pass_bids))
        self.const("HAS_REQUIRES", a.has_requires)
        self.array("HAS_REQ", [c.requires is not None for c in g.contracts])
        self.per_contract("requires", ("bid", "requires"), "True", lambda c: c.requires is not None)
        self.array("HAS_CONFIRM", [c.confirm is not None for c in g.contracts])
        self.per_contract("confirm", ("bid", "confirm"), "0", lambda c: c.confirm is not None)

    def _contracts(self) -> None:
        g = self.g
        nc = len(g.contracts)
        steps = max((len(c.setup_steps) for c in g.contracts), default=0) or 1
        kinds, idx = [], []
        for c in g.contracts:
            row = list(c.setup_steps)
            kinds += [0 if k == "d" else 1 for k, _ in row] + [-1] * (steps - len(row))
            idx += [i for _, i in row] + [0] * (steps - len(row))
        self.array("STEP_KIND", kinds, (nc, steps))
        self.array("STEP_IDX", idx, (nc, steps))
        self.array("NSTEPS", [len(c.setup_steps) for c in g.contracts])
        nd = max((len(c.declare) for c in g.contracts), default=0) or 1
        width = max((len(d.actions) for c in g.contracts for d in c.declare), default=1) or 1
        dch, dchn, dwhen, dallow = [], [], [], []
        for c in g.contracts:
            for i in range(nd):
                d = c.declare[i] if i < len(c.declare) else None
                row = list(d.legal) if d is not None else []
                dch += row + [-1] * (width - len(row))
                dchn.append(len(row))
                dwhen.append(d is not None and d.when is not None)
                dallow.append(d is not None and d.allow is not None)
        self.array("DCH", dch, (nc, nd, width))
        self.array("DCHN", dchn, (nc, nd))
        self.array("DWHEN", dwhen, (nc, nd))
        self.array("DALLOW", dallow, (nc, nd))
        # a declaration action -> (declaration, its value's index, its value)
        dd, di, dv = [], [], []
        for d, v in g.actions.decl_actions:
            dd.append(d)
            di.append(g.declarations[d].values.index(v))
            dv.append(self.sym.code(v))
        self.array("DACT_D", dd or [0])
        self.array("DACT_I", di or [0])
        self.array("DACT_V", dv or [0])
        self.array("DECL_DEFAULT", [self.sym.code(d.default) for d in g.declarations] or [0])
        self.array("DECL_DEFAULT_I", [d.values.index(d.default) for d in g.declarations] or [0])
        ddecl = []
        for c in g.contracts:
            for i in range(nd):
                ddecl.append(c.declare[i].decl if i < len(c.declare) else 0)
        self.array("DSTEP_DECL", ddecl, (nc, nd))
        for kind, part in (("by", "by"), ("when", "when"), ("allow", "allow")):
            lines = [f"def _k_decl_{kind}(S, H, c, d):"]
            for c in g.contracts:
                for i, d in enumerate(c.declare):
                    # `allow` is asked of each choice in one pass: what reads no `choice` kept
                    fn = self.hook(("contracts", c.name, "declare",
                                    g.declarations[d.decl].name, part), hoist=kind == "allow")
                    if fn is not None:
                        lines += [f"    if c == {c.index} and d == {i}:",
                                  f"        return {fn}(S, H)"]
            lines.append("    return " + ("S[BIDDER]" if kind == "by" else "True"))
            self.dispatch.append("\n".join(lines) + "\n")
        self._exchanges()

    def _exchanges(self) -> None:
        """Every exchange of every contract by a number of its own: EXI[contract, k]."""
        g = self.g
        width = max((1 + len(c.more_exchanges) for c in g.contracts), default=1)
        exi, exs = [], []
        for c in g.contracts:
            n = 1 + len(c.more_exchanges) if c.exchange is not None else 0
            for k in range(width):
                exi.append(len(exs) if k < n else -1)
                if k < n:
                    exs.append((c, k, c.exchange_at(k)))
        self.array("EXI", exi, (len(g.contracts), width))
        self.array("EX_BURY", [e.bury for _, _, e in exs] or [0])
        self.array("EX_OPTIONAL", [e.optional for _, _, e in exs] or [0])
        self.array("EX_HAS_TAKE", [e.take is not None for _, _, e in exs] or [0])
        self.array("EX_HAS_FROM", [e.start is not None for _, _, e in exs] or [0])
        self.array("EX_HAS_LEGAL", [e.legal is not None for _, _, e in exs] or [0])
        # `legal` is asked of a mask of pieces (the actor's hand): the pieces of m it allows,
        # each piece's test in one loop, lowest first as the step engine asks them
        for kind, part, default, has in (
                ("by", "by", "S[BIDDER]", lambda e: True),
                ("take", "take", "-1", lambda e: e.take is not None),
                ("from", "from", "0", lambda e: e.start is not None),
                ("legal", "legal", "m", lambda e: e.legal is not None)):
            lines = [f"def _k_ex_{kind}(S, H, e{', m' if kind == 'legal' else ''}):"]
            for i, (c, k, e) in enumerate(exs):
                base = ("contracts", c.name, "exchange")
                path = base + (k, part)
                if path not in g.exprs and not c.more_exchanges:
                    path = base + (part,)
                fn = self.hook(path, hoist=kind == "legal")
                if fn is None and has(e):
                    raise NotBatchable("this rule has no checked tree", path)
                if fn is not None and kind == "legal":
                    lines += [f"    if e == {i}:", "        out = 0", "        while m:",
                              "            t = _low(m)", "            m &= m - 1",
                              "            S[TILE] = t", f"            if {fn}(S, H):",
                              "                out |= np.int64(1) << t", "        return out"]
                elif fn is not None:
                    lines += [f"    if e == {i}:", f"        return {fn}(S, H)"]
            lines.append(f"    return {default}")
            self.dispatch.append("\n".join(lines) + "\n")

    def _pays(self) -> None:
        """scoring.chips.pays: `_settle`, every payment (each name, payer, payee) into res from
        col on, False when one is below 0: a loop over the payers and payees for each name, its
        hook called there directly (a dispatcher by the payment's number, called 156 times a
        hand of four seats and 13 payments, took about a fifth of the hand). A payment that
        reads no payer (a holding paid to its holder by each of the others) is worked out once
        a payee and written for every payer; one that reads no payee, once a payer; one that
        reads neither, once."""
        lines = ["def _settle(S, H, res, col):"]
        pairs = "SEATS * (SEATS - 1)"
        for name, _ in self.g.match.pays:
            path = ("scoring", "chips", "pays", name)
            fn = self.hook(path)
            if fn is None:
                raise NotBatchable("this rule has no checked tree", path)
            used = reads(self.g.exprs[path].typed) & {"payer", "payee"}
            if self.g.seat_count < 2 or used == {"payer", "payee"}:
                lines += ["    for p in range(SEATS):", "        S[PAYER] = p",
                          "        for q in range(SEATS):", "            if q == p:",
                          "                continue", "            S[PAYEE] = q",
                          f"            v = {fn}(S, H)", "            if v < 0:",
                          "                return False", "            res[col] = v",
                          "            col += 1"]
                continue
            # the pair (p, q)'s column: col + p * (SEATS - 1) + q, less one past p
            by = "q" if "payee" in used else "p" if "payer" in used else None
            at = "col + p * (SEATS - 1) + q - (1 if q > p else 0)"
            if by is None:
                lines += [f"    v = {fn}(S, H)", "    if v < 0:", "        return False",
                          f"    for k in range(col, col + {pairs}):", "        res[k] = v"]
            else:
                other = "p" if by == "q" else "q"
                lines += [f"    for {by} in range(SEATS):",
                          f"        S[{'PAYEE' if by == 'q' else 'PAYER'}] = {by}",
                          f"        v = {fn}(S, H)", "        if v < 0:",
                          "            return False", f"        for {other} in range(SEATS):",
                          f"            if {other} != {by}:", f"                res[{at}] = v"]
            lines.append(f"    col += {pairs}")
        lines.append("    return True")
        self.dispatch.append("\n".join(lines) + "\n")

    def _tricks(self) -> None:
        g = self.g
        P = len(g.pieces)
        self.per_contract("sits_out", ("play", "sits_out"), "False",
                          lambda c: c.play.sits_out is not None)
        self.array("HAS_SITS_OUT", [c.play.sits_out is not None for c in g.contracts])
        self.per_contract("leader", ("play", "leader"), "S[BIDDER]", lambda c: True)
        self.per_contract("legal", ("play", "legal"), "True", lambda c: c.play.legal is not None,
                          hoist=True)
        self.array("HAS_LEGAL", [c.play.legal is not None for c in g.contracts])
        self.per_contract("points", ("play", "trick_points"), "0",
                          lambda c: c.play.mode == "tricks")
        self.per_contract("tie", ("play", "tie_break"), "0",
                          lambda c: c.play.tie_break is not None)
        self.array("HAS_TIE", [c.play.tie_break is not None for c in g.contracts])
        self.per_contract("over", ("outcome", "over"), "False", lambda c: True)
        self.per_contract("made", ("outcome", "made"), "False", lambda c: True)
        # trick tables: one per (contract, declarations) combination, by a mixed-radix code of
        # the declarations that choose among them (a declaration no trick rule reads is 0 in
        # it: the code, and TIDX, stay as small as the tables the rules tell apart)
        radix, r = [], 1
        for d, telling in zip(g.declarations, _telling(g)):
            radix.append(r if telling else 0)
            r *= len(d.values) if telling else 1
        self.array("RADIX", radix or [0])
        # the code of the declarations' defaults, where each hand starts
        self.const("DCODE_DEFAULT", sum(d.values.index(d.default) * x
                                        for d, x in zip(g.declarations, radix)))
        nc = len(g.contracts)
        tid = [-1] * (nc * r)
        keys = sorted(g.trick_tables, key=lambda k: (k[0], [repr(v) for v in k[1]]))
        tabs = []
        index: dict[int, int] = {}
        for (ci, decl) in keys:
            t = g.trick_tables[(ci, decl)]
            code = sum(g.declarations[i].values.index(v) * radix[i] for i, v in enumerate(decl))
            if id(t) not in index:
                index[id(t)] = len(tabs)
                tabs.append(t)
            if tid[ci * r + code] not in (-1, index[id(t)]):  # a defect of _telling
                raise RuntimeError("a declaration left out of the trick tables' code told two "
                                   "tables apart")
            tid[ci * r + code] = index[id(t)]
        self.array("TIDX", tid, (nc, r))
        nt = len(tabs)
        # a game played only by layout has no trick tables: empty arrays of the same shapes
        nsuit = max((len(t.suits) for t in tabs), default=1)
        width = max(((len(x) if type(x) is tuple else 1) for t in tabs for x in t.lead), default=1)
        ntier = max((len(x) for t in tabs for x in t.tiers), default=0) or 1
        tiers, ntiers = [], []
        lead, leadn, follow, rank, suit, mustf, lact = [], [], [], [], [], [], []
        for t in tabs:
            for x in t.lead:
                row = list(x) if type(x) is tuple else [x]
                lead += row + [-1] * (width - len(row))
                leadn.append(len(row) if type(x) is tuple else 0)
            follow += list(t.follow_mask) + [0] * (nsuit - len(t.follow_mask))
            for s in range(nsuit):
                row = list(t.tiers[s]) if s < len(t.tiers) else []
                tiers += row + [0] * (ntier - len(row))
                ntiers.append(len(row))
            for s in range(nsuit):
                rank += list(t.rank[s]) if s < len(t.rank) else [0] * P
            suit += [self.sym.code(v) for v in t.suits] + [-1] * (nsuit - len(t.suits))
            mustf.append(t.must_follow)
            la = list(t.lead_actions) if t.lead_actions else []
            lact += la + [-1] * (nsuit - len(la))
        self.array("LEAD", lead, (nt, P, width))
        self.array("LEADN", leadn, (nt, P))  # 0: the piece leads its one suit; k: k to choose
        self.array("FOLLOW", follow, (nt, nsuit))
        self.array("TIERS", tiers, (nt, nsuit, ntier))
        self.array("NTIERS", ntiers, (nt, nsuit))
        self.array("RANK", rank, (nt, nsuit, P))
        self.array("SUIT", suit, (nt, nsuit))
        # the pieces of each suit of each table, by the suit's value (its number, then its
        # symbol's number): a strategy's `suit(t) == x` as one look-up (strategy.py's
        # _k_obs_suitm); SUIT[tid, LEAD[tid, t, 0]] read as numpy reads it
        first = [[suit[k * nsuit + lead[(k * P + t) * width] % nsuit] for t in range(P)]
                 for k in range(nt)]
        ints = sorted({x for row in first for x in row if x < SYM_BASE})
        syms = [x - SYM_BASE for row in first for x in row if x >= SYM_BASE]
        lo, nint = (ints[0], ints[-1] - ints[0] + 1) if ints else (0, 0)
        wide = nint + (max(syms) + 1 if syms else 0)
        masks = [[0] * wide for _ in range(nt)]
        for k, row in enumerate(first):
            for t, x in enumerate(row):
                masks[k][x - lo if x < SYM_BASE else nint + x - SYM_BASE] |= 1 << t
        self.array("SUITM", [m for row in masks for m in row], (nt, wide))
        self.const("SUITM_LO", lo)
        self.const("SUITM_NINT", nint)
        self.const("SUITM_WIDE", wide)
        self.array("MUSTF", mustf)
        self.array("LEAD_ACT", lact, (nt, nsuit))
        self.trick_tabs = tabs

    # -- the module --------------------------------------------------------------------------

    def _tabulate(self) -> None:
        """The tables of the tabulated terms (typed.Gen.tabulated): for each value v of the
        outside variable and each byte c of a mask, table[v, c, bits] is the sum of the term
        over the pieces 8c + i of the set bits i. A term that fails for some piece or value (a
        rule's own error, which the loop raises only for the pieces it visits) gets no table:
        its flag (typed.tab_flag, in the guard of every read) is 0, and the loop works it out."""
        if not self.unit.tabs and not self.unit.fn_tabs:
            return
        extra = self._template_text()
        try:
            ns = _evaluator(self, extra)
        except ImportError:  # no numpy, so no numba: the module is never run
            ns = None
        P = len(self.g.pieces)
        chunks = tab_chunks(P)
        for name, (var, x, size, term) in self.unit.tabs.items():
            per = None if ns is None else _terms(ns, var, x, size, term, P, extra)
            flat = []
            for v in range(size):
                for c in range(chunks):
                    sums = [0] * 256
                    for bits in range(1, 256):
                        low = bits & -bits
                        t = 8 * c + low.bit_length() - 1
                        sums[bits] = sums[bits ^ low] + (per[v][t] if per and t < P else 0)
                    flat += sums
            self.array(name, flat, (size, chunks, 256))
            # with no table, the loop for every value wherever the table is read (its guard
            # reads this flag, which numba folds)
            self.const(tab_flag(name), 0 if per is None else 1)
        # the tabulated functions (typed.Unit.tabulated_function): table[x, piece] is the
        # function's value; with no table (its body fails for some piece or value) the flag is
        # 0 and the body works every value out
        for name, (var, x, size, count, body) in self.unit.fn_tabs.items():
            per = None if ns is None else _terms(ns, var, x, size, body, count, extra)
            self.array(name, [v for row in per for v in row] if per else [0] * (size * count),
                       (size, count))
            self.const(tab_flag(name), 0 if per is None else 1)

    def source(self) -> str:
        """The module's text, checked part by part (`check_parts`) before it is returned."""
        self._tabulate()
        data = [f"{k} = {v!r}" for k, v in sorted(self.consts.items())]
        for name, (flat, shape) in self.arrays.items():
            data.append(f"{name} = np.array({flat!r}, dtype=np.int64).reshape({shape!r})")
        for name, values in self.unit.tables.items():
            data.append(f"{name} = np.array({values!r}, dtype=np.int64)")
        code = [HELPERS, CARD_HELPERS, *self.templates,
                *_decorated(self.unit.defs + self.dispatch),
                *(on_its_own(d) for d in self.outlined), LOOP, layout.LAYOUT,
                # the hand loop one decision at a time (stepgen.py): compiled only when
                # steps.py runs it
                stepgen.source(LOOP, layout.LAYOUT, self.consts)]
        parts = [HEADER, "", *data, "", *map(_no_refcounts, code)]
        check_parts(parts, self._template_text())
        return "\n".join(parts) + "\n"

    def _template_text(self) -> str:
        """The fixed texts the module's check takes its allowed names and strings from,
        besides the kernel's own templates: the strategy's and the generator's."""
        return "".join(self.templates) + stepgen.template(LOOP, layout.LAYOUT)


# The functions that allocate arrays (the drivers: the hands' buffers, a match's state) or are
# generators: numba's runtime (NRT) counts references for them. Every other function of the
# module is compiled without it (numba's `_nrt=False`): it only reads and writes arrays its
# caller holds, and numba would otherwise count a reference to each array argument at the entry
# and every exit of each function inlined into it, with an atomic add each, which its pass that
# removes such pairs leaves in place in these branching functions (a strategy's kernel spent
# about 40% of a hand on them: docs/speed.md). A function of neither kind left in this set only
# loses speed; one that allocates and is missing from it fails numba's typing (np.zeros has no
# implementation without the runtime), so every kernel the suite compiles checks the set.
NRT_FUNCTIONS = frozenset({"play_matches", "play_hands", "play_hands_threads", "_run",
                           "_buffers", "_single", "_steps", "_steps_places", "_steps_after"})
_DECORATED = re.compile(r"^@njit\(cache=True(?P<rest>[^)]*)\)\ndef (?P<name>\w+)\(", re.M)


def _no_refcounts(src: str) -> str:
    """The module's source with every function outside NRT_FUNCTIONS compiled without numba's
    reference counts."""
    def sub(m: re.Match) -> str:
        if m["name"] in NRT_FUNCTIONS:
            return m[0]
        return f"@njit(cache=True{m['rest']}, _nrt=False)\ndef {m['name']}("
    return _DECORATED.sub(sub, src)


def _telling(g: GameDef) -> list[bool]:
    """Per declaration, whether its value chooses among the trick tables: False when, for every
    contract and every value of the other declarations, each of its values a hand can reach
    has the same tables (GameDef.trick_tables holds every combination a contract can reach;
    two the rules do not tell apart share one object)."""
    out = []
    for i in range(len(g.declarations)):
        seen: dict = {}
        for (ci, decl), t in g.trick_tables.items():
            seen.setdefault((ci, decl[:i] + decl[i + 1:]), set()).add(id(t))
        out.append(any(len(ids) > 1 for ids in seen.values()))
    return out


def _slots(game: GameDef) -> dict[str, int]:
    slots: dict[str, int] = {}
    for f in SCALAR_FIELDS:
        slots[f.upper()] = len(slots)
    for f in _EXTRA + layout.SCALARS:
        slots[f] = len(slots)
    at = len(slots)
    nd, ns, n = len(game.declarations), len(game.sides), game.seat_count
    P = len(game.pieces)
    # SCORE, MCHIPS (a chips match's chips per seat) and AGENTS (the strategy each seat plays,
    # 0: random) outlive the hand: a hand clears none of them
    for name, size in (("DECL", nd), ("DIDX", nd), ("PTS", ns), ("TRK", ns), ("SCORE", ns),
                       ("MCHIPS", n), ("AGENTS", n),
                       ("TRICK", n), ("TSEAT", n), ("RING", n), ("ACT", n),
                       ("PLAYED", P), ("PLAYEDM", n), ("TAKENBY", P), ("TRICKOF", P),
                       ("DEALTM", n), ("LAIDM", n), ("CHIPS", n), ("STOCKM", 1)) + tuple(
                           (name, layout.arms(game)) for name in layout.PER_ARM):
        slots[name] = at
        at += size
    slots["_SIZE"] = at
    return slots


# what generated source may hold: the module's own upper-case constants and tables, the
# generated names (`_h3`, `_b4`, `_k_over`), the names of the fixed helpers and loop below,
# int, bool and None literals and the helpers' fixed error texts
_NAME = re.compile(r"[A-Z][A-Z0-9_]*|_[a-z]\d+|_k_[a-z_]+")
_BUILTINS = frozenset({"range", "abs", "min", "max", "bool", "ValueError", "np", "njit", "prange",
                       "acc", "found", "v"})
_ATTRS = frozenset({"int64", "uint64", "array", "reshape", "zeros", "empty", "shape", "view"})


@functools.lru_cache(maxsize=16)
def _allowed(extra: str = "") -> tuple[frozenset, frozenset]:
    """The names and the strings the fixed template text (with `extra`, the generator's and the
    strategy's templates) holds: what generated source may hold besides generated names and
    numbers. The same for every ruleset, so worked out once a process."""
    tree = ast.parse(HELPERS + CARD_HELPERS + LOOP + layout.LAYOUT + extra)
    names, texts = set(), {"min() of an empty collection", "max() of an empty collection"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
            names.update(a.arg for a in node.args.args)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            texts.add(node.value)
    return frozenset(names) | _BUILTINS, frozenset(texts)


# what the module imports, by the module it comes from: numpy, numba's decorator, its loops and
# its arrays over memory it does not own, and native.py's pointer from an address and lowest bit
_IMPORTS = {None: frozenset({"numpy"}), "numba": frozenset({"njit", "prange", "carray"}),
            "tablerules.batch.native": frozenset({"int64s_at", "lowest", "ptr"})}


def _terms(ns: dict, var: str, x: str | None, size: int, term: str, pieces: int,
           extra: str):
    """A tabulated term's value for each value of its outside variable (none: one) and each
    piece, worked out as plain Python with numba's integers (a division by zero or an
    overflow is an error, which numpy's scalars left alone would not make); None when it fails
    for any."""
    np = ns["np"]
    args = var + (", " + x if x else "")
    text = f"def _q0(S, H, {args}):\n    return {term}\n"
    _only_generated(text, extra)
    exec(compile(text, "<tabulated term>", "exec"), ns)  # noqa: S102 generated, checked above
    q = ns["_q0"]
    out = []
    try:
        with np.errstate(all="raise"):
            for v in range(size):
                row = [int(q(None, None, t, v) if x else q(None, None, t)) for t in range(pieces)]
                if any(abs(r) > 1 << 53 for r in row):
                    return None
                out.append(row)
    except Exception:  # noqa: BLE001 any failure: no table, the loop as before
        return None
    return out


def _evaluator(b: "Builder", extra: str) -> dict:
    """The module's constants, tables and helpers as plain Python (numba's decorator left
    out): where Builder._tabulate works out a tabulated term for every piece. The constants
    and tables are the ints the builder holds; the helpers' text is the fixed templates'
    (`extra` is what the module's check allows besides generated names)."""
    import numpy as np  # only with the batch engine's extra, as numba

    text = "\n".join([HELPERS, CARD_HELPERS, *b.templates])
    _checked(text, extra)
    from .native import _lowest_plain

    ns = {"np": np, "njit": lambda *a, **k: (a[0] if a and callable(a[0]) else (lambda f: f)),
          "prange": range, "lowest": _lowest_plain, **b.consts}
    for k, (flat, shape) in b.arrays.items():
        ns[k] = np.array(flat, dtype=np.int64).reshape(shape)
    for k, v in b.unit.tables.items():
        ns[k] = np.array(v, dtype=np.int64)
    exec(compile(text, "<tabulated terms>", "exec"), ns)  # noqa: S102 the templates, checked
    return ns


def _known(name: str, names: frozenset) -> bool:
    """A name of the templates or a generated one, or either's body compiled on its own
    (on_its_own's `<name>_at`)."""
    return any(n in names or _NAME.fullmatch(n) is not None
               for n in (name, name[:-3] if name.endswith("_at") else name))


# the module's imports, written from _IMPORTS: what it imports is what its check allows
HEADER = "\n".join(["import numpy as np"] + [f"from {m} import {', '.join(sorted(names))}"
                                              for m, names in _IMPORTS.items() if m])
# a line of the module's data: a constant, or a table of ints, under a name of the module's
# own or a generated one; only digits, signs, commas and spaces between its brackets
_DATA = re.compile(r"(?:[A-Z][A-Z0-9_]*|_[a-z]\d+) = (?:-?\d+|np\.array\(\[[-\d, ]*\], "
                   r"dtype=np\.int64\)(?:\.reshape\(\([\d, ]*\)\))?)")


def check_parts(parts: list[str], extra: str) -> None:
    """`_only_generated` of the module made of `parts` (each whole statements), part by part:
    a line of data by its shape (`_DATA`), any other part by its tree, a part already passed
    with the same `extra` (the fixed templates, the same ruleset's generator built again)
    passed again without a walk. Each node is judged alone, so the parts pass exactly when
    the whole does; the walk of the whole took a third of a build, most of it the tables'
    numbers (docs/speed.md)."""
    for part in parts:
        if _DATA.fullmatch(part) is None:
            _checked(part, extra)


@functools.lru_cache(maxsize=64)
def _checked(text: str, extra: str) -> None:
    _only_generated(text, extra)


def _only_generated(src: str, extra: str = "") -> None:
    names, texts = _allowed(extra)
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Constant):
            ok = node.value is None or type(node.value) in (int, bool) or node.value in texts
        elif isinstance(node, ast.Name):
            ok = _known(node.id, names)
        elif isinstance(node, ast.FunctionDef):
            ok = _known(node.name, names)
        elif isinstance(node, ast.arg):
            ok = node.arg in names or _NAME.fullmatch(node.arg) is not None
        elif isinstance(node, ast.Attribute):
            ok = node.attr in _ATTRS
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            frm = isinstance(node, ast.ImportFrom)
            allowed = _IMPORTS.get(node.module if frm else None, frozenset())
            ok = (not frm or node.level == 0) and all(a.name in allowed for a in node.names)
        else:
            ok = not isinstance(node, (ast.Global, ast.Nonlocal, ast.JoinedStr, ast.Lambda,
                                       ast.ClassDef))
        if not ok:  # a defect of the generator, never a user error
            raise RuntimeError(f"generated kernel source holds {ast.dump(node)[:80]}")


# every function but the loop is inlined into it at numba's level (typed.INLINE): a call that
# passes the state arrays costs their reference counts, which was half of a hand's time
# ... but numba inlines each call site anew, so a function whose calls, inlined all the way
# down, come to more than this is compiled once and called (a chain of a ruleset's functions
# that call each other several times, as a scoring formula does, took minutes to compile)
# a function of more calls than this is compiled once and called even from one call site: the
# hand loop stays small enough to compile quickly (a scoring chain runs once a hand, so its call
# costs nothing that shows)
OUTLINE_LIMIT = 8
INLINE_LIMIT = 2
_CALL = re.compile(r"\b(_[a-z]\d+|_k_[a-z_]+)\(")


def _decorated(defs: list[str]) -> list[str]:
    """Each generated function with its decorator: inlined, unless it is called from more than
    one place and is big (INLINE_LIMIT)."""
    sites: dict[str, int] = {}
    for d in defs:
        for callee in _CALL.findall(d.split("\n", 1)[1]):
            sites[callee] = sites.get(callee, 0) + 1
    weight: dict[str, int] = {}
    out = []
    for d in defs:  # callees come first
        name = d.split("(", 1)[0][4:]
        w = 1
        for callee in _CALL.findall(d.split("\n", 1)[1]):
            w += weight.get(callee, 1)
        inline = w <= INLINE_LIMIT or (sites.get(name, 0) <= 1 and w <= OUTLINE_LIMIT)
        weight[name] = w if inline else 1
        out.append(INLINE + d if inline else on_its_own(d))
    return out


HELPERS = '''
@njit(cache=True, inline='always')
def _new_pass(S):
    """A pass of a per-item rule begins (legal over the pieces, allow over the choices, a
    strategy's rules over the legal actions): nothing kept from another (typed.Unit.kept)."""
    for q in range(NKEEP):
        S[KEEP + 2 * q] = 0


@njit(cache=True, inline='always')
def _seat(x):
    if x < 0 or x >= SEATS:
        raise ValueError("a rule named a seat that does not exist")
    return x


@njit(cache=True, inline='always')
def _side(x):
    if x < 0 or x >= NSIDES:
        raise ValueError("a rule named a side that does not exist")
    return x


@njit(cache=True, inline='always')
def _has(t, x):
    return x >= 0 and x < 1099511627776 and (HI[t] == x or LO[t] == x)


@njit(cache=True, inline='always')
def _bnd(v):
    """An int result of a rule, within the language's bound as the step engine checks it (an
    int64 would go on, and wrap past 2**63, where the step engine stops)."""
    if v > 9007199254740992 or v < -9007199254740992:
        raise ValueError("a rule's value is beyond the integer bound: every int is between "
                         "-2**53 and 2**53")
    return v


@njit(cache=True, inline='always')
def _hasm(x):
    """The mask of the pieces that show x (none for a symbol or a number no piece shows)."""
    if x < 0 or x >= HASM.shape[0]:
        return 0
    return HASM[x]


@njit(cache=True, inline='always')
def _other(t, x):
    if x < 0 or x >= 1099511627776:
        return -1
    if HI[t] == x:
        return LO[t]
    if LO[t] == x:
        return HI[t]
    return -1


@njit(cache=True, inline='always')
def _piece(a, b):
    if a < 0 or b < 0 or a >= PIECE.shape[0] or b >= PIECE.shape[0] or PIECE[a, b] < 0:
        raise ValueError("there is no such piece in this set")
    return PIECE[a, b]


@njit(cache=True, inline='always')
def _holder(H, t):
    for s in range(SEATS):
        if (H[s] >> t) & 1:
            return s
    return -1


@njit(cache=True, inline='always')
def _dealt(H):
    m = 0
    for s in range(SEATS):
        m |= H[s]
    return m


@njit(cache=True, inline='always')
def _low(m):
    """The number of m's lowest set bit (m not 0): native.lowest, one instruction."""
    return lowest(m)


@njit(cache=True, inline='always')
def _sort(acts, n):
    """acts[:n] in increasing order (by insertion: the lists are short, most already sorted)."""
    for q in range(1, n):
        x = acts[q]
        r = q - 1
        while r >= 0 and acts[r] > x:
            acts[r + 1] = acts[r]
            r -= 1
        acts[r + 1] = x


@njit(cache=True, inline='always')
def _popcount(m):
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


@njit(cache=True, inline='always')
def _in(x, arr):
    for v in arr:
        if v == x:
            return True
    return False


@njit(cache=True, inline='always')
def _rand(R, n):
    x = R[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    R[0] = x
    # a number below n from the draw's top 31 bits by a multiply and a shift, not a modulo:
    # without its division a hand played at random took 0.88 to 0.97 of the time (docs/speed.md)
    return np.int64((((x * np.uint64(2685821657736338717)) >> np.uint64(33))
                     * np.uint64(n)) >> np.uint64(31))


@njit(cache=True, inline='always')
def _seed(R, seed, i):
    z = np.uint64(seed) * np.uint64(1000003) + np.uint64(i) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    if z == np.uint64(0):
        z = np.uint64(1)
    R[0] = z
'''

# The hand loop: one hand from a deal to its score, with random choices, in the step engine's
# order (engine/auction.py, setup.py, play.py, tricks.py, scoring.py). It writes each decision
# (the action and how many were legal) and the hand's result; a hand it cannot finish gets an
# error code (ERRORS) and stops.
LOOP = '''
@njit(cache=True, inline='always')
def _choose(S, H, R, acts, n, step, out, nleg, i):
    """Decision `step` of row i among acts[:n], written to out and nleg (unless their rows have
    no room: a run that keeps no decisions): the action, or minus the error code (ERRORS) that
    stops the hand: 1 nothing is legal, 7 more decisions than a row has room for, 2 this one
    goes past bounds.max_steps (the caller then counts it)."""
    if n == 0:
        return -1
    if step >= ROW_STEPS:
        return -7
    if HAS_RULES:  # a seat plays the rules agent (batch/strategy.py)
        a = _k_rules(S, H, R, acts, np.int64(n))  # not a literal: compiled once
    else:
        a = acts[_rand(R, n)]
    if out.shape[1]:
        out[i, step] = a
        nleg[i, step] = n
    if step + 1 > MAX_STEPS:
        return -2
    return a


@njit(cache=True, inline='always')
def _add(S, side, pts, tricks):
    S[PTS + side] += pts
    bs = S[BIDDER_SIDE] if S[BIDDER_SIDE] >= 0 else NSIDES - 1
    tot = 0
    for s in range(NSIDES):
        tot += S[PTS + s]
    S[POINTS_AGAINST] = tot - S[PTS + bs]
    if tricks:
        S[TRK + side] += tricks
        tot = 0
        for s in range(NSIDES):
            tot += S[TRK + s]
        S[TRICKS_AGAINST] = tot - S[TRK + bs]


@njit(cache=True)
def _hand(S, H, R, deal, stock, dealer, out, nleg, i, res, acts, stk):
    # the match's own slots outlive the hand: its score and the hands scored so far
    # ... and so does deal.turn, carried from deal to deal (engine/context.py)
    played = S[HANDS_PLAYED]
    in_match = S[IN_MATCH]
    turn = S[TURN]
    for k in range(SCORE):
        S[k] = 0
    for k in range(AGENTS + SEATS, NZERO):
        S[k] = 0
    S[HANDS_PLAYED] = played
    S[IN_MATCH] = in_match
    S[TURN] = turn
    S[DEALER] = dealer
    S[BIDDER] = -1
    S[BIDDER_SIDE] = -1
    S[LED] = -1
    S[LEDI] = -1
    S[WENT_OUT] = -1
    S[DCODE] = DCODE_DEFAULT
    for d in range(ND):
        S[DECL + d] = DECL_DEFAULT[d]
        S[DIDX + d] = DECL_DEFAULT_I[d]
    for s in range(SEATS):
        H[s] = deal[s]
    nstock = STOCKN
    _records(S, H, deal, stock, stk)
    step = 0
    forced_high = False
    if HAS_TURN:
        S[TURN] = _seat(_k_turn(S, H))
    # -- the auction
    if FIXED >= 0:
        S[CONTRACT] = FIXED
    else:
        first = _seat(_k_first(S, H))
        S[HIGH_SEAT] = -1
        all_passed = False
        spk = 0
        actor = SPK[first, 0]
        while True:
            S[ACTOR] = actor
            forced = False
            if all_passed:
                n = 0
                for k in range(NALL_PASS):
                    acts[n] = ALL_PASS[k]
                    n += 1
            else:
                if HAS_FORCED:
                    forced = _k_forced(S, H)
                f = np.int64(forced)
                n = OFFN[S[HIGH], f]
                for k in range(n):
                    acts[k] = OFF[S[HIGH], f, k]
            if HAS_REQUIRES or (HAS_BEATS_DYN and not all_passed):
                m = 0
                for k in range(n):
                    a = acts[k]
                    ok = True
                    if a != PASS:
                        b = a - BID_BASE + 1
                        c = BID_CONTRACT[b]
                        if HAS_REQ[c]:
                            ok = _k_requires(S, H, c)
                        if ok and HAS_BEATS_DYN and not all_passed:
                            S[OFFERED] = b
                            ok = _k_beats(S, H)
                    if ok:
                        acts[m] = a
                        m += 1
                n = m
            a = _choose(S, H, R, acts, n, step, out, nleg, i)
            if a < 0:
                return -a
            step += 1
            if a == PASS:
                S[PASSES] += 1
            else:
                b = a - BID_BASE + 1
                c = BID_CONTRACT[b]
                if HAS_CONFIRM[c] and not all_passed:
                    asker = actor
                    S[ACTOR] = _seat(_k_confirm(S, H, c))
                    acts[0] = AGREE
                    acts[1] = DECLINE
                    a = _choose(S, H, R, acts, 2, step, out, nleg, i)
                    if a < 0:
                        return -a
                    step += 1
                    if a == AGREE:
                        S[HIGH] = b
                        S[HIGH_SEAT] = asker
                        forced_high = False
                    else:
                        S[PASSES] += 1
                else:
                    forced_high = all_passed or (HAS_FORCED and forced)
                    S[HIGH] = b
                    S[HIGH_SEAT] = actor
            spk += 1
            if spk < SEATS:
                actor = SPK[first, spk]
                continue
            if S[HIGH] == 0:
                if HAS_ALL_PASS and not all_passed:
                    all_passed = True
                    actor = _seat(_k_all_pass_seat(S, H))
                    spk -= 1
                    continue
                res[1] = 1
                res[8] = step
                return 0
            break
        S[BID] = S[HIGH]
        S[BIDDER] = S[HIGH_SEAT]
        S[BIDDER_SIDE] = SIDE_OF[S[BIDDER]]
        S[CONTRACT] = BID_CONTRACT[S[BID]]
    c = S[CONTRACT]
    # -- the setup steps: declarations and the exchange
    for k in range(NSTEPS[c]):
        j = STEP_IDX[c, k]
        if STEP_KIND[c, k] == 0:
            S[ACTOR] = _seat(_k_decl_by(S, H, c, j))
            if DWHEN[c, j] and not _k_decl_when(S, H, c, j):
                continue
            n = 0
            if DALLOW[c, j]:  # a pass over the choices
                _new_pass(S)
            for q in range(DCHN[c, j]):
                a = DCH[c, j, q]
                if DALLOW[c, j]:
                    S[CHOICE] = DACT_V[a - DECL_BASE]
                    if not _k_decl_allow(S, H, c, j):
                        continue
                acts[n] = a
                n += 1
            if n == 0:
                return 6
            a = _choose(S, H, R, acts, n, step, out, nleg, i)
            if a < 0:
                return -a
            step += 1
            d = DACT_D[a - DECL_BASE]
            S[DECL + d] = DACT_V[a - DECL_BASE]
            S[DCODE] += (DACT_I[a - DECL_BASE] - S[DIDX + d]) * RADIX[d]
            S[DIDX + d] = DACT_I[a - DECL_BASE]
        else:
            e = EXI[c, j]
            S[ACTOR] = _seat(_k_ex_by(S, H, e))
            tn = -1
            tf = 0
            if EX_HAS_TAKE[e]:
                tn = _k_ex_take(S, H, e)
                if EX_HAS_FROM[e]:
                    tf = _k_ex_from(S, H, e)
                if tn < 0 or tf < 0 or tf + tn > nstock:
                    return 8
                if tn == 0:
                    continue
            take = True
            if EX_OPTIONAL[e] and nstock > 0:
                acts[0] = TAKE
                acts[1] = LEAVE
                a = _choose(S, H, R, acts, 2, step, out, nleg, i)
                if a < 0:
                    return -a
                step += 1
                take = a == TAKE
            if not take:
                continue
            nstock = _take(S, H, stk, nstock, tf, tn)
            for q in range(EX_BURY[e]):
                n = _buryable(S, H, e, acts)
                a = _choose(S, H, R, acts, n, step, out, nleg, i)
                if a < 0:
                    return -a
                step += 1
                H[S[ACTOR]] &= ~(np.int64(1) << (a - BURY_BASE))
                S[LAIDM + S[ACTOR]] |= np.int64(1) << (a - BURY_BASE)
    # -- play: who sits out, who leads, the tables in force
    tid = TIDX[c, S[DCODE]]
    nact = 0
    for s in range(SEATS):
        S[ACT + s] = 0
        if HAS_SITS_OUT[c]:
            S[ASKED] = s
            if _k_sits_out(S, H, c):
                continue
        S[ACT + s] = 1
        nact += 1
    if nact == 0:
        return 4
    _ring(S)
    left = 0
    for s in range(SEATS):
        if S[ACT + s]:
            left += _popcount(H[s])
    leader = _k_leader(S, H, c)
    if leader < 0 or leader >= SEATS or not S[ACT + leader]:
        return 3
    actor = leader
    S[ACTOR] = actor
    S[TRICKN] = 0
    S[TRICKM] = 0
    ledi = -1
    if HAS_LAYOUT and LAYOUT[c]:  # layout play (layout.py), then the score below
        step = _layout(S, H, R, c, stock, nstock, leader, acts, step, out, nleg, i)
        if step < 0:
            return -step
    while HAS_TRICKS and not LAYOUT[c]:
        S[ACTOR] = actor
        m = H[actor]
        _new_pass(S)
        if ledi >= 0 and MUSTF[tid]:
            m = _follow(m, tid, ledi)
        n = 0
        while m:
            t = _low(m)
            m &= m - 1
            if HAS_LEGAL[c]:
                S[TILE] = t
                if not _k_legal(S, H, c):
                    continue
            acts[n] = t
            n += 1
        a = _choose(S, H, R, acts, n, step, out, nleg, i)
        if a < 0:
            return -a
        step += 1
        H[actor] &= ~(np.int64(1) << a)
        if REC_PLAYS:
            S[PLAYED + a] = actor
            S[PLAYEDM + actor] |= np.int64(1) << a
        left -= 1
        k = S[TRICKN]
        S[TRICK + k] = a
        S[TSEAT + k] = actor
        S[TRICKN] = k + 1
        S[TRICKM] |= np.int64(1) << a
        if k == 0:
            nl = LEADN[tid, a]
            if nl == 0:
                ledi = LEAD[tid, a, 0]
            else:
                for q in range(nl):
                    acts[q] = LEAD_ACT[tid, LEAD[tid, a, q]]
                # the leader names the suit: the lead actions, sorted as the step engine sorts
                _sort(acts, nl)
                a = _choose(S, H, R, acts, nl, step, out, nleg, i)
                if a < 0:
                    return -a
                step += 1
                ledi = a - LEAD_BASE
            S[LEDI] = ledi
            S[LED] = SUIT[tid, ledi]
        if S[TRICKN] < nact:
            actor = S[RING + actor]
            continue
        # the trick's winner: the highest rank, the first played among equals (or tie_break)
        best = 0
        best_rank = RANK[tid, ledi, S[TRICK]]
        tied = False
        for q in range(1, S[TRICKN]):
            r = RANK[tid, ledi, S[TRICK + q]]
            if r > best_rank:
                best = q
                best_rank = r
                tied = False
            elif r == best_rank:
                tied = True
        if tied and HAS_TIE[c]:
            top = 0
            have = False
            b0 = best
            for q in range(b0, S[TRICKN]):
                if RANK[tid, ledi, S[TRICK + q]] == best_rank:
                    S[ASKED] = S[TSEAT + q]
                    v = _k_tie(S, H, c)
                    if not have or v > top:
                        best = q
                        top = v
                        have = True
        winner = S[TSEAT + best]
        pts = _k_points(S, H, c)
        _add(S, SIDE_OF[winner], pts, 1)
        S[TRICKS_PLAYED] += 1
        if REC_TAKEN:
            _taken(S, winner)
        S[TRICKN] = 0
        S[TRICKM] = 0
        ledi = -1
        S[LEDI] = -1
        S[LED] = -1
        if _k_over(S, H, c) or left == 0:
            break
        actor = winner
    # -- the score: the state stands still while it is scored, so a ruleset's functions are
    # kept from their first call (typed.Unit.user) until the hand is scored (their slots, like
    # every slot of the hand, were zeroed at its start, and nothing writes them before this)
    S[MEMO_ON] = 1
    S[MADE] = 1 if _k_made(S, H, c) else 0
    res[2] = c
    res[3] = S[BID]
    res[4] = S[BIDDER]
    res[5] = S[MADE]
    res[6] = 1 if forced_high and FIXED < 0 else 0
    res[7] = S[TRICKS_PLAYED]
    res[8] = step
    for s in range(NSIDES):
        S[SIDE] = s
        res[9 + s] = S[PTS + s]
        # a hand the match ended during is not scored (engine/scoring.py, INTERRUPTED)
        res[9 + NSIDES + s] = 0 if S[CUT] else _k_score(S, H)
    paid = not NPAY or S[CUT] or _settle(S, H, res, 9 + 2 * NSIDES)
    S[MEMO_ON] = 0
    return 0 if paid else 9


@njit(cache=True, inline='always')
def _deal(R, order, deal, stock):
    """A uniform shuffle of the pieces (Fisher-Yates from R): hands of HAND_SIZE, the stock."""
    for t in range(NP):
        order[t] = t
    for t in range(NP - 1, 0, -1):
        j = _rand(R, t + 1)
        x = order[t]
        order[t] = order[j]
        order[j] = x
    for s in range(SEATS):
        m = 0
        for q in range(HAND_SIZE):
            m |= np.int64(1) << order[s * HAND_SIZE + q]
        deal[s] = m
    for q in range(STOCKN):
        stock[q] = order[SEATS * HAND_SIZE + q]


@njit(cache=True)
def play_matches(n, seed, first, first_dealer, deals, stocks, dealers, out, nleg, res, mres,
                 agent):
    """Matches first .. first + n - 1 of the run `seed`, hand after hand into the rows of
    deals/out/res while they last: (matches played, rows used). Each match has two generators
    of its own, one for its deals (and the first dealer by lot) and one for its choices, so
    two rulesets of the same pieces and seats are dealt the same hands from the same seed.
    first_dealer: a seat, -1 by lot, -2 the match's number mod seats. A match's result row:
    error, hands, deals, winners (a bit per side), the score per side, the chips per seat."""
    S = np.zeros(NSLOTS, dtype=np.int64)
    H = np.zeros(SEATS, dtype=np.int64)
    R = np.zeros(1, dtype=np.uint64)
    RD = np.zeros(1, dtype=np.uint64)
    order = np.zeros(NP, dtype=np.int64)
    acts, stk = _buffers()
    row = np.int64(0)
    for m in range(n):
        if row + MAX_HANDS > deals.shape[0]:
            return m, row
        _seed(R, seed, first + m)
        _seed(RD, seed ^ 0x2545F4914F6CDD1D, first + m)
        for k in range(NSLOTS):
            S[k] = 0
        for s in range(SEATS):
            S[AGENTS + s] = agent[s]
        S[IN_MATCH] = 1
        S[TURN] = -1
        for s in range(SEATS):
            S[MCHIPS + s] = STAKE
        dealer = first_dealer
        if dealer == -2:
            dealer = (first + m) % SEATS
        elif dealer < 0:
            dealer = _rand(RD, SEATS)
        ndeals = 0
        mres[m, 0] = 0
        while True:
            _deal(RD, order, deals[row], stocks[row])
            dealers[row] = dealer
            ndeals += 1
            err = _hand(S, H, R, deals[row], stocks[row], dealer, out, nleg, row, res[row],
                        acts, stk)
            res[row, 0] = err
            row += 1
            if err:
                mres[m, 0] = err
                break
            if res[row - 1, 1] == 0:
                for s in range(NSIDES):
                    S[SCORE + s] += res[row - 1, 9 + NSIDES + s]
                if NPAY:  # the hand's payments, all worked out before any is made
                    _pay(S, res[row - 1], 9 + 2 * NSIDES)
                S[HANDS_PLAYED] += 1
                S[DEALER] = dealer
                if _k_match_over(S, H):
                    break
            if ndeals >= MAX_HANDS:
                mres[m, 0] = 10
                break
            S[DEALER] = dealer
            dealer = _seat(_k_next_dealer(S, H))
        # the winners: the best score, or with chips the most chips a side holds
        for s in range(NSIDES):
            v = S[SCORE + s]
            if CHIPS_MATCH:
                v = 0
                for t in range(SEATS):
                    if SIDE_OF[t] == s:
                        v += S[MCHIPS + t]
            S[PTS + s] = v  # (the hand's slots are free once the match is over)
        low = LOWEST_WINS and not CHIPS_MATCH
        best = S[PTS]
        for s in range(1, NSIDES):
            v = S[PTS + s]
            if (low and v < best) or (not low and v > best):
                best = v
        wins = 0
        for s in range(NSIDES):
            if S[PTS + s] == best:
                wins |= 1 << s
        mres[m, 1] = S[HANDS_PLAYED]
        mres[m, 2] = ndeals
        mres[m, 3] = wins
        for s in range(NSIDES):
            mres[m, 4 + s] = S[SCORE + s]
        for s in range(SEATS):
            mres[m, 4 + NSIDES + s] = S[MCHIPS + s]
    return n, row


@njit(cache=True, inline='always')
def _pay(S, r, col):
    """A hand's payments (res columns from col: each pay, payer, payee) moved between the
    seats' chips, the match's and the hand's (which match_over reads)."""
    for k in range(NPAY):
        for p in range(SEATS):
            for q in range(SEATS):
                if q == p:
                    continue
                v = r[col]
                col += 1
                S[MCHIPS + p] -= v
                S[MCHIPS + q] += v
    for s in range(SEATS):
        S[CHIPS + s] = S[MCHIPS + s]


@njit(cache=True, inline='always')
def _buffers():
    """A hand's action list (every lay on every arm, and the auction's and declarations'
    offers) and its stock as it is shared out: made once for a run, not for each hand."""
    acts = np.empty(NP * NARMS + 64 + OFF.shape[2] + DCH.shape[2], dtype=np.int64)
    stk = np.empty(STOCKN + 1, dtype=np.int64)
    return acts, stk


@njit(cache=True, inline='always')
def _single(S):
    """A hand on its own: no match score yet (a layout adds its lays' points to it)."""
    for s in range(NSIDES):
        S[SCORE + s] = 0
    S[HANDS_PLAYED] = 0
    S[IN_MATCH] = 0
    S[TURN] = -1


@njit(cache=True, inline='always')
def _run(deals, stocks, dealers, seed, first, out, nleg, res, shuffle, agent, lo, hi):
    """Rows lo .. hi - 1 of a block on a state of their own: each hand from its own generator
    (seeded by the run's seed and the hand's number), with `shuffle` dealt first (into deals,
    stocks; the dealer is seat i mod seats), else the deal given."""
    S = np.zeros(NSLOTS, dtype=np.int64)
    H = np.zeros(SEATS, dtype=np.int64)
    R = np.zeros(1, dtype=np.uint64)
    order = np.zeros(NP, dtype=np.int64)
    acts, stk = _buffers()
    for s in range(SEATS):
        S[AGENTS + s] = agent[s]
    for i in range(lo, hi):
        _seed(R, seed, first + i)
        if shuffle:
            _deal(R, order, deals[i], stocks[i])
            dealers[i] = (first + i) % SEATS
        _single(S)
        err = _hand(S, H, R, deals[i], stocks[i], dealers[i], out, nleg, i, res[i], acts, stk)
        res[i, 0] = err


@njit(cache=True, parallel=True)
def play_hands_threads(deals, stocks, dealers, seed, first, out, nleg, res, shuffle, parts,
                       agent):
    """play_hands on numba's threads: the hands cut into `parts` runs, each with its own state
    (a hand's deal and choices are seeded by its number alone, so the hands are the same)."""
    n = deals.shape[0]
    for p in prange(parts):
        _run(deals, stocks, dealers, seed, first, out, nleg, res, shuffle, agent,
             p * n // parts, (p + 1) * n // parts)


@njit(cache=True)
def play_hands(deals, stocks, dealers, seed, first, out, nleg, res, shuffle, agent):
    """Hands first .. first + n - 1 of the run `seed` (_run)."""
    _run(deals, stocks, dealers, seed, first, out, nleg, res, shuffle, agent, 0, deals.shape[0])
'''
