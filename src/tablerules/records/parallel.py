"""Play the games of a run on worker processes or a Dask cluster, in chunks of consecutive games.

Every game is seeded by its index alone (`runner.game_seed`), so game i is the same whatever
process plays it; the parent writes the record and folds the summary in game order, so a run on
many workers gives the bytes one process gives. A worker loads the ruleset once from what
`load_game` needs (a `Source`: name or path, options), never a pickled Game; on Linux the pool's
workers are forked and start with the parent's loaded game instead (`start_method`).
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import math
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..errors import TablerulesError
from ..game import Game, load_game
from ..interpreter.options import is_count
from ..load.ruleset import file_of
from .runner import Fault, Played, play_games

CLUSTER_EXTRA = "--cluster needs the cluster extra: pip install 'tablerules[cluster]'"
START_ENV = "TABLERULES_START_METHOD"  # how pool workers start: fork or spawn (else: the default)
START_METHODS = ("fork", "spawn")
MAX_CHUNK = 25  # games a task plays at most: progress and Ctrl-C stay responsive
CHUNKS_PER_WORKER = 8  # tasks a worker gets over a run at least, so the work stays balanced
IN_FLIGHT = 2  # tasks per worker submitted ahead: memory stays flat however long the run


@dataclass(frozen=True)
class Source:
    """What a worker needs to load a game: the ruleset reference, its options, its hash, and
    for a cluster the text of the ruleset's files (a path on this machine means nothing there)."""

    ref: str
    options: dict
    content_hash: str
    files: tuple = ()  # ((path, text), ...) when shipped to another machine
    key: str = field(default="", compare=False)


def source_of(game: Game, ship: bool = False) -> Source:
    """The Source of a loaded game; `ship` carries its files' text when it came from a path."""
    gd = game.definition
    files = ()
    ref = game.ref
    if ship and game.tree is not None and _is_path(game.ref):
        # by their paths here: a worker's current directory is not this one
        texts = {str(file_of(name)): text for name, text in game.tree.sources.items()}
        if gd.strategy and os.path.isabs(gd.strategy):  # its own strategy file, beside it
            texts.setdefault(gd.strategy, Path(gd.strategy).read_text(encoding="utf-8"))
        files = tuple(sorted(texts.items()))
        ref = str(Path(game.ref).resolve())
    key = f"{gd.content_hash}:{sorted(gd.options.items())!r}"
    if files:  # a Dask worker outlives a run: the next may ship a strategy file changed since
        key += ":" + hashlib.sha256(repr(files).encode()).hexdigest()
    return Source(ref, dict(gd.options), gd.content_hash, files, key=key)


def agent_files(texts) -> tuple:
    """For a cluster: the text of each file the agent texts name by path, as
    ((path as given, text), ...); a path on this machine means nothing on another. A file that
    cannot be read here is left out, for the worker to report as one process would."""
    from ..agents import parse
    out: dict[str, str] = {}
    for t in texts:
        for path in parse(t).paths().values():
            if path not in out:
                try:
                    out[path] = Path(path).read_text(encoding="utf-8")
                except OSError:
                    pass
    return tuple(sorted(out.items()))


def _is_path(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) or os.sep in ref or "/" in ref


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def chunks(start: int, stop: int, workers: int,
           most: int = MAX_CHUNK) -> Iterator[tuple[int, int]]:
    """Consecutive game ranges covering start..stop-1, a few per worker, each at most `most`: an
    iterator, each range made when it is asked for, so a run of any length plans in constant
    memory (a list of a billion games' ranges took gigabytes before the first game was played)."""
    n = stop - start
    size = max(1, min(most, math.ceil(n / (workers * CHUNKS_PER_WORKER))))
    return ((a, min(a + size, stop)) for a in range(start, stop, size))


_GAMES: dict[str, Game] = {}  # per worker process: the games it has loaded, by Source key
# a Dask worker runs tasks on several threads: a game is loaded by one of them, once
_LOADING = threading.Lock()


def _game(src: Source) -> Game:
    """The worker's game for `src`, loaded once; a ruleset that differs here is an error."""
    game = _GAMES.get(src.key)
    if game is not None:
        return game
    with _LOADING:
        return _load(src)


