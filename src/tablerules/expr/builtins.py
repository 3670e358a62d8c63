"""The built-in functions and aggregates, kept as data so docs and tests can enumerate them."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import GameError
from .env import Func
from .types import ANY, BOOL, INT, ListType, Type

# A trailing `...` in `Func.params` means "the previous parameter type, repeated".
VARIADIC = ...

# A `range()` longer than this is almost certainly a mistake and would eat memory.
MAX_RANGE = 100_000


def _range(lo: int, hi: int) -> tuple[int, ...]:
    if hi - lo > MAX_RANGE:
        raise GameError(f"range() would have {hi - lo} elements (at most {MAX_RANGE})")
    return tuple(range(lo, hi))


BUILTINS: dict[str, Func] = {
    "abs": Func((INT,), INT, abs, doc="The absolute value.", example="abs(-3) == 3"),
    "min": Func((INT, INT, VARIADIC), INT, min, doc="The smallest of two or more ints.",
                example="min(4, 2, 7) == 2"),
    "max": Func((INT, INT, VARIADIC), INT, max, doc="The largest of two or more ints.",
                example="max(4, 2, 7) == 7"),
    "len": Func((ListType(ANY),), INT, len, doc="The number of elements of a list.",
                example="len([1, 2, 3]) == 3"),
    "range": Func((INT, INT), ListType(INT), _range,
                  doc=f"The ints from the first up to but excluding the second "
                      f"(at most {MAX_RANGE}).",
                  example="range(1, 4) == [1, 2, 3]"),
    "sum": Func((ListType(INT),), INT, sum, doc="The sum of a list of ints (0 if empty).",
                example="sum([1, 2, 3]) == 6"),
}


@dataclass(frozen=True)
class AggregateSpec:
    """An aggregate form `name(EXPR for NAME in LIST [if COND])` (count: `count(NAME in ...)`)."""

    name: str
    elem: Type | None  # the type the per-element expression must have; None for count
    result: Type
    default: bool  # whether `, default=EXPR` is allowed
    doc: str
    example: str

    @property
    def signature(self) -> str:
        """The form as written, with the result type."""
        if self.elem is None:
            form = f"{self.name}(NAME in LIST [if BOOL])"
        else:
            form = f"{self.name}({self.elem} for NAME in LIST [if BOOL]"
            form += " [, default=int])" if self.default else ")"
        return f"{form} -> {self.result}"


AGGREGATES: dict[str, AggregateSpec] = {a.name: a for a in [
    AggregateSpec("sum", INT, INT, False, "Adds the values for the elements that pass the filter "
                  "(0 if none).", "sum(k * k for k in range(1, 4) if k != 2) == 10"),
    AggregateSpec("min", INT, INT, True, "The smallest value; with no elements, the default, or "
                  "a game error without one.", "min(k for k in [] if k > 0, default=0) == 0"),
    AggregateSpec("max", INT, INT, True, "The largest value; with no elements, the default, or "
                  "a game error without one.", "max(k % 4 for k in range(0, 10)) == 3"),
    AggregateSpec("any", BOOL, BOOL, False, "Whether the condition holds for at least one element "
                  "(false if none).", "any(k > 2 for k in [1, 3])"),
    AggregateSpec("all", BOOL, BOOL, False, "Whether the condition holds for every element "
                  "(true if none).", "all(k > 0 for k in [1, 3])"),
    AggregateSpec("count", None, INT, False, "How many elements pass the filter (all of them "
                  "without one).", "count(k in range(0, 10) if k % 3 == 0) == 4"),
]}

KEYWORDS = frozenset({"if", "else", "or", "and", "not", "in", "for", "true", "false", "count"})

# Names an environment may not define: they would be unreachable or ambiguous.
RESERVED = KEYWORDS | set(BUILTINS) | set(AGGREGATES)


def signature(name: str, func: Func) -> str:
    """`name(int, int, ...) -> int`, for docs and messages."""
    params = ", ".join("..." if p is VARIADIC else str(p) for p in func.params)
    ret = func.ret if isinstance(func.ret, Type) else "computed"
    return f"{name}({params}) -> {ret}"
