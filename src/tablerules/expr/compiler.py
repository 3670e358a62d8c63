"""Checked AST to Python closures, built once; constant sub-expressions are folded."""

# Every compiled node is a constant or a one-argument closure; what the argument is depends
# on the mode the node was compiled in:
# - ctx mode: the evaluation context (top level, no bound variable in scope);
# - frame mode: a list `[ctx, slot1, ...]` holding bound variables, made fresh by the
#   outermost aggregate (or user function) on each call, so evaluation is re-entrant and
#   thread-safe;
# - item mode: the current element of an aggregate, when its body and filter read nothing
#   else (`t.high`), so the loop becomes `sum(map(getter, items))` with no frame at all.
#
# Hoisting: where the caller evaluates one expression many times in a pass, changing only some
# names between calls (`play.legal` for each piece of a hand, with `tile`; a strategy's `choose`
# for each legal action, with `a`), a costly part that reads none of them (an aggregate, a call
# reading the context) is computed at its first use in the pass and kept in the context's
# `memo` dict for the rest of it; the caller makes `memo` a fresh dict for each pass, and None
# outside one (then nothing is kept).

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import UNKNOWN, ExprError, GameError
from . import nodes as n
from .checker import Binder, Checked
from .env import Var
from .parser import Locator


class _NotConst:
    """Marks a value that is not known at compile time."""

    def __repr__(self) -> str:
        return "NOT_CONST"


NOT_CONST: Any = _NotConst()
_EMPTY = object()


def _identity(x):
    return x


def const_fn(value: Any) -> Callable[[Any], Any]:
    """A closure returning `value` whatever the context."""
    return lambda _: value


def normalize(value: Any) -> Any:
    """Runtime representation of a constant: lists become tuples."""
    if isinstance(value, (list, tuple)):
        return tuple(normalize(v) for v in value)
    return value


class Code:
    """A compiled node: a constant, or a closure over the mode's argument."""

    __slots__ = ("fn", "const")

    def __init__(self, fn: Callable[[Any], Any] | None = None, const: Any = NOT_CONST):
        self.fn = fn
        self.const = const

    @property
    def is_const(self) -> bool:
        return self.fn is None

    def lift(self) -> Callable[[Any], Any]:
        """The node as a closure, constant or not."""
        return const_fn(self.const) if self.fn is None else self.fn


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


class FrameMode:
    """Bound variables live in `fr[slot]`; `alloc[0]` is the next free slot of this frame."""

    __slots__ = ("slots", "alloc")

    def __init__(self, slots: dict[Binder, int], alloc: list[int]):
        self.slots = slots
        self.alloc = alloc


class ItemMode:
    """The argument is the current element bound to `binder`."""

    __slots__ = ("binder",)

    def __init__(self, binder: Binder):
        self.binder = binder


CTX = "ctx"


def _relocated(e: GameError, span) -> GameError:
    """Give a span-less GameError raised by a function the span of its call."""
    if e.span == UNKNOWN:
        return GameError(e.message, span, suggestion=e.suggestion)
    return e