def _load(src: Source) -> Game:
    game = _GAMES.get(src.key)
    if game is not None:  # another thread loaded it while this one waited
        return game
    ref = src.ref
    if src.files:
        ref = _materialise(src)
    game = load_game(ref, src.options, typed=True)  # a search agent may compile its play-outs
    if game.definition.content_hash != src.content_hash:
        raise TablerulesError(f"the worker's ruleset {src.ref} is not the one the run was "
                              f"started with (hash {game.definition.content_hash}, not "
                              f"{src.content_hash})")
    _GAMES[src.key] = game
    return game


_WRITTEN: dict[tuple[str, str], str] = {}  # per worker: (path as given, text) -> its copy here


def local_agents(files: tuple, texts: list[str]) -> list[str]:
    """On a worker: the agent texts with each path `files` ships replaced by this worker's copy
    of the file (the records hold no agent text, so their bytes do not change)."""
    if not files:
        return list(texts)
    from ..agents import parse
    shipped = dict(files)
    out = []
    for t in texts:
        choice = parse(t)
        moved = {k: _copy(v, shipped[v]) for k, v in choice.paths().items() if v in shipped}
        out.append(choice.with_params(**moved).text if moved else t)
    return out


def _copy(path: str, text: str) -> str:
    """This worker's copy of a shipped agent file: its name kept (a strategy is named by it),
    in a folder of its own per text (a Dask worker outlives a run; the next may change it)."""
    with _LOADING:
        hit = _WRITTEN.get((path, text))
        if hit is None:
            tmp = Path(tempfile.mkdtemp(prefix="tablerules-agent-"))
            atexit.register(shutil.rmtree, tmp, ignore_errors=True)
            dest = tmp / Path(path).name
            dest.write_text(text, encoding="utf-8")
            hit = _WRITTEN[(path, text)] = str(dest)
        return hit


def _materialise(src: Source) -> str:
    """Write the shipped ruleset files under a temporary folder, laid out as they were, so a
    file they extend by a relative path is found; returns the ruleset's path there."""
    paths = [os.path.abspath(p) for p, _ in src.files]
    root = os.path.commonpath([os.path.dirname(p) for p in paths])
    tmp = Path(tempfile.mkdtemp(prefix="tablerules-"))
    # read again while the worker plays (its strategy file), so removed when the worker ends
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    for p, (_, text) in zip(paths, src.files):
        dest = tmp / os.path.relpath(p, root)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text, encoding="utf-8")
    return str(tmp / os.path.relpath(os.path.abspath(src.ref), root))


def start_method() -> str:
    """How the pool's workers start. `fork` (Linux, the default there when this process runs no
    thread but its own: no other Python thread, and no native one, such as numba's once hands
    have been played on threads or a BLAS library's pool): a worker is a copy of this
    process, the ruleset already loaded, so a pool starts in milliseconds, not the second an
    interpreter, its imports and a load take.
    `spawn` (elsewhere; fork is unsafe on macOS): a fresh interpreter that loads the ruleset.
    The environment variable TABLERULES_START_METHOD chooses one; either gives the same games."""
    chosen = os.environ.get(START_ENV, "").strip()
    if chosen:
        if chosen not in START_METHODS:
            raise TablerulesError(f"{START_ENV} is {chosen!r}: it must be fork or spawn")
        if chosen == "fork" and "fork" not in multiprocessing.get_all_start_methods():
            raise TablerulesError(f"{START_ENV} is fork, which this platform has not")
        return chosen
    # a thread holding a lock when we fork would leave it held in every worker for ever
    if sys.platform.startswith("linux") and threading.active_count() == 1 \
            and _threads() == 1:
        return "fork"
    return "spawn"


def _threads(settle: float = 0.02) -> int:
    """The threads this process runs (Linux): native ones too, which Python does not count:
    numba's once hands have been played on threads (`Batch.play(threads=...)`; OpenMP's
    among them, which a forked child cannot use) and a BLAS library's pool, which numpy
    starts when it is imported unless told not to (the CLI tells it: cli/main.py).
    A thread Python has joined is still listed while it exits: right after a pool closed
    (a run before this one, in the same process) one in ten counts found its thread there,
    for 1.1 to 1.2 ms. So a count above one is read again, for up to `settle` seconds,
    before it stands (a thread that runs on is there all along: a spawning run waits that
    long once)."""
    try:
        deadline = time.monotonic() + settle
        while True:
            n = len(os.listdir("/proc/self/task"))
            if n == 1 or time.monotonic() >= deadline:
                return n
            time.sleep(0.001)
    except OSError:  # no /proc: Python's count is all there is
        return threading.active_count()


