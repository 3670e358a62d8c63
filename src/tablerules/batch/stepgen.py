"""The hand loop as a generator: one decision at a time, for the step engine's API (steps.py).

`source(loop, lay, consts)` rewrites the kernel's hand loop (`_hand` of kernel.LOOP, with
layout.py's `_layout` written into it) as `_steps(at, n, dealer)`, a numba generator that stops
at every decision instead of choosing: it puts the legal actions, sorted, in io[1:1 + n] and
yields n (the seat deciding is S[ACTOR] in its buffer, which steps.py reads when asked); the
caller puts the action taken in io[0] and resumes it. After an action that is not among them
the same decision is yielded again with its count's bits inverted (a negative number: one stop
a decision, each stop costing compile time). A hand it cannot go on with (the kernel's error
codes, ERRORS) leaves the code in its result row and ends, as an ended hand does with 0 there.
The branches on the module's constants are taken here (_Fold), not left to numba. The rewrite
is of the fixed template text only (the loop's own source, parsed with `ast`): no ruleset text
reaches it, and the module's check of generated names covers it.
"""

from __future__ import annotations

import ast
import functools
import textwrap

from .typed import on_its_own

# the loop's arguments that `_layout` shares: the call passes them under the same names
_SHARED = ("S", "H", "R", "c", "stock", "nstock", "leader", "acts", "step", "out", "nleg", "i")
_PREFIX = "l_"  # the layout's own locals, renamed so none meets one of the loop's


def _function(src: str, name: str) -> ast.FunctionDef:
    for node in ast.parse(src).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    raise RuntimeError(f"the kernel template has no {name}")


def _is_choose(stmt) -> bool:
    return (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "_choose")


def _stmts(text: str) -> list:
    return ast.parse(text).body


def _decision(stmt: ast.Assign, playouts: bool) -> list:
    """`x = _choose(S, H, R, acts, n, ...)` as: stop here with acts[:n] sorted, x the action
    taken; past bounds.max_steps the hand ends with error 2, none legal with error 1. With
    `playouts` (a kernel with agents: Steps.playout), the decisions to replay are taken first
    without stopping, then with the setting's `auto` every later one by the seat's agent."""
    x = stmt.targets[0].id
    n = ast.unparse(stmt.value.args[4])
    stop = f"""
for q_ in range({n}):
    io[1 + q_] = acts[q_]
bad_ = 0
while True:
    yield {n} ^ bad_
    {x} = io[0]
    if _in({x}, acts[:{n}]):
        break
    bad_ = -1
if HAS_RULES:
    _k_obs_seen(S, {x})
{textwrap.dedent(_VIEWS)}"""
    if playouts:
        stop = f"""
if rp_ < rpn_:
    {x} = io[io_rp + rp_]
    rp_ += 1
    if not _in({x}, acts[:{n}]):
        res[0] = 12
        return
    if HAS_RULES:
        _k_obs_seen(S, {x})
elif io[io_head + {HEAD.index('auto')}]:
    if HAS_RULES:
        {x} = _k_rules(S, H, R, acts, np.int64({n}))
    else:
        {x} = acts[_rand(R, {n})]
else:
{textwrap.indent(stop, "    ")}"""
    return _stmts(f"""
if {n} == 0:
    res[0] = 1
    return
_sort(acts, {n})
{stop}
if step >= ROW_STEPS:
    res[0] = 7
    return
hist[1 + 2 * step] = S[ACTOR]
hist[2 + 2 * step] = {x}
hist[0] = step + 1
if step + 1 > MAX_STEPS:
    res[0] = 2
    return
""")


def _is_guard(stmt) -> bool:
    """`if a < 0: return ...`: the check after a _choose, or after `_layout`."""
    return (isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare)
            and isinstance(stmt.test.ops[0], ast.Lt) and len(stmt.body) == 1
            and isinstance(stmt.body[0], ast.Return) and not stmt.orelse)


class _Rewrite(ast.NodeTransformer):
    """Decisions become stops; an error's `return k` leaves k in res[0]; `_layout` is written
    in place (its `return step`, the lay's end, leaves its loop)."""

    def __init__(self, lay: ast.FunctionDef | None, playouts: bool):
        self.lay = lay
        self.playouts = playouts

    def _block(self, body: list) -> list:
        out = []
        skip = False
        for stmt in body:
            if skip:
                skip = False
                if _is_guard(stmt):
                    continue
            if _is_choose(stmt):
                out += _decision(stmt, self.playouts)
                skip = True
                continue
            if self.lay is not None and _is_layout_call(stmt):
                out += self._block(_inlined(self.lay))
                skip = True
                continue
            if isinstance(stmt, ast.Return):
                out += _returned(stmt)
                continue
            out.append(self.visit(stmt))
        return out or [ast.Pass()]

    def generic_visit(self, node):
        for field in ("body", "orelse"):
            if getattr(node, field, None):
                setattr(node, field, self._block(getattr(node, field)))
        return node


