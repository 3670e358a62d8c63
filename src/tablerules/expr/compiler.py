"""Checked AST to the source of one Python function, built once; constant parts are folded."""

# Code generation: every checked node becomes a Python expression, and each compiled expression
# (or user-defined function body) one function `def _e(a): return ...`, compiled with compile()
# and run in a namespace holding only what the source refers to. The source is made from the
# checked tree alone, never from the user's text: names of the vocabulary are objects in the
# namespace under generated identifiers (`_v0(a)` a variable's getter, `_g1(x)` an attribute's,
# `_f2(...)` a function, `_k3` a constant such as a symbol or a tuple), bound variables are
# Python locals `_b4`, ints and booleans are `repr` literals, operators come from fixed tables.
# The namespace's builtins are empty, so the source can reach nothing else.
#
# `a` is the evaluation context; an aggregate is a comprehension whose variable is a local, so
# evaluation is re-entrant and thread-safe with no frame of our own. The mode a node is compiled
# in only says where it stands: CTX at the top (no bound variable in scope), INNER in an
# aggregate's body or filter or a user function's body.
#
# Hoisting: where the caller evaluates one expression many times in a pass, changing only some
# names between calls (`play.legal` for each piece of a hand, with `tile`; a strategy's `choose`
# for each legal action, with `a`), a costly part that reads none of them (an aggregate, a call
# reading the context) is computed at its first use in the pass and kept in the context's
# `memo` dict for the rest of it; the caller makes `memo` a fresh dict for each pass, and None
# outside one (then nothing is kept). A kept part is a function of its own, `_keep(a, _h5)`.
#
# A GameError without a span raised by a function is given the span of the call (`_relocated`):
# the generated function catches it once (a try costs nothing until it raises) and finds the
# call from the traceback, the source position of the innermost call it was raised within.

from __future__ import annotations

import ast
import itertools
import operator
import re
import threading
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, Callable

from ..errors import UNKNOWN, ExprError, GameError
from . import nodes as n
from .checker import Binder, Checked
from .parser import Locator
from .types import INT_LIMIT


class _NotConst:
    """Marks a value that is not known at compile time."""

    def __repr__(self) -> str:
        return "NOT_CONST"


NOT_CONST: Any = _NotConst()
_EMPTY = object()


def const_fn(value: Any) -> Callable[[Any], Any]:
    """A closure returning `value` whatever the context."""
    return lambda _: value


def normalize(value: Any) -> Any:
    """Runtime representation of a constant: lists become tuples."""
    if isinstance(value, (list, tuple)):
        return tuple(normalize(v) for v in value)
    return value


class Code:
    """A compiled node: a constant, or the source of a Python expression over `a` and locals."""

    __slots__ = ("src", "const")

    def __init__(self, src: str | None = None, const: Any = NOT_CONST):
        self.src = src
        self.const = const

    @property
    def is_const(self) -> bool:
        return self.src is None


@dataclass(frozen=True)
class Deps:
    """What a node needs at run time."""

    ctx: bool = False  # reads the evaluation context (a variable, a ctx function)
    dyn: bool = False  # cannot be computed at compile time
    free: frozenset = frozenset()  # bound variables it reads that it does not bind itself
    agg: bool = False  # contains an aggregate evaluated at run time
    item: bool = False  # reads a per-item name (Env.per_item), directly or through a function

    def __or__(self, o: "Deps") -> "Deps":
        return Deps(self.ctx or o.ctx, self.dyn or o.dyn, self.free | o.free, self.agg or o.agg,
                    self.item or o.item)


_NONE = Deps()

CTX = "ctx"
INNER = "inner"


def _relocated(e: GameError, span) -> GameError:
    """Give a span-less GameError raised by a function the span of its call."""
    if e.span == UNKNOWN:
        return GameError(e.message, span, suggestion=e.suggestion)
    return e


# -- run-time helpers, in every namespace under these fixed names ------------------------------

def _index(xs, i, span):
    if 0 <= i < len(xs):  # never from the end: -1 is a mistake, not the last
        return xs[i]
    raise GameError(f"index {i} is outside a list of {len(xs)} "
                    f"(indexes are 0..{len(xs) - 1})", span)


def _floordiv(x, y, span):
    try:
        return x // y
    except ZeroDivisionError:
        raise GameError("division by zero", span) from None


