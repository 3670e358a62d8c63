"""Merge the shard records of one run (`simulate --shard K/N`) into the record the run would have
written, and rebuild its summary from that record's lines.

A shard's header is the run's header with a `shard` entry ({"k", "n", "first", "last"}: game
numbers, 1-based) added last; shard K holds games first..last, whole and in order, and ends with
an `end` line. The merged record is the header without `shard`, every shard's game lines in shard
order, copied as they are, and an `end` line for the whole run. The summary is not added up from
the shards' printed summaries: it is folded from the merged record's hand, match and decision
lines with the runner's `Summary`, exactly as `simulate --record` folds them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Iterator

from ..errors import TablerulesError
from .runner import Summary, dumps, end_line, write_lines
from ..load.ruleset import is_path_ref
from .io import (UNREADABLE, found_sources, gzip_problem, open_text, same_file, source_for,
                 written_whole)

SHARD = "shard"
SAME = ("format", "version", "ruleset", "source", "canonical", "ruleset_hash", "options", "seed",
        "games", "agents", "seats", "sides", "first_dealer")  # what the shards of one run share


class MergeError(TablerulesError):
    """Shards that are not the whole of one run, or a shard record that is not whole."""


def shard_range(games: int, k: int, n: int) -> tuple[int, int]:
    """Game indices start..stop-1 of shard k of n (1-based): contiguous, in order, covering all."""
    return (k - 1) * games // n, k * games // n


def shard_entry(games: int, k: int, n: int) -> dict:
    """The `shard` entry of shard k of n's header: which games (1-based numbers) it holds."""
    a, b = shard_range(games, k, n)
    return {"k": k, "n": n, "first": a + 1, "last": b}


@dataclass
class Merged:
    """A merged run: its header (without `shard`), its summary, the shards it was made of."""

    header: dict
    summary: Summary
    shards: int


def _unreadable(path: str, e: BaseException) -> MergeError:
    """A shard that cannot be read: missing, not UTF-8, or a damaged or cut-off gzip file."""
    why = e if isinstance(e, UnicodeDecodeError) else gzip_problem(e)
    return MergeError(f"cannot read {path}: {why}")


def shard_header(path: str) -> dict:
    """The header of the shard at `path` (its first line); MergeError if it is not a shard."""
    try:
        with open_text(path) as f:
            first = f.readline()
    except (*UNREADABLE, UnicodeDecodeError) as e:
        raise _unreadable(path, e) from None
    try:
        head = json.loads(first)
    except ValueError:
        head = None
    if not isinstance(head, dict) or head.get("type") != "header":
        raise MergeError(f"{path}: not a tablerules record (its first line is not a header)")
    if not isinstance(head.get(SHARD), dict):
        raise MergeError(f"{path}: not a shard record (its header has no shard; make shards "
                         "with simulate --shard K/N)")
    return head


def _ruleset_file(path: str, head: dict, real: bool = True) -> str:
    """The ruleset file a shard's header names (io.found_sources: from the shard's folder, else
    from the working folder; from its folder if it is in neither), resolved when `real`; a
    built-in name as it is."""
    src = head.get("source")
    if not isinstance(src, str) or not is_path_ref(src) or os.path.isabs(src):
        return src
    found = found_sources(src, path)
    file = found[0] if found else os.path.join(os.path.dirname(path), src)
    return os.path.realpath(file) if real else os.path.normpath(file)


