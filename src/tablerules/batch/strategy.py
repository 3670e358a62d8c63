"""The rules agent in the batch kernel: a strategy file's rules compiled through the typed back end.

A seat the rules agent plays decides in `_choose` as `agents/strategy.py`'s `decide` does: the
section by the kinds of the legal actions, its rules in order, a rule's `when`, its `only`
filtering the legal actions, its `choose` keeping the first action of the highest key, the first
legal action when no rule applies (and no decision at all with one legal action). The strategy's
names read the seat's observation (`Seen`): each has a kernel form made from what the step
engine shows that seat (its hand, the public actions of the hand, the trick, the scores), kept
by `_choose` as the hand goes (who played or laid each piece and in what order, who passed,
the last bid and its seat, the suit last named, the pieces each seat buried) in the OBS slots
of S. A layout's `ends` (`Layout.arm_ends`: the arms one may lay on) are the layout's own arm
slots, an end its arm's number. A part with no such form (chips in a match for stakes, an index
into a list made at run time) raises NotBatchable naming it; no strategy name reads another
seat's hand.

The rules agent draws no random numbers (its choice is a function of the observation and the
legal actions), so a replay checks the kernel's choice is exactly the Python agent's.
"""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any

from ..expr import nodes as n
from ..expr.checker import Binder
from ..expr.types import ListType, ObjType
from .typed import KEYS, TABLE_FUNCS, Gen, NotBatchable, kept_by_arguments, loops, on_its_own

# a generated def's name, a loop in generated code, a generated function called
_DEF = re.compile(r"def (_[a-z_]*\d+)\(")
# the slot of the action a rule's `only` and `choose` look at, and its store in a rule's loop
_A_SLOT = "S[OBS + OBS_A]"
_A_STORE = f"        {_A_SLOT} = a"
# a read of the copy of the decision's legal actions (ORDERED's `legal`), not of OBS_LB..
_LEGAL_READ = re.compile(r"\bOBS \+ OBS_L\b")
_LOOP = re.compile(r"^\s*(for|while) ", re.M)
_CALLED = re.compile(r"\b(_[a-z_]*\d+)\(")

SECTIONS = ("bid", "declare", "bury", "play")
SECTION_OF = {"bid": "bid", "pass": "bid", "agree": "bid", "decline": "bid",
              "declare": "declare", "bury": "bury", "take": "bury", "leave": "bury"}

# OBS slots: (name, size) after the kept parts; a seat or index is kept + 1 (0: none), since
# every slot starts the hand at 0
def obs_slots(game, width: int) -> dict[str, int]:
    """The OBS slots' offsets; `width`: the most legal actions of one decision."""
    P, k = len(game.pieces), game.seat_count
    out, at = {}, 0
    for name, size in (("OBS_A", 1), ("OBS_N", 1), ("OBS_AUC", 1), ("OBS_TID", 1),
                       ("OBS_LEDX", 1), ("OBS_LEDV", 1), ("OBS_BEST", 1), ("OBS_WIN", 1),
                       ("OBS_LB", 1), ("OBS_LBS", 1), ("OBS_PASSED", 1), ("OBS_PLAYED", 1),
                       ("OBS_NAMED", 1), ("OBS_PB", P), ("OBS_BUR", k), ("OBS_BIDBY", k),
                       ("OBS_NORDER", 1), ("OBS_ORDER", P), ("OBS_L", width)):
        out[name] = at
        at += size
    out["_SIZE"] = at
    return out


