"""Static checking: a type for every node, every name resolved, located errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from ..errors import ExprError, did_you_mean, plural
from . import nodes as n
from .builtins import AGGREGATES, BUILTINS, KEYWORDS, RESERVED, VARIADIC
from .env import Env, Func, Var
from .parser import Locator
from .types import BOOL, INT, ListType, NeverType, ObjType, SymType, Type, join


class Binder:
    """A bound variable: an aggregate's `NAME` or a user function's parameter."""

    __slots__ = ("name", "type")

    def __init__(self, name: str, type: Type):
        self.name = name
        self.type = type

    def __repr__(self) -> str:
        return f"Binder({self.name}: {self.type})"


Ref = Union[Binder, Var]


@dataclass
class Checked:
    """What the checker learned, keyed by node identity; the compiler reads it."""

    root: n.Node
    type: Type
    types: dict[int, Type] = field(default_factory=dict)
    refs: dict[int, Ref] = field(default_factory=dict)  # Name -> what it denotes
    funcs: dict[int, Func] = field(default_factory=dict)  # Call -> the function called
    binders: dict[int, Binder] = field(default_factory=dict)  # Aggregate -> its variable
    uses: set[str] = field(default_factory=set)  # env names referenced


def _kind(t: Type) -> str:
    if t == INT:
        return "int"
    if isinstance(t, SymType):
        return "symbol"
    return "other"


def comparable(a: Type, b: Type) -> bool:
    """Whether `==` between the two types makes sense (int vs symbol needs a scalar)."""
    if isinstance(a, NeverType) or isinstance(b, NeverType):
        return True
    if isinstance(a, ListType) and isinstance(b, ListType):
        return comparable(a.elem, b.elem)
    if {_kind(a), _kind(b)} == {"int", "symbol"}:
        return False
    return join(a, b) is not None


class Checker:
    """Checks one expression tree against an Env (plus optional pre-bound parameters)."""

    def __init__(self, env: Env, loc: Locator, params: list[Binder] | None = None):
        self.env = env
        self.loc = loc
        self.scope: dict[str, Binder] = {b.name: b for b in params or ()}

    def run(self, root: n.Node) -> Checked:
        """Check the whole tree; raises a located ExprError on the first problem."""
        self.out = Checked(root, INT)
        self.out.type = self.check(root)
        return self.out

    # -- helpers -------------------------------------------------------------------------

    def err(self, node: n.Node, message: str, suggestion: str | None = None) -> ExprError:
        return self.loc.error(message, node.offset, node.length, suggestion=suggestion)

    def where(self) -> str:
        return _where(self.env)

    def want(self, node: n.Node, expected: Type, what: str) -> Type:
        """Check `node` and require `expected` to accept it: `<what> must be int, got bool`."""
        t = self.check(node)
        self.literal_fits(node, expected)
        if not expected.accepts(t):
            raise self.err(node, f"{what} must be {expected}, got {t}")
        return t

    def literal_fits(self, node: n.Node, expected: Type) -> None:
        """Symbol literals where an enum is expected must be one of its values."""
        if isinstance(node, n.SymLit) and isinstance(expected, SymType) and expected.values:
            if node.value not in expected.values:
                allowed = ", ".join(sorted(expected.values))
                raise self.err(node, f"'{node.value}' is not one of: {allowed}",
                               did_you_mean(node.value, expected.values))
        elif isinstance(node, n.ListLit) and isinstance(expected, ListType):
            for item in node.items:
                self.literal_fits(item, expected.elem)
        elif isinstance(node, n.IfElse):
            self.literal_fits(node.then, expected)
            self.literal_fits(node.orelse, expected)

    def check(self, node: n.Node) -> Type:
        t = getattr(self, "check_" + type(node).__name__)(node)
        self.out.types[id(node)] = t
        return t

    # -- literals and names --------------------------------------------------------------

    def check_IntLit(self, node: n.IntLit) -> Type:
        return INT

    def check_BoolLit(self, node: n.BoolLit) -> Type:
        return BOOL

    def check_SymLit(self, node: n.SymLit) -> Type:
        return SymType()

    def check_ListLit(self, node: n.ListLit) -> Type:
        elem: Type = NeverType()
        for item in node.items:
            t = self.check(item)
            j = join(elem, t)
            if j is None:
                raise self.err(item, f"list elements must have one type: {t} does not mix "
                                     f"with {elem}")
            elem = j
        return ListType(elem)

    def check_Name(self, node: n.Name) -> Type:
        name = node.name
        if name in self.scope:
            b = self.scope[name]
            self.out.refs[id(node)] = b
            return b.type
        if name in self.env.vars:
            var = self.env.vars[name]
            self.out.refs[id(node)] = var
            self.out.uses.add(name)
            return var.type
        if name in self.env.funcs or name in BUILTINS or name in AGGREGATES:
            raise self.err(node, f"'{name}' is a function; call it as {name}(...)")
        candidates = [*self.env.names(), *BUILTINS, *self.scope]
        raise self.err(node, f"unknown name '{name}'{self.where()}",
                       did_you_mean(name, candidates))

    def check_Attr(self, node: n.Attr) -> Type:
        t = self.check(node.obj)
        at = n.Name(name=node.name, offset=node.name_offset, length=len(node.name))
        if not isinstance(t, ObjType):
            raise self.err(at, f"{t} has no attributes (reading '.{node.name}')")
        if node.name not in t.attrs:
            raise self.err(at, f"{t.name} has no attribute '{node.name}'",
                           did_you_mean(node.name, t.attrs))
        return t.attrs[node.name].type

    def check_Index(self, node: n.Index) -> Type:
        t = self.check(node.obj)
        if not isinstance(t, ListType):
            raise self.err(node.obj, f"only a list can be indexed, got {t}")
        it = self.check(node.index)
        if not INT.accepts(it):
            raise self.err(node.index, f"a list index is an int, got {it}")
        return t.elem

    # -- calls ---------------------------------------------------------------------------

    def resolve_func(self, func: n.Node, generator: bool) -> tuple[str, Func | None]:
        """The name and Func a call refers to (Func None for aggregate-only names)."""
        if not isinstance(func, n.Name):
            raise self.err(func, "only a named function can be called")
        name = func.name
        if name in self.scope or name in self.env.vars:
            t = self.scope[name].type if name in self.scope else self.env.vars[name].type
            raise self.err(func, f"'{name}' is not a function (it is {t})")
        if name in BUILTINS or name in AGGREGATES:
            return name, BUILTINS.get(name)
        if name in self.env.funcs:
            f = self.env.funcs[name]
            if f.unavailable:
                raise self.err(func, f"{name}() cannot be called{self.where()}: {f.unavailable}")
            self.out.uses.add(name)
            return name, f
        candidates = [*self.env.funcs, *BUILTINS, *(() if not generator else AGGREGATES)]
        raise self.err(func, f"unknown function '{name}'{self.where()}",
                       did_you_mean(name, candidates))

    def check_Call(self, node: n.Call) -> Type:
        name, func = self.resolve_func(node.func, generator=False)
        if func is None:
            raise self.err(node, f"{name}() takes a generator: {name}(EXPR for NAME in LIST)")
        params = list(func.params)
        args = node.args
        if params and params[-1] is VARIADIC:
            params = params[:-1]
            if len(args) < len(params):
                raise self.err(node, f"{name}() takes at least "
                                     f"{plural(len(params), 'argument')}, got {len(args)}"
                               + (f"; for a list use {name}(x for x in LIST)"
                                  if name in AGGREGATES else ""))
            params += [params[-1]] * (len(args) - len(params))
        elif len(args) != len(params):
            raise self.err(node, f"{name}() takes {plural(len(params), 'argument')}, "
                                 f"got {len(args)}")
        types = [self.want(a, p, f"argument {i} of {name}()")
                 for i, (a, p) in enumerate(zip(args, params), 1)]
        self.out.funcs[id(node)] = func
        if isinstance(func.ret, Type):
            return func.ret
        try:
            return func.ret(types)
        except TypeError as e:
            raise self.err(node, f"{name}(): {e}") from None

    def check_Aggregate(self, node: n.Aggregate) -> Type:
        name, func = self.resolve_func(node.func, generator=True)
        spec = AGGREGATES.get(name)
        if spec is None:
            raise self.err(node.func, f"{name}() does not take a generator; only "
                                      f"{', '.join(a for a in AGGREGATES if a != 'count')} do")
        it = self.check(node.iter)
        if not isinstance(it, ListType):
            raise self.err(node.iter, f"{name}() iterates over a list, got {it}")
        var = n.Name(name=node.var, offset=node.var_offset, length=len(node.var))
        if node.var in RESERVED or node.var in self.env.funcs:
            raise self.err(var, f"'{node.var}' names a function and cannot be a bound variable")
        if node.kw is not None:
            kw = n.Name(name=node.kw, offset=node.kw_offset, length=len(node.kw))
            if node.kw != "default":
                raise self.err(kw, f"unknown keyword argument '{node.kw}'",
                               did_you_mean(node.kw, ["default"]))
            if not spec.default:
                raise self.err(kw, f"{name}() takes no default; only min() and max() do")
            self.want(node.default, INT, f"the default of {name}()")
        binder = Binder(node.var, it.elem)
        self.out.binders[id(node)] = binder
        outer = self.scope
        self.scope = {**outer, node.var: binder}
        try:
            if node.elem is not None:
                self.want(node.elem, spec.elem, f"each value of {name}()")
            if node.cond is not None:
                self.want(node.cond, BOOL, "the filter")
        finally:
            self.scope = outer
        return spec.result

    # -- operators -----------------------------------------------------------------------

    def check_Unary(self, node: n.Unary) -> Type:
        want = INT if node.op == "-" else BOOL
        self.want(node.operand, want, f"the operand of '{node.op}'")
        return want

    def check_Binary(self, node: n.Binary) -> Type:
        if node.op == "+":
            lt, rt = self.check(node.left), self.check(node.right)
            if isinstance(lt, ListType) or isinstance(rt, ListType):
                if not (isinstance(lt, ListType) and isinstance(rt, ListType)):
                    bad = node.right if isinstance(lt, ListType) else node.left
                    raise self.err(bad, f"'+' joins two lists or adds two ints, got {lt} "
                                        f"and {rt}")
                j = join(lt, rt)
                if j is None:
                    raise self.err(node, f"cannot concatenate {lt} and {rt}")
                return j
            for side, t in ((node.left, lt), (node.right, rt)):
                if not INT.accepts(t):
                    raise self.err(side, f"the operands of '+' must be int (or both lists), "
                                         f"got {t}")
            return INT
        self.want(node.left, INT, f"the operands of '{node.op}'")
        self.want(node.right, INT, f"the operands of '{node.op}'")
        return INT

    def check_Logic(self, node: n.Logic) -> Type:
        self.want(node.left, BOOL, f"the operands of '{node.op}'")
        self.want(node.right, BOOL, f"the operands of '{node.op}'")
        return BOOL

    def check_IfElse(self, node: n.IfElse) -> Type:
        self.want(node.cond, BOOL, "the condition")
        a, b = self.check(node.then), self.check(node.orelse)
        j = join(a, b)
        if j is None:
            raise self.err(node, f"the two branches have incompatible types: {a} and {b}")
        return j

    def check_Compare(self, node: n.Compare) -> Type:
        op = node.op
        if op in ("<", "<=", ">", ">="):
            self.want(node.left, INT, f"the operands of '{op}'")
            self.want(node.right, INT, f"the operands of '{op}'")
            return BOOL
        lt, rt = self.check(node.left), self.check(node.right)
        if op in ("==", "!="):
            if not comparable(lt, rt):
                raise self.err(node, f"cannot compare {lt} with {rt}")
            self.literal_fits(node.right, lt)
            self.literal_fits(node.left, rt)
            return BOOL
        if not isinstance(rt, ListType):
            raise self.err(node.right, f"'{op}' needs a list on the right, got {rt}")
        if not comparable(lt, rt.elem):
            raise self.err(node, f"cannot look for {lt} in {rt}")
        self.literal_fits(node.left, rt.elem)
        self.literal_fits(node.right, ListType(lt))
        return BOOL


def check_env(env: Env, loc: Locator, length: int) -> None:
    """An env may not redefine built-in names or keywords (they could never be reached)."""
    clash = sorted((set(env.vars) | set(env.funcs)) & RESERVED)
    if clash:
        what = "a keyword" if clash[0] in KEYWORDS else "a built-in function"
        raise loc.error(f"'{clash[0]}' is {what}; the names{_where(env)} cannot redefine it",
                        0, length)


def _where(env: Env) -> str:
    return f" in {env.where}" if env.where else ""
