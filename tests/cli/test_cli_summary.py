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
        ci = wilson(v["made"], v["hands"])  # None for a contract never bid
        assert v["ci"] == (ci and [round(ci[0], 4), round(ci[1], 4)])
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
    assert "dealer    North deals first (deal.first_dealer)" in r.stdout
    assert json.loads(cli("simulate", f, "--games", "2", "-f", "json").stdout)[
        "first_dealer"] == 0
    r = cli("simulate", "texas42", "--games", "2")  # the shipped rulesets draw by lot
    assert "dealer    first dealer drawn by lot each match (deal.first_dealer: lot)" in r.stdout
    assert json.loads(cli("simulate", "texas42", "--games", "2", "-f", "json").stdout)[
        "first_dealer"] == "lot"


def test_same_seed_same_summary():
    args = ("simulate", "moon", "--games", "4", "--seed", "8", "--format", "json")
    assert cli(*args).stdout == cli(*args).stdout


def test_sides_and_seats_are_called_what_the_ruleset_calls_them():
    """simulate's wins table, its dealer and agents lines and its chips table name each side and
    seat as replay does (North-South, North), not by number (they said 0 and 1); the JSON keeps
    its keys by number and gives the names beside them (side_names, seat_names)."""
    r = cli("simulate", "texas42", "--games", "3", "--agents", "rules,random,rules,random")
    s = json.loads(cli("simulate", "texas42", "--games", "3", "--agents",
                       "rules,random,rules,random", "-f", "json").stdout)
    assert s["side_names"] == ["North-South", "East-West"]
    assert s["seat_names"] == ["North", "East", "South", "West"]
    assert list(s["wins_by_side"]) == list(s["win_rate_by_side"]) == ["0", "1"]
    lines = r.stdout.splitlines()
    assert lines[1] == "agents    rules (North), random (East), rules (South), random (West)"
    at = lines.index("side         wins    rate")
    assert lines[at + 1:at + 3] == [
        f"North-South {s['wins_by_side']['0']:>5}  {s['win_rate_by_side']['0']:>6.1%}",
        f"East-West   {s['wins_by_side']['1']:>5}  {s['win_rate_by_side']['1']:>6.1%}"]
    chips = cli("simulate", "taroky", "--games", "1", "-o", "hands=1").stdout.splitlines()
    at = chips.index("seat    chips at the end: mean      min     max   below 0")
    assert [ln.split()[0] for ln in chips[at + 1:at + 5]] == ["North", "East", "South", "West"]


def test_compare_names_each_games_sides(tmp_path):
    """compare of two games, each on its own: each one's wins by its own sides' names, and the
    JSON gives them (a.side_names, b.side_names) beside the wins keyed by number. (B deals as A
    does, with its seats named otherwise: compare refuses games that cannot share deals.)"""
    b = tmp_path / "names.yaml"
    b.write_text("name: names\ntitle: t\nextends: texas42\nseats:\n  names: [Ann, Bob, Cy, Di]\n",
                 encoding="utf-8")
    r = cli("compare", "texas42", "--vs", str(b), "-n", "2", "--no-progress")
    assert r.exit_code == 0, r.output
    j = json.loads(cli("compare", "texas42", "--vs", str(b), "-n", "2", "-f", "json").stdout)
    assert j["a"]["side_names"] == ["North-South", "East-West"]
    assert j["b"]["side_names"] == ["Ann-Cy", "Bob-Di"]
    assert list(j["wins_by_side"]["B"]) == ["0", "1"]
    w = j["wins_by_side"]
    assert f"  A: North-South {w['A']['0']}, East-West {w['A']['1']}\n" in r.stdout
    assert f"  B: Ann-Cy {w['B']['0']}, Bob-Di {w['B']['1']}\n" in r.stdout