# the fixed helpers of the rules agent: the record `_choose` keeps, the decision's view, the
# observation's functions (strategy.py's Seen, _suit, _rank, _beats, _follows)
TEMPLATE = '''

@njit(cache=True, inline='always')
def _k_obs_record(S, a):
    actor = S[ACTOR]
    t = -1
    if a < NP:
        t = a
    elif a >= LAYOUT_BASE:  # a lay: its piece is laid by the actor (ActionSpace.lay_of)
        t = (a - LAYOUT_BASE) // NARMS
    if t >= 0:  # played: who played it, and the order of play (`played`)
        S[OBS + OBS_PB + t] = actor + 1
        S[OBS + OBS_PLAYED] |= np.int64(1) << t
        S[OBS + OBS_ORDER + S[OBS + OBS_NORDER]] = t
        S[OBS + OBS_NORDER] += 1
    elif a >= BID_BASE and a < DECL_BASE:
        b = a - BID_BASE + 1
        S[OBS + OBS_LB] = b
        S[OBS + OBS_LBS] = actor + 1
        if b > S[OBS + OBS_BIDBY + actor]:
            S[OBS + OBS_BIDBY + actor] = b
    elif a == PASS:
        S[OBS + OBS_PASSED] |= np.int64(1) << actor
    elif a >= LEAD_BASE and a < BURY_BASE:
        S[OBS + OBS_NAMED] = a - LEAD_BASE + 1
    elif a >= BURY_BASE and a < BURY_BASE + NP:
        S[OBS + OBS_BUR + actor] |= np.int64(1) << (a - BURY_BASE)


@njit(cache=True, inline='always')
def _k_obs_prep(S, H, acts, n):
    S[MEMO + STAMP_AT] += 1  # a new decision: the strategy's kept functions forget the last
    _new_pass(S)
    S[OBS + OBS_N] = n
    if OBS_COPY:  # a strategy reads the legal actions as a list (`legal`): their copy
        for q in range(n):
            S[OBS + OBS_L + q] = acts[q]
    auc = FIXED < 0 and S[BIDDER] < 0
    S[OBS + OBS_AUC] = 1 if auc else 0
    tid = -1
    if not auc:
        tid = TIDX[S[CONTRACT], S[DCODE]]
    S[OBS + OBS_TID] = tid
    S[OBS + OBS_LEDX] = -1
    S[OBS + OBS_LEDV] = -1
    S[OBS + OBS_BEST] = -1
    S[OBS + OBS_WIN] = -1
    if tid >= 0 and S[TRICKN] > 0:
        t = S[TRICK]
        ledi = LEAD[tid, t, 0]
        if LEADN[tid, t] > 0:
            ledi = S[OBS + OBS_NAMED] - 1
        if ledi >= 0:
            S[OBS + OBS_LEDX] = ledi
            S[OBS + OBS_LEDV] = SUIT[tid, ledi]
            best = 0
            top = RANK[tid, ledi, t]
            for q in range(1, S[TRICKN]):
                r = RANK[tid, ledi, S[TRICK + q]]
                if r > top:
                    best = q
                    top = r
            S[OBS + OBS_WIN] = S[TSEAT + best]
            S[OBS + OBS_BEST] = top


@njit(cache=True, inline='always')
def _k_obs_section(acts, n):
    sec = 3
    for q in range(n):
        sec = ASEC[acts[q]]
        if sec != 3:
            break
    if sec == 3:
        for q in range(n):
            if not ABID[acts[q]]:
                return 3
        return 0
    return sec


@njit(cache=True, inline='always')
def _k_obs_bidder(S):
    if S[OBS + OBS_AUC]:
        return S[OBS + OBS_LBS] - 1
    return S[BIDDER]


@njit(cache=True, inline='always')
def _k_obs_contract(S):
    if S[OBS + OBS_AUC]:
        return NO_CONTRACT
    return CON_SYM[S[CONTRACT]]


@njit(cache=True, inline='always')
def _k_obs_unseen(S, H):
    return ALL_PIECES & ~(H[S[ACTOR]] | S[OBS + OBS_BUR + S[ACTOR]] | S[OBS + OBS_PLAYED])


@njit(cache=True, inline='always')
def _k_obs_tseat(S, x):
    for q in range(S[TRICKN]):
        if S[TSEAT + q] == x:
            return True
    return False


@njit(cache=True, inline='always')
def _k_obs_at(S, base, n, i):
    if i < 0 or i >= n:  # as the expression language's index: never from the end
        raise ValueError("an index is outside its list")
    return S[base + i]


@njit(cache=True, inline='always')
def _k_obs_nth(m, i):
    if i >= 0:
        for _ in range(i):
            m &= m - 1
        if m:
            return _low(m)
    raise ValueError("an index is outside its list")


@njit(cache=True, inline='always')
def _k_obs_nends(S):
    n = 0
    for e in range(NARMS):
        if S[APLAY + e]:
            n += 1
    return n


@njit(cache=True, inline='always')
def _k_obs_piece(t):
    if t < 0:
        raise ValueError("a strategy read the piece of an action that moves no piece")
    return t


@njit(cache=True, inline='always')
def _k_obs_suit(S, t):
    tid = S[OBS + OBS_TID]
    if tid < 0:
        return -1
    return SUIT[tid, LEAD[tid, t, 0]]


@njit(cache=True, inline='always')
def _k_obs_suitm(S, x):
    """The mask of the pieces t with _k_obs_suit(S, t) == x (SUITM, made by kernel.Builder
    from SUIT and LEAD): a number's row, then a symbol's, no piece looked at."""
    tid = S[OBS + OBS_TID]
    if tid < 0:
        return ALL_PIECES if x == -1 else 0
    if x >= SUITM_LO and x < SUITM_LO + SUITM_NINT:
        return SUITM[tid, x - SUITM_LO]
    if x >= 1099511627776 and x < 1099511627776 + SUITM_WIDE - SUITM_NINT:
        return SUITM[tid, SUITM_NINT + x - 1099511627776]
    return 0


@njit(cache=True, inline='always')
def _k_obs_rank(S, t):
    tid = S[OBS + OBS_TID]
    if tid < 0:
        return 0
    ledi = S[OBS + OBS_LEDX]
    if ledi < 0:
        ledi = LEAD[tid, t, 0]
    return RANK[tid, ledi, t]


@njit(cache=True, inline='always')
def _k_obs_beats(S, t):
    if S[TRICKN] == 0:
        return True
    return _k_obs_rank(S, t) > S[OBS + OBS_BEST]


@njit(cache=True, inline='always')
def _k_obs_follows(S, t, x):
    tid = S[OBS + OBS_TID]
    if tid < 0:
        return False
    for q in range(SUIT.shape[1]):
        if SUIT[tid, q] == x and q < NSUITS[tid]:
            return (FOLLOW[tid, q] >> t) & 1 == 1
    return False
'''


