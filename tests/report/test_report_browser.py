"""The reports opened from disk in a headless chromium: the charts are SVG in the page, the
tables say what the JSON of the same run says, the intervals are shown; screenshots saved."""

from __future__ import annotations

import json

from selenium.webdriver.common.by import By

from tablerules.records.runner import wilson

from browser import browser, open_page, screenshot  # noqa: F401 (browser: a fixture)
from support import cli


def _pct(v: dict) -> str:
    """A rate as the report prints it: from its counts, rounded once ("-" of 0 hands: a
    contract never bid)."""
    return f"{v['made'] / v['hands']:.1%}" if v["hands"] else "-"


def _ci(v: dict) -> str:
    if not v["hands"]:
        return "-"
    lo, hi = wilson(v["made"], v["hands"])
    return f"{lo:.1%} to {hi:.1%}"


READ = """
const tables = {}, charts = {};
for (const t of document.querySelectorAll('table')) {
  tables[t.id] = [...t.querySelectorAll('tbody tr')].map(tr => [tr.dataset.key,
    Object.fromEntries([...tr.querySelectorAll('td')].map(td => [td.className, td.innerText]))]);
}
for (const s of document.querySelectorAll('svg.chart')) {
  const r = s.getBoundingClientRect();
  charts[s.dataset.chart] = {width: r.width, height: r.height,
    drawn: s.querySelectorAll('path, use').length,
    texts: [...s.querySelectorAll('text')].map(t => t.textContent.split(/\\s+/).join(' ').trim())};
}
return {tables, charts};
"""


def _read(d) -> tuple[dict, dict]:
    """Every table (id -> [(row key, {cell class: text})]) and chart (name -> size, texts), in
    one call to the browser."""
    got = d.execute_script(READ)
    return {k: [(key, cells) for key, cells in v] for k, v in got["tables"].items()}, got["charts"]


def _whole_page(d) -> None:
    """A window as tall as the page (the window's frame takes some of it), so one screenshot
    shows the whole report."""
    h = d.execute_script("return document.documentElement.scrollHeight")
    d.set_window_size(1280, min(h + 200, 4000))


def test_the_simulate_report_in_a_browser(browser, tmp_path):
    path = tmp_path / "simulate.html"
    r = cli("simulate", "texas42", "-n", "12", "--seed", "2", "--no-progress", "--format", "json",
            "--report", str(path))
    assert r.exit_code == 0, r.stderr
    s = json.loads(r.stdout)  # the same run's summary
    d = open_page(browser, path)
    assert d.title == "simulate texas42"
    tables, charts = _read(d)
    assert set(charts) == {"make-by-bid", "make-by-contract", "bidder-points", "side-scored",
                           "match-length", "wins-by-side"}
    for c in charts.values():  # drawn, not empty
        assert c["width"] > 300 and c["height"] > 80 and c["drawn"]
    over = {k: c["value"] for k, c in tables["overview"]}
    assert over["games"] == str(s["games"]) and over["hands"] == str(s["hands"])
    assert over["avg_scored_per_hand"] == f"{s['avg_scored_per_hand']:.3f}"
    rows = tables["make-rate-by-bid"]
    want = {**s["make_rate_by_bid"], "every bid": s["make_rate"]}
    assert [k for k, _c in rows] == list(want)
    labels = charts["make-by-bid"]["texts"]
    for key, c in rows:
        v = want[key]
        assert (c["hands"], c["made"]) == (str(v["hands"]), str(v["made"]))
        assert c["rate"] == _pct(v) and c["ci"] == _ci(v)
        assert f"{_pct(v)} (n={v['hands']:,})" in labels  # the chart's row, with its n
        assert key in labels  # and its name on the axis
    assert {k: (c["rate"], c["ci"]) for k, c in tables["make-rate-by-contract"]} == {
        k: (_pct(v), _ci(v)) for k, v in s["make_rate_by_contract"].items()}
    wins = dict(tables["wins"])
    assert {k: c["wins"] for k, c in wins.items()} == {k: str(v) for k, v in
                                                       s["wins_by_side"].items()}
    assert all(" to " in c["ci"] for c in wins.values())  # each side's interval shown
    assert "even" in charts["wins-by-side"]["texts"]
    _whole_page(d)
    assert screenshot(d, "report-simulate").stat().st_size > 10_000


def test_the_compare_report_in_a_browser(browser, tmp_path):
    path = tmp_path / "compare.html"
    r = cli("compare", "texas42", "--vs", "--agents", "random", "-n", "10", "--no-progress",
            "--format", "json", "--report", str(path))
    assert r.exit_code == 0, r.stderr
    c = json.loads(r.stdout)
    d = open_page(browser, path)
    assert d.find_element(By.ID, "verdict").text == c["verdict"]
    tables, charts = _read(d)
    assert set(charts) == {"a-win-rate", "make-rates", "deal-diffs"}
    assert all(ch["drawn"] for ch in charts.values())
    [(_k, res)] = tables["result"]
    want = c["result"]
    assert (res["a_wins"], res["b_wins"], res["draws"]) == tuple(
        str(want[k]) for k in ("a_wins", "b_wins", "draws"))
    score = {"made": want["a_wins"] + want["draws"] / 2, "hands": c["games"]}
    assert res["rate"] == _pct(score) and res["ci"] == _ci(score)
    assert f"{_pct(score)} (n={c['games']})" in charts["a-win-rate"]["texts"]
    stats = dict(tables["stats"])
    for k, st in (("A", c["a_stats"]), ("B", c["b_stats"])):
        assert stats[k]["scored"] == f"{st['scored_per_hand']:.3f}"
        assert stats[k]["ci"] == _ci(st["make_rate"])
    assert d.find_element(By.ID, "mean-diff").text.startswith(("+", "-"))
    _whole_page(d)
    assert screenshot(d, "report-compare").stat().st_size > 10_000
