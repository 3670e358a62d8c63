"""Whether the `tablerules` the tests import is this checkout's (tests/conftest.py asks it once
a run). `pip install .` puts a copy in site-packages, and `python -m pytest` imports that copy,
not src/: an edit made since the install is then not what the suite tests."""

from __future__ import annotations

import tomllib
from pathlib import Path


def parts(repo: Path) -> list[tuple[str, str, str]]:
    """The checkout's parts as its wheel lays them out, read from its pyproject.toml (hatch's
    wheel target: each package's modules, and each folder force-included into the package):
    (folder in the checkout, folder in the installed package, files compared)."""
    wheel = tomllib.loads((repo / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["hatch"]["build"]["targets"]["wheel"]
    out = [(pkg, "", "*.py") for pkg in wheel["packages"]]
    for src, dst in wheel.get("force-include", {}).items():
        out.append((src, dst.split("/", 1)[1], "*"))  # "tablerules/_data/x": from the package
    return out


def differences(repo: Path, package: Path) -> list[str]:
    """The checkout's files (paths from `repo`) that the package at `package` holds otherwise,
    or not at all; empty when it is the checkout as installed."""
    out = []
    for src, dst, pattern in parts(repo):
        root = repo / src
        for f in sorted(root.rglob(pattern)):
            if not f.is_file() or "__pycache__" in f.parts:
                continue
            there = package / dst / f.relative_to(root)
            if not there.is_file() or there.read_bytes() != f.read_bytes():
                out.append(f.relative_to(repo).as_posix())
    return out


def stale(repo: Path, package: Path) -> str | None:
    """Why the tests would not test this checkout (a line to stop the run with), or None: the
    package is the checkout's own src/ (an editable install, PYTHONPATH=src), or a copy of it
    as it is now."""
    own = repo / "src" / "tablerules"
    if not own.is_dir() or package.resolve() == own.resolve():
        return None
    diff = differences(repo, package)
    if not diff:
        return None
    shown = ", ".join(diff[:4]) + (f" and {len(diff) - 4} more" if len(diff) > 4 else "")
    return (f"the tests import tablerules from {package}, an installed copy that is not this "
            f"checkout as it is now ({shown} differ). Install the checkout again "
            "(pip install '.[test]'; pip install -e '.[test]' while editing), or run the tests "
            "with PYTHONPATH=src.")
