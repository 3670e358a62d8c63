"""What the batch engine's generated source looks like, built without compiling it.

The games it plays are checked against the step engine elsewhere (test_batch*.py, replays of
every shipped ruleset); here: a function compiled at two places that read its names alike is
one kernel function, and a test of a piece's attribute against a constant is a mask made once.
"""

from __future__ import annotations

import ast
import random
import re

import pytest

from tablerules.batch import seat_agents
from tablerules.batch.kernel import Builder
from tablerules.agents import make_agent
from tablerules.game import load_game
from tablerules.load.ruleset import builtin_names

from support import kernel_source

pytest.importorskip("numba")

# a function compiled on its own is an inlined def passing pointers to its body, `<name>_at`
DEF = re.compile(r"^def (_[ual]\d+)(_at)?\(", re.M)
LOCAL = re.compile(r"\b_[bm]\d+\b")


def generated(src: str) -> dict[str, str]:
    """Each generated function of a ruleset's (`_u` its functions, `_a` aggregates, `_l` lists)
    by its name, as its text with its own name, its locals and its memo slots left out."""
    out = {}
    starts = [m.start() for m in DEF.finditer(src)] + [len(src)]
    for a, b in zip(starts, starts[1:]):
        text = src[a:b].split("\n@njit")[0]
        m = DEF.match(text)
        name = m.group(1)
        if not m.group(2) and f"return {name}_at(" in text:
            continue  # the body, below, is the function
        seen: dict[str, str] = {}
        text = re.sub(rf"\b{name}(_at)?\b", "_self", text)
        text = LOCAL.sub(lambda m: seen.setdefault(m.group(0), f"_v{len(seen)}"), text)
        out[name] = re.sub(r"MEMO \+ \d+", "MEMO + k", text)
    return out


