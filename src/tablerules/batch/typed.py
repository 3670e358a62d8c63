"""The expression language's second back end: a checked expression to typed numba source.

The first back end (`expr/compiler.py`) makes Python functions over the evaluation context.
This one makes the source of functions numba compiles in nopython mode, over the batch
kernel's state: `S`, one int64 array of the hand's scalars (each context field a slot), and
`H`, the seats' hands as piece masks. Values are typed small ints:

- an int, a bool, a seat or a side is itself;
- a symbol is an int of its own (`Symbols`: SYM_BASE + its number), so `led == 'doubles'`
  and `has(tile, led)` compare ints, and an int never equals a symbol;
- a piece is its id and a bid its index; an attribute is a table over every piece or bid;
- a list of pieces is a bitmask (`hand`, `trick`, `dealt`), and an aggregate over it is a loop
  over its bits; a constant list is a global array.

Like the first back end, the source is made from the checked tree alone: names of the
vocabulary and of functions become generated identifiers (`_h3`, `_u4`, `_t5`), constants are
int literals or generated global arrays, bound variables locals `_b6`. A part the back end does
not know (an index, a list built at run time, a vocabulary function it has no kernel form of)
raises NotBatchable naming the part, so a ruleset is either compiled whole or not at all.
"""

from __future__ import annotations

import itertools
import operator
import re
from typing import Any

from ..expr import nodes as n
from ..expr.checker import Binder
from ..expr.types import ListType, ObjType

SYM_BASE = 1 << 40  # symbols are ints from here up: no int of a ruleset comes near


class NotBatchable(Exception):
    """The batch engine has no form of this part of the ruleset (the step engine plays it)."""

    def __init__(self, message: str, path: tuple = ()):
        super().__init__(message)
        self.message = message
        self.path = path

    def __str__(self) -> str:
        where = ".".join(str(p) for p in self.path)
        return f"{where}: {self.message}" if where else self.message


class Symbols:
    """Each symbol a kernel meets, as an int of its own (SYM_BASE + its number)."""

    def __init__(self):
        self.codes: dict[str, int] = {}

    def code(self, v: Any) -> int:
        """A value of the language as a kernel int: an int or bool as itself, a symbol coded."""
        if type(v) is bool:
            return int(v)
        if type(v) is int:
            return v
        if isinstance(v, str):
            c = self.codes.get(v)
            if c is None:
                c = self.codes[v] = SYM_BASE + len(self.codes)
            return c
        raise NotBatchable(f"the value {v!r} has no kernel form")


# context fields (places.py) that are one scalar slot of S, by slot name
SCALAR_FIELDS = ("dealer", "actor", "passes", "high", "offered", "bidder", "bidder_side", "bid",
                 "asked", "tile", "choice", "led", "points_against", "tricks_against",
                 "tricks_played", "went_out", "blocked", "made", "side", "hands_played", "turn",
                 "payer", "payee")
# per-side totals, by the vocabulary function that reads them
SIDE_FUNCS = {"points": "PTS", "tricks": "TRK", "score": "SCORE"}
# the layout's names (slots written by batch/layout.py after each lay) and an end's attributes
LAYOUT_NAMES = {"spinner_open": "(S[SPIN_OPEN] != 0)", "spinner_pips": "S[SPIN_PIPS]"}
END_ATTRS = {"pips": "S[EPIPS + {}]", "double": "(S[EDBL + {}] != 0)",
             "spinner": "(S[ESPIN + {}] != 0)"}
# the piece and seat functions of the vocabulary, each a kernel table or helper (kernel.py)
TABLE_FUNCS = {"next": "NEXT", "prev": "PREV", "left_of": "LEFT", "right_of": "RIGHT",
               "partner": "PARTNER", "side_of": "SIDE_OF"}
# the per-piece records (GameDef.keeps) and per-seat lists, each a block of S (kernel.py)
PIECE_FUNCS = {"played_by": "PLAYED", "taken_by": "TAKENBY", "trick_of": "TRICKOF"}
SEAT_LISTS = {"dealt_to": "DEALTM", "laid_away": "LAIDM"}


