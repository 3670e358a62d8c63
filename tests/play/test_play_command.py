"""`tablerules play` driven as a person would: the real command in a pseudo-terminal (pexpect),
answering with the first legal choice, once with an illegal piece and its explanation."""

from __future__ import annotations

import os
import re
import sys

import pexpect

from support import cli, default_sigint, pythonpath


def spawn(*args: str, colour: bool = False) -> pexpect.spawn:
    env = dict(os.environ, PYTHONPATH=pythonpath(), COLUMNS="200")
    env.pop("NO_COLOR", None)
    if not colour:
        env["NO_COLOR"] = "1"
    return pexpect.spawn(sys.executable, ["-m", "tablerules", "play", *args], env=env,
                         encoding="utf-8", timeout=30, dimensions=(50, 200),
                         preexec_fn=default_sigint)


def play_out(child, *, stop_after_hand: bool = False, limit: int = 400) -> list[str]:
    """Answer 1 at every turn; the first time a piece is bracketed (not legal) in play, try it
    first and check the refusal; returns the refusals seen."""
    refused = []
    for _ in range(limit):  # bounded: a hand is far fewer turns
        # the line end after "hand over" is left in the buffer: the prompt after it is
        # matched by its "\n> " (a match up to "\r\n" once left the next expect "> " alone
        # in the buffer, and it waited out its timeout)
        i = child.expect([r"\n> ", "record written to", "game saved to",
                          r"hand over[^\r\n]*", pexpect.EOF])
        if i == 3:
            if stop_after_hand:
                child.expect(r"\n> ")
                child.sendline("quit")
                child.expect("game saved to")
                return refused
            continue
        if i != 0:
            return refused
        screen = child.before
        m = re.search(r"your pieces: (.*)", screen)
        bad = re.findall(r"\[(\d+-\d+)[^\]]*\]", m.group(1)) if m else []
        if bad and not refused and re.search(r"\d+\) \d+-\d+", m.group(1)):
            child.sendline(bad[0])
            child.expect(r"not allowed: (.*)\r\n")
            refused.append(child.match.group(1))
            child.expect(r"> ")
        child.sendline("1")
    raise AssertionError("the game did not end")


def test_a_full_texas42_hand_with_a_refused_move(tmp_path):
    rec = tmp_path / "game.jsonl"
    child = spawn("texas42", "-o", "marks_to_win=1", "--seed", "3", "--seat", "South",
                  "--record", str(rec))
    child.expect("you are South")
    refused = play_out(child)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert refused and re.match(r"(you must follow \w+: you hold the \d-\d|you must play )",
                                refused[0]), refused
    res = cli("replay", "-q", str(rec))
    assert res.exit_code == 0, res.output
    assert "1 game verified" in res.output


def test_a_full_allfives_hand_with_a_refused_move(tmp_path):
    rec = tmp_path / "fives.jsonl"
    child = spawn("allfives", "--seed", "4", "--record", str(rec))
    child.expect("you are North")
    refused = play_out(child, stop_after_hand=True)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert refused and ("matches no open end" in refused[0] or "does not match" in refused[0]), \
        refused
    res = cli("replay", "-q", str(rec))  # the hand after it was under way: a partial line
    assert res.exit_code == 0, res.output


def test_ctrl_c_saves_and_resume_continues(tmp_path):
    rec = tmp_path / "cut.jsonl"
    child = spawn("texas42", "-o", "marks_to_win=1", "--seed", "3", "--seat", "2",
                  "--record", str(rec), colour=True)
    for _ in range(3):
        child.expect(r"\n> ")
        child.sendline("1")
    child.expect(r"\n> ")
    assert "\x1b[1m" in child.before or "\x1b[2m" in child.before  # bold and dim on a terminal
    child.sendintr()
    child.expect(f"game saved to {rec}; continue with: tablerules play --resume {rec}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert cli("replay", "-q", str(rec)).exit_code == 0
    child = spawn("--resume", str(rec))
    child.expect("resumed")
    play_out(child)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    res = cli("replay", "-q", str(rec))
    assert res.exit_code == 0 and "1 game verified" in res.output, res.output


def test_a_record_that_can_no_longer_be_written_is_a_failed_write(tmp_path):
    """The record's folder removed during the game: the next move's record cannot be written,
    README's one line for a failed write, exit 1 (it was another wording, exit 2)."""
    import shutil

    folder = tmp_path / "games"
    folder.mkdir()
    rec = folder / "t.jsonl"
    child = spawn("allfives", "--seed", "1", "--record", str(rec))
    child.expect(r"\n> ")
    assert rec.is_file()
    shutil.rmtree(folder)
    child.sendline("1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1, child.before
    assert child.before.strip().splitlines()[-1] == \
        f"error: cannot write {rec}: No such file or directory"


def test_sigterm_stops_the_game_as_ctrl_c_does(tmp_path):
    """SIGTERM (a `kill`, a session ended) killed play without a word, exit by the signal;
    README's 130 for Ctrl-C or SIGTERM holds: the game saved line, exit 130, and the record
    resumes."""
    import signal

    rec = tmp_path / "term.jsonl"
    child = spawn("texas42", "--seed", "11", "--record", str(rec))
    child.expect(r"\n> ")
    child.kill(signal.SIGTERM)
    child.expect(f"game saved to {rec}; continue with: tablerules play --resume {rec}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130, (child.exitstatus, child.signalstatus)
    assert cli("replay", "-q", str(rec)).exit_code == 0


def test_ctrl_d_at_the_prompt_ends_the_line_before_saying_the_game_is_saved(tmp_path):
    """Ctrl-D (the end of the input) at a terminal quits with the record kept; the terminal
    echoes no line end for it, so the line was `> game saved to ...` on the prompt's line; the
    prompt's line is ended first, as a shell does."""
    rec = tmp_path / "eof.jsonl"
    child = spawn("moon", "--seed", "4", "--record", str(rec))
    child.expect(r"\n> ")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    # what follows the prompt "> ": a line end, then the line
    assert child.before == (f"\r\ngame saved to {rec}; continue with: tablerules play "
                            f"--resume {rec}\r\n"), repr(child.before)
