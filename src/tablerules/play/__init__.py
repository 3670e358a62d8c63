"""`tablerules play`: a person at the table against bots, at the terminal (above agents and
records, below the command line)."""

from __future__ import annotations

from .record import PERSON, read as read_record, written_by_play
from .session import Session

__all__ = ["PERSON", "Session", "read_record", "written_by_play"]