def _mod(x, y, span):
    try:
        return x % y
    except ZeroDivisionError:
        raise GameError("modulo by zero", span) from None


def _raise(message, span):
    raise GameError(message, span)


def _too_big(v: int) -> str:
    return (f"the value ({'-' if v < 0 else ''}an integer of {v.bit_length()} bits) is beyond the "
            f"integer bound: every int is between -2**53 and 2**53")


def _out_of_bound(v, span):
    return GameError(_too_big(v), span)


def _keep(a, f):
    """`f(a)` computed once per pass: kept in the context's `memo` (None: no pass, no keeping)."""
    memo = a.memo
    if memo is None:
        return f(a)
    v = memo.get(f, _EMPTY)  # the part's own function is its key
    if v is _EMPTY:
        v = memo[f] = f(a)
    return v


def _memo_of(a):
    """The context's memo (None outside a pass; a compile-time context has none)."""
    return getattr(a, "memo", None)


_HELPERS = {"_sum": sum, "_min": min, "_max": max, "_any": any, "_all": all, "_len": len,
            "_map": map, "_ix": _index, "_fdiv": _floordiv, "_fmod": _mod, "_raise": _raise,
            "_keep": _keep, "_GE": GameError, "_oob": _out_of_bound, "_memo_of": _memo_of,
            "_NO": _EMPTY, "_TE": TypeError}

# Python's spelling of each operator, and its function for folding constants.
_PY = {"+": "+", "-": "-", "*": "*", "==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">",
       ">=": ">=", "in": "in", "not in": "not in", "//": "//", "%": "%"}
_FOLD: dict[str, Callable] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "==": operator.eq,
    "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "in": lambda x, c: x in c, "not in": lambda x, c: x not in c}
_DIVISION = {"//": (operator.floordiv, "division by zero", "_fdiv"),
             "%": (operator.mod, "modulo by zero", "_fmod")}
# each binary operator's Python function, division's included (what a reader of checked trees
# that works values out itself applies: agents/strategy.bids_chosen)
OPERATORS: dict[str, Callable] = {**_FOLD, **{k: f for k, (f, _, _) in _DIVISION.items()}}
_AGG = {"sum": "_sum", "min": "_min", "max": "_max", "any": "_any", "all": "_all",
        "count": "_len"}
_MODULES = itertools.count()


def _relocate(filename: str, sites: tuple, e: GameError) -> GameError:
    """`e` with the span of the innermost call of this module it was raised within."""
    if e.span != UNKNOWN:
        return e
    tb, last = e.__traceback__, None
    while tb is not None:  # the deepest frame running this module's code
        if tb.tb_frame.f_code.co_filename == filename:
            last = tb
        tb = tb.tb_next
    if last is None:
        return e
    pos = next(itertools.islice(last.tb_frame.f_code.co_positions(), last.tb_lasti // 2, None),
               None)
    if pos is None or None in pos:
        return e
    start, end = (pos[0], pos[2]), (pos[1], pos[3])
    best = None
    for s0, s1, span in sites:  # calls nest or are apart: the latest start is the innermost
        if s0 <= start and end <= s1 and (best is None or s0 > best[0]):
            best = (s0, span)
    return e if best is None else _relocated(e, best[1])


# What generated source may hold: its own identifiers (`a`, the helpers, `_v0`, `_b1`, ...), the
# one method it calls (the memo's `get`), and int, bool and None literals. Checked on the parsed
# source before it is compiled, so that no text of a ruleset can reach `exec`, whatever the
# generator above does.
# CPython's parser keeps a recursion count that two threads parsing at once can upset (a
# SystemError); a Dask worker loads games on several threads, so one parse at a time
_PARSING = threading.Lock()
# exactly the generator's names: the context `a`, the function and its locals, the helpers,
# and the numbered names of objects, locals and kept parts
_OWN_NAME = re.compile("|".join(["a", "_[ermqx]", "_reloc", r"_[vgfkbh]\d+", *_HELPERS]))
_OWN_ATTRS = frozenset({"get"})


def _only_generated(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            ok = _OWN_NAME.fullmatch(node.id) is not None
        elif isinstance(node, (ast.FunctionDef, ast.arg)):
            ok = _OWN_NAME.fullmatch(node.name if isinstance(node, ast.FunctionDef)
                                     else node.arg) is not None
        elif isinstance(node, ast.Attribute):
            ok = node.attr in _OWN_ATTRS
        elif isinstance(node, ast.Constant):
            ok = node.value is None or type(node.value) in (int, bool)
        else:
            ok = not isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal,
                                       ast.JoinedStr, ast.Lambda, ast.ClassDef))
        if not ok:  # a defect of the generator, never a user error
            raise RuntimeError(f"generated expression source holds {ast.dump(node)[:80]}")


