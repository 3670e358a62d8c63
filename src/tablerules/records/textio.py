"""Open a record file as text: gzip-compressed when its name ends in `.gz`."""

from __future__ import annotations

import gzip
from typing import IO


def open_text(path, mode: str = "r") -> IO[str]:
    """`path` opened as UTF-8 text with "\\n" line ends; through gzip when it ends in `.gz`."""
    mode = mode.replace("t", "").replace("b", "")
    if str(path).endswith(".gz"):
        return gzip.open(path, mode + "t", encoding="utf-8", newline="\n")
    return open(path, mode, encoding="utf-8", newline="\n")
