"""The `tablerules` command: a thin layer that builds results and renders them as text or JSON."""

from __future__ import annotations

import errno
import json
import os
import select
import shlex
import sys
import time
from pathlib import Path
from typing import List, Optional

import typer
from typer.core import TyperCommand, TyperGroup

from .. import __version__

from ..agents import AGENT_HELP

AGENTS_HELP = ("One agent for every seat, or one per seat separated by commas, each NAME or "
               "NAME:PARAM=VALUE[:PARAM=VALUE...] (e.g. cautious:pass_rate=0.5); default: the "
               "ruleset's simulate.agents, else rules when it names a strategy "
               "(simulate.strategy), else random. Agents: "
               + "; ".join(f"{k} ({v})" for k, v in AGENT_HELP.items())
               + ". See `tablerules agents` for their parameters.")
from ..errors import GameError, TablerulesError, did_you_mean, plural, render
from ..interpreter.options import is_count


class WriteError(Exception):
    """Writing to `path` failed: reported as one line by the app, exit 1."""

    def __init__(self, path: str, error: OSError):
        super().__init__(path)
        self.path = path
        self.error = error


class _Sink:
    """A text file whose write failures name its path (a record file)."""

    def __init__(self, f, path: str):
        self.f = f
        self.path = path

    def write(self, text: str) -> int:
        try:
            return self.f.write(text)
        except OSError as e:
            raise WriteError(self.path, e) from None

    def flush(self) -> None:
        try:
            self.f.flush()
        except OSError as e:
            raise WriteError(self.path, e) from None

    def close(self) -> None:
        try:
            self.f.close()
        except OSError as e:
            raise WriteError(self.path, e) from None


def _click_class(name: str):
    """click's exception class `name`, from the click typer uses (its own copy in newer typers)."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


_ClickException = _click_class("ClickException")
_UsageError = _click_class("UsageError")


def _plain_metavars(command, ctx) -> list:
    """Parameters as `--help` should show them: a flag with no placeholder, a value by its
    name (`--games GAMES`) unless the option names its own."""
    params = command.get_params(ctx)
    for p in params:
        if getattr(p, "is_flag", False) or getattr(p, "count", False):
            p.metavar = ""
        elif p.metavar is None:
            p.metavar = p.name.upper()
        if isinstance(p, typer.core.TyperArgument):
            p.display_type_rich = lambda ctx: None  # its name says it: RULESET, not RULESET <str>
    return params


class _Command(TyperCommand):
    """A command whose help shows `--games GAMES`, not `--games <int>`, and whose paragraphs
    flow to the terminal's width."""

    def format_help(self, ctx, formatter):
        _plain_metavars(self, ctx)
        self.help = _reflow(self.help)
        return super().format_help(ctx, formatter)

    def parse_args(self, ctx, args):
        return _parsed(super().parse_args, ctx, args)


def _parsed(parse, ctx, args):
    """`parse(ctx, args)`, a usage error that click's parser raised without its command (an
    option given no value) told it, so that the error says which command's help to ask for."""
    try:
        return parse(ctx, args)
    except _UsageError as e:
        if e.ctx is None:
            e.ctx = ctx
        raise


class _SidesCommand(_Command):
    """compare's command: A's and B's `-o NAME=VALUE` are read from the words around --vs
    (_side_options), not declared to the parser, which would read `-omin_bid=31` as short flags
    run together (-o, -m, -i, then -n taking the rest): such a word is given to it as `-o` and
    its value, as a command that declares -o reads it."""

    def parse_args(self, ctx, args):
        args = [w for a in args for w in (("-o", a[2:]) if a.startswith("-o") and len(a) > 2
                                          else (a,))]
        return super().parse_args(ctx, args)


def _reflow(text: str | None) -> str | None:
    """A docstring with each paragraph's lines joined, as the first one is (else the terminal
    wraps each source line on its own); a paragraph with an indented line is kept as written."""
    if not text:
        return text
    import inspect
    paras = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(p if any(ln.startswith(" ") for ln in p.splitlines()) else
                         " ".join(ln.strip() for ln in p.splitlines()) for p in paras)


def _click_failed(e) -> None:
    """click's own error (an unknown option, a missing argument, a bad value for an int option,
    an unknown command) as one line like every other usage error: `error: ` and click's message,
    its did-you-mean hint kept, then how to get help; exit 2 (a usage error) or click's status."""
    msg = " ".join(e.format_message().split())
    if msg[:2].istitle():  # click's "No such option: ..." reads as ours: "no such option: ..."
        msg = msg[0].lower() + msg[1:]
    line = f"error: {msg}"
    if isinstance(e, _UsageError) and e.ctx is not None and \
            e.ctx.command.get_help_option(e.ctx) is not None:
        line = (f"{line.rstrip('.')}{'' if line.endswith(('?', '!')) else '.'} "
                f"Try '{e.ctx.command_path} {e.ctx.help_option_names[0]}' for help.")
    _err(line)
    raise typer.Exit(e.exit_code)


class _Group(TyperGroup):
    """The one place a failed write (stdout, stderr, a record) becomes one line and exit 1, a
    Ctrl-C no command took the line `interrupted` and exit 130, and click's own usage errors
    (every command's) one line and exit 2."""

    def format_help(self, ctx, formatter):
        _plain_metavars(self, ctx)
        return super().format_help(ctx, formatter)

    def parse_args(self, ctx, args):
        return _parsed(super().parse_args, ctx, args)

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except KeyboardInterrupt:  # while the arguments are read (typer: a silent 130)
            sys.stderr.write("interrupted\n")
            raise typer.Exit(130) from None
        except _ClickException as e:
            if type(e).__name__ == "NoArgsIsHelpError":  # `tablerules` alone: the help
                raise
            _click_failed(e)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except _ClickException as e:  # a command's arguments: an unknown option, a bad value
            if type(e).__name__ == "NoArgsIsHelpError":
                raise
            _click_failed(e)
        except KeyboardInterrupt:  # one no command took (a ruleset loading, say): one line
            sys.stderr.write("interrupted\n")
            raise typer.Exit(130) from None
        except WriteError as e:
            _write_failed(e.path, e.error)
        except OSError as e:
            stream = _echo_stream(e)
            if stream is None:
                raise
            _write_failed(stream, e)


def _echo_stream(e: OSError) -> str | None:
    """`<stdout>` or `<stderr>` when `e` came out of an echo to that stream, else None."""
    tb = e.__traceback__
    found = None
    while tb is not None:
        f = tb.tb_frame
        if f.f_code.co_name == "echo" and "err" in f.f_locals:
            found = "<stderr>" if f.f_locals["err"] else "<stdout>"
        tb = tb.tb_next
    return found