@lru_cache(maxsize=8192)
def _code(source: str) -> tuple[str, Any, tuple]:
    """Generated source compiled once (a game loaded again, or another game with the same
    expression, reuses it): its file name, its code, and the source span and name of each call
    of a function. The same source always makes the same code, so sharing it is safe: the
    namespace it runs in (and the spans of its calls) stay each function's own."""
    filename = f"<tablerules expression {next(_MODULES)}>"
    try:
        with _PARSING:
            tree = ast.parse(source, filename)
        _only_generated(tree)
        with _PARSING:
            code = compile(tree, filename, "exec")
    except (SyntaxError, MemoryError):  # too many nested parentheses for Python
        raise RecursionError from None
    sites = tuple(((c.lineno, c.col_offset), (c.end_lineno, c.end_col_offset), c.func.id)
                  for c in ast.walk(tree) if isinstance(c, ast.Call)
                  and isinstance(c.func, ast.Name))
    return filename, code, sites


class Unit:
    """One generated module: its namespace (generated names only) and its kept parts."""

    def __init__(self):
        self.ns: dict[str, Any] = {"__builtins__": {}, **_HELPERS}
        self._shared: dict[tuple, str] = {}
        self._count = itertools.count()
        self.defs: list[str] = []  # the kept parts, each `def _hN(a): ...`
        self.calls: dict[str, Any] = {}  # a call site's own name -> the span of the call
        self.source = ""  # the last module built

    def name(self, prefix: str, obj: Any, share: bool = True) -> str:
        """A generated identifier for `obj` in the namespace (one per object when shared)."""
        key = (prefix, id(obj))
        if share and key in self._shared:
            return self._shared[key]
        name = f"_{prefix}{next(self._count)}"
        self.ns[name] = obj  # kept alive here, so its id is not reused
        if share:
            self._shared[key] = name
        return name

    def local(self) -> str:
        return f"_b{next(self._count)}"

    def call(self, impl: Any, span) -> str:
        """A name of its own for one call site, so that errors find their call."""
        name = self.name("f", impl, share=False)
        self.calls[name] = span
        return name

    def lit(self, value: Any) -> str:
        """A constant in source: an int or a bool as its repr, anything else from the namespace."""
        if type(value) is int:
            return repr(value) if value >= 0 else f"({value!r})"
        if type(value) is bool:
            return repr(value)
        return self.name("k", value)

    def kept(self, src: str) -> str:
        """A kept part as a function of its own; its use is `_keep(a, _hN)`."""
        name = f"_h{next(self._count)}"
        self.defs.append(f"def {name}(a):\n    return {src}\n")
        return f"_keep(a, {name})"

    def function(self, src: str, params: str = "a", bound=None, defs: bool = True,
                 kept: bool = False) -> Callable:
        """The function returning `src`, compiled; `bound`: the span of the int bound check;
        `kept`: each call worked out once per pass and arguments (a user function, see
        `define_function`), with the context's `memo` (a compile-time context has none)."""
        body = f"_r = {src}" if bound is not None or kept else f"return {src}"
        lines = [*(self.defs if defs else ()), f"def _e({params}):"]
        if kept:
            key = self.name("k", object())
            args = "".join(p + ", " for p in params.split(", ")[1:])
            lines += ["    _m = _memo_of(a)", "    if _m is not None:",
                      f"        _q = ({key}, {args})", "        try:",
                      "            _r = _m.get(_q, _NO)", "        except _TE:",
                      "            _m = None",
                      "        else:", "            if _r is not _NO:", "                return _r"]
        if self.calls:
            lines += ["    try:", f"        {body}", "    except _GE as _x:",
                      "        raise _reloc(_x) from None"]
        else:
            lines.append(f"    {body}")
        if bound is not None:
            lines += [f"    if {-INT_LIMIT} <= _r <= {INT_LIMIT}:", "        return _r",
                      f"    raise _oob(_r, {self.name('k', bound)})"]
        if kept:
            lines += ["    if _m is not None:", "        _m[_q] = _r", "    return _r"]
        source = "\n".join(lines) + "\n"
        filename, code, sites = _code(source)
        sites = tuple((s0, s1, self.calls[name]) for s0, s1, name in sites if name in self.calls)
        ns = {**self.ns, "_reloc": partial(_relocate, filename, sites)}
        exec(code, ns)  # generated from the checked tree only (see the header)
        self.source = source
        return ns["_e"]


