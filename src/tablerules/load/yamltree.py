"""YAML text -> plain data plus the source position of every node (safe composition only)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import yaml

from ..errors import LoadError, Span

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

        def locate(off: int, length: int) -> Span:
            if style in ("|", ">"):
                before = text[:off]
                line = span.line + 1 + before.count("\n")
                col = loc.indent + 1 + (off - (before.rfind("\n") + 1))
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
    """Compose YAML with the safe loader and build a located plain-data tree."""
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
        return LoadError(f"YAML syntax: {msg}", span)
    return LoadError(f"YAML syntax: {e}", Span(file, 1, 1))


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
    data = _merge_data(base.data, over.data, (), locs, over.locs)
    return Tree(data, locs, sources)


def _merge_data(b: Any, o: Any, path: Path, locs: dict, olocs: dict) -> Any:
    if isinstance(b, dict) and isinstance(o, dict):
        out = dict(b)
        if path in olocs:
            locs[path] = olocs[path]
        for k, v in o.items():
            p = path + (k,)
            if v is DELETE:
                if k in out:
                    del out[k]
                    _drop(locs, p)
                else:  # kept until `like:` is resolved, where it may delete an inherited part
                    out[k] = None
                    _copy(olocs, locs, p)
                continue
            if k in out:
                out[k] = _merge_data(out[k], v, p, locs, olocs)
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
                _drop(tree.locs, path + (k,))
            for k, v in node.items():
                strip(v, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                strip(v, path + (i,))

    strip(tree.data, ())


def _drop(locs: dict, path: Path) -> None:
    n = len(path)
    for p in [p for p in locs if p[:n] == path]:
        del locs[p]


def _copy(src: dict, dst: dict, path: Path) -> None:
    n = len(path)
    for p, loc in src.items():
        if p[:n] == path:
            dst[p] = loc
