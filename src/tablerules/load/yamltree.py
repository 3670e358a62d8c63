"""YAML text -> plain data plus the source position of every node (safe composition only)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable

import yaml

from ..errors import LoadError, Span
from ..kept import Kept

Path = tuple  # keys and indexes from the document root

# A ruleset is a few hundred nodes; anything far larger is a mistake or an alias bomb.
MAX_NODES = 50_000
# Rulesets nest under ten levels; PyYAML composes recursively, so deep nesting must stop early.
MAX_DEPTH = 64


class _Nesting(Exception):
    """Raised by the composer when collections nest deeper than MAX_DEPTH."""

    def __init__(self, mark):
        self.mark = mark


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader, refusing collections nested deeper than MAX_DEPTH."""

    depth = 0

    def compose_node(self, parent, index):
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise _Nesting(self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


@dataclass(frozen=True)
class Loc:
    """Where a node's value stands (and its key, for mapping values)."""

    span: Span
    key_span: Span | None = None
    style: str | None = None  # YAML scalar style: None (plain), "'", '"', '|', '>'
    indent: int = 0  # column (0-based) of block scalar content


@dataclass
class Tree:
    """A YAML document as plain data, with a location for every path."""

    data: Any
    locs: dict[Path, Loc] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    origin: str | None = None  # the file the user named (the top of the `extends` chain)
    # path -> (the overlay's null that deleted it, every name in the deleted part)
    deleted: dict[Path, tuple[Loc | None, frozenset]] = field(default_factory=dict)
    # ("contracts", name, ...) -> the contract a part was copied from with `like:`
    inherited: dict[Path, str] = field(default_factory=dict)
    library: bool = False  # the user's file is a library part (`library: true`), not a game
    lineage: tuple = ()  # the `name:` of each file of the `extends` chain, the user's first

    def span(self, path: Path, key: bool = False) -> Span:
        """The closest known span to `path` (walking up until one is found)."""
        p = tuple(path)
        while True:
            loc = self.locs.get(p)
            if loc is not None:
                if key and loc.key_span is not None:
                    return loc.key_span
                return loc.span
            if not p:
                return Span(next(iter(self.sources), "<unknown>"), 1, 1)
            p = p[:-1]

    def locator(self, path: Path) -> Callable[[int, int], Span]:
        """Maps an offset inside the scalar at `path` to its source span."""
        loc = self.locs.get(tuple(path))
        if loc is None:
            base = self.span(path)
            return lambda off, ln: base
        span = loc.span
        style = loc.style
        value = self.get(path)
        text = value if isinstance(value, str) else ""

        cells: list = []

        def locate(off: int, length: int) -> Span:
            if style in ("|", ">"):
                if not cells:
                    cells.extend(_block_cells(self.sources.get(span.file, ""), span.line,
                                              loc.indent, text))
                line, col = cells[min(off, len(cells) - 1)]
                return Span(span.file, line, col, col + max(length, 1))
            if style in ("'", '"'):
                return span.shifted(1 + off, length)
            if "\n" in text[:off]:
                # a folded plain scalar: point at its start
                return span
            return span.shifted(off, length)

        return locate

    def get(self, path: Path, default: Any = None) -> Any:
        node = self.data
        for k in path:
            try:
                node = node[k]
            except (KeyError, IndexError, TypeError):
                return default
        return node


def _mark_span(file: str, mark) -> Span:
    return Span(file, mark.line + 1, mark.column + 1)


def parse_yaml(text: str, file: str) -> Tree:
    """Compose YAML with the safe loader and build a located plain-data tree (a fresh one
    each call: callers merge and edit trees in place)."""
    key = (file, text)
    known = _PARSED.get(key)
    if known is None:
        tree = _parse(text, file)
        known = _PARSED.put(key, (tree.data, tree.locs))
    data, locs = known
    return Tree(copy.deepcopy(data), dict(locs), {file: text})


# Files parsed before, by name and text: a process that loads the same rulesets again (a test
# run, a search agent's games, compare's two sides) composes each once. A copy of the plain
# data comes back (a hundredth of composing it); the locations are immutable.
_PARSED = Kept(64)


def _parse(text: str, file: str) -> Tree:
    try:
        loader = _BoundedLoader(text)
    except yaml.YAMLError as e:  # e.g. a control character the reader refuses
        raise _located(e, file, text) from None
    try:
        try:
            node = loader.get_single_node()
        except yaml.YAMLError as e:
            raise _located(e, file, text) from None
        except _Nesting as e:
            raise LoadError(f"YAML nests deeper than {MAX_DEPTH} levels", _mark_span(file, e.mark)) \
                from None
        tree = Tree(None, {}, {file: text})
        if node is None:
            raise LoadError("the file is empty: a ruleset is a YAML mapping", Span(file, 1, 1))
        counter = [0]
        tree.data = _build(node, (), tree, file, loader, counter, None)
        return tree
    finally:
        loader.dispose()


def _located(e: yaml.YAMLError, file: str, text: str) -> LoadError:
    """A YAML error as a LoadError at a position inside the file."""
    lines = text.splitlines() or [""]
    if isinstance(e, yaml.reader.ReaderError):
        before = text[:e.position] if isinstance(e.position, int) else ""
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        return LoadError(f"YAML syntax: the file contains a character YAML does not allow "
                         f"({e.character!r})" if hasattr(e, "character") else
                         f"YAML syntax: {e}", Span(file, line, col))
    if isinstance(e, yaml.MarkedYAMLError):
        mark = e.problem_mark or e.context_mark
        # past the end of the text (an unclosed quote or bracket): point where it was opened
        if mark is not None and mark.line >= len(lines) and e.context_mark is not None:
            mark = e.context_mark
        span = _mark_span(file, mark) if mark else Span(file, 1, 1)
        if span.line > len(lines):
            span = Span(file, len(lines), len(lines[-1]) + 1)
        msg = (e.problem or e.context or "malformed YAML").strip()
        if e.context and e.problem and mark is e.context_mark:
            msg = f"{e.context.strip()}: {e.problem.strip()}"
        hint = _hint(msg, lines, span.line)
        return LoadError(f"YAML syntax: {msg}" + (f" ({hint})" if hint else ""), span)
    return LoadError(f"YAML syntax: {e}", Span(file, 1, 1))


def _indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _hint(msg: str, lines: list[str], line_no: int) -> str:
    """What is probably wrong, for PyYAML's terse messages about indentation and colons."""
    here = lines[line_no - 1] if 0 < line_no <= len(lines) else ""
    above = next((ln for ln in reversed(lines[:max(line_no - 1, 0)])
                  if ln.strip() and not ln.lstrip().startswith("#")), None)
    if "mapping values are not allowed" in msg:
        if above is not None and _indent_of(here) > _indent_of(above) \
                and not above.rstrip().endswith(":"):
            return (f"line {line_no} is indented more than the line above it, at column "
                    f"{_indent_of(here) + 1}, not {_indent_of(above) + 1}: the keys of one "
                    f"mapping start in the same column")
        key = here.strip().split(": ", 1)[0]
        if "(" in key and ")" not in key:  # `f(t: tile): ...`, the first ': ' in the brackets
            sig = here.strip()[:here.strip().index(")") + 1] if ")" in here else key
            return (f"a function's signature as a key contains ': ' and must be quoted: "
                    f"\"{sig}\": ...")
        return "a value that contains ': ' must be quoted, e.g. key: \"a: b\""
    if "expected <block end>" in msg or "did not find expected key" in msg:
        if above is not None and _indent_of(here) != _indent_of(above):
            return (f"line {line_no} starts in column {_indent_of(here) + 1}; the keys of one "
                    f"mapping, and the items of one list, start in the same column")
        return "check the indentation of this line against the lines above it"
    if "'\\t'" in msg:
        return "indent with spaces: YAML does not allow tabs there"
    if "could not find expected ':'" in msg:
        return "a key needs a ':' after it; a line that continues a value is indented under it"
    return ""


def _build(node, path: Path, tree: Tree, file: str, loader, counter, key_span) -> Any:
    counter[0] += 1
    if counter[0] > MAX_NODES:
        raise LoadError(f"the document has more than {MAX_NODES} nodes (an alias bomb?)",
                        _mark_span(file, node.start_mark))
    span = _mark_span(file, node.start_mark)
    if len(path) > MAX_DEPTH:  # only an alias can get here: one inside its own anchor
        raise LoadError(f"YAML nests deeper than {MAX_DEPTH} levels (an alias inside its own "
                        f"anchor?)", span)
    if isinstance(node, yaml.ScalarNode):
        indent = 0
        if node.style in ("|", ">"):
            indent = _block_indent(tree.sources[file], node.start_mark.line + 1)
        tree.locs[path] = Loc(span, key_span, node.style, indent)
        try:
            value = loader.construct_object(node, deep=True)
        except yaml.YAMLError as e:
            raise LoadError(f"bad scalar: {getattr(e, 'problem', None) or e}", span) from None
        except (ValueError, IndexError, TypeError, OverflowError):
            # PyYAML's own constructors fail this way on e.g. an empty explicit '!!int'
            raise LoadError(f"bad scalar: {node.value!r} is not a valid {node.tag.rsplit(':', 1)[-1]}",
                            span) from None
        if isinstance(value, (bytes, bytearray)) or not isinstance(
                value, (str, int, float, bool, type(None))):
            # timestamps, binary and the like never appear in a ruleset: keep the text
            value = node.value
        return value
    tree.locs[path] = Loc(span, key_span)
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), tree, file, loader, counter, None)
                for i, item in enumerate(node.value)]
    if isinstance(node, yaml.MappingNode):
        out: dict = {}
        for knode, vnode in node.value:
            kspan = _mark_span(file, knode.start_mark)
            if not isinstance(knode, yaml.ScalarNode):
                raise LoadError("a mapping key must be a plain name", kspan)
            key = knode.value
            if knode.tag == "tag:yaml.org,2002:merge":
                raise LoadError("YAML merge keys ('<<') are not supported: use 'like:' or 'extends:'",
                                kspan)
            if key in out:
                raise LoadError(f"duplicate key '{key}'", kspan)
            out[key] = _build(vnode, path + (key,), tree, file, loader, counter, kspan)
        return out
    raise LoadError("unsupported YAML node", span)


