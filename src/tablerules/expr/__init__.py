"""The expression language: parse, check and compile small expressions against an Env."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import ExprError, GameError, Span
from .builtins import AGGREGATES, BUILTINS, KEYWORDS, RESERVED, AggregateSpec, signature
from .checker import Binder, Checker, check_env
from .compiler import CTX, INNER, NOT_CONST, Compiler, _too_big, const_fn
from .env import Env, Func, Var
from .nodes import Name, Node
from .parser import Locate, Locator
from .parser import parse as _parse
from .types import INT, INT_LIMIT, Type

__all__ = ["AGGREGATES", "BUILTINS", "INT_LIMIT", "KEYWORDS", "NOT_CONST", "AggregateSpec", "Compiled",
           "Env", "Func", "Typed", "Var", "compile_expression", "define_function", "parse", "signature"]


# Each int result is checked against INT_LIMIT, not every operator: there is no power operator,
# so an expression of bounded inputs gives a bounded result, and a value that grows from hand to
# hand is stopped. The per-piece hooks of trick play are tabled at compile time, so the check
# runs a few times a hand. The generated function checks its result itself (compiler.py).

def _bounded(f: Callable[[Any], Any], span: Span) -> Callable[[Any], Any]:
    def bounded(a, f=f, lo=-INT_LIMIT, hi=INT_LIMIT):  # defaults: local lookups on a hot path
        v = f(a)
        if lo <= v <= hi:
            return v
        raise GameError(_too_big(v), span)
    return bounded


@dataclass(frozen=True)
class Typed:
    """The checked tree behind a compiled expression or function body, kept for a second back end
    (`tablerules.batch`): the tree, what the checker learned of it, and the compiler that folded
    it (its `deps` and `fold` say which parts are constants); `params`: a function's parameters."""

    root: Node
    checked: Any
    compiler: Any
    params: tuple = ()


@dataclass(frozen=True)
class Compiled:
    """A checked, compiled expression: call `fn(ctx)` to evaluate it."""

    fn: Callable[[Any], Any]
    type: Type
    uses: frozenset[str]  # env names (vars and funcs) referenced; bound variables excluded
    text: str
    const: Any = NOT_CONST  # the folded value when the whole expression is constant
    source: str = ""  # the generated Python source of `fn` ("" for a constant or a bare name)
    typed: Typed | None = field(default=None, compare=False, repr=False)

    @property
    def is_const(self) -> bool:
        return self.const is not NOT_CONST


def parse(text: str, *, locate: Locate = None) -> Node:
    """Syntax only: the AST of `text`, or a located ExprError."""
    return _parse(text, locate=locate)


def _too_deep(loc: Locator, text: str) -> ExprError:
    return loc.error("expression is nested too deeply", 0, len(text))


def compile_expression(text: str, env: Env, *, locate: Locate = None,
                       expected: Type | None = None) -> Compiled:
    """Parse, check against `env` (and `expected`), and compile `text` to a Python function."""
    loc = Locator(locate)
    root = _parse(text, locate=loc)
    check_env(env, loc, len(text))
    try:
        checker = Checker(env, loc)
        checked = checker.run(root)
        if expected is not None:
            checker.literal_fits(root, expected)
            if not expected.accepts(checked.type):
                raise loc.error(f"expected {expected}, got {checked.type}", root.offset,
                                root.length)
        compiler = Compiler(checked, loc, env.per_item, hoist=True)
        code = compiler.comp(root, CTX)
        uses = frozenset(checked.uses)
        is_int = checked.type == INT
        if code.is_const:
            v = code.const
            if is_int and isinstance(v, int) and not -INT_LIMIT <= v <= INT_LIMIT:
                raise loc.error(_too_big(v), root.offset, root.length)
            return Compiled(const_fn(v), checked.type, uses, text, v,
                            typed=Typed(root, checked, compiler))
        ref = checked.refs.get(id(root))
        if isinstance(root, Name) and ref is not None and not isinstance(ref, Binder) \
                and ref.get is not None:  # a bare variable: its getter is the function
            fn = _bounded(ref.get, loc.node(root)) if is_int else ref.get
            return Compiled(fn, checked.type, uses, text, typed=Typed(root, checked, compiler))
        fn = compiler.unit.function(code.src, bound=loc.node(root) if is_int else None)
    except RecursionError:
        raise _too_deep(loc, text) from None
    return Compiled(fn, checked.type, uses, text, source=compiler.unit.source,
                    typed=Typed(root, checked, compiler))


def define_function(name: str, params: list[tuple[str, Type]], body: str, env: Env, *,
                    locate: Locate = None) -> Func:
    """A user-defined function: `body` checked in `env` plus `params`; usable in later envs."""
    ptypes = tuple(t for _, t in params)
    loc = Locator(locate)
    root = _parse(body, locate=loc)
    check_env(env, loc, len(body))
    binders: list[Binder] = []
    for pname, ptype in params:
        if pname in RESERVED:
            raise loc.error(f"parameter '{pname}' of {name}() is a built-in name", 0, len(body))
        if pname in env.funcs:
            raise loc.error(f"parameter '{pname}' of {name}() hides the function '{pname}'",
                            0, len(body))
        if any(b.name == pname for b in binders):
            raise loc.error(f"{name}() has two parameters named '{pname}'", 0, len(body))
        binders.append(Binder(pname, ptype))
    inner = Env(env.vars, env.funcs, f"the body of {name}()")
    try:
        checked = Checker(inner, loc, binders).run(root)
        compiler = Compiler(checked, loc, env.per_item)
        names = ["a"]  # the context, then the parameters as locals
        for b in binders:
            names.append(compiler.locals.setdefault(b, compiler.unit.local()))
        code = compiler.comp(root, INNER)
        deps = compiler.deps(root)
        # reading the context through an aggregate, and none of the names a pass changes:
        # within one pass (the context's `memo`, see compiler.py) each call with the same
        # arguments is worked out once
        kept = deps.agg and deps.ctx and not deps.item
        if code.is_const:
            v = code.const
            impl = lambda ctx, *args: v  # noqa: E731
        else:
            impl = compiler.unit.function(code.src, ", ".join(names), kept=kept)
    except RecursionError:
        raise _too_deep(loc, body) from None
    return Func(ptypes, checked.type, impl, needs_ctx=True, pure=not deps.dyn, doc=body,
                reads_item=deps.item, source=compiler.unit.source,
                typed=Typed(root, checked, compiler, tuple(binders)))
