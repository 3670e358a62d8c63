"""Helpers shared by the test folders (on the path through pytest's `pythonpath`)."""

from __future__ import annotations

from typer.testing import CliRunner

from tablerules.cli.main import app


def cli(*args: str):
    """Run the `tablerules` command in-process; a user error may exit, never raise or trace."""
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output, result.output
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    return result
