"""Helpers shared by the test folders (on the path through pytest's `pythonpath`)."""

from __future__ import annotations

import os

from typer.testing import CliRunner

from tablerules.cli.main import app

CI_EXAMPLES = 50  # Hypothesis examples per test at most when CI is set: the suite stays quick


def examples(n: int) -> int:
    """Hypothesis examples for a test: `n`, bounded by CI_EXAMPLES under CI."""
    return min(n, CI_EXAMPLES) if os.environ.get("CI") else n


def cli(*args: str):
    """Run the `tablerules` command in-process; a user error may exit, never raise or trace."""
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output, result.output
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    return result
