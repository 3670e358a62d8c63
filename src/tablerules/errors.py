"""One error hierarchy for every user-facing problem, each carrying a source span."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable, Sequence


@dataclass(frozen=True)
class Span:
    """A place in a source file: 1-based line and column, optional end on the same line."""

    file: str
    line: int
    col: int
    end_col: int | None = None

    def shifted(self, offset: int, length: int | None = None) -> "Span":
        """A span `offset` characters further along the same line (expressions inside YAML)."""
        col = self.col + offset
        return Span(self.file, self.line, col, None if length is None else col + max(length, 1))

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


UNKNOWN = Span("<unknown>", 0, 0)


def plural(k: int, word: str, words: str | None = None) -> str:
    """`k` and `word`, or `words` (default `word` and an s) unless `k` is 1: "1 game", "2 games",
    "0 games"; "1 whole match", "3 whole matches"."""
    return f"{k} {word}" if k == 1 else f"{k} {words or word + 's'}"


def listed(words: list[str], last: str = "and") -> str:
    """Words as a sentence lists them: "North", "North and West", "a, b or c" (`last` "or")."""
    return ", ".join(words[:-1]) + f" {last} " + words[-1] if len(words) > 1 else "".join(words)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate to a misspelled name, if one is close enough."""
    found = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return found[0] if found else None


@dataclass
class Diagnostic:
    """One located message; `kind` is a stable machine-readable category."""

    span: Span
    message: str
    kind: str = "error"
    suggestion: str | None = None
    severity: str = "error"
    # the ruleset path the message is about, when known (for blame and de-duplication)
    path: tuple | None = field(default=None, compare=False, repr=False)

    def as_dict(self) -> dict:
        d = {
            "file": self.span.file,
            "line": self.span.line,
            "col": self.span.col,
            "severity": self.severity,
            "kind": self.kind,
            "message": self.full_message(),
        }
        return d

    def full_message(self) -> str:
        if self.suggestion:
            return f"{self.message} (did you mean '{self.suggestion}'?)"
        return self.message


class TablerulesError(Exception):
    """Root of every error a user can cause; holds one or more diagnostics."""

    kind = "error"

    def __init__(self, message: str, span: Span = UNKNOWN, *, suggestion: str | None = None,
                 kind: str | None = None, diagnostics: Sequence[Diagnostic] | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.suggestion = suggestion
        if kind:
            self.kind = kind
        self.diagnostics: list[Diagnostic] = list(diagnostics) if diagnostics else [
            Diagnostic(span, message, self.kind, suggestion)
        ]

    def __str__(self) -> str:
        return "\n".join(f"{d.span}: {d.severity}: {d.full_message()}" for d in self.diagnostics)


class LoadError(TablerulesError):
    """YAML that cannot be read or composed, or an `extends:` that cannot be resolved."""

    kind = "load"


class SchemaError(TablerulesError):
    """The ruleset's structure does not match schemas/ruleset.schema.json."""

    kind = "schema"


class ExprError(TablerulesError):
    """An expression that does not parse or does not type-check."""

    kind = "expr"


class CheckError(TablerulesError):
    """A semantic error in a ruleset: unknown name, wrong type, bad reference."""

    kind = "check"


class OptionError(TablerulesError):
    """An option override that names no option or has the wrong type or value."""

    kind = "option"


class GameError(TablerulesError):
    """A rule violation found while running a game: no legal action, a hand that never ends.

    `part` names the ruleset part at fault (a path such as ("auction",)), so `validate` can
    point at it in the file.
    """

    kind = "game"
    part: tuple = ()

    def at(self, *part) -> "GameError":
        self.part = tuple(part)
        return self


class RulesetFault(GameError):
    """A fault of the ruleset found in play (no legal action, a hand that never ends), located
    at the ruleset part at fault through `part`."""


class CallerError(GameError):
    """A mistake of the engine's caller: an illegal action, a malformed deal."""

    kind = "caller"


class RecordError(TablerulesError):
    """A game record that does not match what the engine computes."""

    kind = "record"


def render(diag: Diagnostic, sources: dict[str, str] | None = None) -> str:
    """`file:line:col: error: message`, the source line, and a caret under the column; a
    diagnostic of no place (the machine, the environment) is `error: message`."""
    if diag.span == UNKNOWN:
        return f"{diag.severity}: {diag.full_message()}"
    where = diag.span if diag.span.line > 0 else diag.span.file  # no line: a whole file
    head = f"{where}: {diag.severity}: {diag.full_message()}"
    text = (sources or {}).get(diag.span.file)
    if text is None or diag.span.line < 1:
        return head
    lines = text.splitlines()
    if diag.span.line > len(lines):
        return head
    src = lines[diag.span.line - 1].replace("\t", " ")
    col = max(diag.span.col, 1)
    width = 1
    if diag.span.end_col and diag.span.end_col > col:
        width = min(diag.span.end_col - col, max(len(src) - col + 1, 1))
    return f"{head}\n    {src}\n    {' ' * (col - 1)}{'^' * width}"