def _returned(stmt: ast.Return) -> list:
    value = stmt.value
    if value is None or (isinstance(value, ast.Constant) and value.value == 0):
        return [ast.Return(value=None)]
    return [ast.Assign(targets=[_sub("res", 0)], value=value, lineno=0), ast.Return(value=None)]


def _sub(name: str, k: int) -> ast.Subscript:
    return ast.Subscript(value=ast.Name(name, ast.Load()), slice=ast.Constant(k), ctx=ast.Store())


def _is_layout_call(stmt) -> bool:
    return (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "_layout")


class _Locals(ast.NodeTransformer):
    def __init__(self, names):
        self.names = names

    def visit_Name(self, node):
        if node.id in self.names:
            node.id = _PREFIX + node.id
        return node


class _LayEnd(ast.NodeTransformer):
    """In the layout's loop, outside any loop of its own: `return step` leaves the loop."""

    def visit_While(self, node):
        return node

    visit_For = visit_While

    def visit_Return(self, node):
        if isinstance(node.value, ast.Name) and node.value.id == "step":
            return ast.Break()
        return node


def _inlined(lay: ast.FunctionDef) -> list:
    """The layout's body for its call: its locals renamed, its final `while True` loop's
    `return step` turned into a break (the decisions' checks are dropped with them)."""
    lay = ast.parse(ast.unparse(lay)).body[0]  # a fresh copy for every call site
    args = {a.arg for a in lay.args.args}
    if tuple(a.arg for a in lay.args.args) != _SHARED:
        raise RuntimeError("the layout's arguments are not the hand loop's")
    assigned = {node.id for node in ast.walk(lay)
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)} - args
    _Locals(assigned).visit(lay)
    *head, loop = lay.body
    if not (isinstance(loop, ast.While) and isinstance(loop.test, ast.Constant)):
        raise RuntimeError("the layout's body does not end in its `while True` loop")
    loop.body = [_LayEnd().visit(s) for s in loop.body]
    for node in ast.walk(loop):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Name) \
                and node.value.id == "step":
            raise RuntimeError("the layout returns from within a loop of its own")
    return head + [loop]


_UNKNOWN = object()


