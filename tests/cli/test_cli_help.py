"""`--version`, and help that names values instead of showing type placeholders."""

from __future__ import annotations

import re

import pytest

from tablerules import __version__

from support import cli

COMMANDS = ["list", "show", "validate", "simulate", "replay", "diff"]


def test_version():
    r = cli("--version")
    assert r.exit_code == 0 and r.stdout == f"tablerules {__version__}\n"


@pytest.mark.parametrize("command", [[]] + [[c] for c in COMMANDS], ids=lambda c: c[0] if c else "root")
def test_help_has_no_type_placeholders(command):
    r = cli(*command, "--help")
    assert r.exit_code == 0
    assert not re.search(r"<(bool|str|int|float|path|int range|float range)>", r.stdout), r.stdout
    if command:
        assert "--help" in r.stdout and "-h" in r.stdout
