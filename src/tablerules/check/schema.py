"""Structural check of a ruleset against schemas/ruleset.schema.json, with located messages.

`validate_tree(tree)` runs the JSON Schema (draft 2020-12) over a parsed YAML tree and turns every
error into a `Diagnostic` (kind "schema") pointing at the offending key or value, worded in YAML
terms: "unknown key 'titel' at the top level (did you mean 'title'?)", "missing required key
'type' in options.min_bid", "seats.count: expected an integer, got the string 'four'".

`partial=True` checks an overlay file (one with `extends:`) on its own, before merging: no key is
required and a null value (which deletes the key from the base) is always accepted.
"""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from ..errors import Diagnostic, SchemaError, Span, did_you_mean, listed
from ..load.ruleset import attribute

__all__ = ["load_schema", "validate_tree", "ensure_valid", "schema_paths"]

KIND = "schema"
RULESET = "ruleset"

# ---------------------------------------------------------------------------------------------
# finding and preparing the schema


def _schema_dirs() -> list[Path]:
    package_dir = Path(__file__).resolve().parents[1]  # .../tablerules
    try:  # the installed package (tablerules may be a namespace package with no __file__)
        import tablerules

        if getattr(tablerules, "__file__", None):
            package_dir = Path(tablerules.__file__).resolve().parent
    except ImportError:  # pragma: no cover
        pass
    return [package_dir / "_data" / "schemas", Path(__file__).resolve().parents[3] / "schemas"]


@lru_cache(maxsize=None)
def _load(name: str) -> dict:
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise ValueError(f"bad schema name {name!r}")
    tried = []
    for d in _schema_dirs():
        path = d / f"{name}.schema.json"
        tried.append(str(path))
        if path.is_file():
            with open(path, encoding="utf-8") as f:
                return json.load(f)
    raise FileNotFoundError(f"schema {name!r} not found (looked at {', '.join(tried)})")


def load_schema(name: str) -> dict:
    """The JSON Schema `schemas/NAME.schema.json` (installed package data first, else the repo's).

    Returns a fresh copy each call, so callers may modify it.
    """
    return copy.deepcopy(_load(name))


def _strip_required(node: Any) -> Any:
    """A copy of a schema with every `required` removed (but kept inside `if`, where it is a test)."""
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k == "required":
                continue
            out[k] = copy.deepcopy(v) if k == "if" else _strip_required(v)
        return out
    if isinstance(node, list):
        return [_strip_required(v) for v in node]
    return node


@lru_cache(maxsize=None)
def _validator(name: str, partial: bool) -> Draft202012Validator:
    schema = _load(name)
    if partial:
        schema = _strip_required(schema)
    return Draft202012Validator(schema)