def _block_cells(source: str, head_line: int, indent: int, value: str) -> list[tuple[int, int]]:
    """The (line, col) of each character of a block scalar's value, and one past its end.

    The value is matched against the source lines after the `|` or `>` line: a folded line
    break (a space in the value) or a kept one (a newline) moves on to the next line.
    """
    lines = source.splitlines()[head_line:]
    li, ci = 0, indent
    out = []
    for ch in value:
        for _ in range(len(lines) + 1):  # bounded: at most one pass over the lines
            line = lines[li] if li < len(lines) else ""
            if ci < len(line) and line[ci] == ch:
                out.append((head_line + li + 1, ci + 1))
                ci += 1
                break
            if ch in " \n" and ci >= len(line.rstrip()):
                out.append((head_line + li + 1, max(ci, len(line)) + 1))
                li, ci = li + 1, indent
                break
            if li >= len(lines):
                out.append((head_line + li, ci + 1))
                break
            li, ci = li + 1, indent
    out.append((head_line + min(li, max(len(lines) - 1, 0)) + 1, ci + 1))
    return out


def _block_indent(text: str, line_index: int) -> int:
    lines = text.splitlines()
    for ln in lines[line_index:]:
        if ln.strip():
            return len(ln) - len(ln.lstrip(" "))
    return 0