def test_merge_names_the_sides_as_simulate_does(tmp_path):
    shards = []
    for k in (1, 2):
        shards.append(str(tmp_path / f"s{k}.jsonl"))
        assert cli("simulate", "texas42", "-n", "2", "--shard", f"{k}/2", "-r",
                   shards[-1]).exit_code == 0
    r = cli("merge", str(tmp_path / "all.jsonl"), *shards)
    assert r.exit_code == 0, r.output
    assert "\nNorth-South " in r.stdout and "\nEast-West " in r.stdout


def test_a_score_that_can_be_below_0_is_said_as_gained_and_lost():
    """Where a side's hand score can be below 0 (chips a seat pays), the sum of all sides is
    about 0 and says little: the summary says what the sides above 0 gained (and the JSON
    avg_gained_per_hand); where none can (points), the line and the JSON are as they were."""
    s = json.loads(cli("simulate", "taroky", "--games", "2", "-f", "json").stdout)
    assert s["avg_gained_per_hand"] > 0
    lost = s["avg_gained_per_hand"] - s["avg_scored_per_hand"]
    out = cli("simulate", "taroky", "--games", "2").stdout
    assert (f"scored    {s['avg_gained_per_hand']:.3f} per hand played gained by the sides that "
            f"scored above 0, {lost:.3f} lost by the others\n") in out
    t = json.loads(cli("simulate", "texas42", "--games", "2", "-f", "json").stdout)
    assert "avg_gained_per_hand" not in t
    assert (f"scored    {t['avg_scored_per_hand']:.3f} per hand played, all sides together; "
            f"{t['avg_scored_per_hand_per_side']:.3f} per hand per side\n"
            in cli("simulate", "texas42", "--games", "2").stdout)


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


def test_compare_names_the_seat_of_each_agent_as_simulate_does(tmp_path):
    """compare's A and B lines say each seat's agent as simulate's agents line does (they gave a
    bare list, `rules,random,rules,random`, and the HTML report's table only the agents, once
    each: `rules,random`, which reads as if A were the two of them on every seat)."""
    path = tmp_path / "r.html"
    r = cli("compare", "texas42", "--agents", "rules,random,rules,random", "--vs", "--agents",
            "random", "-n", "2", "--no-progress", "--report", str(path))
    assert r.exit_code == 0, r.stderr
    per_seat = "rules (North), random (East), rules (South), random (West)"
    lines = r.stdout.splitlines()
    assert lines[0] == f"A         texas42   agents {per_seat}"
    assert lines[1] == "B         texas42   agents random on every seat"
    sim = cli("simulate", "texas42", "--agents", "rules,random,rules,random", "-n", "1")
    assert f"agents    {per_seat}\n" in sim.stdout
    html = path.read_text(encoding="utf-8")
    assert f'<td class="tagents">{per_seat}</td>' in html
    assert '<td class="tagents">random on every seat</td>' in html
    j = json.loads(cli("compare", "texas42", "--agents", "rules,random,rules,random", "--vs",
                       "--agents", "random", "-n", "2", "-f", "json").stdout)
    assert j["a"]["seat_names"] == j["b"]["seat_names"] == ["North", "East", "South", "West"]


