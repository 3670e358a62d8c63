"""The suite's processes run as the `tablerules` command does (cli/main.py `main`): numpy's BLAS
with no pool of threads, set before anything imports numpy, so that `--workers` forks its
workers in-process as it does from the command line (records/parallel.py `start_method`)."""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def pytest_configure(config):
    """Stop before any test when the tablerules imported is an installed copy other than this
    checkout (install_check.py): the suite would pass or fail on code that is not the tree's."""
    if hasattr(config, "workerinput"):  # an xdist worker: its controller has checked
        return
    from pathlib import Path

    import pytest

    import tablerules
    from install_check import stale

    why = stale(Path(__file__).resolve().parent.parent, Path(tablerules.__file__).parent)
    if why:
        pytest.exit(why, returncode=2)