def mask_value(text: str) -> int:
    """The value of a mask the generator wrote as an expression of ints, `&`, `|` and `~`."""
    ops = {ast.BitAnd: int.__and__, ast.BitOr: int.__or__}

    def value(node):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
            return ~value(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            return ops[type(node.op)](value(node.left), value(node.right))
        raise AssertionError(f"not a mask of constants: {text}")
    return value(ast.parse(text, mode="eval").body)


def counted_masks(src: str) -> list[int]:
    """The masks of the pieces each count of one parameter looks at (its first line)."""
    return sorted(mask_value(t.split("\n")[1].split(" = ", 1)[1])
                  for t in generated(src).values()
                  if t.startswith("def _self(S, H, _v0):") and "acc += 1" in t)


@pytest.mark.parametrize("game", builtin_names())
@pytest.mark.parametrize("agents", ["random", "rules"])
def test_no_two_kernel_functions_say_the_same(game, agents):
    gd = load_game(game, typed=True).definition
    seats = None if agents == "random" else \
        seat_agents(gd, [make_agent("rules", random.Random(0), gd)])
    defs = generated(Builder(gd, seats).build() if seats else Builder(gd).build())
    assert defs  # every shipped ruleset has functions or aggregates of its own
    by_text: dict[str, list[str]] = {}
    for name, text in defs.items():
        by_text.setdefault(text, []).append(name)
    assert [names for names in by_text.values() if len(names) > 1] == []


def test_a_piece_attribute_compared_with_a_constant_is_a_mask(tmp_path):
    f = tmp_path / "fives.yaml"
    f.write_text("""
name: fives
extends: texas42
functions:
  "fives_taken(s: int)": "count(t in pieces if t.count == 5 and taken_by(t) == s)"
  "big_taken(s: int)": "count(t in pieces if 10 <= t.count and taken_by(t) == s)"
contracts:
  points:
    outcome:
      made: "points(bidder_side) >= bid.level or fives_taken(bidder) + big_taken(bidder) > 9"
""", encoding="utf-8")
    gd = load_game(str(f), typed=True).definition
    count = gd.pieces.attrs["count"]
    fives = sum(1 << t for t, c in enumerate(count) if c == 5)
    tens = sum(1 << t for t, c in enumerate(count) if c >= 10)
    src = Builder(gd).build()
    assert counted_masks(src) == sorted([fives, tens])
    # the comparison is not made again for each piece
    assert not re.search(r"_t\d+\[_b\d+\] (==|<=|>=) (5|10)\b", src)


def test_a_ruleset_function_of_the_piece_alone_is_a_mask_in_a_test(tmp_path):
    f = tmp_path / "plain.yaml"
    f.write_text("""
name: plain
extends: texas42
functions:
  "plain(t: tile)": "not t.double and t.count == 0"
  "plain_taken(s: int)": "count(t in pieces if plain(t) and taken_by(t) == s)"
contracts:
  points:
    outcome:
      made: "points(bidder_side) >= bid.level or plain_taken(bidder) > 99"
""", encoding="utf-8")
    gd = load_game(str(f), typed=True).definition
    a = gd.pieces.attrs
    plain = sum(1 << t for t in range(len(a["count"]))
                if not a["double"][t] and a["count"][t] == 0)
    assert counted_masks(Builder(gd).build()) == [plain]


def test_a_payment_of_the_payee_alone_is_worked_out_once_a_payee():
    # Taroky's holdings are paid to the holder by each of the others: one value a payee, not
    # one for each payer; the contract's payment and Pagat's read both and are asked for each
    gd = load_game("taroky", typed=True).definition
    src = Builder(gd).build()
    # _settle is compiled on its own: its body is _settle_at, given the arrays as pointers
    settle = src[src.index("def _settle_at("):].split("\n@njit")[0]
    by_payee = settle.count("    for q in range(SEATS):\n        S[PAYEE] = q\n        v = ")
    by_pair = settle.count("            S[PAYEE] = q\n            v = ")
    assert (by_payee, by_pair) == (len(gd.match.pays) - 2, 2)


def test_who_played_each_card_of_a_count_is_read_from_a_mask():
    # Taroky's holdings count a seat's cards of a kind by played_by(t) == s (after the talon):
    # the mask of the cards each seat has played, not a look at each card's player
    gd = load_game("taroky", typed=True).definition
    src = Builder(gd).build()
    loops = [t for name, t in generated(src).items() if name.startswith("_a")]
    assert loops and "_playedm(S, " in "".join(loops)
    assert not [t for t in loops if "S[PLAYED + " in t]


def test_a_function_of_the_piece_and_a_list_is_still_looked_at_piece_by_piece(tmp_path):
    # a list argument is no value known before the loop: the call is made for each piece
    f = tmp_path / "listarg.yaml"
    f.write_text("""
name: listarg
extends: texas42
functions:
  "in_list(t: tile, h: list[tile])": "t in h and t.count == 5"
  "fives_of(h: list[tile])": "count(t in pieces if in_list(t, h))"
contracts:
  points:
    outcome:
      made: "points(bidder_side) >= bid.level or fives_of(dealt_to(bidder)) > 9"
""", encoding="utf-8")
    src = Builder(load_game(str(f), typed=True).definition).build()
    loops = [t for t in generated(src).values() if "acc += 1" in t]
    assert len(loops) == 1 and "continue" in loops[0]


@pytest.mark.parametrize("game", ["texas42", "moon", "allfives", "taroky"])
def test_a_function_compiled_on_its_own_is_given_pointers_not_arrays(game):
    # numba passes an array to a function it compiles on its own as seven values on the stack:
    # such a function takes the state, hands, generator and actions as pointers (ptr), through
    # an inlined function of its name; only the hand loop (once a hand) and the drivers that
    # allocate (NRT_FUNCTIONS) take arrays
    from tablerules.batch.kernel import NRT_FUNCTIONS
    from tablerules.batch.typed import ARRAYS

    gd = load_game(game, typed=True).definition
    src = Builder(gd, seat_agents(gd, [make_agent("rules", random.Random(0), gd)])).build()
    bodies = 0
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.FunctionDef):
            dec = ast.unparse(node.decorator_list[0]) if node.decorator_list else ""
            params = {a.arg for a in node.args.args}
            if "njit" in dec and "inline" not in dec and node.name not in NRT_FUNCTIONS \
                    and node.name != "_hand" and params & ARRAYS:
                assert node.name.endswith("_at"), node.name
                bodies += 1
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id.endswith("_at") and node.func.id != "int64s_at":
            bare = [a.id for a in node.args if isinstance(a, ast.Name) and a.id in ARRAYS]
            assert not bare, (node.func.id, bare)
    assert bodies >= 1  # the rules agent's call at every decision at least