def _drop_nulls(data: Any) -> Any:
    """Overlay data without null mapping values (a null deletes the key from the base)."""
    if isinstance(data, dict):
        return {k: _drop_nulls(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [_drop_nulls(v) for v in data]
    return data


# ---------------------------------------------------------------------------------------------
# validation


def validate_tree(tree, *, partial: bool = False, schema: str = RULESET) -> list[Diagnostic]:
    """Every schema error in `tree` (a load.yamltree.Tree) as located diagnostics, in source order.

    With `partial=True` (an overlay checked before merging) required keys are not enforced and
    null values are accepted anywhere in a mapping.
    """
    data = _drop_nulls(tree.data) if partial else tree.data
    validator = _validator(schema, partial)
    fmt = _Formatter(tree, _load(schema))
    seen: set = set()
    out: list[Diagnostic] = []
    for err in _narrowest_type_errors(list(validator.iter_errors(data))):
        for diag in fmt.diagnostics(err):
            diag.path = tuple(err.absolute_path)
            key = (diag.span, diag.message, diag.suggestion)
            if key not in seen:
                seen.add(key)
                out.append(diag)
    files = {f: i for i, f in enumerate(getattr(tree, "sources", {}) or {})}
    out.sort(key=lambda d: (files.get(d.span.file, len(files)), d.span.file, d.span.line,
                            d.span.col, d.message))
    if getattr(tree, "origin", None) is not None:
        out = attribute(tree, out)
    return out


def _types(err: ValidationError) -> set:
    t = err.validator_value
    return {t} if isinstance(t, str) else set(t)


def _narrowest_type_errors(errors: list[ValidationError]) -> list[ValidationError]:
    """One type error per place: when several rules reject a value's type (a general rule and a
    type-dependent one), keep the one that allows the fewest types, i.e. the most precise."""
    best: dict[tuple, ValidationError] = {}
    for err in errors:
        if err.validator == "type":
            path = tuple(err.absolute_path)
            if path not in best or len(_types(err)) < len(_types(best[path])):
                best[path] = err
    return [e for e in errors
            if e.validator != "type" or best.get(tuple(e.absolute_path)) is e]


def _best_alternative(errors: Iterable[ValidationError]) -> ValidationError:
    """For a failed anyOf/oneOf: the error from the alternative that fits the value's shape.

    Alternatives rejected only for their type are a different shape altogether, so the errors of
    the alternatives whose type matched are preferred; jsonschema's best_match ranks the rest.
    """
    errors = list(errors)
    shaped = [e for e in errors if not (e.validator == "type" and not e.path)]
    return best_match(shaped or errors)


def ensure_valid(tree, *, partial: bool = False, schema: str = RULESET) -> None:
    """Raise SchemaError carrying every diagnostic if `tree` does not match the schema."""
    diags = validate_tree(tree, partial=partial, schema=schema)
    if diags:
        first = diags[0]
        raise SchemaError(first.message, first.span, suggestion=first.suggestion, diagnostics=diags)


# ---------------------------------------------------------------------------------------------
# wording

_NOUNS = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def _where(path: Iterable) -> str:
    """A path as `contracts.points.play` / `seats.sides[0]`; '' for the root."""
    s = ""
    for p in path:
        if isinstance(p, int):
            s += f"[{p}]"
        else:
            s += ("." if s else "") + str(p)
    return s


def _in(path: tuple) -> str:
    return f"in {_where(path)}" if path else "at the top level"


def _subject(path: tuple) -> str:
    return f"{_where(path)}: " if path else "the ruleset: "


def _got(v: Any) -> str:
    if v is None:
        return "null (an empty value)"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return f"the integer {v}"
    if isinstance(v, float):
        return f"the number {v:g}"
    if isinstance(v, str):
        text = v if len(v) <= 40 else v[:37] + "..."
        return f"the string {text!r}"
    if isinstance(v, dict):
        return "a mapping"
    if isinstance(v, list):
        return "a list"
    return type(v).__name__


def _expected(schema: dict) -> str:
    types = schema.get("type")
    types = [types] if isinstance(types, str) else list(types or [])
    if schema.get("title") == "expression":
        lits = [t for t in types if t in ("boolean", "integer")]
        extra = ", or a true/false or integer literal" if lits else ""
        tail = ", or null" if "null" in types else ""
        return f"an expression (a string{extra}){tail}"
    return listed([_NOUNS.get(t, t) for t in types], "or") or "something else"


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    return repr(v) if isinstance(v, str) else str(v)


class _Formatter:
    """Turns jsonschema errors into diagnostics located in a Tree."""

    def __init__(self, tree, root_schema: dict):
        self.tree = tree
        self.root = root_schema

    def span(self, path: tuple, key: bool = False) -> Span:
        return self.tree.span(path, key=key)

    def diag(self, span: Span, message: str, suggestion: str | None = None) -> Diagnostic:
        return Diagnostic(span, message, KIND, suggestion)

    def diagnostics(self, err: ValidationError) -> Iterator[Diagnostic]:
        path = tuple(err.absolute_path)
        v = err.validator
        schema = err.schema if isinstance(err.schema, dict) else {}
        if v in ("anyOf", "oneOf") and err.context:
            yield from self.diagnostics(_best_alternative(err.context))
            return
        if "propertyNames" in err.relative_schema_path:
            yield self.bad_key(err, path, schema)
            return
        if v == "additionalProperties":
            yield from self.unknown_keys(err, path, schema)
            return
        if v == "required":
            inst = err.instance if isinstance(err.instance, dict) else {}
            for name in err.validator_value:
                if name not in inst:
                    yield self.diag(self.span(path, key=True),
                                    f"missing required key '{name}' {_in(path)}")
            return
        if v == "type":
            msg = f"{_subject(path)}expected {_expected(schema)}, got {_got(err.instance)}"
            msg += self.option_hint(err, path)
            types = schema.get("type")
            if isinstance(err.instance, bool) and "string" in (types or ()):
                msg += " (quote it: YAML reads bare yes/no/on/off/true/false as true or false)"
            yield self.diag(self.span(path), msg)
            return
        if v in ("enum", "const"):
            allowed = err.validator_value if v == "enum" else [err.validator_value]
            choices = ", ".join(_show(a) for a in allowed)
            sugg = None
            if isinstance(err.instance, str):
                sugg = did_you_mean(err.instance, [a for a in allowed if isinstance(a, str)])
            yield self.diag(self.span(path),
                            f"{_subject(path)}expected one of {choices}, got {_got(err.instance)}",
                            sugg)
            return
        if v == "pattern" and re.fullmatch(r"\^[a-z_]+\$", err.validator_value or ""):
            word = err.validator_value[1:-1]  # a pattern that admits one word is an enum of one
            yield self.diag(self.span(path),
                            f"{_subject(path)}expected one of '{word}', got {_got(err.instance)}",
                            did_you_mean(str(err.instance), [word]))
            return
        if v == "pattern":
            help_ = schema.get("patternErrorMessage") or f"it must match {err.validator_value}"
            yield self.diag(self.span(path),
                            f"{_subject(path)}invalid value {_show(err.instance)}: {help_}")
            return
        if v in ("not", None) or err.schema is False:
            # a key that is forbidden in this variant of the mapping
            key = path[-1] if path else ""
            reason = schema.get("errorMessage") if isinstance(schema, dict) else None
            msg = f"key '{key}' is not allowed {_in(path[:-1])}"
            yield self.diag(self.span(path, key=True), msg + (f": {reason}" if reason else ""))
            return
        if v in ("minimum", "exclusiveMinimum"):
            yield self.diag(self.span(path), f"{_subject(path)}expected at least "
                            f"{err.validator_value + (v == 'exclusiveMinimum')}, got {_show(err.instance)}")
            return
        if v in ("maximum", "exclusiveMaximum"):
            yield self.diag(self.span(path), f"{_subject(path)}expected at most "
                            f"{err.validator_value - (v == 'exclusiveMaximum')}, got {_show(err.instance)}")
            return
        if v == "minItems":
            n = err.validator_value
            what = "an entry" if n == 1 else f"{n} entries"
            yield self.diag(self.span(path), f"{_subject(path)}the list needs at least {what}")
            return
        if v == "maxItems":
            yield self.diag(self.span(path), f"{_subject(path)}the list may have at most "
                            f"{err.validator_value} entries")
            return
        if v == "uniqueItems":
            dups = _duplicates(err.instance)
            detail = f" ({', '.join(_show(d) for d in dups)} repeated)" if dups else ""
            yield self.diag(self.span(path), f"{_subject(path)}the list has repeated entries{detail}")
            return
        if v == "minLength":
            yield self.diag(self.span(path), f"{_subject(path)}must not be empty")
            return
        yield self.diag(self.span(path), f"{_subject(path)}{err.message}")

    # -- particular errors

    def option_hint(self, err: ValidationError, path: tuple) -> str:
        """' for a bool option' when a type-dependent rule (an if/then branch) failed."""
        if "then" not in err.absolute_schema_path or not path:
            return ""
        parent = self.tree.get(path[:-1])
        if isinstance(parent, dict) and isinstance(parent.get("type"), str):
            return f" (the option's type is {parent['type']})"
        return ""

    def bad_key(self, err: ValidationError, path: tuple, schema: dict) -> Diagnostic:
        key = err.instance
        help_ = (schema.get("patternErrorMessage") if isinstance(schema, dict) else None) or \
            err.message
        if err.validator == "type":
            help_ = f"a key here must be a name, got {_got(key)}"
        return self.diag(self.span(path + (key,), key=True),
                         f"invalid key {_show(key)} {_in(path)}: {help_}")

    def unknown_keys(self, err: ValidationError, path: tuple, schema: dict) -> Iterator[Diagnostic]:
        inst = err.instance if isinstance(err.instance, dict) else {}
        props = schema.get("properties", {})
        patterns = schema.get("patternProperties", {})
        allowed = sorted(props)
        for key in inst:
            if key in props or any(re.search(p, str(key)) for p in patterns):
                continue
            msg = f"unknown key '{key}' {_in(path)}"
            sugg = did_you_mean(str(key), allowed)
            if sugg is None:
                homes = _key_homes(id(self.root), self.root).get(str(key), [])
                if homes:
                    msg += f" ('{key}' goes {' or '.join(homes[:3])})"
                elif allowed:
                    msg += f"; the keys allowed here are: {', '.join(allowed)}"
            yield self.diag(self.span(path + (key,), key=True), msg, sugg)


def _duplicates(items: Any) -> list:
    if not isinstance(items, list):
        return []
    seen, dups = [], []
    for x in items:
        if x in seen and x not in dups:
            dups.append(x)
        seen.append(x)
    return dups


# ---------------------------------------------------------------------------------------------
# the schema's shape: every property path, with <name> for the keys of open mappings


def _resolve(root: dict, node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node and node["$ref"].startswith("#/"):
        target: Any = root
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        node = merged
    return node


def _walk(root: dict, node: Any, prefix: tuple, depth: int = 0) -> Iterator[tuple[tuple, dict]]:
    """(path template, property schema) for every property, depth first."""
    node = _resolve(root, node)
    if not isinstance(node, dict) or depth > 12:
        return
    for name, sub in node.get("properties", {}).items():
        sub_r = _resolve(root, sub)
        yield prefix + (name,), sub_r
        yield from _walk(root, sub_r, prefix + (name,), depth + 1)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        extra_r = _resolve(root, extra)
        if not extra_r.get("properties"):  # a map of plain values: the value is the property
            yield prefix + ("<name>",), extra_r
        yield from _walk(root, extra_r, prefix + ("<name>",), depth + 1)
    items = node.get("items")
    # a list of the node's own kind (an exchange or a list of them) has the node's keys
    if isinstance(items, dict) and _resolve(root, items) != node:
        yield from _walk(root, items, prefix + ("[]",), depth + 1)


def schema_paths(schema: dict | None = None) -> list[str]:
    """Every property of the schema as a dotted template, e.g. `contracts.<name>.play.lead`.

    `<name>` stands for a key the author chooses; a map of plain values (`set`, `functions`)
    contributes `set.<name>` itself.
    """
    root = schema if schema is not None else _load(RULESET)
    return [".".join(p) for p, _ in _walk(root, root, ())]


_HOMES: dict[int, dict[str, list[str]]] = {}


def _key_homes(root_id: int, root: dict) -> dict[str, list[str]]:
    """Property name -> the places (parent templates) where it is a key."""
    homes = _HOMES.get(root_id)
    if homes is None:
        homes = {}
        for p, _ in _walk(root, root, ()):
            parent = f"in {'.'.join(p[:-1])}" if len(p) > 1 else "at the top level"
            homes.setdefault(p[-1], [])
            if parent not in homes[p[-1]]:
                homes[p[-1]].append(parent)
        _HOMES[root_id] = homes
    return homes
