"""AST nodes of the expression language: frozen, each with its offset and length in the text."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Node:
    """Base of all nodes; `offset`/`length` locate it in the expression text (0-based chars)."""

    offset: int
    length: int

    def children(self) -> tuple["Node", ...]:
        """The direct sub-expressions, in source order."""
        return ()


@dataclass(frozen=True, kw_only=True)
class IntLit(Node):
    """An integer literal."""

    value: int


@dataclass(frozen=True, kw_only=True)
class BoolLit(Node):
    """`true` or `false`."""

    value: bool


@dataclass(frozen=True, kw_only=True)
class SymLit(Node):
    """A quoted symbol, `'name'` or `"name"`."""

    value: str


@dataclass(frozen=True, kw_only=True)
class ListLit(Node):
    """`[a, b, c]`."""

    items: tuple[Node, ...]

    def children(self) -> tuple[Node, ...]:
        return self.items


@dataclass(frozen=True, kw_only=True)
class Name(Node):
    """A variable, function or bound-variable reference."""

    name: str


@dataclass(frozen=True, kw_only=True)
class Attr(Node):
    """`obj.name`; `name_offset` locates the attribute name itself."""

    obj: Node
    name: str
    name_offset: int

    def children(self) -> tuple[Node, ...]:
        return (self.obj,)


@dataclass(frozen=True, kw_only=True)
class Index(Node):
    """`items[i]`: the element at position i (0 first) of a list."""

    obj: Node
    index: Node

    def children(self) -> tuple[Node, ...]:
        return (self.obj, self.index)


@dataclass(frozen=True, kw_only=True)
class Call(Node):
    """`func(args...)`."""

    func: Node
    args: tuple[Node, ...]

    def children(self) -> tuple[Node, ...]:
        return (self.func, *self.args)


@dataclass(frozen=True, kw_only=True)
class Aggregate(Node):
    """`func(elem for var in iter if cond, kw=default)`; `count(var in iter ...)` has no elem."""

    func: Node
    elem: Node | None
    var: str
    var_offset: int
    iter: Node
    cond: Node | None
    kw: str | None = None
    kw_offset: int = 0
    default: Node | None = None

    def children(self) -> tuple[Node, ...]:
        return tuple(n for n in (self.func, self.elem, self.iter, self.cond, self.default)
                     if n is not None)


@dataclass(frozen=True, kw_only=True)
class Unary(Node):
    """`-x` or `not x`."""

    op: str
    operand: Node

    def children(self) -> tuple[Node, ...]:
        return (self.operand,)


@dataclass(frozen=True, kw_only=True)
class Binary(Node):
    """Arithmetic or list concatenation: `+ - * // %`."""

    op: str
    left: Node
    right: Node

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)


@dataclass(frozen=True, kw_only=True)
class Compare(Node):
    """`== != < <= > >= in`, `not in`."""

    op: str
    left: Node
    right: Node

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)


@dataclass(frozen=True, kw_only=True)
class Logic(Node):
    """`and` / `or` (short-circuit)."""

    op: str
    left: Node
    right: Node

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)


@dataclass(frozen=True, kw_only=True)
class IfElse(Node):
    """`then if cond else orelse`."""

    then: Node
    cond: Node
    orelse: Node

    def children(self) -> tuple[Node, ...]:
        return (self.then, self.cond, self.orelse)


def depth(node: Node) -> int:
    """Nesting depth of a tree, computed without recursion."""
    best, stack = 0, [(node, 1)]
    while stack:
        n, d = stack.pop()
        best = max(best, d)
        stack.extend((c, d + 1) for c in n.children())
    return best
