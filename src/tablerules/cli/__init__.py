"""The `tablerules` command (`main.py`); `run` is its entry point."""

import sys


def run() -> None:
    """`tablerules`: cli/main.py's `main`, imported here so that a Ctrl-C while Python imports it
    (the first few tenths of a second), or while typer makes the command of it, is one line and
    exit status 130, not a traceback. (Once the command runs, its own handlers say more.)"""
    try:
        from .main import main
        main()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        raise SystemExit(130) from None
