"""`simulate --report`, `compare --report` and `compare --each-rule-off`: the HTML is written,
self-contained and deterministic; without matplotlib a one-line error."""

from __future__ import annotations

import json
import re
import sys

import pytest

from tablerules.game import load_game
from tablerules.records.runner import new_summary, play_games, fold

from support import cli

SIM = ("simulate", "texas42", "-n", "3", "--seed", "4", "--no-progress", "--format", "json")
CMP = ("compare", "texas42", "--vs", "--agents", "random", "-n", "4", "--no-progress")
SEP = ("compare", "texas42", "--vs", "-o", "marks_to_win=3", "-n", "2", "--no-progress")
OFF = ("compare", "allfives", "--each-rule-off", "-n", "2", "--no-progress")


def _report(tmp_path, args, name="r.html"):
    path = tmp_path / name
    r = cli(*args, "--report", str(path))
    assert r.exit_code == 0, r.stderr
    assert f"report written to {path}" in r.stderr
    return path.read_text(encoding="utf-8"), r


@pytest.mark.parametrize("args", [SIM, CMP, SEP, OFF], ids=["simulate", "match", "separate",
                                                            "each-rule-off"])
def test_the_report_is_one_offline_file_and_the_same_bytes_each_run(tmp_path, args):
    html, r = _report(tmp_path, args)
    again, _ = _report(tmp_path, args, "again.html")
    assert html == again  # no dates, no random ids
    assert html.startswith("<!DOCTYPE html>") and html.count("<svg") >= 1
    assert not re.search(r"https?:|<link|<script|<img|@import|url\((?!#)", html, re.I), \
        "the report fetches nothing"
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids))  # several charts on one page: no id twice
    assert cli(*args).stdout == r.stdout  # what is printed does not change with --report


def test_a_compare_report_of_a_game_in_chips_gives_what_the_sides_gained(tmp_path):
    # Taroky's sides settle in chips: A's and B's sides together score 0 a hand, and the
    # report's table gave only that; it gives what the sides above 0 gained, as the text does
    html, r = _report(tmp_path, ("compare", "taroky", "--vs", "-o", "counting=czech", "-n", "2",
                                 "--no-progress"))
    d = json.loads(cli("compare", "taroky", "--vs", "-o", "counting=czech", "-n", "2",
                       "--no-progress", "--format", "json").stdout)
    assert ">gained per hand (the sides above 0)</th>" in html
    for k in ("a", "b"):
        assert f'<td class="gained">{d[k + "_stats"]["gained_per_hand"]:.3f}</td>' in html


def test_the_summary_counts_what_the_report_draws():
    game = load_game("texas42", {})
    s = new_summary(game)
    for p in play_games(game, ["random"], 1, 0, 3, None):
        fold(s, p)
    d = s.distributions()
    assert sum(d["deals_per_match"].values()) == s.games == 3
    assert sum(k * v for k, v in d["deals_per_match"].items()) == s.hands + s.thrown_in
    assert sum(d["scored_by_a_side_per_hand"].values()) == 2 * s.hands
    assert sum(k * v for k, v in d["scored_by_a_side_per_hand"].items()) == s.scored_total
    assert sum(d["points_of_the_bidding_side"].values()) == s.hands
    assert all(0 <= k <= 42 for k in d["points_of_the_bidding_side"])
    assert "points_of_the_bidding_side" not in s.as_dict()


