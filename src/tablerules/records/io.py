"""Record files by name: `.gz` is gzip (deterministic: no file name, mtime 0), else plain text."""

from __future__ import annotations

import gzip
import io
import os
import zlib
from contextlib import contextmanager
from typing import IO, BinaryIO, Iterator

from ..load.ruleset import is_path_ref

# what reading a record file may raise: a missing file, a damaged or cut-off gzip one
UNREADABLE = (OSError, EOFError, zlib.error)


def is_gzip(path) -> bool:
    """Whether a record path names a gzip file (its name ends in `.gz`)."""
    return str(path).endswith(".gz")


class _GzipFile(gzip.GzipFile):
    """A gzip file that also closes the file it was opened on."""

    def __init__(self, raw: BinaryIO, mode: str):
        super().__init__(filename="", mode=mode, fileobj=raw, mtime=0)
        self._raw = raw

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._raw.close()


def open_bytes(path, mode: str = "rb") -> BinaryIO:
    """A record file as bytes ("rb" or "wb"), through gzip when its name ends in `.gz`."""
    if mode not in ("rb", "wb"):
        raise ValueError(f"open_bytes mode is 'rb' or 'wb', not {mode!r}")
    raw = open(path, mode)
    if not is_gzip(path):
        return raw
    try:
        return _GzipFile(raw, mode)
    except BaseException:
        raw.close()
        raise


def open_text(path, mode: str = "r") -> IO[str]:
    """A record file as UTF-8 text ("r" or "w", lines end in \\n), gzip when named `.gz`.

    Gzip is written with no file name and mtime 0 in its header, so the same games give the
    same bytes.
    """
    if mode not in ("r", "w"):
        raise ValueError(f"open_text mode is 'r' or 'w', not {mode!r}")
    if not is_gzip(path):
        return open(path, mode, encoding="utf-8", newline="\n" if mode == "w" else None)
    return io.TextIOWrapper(open_bytes(path, mode + "b"), encoding="utf-8",
                            newline="\n" if mode == "w" else None)


@contextmanager
def written_whole(path) -> Iterator[IO[str]]:
    """`path` opened for writing as open_text does, to be replaced whole: the text goes to a part
    file beside it (beside a link's target, so the link stays) and is moved over it when the
    block ends without an error, so a reader never sees half of it; on an error the part file
    is removed and `path` is as it was. A path that is there and is no file (a pipe, a device
    such as /dev/stdout or /dev/null) is written as it is: moved over, it became a file."""
    target = os.path.realpath(path)
    if os.path.exists(target) and not os.path.isfile(target):
        with open_text(path, "w") as f:
            yield f
        return
    head, tail = os.path.split(target)
    part = os.path.join(head, f".{tail}.part{'.gz' if is_gzip(tail) else ''}")
    try:
        with open_text(part, "w") as f:
            yield f
        os.replace(part, target)
    finally:
        if os.path.exists(part):
            os.remove(part)


def same_file(path, others) -> str | None:
    """The first of `others` that is the file `path` names, else None: by the file, not the
    name (os.path.samefile), so a link to it, a hard link or another spelling of its path is it.
    A path that is not there is no file. What a command writes must not be what it reads: written,
    it would be lost (a merged record over a shard, a replay's page over its record)."""
    for other in others:
        try:
            if os.path.samefile(path, other):
                return str(other)
        except (OSError, ValueError):  # not there, or not a path (a NUL in it)
            continue
    return None


def source_for(ref: str, record) -> str:
    """A header's `source` for a ruleset loaded from `ref` whose record is written to `record`
    (None: to no file): a built-in name as it is; a ruleset file's relative path made relative
    to the record's own folder (`/` between folders), so the record replays from any working
    folder (found_sources). An absolute path stays as it is, and so does any path when the
    record goes to no file (None, a pipe, a device such as /dev/stdout): it is then from the
    working folder, as records made before this were."""
    if record is None or not is_path_ref(ref) or os.path.isabs(ref):
        return ref
    if os.path.exists(record) and not os.path.isfile(record):
        return ref
    try:
        rel = os.path.relpath(os.path.abspath(ref), os.path.dirname(os.path.abspath(record)))
    except (OSError, ValueError):  # no working folder; another drive
        return ref
    return rel.replace(os.sep, "/")


def found_sources(source: str, record) -> list[str]:
    """The files a header's path `source` may name, those that are there, likeliest first: from
    the record's folder (source_for; the folder of the path given, then of its target when it
    is a link), then from the working folder (what records made before source_for meant)."""
    if not is_path_ref(source):
        return []
    here = os.path.dirname(str(record))
    folders = [here, os.path.dirname(os.path.realpath(record)), None]
    found: list[str] = []
    for folder in folders:
        path = source if folder is None or os.path.isabs(source) else os.path.join(folder, source)
        if os.path.isfile(path) and not any(same_file(path, [f]) for f in found):
            found.append(path)
    return found


def gzip_problem(e: BaseException) -> str:
    """What is wrong with a record file that cannot be read (UNREADABLE), in one phrase."""
    if isinstance(e, EOFError):
        return "the gzip file is cut off (it was not closed)"
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return f"not a valid gzip file ({e})"