class _Fold(ast.NodeTransformer):
    """The branches on the module's constants taken at build time. numba prunes them itself,
    but after it has listed what a generator keeps across its stops, and a variable set only in
    a pruned branch is then kept with no type ("state variable types cannot be found")."""

    def __init__(self, consts: dict):
        self.consts = consts

    def value(self, node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.consts.get(node.id, _UNKNOWN)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            v = self.value(node.operand)
            return _UNKNOWN if v is _UNKNOWN else not v
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            a, b = self.value(node.left), self.value(node.comparators[0])
            if a is _UNKNOWN or b is _UNKNOWN:
                return _UNKNOWN
            op = type(node.ops[0])
            return {ast.Eq: a == b, ast.NotEq: a != b, ast.Lt: a < b, ast.LtE: a <= b,
                    ast.Gt: a > b, ast.GtE: a >= b}.get(op, _UNKNOWN)
        return _UNKNOWN

    def test(self, node):
        """A test folded as a value (visit), then, where only its truth counts, a known last
        operand that cannot change it taken out (`x and True`, `x or 0`) and one that decides
        it made the whole test (`x or 1`, `x and 0`)."""
        node = self.visit(node)
        if isinstance(node, ast.BoolOp):
            last = self.value(node.values[-1])
            if last is not _UNKNOWN:
                if bool(last) != isinstance(node.op, ast.And):
                    return ast.Constant(bool(last))
                rest = node.values[:-1]
                node = rest[0] if len(rest) == 1 else ast.BoolOp(op=node.op, values=rest)
        v = self.value(node)
        return node if v is _UNKNOWN else ast.Constant(bool(v))

    def visit_BoolOp(self, node):
        """`a and b`, `a or b` with a known operand as Python evaluates them: the value."""
        values = [self.visit(v) for v in node.values]
        is_and = isinstance(node.op, ast.And)
        keep = []
        for k, part in enumerate(values):
            v = self.value(part)
            if v is _UNKNOWN:
                keep.append(part)
                continue
            last = k == len(values) - 1
            if bool(v) != is_and or last:  # it decides (or, last, is the value)
                if not keep:
                    return ast.Constant(v)
                keep.append(ast.Constant(v))
                break
            # a true operand of an `and` (a false one of an `or`) that is not the last: skipped
        return keep[0] if len(keep) == 1 else ast.BoolOp(op=node.op, values=keep)

    def visit_IfExp(self, node):
        node = self.generic_visit(node)
        v = self.value(node.test)
        if v is _UNKNOWN:
            return node
        return node.body if v else node.orelse

    def visit_UnaryOp(self, node):
        node = self.generic_visit(node)
        v = self.value(node)
        return ast.Constant(v) if isinstance(node.op, ast.Not) and v is not _UNKNOWN else node

    def block(self, body: list) -> list:
        out = []
        for stmt in body:
            tests = isinstance(stmt, (ast.If, ast.While))
            for field, value in ast.iter_fields(stmt):
                if isinstance(value, ast.expr):
                    setattr(stmt, field, self.test(value) if tests and field == "test"
                            else self.visit(value))
            if tests:
                v = self.value(stmt.test)
                if isinstance(stmt, ast.If) and v is not _UNKNOWN:
                    out += self.block(stmt.body if v else stmt.orelse)
                    continue
                if isinstance(stmt, ast.While) and v is False:
                    out += self.block(stmt.orelse)
                    continue
            for field in ("body", "orelse"):
                if isinstance(getattr(stmt, field, None), list):
                    setattr(stmt, field, self.block(getattr(stmt, field)))
            if getattr(stmt, "body", None) == []:
                stmt.body = [ast.Pass()]
            out.append(stmt)
        return out


def template(loop: str, lay: str) -> str:
    """The generator's text before any ruleset's constants are taken (both forms, with and
    without play-outs): what kernel.py's check of generated names allows in it."""
    # HAS_RULES there but not known: the play-out branches written, none of them taken
    return _source(loop, lay, ()) + _source(loop, lay, (("HAS_RULES", _UNKNOWN),))


def source(loop: str, lay: str, consts: dict) -> str:
    """`_steps(at, n, dealer)` (see _source); the same constants give the same text, so it is
    made once (a quarter of a second each)."""
    return _source(loop, lay, tuple(sorted(consts.items())))


@functools.lru_cache(maxsize=64)
def _source(loop: str, lay: str, items: tuple) -> str:
    """`_steps(at, n, dealer)`: the hand of `_hand` in `loop`, with `_layout` of `lay` written in,
    one decision at a time (see the module), on the caller's buffer `io` of n int64s at address
    `at`, and the parts of B within it whose places `_steps_places()` gives (steps.py writes the
    deal there and reads the rest)."""
    hand = _function(loop, "_hand")
    # play-outs (a replayed start, then the agents) only where a strategy is compiled in
    consts = dict(items)
    playouts = bool(consts.get("HAS_RULES"))
    body = _Rewrite(_function(lay, "_layout"), playouts)._block(_stmts(PROLOGUE) + hand.body)
    body = _Fold(consts).block(body)
    # `out`, `nleg` and `i` only served _choose: the stops record nothing
    inner = ast.unparse(ast.fix_missing_locations(ast.Module(body=body, type_ignores=[])))
    text = "def _steps(at, n, dealer):\n" + PLACES + textwrap.indent(inner, "    ")
    used = {n.id for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name)}
    for name in ("out", "nleg", "_choose", "_layout"):
        if name in used:
            raise RuntimeError(f"the generator still uses {name}")
    out = "@njit(cache=True)\n" + text + "\n\n" + _PLACES_FN + "\n\n" + _AFTER
    if playouts:  # called, not inlined at every stop: the generator compiles faster
        out += "\n\n" + on_its_own("def _k_obs_seen(S, a):\n    _k_obs_record(S, a)\n")
    return out


# the buffer B's parts, in order: the state, the hands, the deal (masks per seat), the stock as
# dealt, the hand's result row, the actions being offered, the stock as it is shared out, the
# decisions taken (their count, then seat and action of each), the random draw's state; none
# needs setting. B lies within `io`, the caller's one array.array (cheap for Python to read and
# write), which the generator is given as its address and length: io[0] the action taken,
# io[1:1 + n] the legal actions offered, then from io_head the hand's setting (HEAD), from io_b
# B, from io_ids the deal as given (each seat's piece ids, then the stock's) and from io_rp the
# decisions to take first, without stopping (a play-out's hand so far)
_PARTS = ("S", "H", "deal", "stock", "res", "acts", "stk", "hist", "rng")
_WIDTH = "NP * NARMS + 64 + OFF.shape[2] + DCH.shape[2]"  # the most actions a decision offers
_SIZES = ("NSLOTS", "SEATS", "SEATS", "max(STOCKN, 1)", "RESW", _WIDTH, "STOCKN + 1",
          "1 + 2 * ROW_STEPS", "1")
