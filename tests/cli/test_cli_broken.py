"""`tablerules validate` over the corpus of broken rulesets in tests/broken/.

Each file holds one small, realistic mistake. For each, validate must exit 1 without a traceback
and report the mistake the way a compiler does: `file:line:col: error: message`, the source line,
and a caret under the column, once, and without follow-on errors. The expected place of each mistake is written down below, so a
wrong location fails even before the snapshot of the full output is compared.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tablerules.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "broken"
FILES = sorted(p.name for p in BROKEN.glob("*.yaml"))
HEAD = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.+)$")
SUMMARY = re.compile(r"^(\d+) errors? in (\d+) of (\d+) files?$")

# file -> (file the error is in, line, column, words the message must contain)
EXPECTED = {
    "cycle_a.yaml": ("cycle_b.yaml", 3, 10, ["cycle"]),
    "cycle_b.yaml": ("cycle_a.yaml", 3, 10, ["cycle"]),
    "declare_unknown.yaml": (None, 7, 7, ["trumps", "did you mean 'trump'"]),
    "display_declaration_unknown.yaml": (None, 6, 5, ["'pagat_5'", "did you mean 'pagat_4'"]),
    "duplicate_key.yaml": (None, 7, 3, ["duplicate key 'min_bid'"]),
    "empty.yaml": (None, 1, 1, ["empty"]),
    "enum_misspelled_symbol.yaml": (None, 6, 24, ["'stuk'", "did you mean 'stuck'"]),
    "expr_folded_scalar.yaml": (None, 9, 104, ["'marks_stpe'", "did you mean 'marks_step'"]),
    "expr_parse_error.yaml": (None, 7, 37, ["'='"]),
    "expr_type_int_for_bool.yaml": (None, 7, 14, ["bool", "int"]),
    "expr_unknown_name.yaml": (None, 5, 40, ["'bider_side'", "did you mean 'bidder_side'"]),
    "extends_misspelled_builtin.yaml": (None, 3, 10, ["texas24", "did you mean 'texas42'"]),
    "extends_missing.yaml": (None, 3, 10, ["../house/base42.yaml"]),
    "function_bad_param_type.yaml": (None, 5, 3, ["tyle", "did you mean 'tile'"]),
    "like_copied_typo.yaml": (None, 8, 7, ["'leadr'", "contracts.points.play"]),
    "like_no_contract.yaml": (None, 7, 11, ["'mark'", "did you mean 'marks'"]),
    "option_default_not_allowed.yaml": (None, 8, 14, ["'always'", "never, once, twice"]),
    "set_misspelled_option.yaml": (None, 6, 3, ["all_pas", "did you mean 'all_pass'"]),
    "set_out_of_range.yaml": (None, 5, 12, ["min_bid", "42", "45"]),
    "set_symbol_not_allowed.yaml": (None, 5, 13, ["all_pass", "stuck, reshuffle", "'redeal'"]),
    "set_wrong_type.yaml": (None, 5, 17, ["marks_to_win", "int", "'seven'"]),
    "small_full_ruleset.yaml": (None, 25, 7, ["'laed'", "did you mean 'lead'"]),
    "small_full_sides.yaml": (None, 6, 22, ["seat 3"]),
    "top_level_list.yaml": (None, 2, 1, ["mapping"]),
    "unknown_function.yaml": (None, 7, 26, ["'partnr'", "did you mean 'partner'"]),
    "unknown_top_key.yaml": (None, 4, 1, ["'optons'", "did you mean 'options'"]),
    "wrong_arg_count.yaml": (None, 7, 17, ["takes 2 arguments, got 1"]),
    "wrong_type_mapping.yaml": (None, 4, 8, ["seats", "mapping"]),
    "yaml_bad_indent.yaml": (None, 7, 16, ["YAML", "indented more than the line above"]),
    "yaml_tab_indent.yaml": (None, 5, 1, ["YAML"]),
    # the quote that is never closed opens on line 2, column 8
    "yaml_unclosed_quote.yaml": (None, 2, 8, ["YAML"]),
}
NO_SOURCE_LINE = {"empty.yaml"}  # nothing to quote


@pytest.fixture(autouse=True)
def in_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def rel(name: str) -> str:
    return f"tests/broken/{name}"


def validate(*args: str):
    result = CliRunner().invoke(app, ["validate", *args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def diagnostics(stderr: str) -> list[dict]:
    """Each located error with the two lines rendered under it (source line and caret)."""
    lines = stderr.splitlines()
    out = []
    for i, ln in enumerate(lines):
        m = HEAD.match(ln)
        if m:
            d = m.groupdict()
            d["line"], d["col"] = int(d["line"]), int(d["col"])
            below = lines[i + 1:i + 3]
            d["source"] = below[0] if len(below) == 2 and below[0].startswith("    ") \
                and re.fullmatch(r" {4,}\^+", below[1] or "") else None
            d["caret"] = below[1] if d["source"] is not None else None
            out.append(d)
    return out


def test_the_corpus_is_complete():
    assert len(FILES) >= 18
    assert set(FILES) == set(EXPECTED), "every broken file has its expected error written down"


@pytest.mark.parametrize("name", FILES)
def test_broken_file(name, snapshot):
    r = validate(rel(name))
    assert r.exit_code == 1
    assert r.stdout == ""
    diags = diagnostics(r.stderr)
    assert diags, f"no located error in:\n{r.stderr}"
    lines = r.stderr.splitlines()
    assert SUMMARY.match(lines[-1]), lines[-1]
    assert int(SUMMARY.match(lines[-1]).group(1)) == len(diags)
    # every line of the output is a located error, its source line and caret, or the summary
    rendered = sum(3 if d["source"] is not None else 1 for d in diags) + 1
    assert rendered == len(lines), r.stderr

    efile, eline, ecol, words = EXPECTED[name]
    first = diags[0]
    assert first["file"] == rel(efile or name)
    assert (first["line"], first["col"]) == (eline, ecol), (
        f"{name}: error at {first['line']}:{first['col']}, expected {eline}:{ecol}\n{r.stderr}")
    for w in words:
        assert w in first["msg"], f"{w!r} not in {first['msg']!r}"
    for d in diags:
        src = (ROOT / d["file"]).read_text(encoding="utf-8").splitlines()
        if name in NO_SOURCE_LINE:
            continue
        assert 1 <= d["line"] <= len(src), f"{name}: line {d['line']} is not in {d['file']}"
        assert d["source"] is not None, f"{name}: no source line and caret under\n{r.stderr}"
        assert d["source"] == "    " + src[d["line"] - 1].replace("\t", " ")
        assert d["caret"].index("^") == 4 + d["col"] - 1
    heads = [ln for ln in lines if HEAD.match(ln)]
    assert len(heads) == len(set(heads)), f"{name}: an error is reported twice:\n{r.stderr}"
    # one mistake, one error: follow-on errors from it are noise a compiler holds back
    assert len(heads) == 1, f"{name}: {len(heads)} different errors for one mistake:\n{r.stderr}"
    assert r.stderr == snapshot


def test_all_files_at_once():
    r = validate(*[rel(n) for n in FILES])
    assert r.exit_code == 1 and r.stdout == ""
    diags = diagnostics(r.stderr)
    m = SUMMARY.match(r.stderr.splitlines()[-1])
    assert m and int(m.group(1)) == len(diags)
    assert (int(m.group(2)), int(m.group(3))) == (len(FILES), len(FILES))
    # the first error of each file alone is also reported when all files are checked together
    seen = {(d["file"], d["line"], d["col"]) for d in diags}
    for name in FILES:
        alone = diagnostics(validate(rel(name)).stderr)
        assert (alone[0]["file"], alone[0]["line"], alone[0]["col"]) in seen, name


def test_all_files_at_once_json():
    r = validate("--format", "json", *[rel(n) for n in FILES])
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    assert out["ok"] is False
    assert [f["file"] for f in out["files"]] == [rel(n) for n in FILES]
    for f in out["files"]:
        assert f["ok"] is False and f["hands_played"] == 0 and f["diagnostics"]
        for d in f["diagnostics"]:
            assert set(d) == {"file", "line", "col", "severity", "kind", "message"}
            assert d["severity"] == "error" and d["line"] >= 1 and d["col"] >= 1
            assert d["kind"] in {"load", "schema", "expr", "check", "option", "error"}


def test_a_clean_file_among_broken_ones_is_still_ok():
    r = validate("texas42", rel("set_misspelled_option.yaml"), "--hands", "5")
    assert r.exit_code == 1
    assert re.fullmatch(r"texas42: ok \(texas42, \d+ seeded hands played in \d+ whole matches "
                        r"by rules and cautious\)\n", r.stdout), r.stdout
    assert r.stderr.splitlines()[-1] == "1 error in 1 of 2 files"
