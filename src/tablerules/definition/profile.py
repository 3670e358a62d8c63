"""Where a run's time goes, rule by rule: the calls and time of each compiled expression.

Made only when a ruleset is compiled to be profiled (`load_game(..., profile=True)`, `simulate
--profile`): then each of its hooks is wrapped in a timer, which costs about a microsecond a
call, so the times it reports are of a slower run than an unprofiled one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from time import perf_counter_ns
from typing import Any, Callable


@dataclass
class Entry:
    """One rule: where it is written, its text, how often it ran and for how long (ns)."""

    where: str
    text: str
    line: str  # file:line
    calls: int = 0
    ns: int = 0  # its own time: less the time of the timed rules it reads (a strategy's values)
    total_ns: int = 0  # with them


@dataclass
class RuleProfile:
    """The entries of one compiled ruleset, by the dotted path of each rule."""

    entries: dict[str, Entry] = field(default_factory=dict)
    _inner: list = field(default_factory=list)  # per timed call running: its timed rules' time

    def wrap(self, where: str, text: str, line: str, fn: Callable[[Any], Any]
             ) -> Callable[[Any], Any]:
        """`fn` timed into the entry of `where` (one entry however often it is compiled)."""
        e = self.entries.get(where)
        if e is None:
            e = self.entries[where] = Entry(where, text, line)

        inner = self._inner

        def timed(ctx):
            t = perf_counter_ns()
            inner.append(0)
            try:
                return fn(ctx)
            finally:
                dt = perf_counter_ns() - t
                e.ns += dt - inner.pop()
                e.total_ns += dt
                e.calls += 1
                if inner:
                    inner[-1] += dt
        return timed

    def reset(self) -> None:
        """Forget what ran so far (the tables the compiler fills by evaluating rules)."""
        for e in self.entries.values():
            e.calls = e.ns = e.total_ns = 0

    def rows(self) -> list[Entry]:
        """The rules that ran, most time first."""
        return sorted((e for e in self.entries.values() if e.calls),
                      key=lambda e: (-e.ns, e.where))

    def as_dict(self, seconds: float) -> dict:
        total = sum(e.ns for e in self.entries.values())
        return {"seconds": round(seconds, 3), "in_rules_seconds": round(total / 1e9, 3),
                "rules": [{"rule": e.where, "at": e.line, "expression": e.text, "calls": e.calls,
                           "seconds": round(e.ns / 1e9, 4),
                           "with_inner_seconds": round(e.total_ns / 1e9, 4),
                           "us_per_call": round(e.ns / e.calls / 1e3, 3),
                           "share": round(e.ns / 1e9 / seconds, 4) if seconds else 0.0}
                          for e in self.rows()]}
