"""The vocabulary an expression is checked and compiled against: variables and functions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .types import Type

_MISSING = object()


@dataclass(frozen=True)
class Var:
    """A name visible to expressions.

    `get(ctx)` reads the value from the evaluation context at run time. A Var with `const`
    set is a compile-time constant (options, set-wide numbers) and is folded into the code.
    """

    type: Type
    get: Callable[[Any], Any] | None = None
    const: Any = _MISSING
    doc: str = ""
    # the context field it reads (places.py), or `decl:<i>` for declaration i: how a second
    # back end (tablerules.batch) finds the value without calling `get`
    field: str = ""

    @property
    def is_const(self) -> bool:
        return self.const is not _MISSING


@dataclass(frozen=True)
class Func:
    """A callable name.

    `params` are the parameter types (checked with `accepts`); `ret` is the result type, or a
    callable taking the argument types and returning the result type (or raising TypeError with
    a message). `impl(ctx, *args)` when `needs_ctx`, else `impl(*args)`. A `pure` function of
    constant arguments is folded at compile time.
    """

    params: Sequence[Type]
    ret: Type | Callable[[list[Type]], Type]
    impl: Callable[..., Any]
    needs_ctx: bool = False
    pure: bool = True
    doc: str = ""
    example: str = ""
    unavailable: str = ""  # why this place cannot call it (a function reading names it lacks)
    # reads a name that changes within one evaluation pass (Env.per_item); only a function
    # defined in the ruleset can, since no vocabulary function reads those names
    reads_item: bool = False
    source: str = ""  # a function defined in the ruleset: the generated Python source of impl
    # a function defined in the ruleset: its checked body (expr.Typed), for a second back end
    typed: Any = field(default=None, compare=False, repr=False)


@dataclass
class Env:
    """Names an expression may use at one place in a ruleset, plus what that place expects."""

    vars: dict[str, Var] = field(default_factory=dict)
    funcs: dict[str, Func] = field(default_factory=dict)
    where: str = ""  # a few words naming the place, used in error messages
    # names the caller changes between calls of one pass (`tile` while it tests each piece of a
    # hand): the parts that read none of them are worked out once per pass (Compiler.hoist)
    per_item: frozenset = frozenset()

    def extended(self, vars: dict[str, Var] | None = None, funcs: dict[str, Func] | None = None,
                 where: str | None = None) -> "Env":
        return Env({**self.vars, **(vars or {})}, {**self.funcs, **(funcs or {})},
                   self.where if where is None else where, self.per_item)

    def names(self) -> list[str]:
        return sorted(set(self.vars) | set(self.funcs))
