"""Text to AST: the cached Lark parser, the tree transformer, and located syntax errors."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Union

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.visitors import Transformer_NonRecursive, v_args

from ..errors import ExprError, Span
from . import nodes as n
from .types import INT_LIMIT

Locate = Union[Callable[[int, int], Span], Span, None]

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")
# Beyond this nesting the recursive checker and Python compiling the generated source could hit its
# recursion limit; no sensible ruleset expression comes close.
MAX_DEPTH = 100

_parser: Lark | None = None


def get_parser() -> Lark:
    """The module-wide LALR parser, built on first use."""
    global _parser
    if _parser is None:
        _parser = Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", lexer="basic",
                       propagate_positions=True, maybe_placeholders=True)
    return _parser


class Locator:
    """Maps (offset, length) in the expression text to a file Span."""

    def __init__(self, locate: Locate = None):
        self._locate = locate

    def __call__(self, offset: int, length: int = 1) -> Span:
        loc = self._locate
        if loc is None:
            return Span("<expr>", 1, offset + 1)
        if isinstance(loc, Span):
            return loc.shifted(offset, length)
        return loc(offset, length)

    def node(self, node: n.Node) -> Span:
        """The span of a whole node."""
        return self(node.offset, node.length)

    def error(self, message: str, offset: int, length: int = 1, *,
              suggestion: str | None = None) -> ExprError:
        """An ExprError located at (offset, length)."""
        return ExprError(message, self(offset, length), suggestion=suggestion)


def _pos(meta) -> dict:
    return {"offset": meta.start_pos, "length": meta.end_pos - meta.start_pos}


def _tok(tok: Token) -> dict:
    return {"offset": tok.start_pos, "length": tok.end_pos - tok.start_pos}


@v_args(meta=True)
class _ToAst(Transformer_NonRecursive):
    """Builds nodes; never raises domain errors (the checker does that afterwards)."""

    def int(self, meta, c):
        digits = str(c[0]).lstrip("0") or "0"
        # past 20 digits it is past the bound anyway (and int() refuses 4300 digits and more)
        value = int(digits) if len(digits) <= 20 else INT_LIMIT + 1
        return n.IntLit(value=value, **_pos(meta))

    def true(self, meta, c):
        return n.BoolLit(value=True, **_pos(meta))

    def false(self, meta, c):
        return n.BoolLit(value=False, **_pos(meta))

    def symbol(self, meta, c):
        return n.SymLit(value=str(c[0])[1:-1], **_pos(meta))

    def name(self, meta, c):
        return n.Name(name=str(c[0]), **_pos(meta))

    def list(self, meta, c):
        return n.ListLit(items=tuple(c[0] or ()), **_pos(meta))

    def arguments(self, meta, c):
        return c

    def keyword(self, meta, c):
        return c

    def attr(self, meta, c):
        obj, tok = c
        return n.Attr(obj=obj, name=str(tok), name_offset=tok.start_pos, **_pos(meta))

    def index(self, meta, c):
        return n.Index(obj=c[0], index=c[1], **_pos(meta))

    def call(self, meta, c):
        return n.Call(func=c[0], args=tuple(c[1] or ()), **_pos(meta))

    def generator(self, meta, c):
        func, elem, var, it, cond, kw = c
        extra = {}
        if kw is not None:
            extra = {"kw": str(kw[0]), "kw_offset": kw[0].start_pos, "default": kw[1]}
        return n.Aggregate(func=func, elem=elem, var=str(var), var_offset=var.start_pos,
                           iter=it, cond=cond, **extra, **_pos(meta))

    def count(self, meta, c):
        kw, var, it, cond = c
        func = n.Name(name="count", **_tok(kw))
        return n.Aggregate(func=func, elem=None, var=str(var), var_offset=var.start_pos,
                           iter=it, cond=cond, **_pos(meta))

    def ifelse(self, meta, c):
        return n.IfElse(then=c[0], cond=c[1], orelse=c[2], **_pos(meta))

    def _logic(op):
        return lambda self, meta, c: n.Logic(op=op, left=c[0], right=c[1], **_pos(meta))

    def _cmp(op):
        return lambda self, meta, c: n.Compare(op=op, left=c[0], right=c[1], **_pos(meta))

    def _bin(op):
        return lambda self, meta, c: n.Binary(op=op, left=c[0], right=c[1], **_pos(meta))

    def _unary(op):
        return lambda self, meta, c: n.Unary(op=op, operand=c[0], **_pos(meta))

    or_op, and_op = _logic("or"), _logic("and")
    eq, ne, lt, le, gt, ge = _cmp("=="), _cmp("!="), _cmp("<"), _cmp("<="), _cmp(">"), _cmp(">=")
    in_op, not_in = _cmp("in"), _cmp("not in")
    add, sub, mul, floordiv, mod = _bin("+"), _bin("-"), _bin("*"), _bin("//"), _bin("%")
    not_op, neg = _unary("not"), _unary("-")
    del _logic, _cmp, _bin, _unary


_TRANSFORMER = _ToAst()

_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "in", "not"}
# How terminals read in "expected ..." messages.
_TERMINAL_WORDS = {"NAME": "a name", "INT": "a number", "STRING": "a symbol",
                   "$END": "the end of the expression"}
# Tokens that can start an operand: together they read as "an expression".
_ATOM_STARTERS = {"NAME", "INT", "STRING", "LPAR", "LSQB", "TRUE", "FALSE", "COUNT", "MINUS"}


def _terminal_word(name: str) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    for t in get_parser().terminals:
        if t.name == name and t.pattern.type == "str":
            return f"'{t.pattern.value}'"
    return name.lower()


# Tokens that may follow a complete operand: together they read as "an operator".
_OPERATORS = {"PLUS", "MINUS", "STAR", "PERCENT", "LESSTHAN", "MORETHAN", "IN", "NOT", "AND",
              "OR", "DOT", "LPAR", "LSQB"}


def _expected_phrase(expected: set[str]) -> str:
    if "PLUS" in expected and "AND" in expected:  # after an operand: an operator, or what ends it
        rest = {t for t in expected - _OPERATORS if not t.startswith("__ANON")}
        order = ["ELSE", "IF", "FOR", "COMMA", "RPAR", "RSQB", "$END"]
        words = ["an operator"] + [_terminal_word(t) for t in
                                   sorted(rest, key=lambda t: (order.index(t) if t in order
                                                               else len(order), t))]
        if len(words) == 1:
            return f"; expected {words[0]}"
        return f"; expected {', '.join(words[:-1])} or {words[-1]}"
    if "NAME" in expected and "INT" in expected:
        rest = sorted(expected - _ATOM_STARTERS - {"NOT"})
        words = ["an expression"] + [_terminal_word(t) for t in rest]
    else:
        words = sorted(_terminal_word(t) for t in expected)
    if len(words) > 6:
        return ""
    if len(words) == 1:
        return f"; expected {words[0]}"
    return "; expected one of " + ", ".join(words)


def _syntax_error(text: str, e: UnexpectedInput, loc: Locator) -> ExprError:
    if isinstance(e, UnexpectedCharacters):
        pos = e.pos_in_stream
        ch = text[pos]
        if ch in "'\"":
            end = text.find("\n", pos)
            length = (len(text) if end < 0 else end) - pos
            return loc.error(f"unterminated symbol: missing closing {ch}", pos, length)
        if ch == "!":
            return loc.error("unexpected '!'; use 'not' for negation and '!=' for inequality", pos)
        if ch == "&" or ch == "|":
            word = "and" if ch == "&" else "or"
            return loc.error(f"unexpected '{ch}'; use '{word}'", pos)
        return loc.error(f"unexpected character {ch!r}", pos)
    tok = getattr(e, "token", None)
    expected = set(getattr(e, "accepts", None) or getattr(e, "expected", None) or ())
    if not isinstance(e, UnexpectedToken) or tok.type == "$END":
        end = len(text.rstrip())
        return loc.error("unexpected end of expression" + _expected_phrase(expected), end)
    what = f"'{tok}'"
    hint = _expected_phrase(expected)
    if tok.type == "EQUAL":
        hint = "; use '==' to compare"
    elif str(tok) in _COMPARISONS and "PLUS" in expected:
        hint = "; comparisons do not chain, combine them with 'and'"
    return loc.error(f"unexpected {what}{hint}", tok.start_pos, len(tok))


# texts parsed in this process and their trees (nodes are frozen, and their offsets are the
# text's own, so a text parses to the same tree wherever it is written): loading a ruleset again
# with other options, or a ruleset that extends another, parses each expression once
_PARSED: dict[str, n.Node] = {}
PARSED_LIMIT = 8192


def parse(text: str, *, locate: Locate = None) -> n.Node:
    """Parse expression text into an AST; every problem is a located ExprError."""
    loc = locate if isinstance(locate, Locator) else Locator(locate)
    if not isinstance(text, str):
        raise loc.error(f"an expression must be text, got {type(text).__name__}", 0)
    if not text.strip():
        raise loc.error("empty expression", 0)
    node = _PARSED.get(text)
    if node is not None:
        return node
    try:
        tree = get_parser().parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(text, e, loc) from None
    try:
        node = _TRANSFORMER.transform(tree)
    except RecursionError:
        node = None
    if node is None or n.depth(node) > MAX_DEPTH:
        raise loc.error(f"expression is nested too deeply (more than {MAX_DEPTH} levels)", 0,
                        len(text))
    big = _big_literal(node)
    if big is not None:
        raise loc.error("integer literal beyond the integer bound: every int is between "
                        "-2**53 and 2**53", big.offset, big.length)
    if len(_PARSED) >= PARSED_LIMIT:
        _PARSED.clear()
    _PARSED[text] = node
    return node


def _big_literal(node: n.Node) -> n.IntLit | None:
    """The first integer literal past INT_LIMIT (the tree is at most MAX_DEPTH deep)."""
    if isinstance(node, n.IntLit) and node.value > INT_LIMIT:
        return node
    for child in node.children():
        found = _big_literal(child)
        if found is not None:
            return found
    return None
