"""The schema itself: well-formed, documented, consistent with docs/ruleset-format.md and texas42."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from tablerules.check import schema as schema_mod
from tablerules.check.schema import load_schema, schema_paths, validate_tree
from tablerules.load.yamltree import parse_yaml

ROOT = Path(__file__).resolve().parents[2]
TEXAS42 = ROOT / "rulesets" / "texas42.yaml"
DOC = ROOT / "docs" / "ruleset-format.md"
VOCAB = "docs/language.md#vocabulary-by-place"


def _texas42_text() -> str:
    return TEXAS42.read_text(encoding="utf-8")


def _quote_signatures(text: str) -> str:
    """texas42.yaml with function signature keys quoted (`f(t: tile):` is not valid YAML)."""
    return re.sub(r'(?m)^(  )([a-z_][a-z0-9_]*\([^)\n]*\)):', r'\1"\2":', text)


def test_schema_is_valid_draft_2020_12():
    schema = load_schema("ruleset")
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_load_schema_returns_a_fresh_copy():
    a = load_schema("ruleset")
    a["properties"].clear()
    assert load_schema("ruleset")["properties"]


def test_load_schema_unknown_name():
    with pytest.raises(FileNotFoundError):
        load_schema("no-such-schema")


def test_load_schema_prefers_installed_package_data(tmp_path, monkeypatch):
    data = tmp_path / "_data" / "schemas"
    data.mkdir(parents=True)
    (data / "ruleset.schema.json").write_text('{"title": "installed"}')
    repo = ROOT / "schemas"
    monkeypatch.setattr(schema_mod, "_schema_dirs", lambda: [data, repo])
    schema_mod._load.cache_clear()
    try:
        assert load_schema("ruleset") == {"title": "installed"}
    finally:
        monkeypatch.undo()
        schema_mod._load.cache_clear()
        schema_mod._validator.cache_clear()
    assert load_schema("ruleset")["title"] == "tablerules ruleset"


def test_texas42_validates_clean():
    """The built-in ruleset, exactly as shipped."""
    text = _texas42_text()
    try:
        yaml.safe_load(text)
    except yaml.YAMLError as e:  # pragma: no cover - reported as a clear failure
        pytest.fail("rulesets/texas42.yaml is not valid YAML (function signature keys such as "
                    f"`is_trump(t: tile):` must be quoted): {e}")
    tree = parse_yaml(text, str(TEXAS42))
    assert validate_tree(tree) == []


def test_texas42_content_validates_clean():
    """The same content with signature keys quoted, so the schema is checked against it anyway."""
    text = _quote_signatures(_texas42_text())
    data = yaml.safe_load(text)
    assert len(data["functions"]) >= 4  # Nello's; the trick rules come from lib/trumps.yaml
    Draft202012Validator(load_schema("ruleset")).validate(data)
    assert validate_tree(parse_yaml(text, "texas42.yaml")) == []
    assert validate_tree(parse_yaml(text, "texas42.yaml"), partial=True) == []


def _properties(node, path=()):
    """(path, subschema) for every entry of every `properties` mapping, and every map value."""
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            yield path + (name,), sub
        for key, sub in node.items():
            if key == "properties":
                for name, s in sub.items():
                    yield from _properties(s, path + (name,))
            elif key in ("$defs",):
                for name, s in sub.items():
                    yield from _properties(s, ("$defs", name))
            elif isinstance(sub, dict):
                yield from _properties(sub, path + (key,))
            elif isinstance(sub, list):
                for i, s in enumerate(sub):
                    yield from _properties(s, path + (key, i))


def _in_conditional(path) -> bool:
    return any(p in ("if", "then", "else") for p in path)


def test_every_property_has_a_real_description():
    schema = load_schema("ruleset")
    checked = 0
    for path, sub in _properties(schema):
        if _in_conditional(path):
            continue  # type-dependent refinements of properties described elsewhere
        where = ".".join(map(str, path))
        assert isinstance(sub, dict) and sub.get("description"), f"{where} has no description"
        desc = sub["description"]
        words = re.findall(r"[A-Za-z]+", desc)
        assert len(words) >= 5, f"{where}: description too short: {desc!r}"
        assert desc.rstrip(".").lower().replace(" ", "_") != path[-1], where
        checked += 1
    assert checked > 60


def test_every_map_value_and_definition_has_a_description():
    schema = load_schema("ruleset")
    for name, sub in schema["$defs"].items():
        assert sub.get("description"), f"$defs.{name}"

    def walk(node, where):
        if isinstance(node, dict):
            extra = node.get("additionalProperties")
            if isinstance(extra, dict):
                assert extra.get("description") or "$ref" in extra, where
            for k, v in node.items():
                walk(v, f"{where}.{k}")
        elif isinstance(node, list):
            for v in node:
                walk(v, where)

    walk(schema, "")


def test_doc_mentions_every_schema_property():
    doc = DOC.read_text(encoding="utf-8")
    paths = schema_paths()
    assert "contracts.<name>.play.lead" in paths
    missing = [p for p in paths if f"`{p}`" not in doc]
    assert not missing, f"docs/ruleset-format.md does not describe: {missing}"


def test_doc_mentions_no_property_the_schema_lacks():
    doc = DOC.read_text(encoding="utf-8")
    paths = set(schema_paths())
    tops = set(load_schema("ruleset")["properties"])
    described = [m.group(1) for m in re.finditer(r"`([a-z_]+(?:\.(?:<name>|[a-z_]+))+)`", doc)
                 if m.group(1).split(".")[0] in tops]
    assert len(described) > 60
    stray = sorted({d for d in described if d not in paths})
    assert not stray, f"the doc describes keys the schema lacks: {stray}"


def test_doc_has_a_section_per_top_level_key():
    doc = DOC.read_text(encoding="utf-8")
    for key in load_schema("ruleset")["properties"]:
        assert re.search(rf"^## `{key}`$", doc, re.M), f"no section for `{key}`"


def test_doc_expression_keys_carry_the_vocabulary_note():
    """Each bullet describing an expression-valued key points at the vocabulary reference."""
    doc = DOC.read_text(encoding="utf-8")
    root = load_schema("ruleset")
    bullets = re.split(r"\n(?=- `)", doc)
    exprs = [".".join(p) for p, sub in schema_mod._walk(root, root, ())
             if sub.get("title") == "expression" and "<name>" not in p[-1:]]
    assert "pieces.filter" in exprs and "contracts.<name>.play.rank" in exprs
    for path in exprs:
        entry = next((b for b in bullets if b.startswith(f"- `{path}`")), None)
        assert entry is not None, f"no bullet for `{path}`"
        assert VOCAB in entry, f"`{path}` lacks the vocabulary note"
    assert f"(expression; names available here: see [{VOCAB}]" in " ".join(doc.split())
    # functions bodies too
    section = doc.split("## `functions`")[1].split("\n## ")[0]
    assert VOCAB in section


def test_doc_covers_merging():
    doc = DOC.read_text(encoding="utf-8")
    section = doc.split("## Merging")[1]
    for word in ("`extends`", "`set`", "`like`", "`null`", "overlay file"):
        assert word in section