class Unit:
    """The generated functions and global tables of one kernel module."""

    def __init__(self, symbols: Symbols, domains: dict[str, int],
                 sizes: dict[str, int] | None = None):
        self.symbols = symbols
        self.domains = domains  # object type name -> how many values (pieces, bids)
        self.sizes = sizes or {}  # a list of pieces by its name -> how many it holds as dealt
        self.defs: list[str] = []  # generated functions, callees first
        self.tables: dict[str, list] = {}  # generated global name -> int values
        self._count = itertools.count()
        self._attr_tables: dict[tuple, str] = {}
        self._const_tables: dict[tuple, str] = {}
        self._user: dict[int, str] = {}  # id(Func) -> its generated function
        self._shared: dict[str, str] = {}  # a def's text, its own names left out -> its name
        self.keeps = 0  # kept parts: each worked out once per pass, in S[KEEP + 2k], + 2k + 1
        self._kept: dict[str, str] = {}  # a kept part's source -> its read (one slot for all)
        self.memos = 0  # slots of the functions kept while a hand is scored (`user`), from MEMO
        # tabulated terms (Gen.tabulated): table name -> (the piece's local, the outside
        # variable's or None, its domain's size, the term's code), made by kernel.py
        self.tabs: dict[str, tuple] = {}
        self.tab_names: dict[tuple, str] = {}  # (domain's size, the term's canonical code) -> table
        # tabulated functions (`tabulated_function`): table name -> (the piece's parameter, the
        # other's or None, its domain's size, the pieces' count, the body's code)
        self.fn_tabs: dict[str, tuple] = {}

    def fresh(self, prefix: str) -> str:
        return f"_{prefix}{next(self._count)}"

    def row(self, b, x: str) -> tuple[int, str, str] | None:
        """A table's rows for the outside variable `x` (binder `b`) of a tabulated term or
        function: (how many, the row `x` reads, the test that `x` is among them: "" for a
        truth, which always is); None when its type has no domain of at most TAB_DOMAIN."""
        kind = _TAB_KINDS.get(str(b.type))
        size = self.domains.get(kind, 0)
        if not 0 < size <= TAB_DOMAIN:
            return None
        if kind == "bool":  # a row for each
            return size, f"(1 if {x} else 0)", ""
        return size, x, f"{x} >= 0 and {x} < {size}"

    def tabulated_function(self, typed, locals_: dict, body: str) -> str:
        """The first lines of a function's def that read its value from a table, when the
        function is one of a piece and at most one other parameter of at most TAB_DOMAIN
        values (a number: the pips, 0 to the highest end; a truth; `row`), its value an int
        or a truth, and its body reads nothing of the state (the piece's attributes, the other
        parameter, constants) and tests something or calls a helper or a generated function
        (a body of look-ups and arithmetic alone is left as it is): `lay_value(t, pips)`, a
        double's two halves or the other end, is then one look-up, not a test of the piece
        and of each of its ends. The table (table[x, piece]) is made at build time from the
        body itself by kernel.py's Builder._tabulate; its flag is 0 when the body fails for
        some piece or value, and then the body works it out as before. "" for any other."""
        params = list(typed.params)
        pieces = [b for b in params if str(b.type) in ("tile", "card")]
        value = str(typed.checked.types[id(typed.root)])
        if not 1 <= len(params) <= 2 or len(pieces) != 1 or value not in ("int", "bool") or \
                _STATE.search(body) or (" if " not in body and not _CALLS.search(body)):
            return ""  # (look-ups and arithmetic alone: no dearer than the table's, guarded)
        piece = pieces[0]
        count = self.domains.get(str(piece.type), 0)
        p = locals_[piece]
        size, x, idx, test = 1, None, "0", ""  # no other parameter: one row
        for b in params:
            if b is not piece:
                got = self.row(b, locals_[b])
                if got is None:
                    return ""
                (size, idx, test), x = got, locals_[b]
        # one table for the same body (its locals named by their order) over the same domain
        key = ("fn", size, count, _canon(f"{p} {x}: {body}"))
        name = self.tab_names.get(key)
        if name is None:
            name = self.tab_names[key] = self.fresh("y")
            self.fn_tabs[name] = (p, x, size, count, body)
        return (f"    if {tab_flag(name)} and {p} >= 0 and {p} < {count}"
                f"{' and ' + test if test else ''}:\n"
                f"        return {name}[{idx}, {p}]{' != 0' if value == 'bool' else ''}\n")

    def share(self, fname: str, text: str) -> str:
        """Add the def `text` of `fname`, or, when an earlier def says the same under other
        names, use that one: a ruleset's function compiled at two places that read its names
        alike is one function of the kernel (a function of S, H and its arguments; its callees
        made first, and shared first, so the callers then read the same too)."""
        key = _canon(re.sub(rf"\b{fname}\b", "_self", text))
        got = self._shared.get(key)
        if got is not None:
            return got
        self._shared[key] = fname
        self.defs.append(text)
        return fname

    def table(self, values: list, prefix: str = "t") -> str:
        key = tuple(values)
        name = self._const_tables.get((prefix, key))
        if name is None:
            name = self._const_tables[(prefix, key)] = self.fresh(prefix)
            self.tables[name] = list(values)
        return name

    def attr_table(self, obj: ObjType, attr: str) -> str:
        key = (id(obj), attr)
        name = self._attr_tables.get(key)
        if name is None:
            size = self.domains.get(obj.name)
            if size is None:
                raise NotBatchable(f"attributes of {obj.name} have no kernel form")
            get = obj.attrs[attr].get
            name = self._attr_tables[key] = self.fresh("t")
            self.tables[name] = [self.symbols.code(get(i)) for i in range(size)]
        return name

    def slot(self) -> str:
        """A slot of S for a value its user sets where it is worked out (a kept part's value
        slot, whose flag is never read)."""
        return f"S[KEEP + {2 * self.keep_slot() + 1}]"

    def keep_slot(self) -> int:
        """A kept part's k (its flag S[KEEP + 2k], its value S[KEEP + 2k + 1]), for `kept`."""
        self.keeps += 1
        return self.keeps - 1

    def kept(self, src: str, k: int | None = None) -> str:
        """A part worked out once per pass (the first back end's hoisting, compiler.py): its
        value and a flag in S, the flag cleared by the loop before each pass (`k`: a slot
        keep_slot gave it first, else a new one). The same source kept by several rules (each
        declaration's `allow` asking `against_call(hand)`) is one slot: a pass clears every
        slot before it starts, and what a kept part reads stands still while the pass lasts."""
        if k is None:
            got = self._kept.get(src)
            if got is not None:
                return got
            k = self.keep_slot()
            read = self._kept[src] = self.kept(src, k)
            return read
        name = self.fresh("c")
        self.defs.append(f"def {name}(S, H):\n    if S[KEEP + {2 * k}]:\n"
                         f"        return S[KEEP + {2 * k + 1}]\n    v = {src}\n"
                         + self.keep(k, "v") + "    return v\n")
        # the flag is tested where the value is read: once kept, no call (a call passes the
        # state arrays, and costs their reference counts)
        return f"(S[KEEP + {2 * k + 1}] if S[KEEP + {2 * k}] else {name}(S, H))"

    @staticmethod
    def keep(k: int, v: str) -> str:
        """The lines that keep `v` as the kept part `k`: what its own function does once it has
        worked it out, for code that works it out on the way."""
        return f"    S[KEEP + {2 * k}] = 1\n    S[KEEP + {2 * k + 1}] = {v}\n"

    def hook(self, typed, path: tuple, hoist: bool = False) -> str:
        """The generated function `_hN(S, H)` of one compiled hook (expr.Typed); `hoist`: a
        per-piece rule, whose parts that read no per-piece name are kept for the pass."""
        try:
            gen = Gen(self, typed, {}, hoist)
            body = gen.expr(typed.root)
        except NotBatchable as e:
            raise NotBatchable(e.message, path) from None
        if str(gen.type_of(typed.root)) == "int":  # checked as the step engine checks it
            body = f"_bnd({body})"
        name = self.fresh("h")
        self.defs.append(f"def {name}(S, H):\n    return {body}\n")
        return name

    def user(self, func, name: str) -> str:
        """The generated function `_uN(S, H, params...)` of a ruleset's function. One that
        reads, itself or through the functions it calls, none of the names a hand's scoring
        changes between its calls (SCORING_ARGS) is kept while the hand is scored (S[MEMO_ON],
        set by the loop; its slots are zero from the hand's start): one of no parameters from its first call, one
        of number, symbol or truth parameters that loops (an aggregate, itself or in a function
        it calls) by its arguments, in MEMO_WAYS entries. A count's chain of functions (the
        points, whether the contract won, what is owed, a seat's holding) is then worked out
        once for all the payments of a hand, not once for each payer and payee."""
        got = self._user.get(id(func))
        if got is not None:
            return got
        typed = func.typed
        if typed is None:
            raise NotBatchable(f"the function {name}() has no kernel form")
        locals_ = {b: self.fresh("b") for b in typed.params}
        body = Gen(self, typed, locals_).expr(typed.root)
        fname = self._user[id(func)] = self.fresh("u")
        args = [locals_[b] for b in typed.params]
        params = "".join(", " + a for a in args)
        kept = not (reads(typed) & SCORING_ARGS) and (not args or (
            all(str(b.type) in KEYS for b in typed.params) and loops(typed)))
        if not kept:
            fname = self._user[id(func)] = self.share(
                fname, f"def {fname}(S, H{params}):\n"
                       f"{self.tabulated_function(typed, locals_, body)}    return {body}\n")
            return fname
        # one kept copy of a function that says the same at two places: its value is the same
        # while the hand is scored wherever it is asked for, so one entry serves both
        key = _canon(f"kept({params}): {body}")
        got = self._shared.get(key)
        if got is not None:
            self._user[id(func)] = got
            return got
        self._shared[key] = fname
        base = self.memos
        if not args:  # its flag and its value
            self.memos += 2
            self.defs.append(
                f"def {fname}(S, H):\n    if S[MEMO_ON] and S[MEMO + {base}]:\n"
                f"        return S[MEMO + {base + 1}]\n    v = {body}\n"
                f"    if S[MEMO_ON]:\n        S[MEMO + {base}] = 1\n"
                f"        S[MEMO + {base + 1}] = v\n    return v\n")
            return fname
        text, size = kept_by_arguments(fname, args, body, base, "1", "S[MEMO_ON]")
        self.memos += size
        self.defs.append(text)
        return fname