class StrategyNames:
    """The kernel forms of one vocabulary's names (by the identity of its Vars and Funcs)."""

    def __init__(self, voc):
        v, f = voc.base.vars, voc.base.funcs
        self.voc = voc
        self.vars = {id(v[k]): k for k in ("seat", "dealer", "bidder", "my_side", "hand", "bid",
                                           "contract", "trick", "trick_seats", "led", "leading",
                                           "winning", "played", "unseen", "stock_size", "legal",
                                           "ends") if k in v}
        self.decls = {id(v[d.name]): d.index for d in voc.gd.declarations
                      if d.name in v and v[d.name].get is not None and not v[d.name].is_const}
        self.funcs = {id(f[k]): k for k in ("points", "tricks", "score", "chips", "held",
                                            "played_by", "passed", "bid_of", "suit", "follows",
                                            "rank", "beats") if k in f}
        self.plain = {id(f[k]): k for k in ("has", "other", "piece", "card", *TABLE_FUNCS)
                      if k in f}
        from ..expr.builtins import BUILTINS
        for k in ("abs", "min", "max", "len", "range"):
            if k in BUILTINS:
                self.plain[id(BUILTINS[k])] = k


# the seat's lists kept in order in S: where each starts, and its length (`trick` and `played`
# are also piece masks, which their aggregates read)
ORDERED = {"trick": ("TRICK", "S[TRICKN]"), "trick_seats": ("TSEAT", "S[TRICKN]"),
           "legal": ("OBS + OBS_L", "S[OBS + OBS_N]"),
           "played": ("OBS + OBS_ORDER", "S[OBS + OBS_NORDER]")}


# a strategy's end is its arm's number e: the arm's open number, its end piece (arm_table: names)
END_FORMS = {"pips": "S[AOPEN + {0}]", "double": "(HI[S[AEND + {0}]] == LO[S[AEND + {0}]])",
             "spinner": "(S[AEND + {0}] == S[SPINNER])"}


