"""The replay page: one self-contained HTML file (inline CSS and script, SVG drawn by the
script, the frames embedded as JSON); nothing is fetched, so it opens from disk offline."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

HERE = Path(__file__).parent


def render_html(data: dict) -> str:
    """The page for `build_frames` data; the same data always gives the same text."""
    blob = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    # "<" occurs only inside JSON strings: escaped, no "</script>" or "<!--" can end the data early
    blob = blob.replace("<", "\\u003c")
    page = (HERE / "replay.html").read_text(encoding="utf-8")
    meta = data["meta"]
    parts = {"title": html.escape(f"{meta['title']}: replay, seed {meta['seed']}"),
             "css": (HERE / "replay.css").read_text(encoding="utf-8"),
             "script": (HERE / "replay.js").read_text(encoding="utf-8"), "data": blob}
    # one pass: a ruleset's title or the data holding "{{css}}" is left as it is
    return re.sub(r"\{\{(title|css|script|data)\}\}", lambda m: parts[m.group(1)], page)


def write_html(data: dict, out: str | Path) -> Path:
    """Write the page to `out` (UTF-8, "\\n" line ends, whatever the platform)."""
    p = Path(out)
    with open(p, "w", encoding="utf-8", newline="\n") as f:
        f.write(render_html(data))
    return p
