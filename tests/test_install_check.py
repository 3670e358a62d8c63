"""The suite's own guard: an installed copy of tablerules other than the checkout is named."""

from __future__ import annotations

import shutil
from pathlib import Path

from install_check import differences, stale

REPO = Path(__file__).resolve().parent.parent


def _checkout(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "src" / "tablerules" / "engine").mkdir(parents=True)
    # the wheel's layout as the project's pyproject.toml gives it
    (repo / "pyproject.toml").write_text((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    (repo / "src" / "tablerules" / "__init__.py").write_text("x = 1\n")
    (repo / "src" / "tablerules" / "engine" / "state.py").write_text("y = 2\n")
    (repo / "rulesets").mkdir()
    (repo / "rulesets" / "game.yaml").write_text("name: game\n")
    (repo / "schemas").mkdir()
    (repo / "schemas" / "ruleset.schema.json").write_text("{}\n")
    return repo


def _install(repo: Path, where: Path) -> Path:
    shutil.copytree(repo / "src" / "tablerules", where)
    shutil.copytree(repo / "rulesets", where / "_data" / "rulesets")
    shutil.copytree(repo / "schemas", where / "_data" / "schemas")
    return where


def test_a_copy_of_the_checkout_as_it_is_passes(tmp_path):
    repo = _checkout(tmp_path)
    pkg = _install(repo, tmp_path / "site" / "tablerules")
    assert differences(repo, pkg) == []
    assert stale(repo, pkg) is None
    assert stale(repo, repo / "src" / "tablerules") is None  # the checkout's own src/


def test_an_edit_since_the_install_is_named(tmp_path):
    repo = _checkout(tmp_path)
    pkg = _install(repo, tmp_path / "site" / "tablerules")
    (repo / "src" / "tablerules" / "engine" / "state.py").write_text("y = 3\n")
    (repo / "rulesets" / "house.yaml").write_text("name: house\n")  # not installed at all
    assert differences(repo, pkg) == ["src/tablerules/engine/state.py", "rulesets/house.yaml"]
    why = stale(repo, pkg)
    assert "src/tablerules/engine/state.py, rulesets/house.yaml differ" in why
    assert "pip install" in why and "PYTHONPATH=src" in why


def test_a_module_deleted_since_the_install_is_named(tmp_path):
    """The installed copy still has a module the checkout deleted: the package would import
    it (a test of the checkout would pass against it), so the copy is not the checkout."""
    repo = _checkout(tmp_path)
    pkg = _install(repo, tmp_path / "site" / "tablerules")
    (repo / "src" / "tablerules" / "engine" / "state.py").unlink()
    (repo / "rulesets" / "game.yaml").unlink()
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / "old.cpython-311.pyc").write_bytes(b"x")  # a cache is no module
    assert differences(repo, pkg) == ["rulesets/game.yaml", "src/tablerules/engine/state.py"]
    assert "src/tablerules/engine/state.py" in stale(repo, pkg)


def test_this_run_imports_the_checkout_as_it_is():
    """What conftest.py checks before the run, so the run got here: the package imported is
    this checkout, or a copy of it as it is now."""
    import tablerules

    assert stale(REPO, Path(tablerules.__file__).parent) is None
