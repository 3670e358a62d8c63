"""Every combination of every shipped ruleset's declared options compiles.

The values of an option: a bool both; a symbol its `values`; an int with `values` those; an int
with a range its min, default and max. The combinations are the cartesian product when it has at
most 300 members, else a seeded sample of them. Each must load with `load_game(name, combo)`.

Runtime: a compile takes about 0.1-0.2 s, so 300 sampled combinations for each of the seven
large option spaces take well over two minutes (they pass: run with TABLERULES_OPTION_SAMPLE=300).
By default a large space is covered by a pairwise covering set (every pair of values of two
options appears in some combination) alone; under TABLERULES_SOAK (tests/support.py) it is
topped up with a seeded random sample to SAMPLE (100) combinations; spaces of at most 300
combinations are always compiled in full.
Compiles run in two worker processes.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from tablerules.errors import TablerulesError
from tablerules.game import load_game
from tablerules.load.ruleset import builtin_names
from tablerules.records.parallel import start_method

from support import SOAK

FULL_LIMIT = 300
# combinations per ruleset: a pairwise cover of every two options' values (14 to 21 of them),
# then a seeded sample of the rest up to this many (none unless TABLERULES_SOAK, so the suite
# stays quick; 100 then)
SAMPLE = int(os.environ.get("TABLERULES_OPTION_SAMPLE", "100" if SOAK else "0"))
NAMES = builtin_names()


def option_values(decl) -> list:
    if decl.type == "bool":
        return [False, True]
    if decl.values:
        return list(decl.values)
    if decl.type == "int":
        out = []
        for v in (decl.min, decl.default, decl.max):
            if v is not None and v not in out:
                out.append(v)
        return out
    return [decl.default]


def space(name: str) -> dict[str, list]:
    decls = load_game(name).definition.option_decls
    return {k: option_values(d) for k, d in decls.items()}


def pairwise(sp: dict[str, list], rng: random.Random) -> list[dict]:
    """A greedy covering set: every value pair of every two options appears in some combo."""
    keys = list(sp)
    todo = {((a, va), (b, vb)) for a, b in itertools.combinations(keys, 2)
            for va in sp[a] for vb in sp[b]}
    todo |= {((a, va), (a, va)) for a in keys for va in sp[a]}  # single options too
    out = []
    while todo:
        best, best_n = None, -1
        for _ in range(60):
            c = {k: rng.choice(sp[k]) for k in keys}
            # seed the candidate with one uncovered pair so progress is guaranteed
            (a, va), (b, vb) = min(todo, key=repr) if not out else rng.choice(sorted(todo, key=repr))
            c[a], c[b] = va, vb
            n = sum(1 for (x, vx), (y, vy) in todo if c[x] == vx and c[y] == vy)
            if n > best_n:
                best, best_n = c, n
        out.append(best)
        todo = {p for p in todo if not (best[p[0][0]] == p[0][1] and best[p[1][0]] == p[1][1])}
    return out


def combinations(name: str) -> list[dict]:
    sp = space(name)
    keys = list(sp)
    total = 1
    for v in sp.values():
        total *= len(v)
    if total <= FULL_LIMIT:
        return [dict(zip(keys, vals)) for vals in itertools.product(*(sp[k] for k in keys))]
    rng = random.Random(f"options:{name}")
    chosen = pairwise(sp, rng) if SAMPLE < FULL_LIMIT else []
    seen = {tuple(sorted(c.items(), key=repr)) for c in chosen}
    n = max(SAMPLE, len(chosen)) if SAMPLE < FULL_LIMIT else FULL_LIMIT
    while len(chosen) < n:
        # a seeded sample of the product without replacement
        c = {k: rng.choice(sp[k]) for k in keys}
        key = tuple(sorted(c.items(), key=repr))
        if key not in seen:
            seen.add(key)
            chosen.append(c)
    return chosen


def _compile(args) -> str | None:
    name, combo = args
    try:
        load_game(name, combo)
    except TablerulesError as e:
        return f"{name} {combo}: {e}"
    except Exception as e:  # a crash is a failure too, and must be reported, not hidden
        return f"{name} {combo}: crashed: {type(e).__name__}: {e}"
    return None


@pytest.fixture(scope="module")
def pool():
    # forked as `--workers` forks, unless this process runs threads (another test's), which a
    # fork would copy mid-lock: then spawned
    ctx = multiprocessing.get_context(start_method())
    with ProcessPoolExecutor(max_workers=2, mp_context=ctx) as ex:
        yield ex


def test_every_builtin_is_enumerated():
    assert "texas42" in NAMES and len(NAMES) >= 6


@pytest.mark.parametrize("name", NAMES)
def test_every_option_combination_compiles(name, pool):
    combos = combinations(name)
    sp = space(name)
    # every allowed value of every option is tried at least once
    for k, vals in sp.items():
        assert {repr(c[k]) for c in combos} >= {repr(v) for v in vals}, k
    failures = [f for f in pool.map(_compile, [(name, c) for c in combos]) if f]
    assert not failures, f"{len(failures)} of {len(combos)} combinations fail:\n" + "\n".join(failures[:20])


def test_options_given_as_strings_compile_too():
    for name in NAMES:
        sp = space(name)
        combo = {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in
                 ((k, vals[-1]) for k, vals in sp.items())}
        typed = {k: vals[-1] for k, vals in sp.items()}
        a = load_game(name, combo).definition
        b = load_game(name, typed).definition
        assert a.options == b.options and a.canonical == b.canonical
