"""Declared options: parse `--option name=value` text and check values against declarations."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import OptionError, Span, did_you_mean
from ..expr.types import INT_LIMIT

TRUE_WORDS = {"true", "yes", "on", "1"}
FALSE_WORDS = {"false", "no", "off", "0"}
# ASCII digits only: Python's int() also takes '3_1' and full-width digits, which no one means
INT_TEXT = re.compile(r"[+-]?[0-9]+", re.ASCII)
COUNT_TEXT = re.compile(r"[0-9]+", re.ASCII)  # a count: a seat, workers, a shard, a port


def is_count(text: str) -> bool:
    """Whether `text` is a whole number in the digits 0-9, no sign: str.isdigit() is also true
    of '²', which int() refuses, and of other scripts' digits, which int() reads."""
    return COUNT_TEXT.fullmatch(text) is not None


@dataclass(frozen=True)
class OptionDecl:
    """One house rule: a name, a type, a default, allowed values and a line of description."""

    name: str
    type: str  # int | bool | symbol
    default: Any
    description: str
    values: tuple | None = None
    min: int | None = None
    max: int | None = None

    def allowed(self) -> str:
        if self.values:
            return ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in self.values)
        if self.type == "bool":
            return "true, false"
        if self.min is not None or self.max is not None:
            lo = "" if self.min is None else str(self.min)
            hi = "" if self.max is None else str(self.max)
            return f"{lo}..{hi}"
        return "any int"

    def problem(self, value: Any) -> str | None:
        """Why `value` (already of a YAML/Python type) is not acceptable, or None."""
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                quoted = isinstance(value, str) and INT_TEXT.fullmatch(value.strip())
                return (f"option '{self.name}' takes an int, got {_show(value)}"
                        + (" (in quotes: without them it is a number)" if quoted else ""))
            # its own range first: '99999999999999999999' is past 21 before it is past 2**53
            if self.min is not None and value < self.min:
                return f"option '{self.name}' must be at least {self.min}, got {_short(value)}"
            if self.max is not None and value > self.max:
                return f"option '{self.name}' must be at most {self.max}, got {_short(value)}"
            if not -INT_LIMIT <= value <= INT_LIMIT:
                return f"option '{self.name}' takes an int between -2**53 and 2**53"
        elif self.type == "bool":
            if not isinstance(value, bool):
                return f"option '{self.name}' takes true or false, got {_show(value)}"
        elif self.type == "symbol":
            if not isinstance(value, str):
                return (f"option '{self.name}' takes one of {self.allowed()}, got {_show(value)}"
                        + (_YAML_BOOL if isinstance(value, bool) else ""))
        if self.values is not None and value not in self.values:
            return f"option '{self.name}' takes one of {self.allowed()}, got {_show(value)}"
        return None

    def parse_text(self, text: str) -> Any:
        """The value of a command-line string, or raise ValueError with the reason."""
        t = text.strip()
        if self.type == "int":
            if not INT_TEXT.fullmatch(t):
                raise ValueError(f"option '{self.name}' takes an int, got '{text}'")
            value: Any = int(t)
        elif self.type == "bool":
            if t.lower() in TRUE_WORDS:
                value = True
            elif t.lower() in FALSE_WORDS:
                value = False
            else:
                raise ValueError(f"option '{self.name}' takes true or false, got '{text}'")
        else:
            value = t
        why = self.problem(value)
        if why:
            raise ValueError(why)
        return value


# a symbol's value read as a bool: YAML 1.1, which PyYAML reads, takes these words unquoted so
_YAML_BOOL = " (YAML reads yes, no, on and off unquoted as true or false: quote the word)"


def _short(value: int) -> str:
    """An int as written, or its number of digits past 20 (a user's 10**100 fills no screen)."""
    text = str(value)
    digits = len(text.lstrip('-'))
    return text if digits <= 20 else f"a{' negative' if value < 0 else ''} number of {digits} digits"


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'"
    if value is None:
        return "nothing"
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "a mapping"
    return repr(value)


def parse_cli_options(pairs: list[str] | None) -> dict[str, str]:
    """`name=value` strings -> a dict; a malformed or repeated pair raises a located OptionError."""
    out: dict[str, str] = {}
    for i, pair in enumerate(pairs or []):
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"--option takes name=value, got '{pair}'",
                              Span("--option", i + 1, 1))
        if name.strip() in out:
            raise OptionError(f"option '{name.strip()}' is given twice", Span("--option", i + 1, 1))
        out[name.strip()] = value
    return out


def apply_cli_options(decls: dict[str, OptionDecl], values: dict[str, Any],
                      cli: dict[str, Any]) -> dict[str, Any]:
    """Overlay command-line option values (strings or typed) on `values`; all errors at once."""
    out = dict(values)
    diags = []
    for i, (name, raw) in enumerate(cli.items()):
        span = Span("--option", i + 1, 1)
        decl = decls.get(name)
        if decl is None:
            err = OptionError(f"unknown option '{name}' (options: {', '.join(sorted(decls)) or 'none'})",
                              span, suggestion=did_you_mean(name, decls))
            diags.extend(err.diagnostics)
            continue
        try:
            out[name] = decl.parse_text(raw) if isinstance(raw, str) and decl.type != "symbol" \
                else _check_typed(decl, raw)
        except ValueError as e:
            diags.extend(OptionError(str(e), span,
                                     suggestion=_value_suggestion(decl, raw)).diagnostics)
    if diags:
        raise OptionError(diags[0].message, diags[0].span, diagnostics=diags)
    return out


def _check_typed(decl: OptionDecl, value: Any) -> Any:
    why = decl.problem(value)
    if why:
        raise ValueError(why)
    return value


def _value_suggestion(decl: OptionDecl, raw: Any) -> str | None:
    if decl.values and isinstance(raw, str):
        return did_you_mean(raw, [str(v) for v in decl.values])
    return None


def canonical_name(name: str, decls: dict[str, OptionDecl], values: dict[str, Any],
                   defaults: dict[str, Any] | None = None) -> str:
    """`name(opt=value, ...)` listing only options that differ from the ruleset's defaults."""
    diffs = []
    for k in sorted(values):
        d = decls.get(k)
        default = (defaults or {}).get(k, d.default if d is not None else None)
        if d is not None and values[k] != default:
            v = values[k]
            diffs.append(f"{k}={str(v).lower() if isinstance(v, bool) else v}")
    return f"{name}({', '.join(diffs)})" if diffs else name
