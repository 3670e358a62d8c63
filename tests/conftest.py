"""The suite's processes run as the `tablerules` command does (cli/main.py `main`): numpy's BLAS
with no pool of threads, set before anything imports numpy, so that `--workers` forks its
workers in-process as it does from the command line (records/parallel.py `start_method`)."""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
