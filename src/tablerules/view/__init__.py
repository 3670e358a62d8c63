"""Views of records for people: the self-contained HTML replay (`replay FILE --html OUT`).

Above agents and records (it rebuilds a verified record's games through the engine), below the
CLI. It knows no game: pieces, marks, seats and words come from the record and its ruleset.
"""

from .frames import MAX_GAMES, build_frames
from .html import render_html, write_html

__all__ = ["MAX_GAMES", "build_frames", "render_html", "write_html"]
