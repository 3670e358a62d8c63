"""The Python package knows no game by name: every variant lives in rulesets/*.yaml.

README: "The interpreter knows no game by name." docs/engine.md: the engine "contains no game's
name or numbers". So no module or grammar under src/tablerules may name a variant or one of
its contracts.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "tablerules"
VARIANT = re.compile(r"\b(nello|sevens|plunge|splash|moon|muggins|all ?fives|texas|forty.?two|"
                     r"tarok\w*|tarot|sk[yý]z|pag[aá]t|mond|povinnost|prever)\b", re.IGNORECASE)
# "42" as the name of a game (not a number in general): "42 game", "game of 42", "texas 42", "42's"
GAME_42 = re.compile(r"(\b(game|play(ing)?|of|texas)\s+42\b)|(\b42\s*(game|rules?|'s)\b)|"
                     r"(\btexas_?42\b)", re.IGNORECASE)


def sources() -> list[Path]:
    # the replay page's template, style and script too: they draw every game from its data
    files = sorted(p for p in SRC.rglob("*") if p.suffix in (".py", ".lark", ".html", ".js", ".css")
                   and p.is_file())
    return [p for p in files if "_data" not in p.parts]


def test_there_are_sources_to_scan():
    names = {p.name for p in sources()}
    assert {"state.py", "compiler.py", "grammar.lark", "main.py", "places.py"} <= names


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_variant_named_in_the_package(path):
    hits = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for m in VARIANT.finditer(line):
            hits.append(f"{path.relative_to(SRC.parent)}:{n}: {m.group(0)!r}: {line.strip()}")
        for m in GAME_42.finditer(line):
            hits.append(f"{path.relative_to(SRC.parent)}:{n}: {m.group(0)!r}: {line.strip()}")
    assert not hits, "the package names a game:\n" + "\n".join(hits)
