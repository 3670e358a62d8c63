"""Two option sets of one ruleset on the batch engine (compare --engine batch, mode separate):
match d of each is dealt the same hands, --check replays as many matches as asked, and the
comparison counts what it played.

The second option set (min_bid=31) is its own kernel, which would be a fifth trick kernel compiled
by the suite (Texas 42's is compiled by test_batch_matches.py and the others): both run here as
plain Python (numba's NUMBA_DISABLE_JIT, in the test worker's plain-Python process,
support.plain_python), the same generated source with no compiling. The counts are the compiled
kernels' too: the snapshot was taken from them."""

from __future__ import annotations

import json

import pytest

from support import plain_python

numba = pytest.importorskip("numba")

CHECKS = [(100, 30), (7, 3), (5, 10)]
SCRIPT = """
import json, sys
from typer.testing import CliRunner
from tablerules.batch import compile_batch
from tablerules.cli.main import app
from tablerules.game import load_game

out = {}
a = compile_batch(load_game("texas42", typed=True).definition)
b = compile_batch(load_game("texas42", {"min_bid": 31}, typed=True).definition)
(ba,) = list(a.matches(60, 3, first_dealer="rotate"))
(bb,) = list(b.matches(60, 3, first_dealer="rotate"))
deals, dealers = True, True
for m in range(60):
    ra, rb = ba.rows(m), bb.rows(m)
    k = min(len(ra), len(rb))
    deals = deals and bool((ba.hands.deals[ra[:k]] == bb.hands.deals[rb[:k]]).all())
    dealers = dealers and int(ba.hands.dealers[ra[0]]) == int(bb.hands.dealers[rb[0]]) == m % 4
out["dealt"] = {"same deals": deals, "dealer by match": dealers,
                "played otherwise": bool((ba.hands.actions[:50] != bb.hands.actions[:50]).any())}


def run(*args):
    r = CliRunner().invoke(app, ["compare", "texas42", "--agents", "random", "--vs", "-o",
                                 "min_bid=31", "--engine", "batch", "--no-progress", "--format",
                                 "json", *args])
    return {"code": r.exit_code, "stdout": r.stdout, "stderr": r.stderr}


out["compare"] = run("-n", "300", "--check", "10")
# on two workers, forked from this process: each side's kernel in each, the same comparison
out["workers"] = [run("-n", "40", "--check", "3", *w) for w in ((), ("--workers", "2"))]
# on a Dask cluster (in this process, two threads): the parts shipped as sources, the same
try:
    import distributed
except ImportError:  # the cluster extra: the test skips
    distributed = None
if distributed is not None:
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as c:
        out["cluster"] = run("-n", "40", "--check", "3", "--cluster", c.scheduler_address)

# three deals are too few for most matches of 7 marks: a match that does not end stops a run
# on workers with the rule that did not end it, as it stops one process (a kernel of its own:
# here, as plain Python)
import os
short = os.path.join(SHORT_DIR, "short.yaml")  # the test's own folder, which pytest removes
with open(short, "w", encoding="utf-8") as f:
    f.write("extends: texas42\\nbounds: {max_hands: 3}\\n")
fault = []
for w in ((), ("--workers", "2")):
    r = CliRunner().invoke(app, ["simulate", short, "--engine", "batch", "-n", "60",
                                 "--no-progress", *w])
    fault.append({"code": r.exit_code, "stderr": r.stderr})
out["fault"] = fault
out["checks"] = {f"{g}/{c}": run("-n", str(g), "--check", str(c)) for g, c in CHECKS}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    short_dir = str(tmp_path_factory.mktemp("short"))
    r = plain_python(["-c", f"CHECKS = {CHECKS!r}\nSHORT_DIR = {short_dir!r}\n" + SCRIPT],
                     tmp_path_factory.mktemp("cache"),
                     timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def test_two_rulesets_are_dealt_the_same_hands(plain):
    """A match's deals have a generator of their own: another option set plays them otherwise
    but is dealt the same hands, match d first by seat d mod seats."""
    assert plain["dealt"] == {"same deals": True, "dealer by match": True,
                              "played otherwise": True}


@pytest.mark.parametrize("games, check", CHECKS)
def test_compare_on_the_batch_engine_checks_as_many_matches_as_asked(plain, games, check):
    """--check K replays K matches of each side (all of them when there are fewer), never more:
    100 matches with --check 30 once replayed 34 of each."""
    r = plain["checks"][f"{games}/{check}"]
    assert r["code"] == 0, r["stderr"]
    want = 2 * min(check, games)
    assert json.loads(r["stdout"])["checked"] == {"games": want, "agree": want,
                                                  "disagreements": []}


def test_cli_compare_two_option_sets_on_the_batch_engine(plain, snapshot):
    r = plain["compare"]
    assert r["code"] == 0, r["stderr"]
    j = json.loads(r["stdout"])
    assert j["engine"] == "batch" and j["mode"] == "separate" and j["deals"] == 300
    assert j["games_by_config"] == {"A": 300, "B": 300}
    assert j["checked"] == {"games": 20, "agree": 20, "disagreements": []}
    assert j["differences"] == ["option min_bid: 30 vs 31"]
    # what was counted: each side's tallies, its wins, the verdict
    assert {k: j[k] for k in ("a_stats", "b_stats", "wins_by_side", "verdict")} == snapshot


def test_compare_two_option_sets_on_the_batch_engine_with_workers_is_one_process(plain):
    one, two = plain["workers"]
    assert one["code"] == two["code"] == 0, two["stderr"]
    assert json.loads(two["stdout"]) == json.loads(one["stdout"])
    assert json.loads(two["stdout"])["checked"]["agree"] == 6


def test_compare_two_option_sets_on_the_batch_engine_on_a_cluster_is_one_process(plain):
    if "cluster" not in plain:
        pytest.skip("the cluster extra (dask distributed) is not installed")
    one, dask = plain["workers"][0], plain["cluster"]
    assert dask["code"] == 0, dask["stderr"]
    assert json.loads(dask["stdout"]) == json.loads(one["stdout"])


def test_a_fault_of_the_batch_engine_on_workers_is_the_fault_of_one_process(plain):
    one, two = plain["fault"]
    assert one["code"] == two["code"] == 1
    assert two["stderr"] == one["stderr"] and "within bounds.max_hands deals" in two["stderr"]
