"""Imports run one way: definition <- interpreter, engine <- batch, game <- agents/records <- the
front ends (report, play, view, siblings) <- cli."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "src" / "tablerules"

# what each layer may not import (the layers above it)
FORBIDDEN = {
    "definition": {"interpreter", "engine", "game", "agents", "records", "cli", "validation"},
    "interpreter": {"engine", "game", "agents", "records", "cli", "validation"},
    "engine": {"interpreter", "game", "agents", "records", "cli", "validation", "load", "check"},
    "expr": {"interpreter", "engine", "game", "agents", "records", "cli", "definition"},
    "load": {"interpreter", "engine", "game", "agents", "records", "cli", "expr", "definition"},
    "agents": {"records", "cli", "validation"},
    "records": {"cli", "validation", "report", "play", "view"},
    "report": {"cli", "validation", "play", "view"},
    "play": {"cli", "validation", "report", "view"},
    "view": {"cli", "validation", "report", "play"},
    # the batch engine compiles a GameDef and checks itself against the step engine
    "batch": {"interpreter", "game", "agents", "records", "cli", "validation", "load", "check"},
}
for _below in ("definition", "interpreter", "engine", "expr", "load"):
    FORBIDDEN[_below] |= {"batch"}  # it sits beside the agents, above the step engine
for _below in ("definition", "interpreter", "engine", "expr", "load", "agents"):
    FORBIDDEN[_below] |= {"report", "play", "view"}  # the front ends sit above records


def imports(path: Path) -> set[str]:
    """The tablerules subpackages a module imports (first component after tablerules)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    rel = path.relative_to(PKG).parts
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(rel[:-1])[:len(rel) - node.level] if node.level > 1 else list(rel[:-1])
                parts = base + (node.module.split(".") if node.module else [])
            elif node.module and node.module.startswith("tablerules"):
                parts = node.module.split(".")[1:]
            else:
                continue
            if parts:
                out.add(parts[0])
            else:
                out.update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[1] for a in node.names
                       if a.name.startswith("tablerules."))
    return out


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_import_runs_back_up_a_layer(layer):
    bad = []
    for path in sorted((PKG / layer).rglob("*.py")):
        up = imports(path) & FORBIDDEN[layer]
        if up:
            bad.append(f"{path.relative_to(PKG)} imports {sorted(up)}")
    assert not bad, "\n".join(bad)
