"""A contract the seats' strategies never bid: simulate's summary lists it (0 hands) and says so,
as compare's summary and validate (a warning at a contract a house file adds) do. Whether a
strategy can bid a contract is read from its bid rules, not from its name."""

from __future__ import annotations

import json
from pathlib import Path

from support import cli

H8 = (Path(__file__).resolve().parents[1] / "fixtures" / "house-lowdoubles.yaml").read_text(
    encoding="utf-8")

# a strategy that bids the house contract when it holds no double (and nothing else)
BIDS_LOW = """\
name: bidslow
for: [texas42]
bid:
  - name: low_when_doubleless
    when: "count(t in hand if t.double) == 0"
    only: "a.kind == 'bid' and a.bid.contract == 'lowdoubles'"
    choose: "-a.level"
"""


def _h8(tmp_path) -> str:
    p = tmp_path / "h8.yaml"
    p.write_text(H8, encoding="utf-8")
    return str(p)


def test_the_summary_lists_a_contract_never_bid_and_says_why(tmp_path):
    h8 = _h8(tmp_path)
    r = cli("simulate", h8, "-n", "5", "--seed", "1")
    assert r.exit_code == 0, r.stderr
    rows = {ln.split()[0]: ln for ln in r.stdout.splitlines()[7:14] if ln.strip()}
    assert rows["lowdoubles"].split() == ["lowdoubles", "0", "0.0%", "not", "chosen", "by", "the",
                                          "agents"]
    assert rows["marks"].endswith("not chosen by the agents")  # fortytwo bids points, specials
    assert "not chosen" not in rows["points"] and "not chosen" not in rows["nello"]
    # what the agents bid in this run, not a fault of the ruleset (it said "never bid: ...")
    assert ("(not chosen by the agents: in this run every seat played the strategy fortytwo, "
            "which has no bid rule that chooses lowdoubles or marks; a hand is played in one only "
            "when a seat is forced to bid it)\n") in r.stdout
    s = json.loads(cli("simulate", h8, "-n", "5", "--seed", "1", "-f", "json").stdout)
    assert s["contracts"] == {"lowdoubles": 0, "marks": 0, **{
        k: v for k, v in s["contracts"].items() if k not in ("lowdoubles", "marks")}}
    assert set(s["contracts"]) == {"lowdoubles", "marks", "nello", "points", "sevens"}
    assert s["never_bid"] == {"contracts": ["lowdoubles", "marks"], "strategies": ["fortytwo"]}


def test_a_seat_that_may_bid_anything_leaves_no_contract_never_bid(tmp_path):
    h8 = _h8(tmp_path)
    s = json.loads(cli("simulate", h8, "-n", "3", "--agents", "rules,random,rules,random",
                       "-f", "json").stdout)
    assert s["never_bid"] == {"contracts": [], "strategies": []}
    assert "lowdoubles" in s["contracts"]  # listed all the same


def test_it_is_read_from_the_strategys_rules(tmp_path):
    h8 = _h8(tmp_path)
    (tmp_path / "bidslow.yaml").write_text(BIDS_LOW, encoding="utf-8")
    mine = f"rules:strategy={tmp_path / 'bidslow.yaml'}"
    s = json.loads(cli("simulate", h8, "-n", "3", "--agents", mine, "-f", "json").stdout)
    # its one bid rule names lowdoubles through the action's bid; nothing else is ever chosen
    assert s["never_bid"] == {"contracts": ["marks", "nello", "points", "sevens"],
                              "strategies": ["bidslow"]}
    # a rule switched off bids nothing: fortytwo without specials_when_held bids points alone
    s = json.loads(cli("simulate", "texas42", "-n", "2", "--agents",
                       "rules:specials_when_held=off", "-f", "json").stdout)
    assert s["never_bid"]["contracts"] == ["marks", "nello", "sevens"]


def test_no_auction_no_note():
    s = json.loads(cli("simulate", "allfives", "-n", "2", "-f", "json").stdout)
    assert s["contracts"] == {"layout": s["hands"]}
    assert s["never_bid"] == {"contracts": [], "strategies": []}