def _quiet_worker(sources: tuple, loaded: tuple = ()) -> None:
    """Pool initializer: Ctrl-C is the parent's to handle (no traceback here); load the games.
    `loaded`: (key, Game) pairs a forked worker has from its parent, already loaded."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # SIGTERM ends the worker quietly (terminate() sends it), whatever handler a forked worker
    # had from its parent (the CLI's takes SIGTERM as Ctrl-C: a traceback in each worker)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is not None:  # the parent started us with them held: terminate() must reach us
        mask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    _GAMES.update(loaded)
    for s in sources:
        try:
            _game(s)
        except Exception:  # noqa: BLE001 - a task reports it: a failing initializer would respawn forever
            pass


def play_chunk(src: Source, agents: list[str], seed: int, start: int, stop: int,
               record: str | None, files: tuple = (),
               first_dealer: int | None = None) -> list[Played | Fault]:
    """Play games start..stop-1 of a run (a task of a pool or a cluster): a top-level function.
    `files`: the agents' files shipped to a cluster (`agent_files`)."""
    return list(play_games(_game(src), local_agents(files, agents), seed, start, stop, record,
                           first_dealer))


class _Pool:
    """A process pool (forked or spawned: `start_method`) whose tasks come back in the order they
    were given. `games`: the parent's loaded games, one per source or None, which forked workers
    inherit (a spawned worker loads its own)."""

    def __init__(self, workers: int, sources: tuple, games: tuple = ()):
        from .runner import signals_held
        method = start_method()
        ctx = multiprocessing.get_context(method)
        loaded = ()
        if method == "fork":  # inherited, never pickled; a game without its trees is loaded anew
            loaded = tuple((s.key, g) for s, g in zip(sources, games)
                           if g is not None and g.definition.exprs
                           and g.definition.content_hash == s.content_hash)
        # held while the pool starts: its threads inherit the mask, so Ctrl-C is seen by the main
        # thread only, and the workers ignore SIGINT until they are told to stop
        # (the resource tracker first: starting it unblocks both signals of this thread)
        from multiprocessing import resource_tracker
        resource_tracker.ensure_running()
        with signals_held():
            self.pool = ctx.Pool(workers, initializer=_quiet_worker, initargs=(sources, loaded))
        self.workers = workers
        self.ships = False  # its workers share this machine's files

    def submit(self, fn, *args):
        return self.pool.apply_async(fn, args).get

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()


def address_problem(address: str) -> str | None:
    """What makes `address` no Dask scheduler address, checked before connecting (None: it is
    "local", or an address to try): a scheme distributed knows (tcp when none is written) and,
    where the scheme's address is a host and a port, HOST:PORT with a port of 1 to 65535.
    Needs distributed."""
    if address == "local":
        return None
    if not address.strip():
        return "it is empty"
    from distributed.comm import registry
    from distributed.comm.addressing import parse_address
    scheme, loc = parse_address(address)
    try:
        backend = registry.get_backend(scheme)
    except ValueError:
        return (f"no scheme {scheme}:// (distributed knows "
                f"{', '.join(f'{k}://' for k in sorted(registry.backends))})")
    try:
        backend.get_address_host_port(loc)
    except NotImplementedError:  # an address of another form (inproc): connecting says
        return None
    except ValueError:
        pass
    host, colon, port = loc.rpartition(":")
    if not colon or (loc.startswith("[") and not host.endswith("]")):  # [::1] alone
        return "no port"
    if not host or host == "[]":
        return "no host"
    if not is_count(port):
        return f"its port '{port}' is not a number"
    if not 1 <= int(port) <= 65535:
        return f"its port {port} is not 1 to 65535"
    if ":" in host and not host.startswith("["):
        return "an IPv6 host goes in brackets, [HOST]:PORT"
    return None


