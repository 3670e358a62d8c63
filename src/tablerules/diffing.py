"""How two rulesets differ: option by option, then part by part of the merged rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .definition import value_str

if TYPE_CHECKING:
    from .game import Game

# parts that describe a ruleset rather than its rules
IGNORED = {"name", "title", "extends", "set", "options"}


@dataclass
class RulesetDiff:
    a: str
    b: str
    options: list[dict] = field(default_factory=list)
    parts: list[dict] = field(default_factory=list)
    # the merged rules of each (not in `as_dict`): what a contract copied with `like:` copies
    a_source: dict = field(default_factory=dict, repr=False)
    b_source: dict = field(default_factory=dict, repr=False)

    @property
    def same(self) -> bool:
        return not self.options and not self.parts

    def as_dict(self) -> dict:
        return {"a": self.a, "b": self.b, "same": self.same, "options": self.options,
                "parts": self.parts}


def diff_games(a: Game, b: Game) -> RulesetDiff:
    """Compare option declarations and values, then every other part of the merged rules."""
    da, db = a.definition, b.definition
    out = RulesetDiff(da.canonical, db.canonical, a_source=da.source, b_source=db.source)
    names = list(da.option_decls) + [n for n in db.option_decls if n not in da.option_decls]
    for n in names:
        oa, ob = da.option_decls.get(n), db.option_decls.get(n)
        if oa is None or ob is None:
            present = oa or ob
            out.options.append({"option": n, "change": "only in " + (out.a if oa else out.b),
                                "a": da.options.get(n), "b": db.options.get(n),
                                "description": present.description})
            continue
        changes = []
        if da.options[n] != db.options[n]:
            changes.append("value")
        if oa.values != ob.values or (oa.min, oa.max) != (ob.min, ob.max) or oa.type != ob.type:
            changes.append("allowed values")
        if oa.default != ob.default and "value" not in changes:
            changes.append("default")
        if changes:
            out.options.append({"option": n, "change": ", ".join(changes),
                                "a": da.options[n], "b": db.options[n],
                                "allowed_a": oa.allowed(), "allowed_b": ob.allowed(),
                                "description": oa.description})
    _diff_parts({k: v for k, v in da.source.items() if k not in IGNORED},
                {k: v for k, v in db.source.items() if k not in IGNORED}, "", out.parts)
    return out


_ABSENT = object()


def _diff_parts(a: Any, b: Any, path: str, out: list[dict]) -> None:
    """Walk both trees; a part present on one side only is reported once, at its root."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            p = f"{path}.{k}" if path else str(k)
            if k not in b:
                out.append({"part": p, "change": "removed", "a": a[k], "b": None})
            elif k not in a:
                out.append({"part": p, "change": "added", "a": None, "b": b[k]})
            else:
                _diff_parts(a[k], b[k], p, out)
    elif a != b:
        out.append({"part": path, "change": "changed", "a": a, "b": b})


def render_diff(d: RulesetDiff) -> str:
    if d.same:
        return f"{d.a} and {d.b} play the same rules"
    lines = [f"--- {d.a}", f"+++ {d.b}"]
    if d.options:
        lines.append("")
        lines.append("options:")
        for o in d.options:
            change = o["change"]
            if "allowed_a" in o and "allowed values" in change:  # say them: "1..21 -> 3, 5, 7"
                change = change.replace("allowed values", f"allowed values: {o['allowed_a']} -> "
                                                          f"{o['allowed_b']}")
            lines.append(f"  {o['option']}: {_show(o['a'])} -> {_show(o['b'])}  ({change})")
            lines.append(f"      {o['description']}")
    if d.parts:
        lines.append("")
        lines.append("rules:")
        for p in d.parts:
            lines.append(f"  {p['part']} ({p['change']})")
            if p["change"] != "added":
                lines.append(f"    - {_show(p['a'])}")
                if p["change"] == "removed":
                    lines += _parts_of(p["a"], p["part"], d.a_source)
            if p["change"] != "removed":
                lines.append(f"    + {_show(p['b'])}")
                if p["change"] == "added":
                    lines += _parts_of(p["b"], p["part"], d.b_source)
    return "\n".join(lines)


def _leaves(v: Any, path: str = "") -> dict[str, Any]:
    """A mapping's parts, flattened: "bid.levels" -> its value (a part that is not a mapping)."""
    if not isinstance(v, dict):
        return {path: v}
    out: dict[str, Any] = {}
    for k, x in v.items():
        out.update(_leaves(x, f"{path}.{k}" if path else str(k)))
    return out


def _parts_of(v: Any, part: str, source: dict) -> list[str]:
    """The lines under a titled part added or removed whole (a contract), which its title alone
    would hide: each of its parts, one a line, with X's where it differs from X (`like: X`). A
    part the same as X's is left out (one line counts them); its bids are always shown."""
    if not isinstance(v, dict) or not isinstance(v.get("title"), str):
        return []
    like = v.get("like")
    parent = part.rsplit(".", 1)[0] if "." in part else ""
    siblings: Any = source
    for k in parent.split(".") if parent else ():
        siblings = siblings.get(k) if isinstance(siblings, dict) else None
    base = _leaves(siblings[like]) if isinstance(like, str) and isinstance(siblings, dict) \
        and isinstance(siblings.get(like), dict) else None
    out = []
    same = 0
    for k, x in _leaves({k: x for k, x in v.items() if k not in ("title", "like")}).items():
        if base is not None and k in base and base[k] == x and not k.startswith("bid."):
            same += 1
            continue
        was = f"   ({like}: {_show(base[k])})" if base is not None and k in base \
            and base[k] != x else ""
        out.append(f"        {k}: {_show(x)}{was}")
    if base is not None:  # what it drops of X's (`exchange: null`), once at the dropped part
        for k, x in _dropped(siblings[like], v):
            out.append(f"        {k}: (none)   ({like}: {_show(x)})")
    if isinstance(like, str):
        rest = f"; {same} other part{'s' if same != 1 else ''} as in {like}" if same else ""
        out.insert(0, f"        like: {like}{rest}")
    return out


def _dropped(base: dict, v: dict, path: str = "") -> list[tuple[str, Any]]:
    """The parts of `base` that `v` lacks, each at its root: "exchange" -> base's exchange."""
    out = []
    for k, x in base.items():
        if not path and k in ("title", "like"):
            continue
        p = f"{path}.{k}" if path else str(k)
        if k not in v:
            out.append((p, x))
        elif isinstance(x, dict) and isinstance(v[k], dict):
            out += _dropped(x, v[k], p)
    return out


def _show(v: Any) -> str:
    if v is None:
        return "(none)"
    if isinstance(v, str):
        return " ".join(v.split())
    if isinstance(v, dict):
        if isinstance(v.get("title"), str):
            return v["title"]
        if isinstance(v.get("value"), str):
            return " ".join(v["value"].split())
        return "{" + ", ".join(f"{k}: {_show(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    return value_str(v)