def _same(a: n.Node, b: n.Node, ca, cb, pairs: dict) -> bool:
    """Whether the checked trees `a` (of `ca`) and `b` (of `cb`) say the same: the same nodes,
    names and literals, each name denoting the same thing, a variable bound in `a` the one
    bound at the same place in `b` (`pairs`: a's binders to b's, of the aggregates around)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, n.Name):
        ra, rb = ca.refs.get(id(a)), cb.refs.get(id(b))
        if isinstance(ra, Binder) or isinstance(rb, Binder):
            return ra in pairs and pairs[ra] is rb
        return a.name == b.name and ra is rb
    if isinstance(a, n.Call) and ca.funcs.get(id(a)) is not cb.funcs.get(id(b)):
        return False
    if isinstance(a, n.Aggregate):
        pairs = {**pairs, ca.binders[id(a)]: cb.binders[id(b)]}
    for f in fields(a):
        if f.name in ("offset", "length", "var") or f.name.endswith("_offset"):
            continue
        x, y = getattr(a, f.name), getattr(b, f.name)
        xs, ys = (x, y) if isinstance(x, tuple) else ((x,), (y,))
        if len(xs) != len(ys):
            return False
        for p, q in zip(xs, ys):
            if isinstance(p, n.Node) and isinstance(q, n.Node):
                if not _same(p, q, ca, cb, pairs):
                    return False
            elif isinstance(p, n.Node) or isinstance(q, n.Node) or p != q:
                return False
    return True


class StrategyGen(Gen):
    """Gen over a strategy's names: the observation's kernel forms (StrategyNames)."""

    def __init__(self, unit, typed, locals_, hoist, part: "StrategyPart"):
        super().__init__(unit, typed, locals_, hoist)
        self.part = part
        self.names = part.names

    def sub(self, typed, locals_: dict) -> "StrategyGen":
        return StrategyGen(self.u, typed, locals_, False, self.part)

    def played_mask(self, y: str) -> None:
        """A strategy's `played_by` is the seat's view (OBS_PB, a lay counted too), not the
        loop's record: each piece is looked at."""
        return None

    def _piece_mask(self, node: n.Node, b) -> str | None:
        if isinstance(node, n.Compare) and node.op in ("==", "!="):  # `suit(t) == trump`
            for call, y in ((node.left, node.right), (node.right, node.left)):
                if isinstance(call, n.Call) and len(call.args) == 1 and \
                        self.names.funcs.get(id(self.c.funcs[id(call)])) == "suit" and \
                        self._bound(call.args[0], b):
                    x = self.known(y, b)
                    if x is None:
                        return None
                    m = f"_k_obs_suitm(S, {x})"  # the pieces of suit x at this decision
                    return m if node.op == "==" else \
                        f"({(1 << self.u.domains.get('tile', 0)) - 1} & ~{m})"
        if isinstance(node, n.Call) and len(node.args) == 1 and self._bound(node.args[0], b):
            func = self.c.funcs[id(node)]
            if func.typed is not None:  # `is_trump(t)`: its mask's slot, set at the decision
                slot = self.part.mask_slot(func, node.func.name)
                if slot is not None:
                    return slot
        return super()._piece_mask(node, b)

    def _var(self, node: n.Name):
        ref = self.c.refs[id(node)]
        if isinstance(ref, Binder) or ref.is_const:
            return None, ref
        return self.names.vars.get(id(ref)), ref

    def pieces(self, node: n.Node) -> str | None:
        if isinstance(node, n.Name):
            name, _ = self._var(node)
            if name == "hand":
                return "H[S[ACTOR]]"
            if name == "trick":
                return "S[TRICKM]"
            if name == "played":
                return "S[OBS + OBS_PLAYED]"
            if name == "unseen":
                return "_k_obs_unseen(S, H)"
        t = self.type_of(node)
        if isinstance(t, ListType) and isinstance(t.elem, ObjType) and \
                t.elem.name in ("tile", "card") and not self.is_const(node):
            raise NotBatchable("this list of pieces has no kernel form")
        return super().pieces(node)

    def list_name(self, node: n.Name) -> str | None:
        return self._var(node)[0]

    def loop(self, node: n.Node, var: str) -> tuple[str, tuple[str, str] | None]:
        name = self._var(node)[0] if isinstance(node, n.Name) else None
        if name is not None and name not in ("hand", "trick", "played", "unseen", "legal",
                                             "ends", "trick_seats"):
            raise NotBatchable(f"the name '{name}' has no kernel form (an aggregate over it)")
        if name in ("legal", "trick_seats"):  # in their order
            base, size = ORDERED[name]
            q = self.u.fresh("q")
            return f"for {q} in range({size}):\n        {var} = S[{base} + {q}]", None
        if name == "ends":  # an end is its arm's number: the arms one may lay on, in order
            return (f"for {var} in range(NARMS):\n        if not S[APLAY + {var}]:\n"
                    f"            continue", None)
        return super().loop(node, var)

    def v_Name(self, node: n.Name) -> str:
        name, ref = self._var(node)
        if isinstance(ref, Binder):
            return self.locals[ref]
        forms = {"seat": "S[ACTOR]", "dealer": "S[DEALER]", "bidder": "_k_obs_bidder(S)",
                 "my_side": "SIDE_OF[S[ACTOR]]", "bid": "S[OBS + OBS_LB]",
                 "contract": "_k_obs_contract(S)", "led": "S[OBS + OBS_LEDV]",
                 "leading": "(S[TRICKN] == 0)", "winning": "S[OBS + OBS_WIN]",
                 # what is left of the stock: taken in parts, drawn piece by piece
                 "stock_size": "_popcount(S[STOCKM])"}
        if name in forms:
            return forms[name]
        if name is not None:
            raise NotBatchable(f"the name '{node.name}' has no kernel form here")
        if id(ref) in self.names.decls:
            return f"S[DECL + {self.names.decls[id(ref)]}]"
        got = self.part.value(ref)
        if got is not None:
            return got
        if node.name == "a":  # the action an `only` or `choose` is looking at
            return "S[OBS + OBS_A]"
        raise NotBatchable(f"the name '{node.name}' has no kernel form")

    def v_Aggregate(self, node: n.Aggregate) -> str:
        return self._arg_best(node) or super().v_Aggregate(node)

    def _arg_best(self, node: n.Aggregate) -> str | None:
        """`min(x for x in R if f(x) == top)` where `top` is a strategy value
        `max(f(y) for y in R)` (the lowest x of the highest f; max and min either way round,
        `top` on either side of the `==`): one loop over R works f out once for each x and
        finds both, keeping `top` for the decision as its own function would, instead of a loop
        for `top` and another asking f again for each x (docs/strategy.md "In compiled code").
        The same answer, an empty R's failure included: the lowest (highest) x of those whose f
        is the best, whatever R's order. None when `node` is not of that form."""
        kind = node.func.name
        cond, b = node.cond, self.c.binders[id(node)]
        if kind not in ("min", "max") or node.default is not None or \
                not isinstance(cond, n.Compare) or cond.op != "==" or \
                not self._bound(node.elem, b) or str(b.type) != "int":
            return None
        for top, f in ((cond.left, cond.right), (cond.right, cond.left)):
            ref = self.c.refs.get(id(top)) if isinstance(top, n.Name) else None
            tree = self.part.value_tree(ref) if ref is not None and \
                not isinstance(ref, Binder) else None
            root = tree.root if tree is not None else None
            if isinstance(root, n.Aggregate) and root.func.name in ("min", "max") and \
                    root.cond is None and root.default is None and \
                    str(tree.checked.types[id(root)]) == "int" and \
                    _same(root.iter, node.iter, tree.checked, self.c, {}) and \
                    _same(root.elem, f, tree.checked, self.c,
                          {tree.checked.binders[id(root)]: b}):
                return self._fused(node, b, f, self.part.value_slot(ref), root.func.name)
        return None

    def _fused(self, node: n.Aggregate, b, f: n.Node, top: int, best: str) -> str:
        """The loop of `_arg_best`: `top`, the kept value's slot (StrategyPart.value_slot);
        `best`, whether it is the min or the max of f."""
        var = self.locals[b] = self.u.fresh("b")
        free = [v for k, v in self.locals.items() if k is not b]
        header, _ = self.loop(node.iter, var)  # numbers: a header, never a mask of pieces
        self.inner += 1
        try:
            elem = self.expr(f)
        finally:
            self.inner -= 1
            del self.locals[b]
        better = "<" if best == "min" else ">"
        tie = "<" if node.func.name == "min" else ">"
        fname, arg = self.u.fresh("a"), self.u.fresh("b")
        params = "".join(", " + v for v in free)
        lines = [f"def {fname}(S, H{params}):", f"    {arg} = 0", "    acc = 0",
                 "    found = False", f"    {header}", f"        v = {elem}",
                 f"        if not found or v {better} acc:",
                 "            acc = v", f"            {arg} = {var}", "            found = True",
                 f"        elif v == acc and {var} {tie} {arg}:", f"            {arg} = {var}",
                 "    if not found:",
                 f"        raise ValueError('{node.func.name}() of an empty collection')"]
        fname = self.u.share(fname, "\n".join(lines) + "\n" + self.u.keep(top, "_bnd(acc)")
                             + f"    return {arg}\n")
        return f"{fname}(S, H{params})"

    def v_Attr(self, node: n.Attr) -> str:
        obj_t = self.type_of(node.obj)
        if obj_t is self.names.voc.end:  # a strategy's end (Layout.arm_ends): its arm's number
            e = self.expr(node.obj)
            if node.name == "arm":
                return f"{self.part.arm_table()}[{e}]"
            return END_FORMS[node.name].format(e)
        if obj_t is not self.names.voc.action:
            return super().v_Attr(node)
        table = self.part.action_table(node.name)
        src = f"{table}[{self.expr(node.obj)}]"
        if node.name == "piece":
            return f"_k_obs_piece({src})"
        if str(self.type_of(node)) == "bool":
            return f"({src} != 0)"
        return src

    def v_Index(self, node: n.Index) -> str:
        """An index into the seat's lists: the trick, its seats, the legal actions and the
        pieces played in their order, the hand and the unseen pieces by id (the orders the
        agent reads them in)."""
        name = self._var(node.obj)[0] if isinstance(node.obj, n.Name) else None
        if name in ORDERED:  # (where the list starts in S, its length)
            return f"_k_obs_at(S, {', '.join(ORDERED[name])}, {self.expr(node.index)})"
        if name in ("hand", "unseen"):
            return f"_k_obs_nth({self.pieces(node.obj)}, {self.expr(node.index)})"
        return super().v_Index(node)

    def v_Compare(self, node: n.Compare) -> str:
        if node.op in ("in", "not in") and isinstance(node.right, n.Name) and \
                self._var(node.right)[0] == "trick_seats":
            test = f"_k_obs_tseat(S, {self.expr(node.left)})"
            return test if node.op == "in" else f"(not {test})"
        return super().v_Compare(node)

    def v_Call(self, node: n.Call) -> str:
        func = self.c.funcs[id(node)]
        name = node.func.name
        if func.typed is not None:
            fname = self.part.user(func, name)
            return f"{fname}(S, H{''.join(', ' + self.passed(a, self.expr(a)) for a in node.args)})"
        own = self.names.funcs.get(id(func))
        if own is not None:
            args = [self.expr(a) for a in node.args]
            g = self.part.game
            forms = {"points": "S[PTS + _side({0})]", "tricks": "S[TRK + _side({0})]",
                     "score": "S[SCORE + _side({0})]", "held": "_popcount(H[_seat({0})])",
                     "played_by": "(S[OBS + OBS_PB + {0}] - 1)",
                     "passed": "((S[OBS + OBS_PASSED] >> _seat({0})) & 1 == 1)",
                     "bid_of": "S[OBS + OBS_BIDBY + _seat({0})]", "suit": "_k_obs_suit(S, {0})",
                     "rank": "_k_obs_rank(S, {0})", "beats": "_k_obs_beats(S, {0})",
                     "follows": "_k_obs_follows(S, {0}, {1})"}
            if own == "chips":
                if g.match.stake is not None:
                    raise NotBatchable("chips() in a match for stakes has no kernel form")
                return f"(0 * _seat({args[0]}))"
            return forms[own].format(*args)
        if name == "len" and isinstance(node.args[0], n.Name) and id(func) in self.names.plain:
            listed = self._var(node.args[0])[0]
            if listed == "ends":
                return "_k_obs_nends(S)"
            if listed in ("legal", "trick_seats"):
                return ORDERED[listed][1]
        if id(func) in self.names.plain:
            return super().v_Call(node)
        raise NotBatchable(f"the function {name}() has no kernel form in a strategy")


