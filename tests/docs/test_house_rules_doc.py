"""Every snippet of docs/house-rules.md runs, and the README's `tablerules` commands run.

docs/house-rules.md: "Every snippet on this page is run by the test suite: the YAML blocks are
written to files under the name in their first comment, and the commands are run in that folder."
A ```sh line is one `tablerules ...` command; a trailing `# exit N` comment is its expected exit
status (0 otherwise). The lines of a ```text block must appear in the output of the command just
before it.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tablerules.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
HOUSE_RULES = ROOT / "docs" / "house-rules.md"
README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w*)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
EXIT = re.compile(r"#\s*exit\s+(\d+)\s*$")


@dataclass
class Block:
    kind: str
    body: str
    line: int  # line of the opening fence in the document


@dataclass
class Command:
    doc: str
    line: int  # line in the document
    text: str
    argv: list[str]
    expect: int
    result: object = None
    output: str = ""
    texts: list = field(default_factory=list)  # ```text blocks that follow it


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    return [Block(m[1], m[2], text.count("\n", 0, m.start()) + 1) for m in FENCE.finditer(text)]


def command(doc: str, line_no: int, line: str) -> Command | None:
    line = line.strip()
    if not line.startswith("tablerules "):
        return None
    m = EXIT.search(line)
    expect = int(m[1]) if m else 0
    argv = shlex.split(line, comments=True)
    assert argv[0] == "tablerules"
    return Command(doc, line_no, line, argv[1:], expect)


def run(cmd: Command) -> None:
    r = CliRunner().invoke(app, cmd.argv)
    cmd.result = r
    cmd.output = r.output


def yaml_name(body: str) -> str | None:
    first = body.splitlines()[0] if body.strip() else ""
    m = re.match(r"#\s*file:\s*(\S+)\s*$", first)
    return m[1] if m else None


def house_rules_plan() -> list[tuple[str, object]]:
    """The page in order: ('file', (name, body)) for YAML, ('cmd', Command), ('text', Block)."""
    plan = []
    for b in blocks(HOUSE_RULES):
        if b.kind == "yaml":
            name = yaml_name(b.body)
            assert name, f"house-rules.md:{b.line}: a yaml block without '# file: NAME'"
            plan.append(("file", (name, b.body)))
        elif b.kind == "sh":
            for i, line in enumerate(b.body.splitlines(), 1):
                if not line.strip():
                    continue
                cmd = command("house-rules.md", b.line + i, line)
                assert cmd, f"house-rules.md:{b.line + i}: not a tablerules command: {line}"
                plan.append(("cmd", cmd))
        elif b.kind == "text":
            plan.append(("text", b))
    return plan


PLAN = house_rules_plan()
COMMANDS = [c for kind, c in PLAN if kind == "cmd"]
TEXTS = [(i, b) for i, (kind, b) in enumerate(PLAN) if kind == "text"]


@pytest.fixture(scope="module")
def house_rules_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("house-rules")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        last = None
        for kind, item in PLAN:
            if kind == "file":
                name, body = item
                (folder / name).write_text(body, encoding="utf-8")
            elif kind == "cmd":
                run(item)
                last = item
            else:
                assert last is not None, "a text block before any command"
                last.texts.append(item)
    return folder


def test_the_page_has_snippets_of_every_kind():
    kinds = [k for k, _ in PLAN]
    assert kinds.count("file") >= 3 and kinds.count("cmd") >= 8 and kinds.count("text") >= 1


@pytest.mark.parametrize("cmd", COMMANDS, ids=lambda c: f"line{c.line}:{' '.join(c.argv[:2])}")
def test_house_rules_command(cmd, house_rules_run):
    r = cmd.result
    assert r is not None
    assert "Traceback" not in r.output, r.output
    if r.exception is not None:
        assert isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.exit_code == cmd.expect, (
        f"house-rules.md:{cmd.line}: `{cmd.text}` exited {r.exit_code}, expected {cmd.expect}\n"
        f"{r.output}")


@pytest.mark.parametrize("index, block", TEXTS, ids=lambda x: str(x) if isinstance(x, int) else "text")
def test_house_rules_printed_text(index, block, house_rules_run):
    cmd = next(item for kind, item in reversed(PLAN[:index]) if kind == "cmd")
    expected = [x.rstrip() for x in block.body.splitlines() if x.strip()]
    got = [x.rstrip() for x in cmd.output.splitlines()]
    missing = [x for x in expected if x not in got]
    assert not missing, (f"house-rules.md:{block.line}: lines not printed by `{cmd.text}`:\n"
                         + "\n".join(missing) + "\n--- output:\n" + cmd.output)
    # and in the order the page shows them, one after the other
    first = got.index(expected[0])
    assert got[first:first + len(expected)] == expected, cmd.output


def test_the_yaml_files_are_the_ones_the_commands_use(house_rules_run):
    names = {item[0] for kind, item in PLAN if kind == "file"}
    # a file given as an agent's parameter (rules:strategy=bold.yaml) by its name
    used = {a.rsplit("=", 1)[-1] for c in COMMANDS for a in c.argv if a.endswith(".yaml")}
    assert used <= names | {"rulesets/texas42.yaml"}, used - names


# -- README --------------------------------------------------------------------------------------


def readme_commands() -> list[Command]:
    out = []
    for b in blocks(README):
        if b.kind not in ("sh", "yaml"):
            continue
        for i, line in enumerate(b.body.splitlines(), 1):
            s = line.strip()
            if s.startswith(("pip ", "python -m pip")):
                continue  # installs are not run here
            cmd = command("README.md", b.line + i, line)
            if cmd:
                out.append(cmd)
    return out


README_COMMANDS = readme_commands()


@pytest.fixture(scope="module")
def readme_folder(tmp_path_factory):
    """A folder with the README's house-rules YAML under its name and the checkout's rulesets.

    `my-house.yaml` in the command list stands for the reader's own house file; the README's
    own house-rules example plays that part.
    """
    folder = tmp_path_factory.mktemp("readme")
    (folder / "rulesets").symlink_to(ROOT / "rulesets", target_is_directory=True)
    for b in blocks(README):
        if b.kind == "yaml":
            name = yaml_name(b.body) or (re.search(r"^name:\s*(\S+)", b.body, re.M)[1] + ".yaml")
            (folder / name).write_text(b.body, encoding="utf-8")
            if not (folder / "my-house.yaml").exists():
                (folder / "my-house.yaml").write_text(b.body, encoding="utf-8")
    return folder


def test_the_readme_has_commands():
    verbs = {c.argv[0] for c in README_COMMANDS}
    assert {"list", "show", "validate", "simulate"} <= verbs


def test_readme_commands_run_in_order(readme_folder, monkeypatch):
    """One test, in the README's order: a later command reads what an earlier one wrote (replay
    reads simulate's record), so they must not be spread over parallel workers."""
    monkeypatch.chdir(readme_folder)
    for cmd in README_COMMANDS:
        run(cmd)
        r = cmd.result
        assert "Traceback" not in r.output, r.output
        if r.exception is not None:
            assert isinstance(r.exception, SystemExit), repr(r.exception)
        assert r.exit_code == cmd.expect, (f"README.md:{cmd.line}: `{cmd.text}` exited "
                                           f"{r.exit_code}\n{r.output}")


def test_the_readme_python_blocks_run():
    """Every ```python block of the README runs as written against the package."""
    code = [b for b in blocks(README) if b.kind == "python"]
    assert code
    for b in code:
        exec(compile(b.body, f"README.md:{b.line}", "exec"), {})  # our own docs, not user text


def test_the_engine_notes_list_every_agent():
    """docs/engine.md's agent table names each agent the command line accepts, with its help."""
    from tablerules.agents import AGENT_HELP
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    table = text.split("## Agents", 1)[1].split("## Records", 1)[0]
    rows = {m[0]: m[1] for m in re.findall(r"^\| `(\w+)` \| (.+?) \|$", table, re.M)}
    assert rows == AGENT_HELP