# a term of a count or sum over a mask that reads the state (or the actions) is not tabulated
_STATE = re.compile(r"\b(S|H|R|acts|n)\b")
# the most values of a tabulated term's outside variable (Gen.tabulated): a table of them all is
# TAB_DOMAIN x 8 x 256 int64s at most
TAB_DOMAIN = 16
# the domain (Unit.domains) of each type of outside variable a tabulated term may read
_TAB_KINDS = {"int": "number", "scalar": "number", "tile": "tile", "card": "card", "bool": "bool"}


def tab_flag(name: str) -> str:
    """The constant that says whether the table `name` of a tabulated term was made (1) or its
    term fails at build time and its loop is used instead (0): kernel.Builder._tabulate."""
    return f"{name[1:].upper()}_ON"


def tab_chunks(pieces: int) -> int:
    """How many bytes of a mask of `pieces` a tabulated term's table is looked up by (its rows
    of 256 sums each, Gen.tabulated and kernel.Builder._tabulate)."""
    return (pieces + 7) // 8


# a loop over a mask whose body calls nothing visits its set bits only when at most this many
# pieces may pass (mask_loop); a call in the body: a generated function or helper
SPARSE = 8
_CALLS = re.compile(r"\b_[a-z_]*\d*\(")
# any call at all in generated source (what is worked out before a loop calls nothing: known)
_CALLS_ANY = re.compile(r"\w\s*\(")
# the types of a kept function's parameters (each an int in the kernel) and its entries
KEYS = frozenset({"int", "bool", "symbol", "scalar"})
MEMO_WAYS = 8


def kept_by_arguments(fname: str, args: list[str], body: str, base: int, flag: str,
                      on: str | None = None) -> tuple[str, int]:
    """The def of a function `fname(S, H, *args)` returning `body`, kept by its arguments in
    MEMO_WAYS entries from S[MEMO + base], each its flag, the arguments and the value: an
    entry by the arguments' mix, found when its flag is `flag` (what a kept entry's flag is
    set to) and the arguments are the same; `on`, when given, a test without which nothing is
    kept or found. Its text and the slots it takes."""
    width = len(args) + 2
    mix = " + ".join(f"{2 * i + 1} * {a}" for i, a in enumerate(args))
    same = " and ".join(f"S[e + {i + 1}] == {a}" for i, a in enumerate(args))
    pad = "        " if on else "    "
    store = "".join(f"{pad}S[e + {i + 1}] = {a}\n" for i, a in enumerate(args))
    text = (f"def {fname}(S, H{''.join(', ' + a for a in args)}):\n"
            f"    e = MEMO + {base} + (({mix}) & {MEMO_WAYS - 1}) * {width}\n"
            f"    if {on + ' and ' if on else ''}S[e] == {flag} and {same}:\n"
            f"        return S[e + {width - 1}]\n"
            f"    v = {body}\n{'    if ' + on + ':' + chr(10) if on else ''}"
            f"{pad}S[e] = {flag}\n{store}{pad}S[e + {width - 1}] = v\n    return v\n")
    return text, MEMO_WAYS * width


