"""Whatever `extends:` names and however deep the YAML nests, every command that reads a ruleset
answers with a located error or ok, never a traceback or a hang."""

from __future__ import annotations

import re
import shutil
import tempfile
import traceback
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tablerules.cli.main import app
from support import examples

ROOT = Path(__file__).resolve().parents[2]
HEAD = re.compile(r"^\S.*?(:\d+:\d+)?: error: .+$", re.M)  # a reference has no line
SETTINGS = settings(max_examples=examples(60), deadline=None, report_multiple_bugs=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
COMMANDS = [["validate", "--hands", "3"], ["show"], ["simulate", "--games", "1"], ["diff", "texas42"]]


@pytest.fixture(scope="module")
def workdir():
    with tempfile.TemporaryDirectory(prefix="tablerules-prop-load-") as d:
        shutil.copytree(ROOT / "rulesets" / "lib", Path(d) / "lib")
        (Path(d) / "sub").mkdir()
        (Path(d) / "sub" / "base.yaml").write_text("name: base\nextends: texas42\n", encoding="utf-8")
        yield Path(d)


def run(command: list[str], ref: str, what: str) -> None:
    r = CliRunner().invoke(app, [command[0], ref, *command[1:]])
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        where = "".join(traceback.format_exception(*r.exc_info)[-3:])
        raise AssertionError(f"{command[0]} raised {r.exception!r} on {what}\n{where}")
    assert "Traceback" not in r.output
    assert r.exit_code in (0, 1), (r.exit_code, r.output)
    if r.exit_code == 1:
        assert HEAD.search(r.stderr), f"exit 1 without a located error on {what}:\n{r.stderr}"


def quoted(s: str) -> str:
    """A YAML double-quoted scalar of `s` (escapes keep control characters and NUL)."""
    return '"' + "".join(c if c.isprintable() and c not in '"\\' else f"\\U{ord(c):08x}"
                         for c in s) + '"'


PIECES = st.sampled_from(["texas42", "moon", "allfives", "lib", "trumps", "sub", "base", "..", ".",
                          "", "x" * 300, "a" * 255, ".yaml", ".yml", "\\", "~", "nul\x00",
                          "/dev/null", "/proc/self", "é", "\u202e"])
REFS = st.lists(PIECES, min_size=1, max_size=6).map("/".join) | st.text(max_size=400) | PIECES


@SETTINGS
@given(REFS, st.booleans())
@example("x" * 300, False)
@example("x" * 300 + ".yaml", False)
@example("/" * 5000 + "a.yaml", False)
@example("sub/base.yaml", False)
@example("nul\x00.yaml", True)
@example("lib", False)
def test_any_extends_path(workdir, ref, with_suffix):
    ref = ref + ".yaml" if with_suffix else ref
    f = workdir / "over.yaml"
    f.write_text(f"name: over\ntitle: t\nextends: {quoted(ref)}\n", encoding="utf-8")
    run(COMMANDS[0], str(f), f"extends: {ref!r}")


@SETTINGS
@given(REFS)
@example("x" * 300)
@example("a/" * 300)
def test_any_ruleset_reference(workdir, ref):
    if ref.startswith("-"):
        ref = "./" + ref  # not a flag
    for command in COMMANDS:
        run(command, ref, f"{command[0]} {ref!r}")


@st.composite
def nested(draw) -> str:
    """A value nested `depth` deep, in flow or block style, lists or mappings, maybe cut short."""
    depth = draw(st.integers(0, 1500))
    style = draw(st.sampled_from(["flow-list", "flow-map", "block-list", "block-map", "mixed"]))
    if style == "flow-list":
        text = "[" * depth + "1" + "]" * depth
    elif style == "flow-map":
        text = "{a: " * depth + "1" + "}" * depth
    elif style == "mixed":
        text = "[{a: " * (depth // 2) + "1" + "}]" * (depth // 2)
    else:
        lines = []
        for i in range(min(depth, 400)):  # block nesting indents: keep files small
            lines.append(" " * (2 * i) + ("- " if style == "block-list" else f"k{i}:"))
        if style == "block-list":
            text = "\n" + "\n".join(ln + "x" if i == len(lines) - 1 else ln
                                    for i, ln in enumerate(lines)) if lines else "1"
        else:
            text = ("\n" + "\n".join(" " * 2 + ln for ln in lines) + " 1") if lines else "1"
    if draw(st.booleans()):
        text = text[:draw(st.integers(0, len(text)))]
    key = draw(st.sampled_from(["x", "set", "options", "contracts", "scoring", "bounds"]))
    return f"name: deep\ntitle: t\nextends: texas42\n{key}: {text}\n"


@SETTINGS
@given(nested())
@example("name: deep\ntitle: t\nx: " + "[" * 5000 + "]" * 5000 + "\n")
@example("name: &a\n  b: *a\n")
@example("a: &a [*a, *a]\n")
def test_deep_yaml(workdir, text):
    f = workdir / "deep.yaml"
    f.write_text(text, encoding="utf-8")
    for command in COMMANDS[:2]:
        run(command, str(f), f"{text[:120]!r}... ({len(text)} characters)")