def test_a_value_only_the_loop_of_its_best_number_reads_has_no_function_of_its_own(tmp_path):
    # `peak` read only by `lowest`, the one loop that finds both (batch/strategy.py _arg_best):
    # that loop sets peak's kept slot, and peak's own max loop and kept function are not made;
    # read by a rule too, they are
    def kernel(choose: str) -> str:
        f = tmp_path / "peak.yaml"
        f.write_text(f"""name: peak-probe
functions:
  "f(x: int)": "count(t in hand if has(t, x)) * 3 - x"
values:
  peak: "max(f(y) for y in range(0, 7))"
  lowest: "min(x for x in range(0, 7) if f(x) == peak)"
play:
  - name: by_the_peak
    only: "a.kind == 'play'"
    choose: "{choose}"
""", encoding="utf-8")
        return kernel_source("moon", f)

    alone = kernel("a.piece.pips * lowest")
    read = kernel("a.piece.pips * lowest + peak")
    assert alone.count("        elif v == acc and ") == read.count("        elif v == acc and ") == 1
    # peak's own loop (`if not found or v > acc:` but in the one loop) and its kept function
    assert alone.count("if not found or v > acc:") == 1
    assert read.count("if not found or v > acc:") == 2
    kept = re.compile(r"^def _c\d+(_at)?\(S, H\):\n    if S\[KEEP \+ 0\]:", re.M)
    assert not kept.search(alone) and kept.search(read)


def test_the_module_check_refuses_text_no_generator_makes_in_a_table_or_in_code():
    """Every built module passes `check_parts` before numba sees it; part by part, a table line
    by its shape and any other part by its tree, as strictly as the whole module's walk."""
    from tablerules.batch.kernel import HELPERS, check_parts

    good = ["X_AT = 3", "_t4 = np.array([0, -1, 2], dtype=np.int64)",
            "_x5 = np.array([1, 2, 3, 4], dtype=np.int64).reshape((2, 2))", HELPERS,
            "def _h7(S, H):\n    return S[X_AT] + _t4[1]\n"]
    check_parts(good, "")
    for bad in ("X_AT = 'os'",
                "_t4 = np.array(['rm -rf'], dtype=np.int64)",
                "_t4 = np.array([0], dtype=np.int64); import os",
                "hostile = np.array([0], dtype=np.int64)",
                "def _h7(S, H):\n    return __import__('os')\n",
                "def _h7(S, H):\n    return S.system\n",
                HELPERS + "\nshout = 1\n"):
        with pytest.raises(RuntimeError, match="generated kernel source holds"):
            check_parts(good + [bad], "")  # the parts passed before are passed again, not this


def test_a_strategy_function_is_kept_for_the_decision_only_where_two_places_ask_it(tmp_path):
    # `weight` is asked by `heavy` (which a rule reads) and again by `heaviest`, each time of
    # the same suits: kept by its arguments for the decision; `spread` has one place asking
    # it, each time of another lay: worked out where it is asked (a kept copy cost All Fives'
    # hand 5%, docs/speed.md)
    f = tmp_path / "keeping.yaml"
    f.write_text("""name: keeping-probe
functions:
  "weight(x: int)": "sum(t.pips + x for t in hand if has(t, x))"
  "spread(x: int)": "sum(t.pips * x for t in hand if has(t, x) and not t.double)"
values:
  heavy: "max(weight(y) for y in range(0, 7))"
  heaviest: "min(x for x in range(0, 7) if weight(x) == heavy)"
play:
  - name: by_the_spread
    when: "heavy > 2 and heaviest >= 0"
    only: "a.kind == 'play'"
    choose: "spread(a.piece.high)"
""", encoding="utf-8")
    src = kernel_source("moon", f)
    kept = [name for name, text in generated(src).items() if "S[MEMO + STAMP_AT]" in text]
    plain = [name for name, text in generated(src).items()
             if name.startswith("_u") and "S[MEMO + STAMP_AT]" not in text]
    assert len(kept) == 1 and src.count(f"{kept[0]}(S, H, ") >= 3  # its def and two places
    assert len(plain) >= 1 and any(src.count(f"{p}(S, H, ") == 2 for p in plain)  # def, one