class Compiler:
    """Compiles one checked tree; `comp(node, mode)` is the entry point."""

    def __init__(self, checked: Checked, loc: Locator, per_item: frozenset = frozenset(),
                 hoist: bool = False):
        self.c = checked
        self.loc = loc
        self._deps: dict[int, Deps] = {}
        self.guard = 0  # > 0 while compiling a part that is evaluated only conditionally
        self.per_item = per_item  # the names that change within a pass (Env.per_item)
        self.hoist = hoist and bool(per_item)  # keep the parts that read none of them (memo)
        self.unit = Unit()
        self.locals: dict[Binder, str] = {}  # bound variable -> its Python local

    def err(self, node: n.Node, message: str) -> ExprError:
        return self.loc.error(message, node.offset, node.length)

    # -- analysis ------------------------------------------------------------------------

    def deps(self, node: n.Node) -> Deps:
        """What `node` needs at run time (memoized)."""
        d = self._deps.get(id(node))
        if d is not None:
            return d
        d = _NONE
        for child in node.children():
            if not (isinstance(node, (n.Call, n.Aggregate)) and child is node.func):
                d = d | self.deps(child)
        if isinstance(node, n.Name):
            ref = self.c.refs[id(node)]
            if isinstance(ref, Binder):
                d = Deps(free=frozenset([ref]))
            elif not ref.is_const:
                d = Deps(ctx=True, dyn=True, item=node.name in self.per_item)
        elif isinstance(node, n.Call):
            f = self.c.funcs[id(node)]
            d = d | Deps(ctx=f.needs_ctx, dyn=not f.pure, item=f.reads_item)
        elif isinstance(node, n.Aggregate):
            b = self.c.binders[id(node)]
            d = Deps(d.ctx, d.dyn, d.free - {b}, True, d.item)
        if not d.dyn and not d.free:
            d = _NONE  # it will be folded, so it needs nothing at run time
        self._deps[id(node)] = d
        return d

    # -- driver --------------------------------------------------------------------------

    def comp(self, node: n.Node, mode) -> Code:
        """Compile `node` in `mode`, folding it if it needs nothing at run time."""
        d = self.deps(node)
        if not d.dyn and not d.free:
            return self.fold(node)
        if self.hoist and mode is CTX and not d.item and self._costly(node, d):
            self.hoist = False  # its parts are computed with it, once
            try:
                code = getattr(self, "build_" + type(node).__name__)(node, mode)
            finally:
                self.hoist = True
            return Code(self.unit.kept(self.src(code)))
        return getattr(self, "build_" + type(node).__name__)(node, mode)

    def _costly(self, node: n.Node, d: Deps) -> bool:
        """Worth keeping for a pass: an aggregate, or a call that reads the context."""
        if isinstance(node, n.Aggregate):
            return True
        return isinstance(node, n.Call) and (d.agg or self.c.funcs[id(node)].needs_ctx)

    def guarded(self, node: n.Node, mode) -> Code:
        """Compile a part evaluated only under a condition (a branch, a filter, ...)."""
        self.guard += 1
        try:
            return self.comp(node, mode)
        finally:
            self.guard -= 1

    def src(self, code: Code) -> str:
        return self.unit.lit(code.const) if code.is_const else code.src

    def fail(self, node: n.Node, message: str, span=None) -> Code:
        """A constant part that cannot be computed: an error now, or when reached if guarded."""
        # Always evaluated, the expression can never work; but a branch or filter may never
        # be reached (`n == 0 or 10 // n > 1` with `n` an option), so it fails only then.
        span = span or self.loc.node(node)
        if not self.guard:
            raise ExprError(message, span)
        return Code(f"_raise({self.unit.name('k', message)}, {self.unit.name('k', span)})")

    def attempt(self, node: n.Node, compute: Callable[[], Any]) -> Code:
        """A constant worked out now; failing, a `fail` of `node`."""
        try:
            return Code(const=compute())
        except GameError as e:
            return self.fail(node, e.message, None if e.span == UNKNOWN else e.span)
        except RecursionError:
            raise self.err(node, "expression is nested too deeply") from None
        except Exception as e:  # a vocabulary function failing on constant arguments
            return self.fail(node, f"evaluating this constant failed: {type(e).__name__}: {e}")

    def folded(self, node: n.Node, *parts: Code) -> bool:
        """Whether `node` is being folded and its parts are constants: worked out now. (A node
        that reads something keeps its code even when its parts became constants, as a part
        that may fail stays source; `fold` runs what is left.)"""
        d = self.deps(node)
        return not d.dyn and not d.free and all(p.is_const for p in parts)

    def fold(self, node: n.Node) -> Code:
        """Evaluate a constant node now."""
        code = getattr(self, "build_" + type(node).__name__)(node, CTX)
        if code.is_const:
            return code
        # an aggregate over constants, or a guarded part that fails: run its source once
        return self.attempt(node, lambda: self.unit.function(code.src, defs=False)(None))

    # -- leaves --------------------------------------------------------------------------

    def build_IntLit(self, node: n.IntLit, mode) -> Code:
        return Code(const=node.value)

    build_BoolLit = build_SymLit = build_IntLit

    def build_ListLit(self, node: n.ListLit, mode) -> Code:
        codes = [self.comp(i, mode) for i in node.items]
        if all(c.is_const for c in codes):
            return Code(const=tuple(c.const for c in codes))
        return Code("(" + "".join(self.src(c) + ", " for c in codes) + ")")

    def build_Name(self, node: n.Name, mode) -> Code:
        ref = self.c.refs[id(node)]
        if isinstance(ref, Binder):
            return Code(self.locals[ref])
        var = ref
        if var.is_const:
            return Code(const=normalize(var.const))
        get = var.get
        if get is None:  # a vocabulary declared for checking only: fail if ever run
            get = _no_getter(node.name)
        return Code(f"{self.unit.name('v', get)}(a)")

    def build_Index(self, node: n.Index, mode) -> Code:
        obj, idx = self.comp(node.obj, mode), self.comp(node.index, mode)
        span = self.loc.node(node)
        if self.folded(node, obj, idx):
            return self.attempt(node, lambda: _index(obj.const, idx.const, span))
        return Code(f"_ix({self.src(obj)}, {self.src(idx)}, {self.unit.name('k', span)})")

    def build_Attr(self, node: n.Attr, mode) -> Code:
        get = self.c.types[id(node.obj)].attrs[node.name].get
        obj = self.comp(node.obj, mode)
        if self.folded(node, obj):
            return self.attempt(node, lambda: get(obj.const))
        return Code(f"{self.unit.name('g', get)}({self.src(obj)})")

    def build_Call(self, node: n.Call, mode) -> Code:
        func = self.c.funcs[id(node)]
        impl = func.impl
        args = [self.comp(a, mode) for a in node.args]
        if self.folded(node, *args):
            values = [c.const for c in args]
            if func.needs_ctx:  # no context at compile time
                return self.attempt(node, lambda: impl(None, *values))
            return self.attempt(node, lambda: impl(*values))
        parts = ["a"] if func.needs_ctx else []
        parts += [self.src(c) for c in args]
        return Code(f"{self.unit.call(impl, self.loc.node(node))}({', '.join(parts)})")

    # -- operators -----------------------------------------------------------------------

    def build_Unary(self, node: n.Unary, mode) -> Code:
        code = self.comp(node.operand, mode)
        if code.is_const:
            return Code(const=(-code.const if node.op == "-" else not code.const))
        return Code(f"(-{code.src})" if node.op == "-" else f"(not {code.src})")

    def _binary(self, node, mode, op: str) -> Code:
        l, r = self.comp(node.left, mode), self.comp(node.right, mode)
        if self.folded(node, l, r):
            return self.attempt(node, lambda: _FOLD[op](l.const, r.const))
        right = self.src(r)
        if r.is_const and op in ("in", "not in"):
            right = self.unit.lit(_fast_container(r.const))
        return Code(f"({self.src(l)} {_PY[op]} {right})")

    def build_Binary(self, node: n.Binary, mode) -> Code:
        if node.op not in _DIVISION:
            return self._binary(node, mode, node.op)
        op, message, helper = _DIVISION[node.op]
        l, r = self.comp(node.left, mode), self.comp(node.right, mode)
        if r.is_const and r.const == 0:
            return self.fail(node.right, message)
        if self.folded(node, l, r):
            return self.attempt(node, lambda: op(l.const, r.const))
        if r.is_const:  # a constant other than zero: Python's operator, no check
            return Code(f"({self.src(l)} {_PY[node.op]} {self.src(r)})")
        span = self.unit.name("k", self.loc.node(node))
        return Code(f"{helper}({self.src(l)}, {self.src(r)}, {span})")

    def build_Compare(self, node: n.Compare, mode) -> Code:
        return self._binary(node, mode, node.op)

    def build_Logic(self, node: n.Logic, mode) -> Code:
        l, r = self.comp(node.left, mode), self.guarded(node.right, mode)
        if l.is_const:  # short-circuits: `false and x` is false, `true and x` is x
            if (node.op == "and") != bool(l.const):
                return Code(const=l.const)
            return r
        return Code(f"({l.src} {'and' if node.op == 'and' else 'or'} {self.src(r)})")

    def build_IfElse(self, node: n.IfElse, mode) -> Code:
        cond = self.comp(node.cond, mode)
        if cond.is_const:
            return self.comp(node.then if cond.const else node.orelse, mode)
        then, orelse = self.guarded(node.then, mode), self.guarded(node.orelse, mode)
        return Code(f"({self.src(then)} if {cond.src} else {self.src(orelse)})")

    # -- aggregates ----------------------------------------------------------------------

    def build_Aggregate(self, node: n.Aggregate, mode) -> Code:
        kind = node.func.name
        agg = _AGG[kind]
        items = self.comp(node.iter, mode)
        b = self.locals[self.c.binders[id(node)]] = self.unit.local()
        pred = None if node.cond is None else self.guarded(node.cond, INNER)
        if pred is not None and pred.is_const:
            if not pred.const:  # nothing passes: the list is never read
                return self._empty(node, kind, mode)
            pred = None
        body = None if node.elem is None else self.guarded(node.elem, INNER)
        dflt = None if node.default is None else self.guarded(node.default, mode)
        it = self.src(items)
        cond = "" if pred is None else f" if {pred.src}"
        elem = b if body is None else self.src(body)
        whole = elem == b and pred is None  # the elements themselves
        getter = re.fullmatch(r"(_g\d+)\((_b\d+)\)", elem)
        if kind == "count":
            seq = it if pred is None else f"[0 for {b} in {it}{cond}]"
        elif whole:
            seq = it
        elif getter and getter.group(2) == b and pred is None:  # `t.high for t in ...`
            seq = f"_map({getter.group(1)}, {it})"
        elif kind in ("any", "all"):  # a generator: they stop at the first that decides
            return Code(f"{agg}({elem} for {b} in {it}{cond})")
        else:
            seq = f"[{elem} for {b} in {it}{cond}]"
        if kind not in ("min", "max"):
            return Code(f"{agg}({seq})")
        if seq.startswith("_map("):
            seq = f"[*{seq}]"  # `or` needs a sequence that is false when empty
        if dflt is not None:
            return Code(f"{agg}({seq} or ({self.src(dflt)},))")
        message = self.unit.name("k", f"{kind}() of an empty collection")
        span = self.unit.name("k", self.loc.node(node))
        return Code(f"{agg}({seq} or _raise({message}, {span}))")

    def _empty(self, node: n.Aggregate, kind: str, mode) -> Code:
        """An aggregate whose filter is always false."""
        if kind in ("min", "max"):
            if node.default is not None:
                d = self.guarded(node.default, mode)
                return Code(self.src(d))
            message = self.unit.name("k", f"{kind}() of an empty collection")
            return Code(f"_raise({message}, {self.unit.name('k', self.loc.node(node))})")
        return Code({"sum": "0", "count": "0", "any": "False", "all": "True"}[kind])


def _no_getter(name: str):
    def get(ctx):
        raise RuntimeError(f"variable '{name}' has no getter in this vocabulary")
    return get


def _fast_container(c):
    """A constant list used with `in`: a frozenset when its elements allow it."""
    try:
        return frozenset(c)
    except TypeError:
        return c