def _rules_function(decisions: list[list[str]]) -> str:
    """`_k_rules(S, H, R, acts, n)`, which the hand loop calls at every decision: the action of
    the seat's strategy (S[AGENTS + seat], from 1: `decisions[c - 1]`, each the body of its
    decision as StrategyPart._strategy writes it), or a random one; recorded for the
    strategies' view either way. Each body is written in, in a loop of one pass that its
    `a = ...; break` leaves with the action, where a call of a decision function cost 0.96 of
    a shipped rules kernel's time and numba's inlining of it (inline='always') tripled the
    kernel's compile (docs/speed.md). It is compiled on its own (in the hand loop it made the
    loop's code and compile several times longer) and given its arrays as pointers
    (typed.on_its_own)."""
    lines = ["def _k_rules(S, H, R, acts, n):", "    c = S[AGENTS + S[ACTOR]]", "    if c > 0:",
             "        a = acts[0]", "        if n > 1:", "            while True:"]
    for i, body in enumerate(decisions):
        lines.append(f"                if c == {i + 1}:")
        lines += [" " * 20 + line for line in body]
    lines += ["                break", "    else:", "        a = acts[_rand(R, n)]",
              "    _k_obs_record(S, a)", "    return a"]
    return "\n".join(lines) + "\n"