def test_compare_of_games_where_a_side_can_lose_says_gained_and_lost():
    """compare of two games played each on its own said 'scored 0.000 per hand per side' and
    'A scores 0.000 per hand, B 0.000' for Taroky, whose chips one side gains as another loses
    them: true of any such game, so nothing compared. Where a side of A's or B's game scored
    below 0 it says what the sides above 0 gained per hand and what the others lost, as
    simulate says it, and the verdict compares what was gained."""
    args = ("compare", "taroky", "--vs", "-o", "counting=czech", "-n", "2", "--seed", "1",
            "--no-progress")
    d = json.loads(cli(*args, "-f", "json").stdout)
    out = cli(*args).stdout
    for k in ("a", "b"):
        st = d[f"{k}_stats"]
        assert st["gained_per_hand"] > 0 and st["lost_per_hand"] == st["gained_per_hand"]
        assert (f"{k.upper()}: {st['hands']} hands played, scored {st['gained_per_hand']:.3f} "
                "per hand gained by the sides that scored above 0, "
                f"{st['lost_per_hand']:.3f} lost by the others\n") in out
    assert d["verdict"].startswith(f"A's sides above 0 gain {d['a_stats']['gained_per_hand']:.3f}"
                                   f" per hand, B's {d['b_stats']['gained_per_hand']:.3f}; ")
    assert "0.000" not in out
    # one game that can lose (a set comes off the bidder) against one that cannot: both said so
    m = json.loads(cli("compare", "moon", "--vs", "-o", "set_scores=opponents_gain", "-n", "2",
                       "--seed", "1", "-f", "json").stdout)
    assert m["a_stats"]["lost_per_hand"] > 0 and m["b_stats"]["lost_per_hand"] == 0
    assert abs(m["b_stats"]["gained_per_hand"] - m["b_stats"]["scored_per_hand"] * 3) < 1e-3
    # where no side can score below 0, and at one table (A's side against B's), as it was
    t = json.loads(cli("compare", "texas42", "--vs", "-o", "min_bid=31", "-n", "1",
                       "-f", "json").stdout)
    assert "gained_per_hand" not in t["a_stats"] and t["verdict"].startswith("A scores ")
    x = json.loads(cli("compare", "taroky", "--vs", "--agents", "random", "-n", "4",
                       "-f", "json").stdout)
    assert "gained_per_hand" not in x["a_stats"]


def test_the_compare_report_says_gained_and_lost_as_the_text_does(tmp_path):
    path = tmp_path / "r.html"
    r = cli("compare", "taroky", "--vs", "-o", "counting=czech", "-n", "1", "--seed", "1",
            "--no-progress", "--report", str(path), "-f", "json")
    assert r.exit_code == 0, r.stderr
    st = json.loads(r.stdout)["a_stats"]
    html = path.read_text(encoding="utf-8")
    assert "gained per hand (the sides above 0)" in html and "scored per hand" not in html
    assert (f'<td class="gained">{st["gained_per_hand"]:.3f}</td>'
            f'<td class="lost">{st["lost_per_hand"]:.3f}</td>') in html


def test_wins_that_add_up_to_more_than_the_games_say_why(tmp_path):
    """Taroky's winners are the sides with the most chips, a tie at the top making several: the
    wins of 30 matches added up to 32 (rates to 106.7%) with nothing said. The summary, its
    report and compare's wins by side say what the extra wins are."""
    path = tmp_path / "r.html"
    r = cli("simulate", "taroky", "-n", "30", "--seed", "2", "--report", str(path))
    assert r.exit_code == 0, r.stderr
    note = ("(the wins add up to 32 in 30 matches: a match tied at the top counts a win for each "
            "side in the tie)")
    assert f"\n{note}\n" in r.stdout
    assert note in path.read_text(encoding="utf-8")
    d = json.loads(cli("compare", "taroky", "--vs", "-o", "counting=czech", "-n", "4", "--seed",
                       "1", "-f", "json").stdout)
    total = {k: sum(w.values()) for k, w in d["wins_by_side"].items()}
    assert total["A"] > 4  # a tie in A's games
    out = cli("compare", "taroky", "--vs", "-o", "counting=czech", "-n", "4", "--seed", "1").stdout
    assert (f"(A's wins add up to {total['A']} in 4 matches: a match tied at the top counts a win "
            "for each side in the tie)") in out
    assert "B's wins add up" not in out or total["B"] > 4
    r = cli("compare", "taroky", "--vs", "-o", "counting=czech", "-n", "4", "--seed", "1",
            "--report", str(path))
    assert f"A&#x27;s wins add up to {total['A']} in 4 matches" in path.read_text(encoding="utf-8")
    plain = cli("simulate", "texas42", "-n", "3").stdout  # no tie: nothing said
    assert "add up to" not in plain