DELETE = None  # an overlay value of null removes the key


def merge(base: Tree, over: Tree, at: Path = ()) -> Tree:
    """Overlay `over` onto `base` (mappings merge key by key, null deletes, others replace)."""
    locs = dict(base.locs)
    sources = {**base.sources, **over.sources}
    deleted = {**base.deleted, **over.deleted}
    data = _merge_data(base.data, over.data, (), locs, over.locs, deleted)
    return Tree(data, locs, sources, deleted=deleted)


def function_name(signature: Any) -> str:
    """The name of a function key (`"f(t: tile)"` -> `f`; a key without brackets is its name)."""
    return str(signature).split("(", 1)[0].strip()


def names_in(node: Any) -> frozenset:
    """Every mapping key in `node`, and the name of each function signature among them."""
    out: set = set()

    def walk(n, depth=0):
        if depth > 64:
            return
        if isinstance(n, dict):
            for k, v in n.items():
                out.add(function_name(k))
                walk(v, depth + 1)
        elif isinstance(n, list):
            for v in n:
                walk(v, depth + 1)

    walk(node)
    return frozenset(out)


def _merge_data(b: Any, o: Any, path: Path, locs: dict, olocs: dict, deleted: dict) -> Any:
    if isinstance(b, dict) and isinstance(o, dict):
        out = dict(b)
        if path in olocs:
            locs[path] = olocs[path]
        for k, v in o.items():
            p = path + (k,)
            if v is DELETE:
                if k in out:
                    deleted[p] = (olocs.get(p), names_in({k: out[k]}))
                    del out[k]
                    _drop(locs, p)
                    if p in olocs:  # the null's own place stays, for errors about the gap
                        locs[p] = olocs[p]
                else:  # kept until `like:` is resolved, where it may delete an inherited part
                    out[k] = None
                    _copy(olocs, locs, p)
                continue
            if k in out:
                out[k] = _merge_data(out[k], v, p, locs, olocs, deleted)
            else:
                _copy(olocs, locs, p)
                out[k] = v
        return out
    _drop(locs, path)
    _copy(olocs, locs, path)
    return o


def strip_nulls(tree: Tree) -> None:
    """Remove the null values left after merging (in place): null only ever means 'delete'."""

    def strip(node, path):
        if isinstance(node, dict):
            for k in [k for k, v in node.items() if v is None]:
                del node[k]
                # what was under it goes; the null's own place stays, for errors about the gap
                _drop(tree.locs, path + (k,), keep_root=True)
            for k, v in node.items():
                strip(v, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                strip(v, path + (i,))

    strip(tree.data, ())


def _drop(locs: dict, path: Path, keep_root: bool = False) -> None:
    n = len(path)
    for p in [p for p in locs if p[:n] == path and not (keep_root and len(p) == n)]:
        del locs[p]


def _copy(src: dict, dst: dict, path: Path) -> None:
    n = len(path)
    for p, loc in src.items():
        if p[:n] == path:
            dst[p] = loc