def test_without_matplotlib_report_is_one_line_and_exit_2(tmp_path, monkeypatch):
    for m in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, m)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` fails
    for args in (SIM, CMP, OFF):
        path = tmp_path / "r.html"
        r = cli(*args, "--report", str(path))
        assert r.exit_code == 2
        assert r.stderr == "error: --report needs matplotlib: pip install 'tablerules[report]'\n"
        assert r.stdout == "" and not path.exists()  # before any game is played
    assert cli(*SIM).exit_code == 0  # without --report nothing needs it


@pytest.mark.parametrize("args", [("simulate", "allfives", "-n", "1"),
                                  ("compare", "allfives", "--vs", "-o", "target=150", "-n", "1"),
                                  ("compare", "allfives", "--each-rule-off", "-n", "1")])
def test_a_report_that_cannot_be_written_is_one_line_before_any_game(tmp_path, args):
    """A report in a folder that is not there, or a folder: said before the run (it was said
    after every game had been played), exit 2, nothing else printed."""
    nowhere = tmp_path / "no" / "such" / "r.html"
    dangling = tmp_path / "dangling.html"  # a link is written through: its target counts
    dangling.symlink_to(nowhere)
    loop = tmp_path / "loop.html"
    loop.symlink_to(loop)
    for where, why in [(nowhere, f"there is no folder {tmp_path}/no/such"),
                       (tmp_path, "it is a folder"),
                       (dangling, f"there is no folder {tmp_path}/no/such (it is a link to "
                                  f"{nowhere})"),
                       (loop, "it is a link that leads back to itself")]:
        r = cli(*args, "--report", str(where))
        assert r.exit_code == 2, r.output
        assert r.stdout == ""
        assert r.stderr == f"error: --report {where}: cannot write it: {why}\n", r.stderr


@pytest.mark.parametrize("args", [("simulate", "allfives", "-n", "1"),
                                  ("compare", "allfives", "--vs", "-o", "target=150", "-n", "1"),
                                  ("compare", "allfives", "--each-rule-off", "-n", "1")])
def test_a_report_not_named_as_a_page_is_refused_before_any_game(tmp_path, args):
    """`--report x.jsonl` wrote an HTML page into a file named as a record: a name that does
    not end in .html or .htm is a usage error, exit 2, before the run; either ending is taken."""
    for name in ("x.jsonl", "report", "x.html.gz"):
        where = tmp_path / name
        r = cli(*args, "--report", str(where))
        assert r.exit_code == 2 and r.stdout == "", r.output
        assert r.stderr == (f"error: --report {where} writes an HTML page: give a name ending in "
                            ".html or .htm\n"), r.stderr
        assert not where.exists()
    for name in ("R.HTML", "r.htm"):
        r = cli(*args, "--report", str(tmp_path / name))
        assert r.exit_code == 0 and (tmp_path / name).exists(), r.output


def test_each_rule_off_table(snapshot):
    r = cli(*OFF)
    assert r.exit_code == 0, r.stderr
    assert r.stdout == snapshot
    d = json.loads(cli(*OFF, "--format", "json").stdout)
    assert [x["rule"] for x in d["rules"]] == [
        line.split()[0] for line in r.stdout.splitlines()[5:5 + len(d["rules"])]]
    assert all(x["games"] == 2 and x["off"] == f"rules:{x['rule']}=off" for x in d["rules"])


def test_each_rule_off_plays_every_rule_on_the_same_deals(monkeypatch):
    from tablerules.records import compare as cmp
    seen = []
    real = cmp.play_game

    def spy(game, agents, seed, index, **kw):
        seen.append((agents[0], agents[1], seed, index))
        return real(game, agents, seed, index, **kw)

    monkeypatch.setattr(cmp, "play_game", spy)
    res = cmp.each_rule_off(load_game("allfives", {}), "rules", games=2, seed=3)
    rules = [rule for rule, _c in res.runs]
    assert rules and not res.off
    for rule in rules:
        mine = [(s, i) for a, b, s, i in seen if f"{rule}=off" in a + b]
        assert mine == [(3, 0), (3, 0)]  # deal 0 of seed 3, once per side
    seated = {(a, b) for a, b, _s, _i in seen}
    assert ("rules", "rules:claim_count=off") in seated and ("rules:claim_count=off", "rules") \
        in seated


def test_each_rule_off_usage_errors():
    r = cli("compare", "allfives", "--each-rule-off", "--vs", "--agents", "random")
    assert r.exit_code == 2 and "leave out --vs" in r.stderr
    r = cli("compare", "allfives", "--each-rule-off", "--agents", "random", "-n", "2")
    assert r.exit_code == 2 and "give --agents one rules agent" in r.stderr
    assert "--each-rule-off" in cli("compare", "--help").stdout


def test_the_per_deal_differences_add_up_to_the_scores():
    from tablerules.records import compare as cmp
    game = load_game("allfives", {})
    seats = game.definition.seat_count
    res = cmp.compare(cmp.Config("A", game, ["rules"] * seats),
                      cmp.Config("B", game, ["random"] * seats), games=6, seed=5)
    assert sum(res.deal_diffs.values()) == res.deals == 3
    assert sum(k * v for k, v in res.deal_diffs.items()) == res.ta.scored - res.tb.scored


def test_each_rule_off_on_workers_is_the_table_of_one_process():
    """Every rule's comparison runs on one pool of workers: the same table as one process."""
    def table(*extra):
        r = cli("compare", "allfives", "--each-rule-off", "--games", "4", "--seed", "1",
                "--no-progress", "-f", "json", *extra)
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)
    assert table("--workers", "2") == table()


def test_the_simulate_reports_summary_names_the_agents_and_the_dealer_as_the_text_does(tmp_path):
    """The text summary says who played (each seat's agent) and who dealt first; the report's
    summary table said neither, so two reports of the same ruleset could not be told apart."""
    path = tmp_path / "r.html"
    args = ("simulate", "texas42", "-n", "1", "--agents", "rules,random,rules,random",
            "--no-progress")
    r = cli(*args, "--report", str(path))
    assert r.exit_code == 0, r.stderr
    html = path.read_text(encoding="utf-8")
    lines = dict(ln.split(None, 1) for ln in r.stdout.splitlines()[:4])
    assert lines["agents"] == "rules (North), random (East), rules (South), random (West)"
    assert (f'<tr data-key="agents"><td class="name">agents</td><td class="value">'
            f'{lines["agents"]}</td></tr>') in html
    assert (f'<tr data-key="dealer"><td class="name">dealer</td><td class="value">'
            f'{lines["dealer"]}</td></tr>') in html


MINE = """\
name: bidslow
for: [texas42]
bid:
  - name: low_when_doubleless
    when: "count(t in hand if t.double) == 0"
    only: "a.kind == 'bid' and a.bid.contract == 'points'"
    choose: "-a.level"
"""


def test_each_rule_off_with_no_rule_to_switch_says_so_in_the_text_and_the_report(tmp_path):
    """A strategy whose rules are not the agent's parameters: nothing is run. The text said
    '0 games per rule, the same 0 deals' for --games 2, and the report an empty table, without
    the text's lines saying why."""
    (tmp_path / "mine.yaml").write_text(MINE, encoding="utf-8")
    path = tmp_path / "r.html"
    r = cli("compare", "texas42", "--each-rule-off", "--agents",
            f"rules:strategy={tmp_path / 'mine.yaml'}", "-n", "2", "--report", str(path))
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[1] == "seed      0   2 games per rule asked: no rule was run"
    assert "(the agent plays no rule that can be switched off)" in lines
    assert "(not a parameter of the rules agent, not run: low_when_doubleless)" in lines
    html = path.read_text(encoding="utf-8")
    assert "The agent plays no rule that can be switched off." in html
    assert "Not a parameter of the rules agent, not run: low_when_doubleless" in html


def test_where_a_side_can_lose_the_per_deal_difference_is_of_what_was_gained(tmp_path):
    """compare's text and verdict say what the sides above 0 gained where a side scored below 0
    (Taroky's chips); the report's per-deal difference was of what every side scored together,
    0 in every deal of a game whose chips one side pays another: a chart of one bar at 0."""
    path = tmp_path / "r.html"
    args = ("compare", "taroky", "--vs", "-o", "counting=czech", "-n", "3", "--seed", "1",
            "--no-progress", "-f", "json")
    r = cli(*args, "--report", str(path))
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    ga = d["a_stats"]["gained_per_hand"] * d["a_stats"]["hands"]
    gb = d["b_stats"]["gained_per_hand"] * d["b_stats"]["hands"]
    html = path.read_text(encoding="utf-8")
    assert "what A&#x27;s games gained (the sides above 0) less what B&#x27;s did" in html
    mean = float(re.search(r'<span id="mean-diff">([^<]+)</span>', html).group(1))
    assert mean != 0 and abs(mean - (ga - gb) / 3) < 0.01
    # each deal's difference of what was gained adds up to the tallies'
    from tablerules.records import compare as cmp
    game_a, game_b = load_game("taroky", {}), load_game("taroky", {"counting": "czech"})
    res = cmp.compare(cmp.Config("A", game_a, ["rules"] * 4), cmp.Config("B", game_b,
                                                                           ["rules"] * 4),
                      games=3, seed=1)
    assert sum(k * v for k, v in res.gained_diffs.items()) == res.ta.gained - res.tb.gained
    assert sum(res.gained_diffs.values()) == res.deals == 3