def test_the_json_lists_every_contract_that_may_be_bid_as_compare_does():
    """simulate's make_rate_by_contract has a row for each contract that may be bid, 0 hands
    for one no hand was bid in, as compare's a_stats and b_stats have them."""
    s = json.loads(cli("simulate", "texas42", "--games", "2", "--seed", "3", "-f", "json",
                       "--no-progress").stdout)
    c = json.loads(cli("compare", "texas42", "--vs", "-o", "min_bid=31", "--games", "1",
                       "--seed", "3", "-f", "json", "--no-progress").stdout)
    by = s["make_rate_by_contract"]
    assert list(by) == list(c["a_stats"]["make_rate_by_contract"]) == list(s["contracts"]) \
        == ["marks", "nello", "points", "sevens"]
    never = [k for k, n in s["contracts"].items() if not n]
    assert never  # 2 games: some contract was never bid
    for k in never:
        assert by[k] == {"made": 0, "hands": 0, "rate": None, "ci": None}
    # a game without an auction has no bid, so no row
    d = json.loads(cli("simulate", "allfives", "--games", "1", "-f", "json",
                       "--no-progress").stdout)
    assert d["make_rate_by_contract"] == {}


def test_the_score_is_said_all_sides_together_and_per_side():
    """simulate's score is every side's together; compare gives each one's per side: simulate
    says both, so a reader sets like beside like (avg_scored_per_hand_per_side in the JSON)."""
    s = json.loads(cli("simulate", "texas42", "--games", "3", "--seed", "2", "-f", "json",
                       "--no-progress").stdout)
    assert s["avg_scored_per_hand_per_side"] == round(s["avg_scored_per_hand"] / 2, 4)
    text = cli("simulate", "texas42", "--games", "3", "--seed", "2", "--no-progress").stdout
    assert (f"scored    {s['avg_scored_per_hand']:.3f} per hand played, all sides together; "
            f"{s['avg_scored_per_hand_per_side']:.3f} per hand per side") in text.splitlines()


def test_first_dealer_sets_who_deals_first_and_the_record_replays_it(tmp_path):
    """simulate --first-dealer deals each match's first hand from that seat, as compare deals
    its deal d (seat d mod seats), so a compare game plays alone; the record's header says it,
    replay and merge keep it."""
    rec = tmp_path / "east.jsonl"
    r = cli("simulate", "texas42", "-n", "2", "--first-dealer", "East", "-r", str(rec),
            "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert "dealer    East deals first (--first-dealer)" in r.stdout.splitlines()
    lines = [json.loads(ln) for ln in rec.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["first_dealer"] == 1
    assert [ln["dealer"] for ln in lines if ln["type"] == "hand" and ln["hand"] == 1] == [1, 1]
    assert cli("replay", "-q", str(rec)).exit_code == 0
    j = json.loads(cli("simulate", "texas42", "-n", "2", "--first-dealer", "1", "-f", "json",
                       "--no-progress").stdout)
    assert (j["first_dealer"], j["first_dealer_by"]) == (1, "--first-dealer")
    shards = []
    for k in (1, 2):  # a run's shards merge into its record
        shards.append(str(tmp_path / f"s{k}.jsonl"))
        assert cli("simulate", "texas42", "-n", "2", "--first-dealer", "East", "--shard",
                   f"{k}/2", "-r", shards[-1], "--no-progress").exit_code == 0
    m = cli("merge", str(tmp_path / "all.jsonl"), *shards)
    assert m.exit_code == 0, m.output
    assert (tmp_path / "all.jsonl").read_bytes() == rec.read_bytes()
    assert "dealer    East deals first (--first-dealer)" in m.stdout.splitlines()
    bad = cli("simulate", "texas42", "-n", "1", "--first-dealer", "Eats")
    assert bad.exit_code == 2 and "no seat 'Eats' in texas42" in bad.stderr
    batch = cli("simulate", "texas42", "-n", "1", "--first-dealer", "1", "--engine", "batch")
    assert batch.exit_code == 2
    assert batch.stderr == ("error: --engine batch deals first as the ruleset says: leave out "
                            "--first-dealer\n")
