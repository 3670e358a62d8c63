"""How a generated kernel is loaded: its module written once under the cache, numba's compile
held by one process at a time, and the agents of the seats checked for the kernel (used by the
batch engine, __init__.py, and by the compiled steps, steps.py)."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
import types
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..definition import GameDef
from ..errors import GameError
from .typed import NotBatchable


class BatchUnavailable(GameError):
    """numba is not installed: the batch engine needs the `fast` extra."""


def available() -> bool:
    """Whether numba can be imported (the `fast` extra)."""
    return importlib.util.find_spec("numba") is not None


def cache_dir() -> Path:
    """Where generated kernels and numba's compiled code are kept between runs:
    $TABLERULES_CACHE, else ~/.cache/tablerules (a temporary directory if neither is writable)."""
    root = os.environ.get("TABLERULES_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "tablerules")
    path = Path(root) / "batch"
    try:
        path.mkdir(parents=True, exist_ok=True)
        return path
    except OSError:
        path = Path(tempfile.gettempdir()) / "tablerules-batch"
        path.mkdir(parents=True, exist_ok=True)
        return path


_LOCK = threading.Lock()
_MODULES: dict[str, Any] = {}


def _load(source: str):
    """The generated module, written once under the cache (numba keeps its machine code there).
    `source` is only ever `kernel.Builder.build()`'s, which `kernel.check_parts` has checked:
    generated names, int literals and the fixed templates' own text, no text of a ruleset or a
    strategy (tests/batch/test_batch.py puts hostile names in both and finds none;
    tests/batch/test_kernel_source.py gives the check text no generator makes)."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:20]
    with _LOCK:
        mod = _MODULES.get(digest)
        if mod is not None:
            return mod
        path = cache_dir() / f"kernel_{digest}.py"
        if not path.exists() or path.read_text() != source:
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(source)
            os.replace(tmp, path)
        # The module runs the text the builder checked, not the file read back: the file is
        # there for numba, which keys its cached machine code by the file's name and stamp, so
        # a file changed after this point makes numba compile again, and never runs itself.
        name = f"tablerules_batch_{digest}"
        mod = types.ModuleType(name)
        mod.__file__ = str(path)
        sys.modules[name] = mod
        exec(compile(source, str(path), "exec"), mod.__dict__)  # noqa: S102 checked by build()
        _MODULES[digest] = mod
        return mod


def seat_agents(game: GameDef, agents) -> tuple:
    """`agents` (one for every seat, or one per seat) as one per seat: None for random play,
    else a rules agent (an object with a compiled `.strategy`, agents/rules.py)."""
    if agents is None:
        return (None,) * game.seat_count
    agents = [None if a is None or a == "random" else a for a in agents]
    if len(agents) == 1:
        agents = agents * game.seat_count
    if len(agents) != game.seat_count:
        raise ValueError(f"{len(agents)} agents for {game.seat_count} seats")
    for a in agents:
        if a is not None and getattr(a, "strategy", None) is None:
            raise NotBatchable(f"the agent {getattr(a, 'name', a)!s} has no kernel form (the "
                               "batch engine plays random and rules agents)")
    return tuple(agents)


@contextmanager
def _compiling(source: str, what: str = "hands"):
    """Held while numba compiles (or loads) `what` of the kernel of `source` (its hand loops, or
    the generator of compiled steps): processes that compile the same at once (workers, a test
    run's processes) wait for the first, then load what it cached instead of compiling it
    again. One lock for each: a process compiling the hand loops never waits while another
    compiles the generator, which is most of a minute for some kernels."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:20]
    try:
        import fcntl
    except ImportError:  # not on Windows: each process compiles for itself
        yield
        return
    with open(cache_dir() / f"kernel_{digest}.{what}.lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)
