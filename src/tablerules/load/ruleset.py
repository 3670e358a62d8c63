"""Find a ruleset by name or path, read it, and resolve `extends:` and contracts' `like:`."""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from pathlib import Path

from ..errors import Diagnostic, LoadError, Span, did_you_mean
from .yamltree import Loc, Tree, function_name, merge, parse_yaml, strip_nulls

MAX_EXTENDS_DEPTH = 16
MAX_LIKE_DEPTH = 16  # contracts `like` one another a few levels deep; the resolution recurses
MAX_FILE_BYTES = 2_000_000


def data_dir(kind: str) -> Path:
    """The folder of shipped `rulesets` or `schemas`: inside the wheel, else the checkout's."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "_data" / kind
    if packaged.is_dir():
        return packaged
    return here.parents[1] / kind


def builtin_names() -> list[str]:
    return sorted(p.stem for p in data_dir("rulesets").glob("*.yaml"))


def builtin_path(name: str) -> Path | None:
    p = data_dir("rulesets") / f"{name}.yaml"
    try:
        return p if p.is_file() else None
    except OSError:  # e.g. a name too long for a file name: no built-in has it
        return None


YAML_SUFFIXES = (".yaml", ".yml")  # in any case: OurHall.YAML is a path


def is_path_ref(ref: str) -> bool:
    return ref.lower().endswith(YAML_SUFFIXES) or "/" in ref or "\\" in ref


def _not_yaml(ref: str, p: Path, span: Span | None) -> LoadError | None:
    """An existing file that is not named .yaml or .yml: what it is instead (a game record
    for `replay`), else None."""
    name = p.name.lower()
    if name.endswith(YAML_SUFFIXES):
        return None
    try:
        if not p.is_file():
            return None
    except (OSError, ValueError):
        return None
    where = span or Span(_short(ref), 0, 0)
    if name.endswith((".jsonl", ".jsonl.gz")):
        return LoadError(f"{_short(ref)} is a game record, not a ruleset: `tablerules replay "
                         f"{shlex.quote(_short(ref))}` plays it again", where)
    return LoadError(f"{_short(ref)} is not a .yaml file: a ruleset is a YAML file named "
                     f"NAME.yaml or NAME.yml, or a built-in name", where)


def resolve_ref(ref: str, *, relative_to: Path | None = None, span: Span | None = None) -> Path:
    """A built-in name or a file path (relative to the referring file) -> an existing file."""
    if is_path_ref(ref):
        p = Path(ref)
        if not p.is_absolute() and relative_to is not None:
            p = relative_to / p
        try:
            found = p.is_file()
        except OSError as e:  # e.g. ENAMETOOLONG: is_file only swallows "not found"
            raise LoadError(f"cannot read ruleset file {_short(ref)}: {e.strerror or e}",
                            span or Span(_short(ref), 0, 0)) from None
        if not found:
            raise LoadError(f"no such ruleset file: {_short(ref)}", span or Span(_short(ref), 0, 0))
        other = _not_yaml(ref, p, span)
        if other is not None:
            raise other
        return p
    p = builtin_path(ref)
    if p is None:
        other = _not_yaml(ref, Path(ref) if relative_to is None else relative_to / ref, span)
        if other is not None:  # a file here by that name, not a built-in's
            raise other
        names = builtin_names()
        raise LoadError(f"no built-in ruleset named {_quoted(ref)} (built-ins: {', '.join(names)})",
                        span or Span(_short(ref), 0, 0), suggestion=did_you_mean(ref, names))
    return p


def _quoted(ref: str) -> str:
    short = _short(ref)
    return short if short != ref else f"'{ref}'"


def _short(ref: str, limit: int = 80) -> str:
    """A reference short enough for one line of a message (quoted when empty, unprintable or
    with spaces at either end, so a message's location never starts with a space)."""
    if not ref.strip() or not ref.isprintable() or ref != ref.strip():
        ref = repr(ref)
    return ref if len(ref) <= limit else ref[:limit - 3] + "..."


def display_path(p: Path) -> str:
    """A short path for messages: a shipped ruleset as `rulesets/...` wherever the package is
    installed, another file relative to the working directory when inside it."""
    try:
        shipped = data_dir("rulesets").resolve()
        return str(Path("rulesets") / p.resolve().relative_to(shipped))
    except (ValueError, OSError):
        pass
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(p)


def file_of(name: str) -> Path:
    """The file a `display_path` names, as an absolute path on this machine."""
    if name.startswith("rulesets/"):
        shipped = data_dir("rulesets") / name[len("rulesets/"):]
        if shipped.is_file():
            return shipped.resolve()
    return Path(name).resolve()


def read_tree(path: Path) -> Tree:
    name = display_path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise LoadError(f"cannot read file: {e.strerror or e}", Span(name, 0, 0)) from None
    if len(raw) > MAX_FILE_BYTES:
        raise LoadError(f"file is larger than {MAX_FILE_BYTES} bytes", Span(name, 1, 1))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:  # at the bad byte's line and column (of the text before it)
        before = raw[:e.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        raise LoadError(f"file is not UTF-8 text: byte 0x{raw[e.start]:02x} (byte {e.start} of "
                        "the file) is not UTF-8; save it as UTF-8", Span(name, line, col)) from None
    tree = parse_yaml(text, name)
    if not isinstance(tree.data, dict):
        raise LoadError("a ruleset is a YAML mapping of keys such as name, options, contracts",
                        tree.span(()))
    return tree


def _is_dir(p: Path) -> bool:
    """Whether `p` is a directory; a name the system refuses (too long) is left to resolve_ref."""
    try:
        return p.is_dir()
    except (OSError, ValueError):
        return False


def load_tree(ref: str) -> Tree:
    """Read a ruleset with all its `extends:` bases merged under it and `like:` resolved."""
    if is_path_ref(ref) and _is_dir(Path(ref)):
        raise LoadError(f"{ref} is a directory, not a ruleset file: name a .yaml file in it",
                        Span(ref, 0, 0))
    path = resolve_ref(ref)
    tree = _load_extends(path, [])
    tree.origin = display_path(path)
    tree.library = tree.data.get("library") is True
    try:
        resolve_likes(tree)
    except LoadError as e:  # a base's `like` the user's file broke: said at the user's line
        raise LoadError(e.message, e.span, suggestion=e.suggestion,
                        diagnostics=attribute(tree, e.diagnostics)) from None
    stray = _stray_nulls(tree)
    if stray:
        raise LoadError(stray[0].message, stray[0].span, suggestion=stray[0].suggestion,
                        diagnostics=stray)
    strip_nulls(tree)
    return tree


def _stray_nulls(tree: Tree) -> list[Diagnostic]:
    """A null in the user's own file that deleted nothing (a part the rules it extends, or the
    contract it is `like`, do not have: a misspelt name), which would silently keep the part
    meant to go: one error each."""
    out: list[Diagnostic] = []

    def walk(node, path):
        if not isinstance(node, dict):
            return
        for k, v in node.items():
            p = path + (k,)
            if v is not None:
                walk(v, p)
                continue
            loc = tree.locs.get(p)
            if loc is None or loc.span.file != tree.origin:
                continue
            keys = [str(x) for x, y in node.items() if y is not None]
            if path == ("set",) and isinstance(tree.data.get("options"), dict):
                keys = [str(x) for x in tree.data["options"]]  # set names options
                if k in keys:  # an option the base does not set: at its default, as asked
                    continue
            where = ".".join(str(x) for x in path) or "the ruleset"
            out.append(Diagnostic(tree.span(p, key=True),
                                  f"'{k}: null' deletes nothing: {where} has no '{k}'",
                                  LoadError.kind, did_you_mean(str(k), keys), path=p))

    walk(tree.data, ())
    return out


def _load_extends(path: Path, chain: list[Path]) -> Tree:
    tree = read_tree(path)
    own_name = tree.data.get("name") if isinstance(tree.data, dict) else None
    lineage = (own_name,) if isinstance(own_name, str) else ()
    base_ref = tree.data.get("extends") if isinstance(tree.data, dict) else None
    if base_ref is None:
        tree.lineage = lineage
        return tree
    span = tree.span(("extends",))
    if not isinstance(base_ref, str):
        raise LoadError("'extends' names a built-in ruleset or a file path", span)
    if len(chain) >= MAX_EXTENDS_DEPTH:
        raise LoadError(f"'extends' chain is deeper than {MAX_EXTENDS_DEPTH}", span)
    if is_path_ref(base_ref) and _is_dir(path.parent / base_ref):
        raise LoadError(f"'extends' names a directory, not a ruleset file: {base_ref}", span)
    base_path = resolve_ref(base_ref, relative_to=path.parent, span=span)
    if base_path.resolve() in {p.resolve() for p in chain + [path]}:
        raise LoadError(f"'extends' cycle: {base_ref} extends this file again", span)
    base = _load_extends(base_path, chain + [path])
    if "library" in base.data:  # a library part's own mark: the file extending it is a game
        base.lineage = ()  # shared rules, not a game the file extends
        del base.data["library"]
        base.locs.pop(("library",), None)
    _same_functions(base, tree)
    own = Tree({k: v for k, v in tree.data.items() if k != "extends"}, tree.locs, tree.sources)
    own.deleted = tree.deleted
    merged = merge(base, own)
    merged.data["extends"] = base_ref
    merged.locs[("extends",)] = tree.locs[("extends",)]
    merged.lineage = lineage + tuple(n for n in base.lineage if n not in lineage)
    return merged


def _same_functions(base: Tree, over: Tree) -> None:
    """A function the overlay writes under a signature spelt otherwise than the base's
    (`f(t:tile)` for `"f(t: tile)"`) is the base's function: spelt as the base spells it when
    only the spacing differs (so that the two merge, and a null deletes it), else (other
    parameters) a replacement, the base's dropped. In place, before the two are merged."""
    fb, fo = base.data.get("functions"), over.data.get("functions")
    if not isinstance(fb, dict) or not isinstance(fo, dict):
        return
    by_name = {function_name(k): k for k in fb}
    renamed = {}
    for k in list(fo):
        b = by_name.get(function_name(k))
        if b is None or b == k or b in fo:
            continue
        if "".join(str(k).split()) == "".join(str(b).split()) or fo[k] is None:
            renamed[k] = b
        else:  # other parameters: the overlay's function replaces the base's
            del fb[b]
            for p in [p for p in base.locs if p[:2] == ("functions", b)]:
                del base.locs[p]
    if renamed:
        over.data["functions"] = {renamed.get(k, k): v for k, v in fo.items()}
        for p in [p for p in over.locs if p[:1] == ("functions",) and len(p) > 1
                  and p[1] in renamed]:
            over.locs[("functions", renamed[p[1]]) + p[2:]] = over.locs.pop(p)


def resolve_likes(tree: Tree) -> None:
    """Each contract with `like: other` gets other's parts under its own (in place)."""
    contracts = tree.data.get("contracts")
    if not isinstance(contracts, dict):
        return
    done: dict[str, dict] = {}

    def resolve(name: str, stack: list[str]) -> dict:
        if name in done:
            return done[name]
        body = contracts[name]
        if not isinstance(body, dict) or "like" not in body:
            done[name] = body
            return body
        like = body["like"]
        path = ("contracts", name, "like")

        def fault(message: str, suggestion: str | None = None) -> LoadError:
            # with the rule's path, so that a base's fault is laid at the user's line (load_tree)
            span = tree.span(path)
            return LoadError(message, span, suggestion=suggestion, diagnostics=[
                Diagnostic(span, message, LoadError.kind, suggestion, path=path)])
        if not isinstance(like, str) or like not in contracts:
            names = [n for n in contracts if n != name]
            raise fault(f"'like' names no contract: {like!r}", did_you_mean(str(like), names))
        if like in stack:
            raise fault(f"'like' cycle through contract '{like}'")
        if len(stack) >= MAX_LIKE_DEPTH:
            raise fault(f"'like' chain is deeper than {MAX_LIKE_DEPTH} contracts")
        base = resolve(like, stack + [name])
        base_tree = Tree(base, _sub_locs(tree.locs, ("contracts", like)), {})
        own = Tree(body, _sub_locs(tree.locs, ("contracts", name)), {})
        merged = merge(base_tree, own)
        for p in [p for p in tree.locs if p[:2] == ("contracts", name)]:
            del tree.locs[p]
        here = ("contracts", name)
        for p, loc in merged.locs.items():
            tree.locs[here + p] = loc
            if p not in own.locs and base_tree.locs.get(p) is loc:
                # copied from `like`: remember the contract where it is written
                tree.inherited[here + p] = tree.inherited.get(("contracts", like) + p, like)
        for p, d in merged.deleted.items():
            tree.deleted[here + p] = d
        done[name] = merged.data
        contracts[name] = merged.data
        return merged.data

    for name in list(contracts):
        resolve(name, [])


def _sub_locs(locs: dict, prefix: tuple) -> dict[tuple, Loc]:
    n = len(prefix)
    return {p[n:]: loc for p, loc in locs.items() if p[:n] == prefix}


ONE_OF = re.compile(r"one of\s+([a-z_][a-z0-9_]*|\[[^\]]*\])")


def content_hash(data) -> str:
    """A stable hash of the merged ruleset content (not of its file layout); `simulate`, which
    only says how bots play it by default, and `display`, which only says how people see it,
    are not part of the game. A function's parameter `one of X` counts as the `symbol` it is
    when the game runs: the set only says which calls are written right, so declaring it does
    not change the hash (a record made before still replays)."""
    if isinstance(data, dict) and ("simulate" in data or "display" in data):
        data = {k: v for k, v in data.items() if k not in ("simulate", "display")}
    fns = data.get("functions") if isinstance(data, dict) else None
    if isinstance(fns, dict) and any(ONE_OF.search(str(k)) for k in fns):
        data = dict(data, functions={ONE_OF.sub("symbol", str(k)): v for k, v in fns.items()})
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return "sha256:" + hashlib.sha256(blob.encode()).hexdigest()[:16]


def _at(loc: Loc) -> Span:
    return loc.key_span or loc.span


def _first_in(tree: Tree, prefix: tuple, file: str, beside: tuple | None = None) -> Span | None:
    """The first place (in file order) under `prefix` that `file` wrote; with `beside`, only
    the places under `prefix` that are not on the way to `beside` (its neighbours)."""
    n = len(prefix)
    found = [_at(loc) for p, loc in tree.locs.items() if p[:n] == prefix and loc.span.file == file
             and (beside is None or beside[:len(p)] != p)]
    return min(found, key=lambda s: (s.line, s.col)) if found else None


def blame(tree: Tree, path: tuple | None, span: Span, message: str) -> tuple[Span, str] | None:
    """For a problem found in a base file: the place in the user's own file that caused it,
    and how (a part the user changed, or a part the user deleted); None when it is the user's."""
    origin = tree.origin
    if not origin or span.file == origin or span.file not in tree.sources:
        return None
    path = tuple(path or ())
    if path:
        at = _first_in(tree, path, origin)  # the user changed part of this rule
        if at is not None:
            return at, ""
    dels = sorted(((p, loc, names) for p, (loc, names) in tree.deleted.items()
                   if loc is not None and loc.span.file == origin),
                  key=lambda d: (_at(d[1]).line, _at(d[1]).col))
    quoted = set(re.findall(r"'([A-Za-z_][A-Za-z0-9_]*)'", message))
    for p, loc, names in dels:  # the name the base misses was in a part the user deleted
        if quoted & names:
            return _at(loc), f"deleting '{p[-1]}' here breaks the base ruleset: "
    at = _called_function(tree, path, origin)  # the rule calls a function the user wrote,
    if at is not None:  # or reads an option the user's file sets
        return at, ""
    for k in range(len(path) - 1, 0, -1):  # the user changed a neighbouring rule
        at = _first_in(tree, path[:k], origin, beside=path)
        if at is not None:
            return at, ""
    if dels:
        p, loc, _ = dels[0]
        return _at(loc), f"deleting '{p[-1]}' here breaks the base ruleset: "
    at = _first_in(tree, ("seats",), origin, beside=("seats",))  # the table the user reshaped
    if at is not None:  # (`seats.sides`, `seats.count`): every rule of the base stands on it
        return at, ""
    ext = tree.locs.get(("extends",))
    return (_at(ext) if ext is not None and ext.span.file == origin else Span(origin, 1, 1)), ""


_CALL = re.compile(r"\b([a-z_][a-z0-9_]*)\s*\(")
_NAME = re.compile(r"(?<![.\w])([a-z_][a-z0-9_]*)\b")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def _called_function(tree: Tree, path: tuple, origin: str) -> Span | None:
    """The first function the user's file writes, or option it sets (`set:`), in file order,
    that the rule at `path` calls or reads, directly or through other functions: a base rule
    that fails because of it."""
    functions = tree.data.get("functions") if isinstance(tree.data, dict) else None
    if not isinstance(functions, dict):
        functions = {}
    sets = tree.data.get("set") if isinstance(tree.data, dict) else None
    mine = {str(k) for k in sets if (loc := tree.locs.get(("set", k))) is not None
            and loc.span.file == origin} if isinstance(sets, dict) else set()
    if not path or not (functions or mine):
        return None
    bodies = {function_name(sig): (sig, body) for sig, body in functions.items()}

    def texts(node, depth=0):
        if isinstance(node, str):
            yield node
        elif isinstance(node, (dict, list)) and depth < 64:
            for v in node.values() if isinstance(node, dict) else node:
                yield from texts(v, depth + 1)

    seen: set[str] = set()
    todo = [t for t in texts(tree.get(path))]
    found = []
    while todo:
        text = todo.pop()
        for name in set(_NAME.findall(_QUOTED.sub("", text))) & mine:
            if name not in seen:
                seen.add(name)
                found.append(tree.span(("set", name)))
        for name in _CALL.findall(text):
            if name in seen or name not in bodies:
                continue
            seen.add(name)
            sig, body = bodies[name]
            loc = tree.locs.get(("functions", sig))
            if loc is not None and loc.span.file == origin:
                found.append(tree.span(("functions", sig), key=True))
            todo.extend(texts(body))
    return min(found, key=lambda s: (s.line, s.col)) if found else None


def attribute(tree: Tree, diags: list[Diagnostic]) -> list[Diagnostic]:
    """One diagnostic per mistake, at the place the author wrote it.

    A mistake in a part that other contracts copy with `like:` is kept once, for the contract
    where it is written; a problem in a base file that the user's overlay caused moves to the
    user's line, with a note at the base rule it broke (one error per user line).
    """
    out: list[Diagnostic] = []
    by_span: dict[tuple, int] = {}
    for d in diags:  # a part copied with `like:` is checked once per copy
        p = tuple(d.path or ())
        msg = d.message
        if len(p) >= 2 and p[0] == "contracts":  # the copies differ only in the contract named
            msg = msg.replace(f"contracts.{p[1]}", "contracts.*").replace(f"'{p[1]}'", "'*'")
        key = (d.span, d.kind, msg, d.suggestion)
        if key in by_span:
            i = by_span[key]
            if _writer_of(tree, d) and not _writer_of(tree, out[i]):
                out[i] = d
            continue
        by_span[key] = len(out)
        out.append(d)
    result: list[Diagnostic] = []
    groups: dict[tuple, list] = {}
    for d in out:
        if d.severity != "error":
            result.append(d)
            continue
        b = blame(tree, d.path, d.span, d.message)
        if b is None:
            result.append(d)
            continue
        at, how = b
        key = (at.file, at.line, at.col)
        if key in groups:
            groups[key][1] += 1
            continue
        err = Diagnostic(at, how + d.message, d.kind, None if how else d.suggestion, path=d.path)
        note = [d, 0]
        groups[key] = note
        result.append(err)
        result.append(note)  # replaced below, once the count is known
    final = []
    for r in result:
        if isinstance(r, list):
            d, more = r
            rule = ".".join(str(p) for p in (d.path or _path_at(tree, d.span))) or "a rule"
            extra = f" (and {more} more in the base ruleset)" if more else ""
            final.append(Diagnostic(d.span, f"the base rule it broke: {rule}{extra}", d.kind,
                                    severity="note", path=d.path))
        else:
            final.append(r)
    return final


def _path_at(tree: Tree, span: Span) -> tuple:
    """The part of the rules written at `span` (the one starting nearest before it in its
    file): the rule a fault with no part of its own was found in, such as a function's body."""
    at = [(loc.span.line, loc.span.col, p) for p, loc in tree.locs.items()
          if loc.span.file == span.file and (loc.span.line, loc.span.col) <= (span.line, span.col)]
    return max(at, key=lambda x: (x[0], x[1], len(x[2])))[2] if at else ()


def _writer_of(tree: Tree, d: Diagnostic) -> bool:
    """Whether `d` is about the contract that wrote its place (not one that copies it)."""
    p = tuple(d.path or ())
    if len(p) < 2 or p[0] != "contracts":
        return False
    n = len(p)
    return any(q[:2] == p[:2] and (loc.span == d.span or loc.key_span == d.span
                                   or (loc.span.line, loc.span.col) == (d.span.line, d.span.col))
               and q not in tree.inherited
               for q, loc in tree.locs.items()) if n else False


def like_notes(tree: Tree) -> list[Diagnostic]:
    """A note at each part the user's file changes in a contract that others copy with `like:`
    written elsewhere: the change reaches those contracts too."""
    origin = tree.origin
    contracts = tree.data.get("contracts") if isinstance(tree.data, dict) else None
    if not origin or not isinstance(contracts, dict):
        return []
    copies: dict[tuple, list[str]] = {}
    for q, src in tree.inherited.items():
        like_loc = tree.locs.get(("contracts", q[1], "like"))
        if like_loc is None or like_loc.span.file == origin:
            continue  # the user wrote that `like:` and knows
        copies.setdefault(("contracts", src) + q[2:], []).append(q[1])
    notes = []
    done: list[tuple] = []
    for p, loc in sorted(tree.locs.items(), key=lambda i: (_at(i[1]).line, _at(i[1]).col)):
        if loc.span.file != origin or len(p) < 3 or p[0] != "contracts" or p in tree.inherited:
            continue
        if p not in copies or any(p[:len(q)] == q for q in done):
            continue
        n = len(p)
        if isinstance(tree.get(p), dict) and any(
                q[:n] == p and l.span.file != origin for q, l in tree.locs.items()):
            continue  # merged into the base's mapping: the change is in the keys below
        done.append(p)
        names = sorted(set(copies[p]))
        notes.append(Diagnostic(
            _at(loc), f"this change to contract '{p[1]}' also reaches "
                      f"{', '.join(repr(n) for n in names)}, which cop"
                      f"{'ies' if len(names) == 1 else 'y'} it with 'like:' (see `tablerules show`)",
            "like", severity="note", path=p))
    return notes
