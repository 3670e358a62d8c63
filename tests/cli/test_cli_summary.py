"""Simulate's summary: make and set rates with 95% Wilson intervals, and who dealt first."""

from __future__ import annotations

import json

from tablerules.records.runner import wilson

from support import cli


def _seat0(tmp_path) -> str:
    p = tmp_path / "seat0.yaml"
    p.write_text("name: seat0\nextends: texas42\ndeal:\n  first_dealer: 0\n", encoding="utf-8")
    return str(p)


def test_make_rates_carry_intervals():
    r = cli("simulate", "texas42", "--games", "5", "--seed", "3", "--format", "json")
    assert r.exit_code == 0, r.stderr
    s = json.loads(r.stdout)
    rows = [s["make_rate"], *s["make_rate_by_bid"].values(), *s["make_rate_by_contract"].values()]
    for v in rows:
        lo, hi = wilson(v["made"], v["hands"])
        assert v["ci"] == [round(lo, 4), round(hi, 4)]
    assert sum(v["hands"] for v in s["make_rate_by_contract"].values()) == s["make_rate"]["hands"]


def test_the_text_summary_shows_intervals_and_set_rates():
    r = cli("simulate", "texas42", "--games", "5", "--seed", "3")
    lines = r.stdout.splitlines()
    head = next(ln for ln in lines if ln.startswith("bid "))
    assert head.split() == ["bid", "hands", "made", "rate", "95%", "CI", "set"]
    every = next(ln for ln in lines if ln.startswith("every bid"))
    s = json.loads(cli("simulate", "texas42", "--games", "5", "--seed", "3", "-f", "json").stdout)
    m = s["make_rate"]
    assert f"{m['ci'][0]:.1%} to {m['ci'][1]:.1%}" in every and f"{1 - m['rate']:.1%}" in every
    assert "95% Wilson intervals" in r.stdout


def test_the_summary_says_how_the_first_dealer_was_chosen(tmp_path):
    f = _seat0(tmp_path)
    r = cli("simulate", f, "--games", "2")
    assert r.exit_code == 0, r.stderr
    assert "dealer    seat 0 deals first (deal.first_dealer)" in r.stdout
    assert json.loads(cli("simulate", f, "--games", "2", "-f", "json").stdout)[
        "first_dealer"] == 0
    r = cli("simulate", "texas42", "--games", "2")  # the shipped rulesets draw by lot
    assert "dealer    first dealer drawn by lot each match (deal.first_dealer: lot)" in r.stdout
    assert json.loads(cli("simulate", "texas42", "--games", "2", "-f", "json").stdout)[
        "first_dealer"] == "lot"


def test_same_seed_same_summary():
    args = ("simulate", "moon", "--games", "4", "--seed", "8", "--format", "json")
    assert cli(*args).stdout == cli(*args).stdout


def test_the_bids_table_is_aligned_to_its_longest_label():
    # texas42-forced forces Sevens when every seat passes: "sevens 1 (forced)" is 17 wide
    r = cli("simulate", "texas42-forced", "--games", "10", "--seed", "0")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    head = lines.index(next(ln for ln in lines if ln.startswith("bid ")))
    end = lines.index(next(ln for ln in lines if ln.startswith("every bid")))
    rows = lines[head + 1:end + 1]
    assert any(ln.startswith("sevens 1 (forced) ") for ln in rows)
    at = lines[head].index("hands") + len("hands")  # every count ends under its heading
    for ln in rows:
        label = ln[:at - 6].rstrip()
        assert ln[at - 6:at].strip().isdigit(), (label, ln)
        assert ln[at - 6] == " " and len(label) < at - 6, ln