# Closure factories per operator: (both dynamic, constant right, constant left). Written out
# because `l(a) + r(a)` is measurably faster than `operator.add(l(a), r(a))`.
_OPS: dict[str, tuple[Callable, Callable, Callable]] = {
    "+": (lambda l, r: lambda a: l(a) + r(a), lambda l, c: lambda a: l(a) + c,
          lambda c, r: lambda a: c + r(a)),
    "-": (lambda l, r: lambda a: l(a) - r(a), lambda l, c: lambda a: l(a) - c,
          lambda c, r: lambda a: c - r(a)),
    "*": (lambda l, r: lambda a: l(a) * r(a), lambda l, c: lambda a: l(a) * c,
          lambda c, r: lambda a: c * r(a)),
    "==": (lambda l, r: lambda a: l(a) == r(a), lambda l, c: lambda a: l(a) == c,
           lambda c, r: lambda a: c == r(a)),
    "!=": (lambda l, r: lambda a: l(a) != r(a), lambda l, c: lambda a: l(a) != c,
           lambda c, r: lambda a: c != r(a)),
    "<": (lambda l, r: lambda a: l(a) < r(a), lambda l, c: lambda a: l(a) < c,
          lambda c, r: lambda a: c < r(a)),
    "<=": (lambda l, r: lambda a: l(a) <= r(a), lambda l, c: lambda a: l(a) <= c,
           lambda c, r: lambda a: c <= r(a)),
    ">": (lambda l, r: lambda a: l(a) > r(a), lambda l, c: lambda a: l(a) > c,
          lambda c, r: lambda a: c > r(a)),
    ">=": (lambda l, r: lambda a: l(a) >= r(a), lambda l, c: lambda a: l(a) >= c,
           lambda c, r: lambda a: c >= r(a)),
    "in": (lambda l, r: lambda a: l(a) in r(a), lambda l, c: lambda a: l(a) in c,
           lambda c, r: lambda a: c in r(a)),
    "not in": (lambda l, r: lambda a: l(a) not in r(a), lambda l, c: lambda a: l(a) not in c,
               lambda c, r: lambda a: c not in r(a)),
}
_DIVISION = {"//": (operator.floordiv, "division by zero"), "%": (operator.mod, "modulo by zero")}


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

    def item_ok(self, node: n.Node, binder: Binder) -> bool:
        """Whether `node` reads only `binder`, so it can be compiled in item mode."""
        d = self.deps(node)
        return not d.ctx and not d.agg and d.free <= {binder}

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
            return Code(_kept(code.lift()))
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

    def fail(self, node: n.Node, message: str, span=None) -> Code:
        """A constant part that cannot be computed: an error now, or when reached if guarded."""
        # Always evaluated, the expression can never work; but a branch or filter may never
        # be reached (`n == 0 or 10 // n > 1` with `n` an option), so it fails only then.
        span = span or self.loc.node(node)
        if not self.guard:
            raise ExprError(message, span)

        def fails(_):
            raise GameError(message, span)
        return Code(fails)

    def fold(self, node: n.Node) -> Code:
        """Evaluate a constant node now."""
        code = getattr(self, "build_" + type(node).__name__)(node, CTX)
        if code.is_const:
            return code
        try:
            return Code(const=code.fn(None))
        except GameError as e:
            return self.fail(node, e.message, None if e.span == UNKNOWN else e.span)
        except RecursionError:
            raise self.err(node, "expression is nested too deeply") from None
        except Exception as e:  # a vocabulary function failing on constant arguments
            return self.fail(node, f"evaluating this constant failed: {type(e).__name__}: {e}")

    # -- leaves --------------------------------------------------------------------------

    def build_IntLit(self, node: n.IntLit, mode) -> Code:
        return Code(const=node.value)

    build_BoolLit = build_SymLit = build_IntLit

    def build_ListLit(self, node: n.ListLit, mode) -> Code:
        codes = [self.comp(i, mode) for i in node.items]
        if all(c.is_const for c in codes):
            return Code(const=tuple(c.const for c in codes))
        fs = [c.lift() for c in codes]
        return Code(lambda a: tuple([f(a) for f in fs]))

    def build_Name(self, node: n.Name, mode) -> Code:
        ref = self.c.refs[id(node)]
        if isinstance(ref, Binder):
            if isinstance(mode, ItemMode):
                return Code(_identity)
            return Code(operator.itemgetter(mode.slots[ref]))
        var: Var = ref
        if var.is_const:
            return Code(const=normalize(var.const))
        get = var.get
        if get is None:  # a vocabulary declared for checking only: fail if ever run
            get = _no_getter(node.name)
        if mode is CTX:
            return Code(get)
        return Code(lambda fr: get(fr[0]))

    def build_Index(self, node: n.Index, mode) -> Code:
        obj = self.comp(node.obj, mode).lift()
        idx = self.comp(node.index, mode).lift()
        span = self.loc.node(node)

        def index(a):
            xs = obj(a)
            i = idx(a)
            if 0 <= i < len(xs):  # never from the end: -1 is a mistake, not the last
                return xs[i]
            raise GameError(f"index {i} is outside a list of {len(xs)} "
                            f"(indexes are 0..{len(xs) - 1})", span)
        return Code(index)

    def build_Attr(self, node: n.Attr, mode) -> Code:
        get = self.c.types[id(node.obj)].attrs[node.name].get
        obj = node.obj
        if isinstance(mode, FrameMode) and isinstance(self.c.refs.get(id(obj)), Binder):
            k = mode.slots[self.c.refs[id(obj)]]
            return Code(lambda fr: get(fr[k]))
        sub = self.comp(obj, mode).lift()
        if sub is _identity:
            return Code(get)
        return Code(lambda a: get(sub(a)))

    def build_Call(self, node: n.Call, mode) -> Code:
        func = self.c.funcs[id(node)]
        impl = func.impl
        fs = [self.comp(a, mode).lift() for a in node.args]
        span = self.loc.node(node)
        if func.needs_ctx and mode is CTX and len(fs) == 1:
            f0 = fs[0]

            def call(a):  # the common case, written out: no argument list to build
                try:
                    return impl(a, f0(a))
                except GameError as e:
                    raise _relocated(e, span) from None
        elif func.needs_ctx and mode is CTX and not fs:
            def call(a):
                try:
                    return impl(a)
                except GameError as e:
                    raise _relocated(e, span) from None
        elif func.needs_ctx:
            getc = _identity if mode is CTX else operator.itemgetter(0)

            def call(a):
                try:
                    return impl(getc(a), *[f(a) for f in fs])
                except GameError as e:
                    raise _relocated(e, span) from None
        elif len(fs) == 1:
            f0 = fs[0]

            def call(a):
                try:
                    return impl(f0(a))
                except GameError as e:
                    raise _relocated(e, span) from None
        elif len(fs) == 2:
            f0, f1 = fs

            def call(a):
                try:
                    return impl(f0(a), f1(a))
                except GameError as e:
                    raise _relocated(e, span) from None
        else:
            def call(a):
                try:
                    return impl(*[f(a) for f in fs])
                except GameError as e:
                    raise _relocated(e, span) from None
        return Code(call)

    # -- operators -----------------------------------------------------------------------

    def build_Unary(self, node: n.Unary, mode) -> Code:
        code = self.comp(node.operand, mode)
        if code.is_const:
            return Code(const=(-code.const if node.op == "-" else not code.const))
        f = code.fn
        return Code((lambda a: -f(a)) if node.op == "-" else (lambda a: not f(a)))

    def _binary(self, node, mode, op: str) -> Code:
        l, r = self.comp(node.left, mode), self.comp(node.right, mode)
        if l.is_const and r.is_const:  # only while folding: fold() evaluates it
            return Code(_OPS[op][0](l.lift(), r.lift()))
        both, right_const, left_const = _OPS[op]
        if r.is_const:
            c = r.const
            if op in ("in", "not in"):
                c = _fast_container(c)
            return Code(right_const(l.fn, c))
        if l.is_const:
            return Code(left_const(l.const, r.fn))
        return Code(both(l.fn, r.fn))

    def build_Binary(self, node: n.Binary, mode) -> Code:
        if node.op not in _DIVISION:
            return self._binary(node, mode, node.op)
        op, message = _DIVISION[node.op]
        l, r = self.comp(node.left, mode), self.comp(node.right, mode)
        if r.is_const and r.const == 0:
            return self.fail(node.right, message)
        lf, rf = l.lift(), r.lift()
        span = self.loc.node(node)

        def divide(a):
            try:
                return op(lf(a), rf(a))
            except ZeroDivisionError:
                raise GameError(message, span) from None
        return Code(divide)

    def build_Compare(self, node: n.Compare, mode) -> Code:
        return self._binary(node, mode, node.op)

    def build_Logic(self, node: n.Logic, mode) -> Code:
        l, r = self.comp(node.left, mode), self.guarded(node.right, mode)
        if l.is_const:  # short-circuits: `false and x` is false, `true and x` is x
            if (node.op == "and") != bool(l.const):
                return Code(const=l.const)
            return r
        lf, rf = l.fn, r.lift()
        if node.op == "and":
            return Code(lambda a: lf(a) and rf(a))
        return Code(lambda a: lf(a) or rf(a))

    def build_IfElse(self, node: n.IfElse, mode) -> Code:
        cond = self.comp(node.cond, mode)
        if cond.is_const:
            return self.comp(node.then if cond.const else node.orelse, mode)
        cf = cond.fn
        tf, ef = self.guarded(node.then, mode).lift(), self.guarded(node.orelse, mode).lift()
        return Code(lambda a: tf(a) if cf(a) else ef(a))

    # -- aggregates ----------------------------------------------------------------------

    def build_Aggregate(self, node: n.Aggregate, mode) -> Code:
        kind = node.func.name
        binder = self.c.binders[id(node)]
        items = self.comp(node.iter, mode).lift()
        inner = [x for x in (node.elem, node.cond) if x is not None]
        if all(self.item_ok(x, binder) for x in inner):
            select = self._item_select(node, ItemMode(binder), items)
        else:
            select = self._frame_select(node, binder, mode, items)
        dflt = None if node.default is None else self.guarded(node.default, mode).lift()
        return Code(self._reduce(kind, select, dflt, self.loc.node(node), node, items))

    def _item_select(self, node: n.Aggregate, im: ItemMode, items):
        """`a -> iterable of values`, mapping closures of the element itself."""
        pred = None if node.cond is None else self.guarded(node.cond, im)
        if pred is not None and pred.is_const:
            if not pred.const:
                return const_fn(())
            pred = None
        p = pred.fn if pred is not None else None
        body = None if node.elem is None else self.guarded(node.elem, im)
        if body is None or body.fn is _identity:  # count, or the elements themselves
            if p is None:
                return items
            return lambda a: filter(p, items(a))
        bf = body.lift()
        if p is None:
            return lambda a: map(bf, items(a))
        return lambda a: map(bf, filter(p, items(a)))

    def _frame_select(self, node: n.Aggregate, binder: Binder, mode, items):
        """`a -> iterable of values`, binding the element in a frame slot."""
        if isinstance(mode, FrameMode):
            alloc, slots = mode.alloc, mode.slots
        else:
            alloc, slots = [1], {}
        k = alloc[0]
        alloc[0] += 1
        fm = FrameMode({**slots, binder: k}, alloc)
        pred = None if node.cond is None else self.guarded(node.cond, fm)
        if pred is not None and pred.is_const:
            if not pred.const:
                return const_fn(())
            pred = None
        pf = pred.fn if pred is not None else None
        bf = const_fn(1) if node.elem is None else self.guarded(node.elem, fm).lift()

        if pf is None:
            def gen(fr, xs):
                for x in xs:
                    fr[k] = x
                    yield bf(fr)
        else:
            def gen(fr, xs):
                for x in xs:
                    fr[k] = x
                    if pf(fr):
                        yield bf(fr)

        if isinstance(mode, FrameMode):
            return lambda fr: gen(fr, items(fr))
        size = alloc[0]  # every nested aggregate has taken its slot by now

        def select(ctx):
            fr = [None] * size
            fr[0] = ctx
            return gen(fr, items(ctx))
        return select

    def _reduce(self, kind: str, select, dflt, span, node: n.Aggregate, items):
        if kind == "sum":
            return lambda a: sum(select(a))
        if kind == "any":
            return lambda a: any(select(a))
        if kind == "all":
            return lambda a: all(select(a))
        if kind == "count":
            if select is items:
                return lambda a: len(items(a))
            return lambda a: len(list(select(a)))  # measurably faster than sum(1 for ...)
        pick = min if kind == "min" else max
        message = f"{kind}() of an empty collection"

        def extreme(a):
            r = pick(select(a), default=_EMPTY)
            if r is _EMPTY:
                if dflt is None:
                    raise GameError(message, span)
                return dflt(a)
            return r
        return extreme


def _kept(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`f` computed once per pass: kept in the context's `memo` (None: no pass, no keeping)."""
    key = object()  # this part's own key

    def kept(a):
        memo = a.memo
        if memo is None:
            return f(a)
        v = memo.get(key, _EMPTY)
        if v is _EMPTY:
            v = memo[key] = f(a)
        return v
    return kept


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