# the setting, from io_head: every decision after the replayed ones taken by the seat's agent
# (1) or stopped at (0); its generator's seed; how many decisions to replay; the match the hand
# is one of (in a match or not, hands scored so far, the turn before the deal, the score per
# side when it was dealt); each seat's strategy (0: random)
HEAD = ("auto", "seed", "replay", "in_match", "hands_played", "turn")
# before the hand: the state cleared (but for the legal actions' copy: NZERO), the deal as
# masks (a number that is no piece's id: error 13, which steps.py reads a deal's pairs into for
# a pair that is no piece; a piece named twice: error 11)
PROLOGUE = """
for k in range(NZERO):
    S[k] = 0
for k in range(RESW):
    res[k] = 0
hist[0] = 0
seen = np.int64(0)
for s in range(SEATS):
    m = np.int64(0)
    for k in range(HAND_SIZE):
        t = io[io_ids + s * HAND_SIZE + k]
        if t < 0 or t >= NP:
            res[0] = 13
            return
        m |= np.int64(1) << t
    deal[s] = m
    seen |= m
for k in range(STOCKN):
    t = io[io_ids + SEATS * HAND_SIZE + k]
    if t < 0 or t >= NP:
        res[0] = 13
        return
    stock[k] = t
    seen |= np.int64(1) << t
if _popcount(seen) != SEATS * HAND_SIZE + STOCKN:
    res[0] = 11
    return
S[IN_MATCH] = io[io_head + {in_match}]
S[HANDS_PLAYED] = io[io_head + {hands_played}]
S[TURN] = io[io_head + {turn}]
for s in range(NSIDES):
    S[SCORE + s] = io[io_head + {n} + s]
for s in range(SEATS):
    S[AGENTS + s] = io[io_head + {n} + NSIDES + s]
R = rng.view(np.uint64)
_seed(R, io[io_head + {seed}], 0)
rp_ = 0
rpn_ = io[io_head + {replay}]
""".format(n=len(HEAD), **{k: i for i, k in enumerate(HEAD)})
# where io's parts start; the views of B (S is B itself: its slots come first)
_IO = (f"    io_head = 1 + {_WIDTH}\n    io_b = io_head + {len(HEAD)} + NSIDES + SEATS\n"
       f"    io_ids = io_b + {' + '.join(_SIZES)}\n"
       "    io_rp = io_ids + SEATS * HAND_SIZE + STOCKN\n")
# io and B from the address and length of the caller's buffer (native.py: no reference counted)
_MEM = ("    io = carray(int64s_at(at), (n,))\n"
        f"    B = io[io_b:io_b + {' + '.join(_SIZES)}]\n")
# after a stop, the views most used made again rather than kept across it (a hand runs faster
# for it; every view made again costs compile time)
_VIEWS = ("S = B\nH = B[NSLOTS:NSLOTS + SEATS]\n"
          f"acts = B[NSLOTS + {' + '.join(_SIZES[1:5])}:NSLOTS + {' + '.join(_SIZES[1:6])}]\n")
_ALL_VIEWS = "    S = B\n    o_ = NSLOTS\n" + "".join(
    f"    {p} = B[o_:o_ + {z}]\n    o_ += {z}\n" for p, z in zip(_PARTS[1:], _SIZES[1:]))
PLACES = _IO + _MEM + _ALL_VIEWS
# the start of each part of B, then its size, then where io's setting, deal and replay start
_PLACES_FN = ("@njit(cache=True)\ndef _steps_places():\n" + _IO + "    o_ = 0\n"
              f"    out_ = np.zeros({len(_PARTS) + 5}, dtype=np.int64)\n"
              + "".join(f"    o_ += {z}\n    out_[{k + 1}] = o_\n" for k, z in enumerate(_SIZES))
              + f"    out_[{len(_PARTS) + 1}] = io_head\n    out_[{len(_PARTS) + 2}] = io_ids\n"
              f"    out_[{len(_PARTS) + 3}] = io_rp\n    out_[{len(_PARTS) + 4}] = io_b\n"
              "    return out_\n")

# after a hand in a match, what play_matches does: its score added (not a hand thrown in), the
# hands scored counted; 1 when the match is over with it (a lay that won it included), 0 when
# not, -1 when the hand stopped with an error
_AFTER = ("@njit(cache=True)\ndef _steps_after(at, n):\n" + PLACES
          + """    if res[0] != 0:
        return -1
    if res[1] == 0:
        for s in range(NSIDES):
            S[SCORE + s] += res[9 + NSIDES + s]
        S[HANDS_PLAYED] += 1
        if S[IN_MATCH] and _k_match_over(S, H):
            return 1
    return 1 if S[CUT] else 0
""")