def _bodies(typed):
    """A checked function body and those of the ruleset's functions it calls, each once."""
    seen, stack = set(), [typed]
    while stack:
        t = stack.pop()
        yield t
        for f in t.checked.funcs.values():
            if f.typed is not None and id(f) not in seen:
                seen.add(id(f))
                stack.append(f.typed)


def loops(typed) -> bool:
    """Whether a checked function body has an aggregate (each has its variable in `binders`),
    itself or in a ruleset's function it calls: what a kept entry saves."""
    return any(t.checked.binders for t in _bodies(typed))


# the names a hand's scoring changes between the calls of its hooks: the side scored, the payer
# and the payee of each payment (`made` is set by its first hook, which cannot read it, so no
# function it calls does); a function reading none of them returns the same while the hand is
# scored. The loop keeps nothing at any other time.
SCORING_ARGS = frozenset({"side", "payer", "payee"})
# the generated locals of a def (its parameters, a loop's mask and variable), for `share`
_LOCAL = re.compile(r"\b_[bm]\d+\b")


def _canon(text: str) -> str:
    """A def's text with its locals named by their order of appearance."""
    seen: dict[str, str] = {}
    return _LOCAL.sub(lambda m: seen.setdefault(m.group(0), f"_v{len(seen)}"), text)


def reads(typed) -> set:
    """The context fields a checked function body reads, itself or through the ruleset's
    functions it calls (a name the back end cannot place counts as every field)."""
    out: set = set()
    for t in _bodies(typed):
        for ref in t.checked.refs.values():
            if isinstance(ref, Binder) or getattr(ref, "is_const", False):
                continue
            field = getattr(ref, "field", None)
            if field is None:
                return set(SCORING_ARGS)
            out.add(field)
    return out


_OPS = {"+": "+", "-": "-", "*": "*", "//": "//", "%": "%", "==": "==", "!=": "!=", "<": "<",
        "<=": "<=", ">": ">", ">=": ">="}
# a comparison of a piece's attribute with a constant, worked out for every piece at build time
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