class _Cluster:
    """A Dask distributed client (an address, or "local" for a LocalCluster of this machine)."""

    def __init__(self, address: str):
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise TablerulesError(CLUSTER_EXTRA) from None
        self.cluster = None
        if address == "local":
            # Ctrl-C reaches every process of the terminal, and is this one's to handle (it
            # closes the cluster): the workers start with it ignored (`_workers_ignore_sigint`),
            # and `dask_setup` ignores it again in one the nanny starts later, so a Ctrl-C
            # prints no traceback of theirs. Its HTTP server on a free port: on Dask's own
            # (8787), taken by another Dask of this machine, it would print a warning; a task
            # cancelled by Ctrl-C is not one.
            try:
                with _workers_ignore_sigint():
                    self.cluster = LocalCluster(n_workers=cores(), threads_per_worker=1,
                                                dashboard_address=":0", preload=[__name__],
                                                silence_logs=logging.ERROR)
            except BaseException:  # a Ctrl-C while it started
                if self.cluster is not None:
                    self.cluster.close()
                raise
            address = self.cluster.scheduler_address
        try:
            self.client = Client(address, timeout="10s")
        except (OSError, TimeoutError, ValueError, TypeError) as e:  # TypeError: tls:// with
            # no TLS configured, a scheme whose backend is not installed (ucx://)
            if self.cluster is not None:
                self.cluster.close()
            raise TablerulesError(f"cannot reach the Dask scheduler at {address}: {e}") from None
        self.workers = max(1, sum(self.client.nthreads().values()))
        self.ships = True  # a path here means nothing on its workers: files go as text
        self.futures: set = set()  # submitted, their results not yet taken: cancelled at close

    def submit(self, fn, *args):
        f = self.client.submit(fn, *args, pure=False)
        self.futures.add(f)

        def result():
            out = f.result()
            # let go of it: a future held keeps its result in the cluster's memory
            self.futures.discard(f)
            return out
        return result

    def close(self) -> None:
        if self.futures:
            self.client.cancel(list(self.futures))
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


@contextmanager
def _workers_ignore_sigint():
    """SIGINT ignored while the workers start, so that they start ignoring it too (a process
    keeps an ignored signal ignored, before its first line of Python). A Ctrl-C meanwhile is
    not lost: `sleep`, started before, dies of it, and KeyboardInterrupt is raised after."""
    if os.name != "posix" or threading.current_thread() is not threading.main_thread():
        yield  # Python sets signals in the main thread only
        return
    try:
        watch = subprocess.Popen(["sleep", "3600"], stdin=subprocess.DEVNULL)
    except OSError:  # no sleep: a Ctrl-C while the cluster starts is lost
        watch = None
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
        if watch is not None:
            watch.terminate()  # SIGTERM: one SIGINT pending comes first (the lower number)
            if watch.wait() == -signal.SIGINT:
                raise KeyboardInterrupt


def dask_setup(worker) -> None:
    """Run by Dask in each worker of a local cluster as it starts (`preload`): Ctrl-C is the
    client's to handle (it closes the cluster), not the worker's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _ordered(driver, tasks: Iterable[tuple], close: bool = True) -> Iterator:
    """Run `tasks` (fn, *args) on the driver, a few per worker ahead, yielding results in order;
    `tasks` is taken one at a time as a task ends, so a lazy plan stays lazy: no more than
    `IN_FLIGHT` per worker exist at once. Closing the iterator (a fault, Ctrl-C) stops the
    workers (with `close`; else the driver is its owner's to close, for more runs)."""
    try:
        pending: deque = deque()
        todo = iter(tasks)
        for t in todo:
            pending.append(driver.submit(*t))
            if len(pending) >= driver.workers * IN_FLIGHT:
                break
        while pending:
            result = pending.popleft()()
            nxt = next(todo, None)
            if nxt is not None:
                pending.append(driver.submit(*nxt))
            yield result
    finally:
        if close:
            driver.close()


def driver(workers: int = 1, cluster: str | None = None, sources: tuple = (), games: tuple = ()):
    """A pool of `workers` processes, or a client of `cluster`; `games`: the loaded game of each
    source, for a pool's forked workers to start with."""
    return _Cluster(cluster) if cluster else _Pool(workers, sources, games)


def game_source(game: Game, agents: list[str], seed: int, *, workers: int = 1,
                cluster: str | None = None,
                first_dealer: int | None = None) -> Callable[[int, int, bool], Iterator]:
    """A `runner.simulate` source playing its games on `workers` processes or a cluster
    (`first_dealer`: as `runner.simulate`'s)."""
    src = source_of(game, ship=cluster is not None)
    files = agent_files(agents) if cluster is not None else ()
    d = driver(workers, cluster, (src,), (game,))  # now: an unreachable scheduler fails first

    def play(start: int, stop: int, record: str | None) -> Iterator[Played | Fault]:
        names = list(agents)
        # made as the workers take them (`_ordered`): a billion games plan in constant memory
        tasks = ((play_chunk, src, names, seed, a, b, record, files, first_dealer)
                 for a, b in chunks(start, stop, d.workers))
        results = _ordered(d, tasks)
        try:
            for result in results:
                yield from result
        finally:
            results.close()
    return play