def merge(out_path: str, paths: list[str], first_dealer: int | str = 0) -> Merged:
    """Check that `paths` are every shard of one run, once each, and write the run's record to
    `out_path` (written beside it first, and moved there only when whole); return the summary."""
    if not paths:
        raise MergeError("merge needs at least one shard record")
    shard = same_file(out_path, paths)  # through a link or another spelling too
    if shard is not None:
        raise MergeError(f"{out_path} is the shard {shard}: merge writes a new file")
    heads = [(p, shard_header(p)) for p in paths]
    p0, h0 = heads[0]
    for p, h in heads[1:]:
        for key in SAME:
            if key == "source" and _ruleset_file(p, h) == _ruleset_file(p0, h0):
                continue  # one ruleset file, named from each shard's folder
            if h.get(key) != h0.get(key):
                raise MergeError(f"{p} is not a shard of the run {p0} is from: its {key} is "
                                 f"{json.dumps(h.get(key))[:80]}, not {json.dumps(h0.get(key))[:80]}")
        if h[SHARD].get("n") != h0[SHARD].get("n"):
            raise MergeError(f"{p} is shard {h[SHARD].get('k')} of {h[SHARD].get('n')}, "
                             f"{p0} one of {h0[SHARD].get('n')}: a run is split one way")
    n, games = h0[SHARD].get("n"), h0["games"]
    by_k: dict = {}
    for p, h in heads:
        k = h[SHARD].get("k")
        if k in by_k:
            raise MergeError(f"shard {k}/{n} is given twice: {by_k[k][0]} and {p}")
        ok = isinstance(k, int) and isinstance(n, int) and 1 <= k <= n
        if not ok or h[SHARD] != shard_entry(games, k, n):
            raise MergeError(f"{p}: its shard entry {json.dumps(h[SHARD])} is not shard {k} of "
                             f"{n} of {games} games")
        by_k[k] = (p, h)
    missing = [k for k in range(1, n + 1) if k not in by_k]
    if missing:
        raise MergeError(f"shard{'s' if len(missing) > 1 else ''} "
                         f"{', '.join(f'{k}/{n}' for k in missing)} missing: merge needs every "
                         "shard of the run once")
    base = {k: v for k, v in h0.items() if k != SHARD}
    if isinstance(base.get("source"), str):  # a ruleset file: named from OUT's folder
        base["source"] = source_for(_ruleset_file(p0, h0, real=False), out_path)
    sides = base.get("sides") or []
    summary = Summary(sides=len(sides), first_dealer=base.get("first_dealer", first_dealer),
                      side_of=tuple(i for seat in range(sum(map(len, sides)))
                                    for i, side in enumerate(sides) if seat in side))
    try:
        # replaced whole (written_whole); a pipe or a device is written as it is
        with written_whole(out_path) as out:  # in simulate's steps: the same bytes, gzip too
            write_lines(out, dumps(base) + "\n")
            for k in range(1, n + 1):
                for text in _games(by_k[k][0], by_k[k][1][SHARD], summary):
                    write_lines(out, text)
            write_lines(out, dumps(end_line(summary.games)) + "\n")
    except OSError as e:
        raise MergeError(f"cannot write {out_path}: {e.strerror or e}") from None
    return Merged(base, summary, n)


def _games(path: str, shard: dict, summary: Summary) -> Iterator[str]:
    """One shard's game lines, a game's lines at a time, as they are, folded into `summary` as
    they come; the shard must be whole."""
    want, last = shard["first"], shard["last"]
    end = None
    game: list[str] = []  # the lines of the game being read
    try:
        with open_text(path) as f:
            f.readline()
            for ln, raw in enumerate(f, 2):
                try:
                    obj = json.loads(raw)
                    t = obj["type"]
                except (ValueError, KeyError, TypeError):
                    raise MergeError(f"{path}:{ln}: not a record line") from None
                if end is not None:
                    raise MergeError(f"{path}:{ln}: a line after the end line")
                if t in ("end", "game") and game:
                    yield "".join(game)
                    game = []
                if t == "end":
                    end = obj
                    continue
                if t == "game":
                    if obj.get("game") != want:
                        raise MergeError(f"{path}:{ln}: game {obj.get('game')} where game {want} "
                                         f"comes (shard {shard['k']}/{shard['n']} holds games "
                                         f"{shard['first']} to {last})")
                    want += 1
                    summary.games += 1
                elif t == "hand":
                    summary.add_hand(obj)
                    if "actions" in obj:  # compact (version 3): the decisions are in the line
                        summary.decisions += len(obj["actions"])
                elif t == "decision":
                    summary.decisions += 1
                elif t == "match":
                    if "chips" in obj:
                        summary.add_chips(obj["chips"])
                    if "deals" in obj:  # as runner.fold counts a game's deals
                        summary.match_deals[obj["deals"]] += 1
                    for s in obj.get("winner") or ():
                        summary.side_wins[s] += 1
                game.append(raw if raw.endswith("\n") else raw + "\n")
    except (*UNREADABLE, UnicodeDecodeError) as e:
        raise _unreadable(path, e) from None
    held = want - shard["first"]
    if end is None:
        raise MergeError(f"{path}: the shard ends without its end line (cut off after {held} "
                         "games)")
    if end.get("stopped") or end.get("games") != held or want != last + 1:
        why = f" (stopped: {end['stopped']})" if end.get("stopped") else ""
        raise MergeError(f"{path}: shard {shard['k']}/{shard['n']} is not whole: it holds {held} "
                         f"of its {last - shard['first'] + 1} games{why}; run it again")
