"""support.plain_python, the suite's runner of plain-Python kernels: each call is run as a `python`
of its own would run it (its output, exit code, folder, path, kernel cache and environment), in
one process per test worker that numba's NUMBA_DISABLE_JIT was set for."""

from __future__ import annotations

import subprocess
import sys

import pytest

from support import plain_python


def test_output_and_exit_code_are_the_calls(tmp_path):
    r = plain_python(["-c", "import sys\nprint('out')\nprint('err', file=sys.stderr)\n"
                            "sys.exit(3)"], tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (3, "out\n", "err\n")
    r = plain_python(["-c", "print('fine')"], tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, "fine\n", "")
    r = plain_python(["-c", "raise SystemExit('a message')"], tmp_path)
    assert (r.returncode, r.stderr) == (1, "a message\n")


def test_an_exception_is_a_traceback_and_exit_code_1(tmp_path):
    r = plain_python(["-c", "1 / 0"], tmp_path)
    assert r.returncode == 1
    assert "Traceback" in r.stderr and "ZeroDivisionError" in r.stderr


def test_kernels_run_as_plain_python_with_the_calls_cache(tmp_path):
    r = plain_python(["-c", "import numba\nfrom tablerules.batch import cache_dir\n"
                            "print(numba.config.DISABLE_JIT, cache_dir())"], tmp_path / "c")
    assert r.stdout.split() == ["1", str(tmp_path / "c" / "batch")], r.stderr


def test_a_script_runs_in_its_folder_with_its_arguments(tmp_path):
    (tmp_path / "script.py").write_text("import os, sys\nprint(os.getcwd(), sys.argv[1:])\n")
    r = plain_python(["script.py", "a", "b"], tmp_path, cwd=tmp_path)
    assert r.stdout == f"{tmp_path} ['a', 'b']\n", r.stderr


def test_nothing_a_call_imports_or_sets_is_left_for_the_next(tmp_path):
    for value in (1, 2):
        folder = tmp_path / str(value)
        folder.mkdir()
        (folder / "mod_of_a_call.py").write_text(f"VALUE = {value}\n")
        r = plain_python(["-c", "import os, mod_of_a_call\nprint(mod_of_a_call.VALUE, "
                                "os.environ.get('SET_BY_A_CALL'))\n"
                                "os.environ['SET_BY_A_CALL'] = 'yes'"], tmp_path,
                         path=(folder,))
        assert r.stdout == f"{value} None\n", r.stderr


def test_a_child_process_writes_into_the_calls_output(tmp_path):
    r = plain_python(["-c", "import subprocess, sys\n"
                            "subprocess.run([sys.executable, '-c', 'print(42)'])"], tmp_path)
    assert r.stdout == "42\n", r.stderr


def test_a_call_past_its_timeout_stops_and_the_next_runs(tmp_path):
    with pytest.raises(subprocess.TimeoutExpired):
        plain_python(["-c", "import time\ntime.sleep(30)"], tmp_path, timeout=0.5)
    r = plain_python(["-c", "import sys\nprint(sys.version_info[:2])"], tmp_path)
    assert r.stdout == f"{tuple(sys.version_info[:2])}\n", r.stderr