class StrategyPart:
    """The rules agent's part of one kernel: every strategy a seat plays, its decision written
    into `_k_rules` (`_strategy`, _rules_function), chosen by the seat's number `c` (from 1)."""

    def __init__(self, builder, agents: tuple):
        self.b = builder
        self.game = builder.g
        self.u = builder.unit
        self.agents = agents  # per seat: None (random) or an object with `.strategy`
        self.names: StrategyNames | None = None
        self._values: dict[int, str] = {}
        self._vals: dict[int, Any] = {}
        self._slots: dict[int, int] = {}  # a value's kept slot (`value_slot`)
        self._tables: dict[str, str] = {}
        self._bits: set[str] = set()  # the functions that read a bit of a mask (`user`)
        self._masks: list[str] = []  # the strategy's masks, set at each decision (`_as_mask`)
        self._slot_of: dict[int, str] = {}  # a function of one piece (its id): its mask's slot
        # a function that may be kept by its arguments (`user`) -> (its arguments, its body):
        # `build` keeps it where two places of the strategies ask it (`_kept`)
        self._keepable: dict[str, tuple[list[str], str]] = {}
        self.strategy = None

    # -- names a strategy reads --------------------------------------------------------------

    def value(self, ref) -> str | None:
        """A strategy value, worked out once per decision (strategy.py's `_memo`)."""
        got = self._values.get(id(ref))
        if got is not None:
            return got
        hit = self._vals.get(id(ref))
        if hit is None:
            return None
        name, c = hit
        try:
            gen = StrategyGen(self.u, c.typed, {}, False, self)
            src = gen.expr(c.typed.root)
        except NotBatchable as e:
            raise NotBatchable(e.message, ("values", name)) from None
        if str(gen.type_of(c.typed.root)) == "int":  # as the rules agent checks it
            src = f"_bnd({src})"
        got = self._values[id(ref)] = self.u.kept(src, self.value_slot(ref))
        return got

    def value_slot(self, ref) -> int:
        """The kept slot of the strategy value `ref` (Unit.keep_slot), its function made only
        when something reads the value (`value`): a loop that sets it on the way
        (StrategyGen._arg_best) needs only the slot."""
        k = self._slots.get(id(ref))
        if k is None:
            k = self._slots[id(ref)] = self.u.keep_slot()
        return k

    def value_tree(self, ref):
        """The checked tree of the strategy value `ref` names (its typed form: `root`,
        `checked`), or None when `ref` names no strategy value."""
        hit = self._vals.get(id(ref))
        return None if hit is None else hit[1].typed

    def user(self, func, name: str) -> str:
        """A strategy function `_uN(S, H, params...)`, through StrategyGen; kept for the
        decision by its arguments when its loop is worth it (below)."""
        got = self.u._user.get(id(func))
        if got is not None:
            return got
        typed = func.typed
        locals_ = {b: self.u.fresh("b") for b in typed.params}
        args = [locals_[b] for b in typed.params]
        params = "".join(", " + a for a in args)
        try:
            mask = self._slot_of[id(func)] = self._as_mask(typed, locals_)
            if mask is not None:  # `is_trump(t)`: a bit of the decision's mask of the pieces,
                # inlined where it is read (its body is never generated)
                fname = self.u.fresh("u")
                bit = f"    return ({mask} >> {args[0]}) & 1 == 1\n"
                fname = self.u._user[id(func)] = self.u.share(
                    fname, f"def {fname}(S, H{params}):\n{bit}")
                self._bits.add(fname)
                return fname
            body = StrategyGen(self.u, typed, locals_, False, self).expr(typed.root)
        except NotBatchable as e:
            raise NotBatchable(f"{e.message} (in {name}())", e.path) from None
        fname = self.u.fresh("u")
        if not (args and all(str(b.type) in KEYS for b in typed.params) and loops(typed)
                and self._loops(body)):
            fname = self.u._user[id(func)] = self.u.share(
                fname, f"def {fname}(S, H{params}):\n"
                       f"{self.u.tabulated_function(typed, locals_, body)}    return {body}\n")
            return fname
        # One of number, symbol or truth parameters whose kernel code loops over pieces or
        # calls a function in a loop (in it or in a function it calls; `_loops`) is kept for
        # the decision by its arguments, in MEMO_WAYS entries of the MEMO slots, an entry's
        # flag the decision's stamp (S[MEMO + STAMP_AT], counted up by _k_obs_prep; the slots
        # are zero from the hand's start). A strategy's function reads the seat's observation
        # and its arguments, never the action weighed (the checker refuses `a` in a
        # function's body), so within a decision it says the same for the same arguments:
        # asked again by another value or rule (the best of the suits' strengths, then the
        # losses of the suits that have it), it is worked out once (docs/speed.md). The lowest
        # suit of the best strength needs no memo: it is one loop (StrategyGen._arg_best),
        # where the memo is only paid for, 1.5-2% of a shipped strategy's hand (docs/speed.md,
        # stop 39). A function one place asks is asked again only with other arguments,
        # mostly: it is kept only where two places ask it, which `build` counts (`_kept`).
        self.u._user[id(func)] = fname
        self.u.defs.append(f"def {fname}(S, H{params}):\n    return {body}\n")
        self._keepable[fname] = (args, body)
        return fname

    def _kept(self, defs: list[str], decisions: list[str]) -> list[str]:
        """`defs` (the strategies' generated functions) with each function that may be kept by
        its arguments (`user`) kept, its memo slots taken, where two places in them or in the
        `decisions` (each strategy's, as `_strategy` writes it) ask it:
        the keeping pays where a value or rule asks again what another asked (the best of the
        suits' strengths, then the suits of that strength), and costs where one place asks it
        with other arguments every time (a layout's best next lay after each end, asked for
        the threat of each lay: there the keeping cost 5% of the hand, docs/speed.md)."""
        names = [_DEF.match(d).group(1) for d in defs]
        out = list(defs)
        for fname, (args, body) in self._keepable.items():
            call = re.compile(rf"\b{fname}\(")
            asked = sum(len(call.findall(d)) for d, name in zip(defs, names) if name != fname)
            if asked + sum(len(call.findall(t)) for t in decisions) >= 2:
                text, size = kept_by_arguments(fname, args, body, self.u.memos,
                                               "S[MEMO + STAMP_AT]")
                self.u.memos += size
                out[names.index(fname)] = text
        return out

    def mask_slot(self, func, name: str) -> str | None:
        """The slot of the mask of a strategy's function of one piece (`_as_mask`), or None
        when its body has no mask form."""
        self.user(func, name)
        return self._slot_of.get(id(func))

    def _as_mask(self, typed, locals_: dict) -> str | None:
        """A truth of one piece whose body has a mask form (typed.Gen._piece_mask: the
        piece's attributes, `suit(t) == trump`, guards of the state's own slots), as the slot
        of that mask, which the strategy's decision sets at every decision (`_masks`;
        a strategy's function reads the observation and its argument, which a decision does
        not change, and a mask's look-ups never fail, so it may be worked out before it is
        asked for): each call is then a bit of it, and a rule's loop reads the slot as often
        as it likes (a value kept on demand is a test of its flag at every read, which cost a
        shipped strategy's kernel about 3% more, measured: docs/speed.md)."""
        gen = StrategyGen(self.u, typed, locals_, False, self)
        if len(typed.params) != 1 or str(typed.params[0].type) not in ("tile", "card") or \
                str(gen.type_of(typed.root)) != "bool":
            return None
        mask = gen._piece_mask(typed.root, typed.params[0])
        if mask is None:
            return None
        slot = self.u.slot()
        self._masks.append(f"{slot} = {mask}")
        return slot

    def _loops(self, body: str) -> bool:
        """Whether generated code, `body` or a generated function it calls, has a loop worth
        keeping the value of: over a mask's pieces (`while`), or one that calls a generated
        function. A mask's count is one instruction, and a loop over a layout's few arms
        reading slots costs less than looking its value up (docs/speed.md has the figures:
        keeping such a function made a shipped strategy's kernel slower, keeping a loop over
        the hand's pieces made another's about a tenth faster)."""
        defs = {m.group(1): d for d in (*self.u.defs, *self.b.outlined)
                if (m := _DEF.match(d)) is not None}
        seen, todo = set(), [body]
        while todo:
            text = todo.pop()
            loop = _LOOP.search(text)
            if loop and (loop.group(1) == "while" or _CALLED.search(text, loop.end())):
                return True
            for name in _CALLED.findall(text):
                if name not in seen and name in defs:
                    seen.add(name)
                    todo.append(defs[name])
        return False

    def arm_table(self) -> str:
        """Each arm's name (the action space's order: line arms, then spinner arms) as the
        symbol a strategy compares it with."""
        arms = self.game.actions.arms
        return self.u.table([self.b.sym.code(a) for a in arms] or [0], "t")

    def action_table(self, attr: str) -> str:
        """An attribute of every action as a table (a piece's -1: the action moves none)."""
        got = self._tables.get(attr)
        if got is not None:
            return got
        voc = self.names.voc
        get = voc.action.attrs[attr].get
        vals = []
        for a in range(self.game.actions.num_actions):
            try:
                vals.append(self.b.sym.code(get(a)))
            except Exception:  # the attribute fails on this action (a piece of a bid)
                if attr != "piece":
                    raise NotBatchable(f"the attribute '{attr}' of an action has no kernel form")
                vals.append(-1)
        got = self._tables[attr] = self.u.table(vals, "t")
        return got

    # -- the module's part ---------------------------------------------------------------------

    def build(self) -> None:
        b, g = self.b, self.game
        n = g.seat_count
        strategies: list = []
        which = []
        for ag in self.agents:
            s = getattr(ag, "strategy", None) if ag is not None else None
            if s is None:
                which.append(0)
                continue
            if s not in strategies:
                strategies.append(s)
            which.append(strategies.index(s) + 1)
        # which strategy each seat plays is the run's (S[AGENTS + seat], set by the loop from
        # Batch.seats), not the source's: every seating of the same strategies is one kernel
        b.seat_strategy = which if which else [0] * n
        b.const("HAS_RULES", int(bool(strategies)))
        b.const("BELOW_ANY", -(1 << 62))  # below every int a rule's value may be (_bnd)
        b.const("STAMP_AT", self.u.memos)  # the decision's stamp (see `user`)
        self.u.memos += 1
        voc_kinds = None
        decisions = []  # each strategy's, as lines of `_k_rules`
        k0 = len(self.u.defs)
        for s in strategies:
            if s.vocab is None or s.vocab.gd is not g:
                raise NotBatchable("the strategy was compiled for another game definition")
            self.names = StrategyNames(s.vocab)
            voc_kinds = s.vocab.kinds
            self._vals = {id(var): (name, c) for name, (var, c) in s.values.items()}
            self._values, self._slots = {}, {}
            try:
                decisions.append(self._strategy(s))
            except NotBatchable as e:
                where = ".".join(str(p) for p in e.path)
                raise NotBatchable(f"the strategy {s.name} ({s.file}), {where}: {e.message}"
                                   ) from None
        # a strategy's functions and kept values are compiled on their own, not inlined:
        # inlined, every call of a function inside another grows the code as a tree (compiles
        # took minutes). An aggregate and a rule have one call site each, so they go by the
        # kernel's rule (_decorated: inlined unless big); forcing every rule inline made a
        # shipped rules kernel compile in 47 s, not 14, for no speed. Each strategy's decision
        # is written into `_k_rules` (_rules_function)
        texts = ["\n".join(lines) for lines in decisions]
        mine = self._kept(self.u.defs[k0:], texts)
        del self.u.defs[k0:]
        # no function but the rules reads the action's slot (an aggregate of a rule's that
        # reads `a` would): the rules' loops need not write it (their own reads are the local)
        if not any(_A_SLOT in d for d in mine if not d.startswith("def _r")):
            mine = [d.replace(_A_STORE + "\n", "") if d.startswith("def _r") else d
                    for d in mine]
        # the decision's view copies its legal actions only for a strategy that reads them as
        # a list (ORDERED's `legal`): a copy nothing read was 0.96 of a rules kernel's time
        b.const("OBS_COPY", int(any(_LEGAL_READ.search(d) for d in mine + texts)))
        for d in mine:
            if d.startswith(("def _a", "def _r")) or _DEF.match(d).group(1) in self._bits:
                self.u.defs.append(d)
            else:
                b.outlined.append(d)
        kinds = voc_kinds or ("play",) * g.actions.num_actions
        sec = {k: SECTIONS.index(SECTION_OF.get(k, "play")) if k != "pass" else 3
               for k in set(kinds)}
        b.array("ASEC", [sec[k] for k in kinds])
        b.array("ABID", [k == "pass" or SECTION_OF.get(k) == "bid" for k in kinds])
        b.array("CON_SYM", [b.sym.code(c.name) for c in g.contracts])
        b.const("NO_CONTRACT", b.sym.code("none"))
        b.const("ALL_PIECES", (1 << len(g.pieces)) - 1)
        b.const("HAND_SIZE", g.hand_size)
        b.array("NSUITS", [len(t.suits) for t in b.trick_tabs] or [0])
        b.outlined.append(_rules_function(decisions))
        b.templates.append(TEMPLATE)

    def _strategy(self, s) -> list[str]:
        """The decision of one strategy, as lines of `_k_rules`'s loop of one pass
        (_rules_function): the first rule of the decision's section that applies, its action
        in `a` and a break; else the first legal action. No loop of its own: a break in it
        would not leave the decision (a rule's loop is its function's, `_rule`)."""
        self._masks = []
        body = ["sec = _k_obs_section(acts, n)"]
        for k, sec in enumerate(SECTIONS):
            rules = s.sections.get(sec, ())
            if not rules:
                continue
            body.append(f"if sec == {k}:")
            for rule in rules:
                fn = self._rule(sec, rule)
                body += [f"    v = {fn}(S, H, acts, n)", "    if v >= 0:", "        a = v",
                         "        break"]
        return ["_k_obs_prep(S, H, acts, n)", *self._masks, *body,
                "a = acts[0]", "break"]

    def _part(self, sec: str, rule, key: str, hoist: bool) -> str | None:
        c = rule.compiled.get(key)
        if c is None:
            return None
        try:
            return StrategyGen(self.u, c.typed, {}, hoist, self).expr(c.typed.root)
        except NotBatchable as e:
            raise NotBatchable(e.message, e.path or (sec, rule.name, key)) from None

    def _rule(self, sec: str, rule) -> str:
        """`_rN(S, H, acts, n)`: the action the rule chooses, or -1 when it does not apply."""
        when = self._part(sec, rule, "when", False)
        only = self._part(sec, rule, "only", True)
        choose = self._part(sec, rule, "choose", True)
        lines = []
        if when is not None:
            lines += [f"    if not ({when}):", "        return -1"]
        # the action looked at is a local of the loop; its slot is written too, for a function
        # of the strategy that reads `a` itself (an aggregate of the rule's), and that line is
        # taken out again when no function does (build)
        only, choose = (None if x is None else x.replace(_A_SLOT, "a") for x in (only, choose))
        # without a `choose`, the first action `only` keeps; with one, the first of the
        # largest value, `top` starting below every value a rule may have (_bnd): no flag of
        # a first value (0.97 of a shipped rules kernel's time without it: docs/speed.md)
        if choose is not None:
            lines += ["    best = -1", "    top = BELOW_ANY"]
        lines += ["    for q in range(n):", "        a = acts[q]", _A_STORE]
        if only is not None:
            lines += [f"        if not ({only}):", "            continue"]
        if choose is None:
            lines += ["        return a", "    return -1"]
        else:
            lines += [f"        v = _bnd({choose})", "        if v > top:",
                      "            best = a", "            top = v", "    return best"]
        name = self.u.fresh("r")
        self.u.defs.append(f"def {name}(S, H, acts, n):\n" + "\n".join(lines) + "\n")
        return name
