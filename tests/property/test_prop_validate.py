"""Whatever file it is given, `tablerules validate` answers with exit 0 or 1 and never crashes.

(a) arbitrary text; (b) texas42.yaml with one random edit of the kind a hurried author makes:
a line deleted, duplicated or swapped with another, a token or a character replaced, the file cut
short; (c) texas42 as data with one value replaced by one of another shape. Clean mutants are
also played for 20 random hands, so dynamic faults must be reported as errors too, not raised.
Known crashers are pinned with @example so they fail deterministically until fixed.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import traceback
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tablerules.cli.main import app
from support import examples

ROOT = Path(__file__).resolve().parents[2]
TEXAS = (ROOT / "rulesets" / "texas42.yaml").read_text(encoding="utf-8")
LIB = ROOT / "rulesets" / "lib"
LINES = TEXAS.split("\n")
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+|==|!=|>=|<=|[-+*/%<>()\[\]{}:,.'\"]")
TOKENS = sorted(set(TOKEN.findall(TEXAS)))
EXTRA = ["", " ", "\t", "-", ": ", "null", "[]", "{}", "'", '"', "#", "&a", "*a", "!!int", "0",
         "-1", "99999999999999999999", "true", "none", "1e9", "|", ">", "?", "%", "@", "\\"]
HEAD = re.compile(r"^\S.*?(:\d+:\d+)?: error: .+$", re.M)  # a reference has no line

SETTINGS = settings(max_examples=examples(60), deadline=None, report_multiple_bugs=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def workdir():
    with tempfile.TemporaryDirectory(prefix="tablerules-prop-") as d:
        # texas42.yaml extends lib/trumps.yaml by a relative path: keep the library beside it
        shutil.copytree(LIB, Path(d) / "lib")
        yield Path(d)


def check(path: Path, text: str | bytes, hands: int, what: str | None = None):
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    r = CliRunner().invoke(app, ["validate", str(path), "--hands", str(hands)])
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        where = "".join(traceback.format_exception(*r.exc_info)[-3:])
        raise AssertionError(f"validate raised {r.exception!r} on {what or repr(text)[:300]}\n{where}")
    assert "Traceback" not in r.output
    assert r.exit_code in (0, 1), (r.exit_code, r.output)
    if r.exit_code == 0:
        assert r.stdout.endswith(" cautious)\n") and "seeded hands played in" in r.stdout
        assert ": ok (" in r.stdout
        # a file that validates may be warned at (validation.never_legal_warnings: a mutant's
        # contract no seat could bid in the seeded play), located; nothing else is said
        said = re.findall(r"^\S+:\d+:\d+: (\w+): ", r.stderr, re.M)
        assert set(said) <= {"warning", "note"} and (said or r.stderr == ""), r.stderr
    else:
        assert HEAD.search(r.stderr), f"exit 1 without a located error:\n{r.stderr}"
    return r


# -- (a) arbitrary text ----------------------------------------------------------------------


@SETTINGS
@given(st.text())
@example("\x1f")  # a control character: YAML refuses it; the file is still only a bad file
@example("name: [")
@example("name: !!int\n")  # PyYAML's int constructor fails with IndexError on an empty value
@example("\ufeffname: x\n")
def test_random_text(workdir, text):
    check(workdir / "random.yaml", text, hands=20)


@SETTINGS
@given(st.binary(max_size=200))
@example(b"\x00")
@example(b"name: \xff\xfe\n")
def test_random_bytes(workdir, data):
    """Not UTF-8, NUL bytes, a BOM: still a clean error."""
    check(workdir / "bytes.yaml", data, hands=20)


@SETTINGS
@example({"name": None, "options": True})
@example({"name": "x", "title": "y", "contracts": "points"})
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["name", "title", "extends", "set", "options",
                                                       "pieces", "seats", "deal", "auction",
                                                       "contracts", "scoring", "bounds", "x"]),
                                      inner, max_size=4),
                    max_leaves=12))
def test_random_yaml_structures(workdir, value):
    """Well-formed YAML of any shape, mostly with the right top-level keys."""
    check(workdir / "shape.yaml", yaml.safe_dump(value), hands=20)


# -- (b) mutations of texas42.yaml -----------------------------------------------------------


class Mutant(tuple):
    """(what was done, the mutated text); shown by hypothesis as what was done."""

    def __repr__(self) -> str:
        return f"Mutant({self[0]!r})"


@st.composite
def mutants(draw) -> Mutant:
    lines = list(LINES)
    n = len(lines)
    kind = draw(st.sampled_from(["delete", "duplicate", "token", "char", "swap", "truncate"]))
    if kind == "delete":
        i = draw(st.integers(0, n - 1))
        what = f"line {i + 1} deleted: {lines[i]!r}"
        del lines[i]
    elif kind == "duplicate":
        i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n))
        what = f"line {i + 1} ({lines[i]!r}) copied before line {j + 1}"
        lines.insert(j, lines[i])
    elif kind == "swap":
        i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        what = f"lines {i + 1} and {j + 1} swapped: {lines[i]!r} / {lines[j]!r}"
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "truncate":
        k = draw(st.integers(0, len(TEXAS)))
        return Mutant((f"cut after {k} characters, ending {TEXAS[max(k - 40, 0):k]!r}", TEXAS[:k]))
    elif kind == "token":
        i = draw(st.sampled_from([k for k, ln in enumerate(lines) if TOKEN.search(ln)]))
        m = draw(st.sampled_from(list(TOKEN.finditer(lines[i]))))
        new = draw(st.sampled_from(TOKENS + EXTRA))
        lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
        what = f"line {i + 1}, token {m.group()!r} -> {new!r}: {lines[i]!r}"
    else:
        text = "\n".join(lines)
        pos = draw(st.integers(0, len(text) - 1))
        ch = draw(st.characters(codec="utf-8") | st.sampled_from(list(" \t\n:'\"-#[]{}0123456789")))
        line = text.count("\n", 0, pos) + 1
        return Mutant((f"line {line}, character {text[pos]!r} -> {ch!r}", text[:pos] + ch + text[pos + 1:]))
    return Mutant((what, "\n".join(lines)))


def _without_line(prefix: str, after: str) -> Mutant:
    """texas42.yaml without the first line starting with `prefix` after the line `after`."""
    start = LINES.index(after)
    i = next(k for k in range(start, len(LINES)) if LINES[k].strip().startswith(prefix))
    return Mutant((f"line {i + 1} deleted: {LINES[i]!r}", "\n".join(LINES[:i] + LINES[i + 1:])))


@SETTINGS
@given(mutants())
@example(_without_line("values:", "  nello_doubles:"))  # a symbol option without its values
@example(Mutant(("line 1, character '#' -> '\\x1f'", "\x1f" + TEXAS[1:])))
def test_mutated_texas42(workdir, mutant):
    what, text = mutant
    check(workdir / "mutant.yaml", text, hands=20, what=what)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


TREE = yaml.safe_load(TEXAS)
PATHS = [p for p in _paths(TREE) if p]
VALUES = st.none() | st.booleans() | st.integers(-3, 50) | st.sampled_from(
    TOKENS + EXTRA + ["tile.pips", "bidder", "'doubles'", "range(0, 3)", "x ==", "[1, 'a']"]) \
    | st.lists(st.integers(-1, 8) | st.sampled_from(["a", "stuck"]), max_size=3) \
    | st.dictionaries(st.sampled_from(["type", "default", "value", "values", "by", "choices", "x"]),
                      st.none() | st.integers(-1, 8) | st.sampled_from(["int", "symbol", "tile.high"]),
                      max_size=3)


@st.composite
def tree_mutants(draw) -> Mutant:
    """texas42 as data, with one value replaced by another of any shape, or deleted."""
    import copy
    tree = copy.deepcopy(TREE)
    path = draw(st.sampled_from(PATHS))
    parent = tree
    for k in path[:-1]:
        parent = parent[k]
    if draw(st.booleans()) and isinstance(parent, dict):
        del parent[path[-1]]
        what = f"{'.'.join(map(str, path))} deleted"
    else:
        new = draw(VALUES)
        parent[path[-1]] = new
        what = f"{'.'.join(map(str, path))} = {new!r}"
    return Mutant((what, yaml.safe_dump(tree, sort_keys=False)))


def _known(what: str, edit) -> Mutant:
    import copy
    tree = copy.deepcopy(TREE)
    edit(tree)
    return Mutant((what, yaml.safe_dump(tree, sort_keys=False)))


@SETTINGS
@given(tree_mutants())
@example(_known("options.all_pass.values deleted", lambda t: t["options"]["all_pass"].pop("values")))
@example(_known("options.min_bid.min = {}", lambda t: t["options"]["min_bid"].update(min={})))
@example(_known("constants = [0, 0]", lambda t: t.update(constants=[0, 0])))
@example(_known("pieces.attributes = 21", lambda t: t["pieces"].update(attributes=21)))
@example(_known("declarations = 'double'", lambda t: t.update(declarations="double")))
@example(_known("contracts.points.declare = 'rules'",
                lambda t: t["contracts"]["points"].update(declare="rules")))
@example(_known("contracts.marks.bid.marks = 3",  # validates, warned at: marks is never legal
                lambda t: t["contracts"]["marks"]["bid"].update(marks=3)))
def test_mutated_texas42_structure(workdir, mutant):
    what, text = mutant
    check(workdir / "tree.yaml", text, hands=20, what=what)


def test_the_unmutated_file_is_clean(workdir):
    r = check(workdir / "mutant.yaml", TEXAS, hands=20)
    assert r.exit_code == 0