class Gen:
    """Source of one checked tree; `locals_` maps bound variables to their kernel locals."""

    def __init__(self, unit: Unit, typed, locals_: dict, hoist: bool = False):
        self.u = unit
        self.t = typed
        self.c = typed.checked
        self.comp = typed.compiler
        self.locals = dict(locals_)
        self.hoist = hoist
        self.inner = 0  # > 0 inside an aggregate's body: no hoisting there

    def type_of(self, node: n.Node):
        return self.c.types[id(node)]

    def const(self, node: n.Node):
        """The folded value of a node that needs nothing at run time, or NotBatchable."""
        code = self.comp.fold(node)
        if not code.is_const:
            raise NotBatchable("a constant part that fails when reached")
        return code.const

    def lit(self, v: Any) -> str:
        if isinstance(v, tuple):
            return self.u.table([self.u.symbols.code(x) for x in v])
        c = self.u.symbols.code(v)
        if type(v) is bool:
            return "True" if v else "False"
        return repr(c) if c >= 0 else f"({c!r})"

    def is_const(self, node: n.Node) -> bool:
        d = self.comp.deps(node)
        return not d.dyn and not d.free

    def expr(self, node: n.Node) -> str:
        """A value (int or bool) in source; a list is only an aggregate's or a call's argument."""
        if self.is_const(node):
            v = self.const(node)
            if isinstance(v, tuple):
                raise NotBatchable("a list where a value is expected")
            return self.lit(v)
        if isinstance(self.type_of(node), ListType) and not isinstance(node, n.Index):
            raise NotBatchable("a list where a value is expected")
        build = getattr(self, "v_" + type(node).__name__, self.unknown)
        if self.hoist and not self.inner and self.costly(node):
            d = self.comp.deps(node)
            if not d.item and not d.free:
                self.hoist = False  # its parts are worked out with it
                try:
                    return self.u.kept(build(node))
                finally:
                    self.hoist = True
        return build(node)

    def costly(self, node: n.Node) -> bool:
        """Worth keeping for a pass (as compiler.py judges): an aggregate, or a call that reads
        the context."""
        if isinstance(node, n.Aggregate):
            return True
        return isinstance(node, n.Call) and (self.comp.deps(node).agg
                                             or self.c.funcs[id(node)].needs_ctx)

    def unknown(self, node: n.Node) -> str:
        raise NotBatchable(f"{type(node).__name__.lower()} expressions have no kernel form")

    # -- lists: a mask of pieces, or a constant table ------------------------------------------

    def pieces(self, node: n.Node) -> str | None:
        """A list of pieces as the source of its mask, or None when it is another list."""
        t = self.type_of(node)
        if not (isinstance(t, ListType) and isinstance(t.elem, ObjType)
                and t.elem.name in ("tile", "card")):
            return None
        if isinstance(node, n.Name) and isinstance(self.c.refs[id(node)], Binder):
            local = self.locals.get(self.c.refs[id(node)])
            if local is not None:  # a parameter of a ruleset's function: a mask
                return local
        if isinstance(node, n.Call) and self.c.funcs[id(node)].typed is None:
            name = node.func.name
            if name == "stock_left":
                return "S[STOCKM]"
            if name in SEAT_LISTS:
                return f"S[{SEAT_LISTS[name]} + _seat({self.expr(node.args[0])})]"
        if isinstance(node, n.Name):
            ref = self.c.refs[id(node)]
            if not isinstance(ref, Binder) and not ref.is_const:
                f = ref.field
                if f == "hand":
                    return "H[S[ACTOR]]"
                if f == "trick":
                    return "S[TRICKM]"
                if f == "dealt":
                    return "_dealt(H)"
        if self.is_const(node):
            v = self.const(node)
            m = 0
            for p in v:
                m |= 1 << p
            return repr(m)
        raise NotBatchable("this list of pieces has no kernel form")

    def piece_test(self, node: n.Node, b) -> tuple[str | None, n.Node | None]:
        """Split an aggregate's test of its piece `b` into (the mask of the pieces that pass
        its leading part, the rest of the test or None): the leading part is the `and`s from
        the left that read nothing but the piece's own attributes and `has(piece, y)` of a `y`
        bound outside the aggregate or constant, worked out once for all pieces instead of
        once a piece (the rest is still tested, in order, on the pieces that pass)."""
        whole = self._piece_mask(node, b)
        if whole is not None:
            return whole, None
        if isinstance(node, n.Logic) and node.op == "and":
            left, rest = self.piece_test(node.left, b)
            if left is not None and rest is None:
                return left, node.right
        return None, node

    def _piece_mask(self, node: n.Node, b) -> str | None:
        size = self.u.domains.get("tile", 0)
        if self.is_const(node) and str(self.type_of(node)) == "bool":  # an option's flag
            return repr((1 << size) - 1) if self.const(node) else "0"
        guard = self.known(node, b) if str(self.type_of(node)) == "bool" else None
        if guard is not None:  # `trump != 'none'`: all the pieces or none, looked at once
            return f"({(1 << size) - 1} if {guard} else 0)"
        if isinstance(node, n.Call) and self.c.funcs[id(node)].typed is not None:
            # a ruleset's function of the piece and of values known before the loop
            # (`barred(t)`, `held(s, t)`): its body's mask, its other parameters those values
            typed = self.c.funcs[id(node)].typed
            locals_, piece = {}, None
            for param, arg in zip(typed.params, node.args):
                if self._bound(arg, b) and piece is None:
                    piece = locals_[param] = param
                elif self._outer(arg, b) and not isinstance(self.type_of(arg), ListType):
                    locals_[param] = self.expr(arg)
                else:
                    return None
            if piece is None:
                return None
            locals_[piece] = self.locals[b]
            return self.sub(typed, locals_)._piece_mask(typed.root, piece)
        if isinstance(node, n.IfElse) and self.is_const(node.cond):  # an option's choice
            return self._piece_mask(node.then if self.const(node.cond) else node.orelse, b)
        if isinstance(node, n.Compare) and node.op in ("in", "not in") and \
                self._bound(node.left, b) and b not in self.comp.deps(node.right).free:
            mask = self.pieces(node.right)  # `t in dealt_to(s)`: the list's own mask
            if mask is None or "_seat(" in mask:  # a seat out of range fails only if reached
                return None
            return mask if node.op == "in" else f"({(1 << size) - 1} & ~{mask})"
        if isinstance(node, n.Compare) and node.op == "==":  # `played_by(t) == s`
            for call, y in ((node.left, node.right), (node.right, node.left)):
                if isinstance(call, n.Call) and call.func.name == "played_by" and \
                        self.c.funcs[id(call)].typed is None and \
                        self._bound(call.args[0], b) and self._outer(y, b):
                    return self.played_mask(self.expr(y))
        if isinstance(node, n.Logic):
            left, right = self._piece_mask(node.left, b), self._piece_mask(node.right, b)
            if left is None or right is None:
                return None
            return f"({left} {'&' if node.op == 'and' else '|'} {right})"
        if isinstance(node, n.Unary) and node.op == "not":
            inner = self._piece_mask(node.operand, b)
            return None if inner is None else f"({(1 << size) - 1} & ~{inner})"
        if isinstance(node, n.Attr) and self._bound(node.obj, b) and \
                str(self.type_of(node)) == "bool":
            obj_t = self.type_of(node.obj)
            get = obj_t.attrs[node.name].get
            return repr(sum(1 << t for t in range(self.u.domains[obj_t.name]) if get(t)))
        if isinstance(node, n.Compare) and node.op in _COMPARE:
            return self._compare_mask(node, b)
        if isinstance(node, n.Call) and node.func.name == "has" and \
                self.c.funcs[id(node)].typed is None and self._bound(node.args[0], b):
            if self._outer(node.args[1], b):
                return f"_hasm({self.expr(node.args[1])})"
        return None

    def known(self, node: n.Node, b) -> str | None:
        """The source of a value that does not read the piece `b` and reads nothing that can
        fail: a constant, a variable bound outside the aggregate, one of the state's own slots
        (`trump`), or a comparison of those with `and`, `or`, `not`. Worked out once before an
        aggregate's loop, not once a piece. None for any other: whatever calls a function is
        looked at a piece at a time, in order, as the step engine does."""
        if b in self.comp.deps(node).free or not self._plain(node):
            return None
        src = self.expr(node)
        return None if _CALLS_ANY.search(src) else src

    def _plain(self, node: n.Node) -> bool:
        if self.is_const(node):
            return not isinstance(self.type_of(node), ListType)
        if isinstance(node, n.Logic):
            return self._plain(node.left) and self._plain(node.right)
        if isinstance(node, n.Unary) and node.op == "not":
            return self._plain(node.operand)
        if isinstance(node, n.Compare) and node.op in _COMPARE:
            return self._plain(node.left) and self._plain(node.right)
        return isinstance(node, n.Name) and not isinstance(self.type_of(node), ListType)

    def _compare_mask(self, node: n.Compare, b) -> str | None:
        """The mask of the pieces whose attribute compares so with a constant (`t.face == 'K'`,
        `5 <= t.count`): the pieces the kernel never looks at for it."""
        for attr, other, flip in ((node.left, node.right, False), (node.right, node.left, True)):
            if not (isinstance(attr, n.Attr) and self._bound(attr.obj, b)
                    and self.is_const(other)):
                continue
            obj_t = self.type_of(attr.obj)
            if not isinstance(obj_t, ObjType) or attr.name not in obj_t.attrs \
                    or obj_t.name not in self.u.domains:
                return None
            get, v, op = obj_t.attrs[attr.name].get, self.const(other), _COMPARE[node.op]
            try:
                return repr(sum(1 << t for t in range(self.u.domains[obj_t.name])
                                if (op(v, get(t)) if flip else op(get(t), v))))
            except TypeError:  # values that do not order (a symbol with None): looked at
                return None
        return None

    def sub(self, typed, locals_: dict) -> "Gen":
        """The generator of a called function's body, with the same names as this one's."""
        return Gen(self.u, typed, locals_)

    def played_mask(self, y: str) -> str | None:
        """The mask of the pieces seat `y` has played (the loop's, beside each piece's player),
        for `played_by(t) == y`; None where `played_by` is not the state's."""
        return f"_playedm(S, {y})"

    def _outer(self, node: n.Node, b) -> bool:
        """A constant, or a variable bound outside the aggregate over `b`: known before its
        loop, and worked out there without a failure the loop might not have reached."""
        ref = self.c.refs.get(id(node)) if isinstance(node, n.Name) else None
        return self.is_const(node) or (isinstance(ref, Binder) and ref is not b
                                       and ref in self.locals)

    def _bound(self, node: n.Node, b) -> bool:
        return isinstance(node, n.Name) and self.c.refs.get(id(node)) is b

    def loop(self, node: n.Node, var: str) -> tuple[str, tuple[str, str] | None]:
        """(the loop header over a list, for a list of pieces its mask: the local the header
        reads and the source it is set from first) for an aggregate's variable; a list of
        pieces has no header yet (mask_loop makes it, once the pieces its test passes are
        known)."""
        mask = self.pieces(node)
        if mask is not None:
            m = self.u.fresh("m")
            return None, (m, mask)  # the header by how many pieces pass (mask_loop)
        if isinstance(node, n.Name) and self.field(node) == "ends":
            return f"for {var} in range(S[NENDS]):", None
        if isinstance(node, n.Call) and node.func.name == "range" and \
                self.c.funcs[id(node)].impl is not None and len(node.args) == 2:
            return (f"for {var} in range({self.expr(node.args[0])}, {self.expr(node.args[1])}):",
                    None)
        if self.is_const(node):
            v = self.const(node)
            return f"for {var} in {self.lit(tuple(v))}:", None
        raise NotBatchable("an aggregate over a list built at run time")

    def mask_loop(self, var: str, m: str, node: n.Node, test: str | None, body: str) -> str:
        """The loop over a mask's pieces: its set bits only, lowest first (each cleared before
        the body, so a `continue` in it goes on to the next), unless many may pass and the body
        calls nothing: then every piece with a bit test, which numba makes branch-free (a count
        of 22 of 54 pieces took 4x as long bit by bit, 3 of 54 half as long; a body that calls
        a function is faster bit by bit even over most of the pieces)."""
        size = self.u.domains.get("tile", 64)
        if isinstance(node, n.Name):
            size = self.u.sizes.get(self.list_name(node), size)
        elif self.is_const(node):
            size = len(self.const(node))
        if test is not None and test.isdigit():
            size = min(size, bin(int(test)).count("1"))
        if size > SPARSE and not _CALLS.search(body):
            return f"for {var} in range(NP):\n        if not ({m} >> {var}) & 1:\n            continue"
        return f"while {m}:\n        {var} = _low({m})\n        {m} &= {m} - 1"

    def tabulated(self, var: str, m: str, b, cond: str | None, elem: str):
        """A count or a sum over a mask's pieces whose term (each piece's part: `elem`, when
        `cond`) reads nothing of the state, only the piece and at most one variable from
        outside of at most TAB_DOMAIN values (a number: the pips, 0 to the highest end; a
        piece of a small set; a truth): (the test that the variable is in the domain, the
        value as look-ups of the mask's bytes in a table of each byte's sum, made at build
        time from Unit.tabs by kernel.py's Builder._tabulate); None for any other. A strategy's `strength(x)`, a sum over the hand of
        what each piece showing x adds, is then three or four look-ups, not a loop with a
        branch for each piece."""
        term = elem if cond is None else f"(({elem}) if ({cond}) else 0)"
        if _STATE.search(term):
            return None
        outer = [(k, v) for k, v in self.locals.items()
                 if k is not b and re.search(rf"\b{v}\b", term)]
        if len(outer) > 1:
            return None
        size, x, idx, test = 1, None, "0", ""  # no variable: one row
        if outer:
            got = self.u.row(outer[0][0], outer[0][1])
            if got is None:
                return None
            (size, idx, test), x = got, outer[0][1]
        # one table for the same term (its locals named by their order) over the same domain
        key = (size, _canon(f"{var} {x}: {term}"))
        name = self.u.tab_names.get(key)
        if name is None:
            name = self.u.tab_names[key] = self.u.fresh("x")
            self.u.tabs[name] = (var, x, size, term)
        chunks = tab_chunks(self.u.domains.get("tile", 0))
        look = " + ".join(f"{name}[{idx}, {c}, ({m} >> {8 * c}) & 255]" for c in range(chunks))
        # the table's flag (tab_flag): 0 when its term fails for some piece or value, so the
        # loop below works it out wherever the table is read
        return f"{tab_flag(name)} and {test}" if test else tab_flag(name), look or "0"

    def list_name(self, node: n.Name) -> str | None:
        """The name of the list of pieces a name reads (`hand`, `trick`), for its size."""
        return self.field(node)

    def field(self, node: n.Name) -> str | None:
        """The context field a name reads (None: a bound variable or a constant)."""
        ref = self.c.refs[id(node)]
        if isinstance(ref, Binder) or ref.is_const:
            return None
        return ref.field

    # -- leaves -----------------------------------------------------------------------------

    def v_Name(self, node: n.Name) -> str:
        ref = self.c.refs[id(node)]
        if isinstance(ref, Binder):
            return self.locals[ref]
        f = ref.field
        if f in SCALAR_FIELDS:
            return f"S[{f.upper()}]"
        if f.startswith("decl:"):
            return f"S[DECL + {int(f[5:])}]"
        if f == "leading":
            return "(S[TRICKN] == 0)"
        if f in LAYOUT_NAMES:
            return LAYOUT_NAMES[f]
        raise NotBatchable(f"the name '{node.name}' has no kernel form")

    def v_Attr(self, node: n.Attr) -> str:
        obj_t = self.type_of(node.obj)
        if not isinstance(obj_t, ObjType):
            raise NotBatchable(f"the attribute '{node.name}' has no kernel form")
        if obj_t.name == "end" and node.name in END_ATTRS:
            return END_ATTRS[node.name].format(self.expr(node.obj))
        table = self.u.attr_table(obj_t, node.name)
        src = f"{table}[{self.expr(node.obj)}]"
        if str(self.type_of(node)) == "bool":
            return f"({src} != 0)"
        return src

    def arg(self, node: n.Node) -> str:
        """An argument of a ruleset's function: a value, or a list of pieces as its mask."""
        if isinstance(self.type_of(node), ListType):
            mask = self.pieces(node)
            if mask is None:
                raise NotBatchable("a list argument that is not of pieces")
            return mask
        return self.expr(node)

    def passed(self, node: n.Node, src: str) -> str:
        """An argument as a ruleset's function is called with it: a constant gets its plain type
        (numba compiles a function called with a literal once for each literal it is given: one
        function of a shipped ruleset six times)."""
        if not self.is_const(node):
            return src
        return f"bool({src})" if str(self.type_of(node)) == "bool" else f"np.int64({src})"

    def v_Index(self, node: n.Index) -> str:
        if not self.is_const(node.obj):
            raise NotBatchable("an index into a list built at run time")
        return f"_ix({self.lit(tuple(self.const(node.obj)))}, {self.expr(node.index)})"

    def v_Call(self, node: n.Call) -> str:
        func = self.c.funcs[id(node)]
        name = node.func.name
        if func.typed is not None:  # a ruleset's function
            fname = self.u.user(func, name)
            return f"{fname}(S, H{''.join(', ' + self.passed(a, self.arg(a)) for a in node.args)})"
        args = node.args
        if name in SIDE_FUNCS:
            return f"S[{SIDE_FUNCS[name]} + _side({self.expr(args[0])})]"
        if name in TABLE_FUNCS:
            return f"{TABLE_FUNCS[name]}[_seat({self.expr(args[0])})]"
        if name in ("has", "other"):
            return f"_{name}({self.expr(args[0])}, {self.expr(args[1])})"
        if name == "piece":
            return f"_piece({self.expr(args[0])}, {self.expr(args[1])})"
        if name == "pips_left":
            return f"_pips_left(H, _side({self.expr(args[0])}))"
        if name == "holder":
            return f"_holder(H, {self.expr(args[0])})"
        if name in PIECE_FUNCS:
            return f"S[{PIECE_FUNCS[name]} + {self.expr(args[0])}]"
        if name == "chips":
            return f"S[CHIPS + _seat({self.expr(args[0])})]"
        if name == "card":
            for a in args:
                if str(self.type_of(a)) == "int":
                    raise NotBatchable("card() of a number has no kernel form")
            return f"_card({self.expr(args[0])}, {self.expr(args[1])})"
        if name == "abs":
            return f"abs({self.expr(args[0])})"
        if name in ("min", "max"):
            return f"{name}({', '.join(self.expr(a) for a in args)})"
        if name == "len":
            mask = self.pieces(args[0])
            if mask is None:
                raise NotBatchable("len() of a list that is not of pieces")
            return f"_popcount({mask})"
        raise NotBatchable(f"the function {name}() has no kernel form")

    # -- operators --------------------------------------------------------------------------

    def v_Unary(self, node: n.Unary) -> str:
        x = self.expr(node.operand)
        return f"(-{x})" if node.op == "-" else f"(not {x})"

    def v_Binary(self, node: n.Binary) -> str:
        return f"({self.expr(node.left)} {_OPS[node.op]} {self.expr(node.right)})"

    def v_Compare(self, node: n.Compare) -> str:
        if node.op in ("in", "not in"):
            x = self.expr(node.left)
            mask = self.pieces(node.right)
            if mask is not None:
                test = f"((({mask}) >> {x}) & 1 == 1)"
            elif self.is_const(node.right):
                test = f"_in({x}, {self.lit(tuple(self.const(node.right)))})"
            elif isinstance(node.right, n.ListLit):
                test = self.among(x, node.right)
            else:
                raise NotBatchable("'in' a list built at run time")
            return test if node.op == "in" else f"(not {test})"
        if isinstance(self.type_of(node.left), ListType):
            raise NotBatchable("comparing lists")
        return f"({self.expr(node.left)} {_OPS[node.op]} {self.expr(node.right)})"

    def among(self, x: str, node: n.ListLit) -> str:
        """`x in [a, b, ...]` over values worked out at run time: every item, then the test."""
        items = [self.expr(i) for i in node.items]
        params = "".join(", " + v for v in self.locals.values())
        fname = self.u.fresh("l")
        lines = [f"def {fname}(S, H, _w0{params}):"]
        lines += [f"    _i{k} = {src}" for k, src in enumerate(items)]
        lines.append("    return " + (" or ".join(f"_w0 == _i{k}" for k in range(len(items)))
                                      or "False"))
        fname = self.u.share(fname, "\n".join(lines) + "\n")
        return f"{fname}(S, H, {x}{params})"

    def v_Logic(self, node: n.Logic) -> str:
        return f"({self.expr(node.left)} {node.op} {self.expr(node.right)})"

    def v_IfElse(self, node: n.IfElse) -> str:
        if self.is_const(node.cond):
            return self.expr(node.then if self.const(node.cond) else node.orelse)
        return f"({self.expr(node.then)} if {self.expr(node.cond)} else {self.expr(node.orelse)})"

    # -- aggregates: each a generated function with a loop ----------------------------------

    def v_Aggregate(self, node: n.Aggregate) -> str:
        kind = node.func.name
        b = self.c.binders[id(node)]
        var = self.locals[b] = self.u.fresh("b")
        free = [v for k, v in self.locals.items() if k is not b]
        header, mask = self.loop(node.iter, var)
        self.inner += 1
        try:
            test, rest, whole = None, node.cond, None
            if mask is not None and rest is not None:  # the pieces failing it never looked at
                test, rest = self.piece_test(rest, b)
            elif mask is not None and kind in ("any", "all"):  # a test of the piece alone
                whole, left = self.piece_test(node.elem, b)
                if left is not None:
                    whole = None
            cond = None if rest is None else self.expr(rest)
            elem = None if node.elem is None or whole is not None else self.expr(node.elem)
        finally:
            self.inner -= 1
        dflt = None if node.default is None else self.expr(node.default)
        fname = self.u.fresh("a")
        params = "".join(", " + v for v in free)
        lines = [f"def {fname}(S, H{params}):"]
        if mask is not None:
            m, src = mask
            lines.append(f"    {m} = {src}" if test is None else f"    {m} = ({src}) & {test}")
        acc = {"sum": "0", "count": "0", "any": "False", "all": "True"}.get(kind, "0")
        if whole is not None or (kind == "count" and cond is None and test is not None):
            lines.append(f"    return _popcount({m})" if whole is None
                         else f"    return ({m} & {whole}) != 0" if kind == "any"
                         else f"    return ({m} & {whole}) == {m}")
            fname = self.u.share(fname, "\n".join(lines) + "\n")
            del self.locals[b]
            return f"{fname}(S, H{params})"
        if header is None:
            header = self.mask_loop(var, mask[0], node.iter, test,
                                    " ".join(filter(None, (cond, elem))))
        if mask is not None and kind in ("sum", "count"):
            looked = self.tabulated(var, mask[0], b, cond, "1" if kind == "count" else elem)
            if looked is not None:  # the loop below only for an argument outside the table
                lines += [f"    if {looked[0]}:", f"        return {looked[1]}"]
        lines += [f"    acc = {acc}", "    found = False", f"    {header}"]
        ind = "        "
        if cond is not None:
            lines += [f"{ind}if not ({cond}):", f"{ind}    continue"]
        if kind == "count":
            lines.append(f"{ind}acc += 1")
        elif kind == "sum":
            lines.append(f"{ind}acc += {elem}")
        elif kind == "any":
            lines += [f"{ind}if {elem}:", f"{ind}    return True"]
        elif kind == "all":
            lines += [f"{ind}if not ({elem}):", f"{ind}    return False"]
        else:
            better = "<" if kind == "min" else ">"
            lines += [f"{ind}v = {elem}", f"{ind}if not found or v {better} acc:",
                      f"{ind}    acc = v", f"{ind}    found = True"]
        if kind in ("min", "max"):
            if dflt is not None:
                lines += ["    if not found:", f"        return {dflt}"]
            else:
                lines += ["    if not found:", f"        raise ValueError('{kind}() of an empty "
                                                 f"collection')"]
        lines.append("    return acc")
        fname = self.u.share(fname, "\n".join(lines) + "\n")
        del self.locals[b]
        return f"{fname}(S, H{params})"