def _write_failed(path: str, e: OSError) -> None:
    quiet = e.errno == errno.EPIPE  # the reader stopped reading (`| head`): not worth a line
    for stream in ("stdout", "stderr"):
        try:  # no second failure when the interpreter flushes the stream at exit
            getattr(sys, stream).flush()
        except (OSError, ValueError):
            setattr(sys, stream, open(os.devnull, "w"))
    try:
        if not quiet:
            sys.stderr.write(f"error: cannot write {path}: {e.strerror or e}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    raise typer.Exit(1)


app = typer.Typer(
    cls=_Group,
    add_completion=False,
    no_args_is_help=True,
    help="Write domino and card game rules as YAML, check them like a compiler, and simulate "
         "them.\n\n"
         "A RULESET is a built-in name (see `tablerules list`) or a path to a .yaml file.",
    context_settings={"help_option_names": ["-h", "--help"]},
)

def _played(r) -> str:
    """What validate's seeded play came to: "23 seeded hands played in 2 whole matches"."""
    return (f"{plural(r.hands_played, 'seeded hand')} played in "
            f"{plural(r.matches_played, 'whole match', 'whole matches')}")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tablerules {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """Write domino and card game rules as YAML, check them like a compiler, and simulate them."""


OptionArg = typer.Option(None, "--option", "-o", metavar="NAME=VALUE",
                         help="Set a ruleset option (repeatable); see `tablerules show RULESET`.")
FormatArg = typer.Option("text", "--format", "-f", metavar="text|json",
                         help="Output format: text or json.")


ClusterArg = typer.Option(None, "--cluster", metavar="ADDRESS",
                          help="Play on a Dask cluster: its scheduler (tcp://HOST:8786), or "
                               "'local' for one on this machine (the cluster extra). Same "
                               "results.")
WorkersArg = typer.Option("1", "--workers", "-w", metavar="N|auto",
                          help="Worker processes to play the games on (0 or auto: every core "
                               "this process may use). Same results as one.")


ReportArg = typer.Option(None, "--report", metavar="FILE.html",
                         help="Also write a report: one self-contained HTML file (tables, and "
                              "charts as inline SVG; nothing fetched), the report extra. Its "
                              "name ends in .html or .htm.")


def _need_report(path: Path | None) -> None:
    """--report needs matplotlib, and a place it can be written: a one-line error (exit 2)
    before any game is played, not after a long run."""
    if path is None:
        return
    from ..report import ReportUnavailable, require
    try:
        require()
    except ReportUnavailable as e:
        _err(f"error: {e}")
        raise typer.Exit(2)
    why = _unwritable(path)
    if why:
        _usage(f"--report {path}: cannot write it: {why}")
    _html_named(path, "--report")


def _not_stdout(path: Path | None, flag: str) -> None:
    """A record goes to a file: `-` (read elsewhere as standard output) wrote a file named `-`,
    and a record on stdout would be mixed with the summary or the game: a usage error, exit 2."""
    if path is not None and str(path) == "-":
        _usage(f"{flag} -: a record is written to a file, not to standard output: give a file "
               "name")


def _html_named(path: Path, flag: str) -> None:
    """A page is written to a file named as one (.html or .htm): `--report games.jsonl` wrote
    HTML into a file named as a record; a usage error (exit 2), before anything is played."""
    if path.suffix.lower() not in (".html", ".htm"):
        _usage(f"{flag} {path} writes an HTML page: give a name ending in .html or .htm")


def _unwritable(path: Path) -> str | None:
    """Why a file cannot be written at `path` (None: it seems it can), found without writing:
    a folder there, a folder that is not there, or one this user may not write in; a link is
    written through to its target (records.io.written_whole), so the target is what counts."""
    if path.is_symlink():
        target = Path(os.path.realpath(path))
        if target.is_symlink():  # a loop of links: realpath stops where it came round
            return "it is a link that leads back to itself"
        why = _unwritable(target)
        return None if why is None else f"{why} (it is a link to {target})"
    if path.is_dir():
        return "it is a folder"
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return f"there is no folder {folder}"
    if path.exists() and not os.access(path, os.W_OK) or \
            not path.exists() and not os.access(folder, os.W_OK):
        return "permission denied"
    return None


def _not_read_and_written(out: Path, inputs, flag: str, what: str = "the file it reads") -> None:
    """A usage error (exit 2) when `out` is one of the files the command reads, by any path to
    it (records.io.same_file): written, it would be lost (replay FILE --html FILE wrote the page
    over the record, merge OUT over a shard through a link)."""
    from ..records.io import same_file
    f = same_file(out, inputs)
    if f is not None:
        _usage(f"{flag} {out} is {what} ({f}): give another file")


def _write_report(path: Path, build) -> None:
    """Build the report's HTML (`build()`) and write it to `path`; a write error is one line."""
    text = build()
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        _err(f"error: cannot write {path}: {e.strerror or e}")
        raise typer.Exit(1)
    _err(f"report written to {path}")


def _err(msg: str) -> None:
    typer.echo(msg, err=True)


def _render(d, sources: dict[str, str] | None, options: list[str] | None) -> str:
    """A diagnostic as text; one about the command line names the --option it is about."""
    if d.span.file == OPTION_FILE:
        opts = options or []
        msg = d.full_message()
        if msg.startswith("--option "):  # the message quotes the pair itself
            return f"{d.severity}: {msg}"
        pair = f" {opts[d.span.line - 1]}" if 0 < d.span.line <= len(opts) else ""
        return f"{d.severity}: --option{pair}: {msg}"
    return render(d, sources)


OPTION_FILE = "--option"  # the "file" of the diagnostics about --option NAME=VALUE


def _fail(e: TablerulesError, sources: dict[str, str] | None = None,
          options: list[str] | None = None, about: str | None = None,
          then: str | None = None) -> None:
    """Print every diagnostic of `e` to stderr; exit 2 if one is in the command line, else 1.
    `about`: the ruleset a command-line diagnostic names first, as validate names the file of
    several that refused an --option; `then`: a line said after them (what was kept)."""
    from ..game import add_sources
    srcs = add_sources(e.diagnostics, dict(sources or {}))
    for d in e.diagnostics:
        text = _render(d, srcs, options)
        _err(f"{about}: {text}" if about and _in_command_line(d) else text)
    if then:
        _err(then)
    raise typer.Exit(2 if any(_in_command_line(d) for d in e.diagnostics) else 1)


def _game_failed(game, e: TablerulesError, then: str | None = None) -> None:
    """An error found while `game` played, said as validate says it: at the line of the user's
    file that caused it, with a note at a base file's rule it broke (Game.located), each place
    with its line quoted (from the files the game was read from); `then`: as _fail's."""
    _fail(game.located(e) if isinstance(e, GameError) else e,
          game.tree.sources if game.tree is not None else None, then=then)


def _part_summary(tree) -> str:
    """'trumps; 1 constant, 1 declaration, 5 functions checked' for a library part."""
    counts = []
    for key, word in (("options", "option"), ("constants", "constant"),
                      ("declarations", "declaration"), ("functions", "function"),
                      ("contracts", "contract")):
        n = len(tree.data.get(key) or {}) if key != "contracts" else sum(
            1 for loc in [tree.locs.get(("contracts", c)) for c in tree.data.get("contracts") or {}]
            if loc is not None)
        if n:
            counts.append(f"{n} {word}{'s' if n != 1 else ''}")
    return f"{tree.data.get('name')}; {', '.join(counts) or 'nothing'} checked"


def _check_format(fmt: str) -> None:
    if fmt not in ("text", "json"):
        _err(f"error: --format is text or json, got '{fmt}'")
        raise typer.Exit(2)


def _usage(msg: str) -> None:
    _err(f"error: {msg}")
    raise typer.Exit(2)


def _in_command_line(d) -> bool:
    """A diagnostic located in the command line (an `--option`), not in a file."""
    return d.span.file == "--option"


def _agent_list(text: str, whose: str = "") -> list[str]:
    """`--agents` text -> one canonical agent text per seat given; a bad one is a usage error
    that quotes the text with a caret under the part at fault (`whose`: as _check_agent_count)."""
    from ..agents import AgentTextError, parse_list
    try:
        return [c.text for c in parse_list(text)]
    except AgentTextError as e:
        _err(e.render(f"{whose} --agents" if whose else "--agents"))
        raise typer.Exit(2)


def _check_agent_count(names: list[str], game, whose: str = "") -> None:
    """One agent for every seat, or one per seat; another count is a usage error (`whose`:
    the side of a comparison whose --agents they are, A's or B's, said first)."""
    from ..agents import for_seats
    try:
        for_seats(names, game.definition.seat_count, game.ref)
    except ValueError as e:
        _usage(f"{whose} {e}" if whose else str(e))


def _agents_for(game, names: list[str] | None, whose: str = "") -> list[str]:
    """The agents to play `game` with: `names`, else the ruleset's `simulate.agents` (`whose`:
    as _check_agent_count)."""
    from ..validation import agent_problems
    from ..validation import agents_ready
    gd = game.definition
    if names is None:
        problems = agent_problems(game)
        if problems:
            _fail(TablerulesError(problems[0].message, problems[0].span, diagnostics=problems))
        names = list(gd.agents)
    else:
        _check_agent_count(names, game, whose)
    problems = agents_ready(game, names)  # a strategy that does not fit: before any game
    if problems:
        _fail(TablerulesError(problems[0].message, problems[0].span, diagnostics=problems))
    return names


def _compiled_agents_ready(game, names: list[str], progress: bool) -> None:
    """Each agent of `names` whose making compiles code (its spec's `compiles`: the search
    agent's engine=batch play-outs) made once here, compiled (most of a minute the first time)
    or loaded from numba's cache while a line at the terminal says so: the games' own agents
    find it made (such an agent keeps it for the process, and forked workers inherit it). An
    agent that cannot be made is left to the run, which says why where it makes it."""
    import random

    from ..agents import AgentTextError, parse
    for text in dict.fromkeys(names):
        try:
            choice = parse(text)
        except AgentTextError:
            continue
        what = choice.compiles()
        if what is None:
            continue
        with _Waiting(f"compiling {game.definition.name}'s {what} for {choice.spec.name} "
                      "(numba, once: later runs load them)", progress):
            try:
                choice.make(random.Random(0), game.definition)
            except ValueError:
                pass


def _load(ruleset: str, options: list[str] | None, *, profile: bool = False,
          about: str | None = None):
    """The game, with its checked trees kept: the batch engine and the search agent's compiled
    play-outs build on them (keeping them costs nothing measurable). `about`: the name an
    --option it does not take is said with (_fail)."""
    from ..game import load_game
    from ..interpreter.options import parse_cli_options
    try:
        return load_game(ruleset, parse_cli_options(options), profile=profile, typed=True)
    except TablerulesError as e:
        _not_a_strategy(ruleset)
        _fail(e, options=options, about=about)


def _not_a_strategy(ref: str) -> None:
    """A strategy file (or a shipped strategy's name) given where a ruleset goes: one line that
    says what it is and which commands read it (exit 1, as a ruleset file that is not there),
    not the ruleset schema's errors at each key of it."""
    from ..validation import strategy_file
    path = strategy_file(ref)
    if path is None:
        return
    from ..load.ruleset import read_tree
    games = read_tree(path).data.get("for")
    games = [str(g) for g in games] if isinstance(games, list) and games else ["GAME"]
    what = "a strategy file" if ref.endswith((".yaml", ".yml")) else "a shipped strategy"
    fits = f" for {', '.join(games)}" if games != ["GAME"] else ""
    _err(f"{ref}: error: {what}{fits} (the rules agent's), not a ruleset: `tablerules "
         f"validate {ref}` checks it, `tablerules simulate {games[0]} --agents "
         f"rules:strategy={ref}` plays it (docs/strategy.md)")
    raise typer.Exit(1)


@app.command("list", cls=_Command)
def list_cmd(fmt: str = FormatArg) -> None:
    """List the built-in rulesets, one line each."""
    from ..describe import list_builtins
    _check_format(fmt)
    items = list_builtins()
    if fmt == "json":
        typer.echo(json.dumps(items, indent=2))
        return
    w = max((len(i["name"]) for i in items), default=0)
    for i in items:
        typer.echo(f"{i['name']:<{w}}  {i['title']}")


@app.command(cls=_Command)
def show(ruleset: str = typer.Argument(..., help="Built-in name or .yaml path."),
         option: Optional[List[str]] = OptionArg, fmt: str = FormatArg) -> None:
    """Show a ruleset: its options (value, default, allowed, description) and its phases."""
    from ..describe import describe, render_show, sample_fault
    from ..game import add_sources
    _check_format(fmt)
    game = _load(ruleset, option)
    info = describe(game)
    if fmt == "json":
        typer.echo(json.dumps(info, indent=2, default=str))
    else:
        typer.echo(render_show(info))
    # describe found the sample deal stopped (pass_out None): the fault it met, as a note
    fault = sample_fault(game) if info["phases"].get("pass_out", True) is None else None
    if fault is not None:  # the file is described still; where its play stops is a note
        notes = game.located(fault, f"show's sample deal stopped: {fault.message} (`tablerules "
                                    f"validate {ruleset}` plays more)").diagnostics
        srcs = add_sources(notes, dict(game.tree.sources) if game.tree is not None else {})
        for d in notes:
            d.severity = "note"
            _err(_render(d, srcs, option))


@app.command(cls=_Command)
def validate(files: List[str] = typer.Argument(..., help="Ruleset files (or built-in names), "
                                                        "or strategy files."),
             option: Optional[List[str]] = OptionArg,
             hands: int = typer.Option(200, "--hands", min=0,
                                       help="Play whole matches until this many hands are done "
                                            "(0: no play)."),
             seed: int = typer.Option(0, "--seed", help="Seed of the matches."),
             agents: Optional[str] = typer.Option(
                 None, "--agents", metavar="AGENTS",
                 help="Agents to play with, as simulate takes them: one for every seat, or one "
                      "per seat, each NAME[:PARAM=VALUE...] (default: the ruleset's, in turn "
                      "with cautious)."),
             seconds: float = typer.Option(10.0, "--seconds", min=0.1,
                                           help="Time a match may take before it is reported."),
             steps: int = typer.Option(100_000, "--steps", min=1,
                                       help="Decisions a match may take before it is reported."),
             fmt: str = FormatArg) -> None:
    """Check rulesets like a compiler: YAML, schema, names, types, options; then play matches.

    Every problem is printed as file:line:col: error: message with the source line and a caret.
    A strategy file is checked for each game its `for:` names and played by the rules agent on
    every seat. Exit status 1 if any file has an error, 2 if the command line has one, 0 if all
    are clean.
    """
    from ..interpreter.options import parse_cli_options
    from ..load.ruleset import like_notes
    from ..validation import check_file, never_legal_warnings, unbid_contracts
    _check_format(fmt)
    names = _agent_list(agents) if agents is not None else None
    try:
        opts = parse_cli_options(option)
    except TablerulesError as e:
        _fail(e, options=option)
    results = [check_file(f, opts, hands=hands, seed=seed, agents=names, seconds=seconds,
                          steps=steps) for f in files]
    for r in results:
        if names and r.game is not None and not r.library and r.strategy_for is None:
            _check_agent_count(names, r.game)
        if r.game is not None and r.game.tree is not None and r.strategy_for is None:
            # a change `like:` carries: say so
            r.diagnostics.extend(like_notes(r.game.tree))
            if r.ok:  # a contract the file adds that no seat could bid in the seeded play,
                dead = never_legal_warnings(r)  # or that the strategy it inherits never bids
                shut = {d.path[1] for d in dead}
                r.diagnostics.extend(dead + [d for d in unbid_contracts(r.game)
                                             if d.path[1] not in shut])
    if any(_in_command_line(d) for r in results for d in r.diagnostics):
        _command_line_errors(results, option)
    if fmt == "json":
        typer.echo(json.dumps({"ok": all(r.ok for r in results),
                               "files": [r.as_dict() for r in results]}, indent=2))
    else:
        for r in results:
            for d in r.diagnostics:
                _err(_render(d, r.sources, option))
            if r.ok and r.strategy_for is not None:
                played = (f", {_played(r)} by the rules agent on every seat") if hands else ""
                typer.echo(f"{r.ref}: ok (strategy for {', '.join(r.strategy_for)}{played})")
            elif r.ok and r.library:
                typer.echo(f"{r.ref}: ok (library part: {_part_summary(r.game.tree)})")
            elif r.ok:
                played = f", {_played(r)} by {' and '.join(r.agents)}" if hands else ""
                typer.echo(f"{r.ref}: ok ({r.game.definition.canonical}{played})")
        bad = [r for r in results if not r.ok]
        if bad:
            n = sum(1 for r in bad for d in r.diagnostics if d.severity == "error")
            _err(f"{n} error{'s' if n != 1 else ''} in {len(bad)} of {len(results)} "
                 f"file{'s' if len(results) != 1 else ''}")
    if not all(r.ok for r in results):
        raise typer.Exit(1)


def _command_line_errors(results, options: list[str] | None) -> None:
    """validate's --option that a file does not take: a usage error, said alone (no file's ok
    line, no count of errors by file; with --format json too, as a malformed pair is) and
    exit 2. With several files each line names the file it is about; a line that is the same
    for several files is said once."""
    said = set()
    for r in results:
        for d in r.diagnostics:
            if not _in_command_line(d):
                continue
            text = _render(d, r.sources, options)
            if len(results) > 1:
                text = f"{r.ref}: {text}"
            if text not in said:
                said.add(text)
                _err(text)
    raise typer.Exit(2)


@app.command(cls=_Command)
def simulate(ruleset: str = typer.Argument(..., help="Built-in name or .yaml path."),
             games: int = typer.Option(100, "--games", "-n", min=1, help="Matches to play."),
             seed: int = typer.Option(0, "--seed", "-s", help="Master seed; same seed, same games."),
             option: Optional[List[str]] = OptionArg,
             record: Optional[Path] = typer.Option(None, "--record", "-r",
                                                   help="Write a JSON Lines game record to this "
                                                        "file (gzip if it ends in .gz); a file, "
                                                        "not - (stdout has the summary)."),
             detail: str = typer.Option("compact", "--record-detail", metavar="DETAIL",
                                        help="compact (a line per deal: the deal, the actions, "
                                             "the result) or full (every decision with its legal "
                                             "actions, every trick and lay)."),
             agents: Optional[str] = typer.Option(None, "--agents", metavar="AGENTS",
                                                  help=AGENTS_HELP),
             progress: bool = typer.Option(True, "--progress/--no-progress",
                                           help="Progress bar on a terminal for runs over a "
                                                "second (and a line while a kernel compiles)."),
             profile: bool = typer.Option(False, "--profile",
                                          help="Time every rule of the ruleset and of the rules "
                                               "agent's strategy, and print where the run's time "
                                               "went, rule by rule, on stderr (with --format "
                                               "json, in the JSON; the timing slows the run; one "
                                               "process only)."),
             workers: str = WorkersArg,
             shard: Optional[str] = typer.Option(
                 None, "--shard", metavar="K/N",
                 help="Play only shard K of N (1-based): a contiguous range of the games, so the "
                      "shards' records merge (`tablerules merge`) into the whole run's."),
             cluster: Optional[str] = ClusterArg,
             report: Optional[Path] = ReportArg,
             engine: str = typer.Option("step", "--engine", metavar="ENGINE",
                                        help="step (every agent, records, shards) or "
                                             "batch: the random and rules agents in compiled "
                                             "code, many times faster (the fast extra; a "
                                             "summary only, its own games, --check of them "
                                             "replayed by the step engine; --workers and "
                                             "--cluster too)."),
             check: int = typer.Option(100, "--check", min=0, metavar="K",
                                       help="With --engine batch: matches replayed through the "
                                            "step engine, which must agree on every deal, "
                                            "decision, result and winner, and a rules seat's "
                                            "every choice (exit status 1 if not)."),
             first_dealer: Optional[str] = typer.Option(
                 None, "--first-dealer", metavar="SEAT",
                 help="The seat (a name, or a number from 0) that deals each match's first hand, "
                      "in place of the ruleset's deal.first_dealer, as compare deals (the header "
                      "of a --record says it; not with --engine batch)."),
             fmt: str = FormatArg) -> None:
    """Play matches with bots and report what happened (contracts, make rates, marks, wins).

    With --workers, --shard or --cluster the record and the summary are byte for byte those of
    one process with the same seed: every game is seeded by its number alone, and the games are
    written and counted in order. --engine batch plays the matches in compiled code (numba: pip
    install 'tablerules\\[fast]'), each seat random or the rules agent (its strategy compiled
    too; without --agents, the ruleset's, as on the step engine); its games are its own, not
    the step engine's, and it prints the same summary (with --workers or --cluster, the summary
    of one process; a cluster's workers need the fast extra too).
    """
    from ..records.io import open_text
    from ..records.runner import simulate as run
    _check_format(fmt)
    _need_report(report)
    _not_stdout(record, "--record")
    if engine not in ("step", "batch"):
        _usage(f"--engine is step or batch, got '{engine}'")
    if engine == "batch":
        if first_dealer is not None:
            _usage("--engine batch deals first as the ruleset says: leave out --first-dealer")
        for given, flag in ((record, "--record"), (profile, "--profile"), (shard, "--shard")):
            if given:
                _usage(f"--engine batch keeps no record and plays every match: leave out "
                       f"{flag}")
        if cluster is not None:
            _need_cluster(cluster, workers)
        names = _agent_list(agents) if agents is not None else None
        _simulate_batch(ruleset, option, games, seed, check, progress, report, fmt, names,
                        _spare(_workers(workers), games), cluster)
        return
    n_workers = _workers(workers)
    if cluster is not None:
        _need_cluster(cluster, workers)
    if profile and (cluster is not None or n_workers > 1):
        _usage("--profile times the rules in this process: leave out --workers and --cluster")
    names = _agent_list(agents) if agents is not None else None
    game = _load(ruleset, option, profile=profile)
    names = _agents_for(game, names)
    dealer = _seat_of(first_dealer, game.definition) if first_dealer is not None else None
    if cluster is None:  # a cluster's workers make their own
        _compiled_agents_ready(game, names, progress)
    from ..records.runner import DETAILS, seat_agents
    if detail not in DETAILS:
        _err(f"error: --record-detail is compact or full, got '{detail}'")
        raise typer.Exit(2)
    first, stop, entry = 0, games, None
    if shard is not None:
        from ..records.merge import shard_entry, shard_range
        k, n = _shard(shard, games)
        first, stop = shard_range(games, k, n)
        entry = shard_entry(games, k, n)
    source = None
    n_workers = _spare(n_workers, stop - first)
    if cluster is not None or n_workers > 1:
        from ..records.parallel import game_source
        try:
            source = game_source(game, names, seed, workers=n_workers, cluster=cluster,
                                 first_dealer=dealer)
        except TablerulesError as e:
            _err(f"error: {e.message}")
            raise typer.Exit(1)
        except KeyboardInterrupt:  # while the workers started: a run stopped before its first game
            source = _no_games
    out = None
    if record is not None:
        try:
            out = _Sink(open_text(record, "w"), str(record))
        except OSError as e:
            _err(f"error: cannot write {record}: {e.strerror or e}")
            raise typer.Exit(1)
    bar = _Progress(stop - first, enabled=progress and sys.stderr.isatty())
    started = time.perf_counter()
    term = _terminate_as_interrupt()
    try:
        summary = run(game, games=games, seed=seed, agent_names=names, out=out, progress=bar.update,
                      first=first, stop=stop, shard=entry, source=source, detail=detail,
                      path=str(record) if record is not None else None, first_dealer=dealer)
    except TablerulesError as e:
        bar.close()
        if "bounds.max_hands" in e.message and _plays_random(names):
            _err("note: uniformly random bidders may never finish a match of this game; "
                 "try --agents cautious")
        _game_failed(game, e)
    finally:
        _restore_terminate(term)
        if out is not None:
            out.close()
    bar.close()
    elapsed = time.perf_counter() - started
    result = {"ruleset": game.definition.canonical, "seed": seed,
              "agents": seat_agents(names, game.definition.seat_count),
              **_names(game.definition), **summary.as_dict(),
              "record": str(record) if record else None}
    result = _every_contract(result, game.definition)
    if dealer is not None:
        result["first_dealer_by"] = "--first-dealer"
    if entry is not None:
        result["shard"] = entry
    if summary.interrupted:
        result["interrupted"] = True
    if profile:
        result["profile"] = game.definition.profile.as_dict(elapsed)
    if fmt == "json":
        typer.echo(json.dumps(result, indent=2))
    else:
        typer.echo(_render_summary(result))
        _err(f"{plural(summary.games, 'game')}, {plural(summary.hands, 'hand')} in {elapsed:.2f}s "
             f"({summary.hands / elapsed if elapsed else 0:.0f} hands/s)")
        if profile:
            _err(_render_profile(result["profile"]))
    if report is not None:
        from ..report import simulate_report
        _write_report(report, lambda: simulate_report(result, summary.distributions()))
    if summary.interrupted:
        _err(f"interrupted after {summary.games} of {stop - first} games"
             + (f"; the record holds those {summary.games}" if record else ""))
        raise typer.Exit(130)


def _no_games(start: int, stop: int, record: str | None):
    """The games of a run Ctrl-C stopped before it began: none (the run ends interrupted, its
    summary and record empty, as one process's does when stopped before its first game)."""
    raise KeyboardInterrupt
    yield  # a generator: raised as the run takes its first game


def _simulate_batch(ruleset: str, option, games: int, seed: int, check: int, progress: bool,
                    report: Optional[Path], fmt: str, names: list[str] | None,
                    workers: int = 1, cluster: str | None = None) -> None:
    """simulate --engine batch: the matches on the batch engine (on `workers` processes or on
    `cluster`), simulate's summary."""
    from ..batch import BatchUnavailable, NotBatchable
    from ..records.batchrun import simulate_batch
    from ..records.runner import seat_agents
    game = _load(ruleset, option)
    gd = game.definition
    names = _agents_for(game, names)  # as the step engine: --agents, else the ruleset's
    engine = _batch_engine(game, _batch_agents(game, names), progress=progress)
    bar = _Progress(games, enabled=progress and sys.stderr.isatty())
    started = time.perf_counter()
    term = _terminate_as_interrupt()
    try:
        summary, checked = simulate_batch(game, engine, games=games, seed=seed, check=check,
                                          progress=bar.update, workers=workers, texts=names,
                                          cluster=cluster)
    except NotBatchable as e:
        bar.close()
        _refused(game, e)
    except BatchUnavailable as e:  # a cluster's worker without numba: not the ruleset's fault
        bar.close()
        _err(f"error: {e.message}")
        raise typer.Exit(1)
    except KeyboardInterrupt:  # before the run's loop (its own Ctrl-C gives the summary)
        bar.close()
        _err("interrupted")
        raise typer.Exit(130)
    except TablerulesError as e:
        bar.close()
        # a match, not a hand, that never ends: with random bidders, perhaps only for them
        if "bounds.max_hands" in e.message and _plays_random(names):
            _err("note: uniformly random bidders may never finish a match of this game (try "
                 "--agents rules); `tablerules batch` plays its hands")
        _game_failed(game, e)
    finally:
        _restore_terminate(term)
    bar.close()
    elapsed = time.perf_counter() - started
    result = {"ruleset": gd.canonical, "seed": seed, "engine": "batch",
              "agents": seat_agents(names, gd.seat_count), **_names(gd), **summary.as_dict(),
              "record": None, "checked": checked}
    result = _every_contract(result, gd)
    if summary.interrupted:
        result["interrupted"] = True
    if fmt == "json":
        typer.echo(json.dumps(result, indent=2))
    else:
        typer.echo(_render_summary(result))
        if checked["games"]:  # (--check 0: none, and no line, as `batch` says none)
            typer.echo(f"checked: {checked['agree']} of {checked['games']} games replayed "
                       "through the step engine agree")
        for d in checked["disagreements"]:
            typer.echo(f"  {d}")
        _err(f"{plural(summary.games, 'game')}, {plural(summary.hands, 'hand')} in {elapsed:.2f}s "
             f"({summary.hands / elapsed if elapsed else 0:.0f} hands/s, batch engine)")
    if report is not None:
        from ..report import simulate_report
        _write_report(report, lambda: simulate_report(result, summary.distributions()))
    if checked["disagreements"]:
        raise typer.Exit(1)
    if summary.interrupted:
        _err(f"interrupted after {summary.games} of {games} games")
        raise typer.Exit(130)


def _batch_engine(game, agents, hint: str = "the step engine plays it: leave out --engine batch",
                  what: str = "matches", threads: int = 1, progress: bool = False):
    """The game compiled for the batch engine with `agents` (compile_batch), its loop of
    `what` ready; a part it has no form of is refused where it is written, a missing numba
    said (exit 1). With `progress`, a line at the terminal says what it waits for while it
    compiles (a ruleset's first run: 10 to 40 s) or loads from numba's cache."""
    from ..batch import BatchUnavailable, NotBatchable, compile_batch
    try:
        with _Waiting(f"compiling {game.definition.name} (numba, once: later runs load it)",
                      progress):
            engine = compile_batch(game.definition, agents)
            engine.ready(what, threads)
    except NotBatchable as e:
        _refused(game, e, hint)
    except BatchUnavailable as e:
        _err(f"error: {e.message}")
        raise typer.Exit(1)
    except KeyboardInterrupt:  # Ctrl-C while numba compiles: nothing has been played yet
        _err("interrupted while the kernel was prepared: nothing was played")
        raise typer.Exit(130)
    return engine


def _refused(game, e, hint: str = "the step engine plays it: leave out --engine batch") -> None:
    """The batch engine has no form of a part of the ruleset: where it is written, exit 1."""
    text = f"the batch engine cannot play {game.definition.name} yet: {e.message} ({hint})"
    if not e.path or game.tree is None:
        _err(f"error: {text}")
        raise typer.Exit(1)
    _fail(TablerulesError(text, game.tree.span(e.path)))


def _workers(text: str, flag: str = "--workers", what: str = "processes") -> int:
    """--workers N|auto -> a count of processes (auto, and 0 however written: the cores
    available)."""
    from ..records.parallel import cores
    t = text.strip().lower()
    if t == "auto":
        return cores()
    if not is_count(t):
        _usage(f"{flag} is a number of {what} or auto, got '{text}'")
    return int(t) or cores()


def _spare(workers: int, games: int) -> int:
    """No more processes than games: none would sit idle."""
    return min(workers, max(games, 1))


def _need_cluster(address: str, workers: str) -> None:
    """--cluster needs Dask distributed (the cluster extra), a scheduler's address or local,
    and no --workers."""
    import importlib.util
    if workers.strip() != "1":
        _usage("--workers and --cluster: give one (the cluster's workers play the games)")
    if importlib.util.find_spec("distributed") is None:
        from ..records.parallel import CLUSTER_EXTRA
        _err(f"error: {CLUSTER_EXTRA}")
        raise typer.Exit(1)
    from ..records.parallel import address_problem
    problem = address_problem(address)
    if problem is not None:
        _usage(f"--cluster '{address}': {problem}; give a scheduler's address "
               "(tcp://HOST:8786) or local")


def _shard(text: str, games: int) -> tuple[int, int]:
    """--shard K/N -> (K, N): 1 <= K <= N <= games."""
    k, slash, n = text.partition("/")
    if not (slash and is_count(k.strip()) and is_count(n.strip())):
        _usage(f"--shard is K/N, shard K of N (e.g. 2/4), got '{text}'")
    k_, n_ = int(k), int(n)
    if not 1 <= k_ <= n_:
        _usage(f"--shard {text}: K is 1 to N")
    if n_ > games:
        _usage(f"--shard {text}: {n_} shards of {games} games leave some empty")
    return k_, n_


def _terminate_as_interrupt():
    """SIGTERM stops a run as Ctrl-C does; returns the handler to put back."""
    import signal
    try:
        return signal.signal(signal.SIGTERM, signal.default_int_handler)
    except (ValueError, OSError):  # not the main thread: leave the default
        return None


def _restore_terminate(previous) -> None:
    import signal
    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


@app.command("agents", cls=_Command)
def agents_cmd(fmt: str = FormatArg) -> None:
    """List the agents --agents takes: each with its parameters, their kinds and defaults.

    Give an agent as NAME, or with parameters as NAME:PARAM=VALUE[:PARAM=VALUE...]; an onoff
    parameter is on or off, a choice one of its values.
    """
    from ..agents import AGENTS
    from ..agents.base import spec_dict
    _check_format(fmt)
    specs = [AGENTS[k] for k in sorted(AGENTS)]
    if fmt == "json":
        typer.echo(json.dumps([spec_dict(s) for s in specs], indent=2))
        return
    typer.echo(_render_agents(specs))


def _render_agents(specs) -> str:
    from ..agents.base import default_value, range_text, value_text
    lines = []
    for spec in specs:
        if lines:
            lines.append("")
        lines.append(f"{spec.name}  {spec.help}")
        if not spec.params:
            lines.append("  (no parameters)")
        for p in spec.params:
            allowed = (" (" + ", ".join(map(str, p.choices))
                       + (", or a .yaml path" if p.kind == "file" else "") + ")" if p.choices else
                       " (on, off)" if p.kind == "onoff" else
                       f" ({range_text(p)})" if p.min is not None or p.max is not None else "")
            lines.append(f"  {p.name}={value_text(p, default_value(p))}  {p.kind}{allowed}: "
                         f"{p.help}")
    return "\n".join(lines)


COMPARE_USAGE = ("tablerules compare RULESET [--agents A] [--option NAME=VALUE ...] --vs [RULESET] "
                 "[--agents B] [--option NAME=VALUE ...] [--games N] [--seed S]")


@app.command(cls=_SidesCommand, context_settings={"ignore_unknown_options": True,
                                                  "allow_extra_args": True})
def compare(ctx: typer.Context,
            ruleset: str = typer.Argument(..., help="A's ruleset: a built-in name or .yaml path."),
            games: int = typer.Option(1000, "--games", "-n", min=1,
                                      help="Games to play (rounded up to whole deals: each deal "
                                           "is played once per side, or per seating)."),
            seed: int = typer.Option(0, "--seed", "-s",
                                     help="Master seed; same seed, same games."),
            progress: bool = typer.Option(True, "--progress/--no-progress",
                                          help="Progress bar on a terminal for runs over a "
                                               "second (and a line while a kernel compiles)."),
            workers: str = WorkersArg,
            cluster: Optional[str] = ClusterArg,
            each_rule_off: bool = typer.Option(
                False, "--each-rule-off",
                help="Instead of --vs: the rules agent (--agents, default the ruleset's) against "
                     "itself with one strategy rule switched off (rules:NAME=off), once per rule "
                     "it plays, every comparison on the same deals; --games is per rule."),
            report: Optional[Path] = ReportArg,
            engine: str = typer.Option("step", "--engine", metavar="ENGINE",
                                       help="step, or batch: one agent (random or rules) on "
                                            "every seat of each of A and B, in compiled code, "
                                            "many times faster (the fast extra; its own games, "
                                            "on the same deals for A and B; --workers and "
                                            "--cluster too)."),
            check: int = typer.Option(20, "--check", min=0, metavar="K",
                                      help="With --engine batch: matches of each side (or "
                                           "seating) replayed "
                                           "through the step engine, which must agree on every "
                                           "deal, decision, result and winner (exit status 1 "
                                           "if not)."),
            fmt: str = FormatArg) -> None:
    """Compare A and B over paired deals: agents, rulesets or options.

    tablerules compare RULESET [--agents A] [-o NAME=VALUE ...]
      --vs [RULESET] [--agents B] [-o NAME=VALUE ...] [--games N] [--seed S]

    tablerules compare RULESET --each-rule-off [--agents RULES] [--games N]

    B starts as A and changes what follows --vs: its ruleset, its agents,
    its options (added to A's when B plays A's ruleset; another ruleset
    takes only those after --vs). Both are dealt the same hands (the same
    seed per deal), and deal d is dealt first by seat d mod seats.

    When A and B play the same game they play each other: each deal is
    played once per side, A's agents on that side and B's on the others
    (two sides: the same seats, then swapped; agents that differ by side
    are also moved round the sides, so each plays every side's hands).
    The report gives A's win
    rate with a 95% Wilson interval. Otherwise each plays the same deals
    separately and the report sets them side by side.

    --each-rule-off plays the rules agent against itself with one rule of
    its strategy switched off, for each rule it plays, on the same deals:
    a table of the full agent's win rate with its interval, rule by rule
    (above even, the rule helps).

    --engine batch plays either kind on the batch engine (pip install
    'tablerules\\[fast]'), one agent, random or rules, on every seat of each
    of A and B: match d of each is dealt the same hands, first by seat d
    mod seats; its games are its own, not the step engine's, and --check
    of them (of each side, or each seating) are replayed through the step
    engine.

    Exit status 2 for a usage error, 1 for a ruleset error.
    """

    from ..records.compare import Config, compare as run, renumbered, unshared_deals
    _check_format(fmt)
    _need_report(report)
    n_workers = _workers(workers)
    if cluster is not None:
        _need_cluster(cluster, workers)
    if engine not in ("step", "batch"):
        _usage(f"--engine is step or batch, got '{engine}'")
    batch = engine == "batch"
    if batch and each_rule_off:
        _usage("--engine batch compares two rulesets or two agents: leave out --each-rule-off")
    if each_rule_off:
        if "--vs" in ctx.args:
            _usage("--each-rule-off compares the agent with itself: leave out --vs")
        agent, opts = _side_options(list(ctx.args), "the agent")
        _each_rule_off(ruleset, agent, opts, games=games, seed=seed, progress=progress,
                       workers=n_workers, cluster=cluster, fmt=fmt, report=report)
        return
    a_args, b_args = _split_vs(list(ctx.args))
    b_ruleset = ruleset
    if b_args and not b_args[0].startswith("-"):
        b_ruleset = b_args.pop(0)
    a_agents, a_opts = _side_options(a_args, "A")
    b_agents, b_opts = _side_options(b_args, "B")
    a_names = _agent_list(a_agents, "A's") if a_agents is not None else None
    b_names = _agent_list(b_agents, "B's") if b_agents is not None else None
    game_a = _load(ruleset, a_opts)
    game_b = _load(b_ruleset, a_opts + b_opts if b_ruleset == ruleset else b_opts)
    if b_names is None and (a_names is not None or b_ruleset == ruleset):
        b_names = a_names  # B starts as A: A's agents, or the one ruleset's defaults
    a_names = _agents_for(game_a, a_names, "A's")
    b_names = _agents_for(game_b, b_names, "B's")
    a = Config("A", game_a, _per_seat(a_names, game_a))
    b = Config("B", game_b, _per_seat(b_names, game_b))
    unshared = unshared_deals(a, b) or (renumbered(a, b) if batch else None)
    if unshared:
        _usage(unshared)
    checked = None
    if batch:  # timed from when the kernels are ready, as simulate's and batch's runs are
        res, checked, started = _compare_batch(a, b, games, seed, check, progress,
                                               _spare(n_workers, games), cluster)
    else:
        if cluster is None:  # a cluster's workers make their own
            for c in (a, b):
                _compiled_agents_ready(c.game, list(c.agents), progress)
        started = time.perf_counter()
        res = _with_progress(progress, lambda tick: run(a, b, games=games, seed=seed,
                                                        progress=tick, workers=n_workers,
                                                        cluster=cluster), game_a, game_b)
    out = res.as_dict()
    for k, c in (("a", a), ("b", b)):  # what the tables call sides and seats (replay's names)
        out[k].update(_names(c.game.definition))
    for key, c in (("a_stats", a), ("b_stats", b)):
        out[key]["never_bid"] = _never_bid(c.game.definition, list(c.agents))
    if checked is not None:
        out["engine"] = "batch"
        out["checked"] = checked
    if fmt == "json":
        typer.echo(json.dumps(out, indent=2))
    else:
        typer.echo(_render_compare(out))
        if checked is not None and checked["games"]:
            typer.echo(f"checked: {checked['agree']} of {checked['games']} matches replayed "
                       "through the step engine agree")
            for d in checked["disagreements"]:
                typer.echo(f"  {d}")
        _err(f"{sum(res.played.values())} games in {time.perf_counter() - started:.2f}s"
             + (" (batch engine)" if batch else ""))
    if report is not None:
        from ..report import compare_report
        # where each one's figures are of what was gained, so is the per-deal difference
        diffs = res.gained_diffs if "gained_per_hand" in out["a_stats"] else res.deal_diffs
        _write_report(report, lambda: compare_report(out, dict(sorted(diffs.items()))))
    if res.interrupted:
        _err(f"interrupted after {res.deals} whole deals; the report covers those")
        raise typer.Exit(130)
    if checked is not None and checked["disagreements"]:
        raise typer.Exit(1)


def _compare_batch(a, b, games: int, seed: int, check: int, progress: bool, workers: int = 1,
                   cluster: str | None = None):
    """compare --engine batch: both sides' kernels, then the paired matches (records/batchrun),
    on `workers` processes or on `cluster`: the result, the replay check, and the time the
    matches started (the kernels compiled or loaded)."""
    from ..records.batchrun import compare_batch
    from ..records.compare import same_game, seats_text
    for c in (a, b):
        if len(set(c.agents)) != 1:
            _usage(f"--engine batch plays one agent on every seat of each side; {c.label} has "
                   f"{seats_text(c.agents)}")
    if same_game(a, b):
        return _compare_batch_match(a, b, games, seed, check, progress, workers, cluster)
    engines = [_batch_engine(c.game, _batch_agents(c.game, c.agents[:1]), _COMPARE_PLAYS,
                             progress=progress) for c in (a, b)]
    started = time.perf_counter()
    res, checked = _with_progress(progress, lambda tick: compare_batch(
        a, b, engines[0], engines[1], games=games, seed=seed, check=check, progress=tick,
        workers=workers, cluster=cluster), a.game, b.game)
    return res, checked, started


_COMPARE_PLAYS = "compare plays it: leave out --engine batch"


def _compare_batch_match(a, b, games: int, seed: int, check: int, progress: bool,
                         workers: int = 1, cluster: str | None = None):
    """compare --engine batch, A's agents against B's at one table: one kernel with both
    strategies (compiled with the first seating's agents), each seating's strategy per seat
    given to it at run time; returns as _compare_batch does."""
    from ..records.batchrun import compare_batch_match
    from ..records.compare import match_seatings

    plans = match_seatings(a, b)
    engine = _batch_engine(a.game, _batch_agents(a.game, plans[0][0]), _COMPARE_PLAYS,
                           progress=progress)
    started = time.perf_counter()
    res, checked = _with_progress(progress, lambda tick: compare_batch_match(
        a, b, engine, plans, games=games, seed=seed, check=check, progress=tick,
        workers=workers, cluster=cluster), a.game)
    return res, checked, started


def _with_progress(progress: bool, run, *games):
    """`run(tick)` with a progress bar on a terminal (tick(done, total) moves it), SIGTERM taken
    as Ctrl-C, and a ruleset error as its located message, the lines of the `games`' files it
    names quoted."""
    bar = _Progress(1, enabled=progress and sys.stderr.isatty())

    def tick(done: int, total: int) -> None:
        bar.total = total
        bar.update(done)

    term = _terminate_as_interrupt()
    try:
        return run(tick)
    except TablerulesError as e:
        bar.close()
        _fail(e, {k: v for g in games if g.tree is not None for k, v in g.tree.sources.items()})
    finally:
        _restore_terminate(term)
        bar.close()


def _each_rule_off(ruleset: str, agent: str | None, opts: list[str], *, games: int, seed: int,
                   progress: bool, workers: int, cluster: str | None, fmt: str,
                   report: Path | None) -> None:
    """`compare RULESET --each-rule-off`: the table of each rule's effect (and the report)."""
    from ..agents import parse
    from ..records.compare import each_rule_off as run
    game = _load(ruleset, opts)
    names = _agents_for(game, _agent_list(agent) if agent is not None else None)
    if len(set(names)) != 1 or parse(names[0]).spec.name != "rules":
        _usage("--each-rule-off switches the rules of the rules agent: give --agents one rules "
               f"agent for every seat (rules, or rules:PARAM=VALUE...), not '{','.join(names)}'")
    started = time.perf_counter()
    res = _with_progress(progress, lambda tick: run(game, names[0], games=games, seed=seed,
                                                    progress=tick, workers=workers,
                                                    cluster=cluster), game)
    out = {"ruleset": game.definition.canonical, **res.as_dict()}
    if fmt == "json":
        typer.echo(json.dumps(out, indent=2))
    else:
        typer.echo(_render_rule_effects(out))
        _err(f"{sum(sum(c.played.values()) for _r, c in res.runs)} games in "
             f"{time.perf_counter() - started:.2f}s")
    if report is not None:
        from ..report import rule_effects_report
        _write_report(report, lambda: rule_effects_report(out, out["ruleset"]))
    if res.interrupted:
        _err(f"interrupted at rule {res.runs[-1][0]}; the table covers its whole deals")
        raise typer.Exit(130)


def _render_rule_effects(r: dict) -> str:
    from ..records.runner import games_won, interval, percent
    rows = r["rules"]
    deals = rows[0]["deals"] if rows else 0
    w = max([len("rule")] + [len(x["rule"]) for x in rows])
    lines = [f"ruleset   {r['ruleset']}   agent {r['agent']} (strategy {r['strategy']})",
             f"seed      {r['seed']}   " + (f"{rows[0]['games']} games per rule, the same "
                                           f"{deals} deal{'s' if deals != 1 else ''} for every "
                                           "rule" if rows else
                                           f"{r['games_per_rule']} games per rule asked: no rule "
                                           "was run"),
             "each rule: the full agent plays the agent with that rule off (rules:NAME=off), "
             "every deal once with the full agent on each side", "",
             f"{'rule':<{w}}  {'games':>6}  {'full':>5}  {'off':>5}  {'draws':>5}  "
             f"{'full wins':>9}   95% CI"]
    for x in rows:
        full = games_won(x["full_wins"], x["draws"])
        lines.append(f"{x['rule']:<{w}}  {x['games']:>6}  {x['full_wins']:>5}  {x['off_wins']:>5}"
                     f"  {x['draws']:>5}  {percent(full, x['games']):>9}   "
                     f"{interval(full, x['games'])}"
                     if x["ci"] else f"{x['rule']:<{w}}  no game finished")
    if not rows:
        lines.append("(the agent plays no rule that can be switched off)")
    if r["off_already"]:
        lines.append(f"(off already, not run: {', '.join(r['off_already'])})")
    if r["not_switchable"]:
        lines.append(f"(not a parameter of the rules agent, not run: "
                     f"{', '.join(r['not_switchable'])})")
    lines.append(f"(full wins: the full agent's share of the games, a draw counting half, with a "
                 f"95% Wilson interval; even is {rows[0]['even']:.1%}: above it the rule helps)"
                 if rows else "")
    return "\n".join(lines).rstrip()


def _split_vs(args: list[str]) -> tuple[list[str], list[str]]:
    if args.count("--vs") != 1:
        _usage(("compare needs --vs once" if "--vs" not in args else "--vs is given twice")
               + f": {COMPARE_USAGE}")
    i = args.index("--vs")
    return args[:i], args[i + 1:]


def _side_options(args: list[str], who: str) -> tuple[str | None, list[str]]:
    """A side's --agents and --option values from the words around --vs."""
    agents = None
    opts: list[str] = []
    i = 0
    while i < len(args):
        word = args[i]
        flag, eq, value = word.partition("=") if word.startswith("--") else (word, "", "")
        if flag in ("--agents", "--option", "-o"):
            if not eq:
                if i + 1 >= len(args):
                    _usage(f"{flag} needs a value ({who}'s options)")
                value = args[i + 1]
                i += 1
            if flag == "--agents":
                if agents is not None:
                    _usage(f"--agents is given twice for {who}")
                agents = value
            else:
                opts.append(value)
        else:
            _usage(f"unexpected '{word}' in {who}'s options: {COMPARE_USAGE}")
        i += 1
    return agents, opts


def _per_seat(names: list[str], game) -> list[str]:
    n = game.definition.seat_count
    return [names[s % len(names)] for s in range(n)]


def _render_compare(r: dict) -> str:
    from ..records.runner import games_won, interval, percent
    from ..report import NOT_CHOSEN, games_played, tie_note
    a, b = r["a"], r["b"]
    lines = [f"A         {a['ruleset']}   agents {_agents_line(a['agents'], a.get('seat_names'))}",
             f"B         {b['ruleset']}   agents {_agents_line(b['agents'], b.get('seat_names'))}",
             f"differ    {'; '.join(r['differences']) or 'nothing: A and B are the same'}",
             f"seed      {r['seed']}   deals {r['deals']}   {games_played(r)}",
             "dealing   every deal from the same seed for A and B; the first dealer rotates over "
             "the seats", ""]
    if r["mode"] == "match":
        res = r["result"]
        k = r["sides"]
        per = r["games"] // r["deals"] if r["deals"] else k  # more than k: agents moved round
        lines.append("A plays B: every deal twice, A and B in the same seats, then swapped"
                     if per == k == 2 else f"A plays B: every deal {k} times, A's agents on "
                     f"each side in turn and B's on the other {k - 1}" if per == k else
                     f"A plays B: every deal {per} times, A's agents on each side in turn and "
                     f"B's on the other{'s' if k > 2 else ''}, then again with the agents moved "
                     "round the sides, as they differ by side (so each side's agents of A hold "
                     "every side's hands)")
        score = games_won(res["a_wins"], res["draws"])
        lines.append(f"A wins {res['a_wins']}, B wins {res['b_wins']}, draws {res['draws']}; "
                     f"A's win rate {percent(score, r['games'])} (95% CI "
                     f"{interval(score, r['games'])}; even is {res['even']:.1%})" if res["ci"] else
                     "no game finished")
    else:
        lines.append("A and B each play the same deals; wins by side:")
        for k in ("A", "B"):
            w = r["wins_by_side"][k]
            named = r[k.lower()].get("side_names") or []
            lines.append(f"  {k}: " + ", ".join(f"{_named(named, s, 'side')} {v}"
                                                for s, v in w.items()))
        for k in ("A", "B"):
            tied = tie_note(sum(r["wins_by_side"][k].values()), r["games_by_config"][k], f"{k}'s")
            if tied:
                lines.append(f"  {tied}")
    lines.append("")
    # at one table A holds one side and B the others: with more than two, B's score is the
    # mean over the sides it held
    per = ("per side" if r["mode"] != "match" else "by its side" if r["sides"] == 2 else
           "per side it held")
    for k, st in (("A", r["a_stats"]), ("B", r["b_stats"])):
        m = st["make_rate"]
        chips = (f", won {st['chips_per_hand']:.3f} chips net per hand {per} (the match goes by "
                 "the chips)") if "chips_per_hand" in st and r["mode"] == "match" else ""
        scored = (f"{st['gained_per_hand']:.3f} per hand gained by the sides that scored above "
                  f"0, {st['lost_per_hand']:.3f} lost by the others" if "gained_per_hand" in st
                  else f"{st['scored_per_hand']:.3f} per hand {per}"
                  + (f" ({st['scored_per_hand_all_sides']:.3f} per hand, all sides together)"
                     if "scored_per_hand_all_sides" in st else ""))
        n = st["thrown_in"]  # as simulate's hands line says them
        thrown = (f"; {n} more deal{'s' if n != 1 else ''} thrown in (everybody passed);"
                  if n else ",")
        lines.append(f"{k}: {st['hands']} hands played{thrown} scored {scored}{chips}")
        if st.get("never_bid", {}).get("contracts"):
            lines.append(f"   {_never_bid_note(st['never_bid'], f'the seats of {k}')}")
        if not m["hands"]:
            lines.append("   no hands" if not st["hands"] else "   no hand won in an auction"
                         if st["make_rate_by_contract"] else
                         "   no auction: every hand is played without a bid")
            continue
        never = st.get("never_bid", {}).get("contracts", [])
        rows = [(f"contract {c}", v) for c, v in st["make_rate_by_contract"].items()]
        rows += list(st["make_rate_by_bid"].items()) + [("every bid", m)]
        w = max(18, *(len(label) for label, _ in rows))  # the longest label
        lines.append(f"   {'bid':<{w}} {'hands':>6} {'made':>6}   {'rate':>6}   {'95% CI':<16} "
                     f"{'set':>6}")
        for label, v in rows:
            lines.append(f"   {label:<{w}} {v['hands']:>6} {v['made']:>6}   "
                         f"{percent(v['made'], v['hands']):>6}   {_ci(v):<16} "
                         f"{percent(v['hands'] - v['made'], v['hands']):>6}"
                         + (f"   {NOT_CHOSEN}"
                            if label.startswith("contract ") and label[9:] in never else ""))
    lines.append("")
    lines.append(r["verdict"])
    return "\n".join(lines)


def _ci(v: dict) -> str:
    """A rate's 95% interval from its counts (records/runner.percent: rounded once)."""
    from ..records.runner import interval
    return interval(v["made"], v["hands"])


@app.command(cls=_Command)
def play(ruleset: Optional[str] = typer.Argument(None, help="Built-in name or .yaml path (with "
                                                             "--resume: the record's, if given)."),
         option: Optional[List[str]] = typer.Option(None, "--option", "-o", metavar="NAME=VALUE",
                                                    help="Set a ruleset option (repeatable)."),
         seat: Optional[str] = typer.Option(None, "--seat", metavar="NAME|NUMBER",
                                            help="Your seat, by name or by number from 0 "
                                                 "(default 0, the first)."),
         agents: Optional[str] = typer.Option(None, "--agents", metavar="AGENTS",
                                              help="The bots, as simulate takes them (your seat's "
                                                   "entry is ignored); default the ruleset's."),
         seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the deals (default: a "
                                                                 "new one, printed)."),
         record_file: Optional[Path] = typer.Option(None, "--record", metavar="FILE",
                                                    help="The record to write as you play: a file, "
                                                         "not - (default "
                                                         "RULESET-SEED.play.jsonl)."),
         resume: Optional[Path] = typer.Option(None, "--resume", metavar="FILE",
                                               help="Continue the game this record holds."),
         ) -> None:
    """Play a game at the terminal against bots.

    You see your pieces with the legal ones numbered, the trick or the layout, the score, bid
    and trump; answer with a number or a name (6-4, bid 31, pass), help or ? for the choices,
    quit to stop.

    The game is recorded as it goes (a compact record, as replay reads them),
    so Ctrl-C loses nothing: continue it with tablerules play --resume FILE.
    """
    import random as _random
    from ..play import PERSON, Session, read_record, written_by_play
    _not_stdout(record_file, "--record")
    steps = None
    if resume is not None:
        if not resume.is_file():  # the command line names no record: a usage error
            _usage(f"no record {resume} to resume")
        if str(resume).lower().endswith((".yaml", ".yml")):  # a ruleset where the game goes
            _err(f"{resume}: error: {resume} is a ruleset, not a saved game: `tablerules play "
                 f"{shlex.quote(str(resume))}` starts a game of it")
            raise typer.Exit(1)
        try:
            head, steps = read_record(str(resume))
        except TablerulesError as e:  # where in the record, as replay says it (exit 1)
            _record_failed(e)
        if ruleset is not None:
            named = _load(ruleset, option).definition.name
            if named != head["ruleset"]:
                _usage(f"{resume} is a game of {head['ruleset']}, not of {named}")
        from ..records.replay import header_game, replay as verify
        try:  # the header's game, checked as replay checks it (a record's error, exit 1)
            game = header_game(head, str(resume), 1, ruleset,
                               hint="name it: tablerules play RULESET --resume FILE")
            # the whole record verified as replay verifies it: a record damaged after play
            # wrote it (cut off, a line changed) is said as replay says it, not played from
            verify(str(resume), ruleset=ruleset, keep=0, text=False)
        except TablerulesError as e:
            _record_failed(e)
        names = head["agents"]
        if names.count(PERSON) != 1:  # a game a person played: one seat theirs, bots the rest
            _usage(f"{resume} is not a game one person played: its header names the agent "
                   f"{PERSON} on {names.count(PERSON)} seats, not one")
        you = names.index(PERSON)
        _as_recorded(resume, head, game, you, seed, seat, agents, option)
        seed = head["seed"]
        path = str(record_file or resume)
        from ..records.io import same_file
        if record_file is not None and record_file.is_file() and \
                same_file(record_file, [resume]) is None:  # never over another saved file
            what = "holds a game already" if written_by_play(str(record_file)) else \
                "is there already and is not a game play wrote"
            _usage(f"{record_file} {what}: give --record a new file, or leave it out to "
                   f"continue in {resume}")
    else:
        if ruleset is None:
            _usage("name a RULESET to play, or --resume FILE")
        if ruleset.lower().endswith((".jsonl", ".jsonl.gz")) and os.path.isfile(ruleset):
            q = shlex.quote(ruleset)  # a saved game where the ruleset goes: how to continue it
            _err(f"{ruleset}: error: {ruleset} is a game record, not a ruleset: `tablerules play "
                 f"--resume {q}` continues its game, `tablerules replay {q}` shows it")
            raise typer.Exit(1)
        game = _load(ruleset, option)
        gd = game.definition
        you = _seat_of(seat, gd)
        given = _bots_agents(agents, gd.seat_count, you) if agents is not None else None
        if given is not None and len(given) == 1:
            given = given * gd.seat_count
        names = _agents_for(game, given)
        names = [names[s % len(names)] for s in range(gd.seat_count)]
        _compiled_agents_ready(game, names, True)
        if seed is None:
            seed = _random.SystemRandom().randrange(10 ** 6)
            typer.echo(f"seed {seed}")
        path = str(record_file or f"{gd.name}-{seed}.play.jsonl")
        if os.path.isfile(path):  # a new game never writes over a saved one
            if not written_by_play(path):
                _usage(f"{path} is there already and is not a game play wrote: give "
                       "--record FILE for a new game")
            from ..records.replay import last_line
            end = last_line(path) or {}
            if end.get("type") == "end" and "stopped" not in end:  # played to its end
                _usage(f"{path} holds a finished game: replay it with tablerules replay "
                       f"{shlex.quote(path)}, or give --record FILE for a new one")
            _usage(f"{path} holds a game already: continue it with tablerules play --resume "
                   f"{shlex.quote(path)}, or give --record FILE for a new one")
    gd = game.definition
    session = Session(game, you, [n if n != PERSON else names[(you + 1) % len(names)]
                                  for n in names], seed, path, typer.echo,
                      colour=sys.stdout.isatty() and not os.environ.get("NO_COLOR"))
    if steps is not None and ruleset is None:  # the record's ruleset, named as it named it
        session.head["source"] = _resumed_source(head, game.ref, path)
    if steps is not None:
        try:
            session.resume(steps)
        except TablerulesError as e:
            _record_failed(e)
    try:  # written before the game: a record that cannot be is said now, as simulate says it
        session.save()
    except OSError as e:
        raise WriteError(path, e) from None  # one line, exit 1, as any failed write
    if steps is not None:
        typer.echo(f"resumed {path}: hand {session.st.hands_played + 1}")
    typer.echo(f"{gd.title}: you are {gd.seat_names[you]}; the others are "
               f"{', '.join(f'{gd.seat_names[s]} ({names[s]})' for s in range(gd.seat_count) if s != you)}")
    session.retell()  # a resumed game: the hand it stopped in, as it was played
    tty = sys.stdin.isatty()

    def ask(prompt: str):
        sys.stdout.write(prompt)
        sys.stdout.flush()
        if tty and os.name == "posix":
            # the line waited for in slices: a Ctrl-C just after the prompt, before a read began,
            # is handled by Python but interrupts no read, which then waited for the next key
            # (input() did); a slice's end lets the KeyboardInterrupt out
            while not select.select([sys.stdin], [], [], 0.1)[0]:
                pass
        line = sys.stdin.readline()  # a terminal gives one line a read, as the person typed it
        if not line and tty:  # Ctrl-D: the terminal echoed no line end; the prompt's line ends
            sys.stdout.write("\n")
        return line if line else None

    # the commands suggested run as printed: a path with a space is quoted for the shell
    saved = f"game saved to {path}; continue with: tablerules play --resume {shlex.quote(path)}"
    term = _terminate_as_interrupt()  # SIGTERM stops the game as Ctrl-C does (README: 130)
    try:
        how = session.run(ask)
    except KeyboardInterrupt:
        typer.echo(f"\n{saved}")
        raise typer.Exit(130)
    except TablerulesError as e:  # the game cannot go on (a match past bounds.max_hands, a
        # rule's error): said as simulate says it, and where the game so far is (on disk to its
        # last move); a resume would play into the same bound, so replay is what is offered
        _game_failed(game, e, then=f"the game so far is kept in {path}; replay it with: "
                                   f"tablerules replay {shlex.quote(path)}")
    except OSError as e:  # a record that could be written when the game began and now cannot
        if _echo_stream(e) is not None:
            raise
        raise WriteError(path, e) from None  # one line, exit 1, as any failed write
    finally:
        _restore_terminate(term)
    if how == "quit":
        typer.echo(saved)
        return
    typer.echo(f"record written to {path}; replay it with: tablerules replay "
               f"{shlex.quote(path)}")


def _bots_agents(text: str, seats: int, you: int) -> list[str]:
    """play's --agents, as `_agent_list` reads them, except that in a list of one per seat the
    person's own entry is not read (README: ignored), so a record header's own list, with
    `person` at that seat, is taken; a bot's entry at fault is shown where it is in the text."""
    parts = text.split(",")
    if len(parts) != seats or seats < 2:
        return _agent_list(text)
    from ..agents import AGENTS, AgentTextError
    from ..agents.base import parse_agent
    out: list[str | None] = []
    col = 1
    try:
        for s, part in enumerate(parts):
            out.append(None if s == you else parse_agent(part, AGENTS, whole=text, at=col).text)
            col += len(part) + 1
    except AgentTextError as e:
        _err(e.render())
        raise typer.Exit(2)
    bot = next(a for a in out if a is not None)  # the person's seat: never played by it
    return [a if a is not None else bot for a in out]


def _resumed_source(head: dict, ref: str, path: str) -> str:
    """The `source` of a resumed game's header: a ruleset file the record named from its own
    folder is still named from the folder of the record written (`path`), however the record
    was given (`ref`, where it was found, is from the working folder, or whole when the record
    was given whole); a built-in name or a whole path as the record has it."""
    from ..records.io import is_path_ref, source_for
    src = head["source"]
    if not is_path_ref(src) or os.path.isabs(src):
        return src
    try:
        return source_for(os.path.relpath(ref), path)
    except ValueError:  # no relative path from here to it (another drive)
        return src


def _as_recorded(resume: Path, head: dict, game, you: int, seed: int | None, seat: str | None,
                 agents: str | None, option: list[str] | None) -> None:
    """--resume plays the game its record holds: a --seed, --seat, --agents or --option given
    with it that is not the record's is a usage error (the record's own, given again, is
    fine), not left aside without a word."""
    gd = game.definition
    why = None
    if seed is not None and seed != head["seed"]:
        why = f"--seed {seed}: {resume} is the game of seed {head['seed']}"
    elif seat is not None and _seat_of(seat, gd) != you:
        why = f"--seat {seat}: in {resume} you are {gd.seat_names[you]}"
    elif agents is not None:
        from ..records.runner import seat_agents
        given = _bots_agents(agents, gd.seat_count, you)
        _check_agent_count(given, game)
        given = seat_agents(given, gd.seat_count)
        bots = [(gd.seat_names[s], head["agents"][s]) for s in range(gd.seat_count) if s != you]
        if any(given[s] != head["agents"][s] for s in range(gd.seat_count) if s != you):
            why = (f"--agents {agents}: the bots of {resume} are "
                   f"{', '.join(f'{n} {a}' for n, a in bots)}")
    if why is None and option:
        from ..definition import value_str as _value_str
        from ..interpreter.options import parse_cli_options
        chosen = _load(game.ref, option).definition.options  # a bad --option: as for a new game
        for name in parse_cli_options(option):
            if chosen.get(name) != head["options"].get(name):
                why = (f"--option {name}={_value_str(chosen.get(name))}: {resume} is a game "
                       f"with {name}={_value_str(head['options'].get(name))}")
                break
    if why is not None:
        _usage(f"{why}; --resume plays the game as its record has it (leave the option out)")


def _seat_of(text: str | None, gd) -> int:
    """--seat by name (any case) or number (0-based, as the records number seats)."""
    if text is None:
        return 0
    t = text.strip()
    if is_count(t) and int(t) < gd.seat_count:
        return int(t)
    for s, name in enumerate(gd.seat_names):
        if name.lower() == t.lower():
            return s
    near = did_you_mean(t.lower(), [n.lower() for n in gd.seat_names])
    near = next((n for n in gd.seat_names if n.lower() == near), None) if near else None
    _usage(f"no seat {text!r} in {gd.name}: the seats are "
           f"{', '.join(f'{s} {n}' for s, n in enumerate(gd.seat_names))}"
           + (f" (did you mean {near!r}?)" if near else ""))


@app.command(cls=_Command)
def replay(file: Path = typer.Argument(..., help="A JSON Lines record from `simulate --record` "
                                                 "(.jsonl or .jsonl.gz)."),
           game: Optional[int] = typer.Option(None, "--game", "-g", min=1,
                                              help="Show only this game (all are verified)."),
           ruleset: Optional[str] = typer.Option(None, "--ruleset",
                                                 help="Ruleset to replay with, if not the built-in "
                                                      "named in the header (e.g. a file path)."),
           quiet: bool = typer.Option(False, "--quiet", "-q", help="Verify only; print one line."),
           html: Optional[Path] = typer.Option(None, "--html", metavar="OUT",
                                               help="Write the games as one self-contained HTML "
                                                    "page to step through (the first 20 games, "
                                                    "or the --game); OUT ends in .html or "
                                                    ".htm."),
           ) -> None:
    """Re-execute a game record through the engine, verifying every line, and print the games.

    A record that does not match what the engine computes (an illegal play, a wrong trick winner,
    a changed score) is rejected with the line of the record and the reason; exit status 1.

    With --html OUT the verified games are written to OUT as a page (dominoes or cards drawn,
    marks as rings, every step with next/previous and a slider) instead of printed.
    """
    if str(file).lower().endswith((".yaml", ".yml")) and file.is_file():
        q = shlex.quote(str(file))  # a ruleset where the record goes: which commands take it
        _err(f"{file}: error: {file} is a ruleset, not a game record: `tablerules play {q}` or "
             f"`tablerules simulate {q} --record FILE` make one")
        raise typer.Exit(1)
    term = _terminate_as_interrupt()  # SIGTERM stops it as Ctrl-C does: `interrupted`, 130
    try:
        if html is not None:
            return _replay_html(file, html, game, ruleset)
        _replay_text(file, game, ruleset, quiet)
    finally:
        _restore_terminate(term)


def _replay_text(file: Path, game: Optional[int], ruleset: Optional[str], quiet: bool) -> None:
    """replay without --html: the games printed as they are verified (or -q's one line)."""
    from ..records.replay import NoSuchGame, last_line, replay as run
    # the games stream out as they are verified; whether the run was stopped is said before
    # them, so it is read first from the record's end line (checked when the replay gets there)
    end = {} if quiet else last_line(str(file)) or {}  # -q says it after the games
    said = False

    def start(rep) -> None:
        nonlocal said
        said = True
        head = rep.header
        shard = head.get("shard")
        typer.echo(f"{head['canonical']}  seed {head['seed']}  agents {', '.join(head['agents'])}"
                   + (f"  (shard {shard['k']}/{shard['n']}: games {shard['first']} to "
                      f"{shard['last']})" if shard else ""))
        if end.get("type") == "end" and end.get("stopped") not in (None, "fault"):
            n = end.get("games")
            typer.echo(f"(the record holds {n} games; the run was {end['stopped']} after {n} of "
                       f"its {rep.promised} games)")

    def show(rep, g) -> None:
        if not said:
            start(rep)
        typer.echo("\n".join(["", f"Game {g.number}", *g.text]))

    try:
        result = run(str(file), only_game=game, ruleset=ruleset, on_game=None if quiet else show,
                     keep=0, text=not quiet)
    except NoSuchGame as e:
        _no_such_game(file, e)
    except TablerulesError as e:
        for d in e.diagnostics:
            _err(_render_record_error(d))
        raise typer.Exit(1)
    stopped = _stopped(result.stopped, result.verified, result.promised)
    if quiet:
        typer.echo(f"{file}: ok ({plural(result.verified, 'game')} verified{stopped})")
    elif not said:
        start(result)


def _no_such_game(file: Path, e) -> None:
    """--game N past the games a record holds: the command line is at fault, not the record
    (it verified): a usage error, exit 2, that says what the record holds."""
    _usage(f"--game {e.number}: {file} {e.holds.removeprefix('it ')}")


def _stopped(stopped: str | None, verified: int, promised: int) -> str:
    """After "N games verified": that the run was stopped before all its games, if it was."""
    return (f"; the run was {stopped} after {verified} of its {promised} games" if stopped
            else "")


def _replay_html(file: Path, out: Path, game: Optional[int], ruleset: Optional[str]) -> None:
    """replay --html: verify the record, then write its page."""
    from ..records.replay import NoSuchGame
    from ..view import build_frames, write_html
    _not_read_and_written(out, [file], "--html")
    why = _unwritable(out)  # said now, not after every game of a big record was verified
    if why is not None:
        _err(f"error: cannot write {out}: {why}")
        raise typer.Exit(1)
    _html_named(out, "--html")
    try:
        data = build_frames(str(file), only_game=game, ruleset=ruleset)
    except NoSuchGame as e:
        _no_such_game(file, e)
    except TablerulesError as e:
        for d in e.diagnostics:
            _err(_render_record_error(d))
        raise typer.Exit(1)
    try:
        write_html(data, out)
    except OSError as e:
        _err(f"error: cannot write {out}: {e.strerror or e}")
        raise typer.Exit(1)
    meta = data["meta"]
    shown = [g["game"] for g in data["games"]]
    which = f"game {shown[0]}" if len(shown) == 1 else f"games {shown[0]} to {shown[-1]}"
    more = (f" (of {meta['games_in_record']}; at most {meta['max_games']} without --game)"
            if game is None and meta["games_in_record"] > len(shown) else "")
    steps = sum(len(g["frames"]) for g in data["games"])
    n = meta["games_in_record"]
    stopped = _stopped(meta["stopped"], n, meta["promised"])
    typer.echo(f"{file}: ok ({plural(n, 'game')} verified{stopped}); wrote {out}: "
               f"{which}{more}, {steps} steps")


def _record_failed(e: TablerulesError) -> None:
    """A record that cannot be read or played again: each diagnostic where it is in the file,
    with the line quoted when it has one, as replay says them; exit 1 (a record's error)."""
    for d in e.diagnostics:
        _err(_render_record_error(d) if d.span.line > 0 else f"error: {d.message}")
    raise typer.Exit(1)


def _render_record_error(d) -> str:
    """A record error with its line quoted, at most 200 characters of it around the column."""
    from ..records.io import UNREADABLE, open_bytes
    from ..records.replay import QUOTE
    head = render(d)
    line = d.span.line
    if line < 1:
        return head
    try:
        with open_bytes(d.span.file) as f:
            raw = next((x for i, x in enumerate(f, 1) if i == line), None)
    except UNREADABLE:
        return head
    if raw is None:
        return head
    text = raw.decode("utf-8", errors="replace").rstrip("\r\n").replace("\t", " ")
    col = max(d.span.col, 1)
    start = max(0, min(col - 1 - QUOTE // 2, len(text) - QUOTE)) if col > QUOTE else 0
    shown = text[start:start + QUOTE]
    pre = "..." if start else ""
    post = "..." if start + QUOTE < len(text) else ""
    return f"{head}\n    {pre}{shown}{post}\n    {' ' * (len(pre) + col - 1 - start)}^"


@app.command("batch", cls=_Command)
def batch_cmd(ruleset: str = typer.Argument(..., help="Built-in name or .yaml path."),
              hands: int = typer.Option(100_000, "--hands", "-n", min=1, help="Hands to play."),
              seed: int = typer.Option(0, "--seed", "-s", help="Master seed; same seed, same hands."),
              option: Optional[List[str]] = OptionArg,
              check: int = typer.Option(1000, "--check", min=0, metavar="K",
                                        help="Hands replayed through the step engine, spread over "
                                             "the run: it must agree on every decision and result "
                                             "(exit status 1 if not)."),
              threads: str = typer.Option("1", "--threads", "-t", metavar="N|auto",
                                          help="Threads to play the hands on (0 or auto: every "
                                               "core this process may use). The same hands as "
                                               "one."),
              progress: bool = typer.Option(True, "--progress/--no-progress",
                                            help="Progress bar on a terminal for runs over a "
                                                 "second (and a line while the kernel "
                                                 "compiles)."),
              agents: Optional[str] = typer.Option(
                  None, "--agents", "-a", help="Comma-separated agents, one for every seat or "
                  "one per seat: random (the default) or rules[:strategy=NAME...] (a strategy "
                  "file's rules, compiled too; a replay checks each of its choices)."),
              fmt: str = FormatArg) -> None:
    """Play many hands in compiled code (the batch engine) and report what was bid and made.

    Each seat plays random legal choices or the rules agent (--agents); the report names the
    agents, the contracts bid, how often each was made, and the points and scores per side.

    The batch engine compiles the ruleset to machine code with numba, an optional extra: pip
    install 'tablerules\\[fast]'. Each hand is dealt and played from the seed and its number
    alone, the dealer passing left hand by hand. A sample of the hands (--check) is replayed
    through the step engine, the one `simulate` plays, which must agree on every decision and
    on every result. A ruleset the batch engine has no form of yet (a counter-clockwise layout,
    say) is refused with the part that needs it; `simulate` plays every ruleset.
    """
    from ..batch.summary import Tally
    _check_format(fmt)
    n_threads = _workers(threads, "--threads", "threads")
    names = _agent_list(agents) if agents is not None else None
    game = _load(ruleset, option)
    gd = game.definition
    engine = _batch_engine(game, _batch_agents(game, names), "simulate plays it", "hands",
                           n_threads, progress)
    tally = Tally(gd)
    block = 50_000
    stride = max(1, hands // check) if check else 0
    bar = _Progress(hands, enabled=progress and sys.stderr.isatty(), unit="hands")
    started = time.perf_counter()
    from ..records.runner import signals_held
    interrupted = False
    term = _terminate_as_interrupt()
    try:
        for first in range(0, hands, block):
            n = min(block, hands - first)
            # the summary reads the hands' results only: their decisions are not kept, but the
            # sample's hands are played again with theirs (hand i is the same alone)
            played = engine.play(n, seed & 0x7FFF_FFFF_FFFF_FFFF, first=first, threads=n_threads,
                                 decisions=False)
            disagree = []
            sample = [i for i in range(n) if (first + i) % stride == 0][:check - tally.checked] \
                if stride else []
            for i in sample:
                again = engine.play(1, seed & 0x7FFF_FFFF_FFFF_FFFF, first=first + i)
                disagree += engine.verify(again, [0])
            with signals_held():  # a block is counted whole, its sample with it
                tally.add(played)
                tally.checked += len(sample)
                tally.disagree += disagree
            bar.update(first + n)
    except KeyboardInterrupt:  # the report of the blocks counted before it, then exit 130
        interrupted = True
    except TablerulesError as e:
        bar.close()
        _game_failed(game, e)
    finally:
        _restore_terminate(term)
    bar.close()
    elapsed = time.perf_counter() - started
    from ..agents import for_seats
    seated = for_seats(names, gd.seat_count, game.ref) if names else ["random"] * gd.seat_count
    result = {"ruleset": gd.canonical, "seed": seed, "agents": seated, **_names(gd),
              **tally.as_dict(elapsed)}
    result = _every_batch_contract(result, gd)
    if fmt == "json":
        typer.echo(json.dumps(result, indent=2))
    else:
        typer.echo(_render_batch(result))
        _err(f"{result['hands']} hands in {elapsed:.2f}s ({result['hands_per_second']:,.0f} "
             "hands/s)")
    if tally.disagree:
        raise typer.Exit(1)
    if interrupted:
        _err(f"interrupted after {tally.hands} of {hands} hands")
        raise typer.Exit(130)


def _every_batch_contract(result: dict, gd) -> dict:
    """A batch run's `result` with every contract a hand may be played in among its
    `contracts` (in the ruleset's order), 0 hands for one never played, and `never_bid` after
    them, as simulate lists them (_every_contract)."""
    from ..agents.rules import biddable
    every = set(biddable(gd))
    zero = {"hands": 0, "share": 0.0, "made": 0, "made_rate": None}
    out = {}
    for k, v in result.items():
        out[k] = v
        if k == "contracts":
            out[k] = {c.name: v.get(c.name, zero) for c in gd.contracts
                      if c.name in every or c.name in v}
            out["never_bid"] = _never_bid(gd, result["agents"])
    return out


def _plays_random(names: list[str] | None) -> bool:
    """Whether a seat bids at random: an agent text naming `random` (the texts were parsed
    before the run; None: the batch engine's random play on every seat)."""
    from ..agents import parse
    return names is None or any(parse(text).spec.name == "random" for text in names)


def _batch_agents(game, names: list[str] | None) -> list | None:
    """The batch engine's agents: None for random play, else one per seat (None: random, or a
    rules agent); another agent is a usage error."""
    if names is None:
        return None
    from ..agents import parse
    from ..records.batchrun import batch_agents
    _check_agent_count(names, game)
    for text in names:
        name = parse(text).spec.name
        if name not in ("random", "rules"):
            _usage(f"the batch engine plays the random and rules agents, not {name}")
    try:
        return batch_agents(game.definition, names)
    except TablerulesError as e:
        _fail(e)


def _render_batch(r: dict) -> str:
    from ..records.runner import percent
    from ..report import NOT_CHOSEN
    never = r["never_bid"]["contracts"]
    lines = [f"ruleset: {r['ruleset']}  seed {r['seed']}  "
             f"agents {_agents_line(r['agents'], r['seat_names'])}",
             f"hands: {r['hands']}  thrown in: {r['thrown_in']}  "
             f"decisions per hand: {r['decisions_per_hand']}"]
    if r["contracts"]:
        w = max(len(k) for k in r["contracts"])
        lines.append("contracts (share of hands played, made):")
        for name, c in r["contracts"].items():
            lines.append(f"  {name:<{w}}  {percent(c['hands'], r['hands'] - r['thrown_in']):>6}  "
                         f"made {percent(c['made'], c['hands']):>6}  ({c['made']} of {c['hands']})"
                         + (f"   {NOT_CHOSEN}" if name in never else ""))
    lines.append("points per hand, by side: " + ", ".join(str(x) for x in r["points_per_hand"]))
    lines.append("scored per hand, by side: " + ", ".join(str(x) for x in r["scored_per_hand"]))
    ch = r["checked"]
    if ch["hands"]:
        lines.append(f"checked: {ch['agree']} of {ch['hands']} hands replayed through the step "
                     "engine agree")
        lines += [f"  {d}" for d in ch["disagreements"]]
    return "\n".join(lines)


@app.command(cls=_Command)
def merge(out: Path = typer.Argument(..., help="The merged record to write (.jsonl, or "
                                               ".jsonl.gz; a file, not -)."),
          shards: List[str] = typer.Argument(..., help="The shard records of one run, any order."),
          ruleset: Optional[str] = typer.Option(None, "--ruleset",
                                                help="The run's ruleset, if not the built-in "
                                                     "named in the headers (e.g. a file path)."),
          fmt: str = FormatArg) -> None:
    """Merge the shard records of one run (`simulate --shard K/N -r ...`) into its record.

    Merge checks the shards' headers (one run: the same ruleset and its hash, options, agents,
    seats, seed, games and record format; each shard K of N naming the games it holds), that
    every shard is given once, and each shard's lines: record lines, its games numbered in
    order from its first to its last, and an end line saying it holds them all (not stopped).
    It copies the game lines as they are and does not play the games again: from the shards
    `simulate` wrote, OUT is byte for byte the record one `simulate` would have written, and
    `tablerules replay -q OUT` verifies its games (a changed game line merges, and replay
    refuses it). The summary printed is rebuilt from OUT's hand, match and decision lines, not
    added up from the shards' summaries (so shards are merged from their records). Exit status
    1 if the shards do not make one whole run; 2 if OUT is one of the shards (by any path to
    it: a link, another spelling), which it would overwrite.
    """
    from ..records.merge import MergeError, merge as run
    from ..records.replay import RecordError, shard_game
    _check_format(fmt)
    _not_stdout(out, "OUT")
    _not_read_and_written(out, shards, "OUT", "one of the shards")
    try:
        game = shard_game(shards[0], ruleset)
        gd = game.definition
        merged = run(str(out), list(shards),
                     first_dealer=gd.first_dealer if gd.first_dealer >= 0 else "lot")
    except MergeError as e:
        _err(f"error: {e.message}")
        raise typer.Exit(1)
    except RecordError as e:
        for d in e.diagnostics:
            _err(render(d))
        raise typer.Exit(1)
    result = {"ruleset": merged.header["canonical"], "seed": merged.header["seed"],
              "agents": merged.header.get("agents"), **_names(gd),
              **merged.summary.as_dict(), "record": str(out), "shards": merged.shards}
    result = _every_contract(result, game.definition)
    if "first_dealer" in merged.header:
        result["first_dealer_by"] = "--first-dealer"
    if fmt == "json":
        typer.echo(json.dumps(result, indent=2))
    else:
        typer.echo(_render_summary(result))
        _err(f"merged {merged.shards} shards: {merged.summary.games} games")


@app.command(cls=_Command)
def diff(ruleset_a: str = typer.Argument(..., help="Built-in name or .yaml path."),
         ruleset_b: str = typer.Argument(..., help="Built-in name or .yaml path."),
         option: Optional[List[str]] = OptionArg, fmt: str = FormatArg) -> None:
    """Show how two rulesets differ, option by option and part by part.

    --option values apply to both. Exit status 0 whether or not they differ.
    """
    from ..diffing import diff_games, render_diff
    _check_format(fmt)
    a = _load(ruleset_a, option, about=ruleset_a)  # the options apply to both: say which refused
    b = _load(ruleset_b, option, about=ruleset_b)
    d = diff_games(a, b)
    if fmt == "json":
        typer.echo(json.dumps(d.as_dict(), indent=2, default=str))
    else:
        typer.echo(render_diff(d))


class _Waiting:
    """A line on stderr while something slow is prepared (with `enabled`, at a terminal only):
    what it is, a spinner and the time gone; gone when it is done."""

    def __init__(self, text: str, enabled: bool):
        self.text = text
        self.bar = None
        if enabled and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
            self.bar = Progress(SpinnerColumn(), TextColumn("{task.description}"),
                                TimeElapsedColumn(), console=Console(stderr=True),
                                transient=True)

    def __enter__(self) -> "_Waiting":
        if self.bar is not None:
            self.bar.start()
            self.bar.add_task(self.text, total=None)
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()


class _Progress:
    """A rich progress bar on stderr, shown only once a run has taken more than a second."""

    def __init__(self, total: int, enabled: bool, unit: str = "games"):
        self.total = total
        self.enabled = enabled
        self.unit = unit
        self.start = time.perf_counter()
        self.bar = None
        self.task = None

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            if time.perf_counter() - self.start < 1.0:
                return
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn,
                                       TimeRemainingColumn)
            from rich.text import Text

            class Rate(ProgressColumn):
                """Games a second, over rich's recent window."""

                def render(self, task):
                    return Text(f"{task.speed:,.1f} {unit}/s" if task.speed else "")

            unit = self.unit
            self.bar = Progress(unit, BarColumn(), MofNCompleteColumn(), Rate(), "left",
                                TimeRemainingColumn(), console=Console(stderr=True),
                                transient=True)
            self.bar.start()
            self.task = self.bar.add_task("games", total=self.total)
        self.bar.update(self.task, completed=done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def _render_profile(p: dict, top: int = 25) -> str:
    """The rules that took the most time, own time first (a value's time is not its reader's)."""
    rows = p["rules"]
    lines = ["", f"profile: {p['in_rules_seconds']:.3f}s of {p['seconds']:.3f}s in the rules "
                 f"({p['in_rules_seconds'] / p['seconds'] if p['seconds'] else 0:.1%}); the rest "
                 "is the engine, the agents' own work and the record",
             "  share    seconds      calls   us/call  rule (where)"]
    for r in rows[:top]:
        text = " ".join(r["expression"].split())
        lines.append(f"{r['share']:>7.1%} {r['seconds']:>10.4f} {r['calls']:>10} "
                     f"{r['us_per_call']:>9.2f}  {r['rule']} ({r['at']})")
        lines.append(f"{'':>40}{text[:76] + ('...' if len(text) > 76 else '')}")
    if len(rows) > top:
        lines.append(f"... and {len(rows) - top} more rules (--format json lists them all)")
    return "\n".join(lines)


def _agents_line(agents: list[str], seats: list[str] | None = None) -> str:
    """The agents of a run as the report says them: one on every seat, or each seat's."""
    from ..report import agents_line
    return agents_line(agents, seats)


def _names(gd) -> dict:
    """What a summary calls the ruleset's sides and seats: the names replay gives them
    (North-South, North), by number in the JSON's keys."""
    from ..records.replay import side_name
    return {"side_names": [side_name(gd, s) for s in range(len(gd.sides))],
            "seat_names": list(gd.seat_names)}


def _named(names: list[str] | None, k, what: str) -> str:
    """Side or seat `k` by its name in `names` (as the HTML report says it)."""
    from ..report import named
    return named(names, k, what)


def _scored(r: dict) -> str:
    """What the hands scored: all sides together, or where a side can lose (a score below 0)
    what the sides above 0 gained and the others lost."""
    if "avg_gained_per_hand" not in r:
        return (f"{r['avg_scored_per_hand']:.3f} per hand played, all sides together; "
                f"{r['avg_scored_per_hand_per_side']:.3f} per hand per side")
    gained = r["avg_gained_per_hand"]
    return (f"{gained:.3f} per hand played gained by the sides that scored above 0, "
            f"{gained - r['avg_scored_per_hand']:.3f} lost by the others")


def _never_bid(gd, agents: list | None) -> dict:
    """The contracts no seat's agent chooses to bid, and the strategies of those seats
    (agents/rules.never_bid): a summary's `never_bid`."""
    from ..agents.rules import never_bid
    try:
        never, strategies = never_bid(gd, list(agents)) if agents else ([], [])
    except (TablerulesError, ValueError):  # a merged run's strategy file no longer there
        never, strategies = [], []
    return {"contracts": never, "strategies": strategies}


def _every_contract(result: dict, gd) -> dict:
    """`result` (a run's summary) with every contract a hand may be played in among its
    `contracts`, 0 when none was, and, after them, `never_bid` (_never_bid); with an auction,
    every contract that may be bid in `make_rate_by_contract` too, a row of 0 hands (its rate
    and interval null) for one never bid, as compare lists them."""
    from ..agents.rules import biddable
    from ..records.runner import rate
    out = {}
    for k, v in result.items():
        if k == "contracts":
            out[k] = {c: v.get(c, 0) for c in sorted({*biddable(gd), *v})}
            out["never_bid"] = _never_bid(gd, result.get("agents"))
        elif k == "make_rate_by_contract" and gd.auction.fixed_contract < 0:
            out[k] = {c: v.get(c) or rate(0, 0) for c in sorted({*biddable(gd), *v})}
        else:
            out[k] = v
    return out


def _never_bid_note(never: dict, seats: str) -> str:
    """The line under a contract table saying which contracts the agents of `seats` did not
    choose to bid in this run, and why (report.never_bid_note)."""
    from ..report import NOT_CHOSEN, never_bid_note
    return f"({NOT_CHOSEN}: {never_bid_note(never, seats)})"


def _render_summary(r: dict) -> str:
    from ..records.runner import percent
    from ..report import NOT_CHOSEN, dealer_line, tie_note
    thrown = (f"; {r['thrown_in']} more deal{'s' if r['thrown_in'] != 1 else ''} thrown in "
              "(everybody passed)") if r["thrown_in"] else ""
    fd = r.get("first_dealer", 0)
    sh = r.get("shard")
    agents = r.get("agents")  # a merged run's shards name theirs in their records
    seats, sides = r.get("seat_names"), r.get("side_names")
    lines = [f"ruleset   {r['ruleset']}   seed {r['seed']}",
             *([f"agents    {_agents_line(agents, seats)}"] if agents else []),
             f"games     {r['games']}" + (f"   (shard {sh['k']}/{sh['n']}: games {sh['first']} "
                                          f"to {sh['last']} of the run)" if sh else ""),
             f"dealer    {dealer_line(fd, seats, r.get('first_dealer_by'))}",
             f"hands     {r['hands']} played{thrown}",
             f"scored    {_scored(r)}", ""]
    never = r.get("never_bid") or {"contracts": [], "strategies": []}
    w = max(14, *(len(k) for k in r["contracts"])) if r["contracts"] else 14
    lines.append(f"{'contract':<{w + 2}}hands   share")
    for k, v in r["contracts"].items():
        lines.append(f"{k:<{w}} {v:>6}  {v / r['hands'] if r['hands'] else 0:>6.1%}"
                     + (f"   {NOT_CHOSEN}" if k in never["contracts"] else ""))
    if never["contracts"]:
        lines.append(_never_bid_note(never, "every seat"))
    lines.append("")
    if r["make_rate_by_bid"]:
        m = r["make_rate"]
        rows = [*r["make_rate_by_bid"].items(), ("every bid", m)]
        w = max(14, *(len(k) for k, _ in rows))  # the longest label, a forced bid's often
        lines.append(f"{'bid':<{w + 2}}hands    made   rate   95% CI             set")
        for k, v in rows:
            lines.append(f"{k:<{w}} {v['hands']:>6}  {v['made']:>6}  "
                         f"{percent(v['made'], v['hands']):>6}   {_ci(v):<16} "
                         f"{percent(v['hands'] - v['made'], v['hands']):>6}")
        lines.append(f"(set {percent(m['hands'] - m['made'], m['hands'])} of every bid; rates of "
                     "the hands won in the "
                     "auction, with 95% Wilson intervals)")
        if any(k.endswith(" (forced)") for k in r["make_rate_by_bid"]):
            lines.append("(forced: the bid of a seat that could not pass, auction.forced or "
                         "all_pass; not a choice, so not among the bids chosen)")
    else:
        lines.append("bids      none: every hand is played without an auction")
    lines.append("")
    w = max([5] + [len(_named(sides, k, "side")) for k in r["wins_by_side"]])
    lines.append(f"{'side':<{w}} {'wins':>5}  {'rate':>6}")
    for k, v in r["wins_by_side"].items():
        lines.append(f"{_named(sides, k, 'side'):<{w}} {v:>5}  {percent(v, r['games']):>6}")
    tied = tie_note(sum(r["wins_by_side"].values()), r["games"])
    if tied:
        lines.append(tied)
    if r.get("chips_by_seat"):
        lines.append("")
        w = max([5] + [len(_named(seats, k, "seat")) for k in r["chips_by_seat"]])
        lines.append(f"{'seat':<{w}} {'chips at the end: mean':>24} {'min':>8} {'max':>7} "
                     f"{'below 0':>9}")
        for k, v in r["chips_by_seat"].items():
            lines.append(f"{_named(seats, k, 'seat'):<{w}} {v['mean']:>24.2f} {v['min']:>8} "
                         f"{v['max']:>7} {v['below_zero']:>9}")
        lines.append(f"(chips paid {r['avg_chips_paid_per_hand']:.3f} per hand played, every "
                     "payment together; the winners of a match are the sides with the most chips)")
    if r.get("record"):
        lines.append("")
        lines.append(f"record written to {r['record']}")
    return "\n".join(lines)


def main() -> None:
    """Entry point: run the app; any user error not caught below still prints without a trace."""
    # tablerules does no linear algebra: numpy's BLAS gets no pool of threads (it would start
    # one when imported), so that a run with --workers may fork its workers
    # (records/parallel.py start_method); a value the user set stands
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        app()
    except TablerulesError as e:  # pragma: no cover - commands catch their own
        for d in e.diagnostics:
            _err(render(d))
        sys.exit(1)


if __name__ == "__main__":
    main()
