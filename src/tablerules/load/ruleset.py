"""Find a ruleset by name or path, read it, and resolve `extends:` and contracts' `like:`."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..errors import LoadError, Span, did_you_mean
from .yamltree import Loc, Tree, merge, parse_yaml, strip_nulls

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


def is_path_ref(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


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
        return p
    p = builtin_path(ref)
    if p is None:
        names = builtin_names()
        raise LoadError(f"no built-in ruleset named {_quoted(ref)} (built-ins: {', '.join(names)})",
                        span or Span(_short(ref), 0, 0), suggestion=did_you_mean(ref, names))
    return p


def _quoted(ref: str) -> str:
    short = _short(ref)
    return short if short != ref else f"'{ref}'"


def _short(ref: str, limit: int = 80) -> str:
    """A reference short enough for one line of a message (quoted when empty or unprintable)."""
    if not ref.strip() or not ref.isprintable():
        ref = repr(ref)
    return ref if len(ref) <= limit else ref[:limit - 3] + "..."


def display_path(p: Path) -> str:
    """A short path for messages: relative to the working directory when inside it."""
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


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
    except UnicodeDecodeError as e:
        raise LoadError(f"file is not UTF-8 text (byte {e.start})", Span(name, 1, 1)) from None
    tree = parse_yaml(text, name)
    if not isinstance(tree.data, dict):
        raise LoadError("a ruleset is a YAML mapping of keys such as name, options, contracts",
                        tree.span(()))
    return tree


def load_tree(ref: str) -> Tree:
    """Read a ruleset with all its `extends:` bases merged under it and `like:` resolved."""
    path = resolve_ref(ref)
    tree = _load_extends(path, [])
    resolve_likes(tree)
    strip_nulls(tree)
    return tree


def _load_extends(path: Path, chain: list[Path]) -> Tree:
    tree = read_tree(path)
    base_ref = tree.data.get("extends")
    if base_ref is None:
        return tree
    span = tree.span(("extends",))
    if not isinstance(base_ref, str):
        raise LoadError("'extends' names a built-in ruleset or a file path", span)
    if len(chain) >= MAX_EXTENDS_DEPTH:
        raise LoadError(f"'extends' chain is deeper than {MAX_EXTENDS_DEPTH}", span)
    base_path = resolve_ref(base_ref, relative_to=path.parent, span=span)
    if base_path.resolve() in {p.resolve() for p in chain + [path]}:
        raise LoadError(f"'extends' cycle: {base_ref} extends this file again", span)
    base = _load_extends(base_path, chain + [path])
    own = Tree({k: v for k, v in tree.data.items() if k != "extends"}, tree.locs, tree.sources)
    merged = merge(base, own)
    merged.data["extends"] = base_ref
    merged.locs[("extends",)] = tree.locs[("extends",)]
    return merged


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
        if not isinstance(like, str) or like not in contracts:
            names = [n for n in contracts if n != name]
            raise LoadError(f"'like' names no contract: {like!r}", tree.span(path),
                            suggestion=did_you_mean(str(like), names))
        if like in stack:
            raise LoadError(f"'like' cycle through contract '{like}'", tree.span(path))
        if len(stack) >= MAX_LIKE_DEPTH:
            raise LoadError(f"'like' chain is deeper than {MAX_LIKE_DEPTH} contracts",
                            tree.span(path))
        base = resolve(like, stack + [name])
        base_tree = Tree(base, _sub_locs(tree.locs, ("contracts", like)), {})
        own = Tree(body, _sub_locs(tree.locs, ("contracts", name)), {})
        merged = merge(base_tree, own)
        for p in [p for p in tree.locs if p[:2] == ("contracts", name)]:
            del tree.locs[p]
        for p, loc in merged.locs.items():
            tree.locs[("contracts", name) + p] = loc
        done[name] = merged.data
        contracts[name] = merged.data
        return merged.data

    for name in list(contracts):
        resolve(name, [])


def _sub_locs(locs: dict, prefix: tuple) -> dict[tuple, Loc]:
    n = len(prefix)
    return {p[n:]: loc for p, loc in locs.items() if p[:n] == prefix}


def content_hash(data) -> str:
    """A stable hash of the merged ruleset content (not of its file layout); `simulate`, which
    only says how bots play it by default, is not part of the game."""
    if isinstance(data, dict) and "simulate" in data:
        data = {k: v for k, v in data.items() if k != "simulate"}
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return "sha256:" + hashlib.sha256(blob.encode()).hexdigest()[:16]