# every generated function but the loop is inlined into it at numba's level (kernel._decorated)
INLINE = "@njit(cache=True, inline='always')\n"


# the arrays a generated function may be given, each one-dimensional: the state, the hands, the
# run's generator, the decision's legal actions
ARRAYS = frozenset({"S", "H", "R", "acts"})
_HEAD = re.compile(r"def (\w+)\(([^)]*)\):\n")


def on_its_own(d: str) -> str:
    """The generated def `d` compiled on its own, not inlined, and given its arrays as pointers
    (native.ptr): numba passes an array to such a function as seven values on the stack (its
    data, shape, strides and more), so an inlined function of the same name passes `ptr` of
    each to the body, named `<name>_at`, which indexes the pointers as it did the arrays. The
    arrays' fields at each call took about a tenth of a hand of the shipped card game's random
    play and of each shipped strategy's (docs/speed.md)."""
    m = _HEAD.match(d)
    params = [p.strip() for p in m[2].split(",")]
    if not ARRAYS.intersection(params):
        return "@njit(cache=True)\n" + d
    call = ", ".join(f"ptr({p})" if p in ARRAYS else p for p in params)
    return (f"{INLINE}def {m[1]}({m[2]}):\n    return {m[1]}_at({call})\n\n\n"
            f"@njit(cache=True)\ndef {m[1]}_at({m[2]}):\n" + d[m.end():])
