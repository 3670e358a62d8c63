"""The expression language's static types."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


class Type:
    """Base of all expression types."""

    name = "?"

    def __str__(self) -> str:
        return self.name

    def accepts(self, other: "Type") -> bool:
        """Whether a value of type `other` may stand where this type is expected."""
        return self == other or isinstance(other, NeverType)


@dataclass(frozen=True, eq=True)
class _Prim(Type):
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, eq=True)
class SymType(Type):
    """A symbol (string literal); `values` lists the allowed symbols when known (an enum)."""

    values: frozenset[str] | None = None
    name: str = "symbol"

    def accepts(self, other: Type) -> bool:
        if isinstance(other, NeverType):
            return True
        if not isinstance(other, SymType):
            return False
        if self.values is None or other.values is None:
            return True
        return other.values <= self.values

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SymType)

    def __hash__(self) -> int:
        return hash("symbol")

    def __str__(self) -> str:
        if self.values:
            return "symbol (one of " + ", ".join(sorted(self.values)) + ")"
        return "symbol"


@dataclass(frozen=True, eq=True)
class ScalarType(Type):
    """An int or a symbol: what a suit, a trump choice or a declaration value is."""

    name: str = "scalar"

    def accepts(self, other: Type) -> bool:
        return isinstance(other, (ScalarType, SymType, NeverType)) or other == INT


@dataclass(frozen=True, eq=True)
class ListType(Type):
    elem: Type

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"list[{self.elem}]"

    def __str__(self) -> str:
        return self.name

    def accepts(self, other: Type) -> bool:
        if isinstance(other, NeverType):
            return True
        return isinstance(other, ListType) and (
            self.elem.accepts(other.elem) or isinstance(other.elem, NeverType))


@dataclass(frozen=True, eq=True)
class NeverType(Type):
    """The element type of an empty list literal; accepted anywhere."""

    name: str = "nothing"


@dataclass(frozen=True)
class Attr:
    """An attribute of an object type: its type, a getter from the runtime value, a doc line."""

    type: Type
    get: Callable[[Any], Any]
    doc: str = ""


@dataclass(eq=False)
class ObjType(Type):
    """A game object (tile, bid, ...): at run time a small int or tuple; attributes via getters."""

    name: str
    attrs: dict[str, Attr] = field(default_factory=dict)
    doc: str = ""

    def __str__(self) -> str:
        return self.name

    def __hash__(self) -> int:
        return hash(("obj", self.name))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ObjType) and other.name == self.name


INT = _Prim("int")
INT_LIMIT = 2 ** 53  # every int literal and result is within +-INT_LIMIT: exact as a float and in JSON
BOOL = _Prim("bool")
SYM = SymType()
SCALAR = ScalarType()
NEVER = NeverType()


def enum(values) -> SymType:
    """A symbol type restricted to `values`."""
    return SymType(frozenset(values))


def join(a: Type, b: Type) -> Type | None:
    """The smallest type holding both (for list literals and conditional branches), or None."""
    if isinstance(a, NeverType):
        return b
    if isinstance(b, NeverType):
        return a
    if isinstance(a, SymType) and isinstance(b, SymType):
        if a.values is not None and b.values is not None:
            return SymType(a.values | b.values)
        return SYM
    if a == b:
        return a
    scalars = (INT, SCALAR)
    if (a in scalars or isinstance(a, SymType)) and (b in scalars or isinstance(b, SymType)):
        return SCALAR
    if isinstance(a, ListType) and isinstance(b, ListType):
        e = join(a.elem, b.elem)
        return ListType(e) if e is not None else None
    return None


@dataclass(frozen=True, eq=True)
class AnyType(Type):
    """Accepts every type: only for parameters of generic functions (`len(list[any])`)."""

    name: str = "any"

    def accepts(self, other: Type) -> bool:
        return True


ANY = AnyType()
