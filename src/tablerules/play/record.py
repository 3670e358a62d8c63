"""The record of a game a person plays: the compact form (version 3) as `simulate` writes it,
rewritten whole after every decision or deal, so an interrupted game loses nothing.

While the match is on, the file ends with a `partial` line (the hand in progress: its deal and
the actions so far) and an `end` line that says the game was interrupted; `replay` verifies it as
far as it goes, and `play --resume` continues it. The person's seat is the agent `person` in the
header (records.runner.PERSON).
"""

from __future__ import annotations

import shlex
from pathlib import Path

from ..records import runner, v3
from ..records.io import written_whole
from ..records.replay import header_line, read_lines
from ..errors import RecordError, Span, TablerulesError

PERSON = runner.PERSON


def header(game, seed: int, agents: list[str], seat: int, path: str | None = None) -> dict:
    """The header of a one-game record: the bots' agents, `person` at the person's seat; `path`:
    the record's file (a ruleset file's path in the header is relative to its folder)."""
    head = runner.header(game, seed, 1, agents, v3.VERSION, path)
    head["agents"][seat] = PERSON
    return head


def partial_line(lines: list[dict]) -> dict | None:
    """The hand in progress as a `partial` line (its deal and the actions so far), or None."""
    at = next((i for i in range(len(lines) - 1, -1, -1) if lines[i]["type"] in ("deal", "hand")),
              None)
    if at is None or lines[at]["type"] != "deal":
        return None
    deal = lines[at]
    line = {"type": "partial"}
    line.update((k, deal[k]) for k in ("hand", "dealer", "turn", "dealt", "stock") if k in deal)
    line["actions"] = [ev["action"] for ev in lines[at + 1:] if ev["type"] == "decision"]
    return line


def write(path: str, head: dict, lines: list[dict], over: bool) -> None:
    """The whole record so far, replacing `path` whole (records.io.written_whole: a Ctrl-C in
    the middle leaves the last whole record; a device such as /dev/null is written as it is)."""
    body = [head] + v3.compact(lines)
    if over:
        body.append(runner.end_line(1))
    else:
        part = partial_line(lines)
        if part is not None:
            body.append(part)
        body.append(runner.end_line(0, "interrupted"))
    with written_whole(path) as f:
        f.write("".join(runner.dumps(o) + "\n" for o in body))


def written_by_play(path: str) -> bool:
    """Whether `path` is a record `play` wrote (its header, read as `replay` reads it, is
    compact with a person at the table), whether its game is over or not."""
    try:
        _, head, _ = header_line(path, read_lines(path))
    except TablerulesError:
        return False
    return head["version"] == v3.VERSION and PERSON in head["agents"]


def read(path: str) -> tuple[dict, list[tuple[str, object, int]]]:
    """(header, the game's steps in order) of a record `play` wrote: each step ("deal", its
    hand or partial line) or ("action", an action's name), with the record line it is on. The
    header is read as `replay` reads it (records.replay.header_line: its format, version and
    schema); RecordError, located, says what is wrong."""
    if not Path(path).is_file():
        raise RecordError(f"no record {path} to resume", Span(path, 0, 0))
    lines = read_lines(path)  # line by line: a record is never held whole
    ln, head, _ = header_line(path, lines)
    if head["version"] != v3.VERSION or PERSON not in head["agents"]:
        raise RecordError("not a record of a game `tablerules play` wrote (compact, with a "
                          "person at the table)", Span(path, ln, 1))
    steps: list = []
    for ln, obj in lines:
        t = obj["type"]
        if t in ("hand", "partial"):
            steps.append(("deal", obj, ln))
            steps.extend(("action", a, ln) for a in obj.get("actions", []))
        elif t == "end" and "stopped" not in obj:
            raise RecordError("the game in this record is over: nothing to resume (watch it "
                              f"with tablerules replay {shlex.quote(path)})", Span(path, ln, 1))
    return head, steps
