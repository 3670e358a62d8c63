"""A rate printed to one decimal is its count's rate rounded once: made over hands, its set rate
and its Wilson interval, not the JSON's figure (rounded to four places) rounded again. Rounded
twice, 27 of 38 bids made (71.05%) printed as 71.0% made and 28.9% set, which do not add up to
100%, and the same interval was 92.8% in one line of compare's report and 92.9 in its verdict."""

from __future__ import annotations

import re

from tablerules.records.runner import wilson

from support import cli

ROW = re.compile(r"^\s*(?P<label>.+?)\s+(?P<hands>\d+)\s+(?P<made>\d+)\s+(?P<rate>\d+\.\d%)\s+"
                 r"(?P<lo>\d+\.\d%) to (?P<hi>\d+\.\d%)\s+(?P<set>\d+\.\d%)(\s.*)?$")


def _rows(text: str) -> list[dict]:
    return [m.groupdict() for ln in text.splitlines() if (m := ROW.match(ln))]


def _check(rows: list[dict]) -> None:
    assert rows
    for r in rows:
        made, n = int(r["made"]), int(r["hands"])
        lo, hi = wilson(made, n)
        assert (r["rate"], r["set"], r["lo"], r["hi"]) == (
            f"{made / n:.1%}", f"{(n - made) / n:.1%}", f"{lo:.1%}", f"{hi:.1%}"), r


def test_simulate_prints_each_rate_rounded_once():
    r = cli("simulate", "moon", "-n", "6", "--seed", "1", "--no-progress")
    assert r.exit_code == 0, r.stderr
    rows = _rows(r.stdout)
    _check(rows)
    # the row that was 71.0% made and 28.9% set
    assert any((x["made"], x["hands"]) == ("27", "38") for x in rows)


def test_compare_prints_each_rate_rounded_once():
    r = cli("compare", "moon", "--vs", "-o", "made_scores=tricks", "-n", "6", "--seed", "2",
            "--no-progress")
    assert r.exit_code == 0, r.stderr
    rows = _rows(r.stdout)
    _check(rows)
    assert any((x["made"], x["hands"]) == ("25", "31") for x in rows)  # was 80.7% and 19.4%
    m = re.search(r"A makes (\S+) of its bids \(95% CI (\S+) to (\S+)\), B (\S+) \((\S+) to (\S+)\)",
                  r.stdout)
    every = [x for x in rows if x["label"] == "every bid"]
    assert m.groups() == tuple(every[0][k] for k in ("rate", "lo", "hi")) + tuple(
        every[1][k] for k in ("rate", "lo", "hi"))


def test_compares_result_line_and_verdict_give_one_interval(tmp_path):
    args = ("compare", "taroky", "--agents", "rules", "--vs", "--agents", "random", "-n", "8",
            "--seed", "1", "--no-progress")
    r = cli(*args)
    assert r.exit_code == 0, r.stderr
    wins = re.search(r"A wins (\d+), B wins (\d+), draws (\d+); A's win rate (\S+) \(95% CI (\S+) "
                     r"to (\S+);", r.stdout)
    a, b, d = (int(x) for x in wins.groups()[:3])
    lo, hi = wilson(a + d / 2, a + b + d)
    assert wins.groups()[3:] == (f"{(a + d / 2) / (a + b + d):.1%}", f"{lo:.1%}", f"{hi:.1%}")
    verdict = r.stdout.splitlines()[-1]
    assert verdict == (f"A wins {100 * (a + d / 2) / (a + b + d):.1f}% of games, 95% CI "
                       f"{100 * lo:.1f} to {100 * hi:.1f}, over {a + b + d} paired games "
                       "(even is 25.0%: A's agents hold one of 4 sides)")
    # the report's table says it as the text does
    path = tmp_path / "r.html"
    assert cli(*args, "--report", str(path)).exit_code == 0
    html = path.read_text(encoding="utf-8")
    assert f'<td class="ci">{lo:.1%} to {hi:.1%}</td>' in html


def test_the_simulate_report_rounds_once_too(tmp_path):
    path = tmp_path / "r.html"
    r = cli("simulate", "moon", "-n", "6", "--seed", "1", "--no-progress", "--report", str(path))
    assert r.exit_code == 0, r.stderr
    html = path.read_text(encoding="utf-8")
    row = re.search(r'<tr data-key="5">(.*?)</tr>', html).group(1)
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", row)
    lo, hi = wilson(27, 38)
    assert cells == ["5", "38", "27", f"{27 / 38:.1%}", f"{lo:.1%} to {hi:.1%}",
                     f"{11 / 38:.1%}"]