def test_compare_says_which_side_never_bids_it(tmp_path):
    h8 = _h8(tmp_path)
    r = cli("compare", "texas42", "--vs", h8, "--games", "2", "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert ("(not chosen by the agents: in this run the seats of B played the strategy "
            "fortytwo, which has no bid rule that chooses lowdoubles or marks;") in r.stdout
    d = json.loads(cli("compare", "texas42", "--vs", h8, "--games", "2", "-f", "json").stdout)
    assert d["a_stats"]["never_bid"]["contracts"] == ["marks"]
    assert d["b_stats"]["never_bid"]["contracts"] == ["lowdoubles", "marks"]


def test_validate_warns_at_a_contract_the_inherited_strategy_never_bids(tmp_path):
    h8 = _h8(tmp_path)
    r = cli("validate", h8, "--hands", "5")
    assert r.exit_code == 0 and ": ok (h8-lowbid" in r.stdout
    assert r.stderr.startswith(f"{h8}:5:3: warning: the strategy fortytwo (simulate.strategy, "
                               "from rulesets/texas42.yaml) never bids contract 'lowdoubles'")
    assert r.stderr.count("warning:") == 1  # marks is the base's, not this file's
    d = json.loads(cli("validate", h8, "--hands", "0", "-f", "json").stdout)
    assert d["ok"] and [x["severity"] for x in d["files"][0]["diagnostics"]] == ["warning"]
    # a file that names its own strategy chose it: no warning
    p = tmp_path / "own.yaml"
    p.write_text(H8 + "simulate:\n  strategy: fortytwo\n", encoding="utf-8")
    r = cli("validate", str(p), "--hands", "0")
    assert r.exit_code == 0 and r.stderr == ""


def test_compare_lists_every_contract_as_simulate_does(tmp_path):
    """simulate's contract table lists every contract, 0 hands included; compare's bid tables
    list them too (they listed only the contracts a hand was played in, under a note naming
    one they did not list)."""
    h8 = _h8(tmp_path)
    r = cli("compare", "texas42", "--vs", h8, "--games", "2", "--seed", "1", "--no-progress")
    assert r.exit_code == 0, r.stderr
    a, b = r.stdout.split("\nB: ")
    rows = {side: {ln.split()[1]: ln.split()[2:] for ln in text.splitlines()
                   if ln.strip().startswith("contract ")} for side, text in (("A", a), ("B", b))}
    assert set(rows["A"]) == {"marks", "nello", "points", "sevens"}
    assert set(rows["B"]) == {"lowdoubles", "marks", "nello", "points", "sevens"}
    assert rows["A"]["marks"] == ["0", "0", "-", "-", "-", "not", "chosen", "by", "the", "agents"]
    assert rows["B"]["lowdoubles"][-5:] == ["not", "chosen", "by", "the", "agents"]
    assert "not" not in rows["A"]["points"]
    d = json.loads(cli("compare", "texas42", "--vs", h8, "--games", "2", "--seed", "1",
                       "-f", "json").stdout)
    assert list(d["b_stats"]["make_rate_by_contract"]) == ["lowdoubles", "marks", "nello",
                                                           "points", "sevens"]
    assert d["b_stats"]["make_rate_by_contract"]["lowdoubles"] == {
        "made": 0, "hands": 0, "rate": None, "ci": None, "set_rate": None}
    for st in (d["a_stats"], d["b_stats"]):  # the rows still add up to every bid
        assert sum(v["hands"] for v in st["make_rate_by_contract"].values()) \
            == st["make_rate"]["hands"]
    # agents that may bid anything: every contract listed, none said never bid
    r = cli("compare", "texas42", "--agents", "random", "--vs", "-o", "min_bid=31", "--games",
            "1", "--no-progress")
    listed = [ln.split()[1] for ln in r.stdout.splitlines() if ln.strip().startswith("contract ")]
    assert listed == ["marks", "nello", "points", "sevens"] * 2 and "not chosen" not in r.stdout


def test_compare_of_a_game_without_an_auction_says_so():
    r = cli("compare", "allfives", "--vs", "-o", "target=150", "--games", "1", "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.count("   no auction: every hand is played without a bid\n") == 2
    assert "won in an auction" not in r.stdout
    d = json.loads(cli("compare", "allfives", "--vs", "-o", "target=150", "--games", "1",
                       "-f", "json").stdout)
    assert d["a_stats"]["make_rate_by_contract"] == {}


def test_the_compare_report_says_what_the_text_says_of_a_contract_never_bid(tmp_path):
    """compare's text says under A's and B's bids which contracts their agents never bid; its
    HTML report said nothing of it (simulate's report says it)."""
    h8 = _h8(tmp_path)
    path = tmp_path / "r.html"
    r = cli("compare", "texas42", "--vs", h8, "--games", "1", "--no-progress", "--report",
            str(path))
    assert r.exit_code == 0, r.stderr
    html = path.read_text(encoding="utf-8")
    assert ('<p id="never-bid-a"><small>not chosen by the agents of A: marks (in this run the '
            "seats of A played the strategy fortytwo, which has no bid rule that chooses marks; a "
            "hand is played in it only when a seat is forced to bid it)</small></p>") in html
    assert '<p id="never-bid-b"><small>not chosen by the agents of B: lowdoubles, marks (' in html
    r = cli("compare", "texas42", "--agents", "random", "--vs", "-o", "min_bid=31", "--games",
            "1", "--no-progress", "--report", str(path))
    assert "never-bid" not in path.read_text(encoding="utf-8")

SOLO = """\
name: solo
title: Taroky with the povinnost's solo
extends: taroky
contracts:
  solo:
    like: prever
    title: Solo, the povinnost alone without the talon
    bid:
      levels: "[1]"
      rank: 2
      label: "'solo'"
      requires: "seat == turn"
    exchange: null
"""


def test_validate_warns_at_a_contract_no_seat_could_ever_bid(tmp_path):
    # a Taroky club's solo for the povinnost: but the povinnost speaks last, where it is forced
    # to bid game or may not beat a prever, so no seat may ever bid it. validate said only that
    # the strategy never bids it, and suggested giving the agents another strategy
    p = tmp_path / "solo.yaml"
    p.write_text(SOLO, encoding="utf-8")
    r = cli("validate", str(p), "--hands", "40")
    assert r.exit_code == 0 and ": ok (solo, 40 seeded hands" in r.stdout, r.output
    assert r.stderr.startswith(
        f"{p}:5:3: warning: contract 'solo' was never a legal bid in the 40 seeded hands played "
        "(by rules and cautious): no hand is played in it (its bid.requires, auction.beats, "
        "auction.forced and auction.all_pass left no seat a bid of it)"), r.stderr
    assert r.stderr.count("warning:") == 1 and "never bids" not in r.stderr
    # a contract some seat may bid is not said so: the prever's copy open to every other seat
    p.write_text(SOLO.replace("seat == turn", "seat != turn"), encoding="utf-8")
    r = cli("validate", str(p), "--hands", "40")
    assert r.exit_code == 0 and "never a legal bid" not in r.stderr, r.stderr


def test_taroky_says_what_its_agents_bid_in_the_run_not_a_fault():
    """simulate taroky marked game, the contract of every hand it played, 'never bid by the
    agents' and noted '(never bid: ...)', which read as a warning about the shipped game: it says
    the agents did not choose it in this run and why, every hand in it forced."""
    r = cli("simulate", "taroky", "-n", "2", "--seed", "1", "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert "never bid" not in r.stdout
    row = next(ln for ln in r.stdout.splitlines() if ln.startswith("game "))
    assert row.endswith("100.0%   not chosen by the agents"), row
    assert ("(not chosen by the agents: in this run every seat played the strategy taroky, which "
            "has no bid rule that chooses game; a hand is played in it only when a seat is forced "
            "to bid it)\n") in r.stdout
    assert "game (forced)" in r.stdout  # the bid table: every hand's bid was forced
