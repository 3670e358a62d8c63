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


def _files(root: Path, pattern: str) -> list[Path]:
    """The files under `root` matching `pattern`, as paths from it (no compiled caches)."""
    return sorted(f.relative_to(root) for f in root.rglob(pattern)
                  if f.is_file() and "__pycache__" not in f.parts)


def differences(repo: Path, package: Path) -> list[str]:
    """The checkout's files (paths from `repo`) that the package at `package` holds otherwise,
    or not at all, then the package's files that the checkout no longer has (a module deleted
    since the install, which the package would still import), by the path they had; empty
    when it is the checkout as installed."""
    out, gone = [], []
    layout = parts(repo)
    data = {Path(dst) for _, dst, _ in layout if dst}  # the data folders inside the package
    for src, dst, pattern in layout:
        root, there = repo / src, package / dst
        mine = _files(root, pattern)
        for f in mine:
            if not (there / f).is_file() or (there / f).read_bytes() != (root / f).read_bytes():
                out.append((Path(src) / f).as_posix())
        if there.is_dir():
            # the package's own modules are looked for beside its data folders, not in them
            inside = set() if dst else data
            gone += [(Path(src) / f).as_posix() for f in set(_files(there, pattern)) - set(mine)
                     if not any(d in f.parents for d in inside)]
    return out + sorted(gone)


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
