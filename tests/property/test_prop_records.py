"""Whatever record it is given, `tablerules replay` rejects a changed record with a located error.

A good record of two seeded games (Texas 42, and All Fives with a boneyard) gets one random edit:
a line deleted, duplicated, swapped with another or cut short, a byte inserted, or one JSON value
replaced (a number moved by one, a string, a bool flipped, a list shortened, a value of another
type). `replay -q` must then exit 1 with `record:line:col: error: ...` (never a traceback, never
exit 0 for a record that differs from the one simulate wrote), or 0 for an edit that changes no
byte of meaning (a line swapped with an equal one).
"""

from __future__ import annotations

import json
import re
import tempfile
import traceback
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from support import examples
from tablerules.cli.main import app

SETTINGS = settings(max_examples=examples(80), deadline=None, report_multiple_bugs=False,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])
RUNS = {"texas42": ["texas42", "-n", "1", "-s", "5", "-o", "marks_to_win=2"],
        "allfives": ["allfives", "-n", "1", "-s", "5", "-o", "players=3", "-o", "target=61"]}


def run(*args: str):
    r = CliRunner().invoke(app, list(args))
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        where = "".join(traceback.format_exception(*r.exc_info)[-3:])
        raise AssertionError(f"{args[0]} raised {r.exception!r}\n{where}")
    assert "Traceback" not in r.output
    return r


@pytest.fixture(scope="module")
def folder():
    with tempfile.TemporaryDirectory(prefix="tablerules-prop-rec-") as d:
        for name, args in RUNS.items():
            path = Path(d) / f"{name}.jsonl"
            assert run("simulate", *args, "-r", str(path)).exit_code == 0
            GOOD[name] = path.read_bytes()
        yield Path(d)


GOOD: dict[str, bytes] = {}  # the records simulate wrote (not a fixture: Hypothesis prints those)


def _paths(obj, prefix=()):
    """Every (path, value) of a JSON value, leaves and containers alike."""
    yield prefix, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


def _set(obj, path, value):
    if not path:
        return value
    obj[path[0]] = _set(obj[path[0]], path[1:], value)
    return obj


def _same_record(good: bytes, bad: bytes) -> bool:
    """Whether an edit left every line the same JSON value (whitespace between tokens); `true`
    is not `1` there, though Python's == says so."""
    try:
        return [_typed(json.loads(x)) for x in good.split(b"\n") if x] == [
            _typed(json.loads(x)) for x in bad.split(b"\n") if x]
    except ValueError:
        return False


def _typed(obj):
    """A JSON value in which a boolean and a number never compare equal."""
    if isinstance(obj, bool):
        return ("bool", obj)
    if isinstance(obj, list):
        return [_typed(v) for v in obj]
    if isinstance(obj, dict):
        return {k: _typed(v) for k, v in obj.items()}
    return obj


def _other(value, draw):
    """A value that differs from `value`: of the same shape mostly, sometimes of another."""
    kinds = [None, "x", 7, -1, 10.0, True, [], {}, [1, 2], "6-6", 10 ** 30]
    if draw(st.booleans()):
        return draw(st.sampled_from([k for k in kinds if k != value or type(k) is not type(value)]))
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + draw(st.sampled_from([-1, 1, 2]))
    if isinstance(value, str):
        return draw(st.sampled_from(["", value + "x", value[:-1], value.upper() + "!"]))
    if isinstance(value, list):
        return value[:-1] if value else [0]
    if isinstance(value, dict):
        return {k: v for k, v in list(value.items())[:-1]}
    return 0


@st.composite
def edits(draw):
    name = draw(st.sampled_from(sorted(RUNS)))
    kind = draw(st.sampled_from(["delete", "duplicate", "swap", "cut", "byte", "value",
                                 "value", "value"]))
    return name, kind, draw(st.randoms(use_true_random=False))


def _edit(data: bytes, kind: str, rnd, draw_value) -> bytes:
    lines = data.split(b"\n")[:-1]
    i = rnd.randrange(len(lines))
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "swap":
        j = rnd.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "cut":
        lines[i] = lines[i][:rnd.randrange(len(lines[i]))]
    elif kind == "byte":
        k = rnd.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:k] + bytes([rnd.randrange(256)]) + lines[i][k:]
    else:
        obj = json.loads(lines[i])
        paths = [p for p, _ in _paths(obj) if p]
        path = paths[rnd.randrange(len(paths))]
        value = obj
        for k in path:
            value = value[k]
        lines[i] = json.dumps(_set(obj, path, draw_value(value)),
                              separators=(",", ":"), ensure_ascii=False).encode()
    return b"\n".join(lines) + b"\n"


LOCATED = re.compile(r"^rec\.jsonl:\d+:\d+: error: .+$", re.M)


@SETTINGS
@given(edits(), st.data())
def test_an_edited_record_is_rejected_with_a_located_error(folder, monkeypatch, edit, data):
    name, kind, rnd = edit
    good = GOOD[name]
    bad = _edit(good, kind, rnd, lambda v: _other(v, data.draw))
    monkeypatch.chdir(folder)
    Path("rec.jsonl").write_bytes(bad)
    r = run("replay", "rec.jsonl", "-q")
    if _same_record(good, bad):  # e.g. a space or a tab put between two JSON tokens
        assert r.exit_code == 0, r.output
        return
    assert r.exit_code == 1, f"{kind} edit accepted:\n{bad.decode('utf-8', 'replace')[:2000]}"
    assert LOCATED.search(r.stderr), r.stderr
    # a bad line is quoted at most 200 characters (the message may quote two: found, expected)
    assert max(len(ln) for ln in r.stderr.splitlines()) < 700
